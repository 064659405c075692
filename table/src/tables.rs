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

    /// Handles a message in its channel's table.
    pub async fn handle(&self, channel: &str, message: &Incoming) -> Result<Response, TableError> {
        let mut table = self.table(channel).await?;
        Ok(table.handle(message).await)
    }

    /// Time-driven work of every loaded table up to `now`: the replies to post, by channel.
    pub async fn tick(&self, now: DateTime<Utc>) -> Vec<(String, Response)> {
        let slots: Vec<(String, Slot)> = {
            let slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
            slots.iter().map(|(k, v)| (k.clone(), v.clone())).collect()
        };
        let mut out = Vec::new();
        for (channel, slot) in slots {
            let mut guard = slot.lock().await;
            if let Some(table) = guard.as_mut() {
                let response = table.tick(now).await;
                if !response.replies.is_empty() {
                    out.push((channel, response));
                }
            }
        }
        out
    }

    /// Channels with an active game in the database.
    pub async fn active_channels(&self) -> Result<Vec<String>, TableError> {
        Ok(self.store.active_channels().await?)
    }
}
