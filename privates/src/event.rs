//! What happened: the events an applied action or draw causes, for narration and logs.

use serde::{Deserialize, Serialize};

use crate::card::{Chip, ChipCounts, Letter};
use crate::scoring::Score;
pub use crate::seat::Seat;

/// A card as dealt into the row.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Dealt {
    /// Its letter (P5).
    pub letter: Letter,
    /// Its cost.
    pub cost: u32,
    /// Its revenue.
    pub revenue: u32,
    /// Its chip.
    pub colour: Option<Chip>,
    /// Its starting price (P6).
    pub price: u32,
}

/// A player's bid.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatBid {
    /// The bidder.
    pub player: Seat,
    /// Dollars.
    pub amount: u32,
}

/// Revenue paid to one player at a round's end (P13).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Income {
    /// Who was paid.
    pub player: Seat,
    /// Cards they own.
    pub cards: u32,
    /// The revenue printed on those cards.
    pub revenue: u32,
    /// Dollars paid: the revenue, doubled in the last round.
    pub amount: u32,
}

/// One thing that happened.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum Event {
    /// Chips moved from the reserve into the bag for a round (P2).
    ChipsToBag {
        /// The round.
        round: u8,
        /// The chips moved.
        chips: ChipCounts,
    },
    /// A round's row was dealt and chipped; the dealer acts first (P5, P7).
    RoundStarted {
        /// The round, from 1.
        round: u8,
        /// Rounds in the game.
        rounds: u8,
        /// The dealer.
        dealer: Seat,
        /// The row, A first.
        row: Vec<Dealt>,
    },
    /// A player bought the cheapest card at its price (P7).
    CardBought {
        /// The buyer.
        player: Seat,
        /// The card.
        letter: Letter,
        /// Its cost.
        cost: u32,
        /// The price paid.
        price: u32,
    },
    /// A player took the cheapest card free at $0 (P9).
    TakenFree {
        /// The player.
        player: Seat,
        /// The card.
        letter: Letter,
        /// Its cost.
        cost: u32,
    },
    /// A bid was placed (P8).
    BidPlaced {
        /// The bidder.
        player: Seat,
        /// The card.
        letter: Letter,
        /// Dollars.
        amount: u32,
        /// The bidder's earlier bid on that card, which this one replaces.
        replaced: Option<u32>,
    },
    /// A player passed (P9).
    Passed {
        /// Who passed.
        player: Seat,
        /// Passes in succession, this one included.
        in_a_row: u8,
    },
    /// Everyone passed in succession: the cheapest card's price dropped (P9).
    PriceDropped {
        /// The card.
        letter: Letter,
        /// The price before.
        from: u32,
        /// The price now.
        to: u32,
    },
    /// Waterfall: the cheapest card had a single bidder, who gets it for their bid (P10).
    WonByBid {
        /// The winner.
        player: Seat,
        /// The card.
        letter: Letter,
        /// Its cost.
        cost: u32,
        /// The bid paid.
        price: u32,
    },
    /// Waterfall: the cheapest card has several bidders, who hold a bid-off (P11).
    BidOffStarted {
        /// The card.
        letter: Letter,
        /// Its cost.
        cost: u32,
        /// The bids on it, in seat order.
        bids: Vec<SeatBid>,
        /// The highest bidder, who is winning.
        high_bidder: Seat,
        /// The highest bid.
        high: u32,
        /// Who is asked first: the next bidder to the left of the highest.
        first: Seat,
    },
    /// A bidder raised in the bid-off (P11).
    BidOffRaised {
        /// The bidder.
        player: Seat,
        /// The card.
        letter: Letter,
        /// The new high bid.
        amount: u32,
    },
    /// A bidder dropped out of the bid-off; their bid is released (P11).
    BidOffDropped {
        /// The bidder.
        player: Seat,
        /// The card.
        letter: Letter,
        /// Their bid, released.
        released: u32,
    },
    /// The last bidder in won the bid-off and paid their bid (P11).
    BidOffWon {
        /// The winner.
        player: Seat,
        /// The card.
        letter: Letter,
        /// Its cost.
        cost: u32,
        /// The bid paid.
        price: u32,
    },
    /// The row is empty: every player received their cards' revenue (P13).
    RoundEnded {
        /// The round.
        round: u8,
        /// Whether it paid double (the last round).
        double: bool,
        /// Income per player, in seat order.
        income: Vec<Income>,
    },
    /// The last round is over: the final scores (P14, P15).
    GameOver {
        /// Each player's score, in seat order.
        scores: Vec<Score>,
        /// The winners: every player with the top total.
        winners: Vec<Seat>,
    },
}
