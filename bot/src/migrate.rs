//! `gaugebot migrate --from sqlite:PATH --to postgres://…`: copies a SQLite database into an
//! empty PostgreSQL database, verbatim: every table of the bot's data ([`TABLES`]: games, their
//! logs, the messages already read, the channels' cursors, open signups, secret presets, the
//! pinned status messages, the players' `!notify` choices), in one transaction, then checks the copy row by row and table by
//! table, and replays every game on both sides.
//!
//! It refuses a source with a table it does not know (a table added to the schema without
//! migrate support would otherwise be left behind) and a target that holds any data, except the
//! very copy it makes: a run interrupted before its commit left nothing behind, and one
//! interrupted after it finds its copy and checks it again, so a migration can always be re-run
//! and never doubles a row.

use std::collections::HashMap;

use gaugebot_table::record::{self, RecordEntry};
use gaugebot_table::store::StoreError;
use serde_json::Value;

use crate::games;
use gaugebot_store::backend::{redact, Database};
pub use gaugebot_store::sql::queries::{Copied, Dump, NOT_DATA, TABLES};
use gaugebot_store::sql::queries::{GameRecord, LogRecord};
use gaugebot_store::PostgresStore;
use gaugebot_store::SqliteStore;

/// What a migration copied and checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Report {
    /// Rows of each table, in [`TABLES`]' order (the same on both sides).
    pub rows: Vec<(&'static str, usize)>,
    /// Games replayed on both sides to the same position.
    pub replayed: usize,
    /// Of those, games that do not replay (frozen), identically on both sides.
    pub frozen: usize,
    /// Whether the copy was there already (an earlier run that was interrupted after its
    /// commit), so this run only checked it.
    pub already: bool,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", rows_text(&self.rows))?;
        if self.already {
            write!(f, " (copied by an earlier run)")?;
        }
        write!(
            f,
            "; every row matches the source and all {} games replay identically on both sides",
            self.replayed
        )?;
        if self.frozen > 0 {
            write!(
                f,
                " ({} of them do not replay, on either side: they stay frozen)",
                self.frozen
            )?;
        }
        Ok(())
    }
}

/// Rows by table, in words: `3 games, 120 log, …`.
fn rows_text(rows: &[(&'static str, usize)]) -> String {
    rows.iter()
        .map(|(table, n)| format!("{n} {table}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A migration could not be done.
#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    /// `--from` is not a SQLite database or `--to` not a PostgreSQL one.
    #[error("{0}")]
    Usage(String),
    /// The source has a table `migrate` does not copy.
    #[error(
        "the source database has tables that gaugebot migrate does not know how to copy: {0}; \
         nothing was copied"
    )]
    UnknownTables(String),
    /// A database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The copy read back differs from the source (never expected: it is one transaction).
    #[error("the copy in PostgreSQL differs from the SQLite database: {0}")]
    Differs(String),
}

/// Reads a whole SQLite database.
pub async fn export_sqlite(store: &SqliteStore) -> Result<Dump, StoreError> {
    store.export().await
}

/// Copies the SQLite database `from` (`sqlite:PATH` or a path) into the empty PostgreSQL
/// database `to` (`postgres://…`) and checks the copy; `progress` is told what it is doing
/// (every few thousand rows of a large table, every hundred games replayed).
pub async fn migrate(
    from: &str,
    to: &str,
    progress: &mut (dyn FnMut(&str) + Send),
) -> Result<Report, MigrateError> {
    let Database::Sqlite(path) = Database::parse(from) else {
        return Err(MigrateError::Usage(format!(
            "--from must be a SQLite database (sqlite:PATH), not {}",
            redact(from)
        )));
    };
    let Database::Postgres(url) = Database::parse(to) else {
        return Err(MigrateError::Usage(format!(
            "--to must be a PostgreSQL URL (postgres://…), not {to}"
        )));
    };
    if path == ":memory:" || !std::path::Path::new(&path).exists() {
        return Err(MigrateError::Usage(format!("no SQLite database at {path}")));
    }
    let source = SqliteStore::open(&path).await?;
    let read = async {
        let unknown = unknown_tables(&source.tables().await?);
        if !unknown.is_empty() {
            return Err(MigrateError::UnknownTables(unknown.join(", ")));
        }
        Ok(source.export().await?)
    }
    .await;
    gaugebot_table::store::Store::close(&source).await;
    let dump = read?;
    progress(&format!("read {} from {path}", rows_text(&dump.counts())));
    let target = PostgresStore::open(&url).await?;
    let result = copy_and_check(&target, &dump, progress).await;
    gaugebot_table::store::Store::close(&target).await;
    result
}

/// The tables of a schema that are neither copied nor known not to be data.
pub fn unknown_tables(tables: &[String]) -> Vec<String> {
    tables
        .iter()
        .filter(|t| !TABLES.contains(&t.as_str()) && !NOT_DATA.contains(&t.as_str()))
        .cloned()
        .collect()
}

async fn copy_and_check(
    target: &PostgresStore,
    dump: &Dump,
    progress: &mut (dyn FnMut(&str) + Send),
) -> Result<Report, MigrateError> {
    let unknown = unknown_tables(&target.tables().await?);
    if !unknown.is_empty() {
        return Err(MigrateError::UnknownTables(unknown.join(", ")));
    }
    let empty = target.row_counts().await?.iter().all(|(_, n)| *n == 0);
    let already = if empty {
        target
            .import(dump, &mut |c: Copied| {
                progress(&format!("copying {}: {} of {} rows", c.table, c.rows, c.of))
            })
            .await?;
        progress("copied and committed; checking the copy");
        false
    } else if target.export().await? == *dump {
        progress("the target holds this very copy already (an earlier run); checking it");
        true
    } else {
        // Refused with the table that has rows, as the import says it.
        target.import(dump, &mut |_| {}).await?;
        false
    };
    let copy = target.export().await?;
    if let Some(difference) = first_difference(dump, &copy) {
        return Err(MigrateError::Differs(difference));
    }
    let counts = target.row_counts().await?;
    for ((table, rows), (_, expected)) in counts.iter().zip(dump.counts()) {
        if *rows != expected as i64 {
            return Err(MigrateError::Differs(format!(
                "{table} has {rows} rows in PostgreSQL and {expected} in SQLite"
            )));
        }
    }
    let (replayed, frozen) = replay_both(dump, &copy, progress)?;
    Ok(Report {
        rows: dump.counts(),
        replayed,
        frozen,
        already,
    })
}

/// Replays every game of both dumps (in the same order) and compares their positions: the
/// same position, or the same refusal for a game that does not replay. Returns how many games
/// were replayed and how many of them do not replay.
fn replay_both(
    source: &Dump,
    copy: &Dump,
    progress: &mut (dyn FnMut(&str) + Send),
) -> Result<(usize, usize), MigrateError> {
    let plugins = games::registry();
    let mut frozen = 0;
    let total = source.games.len();
    let (source_logs, copy_logs) = (logs_by_game(source), logs_by_game(copy));
    for (i, (a, b)) in source.games.iter().zip(&copy.games).enumerate() {
        let left = position(a, log_of(&source_logs, &a.id), &plugins);
        let right = position(b, log_of(&copy_logs, &b.id), &plugins);
        if left != right {
            return Err(MigrateError::Differs(format!(
                "game {} replays differently: {} in SQLite, {} in PostgreSQL",
                a.id,
                describe(&left),
                describe(&right)
            )));
        }
        if left.is_err() {
            frozen += 1;
        }
        if (i + 1).is_multiple_of(100) || i + 1 == total {
            progress(&format!(
                "replayed {} of {total} games on both sides",
                i + 1
            ));
        }
    }
    Ok((total, frozen))
}

fn describe(position: &Result<Value, String>) -> String {
    match position {
        Ok(_) => "a position".to_string(),
        Err(e) => format!("\"{e}\""),
    }
}

/// A game's log entries (none if it has none).
fn log_of<'a>(logs: &HashMap<&str, Vec<&'a LogRecord>>, id: &str) -> Vec<&'a LogRecord> {
    logs.get(id).cloned().unwrap_or_default()
}

