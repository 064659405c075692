//! Final scoring (P14): cash, cost sets of three or more, and same-colour sequences of
//! consecutive revenues taken in layers.

use serde::{Deserialize, Serialize};

use crate::card::{Card, Chip, COSTS, REVENUES};
use crate::seat::Seat;

/// Fewest cards of one cost that score as a set (P14).
pub const SET_MIN: u32 = 3;
/// Fewest cards in a scoring sequence (P14).
pub const SEQUENCE_MIN: u32 = 3;
/// The revenues that count in sequences, $3 to $10 (P14: 50/$15 cards never do).
pub const SEQUENCE_REVENUES: std::ops::RangeInclusive<u32> = 3..=10;

/// A set: 3 or more cards of one cost (P14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetScore {
    /// The cost.
    pub cost: u32,
    /// The revenue of a card of that cost.
    pub revenue: u32,
    /// Cards of that cost held.
    pub count: u32,
    /// count × revenue.
    pub points: u32,
}

/// A sequence: a maximal run of 3 or more consecutive revenues in one colour and one layer
/// (P14).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SequenceScore {
    /// The colour.
    pub colour: Chip,
    /// The layer, from 1: layer k uses the k-th card of each revenue held in that colour.
    pub layer: u32,
    /// The lowest revenue in the run.
    pub low: u32,
    /// The highest revenue in the run.
    pub high: u32,
    /// Cards in the run.
    pub length: u32,
    /// length × highest revenue.
    pub points: u32,
}

/// A player's score with its breakdown.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Score {
    /// The player.
    pub player: Seat,
    /// Cash.
    pub cash: u32,
    /// Each scoring set, lowest cost first.
    pub sets: Vec<SetScore>,
    /// Each scoring sequence, by colour, layer, then revenue.
    pub sequences: Vec<SequenceScore>,
    /// The sum of the sets.
    pub set_points: u32,
    /// The sum of the sequences.
    pub sequence_points: u32,
    /// cash + set points + sequence points.
    pub total: u32,
}

/// Scores a player's cash and cards (P14).
pub fn score(player: Seat, cash: u32, cards: &[Card]) -> Score {
    let mut sets = Vec::new();
    for (&cost, &revenue) in COSTS.iter().zip(REVENUES.iter()) {
        let count = cards.iter().filter(|c| c.cost == cost).count() as u32;
        if count >= SET_MIN {
            sets.push(SetScore {
                cost,
                revenue,
                count,
                points: count * revenue,
            });
        }
    }
    let mut sequences = Vec::new();
    for colour in Chip::ALL {
        // held[r - 3]: cards of this colour with revenue r.
        let mut held = [0u32; 8];
        for card in cards {
            if card.colour == Some(colour) && SEQUENCE_REVENUES.contains(&card.revenue) {
                held[(card.revenue - 3) as usize] += 1;
            }
        }
        let layers = held.iter().copied().max().unwrap_or(0);
        for layer in 1..=layers {
            let mut run_start: Option<u32> = None;
            for r in SEQUENCE_REVENUES.chain(std::iter::once(11)) {
                let present = r <= 10 && held[(r - 3) as usize] >= layer;
                match (present, run_start) {
                    (true, None) => run_start = Some(r),
                    (false, Some(low)) => {
                        let length = r - low;
                        if length >= SEQUENCE_MIN {
                            let high = r - 1;
                            sequences.push(SequenceScore {
                                colour,
                                layer,
                                low,
                                high,
                                length,
                                points: length * high,
                            });
                        }
                        run_start = None;
                    }
                    _ => {}
                }
            }
        }
    }
    let set_points = sets.iter().map(|s| s.points).sum();
    let sequence_points = sequences.iter().map(|s| s.points).sum();
    Score {
        player,
        cash,
        sets,
        sequences,
        set_points,
        sequence_points,
        total: cash + set_points + sequence_points,
    }
}

/// The winners among totals: every seat with the highest (P15: ties are shared).
pub fn winners(totals: &[u32]) -> Vec<Seat> {
    let best = totals.iter().copied().max();
    (0..totals.len())
        .filter(|&s| Some(totals[s]) == best)
        .collect()
}
