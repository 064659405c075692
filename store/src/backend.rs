//! Which database a bot uses, chosen by the `database` setting (or `--db`): a SQLite file (the
//! default: `gaugebot.db`, `sqlite:PATH`, `:memory:`) or a PostgreSQL server
//! (`postgres://…`, `postgresql://…`), opened with its part in the ownership of channels
//! ([`Owners`]) between processes that share a PostgreSQL database.

use std::sync::Arc;

use gaugebot_table::store::{Store, StoreError};

pub use crate::owners::{Claim, Owners, SoleOwner};
use crate::postgres::PostgresStore;
use crate::sqlite::SqliteStore;

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
