//! Durable storage in PostgreSQL through sqlx, for several bot processes sharing one database.
//! It implements the table core's [`Store`] trait with the same rows as the SQLite store (its
//! own migrations in `bot/migrations_postgres/`); every write is one transaction.
//!
//! A store opened with [`PostgresStore::open_owner`] also takes part in channel ownership
//! ([`Owners`]): each channel's table belongs to one process at a time. A process is alive
//! while its *liveness session* (a connection whose `application_name` is the process's token)
//! is connected; a channel whose owner is not alive may be claimed by another process. Every
//! write of an owning process checks, in its own transaction, that the channel is still its own
//! (`SELECT … FOR SHARE` on the channel's owner row), so a process that lost a channel can no
//! longer write to it, and a takeover (an `UPDATE` of that row) waits until the old owner's
//! last write has committed.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use gaugebot_table::store::{GameRow, LogRow, Store, StoreError};
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{ConnectOptions, Connection, PgConnection, Postgres, Row, Transaction};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::backend::{Claim, Owners};
use crate::migrate::Dump;

/// How often the liveness session is checked (and reconnected when it broke).
const LIVENESS_PING: Duration = Duration::from_secs(1);
/// The prefix of every process token (and liveness `application_name`).
const TOKEN_PREFIX: &str = "gaugebot-owner-";
/// The text of the error a write fails with when its channel belongs to another process.
pub const NOT_OWNER: &str = "this process no longer owns the channel";

fn failed(error: sqlx::Error) -> StoreError {
    StoreError::from_error(error)
}

/// The PostgreSQL database.
#[derive(Debug, Clone)]
pub struct PostgresStore {
    pool: PgPool,
    owner: Option<Arc<Liveness>>,
}

/// This process's identity in the ownership of channels, and the task keeping its liveness
/// session connected.
#[derive(Debug)]
struct Liveness {
    token: String,
    keeper: JoinHandle<()>,
    connected: watch::Receiver<bool>,
}

impl Drop for Liveness {
    fn drop(&mut self) {
        self.keeper.abort();
    }
}

impl PostgresStore {
    /// Connects to `url` (`postgres://user@host/db`, or `postgres:///db?host=/run/postgresql`
    /// for a unix socket) and brings its schema up to date. Without channel ownership: for the
    /// console, tools and a single bot process.
    pub async fn open(url: &str) -> Result<PostgresStore, StoreError> {
        let options = PgConnectOptions::from_str(url)
            .map_err(failed)?
            .application_name("gaugebot");
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(Duration::from_secs(30))
            .connect_with(options)
            .await
            .map_err(failed)?;
        sqlx::migrate!("./migrations_postgres")
            .run(&pool)
            .await
            .map_err(|e| failed(sqlx::Error::Migrate(Box::new(e))))?;
        Ok(PostgresStore { pool, owner: None })
    }

    /// Like [`open`](Self::open), and joins the ownership of channels with a fresh process
    /// token: its liveness session is connected before this returns and kept connected (a
    /// broken one is reconnected every second) until the store is dropped or closed.
    pub async fn open_owner(url: &str) -> Result<PostgresStore, StoreError> {
        let mut store = PostgresStore::open(url).await?;
        let token = format!("{TOKEN_PREFIX}{:016x}", rand_token());
        let options = PgConnectOptions::from_str(url)
            .map_err(failed)?
            .application_name(&token);
        // The first connection is made here, so that a bad URL fails now.
        let first = options.connect().await.map_err(failed)?;
        let (tx, connected) = watch::channel(true);
        let keeper = tokio::spawn(keep_alive(options, first, tx));
        tracing::info!(
            token,
            "this process takes part in the ownership of channels"
        );
        store.owner = Some(Arc::new(Liveness {
            token,
            keeper,
            connected,
        }));
        Ok(store)
    }

    /// The store as the table core takes it.
    pub fn shared(&self) -> Arc<dyn Store> {
        Arc::new(self.clone())
    }

    /// This process's token, when it takes part in channel ownership.
    pub fn token(&self) -> Option<&str> {
        self.owner.as_ref().map(|o| o.token.as_str())
    }

    /// Whether the liveness session is connected now.
    pub fn alive(&self) -> bool {
        self.owner.as_ref().is_some_and(|o| *o.connected.borrow())
    }

    /// Whether the process with this token is alive: its liveness session is connected.
    pub async fn process_alive(&self, token: &str) -> Result<bool, StoreError> {
        Ok(
            sqlx::query("SELECT 1 FROM pg_stat_activity WHERE application_name = $1")
                .bind(token)
                .fetch_optional(&self.pool)
                .await
                .map_err(failed)?
                .is_some(),
        )
    }

