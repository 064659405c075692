//! All tables of one bot process: one per channel, loaded on first use. A table handles one
//! message at a time (its own lock); different tables run in parallel, and the map of tables is
//! never locked while a table loads from the database.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use tokio::sync::Mutex;

use crate::input::{Incoming, Response};
use crate::store::Store;
use crate::table::{Host, Table, TableError};

/// A channel's slot: empty until its table is loaded.
type Slot = Arc<Mutex<Option<Table>>>;

/// A loaded table, locked: one command at a time.
pub struct TableGuard(tokio::sync::OwnedMutexGuard<Option<Table>>);

impl std::ops::Deref for TableGuard {
    type Target = Table;

    fn deref(&self) -> &Table {
        // A guard is only made once its slot holds a table.
        self.0.as_ref().expect("a loaded table")
    }
}

impl std::ops::DerefMut for TableGuard {
    fn deref_mut(&mut self) -> &mut Table {
        self.0.as_mut().expect("a loaded table")
    }
}

/// The tables of a bot.
pub struct Tables {
    store: Arc<dyn Store>,
    host: Arc<Host>,
    slots: std::sync::Mutex<HashMap<String, Slot>>,
}

impl Tables {
    /// No table loaded yet.
    pub fn new(store: Arc<dyn Store>, host: Arc<Host>) -> Self {
        Tables {
            store,
            host,
            slots: std::sync::Mutex::new(HashMap::new()),
        }
    }

    /// The database.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// What the tables share.
    pub fn host(&self) -> &Arc<Host> {
        &self.host
    }

    fn slot(&self, channel: &str) -> Slot {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots
            .entry(channel.to_string())
            .or_insert_with(|| Arc::new(Mutex::new(None)))
            .clone()
    }

    /// The table of a channel, locked, loaded from the database on first use. Only this
    /// channel waits while it loads.
    pub async fn table(&self, channel: &str) -> Result<TableGuard, TableError> {
        let mut guard = self.slot(channel).lock_owned().await;
        if guard.is_none() {
            let table = Table::load(channel, self.store.clone(), self.host.clone()).await?;
            *guard = Some(table);
        }
        Ok(TableGuard(guard))
    }

    /// Drops a channel's loaded table (waiting for its current command), so that its next use
    /// loads it afresh from the database: for a channel another process wrote to meanwhile.
    pub async fn unload(&self, channel: &str) {
        let slot = self.slot(channel);
        *slot.lock().await = None;
    }

    /// Handles a message in its channel's table (`!waiting` is answered across tables).
    pub async fn handle(&self, channel: &str, message: &Incoming) -> Result<Response, TableError> {
        if let Some(response) = self.across(false, message).await {
            return Ok(response);
        }
        let mut table = self.table(channel).await?;
        Ok(table.handle(message).await)
    }

    /// Time-driven work up to `now` of every table with an active game or open signups (the
    /// only ones that can have any; loaded if need be, so that what fell due while the bot was
    /// down happens once at start): the replies to post, by channel.
    pub async fn tick(&self, now: DateTime<Utc>) -> Vec<(String, Response)> {
        let mut due = self.store.active_channels().await.unwrap_or_else(|error| {
            tracing::error!(%error, "cannot list the active games for the tick");
            Vec::new()
        });
        due.extend(self.store.state_channels().await.unwrap_or_else(|error| {
            tracing::error!(%error, "cannot list the open signups for the tick");
            Vec::new()
        }));
        due.sort();
        due.dedup();
        let mut out = Vec::new();
        for channel in due {
            let mut table = match self.table(&channel).await {
                Ok(table) => table,
                Err(error) => {
                    tracing::error!(%channel, %error, "a table does not load for the tick");
                    continue;
                }
            };
            let response = table.tick(now).await;
            if !response.replies.is_empty() {
                out.push((channel, response));
            }
        }
        out
    }

    /// Channels with an active game in the database.
    pub async fn active_channels(&self) -> Result<Vec<String>, TableError> {
        Ok(self.store.active_channels().await?)
    }
}
