//! Catch-up: a channel reads its history after its cursor, oldest first, and processes every
//! message it missed; after each READY the channels behind their cursor do so (the others are
//! found fresh in their guild's payload, [`super::shards`]).

use std::collections::HashMap;
use std::sync::Arc;

use chrono::DateTime;
use serenity::all::MessageId;
use serenity::model::id::ChannelId;
use tokio::sync::oneshot;

use super::channel::ChannelState;
use super::job::Job;
use super::messages::{has_game, process};
use super::retry::{deliver, retry};
use super::shards::{behind, GUILD_WAIT};
use super::shared::Shared;

/// Messages per history page (Discord's maximum).
const HISTORY_PAGE: u8 = 100;
/// The Discord epoch (2015-01-01) in Unix milliseconds.
const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;

/// Of the active channels no guild payload mentioned, those still to read: archived threads
/// are looked up in their forums' lists of archived posts (one request per forum and 100
/// threads, newest archive first, stopping once every such channel is found), and one whose
/// last message is not newer than its cursor is fresh without a request of its own. Direct
/// messages, and threads of text channels, are read as before.
async fn unlisted(shared: &Arc<Shared>, mut unplaced: Vec<u64>) -> Vec<u64> {
    if unplaced.is_empty() {
        return unplaced;
    }
    let restart = &shared.session.restart;
    let shards = shared.settings.shards;
    let (forums, cursors) = restart.forums_and_cursors(shards.start..=shards.end);
    let mut listed: HashMap<u64, Option<u64>> = HashMap::new();
    let all_found =
        |listed: &HashMap<u64, Option<u64>>| unplaced.iter().all(|c| listed.contains_key(c));
    for forum in forums {
        let mut before: Option<String> = None;
        loop {
            restart.pacer.wait().await;
            let rest = &*shared.discord.rest;
            let parent = ChannelId::new(forum);
            let page = match retry("list the archived posts", parent, || {
                rest.archived_threads(parent, before.as_deref())
            })
            .await
            {
                Ok(page) => page,
                Err(error) => {
                    tracing::warn!(forum, %error, "cannot list the forum's archived posts");
                    break;
                }
            };
            let threads = page["threads"].as_array().cloned().unwrap_or_default();
            for thread in &threads {
                let id = thread["id"].as_str().and_then(|s| s.parse::<u64>().ok());
                let last = thread["last_message_id"]
                    .as_str()
                    .and_then(|s| s.parse::<u64>().ok());
                if let Some(id) = id {
                    listed.insert(id, last);
                }
            }
            before = threads
                .last()
                .and_then(|t| t["thread_metadata"]["archive_timestamp"].as_str())
                .map(str::to_string);
            if page["has_more"].as_bool() != Some(true) || before.is_none() || all_found(&listed) {
                break;
            }
        }
        if all_found(&listed) {
            break;
        }
    }
    let fresh: Vec<u64> = unplaced
        .iter()
        .copied()
        .filter(|c| {
            listed
                .get(c)
                .is_some_and(|last| !behind(*last, cursors.get(c).copied().flatten()))
        })
        .collect();
    if !fresh.is_empty() {
        restart.archived_fresh(&fresh);
        let fresh: std::collections::HashSet<u64> = fresh.into_iter().collect();
        unplaced.retain(|c| !fresh.contains(c));
    }
    unplaced
}

/// Queues the delivery of what the outbox kept for every channel (answers stored before a crash
/// or a restart but not posted), for channels no other job reaches soon. With several
/// processes on one database, a channel's parcels are its owner's: they are delivered when it
/// takes the channel over.
async fn redeliver_everywhere(shared: &Arc<Shared>) {
    if shared.owners.shared() {
        return;
    }
    let pending = match shared.tables.store().pending(None).await {
        Ok(pending) => pending,
        Err(error) => {
            tracing::warn!(%error, "cannot read the outbox; each channel reads it before its next job");
            return;
        }
    };
    let mut channels: Vec<u64> = pending
        .iter()
        .filter_map(|item| item.channel.parse::<u64>().ok().filter(|id| *id != 0))
        .collect();
    channels.sort_unstable();
    channels.dedup();
    for channel in channels {
        shared.enqueue(ChannelId::new(channel), Job::Outbox);
    }
}