    /// Every channel's owner token, by channel.
    pub async fn channel_owners(&self) -> Result<Vec<(String, String)>, StoreError> {
        Ok(
            sqlx::query("SELECT channel, owner FROM channel_owners ORDER BY channel COLLATE \"C\"")
                .fetch_all(&self.pool)
                .await
                .map_err(failed)?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect(),
        )
    }

    async fn begin(&self) -> Result<Transaction<'static, Postgres>, StoreError> {
        self.pool.begin().await.map_err(failed)
    }

    /// Fails unless this process may write to `channel`: always when it takes no part in
    /// ownership, else only when the channel's owner row names it (the row stays locked
    /// against a takeover until the transaction ends).
    async fn fence(&self, tx: &mut PgConnection, channel: &str) -> Result<(), StoreError> {
        let Some(owner) = &self.owner else {
            return Ok(());
        };
        let row = sqlx::query("SELECT owner FROM channel_owners WHERE channel = $1 FOR SHARE")
            .bind(channel)
            .fetch_optional(&mut *tx)
            .await
            .map_err(failed)?;
        match row {
            Some(row) if row.get::<String, _>(0) == owner.token => Ok(()),
            _ => Err(StoreError(format!("{NOT_OWNER} {channel}"))),
        }
    }

    /// Copies a whole database into this one, verbatim, in one transaction. Refused unless
    /// this database has no game yet.
    pub async fn import(&self, dump: &Dump) -> Result<(), StoreError> {
        let mut tx = self.begin().await?;
        let existing: i64 = sqlx::query("SELECT COUNT(*) FROM games")
            .fetch_one(&mut *tx)
            .await
            .map_err(failed)?
            .get(0);
        if existing > 0 {
            return Err(StoreError(format!(
                "the target database already has {existing} games; migrate into an empty one"
            )));
        }
        for game in &dump.games {
            insert_game(&mut tx, game).await?;
        }
        for (game_id, row) in &dump.logs {
            insert_log(&mut tx, game_id, row).await?;
        }
        for (channel, message_id) in &dump.seen {
            mark_seen(&mut tx, channel, message_id).await?;
        }
        for (channel, message_id) in &dump.cursors {
            sqlx::query("INSERT INTO channel_cursor (channel, message_id) VALUES ($1, $2)")
                .bind(channel)
                .bind(message_id)
                .execute(&mut *tx)
                .await
                .map_err(failed)?;
        }
        tx.commit().await.map_err(failed)
    }

    /// The whole database, in insertion order (for `gaugebot migrate` and its checks).
    pub async fn export(&self) -> Result<Dump, StoreError> {
        let games = sqlx::query(
            "SELECT id, channel, kind, engine_version, created_at, setup_json, seed_hex,
                    commitment, revealed, active
             FROM games ORDER BY position",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(failed)?
        .iter()
        .map(game_row)
        .collect();
        let logs = sqlx::query(
            "SELECT l.game_id, l.seq, l.entry_json, l.message_id, l.author_id, l.author_name,
                    l.text, l.at
             FROM log l JOIN games g ON g.id = l.game_id ORDER BY g.position, l.seq",
        )
        .fetch_all(&self.pool)
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
        let pairs = |sql: &'static str| async move {
            Ok::<_, StoreError>(
                sqlx::query(sql)
                    .fetch_all(&self.pool)
                    .await
                    .map_err(failed)?
                    .iter()
                    .map(|r| (r.get(0), r.get(1)))
                    .collect(),
            )
        };
        Ok(Dump {
            games,
            logs,
            seen: pairs("SELECT channel, message_id FROM seen_messages ORDER BY channel COLLATE \"C\", message_id COLLATE \"C\"")
                .await?,
            cursors: pairs("SELECT channel, message_id FROM channel_cursor ORDER BY channel COLLATE \"C\"")
                .await?,
        })
    }
}

/// A random 64-bit token (process identity): the standard library's randomly keyed hasher
/// over the time and the process id.
fn rand_token() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_u128(nanos);
    hasher.write_u32(std::process::id());
    hasher.finish()
}

