//! The command-line side of game records: `gaugebot verify`, `gaugebot replay` and
//! `gaugebot import`.

use std::path::Path;
use std::process::ExitCode;

use anyhow::Context as _;
use gaugebot_table::dice::{AuditExport, DiceError};
use gaugebot_table::game::session::Render;
use gaugebot_table::record::chain::Witness;
use gaugebot_table::record::{self, GameRecord};
use gaugebot_table::store::{read_time, GameRow, LogRow, Store, StoreError};
use gaugebot_table::templates::Templates;

use crate::games;
use gaugebot_store::backend::Database;
use gaugebot_store::sql::{Backend, SqlStore};
use gaugebot_store::PostgresStore;
use gaugebot_store::SqliteStore;

fn read_record(path: &Path) -> anyhow::Result<GameRecord> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    serde_json::from_str(&text)
        .with_context(|| format!("{} is not a game record (from !export)", path.display()))
}

/// Checks an audit export or a whole game record: exit 0 when every draw matches (and a record
/// is complete), 1 on a mismatch or an incomplete record, 2 when the file is unreadable or invalid
/// — the exit codes of `tools/verify_draws.py`.
pub fn verify(path: &Path, witnesses: &[Witness]) -> ExitCode {
    let invalid = |why: String| {
        eprintln!("gaugebot verify: {}: {why}", path.display());
        ExitCode::from(2)
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) => return invalid(format!("cannot read the file: {e}")),
    };
    let value: serde_json::Value = match serde_json::from_str(&text) {
        Ok(value) => value,
        Err(e) => return invalid(format!("not JSON: {e}")),
    };
    let mut failed = false;
    if stripped_v3(&value) {
        println!("INCOMPLETE {}", DiceError::V3OutsideRecord);
        return ExitCode::FAILURE;
    }
    if value.get("format").is_some() {
        let record: GameRecord = match serde_json::from_value(value.clone()) {
            Ok(record) => record,
            Err(e) => return invalid(format!("not a game record: {e}")),
        };
        match record::check_with(&record, &games::registry(), witnesses) {
            Ok(summary) => println!("{}: record complete: {summary}", record.game_id),
            Err(e) => {
                println!("INCOMPLETE {}: {e}", record.game_id);
                failed = true;
            }
        }
        if record.commitment.is_none() {
            // Manual dice: no seed, no commitment; the moderator's draws are listed.
            let manual = manual_draws(&record);
            for line in &manual {
                println!("MANUAL {line}");
            }
            println!(
                "{}: manual dice (no seed, no commitment): {} draw{} entered by the moderator, \
                 listed above; nothing to recompute",
                record.game_id,
                manual.len(),
                if manual.len() == 1 { "" } else { "s" }
            );
            return if failed {
                ExitCode::FAILURE
            } else {
                ExitCode::SUCCESS
            };
        }
    } else if !witnesses.is_empty() {
        return invalid(
            "witnesses are checked against a game record (from !export), not an audit export"
                .into(),
        );
    }
    let export: AuditExport = match serde_json::from_value(value) {
        Ok(export) => export,
        Err(e) => return invalid(format!("not an audit export: {e}")),
    };
    match games::verify(&export) {
        Ok(report) => {
            for mismatch in &report.mismatches {
                println!("MISMATCH {mismatch}");
            }
            let n = report.mismatches.len();
            println!(
                "{}: {} draw{} checked, {} mismatch{}; the seed matches the commitment",
                report.game_id,
                report.draws_checked,
                if report.draws_checked == 1 { "" } else { "s" },
                n,
                if n == 1 { "" } else { "es" }
            );
            if report.is_ok() && !failed {
                ExitCode::SUCCESS
            } else {
                ExitCode::FAILURE
            }
        }
        Err(error @ DiceError::V3OutsideRecord) => {
            // A v3 export stripped of its record (format, chain, log) is not whole.
            println!("INCOMPLETE {error}");
            ExitCode::FAILURE
        }
        Err(error @ DiceError::CommitmentMismatch { .. }) => {
            println!("MISMATCH {error}");
            ExitCode::FAILURE
        }
        Err(error) => invalid(error.to_string()),
    }
}

/// The moderator's draws of a record, one line each: `#SEQ {fields}` (undone ones marked).
/// Whether a `gaugebot-dice-v3` object is a game record stripped of its `format` or `chain`:
/// it has a record's fields (`log`, `setup`, `kind`, `chain`) but not the record-v3 format, or
/// the format without a chain (docs/DICE.md §8.6). A bare audit export holds only the export's
/// fields.
fn stripped_v3(value: &serde_json::Value) -> bool {
    if value.get("version").and_then(serde_json::Value::as_str)
        != Some(gaugebot_table::dice::VERSION_V3)
    {
        return false;
    }
    let record_field = ["log", "setup", "kind", "chain", "format"]
        .iter()
        .any(|f| value.get(f).is_some());
    let whole = value.get("format").and_then(serde_json::Value::as_str)
        == Some(gaugebot_table::dice::RECORD_V3)
        && value.get("chain").is_some_and(|c| !c.is_null());
    record_field && !whole
}

fn manual_draws(record: &GameRecord) -> Vec<String> {
    record
        .log
        .iter()
        .filter(|e| e.entry.get("entry").and_then(serde_json::Value::as_str) == Some("draw"))
        .map(|e| {
            let mut fields = e.entry.clone();
            if let Some(map) = fields.as_object_mut() {
                map.remove("entry");
            }
            format!(
                "#{} {}{}",
                e.seq,
                fields,
                if e.undone { " (undone)" } else { "" }
            )
        })
        .collect()
}

