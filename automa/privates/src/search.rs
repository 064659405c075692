//! Determinized Monte Carlo search: each simulation plays a candidate move on the position as
//! the players see it, then plays the game out with the rollout policy, dealing every unseen
//! card and chip at random from what is left; the candidates are thinned by successive
//! halving, and the one with the best mean outcome is chosen.

use privates::playout::random_draw;
use privates::{Action, Actor, Game, Seat};

use crate::players::rollout_move;
use crate::rng::Stream;

/// The weight of the score margin in a simulation's outcome, beside the win (0 to 1).
pub const MARGIN_WEIGHT: f64 = 0.5;
/// The margin, in dollars, at which the margin's part of the outcome is full.
pub const MARGIN_SCALE: f64 = 60.0;
/// A guard on a rollout's length; a game ends long before.
const MAX_STEPS: usize = 5_000;

/// What the simulations of one candidate found.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Tally {
    /// Simulations run.
    pub runs: u32,
    /// Sum of outcomes (win share + weighted margin).
    pub outcome: f64,
    /// Sum of win shares (1 for a win, 1/k for a k-way tie, 0 for a loss).
    pub wins: f64,
    /// Sum of score margins over the best other player.
    pub margin: f64,
}

impl Tally {
    /// The mean outcome; −∞ before any run.
    pub fn mean(&self) -> f64 {
        if self.runs == 0 {
            f64::NEG_INFINITY
        } else {
            self.outcome / self.runs as f64
        }
    }

    fn add(&mut self, wins: f64, margin: f64) {
        self.runs += 1;
        self.wins += wins;
        self.margin += margin;
        self.outcome += wins + MARGIN_WEIGHT * (margin / MARGIN_SCALE).clamp(-1.0, 1.0);
    }
}

/// The search's result: the index of the chosen candidate, each candidate's tally, and the
/// simulations run in all.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    /// The chosen candidate.
    pub best: usize,
    /// One tally per candidate.
    pub tallies: Vec<Tally>,
    /// Simulations run.
    pub simulations: u32,
}

/// Weighs `candidates` for `seat` on `view` (a position with nothing hidden in it) with about
/// `budget` simulations, by successive halving: each round shares its part of the budget
/// among the candidates still in, the better half go on. Simulation `j` of a round uses the
/// same random stream for every candidate (common random numbers).
pub fn weigh(view: &Game, seat: Seat, candidates: &[Action], budget: u32, seed: u64) -> Outcome {
    let mut tallies = vec![Tally::default(); candidates.len()];
    let mut alive: Vec<usize> = (0..candidates.len()).collect();
    let rounds = (usize::BITS - candidates.len().saturating_sub(1).leading_zeros()).max(1);
    let mut simulations = 0;
    for round in 0..rounds {
        if alive.len() <= 1 {
            break;
        }
        let per = (budget / rounds / alive.len() as u32).max(1);
        for j in 0..per {
            for &c in &alive {
                let mut stream = Stream::derived(seed, round as u64, j as u64);
                if let Some((wins, margin)) = simulate(view, seat, &candidates[c], &mut stream) {
                    tallies[c].add(wins, margin);
                }
                simulations += 1;
            }
        }
        alive.sort_by(|&a, &b| {
            tallies[b]
                .mean()
                .total_cmp(&tallies[a].mean())
                .then(a.cmp(&b))
        });
        alive.truncate(alive.len().div_ceil(2));
    }
    Outcome {
        best: alive.first().copied().unwrap_or(0),
        tallies,
        simulations,
    }
}

/// One simulation: the move, then the rest of the game by the rollout policy with random
/// draws; the seat's win share and margin, or `None` if the move is refused.
pub fn simulate(
    view: &Game,
    seat: Seat,
    action: &Action,
    stream: &mut Stream,
) -> Option<(f64, f64)> {
    let mut game = view.clone();
    game.play(seat, action).ok()?;
    play_out(&mut game, stream);
    Some(result_for(&game, seat))
}

/// Plays a game to its end with the rollout policy and random draws.
pub fn play_out(game: &mut Game, stream: &mut Stream) {
    for _ in 0..MAX_STEPS {
        match game.to_act() {
            Actor::Nobody => return,
            Actor::Draw => {
                if random_draw(game, &mut |n| stream.below(n)).is_none() {
                    return;
                }
            }
            Actor::Player { seat } => {
                let Some(action) = rollout_move(game, stream) else {
                    return;
                };
                if game.play(seat, &action).is_err() {
                    return;
                }
            }
        }
    }
}

/// A seat's win share and score margin over the best other player, by the scores now.
pub fn result_for(game: &Game, seat: Seat) -> (f64, f64) {
    let totals: Vec<u32> = game.scores().iter().map(|s| s.total).collect();
    let mine = totals.get(seat).copied().unwrap_or(0);
    let best_other = totals
        .iter()
        .enumerate()
        .filter(|&(s, _)| s != seat)
        .map(|(_, &t)| t)
        .max()
        .unwrap_or(0);
    let top = totals.iter().copied().max().unwrap_or(0);
    let sharing = totals.iter().filter(|&&t| t == top).count().max(1);
    let wins = if mine == top {
        1.0 / sharing as f64
    } else {
        0.0
    };
    (wins, mine as f64 - best_other as f64)
}
