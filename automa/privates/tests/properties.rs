//! Properties of the automa over random positions: its move (cheap level) is legal, the same
//! position and seed give the same move, and the hidden order of the undealt deck never
//! changes it (docs/AUTOMA.md).

use proptest::prelude::*;

use privates::draw::deck_population;
use privates::playout::{random_action, random_chips, shuffle};
use privates::{Action, Actor, Chip, DrawRequest, Game, Setup};
use privates_automa::rng::Stream;
use privates_automa::{baseline, decide, Level};

/// A chooser from the automa's own stream: `pick(n)` returns a number below `n`.
fn chooser(seed: u64) -> impl FnMut(usize) -> usize {
    let mut stream = Stream::new(seed);
    move |n| stream.below(n)
}

/// One step of a random game: an action, or an audited round's chips.
#[derive(Debug, Clone)]
enum Step {
    Play(usize, Action),
    Chips(Vec<Chip>),
}

/// An audited game of 2 to 6 players played at random (`steps` steps, stopping early at a
/// player's turn if the game ends), with the steps taken.
fn random_position(players: usize, copies: u8, seed: u64, steps: usize) -> (Setup, Vec<Step>) {
    let mut pick = chooser(seed);
    let mut deck = deck_population(copies);
    shuffle(&mut deck, &mut pick);
    let names: Vec<String> = (1..=players).map(|i| format!("p{i}")).collect();
    let setup = Setup {
        players: names,
        copies,
        dealer: pick(players),
        deck: Some(deck),
    };
    let mut game = Game::new(&setup).expect("a valid setup");
    let mut taken = Vec::new();
    let mut last_turn = 0;
    for _ in 0..steps {
        let step = match game.to_act() {
            Actor::Nobody => break,
            Actor::Draw => {
                let request: DrawRequest = game.pending_draw().expect("a draw");
                let chips = random_chips(&request, &mut pick);
                game.resolve_chips(&chips).expect("drawn chips");
                Step::Chips(chips)
            }
            Actor::Player { seat } => {
                let action = random_action(&game, &mut pick).expect("a move");
                game.play(seat, &action).expect("a legal move");
                Step::Play(seat, action)
            }
        };
        taken.push(step);
        if matches!(game.to_act(), Actor::Player { .. }) {
            last_turn = taken.len();
        }
    }
    taken.truncate(last_turn);
    (setup, taken)
}

fn replay(setup: &Setup, steps: &[Step]) -> Game {
    let mut game = Game::new(setup).expect("a valid setup");
    for step in steps {
        match step {
            Step::Play(seat, action) => game.play(*seat, action).map(|_| ()),
            Step::Chips(chips) => game.resolve_chips(chips).map(|_| ()),
        }
        .expect("a replayed step");
    }
    game
}

/// The same setup with the cards not yet dealt after `steps` in another order.
fn reshuffled_unseen(setup: &Setup, steps: &[Step], seed: u64) -> Setup {
    let rounds_dealt = steps.iter().filter(|s| matches!(s, Step::Chips(_))).count();
    let mut deck = setup.deck.clone().expect("an audited deck");
    let dealt = (7 * rounds_dealt).min(deck.len());
    shuffle(&mut deck[dealt..], &mut chooser(seed));
    Setup {
        deck: Some(deck),
        ..setup.clone()
    }
}

fn to_act(game: &Game) -> Option<usize> {
    match game.to_act() {
        Actor::Player { seat } => Some(seat),
        _ => None,
    }
}

