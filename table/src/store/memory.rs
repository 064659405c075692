//! [`MemoryStore`]: the whole [`Store`] contract in memory, for tests (the crate feature
//! `testing`). It keeps what the SQL stores keep, with their constraints: a game id is unique
//! and a log position too, a log row, presets and a status message need their game, an outbox
//! key is unique in its channel. Every write batch is all or nothing (applied to a copy that
//! replaces the data only when every write of it succeeded), and a [`Write::Read`] of a message
//! read before refuses the whole batch with [`StoreError::AlreadyRead`]. One process writes it:
//! [`Store::sole_writer`] is true.
//!
//! The store conformance suite (`bot/tests/store_conformance.rs`) runs against it as against
//! SQLite and PostgreSQL, so it cannot drift from them.

use std::collections::{BTreeMap, BTreeSet};
use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use async_trait::async_trait;

use super::{GameRow, LogRow, Outgoing, Store, StoreError, Write};

/// A constraint of the stored rows that a write would break (the cause of a
/// [`StoreError::Conflict`]).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
struct Violation(String);

fn conflict(what: String) -> StoreError {
    StoreError::Conflict(Arc::new(Violation(what)))
}

/// Everything stored, as the SQL stores' tables keep it.
#[derive(Debug, Clone, Default)]
struct Data {
    /// The games, in the order they were stored.
    games: Vec<GameRow>,
    /// Each game's log, by position.
    logs: BTreeMap<String, BTreeMap<i64, LogRow>>,
    /// The messages read: (channel, message id).
    seen: BTreeSet<(String, String)>,
    /// Each channel's last message processed.
    cursors: BTreeMap<String, String>,
    /// Each channel's state outside any game.
    states: BTreeMap<String, String>,
    /// Presets by (game id, player id).
    presets: BTreeMap<(String, String), String>,
    /// Each game's status message.
    status: BTreeMap<String, String>,
    /// The outbox, in the order it was stored.
    outbox: Vec<Outgoing>,
    /// Each player's choice of turn pings by direct message.
    notify: BTreeMap<String, String>,
    /// Each channel's server.
    servers: BTreeMap<String, String>,
    /// Each server's standings page token.
    standings_pages: BTreeMap<String, String>,
}

impl Data {
    fn game_exists(&self, game_id: &str) -> bool {
        self.games.iter().any(|g| g.id == game_id)
    }

    fn needs_game(&self, game_id: &str, table: &str) -> Result<(), StoreError> {
        match self.game_exists(game_id) {
            true => Ok(()),
            false => Err(conflict(format!(
                "FOREIGN KEY constraint failed: {table}.game_id {game_id:?} names no game"
            ))),
        }
    }

    /// Marks a message read; a message read before stays read.
    fn mark(&mut self, channel: &str, message_id: &str) {
        self.seen
            .insert((channel.to_string(), message_id.to_string()));
    }

    /// Applies one write, as its SQL statements would.
    fn apply(&mut self, write: &Write) -> Result<(), StoreError> {
        match write {
            Write::Read {
                channel,
                message_id,
            } => {
                let first = self.seen.insert((channel.clone(), message_id.clone()));
                if !first {
                    return Err(StoreError::AlreadyRead {
                        channel: channel.clone(),
                        message_id: message_id.clone(),
                    });
                }
            }
            Write::CreateGame { game, message_id } => {
                if self.game_exists(&game.id) {
                    return Err(conflict(format!(
                        "UNIQUE constraint failed: games.id {:?}",
                        game.id
                    )));
                }
                for old in self
                    .games
                    .iter_mut()
                    .filter(|g| g.channel == game.channel && g.active)
                {
                    old.active = false;
                }
                self.games.push(GameRow {
                    active: true,
                    ..game.clone()
                });
                self.mark(&game.channel, message_id);
            }
            Write::Append {
                game_id,
                channel,
                rows,
                message_id,
                revealed,
            } => {
                for row in rows {
                    self.needs_game(game_id, "log")?;
                    let log = self.logs.entry(game_id.clone()).or_default();
                    if log.contains_key(&row.seq) {
                        return Err(conflict(format!(
                            "UNIQUE constraint failed: log.game_id, log.seq ({game_id:?}, {})",
                            row.seq
                        )));
                    }
                    log.insert(row.seq, row.clone());
                }
                if *revealed {
                    for game in self.games.iter_mut().filter(|g| &g.id == game_id) {
                        game.revealed = true;
                    }
                }
                self.mark(channel, message_id);
            }
            Write::MarkSeen {
                channel,
                message_id,
            } => self.mark(channel, message_id),
            Write::ChannelState {
                channel,
                state,
                message_id,
            } => {
                match state {
                    Some(state) => self.states.insert(channel.clone(), state.clone()),
                    None => self.states.remove(channel),
                };
                self.mark(channel, message_id);
            }
            Write::Presets {
                game_id,
                player_id,
                presets,
            } => {
                let key = (game_id.clone(), player_id.clone());
                match presets {
                    Some(presets) => {
                        self.needs_game(game_id, "presets")?;
                        self.presets.insert(key, presets.clone());
                    }
                    None => {
                        self.presets.remove(&key);
                    }
                }
            }
            Write::Outbox(item) => {
                let taken = self
                    .outbox
                    .iter()
                    .any(|o| o.channel == item.channel && o.key == item.key);
                if taken {
                    return Err(conflict(format!(
                        "UNIQUE constraint failed: outbox.channel, outbox.key ({:?}, {:?})",
                        item.channel, item.key
                    )));
                }
                self.outbox.push(item.clone());
            }
        }
        Ok(())
    }
}

