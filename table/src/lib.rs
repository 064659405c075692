//! The game-agnostic table core of gaugebot: a message or interaction in, replies out.
//!
//! Its folders import each other in one direction only, from the bottom up:
//!
//! - [`dice`], [`store`], [`input`], [`answer`], [`messages`], [`templates`]: seed, commitment
//!   and stream of the audited dice; the storage it needs, as a trait (the bot implements it);
//!   messages in, replies out; what the table says, as typed spans that each transport
//!   presents; every text; the table's own texts, a typed catalogue.
//! - [`game`]: what a game plug-in implements ([`game::TableGame`], typed);
//!   [`game::session`] wraps it for the table: `GameSession<G>` typed, its object-safe side
//!   derived from the same methods (`game::erased`), JSON only where stored; the specs
//!   of commands ([`game::spec`]); the log's entries ([`game::log`], with undo) and the table's
//!   own events in it ([`game::events`]).
//! - [`record`]: the game record and its chain.
//! - [`weeks`]: the model of play over weeks: clocks, reminders, absences, substitutes,
//!   presets, signups and their pick, durations.
//! - [`table`]: one channel's game and the context its work gets (`table::Cx`, with the
//!   narrower `Mover`, `View`, `Ledger`): reading a message
//!   ([`table::extract`]), moves in bold ([`table::play`]), the clock's work, the automa's
//!   turn, signups, setting up a game, what richer transports ask ([`table::prompt`]).
//! - [`commands`]: the `!`-commands and the one [`commands::registry`] that routes them.
//! - [`tables`]: one channel's table as the bot sees it ([`tables::Table`]: decide, then
//!   commit), every channel of a bot ([`tables::Tables`]), and what is answered across them
//!   ([`tables::direct`]).
//!
//! No Discord, no SQL, no game rules in here.

pub mod answer;
pub mod commands;
pub mod dice;
pub mod game;
pub mod input;
pub mod messages;
pub mod record;
pub mod store;
pub mod table;
pub mod tables;
pub mod templates;
pub mod weeks;

pub use answer::{InstantStyle, Rich, Span};
pub use game::session::{plugin, texts_of, SharedPlugin};
pub use game::{
    Ctx, Decision, DiceMode, GameInfo, Names, PlayerInfo, Preset, PresetAnswer, Proxy, Query,
    QuickMove, SetupDice, SetupOptions, Suggestion, TableGame, ToAct,
};
pub use input::{Attachment, Author, Direct, Incoming, Mention, Page, Reply, Response, Verdict};
pub use store::{GameRow, LogRow, Outgoing, Store, StoreError, Write};
pub use table::prompt::Prompt;
pub use table::{Host, Report, TableError, TableSettings};
pub use tables::servers::KnownServers;
pub use tables::Tables;
pub use tables::{Answer, Committed, Decided, NotStored, Table};
pub use templates::Templates;
