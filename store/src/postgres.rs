//! Durable storage in PostgreSQL through sqlx, for several bot processes sharing one database.
//! It implements the table core's [`Store`] trait with the same rows as the SQLite store (its
//! own migrations in `store/migrations_postgres/`); every write is one transaction.
//!
//! A store opened with [`PostgresStore::open_owner`] also takes part in channel ownership
//! ([`Owners`]): each channel's table belongs to one process at a time. A process is alive
//! while its *liveness session* (a connection whose `application_name` is the process's token)
//! is connected **and** its *lease* (`process_leases`, renewed every second through that
//! session for [`LEASE`] ahead, on the database's clock) has not run out: a process that dies
//! loses its session at once; one that hangs (SIGSTOP, a stuck disk, a long pause) keeps its
//! connections open but stops renewing, and is dead when its lease runs out. A channel whose
//! owner is not alive may be claimed by another process.
//!
//! Fencing is the database's: every write of an owning process checks, in its own transaction,
//! that the channel's owner row still names it (`SELECT … FOR SHARE`), so a process that wakes
//! after losing a channel has its writes refused ([`StoreError::NotOwner`]) whatever it
//! believes, and a takeover (an `UPDATE` of that row) waits until the old owner's last write
//! has committed. A process that hangs inside a transaction holds that row lock; its sessions
//! end such a transaction after [`IDLE_IN_TRANSACTION`] (PostgreSQL's
//! `idle_in_transaction_session_timeout`, which rolls it back), so a takeover waits at most
//! that long. A hung owner thus loses its channels within [`LEASE`] + the survivors' look for
//! orphaned channels (2 s), well under 15 s.

use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

use async_trait::async_trait;
use gaugebot_table::store::StoreError;
pub use gaugebot_table::store::NOT_OWNER;
use sqlx::postgres::{PgConnectOptions, PgPool, PgPoolOptions};
use sqlx::{ConnectOptions, PgConnection, Postgres, Row, Transaction};
use tokio::sync::watch;
use tokio::task::JoinHandle;

use crate::owners::{Claim, Owners};
use crate::sql::queries::failed;
use crate::sql::{Backend, SqlStore};

/// How often the lease is renewed through the liveness session (reconnected when it broke).
const LIVENESS_PING: Duration = Duration::from_secs(1);
/// How far ahead each renewal sets the lease: a process that stops renewing is dead this long
/// after its last renewal.
pub const LEASE: Duration = Duration::from_secs(10);
/// How long an owning process's session may sit inside a transaction without a statement
/// before PostgreSQL ends it (rolling it back and releasing its locks).
pub const IDLE_IN_TRANSACTION: Duration = Duration::from_secs(5);
/// How long a query waits for a connection of the pool (sqlx retries a refused connection
/// meanwhile): a server away longer is a transient fault the caller sees (the Discord adapter
/// then leaves the channel behind and catches it up when the server is back), not a wait of
/// its own.
pub const ACQUIRE_TIMEOUT: Duration = Duration::from_secs(5);
/// The prefix of every process token (and liveness `application_name`).
const TOKEN_PREFIX: &str = "gaugebot-owner-";
/// The PostgreSQL database.
pub type PostgresStore = SqlStore<PostgresBackend>;

