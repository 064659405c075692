//! Properties of the engine over random games: random legal play ends; every action
//! `legal_actions()` lists is accepted; every refused action (garbage included) changes nothing;
//! cubes, shares and locomotives are conserved; cash moves only by bids paid and dividends.

use proptest::prelude::*;

use irish_gauge::board::MAJOR_CITIES;
use irish_gauge::build::is_connected;
use irish_gauge::game::BuildOption;
use irish_gauge::playout::{play_out, random_action, random_draw};
use irish_gauge::{
    Action, Actor, Board, Colour, CubeCounts, Event, Game, HexId, LegalActions, PlayError, Railway,
    Rule, Setup,
};

/// A small xorshift chooser: `pick(n)` returns a number below `n`.
fn xorshift(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed.max(1);
    move |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    }
}

/// 3 to 5 players, any order roll, any 8 of the 12 setup cubes in any order.
fn valid_setup() -> impl Strategy<Value = Setup> {
    (3usize..=5)
        .prop_flat_map(|n| {
            (
                Just(n),
                Just((1..=n as u8).collect::<Vec<u8>>()).prop_shuffle(),
                Just((1..=12u8).collect::<Vec<u8>>()).prop_shuffle(),
            )
        })
        .prop_map(|(n, order, cubes)| Setup {
            players: (1..=n).map(|i| format!("player{i}")).collect(),
            order,
            cities: cubes[..8].try_into().expect("8 cubes"),
        })
}

/// What the events of the game so far say, to check the position against.
#[derive(Default, Clone)]
struct Tally {
    /// Locomotives placed per railway, by `LocomotivesPlaced` events.
    placed: [usize; 5],
    /// Shares won, by `ShareWon` events.
    shares_won: usize,
}

/// Checks one step: cash moved only by the events, and every conservation law holds after it.
fn check_step(before: &Game, after: &Game, events: &[Event], tally: &mut Tally) {
    let players = before.players().len();
    let mut expected: Vec<i64> = before.players().iter().map(|p| p.cash as i64).collect();
    for event in events {
        match event {
            Event::ShareWon { player, price, .. } => {
                expected[*player] -= *price as i64;
                tally.shares_won += 1;
            }
            Event::MajorCityDividend { payouts, .. } | Event::Dividend { payouts, .. } => {
                for p in payouts {
                    expected[p.player] += p.amount as i64;
                }
            }
            Event::LocomotivesPlaced {
                railway,
                hexes,
                unplaced,
                ..
            } => {
                tally.placed[railway.index()] += hexes.len();
                assert_eq!(*unplaced, after.railway(*railway).unplaced());
            }
            _ => {}
        }
    }
    let cash: Vec<i64> = after.players().iter().map(|p| p.cash as i64).collect();
    assert_eq!(
        cash, expected,
        "cash moved other than by bids and dividends"
    );
    check_conservation(after, tally, players);
}

fn check_conservation(game: &Game, tally: &Tally, players: usize) {
    // 30 cubes: supply + cities + drawn, 10 of each colour (ruling 19).
    let mut cubes = [0usize; 3];
    for colour in Colour::ALL {
        cubes[colour.index()] += game.supply().get(colour) as usize;
    }
    for (_, colour) in game.cities() {
        cubes[colour.index()] += 1;
    }
    for colour in game.draws().iter().flatten() {
        cubes[colour.index()] += 1;
    }
    assert_eq!(cubes, [10, 10, 10], "cubes by colour");
    // 16 shares: sold + available (ruling 3).
    let sold: usize = (0..players)
        .map(|s| {
            game.shares_of(s)
                .iter()
                .map(|(_, v)| v.len())
                .sum::<usize>()
        })
        .sum();
    let available: usize = Railway::ALL
        .iter()
        .map(|&r| game.available_shares(r).len())
        .sum();
    assert_eq!(sold + available, 16, "shares");
    assert_eq!(sold, tally.shares_won, "shares sold = shares won");
    // 19 locomotives per railway: unplaced + placed, the start included (ruling 12).
    let board = Board::get();
    for railway in Railway::ALL {
        let state = game.railway(railway);
        let on_board = state.track.len();
        assert!(on_board <= 19, "{railway} has {on_board} locomotives out");
        assert_eq!(on_board, 1 + tally.placed[railway.index()], "{railway}");
        assert_eq!(state.unplaced() as usize + on_board, 19, "{railway}");
        assert!(state.track.contains(railway.start()), "{railway} start");
        assert!(
            is_connected(&state.track, railway.start()),
            "{railway} track"
        );
    }
    // Only one railway in a difficult hex (ruling 13).
    for hex in board.difficult.iter() {
        let railways = Railway::ALL
            .iter()
            .filter(|&&r| game.railway(r).track.contains(hex))
            .count();
        assert!(railways <= 1, "{} railways in {}", railways, hex.label());
    }
}

