//! A computer player for Irish Gauge (docs/AUTOMA.md). Pure: no I/O, no async, no clock, no
//! random source but the caller's seed.
//!
//! [`decide`] picks the automa's move for the seat to act: the heuristic policy ([`policy`])
//! proposes a few candidates, a flat Monte Carlo search ([`search`]) plays each forward to the
//! end of the game many times, and the best on average is chosen. It reads only the public
//! position (a [`Game`] holds nothing secret: the dice seed is never an input); future draws are
//! sampled from its own stream, seeded from `seed`.
//!
//! [`baseline`] holds the players it is measured against: random and greedy.

pub mod baseline;
mod builds;
mod outlook;
mod policy;
pub mod reason;
pub mod rng;
mod search;
#[cfg(feature = "table")]
pub mod table;

use irish_gauge::{Action, Actor, Game, LegalActions, Seat};

pub use reason::{Estimate, Reason};

use crate::outlook::Outlook;
use crate::policy::{bid_options, turn_options, BuildSearch, Scored};

/// How hard the automa thinks: a count of simulated games per decision, never wall-clock time,
/// so the same position and seed give the same move on any machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// A few simulations, for tests.
    Cheap,
    /// The table's default: calibrated to a median decision of at most 2 s on one core.
    Standard,
    /// Exactly this many simulations per decision (at least one per candidate).
    Simulations(u32),
}

impl Level {
    /// Simulated games per decision.
    pub fn simulations(self) -> u32 {
        match self {
            Level::Cheap => 2,
            Level::Standard => 2_000,
            Level::Simulations(n) => n.max(1),
        }
    }
}

/// The move chosen and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Choice {
    /// The move, an ordinary engine action for the caller to play.
    pub action: Action,
    /// Why, as data.
    pub reason: Reason,
    /// The search's estimate behind the move; `None` when there was nothing to search.
    pub estimate: Option<Estimate>,
}

/// Candidates at most on a turn.
const TURN_CANDIDATES: usize = 8;
/// Builds at most per railway among the candidates.
const BUILDS_PER_RAILWAY: usize = 2;
/// Bids above the least bid among the candidates.
const EXTRA_BIDS: usize = 2;

/// The automa's move for `seat`, or `None` when `seat` is not the one to act (another seat's
/// turn, a draw pending, the game over). `seed` comes from public data (the table: a hash of the
/// game id and the log position), never from the dice; the same game, seat, level and seed
/// always give the same choice.
pub fn decide(game: &Game, seat: Seat, level: Level, seed: u64) -> Option<Choice> {
    if game.to_act() != (Actor::Player { seat }) {
        return None;
    }
    let outlook = Outlook::of(game);
    let candidates = match game.legal_actions() {
        LegalActions::Bidding { .. } => bid_options(game, seat, &outlook, EXTRA_BIDS),
        LegalActions::Turn { .. } => {
            select_turn_candidates(turn_options(game, seat, &outlook, BuildSearch::All))
        }
        LegalActions::Draw(_) | LegalActions::None => return None,
    };
    if candidates.len() <= 1 {
        return candidates.into_iter().next().map(|only| Choice {
            action: only.action,
            reason: Reason::OnlyMove,
            estimate: None,
        });
    }
    let actions: Vec<Action> = candidates.iter().map(|c| c.action.clone()).collect();
    let (chosen, estimate) = search::best(game, seat, &actions, level.simulations(), seed);
    let Scored { action, reason, .. } = candidates.into_iter().nth(chosen)?;
    Some(Choice {
        action,
        reason,
        estimate: Some(estimate),
    })
}

/// The turn options worth simulating: calling dividends, the best builds of each railway, the
/// best special interest and auctions, best first, at most [`TURN_CANDIDATES`].
fn select_turn_candidates(options: Vec<Scored>) -> Vec<Scored> {
    let mut chosen: Vec<Scored> = Vec::new();
    let mut builds = [0usize; 5];
    let (mut interests, mut auctions) = (0, 0);
    for option in options {
        let keep = match &option.action {
            Action::CallDividends => true,
            Action::Build { railway, .. } => {
                builds[railway.index()] += 1;
                builds[railway.index()] <= BUILDS_PER_RAILWAY
            }
            Action::SpecialInterest { .. } => {
                interests += 1;
                interests <= 1
            }
            Action::Auction { .. } => {
                auctions += 1;
                auctions <= 2
            }
            Action::Bid { .. } | Action::Pass => false,
        };
        if keep {
            chosen.push(option);
        }
    }
    // Calling for dividends is always kept, even if it falls outside the cap.
    if chosen.len() > TURN_CANDIDATES {
        let dividends = chosen
            .iter()
            .position(|o| o.action == Action::CallDividends)
            .filter(|&i| i >= TURN_CANDIDATES);
        if let Some(i) = dividends {
            chosen.swap(TURN_CANDIDATES - 1, i);
        }
        chosen.truncate(TURN_CANDIDATES);
    }
    chosen
}

#[cfg(test)]
mod tests {
    use irish_gauge::playout::{random_action, random_draw};
    use irish_gauge::Setup;

    use super::*;
    use crate::rng::Rng;

    /// Every candidate the search may choose from (not only the chosen one) is legal, over
    /// positions of random games: the full build lists, bids, interests and auctions.
    #[test]
    fn every_candidate_is_legal() {
        let mut rng = Rng::new(22);
        let mut checked = 0;
        for game_index in 0..40u8 {
            let setup = Setup {
                players: (1..=3 + game_index as usize % 3)
                    .map(|i| format!("p{i}"))
                    .collect(),
                order: (1..=3 + game_index % 3).collect(),
                cities: [1, 5, 9, 2, 6, 10, 3, 7],
            };
            let mut game = Game::new(&setup).expect("a valid setup");
            while !game.is_finished() {
                match game.to_act() {
                    Actor::Dice => {
                        let request = game.pending_draw().expect("a draw");
                        let cubes =
                            random_draw(request.supply, request.count, &mut |n| rng.below(n));
                        game.resolve_draw(&cubes).expect("a legal draw");
                    }
                    Actor::Player { seat } => {
                        let outlook = Outlook::of(&game);
                        let options = match game.legal_actions() {
                            LegalActions::Bidding { .. } => {
                                bid_options(&game, seat, &outlook, EXTRA_BIDS)
                            }
                            _ => turn_options(&game, seat, &outlook, BuildSearch::All),
                        };
                        assert!(!options.is_empty());
                        for option in &options {
                            assert!(game.is_legal(seat, &option.action), "{}", option.action);
                        }
                        checked += options.len();
                        let action = random_action(&game, &mut |n| rng.below(n)).expect("a move");
                        game.play(seat, &action).expect("a legal move");
                    }
                    Actor::Nobody => break,
                }
            }
        }
        assert!(checked > 10_000, "only {checked} candidates checked");
    }
}
