//! One channel's worker state: what this run has processed and commented on (bounded, most
//! recent first kept), the catch-up epoch, the last prompt with buttons.

use std::num::NonZeroUsize;

use lru::LruCache;
use serenity::all::{Message, MessageId};
use serenity::model::id::ChannelId;

use gaugebot_table::input::Verdict;

/// Message ids remembered per channel (processed, commented on) and globally (collected).
const REMEMBERED_IDS: NonZeroUsize = match NonZeroUsize::new(4096) {
    Some(n) => n,
    None => panic!("remembered ids"),
};

/// The most recent ids, bounded: the oldest is forgotten first.
pub(crate) struct RecentIds(LruCache<u64, ()>);

impl RecentIds {
    pub(crate) fn new() -> Self {
        RecentIds(LruCache::new(REMEMBERED_IDS))
    }

    /// Adds an id; false if it was there already.
    pub(crate) fn insert(&mut self, id: u64) -> bool {
        if self.0.contains(&id) {
            return false;
        }
        self.0.put(id, ());
        true
    }

    pub(crate) fn contains(&self, id: u64) -> bool {
        self.0.contains(&id)
    }
}

/// What an edit notice knows of the original command.
#[derive(Clone)]
pub(crate) struct Original {
    pub(crate) text: Option<String>,
    pub(crate) verdict: Option<Verdict>,
}

/// One channel's worker state.
pub(crate) struct ChannelState {
    pub(crate) channel: ChannelId,
    pub(crate) key: String,
    /// The last message posted with buttons (stripped of them when the game moves on).
    pub(crate) last_prompt: Option<MessageId>,
    /// The last refusal posted with buttons for the moves it offers (stripped of them when the
    /// game moves on or another refusal offers moves).
    pub(crate) last_offer: Option<MessageId>,
    /// The channel's guild, once a message said it.
    pub(crate) guild: Option<String>,
    /// Whether the last processed message moved the cursor (the channel has a game).
    pub(crate) cursor_kept: bool,
    /// The epoch of the last catch-up (or of the check that none was needed).
    pub(crate) synced_epoch: u64,
    /// Whether the outbox was read for parcels left undelivered (by a crash, a restart or
    /// the channel's previous owner) since this process last took the channel.
    pub(crate) outbox_checked: bool,
    /// Whether the channel was told, in the current storage outage, that its moves are read
    /// when the storage is back ([`super::behind`]).
    pub(crate) noticed: bool,
    /// Live messages a storage fault left unread (read after the catch-up, which finds them
    /// in the history too when the channel has a cursor; a channel without a game has none).
    pub(crate) left: Vec<Message>,
    /// Messages processed in this run.
    pub(crate) done: RecentIds,
    /// Commands read in this run, for edit notices.
    commands: LruCache<u64, Original>,
    /// Messages whose edit or deletion was commented on.
    pub(crate) commented: RecentIds,
}

impl ChannelState {
    pub(crate) fn new(channel: ChannelId) -> Self {
        ChannelState {
            channel,
            key: channel.to_string(),
            last_prompt: None,
            last_offer: None,
            guild: None,
            cursor_kept: false,
            synced_epoch: 0,
            outbox_checked: false,
            noticed: false,
            left: Vec::new(),
            done: RecentIds::new(),
            commands: LruCache::new(REMEMBERED_IDS),
            commented: RecentIds::new(),
        }
    }

    /// Remembers a command read in this run (a new reading replaces the old, in its place).
    pub(crate) fn remember(&mut self, id: u64, text: &str, verdict: Verdict) {
        let original = Original {
            text: Some(text.to_string()),
            verdict: Some(verdict),
        };
        match self.commands.peek_mut(&id) {
            Some(known) => *known = original,
            None => {
                self.commands.put(id, original);
            }
        }
    }

    /// A command read in this run.
    pub(crate) fn command(&self, id: u64) -> Option<Original> {
        self.commands.peek(&id).cloned()
    }

    /// The channel's guild, as a number.
    pub(crate) fn guild_id(&self) -> Option<u64> {
        self.guild.as_deref().and_then(|g| g.parse().ok())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_ids_are_bounded() {
        let mut ids = RecentIds::new();
        assert!(ids.insert(1));
        assert!(!ids.insert(1));
        for i in 2..=(REMEMBERED_IDS.get() as u64 + 1) {
            ids.insert(i);
        }
        assert!(!ids.contains(1));
        assert!(ids.contains(2));
    }
}