/// Keeps the liveness session connected: pings it every second and reconnects a broken one.
async fn keep_alive(
    options: PgConnectOptions,
    first: PgConnection,
    connected: watch::Sender<bool>,
) {
    let mut conn = Some(first);
    loop {
        tokio::time::sleep(LIVENESS_PING).await;
        let ok = match conn.as_mut() {
            Some(c) => c.ping().await.is_ok(),
            None => false,
        };
        if ok {
            continue;
        }
        if conn.is_some() {
            tracing::warn!("the liveness session to PostgreSQL broke; reconnecting");
        }
        conn = options.connect().await.ok();
        connected.send_replace(conn.is_some());
    }
}

fn game_row(r: &sqlx::postgres::PgRow) -> GameRow {
    GameRow {
        id: r.get(0),
        channel: r.get(1),
        kind: r.get(2),
        engine_version: r.get(3),
        created_at: r.get(4),
        setup_json: r.get(5),
        seed_hex: r.get(6),
        commitment: r.get(7),
        revealed: r.get(8),
        active: r.get(9),
    }
}

async fn insert_game(tx: &mut PgConnection, game: &GameRow) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO games (id, channel, kind, engine_version, created_at, setup_json,
                            seed_hex, commitment, revealed, active)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
    )
    .bind(&game.id)
    .bind(&game.channel)
    .bind(&game.kind)
    .bind(&game.engine_version)
    .bind(&game.created_at)
    .bind(&game.setup_json)
    .bind(&game.seed_hex)
    .bind(&game.commitment)
    .bind(game.revealed)
    .bind(game.active)
    .execute(&mut *tx)
    .await
    .map_err(failed)?;
    Ok(())
}

async fn insert_log(tx: &mut PgConnection, game_id: &str, row: &LogRow) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO log (game_id, seq, entry_json, message_id, author_id, author_name, text, at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(game_id)
    .bind(row.seq)
    .bind(&row.entry_json)
    .bind(&row.message_id)
    .bind(&row.author_id)
    .bind(&row.author_name)
    .bind(&row.text)
    .bind(&row.at)
    .execute(&mut *tx)
    .await
    .map_err(failed)?;
    Ok(())
}

async fn mark_seen(
    tx: &mut PgConnection,
    channel: &str,
    message_id: &str,
) -> Result<(), StoreError> {
    sqlx::query(
        "INSERT INTO seen_messages (channel, message_id) VALUES ($1, $2) ON CONFLICT DO NOTHING",
    )
    .bind(channel)
    .bind(message_id)
    .execute(&mut *tx)
    .await
    .map_err(failed)?;
    Ok(())
}

/// Whether the process with this token is alive (its liveness session is connected).
const ALIVE: &str = "EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = o.owner)";

#[async_trait]
impl Store for PostgresStore {
    async fn active_game(&self, channel: &str) -> Result<Option<GameRow>, StoreError> {
        let row = sqlx::query(
            "SELECT id, channel, kind, engine_version, created_at, setup_json, seed_hex,
                    commitment, revealed, active
             FROM games WHERE channel = $1 AND active",
        )
        .bind(channel)
        .fetch_optional(&self.pool)
        .await
        .map_err(failed)?;
        Ok(row.as_ref().map(game_row))
    }

    async fn game_count(&self, channel: &str) -> Result<i64, StoreError> {
        Ok(sqlx::query("SELECT COUNT(*) FROM games WHERE channel = $1")
            .bind(channel)
            .fetch_one(&self.pool)
            .await
            .map_err(failed)?
            .get(0))
    }

    async fn active_channels(&self) -> Result<Vec<String>, StoreError> {
        Ok(
            sqlx::query("SELECT channel FROM games WHERE active ORDER BY channel COLLATE \"C\"")
                .fetch_all(&self.pool)
                .await
                .map_err(failed)?
                .iter()
                .map(|r| r.get(0))
                .collect(),
        )
    }

    async fn create_game(&self, game: &GameRow, message_id: &str) -> Result<(), StoreError> {
        let mut tx = self.begin().await?;
        self.fence(&mut tx, &game.channel).await?;
        sqlx::query("UPDATE games SET active = FALSE WHERE channel = $1 AND active")
            .bind(&game.channel)
            .execute(&mut *tx)
            .await
            .map_err(failed)?;
        insert_game(
            &mut tx,
            &GameRow {
                active: true,
                ..game.clone()
            },
        )
        .await?;
        mark_seen(&mut tx, &game.channel, message_id).await?;
        tx.commit().await.map_err(failed)
    }

