//! The odds of a dividend call (`irish_gauge::odds`), checked against a brute force that draws
//! every ordered sequence of individual cubes from the supply and lets the engine itself
//! resolve each draw; and a few cases worked out by hand.

mod support;

use std::collections::HashMap;

use proptest::prelude::*;

use irish_gauge::odds::{luck, odds, received, Luck, Odds, Ratio};
use irish_gauge::playout::{random_action, random_draw};
use irish_gauge::{Action, Actor, Colour, Event, Game, Phase, Railway, Setup};
use support::Table;

use Colour::{Black, Pink, White};
use Railway::{Gsw, Mgw, Wlw};

// ============================================================================ Brute force

/// The position with the dividend draw pending: the game itself if a draw is pending, else the
/// player whose turn it is calls for dividends.
fn with_draw_pending(game: &Game) -> Game {
    let mut pending = game.clone();
    if pending.pending_draw().is_none() {
        let Phase::Turn { player } = *game.phase() else {
            panic!("no dividend call can be made in {:?}", game.phase());
        };
        pending
            .play(player, &Action::CallDividends)
            .expect("dividends can always be called on a turn");
    }
    pending
}

/// The odds by exhaustive enumeration: every ordered draw of distinct individual cubes is
/// equally likely; each is resolved by the engine (`resolve_draw` on a copy) and its
/// dividend events are counted.
fn brute_force(game: &Game) -> Odds {
    let pending = with_draw_pending(game);
    let request = pending.pending_draw().expect("a draw is pending");
    let seats = game.players().len();
    // The supply as individual cubes: cube i has colour cubes[i].
    let cubes: Vec<Colour> = Colour::ALL
        .into_iter()
        .flat_map(|c| std::iter::repeat_n(c, request.supply.get(c) as usize))
        .collect();
    let count = request.count as usize;

    /// What the engine paid for a sequence of colours: which railways paid, and each seat.
    type Paid = ([bool; 5], Vec<u128>);
    // The engine's answer depends only on the sequence of colours, so it is asked once per
    // sequence; every ordered draw of individual cubes is still counted one by one.
    let mut engine: HashMap<Vec<Colour>, Paid> = HashMap::new();
    let mut resolve = |colours: &[Colour]| -> Paid {
        engine
            .entry(colours.to_vec())
            .or_insert_with(|| {
                let events = pending
                    .clone()
                    .resolve_draw(colours)
                    .expect("a possible draw is accepted");
                let mut pays = [false; 5];
                let mut paid = vec![0u128; seats];
                for event in &events {
                    if let Event::Dividend {
                        railway, payouts, ..
                    } = event
                    {
                        pays[railway.index()] = payouts.iter().any(|p| p.amount > 0);
                        for p in payouts {
                            paid[p.player] += u128::from(p.amount);
                        }
                    }
                }
                (pays, paid)
            })
            .clone()
    };

    let mut draws: u128 = 0;
    let mut colour_draws = [0u128; 3];
    let mut railway_draws = [0u128; 5];
    let mut paid_total = vec![0u128; seats];
    let mut chosen: Vec<usize> = Vec::with_capacity(count);
    let mut used = vec![false; cubes.len()];
    // Depth-first over every ordered selection of `count` distinct cubes.
    fn each_ordered_draw(
        used: &mut [bool],
        chosen: &mut Vec<usize>,
        count: usize,
        visit: &mut dyn FnMut(&[usize]),
    ) {
        if chosen.len() == count {
            visit(chosen);
            return;
        }
        for i in 0..used.len() {
            if !used[i] {
                used[i] = true;
                chosen.push(i);
                each_ordered_draw(used, chosen, count, visit);
                chosen.pop();
                used[i] = false;
            }
        }
    }
    each_ordered_draw(&mut used, &mut chosen, count, &mut |indices| {
        let colours: Vec<Colour> = indices.iter().map(|&i| cubes[i]).collect();
        draws += 1;
        for c in Colour::ALL {
            if colours.contains(&c) {
                colour_draws[c.index()] += 1;
            }
        }
        let (pays, paid) = resolve(&colours);
        for r in 0..5 {
            if pays[r] {
                railway_draws[r] += 1;
            }
        }
        for (total, amount) in paid_total.iter_mut().zip(paid) {
            *total += amount;
        }
    });
    Odds {
        supply: request.supply,
        count: request.count,
        colours: colour_draws.map(|n| Ratio::new(n, draws)),
        railways: railway_draws.map(|n| Ratio::new(n, draws)),
        expected: paid_total.iter().map(|&n| Ratio::new(n, draws)).collect(),
    }
}

