//! The complete game record (`!export`, and the `!audit` attachment): the setup, every log entry
//! with who, when and which message, undone entries marked, and every draw with its inputs — in
//! one numbering with `!log`. It is a superset of the audit export (docs/DICE.md), so the dice
//! verifiers read it as is, and it carries what they need to check that it is complete: a draw
//! record for every audited draw in the log, and no record without its entry.
//!
//! [`check`] replays a record with its game and checks it; [`replay`] rebuilds the position at
//! any entry, offline.

pub mod chain;
/// The log's entries and the table's own events (kept with the games that replay them).
pub use crate::game::{events, log};

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dice::{sealed_hash, DrawRecord, DrawSource, Seed, Spec, RECORD_V3};
use crate::game::events::{ProxyWhy, TableEvent};
use crate::game::log::{effective, Entry};
use crate::game::session::{Session, SharedPlugin};
use crate::game::{DiceMode, PlayerInfo};
use crate::record::chain::{Chain, ChainSummary, Witness, CHAIN, CHAIN_V2};
use crate::store::{time_text, GameRow, LogRow};

/// The setup as stored with the game: the players in sign-up order, the game's own setup, and
/// how draws are made. The layout of the first version.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct StoredSetup {
    /// The players in sign-up order.
    pub players: Vec<PlayerInfo>,
    /// The game's own setup (its JSON).
    pub setup: Value,
    /// How draws are made.
    pub dice: DiceMode,
    /// Which draw key the audited dice use (games of the first version: v1).
    #[serde(default)]
    pub spec: Spec,
    /// The id of the `!setup` message (it keys the setup draws under v2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup_message: Option<String>,
    /// The audited draw that picked the players among the signups, if one did.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub signup: Option<DrawRecord>,
    /// `!setup … forced:ask`: a move the player has no choice in is asked of them all the
    /// same (by default the table plays it for them, marked as automatic).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ask_forced: bool,
    /// The game's client seed under dice v3 when it is not the setup message: the id of the
    /// bot's own commitment post, which nobody knows when the seed is committed (docs/DICE.md
    /// §3.3). Absent in games whose client seed is their setup message.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_seed: Option<String>,
}

impl StoredSetup {
    /// The game's client seed under dice v3 (docs/DICE.md §3.3): the commitment post's id when
    /// the setup draws waited for it, else the setup message's id; none under v1 and v2.
    pub fn v3_client_seed(&self) -> Option<&str> {
        match self.spec {
            Spec::V3 => self
                .client_seed
                .as_deref()
                .or(self.setup_message.as_deref()),
            Spec::V1 | Spec::V2 => None,
        }
    }
}

/// The first record format's name (no hash chain; such records still verify).
pub const FORMAT_V1: &str = "gaugebot-record-v1";
/// The record format's name: every log entry and draw record carries `prev`, the hash of the
/// link before it, and the record ends with its chain's head (docs/DICE.md §8.2).
pub const FORMAT: &str = "gaugebot-record-v2";
/// The record format of games under `gaugebot-dice-v3` (docs/DICE.md §8.6): chain
/// `gaugebot-chain-v2`, hidden draws sealed until the reveal, the game's client seed.
pub const FORMAT_V3: &str = RECORD_V3;

/// One log entry of the record.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RecordEntry {
    /// Its number (as `!log` shows it).
    pub seq: i64,
    /// The stored entry.
    pub entry: Value,
    /// The message it came from.
    pub message_id: String,
    /// Who sent it.
    pub author_id: String,
    /// Their name then.
    pub author_name: String,
    /// The message as first received.
    pub text: String,
    /// When.
    pub at: String,
    /// Whether an undo took it back.
    pub undone: bool,
    /// The hash of the chain's link before this one (records of format v2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub prev: Option<String>,
}

/// A whole game, for keeping, checking, replaying and moving elsewhere.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameRecord {
    /// `gaugebot-record-v1`.
    pub format: String,
    /// The dice specification of its draws (`gaugebot-dice-v1` or `-v2`); for the verifiers.
    pub version: String,
    /// The game id (an input of every draw).
    pub game_id: String,
    /// The game's kind (`irish-gauge`, `privates`).
    pub kind: String,
    /// The engine version that started it.
    pub engine_version: String,
    /// The channel it was played in.
    pub channel: String,
    /// When it was set up.
    pub created_at: String,
    /// The setup as stored: players, the game's setup, dice mode, spec.
    pub setup: Value,
    /// The dice commitment (audited games).
    pub commitment: Option<String>,
    /// The seed, once revealed; `null` before.
    pub seed: Option<String>,
    /// Every log entry, in order.
    pub log: Vec<RecordEntry>,
    /// Every audited draw: setup draws (no `seq`), then one per audited draw entry of the log,
    /// with its `seq` and `undone` flag.
    pub draws: Vec<DrawRecord>,
    /// The hash chain's head and counts (format v2).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chain: Option<ChainSummary>,
    /// The game's client seed (format v3: an input of every draw key, docs/DICE.md §3.3).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_seed: Option<String>,
}

/// Why a record is incomplete or inconsistent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RecordError(pub String);

/// The entries of a record in force after its undos, up to and including entry `until`.
pub fn in_force(log: &[RecordEntry], until: Option<i64>) -> Result<Vec<(i64, Entry)>, RecordError> {
    let mut entries = Vec::with_capacity(log.len());
    for item in log.iter().filter(|e| until.is_none_or(|u| e.seq <= u)) {
        let entry = Entry::from_json(&item.entry)
            .map_err(|e| RecordError(format!("entry #{}: {e}", item.seq)))?;
        entries.push((item.seq, entry));
    }
    Ok(effective(entries.iter().map(|(s, e)| (*s, e)))
        .into_iter()
        .map(|e| (e.seq, e.entry))
        .collect())
}