/// Replays a record offline up to an entry, prints the status report and writes the dump.
pub fn replay(
    path: &Path,
    until: Option<i64>,
    dump_state: Option<&Path>,
) -> anyhow::Result<ExitCode> {
    let record = read_record(path)?;
    let games = games::registry();
    let session = record::replay(&record, &games, until)?;
    let templates = Templates::load(None, &gaugebot_table::texts_of(&games))?;
    let render = Render {
        templates: &templates,
        prefix: "!",
        game_id: &record.game_id,
        moderator: "the moderator",
        draw_source: None,
        ping: false,
        skip: None,
        head: None,
        page: None,
    };
    let upto = match until {
        Some(n) => format!("after entry #{n}"),
        None => format!("after all {} entries", record.log.len()),
    };
    println!("{} ({}) {upto}:\n", record.game_id, record.kind);
    println!("{}", session.status(&render));
    if let Some(out) = dump_state {
        let json = serde_json::to_string_pretty(&session.dump("the moderator"))?;
        std::fs::write(out, json).with_context(|| format!("writing {}", out.display()))?;
    }
    Ok(ExitCode::SUCCESS)
}

/// Continues a game from its record in `channel` of the database at `db` (a SQLite path or a
/// PostgreSQL URL): the game keeps its id (an input of every draw), its log and its
/// commitment, stored in one transaction. A record exported before the reveal has no seed, so
/// the game continues with manual draws. Refused, with nothing written, when the channel has a
/// game or a game with the record's id is in the database already (the id cannot change: the
/// draws depend on it).
pub async fn import(path: &Path, db: &str, channel: &str) -> anyhow::Result<ExitCode> {
    let record = read_record(path)?;
    if !is_game_id(&record.game_id) {
        anyhow::bail!(
            "the record's game id {:?} is not a game id (1 to 100 letters, digits, - and _): \
             nothing imported",
            record.game_id
        );
    }
    if record.seed.is_none() && record.draws.iter().any(|d| d.is_hidden()) {
        anyhow::bail!(
            "the record's hidden draws (e.g. a deck) are sealed until the seed is revealed, so \
             the game cannot be continued from it: import it after the reveal, or restore the \
             database backup: nothing imported"
        );
    }
    let games = games::registry();
    record::check(&record, &games).context("the record is not complete")?;
    let shown = Database::parse(db).display();
    match Database::parse(db) {
        Database::Sqlite(file) => {
            let store = SqliteStore::open(&file)
                .await
                .with_context(|| format!("opening the database {shown}"))?;
            import_into(&store, &record, channel).await
        }
        Database::Postgres(url) => {
            let store = PostgresStore::open(&url)
                .await
                .with_context(|| format!("opening the database {shown}"))?;
            import_into(&store, &record, channel).await
        }
    }
}

/// Whether `id` can be a game's id: 1 to 100 ASCII letters, digits, `-` and `_` (it names
/// files: `record-<id>.json`, `<id>-12.png`).
pub fn is_game_id(id: &str) -> bool {
    (1..=100).contains(&id.len())
        && id
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
}

async fn import_into<B: Backend>(
    store: &SqlStore<B>,
    record: &GameRecord,
    channel: &str,
) -> anyhow::Result<ExitCode> {
    let result = import_checked(store, record, channel).await;
    store.close().await;
    result
}

async fn import_checked<B: Backend>(
    store: &SqlStore<B>,
    record: &GameRecord,
    channel: &str,
) -> anyhow::Result<ExitCode> {
    if let Some(active) = store.active_game(channel).await? {
        anyhow::bail!(
            "channel {channel} has a game ({}); import into another channel",
            active.id
        );
    }
    if store.game_exists(&record.game_id).await? {
        anyhow::bail!(
            "this database has a game {} already; a game keeps its id (its draws depend on \
             it), so it cannot be imported here twice",
            record.game_id
        );
    }
    let row = GameRow {
        id: record.game_id.clone(),
        channel: channel.to_string(),
        kind: record.kind.clone(),
        engine_version: record.engine_version.clone(),
        created_at: read_time(&record.created_at)?,
        setup_json: serde_json::to_string(&record.setup)?,
        seed_hex: record.seed.clone(),
        commitment: record.commitment.clone(),
        revealed: record.seed.is_some(),
        active: true,
    };
    let rows: Vec<LogRow> = record
        .log
        .iter()
        .map(|e| {
            Ok(LogRow {
                seq: e.seq,
                entry_json: e.entry.to_string(),
                message_id: e.message_id.clone(),
                author_id: e.author_id.clone(),
                author_name: e.author_name.clone(),
                text: e.text.clone(),
                at: read_time(&e.at)?,
            })
        })
        .collect::<Result<_, StoreError>>()?;
    let marker = format!("import:{}", record.game_id);
    store
        .insert_game_with_log(&row, &rows, &marker)
        .await
        .context("the game could not be stored")?;
    println!(
        "imported {} ({} entries) into channel {channel}{}",
        record.game_id,
        rows.len(),
        if record.seed.is_none() && record.commitment.is_some() {
            "; its seed is still secret, so its draws are manual from here on"
        } else {
            ""
        }
    );
    Ok(ExitCode::SUCCESS)
}
