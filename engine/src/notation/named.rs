//! The one place where reading meets the position: a bid or a pass that names a share
//! (`bid 8 on WLW`, `pass on CBSC`) is read as the plain bid or pass only if that share is the one
//! under auction; a build towards one place that names no railway (`build to Shannon`) is that
//! railway's build when the player to act can make it for one railway only, and an amount alone
//! (`£9`) is a bid while an auction runs ([`read_in`]).
//! Everything else about legality is [`Game::play`]'s business.

use std::fmt;

use serde::{Deserialize, Serialize};

use super::reading::{bare_bid, read, Ambiguity, Reading};
use crate::action::Action;
use crate::game::{Actor, Game, Phase};
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

/// Reads a text in a position: [`read`], then the things the position settles without a
/// guess. An amount alone (`9`, `£9`) is a bid while an auction runs (chat otherwise). A build towards one place that names no railway (`build to Shannon`, `build K3`) is
/// that railway's build when exactly one railway's build is legal for the player to act; when
/// several are, it stays ambiguous listing only those; when none is, it stays as read. A build
/// through two or more hexes without a railway (`build K3 L3`) always stays ambiguous.
pub fn read_in(game: &Game, text: &str) -> Reading {
    let reading = read(text);
    if reading.is_chat() && share_under_auction(game).is_some() {
        // `£9`, `9`: in an auction an amount alone can only be a bid.
        if let Some(bid) = bare_bid(text) {
            return bid;
        }
    }
    let Reading::Ambiguous {
        options,
        why: Ambiguity::NoRailway,
    } = &reading
    else {
        return reading;
    };
    let Actor::Player { seat } = game.to_act() else {
        return reading;
    };
    let towards_one_place = options
        .iter()
        .all(|o| matches!(o, Action::Build { hexes, .. } if hexes.len() == 1));
    if !towards_one_place {
        return reading;
    }
    let mut legal: Vec<Action> = options
        .iter()
        .filter(|o| game.is_legal(seat, o))
        .cloned()
        .collect();
    match legal.len() {
        0 => reading,
        1 => Reading::Move {
            action: legal.remove(0),
            canonical: false,
            named: None,
        },
        _ => Reading::Ambiguous {
            options: legal,
            why: Ambiguity::NoRailway,
        },
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::action::Action;
    use crate::notation::read;
    use crate::setup::Setup;

    fn new_game() -> Game {
        let setup = Setup {
            players: vec!["ann".into(), "bob".into(), "cat".into()],
            order: vec![1, 2, 3],
            cities: [5, 2, 3, 11, 4, 7, 9, 12],
        };
        Game::new(&setup).expect("valid setup")
    }

    #[test]
    fn a_named_share_must_be_the_one_up() {
        let game = new_game();
        assert_eq!(share_under_auction(&game), Some(Railway::Cbsc));
        assert_eq!(check_named_share(&game, &read("bid 8 on CBSC")), Ok(()));
        assert_eq!(check_named_share(&game, &read("bid 8")), Ok(()));
        let refused = check_named_share(&game, &read("bid 8 on WLW")).expect_err("not up");
        assert_eq!(
            refused,
            NamedShareError::NotUnderAuction {
                named: Railway::Wlw,
                up: Railway::Cbsc
            }
        );
        assert_eq!(
            refused.to_string(),
            "WLW is not the share under auction; the auction is for CBSC"
        );
    }

    #[test]
    fn no_share_can_be_named_outside_an_auction() {
        let mut game = new_game();
        while share_under_auction(&game).is_some() {
            let crate::game::Actor::Player { seat } = game.to_act() else {
                panic!("nobody to act");
            };
            game.play(seat, &Action::Pass).expect("a pass is legal");
        }
        assert!(matches!(
            check_named_share(&game, &read("pass on CBSC")),
            Err(NamedShareError::NoAuction {
                named: Railway::Cbsc
            })
        ));
        assert_eq!(check_named_share(&game, &read("dividends")), Ok(()));
    }
}