/// Whether a game's draws are made by the audited dice (and so have draw records).
fn audited(row: &GameRow, stored: &StoredSetup) -> bool {
    stored.dice == DiceMode::Audited && row.commitment.is_some()
}

/// The chain of a stored game, started with its header: `gaugebot-chain-v2` under dice v3 (the
/// setup in it with its hidden fields null), else `gaugebot-chain-v1`.
fn chain_start(row: &GameRow, stored: &StoredSetup, hidden: &[DrawRecord]) -> Chain {
    let setup = serde_json::to_value(stored).unwrap_or(Value::Null);
    if stored.spec == Spec::V3 {
        Chain::start_of(
            CHAIN_V2,
            &chain::header_v2(
                FORMAT_V3,
                stored.spec.name(),
                &row.id,
                &row.kind,
                row.commitment.as_deref(),
                client_seed(stored),
                &redacted_setup(&setup, hidden),
            ),
        )
    } else {
        Chain::start(&chain::header(
            stored.spec.name(),
            &row.id,
            &row.kind,
            row.commitment.as_deref(),
            &setup,
        ))
    }
}

/// The game's client seed under dice v3 (docs/DICE.md §3.3).
fn client_seed(stored: &StoredSetup) -> Option<&str> {
    stored.v3_client_seed()
}

/// The stored setup (as JSON) with the fields that hidden setup draws fill set to null: what
/// the chain's header holds, and what the record shows until the seed is revealed.
pub fn redacted_setup(setup: &Value, draws: &[DrawRecord]) -> Value {
    let mut setup = setup.clone();
    for field in draws
        .iter()
        .filter(|d| d.is_hidden() && d.input("seq").is_none())
        .filter_map(DrawRecord::fills)
    {
        if let Some(game_setup) = setup.get_mut("setup").and_then(Value::as_object_mut) {
            if game_setup.contains_key(field) {
                game_setup.insert(field.to_string(), Value::Null);
            }
        }
    }
    setup
}

/// Seals a hidden draw record of a v3 game (docs/DICE.md §7.2): adds its `sealed` hash and,
/// until the seed is revealed, replaces its result with null.
fn seal(row: &GameRow, stored: &StoredSetup, record: &mut DrawRecord) {
    if stored.spec != Spec::V3 {
        // Records of the earlier versions stay as they were (their chains hash every field).
        record.inputs.remove("hidden");
        record.inputs.remove("fills");
        return;
    }
    if !record.is_hidden() {
        return;
    }
    let seed = row
        .seed_hex
        .as_deref()
        .and_then(|hex| Seed::from_hex(hex).ok());
    if let Some(seed) = &seed {
        let source = DrawSource {
            seed,
            game_id: &row.id,
            spec: Spec::V3,
            message_id: client_seed(stored).unwrap_or(""),
        };
        let sealed = sealed_hash(&source.key(record.index, &record.purpose), &record.result);
        record.inputs.insert("sealed".into(), Value::from(sealed));
    }
    if !row.revealed {
        record.result = Value::Null;
    }
}

/// The setup draw records of a stored game, in the order they were drawn (the signup pick
/// first), keyed under v2 by the setup message.
fn setup_draws(row: &GameRow, stored: &StoredSetup, session: &dyn Session) -> Vec<DrawRecord> {
    if !audited(row, stored) {
        return Vec::new();
    }
    let mut draws = Vec::new();
    for mut record in stored.signup.iter().cloned().chain(session.setup_records()) {
        seal(row, stored, &mut record);
        if let (Spec::V2, Some(message)) = (stored.spec, &stored.setup_message) {
            // The signup pick keeps the key it was drawn with (the `!signup open` message).
            if !record.inputs.contains_key("message_id") {
                record
                    .inputs
                    .insert("message_id".into(), Value::from(message.clone()));
            }
        }
        draws.push(record);
    }
    draws
}

/// A log row as a record entry (not yet marked undone, not yet linked).
fn record_entry(r: &LogRow, value: Value) -> RecordEntry {
    RecordEntry {
        seq: r.seq,
        entry: value,
        message_id: r.message_id.clone(),
        author_id: r.author_id.clone(),
        author_name: r.author_name.clone(),
        text: r.text.clone(),
        at: time_text(r.at),
        undone: false,
        prev: None,
    }
}

/// The draw record of a log entry, if it is an audited draw, with its `seq` and what triggered
/// it (`trigger`, and `bot_made` for a move the table made for a seat: docs/DICE.md §8.3).
fn log_draw(
    row: &GameRow,
    stored: &StoredSetup,
    session: &dyn Session,
    entry: &Entry,
    seq: i64,
    trigger: Option<&Trigger>,
) -> Option<DrawRecord> {
    if !audited(row, stored) {
        return None;
    }
    let mut record = session.draw_record(entry)?;
    seal(row, stored, &mut record);
    record.inputs.insert("seq".into(), Value::from(seq));
    if let Some(trigger) = trigger {
        record
            .inputs
            .insert("trigger".into(), Value::from(trigger.seq));
        if let Some((marker, why)) = trigger.proxy {
            record.inputs.insert(
                "bot_made".into(),
                serde_json::json!({ "why": why.name(), "marker": marker }),
            );
        }
    }
    Some(record)
}

