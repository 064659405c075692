//! Outgrowing one process: the shard range a process runs, cheap restarts, and pacing.
//!
//! - **Shards.** `discord.shards: {start, end, total}` makes the process run shards `start`
//!   to `end` (inclusive) of `total` through serenity's `start_shard_range`; Discord sends it
//!   the events of the guilds whose shard (`(guild_id >> 22) % total`) is in that range, and
//!   direct messages to shard 0.
//! - **Cheap restarts.** On READY the process no longer reads every active channel's history.
//!   It reads the channels' cursors in one query ([`Store::active_cursors`]) and waits for the
//!   GUILD_CREATE payloads of the guilds READY lists: they carry each channel's (and active
//!   thread's) `last_message_id`. Only a channel whose last message is newer than its cursor
//!   is caught up; the others are marked fresh for the session and their tables stay unloaded
//!   until a message arrives. Channels with a game that no payload mentions (direct messages,
//!   archived threads) are caught up by the process that runs shard 0; first it lists the
//!   archived posts of every forum channel (one request per 100 threads per forum, not one
//!   per thread), and an archived thread whose last message is not newer than its cursor is
//!   fresh like the others.
//! - **Pacing.** Every history request of a catch-up waits for a [`Pacer`] (`governor`) shared
//!   by the process, under Discord's global limit of 50 requests a second; per-route limits
//!   (`X-RateLimit-*` headers, 429s, a global 429) are kept by the bot's client
//!   ([`super::rest`]).
//!
//! [`Store::active_cursors`]: gaugebot_table::store::Store::active_cursors

use std::collections::{HashMap, HashSet};
use std::num::NonZeroU32;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use governor::{DefaultDirectRateLimiter, Quota, RateLimiter};

use tokio::sync::{oneshot, watch};

pub use crate::config::{shard_of, ShardRange};

/// Requests a second a process's catch-ups may make together (Discord allows 50 globally).
pub const CATCH_UP_REQUESTS_PER_SECOND: u32 = 40;
/// How many catch-up requests may go at once before pacing starts.
pub const CATCH_UP_BURST: u32 = 10;
/// How long READY waits for the GUILD_CREATE payloads it announced.
pub const GUILD_WAIT: Duration = Duration::from_secs(20);
/// How old a guild payload that came before its READY was handled may be: its READY is handled
/// milliseconds later; one older than this is a straggler of an earlier session.
const EARLY: Duration = Duration::from_secs(3);
/// How often a process looks for channels whose owner is gone (PostgreSQL only).
pub const TAKEOVER_INTERVAL: Duration = Duration::from_secs(2);

/// Paces requests (`governor`'s token bucket): `wait` returns at most `rate` times a second
/// after a burst.
#[derive(Debug)]
pub struct Pacer(DefaultDirectRateLimiter);

impl Pacer {
    /// At most `rate` a second, after a burst of `burst` (and the current request).
    pub fn new(rate: u32, burst: u32) -> Pacer {
        let rate = NonZeroU32::new(rate).unwrap_or(NonZeroU32::MIN);
        let burst = NonZeroU32::new(burst.saturating_add(1)).unwrap_or(NonZeroU32::MIN);
        Pacer(RateLimiter::direct(
            Quota::per_second(rate).allow_burst(burst),
        ))
    }

    /// Waits for the next request's turn.
    pub async fn wait(&self) {
        self.0.until_ready().await;
    }
}

/// What a GUILD_CREATE says about a guild's channels: each channel's and active thread's id
/// and last message id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GuildPayload {
    /// The guild.
    pub guild: u64,
    /// (channel, its last message id).
    pub channels: Vec<(u64, Option<u64>)>,
    /// Its forum channels: their archived posts (threads) are listed after READY, so that an
    /// archived thread with a game needs no request of its own when it is up to date.
    pub forums: Vec<u64>,
}

/// Whether a channel whose last message is `last` has messages after `cursor`.
pub fn behind(last: Option<u64>, cursor: Option<u64>) -> bool {
    match (last, cursor) {
        (None, _) => false,
        (Some(_), None) => true,
        (Some(last), Some(cursor)) => last > cursor,
    }
}

/// One READY's catch-up plan (one per shard).
struct Plan {
    epoch: u64,
    /// Guilds READY announced whose payload has not arrived.
    waiting: HashSet<u64>,
    /// Channels with an active game and their cursors.
    active: HashMap<u64, Option<u64>>,
    /// Active channels no payload of this shard has mentioned.
    unplaced: HashSet<u64>,
    /// The catch-ups this READY started.
    waits: Vec<oneshot::Receiver<()>>,
    /// The forum channels of its guilds.
    forums: HashSet<u64>,
    finished: bool,
}