/// Queues a catch-up of a channel; the receiver fires when it is done.
pub(crate) fn start(shared: &Arc<Shared>, channel: u64) -> oneshot::Receiver<()> {
    let (tx, rx) = oneshot::channel();
    shared.enqueue(ChannelId::new(channel.max(1)), Job::CatchUp(tx));
    rx
}

/// After READY `epoch` of `shard` (which announced `guilds`): catches up the channels with an
/// active game whose last message (in their guild's GUILD_CREATE) is newer than their cursor,
/// and those no guild mentions; then counts the READY as caught up.
pub(crate) async fn after_ready(shared: &Arc<Shared>, shard: u32, epoch: u64, guilds: Vec<u64>) {
    let restart = &shared.session.restart;
    let active = match shared.tables.store().active_cursors().await {
        Ok(active) => active,
        Err(error) => {
            tracing::error!(%error, "cannot list the active games; no catch-up");
            Vec::new()
        }
    };
    let active = active
        .into_iter()
        .filter_map(|(key, cursor)| {
            let channel = key.parse::<u64>().ok().filter(|id| *id != 0)?;
            Some((channel, cursor.and_then(|c| c.parse::<u64>().ok())))
        })
        .collect();
    restart.begin(shard, epoch, guilds, active, &mut |c| start(shared, c));
    if shard == 0 {
        redeliver_everywhere(shared).await;
    }
    restart.wait_for_guilds(shard, epoch, GUILD_WAIT).await;
    let mut waits = restart.finish(shard, epoch);
    // Channels no guild mentioned (direct messages, archived threads): read as before, by the
    // shard that gets direct messages, once every shard of the process has placed its guilds'
    // channels.
    if shard == 0 {
        let shards = shared.settings.shards;
        let unplaced = restart
            .unplaced(shards.start..=shards.end, GUILD_WAIT)
            .await;
        for channel in unlisted(shared, unplaced).await {
            waits.push(start(shared, channel));
        }
    }
    let count = waits.len();
    for wait in waits {
        let _ = wait.await;
    }
    let counts = restart.counts();
    tracing::info!(
        epoch,
        channels = count,
        active = counts.active,
        fresh = counts.fresh,
        behind = counts.behind,
        unplaced = counts.unplaced,
        "caught up after READY"
    );
    // Games set up before the channels' servers were stored, in channels quiet since: their
    // servers, from the guilds' payloads, are stored now (`!standings` counts them).
    match shared.servers.keep_games().await {
        Ok(0) => {}
        Ok(kept) => tracing::info!(kept, "stored the servers of channels with games"),
        Err(error) => tracing::warn!(%error, "cannot store the servers of channels with games"),
    }
    shared.session.caught_up();
}

/// Catches the channel up first if it was not since the last READY.
pub(crate) async fn sync(shared: &Arc<Shared>, state: &mut ChannelState) {
    let current = shared.session.epoch();
    if state.synced_epoch < current {
        if has_game(shared, &state.key).await {
            catch_up(shared, state).await;
        } else {
            state.synced_epoch = current;
        }
    }
}

/// A live message (of `guild`) from the collector of session `epoch` (`None`: from the
/// fallback handler): the channel catches up first unless it is known up to date in its shard's session.
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
pub(crate) async fn before_live(
    shared: &Arc<Shared>,
    state: &mut ChannelState,
    epoch: Option<u64>,
    guild: Option<u64>,
) {
    let restart = &shared.session.restart;
    // The session of the channel's shard (another shard's READY leaves it alone).
    let current = restart.epoch_of(guild);
    if epoch.is_some()
        && state.synced_epoch < current
        && restart
            .placed_fresh(state.channel.get(), guild, GUILD_WAIT)
            .await
    {
        state.synced_epoch = current;
    }
    let stale = match epoch {
        None => true,
        Some(_) => state.synced_epoch < current,
    };
    if stale {
        if has_game(shared, &state.key).await {
            catch_up(shared, state).await;
        } else {
            state.synced_epoch = current;
        }
    }
}

