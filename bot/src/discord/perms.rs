//! Who is a moderator: a member with a role named in the configuration, or with Manage
//! Messages (or Administrator) in the channel, or the server owner. Nobody in DMs.
//!
//! Channels (with their permission overwrites), guilds (owner and roles) and members' roles
//! are fetched over REST and cached for a minute (`moka`); a live message's own `member` field gives
//! the author's roles without a request. Serenity sends these reads; they wait for a global
//! rate limit the bot's own client knows of ([`Rest::after_global`]).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use serenity::all::{
    Channel, GuildId, Http, Message, PermissionOverwrite, PermissionOverwriteType, Permissions,
    RoleId, UserId,
};
use serenity::model::id::ChannelId;

use super::rest::Rest;
use super::retry::retry;

/// How long fetched channels, guilds and members are trusted.
const CACHE_TTL: Duration = Duration::from_secs(60);

/// What matters about a channel.
#[derive(Clone)]
enum ChannelFacts {
    /// A DM or group DM.
    Private,
    /// A server channel or thread.
    Guild {
        guild: GuildId,
        overwrites: Vec<PermissionOverwrite>,
        /// The parent channel of a thread (whose overwrites apply).
        thread_parent: Option<ChannelId>,
    },
}

/// What matters about a server.
struct GuildFacts {
    owner: UserId,
    roles: HashMap<RoleId, (String, Permissions)>,
}

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
    http: Arc<Http>,
    rest: Arc<Rest>,
    /// Moderator role names, lower case.
    role_names: Vec<String>,
    channels: Cache<ChannelId, ChannelFacts>,
    guilds: Cache<GuildId, Arc<GuildFacts>>,
    members: Cache<(GuildId, UserId), Vec<RoleId>>,
}

