//! READY (start-up and each reconnect): a new session. Its collector is registered on the
//! shard, then the channels behind their cursor catch up ([`catch_up::after_ready`]).

use std::sync::Arc;

use serenity::all::{Context, Ready};
use serenity::gateway::CollectorCallback;

use super::message::collect;
use crate::discord::catch_up;
use crate::discord::shared::Shared;

/// A new session: register a collector on its shard, then catch up.
pub(crate) async fn ready(shared: &Arc<Shared>, ctx: &Context, ready: &Ready) {
    tracing::info!(
        user = %ready.user.name,
        guilds = ready.guilds.len(),
        "READY"
    );
    let guilds: Vec<u64> = ready.guilds.iter().map(|g| g.id.get()).collect();
    // Interaction follow-ups from this client need the application id.
    shared.discord.rest.set_application_id(ready.application.id);
    let epoch = shared.session.ready(ready.user.id.get());
    let shard = ctx.shard_id.0;
    // Before the collector: a message it queues finds its channel stale until caught up.
    shared.session.restart.session(shard, epoch);
    let collector = shared.clone();
    ctx.shard
        .add_collector(CollectorCallback(Box::new(move |event| {
            collect(&collector, event, epoch)
        })));
    catch_up::after_ready(shared, shard, epoch, guilds).await;
}