/// Whether the snowflake `new` comes after `old` (compared as numbers: a longer one is
/// larger), as the SQL stores' cursor update compares them.
fn later(new: &str, old: &str) -> bool {
    new.len() > old.len() || (new.len() == old.len() && new > old)
}

/// The [`Store`] in memory, for tests: faithful to the SQL stores (the same constraints, every
/// batch all or nothing), and it keeps every batch it stored ([`MemoryStore::batches`]) so a
/// test can see what a table wrote.
#[derive(Debug, Default)]
pub struct MemoryStore {
    data: Mutex<Data>,
    batches: Mutex<Vec<Vec<Write>>>,
}

impl MemoryStore {
    /// An empty store.
    pub fn new() -> MemoryStore {
        MemoryStore::default()
    }

    /// The store as the table core takes it.
    pub fn shared(self) -> Arc<MemoryStore> {
        Arc::new(self)
    }

    fn data(&self) -> MutexGuard<'_, Data> {
        self.data.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Every write batch stored ([`Store::write`]), in order; refused batches are not kept.
    pub fn batches(&self) -> Vec<Vec<Write>> {
        self.batches
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone()
    }

    /// Changes a stored game's log behind the table's back (what a tampered database, or an
    /// engine that no longer reads an old entry, amounts to).
    pub fn edit_log(&self, game_id: &str, edit: impl FnOnce(&mut Vec<LogRow>)) {
        let mut data = self.data();
        let mut rows: Vec<LogRow> = data
            .logs
            .remove(game_id)
            .map(|log| log.into_values().collect())
            .unwrap_or_default();
        edit(&mut rows);
        if !rows.is_empty() {
            let log = rows.into_iter().map(|row| (row.seq, row)).collect();
            data.logs.insert(game_id.to_string(), log);
        }
    }
}

