//! GUILD_CREATE: a guild's channels and their last message ids, placed in its shard's catch-up
//! plan ([`crate::discord::shards`]).

use std::sync::Arc;

use serenity::all::{ChannelType, Guild};

use crate::discord::catch_up;
use crate::discord::shards::GuildPayload;
use crate::discord::shared::Shared;

/// Places a guild's channels: those behind their cursor catch up, the others are fresh.
pub(crate) fn guild_create(shared: &Arc<Shared>, guild: &Guild, is_new: Option<bool>) {
    let channels = guild
        .channels
        .values()
        .chain(guild.threads.iter())
        .map(|c| (c.id.get(), c.last_message_id.map(|m| m.get())))
        .collect::<Vec<_>>();
    let forums = guild
        .channels
        .values()
        .filter(|c| c.kind == ChannelType::Forum)
        .map(|c| c.id.get())
        .collect();
    for (channel, _) in &channels {
        shared
            .servers
            .saw(&channel.to_string(), &guild.id.get().to_string());
    }
    let payload = GuildPayload {
        guild: guild.id.get(),
        channels,
        forums,
    };
    // serenity decides `is_new` in gateway order: `Some(false)` for a guild its latest READY
    // announced.
    let announced = is_new == Some(false);
    shared
        .session
        .restart
        .guild(payload, announced, &mut |c| catch_up::start(shared, c));
}
