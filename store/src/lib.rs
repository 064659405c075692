//! gaugebot's databases: the table core's [`Store`](gaugebot_table::store::Store) over SQL,
//! written once ([`sql::SqlStore`] over the query layer [`sql::queries`]) for two backends:
//! SQLite ([`sqlite::SqliteStore`], the default; its write connection in [`sqlite_writer`],
//! its migrations in `store/migrations/`) and PostgreSQL ([`postgres::PostgresStore`], for
//! processes sharing a database, with the [`owners`] of channels; its migrations in
//! `store/migrations_postgres/`). [`backend`] chooses one from the `database` setting.
//!
//! The table core knows no SQL; the `gaugebot` binary opens a store here and hands it to the
//! core as an `Arc<dyn Store>`.

pub mod backend;
pub mod faults;
pub mod owners;
pub mod postgres;
pub mod sql;
pub mod sqlite;
pub mod sqlite_writer;

pub use postgres::PostgresStore;
pub use sqlite::SqliteStore;
