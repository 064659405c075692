//! Events in: serenity's event handler, one gateway event per file. Every method runs in its
//! own spawned task; only the collector ([`message::collect`]), registered on READY, runs in
//! gateway order. Slash commands and autocomplete reach poise's framework
//! ([`crate::discord::interactions::slash`]), not this handler.

mod guild_create;
mod interaction_create;
pub(crate) mod message;
mod message_delete;
mod message_update;
mod ready;
mod resume;

use std::sync::Arc;

use serenity::all::{
    Context, EventHandler, Guild, GuildId, Interaction, Message, MessageId, MessageUpdateEvent,
    Ready, ResumedEvent,
};
use serenity::async_trait;
use serenity::model::id::ChannelId;

use crate::discord::shared::Shared;

/// serenity's event handler: hands each event to its file.
pub(crate) struct Handler {
    pub(crate) shared: Arc<Shared>,
}

#[async_trait]
impl EventHandler for Handler {
    async fn ready(&self, ctx: Context, ready: Ready) {
        ready::ready(&self.shared, &ctx, &ready).await;
    }

    async fn interaction_create(&self, _ctx: Context, interaction: Interaction) {
        interaction_create::interaction_create(&self.shared, interaction).await;
    }

    async fn guild_create(&self, _ctx: Context, guild: Guild, is_new: Option<bool>) {
        guild_create::guild_create(&self.shared, &guild, is_new);
    }

    async fn resume(&self, _ctx: Context, _event: ResumedEvent) {
        resume::resume();
    }

    async fn message(&self, _ctx: Context, message: Message) {
        message::message(&self.shared, message);
    }

    async fn message_update(
        &self,
        _ctx: Context,
        _old: Option<Message>,
        _new: Option<Message>,
        event: MessageUpdateEvent,
    ) {
        message_update::message_update(&self.shared, event);
    }

    async fn message_delete(
        &self,
        _ctx: Context,
        channel_id: ChannelId,
        deleted_message_id: MessageId,
        _guild_id: Option<GuildId>,
    ) {
        message_delete::message_delete(&self.shared, channel_id, deleted_message_id);
    }
}
