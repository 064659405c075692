//! Why a move was chosen, as data: the table words it from templates.

use irish_gauge::{Colour, HexId, Railway};

/// Why the automa (or the greedy player) chose its move. Pounds are rounded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reason {
    /// The only legal move (or the only sensible one).
    OnlyMove,
    /// Chosen at random (the random baseline player).
    Random,
    /// A bid, or an auction opened: the share is worth more than the price.
    ValueAbovePrice {
        /// The railway.
        railway: Railway,
        /// The price bid.
        price: u32,
        /// The share's worth (face value plus expected dividends), as estimated.
        value: u32,
    },
    /// A pass or a bid the estimate of the share's worth alone would not make (a pass though
    /// the share looks worth the least bid, a bid above its worth): the simulated games went
    /// better this way.
    Simulated {
        /// The railway.
        railway: Railway,
        /// The least legal bid (a pass) or the bid.
        price: u32,
        /// The share's worth, as estimated.
        value: u32,
        /// Whether the move is a pass.
        pass: bool,
    },
    /// A build whose gain is less than a pound per dividend call, or none the estimate sees:
    /// the track grows toward paying cities (`gains`), or the simulated games favoured it.
    Approaches {
        /// The railway.
        railway: Railway,
        /// Locomotives placed.
        locomotives: u8,
        /// Whether the estimate sees a gain (under a pound per call).
        gains: bool,
    },
    /// A pass: the least bid is above what the share is worth.
    PriceAboveValue {
        /// The railway.
        railway: Railway,
        /// The least legal bid.
        price: u32,
        /// The share's worth, as estimated.
        value: u32,
    },
    /// A build: the railway's expected income per call, counting the cities its track nears,
    /// grows by at least a pound (`income_after` > `income_before`).
    Extends {
        /// The railway.
        railway: Railway,
        /// Locomotives placed.
        locomotives: u8,
        /// Expected income per dividend call before, in pounds.
        income_before: u32,
        /// Expected income per dividend call after, in pounds.
        income_after: u32,
    },
    /// A special interest: the town becomes a city that pays often.
    NewCity {
        /// The town.
        town: HexId,
        /// The cube.
        colour: Colour,
    },
    /// Calling for dividends: what the call is expected to pay this seat.
    Dividends {
        /// Expected payout to this seat, in pounds.
        expected: u32,
    },
}

/// The search's estimate behind a choice.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Estimate {
    /// The estimated chance of winning after this move, in percent.
    pub win_percent: u8,
    /// Simulated games the estimate rests on.
    pub simulations: u32,
}
