//! What a player can do, in the engine's terms, printed in the players' own notation.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::Letter;

/// One player action.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Buy the cheapest card left at its price, or take it free at $0 (P7, P9). The letter, if
    /// given, must be the cheapest card's.
    Buy {
        /// The card named, if any.
        letter: Option<Letter>,
    },
    /// Bid on a card other than the cheapest (P8).
    Bid {
        /// The card.
        letter: Letter,
        /// Dollars.
        amount: u32,
    },
    /// Pass the turn (P9); in a bid-off, the same as [`Action::Drop`].
    Pass,
    /// Raise in the running bid-off (P11).
    Raise {
        /// Dollars: the new high bid.
        amount: u32,
    },
    /// Drop out of the running bid-off (P11).
    Drop,
}

impl fmt::Display for Action {
    /// Prints the action in the notation that [`crate::notation::parse_action`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Buy { letter: None } => f.write_str("buy"),
            Action::Buy {
                letter: Some(letter),
            } => write!(f, "buy {letter}"),
            Action::Bid { letter, amount } => write!(f, "bid {amount} on {letter}"),
            Action::Pass => f.write_str("pass"),
            Action::Raise { amount } => write!(f, "raise {amount}"),
            Action::Drop => f.write_str("drop"),
        }
    }
}
