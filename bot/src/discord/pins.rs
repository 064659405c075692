//! Pins as Discord has them since 2026, which serenity 0.12 cannot do right: the separate
//! PIN_MESSAGES permission (bit 51, which Manage Messages no longer implies) and the route
//! `/channels/{c}/messages/pins/{m}` (the old `/channels/{c}/pins/{m}` is deprecated).
//!
//! Whether the bot may pin is Discord's permission rule ([`super::permissions`], on raw bits,
//! so bit 51 is kept) over what the bot's one REST client ([`super::rest`]) reads fresh: the
//! channel's overwrites (a thread's are its parent's), the guild's roles and owner, the bot's
//! roles. It pins through the new route (the old one only once the new answers 404). Every
//! request is retried as [`super::retry`] retries them (429s after the time Discord said).

use std::collections::HashSet;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use serenity::model::id::{ChannelId, GuildId, MessageId, UserId};

use super::permissions::{
    channel_facts, guild_facts, member_permissions, member_roles, ChannelFacts, Place, PIN_MESSAGES,
};
use super::rest::{Rest, RestError};
use super::retry::retry;

/// Why a request failed for good.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PinError {
    /// 403: the bot lacks the permission (Discord's code 50013).
    #[error("Discord refused: missing permissions (403)")]
    Forbidden,
    /// 404 on both routes, or an unknown channel or message.
    #[error("not found (404)")]
    NotFound,
    /// Any other answer, or no answer after every retry.
    #[error("{0}")]
    Failed(String),
}

impl From<RestError> for PinError {
    fn from(error: RestError) -> PinError {
        match error.status() {
            Some(403) => PinError::Forbidden,
            Some(404) => PinError::NotFound,
            _ => PinError::Failed(error.to_string()),
        }
    }
}

/// The pins: the bot's REST client, whether the new route is missing, and the channels whose
/// moderators were told the permission lacks.
pub(crate) struct Pins {
    rest: Arc<Rest>,
    /// The new route answered 404: use the old one from now on.
    legacy: AtomicBool,
    /// Channels told once that the permission lacks.
    noticed: Mutex<HashSet<ChannelId>>,
    /// The bot's user id, once known.
    bot: tokio::sync::OnceCell<UserId>,
}

impl Pins {
    /// The pins, sending through `rest`.
    pub(crate) fn new(rest: Arc<Rest>) -> Pins {
        Pins {
            rest,
            legacy: AtomicBool::new(false),
            noticed: Mutex::new(HashSet::new()),
            bot: tokio::sync::OnceCell::new(),
        }
    }

    /// Whether the bot may pin in `channel`: PIN_MESSAGES in its permissions there, by
    /// Discord's rule over the raw values read now (the guild's roles, the bot's roles, the
    /// channel's overwrites; a thread's are its parent's). A DM: yes.
    pub(crate) async fn may_pin(&self, channel: ChannelId) -> Result<bool, PinError> {
        let rest = &*self.rest;
        let read = |id: ChannelId| retry("read the channel", channel, move || rest.channel(id));
        let (guild, own, parent) = match channel_facts(&read(channel).await?) {
            ChannelFacts::Private => return Ok(true),
            ChannelFacts::Guild {
                guild,
                overwrites,
                thread_parent,
            } => (guild, overwrites, thread_parent),
        };
        let parent = match parent {
            Some(parent) => match channel_facts(&read(ChannelId::new(parent)).await?) {
                ChannelFacts::Guild { overwrites, .. } => Some(overwrites),
                ChannelFacts::Private => Some(Vec::new()),
            },
            None => None,
        };
        let place = match &parent {
            Some(parent) => Place::Thread { parent },
            None => Place::Channel(&own),
        };
        let bot = self.bot_id(channel).await?;
        let guild = GuildId::new(guild);
        let server = retry("read the server", channel, || rest.guild(guild)).await?;
        let server = guild_facts(&server)
            .ok_or_else(|| PinError::Failed("no id or owner in the guild object".to_string()))?;
        let member = retry("read the member", channel, || rest.member(guild, bot)).await?;
        let permissions = member_permissions(&server, bot.get(), &member_roles(&member), place);
        Ok(permissions & PIN_MESSAGES != 0)
    }

    /// Pins `message`: `PUT /channels/{c}/messages/pins/{m}`, or the old
    /// `PUT /channels/{c}/pins/{m}` once the new one answered 404.
    pub(crate) async fn pin(&self, channel: ChannelId, message: MessageId) -> Result<(), PinError> {
        let rest = &*self.rest;
        let pin = |legacy: bool| retry("pin", channel, move || rest.pin(channel, message, legacy));
        if self.legacy.load(Ordering::Relaxed) {
            return Ok(pin(true).await?);
        }
        match pin(false).await.map_err(PinError::from) {
            Err(PinError::NotFound) => {}
            other => return other,
        }
        // Unknown route or unknown message: the old route tells which.
        pin(true).await?;
        tracing::warn!("Discord does not serve /channels/{{id}}/messages/pins: pinning through the deprecated /channels/{{id}}/pins from now on");
        self.legacy.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// Whether this is the first time the moderators of `channel` are to be told.
    pub(crate) fn first_notice(&self, channel: ChannelId) -> bool {
        self.noticed
            .lock()
            .map(|mut n| n.insert(channel))
            .unwrap_or(false)
    }

    async fn bot_id(&self, channel: ChannelId) -> Result<UserId, PinError> {
        let rest = &*self.rest;
        self.bot
            .get_or_try_init(|| async {
                let me = retry("read the bot user", channel, || rest.current_user()).await?;
                Ok::<_, PinError>(me.id)
            })
            .await
            .copied()
    }
}