/// Checks `odds` against the brute force, before the call and with the draw pending.
fn check_against_brute_force(game: &Game) {
    let expected = brute_force(game);
    assert_eq!(odds(game), expected, "before the call");
    assert_eq!(
        odds(&with_draw_pending(game)),
        expected,
        "with the draw pending"
    );
}

// ============================================================================ Random games

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

/// One random step of a game: a random legal action, or a random draw; `None` once it is over.
/// A player calls for dividends only when `random_action` offers it `patience + 1` times in a
/// row, so that patient games build networks that pay.
fn step(
    game: &mut Game,
    patience: usize,
    pick: &mut impl FnMut(usize) -> usize,
) -> Option<Vec<Event>> {
    if let Some(request) = game.pending_draw() {
        let cubes = random_draw(request.supply, request.count, pick);
        return Some(game.resolve_draw(&cubes).expect("a random draw is legal"));
    }
    let Actor::Player { seat } = game.to_act() else {
        return None;
    };
    let mut action = random_action(game, pick)?;
    for _ in 0..patience {
        if action != Action::CallDividends {
            break;
        }
        action = random_action(game, pick)?;
    }
    Some(game.play(seat, &action).expect("a random action is legal"))
}

/// Every position of a random game where dividends are called or could be.
fn positions_before_a_call(setup: &Setup, seed: u64, patience: usize) -> Vec<Game> {
    let mut game = Game::new(setup).expect("valid setup");
    let mut pick = xorshift(seed);
    let mut positions = Vec::new();
    loop {
        if matches!(
            game.phase(),
            Phase::Turn { .. } | Phase::AwaitingDraw { .. }
        ) {
            positions.push(game.clone());
        }
        if step(&mut game, patience, &mut pick).is_none() {
            break;
        }
        assert!(positions.len() < 10_000, "the game does not end");
    }
    positions
}

/// How many times a player passes up calling for dividends.
fn patience() -> impl Strategy<Value = usize> {
    prop::sample::select(vec![0usize, 2, 4, 8, 16])
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

    /// At a random point of a random game, the exact odds are those of drawing every ordered
    /// sequence of individual cubes, each resolved by the engine.
    #[test]
    fn odds_match_every_ordered_draw_at_random_points_of_random_games(
        setup in valid_setup(),
        seed in any::<u64>(),
        patience in patience(),
        stop in any::<prop::sample::Index>(),
    ) {
        let positions = positions_before_a_call(&setup, seed, patience);
        prop_assume!(!positions.is_empty());
        check_against_brute_force(stop.get(&positions));
    }

    /// Over a whole random game, luck totals add up what the draws paid, and the expected
    /// totals are the odds before each draw.
    #[test]
    fn luck_over_a_game_adds_up_the_dividends_paid(
        setup in valid_setup(),
        seed in any::<u64>(),
        patience in patience(),
    ) {
        let mut game = Game::new(&setup).expect("valid setup");
        let seats = game.players().len();
        let mut pick = xorshift(seed);
        let mut calls: Vec<(Vec<Ratio>, Vec<u32>)> = Vec::new();
        let mut paid = vec![0u64; seats];
        loop {
            let before = game.pending_draw().map(|_| odds(&game).expected);
            let Some(events) = step(&mut game, patience, &mut pick) else { break };
            for event in &events {
                if let Event::Dividend { payouts, .. } = event {
                    for p in payouts {
                        paid[p.player] += u64::from(p.amount);
                    }
                }
            }
            if let Some(expected) = before {
                calls.push((expected, received(&events, seats)));
            }
        }
        let totals = luck(&calls);
        prop_assert_eq!(totals.len(), seats);
        for seat in 0..seats {
            prop_assert_eq!(totals[seat].received, paid[seat]);
            let expected: Ratio = calls.iter().map(|(e, _)| e[seat]).sum();
            prop_assert_eq!(totals[seat].expected, expected);
        }
    }
}