/// What PostgreSQL does its own way: a pool of connections, and (for a process that takes part
/// in the ownership of channels) the fencing of every write by the channel's owner.
#[derive(Debug, Clone)]
pub struct PostgresBackend {
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
    /// Set to stop renewing the lease while keeping every connection open: a hung process, as
    /// the tests make one ([`PostgresStore::stop_renewing`]).
    hung: Arc<std::sync::atomic::AtomicBool>,
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
        PostgresStore::open_with(url, false).await
    }

    /// [`open`](Self::open); an owning process's sessions end a transaction left idle for
    /// [`IDLE_IN_TRANSACTION`] (a process hung inside one must not hold its owner rows).
    async fn open_with(url: &str, owner: bool) -> Result<PostgresStore, StoreError> {
        let mut options = PgConnectOptions::from_str(url)
            .map_err(failed)?
            .application_name("gaugebot");
        if owner {
            let ms = IDLE_IN_TRANSACTION.as_millis().to_string();
            options = options.options([("idle_in_transaction_session_timeout", ms.as_str())]);
        }
        // One connection first, so that a server that refuses or does not answer is named
        // within seconds (the pool would retry in silence until its acquire timeout).
        reach(&options).await?;
        let pool = PgPoolOptions::new()
            .max_connections(8)
            .acquire_timeout(ACQUIRE_TIMEOUT)
            .connect_with(options)
            .await
            .map_err(failed)?;
        sqlx::migrate!("./migrations_postgres")
            .run(&pool)
            .await
            .map_err(|e| failed(sqlx::Error::Migrate(Box::new(e))))?;
        Ok(SqlStore {
            backend: PostgresBackend { pool, owner: None },
        })
    }

    /// Like [`open`](Self::open), and joins the ownership of channels with a fresh process
    /// token: its liveness session is connected before this returns and kept connected (a
    /// broken one is reconnected every second) until the store is dropped or closed.
    pub async fn open_owner(url: &str) -> Result<PostgresStore, StoreError> {
        let mut store = PostgresStore::open_with(url, true).await?;
        let token = format!("{TOKEN_PREFIX}{:016x}", rand_token());
        let options = PgConnectOptions::from_str(url)
            .map_err(failed)?
            .application_name(&token);
        // The first connection is made, and the first lease taken, here: a bad URL fails now,
        // and the process is alive before it claims anything.
        let mut first = options.connect().await.map_err(failed)?;
        renew(&mut first, &token).await.map_err(failed)?;
        // The leases of processes gone for a day are of no use to anyone.
        sqlx::query("DELETE FROM process_leases WHERE expires < now() - interval '1 day'")
            .execute(&mut first)
            .await
            .map_err(failed)?;
        let (tx, connected) = watch::channel(true);
        let hung = Arc::new(std::sync::atomic::AtomicBool::new(false));
        let keeper = tokio::spawn(keep_alive(options, first, token.clone(), tx, hung.clone()));
        tracing::info!(
            token,
            "this process takes part in the ownership of channels"
        );
        store.backend.owner = Some(Arc::new(Liveness {
            token,
            keeper,
            connected,
            hung,
        }));
        Ok(store)
    }

    /// Stops renewing this process's lease while every connection stays open, as a hung
    /// process would (for tests of failover): within [`LEASE`] other processes take its
    /// channels, and its writes to them are refused.
    pub fn stop_renewing(&self) {
        if let Some(owner) = &self.backend.owner {
            owner.hung.store(true, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// This process's token, when it takes part in channel ownership.
    pub fn token(&self) -> Option<&str> {
        self.backend.owner.as_ref().map(|o| o.token.as_str())
    }

    /// Whether the liveness session is connected now (and the lease being renewed).
    pub fn alive(&self) -> bool {
        self.backend.owner.as_ref().is_some_and(|o| {
            *o.connected.borrow() && !o.hung.load(std::sync::atomic::Ordering::SeqCst)
        })
    }

    /// Whether the process with this token is alive: its liveness session is connected and
    /// its lease has not run out.
    pub async fn process_alive(&self, token: &str) -> Result<bool, StoreError> {
        Ok(sqlx::query(&format!(
            "SELECT 1 FROM (SELECT $1::TEXT AS owner) o WHERE {ALIVE}"
        ))
        .bind(token)
        .fetch_optional(&self.backend.pool)
        .await
        .map_err(failed)?
        .is_some())
    }

    /// Every channel's owner token, by channel.
    pub async fn channel_owners(&self) -> Result<Vec<(String, String)>, StoreError> {
        Ok(
            sqlx::query("SELECT channel, owner FROM channel_owners ORDER BY channel COLLATE \"C\"")
                .fetch_all(&self.backend.pool)
                .await
                .map_err(failed)?
                .iter()
                .map(|r| (r.get(0), r.get(1)))
                .collect(),
        )
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

/// How long the first connection may take before the server counts as unreachable.
pub const CONNECT_TIMEOUT: Duration = Duration::from_secs(5);

/// The PostgreSQL server could not be reached at start.
#[derive(Debug, thiserror::Error)]
#[error("cannot connect to PostgreSQL at {address}: {reason}")]
pub struct Unreachable {
    /// `host:port` or the unix socket.
    pub address: String,
    /// The refusal, or that it did not answer within [`CONNECT_TIMEOUT`].
    pub reason: String,
}

/// Connects once (within [`CONNECT_TIMEOUT`]) and closes the connection again.
async fn reach(options: &PgConnectOptions) -> Result<(), StoreError> {
    let address = address(options);
    let unreachable = |reason: String| {
        StoreError::Unavailable(Arc::new(Unreachable {
            address: address.clone(),
            reason,
        }))
    };
    match tokio::time::timeout(CONNECT_TIMEOUT, options.connect()).await {
        Ok(Ok(connection)) => {
            let _ = sqlx::Connection::close(connection).await;
            Ok(())
        }
        Ok(Err(error)) => Err(unreachable(error.to_string())),
        Err(_) => Err(unreachable(format!(
            "no answer within {} s",
            CONNECT_TIMEOUT.as_secs()
        ))),
    }
}

/// Renews a process's lease for [`LEASE`] from now (the database's clock).
async fn renew(conn: &mut PgConnection, token: &str) -> Result<(), sqlx::Error> {
    sqlx::query(
        "INSERT INTO process_leases (token, expires)
         VALUES ($1, now() + make_interval(secs => $2))
         ON CONFLICT (token) DO UPDATE SET expires = excluded.expires",
    )
    .bind(token)
    .bind(LEASE.as_secs_f64())
    .execute(conn)
    .await
    .map(|_| ())
}

/// Keeps the liveness session connected and the lease renewed: renews it every second and
/// reconnects a broken session, every second until the server answers. An outage is logged
/// once when the session breaks (with the address and the next try) and once when it is back.
/// While `hung`, renews nothing (the session stays open).
async fn keep_alive(
    options: PgConnectOptions,
    first: PgConnection,
    token: String,
    connected: watch::Sender<bool>,
    hung: Arc<std::sync::atomic::AtomicBool>,
) {
    let mut conn = Some(first);
    let mut broken_since: Option<std::time::Instant> = None;
    loop {
        tokio::time::sleep(LIVENESS_PING).await;
        if hung.load(std::sync::atomic::Ordering::SeqCst) {
            continue;
        }
        let ok = match conn.as_mut() {
            Some(c) => renew(c, &token).await.is_ok(),
            None => false,
        };
        if ok {
            continue;
        }
        if broken_since.is_none() {
            broken_since = Some(std::time::Instant::now());
            tracing::warn!(
                address = %address(&options),
                next_try_in_s = LIVENESS_PING.as_secs_f64(),
                "the database is unavailable: the liveness session to PostgreSQL broke; reconnecting every second"
            );
        }
        conn = match options.connect().await {
            Ok(mut c) => renew(&mut c, &token).await.is_ok().then_some(c),
            Err(_) => None,
        };
        if conn.is_some() {
            if let Some(since) = broken_since.take() {
                tracing::info!(
                    address = %address(&options),
                    after_s = since.elapsed().as_secs_f64(),
                    "the liveness session to PostgreSQL is back"
                );
            }
        }
        connected.send_replace(conn.is_some());
    }
}

/// Whether the process with this token is alive: its liveness session is connected and its
/// lease has not run out; or the server started less than [`LEASE`] ago and the process last
/// renewed its lease before that (every session ended with the server: its own is being
/// reconnected, and its channels are not anyone's to take meanwhile).
const ALIVE: &str = "EXISTS (SELECT 1 FROM process_leases l WHERE l.token = o.owner AND (
     (l.expires > now()
      AND EXISTS (SELECT 1 FROM pg_stat_activity a WHERE a.application_name = o.owner))
     OR (pg_postmaster_start_time() > now() - interval '10 seconds'
         AND l.expires - interval '10 seconds' < pg_postmaster_start_time())))";

/// Where the store connects, as logs show it: the unix socket's folder or `host:port`.
fn address(options: &PgConnectOptions) -> String {
    match options.get_socket() {
        Some(socket) => socket.display().to_string(),
        None => format!("{}:{}", options.get_host(), options.get_port()),
    }
}

/// This process's own liveness session is down: nothing may be claimed until it is back.
#[derive(Debug, thiserror::Error)]
#[error("this process's liveness session to PostgreSQL is being reconnected")]
struct LivenessDown;

#[async_trait]
impl Backend for PostgresBackend {
    type Db = Postgres;
    type Tx = Transaction<'static, Postgres>;

    fn pool(&self) -> &PgPool {
        &self.pool
    }

    /// Begins a transaction; for a move in `channel` by a process that takes part in
    /// ownership, fails unless the channel's owner row names this process (the row stays
    /// locked against a takeover until the transaction ends).
    async fn begin(&self, channel: Option<&str>) -> Result<Self::Tx, StoreError> {
        let mut tx = self.pool.begin().await.map_err(failed)?;
        if let (Some(owner), Some(channel)) = (&self.owner, channel) {
            fence(&mut tx, &owner.token, channel).await?;
        }
        Ok(tx)
    }

    /// Commits if `result` is Ok; a transaction dropped uncommitted is rolled back.
    async fn finish(&self, tx: Self::Tx, result: Result<(), StoreError>) -> Result<(), StoreError> {
        result?;
        tx.commit().await.map_err(failed)
    }

    async fn close(&self) {
        if let Some(owner) = &self.owner {
            owner.keeper.abort();
        }
        self.pool.close().await;
    }
}

/// Fails unless the channel's owner row names this process's `token`, locking the row.
async fn fence(tx: &mut PgConnection, token: &str, channel: &str) -> Result<(), StoreError> {
    let row = sqlx::query("SELECT owner FROM channel_owners WHERE channel = $1 FOR SHARE")
        .bind(channel)
        .fetch_optional(&mut *tx)
        .await
        .map_err(failed)?;
    match row {
        Some(row) if row.get::<String, _>(0) == token => Ok(()),
        _ => Err(StoreError::NotOwner {
            channel: channel.to_string(),
        }),
    }
}

#[async_trait]
impl Owners for PostgresStore {
    async fn claim(&self, channel: &str, guild: Option<&str>) -> Result<Claim, StoreError> {
        let Some(owner) = &self.backend.owner else {
            return Ok(Claim::Mine);
        };
        // The common case, one read: the channel is already this process's.
        let current = sqlx::query(&format!(
            "SELECT o.owner, {ALIVE}, o.guild FROM channel_owners o WHERE o.channel = $1"
        ))
        .bind(channel)
        .fetch_optional(&self.backend.pool)
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
                    .execute(&self.backend.pool)
                    .await;
                }
                return Ok(Claim::Mine);
            }
            Some(row) if row.get::<bool, _>(1) => return Ok(Claim::Other),
            _ => {}
        }
        if !self.alive() {
            // Claiming while our own liveness session is down would claim for a dead owner:
            // who owns the channel cannot be told until it is back.
            return Err(StoreError::Unavailable(Arc::new(LivenessDown)));
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
        .fetch_optional(&self.backend.pool)
        .await
        .map_err(failed)?;
        Ok(if taken.is_some() {
            Claim::New
        } else {
            Claim::Other
        })
    }

    async fn holds(&self, channel: &str) -> Result<bool, StoreError> {
        let Some(owner) = &self.backend.owner else {
            return Ok(true);
        };
        Ok(
            sqlx::query("SELECT 1 FROM channel_owners WHERE channel = $1 AND owner = $2")
                .bind(channel)
                .bind(&owner.token)
                .fetch_optional(&self.backend.pool)
                .await
                .map_err(failed)?
                .is_some(),
        )
    }

    async fn orphans(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        let Some(owner) = &self.backend.owner else {
            return Ok(Vec::new());
        };
        // Never this process's own channels: while its liveness session is being reconnected
        // they look orphaned, and they are its own to catch up anyway.
        Ok(sqlx::query(&format!(
            "SELECT g.channel, o.guild FROM games g
             JOIN channel_owners o ON o.channel = g.channel
             WHERE g.active AND o.owner <> $1 AND NOT {ALIVE}
             ORDER BY g.channel"
        ))
        .bind(&owner.token)
        .fetch_all(&self.backend.pool)
        .await
        .map_err(failed)?
        .iter()
        .map(|r| (r.get(0), r.get(1)))
        .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_server_that_refuses_is_named_with_its_refusal() {
        let error = PostgresStore::open("postgres://gaugebot:secret@127.0.0.1:1/gaugebot")
            .await
            .expect_err("refused");
        let shown = error.to_string();
        assert!(
            shown.contains("cannot connect to PostgreSQL at 127.0.0.1:1: ")
                && shown.to_lowercase().contains("refused"),
            "{shown}"
        );
        assert!(!shown.contains("secret"), "{shown}");
    }
}