/// Where the channel's catch-up starts: its cursor, else the start of its active game.
async fn catch_up_start(shared: &Shared, key: &str) -> Option<u64> {
    let store = shared.tables.store();
    match store.cursor(key).await {
        Ok(Some(cursor)) => return cursor.parse().ok().filter(|c| *c != 0),
        Ok(None) => {}
        Err(error) => {
            tracing::error!(channel = key, %error, "cannot read the cursor; no catch-up");
            return None;
        }
    }
    match store.active_game(key).await {
        Ok(Some(game)) => snowflake_at(&gaugebot_table::store::time_text(game.created_at)),
        Ok(None) => None,
        Err(error) => {
            tracing::error!(channel = key, %error, "cannot read the game; no catch-up");
            None
        }
    }
}

/// Reads the channel's history after its cursor, oldest first, page by page, and processes
/// every message not processed yet. A page that fails is read again, with backoff, for as long
/// as Discord's outage lasts ([`deliver`]).
pub(crate) async fn catch_up(shared: &Arc<Shared>, state: &mut ChannelState) {
    let epoch = shared.session.epoch();
    let channel = state.channel;
    let Some(mut after) = catch_up_start(shared, &state.key).await else {
        state.synced_epoch = epoch;
        return;
    };
    let rest = &*shared.discord.rest;
    let mut read = 0usize;
    let mut processed = 0usize;
    loop {
        shared.session.restart.pacer.wait().await;
        let page = deliver("read the channel history", channel, || {
            rest.messages_after(channel, MessageId::new(after), HISTORY_PAGE)
        })
        .await;
        // Transient failures are retried until Discord answers (later jobs of the channel,
        // its live messages included, wait in order); only a final refusal (403, 404) ends it.
        let Ok(mut page) = page else {
            tracing::error!(
                %channel,
                "catch-up stopped: Discord refuses to let the bot read this channel's history"
            );
            break;
        };
        let full = page.len() >= usize::from(HISTORY_PAGE);
        page.sort_by_key(|m| m.id);
        read += page.len();
        let mut faulted = false;
        for message in &page {
            after = after.max(message.id.get());
            if process(shared, state, message).await {
                processed += 1;
            }
            if gaugebot_store::faults::met() {
                // The store failed: nothing after this message is read before it, in posting
                // order; the channel is behind and caught up again ([`super::behind`]).
                faulted = true;
                break;
            }
        }
        if faulted {
            tracing::debug!(%channel, read, processed, "catch-up stopped by a storage fault");
            return;
        }
        if !full {
            break;
        }
    }
    if read > 0 {
        tracing::info!(%channel, read, processed, "caught up");
    }
    state.synced_epoch = epoch;
}

/// The smallest snowflake of the millisecond of an RFC 3339 time, less one: "after" it finds
/// every message from that moment on.
fn snowflake_at(at: &str) -> Option<u64> {
    let time = DateTime::parse_from_rfc3339(at).ok()?;
    let since = time.timestamp_millis() - DISCORD_EPOCH_MS;
    let since = u64::try_from(since).ok().filter(|ms| *ms > 0)?;
    Some((since << 22).saturating_sub(1).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_becomes_the_snowflake_before_it() {
        // 2015-01-01T00:00:01Z is 1000 ms after the Discord epoch.
        assert_eq!(
            snowflake_at("2015-01-01T00:00:01Z"),
            Some((1000u64 << 22) - 1)
        );
        assert_eq!(snowflake_at("2014-01-01T00:00:00Z"), None);
        assert_eq!(snowflake_at("not a time"), None);
    }
}
