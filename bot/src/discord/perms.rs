//! Who is a moderator: a member with a role named in the configuration, or with Manage
//! Messages (or Administrator) in the channel, or the server owner. Nobody in DMs.
//!
//! Channels (with their permission overwrites), guilds (owner and roles) and members' roles
//! are read through the bot's one REST client ([`super::rest`]) and cached for a minute
//! (`moka`); a live message's own `member` field gives the author's roles without a request.
//! The permissions are Discord's rule ([`super::permissions`]), on the raw bits.

use std::sync::Arc;
use std::time::Duration;

use serenity::all::{GuildId, Message, Permissions, RoleId, UserId};
use serenity::model::id::ChannelId;

use super::permissions::{
    channel_facts, guild_facts, member_permissions, member_roles, ChannelFacts, GuildFacts, Place,
    ADMINISTRATOR, MANAGE_MESSAGES,
};
use super::rest::{Rest, RestError};
use super::retry::retry;

/// How long fetched channels, guilds and members are trusted.
const CACHE_TTL: Duration = Duration::from_secs(60);

type Cache<K, V> = moka::sync::Cache<K, V>;

/// A cache whose entries are trusted for [`CACHE_TTL`].
fn cache<K, V>() -> Cache<K, V>
where
    K: std::hash::Hash + Eq + Send + Sync + 'static,
    V: Clone + Send + Sync + 'static,
{
    moka::sync::Cache::builder().time_to_live(CACHE_TTL).build()
}

/// The moderator check with its caches.
pub(crate) struct Perms {
    rest: Arc<Rest>,
    /// Moderator role names, lower case.
    role_names: Vec<String>,
    channels: Cache<ChannelId, ChannelFacts>,
    guilds: Cache<GuildId, Arc<GuildFacts>>,
    members: Cache<(GuildId, UserId), Vec<u64>>,
}

impl Perms {
    /// The moderator check, reading through `rest`; `role_names` are the moderator roles.
    pub(crate) fn new(rest: Arc<Rest>, role_names: &[String]) -> Self {
        Perms {
            rest,
            role_names: role_names.iter().map(|r| r.trim().to_lowercase()).collect(),
            channels: cache(),
            guilds: cache(),
            members: cache(),
        }
    }

    /// Whether the author of `message` may run moderator commands in its channel. When Discord
    /// cannot be asked, the answer is no (and the failure is logged).
    pub(crate) async fn is_moderator(&self, message: &Message) -> bool {
        match self.check(message).await {
            Ok(answer) => answer,
            Err(error) => {
                tracing::warn!(
                    channel = %message.channel_id,
                    user = %message.author.id,
                    %error,
                    "cannot check moderator rights; treating as a player"
                );
                false
            }
        }
    }

    /// Whether a member who used a slash command may run moderator commands: Manage Messages
    /// or Administrator in the channel (Discord computes `permissions` for interactions), a
    /// moderator role, or the server owner. Nobody in DMs.
    pub(crate) async fn is_moderator_member(
        &self,
        channel: ChannelId,
        guild: Option<GuildId>,
        user: UserId,
        roles: &[RoleId],
        permissions: Option<Permissions>,
    ) -> bool {
        let Some(guild) = guild else {
            return false;
        };
        if permissions.is_some_and(|p| {
            p.intersects(Permissions::MANAGE_MESSAGES | Permissions::ADMINISTRATOR)
        }) {
            return true;
        }
        let roles: Vec<u64> = roles.iter().map(|r| r.get()).collect();
        let facts = match self.guild(channel, guild, false).await {
            Ok(facts) if roles.iter().all(|r| facts.roles.contains_key(r)) => Ok(facts),
            _ => self.guild(channel, guild, true).await,
        };
        match facts {
            Ok(facts) => facts.owner == user.get() || self.named(&facts, &roles),
            Err(error) => {
                tracing::warn!(%channel, %user, %error, "cannot check moderator rights; treating as a player");
                false
            }
        }
    }

