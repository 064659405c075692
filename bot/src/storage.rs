//! Durable storage in SQLite (WAL, synchronous=FULL) through sqlx: the SQLite [`Backend`] of
//! the shared [`SqlStore`]: one connection (one writer), write transactions begun with
//! `BEGIN IMMEDIATE`. The migrations in `bot/migrations/` bring a database of any earlier
//! version up to date when it is opened.

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use gaugebot_table::store::StoreError;
use sqlx::pool::PoolConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqlitePool};

use crate::sql::queries::failed;
use crate::sql::{Backend, SqlStore};

/// The SQLite database.
pub type SqliteStore = SqlStore<SqliteBackend>;

/// What SQLite does its own way: its one connection and its transactions.
#[derive(Debug, Clone)]
pub struct SqliteBackend {
    pool: SqlitePool,
    memory: bool,
}

/// Creates the new file `path`, readable and writable by its owner only (0600 on Unix); fails
/// with `AlreadyExists` if it exists. The database and its backups are made with it: both hold
/// the secret dice seeds.
pub(crate) fn create_new_private(path: &std::path::Path) -> std::io::Result<std::fs::File> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    options.open(path)
}

/// Creates a new database file readable and writable by its owner only (it holds the secret
/// dice seeds; SQLite gives its `-wal` and `-shm` files the same permissions). An existing file
/// is left as it is.
fn create_private(path: &str) -> Result<(), StoreError> {
    match create_new_private(std::path::Path::new(path)) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(StoreError::Unavailable(std::sync::Arc::new(
            std::io::Error::new(e.kind(), format!("cannot create {path}: {e}")),
        ))),
    }
}

impl SqliteStore {
    /// Opens (and creates and migrates) the database at `path`; `:memory:` for a throwaway one.
    pub async fn open(path: &str) -> Result<SqliteStore, StoreError> {
        let memory = path == ":memory:";
        if !memory {
            create_private(path)?;
        }
        let options = if memory {
            SqliteConnectOptions::from_str("sqlite::memory:").map_err(failed)?
        } else {
            SqliteConnectOptions::new()
                .filename(path)
                .create_if_missing(true)
                .journal_mode(SqliteJournalMode::Wal)
        }
        .synchronous(SqliteSynchronous::Full)
        .busy_timeout(Duration::from_secs(5))
        .foreign_keys(true);
        let pool = SqlitePoolOptions::new()
            // One connection: one writer, and an in-memory database stays one database.
            .max_connections(1)
            .min_connections(if memory { 1 } else { 0 })
            .idle_timeout(None)
            .max_lifetime(None)
            // No ping before each use: the one connection is local and never idles out, and
            // sqlx pings it when it comes back to the pool anyway. The ping is a round trip to
            // the connection's thread before every query (BENCHMARKS.md, the Discord round trip).
            .test_before_acquire(false)
            .connect_with(options)
            .await
            .map_err(failed)?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|e| failed(sqlx::Error::Migrate(Box::new(e))))?;
        Ok(SqlStore {
            backend: SqliteBackend { pool, memory },
        })
    }

    /// The connection pool (read by `gaugebot migrate`).
    pub(crate) fn pool(&self) -> &SqlitePool {
        &self.backend.pool
    }
}

#[async_trait]
impl Backend for SqliteBackend {
    type Db = Sqlite;
    type Tx = PoolConnection<Sqlite>;

    fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Begins a write transaction on the connection, locking the database for writing at once.
    ///
    /// Transactions are begun, committed and rolled back with plain SQL, not with sqlx's
    /// `Transaction`: sqlx counts a transaction whose COMMIT failed (a full disk) as still open
    /// although SQLite may have rolled it back, so its next `begin()` is a SAVEPOINT, and the
    /// next failure then leaves the connection inside a transaction that never commits: every
    /// later command is acknowledged but lost at the next restart (RELIABILITY.md, faults).
    async fn begin(&self, _channel: Option<&str>) -> Result<PoolConnection<Sqlite>, StoreError> {
        let mut conn = self.pool.acquire().await.map_err(failed)?;
        sqlx::query("BEGIN IMMEDIATE")
            .execute(&mut *conn)
            .await
            .map_err(failed)?;
        Ok(conn)
    }

    /// Commits the transaction if `result` is Ok; otherwise (or if the commit fails) rolls it
    /// back, and for a file database closes the connection, so that no failure can leave a
    /// transaction open on it.
    async fn finish(
        &self,
        mut conn: PoolConnection<Sqlite>,
        result: Result<(), StoreError>,
    ) -> Result<(), StoreError> {
        let result = match result {
            Ok(()) => sqlx::query("COMMIT")
                .execute(&mut *conn)
                .await
                .map(|_| ())
                .map_err(failed),
            Err(e) => Err(e),
        };
        if result.is_err() {
            // Fails harmlessly when SQLite has already rolled the transaction back.
            let _ = sqlx::query("ROLLBACK").execute(&mut *conn).await;
            if !self.memory {
                conn.close_on_drop();
            }
        }
        result
    }

    /// Closes the pool, flushing the WAL.
    async fn close(&self) {
        self.pool.close().await;
    }

    /// One process on its one connection: a SQLite database is never shared by two bots.
    fn sole_writer(&self) -> bool {
        true
    }
}