/// How a restart went, for the logs and the bench.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct RestartCounts {
    /// Channels with an active game.
    pub active: usize,
    /// Channels caught up because their last message was newer than their cursor.
    pub behind: usize,
    /// Channels found up to date in their guild's payload (no request).
    pub fresh: usize,
    /// Channels with a game that no payload mentioned (caught up the old way, or left).
    pub unplaced: usize,
}

/// The catch-up plans of a process's READYs (one per shard), and the channels known fresh in
/// each shard's session.
pub(crate) struct Restart {
    total: u32,
    state: Mutex<RestartState>,
    /// Paces every history request of a catch-up.
    pub(crate) pacer: Pacer,
    changed: watch::Sender<u64>,
}

#[derive(Default)]
struct RestartState {
    /// Shard → the plan of its latest READY.
    plans: HashMap<u32, Plan>,
    /// Shard → the epoch of its latest READY.
    epochs: HashMap<u32, u64>,
    /// Shards whose READY is being handled and whose plan is not made yet.
    pending: HashSet<u32>,
    /// Payloads that arrived before their READY was handled.
    early: Vec<(Instant, GuildPayload)>,
    /// Channel → the epoch (of its shard's READY) in which it was found fresh.
    fresh: HashMap<u64, u64>,
    counts: RestartCounts,
}

