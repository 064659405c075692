//! Properties of the engine over random games: random legal play ends; cash, cards and chips
//! are conserved; every action `legal_actions()` lists is accepted (and just outside its
//! ranges refused); every refused action or draw changes nothing; printed actions parse back.

use proptest::prelude::*;

use privates::card::{CHIPS_PER_COLOUR, COSTS};
use privates::draw::{chip_population, deck_population};
use privates::notation::{parse_action, parse_deal, Deal};
use privates::playout::{play_out, random_action, random_cards, random_chips, shuffle};
use privates::{
    Action, Actor, Chip, DrawRequest, Event, Game, GameView, LegalActions, Letter, Setup,
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

/// 2 to 6 players, either deck size, any dealer, audited (shuffled by `seed`) or manual.
fn valid_setup() -> impl Strategy<Value = Setup> {
    (
        2usize..=6,
        prop::bool::ANY,
        prop::bool::ANY,
        any::<u64>(),
        0usize..6,
    )
        .prop_map(|(n, variant, audited, seed, dealer)| {
            let copies = if variant { 5 } else { 6 };
            let deck = audited.then(|| {
                let mut deck = deck_population(copies);
                shuffle(&mut deck, &mut xorshift(seed));
                deck
            });
            Setup {
                players: (1..=n).map(|i| format!("player{i}")).collect(),
                copies,
                dealer: dealer % n,
                deck,
            }
        })
}

fn letter() -> impl Strategy<Value = Letter> {
    (0usize..7).prop_map(|i| Letter::from_index(i).expect("A to G"))
}

/// Any action at all, legal or not.
fn any_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        prop::option::of(letter()).prop_map(|letter| Action::Buy { letter }),
        (letter(), 0u32..400).prop_map(|(letter, amount)| Action::Bid { letter, amount }),
        (letter(), any::<u32>()).prop_map(|(letter, amount)| Action::Bid { letter, amount }),
        Just(Action::Pass),
        (0u32..400).prop_map(|amount| Action::Raise { amount }),
        Just(Action::Drop),
    ]
}

/// Checks the conservation laws of a position.
fn check_conservation(game: &Game) {
    let copies = game.copies();
    // Cards: every card is in the deck, the row (untaken) or a hand, cost by cost.
    for (i, &cost) in COSTS.iter().enumerate() {
        let in_deck = game.deck_left().0[i] as usize;
        let in_row = game
            .row()
            .iter()
            .filter(|c| c.owner.is_none() && c.card.cost == cost)
            .count();
        let in_hands: usize = game
            .players()
            .iter()
            .map(|p| p.cards.iter().filter(|c| c.cost == cost).count())
            .sum();
        assert_eq!(
            in_deck + in_row + in_hands,
            copies as usize,
            "cards costing {cost}"
        );
    }
    // Chips: every chip is in the reserve, the bag or on a card (in the row or a hand).
    for chip in Chip::ALL {
        let on_row = game
            .row()
            .iter()
            .filter(|c| c.owner.is_none() && c.card.colour == Some(chip))
            .count();
        let in_hands: usize = game
            .players()
            .iter()
            .map(|p| p.cards.iter().filter(|c| c.colour == Some(chip)).count())
            .sum();
        let total =
            game.reserve().get(chip) as usize + game.bag().get(chip) as usize + on_row + in_hands;
        assert_eq!(total, CHIPS_PER_COLOUR as usize, "{chip} chips");
    }
    // P8: open bids never exceed cash; taken cards carry no bids.
    for seat in 0..game.players().len() {
        assert!(game.open_bids(seat) <= game.players()[seat].cash);
    }
    for card in game.row() {
        if card.owner.is_some() {
            assert!(card.bids.is_empty());
        }
    }
}

/// Cash moves only by purchases (buys, bids won) and revenue.
fn check_cash(before: &Game, after: &Game, events: &[Event]) {
    let mut expected: Vec<i64> = before.players().iter().map(|p| p.cash as i64).collect();
    for event in events {
        match event {
            Event::CardBought { player, price, .. }
            | Event::WonByBid { player, price, .. }
            | Event::BidOffWon { player, price, .. } => expected[*player] -= *price as i64,
            Event::RoundEnded { income, .. } => {
                for i in income {
                    expected[i.player] += i.amount as i64;
                }
            }
            _ => {}
        }
    }
    let cash: Vec<i64> = after.players().iter().map(|p| p.cash as i64).collect();
    assert_eq!(
        cash, expected,
        "cash moved other than by purchases and revenue"
    );
}

