//! The fake's in-memory model of Discord and the JSON it renders from it.
//!
//! Everything here is synchronous and lives behind one `std::sync::Mutex` in
//! [`crate::shared::Shared`]; no lock is ever held across an `.await`.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use serde_json::{json, Value};
use tokio::sync::mpsc::UnboundedSender;

use crate::identity::{
    bot_role_id, BOT_USER_NAME, DEFAULT_BOT_PERMISSIONS, DEFAULT_EVERYONE_PERMISSIONS,
};
use crate::interactions::kept::{Native, EPHEMERAL};
use crate::permissions;
use crate::records::{
    FakeUser, RecordedAttachment, RecordedMessage, RecordedReaction, RequestRecord,
};
use crate::routes::{RateLimitForm, RouteKind};

/// Milliseconds between the Unix epoch and the Discord epoch (2015-01-01).
pub(crate) const DISCORD_EPOCH_MS: u64 = 1_420_070_400_000;

/// Gateway intent bits the fake looks at.
pub(crate) const INTENT_GUILDS: u64 = 1 << 0;
pub(crate) const INTENT_GUILD_MESSAGES: u64 = 1 << 9;
pub(crate) const INTENT_DIRECT_MESSAGES: u64 = 1 << 12;
pub(crate) const INTENT_MESSAGE_CONTENT: u64 = 1 << 15;

/// Fixed "joined at" time for every member (2024-01-01T00:00:00Z).
const JOINED_AT_MS: u64 = 1_704_067_200_000;

/// The owner of every fake guild: an ordinary user that is neither the bot nor a test user, so
/// that the bot gets no owner bypass of permission checks.
pub(crate) const GUILD_OWNER_ID: u64 = 4_242;

/// Formats Unix milliseconds as the RFC 3339 timestamp Discord sends.
pub(crate) fn timestamp(ms: u64) -> String {
    serenity::model::Timestamp::from_millis(ms as i64)
        .map(|t| t.to_string())
        .unwrap_or_else(|_| "2024-01-01T00:00:00.000Z".to_owned())
}

/// The creation time (Unix ms) encoded in a snowflake.
pub(crate) fn snowflake_ms(id: u64) -> u64 {
    (id >> 22) + DISCORD_EPOCH_MS
}

/// Something a gateway session task must write to its socket.
#[derive(Debug)]
pub(crate) enum Outgoing {
    /// An op-0 dispatch; the session task assigns the sequence number when writing.
    Dispatch(&'static str, Value),
    /// Any other payload, written as is (e.g. `{"op":7}`).
    Raw(Value),
}

/// A gateway connection that completed IDENTIFY and was sent READY.
pub(crate) struct SessionEntry {
    pub tx: UnboundedSender<Outgoing>,
    pub intents: u64,
    /// `[shard, total]` from IDENTIFY; `None` is the one shard of an unsharded bot.
    pub shard: Option<[u64; 2]>,
}

impl SessionEntry {
    /// Whether this session gets the events of `guild` (`None`: direct messages, shard 0), as
    /// Discord routes them: shard `(guild_id >> 22) % total`.
    pub(crate) fn serves(&self, guild: Option<u64>) -> bool {
        serves(self.shard, guild)
    }
}

/// Whether the session of `shard` gets the events of `guild`.
pub(crate) fn serves(shard: Option<[u64; 2]>, guild: Option<u64>) -> bool {
    match shard {
        None => true,
        Some([id, total]) => guild.map_or(0, |g| (g >> 22) % total.max(1)) == id,
    }
}

/// A pending injected failure.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Fault {
    /// Answered with `status` instead of being served; a 429 says `retry_after_secs` in the
    /// way `form` says.
    Status {
        status: u16,
        retry_after_secs: f64,
        global: bool,
        form: RateLimitForm,
    },
    /// Never answered (until the fake stops); served first if `applied`.
    Hang { applied: bool },
}

/// What the fake knows about a channel.
#[derive(Clone, Debug)]
pub(crate) struct ChannelInfo {
    pub guild_id: Option<u64>,
    pub name: String,
    /// Discord channel type: 0 text, 1 DM, 11 public thread.
    pub kind: u8,
    pub parent_id: Option<u64>,
    /// For DM channels, the other participant.
    pub recipient: Option<u64>,
}

