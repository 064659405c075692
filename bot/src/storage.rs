//! Durable storage in SQLite (WAL, synchronous=FULL) through sqlx: games, their append-only
//! logs, the messages already seen, and each channel's catch-up cursor. It implements the table
//! core's [`Store`] trait; the migrations in `bot/migrations/` bring a database of any earlier
//! version up to date when it is opened.

use std::str::FromStr;
use std::time::Duration;

use std::sync::Arc;

use async_trait::async_trait;
use gaugebot_table::store::{GameRow, LogRow, Store, StoreError};
use sqlx::pool::PoolConnection;
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqlitePoolOptions, SqliteSynchronous};
use sqlx::{Row, Sqlite, SqliteConnection, SqlitePool};

fn failed(error: sqlx::Error) -> StoreError {
    StoreError::from_error(error)
}

/// Creates a new database file readable and writable by its owner only (it holds the secret
/// dice seeds; SQLite gives its `-wal` and `-shm` files the same permissions). An existing file
/// is left as it is.
fn create_private(path: &str) -> Result<(), StoreError> {
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create_new(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    match options.open(path) {
        Ok(_) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) => Err(StoreError(format!("cannot create {path}: {e}"))),
    }
}

/// The SQLite database.
#[derive(Debug, Clone)]
pub struct SqliteStore {
    pool: SqlitePool,
    memory: bool,
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
            .connect_with(options)
            .await
            .map_err(failed)?;
        sqlx::migrate!("./migrations")
            .run(&pool)
            .await
            .map_err(|e| failed(sqlx::Error::Migrate(Box::new(e))))?;
        Ok(SqliteStore { pool, memory })
    }

    /// The store as the table core takes it.
    pub fn shared(&self) -> Arc<dyn Store> {
        Arc::new(self.clone())
    }

    /// The connection pool (read by `gaugebot migrate`).
    pub(crate) fn pool(&self) -> &SqlitePool {
        &self.pool
    }

    /// Starts a game: retires the channel's previous one and marks the message seen, in one
    /// Appends entries to a game's log and marks their message seen, all in one transaction;
    /// Begins a write transaction on the connection.
    ///
    /// Transactions are begun, committed and rolled back with plain SQL, not with sqlx's
    /// `Transaction`: sqlx counts a transaction whose COMMIT failed (a full disk) as still open
    /// although SQLite may have rolled it back, so its next `begin()` is a SAVEPOINT, and the
    /// next failure then leaves the connection inside a transaction that never commits: every
    /// later command is acknowledged but lost at the next restart (RELIABILITY.md, faults).
    async fn begin(&self) -> Result<PoolConnection<Sqlite>, StoreError> {
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
}