#[async_trait]
impl Store for MemoryStore {
    async fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        let mut data = self.data();
        let mut draft = data.clone();
        for write in writes {
            draft.apply(write)?;
        }
        *data = draft;
        self.batches
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .push(writes.to_vec());
        Ok(())
    }

    async fn pending(&self, channel: Option<&str>) -> Result<Vec<Outgoing>, StoreError> {
        Ok(self
            .data()
            .outbox
            .iter()
            .filter(|o| channel.is_none_or(|c| c == o.channel))
            .cloned()
            .collect())
    }

    async fn delivered(&self, channel: &str, key: &str) -> Result<(), StoreError> {
        self.data()
            .outbox
            .retain(|o| !(o.channel == channel && o.key == key));
        Ok(())
    }

    async fn active_game(&self, channel: &str) -> Result<Option<GameRow>, StoreError> {
        Ok(self
            .data()
            .games
            .iter()
            .find(|g| g.channel == channel && g.active)
            .cloned())
    }

    async fn game_count(&self, channel: &str) -> Result<i64, StoreError> {
        let count = self
            .data()
            .games
            .iter()
            .filter(|g| g.channel == channel)
            .count();
        Ok(i64::try_from(count).unwrap_or(i64::MAX))
    }

    async fn next_game_id(&self, channel: &str) -> Result<String, StoreError> {
        let mut n = self.game_count(channel).await? + 1;
        let data = self.data();
        loop {
            let id = format!("{channel}-{n}");
            if !data.game_exists(&id) {
                return Ok(id);
            }
            n += 1;
        }
    }

    async fn active_channels(&self) -> Result<Vec<String>, StoreError> {
        let mut channels: Vec<String> = self
            .data()
            .games
            .iter()
            .filter(|g| g.active)
            .map(|g| g.channel.clone())
            .collect();
        channels.sort();
        Ok(channels)
    }

    async fn seen(&self, channel: &str, message_id: &str) -> Result<bool, StoreError> {
        Ok(self
            .data()
            .seen
            .contains(&(channel.to_string(), message_id.to_string())))
    }

    async fn log(&self, game_id: &str) -> Result<Vec<LogRow>, StoreError> {
        Ok(self
            .data()
            .logs
            .get(game_id)
            .map(|log| log.values().cloned().collect())
            .unwrap_or_default())
    }

    async fn cursor(&self, channel: &str) -> Result<Option<String>, StoreError> {
        Ok(self.data().cursors.get(channel).cloned())
    }

    async fn advance_cursor(&self, channel: &str, message_id: &str) -> Result<(), StoreError> {
        let mut data = self.data();
        let forward = data
            .cursors
            .get(channel)
            .is_none_or(|old| later(message_id, old));
        if forward {
            data.cursors
                .insert(channel.to_string(), message_id.to_string());
        }
        Ok(())
    }

    async fn status_message(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        Ok(self.data().status.get(game_id).cloned())
    }

    async fn set_status_message(&self, game_id: &str, message_id: &str) -> Result<(), StoreError> {
        let mut data = self.data();
        data.needs_game(game_id, "status_message")?;
        data.status
            .insert(game_id.to_string(), message_id.to_string());
        Ok(())
    }

    async fn channel_state(&self, channel: &str) -> Result<Option<String>, StoreError> {
        Ok(self.data().states.get(channel).cloned())
    }

    async fn notify_mode(&self, player_id: &str) -> Result<Option<String>, StoreError> {
        Ok(self.data().notify.get(player_id).cloned())
    }

    async fn set_notify_mode(&self, player_id: &str, mode: Option<&str>) -> Result<(), StoreError> {
        let mut data = self.data();
        match mode {
            Some(mode) => data.notify.insert(player_id.to_string(), mode.to_string()),
            None => data.notify.remove(player_id),
        };
        Ok(())
    }

    async fn channel_servers(&self) -> Result<Vec<(String, String)>, StoreError> {
        let data = self.data();
        Ok(data
            .servers
            .iter()
            .map(|(c, s)| (c.clone(), s.clone()))
            .collect())
    }

    async fn set_channel_server(&self, channel: &str, server: &str) -> Result<(), StoreError> {
        let mut data = self.data();
        data.servers.insert(channel.to_string(), server.to_string());
        Ok(())
    }

    async fn standings_token(
        &self,
        server: &str,
        fresh: &str,
    ) -> Result<Option<String>, StoreError> {
        let mut data = self.data();
        let token = data
            .standings_pages
            .entry(server.to_string())
            .or_insert_with(|| fresh.to_string());
        Ok(Some(token.clone()))
    }

    async fn server_of_standings(&self, token: &str) -> Result<Option<String>, StoreError> {
        let data = self.data();
        Ok(data
            .standings_pages
            .iter()
            .find(|(_, t)| *t == token)
            .map(|(s, _)| s.clone()))
    }

    async fn state_channels(&self) -> Result<Vec<String>, StoreError> {
        Ok(self.data().states.keys().cloned().collect())
    }

    async fn presets(&self, game_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        Ok(self
            .data()
            .presets
            .iter()
            .filter(|((game, _), _)| game == game_id)
            .map(|((_, player), presets)| (player.clone(), presets.clone()))
            .collect())
    }

    async fn close(&self) {}

    fn sole_writer(&self) -> bool {
        true
    }

    async fn active_cursors(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        let data = self.data();
        let mut channels: Vec<(String, Option<String>)> = data
            .games
            .iter()
            .filter(|g| g.active)
            .map(|g| (g.channel.clone(), data.cursors.get(&g.channel).cloned()))
            .collect();
        channels.sort();
        Ok(channels)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(id: &str, channel: &str) -> GameRow {
        GameRow {
            id: id.to_string(),
            channel: channel.to_string(),
            kind: "pile".to_string(),
            engine_version: "1".to_string(),
            created_at: chrono::DateTime::default(),
            setup_json: "{}".to_string(),
            seed_hex: None,
            commitment: None,
            revealed: false,
            active: true,
        }
    }

    fn read(message_id: &str) -> Write {
        Write::Read {
            channel: "c".to_string(),
            message_id: message_id.to_string(),
        }
    }

    #[tokio::test]
    async fn a_refused_batch_leaves_nothing_and_is_not_kept() {
        let store = MemoryStore::new();
        store
            .write(&[
                read("1"),
                Write::CreateGame {
                    game: game("d-1", "c"),
                    message_id: "1".to_string(),
                },
            ])
            .await
            .expect("stored");
        let refused = store
            .write(&[
                read("2"),
                Write::ChannelState {
                    channel: "c".to_string(),
                    state: Some("{}".to_string()),
                    message_id: "2".to_string(),
                },
                Write::CreateGame {
                    game: game("d-1", "e"),
                    message_id: "2".to_string(),
                },
            ])
            .await
            .expect_err("the game id is taken");
        assert!(matches!(refused, StoreError::Conflict(_)), "{refused:?}");
        assert!(!store.seen("c", "2").await.expect("reads"));
        assert_eq!(store.channel_state("c").await.expect("reads"), None);
        assert_eq!(store.batches().len(), 1);
        // The id `d-1` is taken (by a game of another channel): channel d's first game is d-2.
        assert_eq!(store.next_game_id("d").await.expect("reads"), "d-2");
    }

    #[tokio::test]
    async fn presets_and_a_status_need_their_game() {
        let store = MemoryStore::new();
        let presets = Write::Presets {
            game_id: "nope".to_string(),
            player_id: "7".to_string(),
            presets: Some("[]".to_string()),
        };
        assert!(store.write(&[presets]).await.is_err());
        assert!(store.set_status_message("nope", "9").await.is_err());
    }
}
