//! SQLite's write transactions on the calling thread: a connection of their own (rusqlite, on
//! the same libsqlite3 as sqlx), so that a command's transaction is one call with one answer,
//! without the hop to sqlx's SQLite thread and its answer per statement (BENCHMARKS.md, the
//! Discord round trip). On a multi-threaded runtime the call runs in `block_in_place`: the
//! runtime's other tasks move to another thread while this one waits for the fsync.
//!
//! Reads stay on sqlx's connection; in WAL mode they see every committed write.

use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use gaugebot_table::store::StoreError;
use rusqlite::{ffi, Connection, OpenFlags, TransactionBehavior};

use crate::sql::queries::{sqlite_failed, Statement, Value};

/// The write connection of a SQLite file.
#[derive(Debug, Clone)]
pub struct Writer {
    path: Arc<std::path::PathBuf>,
    conn: Arc<Mutex<Option<Connection>>>,
}

impl Writer {
    /// Opens the write connection of an existing database file (sqlx created and migrated it).
    pub fn open(path: &Path) -> Result<Writer, StoreError> {
        let conn = connect(path)?;
        Ok(Writer {
            path: Arc::new(path.to_path_buf()),
            conn: Arc::new(Mutex::new(Some(conn))),
        })
    }

    /// Runs `statements` as one transaction (`BEGIN IMMEDIATE` … `COMMIT`), here and now.
    pub fn run(&self, statements: &[Statement]) -> Result<(), StoreError> {
        let work = || {
            let mut guard = self.conn.lock().unwrap_or_else(|e| e.into_inner());
            if guard.is_none() {
                *guard = Some(connect(&self.path)?);
            }
            let Some(conn) = guard.as_mut() else {
                return Err(StoreError::failed(Closed));
            };
            let result = transaction(conn, statements);
            // No failure may leave a transaction open: roll back what is left; a connection
            // still inside one is dropped (the next write opens a fresh one).
            if !conn.is_autocommit() {
                let _ = conn.execute_batch("ROLLBACK");
                if !conn.is_autocommit() {
                    *guard = None;
                }
            }
            result
        };
        match tokio::runtime::Handle::try_current().map(|h| h.runtime_flavor()) {
            Ok(tokio::runtime::RuntimeFlavor::MultiThread) => tokio::task::block_in_place(work),
            _ => work(),
        }
    }
}

impl Writer {
    /// Runs `f` on the write connection, if it is open (tests look at the connection itself).
    #[cfg(test)]
    pub(crate) fn with_connection<R>(&self, f: impl FnOnce(&Connection) -> R) -> Option<R> {
        let guard = self.conn.lock().unwrap_or_else(|e| e.into_inner());
        guard.as_ref().map(f)
    }

    /// Closes the write connection (a later write opens it again).
    pub fn close(&self) {
        *self.conn.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

/// The write connection was dropped and could not be opened again.
#[derive(Debug, thiserror::Error)]
#[error("the database's write connection is closed")]
struct Closed;

fn connect(path: &Path) -> Result<Connection, StoreError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(path, flags).map_err(sqlite_error)?;
    conn.busy_timeout(Duration::from_secs(5))
        .map_err(sqlite_error)?;
    conn.execute_batch("PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON;")
        .map_err(sqlite_error)?;
    Ok(conn)
}

fn transaction(conn: &mut Connection, statements: &[Statement]) -> Result<(), StoreError> {
    let tx = conn
        .transaction_with_behavior(TransactionBehavior::Immediate)
        .map_err(sqlite_error)?;
    for statement in statements {
        execute(&tx, statement)?;
    }
    tx.commit().map_err(sqlite_error)
}

fn execute(conn: &Connection, statement: &Statement) -> Result<(), StoreError> {
    let mut prepared = conn.prepare_cached(statement.sql()).map_err(sqlite_error)?;
    for (i, value) in statement.values().iter().enumerate() {
        let name = format!("${}", i + 1);
        let index = prepared
            .parameter_index(&name)
            .map_err(sqlite_error)?
            .ok_or_else(|| StoreError::failed(rusqlite::Error::InvalidParameterName(name)))?;
        let bound = match value {
            Value::Text(text) => prepared.raw_bind_parameter(index, text),
            Value::OptionalText(text) => prepared.raw_bind_parameter(index, text),
            Value::Int(n) => prepared.raw_bind_parameter(index, n),
            Value::Bool(b) => prepared.raw_bind_parameter(index, b),
        };
        bound.map_err(sqlite_error)?;
    }
    prepared.raw_execute().map(|_| ()).map_err(|error| {
        match (statement.on_unique_violation(), unique_violation(&error)) {
            (Some(refusal), true) => refusal.clone(),
            _ => sqlite_error(error),
        }
    })
}

fn unique_violation(error: &rusqlite::Error) -> bool {
    matches!(
        error,
        rusqlite::Error::SqliteFailure(e, _)
            if e.extended_code == ffi::SQLITE_CONSTRAINT_UNIQUE
                || e.extended_code == ffi::SQLITE_CONSTRAINT_PRIMARYKEY
    )
}

/// A SQLite error as the table core sees it ([`sqlite_failed`]: the same kinds as sqlx's).
fn sqlite_error(error: rusqlite::Error) -> StoreError {
    match &error {
        rusqlite::Error::SqliteFailure(e, _) => sqlite_failed(e.extended_code, error),
        _ => StoreError::failed(error),
    }
}
