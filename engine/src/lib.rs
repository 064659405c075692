//! # Irish Gauge
//!
//! The complete rules of Irish Gauge as a pure library: no I/O, no async, no random number
//! generator of its own. Random results (the player order, the city cubes, the dividend draws)
//! are asked for by the engine and supplied by the caller, so that audited dice or a moderator's
//! manual rolls can answer.
//!
//! - [`Setup`] is an unvalidated setup; [`Game::new`] validates it into a game.
//! - [`Game::play`] applies a player's [`Action`] and returns the [`Event`]s it caused, or a
//!   [`PlayError`] that names the rule it breaks.
//! - [`Game::legal_actions`] lists what the player to act may do.
//! - [`odds`] works out the exact chances and expected payouts of a dividend call.
//! - [`notation`] parses and prints the players' own notation (`bid 7`, `build WLW K3 L3`).
//!   [`notation::read`] reads a move the way players really write it (`I bid £8`, `no bid`,
//!   `build K3 and L3 for WLW`), as a move, chat, a near miss or an ambiguity (docs/PHRASING.md).

pub mod board;
pub mod hexset;
pub mod notation;
pub mod odds;
pub mod playout;
pub mod railway;

pub use board::{Board, Hex, HexId, Terrain};
pub use hexset::HexSet;
pub use railway::{Colour, CubeCounts, Railway};
pub mod action;
pub mod build;
pub mod error;
pub mod event;
pub mod game;
pub mod setup;
#[cfg(feature = "table")]
pub mod table;

pub use action::Action;
pub use error::{Decision, PlayError, Reason, Rule, SetupError};
pub use event::{Event, Payout, Seat};
pub use game::{Actor, DrawRequest, Game, LegalActions, Phase};
pub use notation::{parse_action, NotationError};
pub use setup::Setup;

/// The engine's version, recorded with every game so old games can be replayed knowingly.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