/// A random legal action that calls for dividends only one time in `patience` when the player
/// can do something else, so that games run long and reach deep positions (all locomotives out,
/// all shares sold, Major City Dividends); `patience` 0 uses the engine's own `random_action`.
fn patient_action(
    game: &Game,
    patience: usize,
    pick: &mut impl FnMut(usize) -> usize,
) -> Option<Action> {
    if patience == 0 {
        return random_action(game, pick);
    }
    let legal = game.legal_actions();
    let mut options = listed_actions(&legal);
    match legal {
        LegalActions::Bidding { min, max, .. } => Some(if pick(2) == 0 {
            Action::Bid {
                amount: min + pick((max - min) as usize + 1) as u32,
            }
        } else {
            Action::Pass
        }),
        LegalActions::Turn { builds, .. } => {
            options.retain(|a| *a != Action::CallDividends);
            if options.is_empty() || pick(patience) == 0 {
                Some(Action::CallDividends)
            } else if !builds.is_empty() && pick(2) == 0 {
                Some(build_towards_a_major_city(
                    game,
                    &builds[pick(builds.len())],
                ))
            } else {
                Some(options.swap_remove(pick(options.len())))
            }
        }
        LegalActions::Draw(_) | LegalActions::None => None,
    }
}

/// The listed hex of a build option nearest to a major city the railway has not reached yet,
/// so that random games also earn Major City Dividends.
fn build_towards_a_major_city(game: &Game, option: &BuildOption) -> Action {
    let board = Board::get();
    let track = game.railway(option.railway).track;
    let target = MAJOR_CITIES
        .iter()
        .map(|name| board.named(name))
        .find(|&h| !track.contains(h))
        .unwrap_or(option.railway.start())
        .hex();
    let distance = |hex: HexId| (hex.hex().x - target.x).hypot(hex.hex().y - target.y);
    let &(hex, _) = option
        .hexes
        .iter()
        .min_by(|a, b| distance(a.0).total_cmp(&distance(b.0)))
        .expect("a build option lists hexes");
    Action::Build {
        railway: option.railway,
        hexes: vec![hex],
    }
}

/// One random legal step (an action or a draw), checked; `None` once the game is over.
fn step(
    game: &mut Game,
    patience: usize,
    pick: &mut impl FnMut(usize) -> usize,
    tally: &mut Tally,
) -> Option<()> {
    let before = game.clone();
    let events = match game.to_act() {
        Actor::Dice => {
            let request = game.pending_draw().expect("a draw is pending");
            let cubes = random_draw(request.supply, request.count, pick);
            game.resolve_draw(&cubes)
                .unwrap_or_else(|e| panic!("random draw {cubes:?} refused: {e}"))
        }
        Actor::Player { seat } => {
            let action = patient_action(game, patience, pick).expect("a player acts");
            game.play(seat, &action)
                .unwrap_or_else(|e| panic!("random legal {action} refused: {e}"))
        }
        Actor::Nobody => return None,
    };
    check_step(&before, game, &events, tally);
    Some(())
}