proptest! {
    // Failing cases are saved beside this file (`*.proptest-regressions`, committed) and run
    // first on every later run.
    #![proptest_config(ProptestConfig {
        cases: 10_000,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::SourceParallel("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    })]

    /// Over 10,000 random positions the cheap automa's move is legal and the same position
    /// and seed give the same move.
    #[test]
    fn the_automa_moves_legally_and_deterministically(
        players in 2usize..=6,
        variant in any::<bool>(),
        seed in any::<u64>(),
        steps in 1usize..500,
        decision_seed in any::<u64>(),
    ) {
        let copies = if variant { 5 } else { 6 };
        let (setup, taken) = random_position(players, copies, seed, steps);
        let game = replay(&setup, &taken);
        let Some(seat) = to_act(&game) else { return Ok(()); };
        let choice = decide(&game, seat, Level::Cheap, decision_seed).expect("the seat acts");
        prop_assert!(game.is_legal(seat, &choice.action), "{} is not legal", choice.action);
        let again = decide(&game.clone(), seat, Level::Cheap, decision_seed);
        prop_assert_eq!(Some(choice), again);
        // Nobody else is to act.
        let other = (seat + 1) % players;
        prop_assert!(decide(&game, other, Level::Cheap, decision_seed).is_none());
        // The baselines move legally too.
        let random = baseline::random(&game, seat, decision_seed).expect("a random move");
        prop_assert!(game.is_legal(seat, &random.action));
        let greedy = baseline::greedy(&game, seat).expect("a greedy move");
        prop_assert!(game.is_legal(seat, &greedy.action));
    }

    /// The same visible position with the undealt deck in another order gives the same
    /// decision: the automa never reads the hidden order.
    #[test]
    fn the_hidden_deck_order_never_changes_the_move(
        players in 2usize..=6,
        seed in any::<u64>(),
        steps in 1usize..400,
        reshuffle in any::<u64>(),
        decision_seed in any::<u64>(),
    ) {
        let (setup, taken) = random_position(players, 6, seed, steps);
        let other_setup = reshuffled_unseen(&setup, &taken, reshuffle);
        let game = replay(&setup, &taken);
        let other = replay(&other_setup, &taken);
        let Some(seat) = to_act(&game) else { return Ok(()); };
        prop_assert_eq!(game.without_hidden_deck(), other.without_hidden_deck());
        prop_assert_eq!(
            decide(&game, seat, Level::Cheap, decision_seed),
            decide(&other, seat, Level::Cheap, decision_seed)
        );
    }
}

/// A reshuffle of the unseen cards really changes the hidden deck (so the test above is not
/// comparing a game with itself), and the automa still decides alike.
#[test]
fn a_reshuffled_deck_differs_but_the_decision_does_not() {
    let (setup, taken) = random_position(3, 6, 11, 30);
    let other_setup = reshuffled_unseen(&setup, &taken, 99);
    assert_ne!(setup.deck, other_setup.deck);
    let game = replay(&setup, &taken);
    let other = replay(&other_setup, &taken);
    assert_ne!(game, other);
    let seat = to_act(&game).expect("a player acts");
    for decision_seed in 0..5 {
        assert_eq!(
            decide(&game, seat, Level::Simulations(200), decision_seed),
            decide(&other, seat, Level::Simulations(200), decision_seed)
        );
    }
}

/// At the table (feature `table`), the automa sees the position with the deck's order
/// forgotten: two games that differ only in the undealt deck's order get the same move, which
/// is the crate's own decision.
#[cfg(feature = "table")]
#[test]
fn at_the_table_the_hidden_deck_order_never_changes_the_move() {
    use gaugebot_table::game::automa::{AutomaLevel, TableAutoma};
    use privates::table::Privates;
    use privates_automa::table::Automa;

    let (setup, taken) = random_position(3, 6, 11, 30);
    let other_setup = reshuffled_unseen(&setup, &taken, 99);
    let game = replay(&setup, &taken);
    let other = replay(&other_setup, &taken);
    let seat = to_act(&game).expect("a player acts");
    let level = AutomaLevel::Simulations(200);
    for seed in 0..5 {
        let here = Automa.choose(&Privates, &game, seat, level, seed);
        let there = Automa.choose(&Privates, &other, seat, level, seed);
        assert_eq!(here, there);
        let own = decide(&game, seat, Level::Simulations(200), seed).map(|c| c.action);
        assert_eq!(here.map(|c| c.action), own);
    }
    assert_eq!(
        Automa.choose(&Privates, &game, (seat + 1) % 3, level, 0),
        None,
        "another seat is not to act"
    );
}
