//! The baselines and the rollout policy: a random legal player, the greedy heuristic player,
//! and the greedy player with noise that the search plays its simulations with.
//!
//! **The greedy player** values every card by [`crate::value`] (income still to come, set and
//! sequence points it adds at once, a share of the set or run of two it starts) and takes the
//! best *surplus*, worth less what it costs:
//! - on a turn: buying the cheapest card at its price, or bidding the least allowed on another
//!   card (a bid's surplus counted at [`BID_SHARE`], since a bid can be overtaken); if nothing
//!   has a surplus it passes (and takes a free card when it must);
//! - in a bid-off: raises by the least allowed while the card is still worth more than the
//!   raise, else drops.

use privates::playout::random_action;
use privates::{Action, Card, Game, LegalActions, Seat};

use crate::rng::Stream;
use crate::value::{payouts_left, worth_with, Holdings};

/// The share of a bid's surplus the greedy player counts, against a buy's.
pub const BID_SHARE: f64 = 0.8;
/// How far the rollout policy's card values stray: each worth is scaled by a factor drawn in
/// [1 − NOISE, 1 + NOISE].
pub const NOISE: f64 = 0.5;
/// How often the rollout policy plays a random legal move instead.
pub const RANDOM_SHARE: f64 = 0.5;

/// A random legal move for the seat to act (bids and raises a little above the least), or
/// `None` when no player is to act.
pub fn random_move(game: &Game, stream: &mut Stream) -> Option<Action> {
    random_action(game, &mut |n| stream.below(n))
}

/// The greedy heuristic player's move for the seat to act, or `None` when no player is to act.
pub fn greedy_move(game: &Game) -> Option<Action> {
    greedy_with(game, |_, worth| worth)
}

/// The rollout policy: the greedy player with noisy values, and a random move in
/// [`RANDOM_SHARE`] of its moves. The simulated players are thus a mixture of careful and
/// careless ones: a model of opponents the automa cannot identify (tuned in the arena,
/// docs/AUTOMA.md).
pub fn rollout_move(game: &Game, stream: &mut Stream) -> Option<Action> {
    if stream.unit() < RANDOM_SHARE {
        return random_move(game, stream);
    }
    greedy_with(game, |_, worth| {
        worth * (1.0 - NOISE + 2.0 * NOISE * stream.unit())
    })
}

/// The greedy choice with the worth of each card passed through `adjust(card, worth)`.
pub(crate) fn greedy_with(
    game: &Game,
    mut adjust: impl FnMut(&Card, f64) -> f64,
) -> Option<Action> {
    let payouts = payouts_left(game);
    let row = game.row();
    let mut worth_to = |seat: Seat, card: &Card| {
        let holdings = Holdings::of(&game.players()[seat].cards);
        adjust(card, worth_with(&holdings, payouts, card))
    };
    match game.legal_actions() {
        LegalActions::Turn {
            player,
            buy,
            bids,
            pass,
        } => {
            let mut best: Option<(f64, Action)> = None;
            let mut consider = |surplus: f64, action: Action| {
                if surplus > 0.0 && best.as_ref().is_none_or(|(s, _)| surplus > *s) {
                    best = Some((surplus, action));
                }
            };
            if let Some(b) = buy {
                if b.free || !pass {
                    return Some(Action::Buy {
                        letter: Some(b.letter),
                    });
                }
                let card = &row[b.letter.index()].card;
                consider(
                    worth_to(player, card) - b.price as f64,
                    Action::Buy {
                        letter: Some(b.letter),
                    },
                );
            }
            for option in &bids {
                let card = &row[option.letter.index()].card;
                consider(
                    BID_SHARE * (worth_to(player, card) - option.minimum as f64),
                    Action::Bid {
                        letter: option.letter,
                        amount: option.minimum,
                    },
                );
            }
            match best {
                Some((_, action)) => Some(action),
                None if pass => Some(Action::Pass),
                None => bids.first().map(|o| Action::Bid {
                    letter: o.letter,
                    amount: o.minimum,
                }),
            }
        }
        LegalActions::BidOff {
            player,
            letter,
            raise,
            ..
        } => {
            let card = &row[letter.index()].card;
            Some(match raise {
                Some(r) if worth_to(player, card) > r.minimum as f64 => {
                    Action::Raise { amount: r.minimum }
                }
                _ => Action::Drop,
            })
        }
        LegalActions::Draw(_) | LegalActions::None => None,
    }
}