/// Every draw of `count` cubes possible from `supply`, as sorted multisets.
fn possible_draws(supply: CubeCounts, count: u8) -> Vec<Vec<Colour>> {
    let mut out = Vec::new();
    for white in 0..=count {
        for pink in 0..=count - white {
            let black = count - white - pink;
            let counts = CubeCounts::from_array([white, pink, black]);
            if Colour::ALL.iter().all(|&c| counts.get(c) <= supply.get(c)) {
                let mut cubes = vec![Colour::White; white as usize];
                cubes.extend(vec![Colour::Pink; pink as usize]);
                cubes.extend(vec![Colour::Black; black as usize]);
                out.push(cubes);
            }
        }
    }
    out
}

/// Every action the listing offers, in the engine's terms.
fn listed_actions(legal: &LegalActions) -> Vec<Action> {
    let mut actions = Vec::new();
    match legal {
        LegalActions::Bidding { min, max, .. } => {
            assert!(min <= max, "the player asked to bid can bid (ruling 11)");
            actions.push(Action::Bid { amount: *min });
            actions.push(Action::Bid { amount: *max });
            actions.push(Action::Pass);
        }
        LegalActions::Turn {
            auctions,
            builds,
            interests,
            ..
        } => {
            for option in auctions {
                for opening_bid in [None, Some(option.face), Some(option.max_bid)] {
                    actions.push(Action::Auction {
                        railway: option.railway,
                        opening_bid,
                    });
                }
            }
            for option in builds {
                assert!(!option.hexes.is_empty());
                for &(hex, _) in &option.hexes {
                    actions.push(Action::Build {
                        railway: option.railway,
                        hexes: vec![hex],
                    });
                }
            }
            for option in interests {
                for &colour in &option.colours {
                    actions.push(Action::SpecialInterest {
                        town: option.town,
                        colour,
                    });
                }
            }
            actions.push(Action::CallDividends);
        }
        LegalActions::Draw(_) | LegalActions::None => {}
    }
    actions
}

/// Whether an accepted action is one the listing offers (for the forms it lists exactly: a
/// build that placed one locomotive must be a listed hex; larger builds and the shorthand need
/// only a listed railway).
fn is_listed(legal: &LegalActions, action: &Action, events: &[Event]) -> bool {
    let placed_one = events.iter().find_map(|e| match e {
        Event::LocomotivesPlaced { hexes, .. } if hexes.len() == 1 => Some(hexes[0].0),
        _ => None,
    });
    match (legal, action) {
        (LegalActions::Bidding { min, max, .. }, Action::Bid { amount }) => {
            (*min..=*max).contains(amount)
        }
        (LegalActions::Bidding { .. }, Action::Pass) => true,
        (
            LegalActions::Turn { auctions, .. },
            Action::Auction {
                railway,
                opening_bid,
            },
        ) => auctions.iter().any(|o| {
            o.railway == *railway && (o.face..=o.max_bid).contains(&opening_bid.unwrap_or(o.face))
        }),
        (LegalActions::Turn { builds, .. }, Action::Build { railway, hexes }) => {
            let option = builds.iter().find(|b| b.railway == *railway);
            match (option, placed_one) {
                (None, _) => false,
                (Some(option), Some(hex)) => {
                    hexes == &[hex] && option.hexes.iter().any(|(h, _)| *h == hex)
                }
                (Some(_), None) => true,
            }
        }
        (LegalActions::Turn { interests, .. }, Action::SpecialInterest { town, colour }) => {
            interests
                .iter()
                .any(|o| o.town == *town && o.colours.contains(colour))
        }
        (LegalActions::Turn { .. }, Action::CallDividends) => true,
        _ => false,
    }
}

/// A random, mostly illegal, command: a seat (often the one to act, sometimes not seated at
/// all) and an action with random railways, hexes, amounts and colours; or a random draw.
enum Garbage {
    Play(usize, Action),
    Draw(Vec<Colour>),
}