// ============================================================================ By hand

/// Supply 7 white, 8 pink, 7 black (the forum roll): 22 cubes, C(22, 3) = 1540 draws.
#[test]
fn a_colour_is_drawn_unless_all_three_cubes_are_of_the_other_colours() {
    let t = Table::standard();
    let odds = odds(&t.game);
    assert_eq!(odds.count, 3);
    // White: 1 - C(15, 3) / C(22, 3) = 1 - 455/1540.
    assert_eq!(odds.colour(White), Ratio::new(1540 - 455, 1540));
    assert_eq!(odds.colour(White).to_string(), "31/44");
    // Pink: 1 - C(14, 3) / C(22, 3) = 1 - 364/1540.
    assert_eq!(odds.colour(Pink), Ratio::new(1540 - 364, 1540));
    assert_eq!(odds.colour(Black), odds.colour(White), "7 of each");
    check_against_brute_force(&t.game);
}

#[test]
fn a_starting_city_alone_never_pays() {
    let t = Table::standard();
    let odds = odds(&t.game);
    for railway in Railway::ALL {
        assert_eq!(odds.railway(railway), Ratio::ZERO, "{railway}");
    }
    assert_eq!(odds.expected, vec![Ratio::ZERO; 3]);
}

/// ann holds two WLW shares and cat one; WLW runs Limerick (white), Kilkenny (white),
/// Waterford (pink) and New Ross (a town). No other railway can pay.
#[test]
fn three_shares_split_an_income_rounded_up_and_one_city_pays_with_a_town() {
    let mut t = Table::new(&["ann", "bob", "cat"]);
    t.initial_auctions(&[("ann", 0), ("ann", 5), ("bob", 8), ("cat", 4), ("cat", 0)]);
    t.play_all(
        "ann: auction WLW
         bob: pass
         cat: pass
         bob: build BCD B11
         cat: auction WLW
         ann: build WLW L5 L6 L7
         bob: build BCD C11
         cat: build WLW Kilkenny New Ross Waterford",
    );
    let odds = odds(&t.game);
    // Of 1540 draws: no white 455, no pink 364, neither 35.
    // White and pink (756): 3 × £4 + £2 = £14, £5 a share.
    // White, no pink (329): 2 × £4 + £2 = £10, £4 a share.
    // Pink, no white (420): £4 + £2 = £6, £2 a share.
    // Neither (35): nothing.
    assert_eq!(odds.railway(Wlw), Ratio::new(756 + 329 + 420, 1540));
    assert_eq!(odds.railway(Wlw).to_string(), "43/44");
    let per_share = Ratio::new(5 * 756 + 4 * 329 + 2 * 420, 1540);
    assert_eq!(per_share.to_string(), "212/55");
    assert_eq!(odds.expected(t.seat("ann")), per_share * Ratio::from(2u32));
    assert_eq!(odds.expected(t.seat("bob")), Ratio::ZERO);
    assert_eq!(odds.expected(t.seat("cat")), per_share);
    for railway in Railway::ALL.into_iter().filter(|&r| r != Wlw) {
        assert_eq!(odds.railway(railway), Ratio::ZERO, "{railway}");
    }
    check_against_brute_force(&t.game);

    // The luck of one call that drew white pink pink: £10 to ann, £5 to cat.
    t.play("ann: dividends");
    let before = irish_gauge::odds::odds(&t.game);
    let events = t.draw("white pink pink");
    let paid = received(&events, 3);
    assert_eq!(paid, [10, 0, 5]);
    let totals = luck(&[(before.expected, paid)]);
    assert_eq!(totals[0].expected.to_string(), "424/55");
    assert_eq!(totals[0].received, 10);
    assert!((totals[0].difference() - (10.0 - 424.0 / 55.0)).abs() < 1e-12);
}

