//! Discord's permission rule, written once: a member's permissions in a channel from the
//! guild's roles, the member's roles, the owner and the channel's overwrites (a thread's are
//! its parent channel's), as Discord computes them:
//!
//! 1. the server owner has every permission;
//! 2. the base: the @everyone role's permissions (the role whose id is the guild's) and every
//!    role of the member's, together; Administrator in the base grants every permission;
//! 3. the channel's overwrite for @everyone (its deny, then its allow);
//! 4. the overwrites of the member's roles, together (every deny, then every allow);
//! 5. the member's own overwrite (its deny, then its allow), last.
//!
//! On raw `u64` bits, as Discord sends them (strings of the integer), so a bit serenity 0.12
//! does not know (Pin Messages, bit 51: its `Permissions` drops unknown bits) is kept. The
//! moderator check ([`super::perms`]) and the pin check ([`super::pins`]) both use it; what
//! they read from Discord comes through the one REST client ([`super::rest`]) as
//! [`ChannelFacts`] and [`GuildFacts`].

use std::collections::HashMap;

use serde_json::Value;

/// Administrator: every permission, whatever the overwrites say.
pub(crate) const ADMINISTRATOR: u64 = 1 << 3;
/// Manage Messages (a moderator's permission).
pub(crate) const MANAGE_MESSAGES: u64 = 1 << 13;
/// Pin Messages (bit 51, since 2026 no longer implied by Manage Messages).
pub(crate) const PIN_MESSAGES: u64 = 1 << 51;
/// Every permission (the owner's, an administrator's).
pub(crate) const ALL: u64 = u64::MAX;

/// Whom a channel overwrite is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    /// A role (@everyone's id is the guild's).
    Role(u64),
    /// A member.
    Member(u64),
}

/// One permission overwrite of a channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Overwrite {
    /// Whom it is for.
    pub(crate) target: Target,
    /// The bits it grants.
    pub(crate) allow: u64,
    /// The bits it takes away.
    pub(crate) deny: u64,
}

/// What matters about a channel for permissions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum ChannelFacts {
    /// A DM or group DM: no guild, no permissions to compute.
    Private,
    /// A server channel or thread.
    Guild {
        /// Its guild.
        guild: u64,
        /// Its own overwrites (a thread has none that count).
        overwrites: Vec<Overwrite>,
        /// The parent channel of a thread, whose overwrites apply in it.
        thread_parent: Option<u64>,
    },
}

/// What matters about a server for permissions: its owner and its roles' names and bits.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct GuildFacts {
    /// The guild's id (also its @everyone role's).
    pub(crate) id: u64,
    /// The owner's user id.
    pub(crate) owner: u64,
    /// Every role: its name and its permission bits.
    pub(crate) roles: HashMap<u64, (String, u64)>,
}

/// Where the permissions are computed: a channel with its overwrites, or a thread, whose
/// overwrites are its parent channel's.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Place<'a> {
    /// A channel, with its own overwrites.
    Channel(&'a [Overwrite]),
    /// A thread: its parent channel's overwrites apply.
    Thread {
        /// The parent channel's overwrites.
        parent: &'a [Overwrite],
    },
}

impl Place<'_> {
    /// The overwrites that apply here.
    fn overwrites(&self) -> &[Overwrite] {
        match self {
            Place::Channel(own) => own,
            Place::Thread { parent } => parent,
        }
    }
}

/// A member's permissions in `place`: Discord's rule (see the module's documentation).
pub(crate) fn member_permissions(
    guild: &GuildFacts,
    member: u64,
    member_roles: &[u64],
    place: Place<'_>,
) -> u64 {
    if member == guild.owner {
        return ALL;
    }
    let bits_of = |role: &u64| guild.roles.get(role).map_or(0, |(_, bits)| *bits);
    let mut permissions = bits_of(&guild.id);
    for role in member_roles {
        permissions |= bits_of(role);
    }
    if permissions & ADMINISTRATOR != 0 {
        return ALL;
    }
    let overwrites = place.overwrites();
    let apply = |permissions: u64, allow: u64, deny: u64| (permissions & !deny) | allow;
    for o in overwrites {
        if o.target == Target::Role(guild.id) {
            permissions = apply(permissions, o.allow, o.deny);
        }
    }
    let (mut allow, mut deny) = (0, 0);
    for o in overwrites {
        if let Target::Role(role) = o.target {
            if role != guild.id && member_roles.contains(&role) {
                allow |= o.allow;
                deny |= o.deny;
            }
        }
    }
    permissions = apply(permissions, allow, deny);
    for o in overwrites {
        if o.target == Target::Member(member) {
            permissions = apply(permissions, o.allow, o.deny);
        }
    }
    permissions
}