impl Perms {
    pub(crate) fn new(http: Arc<Http>, rest: Arc<Rest>, role_names: &[String]) -> Self {
        Perms {
            http,
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
        let facts = match self.guild(channel, guild, false).await {
            Ok(facts) if roles.iter().all(|r| facts.roles.contains_key(r)) => Ok(facts),
            _ => self.guild(channel, guild, true).await,
        };
        match facts {
            Ok(facts) => {
                facts.owner == user
                    || roles.iter().any(|r| {
                        facts.roles.get(r).is_some_and(|(name, _)| {
                            self.role_names.contains(&name.trim().to_lowercase())
                        })
                    })
            }
            Err(error) => {
                tracing::warn!(%channel, %user, %error, "cannot check moderator rights; treating as a player");
                false
            }
        }
    }

    async fn check(&self, message: &Message) -> serenity::Result<bool> {
        let (guild, overwrites) = match self.channel(message.channel_id).await? {
            ChannelFacts::Private => return Ok(false),
            ChannelFacts::Guild {
                guild,
                overwrites,
                thread_parent: None,
            } => (guild, overwrites),
            ChannelFacts::Guild {
                guild,
                thread_parent: Some(parent),
                ..
            } => match self.channel(parent).await? {
                ChannelFacts::Guild { overwrites, .. } => (guild, overwrites),
                ChannelFacts::Private => (guild, Vec::new()),
            },
        };
        let mut facts = self.guild(message.channel_id, guild, false).await?;
        let user = message.author.id;
        if user == facts.owner {
            return Ok(true);
        }
        let roles = match &message.member {
            Some(member) => member.roles.clone(),
            None => self.member_roles(message.channel_id, guild, user).await?,
        };
        if roles.iter().any(|r| !facts.roles.contains_key(r)) {
            // A role created since the guild was cached.
            facts = self.guild(message.channel_id, guild, true).await?;
        }
        let named = roles.iter().any(|r| {
            facts
                .roles
                .get(r)
                .is_some_and(|(name, _)| self.role_names.contains(&name.trim().to_lowercase()))
        });
        if named {
            return Ok(true);
        }
        let permissions = channel_permissions(guild, &facts, &roles, &overwrites, user);
        Ok(permissions.intersects(Permissions::MANAGE_MESSAGES | Permissions::ADMINISTRATOR))
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

    async fn channel(&self, channel: ChannelId) -> serenity::Result<ChannelFacts> {
        if let Some(facts) = self.channels.get(&channel) {
            return Ok(facts);
        }
        let fetched = retry("read the channel", channel, || {
            self.rest.after_global(self.http.get_channel(channel))
        })
        .await?;
        let facts = match fetched {
            Channel::Guild(c) => ChannelFacts::Guild {
                guild: c.guild_id,
                overwrites: c.permission_overwrites,
                thread_parent: c.thread_metadata.and(c.parent_id),
            },
            _ => ChannelFacts::Private,
        };
        self.channels.insert(channel, facts.clone());
        Ok(facts)
    }

    async fn guild(
        &self,
        channel: ChannelId,
        guild: GuildId,
        refresh: bool,
    ) -> serenity::Result<Arc<GuildFacts>> {
        if !refresh {
            if let Some(facts) = self.guilds.get(&guild) {
                return Ok(facts);
            }
        }
        let fetched = retry("read the server", channel, || {
            self.rest.after_global(self.http.get_guild(guild))
        })
        .await?;
        let facts = Arc::new(GuildFacts {
            owner: fetched.owner_id,
            roles: fetched
                .roles
                .into_iter()
                .map(|(id, role)| (id, (role.name, role.permissions)))
                .collect(),
        });
        self.guilds.insert(guild, facts.clone());
        Ok(facts)
    }

    async fn member_roles(
        &self,
        channel: ChannelId,
        guild: GuildId,
        user: UserId,
    ) -> serenity::Result<Vec<RoleId>> {
        if let Some(roles) = self.members.get(&(guild, user)) {
            return Ok(roles);
        }
        let member = retry("read the member", channel, || {
            self.rest.after_global(self.http.get_member(guild, user))
        })
        .await?;
        self.members.insert((guild, user), member.roles.clone());
        Ok(member.roles)
    }
}

/// A member's permissions in a channel, as Discord computes them: @everyone and the member's
/// roles, Administrator grants everything, then the channel's overwrites for @everyone, for
/// the member's roles, and for the member.
fn channel_permissions(
    guild: GuildId,
    facts: &GuildFacts,
    roles: &[RoleId],
    overwrites: &[PermissionOverwrite],
    user: UserId,
) -> Permissions {
    let everyone = RoleId::new(guild.get());
    let mut permissions = facts
        .roles
        .get(&everyone)
        .map(|(_, p)| *p)
        .unwrap_or_else(Permissions::empty);
    for role in roles {
        if let Some((_, p)) = facts.roles.get(role) {
            permissions |= *p;
        }
    }
    if permissions.contains(Permissions::ADMINISTRATOR) {
        return Permissions::all();
    }
    for o in overwrites {
        if o.kind == PermissionOverwriteType::Role(everyone) {
            permissions &= !o.deny;
            permissions |= o.allow;
        }
    }
    let (mut allow, mut deny) = (Permissions::empty(), Permissions::empty());
    for o in overwrites {
        if let PermissionOverwriteType::Role(role) = o.kind {
            if role != everyone && roles.contains(&role) {
                allow |= o.allow;
                deny |= o.deny;
            }
        }
    }
    permissions &= !deny;
    permissions |= allow;
    for o in overwrites {
        if o.kind == PermissionOverwriteType::Member(user) {
            permissions &= !o.deny;
            permissions |= o.allow;
        }
    }
    permissions
}

#[cfg(test)]
mod tests {
    use super::*;

    fn facts() -> GuildFacts {
        let mut roles = HashMap::new();
        roles.insert(
            RoleId::new(10),
            ("@everyone".to_string(), Permissions::SEND_MESSAGES),
        );
        roles.insert(
            RoleId::new(11),
            ("Helpers".to_string(), Permissions::MANAGE_MESSAGES),
        );
        roles.insert(
            RoleId::new(12),
            ("Admins".to_string(), Permissions::ADMINISTRATOR),
        );
        GuildFacts {
            owner: UserId::new(1),
            roles,
        }
    }

    fn overwrite(
        kind: PermissionOverwriteType,
        allow: Permissions,
        deny: Permissions,
    ) -> PermissionOverwrite {
        PermissionOverwrite { allow, deny, kind }
    }

    #[test]
    fn overwrites_apply_everyone_then_roles_then_the_member() {
        let g = GuildId::new(10);
        let f = facts();
        let user = UserId::new(5);
        let helpers = [RoleId::new(11)];
        let none: [RoleId; 0] = [];
        let mm = Permissions::MANAGE_MESSAGES;
        // Role grants it at guild level.
        assert!(channel_permissions(g, &f, &helpers, &[], user).contains(mm));
        assert!(!channel_permissions(g, &f, &none, &[], user).contains(mm));
        // A role overwrite denies it in this channel.
        let deny_helpers = overwrite(
            PermissionOverwriteType::Role(RoleId::new(11)),
            Permissions::empty(),
            mm,
        );
        assert!(
            !channel_permissions(g, &f, &helpers, std::slice::from_ref(&deny_helpers), user)
                .contains(mm)
        );
        // A member overwrite grants it back.
        let allow_user = overwrite(
            PermissionOverwriteType::Member(user),
            mm,
            Permissions::empty(),
        );
        assert!(
            channel_permissions(g, &f, &helpers, &[deny_helpers, allow_user], user).contains(mm)
        );
        // @everyone overwrite grants it to everybody here.
        let everyone = overwrite(
            PermissionOverwriteType::Role(RoleId::new(10)),
            mm,
            Permissions::empty(),
        );
        assert!(channel_permissions(g, &f, &none, &[everyone], user).contains(mm));
        // Administrator ignores overwrites.
        let admins = [RoleId::new(12)];
        let deny_everyone = overwrite(
            PermissionOverwriteType::Role(RoleId::new(10)),
            Permissions::empty(),
            mm,
        );
        assert!(channel_permissions(g, &f, &admins, &[deny_everyone], user).contains(mm));
    }
}
