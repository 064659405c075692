//! Time-driven work of every table (reminders, deadlines, presets, signups), posted in the
//! channels this process owns.

use chrono::{DateTime, Utc};
use serenity::model::id::ChannelId;

use gaugebot_table::input::Response;
use gaugebot_table::{Kept, Table};

use super::job::Job;
use super::outbox::{tick_nonce, Address, Parcel};
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
    let keep = |table: &Table, response: &Response| -> Option<Kept> {
        let address = Address::Post(tick_nonce(table, now));
        let posts = super::present::posts(&response.replies);
        Parcel::of(shared, table, response, &posts, address).kept()
    };
    for (key, handled) in shared.tables.tick_keeping(now, &keep).await {
        let Some(channel) = key.parse::<u64>().ok().filter(|id| *id != 0) else {
            continue;
        };
        let channel = ChannelId::new(channel);
        match handled.kept {
            // Stored under this process's ownership (the database fences the write).
            Some(item) => shared.enqueue(channel, Job::Deliver(Box::new(item))),
            None => {
                if shared.owners.shared() && !shared.owners.holds(&key).await.unwrap_or(false) {
                    // Another process owns the channel now: its reminders are that one's to post.
                    shared.tables.unload(&key).await;
                    continue;
                }
                reply::announce(&shared.discord.rest, channel, &handled.response).await;
            }
        }
    }
}
