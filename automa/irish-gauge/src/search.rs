//! Flat Monte Carlo over a few candidate moves: each candidate is played, then the game is
//! played to its end by the rollout policy for every seat, the dividend draws sampled from the
//! automa's own stream. Successive halving spends the simulations on the better candidates;
//! rollout `i` of every candidate uses the same random stream (common random numbers), so
//! candidates are compared on the same futures.

use irish_gauge::playout::random_draw;
use irish_gauge::{Action, Actor, Game, Seat};

use crate::policy;
use crate::reason::Estimate;
use crate::rng::Rng;

/// Steps after which a rollout is abandoned (a random game takes a few hundred).
const MAX_ROLLOUT_STEPS: usize = 5_000;
/// How much the final score margin counts beside the win (a win is 1).
const MARGIN_WEIGHT: f64 = 0.2;

/// What one candidate has gathered.
#[derive(Debug, Clone, Copy, Default)]
struct Tally {
    rollouts: u32,
    reward: f64,
    wins: f64,
}

impl Tally {
    fn mean(&self) -> f64 {
        if self.rollouts == 0 {
            f64::NEG_INFINITY
        } else {
            self.reward / self.rollouts as f64
        }
    }
}

/// The index of the best candidate and its estimate, after about `simulations` rollouts.
pub(crate) fn best(
    game: &Game,
    seat: Seat,
    candidates: &[Action],
    simulations: u32,
    seed: u64,
) -> (usize, Estimate) {
    let mut tallies = vec![Tally::default(); candidates.len()];
    // With fewer simulations than candidates, only the heuristic's best few are simulated.
    let tried = candidates.len().min(simulations.max(2) as usize);
    let mut alive: Vec<usize> = (0..tried).collect();
    let rounds = (usize::BITS - (tried.max(2) - 1).leading_zeros()).max(1);
    let per_round = (simulations / rounds).max(1);
    for round in 0..rounds {
        let each = (per_round / alive.len() as u32).max(1);
        if round > 0 && per_round < alive.len() as u32 {
            break;
        }
        for &c in &alive {
            for _ in 0..each {
                let index = tallies[c].rollouts as u64;
                let (reward, win) = simulate(game, seat, &candidates[c], seed, index);
                tallies[c].rollouts += 1;
                tallies[c].reward += reward;
                tallies[c].wins += win;
            }
        }
        alive.sort_by(|&a, &b| {
            tallies[b]
                .mean()
                .total_cmp(&tallies[a].mean())
                .then(a.cmp(&b))
        });
        if round + 1 < rounds {
            alive.truncate(alive.len().div_ceil(2));
        }
    }
    let chosen = alive[0];
    let tally = tallies[chosen];
    let spent = tallies.iter().map(|t| t.rollouts).sum();
    (
        chosen,
        Estimate {
            win_percent: (100.0 * tally.wins / tally.rollouts.max(1) as f64).round() as u8,
            simulations: spent,
        },
    )
}

/// Plays `action` then the rest of the game; returns (reward, win share) for `seat`.
fn simulate(game: &Game, seat: Seat, action: &Action, seed: u64, index: u64) -> (f64, f64) {
    let mut game = game.clone();
    if game.play(seat, action).is_err() {
        return (f64::NEG_INFINITY, 0.0);
    }
    let mut rng = Rng::derive(seed, index);
    let mut steps = 0;
    while steps < MAX_ROLLOUT_STEPS {
        steps += 1;
        match game.to_act() {
            Actor::Nobody => break,
            Actor::Dice => {
                let Some(request) = game.pending_draw() else {
                    break;
                };
                let cubes = random_draw(request.supply, request.count, &mut |n| rng.below(n));
                if game.resolve_draw(&cubes).is_err() {
                    break;
                }
            }
            Actor::Player { seat: actor } => {
                let Some(next) = policy::rollout(&game, actor, &mut rng) else {
                    break;
                };
                if game.play(actor, &next).is_err() {
                    break;
                }
            }
        }
    }
    outcome(&game, seat)
}

/// (reward, win share) for `seat` from the scores as they stand.
fn outcome(game: &Game, seat: Seat) -> (f64, f64) {
    let mine = game.score(seat) as f64;
    let scores: Vec<f64> = (0..game.players().len())
        .map(|s| game.score(s) as f64)
        .collect();
    let best_other = scores
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != seat)
        .map(|(_, v)| *v)
        .fold(f64::NEG_INFINITY, f64::max);
    let top = scores.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let win = if mine < top {
        0.0
    } else {
        1.0 / scores.iter().filter(|&&v| v == top).count() as f64
    };
    let margin = mine - best_other;
    (win + MARGIN_WEIGHT * margin / (margin.abs() + 10.0), win)
}
