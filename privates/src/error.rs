//! Refusals that say why: each one carries its data and names the ruling (P1–P16 of
//! `privates-rulings.md`, retold in `docs/PRIVATES.md`) it applies. A refusal never changes the
//! game.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::card::{Chip, Letter};
use crate::event::Seat;
use crate::notation::NotationError;

/// A numbered ruling of `privates-rulings.md`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Ruling {
    /// Deck: nine kinds, 6 copies (5 in the variant).
    P1,
    /// Chips: 5 colours of 11; 2 of each into the bag each round.
    P2,
    /// 2 to 6 players sharing $360.
    P3,
    /// The dealer is drawn, then passes to the left.
    P4,
    /// A round's row: 7 cards by cost, letters A–G, a chip on each.
    P5,
    /// Prices: equal costs $2 apart.
    P6,
    /// A turn: buy the cheapest, bid on another, or pass.
    P7,
    /// Bids: at least price + $2 and high bid + $1, within cash.
    P8,
    /// Passing drops the cheapest card's price; at $0 it must be taken.
    P9,
    /// The waterfall resolves the cheapest card while it has bids.
    P10,
    /// The bid-off among several bidders.
    P11,
    /// After a waterfall the turn goes to the left of who acted.
    P12,
    /// Round end: revenue, double in the last round.
    P13,
    /// End and scoring: cash, sets, sequences in layers.
    P14,
    /// Highest total wins; ties shared.
    P15,
    /// Randomness is asked for, never made.
    P16,
}

impl Ruling {
    /// Every ruling in order.
    pub const ALL: [Ruling; 16] = [
        Ruling::P1,
        Ruling::P2,
        Ruling::P3,
        Ruling::P4,
        Ruling::P5,
        Ruling::P6,
        Ruling::P7,
        Ruling::P8,
        Ruling::P9,
        Ruling::P10,
        Ruling::P11,
        Ruling::P12,
        Ruling::P13,
        Ruling::P14,
        Ruling::P15,
        Ruling::P16,
    ];

    /// How the ruling is cited: `P8`.
    pub fn reference(self) -> &'static str {
        match self {
            Ruling::P1 => "P1",
            Ruling::P2 => "P2",
            Ruling::P3 => "P3",
            Ruling::P4 => "P4",
            Ruling::P5 => "P5",
            Ruling::P6 => "P6",
            Ruling::P7 => "P7",
            Ruling::P8 => "P8",
            Ruling::P9 => "P9",
            Ruling::P10 => "P10",
            Ruling::P11 => "P11",
            Ruling::P12 => "P12",
            Ruling::P13 => "P13",
            Ruling::P14 => "P14",
            Ruling::P15 => "P15",
            Ruling::P16 => "P16",
        }
    }

    /// What the ruling is about, in a few words.
    pub fn title(self) -> &'static str {
        match self {
            Ruling::P1 => "the deck",
            Ruling::P2 => "the chips",
            Ruling::P3 => "players and money",
            Ruling::P4 => "the dealer",
            Ruling::P5 => "a round's row",
            Ruling::P6 => "prices",
            Ruling::P7 => "a turn",
            Ruling::P8 => "bids",
            Ruling::P9 => "passing",
            Ruling::P10 => "the waterfall",
            Ruling::P11 => "the bid-off",
            Ruling::P12 => "the turn after a waterfall",
            Ruling::P13 => "round end",
            Ruling::P14 => "end and scoring",
            Ruling::P15 => "the winner",
            Ruling::P16 => "randomness",
        }
    }
}

impl fmt::Display for Ruling {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.reference())
    }
}

/// What a draw supplies: the kind of draw asked for or given (P16).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawKind {
    /// Chips only (audited play: the engine knows the shuffled deck).
    Chips,
    /// Cards and chips (manual play).
    Deal,
}

/// What was counted in a draw of the wrong size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Drawn {
    /// Cards.
    Cards,
    /// Chips.
    Chips,
}

impl fmt::Display for Drawn {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Drawn::Cards => "cards",
            Drawn::Chips => "chips",
        })
    }
}