/// A channel's permission overwrite.
#[derive(Clone, Debug)]
pub(crate) struct Overwrite {
    /// The role or member.
    pub id: u64,
    /// A role (else a member).
    pub is_role: bool,
    pub allow: u64,
    pub deny: u64,
}

/// A role of a fake guild.
#[derive(Clone, Debug)]
pub(crate) struct RoleInfo {
    pub name: String,
    pub permissions: u64,
    pub position: u16,
}

/// A fake guild.
#[derive(Clone, Debug, Default)]
pub(crate) struct GuildInfo {
    pub name: String,
    pub roles: BTreeMap<u64, RoleInfo>,
    /// user id → role ids
    pub members: BTreeMap<u64, Vec<u64>>,
}

/// One IDENTIFY the gateway accepted.
#[derive(Clone, Debug)]
pub struct IdentifyRecord {
    /// The `token` field as sent (serenity sends `Bot <token>`).
    pub token: String,
    /// The gateway intents bit set.
    pub intents: u64,
    /// `[shard, total]` as sent, if the client sent it.
    pub shard: Option<[u64; 2]>,
    /// When it arrived.
    pub at: Instant,
}

/// The whole mutable state of one fake Discord.
pub(crate) struct State {
    pub bot: FakeUser,
    pub api_base: String,
    pub gateway_url: String,
    last_id: u64,
    /// How far the fake's clock runs ahead of the real one ([`crate::FakeDiscord::advance_clock`]).
    pub(crate) clock_ahead_ms: u64,
    pub messages: BTreeMap<u64, RecordedMessage>,
    pub channels: BTreeMap<u64, ChannelInfo>,
    pub guilds: BTreeMap<u64, GuildInfo>,
    pub users: HashMap<u64, FakeUser>,
    pub reactions: Vec<RecordedReaction>,
    pub typing: HashMap<u64, u32>,
    pub faults: HashMap<RouteKind, VecDeque<Fault>>,
    pub sessions: BTreeMap<u64, SessionEntry>,
    pub identifies: Vec<IdentifyRecord>,
    pub resume_count: u32,
    pub heartbeat_count: u64,
    pub drop_heartbeat_acks: bool,
    pub dispatch_own_messages: bool,
    pub heartbeat_interval_ms: u64,
    pub requests: Vec<RequestRecord>,
    pub unhandled: Vec<String>,
    /// Application commands, interactions and pins.
    pub native: Native,
    /// Permission overwrites by channel.
    pub overwrites: HashMap<u64, Vec<Overwrite>>,
    /// Whether `/channels/{c}/messages/pins/{m}` is served (else 404).
    pub new_pin_routes: bool,
    /// Threads archived now.
    pub archived: HashSet<u64>,
}

impl State {
    pub(crate) fn new(bot: FakeUser, api_base: String, gateway_url: String) -> Self {
        let mut users = HashMap::new();
        users.insert(bot.id, bot.clone());
        State {
            bot,
            api_base,
            gateway_url,
            last_id: 0,
            clock_ahead_ms: 0,
            messages: BTreeMap::new(),
            channels: BTreeMap::new(),
            guilds: BTreeMap::new(),
            users,
            reactions: Vec::new(),
            typing: HashMap::new(),
            faults: HashMap::new(),
            sessions: BTreeMap::new(),
            identifies: Vec::new(),
            resume_count: 0,
            heartbeat_count: 0,
            drop_heartbeat_acks: false,
            dispatch_own_messages: true,
            heartbeat_interval_ms: 41_250,
            requests: Vec::new(),
            unhandled: Vec::new(),
            native: Native::default(),
            overwrites: HashMap::new(),
            new_pin_routes: true,
            archived: HashSet::new(),
        }
    }

    /// A fresh snowflake, strictly greater than every one handed out before and carrying the
    /// current time.
    pub(crate) fn next_id(&mut self) -> u64 {
        let now_ms = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map(|d| d.as_millis() as u64)
            .unwrap_or(DISCORD_EPOCH_MS)
            + self.clock_ahead_ms;
        let from_clock = now_ms.saturating_sub(DISCORD_EPOCH_MS) << 22;
        self.last_id = from_clock.max(self.last_id + 1);
        self.last_id
    }

    pub(crate) fn remember_user(&mut self, user: &FakeUser) {
        self.users.insert(user.id, user.clone());
    }

