//! `gaugebot migrate --from sqlite:PATH --to postgres://…`: copies every game of a SQLite
//! database into an empty PostgreSQL database, verbatim (games, their logs, the messages
//! already read, the channels' cursors), in one transaction, then reads the copy back and
//! checks that it equals the source.

use gaugebot_table::store::StoreError;
use sqlx::Sqlite;

use crate::backend::{redact, Database};
use crate::postgres::PostgresStore;
pub use crate::sql::queries::Dump;
use crate::sql::queries::{failed, Queries};
use crate::storage::SqliteStore;

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

/// Reads a whole SQLite database.
pub async fn export_sqlite(store: &SqliteStore) -> Result<Dump, StoreError> {
    let mut conn = store.pool().acquire().await.map_err(failed)?;
    Sqlite::export(&mut conn).await
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