    async fn append(
        &self,
        game_id: &str,
        channel: &str,
        rows: &[LogRow],
        message_id: &str,
        revealed: bool,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin().await?;
        self.fence(&mut tx, channel).await?;
        for row in rows {
            insert_log(&mut tx, game_id, row).await?;
        }
        if revealed {
            sqlx::query("UPDATE games SET revealed = TRUE WHERE id = $1")
                .bind(game_id)
                .execute(&mut *tx)
                .await
                .map_err(failed)?;
        }
        mark_seen(&mut tx, channel, message_id).await?;
        tx.commit().await.map_err(failed)
    }

    async fn mark_seen(&self, channel: &str, message_id: &str) -> Result<(), StoreError> {
        let mut tx = self.begin().await?;
        self.fence(&mut tx, channel).await?;
        mark_seen(&mut tx, channel, message_id).await?;
        tx.commit().await.map_err(failed)
    }

    async fn seen(&self, channel: &str, message_id: &str) -> Result<bool, StoreError> {
        Ok(
            sqlx::query("SELECT 1 FROM seen_messages WHERE channel = $1 AND message_id = $2")
                .bind(channel)
                .bind(message_id)
                .fetch_optional(&self.pool)
                .await
                .map_err(failed)?
                .is_some(),
        )
    }

    async fn log(&self, game_id: &str) -> Result<Vec<LogRow>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, entry_json, message_id, author_id, author_name, text, at
             FROM log WHERE game_id = $1 ORDER BY seq",
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

    async fn cursor(&self, channel: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query("SELECT message_id FROM channel_cursor WHERE channel = $1")
                .bind(channel)
                .fetch_optional(&self.pool)
                .await
                .map_err(failed)?
                .map(|r| r.get(0)),
        )
    }

    async fn advance_cursor(&self, channel: &str, message_id: &str) -> Result<(), StoreError> {
        let mut tx = self.begin().await?;
        self.fence(&mut tx, channel).await?;
        sqlx::query(
            "INSERT INTO channel_cursor AS c (channel, message_id) VALUES ($1, $2)
             ON CONFLICT (channel) DO UPDATE SET message_id = excluded.message_id
             WHERE length(excluded.message_id) > length(c.message_id)
                OR (length(excluded.message_id) = length(c.message_id)
                    AND excluded.message_id > c.message_id)",
        )
        .bind(channel)
        .bind(message_id)
        .execute(&mut *tx)
        .await
        .map_err(failed)?;
        tx.commit().await.map_err(failed)
    }

    async fn status_message(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query("SELECT message_id FROM status_message WHERE game_id = $1")
                .bind(game_id)
                .fetch_optional(&self.pool)
                .await
                .map_err(failed)?
                .map(|r| r.get(0)),
        )
    }

    async fn set_status_message(&self, game_id: &str, message_id: &str) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO status_message (game_id, message_id) VALUES ($1, $2)
             ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id",
        )
        .bind(game_id)
        .bind(message_id)
        .execute(&self.pool)
        .await
        .map_err(failed)?;
        Ok(())
    }

    async fn channel_state(&self, channel: &str) -> Result<Option<String>, StoreError> {
        Ok(
            sqlx::query("SELECT state_json FROM channel_state WHERE channel = $1")
                .bind(channel)
                .fetch_optional(&self.pool)
                .await
                .map_err(failed)?
                .map(|r| r.get(0)),
        )
    }

    async fn set_channel_state(
        &self,
        channel: &str,
        state: Option<&str>,
        message_id: &str,
    ) -> Result<(), StoreError> {
        let mut tx = self.begin().await?;
        self.fence(&mut tx, channel).await?;
        match state {
            Some(state) => sqlx::query(
                "INSERT INTO channel_state (channel, state_json) VALUES ($1, $2)
                 ON CONFLICT (channel) DO UPDATE SET state_json = excluded.state_json",
            )
            .bind(channel)
            .bind(state),
            None => sqlx::query("DELETE FROM channel_state WHERE channel = $1").bind(channel),
        }
        .execute(&mut *tx)
        .await
        .map_err(failed)?;
        mark_seen(&mut tx, channel, message_id).await?;
        tx.commit().await.map_err(failed)
    }

    async fn state_channels(&self) -> Result<Vec<String>, StoreError> {
        Ok(
            sqlx::query("SELECT channel FROM channel_state ORDER BY channel")
                .fetch_all(&self.pool)
                .await
                .map_err(failed)?
                .iter()
                .map(|r| r.get(0))
                .collect(),
        )
    }

    async fn presets(&self, game_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        Ok(sqlx::query(
            "SELECT player_id, presets_json FROM presets WHERE game_id = $1 ORDER BY player_id",
        )
        .bind(game_id)
        .fetch_all(&self.pool)
        .await
        .map_err(failed)?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect())
    }

    /// Presets come by direct message, to whichever process reads it: they are not moves, so
    /// they are not fenced by the game channel's owner (who reads them at its next tick).
    async fn set_presets(
        &self,
        game_id: &str,
        player_id: &str,
        presets: Option<&str>,
    ) -> Result<(), StoreError> {
        match presets {
            Some(presets) => sqlx::query(
                "INSERT INTO presets (game_id, player_id, presets_json) VALUES ($1, $2, $3)
                 ON CONFLICT (game_id, player_id) DO UPDATE SET presets_json = excluded.presets_json",
            )
            .bind(game_id)
            .bind(player_id)
            .bind(presets),
            None => sqlx::query("DELETE FROM presets WHERE game_id = $1 AND player_id = $2")
                .bind(game_id)
                .bind(player_id),
        }
        .execute(&self.pool)
        .await
        .map_err(failed)?;
        Ok(())
    }

    async fn active_cursors(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        Ok(sqlx::query(
            "SELECT g.channel, c.message_id FROM games g
             LEFT JOIN channel_cursor c ON c.channel = g.channel
             WHERE g.active ORDER BY g.channel COLLATE \"C\"",
        )
        .fetch_all(&self.pool)
        .await
        .map_err(failed)?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect())
    }

    async fn close(&self) {
        if let Some(owner) = &self.owner {
            owner.keeper.abort();
        }
        self.pool.close().await;
    }
}

