//! The `!`-commands of the table and the one registry they are routed by. Each command (or a
//! small group) is a type in its own module implementing [`Command`]: its [`CommandSpec`] and
//! its handler together, so `!help`, the routing, the slash commands and autocomplete all come
//! from the [`registry`], and a spec cannot be registered without the code that runs it. The
//! games' commands (`!draw`, `!deal`, `!odds`) come from their plug-ins' specs and go to the
//! game through one generic handler ([`game::GameCommand`]).

use async_trait::async_trait;

use crate::commands::registry::CommandSpec;
use crate::input::{Incoming, Response};
use crate::table::tables::Tables;
use crate::table::Cx;

mod clock;
mod export;
mod game;
mod info;
mod moderation;
mod presets;
pub mod registry;
pub(crate) mod seats;
pub mod setup;
pub(crate) mod signup;

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
        _tables: &Tables,
        _dm: bool,
        _args: &str,
        _msg: &Incoming,
    ) -> Option<Response> {
        None
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
    ]
}

/// A game's command, routed to the game.
pub(crate) fn game_handler(spec: CommandSpec) -> Box<dyn Command> {
    Box::new(game::GameCommand(spec))
}