/// A refused action or draw. Seats are 0-based; names are the caller's to add.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlayError {
    /// The game is over (P14).
    GameOver {
        /// P14.
        ruling: Ruling,
    },
    /// A draw must be made before anyone acts (P16).
    DrawPending {
        /// The draw the game waits for.
        draw: DrawKind,
        /// The round it deals.
        round: u8,
        /// P16.
        ruling: Ruling,
    },
    /// The seat is not at the table (P3).
    NotSeated {
        /// The seat given.
        seat: Seat,
        /// Players at the table.
        players: usize,
        /// P3.
        ruling: Ruling,
    },
    /// Another player is to act (P7 on a turn, P11 in a bid-off, P12 after a waterfall).
    NotYourTurn {
        /// Who tried.
        player: Seat,
        /// Who is to act.
        to_act: Seat,
        /// The ruling that gives the turn.
        ruling: Ruling,
    },
    /// The cheapest card is at $0 and must be taken: only `buy` is allowed (P9).
    MustTakeFree {
        /// The card.
        letter: Letter,
        /// P9.
        ruling: Ruling,
    },
    /// No card has that letter this round (P5).
    NoSuchCard {
        /// The letter.
        letter: Letter,
        /// Cards in the row.
        row: usize,
        /// P5.
        ruling: Ruling,
    },
    /// The card has already been taken this round (P5).
    CardTaken {
        /// The card.
        letter: Letter,
        /// Its owner.
        owner: Seat,
        /// P5.
        ruling: Ruling,
    },
    /// Only the cheapest card left may be bought (P7).
    NotCheapest {
        /// The card named.
        letter: Letter,
        /// The cheapest card left.
        cheapest: Letter,
        /// P7.
        ruling: Ruling,
    },
    /// The buyer cannot pay the price: cash less open bids is short (P7, or P8 when open bids
    /// are what make it short).
    CannotAfford {
        /// The card.
        letter: Letter,
        /// Its price.
        price: u32,
        /// The buyer's cash.
        cash: u32,
        /// The sum of the buyer's open bids, which cash must still cover.
        open_bids: u32,
        /// P7 or P8.
        ruling: Ruling,
    },
    /// The cheapest card cannot be bid on, only bought (P7).
    BidOnCheapest {
        /// The card.
        letter: Letter,
        /// Its price, to buy it.
        price: u32,
        /// P7.
        ruling: Ruling,
    },
    /// A bid below the least allowed (P8).
    BidTooLow {
        /// The card.
        letter: Letter,
        /// The bid.
        bid: u32,
        /// The least bid: the larger of price + $2 and high bid + $1.
        minimum: u32,
        /// P8.
        ruling: Ruling,
    },
    /// The bidder already holds the highest bid on the card (P8).
    AlreadyHighBidder {
        /// The card.
        letter: Letter,
        /// Their bid there.
        bid: u32,
        /// P8.
        ruling: Ruling,
    },
    /// The bid would make the bidder's open bids more than their cash (P8).
    OverCommitted {
        /// The card.
        letter: Letter,
        /// The bid.
        bid: u32,
        /// The bidder's cash.
        cash: u32,
        /// Their open bids on other cards.
        other_bids: u32,
        /// The most they may bid here: cash less other bids.
        maximum: u32,
        /// P8.
        ruling: Ruling,
    },
    /// `raise` or `drop` with no bid-off running (P11).
    NoBidOff {
        /// P11.
        ruling: Ruling,
    },
    /// A bid-off is running: only a raise or a drop on its card is allowed (P11).
    BidOffRunning {
        /// The card of the bid-off.
        letter: Letter,
        /// The current high bid.
        high: u32,
        /// P11.
        ruling: Ruling,
    },
    /// A raise not above the bid-off's high bid (P11).
    RaiseTooLow {
        /// The card.
        letter: Letter,
        /// The raise.
        bid: u32,
        /// The least raise: high bid + $1.
        minimum: u32,
        /// P11.
        ruling: Ruling,
    },
    /// A raise beyond cash less the raiser's other open bids (P11).
    RaiseOverCommitted {
        /// The card.
        letter: Letter,
        /// The raise.
        bid: u32,
        /// The raiser's cash.
        cash: u32,
        /// Their open bids on other cards.
        other_bids: u32,
        /// The most they may raise to.
        maximum: u32,
        /// P11.
        ruling: Ruling,
    },
    /// No draw is pending (P16).
    NoDrawPending {
        /// P16.
        ruling: Ruling,
    },
    /// The draw given is not the kind asked for (P16): chips only in audited play, cards and
    /// chips in manual play.
    WrongDraw {
        /// The kind asked for.
        expected: DrawKind,
        /// The kind given.
        given: DrawKind,
        /// P16.
        ruling: Ruling,
    },
    /// A draw of the wrong size (P5 seven cards, P16 min(7, bag) chips).
    WrongCount {
        /// Cards or chips.
        what: Drawn,
        /// How many are needed.
        expected: usize,
        /// How many were given.
        given: usize,
        /// P5 or P16.
        ruling: Ruling,
    },
    /// No card has that cost (P1).
    NotACard {
        /// The cost given.
        cost: u32,
        /// P1.
        ruling: Ruling,
    },
    /// The deck has no (more) card of that cost left (P1).
    CardNotInDeck {
        /// The cost.
        cost: u32,
        /// Cards of that cost left in the deck.
        left: u8,
        /// How many the deal asks for.
        wanted: u8,
        /// P1.
        ruling: Ruling,
    },
    /// The bag has no (more) chip of that colour (P2).
    ChipNotInBag {
        /// The colour.
        chip: Chip,
        /// Chips of that colour in the bag.
        in_bag: u8,
        /// How many the draw asks for.
        wanted: u8,
        /// P2.
        ruling: Ruling,
    },
}