/// Every action the legal list names is accepted; the edges just outside are refused.
fn check_legal_actions(game: &Game) {
    let Actor::Player { seat } = game.to_act() else {
        return;
    };
    let accepted = |action: Action| {
        let mut g = game.clone();
        assert!(
            g.play(seat, &action).is_ok(),
            "{action} is listed but refused: {:?}",
            g.play(seat, &action)
        );
    };
    let refused = |action: Action| {
        let mut g = game.clone();
        assert!(
            g.play(seat, &action).is_err(),
            "{action} is not listed but accepted"
        );
        assert_eq!(&g, game);
    };
    match game.legal_actions() {
        LegalActions::Turn {
            player,
            buy,
            bids,
            pass,
        } => {
            assert_eq!(player, seat);
            match buy {
                Some(b) => {
                    accepted(Action::Buy { letter: None });
                    accepted(Action::Buy {
                        letter: Some(b.letter),
                    });
                }
                None => refused(Action::Buy { letter: None }),
            }
            for b in &bids {
                accepted(Action::Bid {
                    letter: b.letter,
                    amount: b.minimum,
                });
                accepted(Action::Bid {
                    letter: b.letter,
                    amount: b.maximum,
                });
                refused(Action::Bid {
                    letter: b.letter,
                    amount: b.minimum - 1,
                });
                refused(Action::Bid {
                    letter: b.letter,
                    amount: b.maximum + 1,
                });
            }
            for l in Letter::ALL {
                if !bids.iter().any(|b| b.letter == l) {
                    refused(Action::Bid {
                        letter: l,
                        amount: 1000,
                    });
                }
            }
            if pass {
                accepted(Action::Pass);
            } else {
                refused(Action::Pass);
            }
            refused(Action::Drop);
        }
        LegalActions::BidOff {
            player,
            raise,
            drop,
            high,
            ..
        } => {
            assert_eq!(player, seat);
            assert!(drop);
            accepted(Action::Drop);
            accepted(Action::Pass);
            refused(Action::Raise { amount: high });
            if let Some(r) = raise {
                accepted(Action::Raise { amount: r.minimum });
                accepted(Action::Raise { amount: r.maximum });
                refused(Action::Raise {
                    amount: r.maximum + 1,
                });
            }
            refused(Action::Buy { letter: None });
        }
        LegalActions::Draw(_) | LegalActions::None => panic!("a player is to act"),
    }
}

/// Plays a random game checking every step; returns the finished game.
fn checked_game(setup: &Setup, seed: u64, garbage: &[(usize, Action)]) -> Game {
    let mut game = Game::new(setup).expect("valid setup");
    let mut pick = xorshift(seed);
    let mut steps = 0;
    check_conservation(&game);
    while !game.is_finished() {
        steps += 1;
        assert!(steps < 20_000, "the game did not end");
        // A refused action or draw changes nothing.
        let (seat, action) = garbage[steps % garbage.len()];
        let before = game.clone();
        if game.play(seat % game.players().len(), &action).is_err() {
            assert_eq!(game, before, "refused {action} changed the game");
        } else {
            game = before.clone();
        }
        let _ = game.resolve_chips(&[Chip::Red; 3]);
        let _ = game.resolve_deal(&[5; 7], &[Chip::Red; 7]);
        assert_eq!(game, before, "a refused draw changed the game");

        let before = game.clone();
        let events = match game.to_act() {
            Actor::Draw => {
                let request = game.pending_draw().expect("a draw");
                match request {
                    DrawRequest::Chips { .. } => {
                        let chips = random_chips(&request, &mut pick);
                        game.resolve_chips(&chips).expect("chips from the bag")
                    }
                    DrawRequest::Deal { .. } => {
                        let cards = random_cards(&request, &mut pick);
                        let chips = random_chips(&request, &mut pick);
                        game.resolve_deal(&cards, &chips).expect("a legal deal")
                    }
                }
            }
            Actor::Player { seat } => {
                check_legal_actions(&game);
                let action = random_action(&game, &mut pick).expect("an action");
                game.play(seat, &action).expect("a legal action")
            }
            Actor::Nobody => break,
        };
        check_cash(&before, &game, &events);
        check_conservation(&game);
    }
    game
}

