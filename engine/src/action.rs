//! What a player can do, in the engine's terms, printed in the players' own notation.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::board::HexId;
use crate::railway::{Colour, Railway};

/// One player action.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// Raise the high bid in the running auction to this many pounds.
    Bid {
        /// Pounds.
        amount: u32,
    },
    /// Drop out of the running auction.
    Pass,
    /// Put the lowest share of a railway up for auction (Auction a Share).
    Auction {
        /// The railway.
        railway: Railway,
        /// The opening bid; the share's face value when absent.
        opening_bid: Option<u32>,
    },
    /// Place locomotives for one railway (Place Railway Track).
    Build {
        /// The railway.
        railway: Railway,
        /// The hexes, in the order given; for the shorthand, the target hexes.
        hexes: Vec<HexId>,
    },
    /// Turn a town into a city with a cube from the supply (Place a Special Interest).
    SpecialInterest {
        /// The town.
        town: HexId,
        /// The cube colour.
        colour: Colour,
    },
    /// Call for Dividends.
    CallDividends,
}

impl fmt::Display for Action {
    /// Prints the action in the notation that [`crate::notation::parse_action`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Bid { amount } => write!(f, "bid {amount}"),
            Action::Pass => f.write_str("pass"),
            Action::Auction {
                railway,
                opening_bid: None,
            } => write!(f, "auction {railway}"),
            Action::Auction {
                railway,
                opening_bid: Some(bid),
            } => write!(f, "auction {railway} {bid}"),
            Action::Build { railway, hexes } => {
                write!(f, "build {railway}")?;
                for hex in hexes {
                    write!(f, " {}", hex.label())?;
                }
                Ok(())
            }
            Action::SpecialInterest { town, colour } => {
                write!(f, "interest {} {colour}", town.display_name())
            }
            Action::CallDividends => f.write_str("dividends"),
        }
    }
}
