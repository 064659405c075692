//! Time-driven work of every table (reminders, deadlines, presets, signups), posted in the
//! channels this process owns.

use chrono::{DateTime, Utc};
use serenity::model::id::ChannelId;

use super::posting::reply;
use super::shared::Shared;

/// Runs the tables' time-driven work at `now` and posts what is due, pinging the players it
/// names. Waits until every READY has been caught up, so that a move posted while the bot was
/// away is read before its clock is judged.
pub(crate) async fn tick(shared: &Shared, now: DateTime<Utc>) {
    if shared.queues.closing() || !shared.session.all_caught_up() {
        return;
    }
    for (key, response) in shared.tables.tick(now).await {
        let Some(channel) = key.parse::<u64>().ok().filter(|id| *id != 0) else {
            continue;
        };
        if shared.owners.shared() && !shared.owners.holds(&key).await.unwrap_or(false) {
            // Another process owns the channel now: its reminders are that one's to post.
            shared.tables.unload(&key).await;
            continue;
        }
        reply::announce(&shared.discord.rest, ChannelId::new(channel), &response).await;
    }
}
