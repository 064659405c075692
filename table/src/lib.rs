//! The game-agnostic table core of gaugebot: a message or interaction in, replies out.
//!
//! - [`game::TableGame`]: what a game plug-in implements (typed); [`session`] wraps it for the
//!   table (object-safe, JSON at the boundary).
//! - [`table::Table`]: one channel's game: routing by the [`registry`], the append-only
//!   [`log`] with replay and undo, the audited [`dice`], every text from the [`templates`].
//! - [`store::Store`]: the storage it needs, as a trait (the bot implements it).
//! - [`tables::Tables`]: every channel of a bot, in parallel, with a `tick` for time-driven work;
//!   [`direct`]: what is answered across tables (direct messages, `!waiting`).
//! - Play over weeks: [`pace`] (clocks, reminders, absences, substitutes, presets, moves made
//!   for a seat), [`meta`] (their log entries), [`signup`] (signups and the random pick),
//!   [`duration`] (durations and Discord time markup).
//!
//! No Discord, no SQL, no game rules in here.

pub mod commands;
pub mod dice;
pub mod direct;
pub mod duration;
pub mod extract;
pub mod game;
pub mod input;
pub mod log;
pub mod meta;
pub mod pace;
pub mod pace_commands;
pub mod play;
pub mod prompt;
pub mod record;
pub mod registry;
pub mod session;
pub mod setup;
pub mod signup;
pub mod store;
pub mod table;
pub mod tables;
pub mod templates;

pub use game::{
    Ctx, Decision, DiceMode, GameInfo, Names, PlayerInfo, Preset, PresetAnswer, Proxy, Query,
    QuickMove, SetupDice, SetupOptions, Suggestion, TableGame, ToAct,
};
pub use input::{Attachment, Author, Incoming, Mention, Reply, Response, Verdict, MESSAGE_LIMIT};
pub use prompt::Prompt;
pub use session::{plugin, SharedPlugin};
pub use store::{GameRow, LogRow, Store, StoreError};
pub use table::{Host, Report, Table, TableError, TableSettings};
pub use tables::Tables;
pub use templates::Templates;