    /// Creates the guild if missing, with an @everyone role (id = guild id) and the bot as member.
    pub(crate) fn ensure_guild(&mut self, guild_id: u64, name: Option<&str>) -> bool {
        let bot_id = self.bot.id;
        let mut created = false;
        let guild = self.guilds.entry(guild_id).or_insert_with(|| {
            created = true;
            let mut g = GuildInfo {
                name: format!("guild-{guild_id}"),
                ..GuildInfo::default()
            };
            g.roles.insert(
                guild_id,
                RoleInfo {
                    name: "@everyone".to_owned(),
                    permissions: DEFAULT_EVERYONE_PERMISSIONS,
                    position: 0,
                },
            );
            g.roles.insert(
                bot_role_id(guild_id),
                RoleInfo {
                    name: BOT_USER_NAME.to_owned(),
                    permissions: DEFAULT_BOT_PERMISSIONS,
                    position: 1,
                },
            );
            g.members.insert(bot_id, vec![bot_role_id(guild_id)]);
            g
        });
        if let Some(name) = name {
            guild.name = name.to_owned();
        }
        created
    }

    pub(crate) fn ensure_member(&mut self, guild_id: u64, user: &FakeUser) {
        self.remember_user(user);
        self.ensure_guild(guild_id, None);
        if let Some(g) = self.guilds.get_mut(&guild_id) {
            g.members.entry(user.id).or_default();
        }
    }

    /// The user object for an id (known users, else a placeholder name).
    pub(crate) fn user_json(&self, id: u64) -> Value {
        let name = self
            .users
            .get(&id)
            .map(|u| u.name.clone())
            .unwrap_or_else(|| format!("user{id}"));
        json!({
            "id": id.to_string(),
            "username": name,
            "global_name": null,
            "avatar": null,
            "discriminator": "0",
            "bot": id == self.bot.id,
            "public_flags": 0,
        })
    }

    pub(crate) fn current_user_json(&self) -> Value {
        let mut u = self.user_json(self.bot.id);
        u["verified"] = json!(true);
        u["mfa_enabled"] = json!(false);
        u["flags"] = json!(0);
        u
    }

    pub(crate) fn application_json(&self) -> Value {
        json!({
            "id": self.bot.id.to_string(),
            "name": self.bot.name,
            "icon": null,
            "description": "",
            "rpc_origins": [],
            "bot_public": false,
            "bot_require_code_grant": false,
            "owner": self.user_json(GUILD_OWNER_ID),
            "verify_key": "0000000000000000000000000000000000000000000000000000000000000000",
            "team": null,
            "flags": self.native.flags(),
        })
    }

    pub(crate) fn role_json(&self, role_id: u64, role: &RoleInfo) -> Value {
        json!({
            "id": role_id.to_string(),
            "name": role.name,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": null, "tertiary_color": null},
            "hoist": false,
            "icon": null,
            "unicode_emoji": null,
            "position": role.position,
            "permissions": role.permissions.to_string(),
            "managed": false,
            "mentionable": true,
            "flags": 0,
        })
    }

    pub(crate) fn roles_json(&self, guild_id: u64) -> Option<Vec<Value>> {
        let g = self.guilds.get(&guild_id)?;
        Some(
            g.roles
                .iter()
                .map(|(id, r)| self.role_json(*id, r))
                .collect(),
        )
    }

    /// A full guild member object (REST and GUILD_CREATE).
    pub(crate) fn member_json(&self, guild_id: u64, user_id: u64) -> Option<Value> {
        let roles = self.guilds.get(&guild_id)?.members.get(&user_id)?;
        Some(json!({
            "user": self.user_json(user_id),
            "nick": null,
            "avatar": null,
            "roles": roles.iter().map(u64::to_string).collect::<Vec<_>>(),
            "joined_at": timestamp(JOINED_AT_MS),
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
        }))
    }

    /// The partial member attached to guild MESSAGE_CREATE / MESSAGE_UPDATE dispatches.
    fn partial_member_json(&self, guild_id: u64, user_id: u64) -> Value {
        let roles = self
            .guilds
            .get(&guild_id)
            .and_then(|g| g.members.get(&user_id))
            .cloned()
            .unwrap_or_default();
        json!({
            "roles": roles.iter().map(u64::to_string).collect::<Vec<_>>(),
            "joined_at": timestamp(JOINED_AT_MS),
            "premium_since": null,
            "deaf": false,
            "mute": false,
            "flags": 0,
            "pending": false,
            "nick": null,
        })
    }