/// Links a draw record: sets its `prev`.
fn link_draw(chain: &mut Chain, record: &mut DrawRecord) {
    record.inputs.remove("prev");
    let value = serde_json::to_value(&*record).unwrap_or(Value::Null);
    let prev = chain.link(&value);
    record.inputs.insert("prev".into(), Value::from(prev));
}

/// Links a record entry: sets its `prev`.
fn link_entry(chain: &mut Chain, item: &mut RecordEntry) {
    item.prev = None;
    let value = serde_json::to_value(&*item).unwrap_or(Value::Null);
    item.prev = Some(chain.link(&value));
    chain.seq = Some(item.seq);
}

/// The move right before a draw: its entry number and, if the table made it for a seat, the
/// proxy marker before it and why.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Trigger {
    seq: i64,
    proxy: Option<(i64, ProxyWhy)>,
}

/// The running head of a game's record, kept by the table as entries are stored: it is the head
/// the game's record will show for the same entries.
#[derive(Debug, Clone)]
pub struct RunningHead {
    chain: Chain,
    /// The head's first 12 hex digits.
    short: String,
    /// The entry just linked, if it is a move (a draw right after it was triggered by it).
    last_move: Option<Trigger>,
    /// A proxy marker just linked: the move after it is the table's.
    marker: Option<(i64, ProxyWhy)>,
}

impl RunningHead {
    /// The head after the setup and `log` (stored rows with their entries).
    pub fn of<'a>(
        row: &GameRow,
        stored: &StoredSetup,
        session: &dyn Session,
        log: impl IntoIterator<Item = (&'a Entry, &'a LogRow)>,
    ) -> RunningHead {
        let (mut head, _) = RunningHead::start(row, stored, session);
        head.extend(row, stored, session, log);
        head
    }

    /// The chain of the header and the setup draws (returned, linked).
    fn start(
        row: &GameRow,
        stored: &StoredSetup,
        session: &dyn Session,
    ) -> (RunningHead, Vec<DrawRecord>) {
        let mut draws = setup_draws(row, stored, session);
        let mut chain = chain_start(row, stored, &draws);
        for record in &mut draws {
            link_draw(&mut chain, record);
        }
        let head = RunningHead {
            short: chain.short_head(),
            chain,
            last_move: None,
            marker: None,
        };
        (head, draws)
    }

    /// Links one entry (and its draw record, returned).
    fn push(
        &mut self,
        row: &GameRow,
        stored: &StoredSetup,
        session: &dyn Session,
        entry: &Entry,
        item: &mut RecordEntry,
    ) -> Option<DrawRecord> {
        link_entry(&mut self.chain, item);
        let trigger = self.last_move.take();
        let marker = self.marker.take();
        match entry {
            Entry::Action { .. } => {
                self.last_move = Some(Trigger {
                    seq: item.seq,
                    proxy: marker,
                });
            }
            Entry::Table(TableEvent::Proxy { why, .. }) => self.marker = Some((item.seq, *why)),
            _ => {}
        }
        let mut record = log_draw(row, stored, session, entry, item.seq, trigger.as_ref())?;
        link_draw(&mut self.chain, &mut record);
        Some(record)
    }

    /// Links more stored rows.
    pub fn extend<'a>(
        &mut self,
        row: &GameRow,
        stored: &StoredSetup,
        session: &dyn Session,
        log: impl IntoIterator<Item = (&'a Entry, &'a LogRow)>,
    ) {
        for (entry, r) in log {
            let mut item = record_entry(r, entry.to_json());
            self.push(row, stored, session, entry, &mut item);
        }
        self.short = self.chain.short_head();
    }

    /// The last entry covered (`None`: the setup only).
    pub fn seq(&self) -> Option<i64> {
        self.chain.seq
    }

    /// The head's first 12 hex digits, as reports show them.
    pub fn short(&self) -> &str {
        &self.short
    }

    /// The whole head.
    pub fn head(&self) -> String {
        self.chain.head()
    }
}

impl GameRecord {
    /// The record of a stored game; the seed only if revealed. `session` is the game loaded
    /// from the same setup (for the draw records).
    pub fn of(
        row: &GameRow,
        stored: &StoredSetup,
        rows: &[LogRow],
        session: &dyn Session,
    ) -> Result<GameRecord, RecordError> {
        let mut log = Vec::with_capacity(rows.len());
        let mut entries = Vec::with_capacity(rows.len());
        for r in rows {
            let value: Value = serde_json::from_str(&r.entry_json)
                .map_err(|e| RecordError(format!("entry #{}: {e}", r.seq)))?;
            let entry = Entry::from_json(&value)
                .map_err(|e| RecordError(format!("entry #{}: {e}", r.seq)))?;
            entries.push((r.seq, entry));
            log.push(record_entry(r, value));
        }
        let kept: HashSet<i64> = effective(entries.iter().map(|(s, e)| (*s, e)))
            .iter()
            .map(|e| e.seq)
            .collect();
        for (item, (_, entry)) in log.iter_mut().zip(&entries) {
            item.undone = entry.is_play() && !kept.contains(&item.seq);
        }
        let (mut head, mut draws) = RunningHead::start(row, stored, session);
        for (item, (_, entry)) in log.iter_mut().zip(&entries) {
            if let Some(mut record) = head.push(row, stored, session, entry, item) {
                record
                    .inputs
                    .insert("undone".into(), Value::from(item.undone));
                draws.push(record);
            }
        }
        let summary = ChainSummary {
            algorithm: head.chain.algorithm().to_string(),
            head: head.head(),
            seq: head.seq(),
            entries: log.len(),
            draws: draws.len(),
        };
        let setup = serde_json::to_value(stored).unwrap_or(Value::Null);
        let setup_draws: Vec<DrawRecord> = draws
            .iter()
            .filter(|d| d.input("seq").is_none())
            .cloned()
            .collect();
        Ok(GameRecord {
            format: if stored.spec == Spec::V3 {
                FORMAT_V3
            } else {
                FORMAT
            }
            .to_string(),
            version: stored.spec.name().to_string(),
            game_id: row.id.clone(),
            kind: row.kind.clone(),
            engine_version: row.engine_version.clone(),
            channel: row.channel.clone(),
            created_at: time_text(row.created_at),
            setup: if row.revealed {
                setup
            } else {
                redacted_setup(&setup, &setup_draws)
            },
            commitment: row.commitment.clone(),
            seed: if row.revealed {
                row.seed_hex.clone()
            } else {
                None
            },
            log,
            draws,
            chain: Some(summary),
            client_seed: client_seed(stored).map(str::to_string),
        })
    }

