//! The `!`-commands of the table and the one registry they are routed by. Each command (or a
//! small group) is a type in its own module implementing [`Command`]: its [`CommandSpec`] and
//! its handler together, so `!help`, the routing, the slash commands and autocomplete all come
//! from the [`registry`], and a spec cannot be registered without the code that runs it. The
//! games' commands (`!draw`, `!deal`, `!odds`) come from their plug-ins' specs and go to the
//! game through one generic handler ([`game::GameCommand`]).

use std::ops::DerefMut;
use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::game::spec::CommandSpec;
use crate::input::{Incoming, Response};
use crate::table::{Cx, Host, TableError};
use crate::weeks::meta::DecisionClock;

mod clock;
mod export;
mod game;
mod info;
mod moderation;
pub(crate) mod notify;
mod overview;
mod presets;
mod recap;
pub mod registry;
pub(crate) mod seats;
pub mod setup;
pub(crate) mod signup;
mod standings;
mod takeback;
/// The commands' specs (declared with the games: [`crate::game::spec`]).
pub use crate::game::spec;

/// One command: what it is (its spec) and what it does (its handler).
#[async_trait]
pub(crate) trait Command: Send + Sync {
    /// Its name, arguments, access and help.
    fn spec(&self) -> CommandSpec;

    /// Whether its answer is for the asker only (on Discord: a private answer, with no option
    /// to share it in the channel). By default the asker chooses.
    fn answers_privately(&self) -> bool {
        false
    }

    /// Runs it at a channel's table (the registry has checked who may).
    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response;

    /// Runs it across every table rather than at one (`dm`: in a direct message to the bot);
    /// `None`: the channel's table handles it (or, in a direct message, nobody does).
    async fn run_across(
        &self,
        _tables: &dyn Directory,
        _dm: bool,
        _args: &str,
        _msg: &Incoming,
    ) -> Option<Response> {
        None
    }

    /// Runs it across the tables from the channel `channel` (the caller's): `None` leaves it
    /// to [`Command::run_across`]. Only `!tables` needs to know where it was asked.
    async fn run_from(
        &self,
        _tables: &dyn Directory,
        _channel: &str,
        _args: &str,
        _msg: &Incoming,
    ) -> Option<Response> {
        None
    }
}

/// A game a player is seated in.
#[derive(Debug, Clone)]
pub struct PlayerGame {
    /// Its channel.
    pub channel: String,
    /// Its id.
    pub game_id: String,
    /// The game's title.
    pub title: &'static str,
    /// The decision it waits for, if a player is to act.
    pub clock: Option<DecisionClock>,
}

/// A channel's table, locked for one command.
pub(crate) type LockedCx = Box<dyn DerefMut<Target = Cx> + Send>;

/// Every table of a bot, as the commands answered across tables see them (`!waiting`
/// anywhere, `!preset` in a direct message). [`crate::Tables`] is the one implementation.
#[async_trait]
pub(crate) trait Directory: Send + Sync {
    /// What the tables share.
    fn host(&self) -> &Arc<Host>;

    /// The database.
    fn store(&self) -> &Arc<dyn crate::store::Store>;

    /// Every running game the player `id` is seated in, with the decision it waits for.
    async fn games_of(&self, id: &str, now: DateTime<Utc>) -> Result<Vec<PlayerGame>, TableError>;

    /// A channel's table, locked, loaded if need be.
    async fn cx(&self, channel: &str) -> Result<LockedCx, TableError>;

    /// Every channel with an active game.
    async fn channels(&self) -> Result<Vec<String>, TableError>;

    /// The server (community) a channel belongs to, as the transport knows it; `None`: not
    /// known. The console is one server.
    fn server_of(&self, channel: &str) -> Option<String>;

    /// Whether every channel is in one server (the console): the store's every game is its.
    fn one_server(&self) -> bool;
}

/// Which server each channel belongs to: told by the transport ([`crate::Tables::set_servers`]).
pub trait Servers: Send + Sync {
    /// The server of `channel`, if known.
    fn server_of(&self, channel: &str) -> Option<String>;

    /// Whether every channel is in one server (the console): then every game the store keeps
    /// is that server's. False by default.
    fn one_server(&self) -> bool {
        false
    }
}

/// Every channel in one server (the console, and the default).
pub struct OneServer;

impl Servers for OneServer {
    fn server_of(&self, _channel: &str) -> Option<String> {
        Some(String::new())
    }

    fn one_server(&self) -> bool {
        true
    }
}

/// The table's own commands, in the order `!help` lists them.
pub(crate) fn table_handlers() -> Vec<Box<dyn Command>> {
    vec![
        Box::new(setup::Setup),
        Box::new(info::Status),
        Box::new(info::Moves),
        Box::new(info::Map),
        Box::new(info::Log),
        Box::new(export::Audit),
        Box::new(export::Export),
        Box::new(info::Help),
        Box::new(moderation::Undo),
        Box::new(takeback::Takeback),
        Box::new(moderation::Reveal),
        Box::new(signup::Signup),
        Box::new(signup::Join),
        Box::new(signup::Leave),
        Box::new(clock::Clock),
        Box::new(seats::Act),
        Box::new(seats::Sub),
        Box::new(seats::Away),
        Box::new(seats::Back),
        Box::new(presets::Preset),
        Box::new(presets::Waiting),
        Box::new(notify::Notify),
        Box::new(overview::TablesCommand),
        Box::new(overview::Pace),
        Box::new(recap::RecapCommand),
        Box::new(recap::Chart),
        Box::new(standings::Standings),
    ]
}

/// A game's command, routed to the game.
pub(crate) fn game_handler(spec: CommandSpec) -> Box<dyn Command> {
    Box::new(game::GameCommand(spec))
}