    fn overwrites_json(&self, channel_id: u64) -> Value {
        Value::Array(
            self.overwrites
                .get(&channel_id)
                .into_iter()
                .flatten()
                .map(|o| {
                    json!({
                        "id": o.id.to_string(),
                        "type": if o.is_role { 0 } else { 1 },
                        "allow": o.allow.to_string(),
                        "deny": o.deny.to_string(),
                    })
                })
                .collect(),
        )
    }

    /// A member's permissions in a channel, as Discord computes them: the guild owner and
    /// Administrator have all; else @everyone and their roles, then the channel's overwrites
    /// (a thread's are its parent's) for @everyone, their roles, and them.
    pub(crate) fn channel_permissions(&self, channel_id: u64, user: u64) -> u64 {
        const ALL: u64 = u64::MAX;
        let Some(c) = self.channels.get(&channel_id) else {
            return 0;
        };
        let Some(guild_id) = c.guild_id else {
            return ALL;
        };
        if user == GUILD_OWNER_ID {
            return ALL;
        }
        let Some(g) = self.guilds.get(&guild_id) else {
            return 0;
        };
        let roles = g.members.get(&user).cloned().unwrap_or_default();
        let mut p = g.roles.get(&guild_id).map_or(0, |r| r.permissions);
        for role in &roles {
            p |= g.roles.get(role).map_or(0, |r| r.permissions);
        }
        if p & permissions::ADMINISTRATOR != 0 {
            return ALL;
        }
        let source = match c.kind {
            10..=12 => c.parent_id.unwrap_or(channel_id),
            _ => channel_id,
        };
        let overwrites = self.overwrites.get(&source).cloned().unwrap_or_default();
        for o in overwrites.iter().filter(|o| o.is_role && o.id == guild_id) {
            p = (p & !o.deny) | o.allow;
        }
        let (mut allow, mut deny) = (0, 0);
        for o in overwrites
            .iter()
            .filter(|o| o.is_role && o.id != guild_id && roles.contains(&o.id))
        {
            allow |= o.allow;
            deny |= o.deny;
        }
        p = (p & !deny) | allow;
        for o in overwrites.iter().filter(|o| !o.is_role && o.id == user) {
            p = (p & !o.deny) | o.allow;
        }
        p
    }

    /// A channel object (guild channel, thread or DM).
    pub(crate) fn channel_json(&self, channel_id: u64) -> Option<Value> {
        let last_message_id = self
            .messages
            .range(..)
            .rev()
            .find(|(_, m)| m.channel_id == channel_id && !m.deleted)
            .map(|(id, _)| *id);
        self.channel_json_with_last(channel_id, last_message_id)
    }

    /// Each channel's last (not deleted) message, in one pass over the messages.
    fn last_message_ids(&self) -> HashMap<u64, u64> {
        let mut last = HashMap::new();
        for (id, m) in &self.messages {
            if !m.deleted {
                last.insert(m.channel_id, *id);
            }
        }
        last
    }

    /// A channel object whose last message id is known.
    fn channel_json_with_last(&self, channel_id: u64, last: Option<u64>) -> Option<Value> {
        let c = self.channels.get(&channel_id)?;
        let last_message_id = last.map(|id| id.to_string());
        if c.kind == 1 {
            let recipient = c.recipient.unwrap_or(GUILD_OWNER_ID);
            return Some(json!({
                "id": channel_id.to_string(),
                "type": 1,
                "last_message_id": last_message_id,
                "recipients": [self.user_json(recipient)],
                "flags": 0,
            }));
        }
        let mut v = json!({
            "id": channel_id.to_string(),
            "type": c.kind,
            "name": c.name,
            "position": 0,
            "permission_overwrites": self.overwrites_json(channel_id),
            "nsfw": false,
            "topic": null,
            "last_message_id": last_message_id,
            "parent_id": c.parent_id.map(|p| p.to_string()),
            "rate_limit_per_user": 0,
            "flags": 0,
        });
        if let Some(g) = c.guild_id {
            v["guild_id"] = json!(g.to_string());
        }
        if is_thread(c.kind) {
            v["owner_id"] = json!(GUILD_OWNER_ID.to_string());
            v["thread_metadata"] = json!({
                "archived": self.archived.contains(&channel_id),
                "auto_archive_duration": 10080,
                "archive_timestamp": timestamp(JOINED_AT_MS),
                "locked": false,
                "create_timestamp": timestamp(JOINED_AT_MS),
            });
            v["message_count"] = json!(0);
            v["member_count"] = json!(1);
        }
        Some(v)
    }