    /// The record of a stored game from its row and log, loaded with its plug-in among `games`.
    pub fn of_stored(
        row: &GameRow,
        rows: &[LogRow],
        games: &[SharedPlugin],
    ) -> Result<GameRecord, RecordError> {
        let stored: StoredSetup = serde_json::from_str(&row.setup_json)
            .map_err(|e| RecordError(format!("the setup does not read: {e}")))?;
        let plugin = games
            .iter()
            .find(|g| g.info().kind == row.kind)
            .ok_or_else(|| RecordError(format!("this bot has no game of kind '{}'", row.kind)))?;
        let session = plugin
            .load(&stored.setup, stored.players.clone())
            .map_err(|e| RecordError(format!("the setup is not valid: {e}")))?;
        GameRecord::of(row, &stored, rows, session.as_ref())
    }

    /// The stored setup.
    pub fn stored_setup(&self) -> Result<StoredSetup, RecordError> {
        serde_json::from_value(self.setup.clone())
            .map_err(|e| RecordError(format!("the setup does not read: {e}")))
    }

    /// The game's plug-in among `games`.
    pub fn game<'a>(&self, games: &'a [SharedPlugin]) -> Result<&'a SharedPlugin, RecordError> {
        games
            .iter()
            .find(|g| g.info().kind == self.kind)
            .ok_or_else(|| RecordError(format!("this bot has no game of kind '{}'", self.kind)))
    }
}

/// The position after entry `until` (all entries when `None`), replayed offline.
pub fn replay(
    record: &GameRecord,
    games: &[SharedPlugin],
    until: Option<i64>,
) -> Result<Box<dyn Session>, RecordError> {
    replay_on(record, &record.stored_setup()?, games, until)
}

/// [`replay`] on `stored`, the game's setup as the store keeps it: a record that seals what
/// is hidden until the reveal (a v3 deck) still replays on it.
pub fn replay_on(
    record: &GameRecord,
    stored: &StoredSetup,
    games: &[SharedPlugin],
    until: Option<i64>,
) -> Result<Box<dyn Session>, RecordError> {
    let mut session = record
        .game(games)?
        .load(&stored.setup, stored.players.clone())
        .map_err(|e| RecordError(format!("the setup is not valid: {e}")))?;
    for (seq, entry) in in_force(&record.log, until)? {
        session
            .replay(&entry)
            .map_err(|e| RecordError(format!("entry #{seq} does not replay: {e}")))?;
    }
    Ok(session)
}

/// Checks that a record is whole and consistent: its entries are numbered 0, 1, 2 … with no gap;
/// the undone marks are those its undos make; the game replays; and every audited draw entry has
/// exactly one draw record with the same index and result, and every record of a draw points to
/// such an entry. (The draws' values are the dice verifier's business.) Returns what it checked.
pub fn check(record: &GameRecord, games: &[SharedPlugin]) -> Result<String, RecordError> {
    check_with(record, games, &[])
}

/// What a draw record is called in messages: `the draw record for #SEQ (purpose)` or `setup draw
/// record N (purpose)`.
fn draw_name(position: usize, record: &DrawRecord) -> String {
    match record.input("seq").and_then(Value::as_i64) {
        Some(seq) => format!("the draw record for #{seq} ({})", record.purpose),
        None => format!("setup draw record {position} ({})", record.purpose),
    }
}