impl Restart {
    /// No READY yet; guilds are spread over `total` shards.
    pub(crate) fn new(total: u32) -> Restart {
        Restart {
            total: total.max(1),
            state: Mutex::new(RestartState::default()),
            pacer: Pacer::new(CATCH_UP_REQUESTS_PER_SECOND, CATCH_UP_BURST),
            changed: watch::channel(0).0,
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, RestartState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The epoch of the latest READY of the shard that gets `guild`'s events (`None`: direct
    /// messages, shard 0); 0 before any.
    pub(crate) fn epoch_of(&self, guild: Option<u64>) -> u64 {
        let shard = guild.map_or(0, |g| shard_of(g, self.total));
        self.lock().epochs.get(&shard).copied().unwrap_or(0)
    }

    /// A new session (READY `epoch`) of `shard`: its channels are stale until placed.
    pub(crate) fn session(&self, shard: u32, epoch: u64) {
        let mut state = self.lock();
        state.epochs.insert(shard, epoch);
        state.pending.insert(shard);
        drop(state);
        self.changed.send_modify(|n| *n += 1);
    }

    /// Starts the plan of READY `epoch` of `shard`: the guilds it announced and the active
    /// channels with their cursors. Payloads that came early are placed now; `catch_up` starts
    /// a channel's catch-up.
    pub(crate) fn begin(
        &self,
        shard: u32,
        epoch: u64,
        guilds: impl IntoIterator<Item = u64>,
        active: HashMap<u64, Option<u64>>,
        catch_up: &mut dyn FnMut(u64) -> oneshot::Receiver<()>,
    ) {
        let mut state = self.lock();
        let unplaced = active.keys().copied().collect();
        if state.plans.values().all(|p| p.finished) {
            // A new start (not another shard of the same one): count afresh.
            state.counts = RestartCounts::default();
        }
        state.counts.active = active.len();
        state.epochs.insert(shard, epoch);
        state.pending.remove(&shard);
        state.plans.insert(
            shard,
            Plan {
                epoch,
                waiting: guilds.into_iter().collect(),
                active,
                unplaced,
                waits: Vec::new(),
                forums: HashSet::new(),
                finished: false,
            },
        );
        let early = std::mem::take(&mut state.early);
        for (at, payload) in early {
            if shard_of(payload.guild, self.total) != shard {
                state.early.push((at, payload));
            } else if at.elapsed() < EARLY {
                place(&mut state, shard, payload, catch_up);
            }
        }
        self.changed.send_modify(|n| *n += 1);
    }

    /// A GUILD_CREATE: places its channels in its shard's plan (catching up those behind and
    /// marking the others fresh). `announced` is serenity's word (`is_new == Some(false)`,
    /// decided in gateway order) that the guild was announced by the shard's latest READY: if
    /// that READY's plan is not made yet (event handlers run concurrently), the payload is kept
    /// for it. A guild joined during a session is placed in the session's plan.
    pub(crate) fn guild(
        &self,
        payload: GuildPayload,
        announced: bool,
        catch_up: &mut dyn FnMut(u64) -> oneshot::Receiver<()>,
    ) {
        let shard = shard_of(payload.guild, self.total);
        let mut state = self.lock();
        let pending = state.pending.contains(&shard);
        let plan = state.plans.get(&shard);
        let expected = plan.is_some_and(|p| !p.finished && p.waiting.contains(&payload.guild));
        let current = plan.is_some_and(|p| p.finished) && !announced && !pending;
        if expected || current {
            place(&mut state, shard, payload, catch_up);
        } else {
            state.early.push((Instant::now(), payload));
        }
        self.changed.send_modify(|n| *n += 1);
    }

    /// Waits until `check` holds of the plans, or `timeout`; false on a timeout.
    async fn wait(&self, timeout: Duration, check: impl Fn(&RestartState) -> bool) -> bool {
        let mut changed = self.changed.subscribe();
        let done = async {
            loop {
                if check(&self.lock()) {
                    return;
                }
                if changed.changed().await.is_err() {
                    return;
                }
            }
        };
        tokio::time::timeout(timeout, done).await.is_ok()
    }

    /// Waits until every guild READY `epoch` of `shard` announced has sent its payload, or
    /// `timeout`.
    pub(crate) async fn wait_for_guilds(&self, shard: u32, epoch: u64, timeout: Duration) {
        let all_in = self
            .wait(timeout, |state| match state.plans.get(&shard) {
                Some(plan) => plan.epoch != epoch || plan.waiting.is_empty(),
                None => true,
            })
            .await;
        if !all_in {
            let state = self.lock();
            let missing = state.plans.get(&shard).map_or(0, |p| p.waiting.len());
            tracing::warn!(shard, missing, "some guilds sent no GUILD_CREATE in time");
        }
    }

    /// Ends the plan of READY `epoch` of `shard`: the catch-ups it started.
    pub(crate) fn finish(&self, shard: u32, epoch: u64) -> Vec<oneshot::Receiver<()>> {
        let mut state = self.lock();
        let waits = match state.plans.get_mut(&shard).filter(|p| p.epoch == epoch) {
            Some(plan) => {
                plan.finished = true;
                std::mem::take(&mut plan.waits)
            }
            None => Vec::new(),
        };
        self.changed.send_modify(|n| *n += 1);
        waits
    }

    /// The active channels that no payload of any shard in `shards` mentioned, once every one
    /// of those shards' plans has finished (or `timeout`).
    pub(crate) async fn unplaced(
        &self,
        shards: std::ops::RangeInclusive<u32>,
        timeout: Duration,
    ) -> Vec<u64> {
        let expected = shards.clone();
        self.wait(timeout, |state| {
            expected
                .clone()
                .all(|s| state.plans.get(&s).is_some_and(|p| p.finished))
        })
        .await;
        let mut state = self.lock();
        let mut plans = shards.filter_map(|s| state.plans.get(&s));
        let Some(first) = plans.next() else {
            return Vec::new();
        };
        let mut unplaced: HashSet<u64> = first.unplaced.clone();
        for plan in plans {
            unplaced.retain(|c| plan.unplaced.contains(c));
        }
        let mut unplaced: Vec<u64> = unplaced.into_iter().collect();
        unplaced.sort_unstable();
        state.counts.unplaced = unplaced.len();
        unplaced
    }

    /// The forum channels of the guilds of `shards`' current plans, and the active channels'
    /// cursors: what the listing of archived threads needs.
    pub(crate) fn forums_and_cursors(
        &self,
        shards: std::ops::RangeInclusive<u32>,
    ) -> (Vec<u64>, HashMap<u64, Option<u64>>) {
        let state = self.lock();
        let mut forums = HashSet::new();
        let mut cursors = HashMap::new();
        for plan in shards.filter_map(|s| state.plans.get(&s)) {
            forums.extend(plan.forums.iter().copied());
            cursors.extend(plan.active.iter().map(|(c, k)| (*c, *k)));
        }
        let mut forums: Vec<u64> = forums.into_iter().collect();
        forums.sort_unstable();
        (forums, cursors)
    }

    /// Archived threads found up to date by listing their forums (no history read): fresh in
    /// the session of shard 0, which serves the channels no payload mentioned.
    pub(crate) fn archived_fresh(&self, channels: &[u64]) {
        let mut state = self.lock();
        let epoch = state.epochs.get(&0).copied().unwrap_or(0);
        for channel in channels {
            state.fresh.insert(*channel, epoch);
        }
        state.counts.fresh += channels.len();
        state.counts.unplaced = state.counts.unplaced.saturating_sub(channels.len());
    }

    /// Waits (at most `timeout`) until the current plan of the shard of `guild` has placed
    /// `channel` (or ended), then tells whether it found the channel up to date: a message that
    /// arrives during a restart need not read its channel's history when the guild's payload
    /// says there is nothing to read.
    pub(crate) async fn placed_fresh(
        &self,
        channel: u64,
        guild: Option<u64>,
        timeout: Duration,
    ) -> bool {
        let shard = guild.map_or(0, |g| shard_of(g, self.total));
        self.wait(timeout, |state| {
            if state.pending.contains(&shard) {
                // The READY's plan is not made yet.
                return false;
            }
            let current = state.epochs.get(&shard).copied().unwrap_or(0);
            match state.plans.get(&shard) {
                Some(plan) if plan.epoch == current => {
                    plan.finished || !plan.unplaced.contains(&channel)
                }
                _ => true,
            }
        })
        .await;
        self.is_fresh(channel, guild)
    }

    /// Forgets that `channel` was up to date: another process may have written to it since.
    pub(crate) fn forget(&self, channel: u64) {
        self.lock().fresh.remove(&channel);
    }

    /// Whether `channel` (of `guild`) was found up to date in its shard's current session.
    pub(crate) fn is_fresh(&self, channel: u64, guild: Option<u64>) -> bool {
        let shard = guild.map_or(0, |g| shard_of(g, self.total));
        let state = self.lock();
        match (state.fresh.get(&channel), state.epochs.get(&shard)) {
            (Some(fresh), Some(current)) => fresh == current,
            _ => false,
        }
    }

    /// How the last READY went.
    pub(crate) fn counts(&self) -> RestartCounts {
        self.lock().counts
    }
}

fn place(
    state: &mut RestartState,
    shard: u32,
    payload: GuildPayload,
    catch_up: &mut dyn FnMut(u64) -> oneshot::Receiver<()>,
) {
    let Some(plan) = state.plans.get_mut(&shard) else {
        return;
    };
    plan.waiting.remove(&payload.guild);
    plan.forums.extend(payload.forums.iter().copied());
    let epoch = plan.epoch;
    let mut fresh = Vec::new();
    let mut behind_count = 0;
    for (channel, last) in payload.channels {
        let Some(cursor) = plan.active.get(&channel).copied() else {
            continue;
        };
        if !plan.unplaced.remove(&channel) {
            continue;
        }
        if behind(last, cursor) {
            plan.waits.push(catch_up(channel));
            behind_count += 1;
        } else {
            fresh.push(channel);
        }
    }
    state.counts.behind += behind_count;
    state.counts.fresh += fresh.len();
    for channel in fresh {
        state.fresh.insert(channel, epoch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guilds_map_to_discords_shards() {
        // Discord's example: guild 41771983423143937 on 2 shards.
        let guild = 41_771_983_423_143_937u64;
        assert_eq!(shard_of(guild, 1), 0);
        assert_eq!(shard_of(guild, 2), ((guild >> 22) % 2) as u32);
        let range = ShardRange {
            start: 1,
            end: 2,
            total: 4,
        };
        assert!(range.check().is_ok());
        assert!(!range.serves(None), "direct messages go to shard 0");
        assert!(ShardRange::SINGLE.serves(None));
        assert!(range.serves(Some(1 << 22)));
        assert!(range.serves(Some(2 << 22)));
        assert!(!range.serves(Some(3 << 22)));
        assert!(!range.serves(Some(4 << 22)));
        for bad in [(0, 0, 0), (2, 1, 4), (0, 4, 4)] {
            let (start, end, total) = bad;
            assert!(ShardRange { start, end, total }.check().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn only_channels_with_newer_messages_are_behind() {
        assert!(!behind(None, None));
        assert!(!behind(None, Some(5)));
        assert!(behind(Some(5), None));
        assert!(behind(Some(6), Some(5)));
        assert!(!behind(Some(5), Some(5)));
        assert!(!behind(Some(4), Some(5)));
    }

    #[tokio::test]
    async fn a_plan_catches_up_only_what_is_behind_and_keeps_early_payloads() {
        let restart = Restart::new(1);
        let mut started = Vec::new();
        let mut catch_up = |channel: u64| {
            started.push(channel);
            oneshot::channel().1
        };
        // A payload that comes before its READY is handled is kept for it.
        restart.guild(
            GuildPayload {
                guild: 1,
                channels: vec![(10, Some(100)), (11, Some(50)), (12, None)],
                forums: Vec::new(),
            },
            true,
            &mut catch_up,
        );
        let active = HashMap::from([(10, Some(90)), (11, Some(50)), (20, Some(1)), (30, None)]);
        restart.begin(0, 7, [1, 2], active, &mut catch_up);
        restart.guild(
            GuildPayload {
                guild: 2,
                channels: vec![(20, Some(2))],
                forums: Vec::new(),
            },
            true,
            &mut catch_up,
        );
        restart.wait_for_guilds(0, 7, Duration::from_secs(5)).await;
        let waits = restart.finish(0, 7);
        let unplaced = restart.unplaced(0..=0, Duration::from_secs(5)).await;
        assert_eq!(started, vec![10, 20]);
        assert_eq!(waits.len(), 2);
        assert_eq!(unplaced, vec![30]);
        assert!(restart.is_fresh(11, Some(1)));
        assert!(!restart.is_fresh(10, Some(1)));
        assert_eq!(restart.epoch_of(Some(1)), 7);
        assert_eq!(
            restart.counts(),
            RestartCounts {
                active: 4,
                behind: 2,
                fresh: 1,
                unplaced: 1
            }
        );
        // The next READY makes every channel of the shard stale again.
        restart.begin(0, 9, [], HashMap::new(), &mut |_| oneshot::channel().1);
        assert!(!restart.is_fresh(11, Some(1)));
    }

    #[tokio::test]
    async fn each_shard_has_its_own_plan() {
        // Guild 1 << 22 is on shard 1 of 2, guild 2 << 22 on shard 0.
        let (g0, g1) = (2u64 << 22, 1u64 << 22);
        let restart = Restart::new(2);
        let active = || HashMap::from([(10, Some(1)), (20, Some(1)), (30, Some(1))]);
        let mut none = |_| oneshot::channel().1;
        restart.begin(0, 1, [g0], active(), &mut none);
        restart.begin(1, 2, [g1], active(), &mut none);
        restart.guild(
            GuildPayload {
                guild: g1,
                channels: vec![(20, Some(1))],
                forums: Vec::new(),
            },
            true,
            &mut none,
        );
        restart.guild(
            GuildPayload {
                guild: g0,
                channels: vec![(10, Some(1))],
                forums: Vec::new(),
            },
            true,
            &mut none,
        );
        assert!(restart.is_fresh(10, Some(g0)));
        assert!(restart.is_fresh(20, Some(g1)));
        restart.finish(0, 1);
        restart.finish(1, 2);
        assert_eq!(
            restart.unplaced(0..=1, Duration::from_secs(5)).await,
            vec![30]
        );
        // A READY of shard 1 leaves shard 0's channels fresh.
        restart.begin(1, 3, [g1], active(), &mut none);
        assert!(restart.is_fresh(10, Some(g0)));
        assert!(!restart.is_fresh(20, Some(g1)));
        assert_eq!(restart.epoch_of(Some(g0)), 1);
        assert_eq!(restart.epoch_of(Some(g1)), 3);
    }

    #[tokio::test]
    async fn a_new_sessions_payload_waits_for_its_ready() {
        let restart = Restart::new(1);
        let started = std::cell::RefCell::new(Vec::new());
        let mut catch_up = |channel: u64| {
            started.borrow_mut().push(channel);
            oneshot::channel().1
        };
        let active = || HashMap::from([(10, Some(5))]);
        restart.session(0, 1);
        restart.begin(0, 1, [1], active(), &mut catch_up);
        let payload = |last| GuildPayload {
            guild: 1,
            channels: vec![(10, Some(last))],
            forums: Vec::new(),
        };
        restart.guild(payload(5), true, &mut catch_up);
        restart.finish(0, 1);
        assert!(restart.is_fresh(10, Some(1)));
        // A reconnect: the new session's payload (a message came meanwhile) is handled before
        // its READY: it is kept, and placed in the new plan.
        restart.guild(payload(6), true, &mut catch_up);
        assert!(started.borrow().is_empty());
        restart.session(0, 2);
        assert!(!restart.is_fresh(10, Some(1)));
        restart.begin(0, 2, [1], active(), &mut catch_up);
        assert_eq!(
            *started.borrow(),
            vec![10],
            "the channel behind is caught up"
        );
        assert!(
            !restart
                .placed_fresh(10, Some(1), Duration::from_secs(5))
                .await
        );
        // A guild joined during the session is placed at once.
        restart.finish(0, 2);
        restart.guild(
            GuildPayload {
                guild: 3,
                channels: vec![(10, Some(7))],
                forums: Vec::new(),
            },
            false,
            &mut catch_up,
        );
        assert_eq!(restart.lock().early.len(), 0);
    }

    #[test]
    fn the_pacer_lets_a_burst_through_then_waits() {
        let pacer = Pacer::new(1, 2);
        // Three at once (the burst and the current turn), then the next must wait.
        assert!((0..3).all(|_| pacer.0.check().is_ok()));
        assert!(pacer.0.check().is_err());
    }
}