fn garbage(game: &Game, pick: &mut impl FnMut(usize) -> usize) -> Garbage {
    let board = Board::get();
    let players = game.players().len();
    let colour = |pick: &mut dyn FnMut(usize) -> usize| Colour::ALL[pick(3)];
    let railway = |pick: &mut dyn FnMut(usize) -> usize| Railway::ALL[pick(5)];
    let random_hex = |pick: &mut dyn FnMut(usize) -> usize, near: Option<Railway>| -> HexId {
        match near {
            // Near the railway's track: adjacent, or its own hex.
            Some(r) if pick(2) == 0 => {
                let track = game.railway(r).track;
                let around: Vec<HexId> = track.neighbours().union(&track).iter().collect();
                around[pick(around.len())]
            }
            _ => HexId(pick(board.hexes.len()) as u8),
        }
    };
    let seat = match (game.to_act(), pick(4)) {
        (Actor::Player { seat }, 0..=2) => seat,
        _ => pick(players + 2),
    };
    let amount = |pick: &mut dyn FnMut(usize) -> usize| -> u32 {
        match game.legal_actions() {
            LegalActions::Bidding { min, max, .. } if pick(2) == 0 => {
                [min.saturating_sub(1), min, max, max + 1][pick(4)]
            }
            _ => pick(45) as u32,
        }
    };
    let action = match pick(8) {
        0 => {
            let cubes = (0..pick(5)).map(|_| colour(pick)).collect();
            return Garbage::Draw(cubes);
        }
        1 => Action::Bid {
            amount: amount(pick),
        },
        2 => Action::Pass,
        3 => Action::Auction {
            railway: railway(pick),
            opening_bid: (pick(2) == 0).then(|| amount(pick)),
        },
        4 | 5 => {
            let r = railway(pick);
            let hexes = (0..pick(5)).map(|_| random_hex(pick, Some(r))).collect();
            Action::Build { railway: r, hexes }
        }
        6 => {
            let town = if pick(2) == 0 {
                let urban: Vec<HexId> = board.urban.iter().collect();
                urban[pick(urban.len())]
            } else {
                random_hex(pick, None)
            };
            Action::SpecialInterest {
                town,
                colour: colour(pick),
            }
        }
        _ => Action::CallDividends,
    };
    Garbage::Play(seat, action)
}

