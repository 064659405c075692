//! One command registry: every command's name, who may run it, its arguments and its help.
//! `!help`, the routing of `!`-commands and the Discord slash commands are all made from it.

use crate::game::session::SharedPlugin;

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

const fn table_command(
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

const SETUP_ARGS: &[ArgSpec] = &[
    arg(
        "game",
        ArgKind::Text,
        false,
        "which game (Irish Gauge when left out)",
    ),
    arg(
        "players",
        ArgKind::Users,
        true,
        "the players, in sign-up order",
    ),
    arg("options", ArgKind::Text, false, "dice:manual, rolls, force"),
];
const LOG_ARGS: &[ArgSpec] = &[arg(
    "n",
    ArgKind::Integer,
    false,
    "how many entries (10; at most 50)",
)];
const HELP_ARGS: &[ArgSpec] = &[arg("topic", ArgKind::Text, false, "a command or topic")];
const REVEAL_ARGS: &[ArgSpec] = &[arg(
    "confirm",
    ArgKind::Choice(&["confirm"]),
    false,
    "reveal before the end",
)];

const SIGNUP_ARGS: &[ArgSpec] = &[
    arg(
        "action",
        ArgKind::Choice(&["open", "close", "cancel", "status"]),
        false,
        "open, close or cancel (moderators); status (anyone)",
    ),
    arg(
        "options",
        ArgKind::Text,
        false,
        "[game] players:3-4 closes:24h extend:24h start-after:72h",
    ),
];
const CLOCK_ARGS: &[ArgSpec] = &[arg(
    "settings",
    ArgKind::Text,
    false,
    "turn:48h auction:24h remind:50% away-cap:7d (off to clear); none: show",
)];
const ACT_ARGS: &[ArgSpec] = &[
    arg("player", ArgKind::User, true, "the seat's player"),
    arg("move", ArgKind::Text, true, "the move in bold"),
];
const SUB_ARGS: &[ArgSpec] = &[
    arg("old", ArgKind::User, true, "the player leaving"),
    arg("new", ArgKind::User, true, "the player taking the seat"),
];
const AWAY_ARGS: &[ArgSpec] = &[
    arg("for", ArgKind::Text, true, "how long: 3d, 36h, 1w"),
    arg("reason", ArgKind::Text, false, "why, for the others"),
];
const PRESET_ARGS: &[ArgSpec] = &[
    arg(
        "game",
        ArgKind::Text,
        false,
        "which game, when you play several",
    ),
    arg(
        "order",
        ArgKind::Text,
        true,
        "pass · max WLW 12 · clear (empty: list yours)",
    ),
];

/// The table's commands of play over weeks.
fn pace_commands() -> Vec<CommandSpec> {
    use Access::*;
    vec![
        CommandSpec {
            example: "signup open [players:3-4] [closes:24h] [extend:24h] [start-after:72h]",
            ..table_command(
                "signup",
                &["signups"],
                Anyone,
                SIGNUP_ARGS,
                "signups for the next game: moderators open, close or cancel them; status for anyone",
            )
        },
        table_command(
            "join",
            &["signmeup"],
            Anyone,
            &[],
            "sign up for the next game; or post **sign up**",
        ),
        table_command("leave", &[], Anyone, &[], "withdraw your signup"),
        CommandSpec {
            example: "clock turn:48h auction:24h remind:50% [away-cap:7d]",
            ..table_command(
                "clock",
                &["clocks"],
                Moderator,
                CLOCK_ARGS,
                "set the turn and auction clocks and reminders",
            )
        },
        CommandSpec {
            example: "act @player **dividends**",
            ..table_command(
                "act",
                &["actfor"],
                Moderator,
                ACT_ARGS,
                "make a move for a seat, logged with both names",
            )
        },
        CommandSpec {
            example: "sub @old @new",
            ..table_command(
                "sub",
                &["substitute"],
                Moderator,
                SUB_ARGS,
                "give a seat, with its cash and shares, to another player",
            )
        },
        CommandSpec {
            example: "away 3d [reason]",
            ..table_command(
                "away",
                &["vacation"],
                Anyone,
                AWAY_ARGS,
                "you are away: no reminders, auctions pass, your turn clock pauses",
            )
        },
        table_command("back", &[], Anyone, &[], "you are back"),
        CommandSpec {
            example: "preset pass · !preset max WLW 12 · !preset clear",
            ..table_command(
                "preset",
                &["presets"],
                Anyone,
                PRESET_ARGS,
                "secret auction orders: send them to the bot in a direct message",
            )
        },
        table_command(
            "waiting",
            &["wait"],
            Anyone,
            &[],
            "every game where you are to act, and for how long",
        ),
    ]
}

/// The table's own commands.
pub fn table_commands() -> Vec<CommandSpec> {
    use Access::*;
    vec![
        CommandSpec {
            example: "setup @a @b @c … [game] [dice:manual] [force]",
            ..table_command(
                "setup",
                &[],
                Moderator,
                SETUP_ARGS,
                "start a game in this channel",
            )
        },
        table_command("status", &[], Anyone, &[], "the status report"),
        table_command(
            "moves",
            &[],
            Anyone,
            &[],
            "the legal moves of the player to act",
        ),
        table_command("map", &[], Anyone, &[], "the board as a picture"),
        table_command(
            "log",
            &[],
            Anyone,
            LOG_ARGS,
            "the last log entries, undone ones struck through",
        ),
        table_command(
            "audit",
            &[],
            Anyone,
            &[],
            "the dice record (the whole game record, as a file)",
        ),
        table_command(
            "export",
            &["record"],
            Anyone,
            &[],
            "the complete game record, as a file",
        ),
        table_command("help", &[], Anyone, HELP_ARGS, "this help"),
        table_command(
            "undo",
            &[],
            Moderator,
            &[],
            "take back the last move, with the draw it called for",
        ),
        table_command(
            "reveal",
            &[],
            Moderator,
            REVEAL_ARGS,
            "reveal the dice seed",
        ),
    ]
    .into_iter()
    .chain(pace_commands())
    .collect()
}

/// All commands: the table's and every registered game's.
#[derive(Clone)]
pub struct Registry {
    commands: Vec<CommandSpec>,
}

impl Registry {
    /// The table's commands and those of the games.
    pub fn new(games: &[SharedPlugin]) -> Registry {
        let mut commands = table_commands();
        for game in games {
            commands.extend(game.commands());
        }
        Registry { commands }
    }

    /// Every command.
    pub fn all(&self) -> &[CommandSpec] {
        &self.commands
    }

    /// The `!`-command called `name` (for `game`, or the table's own).
    pub fn bang(&self, name: &str, game: Option<&str>) -> Option<&CommandSpec> {
        self.commands.iter().find(|c| {
            c.form == Form::Bang && c.is_named(name) && (c.game.is_none() || c.game == game)
        })
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
