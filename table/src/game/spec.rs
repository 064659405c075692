//! What a command is, as data: its name, who may run it, its arguments and its help
//! ([`CommandSpec`]), and the list of every command a bot has ([`Catalogue`]), which help,
//! routing and the slash commands read. The handlers that go with the specs are in
//! [`crate::commands::registry`].

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

/// Every command of a bot, in order: its spec, and whether it answers the asker only. Made by
/// the [`crate::commands::registry::Registry`] from the handlers, so it cannot list a command
/// that nothing runs.
#[derive(Debug, Clone, Default)]
pub struct Catalogue {
    commands: Vec<CommandSpec>,
    private: Vec<bool>,
}

impl Catalogue {
    /// The catalogue of these commands (each with whether it answers privately).
    pub(crate) fn new(commands: Vec<(CommandSpec, bool)>) -> Catalogue {
        let (commands, private) = commands.into_iter().unzip();
        Catalogue { commands, private }
    }

    /// The position of the `!`-command called `name` (for `game`, or the table's own).
    pub(crate) fn find(&self, name: &str, game: Option<&str>) -> Option<usize> {
        self.commands.iter().position(|c| {
            c.form == Form::Bang && c.is_named(name) && (c.game.is_none() || c.game == game)
        })
    }

    /// The `!`-command (its name) nearest to a misspelt `name`, for `game` or the table's own:
    /// one or two letters off (an edit: a letter left out, added, changed, or two swapped),
    /// the nearest first; `None` when none is that near or two are equally near.
    pub(crate) fn nearest(&self, name: &str, game: Option<&str>) -> Option<&'static str> {
        let name = name.to_ascii_lowercase();
        let allowed = if name.chars().count() <= 4 { 1 } else { 2 };
        let mut best: Vec<(usize, &'static str)> = Vec::new();
        for spec in self
            .commands
            .iter()
            .filter(|c| c.form == Form::Bang && (c.game.is_none() || c.game == game))
        {
            let distance = std::iter::once(spec.name)
                .chain(spec.aliases.iter().copied())
                .map(|word| edit_distance(&name, word))
                .min()
                .unwrap_or(usize::MAX);
            if distance <= allowed {
                best.push((distance, spec.name));
            }
        }
        best.sort();
        best.dedup_by_key(|(_, n)| *n);
        match best.as_slice() {
            [(d, n), rest @ ..] if rest.first().is_none_or(|(e, _)| e > d) => Some(n),
            _ => None,
        }
    }

    /// The position of the `!`-command called `name` of any game or the table.
    pub(crate) fn find_any(&self, name: &str) -> Option<usize> {
        self.commands
            .iter()
            .position(|c| c.form == Form::Bang && c.is_named(name))
    }

    /// The spec at a position.
    pub(crate) fn at(&self, index: usize) -> &CommandSpec {
        &self.commands[index]
    }

    /// Whether the command of this spec answers the asker only (`!moves`, `!help`): its
    /// handler says so, not a list of names.
    pub fn answers_privately(&self, spec: &CommandSpec) -> bool {
        self.commands
            .iter()
            .position(|c| c == spec)
            .is_some_and(|index| self.private[index])
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
        self.find_any(name).map(|i| &self.commands[i])
    }

    /// The commands that apply with `game` running (or none), in order.
    pub fn for_game<'a>(&'a self, game: Option<&'a str>) -> impl Iterator<Item = &'a CommandSpec> {
        self.commands
            .iter()
            .filter(move |c| c.game.is_none() || c.game == game)
    }
}
/// The optimal string alignment distance between two words: letters left out, added or
/// changed, and two neighbours swapped, each one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut d = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            d[i][j] = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = d[i][j].min(d[i - 2][j - 2] + 1);
            }
        }
    }
    d[a.len()][b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn catalogue() -> Catalogue {
        let spec = |name: &'static str, aliases: &'static [&'static str]| CommandSpec {
            name,
            aliases,
            ..crate::commands::registry::table_command(name, &[], Access::Anyone, &[], "")
        };
        Catalogue::new(
            [
                spec("setup", &[]),
                spec("status", &[]),
                spec("map", &[]),
                spec("moves", &[]),
                spec("join", &["signmeup"]),
            ]
            .into_iter()
            .map(|s| (s, false))
            .collect(),
        )
    }

    #[test]
    fn a_misspelt_command_finds_the_one_nearest() {
        let c = catalogue();
        assert_eq!(c.nearest("stup", None), Some("setup"));
        assert_eq!(c.nearest("staus", None), Some("status"));
        assert_eq!(c.nearest("STATSU", None), Some("status"));
        assert_eq!(c.nearest("signmup", None), Some("join"));
        // Too far, or two as near: no guess.
        assert_eq!(c.nearest("xyzzy", None), None);
        assert_eq!(
            c.nearest("mave", None),
            None,
            "two letters off map and moves alike"
        );
    }

    #[test]
    fn edits_are_counted_as_people_mistype() {
        assert_eq!(edit_distance("setup", "setup"), 0);
        assert_eq!(edit_distance("stup", "setup"), 1);
        assert_eq!(edit_distance("stauts", "status"), 1);
        assert_eq!(edit_distance("map", "moves"), 4);
    }
}
