//! All tables of one bot process: one per channel, loaded on first use. A table handles one
//! message at a time (its own lock); different tables run in parallel.

use std::collections::HashMap;
use std::sync::Arc;

use tokio::sync::Mutex;

use crate::report::Templates;
use crate::storage::Store;
use crate::table::{Incoming, Response, Table, TableError, TableSettings};

/// The tables of a bot.
pub struct Tables {
    store: Store,
    templates: Arc<Templates>,
    settings: Arc<TableSettings>,
    tables: Mutex<HashMap<String, Arc<Mutex<Table>>>>,
}

impl Tables {
    /// No table loaded yet.
    pub fn new(store: Store, templates: Arc<Templates>, settings: Arc<TableSettings>) -> Self {
        Tables {
            store,
            templates,
            settings,
            tables: Mutex::new(HashMap::new()),
        }
    }

    /// The database.
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// The settings shared by all tables.
    pub fn settings(&self) -> &TableSettings {
        &self.settings
    }

    /// The table of a channel, loaded from the database on first use.
    pub async fn table(&self, channel: &str) -> Result<Arc<Mutex<Table>>, TableError> {
        let mut tables = self.tables.lock().await;
        if let Some(table) = tables.get(channel) {
            return Ok(table.clone());
        }
        let table = Table::load(
            channel,
            self.store.clone(),
            self.templates.clone(),
            self.settings.clone(),
        )
        .await?;
        let table = Arc::new(Mutex::new(table));
        tables.insert(channel.to_string(), table.clone());
        Ok(table)
    }

    /// Handles a message in its channel's table.
    pub async fn handle(&self, channel: &str, message: &Incoming) -> Result<Response, TableError> {
        let table = self.table(channel).await?;
        let mut table = table.lock().await;
        Ok(table.handle(message).await)
    }

    /// Channels with an active game in the database.
    pub async fn active_channels(&self) -> Result<Vec<String>, TableError> {
        Ok(self.store.active_channels().await?)
    }
}
