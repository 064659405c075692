//! The automa's reasons are true (issue 33 §6): over many decisions in positions reached by
//! random play, the numbers a reason cites are the numbers the move was decided on — a pass
//! never cites a worth at or above the price it declined as "not worth it", a bid never cites a
//! worth below its price as "worth it", and a build that cites income cites a gain.

use irish_gauge::playout::{random_action, random_draw};
use irish_gauge::{Action, Actor, Game, LegalActions};
use irish_gauge_automa::rng::Rng;
use irish_gauge_automa::{baseline, decide, Level, Reason};

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

#[test]
fn the_numbers_of_every_reason_agree_with_the_move() {
    let mut rng = Rng::new(33);
    let mut game = Game::new(&baseline::random_setup(4, &mut rng)).expect("a valid setup");
    let (mut decisions, mut passes, mut builds) = (0, 0, 0);
    while decisions < 600 {
        if game.is_finished() {
            let players = 3 + rng.below(3);
            game = Game::new(&baseline::random_setup(players, &mut rng)).expect("setup");
        }
        let steps = 1 + rng.below(6);
        advance(&mut game, &mut rng, steps);
        let Actor::Player { seat } = game.to_act() else {
            continue;
        };
        let least_bid = match game.legal_actions() {
            LegalActions::Bidding { min, .. } => Some(min),
            _ => None,
        };
        let choice = decide(&game, seat, Level::Simulations(8), rng.next_u64()).expect("a move");
        decisions += 1;
        match (&choice.action, &choice.reason) {
            (Action::Pass, Reason::PriceAboveValue { price, value, .. }) => {
                passes += 1;
                assert!(value < price, "a pass says £{value} is not £{price}");
                assert_eq!(
                    Some(*price),
                    least_bid,
                    "the price declined is the least bid"
                );
            }
            (Action::Pass, Reason::Simulated { pass, price, .. }) => {
                passes += 1;
                assert!(*pass);
                assert_eq!(Some(*price), least_bid);
            }
            (Action::Bid { amount }, Reason::ValueAbovePrice { price, value, .. }) => {
                assert_eq!(amount, price, "the bid cited is the bid made");
                assert!(
                    value >= price,
                    "a bid of £{price} for a share worth £{value}"
                );
            }
            (Action::Bid { amount }, Reason::Simulated { price, pass, .. }) => {
                assert!(!pass);
                assert_eq!(amount, price);
            }
            (
                Action::Build { railway, hexes },
                Reason::Extends {
                    railway: cited,
                    locomotives,
                    income_before,
                    income_after,
                },
            ) => {
                builds += 1;
                assert_eq!(railway, cited);
                assert_eq!(hexes.len(), usize::from(*locomotives));
                assert!(
                    income_after > income_before,
                    "a build cites a gain: £{income_before} to £{income_after}"
                );
            }
            (Action::Build { railway, .. }, Reason::Approaches { railway: cited, .. }) => {
                builds += 1;
                assert_eq!(railway, cited);
            }
            (
                Action::Auction { railway, .. },
                Reason::ValueAbovePrice {
                    railway: cited,
                    price,
                    value,
                },
            ) => {
                assert_eq!(railway, cited);
                assert!(
                    value >= price,
                    "an auction opened at £{price} for a share worth £{value}"
                );
            }
            (
                Action::Auction { railway, .. },
                Reason::Simulated {
                    railway: cited,
                    pass,
                    ..
                },
            ) => {
                assert_eq!(railway, cited);
                assert!(!pass);
            }
            (Action::CallDividends, Reason::Dividends { .. })
            | (Action::SpecialInterest { .. }, Reason::NewCity { .. })
            | (_, Reason::OnlyMove) => {}
            (action, reason) => panic!("{action:?} explained by {reason:?}"),
        }
    }
    assert!(
        passes > 20 && builds > 20,
        "{passes} passes, {builds} builds checked"
    );
}
