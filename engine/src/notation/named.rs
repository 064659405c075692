//! The one place where reading meets the position: a bid or a pass that names a share
//! (`bid 8 on WLW`, `pass on CBSC`) is read as the plain bid or pass only if that share is the one
//! under auction. Everything else about legality is [`Game::play`]'s business.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::reading::Reading;
use crate::game::{Game, Phase};
use crate::railway::Railway;

/// Why the share named with a bid or a pass does not fit the position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NamedShareError {
    /// No auction is running, so no share is up.
    NoAuction {
        /// The railway named.
        named: Railway,
    },
    /// Another railway's share is up.
    NotUnderAuction {
        /// The railway named.
        named: Railway,
        /// The railway whose share is under auction.
        up: Railway,
    },
}

impl fmt::Display for NamedShareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NamedShareError::NoAuction { named } => write!(
                f,
                "no auction is running, so there is no {named} share to bid on or pass"
            ),
            NamedShareError::NotUnderAuction { named, up } => write!(
                f,
                "{named} is not the share under auction; the auction is for {up}"
            ),
        }
    }
}

impl std::error::Error for NamedShareError {}

/// The railway whose share is under auction, if an auction is running.
pub fn share_under_auction(game: &Game) -> Option<Railway> {
    match game.phase() {
        Phase::InitialAuction { auction, .. } | Phase::Auction { auction, .. } => {
            Some(auction.railway)
        }
        _ => None,
    }
}

/// Checks the share named with a bid or a pass against the position: `bid 8 on WLW` is `bid 8`
/// only while WLW's share is under auction. Any other reading passes unchecked.
pub fn check_named_share(game: &Game, reading: &Reading) -> Result<(), NamedShareError> {
    let Reading::Move {
        named: Some(named), ..
    } = reading
    else {
        return Ok(());
    };
    match share_under_auction(game) {
        None => Err(NamedShareError::NoAuction { named: *named }),
        Some(up) if up != *named => Err(NamedShareError::NotUnderAuction { named: *named, up }),
        Some(_) => Ok(()),
    }
}