/// Each game's log entries in a dump, by game id, in order.
fn logs_by_game(dump: &Dump) -> HashMap<&str, Vec<&LogRecord>> {
    let mut logs: HashMap<&str, Vec<&LogRecord>> = HashMap::new();
    for (id, row) in &dump.logs {
        logs.entry(id.as_str()).or_default().push(row);
    }
    logs
}

/// The position of a stored game after every entry in force, as its dump; or why it does not
/// replay.
fn position(
    game: &GameRecord,
    log: Vec<&LogRecord>,
    plugins: &[gaugebot_table::SharedPlugin],
) -> Result<Value, String> {
    let setup: Value = serde_json::from_str(&game.setup_json).map_err(|e| e.to_string())?;
    let record = record::GameRecord {
        format: record::FORMAT.to_string(),
        version: String::new(),
        game_id: game.id.clone(),
        kind: game.kind.clone(),
        engine_version: game.engine_version.clone(),
        channel: game.channel.clone(),
        created_at: game.created_at.clone(),
        setup,
        commitment: game.commitment.clone(),
        seed: None,
        client_seed: None,
        log: log
            .into_iter()
            .map(|row| {
                Ok(RecordEntry {
                    seq: row.seq,
                    entry: serde_json::from_str(&row.entry_json)
                        .map_err(|e| format!("entry #{}: {e}", row.seq))?,
                    message_id: row.message_id.clone(),
                    author_id: row.author_id.clone(),
                    author_name: row.author_name.clone(),
                    text: row.text.clone(),
                    at: row.at.clone(),
                    undone: false,
                    prev: None,
                })
            })
            .collect::<Result<_, String>>()?,
        draws: Vec::new(),
        chain: None,
    };
    let session = record::replay(&record, plugins, None).map_err(|e| e.to_string())?;
    Ok(session.dump("the moderator"))
}

/// Where two dumps first differ: the table and the first row that differs.
fn first_difference(a: &Dump, b: &Dump) -> Option<String> {
    fn rows<T: PartialEq + std::fmt::Debug>(table: &str, a: &[T], b: &[T]) -> Option<String> {
        if a == b {
            return None;
        }
        let at = a.iter().zip(b).position(|(x, y)| x != y);
        Some(match at {
            Some(i) => format!(
                "{table}, row {}: {:?} in SQLite, {:?} in PostgreSQL",
                i + 1,
                a[i],
                b[i]
            ),
            None => format!(
                "{table}: {} rows in SQLite, {} in PostgreSQL",
                a.len(),
                b.len()
            ),
        })
    }
    rows("games", &a.games, &b.games)
        .or_else(|| rows("log", &a.logs, &b.logs))
        .or_else(|| rows("seen_messages", &a.seen, &b.seen))
        .or_else(|| rows("channel_cursor", &a.cursors, &b.cursors))
        .or_else(|| rows("channel_state", &a.states, &b.states))
        .or_else(|| rows("presets", &a.presets, &b.presets))
        .or_else(|| rows("status_message", &a.status, &b.status))
        .or_else(|| rows("outbox", &a.outbox, &b.outbox))
        .or_else(|| rows("notify", &a.notify, &b.notify))
}
