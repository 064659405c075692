//! Property tests: over 10,000 positions reached by random play from random setups (1,000
//! cases, 10 positions each), the automa's move at the cheap level is legal, and the same
//! position and seed give the same move. The greedy and random players' moves are legal too.

use irish_gauge::playout::{random_action, random_draw};
use irish_gauge::{Actor, Game, Setup};

/// A random valid setup of 3 to 5 players.
fn random_setup(rng: &mut Rng) -> Setup {
    let players = 3 + rng.below(3);
    baseline::random_setup(players, rng)
}
use irish_gauge_automa::rng::Rng;
use irish_gauge_automa::{baseline, decide, Level};
use proptest::prelude::*;

/// Positions checked per case.
const POSITIONS_PER_CASE: usize = 10;

/// Plays `steps` random steps (moves and draws); stops early at the end of the game.
fn advance(game: &mut Game, rng: &mut Rng, steps: usize) {
    for _ in 0..steps {
        match game.to_act() {
            Actor::Nobody => return,
            Actor::Dice => {
                let request = game.pending_draw().expect("a draw is pending");
                let cubes = random_draw(request.supply, request.count, &mut |n| rng.below(n));
                game.resolve_draw(&cubes).expect("a legal draw");
            }
            Actor::Player { seat } => {
                let action = random_action(game, &mut |n| rng.below(n)).expect("a move");
                game.play(seat, &action).expect("a legal random move");
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: std::env::var("AUTOMA_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(1_000), ..ProptestConfig::default() })]

    #[test]
    fn automa_moves_are_legal_and_repeatable(seed in any::<u64>()) {
        let mut rng = Rng::new(seed);
        let mut game = Game::new(&random_setup(&mut rng)).expect("a valid setup");
        let mut checked = 0;
        while checked < POSITIONS_PER_CASE {
            if game.is_finished() {
                game = Game::new(&random_setup(&mut rng)).expect("a valid setup");
            }
            let steps = 1 + rng.below(12);
            advance(&mut game, &mut rng, steps);
            let Actor::Player { seat } = game.to_act() else { continue };
            let decision_seed = rng.next_u64();
            let choice = decide(&game, seat, Level::Cheap, decision_seed);
            let choice = choice.expect("the seat to act gets a move");
            prop_assert!(game.is_legal(seat, &choice.action), "illegal: {}", choice.action);
            let again = decide(&game, seat, Level::Cheap, decision_seed);
            prop_assert_eq!(Some(&choice), again.as_ref());
            let other = (seat + 1) % game.players().len();
            prop_assert!(decide(&game, other, Level::Cheap, decision_seed).is_none());
            let greedy = baseline::greedy(&game, seat).expect("a greedy move");
            prop_assert!(game.is_legal(seat, &greedy.action), "greedy illegal: {}", greedy.action);
            let random = baseline::random(&game, seat, decision_seed).expect("a random move");
            prop_assert!(game.is_legal(seat, &random.action));
            checked += 1;
        }
    }
}
