//! `gaugebot migrate --from sqlite:PATH --to postgres://…`: copies every game of a SQLite
//! database into an empty PostgreSQL database, verbatim (games, their logs, the messages
//! already read, the channels' cursors), in one transaction, then reads the copy back and
//! checks that it equals the source.

use gaugebot_table::store::{GameRow, LogRow, StoreError};
use sqlx::Row;

use crate::backend::{redact, Database};
use crate::postgres::PostgresStore;
use crate::storage::SqliteStore;

/// A whole database as rows, in insertion order.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Dump {
    /// Every game, active or not.
    pub games: Vec<GameRow>,
    /// Every log entry, with its game id, by game then position.
    pub logs: Vec<(String, LogRow)>,
    /// Every message already read: (channel, message id).
    pub seen: Vec<(String, String)>,
    /// Every channel's cursor: (channel, message id).
    pub cursors: Vec<(String, String)>,
}

/// What a migration copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Report {
    /// Games copied.
    pub games: usize,
    /// Log entries copied.
    pub entries: usize,
    /// Read messages copied.
    pub seen: usize,
    /// Cursors copied.
    pub cursors: usize,
}

impl std::fmt::Display for Report {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} games, {} log entries, {} read messages, {} cursors",
            self.games, self.entries, self.seen, self.cursors
        )
    }
}

/// A migration could not be done.
#[derive(Debug, thiserror::Error)]
pub enum MigrateError {
    /// `--from` is not a SQLite database or `--to` not a PostgreSQL one.
    #[error("{0}")]
    Usage(String),
    /// A database failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// The copy read back differs from the source (it was rolled back? never expected).
    #[error("the copy in PostgreSQL differs from the SQLite database: {0}")]
    Differs(String),
}

fn failed(error: sqlx::Error) -> StoreError {
    StoreError::from_error(error)
}

/// Reads a whole SQLite database.
pub async fn export_sqlite(store: &SqliteStore) -> Result<Dump, StoreError> {
    let pool = store.pool();
    let games = sqlx::query(
        "SELECT id, channel, kind, engine_version, created_at, setup_json, seed_hex, commitment,
                revealed, active
         FROM games ORDER BY rowid",
    )
    .fetch_all(pool)
    .await
    .map_err(failed)?
    .iter()
    .map(|r| GameRow {
        id: r.get(0),
        channel: r.get(1),
        kind: r.get(2),
        engine_version: r.get(3),
        created_at: r.get(4),
        setup_json: r.get(5),
        seed_hex: r.get(6),
        commitment: r.get(7),
        revealed: r.get::<i64, _>(8) != 0,
        active: r.get::<i64, _>(9) != 0,
    })
    .collect();
    let logs = sqlx::query(
        "SELECT l.game_id, l.seq, l.entry_json, l.message_id, l.author_id, l.author_name, l.text,
                l.at
         FROM log l JOIN games g ON g.id = l.game_id ORDER BY g.rowid, l.seq",
    )
    .fetch_all(pool)
    .await
    .map_err(failed)?
    .iter()
    .map(|r| {
        (
            r.get(0),
            LogRow {
                seq: r.get(1),
                entry_json: r.get(2),
                message_id: r.get(3),
                author_id: r.get(4),
                author_name: r.get(5),
                text: r.get(6),
                at: r.get(7),
            },
        )
    })
    .collect();
    let seen =
        sqlx::query("SELECT channel, message_id FROM seen_messages ORDER BY channel, message_id")
            .fetch_all(pool)
            .await
            .map_err(failed)?
            .iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect();
    let cursors = sqlx::query("SELECT channel, message_id FROM channel_cursor ORDER BY channel")
        .fetch_all(pool)
        .await
        .map_err(failed)?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect();
    Ok(Dump {
        games,
        logs,
        seen,
        cursors,
    })
}

/// Copies the SQLite database `from` (`sqlite:PATH` or a path) into the empty PostgreSQL
/// database `to` (`postgres://…`) and checks the copy.
pub async fn migrate(from: &str, to: &str) -> Result<Report, MigrateError> {
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
    let dump = export_sqlite(&source).await;
    source.pool().close().await;
    let dump = dump?;
    let target = PostgresStore::open(&url).await?;
    let result = async {
        target.import(&dump).await?;
        let copy = target.export().await?;
        if copy != dump {
            return Err(MigrateError::Differs(first_difference(&dump, &copy)));
        }
        Ok(Report {
            games: dump.games.len(),
            entries: dump.logs.len(),
            seen: dump.seen.len(),
            cursors: dump.cursors.len(),
        })
    }
    .await;
    gaugebot_table::store::Store::close(&target).await;
    result
}

/// Where two dumps first differ, in words.
fn first_difference(a: &Dump, b: &Dump) -> String {
    if a.games != b.games {
        return format!("games ({} and {})", a.games.len(), b.games.len());
    }
    if a.logs != b.logs {
        return format!("log entries ({} and {})", a.logs.len(), b.logs.len());
    }
    if a.seen != b.seen {
        return format!("read messages ({} and {})", a.seen.len(), b.seen.len());
    }
    format!("cursors ({} and {})", a.cursors.len(), b.cursors.len())
}
