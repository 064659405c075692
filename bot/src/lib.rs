//! gaugebot: the moderator of play-by-forum board games in Discord.
//!
//! The table core (crate `gaugebot-table`) knows no game, no Discord and no SQL; the databases
//! are the crate `gaugebot-store`. This crate is the bot around them: the [`games`] it hosts,
//! the [`config`], the command-line tools over a database ([`migrate`], [`backup`],
//! [`records`]), and the adapters: Discord through serenity and a console table ([`console`])
//! for local play and scripted tests.

pub mod backup;
pub mod clock;
pub mod config;
pub mod console;
pub mod discord;
pub mod games;
pub mod logging;
pub mod migrate;
pub mod records;
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
