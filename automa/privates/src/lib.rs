//! # privates-automa
//!
//! A computer player for Privates (docs/AUTOMA.md): [`decide`] chooses a legal move for the
//! seat to act — buy, bid (which card, how much) or pass on a turn, raise or drop in a
//! bid-off — by determinized Monte Carlo search. Pure: no I/O, no async, no clock.
//!
//! - **What it sees.** Only what a player at the table sees: [`decide`] first forgets the
//!   audited deck's order ([`privates::Game::without_hidden_deck`]) and every simulation deals
//!   the unseen cards and chips at random from what is left. The dice seed and future draws
//!   are never read, so two positions that differ only in the undealt deck's order get the
//!   same move.
//! - **Deterministic.** Its random stream is seeded by the caller's `seed` (derived from
//!   public data: the game and its place in the log), and its budget is a count of
//!   simulations ([`Level`]), not time: the same position, level and seed give the same move.
//! - **Baselines** for measuring it: [`baseline::random`] and [`baseline::greedy`]; the
//!   arena example plays tournaments against them.

#![warn(missing_docs)]

pub mod baseline;
pub mod candidates;
pub mod players;
pub mod rng;
pub mod search;
#[cfg(feature = "table")]
pub mod table;
pub mod value;

use privates::{Action, Actor, Game, Seat};

/// How hard the automa thinks: a count of simulations, never wall-clock time, so that the
/// same position and seed give the same move on any machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Level {
    /// A few simulations ([`CHEAP_SIMULATIONS`]): for tests, a few milliseconds a decision.
    Cheap,
    /// The table's default ([`STANDARD_SIMULATIONS`]), calibrated to a median of at most 2 s a
    /// decision on one core (docs/AUTOMA.md).
    Standard,
    /// Exactly this many simulations per decision.
    Simulations(u32),
}

/// Simulations per decision at [`Level::Cheap`].
pub const CHEAP_SIMULATIONS: u32 = 24;
/// Simulations per decision at [`Level::Standard`] (docs/AUTOMA.md, calibration).
pub const STANDARD_SIMULATIONS: u32 = 6_000;

impl Level {
    /// Simulations per decision: each a complete rollout to the game's end.
    pub fn simulations(self) -> u32 {
        match self {
            Level::Cheap => CHEAP_SIMULATIONS,
            Level::Standard => STANDARD_SIMULATIONS,
            Level::Simulations(n) => n,
        }
    }
}

/// The automa's move and why.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The move, legal for the seat in the position given.
    pub action: Action,
    /// Why: data, worded by the table's templates.
    pub reason: Reason,
}

/// Why the automa chose its move.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Reason {
    /// It was the only move: a free card to take (P9), or a bid-off raise it cannot afford.
    OnlyMove,
    /// The random baseline's move ([`baseline::random`]).
    Random,
    /// The greedy baseline's move ([`baseline::greedy`]): the best surplus of worth over
    /// price, or nothing worth its price.
    Greedy,
    /// The search found it the best of the moves weighed.
    Searched {
        /// Moves weighed.
        moves_weighed: u32,
        /// Simulations run in all.
        simulations: u32,
        /// Simulations of the chosen move.
        runs: u32,
        /// Its share of simulated games won, in percent (ties shared).
        win_percent: u8,
        /// Its mean final margin over the best other player, in dollars.
        mean_margin: i32,
    },
}

/// The automa's move for `seat`, or `None` if `seat` is not the player to act (a draw is
/// pending, the game is over, or another seat acts). Uses only what the players can see;
/// the same position, level and seed always give the same choice.
pub fn decide(game: &Game, seat: Seat, level: Level, seed: u64) -> Option<Choice> {
    if game.to_act() != (Actor::Player { seat }) {
        return None;
    }
    let view = game.without_hidden_deck();
    let moves = candidates::candidates(&view, seat);
    if moves.len() == 1 {
        return Some(Choice {
            action: moves[0],
            reason: Reason::OnlyMove,
        });
    }
    let outcome = search::weigh(&view, seat, &moves, level.simulations(), seed);
    let action = *moves.get(outcome.best)?;
    let tally = outcome.tallies[outcome.best];
    let runs = tally.runs.max(1) as f64;
    Some(Choice {
        action,
        reason: Reason::Searched {
            moves_weighed: moves.len() as u32,
            simulations: outcome.simulations,
            runs: tally.runs,
            win_percent: (100.0 * tally.wins / runs).round() as u8,
            mean_margin: (tally.margin / runs).round() as i32,
        },
    })
}
