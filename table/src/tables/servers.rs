//! Which server (community) each channel belongs to, kept in the store: told by the transport
//! (Discord: the guild of a message, a command or a GUILD_CREATE), read back after a restart
//! and by every process of a shared database. `!tables` and `!standings` count a server's games
//! only.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, PoisonError};

use crate::commands::Servers;
use crate::store::{Store, StoreError};

/// Channels and their servers: those stored, and those only seen in this run.
pub struct KnownServers {
    store: Arc<dyn Store>,
    known: Mutex<Known>,
}

#[derive(Default)]
struct Known {
    /// As the store has them.
    stored: HashMap<String, String>,
    /// Seen in this run, not (yet) stored: every channel of a server's GUILD_CREATE.
    seen: HashMap<String, String>,
}

impl KnownServers {
    /// The channels `store` knows the server of (none if it cannot be read: they are learned
    /// again from the next messages).
    pub async fn load(store: Arc<dyn Store>) -> KnownServers {
        let stored = match store.channel_servers().await {
            Ok(rows) => rows.into_iter().collect(),
            Err(error) => {
                tracing::warn!(%error, "cannot read the channels' servers; learning them again");
                HashMap::new()
            }
        };
        KnownServers {
            store,
            known: Mutex::new(Known {
                stored,
                seen: HashMap::new(),
            }),
        }
    }

    fn known(&self) -> std::sync::MutexGuard<'_, Known> {
        self.known.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Notes, in memory only, that `channel` is in `server` (a server's channel list: most of
    /// its channels never have a game; [`KnownServers::keep_games`] stores those that do).
    pub fn saw(&self, channel: &str, server: &str) {
        let mut known = self.known();
        if known.stored.get(channel).map(String::as_str) != Some(server) {
            known.seen.insert(channel.to_string(), server.to_string());
        }
    }

    /// `channel` is in `server`, stored unless it is already: a message or command of the
    /// channel told it.
    pub async fn learn(&self, channel: &str, server: &str) -> Result<(), StoreError> {
        if self.known().stored.get(channel).map(String::as_str) == Some(server) {
            return Ok(());
        }
        self.store.set_channel_server(channel, server).await?;
        let mut known = self.known();
        known.seen.remove(channel);
        known.stored.insert(channel.to_string(), server.to_string());
        Ok(())
    }

    /// Stores the server of every channel that has (or had) a game and was only seen: games
    /// set up before the servers were stored, in channels quiet since. Returns how many.
    pub async fn keep_games(&self) -> Result<usize, StoreError> {
        let mut channels: Vec<String> = self
            .store
            .games()
            .await?
            .into_iter()
            .map(|g| g.channel)
            .collect();
        channels.sort();
        channels.dedup();
        let mut kept = 0;
        for channel in channels {
            let seen = self.known().seen.get(&channel).cloned();
            if let Some(server) = seen {
                self.learn(&channel, &server).await?;
                kept += 1;
            }
        }
        Ok(kept)
    }
}

impl Servers for KnownServers {
    fn server_of(&self, channel: &str) -> Option<String> {
        let known = self.known();
        known
            .stored
            .get(channel)
            .or_else(|| known.seen.get(channel))
            .cloned()
    }
}

#[cfg(all(test, feature = "testing"))]
mod tests {
    use super::*;
    use crate::store::memory::MemoryStore;

    #[tokio::test]
    async fn a_learned_server_is_stored_and_read_back_after_a_restart() {
        let store: Arc<dyn Store> = Arc::new(MemoryStore::new());
        let servers = KnownServers::load(store.clone()).await;
        assert_eq!(servers.server_of("10"), None);
        servers.learn("10", "7").await.expect("stored");
        servers.saw("11", "8");
        assert_eq!(servers.server_of("10").as_deref(), Some("7"));
        assert_eq!(servers.server_of("11").as_deref(), Some("8"));
        let again = KnownServers::load(store.clone()).await;
        assert_eq!(again.server_of("10").as_deref(), Some("7"));
        assert_eq!(again.server_of("11"), None, "only seen, never stored");
    }
}
