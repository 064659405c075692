//! The baselines the automa is measured against (docs/AUTOMA.md): a random legal player and
//! the greedy heuristic player of [`crate::players`]. Same shape as [`crate::decide`].

use privates::{Actor, Game, Seat};

use crate::players::{greedy_move, random_move};
use crate::rng::Stream;
use crate::{Choice, Reason};

/// A random legal move for `seat` (bids and raises a little above the least), drawn from a
/// stream seeded by `seed`; `None` when `seat` is not to act.
pub fn random(game: &Game, seat: Seat, seed: u64) -> Option<Choice> {
    if game.to_act() != (Actor::Player { seat }) {
        return None;
    }
    let action = random_move(game, &mut Stream::new(seed))?;
    Some(Choice {
        action,
        reason: Reason::Random,
    })
}

/// The greedy heuristic player's move for `seat`; `None` when `seat` is not to act.
pub fn greedy(game: &Game, seat: Seat) -> Option<Choice> {
    if game.to_act() != (Actor::Player { seat }) {
        return None;
    }
    Some(Choice {
        action: greedy_move(game)?,
        reason: Reason::Greedy,
    })
}
