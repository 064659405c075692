//! What a table writes, and where: the channel, the store, the writes of the command being
//! handled (staged until the table's commit stores them in one transaction), the game's
//! presets as stored. The writes concern of a table's context ([`crate::table::Cx`]).

use std::sync::Arc;

use crate::store::{Store, StoreError, Write};
use crate::weeks::preset_book::{read_presets, PresetBook, PresetCache};
use crate::weeks::signup::Signups;

/// A table's channel, its store and the writes of the command being handled.
pub(crate) struct Ledger {
    /// The channel.
    pub(crate) channel: String,
    /// The database.
    pub(crate) store: Arc<dyn Store>,
    /// The writes of the command being handled.
    pub(crate) staged: Vec<Write>,
    /// Whether the loaded game may differ from the store's (a decision not stored yet, or a
    /// flush that failed and so did the reload after it): the next command reloads first.
    pub(crate) stale: bool,
    /// The game's presets as stored, kept when this process is the store's sole writer.
    pub(crate) presets: PresetCache,
}

impl Ledger {
    /// A channel's ledger, nothing staged.
    pub(crate) fn new(channel: &str, store: Arc<dyn Store>) -> Ledger {
        Ledger {
            channel: channel.to_string(),
            store,
            staged: Vec::new(),
            stale: false,
            presets: Default::default(),
        }
    }

    /// Stages a write of the command being handled (stored at the table's commit).
    pub(crate) fn stage(&mut self, write: Write) {
        self.staged.push(write);
    }

    /// Takes the writes of the command just handled, to be stored by the table's commit. Until
    /// they are, the loaded game may be ahead of the store: if they never are (a decision
    /// dropped), the next command rebuilds the table first.
    pub(crate) fn take_staged(&mut self) -> Vec<Write> {
        let staged = std::mem::take(&mut self.staged);
        if !staged.is_empty() {
            self.stale = true;
        }
        staged
    }

    /// The channel's state (JSON): as this command last staged it, else as stored.
    pub(crate) async fn channel_state(&self) -> Result<Option<String>, StoreError> {
        let staged = self.staged.iter().rev().find_map(|write| match write {
            Write::ChannelState { state, .. } => Some(state.clone()),
            _ => None,
        });
        match staged {
            Some(staged) => Ok(staged),
            None => self.store.channel_state(&self.channel).await,
        }
    }

    /// The channel's open signups: as this command last staged them, else as stored.
    pub(crate) async fn signups(&self) -> Result<Option<Signups>, StoreError> {
        let json = self.channel_state().await?;
        Ok(json.and_then(|json| serde_json::from_str(&json).ok()))
    }

    /// Stages the channel's signups (`None`: they are over) with the command's other writes.
    pub(crate) fn save_signups(&mut self, state: Option<&Signups>, message_id: &str) {
        let json = state.map(|s| serde_json::to_string(s).unwrap_or_default());
        self.stage(Write::ChannelState {
            channel: self.channel.clone(),
            state: json,
            message_id: message_id.to_string(),
        });
    }

    /// The presets of a game, by player (none if storage fails: nothing is played for them):
    /// kept in memory after the first read when this process is the store's sole writer.
    pub(crate) async fn preset_book(&self, game_id: &str) -> PresetBook {
        if let Some(book) = self.presets.get(game_id) {
            return book;
        }
        match self.store.presets(game_id).await {
            Ok(rows) => {
                let book: PresetBook = rows
                    .into_iter()
                    .map(|(player, json)| (player, read_presets(&json)))
                    .collect();
                if self.store.sole_writer() {
                    self.presets.put(game_id, book.clone());
                }
                book
            }
            Err(error) => {
                tracing::error!(game = game_id, %error, "cannot read the presets");
                PresetBook::new()
            }
        }
    }
}
