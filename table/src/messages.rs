//! The table's own texts, as a typed catalogue: each message is a type whose fields are its data
//! and which names its template, `templates/table/messages/<name>.md.j2` (a `templates_dir`
//! overrides it by the same relative name, `table/messages/<name>.md.j2`). A misspelt message
//! does not compile; a test renders every message of the catalogue. Every message also has
//! `p`, the command prefix.

use serde::Serialize;

/// A message of the table: its data, for the template it names.
pub trait Message: Serialize {
    /// Its template (`table/messages/<name>.md.j2`).
    const TEMPLATE: &'static str;
}

/// Declares the messages: each a struct (its data) naming its template, built in from
/// `templates/table/messages/`.
macro_rules! catalogue {
    ($( $(#[$doc:meta])* $name:ident = $file:literal { $( $field:ident : $ty:ty ),* $(,)? } )*) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Default, Serialize)]
            #[allow(missing_docs)]
            pub struct $name { $( pub $field: $ty, )* }

            impl Message for $name {
                const TEMPLATE: &'static str = concat!("table/messages/", $file, ".md.j2");
            }
        )*

        /// Every message's template: its name and its built-in text.
        pub(crate) const TEMPLATES: &[(&str, &str)] = &[
            $( (
                concat!("table/messages/", $file, ".md.j2"),
                include_str!(concat!("../../templates/table/messages/", $file, ".md.j2")),
            ), )*
        ];

        /// Every message of the catalogue rendered with its default data (for the test that
        /// each renders).
        #[cfg(test)]
        pub(crate) fn render_every(
            templates: &crate::templates::Templates,
        ) -> Vec<(&'static str, Result<String, crate::templates::TemplateError>)> {
            vec![ $( ($name::TEMPLATE, templates.render_message(&$name::default(), "!")), )* ]
        }
    };
}

/// One line of `!log`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct LogLine {
    /// Its position in the log.
    pub seq: i64,
    /// Whether an undo took it back.
    pub undone: bool,
    /// What it was, in words.
    pub what: String,
    /// When (as stored).
    pub at: String,
}

/// One draw of `!audit`.
#[derive(Debug, Clone, Default, Serialize)]
pub struct AuditLine {
    /// The draw's index.
    pub index: u64,
    /// What it was for.
    pub purpose: String,
    /// What it gave.
    pub result: String,
}

catalogue! {
    /// There is no game in this channel.
    NoGame = "no_game" {}
    /// A message whose commands cannot be read.
    Unreadable = "unreadable" { author: String, reason: String }
    /// A move refused (and whether commands after it were skipped).
    MoveRefused = "move_refused" { author: String, segment: String, reason: String, more: bool }
    /// How a move written otherwise was read.
    ReadAs = "read_as" { canonical: String }
    /// A v2 draw without a message id to key it.
    NoMessageKey = "no_message_key" {}
    /// The game is over (a move's refusal).
    GameOver = "game_over" {}
    /// The author has no seat.
    NotSeated = "not_seated" { players: Vec<String> }
    /// Storage failed; nothing changed.
    Storage = "storage" { error: String }
    /// A command only moderators may run.
    ModeratorOnly = "moderator_only" { author: String, command: String }
    /// No command of that name.
    UnknownCommand = "unknown_command" { command: String }
    /// A command of another game than the one here.
    OtherGameCommand = "other_game_command" { command: String, title: String, current: Option<String> }
    /// `!setup` does not read.
    SetupUsage = "setup_usage" { reason: String }
    /// The game refused.
    Refused = "refused" { reason: String }
    /// A game runs here already.
    GameRunning = "game_running" { game_id: String }
    /// A new game.
    NewGame = "new_game" {
        game_id: String,
        title: String,
        players: usize,
        commitment: Option<String>,
        draw_commands: Vec<String>,
    }
    /// `!moves` by someone not to act.
    NotYourMove = "not_your_move" { player: String, prompt: String }
    /// No undo once the seed is revealed.
    UndoClosed = "undo_closed" {}
    /// Nothing to undo.
    NothingToUndo = "nothing_to_undo" {}
    /// The game without the undone entries does not replay.
    UndoDoesNotReplay = "undo_does_not_replay" { reason: String }
    /// What an undo took back.
    Undone = "undone" { what: Vec<String> }
    /// `!log`.
    Log = "log" { game_id: String, total: usize, lines: Vec<LogLine> }
    /// An undo in the log.
    LogUndo = "log_undo" { author: String }
    /// `!audit` of a game with manual dice.
    ManualDice = "manual_dice" {}
    /// `!audit`.
    Audit = "audit" {
        game_id: String,
        version: String,
        commitment: String,
        seed: Option<String>,
        file: String,
        draws: Vec<AuditLine>,
    }
    /// `!export`.
    Export = "export" { game_id: String, entries: usize, file: String, sealed: bool }
    /// `!reveal` of a game with manual dice.
    NoSeed = "no_seed" {}
    /// `!reveal` before the end needs `confirm`.
    RevealNeedsConfirm = "reveal_needs_confirm" {}
    /// The seed, revealed.
    Revealed = "revealed" { seed: String, commitment: String, file: String }
    /// A manual draw while the dice are audited.
    DiceAreAudited = "dice_are_audited" {}
    /// A manual draw while none is pending.
    NoDrawPending = "no_draw_pending" { command: String }
    /// `!map`.
    Map = "map" {}
    /// The map failed to draw.
    NoMap = "no_map" { reason: String }
    /// The game has no picture.
    NoPicture = "no_picture" { title: String }
    /// The table is frozen: its log does not replay.
    Frozen = "frozen" { game_id: String, title: String, seq: Option<i64>, reason: String }
    /// The dice could not be seeded.
    DiceFailed = "dice_failed" { reason: String }
}