/// An integer as Discord sends it (a string; a number is taken too).
fn integer(value: &Value) -> Option<u64> {
    value
        .as_str()
        .and_then(|s| s.parse().ok())
        .or_else(|| value.as_u64())
}

/// A snowflake, as Discord sends it (a string); never 0.
pub(crate) fn snowflake(value: &Value) -> Option<u64> {
    integer(value).filter(|id| *id != 0)
}

/// A permission value, as Discord sends it (a string of the integer; every bit kept).
fn bits(value: &Value) -> u64 {
    integer(value).unwrap_or(0)
}

/// A channel's facts from Discord's channel object (`GET /channels/{c}`): a channel without
/// a guild is private; a thread (types 10 to 12) names its parent.
pub(crate) fn channel_facts(channel: &Value) -> ChannelFacts {
    let Some(guild) = snowflake(&channel["guild_id"]) else {
        return ChannelFacts::Private;
    };
    let thread =
        matches!(channel["type"].as_u64(), Some(10..=12)) || channel["thread_metadata"].is_object();
    let overwrites = channel["permission_overwrites"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| {
            let id = snowflake(&o["id"])?;
            // `type` is 0 (role) or 1 (member); older payloads sent "role" / "member".
            let target = match (&o["type"], o["type"].as_u64()) {
                (_, Some(1)) => Target::Member(id),
                (Value::String(kind), _) if kind == "member" => Target::Member(id),
                _ => Target::Role(id),
            };
            Some(Overwrite {
                target,
                allow: bits(&o["allow"]),
                deny: bits(&o["deny"]),
            })
        })
        .collect();
    ChannelFacts::Guild {
        guild,
        overwrites,
        thread_parent: if thread {
            snowflake(&channel["parent_id"])
        } else {
            None
        },
    }
}