impl PlayError {
    /// The ruling the refusal applies.
    pub fn ruling(&self) -> Ruling {
        match self {
            PlayError::GameOver { ruling }
            | PlayError::DrawPending { ruling, .. }
            | PlayError::NotSeated { ruling, .. }
            | PlayError::NotYourTurn { ruling, .. }
            | PlayError::MustTakeFree { ruling, .. }
            | PlayError::NoSuchCard { ruling, .. }
            | PlayError::CardTaken { ruling, .. }
            | PlayError::NotCheapest { ruling, .. }
            | PlayError::CannotAfford { ruling, .. }
            | PlayError::BidOnCheapest { ruling, .. }
            | PlayError::BidTooLow { ruling, .. }
            | PlayError::AlreadyHighBidder { ruling, .. }
            | PlayError::OverCommitted { ruling, .. }
            | PlayError::NoBidOff { ruling }
            | PlayError::BidOffRunning { ruling, .. }
            | PlayError::RaiseTooLow { ruling, .. }
            | PlayError::RaiseOverCommitted { ruling, .. }
            | PlayError::NoDrawPending { ruling }
            | PlayError::WrongDraw { ruling, .. }
            | PlayError::WrongCount { ruling, .. }
            | PlayError::NotACard { ruling, .. }
            | PlayError::CardNotInDeck { ruling, .. }
            | PlayError::ChipNotInBag { ruling, .. } => *ruling,
        }
    }
}

fn seat(s: Seat) -> String {
    format!("seat {}", s + 1)
}

