//! Errors that say why: each refusal names the rule it applies.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::board::HexId;
use crate::railway::{Colour, CubeCounts, Railway};

/// The rule clause a refusal applies (numbers are those of `rulings.md`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Rule {
    /// Only the player to act may act.
    TurnOrder,
    /// The action does not fit the phase (e.g. `bid` with no auction running).
    Phase,
    /// Ruling 2: bids are whole pounds, at least face value, above the high bid, within cash.
    Bid,
    /// Ruling 10: what may be auctioned and how it opens.
    Auction,
    /// Ruling 12: building needs a share of the railway.
    ShareNeeded,
    /// Ruling 12/13: 19 locomotives per railway.
    Locomotives,
    /// Ruling 13: 3 build points, at least one locomotive.
    BuildPoints,
    /// Ruling 13: only one railway may occupy a difficult hex.
    DifficultHex,
    /// Ruling 13: a railway never has two locomotives in one hex; a hex listed once.
    OneLocomotivePerHex,
    /// Ruling 14: track connects to the starting city.
    Connection,
    /// Ruling 16: special interests.
    SpecialInterest,
    /// Ruling 25: a draw must fit the supply.
    Draw,
    /// Ruling 21: the game is over.
    GameOver,
}

impl Rule {
    /// Where the rule is written.
    pub fn reference(self) -> &'static str {
        match self {
            Rule::TurnOrder => "rulings 8-9",
            Rule::Phase => "ruling 8",
            Rule::Bid => "ruling 2",
            Rule::Auction => "ruling 10",
            Rule::ShareNeeded => "ruling 12",
            Rule::Locomotives => "ruling 12",
            Rule::BuildPoints => "ruling 13",
            Rule::DifficultHex => "ruling 13",
            Rule::OneLocomotivePerHex => "ruling 13",
            Rule::Connection => "ruling 14",
            Rule::SpecialInterest => "ruling 16",
            Rule::Draw => "ruling 25",
            Rule::GameOver => "ruling 21",
        }
    }
}

/// Whose decision a player was asked for (in "it is ann's turn / bid").
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// A turn.
    Turn,
    /// A bid in an auction.
    Bid,
}

/// Why an action is illegal, as data: what the rule needs and what was given. The wording that
/// players see is the bot's (templates); [`fmt::Display`] is the plain English of the library.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Reason {
    /// The seat is not in the game.
    NotSeated,
    /// Another player is to act.
    NotYourTurn {
        /// Who is to act.
        expected: String,
        /// What they decide.
        decision: Decision,
        /// Who tried.
        player: String,
    },
    /// The dividend cubes must be drawn first.
    DrawPending,
    /// The game is over.
    GameOver,
    /// An auction runs: only bid or pass.
    AuctionRunning {
        /// The railway up for auction.
        railway: Railway,
        /// The player to bid.
        player: String,
        /// The lowest legal bid.
        min: u32,
    },
    /// No auction runs: bid and pass make no sense.
    NoAuctionRunning,
    /// The railway has sold every share.
    NoSharesLeft {
        /// The railway.
        railway: Railway,
    },
    /// The auctioneer cannot pay the face value.
    CannotAffordShare {
        /// The railway.
        railway: Railway,
        /// The next share's face value.
        face: u32,
        /// The auctioneer.
        player: String,
        /// Their cash.
        cash: u32,
    },
    /// A bid below the face value.
    BelowFaceValue {
        /// The face value.
        face: u32,
    },
    /// A bid not above the high bid.
    NotAboveHighBid {
        /// The high bid.
        high: u32,
    },
    /// A bid above the bidder's cash.
    MoreThanCash {
        /// The bidder.
        player: String,
        /// Their cash.
        cash: u32,
    },
    /// Building needs a share of the railway.
    NoShare {
        /// The player.
        player: String,
        /// The railway.
        railway: Railway,
    },
    /// All 19 locomotives are placed.
    AllPlaced {
        /// The railway.
        railway: Railway,
    },
    /// A build names no hex.
    EmptyBuild,
    /// A hex is named twice.
    ListedTwice {
        /// The hex.
        hex: HexId,
    },
    /// More hexes than locomotives left.
    TooFewLocomotives {
        /// The railway.
        railway: Railway,
        /// Locomotives left.
        left: u8,
        /// Hexes named.
        wanted: usize,
    },
    /// The build costs more than 3 BP.
    OverBudget {
        /// Its cost in half points.
        cost_half_points: u8,
    },
    /// The railway already has a locomotive there.
    AlreadyThere {
        /// The railway.
        railway: Railway,
        /// The hex.
        hex: HexId,
    },
    /// Another railway holds the difficult hex.
    DifficultHexTaken {
        /// The railway there.
        other: Railway,
        /// The hex.
        hex: HexId,
    },
    /// The hexes would not connect to the track within 3 BP.
    WouldNotConnect {
        /// The first unconnected hex.
        hex: HexId,
        /// The railway.
        railway: Railway,
        /// Its starting city.
        start: HexId,
    },
    /// No path within 3 BP reaches the hex.
    NoPathReaches {
        /// The railway.
        railway: Railway,
        /// The hex.
        hex: HexId,
    },
    /// A special interest needs a town.
    NotATown {
        /// The hex.
        hex: HexId,
    },
    /// The town is already a city.
    AlreadyACity {
        /// The hex.
        hex: HexId,
        /// Its cube.
        cube: Colour,
    },
    /// None of the player's railways has track in the town.
    NoTrackThere {
        /// The player.
        player: String,
        /// The town.
        hex: HexId,
    },
    /// No cube of that colour is left.
    NoCubeLeft {
        /// The colour.
        colour: Colour,
        /// The supply.
        supply: CubeCounts,
    },
    /// No draw is pending.
    NoDrawPending,
    /// A draw of the wrong size.
    WrongCubeCount {
        /// How many must be drawn.
        expected: u8,
        /// How many were given.
        given: usize,
    },
    /// The cubes are not in the supply.
    NotInSupply {
        /// The cubes given.
        cubes: Vec<Colour>,
        /// The supply.
        supply: CubeCounts,
    },
}

