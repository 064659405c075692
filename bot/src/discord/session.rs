//! The gateway sessions of this process: the bot's own id, the epoch (one per READY), how many
//! READYs were caught up, the messages the collectors queued, and the catch-up plans.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

use serenity::all::MessageId;
use tokio::sync::watch;

use super::channel::RecentIds;
use super::shards::Restart;

/// What the sessions of this process share.
pub(crate) struct Session {
    /// The bot's own user id (from READY), to read messages that mention it and to tell its
    /// own posts.
    me: AtomicU64,
    /// Incremented on every READY: a channel synced in an older epoch must catch up first.
    epoch: AtomicU64,
    /// How many READYs have been fully caught up.
    caught_up: watch::Sender<u64>,
    /// Messages a collector queued.
    collected: Mutex<RecentIds>,
    /// What READY reads (only channels behind their cursor), paced.
    pub(crate) restart: Restart,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Session {
    /// No READY yet; guilds are spread over `shards_total` shards.
    pub(crate) fn new(shards_total: u32) -> Session {
        Session {
            me: AtomicU64::new(0),
            epoch: AtomicU64::new(0),
            caught_up: watch::channel(0).0,
            collected: Mutex::new(RecentIds::new()),
            restart: Restart::new(shards_total),
        }
    }

    /// The bot's own user id; 0 before READY.
    pub(crate) fn me(&self) -> u64 {
        self.me.load(Ordering::SeqCst)
    }

    /// A READY: the bot's id, and the new epoch.
    pub(crate) fn ready(&self, me: u64) -> u64 {
        self.me.store(me, Ordering::SeqCst);
        self.epoch.fetch_add(1, Ordering::SeqCst) + 1
    }

    /// The epoch of the latest READY.
    pub(crate) fn epoch(&self) -> u64 {
        self.epoch.load(Ordering::SeqCst)
    }

    /// Counts a READY as caught up.
    pub(crate) fn caught_up(&self) {
        self.caught_up.send_modify(|n| *n += 1);
    }

    /// Whether every READY so far has been caught up (and there was one).
    pub(crate) fn all_caught_up(&self) -> bool {
        let ready = *self.caught_up.borrow();
        ready > 0 && ready >= self.epoch()
    }

    /// Watches the number of READYs that were caught up.
    pub(crate) fn subscribe_caught_up(&self) -> watch::Receiver<u64> {
        self.caught_up.subscribe()
    }

    /// Notes that a collector queued this message.
    pub(crate) fn collected(&self, id: MessageId) {
        lock(&self.collected).insert(id.get());
    }

    /// Whether a collector has queued this message.
    pub(crate) fn was_collected(&self, id: MessageId) -> bool {
        lock(&self.collected).contains(id.get())
    }
}