impl fmt::Display for PlayError {
    /// Plain English with seats numbered from 1; the bot's templates use the data and names.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::GameOver { .. } => f.write_str("the game is over"),
            PlayError::DrawPending { draw, round, .. } => match draw {
                DrawKind::Chips => write!(
                    f,
                    "the chips for round {round} must be drawn before anyone acts"
                ),
                DrawKind::Deal => write!(
                    f,
                    "the cards and chips for round {round} must be dealt before anyone acts"
                ),
            },
            PlayError::NotSeated { seat: s, players, .. } => write!(
                f,
                "{} is not at the table; there are {players} players",
                seat(*s)
            ),
            PlayError::NotYourTurn { to_act, ruling, .. } => {
                if *ruling == Ruling::P11 {
                    write!(f, "it is {}'s turn in the bid-off", seat(*to_act))
                } else {
                    write!(f, "it is {}'s turn", seat(*to_act))
                }
            }
            PlayError::MustTakeFree { letter, .. } => write!(
                f,
                "card {letter} is at $0 and must be taken for free: say buy"
            ),
            PlayError::NoSuchCard { letter, row, .. } => {
                write!(f, "there is no card {letter}; the row has {row} cards")
            }
            PlayError::CardTaken { letter, owner, .. } => {
                write!(f, "card {letter} has already been taken by {}", seat(*owner))
            }
            PlayError::NotCheapest {
                letter, cheapest, ..
            } => write!(
                f,
                "only the cheapest card left, {cheapest}, may be bought, not {letter}"
            ),
            PlayError::CannotAfford {
                letter,
                price,
                cash,
                open_bids,
                ..
            } => {
                if *open_bids > 0 {
                    write!(
                        f,
                        "card {letter} costs ${price}, but with ${cash} cash and ${open_bids} in open bids only ${} is free",
                        cash.saturating_sub(*open_bids)
                    )
                } else {
                    write!(f, "card {letter} costs ${price} and there is only ${cash}")
                }
            }
            PlayError::BidOnCheapest { letter, price, .. } => write!(
                f,
                "card {letter} is the cheapest card left: it cannot be bid on, only bought for ${price}"
            ),
            PlayError::BidTooLow {
                letter,
                bid,
                minimum,
                ..
            } => write!(
                f,
                "a bid on {letter} must be at least ${minimum}, not ${bid}"
            ),
            PlayError::AlreadyHighBidder { letter, bid, .. } => write!(
                f,
                "you already hold the highest bid on {letter} (${bid})"
            ),
            PlayError::OverCommitted {
                letter,
                bid,
                cash,
                other_bids,
                maximum,
                ..
            } => write!(
                f,
                "a bid of ${bid} on {letter} is more than the ${maximum} you can commit (${cash} cash less ${other_bids} in other bids)"
            ),
            PlayError::NoBidOff { .. } => f.write_str(
                "no bid-off is running; to bid on a card name it, as in bid 17 on C",
            ),
            PlayError::BidOffRunning { letter, high, .. } => write!(
                f,
                "the bid-off for {letter} is running (high bid ${high}): raise or drop"
            ),
            PlayError::RaiseTooLow {
                letter,
                bid,
                minimum,
                ..
            } => write!(
                f,
                "a raise on {letter} must be at least ${minimum}, not ${bid}"
            ),
            PlayError::RaiseOverCommitted {
                letter,
                bid,
                cash,
                other_bids,
                maximum,
                ..
            } => write!(
                f,
                "a raise to ${bid} on {letter} is more than the ${maximum} you can commit (${cash} cash less ${other_bids} in other bids)"
            ),
            PlayError::NoDrawPending { .. } => f.write_str("no draw is pending"),
            PlayError::WrongDraw { expected, .. } => match expected {
                DrawKind::Chips => f.write_str(
                    "the deck is shuffled by audited draw: only the chips are to be drawn",
                ),
                DrawKind::Deal => f.write_str(
                    "the cards are dealt by hand: give the 7 cards and the chips together",
                ),
            },
            PlayError::WrongCount {
                what,
                expected,
                given,
                ..
            } => write!(f, "exactly {expected} {what} must be drawn, not {given}"),
            PlayError::NotACard { cost, .. } => write!(
                f,
                "no card costs {cost}; the costs are 5, 10, 15, 20, 25, 30, 35, 40, 50"
            ),
            PlayError::CardNotInDeck {
                cost, left, wanted, ..
            } => write!(
                f,
                "{wanted} cards costing {cost} are dealt but only {left} are left in the deck"
            ),
            PlayError::ChipNotInBag {
                chip,
                in_bag,
                wanted,
                ..
            } => write!(
                f,
                "{wanted} {chip} chips are drawn but the bag holds {in_bag}"
            ),
        }?;
        write!(f, " ({})", self.ruling())
    }
}