proptest! {
    // Failing cases are saved beside this file (`*.proptest-regressions`, committed) and run
    // first on every later run.
    #![proptest_config(ProptestConfig {
        cases: 256,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::SourceParallel("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    })]

    /// Random legal play always reaches the end of the game.
    #[test]
    fn random_legal_play_always_ends(setup in valid_setup(), seed in any::<u64>()) {
        let mut game = Game::new(&setup).expect("valid setup");
        let mut pick = xorshift(seed);
        let played = play_out(&mut game, &mut pick, 10_000);
        prop_assert!(game.is_finished(), "not over after {} actions", played);
        prop_assert!(game.supply().total() == 0);
        prop_assert!(!game.winners().is_empty());
        prop_assert_eq!(game.to_act(), Actor::Nobody);
    }

    /// Conservation and cash, after every step of random legal games.
    #[test]
    fn conservation_and_cash_hold_after_every_step(
        setup in valid_setup(),
        seed in any::<u64>(),
        patience in prop::sample::select(vec![0usize, 4, 16, 48]),
    ) {
        let mut game = Game::new(&setup).expect("valid setup");
        let mut tally = Tally::default();
        check_conservation(&game, &tally, game.players().len());
        let mut pick = xorshift(seed);
        let mut steps = 0;
        while step(&mut game, patience, &mut pick, &mut tally).is_some() {
            steps += 1;
            prop_assert!(steps < 10_000, "the game does not end");
        }
        let scores: Vec<u32> = (0..game.players().len()).map(|s| game.score(s)).collect();
        let best = scores.iter().copied().max();
        for &w in &game.winners() {
            prop_assert_eq!(Some(scores[w]), best);
        }
    }
}

proptest! {
    // Failing cases are saved beside this file (`*.proptest-regressions`, committed) and run
    // first on every later run.
    #![proptest_config(ProptestConfig {
        cases: 64,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::SourceParallel("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    })]

    /// Every action `legal_actions()` lists is accepted, at every position of random games.
    #[test]
    fn every_listed_action_is_accepted(
        setup in valid_setup(),
        seed in any::<u64>(),
        patience in prop::sample::select(vec![0usize, 4, 16, 48]),
    ) {
        let mut game = Game::new(&setup).expect("valid setup");
        let mut pick = xorshift(seed);
        let mut tally = Tally::default();
        loop {
            let legal = game.legal_actions();
            match (&legal, game.to_act()) {
                (LegalActions::Draw(request), Actor::Dice) => {
                    prop_assert_eq!(request.count, request.supply.total().min(3));
                    for cubes in possible_draws(request.supply, request.count) {
                        let mut trial = game.clone();
                        let accepted = trial.resolve_draw(&cubes);
                        prop_assert!(accepted.is_ok(), "draw {:?}: {:?}", cubes, accepted);
                    }
                }
                (LegalActions::None, Actor::Nobody) => break,
                (LegalActions::Bidding { player, .. } | LegalActions::Turn { player, .. },
                    Actor::Player { seat }) => {
                    prop_assert_eq!(*player, seat);
                    for action in listed_actions(&legal) {
                        let mut trial = game.clone();
                        let before = trial.clone();
                        let accepted = trial.play(seat, &action);
                        prop_assert!(accepted.is_ok(), "listed {} refused: {:?}", action, accepted);
                        check_step(&before, &trial, &accepted.unwrap_or_default(), &mut tally.clone());
                    }
                }
                (legal, actor) => prop_assert!(false, "{:?} listed for {:?}", legal, actor),
            }
            prop_assert!(step(&mut game, patience, &mut pick, &mut tally).is_some());
        }
    }

    /// Every refused command (garbage included) leaves the game exactly as it was; every
    /// accepted one is listed by `legal_actions()` and keeps the laws of `check_step`.
    #[test]
    fn every_refused_action_leaves_the_game_unchanged(
        setup in valid_setup(),
        seed in any::<u64>(),
        patience in prop::sample::select(vec![0usize, 4, 16, 48]),
    ) {
        let mut game = Game::new(&setup).expect("valid setup");
        let mut pick = xorshift(seed);
        let mut tally = Tally::default();
        loop {
            for _ in 0..4 {
                let mut trial = game.clone();
                let legal = game.legal_actions();
                let (result, action) = match garbage(&game, &mut pick) {
                    Garbage::Draw(cubes) => (trial.resolve_draw(&cubes), None),
                    Garbage::Play(seat, action) => (trial.play(seat, &action), Some((seat, action))),
                };
                match result {
                    Err(error) => {
                        prop_assert_eq!(&trial, &game, "refused {:?} changed the game", action);
                        let seated = matches!(&action, Some((seat, _)) if *seat < game.players().len());
                        if let PlayError::Illegal { rule, .. } = &error {
                            if game.is_finished() && seated {
                                prop_assert_eq!(*rule, Rule::GameOver);
                            }
                            if !seated && action.is_some() {
                                prop_assert_eq!(*rule, Rule::TurnOrder);
                            }
                        }
                        let text = error.to_string();
                        prop_assert!(!text.is_empty());
                    }
                    Ok(events) => {
                        if let Some((seat, action)) = &action {
                            prop_assert_eq!(game.to_act(), Actor::Player { seat: *seat });
                            prop_assert!(is_listed(&legal, action, &events), "accepted {} is not listed", action);
                        } else {
                            prop_assert_eq!(game.to_act(), Actor::Dice);
                        }
                        check_step(&game, &trial, &events, &mut tally.clone());
                    }
                }
            }
            if step(&mut game, patience, &mut pick, &mut tally).is_none() {
                break;
            }
        }
    }
}