/// Checks a record's hash chain (format v2): every link's `prev` is the hash of the link before
/// it, the draw records come in chain order (setup draws, then each right after its entry), the
/// counts and the head are the summary's, and each witness (a head players saw) is the head
/// after its entry. The error names the first bad record.
pub fn check_chain(record: &GameRecord, witnesses: &[Witness]) -> Result<String, RecordError> {
    let bad = |what: String| Err(RecordError(what));
    let Some(summary) = &record.chain else {
        return bad("the record has no chain summary (`chain`)".into());
    };
    // A record's format names its chain: v2 records chain-v1, v3 records chain-v2.
    let algorithm = if record.format == FORMAT_V3 {
        CHAIN_V2
    } else {
        CHAIN
    };
    if summary.algorithm != algorithm {
        return bad(format!(
            "the chain algorithm is '{}', but a record of format {} has {algorithm}",
            summary.algorithm, record.format
        ));
    }
    let mut chain = if algorithm == CHAIN_V2 {
        Chain::start_of(
            CHAIN_V2,
            &chain::header_v2(
                &record.format,
                &record.version,
                &record.game_id,
                &record.kind,
                record.commitment.as_deref(),
                record.client_seed.as_deref(),
                &redacted_setup(&record.setup, &record.draws),
            ),
        )
    } else {
        Chain::start(&chain::header(
            &record.version,
            &record.game_id,
            &record.kind,
            record.commitment.as_deref(),
            &record.setup,
        ))
    };
    let mut heads: Vec<(Option<i64>, String)> = Vec::new();
    let broken = |name: String| {
        RecordError(format!(
            "the chain breaks at {name}: its prev is not the hash of the record before it \
             (a record before it was dropped, moved, added or changed, or this one was moved)"
        ))
    };
    let link = |chain: &mut Chain, value: Value, prev: Option<&str>, name: String| {
        let expected = chain.link(&value);
        if prev != Some(expected.as_str()) {
            return Err(broken(name));
        }
        Ok(())
    };
    // A draw record is linked by the `prev` among its inputs.
    let link_draw = |chain: &mut Chain, cursor: usize, draw: &DrawRecord| {
        let value = serde_json::to_value(draw).unwrap_or(Value::Null);
        link(
            chain,
            value,
            draw.input("prev").and_then(Value::as_str),
            draw_name(cursor, draw),
        )
    };
    let mut cursor = 0;
    while let Some(draw) = record.draws.get(cursor) {
        if draw.input("seq").is_some() {
            break;
        }
        link_draw(&mut chain, cursor, draw)?;
        cursor += 1;
    }
    heads.push((None, chain.head()));
    for item in &record.log {
        let value = serde_json::to_value(item).unwrap_or(Value::Null);
        link(
            &mut chain,
            value,
            item.prev.as_deref(),
            format!("entry #{}", item.seq),
        )?;
        chain.seq = Some(item.seq);
        let next = record.draws.get(cursor);
        if let Some(draw) =
            next.filter(|d| d.input("seq").and_then(Value::as_i64) == Some(item.seq))
        {
            link_draw(&mut chain, cursor, draw)?;
            cursor += 1;
        } else if record.commitment.is_some()
            && item.entry.get("entry") == Some(&Value::from("draw"))
            && item.entry.get("manual") == Some(&Value::Bool(false))
        {
            return bad(format!(
                "the draw record for #{} is missing or out of order (draw records come in the \
                 order of the log, each right after its entry){}",
                item.seq,
                next.map(|d| format!("; {} is in its place", draw_name(cursor, d)))
                    .unwrap_or_default()
            ));
        }
        heads.push((Some(item.seq), chain.head()));
    }
    if let Some(draw) = record.draws.get(cursor) {
        return bad(format!(
            "{} is out of order: draw records come in the order of the log, each right after its entry",
            draw_name(cursor, draw)
        ));
    }
    let last = record.log.last().map(|e| e.seq);
    if summary.entries != record.log.len() || summary.draws != record.draws.len() {
        return bad(format!(
            "the chain summary counts {} entries and {} draw records, the record holds {} and {}",
            summary.entries,
            summary.draws,
            record.log.len(),
            record.draws.len()
        ));
    }
    if summary.seq != last {
        return bad(format!(
            "the chain summary's head covers {}, the record ends at {}",
            seq_name(summary.seq),
            seq_name(last)
        ));
    }
    if !summary.head.eq_ignore_ascii_case(&chain.head()) {
        return bad(format!(
            "the record up to its last record ({}) does not hash to the chain's head: \
             the last record was changed, or records after it were cut",
            match record.draws.last() {
                Some(d) if d.input("seq").and_then(Value::as_i64) == last && last.is_some() =>
                    draw_name(record.draws.len() - 1, d),
                _ => seq_name(last),
            }
        ));
    }
    for witness in witnesses {
        let Some((_, head)) = heads.iter().find(|(seq, _)| *seq == witness.seq) else {
            return bad(format!(
                "witness {witness}: the record ends at {}, before the witnessed entry: its tail was cut",
                seq_name(last)
            ));
        };
        if !head.starts_with(&witness.head) {
            return bad(format!(
                "witness {witness}: the record's head after {} is {}: the record up to there \
                 is not the one players saw",
                seq_name(witness.seq),
                &head[..chain::SHORT_HEAD]
            ));
        }
    }
    Ok(format!(
        "chain of {} links checked, head {} after {}{}",
        1 + record.log.len() + record.draws.len(),
        &summary.head[..chain::SHORT_HEAD.min(summary.head.len())],
        seq_name(last),
        match witnesses.len() {
            0 => String::new(),
            1 => ", 1 witness matches".to_string(),
            n => format!(", {n} witnesses match"),
        }
    ))
}