/// A guild's facts from Discord's guild object (`GET /guilds/{g}`).
pub(crate) fn guild_facts(guild: &Value) -> Option<GuildFacts> {
    Some(GuildFacts {
        id: snowflake(&guild["id"])?,
        owner: snowflake(&guild["owner_id"])?,
        roles: guild["roles"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(|r| {
                let name = r["name"].as_str().unwrap_or_default().to_string();
                Some((snowflake(&r["id"])?, (name, bits(&r["permissions"]))))
            })
            .collect(),
    })
}

/// A member's role ids from Discord's guild member object (`GET /guilds/{g}/members/{u}`).
pub(crate) fn member_roles(member: &Value) -> Vec<u64> {
    member["roles"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(snowflake)
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const GUILD: u64 = 10;
    const OWNER: u64 = 1;
    const MEMBER: u64 = 5;
    const HELPERS: u64 = 11;
    const ADMINS: u64 = 12;
    const PINNERS: u64 = 13;
    const SEND: u64 = 1 << 11;

    /// @everyone may send; Helpers manage messages; Admins administer; Pinners pin.
    fn guild() -> GuildFacts {
        let role = |name: &str, bits: u64| (name.to_string(), bits);
        GuildFacts {
            id: GUILD,
            owner: OWNER,
            roles: HashMap::from([
                (GUILD, role("@everyone", SEND)),
                (HELPERS, role("Helpers", MANAGE_MESSAGES)),
                (ADMINS, role("Admins", ADMINISTRATOR)),
                (PINNERS, role("Pinners", PIN_MESSAGES)),
            ]),
        }
    }

    fn role(id: u64, allow: u64, deny: u64) -> Overwrite {
        Overwrite {
            target: Target::Role(id),
            allow,
            deny,
        }
    }

    fn member(id: u64, allow: u64, deny: u64) -> Overwrite {
        Overwrite {
            target: Target::Member(id),
            allow,
            deny,
        }
    }

    fn in_channel(roles: &[u64], overwrites: &[Overwrite]) -> u64 {
        member_permissions(&guild(), MEMBER, roles, Place::Channel(overwrites))
    }

    #[test]
    fn the_base_is_everyone_and_the_members_roles_together() {
        assert_eq!(in_channel(&[], &[]), SEND);
        assert_eq!(in_channel(&[HELPERS], &[]), SEND | MANAGE_MESSAGES);
        assert_eq!(
            in_channel(&[HELPERS, PINNERS], &[]),
            SEND | MANAGE_MESSAGES | PIN_MESSAGES,
            "bit 51 is kept"
        );
    }

    #[test]
    fn administrator_has_every_permission_whatever_the_overwrites() {
        let deny_all = [
            role(GUILD, 0, ALL),
            role(ADMINS, 0, ALL),
            member(MEMBER, 0, ALL),
        ];
        assert_eq!(in_channel(&[ADMINS], &deny_all), ALL);
        assert_ne!(in_channel(&[HELPERS], &deny_all), ALL);
    }

    #[test]
    fn the_owner_has_every_permission_without_a_role() {
        let deny_all = [role(GUILD, 0, ALL), member(OWNER, 0, ALL)];
        let owner = member_permissions(&guild(), OWNER, &[], Place::Channel(&deny_all));
        assert_eq!(owner, ALL);
        let other = member_permissions(&guild(), MEMBER, &[], Place::Channel(&deny_all));
        assert_eq!(other, 0);
    }

    #[test]
    fn everyone_denies_then_a_role_allows() {
        let overwrites = [
            role(GUILD, 0, PIN_MESSAGES | SEND),
            role(PINNERS, PIN_MESSAGES, 0),
        ];
        // @everyone's deny takes the role's base bit away; the role's overwrite gives it back.
        assert_eq!(in_channel(&[PINNERS], &overwrites), PIN_MESSAGES);
        assert_eq!(in_channel(&[], &overwrites), 0);
        // @everyone's allow reaches everybody.
        let everyone_allows = [role(GUILD, PIN_MESSAGES, 0)];
        assert_eq!(in_channel(&[], &everyone_allows), SEND | PIN_MESSAGES);
        // The roles' overwrites count together: an allow of one beats a deny of another.
        let roles_disagree = [
            role(HELPERS, 0, PIN_MESSAGES),
            role(PINNERS, PIN_MESSAGES, 0),
        ];
        assert_ne!(
            in_channel(&[HELPERS, PINNERS], &roles_disagree) & PIN_MESSAGES,
            0
        );
        // A role overwrite applies only to the role's members.
        assert_eq!(
            in_channel(&[HELPERS], &[role(PINNERS, SEND, 0)]),
            SEND | MANAGE_MESSAGES
        );
    }

    #[test]
    fn the_members_own_overwrite_comes_last() {
        let denied_then_allowed = [
            member(MEMBER, PIN_MESSAGES, 0),
            role(PINNERS, 0, PIN_MESSAGES),
        ];
        assert_ne!(
            in_channel(&[PINNERS], &denied_then_allowed) & PIN_MESSAGES,
            0
        );
        let allowed_then_denied = [
            role(GUILD, MANAGE_MESSAGES, 0),
            role(HELPERS, MANAGE_MESSAGES, 0),
            member(MEMBER, 0, MANAGE_MESSAGES),
        ];
        assert_eq!(in_channel(&[HELPERS], &allowed_then_denied), SEND);
        // Another member's overwrite does not apply.
        assert_eq!(in_channel(&[], &[member(99, PIN_MESSAGES, SEND)]), SEND);
    }

    #[test]
    fn a_thread_takes_its_parents_overwrites() {
        let parent = [role(HELPERS, 0, MANAGE_MESSAGES)];
        let in_thread = member_permissions(
            &guild(),
            MEMBER,
            &[HELPERS],
            Place::Thread { parent: &parent },
        );
        assert_eq!(in_thread, SEND);
        let facts = channel_facts(&json!({
            "id": "30", "type": 11, "guild_id": "10", "parent_id": "20",
            "thread_metadata": {"archived": false},
            "permission_overwrites": [],
        }));
        assert_eq!(
            facts,
            ChannelFacts::Guild {
                guild: GUILD,
                overwrites: Vec::new(),
                thread_parent: Some(20)
            }
        );
        // A text channel's parent is its category, whose overwrites are not read.
        let text =
            channel_facts(&json!({"id": "20", "type": 0, "guild_id": "10", "parent_id": "7"}));
        assert!(matches!(
            text,
            ChannelFacts::Guild {
                thread_parent: None,
                ..
            }
        ));
    }

    #[test]
    fn discords_objects_are_read_with_every_bit() {
        let channel = channel_facts(&json!({
            "id": "20", "type": 0, "guild_id": "10",
            "permission_overwrites": [
                {"id": "10", "type": 0, "allow": "0", "deny": PIN_MESSAGES.to_string()},
                {"id": "5", "type": 1, "allow": PIN_MESSAGES.to_string(), "deny": "0"},
            ],
        }));
        let ChannelFacts::Guild { overwrites, .. } = channel else {
            panic!("a guild channel: {channel:?}");
        };
        assert_eq!(
            overwrites,
            [
                role(GUILD, 0, PIN_MESSAGES),
                member(MEMBER, PIN_MESSAGES, 0)
            ]
        );
        assert_eq!(
            channel_facts(&json!({"id": "3", "type": 1})),
            ChannelFacts::Private
        );
        let facts = guild_facts(&json!({
            "id": "10", "owner_id": "1",
            "roles": [{"id": "13", "name": "Pinners", "permissions": PIN_MESSAGES.to_string()}],
        }))
        .expect("a guild");
        assert_eq!(facts.roles[&PINNERS], ("Pinners".to_string(), PIN_MESSAGES));
        assert_eq!(
            member_roles(&json!({"roles": ["11", "13"]})),
            [HELPERS, PINNERS]
        );
    }
}