#[async_trait]
impl Owners for PostgresStore {
    async fn claim(&self, channel: &str, guild: Option<&str>) -> Result<Claim, StoreError> {
        let Some(owner) = &self.owner else {
            return Ok(Claim::Mine);
        };
        // The common case, one read: the channel is already this process's.
        let current = sqlx::query(&format!(
            "SELECT o.owner, {ALIVE}, o.guild FROM channel_owners o WHERE o.channel = $1"
        ))
        .bind(channel)
        .fetch_optional(&self.pool)
        .await
        .map_err(failed)?;
        match current {
            Some(row) if row.get::<String, _>(0) == owner.token => {
                if guild.is_some() && row.get::<Option<String>, _>(2).is_none() {
                    let _ = sqlx::query(
                        "UPDATE channel_owners SET guild = $2 WHERE channel = $1 AND guild IS NULL",
                    )
                    .bind(channel)
                    .bind(guild)
                    .execute(&self.pool)
                    .await;
                }
                return Ok(Claim::Mine);
            }
            Some(row) if row.get::<bool, _>(1) => return Ok(Claim::Other),
            _ => {}
        }
        if !self.alive() {
            // Claiming while our own liveness session is down would claim for a dead owner.
            return Ok(Claim::Other);
        }
        // Free or orphaned: take it unless another process was faster (the WHERE is checked
        // again on the row as it is when this statement gets its lock).
        let taken = sqlx::query(&format!(
            "INSERT INTO channel_owners AS o (channel, guild, owner) VALUES ($1, $2, $3)
             ON CONFLICT (channel) DO UPDATE
                 SET owner = excluded.owner, guild = COALESCE(excluded.guild, o.guild),
                     since = now()
                 WHERE o.owner = excluded.owner OR NOT {ALIVE}
             RETURNING o.owner"
        ))
        .bind(channel)
        .bind(guild)
        .bind(&owner.token)
        .fetch_optional(&self.pool)
        .await
        .map_err(failed)?;
        Ok(if taken.is_some() {
            Claim::New
        } else {
            Claim::Other
        })
    }

    async fn holds(&self, channel: &str) -> Result<bool, StoreError> {
        let Some(owner) = &self.owner else {
            return Ok(true);
        };
        Ok(
            sqlx::query("SELECT 1 FROM channel_owners WHERE channel = $1 AND owner = $2")
                .bind(channel)
                .bind(&owner.token)
                .fetch_optional(&self.pool)
                .await
                .map_err(failed)?
                .is_some(),
        )
    }

    async fn orphans(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        if self.owner.is_none() {
            return Ok(Vec::new());
        }
        Ok(sqlx::query(&format!(
            "SELECT g.channel, o.guild FROM games g
             JOIN channel_owners o ON o.channel = g.channel
             WHERE g.active AND NOT {ALIVE}
             ORDER BY g.channel"
        ))
        .fetch_all(&self.pool)
        .await
        .map_err(failed)?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect())
    }
}
