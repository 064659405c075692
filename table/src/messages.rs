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
    ($( $(#[$doc:meta])* $name:ident = $file:literal { $( $(#[$fattr:meta])* $field:ident : $ty:ty ),* $(,)? } )*) => {
        $(
            $(#[$doc])*
            #[derive(Debug, Clone, Default, Serialize)]
            #[allow(missing_docs)]
            pub struct $name { $( $(#[$fattr])* pub $field: $ty, )* }

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

        /// Every message of the catalogue with its default data (for the test that each
        /// renders).
        #[cfg(test)]
        pub(crate) fn every_default() -> Vec<(&'static str, serde_json::Value)> {
            vec![ $( (
                $name::TEMPLATE,
                serde_json::to_value($name::default()).unwrap_or_default(),
            ), )* ]
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
    /// When, to the second (`2026-01-02 03:04:05 UTC`).
    pub at: String,
}

/// A game's clock settings, as shown.
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct ClockData {
    pub turn: Option<String>,
    pub auction: Option<String>,
    pub remind: Option<u8>,
    pub away_cap: String,
    /// `automa` or `pass`; `None` for the default (`ping`).
    pub timeout: Option<String>,
    /// Timeouts in a row before the automa holds the seat.
    pub hand_over: Option<u32>,
    /// The time bank: at the start, added by a move, at most.
    pub bank: Option<String>,
    pub bank_add: Option<String>,
    pub bank_max: Option<String>,
}

/// The clock of the decision a game waits for, as shown (times as Discord markup).
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct DecisionData {
    pub player: String,
    pub mention: String,
    /// `turn` or `auction`.
    pub decision: String,
    pub since: String,
    pub since_full: String,
    pub waited: String,
    pub budget: Option<String>,
    pub deadline: Option<String>,
    pub deadline_full: Option<String>,
    pub away: bool,
    pub paused: bool,
}

/// A duration or percentage that does not read: its kind (`unreadable`, `range`, `percent`)
/// and the text.
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct DurationProblem {
    pub kind: String,
    pub text: String,
}

/// A game of a player, named in a direct message.
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct GameRef {
    pub channel: String,
    pub game_id: String,
    pub title: String,
}

/// One line of a recap: summaries of one kind, seat and subject, grouped
/// ([`crate::game::Summary`]; `who` is the seat's name).
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct RecapLine {
    pub kind: String,
    pub who: Option<String>,
    /// Whether `who` is the player the recap is for (said "you").
    pub yours: bool,
    pub subject: String,
    pub amounts: Vec<String>,
    pub detail: Vec<String>,
}

/// One player in the standing: their rank (shared by equal worths), name and worth.
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct RankLine {
    pub rank: usize,
    pub name: String,
    pub worth: String,
}

/// A player away now, and until when.
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct AwayLine {
    pub name: String,
    pub until: String,
    pub until_full: String,
}

/// One person who held a seat: from which log entry (`None`: from the start, or the present
/// holder named again).
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct Holder {
    pub name: String,
    pub from: Option<i64>,
}

/// A seat that changed hands: its number, its present player, everyone who held it.
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct SeatHeld {
    pub seat: usize,
    pub name: String,
    pub holders: Vec<Holder>,
}

/// A game waiting for a player (`!waiting`).
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct WaitingGame {
    pub channel: String,
    pub game_id: String,
    pub title: String,
    pub c: DecisionData,
}

/// One game in `!tables`: `c` the decision it waits for (none when the dice or nobody are to
/// act), `away` the players away (with until when), `automa` the automa's seats (with whom it
/// covers).
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct TableLine {
    pub channel: String,
    pub game_id: String,
    pub title: String,
    pub finished: bool,
    pub c: Option<DecisionData>,
    pub away: Vec<String>,
    pub automa: Vec<String>,
}

/// One player in `!pace`: the median time to move over `moves` moves, deadlines missed, the
/// automa's moves for them and the time it held their seat.
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct PaceLine {
    pub player: String,
    pub automa_seat: bool,
    pub moves: usize,
    pub median: Option<String>,
    pub missed: usize,
    pub automa_moves: usize,
    pub automa_time: Option<String>,
}

/// Why a logged move was made for a seat, and by whom.
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct ProxyData {
    pub why: String,
    pub by: Option<String>,
}

/// A channel's open signups, as shown.
#[derive(Debug, Clone, Default, Serialize)]
#[allow(missing_docs)]
pub struct SignupData {
    pub title: String,
    pub min: usize,
    pub max: usize,
    pub count: usize,
    pub names: Vec<String>,
    pub closes: Option<String>,
    pub closes_full: Option<String>,
    pub extend: String,
    pub start_after: String,
    pub extensions: u32,
    pub by: String,
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
    /// A hidden draw before the reveal: its sealed hash's first 12 hex digits (the result is
    /// not shown).
    pub sealed: Option<String>,
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
    GameOver = "game_over" { ruling: String }
    /// The author has no seat.
    NotSeated = "not_seated" { players: Vec<String>, ruling: String }
    /// A bold text from someone not to act that reads as no move: whose move it is.
    NotYourTurn = "not_your_turn" { player: String, auction: bool, ruling: String }
    /// Bold text from the player to act that reads as no move: what was written, the nearest
    /// legal moves, and what they may do.
    NotRead = "not_read" { author: String, segments: Vec<String>, offered: Vec<String>, prompt: String }
    /// Storage failed; nothing changed.
    Storage = "storage" { error: String }
    /// A command only moderators may run.
    ModeratorOnly = "moderator_only" { author: String, command: String, ruling: String }
    /// No command of that name.
    UnknownCommand = "unknown_command" { command: String, nearest: Option<String> }
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
        client_seed: Option<String>,
    }
    /// The commitment of a game whose setup draws wait for this post's id (its client seed).
    SetupCommitted = "setup_committed" { game_id: String, title: String, commitment: String }
    /// `!moves` by someone not to act.
    NotYourMove = "not_your_move" { player: String, prompt: String }
    /// No undo once the seed is revealed.
    UndoClosed = "undo_closed" {}
    /// Nothing to undo.
    NothingToUndo = "nothing_to_undo" {}
    /// The game without the undone entries does not replay.
    UndoDoesNotReplay = "undo_does_not_replay" { reason: String }
    /// What an undo took back.
    Undone = "undone" { what: Vec<String>, audited: bool }
    /// In an undo: `count` (three or more) moves made for players without a choice.
    UndoneForced = "undone_forced" { count: usize }
    /// `!log`.
    Log = "log" { game_id: String, total: usize, lines: Vec<LogLine> }
    /// An undo in the log; `takeback`: the player's own `!takeback`.
    LogUndo = "log_undo" { author: String, takeback: bool }
    /// What a `!takeback` took back (the move in words).
    TakenBack = "taken_back" { player: String, what: Vec<String> }
    /// `!takeback` refused: `why` is `nothing`, `finished`, `closed`, `not_yours` (the last
    /// move is `last`'s), `moved_since` (`last` moved after the player), `draw` (a draw since),
    /// `made_for` (the move was made for the seat: `made_for` why) or `replay`.
    TakebackRefused = "takeback_refused" { player: String, why: String, last: String, made_for: String, reason: String }
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
    /// `!join` when the signups are full.
    SignupFull = "signup_full" { player: String, cap: usize }
    /// What an image or file shows, in words (its alt text): `kind` is `map`, `chart`,
    /// `record` or `audit`; `entry` the record entry a map shows the position after;
    /// `detail` what a chart's lines end at.
    Alt = "alt" { kind: String, title: String, game_id: String, entry: Option<i64>, detail: Vec<String> }
    /// `!export`.
    Export = "export" { game_id: String, entries: usize, file: String, sealed: bool }
    /// The record's chain head after the last stored entry (`seq`; `None`: the setup), under
    /// every report: a witness players can later check the record against.
    RecordHead = "record_head" { seq: Option<i64>, head: String, page: Option<String> }
    /// `!standings`: per game kind, its players' lines (`table::standings::KindStandings`);
    /// `server`: whether they are the server's (else the channel's alone); `page`: the link to
    /// the server's standings page, when pages are served.
    Standings = "standings" { kinds: Vec<serde_json::Value>, server: bool, page: Option<String> }
    /// `!reveal` of a game with manual dice.
    NoSeed = "no_seed" {}
    /// `!reveal` before the end needs `confirm`.
    RevealNeedsConfirm = "reveal_needs_confirm" {}
    /// The seed, revealed.
    Revealed = "revealed" { seed: String, commitment: String, file: String }
    /// A manual draw while the dice are audited.
    DiceAreAudited = "dice_are_audited" {}
    /// A manual draw while none is pending.
    NoDrawPending = "no_draw_pending" { command: String, ruling: String }
    /// `!map`.
    Map = "map" {}
    /// `!map N`: the board after record entry `entry`.
    MapPast = "map_past" { entry: i64 }
    /// The head of `!status N`: the position after record entry `entry` (`what` it was, `at`
    /// when), of the entries `first`–`last`.
    PastPosition = "past_position" { game_id: String, entry: i64, first: i64, last: i64, what: String, at: String, command: String }
    /// `!status N` / `!map N` with no entry N: the record's entries are `first`–`last`
    /// (`None`: none yet).
    NoSuchEntry = "no_such_entry" { game_id: String, asked: String, first: Option<i64>, last: Option<i64>, command: String }
    /// The map failed to draw.
    NoMap = "no_map" { reason: String }
    /// The game has no picture.
    NoPicture = "no_picture" { title: String }
    /// The table is frozen: its log does not replay.
    Frozen = "frozen" { game_id: String, title: String, seq: Option<i64>, reason: String }
    /// The dice could not be seeded.
    DiceFailed = "dice_failed" { reason: String }

    // ----- play over weeks -----

    /// The game here is over (or there is none being played).
    NotPlaying = "not_playing" {}
    /// Why a move was made for a seat (the game adds it to the narration).
    ProxyNote = "proxy_note" { why: String, by: Option<String>, player: String }
    /// A run of moves the table made for seats without a choice, told in one line: the
    /// players (in the order they first moved), the moves in notation and how many.
    ForcedRun = "forced_run" { players: Vec<String>, moves: Vec<String>, count: usize }
    /// Lines alike left out of a run's narration (between its first and its last).
    LinesAlike = "lines_alike" { count: usize }
    /// A reminder of a decision that waits.
    Reminder = "reminder" { c: DecisionData, game_id: String, prompt: String }
    /// A decision's clock ran out.
    Deadline = "deadline" { c: DecisionData, moderators: Vec<String>, game_id: String }
    /// `!clock`: shown, or `set`.
    Clock = "clock" { set: bool, clock: ClockData, decision: Option<DecisionData>, game_id: String, banks: Vec<String> }
    /// Each player's time bank, under `!status`.
    Banks = "banks" { banks: Vec<String> }
    /// `!clock timeout:pass` in a game without a pass for every decision.
    ClockNoPass = "clock_no_pass" { title: String }
    /// A timeout acted: the automa's move for the player (`notation`, `reason`), or an
    /// automatic pass (`notation` `None`).
    TimeoutMove = "timeout_move" { player: String, notation: Option<String>, reason: Option<String> }
    /// The automa holds a seat after timeouts in a row.
    HandOver = "hand_over" { player: String, timeouts: u32 }
    /// A player took their seat back from the automa.
    Reclaim = "reclaim" { player: String }
    /// A `!clock` setting that does not read.
    ClockUsage = "clock_usage" { token: String }
    /// A duration or percentage that does not read.
    BadDuration = "bad_duration" { error: DurationProblem }
    /// Someone who is not a player of the game.
    NotAPlayer = "not_a_player" { who: String, players: Vec<String> }
    /// `!away` without a duration.
    AwayUsage = "away_usage" {}
    /// `!away`: `left` is the away cap left now (spent only as the absence runs, not at once),
    /// `uses` how much of it this absence may spend.
    AwaySet = "away_set" {
        player: String,
        until: String,
        until_rel: String,
        reason: Option<String>,
        paused_until: String,
        capped: bool,
        left: String,
        uses: String,
        cover: bool,
    }
    /// `!back` of someone not away.
    NotAway = "not_away" { player: String }
    /// `!back`.
    Back = "back" { player: String, decision: Option<DecisionData>, prompt: String }
    /// `!sub` that does not read.
    SubUsage = "sub_usage" {}
    /// `!sub` of someone seated already.
    SubSeated = "sub_seated" { player: String }
    /// The seats an automa holds, under every report.
    AutomaSeats = "automa_seats" { names: Vec<String> }
    /// An automa's move, as the forum record reads: its name and move in bold, its reason.
    AutomaMove = "automa_move" { player: String, notation: String, reason: Option<String>, covering: Option<String> }
    /// `!sub automa …` with two automa seats: which one.
    AutomaWhich = "automa_which" { names: Vec<String> }
    /// An automa seat named in a game without an automa.
    NoAutoma = "no_automa" { title: String }
    /// `!sub`.
    SubDone = "sub_done" { old: String, new: String, seat: usize, by: String, status: String }
    /// `!act` that does not read.
    ActUsage = "act_usage" {}
    /// `!preset` in a channel.
    PresetInChannel = "preset_in_channel" {}
    /// A game without presets.
    PresetUnsupported = "preset_unsupported" { title: String }
    /// A preset the game refused.
    PresetRefused = "preset_refused" { reason: String }
    /// `!preset` of someone in no game.
    PresetNoGames = "preset_no_games" {}
    /// `!preset` of someone in several games: which one?
    PresetWhichGame = "preset_which_game" { games: Vec<GameRef>, text: String }
    /// A preset saved.
    PresetSaved = "preset_saved" { game_id: String, channel: String, preset: Option<String>, presets: Vec<String> }
    /// Presets cleared.
    PresetCleared = "preset_cleared" { game_id: String, channel: String, preset: Option<String>, presets: Vec<String> }
    /// A player's presets.
    PresetList = "preset_list" { game_id: String, channel: String, preset: Option<String>, presets: Vec<String> }
    /// What a direct message to the bot answers.
    DmHelp = "dm_help" { command: String }
    /// `!waiting`.
    Waiting = "waiting" { player: String, games: Vec<WaitingGame> }
    /// A turn ping by direct message: `kind` is `turn`, `remind` or `deadline`.
    NotifyDm = "notify_dm" { kind: String, game_id: String, title: String, channel: String, c: DecisionData }
    /// `!notify`: the player's choice (`dm` or none), `changed` when this command set it.
    Notify = "notify" { player: String, mode: Option<String>, changed: bool }
    /// `!notify` that does not read.
    NotifyUsage = "notify_usage" { text: String }
    /// `!tables`: the games of the server.
    Tables = "tables" { games: Vec<TableLine> }
    /// `!pace`: each seat's figures.
    PaceFigures = "pace" { game_id: String, seats: Vec<PaceLine> }
    /// `!chart`: the net-worth chart is attached.
    ChartPosted = "chart_posted" { title: String, game_id: String, now: Vec<String> }
    /// A game that does not say what its players are worth.
    NoChart = "no_chart" { title: String }
    /// What happened since a player last posted (or since a time): at most six lines in a
    /// turn ping, every line on demand. `since` is a time stamp, `mine` whether it is since the
    /// player's own last post, `started` whether that is the game's start (they have not posted
    /// in it yet); `more` lines left out; `money` the player's cash change (`+£6`) and cash now.
    Recap = "recap" {
        player: Option<String>,
        since: String,
        mine: bool,
        started: bool,
        lines: Vec<RecapLine>,
        more: usize,
        money: Option<String>,
        cash: Option<String>,
        pressure: Option<RecapLine>,
    }
    /// Where the players stand (`!status`): worth and rank, how near the end is, the player
    /// to act with the deadline and the reminder, who is away.
    Standing = "standing" {
        finished: bool,
        players: Vec<RankLine>,
        pressure: Option<RecapLine>,
        to_act: Option<DecisionData>,
        reminder: Option<String>,
        reminder_full: Option<String>,
        away: Vec<AwayLine>,
    }
    /// With the final report: every person who held a seat that changed hands.
    SeatsHeld = "seats_held" { seats: Vec<SeatHeld> }
    /// A table entry in `!log`: `event` is `clock`, `away`, `back`, `sub` or `reminded`.
    LogEvent = "log_event" {
        event: String,
        by: String,
        clock: ClockData,
        player: Option<String>,
        reason: Option<String>,
        until: String,
        old: String,
        new: String,
        seat: usize,
        deadline: bool,
        author: String,
        timeouts: u32,
        cover: bool,
    }
    /// A move in `!log`, with why it was made for the seat.
    LogMove = "log_move" { player: String, canonical: String, proxy: Option<ProxyData> }
    /// Signups opened.
    SignupOpen = "signup_open" { #[serde(flatten)] signup: SignupData }
    /// `!signup` that does not read.
    SignupUsage = "signup_usage" { token: Option<String> }
    /// `players:` that does not fit the game.
    SignupPlayers = "signup_players" { value: String, title: String, least: usize, most: usize }
    /// Signups are open already.
    SignupAlreadyOpen = "signup_already_open" {}
    /// Signups while a game runs.
    SignupGameRunning = "signup_game_running" {}
    /// No signups are open.
    SignupNone = "signup_none" {}
    /// The signups, after a `change` (`joined`, `already`, `left`; empty: just shown).
    SignupStatus = "signup_status" { change: String, player: String, #[serde(flatten)] signup: SignupData }
    /// `!leave` of someone not signed up.
    SignupNotSigned = "signup_not_signed" { player: String }
    /// Signups cancelled.
    SignupCancelled = "signup_cancelled" { by: String }
    /// Too few signed up to start.
    SignupTooFew = "signup_too_few" { count: usize, min: usize }
    /// Signups extended.
    SignupExtended = "signup_extended" { late: bool, start_at: String, #[serde(flatten)] signup: SignupData }
    /// Signups ended by a game set up by hand.
    SignupDropped = "signup_dropped" {}
    /// Signups closed: the game starts.
    SignupClosed = "signup_closed" {
        drawn: Vec<u32>,
        purpose: String,
        players: Vec<String>,
        #[serde(flatten)]
        signup: SignupData,
    }
}