/// Checks the key of every draw record of a v2-dice record of format v2 (docs/DICE.md §8.3):
/// a setup draw is keyed by the setup message; a draw in the log records the move right before
/// it (`trigger`) and, if the table made that move for a seat, the proxy marker before it
/// (`bot_made`); it is keyed by the message that made the move — by the setup message when the
/// table made it by itself (a clock, a preset, an absence, an automa: no message of its own; a
/// moderator's `!act` is a message) — or, after an undo, by the key of an undone draw of the
/// same purpose and index (the draw everybody saw).
pub fn check_keys(record: &GameRecord) -> Result<(), RecordError> {
    if Spec::of(&record.version) != Some(Spec::V2) || record.format != FORMAT {
        return Ok(());
    }
    let setup_message = record
        .setup
        .get("setup_message")
        .and_then(Value::as_str)
        .unwrap_or("");
    let kind_of = |seq: i64| -> Option<&Value> {
        usize::try_from(seq)
            .ok()
            .and_then(|i| record.log.get(i))
            .map(|e| &e.entry)
    };
    for (position, draw) in record.draws.iter().enumerate() {
        let key = draw
            .input("message_id")
            .and_then(Value::as_str)
            .unwrap_or("");
        let name = draw_name(position, draw);
        let Some(seq) = draw.input("seq").and_then(Value::as_i64) else {
            if key != setup_message {
                return Err(RecordError(format!(
                    "{name} is keyed by message {key}, not by the setup message {setup_message}"
                )));
            }
            continue;
        };
        let Some(item) = usize::try_from(seq).ok().and_then(|i| record.log.get(i)) else {
            return Err(RecordError(format!("{name} has no entry")));
        };
        // What triggered it: the move right before it, and whether the table made that move.
        let trigger = (seq > 0
            && kind_of(seq - 1).and_then(|e| e.get("entry")) == Some(&Value::from("action")))
        .then_some(seq - 1);
        let bot_made = trigger.and_then(|t| {
            let marker = kind_of(t - 1).filter(|_| t > 0)?;
            (marker.get("entry") == Some(&Value::from("table"))
                && marker.get("event") == Some(&Value::from("proxy")))
            .then(|| serde_json::json!({ "why": marker.get("why"), "marker": t - 1 }))
        });
        if draw.input("trigger").and_then(Value::as_i64) != trigger {
            return Err(RecordError(format!(
                "{name} names {} as the move that triggered it; the log says {}",
                draw.input("trigger")
                    .map_or("nothing".to_string(), |t| format!("#{t}")),
                trigger.map_or("none".to_string(), |t| format!("#{t}"))
            )));
        }
        if draw.input("bot_made") != bot_made.as_ref() {
            return Err(RecordError(format!(
                "{name} is marked {} but the log says {}",
                draw.input("bot_made")
                    .map_or("made by a player".to_string(), |b| format!(
                        "bot-made ({b})"
                    )),
                bot_made
                    .as_ref()
                    .map_or("a player made its move".to_string(), |b| format!(
                        "the table made its move ({b})"
                    ))
            )));
        }
        let by_itself = bot_made
            .as_ref()
            .is_some_and(|b| b.get("why") != Some(&Value::from(ProxyWhy::Moderator.name())));
        let own = if by_itself || !crate::dice::is_message_id(&item.message_id) {
            setup_message
        } else {
            item.message_id.as_str()
        };
        if key == own {
            continue;
        }
        let redone = record.draws[..position].iter().any(|earlier| {
            earlier.input("undone").and_then(Value::as_bool) == Some(true)
                && earlier.purpose == draw.purpose
                && earlier.index == draw.index
                && earlier.input("message_id").and_then(Value::as_str) == Some(key)
        });
        if !redone {
            return Err(RecordError(format!(
                "{name} is keyed by message {key}, but {} (and no undone draw of the same \
                 purpose and index had that key)",
                if by_itself {
                    format!("its move was made by the table itself, so the setup message {setup_message} keys it")
                } else {
                    format!("the message that made its move is {own}")
                }
            )));
        }
    }
    Ok(())
}

/// The seed of an audited record is revealed exactly when its log has a `reveal` entry, and up
/// to that entry every draw the game asked for is in the record (an audited draw answers its
/// move at once): a record cut between a move and its draw, or with its reveal cut off, is not
/// whole.
fn check_reveal(record: &GameRecord, games: &[SharedPlugin]) -> Result<(), RecordError> {
    let reveal = record
        .log
        .iter()
        .find(|e| e.entry.get("entry") == Some(&Value::from("reveal")))
        .map(|e| e.seq);
    match (reveal, &record.seed) {
        (None, Some(_)) => {
            return Err(RecordError(
                "the seed is revealed but the log has no reveal entry (was its tail cut?)".into(),
            ))
        }
        (Some(seq), None) => {
            return Err(RecordError(format!(
                "entry #{seq} reveals the seed but the record has none"
            )))
        }
        (None, None) => return Ok(()),
        (Some(_), Some(_)) => {}
    }
    let until = reveal.map(|seq| seq - 1);
    let session = replay(record, games, until)?;
    if session.to_act() == crate::game::ToAct::Draw {
        let last = record
            .log
            .iter()
            .rev()
            .find(|e| until.is_none_or(|u| e.seq <= u))
            .map(|e| e.seq);
        return Err(RecordError(format!(
            "the game waits for an audited draw after {} that is not in the record",
            seq_name(last)
        )));
    }
    Ok(())
}

