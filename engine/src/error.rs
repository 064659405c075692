//! Errors that say why: each refusal names the rule it applies.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::action::Action;

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

/// A refused action: illegal (with the rule) or ambiguous (with the options).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PlayError {
    /// The action breaks a rule.
    Illegal {
        /// The rule.
        rule: Rule,
        /// What is wrong, in words.
        reason: String,
    },
    /// The action could mean several things; the options are listed.
    Ambiguous {
        /// What is ambiguous.
        reason: String,
        /// The actions it could mean.
        options: Vec<Action>,
    },
}

impl PlayError {
    /// An illegal action.
    pub fn illegal(rule: Rule, reason: impl Into<String>) -> Self {
        PlayError::Illegal {
            rule,
            reason: reason.into(),
        }
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
            PlayError::Ambiguous { reason, options } => {
                write!(f, "{reason}; say one of: ")?;
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