impl std::error::Error for PlayError {}

/// A setup that cannot become a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SetupError {
    /// Privates is for 2 to 6 players (P3).
    PlayerCount {
        /// How many were given.
        count: usize,
        /// P3.
        ruling: Ruling,
    },
    /// A player name is empty or given twice (case-insensitively).
    PlayerName {
        /// The name (empty for an empty name).
        name: String,
        /// P3.
        ruling: Ruling,
    },
    /// Copies per card kind must be 6, or 5 for the variant (P1).
    Copies {
        /// As given.
        copies: u8,
        /// P1.
        ruling: Ruling,
    },
    /// The first dealer is not a seat at the table (P4).
    Dealer {
        /// The first dealer's sign-up number as given (seat + 1).
        number: u64,
        /// Players at the table.
        players: usize,
        /// P4.
        ruling: Ruling,
    },
    /// The shuffled deck has the wrong number of cards (P16).
    DeckSize {
        /// Cards given.
        given: usize,
        /// Cards in the deck.
        expected: usize,
        /// P16.
        ruling: Ruling,
    },
    /// The shuffled deck holds a cost no card has (P1).
    DeckCard {
        /// The cost.
        cost: u32,
        /// P1.
        ruling: Ruling,
    },
    /// The shuffled deck has the wrong number of cards of one cost (P1).
    DeckCopies {
        /// The cost.
        cost: u32,
        /// How many it holds.
        given: usize,
        /// How many it should hold.
        expected: u8,
        /// P1.
        ruling: Ruling,
    },
}

impl SetupError {
    /// The ruling the refusal applies.
    pub fn ruling(&self) -> Ruling {
        match self {
            SetupError::PlayerCount { ruling, .. }
            | SetupError::PlayerName { ruling, .. }
            | SetupError::Copies { ruling, .. }
            | SetupError::Dealer { ruling, .. }
            | SetupError::DeckSize { ruling, .. }
            | SetupError::DeckCard { ruling, .. }
            | SetupError::DeckCopies { ruling, .. } => *ruling,
        }
    }
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::PlayerCount { count, .. } => {
                write!(f, "Privates is for 2 to 6 players, not {count}")
            }
            SetupError::PlayerName { name, .. } if name.is_empty() => {
                f.write_str("a player name is empty")
            }
            SetupError::PlayerName { name, .. } => write!(f, "player {name} is seated twice"),
            SetupError::Copies { copies, .. } => write!(
                f,
                "the deck has 6 copies of each card (5 in the variant), not {copies}"
            ),
            SetupError::Dealer {
                number, players, ..
            } => write!(
                f,
                "the dealer must be one of the {players} seats, not seat {number}"
            ),
            SetupError::DeckSize {
                given, expected, ..
            } => write!(
                f,
                "the shuffled deck must hold {expected} cards, not {given}"
            ),
            SetupError::DeckCard { cost, .. } => write!(f, "no card costs {cost}"),
            SetupError::DeckCopies {
                cost,
                given,
                expected,
                ..
            } => write!(
                f,
                "the shuffled deck holds {given} cards costing {cost}, not {expected}"
            ),
        }?;
        write!(f, " ({})", self.ruling())
    }
}

impl std::error::Error for SetupError {}

/// A refused line of text from a player: unknown name, unreadable notation, or an illegal
/// action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "error", rename_all = "snake_case")]
pub enum LineError {
    /// Nobody of that name is at the table.
    UnknownPlayer {
        /// The name.
        name: String,
    },
    /// The text is not an action.
    Notation(NotationError),
    /// The action is not legal.
    Play(PlayError),
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineError::UnknownPlayer { name } => write!(f, "nobody called {name} is playing"),
            LineError::Notation(e) => e.fmt(f),
            LineError::Play(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for LineError {}

impl From<NotationError> for LineError {
    fn from(e: NotationError) -> LineError {
        LineError::Notation(e)
    }
}

impl From<PlayError> for LineError {
    fn from(e: PlayError) -> LineError {
        LineError::Play(e)
    }
}
