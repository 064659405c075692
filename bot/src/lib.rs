//! gaugebot: the moderator of play-by-forum board games in Discord.
//!
//! The table core (crate `gaugebot-table`) knows no game, no Discord and no SQL. This crate is
//! the bot around it: the [`games`] it hosts, the SQLite [`storage`], the [`config`], and the
//! adapters: Discord through serenity and a console table ([`console`]) for local play and
//! scripted tests.

pub mod backend;
pub mod backup;
pub mod clock;
pub mod config;
pub mod console;
pub mod discord;
pub mod games;
pub mod migrate;
pub mod owners;
pub mod postgres;
pub mod records;
pub mod sql;
pub mod sqlite_writer;
pub mod storage;
pub mod templates;

/// The table core's message types and table, under the paths of the first version.
pub mod table {
    pub use gaugebot_table::input::*;
    pub use gaugebot_table::table::*;
    pub use gaugebot_table::tables::Table;
}

pub use gaugebot_table::dice;
pub use gaugebot_table::table::extract;
pub use gaugebot_table::tables;
