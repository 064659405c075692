//! What happened: the events an applied action causes, for reports and logs.

use serde::{Deserialize, Serialize};

use crate::board::HexId;
use crate::railway::{Colour, Railway};

/// A seat at the table, 0-based in player order.
pub type Seat = usize;

/// Money paid to one holder.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Payout {
    /// Who was paid.
    pub player: Seat,
    /// Shares of the railway they hold.
    pub shares: u32,
    /// Pounds received.
    pub amount: u32,
}

/// Why a player was passed automatically (ruling 11).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AutoPassReason {
    /// Cash below the share's face value while nobody has bid.
    CannotAffordFaceValue {
        /// The player's cash.
        cash: u32,
        /// The face value.
        face: u32,
    },
    /// Cash not above the high bid.
    CannotRaise {
        /// The player's cash.
        cash: u32,
        /// The high bid.
        high: u32,
    },
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// A share went up for auction.
    AuctionOpened {
        /// The player who opened it (the opening bidder of an initial auction).
        by: Seat,
        /// The railway.
        railway: Railway,
        /// The share's face value.
        face: u32,
        /// Whether this is one of the five initial auctions.
        initial: bool,
    },
    /// A bid was made.
    Bid {
        /// Bidder.
        player: Seat,
        /// Pounds.
        amount: u32,
    },
    /// A player passed.
    Passed {
        /// Who passed.
        player: Seat,
    },
    /// A player who could not make a legal bid was passed automatically (ruling 11).
    AutoPassed {
        /// Who was passed.
        player: Seat,
        /// Why.
        reason: AutoPassReason,
    },
    /// An auction ended and the share changed hands.
    ShareWon {
        /// The new holder.
        player: Seat,
        /// The railway.
        railway: Railway,
        /// The share's face value.
        face: u32,
        /// The price paid; 0 when nobody bid in an initial auction (ruling 5).
        price: u32,
    },
    /// Locomotives were placed.
    LocomotivesPlaced {
        /// The railway.
        railway: Railway,
        /// Each hex with its cost in half build points.
        hexes: Vec<(HexId, u8)>,
        /// The total cost in half build points.
        half_points: u8,
        /// Locomotives still unplaced afterwards.
        unplaced: u8,
    },
    /// The Major City Dividend (ruling 15).
    MajorCityDividend {
        /// The railway.
        railway: Railway,
        /// Pounds per share.
        per_share: u32,
        /// Who got what.
        payouts: Vec<Payout>,
    },
    /// A town became a city (ruling 16).
    SpecialInterestPlaced {
        /// Who placed it.
        player: Seat,
        /// The town.
        town: HexId,
        /// The cube.
        colour: Colour,
    },
    /// Dividends were called; a draw is now needed.
    DividendsCalled {
        /// Who called.
        player: Seat,
        /// Cubes to draw.
        count: u8,
    },
    /// Cubes were drawn from the supply (ruling 17).
    CubesDrawn {
        /// The cubes, in the order drawn.
        cubes: Vec<Colour>,
    },
    /// One railway's dividend (ruling 18), paying or not.
    Dividend {
        /// The railway.
        railway: Railway,
        /// Paying cities with its track.
        paying_cities: Vec<HexId>,
        /// Towns with its track.
        towns: Vec<HexId>,
        /// Income in pounds (0 when it does not pay).
        income: u32,
        /// Pounds per share.
        per_share: u32,
        /// Who got what.
        payouts: Vec<Payout>,
    },
    /// A player's turn begins.
    TurnBegan {
        /// Whose turn.
        player: Seat,
        /// Turn number, from 1 after the initial auctions.
        turn: u32,
    },
    /// The game is over (ruling 21).
    GameOver {
        /// Final score per seat.
        scores: Vec<u32>,
        /// The winners (all of the top score).
        winners: Vec<Seat>,
    },
}
