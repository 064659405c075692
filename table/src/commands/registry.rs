//! One command registry: every command's name, who may run it, its arguments and its help.
//! Each spec is registered with its handler ([`crate::commands::Command`]): `!help`, the routing of
//! `!`-commands and the Discord slash commands are all made from it.

use std::sync::Arc;

use crate::commands::{game_handler, table_handlers, Command};
use crate::game::session::SharedPlugin;
use crate::input::{Incoming, Response};
use crate::messages;
use crate::table::tables::Tables;
use crate::table::Cx;

/// Who may run a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Access {
    /// Anyone in the channel.
    Anyone,
    /// The player to act (a move).
    Player,
    /// Moderators only.
    Moderator,
}

/// How a command is written.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Form {
    /// A `!`-command.
    Bang,
    /// A move in bold (`**bid 7**`); its arguments make the notation.
    Move,
}

/// The type of an argument (for slash commands and checks).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArgKind {
    /// Free text.
    Text,
    /// A whole number.
    Integer,
    /// A user (a mention).
    User,
    /// Several users.
    Users,
    /// One of fixed words.
    Choice(&'static [&'static str]),
}

/// One argument of a command.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArgSpec {
    /// Its name.
    pub name: &'static str,
    /// Its type.
    pub kind: ArgKind,
    /// Whether it must be given.
    pub required: bool,
    /// What it is.
    pub help: &'static str,
}

/// One command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandSpec {
    /// Its name (without the prefix).
    pub name: &'static str,
    /// Other names.
    pub aliases: &'static [&'static str],
    /// Who may run it.
    pub access: Access,
    /// How it is written.
    pub form: Form,
    /// Its arguments.
    pub args: &'static [ArgSpec],
    /// One line of help.
    pub summary: &'static str,
    /// How help shows it when the arguments alone say too little (`setup @a @b @c …`); empty
    /// for the usage made from the arguments.
    pub example: &'static str,
    /// The game it belongs to (`None`: the table's own).
    pub game: Option<&'static str>,
}

impl CommandSpec {
    /// Its usage, e.g. `!log [n]` or `**bid amount**`.
    pub fn usage(&self, prefix: &str) -> String {
        let mut usage = match self.form {
            Form::Bang => format!("{prefix}{}", self.name),
            Form::Move => self.name.to_string(),
        };
        for arg in self.args {
            if arg.required {
                usage.push_str(&format!(" {}", arg.name));
            } else {
                usage.push_str(&format!(" [{}]", arg.name));
            }
        }
        usage
    }

    /// How help shows it: the example if there is one, else the usage.
    pub fn shown(&self, prefix: &str) -> String {
        if self.example.is_empty() {
            self.usage(prefix)
        } else {
            match self.form {
                Form::Bang => format!("{prefix}{}", self.example),
                Form::Move => self.example.to_string(),
            }
        }
    }

    /// Whether `name` names this command.
    pub fn is_named(&self, name: &str) -> bool {
        self.name == name || self.aliases.contains(&name)
    }
}

/// An argument (for the games' command lists too).
pub const fn arg(name: &'static str, kind: ArgKind, required: bool, help: &'static str) -> ArgSpec {
    ArgSpec {
        name,
        kind,
        required,
        help,
    }
}

/// One of the table's own `!`-commands (their handlers are in [`crate::commands`]).
pub(crate) const fn table_command(
    name: &'static str,
    aliases: &'static [&'static str],
    access: Access,
    args: &'static [ArgSpec],
    summary: &'static str,
) -> CommandSpec {
    CommandSpec {
        name,
        aliases,
        access,
        form: Form::Bang,
        args,
        summary,
        example: "",
        game: None,
    }
}

/// The table's own commands.
pub fn table_commands() -> Vec<CommandSpec> {
    table_handlers().iter().map(|h| h.spec()).collect()
}

/// All commands: the table's and every registered game's.
#[derive(Clone)]
pub struct Registry {
    /// Every command's spec ...
    commands: Vec<CommandSpec>,
    /// ... and, at the same position, its handler.
    handlers: Vec<Arc<dyn Command>>,
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
            commands: handlers.iter().map(|h| h.spec()).collect(),
            handlers,
        }
    }

    /// The position of the `!`-command called `name` (for `game`, or the table's own).
    fn find(&self, name: &str, game: Option<&str>) -> Option<usize> {
        self.commands.iter().position(|c| {
            c.form == Form::Bang && c.is_named(name) && (c.game.is_none() || c.game == game)
        })
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
                    cx.refuse(cx.say(messages::OtherGameCommand {
                        command: name.to_string(),
                        title: title.to_string(),
                        current: current.map(str::to_string),
                    }))
                }
                None => cx.refuse(cx.say(messages::UnknownCommand {
                    command: name.to_string(),
                })),
            };
        };
        let spec = &self.commands[index];
        if spec.access == Access::Moderator && !msg.author.is_moderator {
            return cx.refuse(cx.say(messages::ModeratorOnly {
                author: msg.author.name.to_string(),
                command: spec.name.to_string(),
            }));
        }
        self.handlers[index].run(cx, args, msg).await
    }

    /// Runs the `!`-command `name` across the tables, if it is answered there (`!waiting`
    /// anywhere, `!preset` in a direct message); `None` otherwise.
    pub(crate) async fn run_across(
        &self,
        tables: &Tables,
        dm: bool,
        name: &str,
        args: &str,
        msg: &Incoming,
    ) -> Option<Response> {
        let index = self
            .commands
            .iter()
            .position(|c| c.form == Form::Bang && c.is_named(name))?;
        self.handlers[index].run_across(tables, dm, args, msg).await
    }

    /// Whether the command of this spec answers the asker only (`!moves`, `!help`): its
    /// handler says so, not a list of names.
    pub fn answers_privately(&self, spec: &CommandSpec) -> bool {
        self.commands
            .iter()
            .position(|c| c == spec)
            .is_some_and(|index| self.handlers[index].answers_privately())
    }

    /// Every command.
    pub fn all(&self) -> &[CommandSpec] {
        &self.commands
    }

    /// The `!`-command called `name` (for `game`, or the table's own).
    pub fn bang(&self, name: &str, game: Option<&str>) -> Option<&CommandSpec> {
        self.find(name, game).map(|i| &self.commands[i])
    }

    /// The `!`-command called `name` of any game, for a helpful refusal.
    pub fn bang_of_any_game(&self, name: &str) -> Option<&CommandSpec> {
        self.commands
            .iter()
            .find(|c| c.form == Form::Bang && c.is_named(name))
    }

    /// The commands that apply with `game` running (or none), in order.
    pub fn for_game<'a>(&'a self, game: Option<&'a str>) -> impl Iterator<Item = &'a CommandSpec> {
        self.commands
            .iter()
            .filter(move |c| c.game.is_none() || c.game == game)
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
        assert_eq!(private, ["moves", "help"]);
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