/// The rules of a record of format `gaugebot-record-v3` that need no seed and no witness
/// (docs/DICE.md §8.6): the client seed is the setup message's and no draw record carries a
/// message key; a game with a commitment has audited dice, and no moderator's draw comes before
/// its reveal (a relabelling of audited dice as manual); a draw redone after an undo at the same
/// position as the undone one has its index, hence its key (no re-roll); a hidden draw is sealed,
/// its result and the setup field it fills null until the reveal and equal after it.
pub fn check_v3(record: &GameRecord) -> Result<(), RecordError> {
    let bad = |what: String| Err(RecordError(what));
    // The client seed is the commitment post's id when the setup names one (`client_seed`),
    // else the setup message's id (docs/DICE.md §8.6 rule 1).
    let setup_message = record
        .setup
        .get("client_seed")
        .or_else(|| record.setup.get("setup_message"))
        .and_then(Value::as_str);
    let dice = record.setup.get("dice").and_then(Value::as_str);
    if record.commitment.is_some() {
        if dice != Some("audited") {
            return bad(format!(
                "the record has a commitment but its setup says dice {}: a game with a \
                 commitment has audited dice",
                dice.unwrap_or("(none)")
            ));
        }
        if record.client_seed.is_none() || record.client_seed.as_deref() != setup_message {
            return bad(
                "the record's client_seed is not its setup's (setup.client_seed, else setup.setup_message)"
                    .into(),
            );
        }
    } else if dice != Some("manual") || record.seed.is_some() || !record.draws.is_empty() {
        return bad(
            "a record without a commitment has manual dice, no seed and no draw records".into(),
        );
    }
    for (position, draw) in record.draws.iter().enumerate() {
        if draw.input("message_id").is_some() {
            return bad(format!(
                "{} carries a message_id: a v3 draw is keyed by its position and the game's \
                 client seed only",
                draw_name(position, draw)
            ));
        }
        if draw.is_hidden() {
            let sealed = draw.input("sealed").and_then(Value::as_str).unwrap_or("");
            if sealed.len() != 64 || !sealed.bytes().all(|b| b.is_ascii_hexdigit()) {
                return bad(format!(
                    "{} is hidden but has no sealed hash",
                    draw_name(position, draw)
                ));
            }
            if record.seed.is_none() && !draw.result.is_null() {
                return bad(format!(
                    "{} is hidden, yet its result is shown before the reveal",
                    draw_name(position, draw)
                ));
            }
            if let Some(field) = draw.fills() {
                let filled = record
                    .setup
                    .get("setup")
                    .and_then(|s| s.get(field))
                    .unwrap_or(&Value::Null);
                let want = if record.seed.is_none() {
                    &Value::Null
                } else {
                    &draw.result
                };
                if filled != want {
                    return bad(format!(
                        "the setup's {field} is not {}",
                        if record.seed.is_none() {
                            "null before the reveal (it is hidden)".to_string()
                        } else {
                            format!("the result of {}", draw_name(position, draw))
                        }
                    ));
                }
            }
        }
    }
    // Walk the log: manual draws before the reveal, and redone draws.
    let purpose_of = |seq: i64| {
        record
            .draws
            .iter()
            .find(|d| d.input("seq").and_then(Value::as_i64) == Some(seq))
            .map(|d| d.purpose.clone())
    };
    let mut stack: Vec<(i64, &Value)> = Vec::new();
    let mut made_at: Vec<(usize, String, Value)> = Vec::new();
    let mut revealed = false;
    for item in &record.log {
        let kind = item.entry.get("entry").and_then(Value::as_str);
        match kind {
            Some("reveal") => revealed = true,
            Some("undo") => {
                if let Some((_, last)) = stack.pop() {
                    let was_draw = last.get("entry") == Some(&Value::from("draw"));
                    if was_draw
                        && stack
                            .last()
                            .is_some_and(|(_, e)| e.get("entry") == Some(&Value::from("action")))
                    {
                        stack.pop();
                    }
                }
            }
            Some("action") => stack.push((item.seq, &item.entry)),
            Some("draw") => {
                let manual = item.entry.get("manual") != Some(&Value::Bool(false));
                if manual && record.commitment.is_some() && !revealed {
                    return bad(format!(
                        "entry #{} is a moderator's draw before the seed's reveal in a game with \
                         audited dice (audited draws relabelled as manual?)",
                        item.seq
                    ));
                }
                if !manual {
                    let position = stack.len();
                    let index = item.entry.get("index").cloned().unwrap_or(Value::Null);
                    let purpose = purpose_of(item.seq).unwrap_or_default();
                    // The index of the purposes the bot hosts is fixed by the position
                    // (docs/DICE.md §8.6): a dividend draw's is its history position, a round's
                    // chips' the round (round 1's are drawn at setup).
                    let wanted = match purpose.as_str() {
                        "dividend-draw" => Some(position as u64),
                        "privates-chips" => Some(
                            2 + stack
                                .iter()
                                .filter(|(s, _)| {
                                    purpose_of(*s).as_deref() == Some("privates-chips")
                                })
                                .count() as u64,
                        ),
                        _ => None,
                    };
                    if let Some(wanted) = wanted.filter(|w| index.as_u64() != Some(*w)) {
                        return bad(format!(
                            "entry #{} draws {purpose} at index {index}, but its position makes \
                             the index {wanted}",
                            item.seq
                        ));
                    }
                    if let Some((_, _, first)) = made_at
                        .iter()
                        .find(|(p, what, _)| *p == position && *what == purpose)
                    {
                        if *first != index {
                            return bad(format!(
                                "entry #{} redoes the {purpose} draw made at history position \
                                 {position} under index {index}, not under the index {first} \
                                 of the draw it redoes (a re-roll)",
                                item.seq
                            ));
                        }
                    } else {
                        made_at.push((position, purpose, index));
                    }
                }
                stack.push((item.seq, &item.entry));
            }
            _ => {}
        }
    }
    Ok(())
}

/// `#N`, or `the setup` for `None`.
fn seq_name(seq: Option<i64>) -> String {
    match seq {
        Some(seq) => format!("#{seq}"),
        None => "the setup".to_string(),
    }
}

