//! # Privates
//!
//! The rules of Privates, an auction card game built on 1830's private-company auction, as a
//! pure library: no I/O, no async, no random number generator of its own. Random results (the
//! first dealer, the deck's shuffle, each round's chips, or a moderator's manual deal) are asked
//! for by the engine and supplied by the caller (ruling P16).
//!
//! - [`Setup`] is an unvalidated setup; [`Game::new`] validates it into a game.
//! - [`Game::play`] applies a player's [`Action`] and returns the [`Event`]s it caused, or a
//!   [`PlayError`] that carries its data and names its [`Ruling`].
//! - [`Game::legal_actions`] lists what the player to act may do; [`Game::to_act`] says who.
//! - [`Game::pending_draw`] asks for a draw; [`Game::resolve_chips`] (audited play) and
//!   [`Game::resolve_deal`] (manual play) answer it. [`draw`] lists each draw's population.
//! - [`notation`] parses and prints the players' notation (`bid 17 on C`) and the moderator's
//!   deal; [`view::GameView`] is the JSON dump.
//!
//! With the feature `table`, [`table`] is the game's plug-in for the gaugebot table core.
//!
//! The rules as the project reads them are in `docs/PRIVATES.md`.

#![warn(missing_docs)]

pub mod action;
pub mod card;
pub mod draw;
pub mod error;
pub mod event;
pub mod game;
pub mod notation;
pub mod phrasing;
pub mod playout;
pub mod scoring;
pub mod seat;
pub mod setup;
#[cfg(feature = "table")]
pub mod table;
pub mod view;

pub use action::Action;
pub use card::{Card, Chip, ChipCounts, CostCounts, Letter};
pub use draw::DrawRequest;
pub use error::{DrawKind, Drawn, LineError, PlayError, Ruling, SetupError};
pub use event::{Event, Seat};
pub use game::{Actor, Game, LegalActions, Phase};
pub use notation::{parse_action, parse_deal, Deal, NotationError};
pub use scoring::Score;
pub use setup::Setup;
pub use view::GameView;

/// The engine's version, recorded with every game so old games can be replayed knowingly.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");