#[async_trait]
impl Store for SqliteStore {
    /// The active game of a channel.
    async fn active_game(&self, channel: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, channel, kind, engine_version, created_at, setup_json, seed_hex,
                    commitment, revealed, active
             FROM games WHERE channel = ? AND active = 1",
        )
        .bind(channel)
        .fetch_optional(&self.pool)
        .await
        .map_err(failed)?;
        Ok(row.map(|r| GameRow {
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
        }))
    }
    /// How many games a channel has had.
    async fn game_count(&self, channel: &str) -> Result<i64, StoreError> {
        Ok(sqlx::query("SELECT COUNT(*) FROM games WHERE channel = ?")
            .bind(channel)
            .fetch_one(&self.pool)
            .await
            .map_err(failed)?
            .get(0))
    }
    /// Channels with an active game.
    async fn active_channels(&self) -> Result<Vec<String>, StoreError> {
        Ok(
            sqlx::query("SELECT channel FROM games WHERE active = 1 ORDER BY channel")
                .fetch_all(&self.pool)
                .await
                .map_err(failed)?
                .iter()
                .map(|r| r.get(0))
                .collect(),
        )
    }
    /// transaction.
    async fn create_game(&self, game: &GameRow, message_id: &str) -> Result<(), StoreError> {
        let mut conn = self.begin().await?;
        let result = async {
            sqlx::query("UPDATE games SET active = 0 WHERE channel = ?")
                .bind(&game.channel)
                .execute(&mut *conn)
                .await
                .map_err(failed)?;
            sqlx::query(
                "INSERT INTO games (id, channel, kind, engine_version, created_at, setup_json,
                                    seed_hex, commitment, revealed, active)
                 VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1)",
            )
            .bind(&game.id)
            .bind(&game.channel)
            .bind(&game.kind)
            .bind(&game.engine_version)
            .bind(&game.created_at)
            .bind(&game.setup_json)
            .bind(&game.seed_hex)
            .bind(&game.commitment)
            .bind(i64::from(game.revealed))
            .execute(&mut *conn)
            .await
            .map_err(failed)?;
            mark_seen(&mut conn, &game.channel, message_id).await
        }
        .await;
        self.finish(conn, result).await
    }
    /// `revealed` also records that the seed is now public.
    async fn append(
        &self,
        game_id: &str,
        channel: &str,
        rows: &[LogRow],
        message_id: &str,
        revealed: bool,
    ) -> Result<(), StoreError> {
        let mut conn = self.begin().await?;
        let result = async {
            for row in rows {
                sqlx::query(
                    "INSERT INTO log (game_id, seq, entry_json, message_id, author_id,
                                      author_name, text, at)
                     VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                )
                .bind(game_id)
                .bind(row.seq)
                .bind(&row.entry_json)
                .bind(&row.message_id)
                .bind(&row.author_id)
                .bind(&row.author_name)
                .bind(&row.text)
                .bind(&row.at)
                .execute(&mut *conn)
                .await
                .map_err(failed)?;
            }
            if revealed {
                sqlx::query("UPDATE games SET revealed = 1 WHERE id = ?")
                    .bind(game_id)
                    .execute(&mut *conn)
                    .await
                    .map_err(failed)?;
            }
            mark_seen(&mut conn, channel, message_id).await
        }
        .await;
        self.finish(conn, result).await
    }
    /// Records that a message was read (a refused command), so a re-delivery is not re-read.
    async fn mark_seen(&self, channel: &str, message_id: &str) -> Result<(), StoreError> {
        let mut conn = self.begin().await?;
        let result = mark_seen(&mut conn, channel, message_id).await;
        self.finish(conn, result).await
    }
    /// Whether a message was read before.
    async fn seen(&self, channel: &str, message_id: &str) -> Result<bool, StoreError> {
        Ok(
            sqlx::query("SELECT 1 FROM seen_messages WHERE channel = ? AND message_id = ?")
                .bind(channel)
                .bind(message_id)
                .fetch_optional(&self.pool)
                .await
                .map_err(failed)?
                .is_some(),
        )
    }
    /// A game's whole log, in order.
    async fn log(&self, game_id: &str) -> Result<Vec<LogRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, entry_json, message_id, author_id, author_name, text, at
             FROM log WHERE game_id = ? ORDER BY seq",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await
        .map_err(failed)?;
        Ok(rows
            .iter()
            .map(|r| LogRow {
                seq: r.get(0),
                entry_json: r.get(1),
                message_id: r.get(2),
                author_id: r.get(3),
                author_name: r.get(4),
                text: r.get(5),
                at: r.get(6),
            })
            .collect())
    }
    /// The last message processed in a channel.
    async fn cursor(&self, channel: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query("SELECT message_id FROM channel_cursor WHERE channel = ?")
                .bind(channel)
                .fetch_optional(&self.pool)
                .await
                .map_err(failed)?
                .map(|r| r.get(0)),
        )
    }
    /// Moves a channel's cursor forward (never back: snowflakes compare as numbers).
    async fn advance_cursor(&self, channel: &str, message_id: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO channel_cursor (channel, message_id) VALUES (?, ?)
             ON CONFLICT (channel) DO UPDATE SET message_id = excluded.message_id
             WHERE length(excluded.message_id) > length(channel_cursor.message_id)
                OR (length(excluded.message_id) = length(channel_cursor.message_id)
                    AND excluded.message_id > channel_cursor.message_id)",
        )
        .bind(channel)
        .bind(message_id)
        .execute(&self.pool)
        .await
        .map_err(failed)?;
        Ok(())
    }
    /// The live status message of a game.
    async fn status_message(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query("SELECT message_id FROM status_message WHERE game_id = ?")
                .bind(game_id)
                .fetch_optional(&self.pool)
                .await
                .map_err(failed)?
                .map(|r| r.get(0)),
        )
    }
    /// Records the live status message of a game.
    async fn set_status_message(&self, game_id: &str, message_id: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO status_message (game_id, message_id) VALUES (?, ?)
             ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id",
        )
        .bind(game_id)
        .bind(message_id)
        .execute(&self.pool)
        .await
        .map_err(failed)?;
        Ok(())
    }

    /// A channel's state outside any game.
    async fn channel_state(&self, channel: &str) -> Result<Option<String>, StoreError> {
        crate::storage_async::channel_state(&self.pool, channel).await
    }
    /// Replaces a channel's state and marks the message seen, in one transaction.
    async fn set_channel_state(
        &self,
        channel: &str,
        state: Option<&str>,
        message_id: &str,
    ) -> Result<(), StoreError> {
        let mut conn = self.begin().await?;
        let result = async {
            crate::storage_async::set_channel_state(&mut conn, channel, state).await?;
            mark_seen(&mut conn, channel, message_id).await
        }
        .await;
        self.finish(conn, result).await
    }
    /// Channels with a state.
    async fn state_channels(&self) -> Result<Vec<String>, StoreError> {
        crate::storage_async::state_channels(&self.pool).await
    }
    /// A game's secret presets.
    async fn presets(&self, game_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        crate::storage_async::presets(&self.pool, game_id).await
    }
    /// Replaces one player's presets.
    async fn set_presets(
        &self,
        game_id: &str,
        player_id: &str,
        presets: Option<&str>,
    ) -> Result<(), StoreError> {
        let mut conn = self.begin().await?;
        let result =
            crate::storage_async::set_presets(&mut conn, game_id, player_id, presets).await;
        self.finish(conn, result).await
    }

    /// Each channel with an active game and its cursor, in one query.
    async fn active_cursors(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        Ok(sqlx::query(
            "SELECT g.channel, c.message_id FROM games g
             LEFT JOIN channel_cursor c ON c.channel = g.channel
             WHERE g.active = 1 ORDER BY g.channel",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(failed)?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect())
    }
    /// Closes the pool, flushing the WAL.
    async fn close(&self) {
        self.pool.close().await;
    }
}

async fn mark_seen(
    conn: &mut SqliteConnection,
    channel: &str,
    message_id: &str,
) -> Result<(), StoreError> {
    sqlx::query("INSERT OR IGNORE INTO seen_messages (channel, message_id) VALUES (?, ?)")
        .bind(channel)
        .bind(message_id)
        .execute(&mut *conn)
        .await
        .map_err(failed)?;
    Ok(())
}
