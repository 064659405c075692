//! Time-driven work of every table (reminders, deadlines, presets, signups), posted in the
//! channels this process owns.

use chrono::{DateTime, Utc};
use serenity::model::id::ChannelId;

use gaugebot_table::input::Response;
use gaugebot_table::tables::MAX_AUTOMA_MOVES;
use gaugebot_table::{Decided, Outgoing, Table};

use super::job::Job;
use super::parcel::{tick_nonce, Address, Parcel};
use super::posting::reply;
use super::shared::Shared;

/// Runs the tables' time-driven work at `now` and posts what is due, pinging the players it
/// names. Waits until every READY has been caught up, so that a move posted while the bot was
/// away is read before its clock is judged. What the tick stored is kept in the outbox with
/// it and delivered by the channel's worker, in the channel's order, with the prompt's buttons
/// and the pinned status as after a player's move.
pub(crate) async fn tick(shared: &std::sync::Arc<Shared>, now: DateTime<Utc>) {
    if shared.queues.closing() || !shared.session.all_caught_up() {
        return;
    }
    for key in shared.tables.due_channels().await {
        for (response, kept) in tick_table(shared, &key, now).await {
            let Some(channel) = key.parse::<u64>().ok().filter(|id| *id != 0) else {
                continue;
            };
            let channel = ChannelId::new(channel);
            match kept {
                // Stored under this process's ownership (the database fences the write).
                Some(item) => shared.enqueue(channel, Job::Deliver(Box::new(item))),
                None => {
                    if shared.owners.shared() && !shared.owners.holds(&key).await.unwrap_or(false) {
                        // Another process owns the channel now: its reminders are that one's to
                        // post.
                        shared.tables.unload(&key).await;
                        continue;
                    }
                    reply::announce(&shared.discord.rest, channel, &response).await;
                }
            }
        }
    }
}

/// The clock's work at one channel's table, then the moves of the automa to act there, each
/// decided and committed with its parcel (the table locked once): the answers with something to
/// post, and the outbox items stored with them.
async fn tick_table(
    shared: &Shared,
    key: &str,
    now: DateTime<Utc>,
) -> Vec<(Response, Option<Outgoing>)> {
    let mut table = match shared.tables.table(key).await {
        Ok(table) => table,
        Err(error) => {
            tracing::error!(channel = %key, %error, "a table does not load for the tick");
            return Vec::new();
        }
    };
    let mut out = Vec::new();
    let decided = table.decide_tick(now).await;
    if let Some((response, kept)) = commit(shared, &mut table, decided, now).await {
        if !response.replies.is_empty() {
            out.push((response, kept));
        }
    }
    // An automa to act moves (after a restart too: the same position, the same move).
    for _ in 0..MAX_AUTOMA_MOVES {
        let Some(decided) = table.decide_automa(now).await else {
            break;
        };
        match commit(shared, &mut table, decided, now).await {
            Some(done) => out.push(done),
            None => break,
        }
    }
    out
}

/// Commits a decision of the clock or an automa with its parcel (made only if it stores
/// anything); `None` if its write failed (done again at the next tick).
async fn commit(
    shared: &Shared,
    table: &mut Table,
    decided: Decided,
    now: DateTime<Utc>,
) -> Option<(Response, Option<Outgoing>)> {
    let outgoing = if decided.stores() {
        let address = Address::Post(tick_nonce(table, now));
        let response = decided.response();
        let posts = super::present::posts(&response.replies);
        Parcel::of(shared, table, response, &posts, address).outgoing(table.channel())
    } else {
        None
    };
    match table.commit(decided, outgoing).await {
        Ok(committed) => Some((committed.response, committed.kept)),
        Err(_) => None,
    }
}
