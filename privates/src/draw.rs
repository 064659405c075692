//! Randomness asked for, never made (P16). The draws, their purposes and the exact order of
//! each draw's population, so that the bot can run the audited draw of `docs/DICE.md` over it
//! (or a moderator can draw by hand).
//!
//! | purpose | index | population | drawn |
//! |---|---|---|---|
//! | `privates-dealer` | 0 | `[1, 2, …, n]` | 1: result k means seat k − 1 deals first |
//! | `privates-deck` | 0 | the 54 (or 45) costs, lowest first, `copies` of each | all: the shuffled deck, top first |
//! | `privates-chips` | the round, 1… | the bag's chips, red, yellow, green, blue, black by count | min(7, bag) in letter order A, B, … |

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Chip, ChipCounts, CostCounts, COSTS, ROW_SIZE};
use crate::error::{DrawKind, Ruling, SetupError};
use crate::event::Seat;
use crate::setup::{MAX_PLAYERS, MIN_PLAYERS};

/// The purpose of the first dealer's draw.
pub const PURPOSE_DEALER: &str = "privates-dealer";
/// The purpose of the deck's shuffle.
pub const PURPOSE_DECK: &str = "privates-deck";
/// The purpose of each round's chip draw.
pub const PURPOSE_CHIPS: &str = "privates-chips";

/// The population of the dealer's draw: `[1, 2, …, players]`; draw 1 (P4, P16).
pub fn dealer_population(players: usize) -> Vec<u32> {
    (1..=players as u32).collect()
}

/// The seat that deals first for the dealer draw's result `k` (1-based): seat `k − 1`.
pub fn dealer_seat(drawn: u32, players: usize) -> Result<Seat, SetupError> {
    if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&players) {
        return Err(SetupError::PlayerCount {
            count: players,
            ruling: Ruling::P3,
        });
    }
    match (drawn as usize).checked_sub(1) {
        Some(seat) if seat < players => Ok(seat),
        _ => Err(SetupError::Dealer {
            number: u64::from(drawn),
            players,
            ruling: Ruling::P4,
        }),
    }
}

/// The population of the deck's shuffle: every card's cost, lowest first, `copies` of each
/// (54 cards for 6 copies); draw them all (P1, P16). The result is [`crate::Setup::deck`].
pub fn deck_population(copies: u8) -> Vec<u32> {
    COSTS
        .iter()
        .flat_map(|&cost| std::iter::repeat_n(cost, copies as usize))
        .collect()
}

/// The population of a chip draw: the bag's chips listed red, yellow, green, blue, black by
/// their counts (P16).
pub fn chip_population(bag: &ChipCounts) -> Vec<Chip> {
    Chip::ALL
        .iter()
        .flat_map(|&chip| std::iter::repeat_n(chip, bag.get(chip) as usize))
        .collect()
}

/// How many chips a round draws from a bag: min(7, bag) (P5, P16).
pub fn chips_to_draw(bag: &ChipCounts) -> usize {
    (bag.total() as usize).min(ROW_SIZE)
}

/// A draw the game waits for at the start of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "draw", rename_all = "snake_case")]
pub enum DrawRequest {
    /// Audited play: draw the chips (purpose `privates-chips`, index = round) from the bag;
    /// the cards are the next 7 of the shuffled deck. Answer with
    /// [`crate::Game::resolve_chips`].
    Chips {
        /// The round, from 1.
        round: u8,
        /// The bag to draw from (after this round's chips were added, P2).
        bag: ChipCounts,
        /// Chips to draw: min(7, bag).
        count: u8,
    },
    /// Manual play: deal 7 cards from the deck and draw the chips from the bag. Answer with
    /// [`crate::Game::resolve_deal`].
    Deal {
        /// The round, from 1.
        round: u8,
        /// The cards left in the deck, by cost.
        deck: CostCounts,
        /// Cards to deal.
        cards: u8,
        /// The bag to draw from (after this round's chips were added, P2).
        bag: ChipCounts,
        /// Chips to draw: min(7, bag).
        count: u8,
    },
}

impl DrawRequest {
    /// The kind of draw.
    pub fn kind(&self) -> DrawKind {
        match self {
            DrawRequest::Chips { .. } => DrawKind::Chips,
            DrawRequest::Deal { .. } => DrawKind::Deal,
        }
    }

    /// The round it deals.
    pub fn round(&self) -> u8 {
        match *self {
            DrawRequest::Chips { round, .. } | DrawRequest::Deal { round, .. } => round,
        }
    }

    /// The bag the chips come from.
    pub fn bag(&self) -> ChipCounts {
        match *self {
            DrawRequest::Chips { bag, .. } | DrawRequest::Deal { bag, .. } => bag,
        }
    }

    /// Chips to draw.
    pub fn chip_count(&self) -> usize {
        match *self {
            DrawRequest::Chips { count, .. } | DrawRequest::Deal { count, .. } => count as usize,
        }
    }

    /// The audited draw's purpose: `privates-chips`.
    pub fn purpose(&self) -> &'static str {
        PURPOSE_CHIPS
    }

    /// The audited draw's index: the round number.
    pub fn index(&self) -> u64 {
        self.round() as u64
    }

    /// The chip draw's population, in the order of P16.
    pub fn chip_population(&self) -> Vec<Chip> {
        chip_population(&self.bag())
    }
}

impl fmt::Display for DrawRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawRequest::Chips { round, bag, count } => write!(
                f,
                "round {round}: draw {count} chips from a bag of {bag}"
            ),
            DrawRequest::Deal {
                round,
                deck,
                cards,
                bag,
                count,
            } => write!(
                f,
                "round {round}: deal {cards} cards from the {} left in the deck and draw {count} chips from a bag of {bag}",
                deck.total()
            ),
        }
    }
}