proptest! {
    // Failing cases are saved beside this file (`*.proptest-regressions`, committed) and run
    // first on every later run.
    #![proptest_config(ProptestConfig {
        cases: 128,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::SourceParallel("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    })]

    #[test]
    fn random_games_end_with_conservation_and_legal_lists(
        setup in valid_setup(),
        seed in any::<u64>(),
        garbage in prop::collection::vec((0usize..7, any_action()), 1..16),
    ) {
        let game = checked_game(&setup, seed, &garbage);
        prop_assert!(game.is_finished());
        prop_assert_eq!(game.round(), game.rounds());
        prop_assert_eq!(game.deck_left().total() as usize, 9 * setup.copies as usize - 7 * game.rounds() as usize);
        let winners = game.winners();
        prop_assert!(!winners.is_empty());
        let best = game.scores().iter().map(|s| s.total).max();
        for w in winners {
            prop_assert_eq!(Some(game.scores()[w].total), best);
        }
        // The dump survives a JSON round trip.
        let view = GameView::from_game(&game);
        let json = serde_json::to_string(&view).expect("json");
        let back: GameView = serde_json::from_str(&json).expect("parses");
        prop_assert_eq!(back, view);
    }

    #[test]
    fn play_out_ends_every_game(setup in valid_setup(), seed in any::<u64>()) {
        let mut game = Game::new(&setup).expect("valid setup");
        let steps = play_out(&mut game, &mut xorshift(seed), 50_000);
        prop_assert!(game.is_finished(), "unfinished after {} steps", steps);
    }

    #[test]
    fn printed_actions_parse_back_to_themselves(action in any_action()) {
        prop_assert_eq!(parse_action(&action.to_string()), Ok(action));
    }

    #[test]
    fn printed_deals_parse_back_to_themselves(
        cards in prop::collection::vec(prop::sample::select(COSTS.to_vec()), 0..8),
        chips in prop::collection::vec(prop::sample::select(Chip::ALL.to_vec()), 0..8),
    ) {
        let deal = Deal { cards, chips };
        prop_assert_eq!(parse_deal(&deal.to_string()), Ok(deal));
    }

    #[test]
    fn parsing_never_panics(text in "\\PC{0,40}") {
        let _ = parse_action(&text);
        let _ = parse_deal(&text);
    }

    #[test]
    fn drawn_chips_come_from_the_bag(setup in valid_setup(), seed in any::<u64>()) {
        let game = Game::new(&setup).expect("valid setup");
        let request = game.pending_draw().expect("the first deal");
        let chips = random_chips(&request, &mut xorshift(seed));
        prop_assert_eq!(chips.len(), 7);
        prop_assert!(request.bag().contains(&chips));
        prop_assert_eq!(chip_population(&request.bag()).len(), 10);
    }
}

/// The kind of an event, to see that random play reaches every one.
fn kind(event: &Event) -> &'static str {
    match event {
        Event::ChipsToBag { .. } => "chips_to_bag",
        Event::RoundStarted { .. } => "round_started",
        Event::CardBought { .. } => "card_bought",
        Event::TakenFree { .. } => "taken_free",
        Event::BidPlaced { .. } => "bid_placed",
        Event::Passed { .. } => "passed",
        Event::PriceDropped { .. } => "price_dropped",
        Event::WonByBid { .. } => "won_by_bid",
        Event::BidOffStarted { .. } => "bid_off_started",
        Event::BidOffRaised { .. } => "bid_off_raised",
        Event::BidOffDropped { .. } => "bid_off_dropped",
        Event::BidOffWon { .. } => "bid_off_won",
        Event::RoundEnded { .. } => "round_ended",
        Event::GameOver { .. } => "game_over",
    }
}

#[test]
fn random_play_reaches_every_kind_of_event() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 1..=40u64 {
        let setup = Setup::manual(&["ann", "bob", "cat", "dan"], (seed % 4) as usize);
        let mut game = Game::new(&setup).expect("valid setup");
        let mut pick = xorshift(seed);
        while !game.is_finished() {
            let events = match game.to_act() {
                Actor::Draw => {
                    privates::playout::random_draw(&mut game, &mut pick).expect("a deal")
                }
                Actor::Player { seat } => {
                    let action = random_action(&game, &mut pick).expect("an action");
                    game.play(seat, &action).expect("legal")
                }
                Actor::Nobody => break,
            };
            seen.extend(events.iter().map(kind));
        }
    }
    assert_eq!(seen.len(), 14, "seen only {seen:?}");
}