/// [`check`] with witnesses: heads that players saw (`gaugebot verify --witness SEQ:HEAD`).
pub fn check_with(
    record: &GameRecord,
    games: &[SharedPlugin],
    witnesses: &[Witness],
) -> Result<String, RecordError> {
    let v3_dice = Spec::of(&record.version) == Some(Spec::V3);
    if v3_dice != (record.format == FORMAT_V3) {
        return Err(RecordError(format!(
            "a record of format {} with dice {}: {} dice are recorded only in {FORMAT_V3} \
             records, and those record only {} dice (the record was downgraded or relabelled)",
            record.format,
            record.version,
            crate::dice::VERSION_V3,
            crate::dice::VERSION_V3
        )));
    }
    let chained = match record.format.as_str() {
        FORMAT_V3 => {
            let chained = check_chain(record, witnesses)?;
            check_v3(record)?;
            Some(chained)
        }
        FORMAT => {
            let chained = check_chain(record, witnesses)?;
            check_keys(record)?;
            Some(chained)
        }
        FORMAT_V1 if witnesses.is_empty() => None,
        FORMAT_V1 => {
            return Err(RecordError(
                "a record of format gaugebot-record-v1 has no chain to check witnesses against"
                    .into(),
            ))
        }
        other => {
            return Err(RecordError(format!(
                "not a game record of format {FORMAT} or {FORMAT_V1} (found '{other}')"
            )))
        }
    };
    for (i, item) in record.log.iter().enumerate() {
        if item.seq != i as i64 {
            return Err(RecordError(format!(
                "the log is not numbered 0, 1, 2 …: entry {i} is #{} (an entry is missing or out of order)",
                item.seq
            )));
        }
    }
    let kept: HashSet<i64> = in_force(&record.log, None)?
        .iter()
        .map(|(s, _)| *s)
        .collect();
    for item in &record.log {
        let entry = Entry::from_json(&item.entry)
            .map_err(|e| RecordError(format!("entry #{}: {e}", item.seq)))?;
        let undone = entry.is_play() && !kept.contains(&item.seq);
        if item.undone != undone {
            return Err(RecordError(format!(
                "entry #{} is marked {} but its undos make it {}",
                item.seq,
                if item.undone { "undone" } else { "in force" },
                if undone { "undone" } else { "in force" }
            )));
        }
    }
    if record.seed.is_none() && record.draws.iter().any(|d| d.is_hidden()) {
        // Sealed: the game cannot be replayed before its hidden draws are revealed.
        return Ok(format!(
            "{} log entries numbered 0–{}, {} draw records ({} sealed); the game is replayed \
             and its hidden draws checked once the seed is revealed{}",
            record.log.len(),
            record.log.len().saturating_sub(1),
            record.draws.len(),
            record.draws.iter().filter(|d| d.is_hidden()).count(),
            chained.map(|c| format!("; {c}")).unwrap_or_default()
        ));
    }
    let session = replay(record, games, None)?;
    let stored = record.stored_setup()?;
    let audited = stored.dice == DiceMode::Audited && record.commitment.is_some();
    // Audited draw entries of the log, by seq, with their record as the game makes it.
    let mut expected = Vec::new();
    if audited {
        for item in &record.log {
            let entry = Entry::from_json(&item.entry)
                .map_err(|e| RecordError(format!("entry #{}: {e}", item.seq)))?;
            if let Some(r) = session.draw_record(&entry) {
                expected.push((item.seq, r));
            }
        }
    }
    let mut seen = HashSet::new();
    let mut setup_records = 0;
    for record_draw in &record.draws {
        let Some(seq) = record_draw.input("seq").and_then(Value::as_i64) else {
            setup_records += 1;
            continue;
        };
        let Some((_, made)) = expected.iter().find(|(s, _)| *s == seq) else {
            return Err(RecordError(format!(
                "the draw record at #{seq} ({}) has no audited draw entry in the log",
                record_draw.purpose
            )));
        };
        if !seen.insert(seq) {
            return Err(RecordError(format!("entry #{seq} has two draw records")));
        }
        let inputs = |d: &DrawRecord| {
            let mut inputs = d.inputs.clone();
            for field in ["seq", "undone", "prev", "trigger", "bot_made", "sealed"] {
                inputs.remove(field);
            }
            if record.format == FORMAT_V1 {
                // Records of the first format do not describe their draws.
                inputs.remove("population");
                inputs.remove("count");
            }
            inputs
        };
        if made.index != record_draw.index
            || made.purpose != record_draw.purpose
            || made.result != record_draw.result
            || inputs(made) != inputs(record_draw)
        {
            return Err(RecordError(format!(
                "the draw record at #{seq} differs from its log entry"
            )));
        }
        let undone = !kept.contains(&seq);
        if record_draw.input("undone").and_then(Value::as_bool) != Some(undone) {
            return Err(RecordError(format!(
                "the draw record at #{seq} is marked {} but its undos make it {}",
                if undone { "in force" } else { "undone" },
                if undone { "undone" } else { "in force" }
            )));
        }
    }
    if let Some((seq, _)) = expected.iter().find(|(s, _)| !seen.contains(s)) {
        return Err(RecordError(format!(
            "the audited draw at #{seq} has no draw record"
        )));
    }
    if audited && record.format == FORMAT {
        check_reveal(record, games)?;
    }
    let want_setup = if audited {
        session.setup_records().len() + usize::from(stored.signup.is_some())
    } else {
        0
    };
    if setup_records != want_setup {
        return Err(RecordError(format!(
            "{setup_records} setup draw records, not {want_setup}"
        )));
    }
    Ok(format!(
        "{} log entries numbered 0–{} ({} undone), {} draw records for {} audited draws and the setup; the game replays{}",
        record.log.len(),
        record.log.len().saturating_sub(1),
        record.log.iter().filter(|e| e.undone).count(),
        record.draws.len(),
        expected.len(),
        chained.map(|c| format!("; {c}")).unwrap_or_default()
    ))
}