impl fmt::Display for Reason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use crate::board::{describe, format_half_points};
        match self {
            Reason::NotSeated => f.write_str("that player is not seated in this game"),
            Reason::NotYourTurn {
                expected,
                decision,
                player,
            } => write!(
                f,
                "it is {expected}'s {}, not {player}'s",
                match decision {
                    Decision::Turn => "turn",
                    Decision::Bid => "bid",
                }
            ),
            Reason::DrawPending => {
                f.write_str("the dividend cubes must be drawn before anyone acts")
            }
            Reason::GameOver => f.write_str("the game is over"),
            Reason::AuctionRunning {
                railway,
                player,
                min,
            } => write!(
                f,
                "the {railway} auction is running: {player} may only bid (at least £{min}) or pass"
            ),
            Reason::NoAuctionRunning => f.write_str(
                "no auction is running: choose an action (auction, build, interest or dividends)",
            ),
            Reason::NoSharesLeft { railway } => write!(f, "{railway} has no shares left"),
            Reason::CannotAffordShare {
                railway,
                face,
                player,
                cash,
            } => write!(
                f,
                "{railway}'s next share costs at least £{face} and {player} has £{cash}"
            ),
            Reason::BelowFaceValue { face } => write!(
                f,
                "a bid must be at least the share's face value of £{face}"
            ),
            Reason::NotAboveHighBid { high } => {
                write!(f, "a bid must be more than the high bid of £{high}")
            }
            Reason::MoreThanCash { player, cash } => write!(f, "{player} has only £{cash}"),
            Reason::NoShare { player, railway } => {
                write!(f, "{player} owns no share of {railway}")
            }
            Reason::AllPlaced { railway } => write!(f, "{railway} has placed all 19 locomotives"),
            Reason::EmptyBuild => f.write_str("a build places at least one locomotive"),
            Reason::ListedTwice { hex } => write!(f, "{} is listed twice", describe(*hex)),
            Reason::TooFewLocomotives {
                railway,
                left,
                wanted,
            } => write!(
                f,
                "{railway} has only {left} locomotive{} left, not {wanted}",
                if *left == 1 { "" } else { "s" }
            ),
            Reason::OverBudget { cost_half_points } => write!(
                f,
                "that build costs {} BP and a build may spend at most 3",
                format_half_points(*cost_half_points)
            ),
            Reason::AlreadyThere { railway, hex } => {
                write!(
                    f,
                    "{railway} already has a locomotive in {}",
                    describe(*hex)
                )
            }
            Reason::DifficultHexTaken { other, hex } => write!(
                f,
                "Only one railway may occupy a difficult hex: {other} is already in {}",
                describe(*hex)
            ),
            Reason::WouldNotConnect {
                hex,
                railway,
                start,
            } => write!(
                f,
                "{} would not connect to {railway}'s track from {} within 3 BP",
                describe(*hex),
                start.display_name()
            ),
            Reason::NoPathReaches { railway, hex } => write!(
                f,
                "{railway} has no locomotive adjacent to {}, and no path within 3 BP reaches it",
                describe(*hex)
            ),
            Reason::NotATown { hex } => write!(f, "{} is not a town", describe(*hex)),
            Reason::AlreadyACity { hex, cube } => write!(
                f,
                "{} is already a city with a {cube} cube; special interests go in towns",
                describe(*hex)
            ),
            Reason::NoTrackThere { player, hex } => write!(
                f,
                "no railway in which {player} owns a share has track in {}",
                describe(*hex)
            ),
            Reason::NoCubeLeft { colour, supply } => {
                write!(f, "no {colour} cube is left in the supply ({supply})")
            }
            Reason::NoDrawPending => f.write_str("no draw is pending"),
            Reason::WrongCubeCount { expected, given } => {
                write!(f, "exactly {expected} cubes must be drawn, not {given}")
            }
            Reason::NotInSupply { cubes, supply } => write!(
                f,
                "{} cannot be drawn from a supply of {supply}",
                cubes.iter().map(|c| c.name()).collect::<Vec<_>>().join(" ")
            ),
        }
    }
}