    /// A guild object: the REST shape (`PartialGuild`), or with `create` the GUILD_CREATE shape.
    pub(crate) fn guild_json(&self, guild_id: u64, create: bool) -> Option<Value> {
        let g = self.guilds.get(&guild_id)?;
        let mut v = json!({
            "id": guild_id.to_string(),
            "name": g.name,
            "icon": null,
            "icon_hash": null,
            "splash": null,
            "discovery_splash": null,
            "owner_id": GUILD_OWNER_ID.to_string(),
            "widget_enabled": false,
            "verification_level": 0,
            "default_message_notifications": 1,
            "explicit_content_filter": 0,
            "roles": self.roles_json(guild_id)?,
            "emojis": [],
            "features": [],
            "mfa_level": 0,
            "application_id": null,
            "system_channel_id": null,
            "system_channel_flags": 0,
            "rules_channel_id": null,
            "max_members": 500000,
            "vanity_url_code": null,
            "description": null,
            "banner": null,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "public_updates_channel_id": null,
            "nsfw_level": 0,
            "stickers": [],
            "premium_progress_bar_enabled": false,
            "safety_alerts_channel_id": null,
        });
        if create {
            let last = self.last_message_ids();
            let channels: Vec<Value> = self
                .channels
                .iter()
                .filter(|(_, c)| c.guild_id == Some(guild_id) && !is_thread(c.kind))
                .filter_map(|(id, _)| self.channel_json_with_last(*id, last.get(id).copied()))
                .collect();
            // Active threads only, as Discord sends them.
            let threads: Vec<Value> = self
                .channels
                .iter()
                .filter(|(id, c)| {
                    c.guild_id == Some(guild_id) && is_thread(c.kind) && !self.archived.contains(id)
                })
                .filter_map(|(id, _)| self.channel_json_with_last(*id, last.get(id).copied()))
                .collect();
            let members: Vec<Value> = g
                .members
                .keys()
                .filter_map(|u| self.member_json(guild_id, *u))
                .collect();
            let extra = json!({
                "joined_at": timestamp(JOINED_AT_MS),
                "large": false,
                "unavailable": false,
                "member_count": members.len(),
                "voice_states": [],
                "members": members,
                "channels": channels,
                "threads": threads,
                "presences": [],
                "stage_instances": [],
                "guild_scheduled_events": [],
            });
            if let (Some(obj), Value::Object(extra)) = (v.as_object_mut(), extra) {
                obj.extend(extra);
            }
        }
        Some(v)
    }

    fn attachment_json(&self, channel_id: u64, a: &RecordedAttachment) -> Value {
        let url = format!(
            "{}/attachments/{}/{}/{}",
            self.api_base, channel_id, a.id, a.filename
        );
        let mut v = json!({
            "id": a.id.to_string(),
            "filename": a.filename,
            "size": a.data.len(),
            "url": url,
            "proxy_url": url,
            "content_type": a.content_type,
        });
        // Discord sends a description only when the upload had one.
        if let Some(description) = &a.description {
            v["description"] = json!(description);
        }
        v
    }

    /// A message object. `gateway` adds `guild_id` and `member` as MESSAGE_CREATE does (REST
    /// responses carry neither). `depth` limits `referenced_message` nesting.
    pub(crate) fn message_json(&self, m: &RecordedMessage, gateway: bool) -> Value {
        self.message_json_depth(m, gateway, 1)
    }