/// Forum roll: Dublin is black. GSW runs Dublin - G11 - Drogheda (a town); ann holds its one
/// share. Seven draws leave one black cube.
#[test]
fn the_last_cube_is_drawn_for_certain_and_pays_for_certain() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11 Drogheda
         bob: dividends
         draw: white white white
         cat: dividends
         draw: white white white
         ann: dividends
         draw: white pink pink
         bob: dividends
         draw: pink pink pink
         cat: dividends
         draw: pink pink pink
         ann: dividends
         draw: black black black
         bob: dividends
         draw: black black black",
    );
    assert_eq!(t.game.supply().total(), 1);
    let odds = odds(&t.game);
    assert_eq!(odds.count, 1);
    assert_eq!(odds.colours, [Ratio::ZERO, Ratio::ZERO, Ratio::ONE]);
    assert_eq!(odds.railway(Gsw), Ratio::ONE);
    assert_eq!(odds.railway(Mgw), Ratio::ZERO, "Dublin alone");
    // £4 for Dublin and £2 for Drogheda, all to ann's one share.
    assert_eq!(odds.expected, [Ratio::integer(6), Ratio::ZERO, Ratio::ZERO]);
    check_against_brute_force(&t.game);
}

/// With two cubes left, both are drawn: a white and a black.
#[test]
fn fewer_than_three_cubes_left_are_all_drawn() {
    let mut t = Table::standard();
    t.play_all(
        "ann: build GSW G11 Drogheda
         bob: build WLW Shannon
         cat: dividends
         draw: white white white
         ann: interest Drogheda pink
         bob: interest Shannon black
         cat: dividends
         draw: white white white
         ann: dividends
         draw: pink pink pink
         bob: dividends
         draw: pink pink pink
         cat: dividends
         draw: pink black black
         ann: dividends
         draw: black black black
         bob: dividends",
    );
    assert_eq!(t.game.supply().total(), 2);
    assert_eq!(t.game.pending_draw().map(|r| r.count), Some(2));
    let odds = odds(&t.game);
    assert_eq!(odds.colours, [Ratio::ONE, Ratio::ZERO, Ratio::ONE]);
    // GSW: Dublin (black) and Drogheda (pink, not drawn): one city, no town: nothing.
    assert_eq!(odds.railway(Gsw), Ratio::ZERO);
    // WLW: Limerick (white) and Shannon (black): two paying cities, £8 to bob.
    assert_eq!(odds.railway(Wlw), Ratio::ONE);
    assert_eq!(odds.expected, [Ratio::ZERO, Ratio::integer(8), Ratio::ZERO]);
    check_against_brute_force(&t.game);
}

#[test]
fn luck_totals_each_seat_over_the_calls() {
    let calls = vec![
        (vec![Ratio::new(3, 2), Ratio::ZERO], vec![4u32, 0]),
        (vec![Ratio::new(1, 3), Ratio::new(7, 4)], vec![0, 2]),
    ];
    let totals = luck(&calls);
    assert_eq!(
        totals,
        [
            Luck {
                received: 4,
                expected: Ratio::new(11, 6)
            },
            Luck {
                received: 2,
                expected: Ratio::new(7, 4)
            },
        ]
    );
    assert!((totals[1].difference() - 0.25).abs() < 1e-12);
    assert!(luck(&[]).is_empty());
}
