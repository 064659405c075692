//! The plug-in's refusals as data: the engine's typed refusals, and what is wrong with the
//! options of `!setup privates …`. The wording is in `templates/refusal.md.j2`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::error::{PlayError, Ruling, SetupError};
use crate::notation::NotationError;

/// What is wrong with an option of `!setup privates …`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OptionError {
    /// An option Privates does not take.
    Unknown {
        /// The key as written.
        key: String,
    },
    /// An option whose value is not a whole number.
    NotANumber {
        /// `dealer` or `copies`.
        key: String,
        /// The value as written.
        value: String,
        /// P4 for the dealer, P1 for the copies.
        ruling: Ruling,
    },
    /// Manual dice need the first dealer: `dealer:N` (P4).
    DealerNeeded {
        /// P4.
        ruling: Ruling,
    },
    /// With audited dice the first dealer is drawn, not given (P4, P16).
    DealerIsDrawn {
        /// P16.
        ruling: Ruling,
    },
}

impl OptionError {
    /// The ruling the refusal applies, if any.
    pub fn ruling(&self) -> Option<Ruling> {
        match self {
            OptionError::Unknown { .. } => None,
            OptionError::NotANumber { ruling, .. }
            | OptionError::DealerNeeded { ruling }
            | OptionError::DealerIsDrawn { ruling } => Some(*ruling),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { key } => write!(
                f,
                "unknown option '{key}:' (Privates takes dealer: with dice:manual, and copies:)"
            ),
            OptionError::NotANumber { key, value, ruling } => {
                write!(f, "{key}:{value} is not a number ({ruling})")
            }
            OptionError::DealerNeeded { ruling } => write!(
                f,
                "dice:manual needs the first dealer's sign-up number, as in dealer:2 ({ruling})"
            ),
            OptionError::DealerIsDrawn { ruling } => write!(
                f,
                "with audited dice the first dealer is drawn; dealer: goes with dice:manual ({ruling})"
            ),
        }
    }
}

/// A refusal of the Privates plug-in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Refusal {
    /// The engine refused the action or the draw.
    Play(PlayError),
    /// The text is not an action (or not a deal).
    Notation(NotationError),
    /// The setup cannot become a game.
    Setup(SetupError),
    /// An option of `!setup` is wrong.
    Option(OptionError),
}

impl Refusal {
    /// The ruling the refusal applies, if any.
    pub fn ruling(&self) -> Option<Ruling> {
        match self {
            Refusal::Play(e) => Some(e.ruling()),
            Refusal::Setup(e) => Some(e.ruling()),
            Refusal::Option(e) => e.ruling(),
            Refusal::Notation(_) => None,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Play(e) => e.fmt(f),
            Refusal::Notation(e) => e.fmt(f),
            Refusal::Setup(e) => e.fmt(f),
            Refusal::Option(e) => e.fmt(f),
        }
    }
}

impl From<PlayError> for Refusal {
    fn from(e: PlayError) -> Refusal {
        Refusal::Play(e)
    }
}

impl From<NotationError> for Refusal {
    fn from(e: NotationError) -> Refusal {
        Refusal::Notation(e)
    }
}

impl From<SetupError> for Refusal {
    fn from(e: SetupError) -> Refusal {
        Refusal::Setup(e)
    }
}

impl From<OptionError> for Refusal {
    fn from(e: OptionError) -> Refusal {
        Refusal::Option(e)
    }
}
