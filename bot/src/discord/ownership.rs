//! Who applies a channel's messages: with PostgreSQL several processes share the database, and
//! a process applies a channel's messages only while it owns the channel; it takes over the
//! channels (of its shards) whose owner is gone ([`gaugebot_store::backend::Owners`]).

use std::sync::Arc;

use gaugebot_store::backend::Claim;

use super::catch_up;
use super::channel::ChannelState;
use super::shared::Shared;

/// Whether this process may apply the channel's messages now; claims it when it is free or its
/// owner is gone (then the table is loaded afresh and the channel caught up first).
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
pub(crate) async fn owned(shared: &Shared, state: &mut ChannelState) -> bool {
    match shared
        .owners
        .claim(&state.key, state.guild.as_deref())
        .await
    {
        Ok(Claim::Mine) => true,
        Ok(Claim::New) => {
            tracing::info!(channel = %state.channel, "this process owns the channel now");
            // Loaded afresh, and caught up first unless the guild's payload found it up to
            // date in this session and no message of it was left to another process since
            // (leaving one forgets that).
            shared.tables.unload(&state.key).await;
            state.synced_epoch = 0;
            state.outbox_checked = false;
            true
        }
        Ok(Claim::Other) => {
            shared.session.restart.forget(state.channel.get());
            state.synced_epoch = 0;
            false
        }
        Err(error) => {
            // A transient fault whatever its kind: the channel is left behind and caught up
            // when the owner can be told ([`super::behind`], which logs the outage once).
            gaugebot_store::faults::note_any(&error);
            tracing::debug!(channel = %state.channel, %error, "cannot tell who owns the channel; caught up later");
            state.synced_epoch = 0;
            false
        }
    }
}

/// Takes over the channels (of this process's shards) whose owner is gone: each is claimed and
/// caught up from its stored cursor by its worker.
pub(crate) async fn take_over(shared: &Arc<Shared>) {
    if shared.queues.closing() || !shared.owners.shared() {
        return;
    }
    let orphans = match shared.owners.orphans().await {
        Ok(orphans) => {
            shared.behind.listing(false);
            orphans
        }
        Err(error) => {
            // Once per outage, not every 2 s.
            if shared.behind.listing(true) {
                tracing::warn!(%error, "cannot list the channels without an owner; trying every 2 s");
            }
            return;
        }
    };
    let shards = shared.settings.shards;
    for (key, guild) in orphans {
        let Some(channel) = key.parse::<u64>().ok().filter(|id| *id != 0) else {
            continue;
        };
        let guild = guild.and_then(|g| g.parse::<u64>().ok());
        if guild.is_none() && shards != crate::config::ShardRange::SINGLE {
            continue;
        }
        if shards.serves(guild) {
            tracing::info!(%channel, "taking over a channel whose owner is gone");
            drop(catch_up::start(shared, channel));
        }
    }
}
