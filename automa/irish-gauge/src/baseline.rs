//! The players the automa is measured against (docs/AUTOMA.md).
//!
//! - [`random`]: a uniformly random kind of legal move (the engine's random playout: on a turn a
//!   random kind of action, then a random option of it; in auctions bid a little above the least
//!   bid half the time, otherwise pass).
//! - [`greedy`]: the best move by a one-step estimate in pounds, no search. It values a share at
//!   its face value plus its part of the expected dividends still to come (the railway's
//!   expected income per call — exact odds of the paying colours from the supply — plus the
//!   towns and cities its track nears, discounted by half per hex of distance, times the calls
//!   left, supply / 3), counting the others' gains against it at half weight. It bids the least
//!   bid while that is below the share's value; on a turn it builds the set of up to three hexes
//!   that raises that value most, places the special interest that raises income most, opens
//!   the auction of the share worth most above its face, or calls for dividends when the
//!   expected payout to it, less half the others', beats all of those.

use irish_gauge::{Actor, Game, Seat, Setup};

use crate::policy;
use crate::reason::Reason;
use crate::rng::Rng;
use crate::Choice;

/// A random legal move for `seat`, or `None` when `seat` is not to act.
pub fn random(game: &Game, seat: Seat, seed: u64) -> Option<Choice> {
    if game.to_act() != (Actor::Player { seat }) {
        return None;
    }
    let mut rng = Rng::new(seed);
    let action = irish_gauge::playout::random_action(game, &mut |n| rng.below(n))?;
    Some(Choice {
        action,
        reason: Reason::Random,
        estimate: None,
    })
}

/// The greedy heuristic player's move for `seat`, or `None` when `seat` is not to act.
pub fn greedy(game: &Game, seat: Seat) -> Option<Choice> {
    if game.to_act() != (Actor::Player { seat }) {
        return None;
    }
    let best = policy::greedy(game, seat)?;
    Some(Choice {
        action: best.action,
        reason: best.reason,
        estimate: None,
    })
}

/// A random valid setup of `players` players named `p1`, `p2`, …: a shuffled player order and
/// city roll (for tournaments and tests).
pub fn random_setup(players: usize, rng: &mut Rng) -> Setup {
    let mut order: Vec<u8> = (1..=players as u8).collect();
    let mut cubes: Vec<u8> = (1..=12).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, rng.below(i + 1));
    }
    for i in (1..cubes.len()).rev() {
        cubes.swap(i, rng.below(i + 1));
    }
    Setup {
        players: (1..=players).map(|i| format!("p{i}")).collect(),
        order,
        cities: [
            cubes[0], cubes[1], cubes[2], cubes[3], cubes[4], cubes[5], cubes[6], cubes[7],
        ],
    }
}