    fn message_json_depth(&self, m: &RecordedMessage, gateway: bool, depth: u8) -> Value {
        let embeds: Vec<Value> = m
            .embeds
            .iter()
            .map(|e| {
                let mut e = e.clone();
                if let Some(obj) = e.as_object_mut() {
                    obj.entry("type").or_insert_with(|| json!("rich"));
                }
                e
            })
            .collect();
        let mut v = json!({
            "id": m.id.to_string(),
            "channel_id": m.channel_id.to_string(),
            "author": self.user_json(m.author.id),
            "content": m.content,
            "timestamp": timestamp(snowflake_ms(m.id)),
            "edited_timestamp": m.edited_timestamp_ms.map(timestamp),
            "tts": false,
            "mention_everyone": m.mention_everyone,
            "mentions": m.mentions.iter().map(|u| self.user_json(*u)).collect::<Vec<_>>(),
            "mention_roles": m.mention_roles.iter().map(u64::to_string).collect::<Vec<_>>(),
            "attachments": m.attachments.iter().map(|a| self.attachment_json(m.channel_id, a)).collect::<Vec<_>>(),
            "embeds": embeds,
            "reactions": [],
            "pinned": self.native.pins.get(&m.channel_id).is_some_and(|p| p.contains(&m.id)),
            "type": if m.interaction.is_some() { 20 } else if m.referenced_message.is_some() { 19 } else { 0 },
            "flags": if m.ephemeral { EPHEMERAL } else { 0 },
            "components": m.components,
        });
        if let Some(r) = m.referenced_message {
            v["message_reference"] = json!({
                "type": 0,
                "message_id": r.to_string(),
                "channel_id": m.channel_id.to_string(),
                "guild_id": m.guild_id.map(|g| g.to_string()),
            });
            v["referenced_message"] = match self.messages.get(&r) {
                Some(target) if !target.deleted && depth > 0 => {
                    self.message_json_depth(target, false, depth - 1)
                }
                _ => Value::Null,
            };
        }
        if m.interaction.is_some() {
            v["application_id"] = json!(self.bot.id.to_string());
            v["webhook_id"] = json!(self.bot.id.to_string());
        }
        if gateway {
            if let Some(g) = m.guild_id {
                v["guild_id"] = json!(g.to_string());
                v["member"] = self.partial_member_json(g, m.author.id);
            }
        }
        v
    }

    pub(crate) fn ready_json(&self, session_id: &str) -> Value {
        self.ready_json_for(session_id, None)
    }

    /// READY for the session of `shard`: the guilds of that shard only.
    pub(crate) fn ready_json_for(&self, session_id: &str, shard: Option<[u64; 2]>) -> Value {
        json!({
            "v": 10,
            "user": self.current_user_json(),
            "guilds": self.guilds.keys().filter(|g| serves(shard, Some(**g))).map(|g| json!({"id": g.to_string(), "unavailable": true})).collect::<Vec<_>>(),
            "session_id": session_id,
            "resume_gateway_url": self.gateway_url,
            "private_channels": [],
            "application": {"id": self.bot.id.to_string(), "flags": 1 << 19},
        })
    }

    /// Sends a MESSAGE_CREATE or MESSAGE_UPDATE for `msg_id` to every session whose intents
    /// cover it, stripping the content where Discord would (no MESSAGE_CONTENT intent, not a
    /// DM, bot not mentioned, not the bot's own message). Returns whether any session got it.
    pub(crate) fn dispatch_message(&mut self, event: &'static str, msg_id: u64) -> bool {
        let Some(m) = self.messages.get(&msg_id) else {
            return false;
        };
        if m.author.id == self.bot.id && !self.dispatch_own_messages {
            return false;
        }
        let full = self.message_json(m, true);
        let is_dm = m.guild_id.is_none();
        let needed = if is_dm {
            INTENT_DIRECT_MESSAGES
        } else {
            INTENT_GUILD_MESSAGES
        };
        let exempt = is_dm || m.author.id == self.bot.id || m.mentions.contains(&self.bot.id);
        let mut sent = false;
        for s in self.sessions.values() {
            if s.intents & needed == 0 || !s.serves(m.guild_id) {
                continue;
            }
            let payload = if exempt || s.intents & INTENT_MESSAGE_CONTENT != 0 {
                full.clone()
            } else {
                strip_content(&full)
            };
            sent |= s.tx.send(Outgoing::Dispatch(event, payload)).is_ok();
        }
        if sent && event == "MESSAGE_CREATE" {
            if let Some(m) = self.messages.get_mut(&msg_id) {
                m.dispatched_at = Some(Instant::now());
            }
        }
        sent
    }

    pub(crate) fn message_delete_json(m: &RecordedMessage) -> Value {
        let mut v = json!({"id": m.id.to_string(), "channel_id": m.channel_id.to_string()});
        if let Some(g) = m.guild_id {
            v["guild_id"] = json!(g.to_string());
        }
        v
    }

