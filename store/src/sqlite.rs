//! Durable storage in SQLite (WAL, synchronous=FULL): the SQLite [`Backend`] of the shared
//! [`SqlStore`]. Reads go through sqlx's one connection; a file database's write transactions
//! through its write connection on the calling thread ([`Writer`]); an in-memory database's
//! (one connection is the database) statement by statement on sqlx's connection.
//! The migrations in `store/migrations/` bring a database of any earlier version up to date when
//! it is opened.

use std::str::FromStr;
use std::time::Duration;

use async_trait::async_trait;
use gaugebot_table::store::StoreError;
use sqlx::pool::PoolConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Sqlite, SqlitePool};

use crate::sql::queries::{failed, Statement};
use crate::sql::{run_each, Backend, SqlStore};
use crate::sqlite_writer::Writer;

/// The SQLite database.
pub type SqliteStore = SqlStore<SqliteBackend>;

/// What SQLite does its own way: its one connection and its transactions.
#[derive(Debug, Clone)]
pub struct SqliteBackend {
    pool: SqlitePool,
    memory: bool,
    /// A file database's write connection (none in memory: one connection is the database).
    writer: Option<Writer>,
}

/// Creates the new file `path`, readable and writable by its owner only (0600 on Unix); fails
/// with `AlreadyExists` if it exists. The database and its backups are made with it: both hold
/// the secret dice seeds.
pub fn create_new_private(path: &std::path::Path) -> std::io::Result<std::fs::File> {
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
        let writer = match memory {
            true => None,
            false => Some(Writer::open(std::path::Path::new(path))?),
        };
        Ok(SqlStore {
            backend: SqliteBackend {
                pool,
                memory,
                writer,
            },
        })
    }
}

/// Copies the SQLite database file `source` into `target` with `VACUUM INTO` (`gaugebot
/// backup`): one consistent snapshot, read while the bot keeps writing. `target` must not hold
/// a database (an empty file made for it is fine).
pub async fn vacuum_into(source: &str, target: &str) -> Result<(), StoreError> {
    use sqlx::{ConnectOptions as _, Connection as _};
    let mut connection = SqliteConnectOptions::new()
        .filename(source)
        .read_only(true)
        .connect()
        .await
        .map_err(failed)?;
    let copied = sqlx::query("VACUUM INTO ?")
        .bind(target)
        .execute(&mut connection)
        .await
        .map(|_| ())
        .map_err(failed);
    connection.close().await.ok();
    copied
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
        if let Err(error) = &result {
            self.recover(&mut conn, error).await;
        }
        result
    }

    /// Runs the whole transaction: a file database's on its write connection, here and in one
    /// call ([`Writer::run`]); an in-memory database's statement by statement on sqlx's
    /// connection ([`run_each`]).
    async fn run(&self, channel: Option<&str>, statements: &[Statement]) -> Result<(), StoreError> {
        match &self.writer {
            Some(writer) => writer.run(statements),
            None => run_each(self, channel, statements).await,
        }
    }

    /// Closes the write connection, then the pool (the last connection closed checkpoints
    /// the WAL).
    async fn close(&self) {
        if let Some(writer) = &self.writer {
            writer.close();
        }
        self.pool.close().await;
    }

    /// One process on its one connection: a SQLite database is never shared by two bots.
    fn sole_writer(&self) -> bool {
        true
    }
}

impl SqliteBackend {
    /// After a failed write: rolls its transaction back and, for a file database, closes the
    /// connection, so that no failure can leave a transaction open on it — unless a statement
    /// was refused by a constraint (a duplicate's read mark: [`StoreError::AlreadyRead`], or a
    /// conflicting key) and its ROLLBACK succeeded: SQLite keeps the transaction whole after such
    /// a refusal, and the ROLLBACK ends it, so the connection and its prepared statements are
    /// kept (a message Discord delivers twice costs no reconnection).
    async fn recover(&self, conn: &mut PoolConnection<Sqlite>, error: &StoreError) {
        // Fails harmlessly when SQLite has already rolled the transaction back.
        let rolled_back = sqlx::query("ROLLBACK").execute(&mut **conn).await.is_ok();
        let refused = matches!(
            error,
            StoreError::AlreadyRead { .. } | StoreError::Conflict(_)
        );
        let keep = self.memory || (refused && rolled_back);
        if !keep {
            conn.close_on_drop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use gaugebot_table::store::{Store, Write};

    fn read(message_id: &str) -> Write {
        Write::Read {
            channel: "c1".into(),
            message_id: message_id.into(),
        }
    }

    async fn file_store(dir: &tempfile::TempDir) -> SqliteStore {
        let path = dir.path().join("kept.db");
        SqliteStore::open(&path.to_string_lossy())
            .await
            .expect("opens")
    }

    /// A TEMP table lives and dies with its connection: whether it is still there tells
    /// whether the connection it was made on is.
    const MARKER: &str = "CREATE TEMP TABLE marker (x)";
    const MARKED: &str = "SELECT COUNT(*) FROM temp.marker";

    #[tokio::test]
    async fn a_message_read_twice_is_refused_and_keeps_the_write_connection() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = file_store(&dir).await;
        let writer = store
            .backend
            .writer
            .as_ref()
            .expect("a file's write connection");
        store.write(&[read("1")]).await.expect("first read");
        writer.with_connection(|c| c.execute_batch(MARKER).expect("marker"));
        let again = store.write(&[read("1")]).await;
        assert!(
            matches!(again, Err(StoreError::AlreadyRead { .. })),
            "{again:?}"
        );
        assert_eq!(
            writer.with_connection(|c| c.execute_batch(MARKED).is_ok()),
            Some(true),
            "a duplicate costs no reconnection"
        );
        store.write(&[read("2")]).await.expect("the next message");
        assert!(store.seen("c1", "2").await.expect("reads"));
    }

    #[tokio::test]
    async fn a_message_read_twice_on_sqlx_s_connection_keeps_it() {
        let dir = tempfile::tempdir().expect("temp dir");
        let store = file_store(&dir).await;
        let first = || [Statement::first_read("c1", "1")];
        run_each(&store.backend, None, &first())
            .await
            .expect("first read");
        sqlx::query(MARKER)
            .execute(&store.backend.pool)
            .await
            .expect("marker");
        let again = run_each(&store.backend, None, &first()).await;
        assert!(
            matches!(again, Err(StoreError::AlreadyRead { .. })),
            "{again:?}"
        );
        let kept = sqlx::query(MARKED)
            .fetch_one(&store.backend.pool)
            .await
            .is_ok();
        assert!(kept, "a duplicate costs no reconnection");
    }
}