/// A refused action: illegal (with the rule and the reason as data) or ambiguous (with the
/// options).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlayError {
    /// The action breaks a rule.
    Illegal {
        /// The rule.
        rule: Rule,
        /// What is wrong.
        reason: Reason,
    },
    /// A build could mean several equally cheap paths; the options are listed.
    Ambiguous {
        /// How many cheapest ways there are.
        count: usize,
        /// Their cost in half points.
        cost_half_points: u8,
        /// The hexes named.
        targets: Vec<HexId>,
        /// The builds it could mean.
        options: Vec<Action>,
    },
}

impl PlayError {
    /// An illegal action.
    pub fn illegal(rule: Rule, reason: Reason) -> Self {
        PlayError::Illegal { rule, reason }
    }

    /// The rule broken, if illegal.
    pub fn rule(&self) -> Option<Rule> {
        match self {
            PlayError::Illegal { rule, .. } => Some(*rule),
            PlayError::Ambiguous { .. } => None,
        }
    }
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::Illegal { rule, reason } => write!(f, "{reason} ({})", rule.reference()),
            PlayError::Ambiguous {
                count,
                cost_half_points,
                targets,
                options,
            } => {
                write!(
                    f,
                    "{count} cheapest ways ({} BP each) reach {}; say one of: ",
                    crate::board::format_half_points(*cost_half_points),
                    targets
                        .iter()
                        .map(|h| crate::board::describe(*h))
                        .collect::<Vec<_>>()
                        .join(", ")
                )?;
                for (i, option) in options.iter().enumerate() {
                    if i > 0 {
                        f.write_str(", ")?;
                    }
                    write!(f, "**{option}**")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for PlayError {}

/// A setup that cannot become a game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum SetupError {
    /// Irish Gauge is for 3 to 5 players (ruling 22).
    PlayerCount {
        /// How many were given.
        count: usize,
    },
    /// A player name is empty or given twice.
    PlayerName {
        /// The name.
        name: String,
    },
    /// The order roll is not a permutation of the sign-up numbers (ruling 23).
    PlayerOrder {
        /// What is wrong.
        reason: String,
    },
    /// The city roll is not 8 distinct numbers 1–12 (ruling 24).
    CityCubes {
        /// What is wrong.
        reason: String,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::PlayerCount { count } => write!(
                f,
                "Irish Gauge is for 3 to 5 players, not {count} (ruling 22)"
            ),
            SetupError::PlayerName { name } if name.is_empty() => {
                f.write_str("a player name is empty")
            }
            SetupError::PlayerName { name } => write!(f, "player {name} is seated twice"),
            SetupError::PlayerOrder { reason } => {
                write!(f, "bad player-order roll: {reason} (ruling 23)")
            }
            SetupError::CityCubes { reason } => write!(f, "bad city roll: {reason} (ruling 24)"),
        }
    }
}

impl std::error::Error for SetupError {}
