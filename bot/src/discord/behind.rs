//! Channels left behind by a transient storage fault (the database away, busy or timing out,
//! the disk full, the file not writable, who owns the channel not known): a message the bot
//! could not handle then is not answered with ❌ and not dropped; its channel is *behind*, and
//! a retry of its own catches it up from its stored cursor (the ordinary catch-up, in posting
//! order, each message once) as soon as the store works again. No one has to post again.
//!
//! Each behind channel has one retry task: it queues a catch-up after [`BACKOFF`] (0.25 s,
//! growing to [`MAX_BACKOFF`]) and again until the channel's worker says it caught up. While
//! a fault lasts, the log says so once per outage (with the database's address and the next
//! try), not once per message, and once when every channel is caught up again.

use std::collections::HashSet;
use std::future::Future;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serenity::model::id::ChannelId;

use gaugebot_table::store::StoreError;

/// The first wait before a behind channel is tried again.
pub(crate) const BACKOFF: Duration = Duration::from_millis(250);
/// The longest wait between two tries: a channel is caught up at most this long after the
/// store works again (plus the catch-up itself).
pub(crate) const MAX_BACKOFF: Duration = Duration::from_secs(2);

/// What is behind, and whether an outage is being reported.
#[derive(Default)]
struct State {
    /// Channels with a message not handled because of a fault.
    behind: HashSet<u64>,
    /// Channels with a retry task running.
    retrying: HashSet<u64>,
    /// When the current outage began (the first channel fell behind), if one lasts.
    outage: Option<Instant>,
}

/// The channels behind, and their retries.
pub(crate) struct Behind {
    /// The database as logs show it (no password).
    address: String,
    state: Mutex<State>,
    /// Whether the last look for orphaned channels failed (logged once until one works).
    listing_failed: AtomicBool,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Behind {
    /// Nothing behind; `address` names the database in logs.
    pub(crate) fn new(address: String) -> Behind {
        Behind {
            address,
            state: Mutex::new(State::default()),
            listing_failed: AtomicBool::new(false),
        }
    }

    /// Whether the channel is behind.
    pub(crate) fn is_behind(&self, channel: ChannelId) -> bool {
        lock(&self.state).behind.contains(&channel.get())
    }

    /// Marks a channel behind after `fault`, and starts its retry unless one runs: `try_once`
    /// catches the channel up once (false: the bot is shutting down, stop trying). The first
    /// channel of an outage logs it.
    pub(crate) fn mark<F, Try>(
        self: &Arc<Self>,
        channel: ChannelId,
        fault: &StoreError,
        try_once: F,
    ) where
        F: Fn() -> Try + Send + 'static,
        Try: Future<Output = bool> + Send + 'static,
    {
        let spawn = {
            let mut state = lock(&self.state);
            state.behind.insert(channel.get());
            if state.outage.is_none() {
                state.outage = Some(Instant::now());
                tracing::warn!(
                    database = %self.address,
                    error = %fault,
                    next_try_in_s = BACKOFF.as_secs_f64(),
                    "the game's database is unavailable: messages are left unanswered and read when it is back"
                );
            }
            state.retrying.insert(channel.get())
        };
        if spawn {
            tracing::debug!(%channel, "behind: caught up when the database is back");
            tokio::spawn(retry(self.clone(), channel, try_once));
        }
    }

    /// The channel caught up (or is another process's now): it is no longer behind. The last
    /// channel of an outage logs its end.
    pub(crate) fn clear(&self, channel: ChannelId) {
        let mut state = lock(&self.state);
        if !state.behind.remove(&channel.get()) {
            return;
        }
        if state.behind.is_empty() {
            if let Some(since) = state.outage.take() {
                tracing::info!(
                    database = %self.address,
                    after_s = since.elapsed().as_secs_f64(),
                    "the game's database is back: every channel left behind is caught up"
                );
            }
        }
    }

    /// Whether the retry of `channel` is to go on; ends it (under the same lock as
    /// [`mark`](Self::mark)) when the channel is no longer behind.
    fn goes_on(&self, channel: ChannelId) -> bool {
        let mut state = lock(&self.state);
        if state.behind.contains(&channel.get()) {
            return true;
        }
        state.retrying.remove(&channel.get());
        false
    }

    /// Notes whether the look for orphaned channels failed; true when it is worth a log line
    /// (the first failure after one that worked).
    pub(crate) fn listing(&self, failed: bool) -> bool {
        let before = self.listing_failed.swap(failed, Ordering::SeqCst);
        failed && !before
    }
}

/// The wait before try `attempt` (0 first): [`BACKOFF`], doubling up to [`MAX_BACKOFF`].
pub(crate) fn backoff(attempt: u32) -> Duration {
    BACKOFF
        .saturating_mul(1u32 << attempt.min(8))
        .min(MAX_BACKOFF)
}

/// Tries the channel's catch-up again, with backoff, until it is no longer behind (or the
/// bot shuts down).
async fn retry<F, Try>(behind: Arc<Behind>, channel: ChannelId, try_once: F)
where
    F: Fn() -> Try + Send + 'static,
    Try: Future<Output = bool> + Send + 'static,
{
    let mut attempt = 0;
    loop {
        tokio::time::sleep(backoff(attempt)).await;
        attempt += 1;
        if !behind.goes_on(channel) {
            return;
        }
        if !try_once().await {
            lock(&behind.state).retrying.remove(&channel.get());
            return;
        }
        if !behind.goes_on(channel) {
            return;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_backoff_grows_to_two_seconds() {
        let waits: Vec<u128> = (0..6).map(|a| backoff(a).as_millis()).collect();
        assert_eq!(waits, [250, 500, 1000, 2000, 2000, 2000]);
        assert_eq!(backoff(u32::MAX), MAX_BACKOFF);
    }

    #[test]
    fn a_failed_listing_is_worth_one_line_per_outage() {
        let behind = Behind::new("db".into());
        assert!(behind.listing(true));
        assert!(!behind.listing(true));
        assert!(!behind.listing(false));
        assert!(behind.listing(true));
    }
}
