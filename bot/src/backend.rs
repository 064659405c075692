//! Which database a bot uses, chosen by the `database` setting (or `--db`): a SQLite file (the
//! default: `gaugebot.db`, `sqlite:PATH`, `:memory:`) or a PostgreSQL server
//! (`postgres://…`, `postgresql://…`), and the ownership of channels between processes that
//! share a PostgreSQL database.

use std::sync::Arc;

use async_trait::async_trait;
use gaugebot_table::store::{Store, StoreError};

use crate::postgres::PostgresStore;
use crate::storage::SqliteStore;

/// A database named by the configuration.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Database {
    /// A SQLite file (or `:memory:`).
    Sqlite(String),
    /// A PostgreSQL connection URL.
    Postgres(String),
}

impl Database {
    /// Reads a database setting: `postgres://…` or `postgresql://…` is PostgreSQL;
    /// `sqlite:PATH` (or `sqlite://PATH`) and anything else is a SQLite path.
    pub fn parse(spec: &str) -> Database {
        let spec = spec.trim();
        if spec.starts_with("postgres://") || spec.starts_with("postgresql://") {
            return Database::Postgres(spec.to_string());
        }
        let path = spec
            .strip_prefix("sqlite://")
            .or_else(|| spec.strip_prefix("sqlite:"))
            .unwrap_or(spec);
        Database::Sqlite(path.to_string())
    }

    /// The setting as shown to people: a PostgreSQL URL without its password.
    pub fn display(&self) -> String {
        match self {
            Database::Sqlite(path) => path.clone(),
            Database::Postgres(url) => redact(url),
        }
    }
}

/// A PostgreSQL URL with any password replaced by `***`.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_string();
    };
    let (authority, tail) = match rest.find('/') {
        Some(i) => rest.split_at(i),
        None => (rest, ""),
    };
    match authority.rsplit_once('@') {
        Some((userinfo, host)) => match userinfo.split_once(':') {
            Some((user, _password)) => format!("{scheme}://{user}:***@{host}{tail}"),
            None => url.to_string(),
        },
        None => url.to_string(),
    }
}

/// Opens (creating and migrating) a database for the console and tools.
pub async fn open(spec: &str) -> Result<Arc<dyn Store>, StoreError> {
    Ok(match Database::parse(spec) {
        Database::Sqlite(path) => SqliteStore::open(&path).await?.shared(),
        Database::Postgres(url) => PostgresStore::open(&url).await?.shared(),
    })
}

/// Opens a database for a bot process: a PostgreSQL store takes part in the ownership of
/// channels (other processes may share it); a SQLite file has one process, which owns
/// everything.
pub async fn open_for_bot(spec: &str) -> Result<(Arc<dyn Store>, Arc<dyn Owners>), StoreError> {
    Ok(match Database::parse(spec) {
        Database::Sqlite(path) => (
            SqliteStore::open(&path).await?.shared(),
            Arc::new(SoleOwner),
        ),
        Database::Postgres(url) => {
            let store = PostgresStore::open_owner(&url).await?;
            (store.shared(), Arc::new(store))
        }
    })
}

/// The outcome of claiming a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The channel was already this process's.
    Mine,
    /// The channel is this process's from now on: it was free, or its owner is gone. What the
    /// old owner stored is all committed; the table must be loaded afresh and the channel
    /// caught up from its stored cursor.
    New,
    /// Another live process owns the channel: leave its messages alone.
    Other,
}

/// The ownership of channels' tables among bot processes sharing a database: one process at a
/// time applies a channel's messages.
#[async_trait]
pub trait Owners: Send + Sync {
    /// Claims a channel (of `guild`, when known) for this process.
    async fn claim(&self, channel: &str, guild: Option<&str>) -> Result<Claim, StoreError>;

    /// Whether the channel is still this process's (asked after a refused write).
    async fn holds(&self, channel: &str) -> Result<bool, StoreError>;

    /// Channels with an active game whose owner is gone, with their guild when known: what a
    /// surviving process takes over.
    async fn orphans(&self) -> Result<Vec<(String, Option<String>)>, StoreError>;

    /// Whether other processes may share the database (ownership is checked at all).
    fn shared(&self) -> bool {
        true
    }
}

/// The only process of a SQLite database: owns every channel.
#[derive(Debug, Clone, Copy)]
pub struct SoleOwner;

#[async_trait]
impl Owners for SoleOwner {
    async fn claim(&self, _channel: &str, _guild: Option<&str>) -> Result<Claim, StoreError> {
        Ok(Claim::Mine)
    }

    async fn holds(&self, _channel: &str) -> Result<bool, StoreError> {
        Ok(true)
    }

    async fn orphans(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        Ok(Vec::new())
    }

    fn shared(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_name_their_database() {
        assert_eq!(
            Database::parse("gaugebot.db"),
            Database::Sqlite("gaugebot.db".into())
        );
        assert_eq!(
            Database::parse("sqlite:/var/lib/g.db"),
            Database::Sqlite("/var/lib/g.db".into())
        );
        assert_eq!(
            Database::parse("sqlite:///var/lib/g.db"),
            Database::Sqlite("/var/lib/g.db".into())
        );
        assert_eq!(
            Database::parse(":memory:"),
            Database::Sqlite(":memory:".into())
        );
        assert_eq!(
            Database::parse("postgres://bot@db/gaugebot"),
            Database::Postgres("postgres://bot@db/gaugebot".into())
        );
        assert_eq!(
            Database::parse("postgresql://bot@db/gaugebot"),
            Database::Postgres("postgresql://bot@db/gaugebot".into())
        );
    }

    #[test]
    fn passwords_are_not_shown() {
        assert_eq!(
            redact("postgres://bot:hunter2@db:5432/gaugebot"),
            "postgres://bot:***@db:5432/gaugebot"
        );
        assert_eq!(redact("postgres://bot@db/g"), "postgres://bot@db/g");
        assert_eq!(redact("postgres:///g?host=/tmp"), "postgres:///g?host=/tmp");
    }
}
