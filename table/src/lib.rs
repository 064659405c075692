//! The game-agnostic table core of gaugebot: a message or interaction in, replies out.
//!
//! - [`game`]: what a game plug-in implements ([`game::TableGame`], typed);
//!   [`game::session`] wraps it for the table (object-safe, JSON at the boundary).
//! - [`table`]: one channel's game ([`table::Table`]): reading a message
//!   ([`table::extract`]), moves in bold ([`table::play`]), what richer transports ask
//!   ([`table::prompt`]); every channel of a bot ([`table::tables::Tables`]).
//! - [`commands`]: the `!`-commands and the one [`commands::registry`] that routes them.
//! - [`record`]: the append-only [`record::log`] with replay and undo; the game record.
//! - [`dice`]: seed, commitment and stream of the audited dice.
//! - [`store`]: the storage it needs, as a trait (the bot implements it).
//! - [`weeks`]: play over weeks: clocks, reminders, absences, substitutes, presets, moves made
//!   for a seat, their log entries, signups, durations, what is answered across tables.
//! - [`input`]: messages in, replies out; [`templates`]: every text; [`messages`]: the
//!   table's own texts, a typed catalogue.
//!
//! No Discord, no SQL, no game rules in here.

pub mod commands;
pub mod dice;
pub mod game;
pub mod input;
pub mod messages;
pub mod record;
pub mod store;
pub mod table;
pub mod templates;
pub mod weeks;

pub use game::session::{plugin, texts_of, SharedPlugin};
pub use game::{
    Ctx, Decision, DiceMode, GameInfo, Names, PlayerInfo, Preset, PresetAnswer, Proxy, Query,
    QuickMove, SetupDice, SetupOptions, Suggestion, TableGame, ToAct,
};
pub use input::{Attachment, Author, Incoming, Mention, Reply, Response, Verdict, MESSAGE_LIMIT};
pub use store::{GameRow, LogRow, Outgoing, Store, StoreError, Write};
pub use table::prompt::Prompt;
pub use table::tables::Tables;
pub use table::tables::{Answer, Committed, Decided, NotStored, Table};
pub use table::{Host, Report, TableError, TableSettings};
pub use templates::Templates;
