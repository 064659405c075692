//! The complete game record (`!export`, and the `!audit` attachment): the setup, every log entry
//! with who, when and which message, undone entries marked, and every draw with its inputs — in
//! one numbering with `!log`. It is a superset of the audit export (docs/DICE.md), so the dice
//! verifiers read it as is, and it carries what they need to check that it is complete: a draw
//! record for every audited draw in the log, and no record without its entry.
//!
//! [`check`] replays a record with its game and checks it; [`replay`] rebuilds the position at
//! any entry, offline.

pub mod log;

use std::collections::HashSet;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dice::{DrawRecord, Spec};
use crate::game::session::{Session, SharedPlugin};
use crate::game::{DiceMode, PlayerInfo};
use crate::record::log::{effective, Entry};
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
}

/// The record format's name.
pub const FORMAT: &str = "gaugebot-record-v1";

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
}

/// Why a record is incomplete or inconsistent.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct RecordError(pub String);

/// The entries of a record in force after its undos, up to and including entry `until`.
fn in_force(log: &[RecordEntry], until: Option<i64>) -> Result<Vec<(i64, Entry)>, RecordError> {
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
            log.push(RecordEntry {
                seq: r.seq,
                entry: value,
                message_id: r.message_id.clone(),
                author_id: r.author_id.clone(),
                author_name: r.author_name.clone(),
                text: r.text.clone(),
                at: time_text(r.at),
                undone: false,
            });
        }
        let kept: HashSet<i64> = effective(entries.iter().map(|(s, e)| (*s, e)))
            .iter()
            .map(|e| e.seq)
            .collect();
        for (item, (_, entry)) in log.iter_mut().zip(&entries) {
            item.undone = entry.is_play() && !kept.contains(&item.seq);
        }
        let audited = stored.dice == DiceMode::Audited && row.commitment.is_some();
        let mut draws = Vec::new();
        if audited {
            // The signup pick (if the players were drawn) first: it was drawn first.
            let setup_draws = stored.signup.iter().cloned().chain(session.setup_records());
            for mut record in setup_draws {
                if let (Spec::V2, Some(message)) = (stored.spec, &stored.setup_message) {
                    record
                        .inputs
                        .insert("message_id".into(), Value::from(message.clone()));
                }
                draws.push(record);
            }
            for (item, (_, entry)) in log.iter().zip(&entries) {
                if let Some(mut record) = session.draw_record(entry) {
                    record.inputs.insert("seq".into(), Value::from(item.seq));
                    record
                        .inputs
                        .insert("undone".into(), Value::from(item.undone));
                    draws.push(record);
                }
            }
        }
        Ok(GameRecord {
            format: FORMAT.to_string(),
            version: stored.spec.name().to_string(),
            game_id: row.id.clone(),
            kind: row.kind.clone(),
            engine_version: row.engine_version.clone(),
            channel: row.channel.clone(),
            created_at: time_text(row.created_at),
            setup: serde_json::to_value(stored).unwrap_or(Value::Null),
            commitment: row.commitment.clone(),
            seed: if row.revealed {
                row.seed_hex.clone()
            } else {
                None
            },
            log,
            draws,
        })
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
    let stored = record.stored_setup()?;
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
    if record.format != FORMAT {
        return Err(RecordError(format!(
            "not a game record of format {FORMAT} (found '{}')",
            record.format
        )));
    }
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
        if made.index != record_draw.index
            || made.purpose != record_draw.purpose
            || made.result != record_draw.result
        {
            return Err(RecordError(format!(
                "the draw record at #{seq} differs from its log entry"
            )));
        }
    }
    if let Some((seq, _)) = expected.iter().find(|(s, _)| !seen.contains(s)) {
        return Err(RecordError(format!(
            "the audited draw at #{seq} has no draw record"
        )));
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
        "{} log entries numbered 0–{} ({} undone), {} draw records for {} audited draws and the setup; the game replays",
        record.log.len(),
        record.log.len().saturating_sub(1),
        record.log.iter().filter(|e| e.undone).count(),
        record.draws.len(),
        expected.len()
    ))
}
