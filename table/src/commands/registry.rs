//! One command registry: every command's spec registered with its handler
//! ([`crate::commands::Command`]), so a spec cannot exist without the code that runs it. Its
//! [`Catalogue`] (the specs alone) is what `!help`, the Discord slash commands and autocomplete
//! read; routing a `!`-command goes through the registry.

use std::sync::Arc;

use crate::commands::{game_handler, table_handlers, Command, Directory};
use crate::game::session::SharedPlugin;
use crate::input::{Incoming, Response};
use crate::messages;
use crate::table::Cx;

pub(crate) use crate::game::spec::table_command;
pub use crate::game::spec::{arg, Access, ArgKind, ArgSpec, Catalogue, CommandSpec, Form};

/// The table's own commands.
pub fn table_commands() -> Vec<CommandSpec> {
    table_handlers().iter().map(|h| h.spec()).collect()
}

/// All commands: the table's and every registered game's, each spec with its handler.
#[derive(Clone)]
pub struct Registry {
    /// Every command's spec ...
    catalogue: Catalogue,
    /// ... and, at the same position, its handler.
    handlers: Vec<Arc<dyn Command>>,
}

impl std::ops::Deref for Registry {
    type Target = Catalogue;

    fn deref(&self) -> &Catalogue {
        &self.catalogue
    }
}

impl Registry {
    /// The table's commands and those of the games.
    pub fn new(games: &[SharedPlugin]) -> Registry {
        let mut handlers = table_handlers();
        for game in games {
            handlers.extend(game.commands().into_iter().map(game_handler));
        }
        let handlers: Vec<Arc<dyn Command>> = handlers.into_iter().map(Arc::from).collect();
        Registry {
            catalogue: Catalogue::new(
                handlers
                    .iter()
                    .map(|h| (h.spec(), h.answers_privately()))
                    .collect(),
            ),
            handlers,
        }
    }

    /// The specs alone.
    pub fn catalogue(&self) -> &Catalogue {
        &self.catalogue
    }

    /// Runs the `!`-command `name` at a table: the command of the game running there (or the
    /// table's own), if the author may run it; a refusal that says why otherwise.
    pub(crate) async fn run(
        &self,
        cx: &mut Cx,
        name: &str,
        args: &str,
        msg: &Incoming,
    ) -> Response {
        let host = cx.host.clone();
        let game = cx.loaded.running().map(|c| c.row.kind.clone());
        let Some(index) = self.find(name, game.as_deref()) else {
            return match self.bang_of_any_game(name) {
                Some(other) => {
                    let title = other
                        .game
                        .and_then(|k| host.game(k))
                        .map(|g| g.info().title)
                        .unwrap_or_default();
                    let current = game
                        .as_deref()
                        .and_then(|k| host.game(k))
                        .map(|g| g.info().title);
                    Response::refused(cx.say(messages::OtherGameCommand {
                        command: name.to_string(),
                        title: title.to_string(),
                        current: current.map(str::to_string),
                    }))
                }
                None => Response::refused(cx.say(messages::UnknownCommand {
                    command: name.to_string(),
                    nearest: self.nearest(name, game.as_deref()).map(str::to_string),
                })),
            };
        };
        let spec = self.at(index);
        if spec.access == Access::Moderator && !msg.author.is_moderator {
            return Response::refused(cx.say(messages::ModeratorOnly {
                author: msg.author.name.to_string(),
                command: spec.name.to_string(),
                ruling: cx.table_ruling(),
            }));
        }
        self.handlers[index].run(cx, args, msg).await
    }

    /// Runs the `!`-command `name` across the tables, if it is answered there (`!waiting`
    /// anywhere, `!preset` in a direct message); `None` otherwise.
    pub(crate) async fn run_across(
        &self,
        tables: &dyn Directory,
        dm: bool,
        name: &str,
        args: &str,
        msg: &Incoming,
    ) -> Option<Response> {
        let index = self.find_any(name)?;
        self.handlers[index].run_across(tables, dm, args, msg).await
    }

    /// Runs the `!`-command `name` across the tables as asked in `channel`, if it is answered
    /// so (`!tables`); `None` otherwise.
    pub(crate) async fn run_from(
        &self,
        tables: &dyn Directory,
        channel: &str,
        name: &str,
        args: &str,
        msg: &Incoming,
    ) -> Option<Response> {
        let index = self.find_any(name)?;
        self.handlers[index]
            .run_from(tables, channel, args, msg)
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn usage_marks_optional_arguments() {
        let registry = Registry::new(&[]);
        let log = registry.bang("log", None).expect("log");
        assert_eq!(log.usage("!"), "!log [n]");
        assert_eq!(
            registry.bang("setup", None).expect("setup").usage("?"),
            "?setup [game] players [options]"
        );
        assert!(registry.bang("nonsense", None).is_none());
    }

    #[test]
    fn only_the_commands_whose_handlers_say_so_answer_privately() {
        let registry = Registry::new(&[]);
        let private: Vec<&str> = registry
            .all()
            .iter()
            .filter(|c| registry.answers_privately(c))
            .map(|c| c.name)
            .collect();
        assert_eq!(private, ["moves", "help", "recap"]);
    }

    #[test]
    fn every_table_command_has_help_and_a_unique_name() {
        let commands = table_commands();
        for (i, c) in commands.iter().enumerate() {
            assert!(!c.summary.is_empty(), "{}", c.name);
            assert!(
                !commands[..i].iter().any(|d| d.is_named(c.name)),
                "{} twice",
                c.name
            );
        }
    }
}