    pub(crate) fn dispatch_delete(&mut self, msg_id: u64) {
        let Some(m) = self.messages.get(&msg_id) else {
            return;
        };
        let needed = if m.guild_id.is_none() {
            INTENT_DIRECT_MESSAGES
        } else {
            INTENT_GUILD_MESSAGES
        };
        let payload = Self::message_delete_json(m);
        for s in self.sessions.values() {
            if s.intents & needed != 0 && s.serves(m.guild_id) {
                let _ =
                    s.tx.send(Outgoing::Dispatch("MESSAGE_DELETE", payload.clone()));
            }
        }
    }

    /// Sends THREAD_CREATE, THREAD_UPDATE or THREAD_DELETE for a thread to every session with
    /// the GUILDS intent that serves its guild.
    pub(crate) fn dispatch_thread(&mut self, event: &'static str, thread_id: u64) {
        let Some(c) = self.channels.get(&thread_id) else {
            return;
        };
        let guild = c.guild_id;
        let payload = if event == "THREAD_DELETE" {
            json!({
                "id": thread_id.to_string(),
                "guild_id": guild.map(|g| g.to_string()),
                "parent_id": c.parent_id.map(|p| p.to_string()),
                "type": c.kind,
            })
        } else {
            let Some(mut v) = self.channel_json(thread_id) else {
                return;
            };
            if event == "THREAD_CREATE" {
                v["newly_created"] = json!(true);
            }
            v
        };
        for s in self.sessions.values() {
            if s.intents & INTENT_GUILDS != 0 && s.serves(guild) {
                let _ = s.tx.send(Outgoing::Dispatch(event, payload.clone()));
            }
        }
    }

    /// A message posted in an archived thread unarchives it (THREAD_UPDATE), as on Discord.
    pub(crate) fn unarchive_on_post(&mut self, channel_id: u64) {
        if self.archived.remove(&channel_id) {
            self.dispatch_thread("THREAD_UPDATE", channel_id);
        }
    }

    /// The archived public threads of a parent channel, newest archive first
    /// (`GET /channels/{c}/threads/archived/public`).
    pub(crate) fn archived_threads_json(&self, parent: u64) -> Value {
        let threads: Vec<Value> = self
            .channels
            .iter()
            .rev()
            .filter(|(id, c)| {
                c.parent_id == Some(parent) && c.kind != 12 && self.archived.contains(id)
            })
            .filter_map(|(id, _)| self.channel_json(*id))
            .collect();
        json!({"threads": threads, "members": [], "has_more": false})
    }

    /// Sends a fresh GUILD_CREATE for `guild_id` to every session with the GUILDS intent.
    pub(crate) fn dispatch_guild_create(&mut self, guild_id: u64) {
        let Some(payload) = self.guild_json(guild_id, true) else {
            return;
        };
        for s in self.sessions.values() {
            if s.intents & INTENT_GUILDS != 0 && s.serves(Some(guild_id)) {
                let _ =
                    s.tx.send(Outgoing::Dispatch("GUILD_CREATE", payload.clone()));
            }
        }
    }

    /// Takes the next injected failure for a route, if any.
    pub(crate) fn take_fault(&mut self, kind: RouteKind) -> Option<Fault> {
        let q = self.faults.get_mut(&kind)?;
        let f = q.pop_front();
        if q.is_empty() {
            self.faults.remove(&kind);
        }
        f
    }

    /// Messages of a channel that are not deleted, oldest first.
    pub(crate) fn live_messages(&self, channel_id: u64) -> Vec<&RecordedMessage> {
        self.messages
            .values()
            .filter(|m| m.channel_id == channel_id && !m.deleted && !m.ephemeral)
            .collect()
    }
}

/// What a bot without the MESSAGE_CONTENT intent sees of someone else's guild message.
pub(crate) fn strip_content(full: &Value) -> Value {
    let mut v = full.clone();
    v["content"] = json!("");
    v["embeds"] = json!([]);
    v["attachments"] = json!([]);
    v["components"] = json!([]);
    v
}

/// Whether a channel type is a thread (announcement 10, public 11, private 12).
pub(crate) fn is_thread(kind: u8) -> bool {
    matches!(kind, 10..=12)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn snowflakes_increase_and_carry_time() {
        let mut s = State::new(FakeUser::new(1, "bot"), String::new(), String::new());
        let a = s.next_id();
        let b = s.next_id();
        assert!(b > a);
        let now = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap()
            .as_millis() as u64;
        assert!(now.abs_diff(snowflake_ms(b)) < 5_000);
    }
}