    /// Whether one of `roles` is a moderator role by its name.
    fn named(&self, facts: &GuildFacts, roles: &[u64]) -> bool {
        roles.iter().any(|r| {
            facts
                .roles
                .get(r)
                .is_some_and(|(name, _)| self.role_names.contains(&name.trim().to_lowercase()))
        })
    }

    async fn check(&self, message: &Message) -> Result<bool, RestError> {
        let (guild, own, parent) = match self.channel(message.channel_id).await? {
            ChannelFacts::Private => return Ok(false),
            ChannelFacts::Guild {
                guild,
                overwrites,
                thread_parent,
            } => (GuildId::new(guild), overwrites, thread_parent),
        };
        let parent = match parent {
            Some(parent) => match self.channel(ChannelId::new(parent)).await? {
                ChannelFacts::Guild { overwrites, .. } => Some(overwrites),
                ChannelFacts::Private => Some(Vec::new()),
            },
            None => None,
        };
        let mut facts = self.guild(message.channel_id, guild, false).await?;
        let user = message.author.id;
        if user.get() == facts.owner {
            return Ok(true);
        }
        let roles = match &message.member {
            Some(member) => member.roles.iter().map(|r| r.get()).collect(),
            None => self.member_roles(message.channel_id, guild, user).await?,
        };
        if roles.iter().any(|r| !facts.roles.contains_key(r)) {
            // A role created since the guild was cached.
            facts = self.guild(message.channel_id, guild, true).await?;
        }
        if self.named(&facts, &roles) {
            return Ok(true);
        }
        let place = match &parent {
            Some(parent) => Place::Thread { parent },
            None => Place::Channel(&own),
        };
        let permissions = member_permissions(&facts, user.get(), &roles, place);
        Ok(permissions & (MANAGE_MESSAGES | ADMINISTRATOR) != 0)
    }

    /// Whether a message is a direct message to the bot. A live message from a server says so
    /// (`guild_id`); one read from the channel history does not, so its channel is looked up
    /// (cached). When Discord cannot be asked, it is taken for a server channel.
    pub(crate) async fn is_direct(&self, message: &Message) -> bool {
        if message.guild_id.is_some() {
            return false;
        }
        matches!(
            self.channel(message.channel_id).await,
            Ok(ChannelFacts::Private)
        )
    }

    async fn channel(&self, channel: ChannelId) -> Result<ChannelFacts, RestError> {
        if let Some(facts) = self.channels.get(&channel) {
            return Ok(facts);
        }
        let fetched = retry("read the channel", channel, || self.rest.channel(channel)).await?;
        let facts = channel_facts(&fetched);
        self.channels.insert(channel, facts.clone());
        Ok(facts)
    }

    async fn guild(
        &self,
        channel: ChannelId,
        guild: GuildId,
        refresh: bool,
    ) -> Result<Arc<GuildFacts>, RestError> {
        if !refresh {
            if let Some(facts) = self.guilds.get(&guild) {
                return Ok(facts);
            }
        }
        let fetched = retry("read the server", channel, || self.rest.guild(guild)).await?;
        let facts = guild_facts(&fetched).ok_or_else(|| {
            RestError::Invalid("no id or owner in Discord's guild object".to_string())
        })?;
        let facts = Arc::new(facts);
        self.guilds.insert(guild, facts.clone());
        Ok(facts)
    }

    async fn member_roles(
        &self,
        channel: ChannelId,
        guild: GuildId,
        user: UserId,
    ) -> Result<Vec<u64>, RestError> {
        if let Some(roles) = self.members.get(&(guild, user)) {
            return Ok(roles);
        }
        let member = retry("read the member", channel, || self.rest.member(guild, user)).await?;
        let roles = member_roles(&member);
        self.members.insert((guild, user), roles.clone());
        Ok(roles)
    }
}
