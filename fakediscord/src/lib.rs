//! A fake Discord on 127.0.0.1 for end-to-end tests of the real, unmodified serenity 0.12 client.
//!
//! [`FakeDiscord::start`] binds a REST listener (axum) and a gateway listener (WebSocket) on
//! random loopback ports. Point serenity at it with
//! `HttpBuilder::new(fake.token()).proxy(fake.api_base()).ratelimiter_disabled(true).build()`
//! and `ClientBuilder::new_with_http(http, intents)` (never call `ClientBuilder::token` after
//! that: it rebuilds the `Http` and drops the proxy). See [`spawn_echo_bot`] for a complete bot.
//!
//! The test then plays the users ([`FakeDiscord::post_user_message`] and friends) and inspects
//! what the bot did ([`FakeDiscord::bot_messages`], [`FakeDiscord::reactions`], ...). Every
//! waiting helper takes a timeout and wakes on state changes, not by polling.
//!
//! ```no_run
//! use std::time::Duration;
//! use fakediscord::{spawn_echo_bot, FakeDiscord, FakeUser};
//! # async fn demo() {
//! let fake = FakeDiscord::start().await;
//! fake.add_channel(1, 2, "game-1"); // guild 1, channel 2
//! let bot = spawn_echo_bot(&fake).await; // returns once READY was sent
//! fake.post_user_message(2, Some(1), &FakeUser::new(7, "alice"), "hi");
//! let replies = fake.wait_for_bot_messages(2, 1, Duration::from_secs(5)).await.unwrap();
//! assert_eq!(replies[0].content, "hi");
//! bot.shutdown().await;
//! # }
//! ```
//!
//! Behaviour worth knowing:
//! - Channels must exist before the bot posts to them: [`FakeDiscord::add_channel`],
//!   [`FakeDiscord::add_dm_channel`], or a first [`FakeDiscord::post_user_message`] creates
//!   them. Unknown channels answer 404 `Unknown Channel`, as Discord does.
//! - Like Discord, the bot's own messages, edits and deletions are dispatched back to it
//!   (turn off with [`FakeDiscord::set_dispatch_own_messages`]).
//! - Like Discord, a session without the MESSAGE_CONTENT intent gets guild messages with empty
//!   content unless the bot is mentioned; sessions without GUILD_MESSAGES / DIRECT_MESSAGES get no
//!   guild / DM message events; GUILD_CREATE is only sent with the GUILDS intent.
//! - Sending a reply to a message that does not exist (or was deleted) fails with 400 unless
//!   `fail_if_not_exists` is false; content over 2000 characters and empty messages fail with 400.
//! - Like Discord, a post with a `nonce` and `enforce_nonce: true` whose nonce a message of the
//!   same author in the same channel carries (from the last few minutes) is not posted again:
//!   the answer is that message.
//! - Faults can be injected per route: error statuses and 429s ([`FakeDiscord::fail_next`],
//!   [`FakeDiscord::fail_next_rate_limited`]), and requests that are never answered, applied or
//!   not ([`FakeDiscord::hang_next`]). Every request is recorded with the instant it arrived
//!   ([`FakeDiscord::requests`]).
//! - Interactions ([`interactions`]): the bot registers its application commands (checked as
//!   Discord checks them); a test invokes them ([`FakeDiscord::slash_command`],
//!   [`FakeDiscord::autocomplete`], [`FakeDiscord::click_button`]) and reads what the bot
//!   answered ([`FakeDiscord::interaction`]). The first answer must come within 3 s and only
//!   once; after a defer the first follow-up fills the deferred message; ephemeral messages are
//!   never dispatched nor in the history. Pins are kept per channel ([`FakeDiscord::pins`]). An
//!   application without the Message Content flags is refused that intent (close code 4014).

#![warn(missing_docs)]

mod echo;
mod gateway;
pub mod interactions;
mod rest;
mod state;

use std::collections::VecDeque;
use std::fmt;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use serde_json::{json, Value};
use tokio::net::TcpListener;
use tokio::sync::watch;

pub use echo::{
    echo_intents, spawn_echo_bot, spawn_echo_bot_with_intents, spawn_echo_bot_with_work,
    BeforeReply, EchoBotHandle,
};
pub use interactions::{
    Callback, FakeInteraction, InteractionKind, InteractionRecord, APP_FLAG_MESSAGE_CONTENT,
    APP_FLAG_MESSAGE_CONTENT_LIMITED,
};
pub use state::IdentifyRecord;
use state::{ChannelInfo, Fault, Outgoing, RoleInfo, State};

/// The bot token the fake accepts (REST `Authorization: Bot <token>` and gateway IDENTIFY).
pub const BOT_TOKEN: &str = "OTAwMDAwMDAwMDAwMDAwMDAx.ZmFrZQ.ZmFrZWRpc2NvcmQtYm90LXRva2Vu";
/// The bot's user id (also its application id).
pub const BOT_USER_ID: u64 = 900_000_000_000_000_001;
/// The bot's user name.
pub const BOT_USER_NAME: &str = "gaugebot";

/// Permission bits (Discord's numbering) used by the fake.
pub mod permissions {
    /// ADD_REACTIONS
    pub const ADD_REACTIONS: u64 = 1 << 6;
    /// VIEW_CHANNEL
    pub const VIEW_CHANNEL: u64 = 1 << 10;
    /// SEND_MESSAGES
    pub const SEND_MESSAGES: u64 = 1 << 11;
    /// MANAGE_MESSAGES
    pub const MANAGE_MESSAGES: u64 = 1 << 13;
    /// EMBED_LINKS
    pub const EMBED_LINKS: u64 = 1 << 14;
    /// ATTACH_FILES
    pub const ATTACH_FILES: u64 = 1 << 15;
    /// READ_MESSAGE_HISTORY
    pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
    /// MANAGE_ROLES
    pub const MANAGE_ROLES: u64 = 1 << 28;
    /// SEND_MESSAGES_IN_THREADS
    pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
    /// ADMINISTRATOR
    pub const ADMINISTRATOR: u64 = 1 << 3;
    /// PIN_MESSAGES: since 2026 the one permission that lets a member pin and unpin (Manage
    /// Messages no longer does).
    pub const PIN_MESSAGES: u64 = 1 << 51;
}

/// What the bot's own role grants in every fake guild (what the invite URL asks for): pinning.
/// [`FakeDiscord::set_bot_permissions`] changes it.
pub const DEFAULT_BOT_PERMISSIONS: u64 = permissions::PIN_MESSAGES;

/// The id of the bot's own role in a guild (Discord makes one from the invite's permissions).
pub fn bot_role_id(guild_id: u64) -> u64 {
    guild_id + (1 << 40)
}

/// What @everyone may do in every fake guild: enough for serenity's cache-based permission
/// checks to let the bot read, post, upload, embed and react.
pub const DEFAULT_EVERYONE_PERMISSIONS: u64 = permissions::VIEW_CHANNEL
    | permissions::SEND_MESSAGES
    | permissions::ATTACH_FILES
    | permissions::ADD_REACTIONS
    | permissions::READ_MESSAGE_HISTORY
    | permissions::EMBED_LINKS
    | permissions::SEND_MESSAGES_IN_THREADS;

/// A human user the test acts as.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct FakeUser {
    /// Snowflake id.
    pub id: u64,
    /// Username.
    pub name: String,
}

impl FakeUser {
    /// A user with this id and name.
    pub fn new(id: u64, name: impl Into<String>) -> Self {
        FakeUser {
            id,
            name: name.into(),
        }
    }

    /// The mention text Discord clients insert for this user: `<@id>`.
    pub fn mention(&self) -> String {
        format!("<@{}>", self.id)
    }
}

/// A file the bot uploaded with a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedAttachment {
    /// The attachment's snowflake.
    pub id: u64,
    /// File name from the multipart part.
    pub filename: String,
    /// Content type from the multipart part (serenity guesses it from the file name).
    pub content_type: Option<String>,
    /// The uploaded bytes.
    pub data: Vec<u8>,
}

/// A message in the fake's history: posted by the bot over REST or by a test user.
#[derive(Clone, Debug)]
pub struct RecordedMessage {
    /// Snowflake id (increasing in posting order).
    pub id: u64,
    /// Channel it was posted in.
    pub channel_id: u64,
    /// Guild of the channel; `None` for DMs.
    pub guild_id: Option<u64>,
    /// Author (the bot's user for bot messages).
    pub author: FakeUser,
    /// Current text (after edits).
    pub content: String,
    /// Current attachments.
    pub attachments: Vec<RecordedAttachment>,
    /// Current embeds, as sent.
    pub embeds: Vec<Value>,
    /// Current components, as sent.
    pub components: Vec<Value>,
    /// The message this one replies to (`message_reference.message_id`).
    pub referenced_message: Option<u64>,
    /// User ids mentioned in the content (`<@id>` / `<@!id>`).
    pub mentions: Vec<u64>,
    /// Role ids mentioned in the content (`<@&id>`).
    pub mention_roles: Vec<u64>,
    /// Whether the content contains `@everyone` or `@here`.
    pub mention_everyone: bool,
    /// The bot's `allowed_mentions`, as sent.
    pub allowed_mentions: Option<Value>,
    /// The full JSON payload of the bot's last POST/PATCH (`payload_json` for uploads).
    pub payload: Option<Value>,
    /// When the fake received the POST (bot) or the test posted it (user).
    pub created_at: Instant,
    /// When MESSAGE_CREATE was handed to the connected session(s); `None` if no session was
    /// connected (or its intents excluded it).
    pub dispatched_at: Option<Instant>,
    /// When it was last edited.
    pub edited_at: Option<Instant>,
    /// Number of edits.
    pub edit_count: u32,
    /// Whether it was deleted (deleted messages stay in the record).
    pub deleted: bool,
    /// Whether only the invoking user sees it (an ephemeral interaction answer).
    pub ephemeral: bool,
    /// The interaction it answers, if it is an interaction response or follow-up.
    pub interaction: Option<u64>,
    /// `edited_timestamp` in Unix milliseconds.
    pub(crate) edited_timestamp_ms: Option<u64>,
}

impl RecordedMessage {
    /// A new, unedited message with its mentions parsed from the content; the other fields
    /// empty (set them with struct update syntax).
    pub(crate) fn new(
        id: u64,
        channel_id: u64,
        guild_id: Option<u64>,
        author: FakeUser,
        content: &str,
    ) -> Self {
        let (mentions, mention_roles, mention_everyone) = state::parse_mentions(content);
        RecordedMessage {
            id,
            channel_id,
            guild_id,
            author,
            content: content.to_owned(),
            attachments: Vec::new(),
            embeds: Vec::new(),
            components: Vec::new(),
            referenced_message: None,
            mentions,
            mention_roles,
            mention_everyone,
            allowed_mentions: None,
            payload: None,
            created_at: Instant::now(),
            dispatched_at: None,
            edited_at: None,
            edit_count: 0,
            deleted: false,
            ephemeral: false,
            interaction: None,
            edited_timestamp_ms: None,
        }
    }

    /// Whether the bot authored it.
    pub fn is_bot(&self) -> bool {
        self.author.id == BOT_USER_ID
    }
}

/// A reaction the bot added.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedReaction {
    /// Channel of the message.
    pub channel_id: u64,
    /// Message reacted to.
    pub message_id: u64,
    /// The emoji, percent-decoded: a unicode emoji (`"✅"`) or `name:id` for custom ones.
    pub emoji: String,
    /// When the PUT arrived.
    pub at: Instant,
    /// Whether the bot removed it again.
    pub removed: bool,
}

/// One REST request the fake received.
#[derive(Clone, Debug)]
pub struct RequestRecord {
    /// HTTP method.
    pub method: String,
    /// Path (without query).
    pub path: String,
    /// Query string, if any.
    pub query: Option<String>,
    /// The route it matched, `None` for unknown routes.
    pub route: Option<RouteKind>,
    /// Status answered (for a request left unanswered: what it would have been if it was
    /// applied, else 0).
    pub status: u16,
    /// When it arrived.
    pub at: Instant,
    /// Whether it was answered (false: an injected hang, [`FakeDiscord::hang_next`]).
    pub answered: bool,
}

/// How a 429 says how long to wait ([`FakeDiscord::fail_next_rate_limited_as`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RateLimitForm {
    /// Discord's JSON body (`retry_after`, `global`) and its headers (`Retry-After` in whole
    /// seconds, rounded up; `X-RateLimit-*`).
    BodyAndHeaders,
    /// The JSON body only: no `Retry-After` nor `X-RateLimit-Reset-After` header.
    BodyOnly,
    /// The `Retry-After` header only (whole seconds, rounded up; `X-RateLimit-Global` if
    /// global), with a body that is not JSON, as a proxy or Cloudflare answers.
    HeaderOnly,
}

/// The REST routes the fake serves, for [`FakeDiscord::fail_next`] and [`RequestRecord`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RouteKind {
    /// `GET /gateway`
    Gateway,
    /// `GET /gateway/bot`
    GatewayBot,
    /// `GET /users/@me`
    CurrentUser,
    /// `GET /oauth2/applications/@me`
    ApplicationInfo,
    /// `POST /users/@me/channels` (open a DM)
    CreateDm,
    /// `GET /channels/{c}`
    GetChannel,
    /// `GET /channels/{c}/messages` (history)
    GetMessages,
    /// `GET /channels/{c}/messages/{m}`
    GetMessage,
    /// `POST /channels/{c}/messages` (JSON or multipart upload)
    CreateMessage,
    /// `PATCH /channels/{c}/messages/{m}`
    EditMessage,
    /// `DELETE /channels/{c}/messages/{m}`
    DeleteMessage,
    /// `PUT /channels/{c}/messages/{m}/reactions/{emoji}/@me`
    CreateReaction,
    /// `DELETE /channels/{c}/messages/{m}/reactions/{emoji}/@me`
    DeleteReaction,
    /// `POST /channels/{c}/typing`
    Typing,
    /// `GET /guilds/{g}`
    GetGuild,
    /// `GET /guilds/{g}/roles`
    GetGuildRoles,
    /// `GET /guilds/{g}/members/{u}`
    GetGuildMember,
    /// `GET /guilds/{g}/channels`
    GetGuildChannels,
    /// `GET /attachments/...` (download of an uploaded file; no auth)
    Attachment,
    /// `GET /applications/{a}/commands` (or the guild variant)
    GetCommands,
    /// `PUT /applications/{a}/commands` (or the guild variant): bulk overwrite
    SetCommands,
    /// `POST /interactions/{i}/{token}/callback`
    InteractionCallback,
    /// `POST /webhooks/{a}/{token}` (an interaction follow-up)
    Followup,
    /// `GET /webhooks/{a}/{token}/messages/{m}` (`@original` or a follow-up)
    GetResponse,
    /// `PATCH /webhooks/{a}/{token}/messages/{m}`
    EditResponse,
    /// `DELETE /webhooks/{a}/{token}/messages/{m}`
    DeleteResponse,
    /// `GET /channels/{c}/pins`
    GetPins,
    /// `PUT /channels/{c}/pins/{m}`
    Pin,
    /// `DELETE /channels/{c}/pins/{m}`
    Unpin,
    /// `GET /channels/{c}/threads/archived/public`
    ArchivedThreads,
    /// `PUT /channels/{c}/messages/pins/{m}` (the route since 2026)
    MessagePin,
    /// `DELETE /channels/{c}/messages/pins/{m}` (the route since 2026)
    MessageUnpin,
}

/// A wait that ran out of time. Its message says what was awaited and what was seen.
#[derive(Clone, Debug)]
pub struct WaitTimeout {
    /// What was awaited and the state at the deadline.
    pub what: String,
    /// How long it waited.
    pub waited: Duration,
}

impl fmt::Display for WaitTimeout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "timed out after {:?} waiting for {}",
            self.waited, self.what
        )
    }
}

impl std::error::Error for WaitTimeout {}

/// State shared by the handle, the REST handlers and the gateway sessions.
pub(crate) struct Shared {
    state: Mutex<State>,
    version: watch::Sender<u64>,
    /// Turns true when the fake stops (ends the requests left hanging).
    stopped: watch::Receiver<bool>,
}

impl Shared {
    /// Read-only access.
    pub(crate) fn read(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Mutating access; wakes every waiter afterwards.
    pub(crate) fn write<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        let r = {
            let mut guard = self.read();
            f(&mut guard)
        };
        self.version.send_modify(|v| *v = v.wrapping_add(1));
        r
    }
}

/// A running fake Discord. Dropping it stops its listeners and closes its gateway sessions.
pub struct FakeDiscord {
    shared: Arc<Shared>,
    api_addr: SocketAddr,
    gateway_addr: SocketAddr,
    shutdown: watch::Sender<bool>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        let _ = self.shutdown.send(true);
    }
}

impl FakeDiscord {
    /// Binds the REST and gateway listeners on 127.0.0.1 (random ports) and starts serving.
    /// Both are accepting connections when this returns. Must be called inside a tokio runtime.
    pub async fn start() -> FakeDiscord {
        let api = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind fake REST listener");
        let gw = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind fake gateway listener");
        let api_addr = api.local_addr().expect("REST local addr");
        let gateway_addr = gw.local_addr().expect("gateway local addr");
        let bot = FakeUser::new(BOT_USER_ID, BOT_USER_NAME);
        let state = State::new(
            bot,
            format!("http://{api_addr}"),
            format!("ws://{gateway_addr}"),
        );
        let (shutdown, shutdown_rx) = watch::channel(false);
        let shared = Arc::new(Shared {
            state: Mutex::new(state),
            version: watch::channel(0).0,
            stopped: shutdown_rx.clone(),
        });
        tokio::spawn(rest::serve(api, shared.clone(), shutdown_rx.clone()));
        tokio::spawn(gateway::serve(gw, shared.clone(), shutdown_rx));
        FakeDiscord {
            shared,
            api_addr,
            gateway_addr,
            shutdown,
        }
    }

    // ----- addresses and identity -----

    /// `http://127.0.0.1:PORT`: give it to `HttpBuilder::proxy`.
    pub fn api_base(&self) -> String {
        format!("http://{}", self.api_addr)
    }

    /// `ws://127.0.0.1:PORT`: what `GET /gateway` answers.
    pub fn gateway_url(&self) -> String {
        format!("ws://{}", self.gateway_addr)
    }

    /// The bot token the fake expects ([`BOT_TOKEN`]).
    pub fn token(&self) -> &'static str {
        BOT_TOKEN
    }

    /// The bot's user id ([`BOT_USER_ID`]).
    pub fn bot_user_id(&self) -> u64 {
        BOT_USER_ID
    }

    /// The bot as a [`FakeUser`].
    pub fn bot_user(&self) -> FakeUser {
        FakeUser::new(BOT_USER_ID, BOT_USER_NAME)
    }

    // ----- guilds, channels, members -----

    /// Defines (or renames) a guild. It gets an @everyone role (id = guild id) with
    /// [`DEFAULT_EVERYONE_PERMISSIONS`], and the bot as a member. Connected sessions with the
    /// GUILDS intent get a fresh GUILD_CREATE.
    pub fn add_guild(&self, guild_id: u64, name: &str) {
        self.shared.write(|s| {
            s.ensure_guild(guild_id, Some(name));
            s.dispatch_guild_create(guild_id);
        });
    }

    /// Defines a text channel (type 0) in a guild (creating the guild if needed). Like every
    /// guild change, it re-sends GUILD_CREATE to connected sessions with the GUILDS intent.
    pub fn add_channel(&self, guild_id: u64, channel_id: u64, name: &str) {
        self.add_channel_of_kind(guild_id, channel_id, name, 0, None);
    }

    /// Defines a public thread (type 11) under `parent_id` in a guild.
    pub fn add_thread(&self, guild_id: u64, thread_id: u64, parent_id: u64, name: &str) {
        self.add_channel_of_kind(guild_id, thread_id, name, 11, Some(parent_id));
    }

    /// Defines a forum channel (type 15) in a guild: its posts are threads
    /// ([`create_forum_post`](Self::create_forum_post)).
    pub fn add_forum(&self, guild_id: u64, forum_id: u64, name: &str) {
        self.add_channel_of_kind(guild_id, forum_id, name, 15, None);
    }

    /// Opens a post in a forum as `author`: a public thread (type 11) named `title` under the
    /// forum, whose starter message (`content`) has the thread's id, as Discord makes them.
    /// Sessions get THREAD_CREATE, then MESSAGE_CREATE of the starter message.
    /// Returns the thread's id (that of its starter message too).
    pub fn create_forum_post(
        &self,
        guild_id: u64,
        forum_id: u64,
        title: &str,
        author: &FakeUser,
        content: &str,
    ) -> u64 {
        let thread_id = self.shared.write(|s| {
            s.ensure_guild(guild_id, None);
            let thread_id = s.next_id();
            s.channels.insert(
                thread_id,
                ChannelInfo {
                    guild_id: Some(guild_id),
                    name: title.to_owned(),
                    kind: 11,
                    parent_id: Some(forum_id),
                    recipient: None,
                },
            );
            s.dispatch_thread("THREAD_CREATE", thread_id);
            thread_id
        });
        self.post_user_message_inner(
            thread_id,
            Some(guild_id),
            author,
            content,
            None,
            Some(thread_id),
        );
        thread_id
    }

    /// Archives or unarchives a thread: sessions get THREAD_UPDATE; an archived thread leaves
    /// GUILD_CREATE's `threads` and is listed by `GET /channels/{parent}/threads/archived/public`.
    /// (A message posted in an archived thread unarchives it, as on Discord.)
    pub fn set_thread_archived(&self, thread_id: u64, archived: bool) {
        self.shared.write(|s| {
            let changed = if archived {
                s.archived.insert(thread_id)
            } else {
                s.archived.remove(&thread_id)
            };
            if changed {
                s.dispatch_thread("THREAD_UPDATE", thread_id);
            }
        });
    }

    /// Whether a thread is archived now.
    pub fn is_archived(&self, thread_id: u64) -> bool {
        self.shared.read().archived.contains(&thread_id)
    }

    /// Deletes a thread (and so its messages): sessions get THREAD_DELETE.
    pub fn delete_thread(&self, thread_id: u64) {
        self.shared.write(|s| {
            s.dispatch_thread("THREAD_DELETE", thread_id);
            s.channels.remove(&thread_id);
            s.archived.remove(&thread_id);
        });
    }

    fn add_channel_of_kind(
        &self,
        guild_id: u64,
        channel_id: u64,
        name: &str,
        kind: u8,
        parent_id: Option<u64>,
    ) {
        self.shared.write(|s| {
            s.ensure_guild(guild_id, None);
            s.channels.insert(
                channel_id,
                ChannelInfo {
                    guild_id: Some(guild_id),
                    name: name.to_owned(),
                    kind,
                    parent_id,
                    recipient: None,
                },
            );
            s.dispatch_guild_create(guild_id);
        });
    }

    /// Defines a DM channel (type 1) between the bot and `user`.
    pub fn add_dm_channel(&self, channel_id: u64, user: &FakeUser) {
        self.shared.write(|s| {
            s.remember_user(user);
            s.channels.insert(
                channel_id,
                ChannelInfo {
                    guild_id: None,
                    name: String::new(),
                    kind: 1,
                    parent_id: None,
                    recipient: Some(user.id),
                },
            );
        });
    }

    /// Defines (or updates) a role with a permission bit set (see [`permissions`]).
    pub fn add_role(&self, guild_id: u64, role_id: u64, name: &str, permissions: u64) {
        self.shared.write(|s| {
            s.ensure_guild(guild_id, None);
            if let Some(g) = s.guilds.get_mut(&guild_id) {
                let position = g
                    .roles
                    .get(&role_id)
                    .map(|r| r.position)
                    .unwrap_or(g.roles.len() as u16);
                g.roles.insert(
                    role_id,
                    RoleInfo {
                        name: name.to_owned(),
                        permissions,
                        position,
                    },
                );
            }
            s.dispatch_guild_create(guild_id);
        });
    }

    /// Sets what the bot's own role ([`bot_role_id`]) grants in a guild (default
    /// [`DEFAULT_BOT_PERMISSIONS`]); `0` leaves the bot only what @everyone may.
    pub fn set_bot_permissions(&self, guild_id: u64, permissions: u64) {
        self.add_role(guild_id, bot_role_id(guild_id), BOT_USER_NAME, permissions);
    }

    /// Sets a channel's permission overwrite for a role (`is_role`) or a member: bits it allows
    /// and denies there (a thread uses its parent's). Visible over REST (`GET /channels/{c}`).
    pub fn set_overwrite(&self, channel_id: u64, id: u64, is_role: bool, allow: u64, deny: u64) {
        self.shared.write(|s| {
            let list = s.overwrites.entry(channel_id).or_default();
            list.retain(|o| o.id != id);
            list.push(state::Overwrite {
                id,
                is_role,
                allow,
                deny,
            });
        });
    }

    /// Whether the new pin routes (`/channels/{c}/messages/pins/{m}`) answer; off, they answer
    /// 404 as a Discord without them would (default on).
    pub fn set_new_pin_routes(&self, served: bool) {
        self.shared.write(|s| s.new_pin_routes = served);
    }

    /// Makes `user` a member of the guild with exactly these roles (replacing earlier ones).
    /// Visible at once over REST (`GET /guilds/{g}/members/{u}`) and in the `member` of the
    /// user's next messages; connected sessions with the GUILDS intent get a fresh
    /// GUILD_CREATE (a simplification: Discord would send GUILD_MEMBER_UPDATE).
    pub fn add_member(&self, guild_id: u64, user: &FakeUser, roles: &[u64]) {
        self.shared.write(|s| {
            s.ensure_member(guild_id, user);
            if let Some(g) = s.guilds.get_mut(&guild_id) {
                g.members.insert(user.id, roles.to_vec());
            }
            s.dispatch_guild_create(guild_id);
        });
    }

    /// The role ids of a guild member, if a member.
    pub fn member_roles(&self, guild_id: u64, user_id: u64) -> Option<Vec<u64>> {
        self.shared
            .read()
            .guilds
            .get(&guild_id)
            .and_then(|g| g.members.get(&user_id).cloned())
    }

    // ----- acting as users -----

    /// Posts a message as `author`: stores it in the channel's history and dispatches
    /// MESSAGE_CREATE to every connected session (if none is connected it is only stored,
    /// which is how "commands posted while the bot is down" are made). An unknown channel is
    /// created: a text channel of `guild_id`, or with `None` a DM with `author`. Returns the
    /// message id.
    pub fn post_user_message(
        &self,
        channel_id: u64,
        guild_id: Option<u64>,
        author: &FakeUser,
        content: &str,
    ) -> u64 {
        self.post_user_message_inner(channel_id, guild_id, author, content, None, None)
    }

    /// Moves the fake's clock ahead by `by`: every snowflake (and so every message's
    /// timestamp) handed out from now on carries the later time, as if `by` had passed.
    pub fn advance_clock(&self, by: Duration) {
        self.shared
            .write(|s| s.clock_ahead_ms += u64::try_from(by.as_millis()).unwrap_or(u64::MAX));
    }

    /// Like [`Self::post_user_message`], as a reply to `reply_to`.
    pub fn post_user_reply(
        &self,
        channel_id: u64,
        guild_id: Option<u64>,
        author: &FakeUser,
        content: &str,
        reply_to: u64,
    ) -> u64 {
        self.post_user_message_inner(channel_id, guild_id, author, content, Some(reply_to), None)
    }

    fn post_user_message_inner(
        &self,
        channel_id: u64,
        guild_id: Option<u64>,
        author: &FakeUser,
        content: &str,
        reply_to: Option<u64>,
        fixed_id: Option<u64>,
    ) -> u64 {
        self.shared.write(|s| {
            s.remember_user(author);
            let guild_id = match s.channels.get(&channel_id) {
                Some(c) => c.guild_id,
                None => {
                    if let Some(g) = guild_id {
                        s.ensure_guild(g, None);
                    }
                    s.channels.insert(
                        channel_id,
                        ChannelInfo {
                            guild_id,
                            name: format!("channel-{channel_id}"),
                            kind: if guild_id.is_some() { 0 } else { 1 },
                            parent_id: None,
                            recipient: if guild_id.is_some() {
                                None
                            } else {
                                Some(author.id)
                            },
                        },
                    );
                    guild_id
                }
            };
            if let Some(g) = guild_id {
                s.ensure_member(g, author);
            }
            s.unarchive_on_post(channel_id);
            let id = fixed_id.unwrap_or_else(|| s.next_id());
            s.messages.insert(
                id,
                RecordedMessage {
                    referenced_message: reply_to,
                    ..RecordedMessage::new(id, channel_id, guild_id, author.clone(), content)
                },
            );
            s.dispatch_message("MESSAGE_CREATE", id);
            id
        })
    }

    /// Edits a stored message (any author) and dispatches MESSAGE_UPDATE. Returns whether the
    /// message exists and is not deleted.
    pub fn edit_user_message(&self, message_id: u64, content: &str) -> bool {
        self.shared.write(|s| {
            let now_ms = state::snowflake_ms(s.next_id());
            let Some(m) = s.messages.get_mut(&message_id).filter(|m| !m.deleted) else {
                return false;
            };
            let (mentions, mention_roles, mention_everyone) = state::parse_mentions(content);
            m.content = content.to_owned();
            m.mentions = mentions;
            m.mention_roles = mention_roles;
            m.mention_everyone = mention_everyone;
            m.edited_at = Some(Instant::now());
            m.edit_count += 1;
            m.edited_timestamp_ms = Some(now_ms);
            s.dispatch_message("MESSAGE_UPDATE", message_id);
            true
        })
    }

    /// Deletes a stored message (any author) and dispatches MESSAGE_DELETE. Returns whether it
    /// existed and was not already deleted.
    pub fn delete_user_message(&self, message_id: u64) -> bool {
        self.shared.write(|s| {
            let Some(m) = s.messages.get_mut(&message_id).filter(|m| !m.deleted) else {
                return false;
            };
            m.deleted = true;
            s.dispatch_delete(message_id);
            true
        })
    }

    // ----- inspecting what the bot did -----

    /// Every message the bot posted in the channel, in posting order, including deleted ones
    /// (see [`RecordedMessage::deleted`]), with their current content.
    pub fn bot_messages(&self, channel_id: u64) -> Vec<RecordedMessage> {
        self.shared
            .read()
            .messages
            .values()
            .filter(|m| m.channel_id == channel_id && m.is_bot())
            .cloned()
            .collect()
    }

    /// The newest message the bot posted in the channel for which `pick` holds (searched from
    /// the newest, without copying the others: a waiting loop over a long history stays cheap).
    pub fn last_bot_message(
        &self,
        channel_id: u64,
        pick: impl Fn(&RecordedMessage) -> bool,
    ) -> Option<RecordedMessage> {
        self.shared
            .read()
            .messages
            .values()
            .rev()
            .find(|m| m.channel_id == channel_id && m.is_bot() && pick(m))
            .cloned()
    }

    /// Every message the bot posted in any channel, in posting order.
    pub fn all_bot_messages(&self) -> Vec<RecordedMessage> {
        self.shared
            .read()
            .messages
            .values()
            .filter(|m| m.is_bot())
            .cloned()
            .collect()
    }

    /// The channel's whole history (users and bot, including deleted), oldest first.
    pub fn channel_messages(&self, channel_id: u64) -> Vec<RecordedMessage> {
        self.shared
            .read()
            .messages
            .values()
            .filter(|m| m.channel_id == channel_id)
            .cloned()
            .collect()
    }

    /// One stored message by id.
    pub fn message(&self, message_id: u64) -> Option<RecordedMessage> {
        self.shared.read().messages.get(&message_id).cloned()
    }

    /// Waits until the bot has posted at least `count` messages in the channel and returns
    /// them all (in posting order).
    pub async fn wait_for_bot_messages(
        &self,
        channel_id: u64,
        count: usize,
        timeout: Duration,
    ) -> Result<Vec<RecordedMessage>, WaitTimeout> {
        self.wait_for(timeout, |f| {
            let msgs = f.bot_messages(channel_id);
            if msgs.len() >= count {
                Ok(msgs)
            } else {
                Err(format!(
                    "{count} bot message(s) in channel {channel_id}; got {}: {:?}",
                    msgs.len(),
                    msgs.iter().map(|m| m.content.as_str()).collect::<Vec<_>>()
                ))
            }
        })
        .await
    }

    /// The emojis the bot currently has on a message, in the order added (percent-decoded:
    /// `"✅"`, or `name:id` for custom emojis).
    pub fn reactions(&self, message_id: u64) -> Vec<String> {
        self.shared
            .read()
            .reactions
            .iter()
            .filter(|r| r.message_id == message_id && !r.removed)
            .map(|r| r.emoji.clone())
            .collect()
    }

    /// Every reaction PUT the bot made, including removed ones.
    pub fn all_reactions(&self) -> Vec<RecordedReaction> {
        self.shared.read().reactions.clone()
    }

    /// Waits until the bot has at least `count` reactions on the message.
    pub async fn wait_for_reactions(
        &self,
        message_id: u64,
        count: usize,
        timeout: Duration,
    ) -> Result<Vec<String>, WaitTimeout> {
        self.wait_for(timeout, |f| {
            let r = f.reactions(message_id);
            if r.len() >= count {
                Ok(r)
            } else {
                Err(format!(
                    "{count} reaction(s) on message {message_id}; got {r:?}"
                ))
            }
        })
        .await
    }

    /// How many typing indicators the bot triggered in the channel.
    pub fn typing_count(&self, channel_id: u64) -> u32 {
        self.shared
            .read()
            .typing
            .get(&channel_id)
            .copied()
            .unwrap_or(0)
    }

    /// Every REST request answered so far, in arrival order.
    pub fn requests(&self) -> Vec<RequestRecord> {
        self.shared.read().requests.clone()
    }

    /// `METHOD /path` of every request to a route the fake does not serve (answered 404).
    pub fn unhandled_requests(&self) -> Vec<String> {
        self.shared.read().unhandled.clone()
    }

    // ----- gateway -----

    /// How many IDENTIFYs the gateway accepted (a reconnect that re-identifies adds one).
    pub fn identify_count(&self) -> usize {
        self.shared.read().identifies.len()
    }

    /// Every accepted IDENTIFY.
    pub fn identifies(&self) -> Vec<IdentifyRecord> {
        self.shared.read().identifies.clone()
    }

    /// The intents of the last accepted IDENTIFY.
    pub fn last_intents(&self) -> Option<u64> {
        self.shared.read().identifies.last().map(|i| i.intents)
    }

    /// How many RESUMEs arrived (each is answered with `{"op":9,"d":false}`).
    pub fn resume_count(&self) -> u32 {
        self.shared.read().resume_count
    }

    /// How many heartbeats (op 1) arrived.
    pub fn heartbeat_count(&self) -> u64 {
        self.shared.read().heartbeat_count
    }

    /// Gateway sessions that were sent READY and are still connected.
    pub fn connected_sessions(&self) -> usize {
        self.shared.read().sessions.len()
    }

    /// Waits until at least `count` IDENTIFYs were accepted.
    pub async fn wait_for_identify_count(
        &self,
        count: usize,
        timeout: Duration,
    ) -> Result<(), WaitTimeout> {
        self.wait_for(timeout, |f| {
            let n = f.identify_count();
            if n >= count {
                Ok(())
            } else {
                Err(format!("{count} IDENTIFY(s); got {n}"))
            }
        })
        .await
    }

    /// Waits until exactly `count` sessions are connected.
    pub async fn wait_for_sessions(
        &self,
        count: usize,
        timeout: Duration,
    ) -> Result<(), WaitTimeout> {
        self.wait_for(timeout, |f| {
            let n = f.connected_sessions();
            if n == count {
                Ok(())
            } else {
                Err(format!("{count} connected session(s); have {n}"))
            }
        })
        .await
    }

    /// The heartbeat interval announced in HELLO to connections made from now on (default
    /// 41.25 s, as Discord). Tests of missed heartbeat ACKs want a short one, e.g. 300 ms.
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        self.shared
            .write(|s| s.heartbeat_interval_ms = (interval.as_millis() as u64).max(1));
    }

    /// While true, heartbeats are not acknowledged, so serenity drops the session and
    /// IDENTIFYs again (after its ~5 s shard-restart wait).
    pub fn drop_heartbeat_acks(&self, drop: bool) {
        self.shared.write(|s| s.drop_heartbeat_acks = drop);
    }

    /// Whether the bot's own created/edited messages are dispatched back to it, as Discord does
    /// (default true).
    pub fn set_dispatch_own_messages(&self, dispatch: bool) {
        self.shared.write(|s| s.dispatch_own_messages = dispatch);
    }

    /// Sends op 7 RECONNECT to every session: serenity reconnects and sends RESUME, which the
    /// fake refuses (`{"op":9,"d":false}`), so it IDENTIFYs anew.
    pub fn request_reconnect(&self) {
        self.shared.write(|s| {
            for sess in s.sessions.values() {
                let _ = sess.tx.send(Outgoing::Raw(json!({"op": 7, "d": null})));
            }
        });
    }

    // ----- fault injection -----

    /// The next `count` requests to `route` are answered with `status` instead of being
    /// served (nothing is stored). A 429 gets Discord's rate-limit body and headers with a
    /// `retry_after` of 0.1 s; any other status gets `{"code":0,"message":"<status>: ..."}`.
    /// Calls queue up behind each other.
    pub fn fail_next(&self, route: RouteKind, status: u16, count: u32) {
        self.push_faults(
            route,
            Fault::Status {
                status,
                retry_after_secs: 0.1,
                global: false,
                form: RateLimitForm::BodyAndHeaders,
            },
            count,
        );
    }

    /// The next `count` requests to `route` are answered 429 with this `retry_after` (body and
    /// `Retry-After` / `X-RateLimit-*` headers), global or per-route.
    pub fn fail_next_rate_limited(
        &self,
        route: RouteKind,
        retry_after: Duration,
        global: bool,
        count: u32,
    ) {
        self.fail_next_rate_limited_as(
            route,
            retry_after,
            global,
            RateLimitForm::BodyAndHeaders,
            count,
        );
    }

    /// As [`FakeDiscord::fail_next_rate_limited`], saying the wait only as `form` says.
    pub fn fail_next_rate_limited_as(
        &self,
        route: RouteKind,
        retry_after: Duration,
        global: bool,
        form: RateLimitForm,
        count: u32,
    ) {
        self.push_faults(
            route,
            Fault::Status {
                status: 429,
                retry_after_secs: retry_after.as_secs_f64(),
                global,
                form,
            },
            count,
        );
    }

    /// The next `count` requests to `route` are never answered (the connection stays open
    /// until the client gives up or the fake stops). With `applied` each is served first (a
    /// post is stored and dispatched, as when Discord applied a request whose answer was lost);
    /// without, nothing is done. They are recorded with `answered: false`.
    pub fn hang_next(&self, route: RouteKind, applied: bool, count: u32) {
        self.push_faults(route, Fault::Hang { applied }, count);
    }

    fn push_faults(&self, route: RouteKind, fault: Fault, count: u32) {
        self.shared.write(|s| {
            let q = s.faults.entry(route).or_insert_with(VecDeque::new);
            q.extend(std::iter::repeat_n(fault, count as usize));
        });
    }

    /// Drops the failures not yet used up for a route: Discord is well again.
    pub fn clear_faults(&self, route: RouteKind) {
        self.shared.write(|s| {
            s.faults.remove(&route);
        });
    }

    /// Injected failures not yet used up for a route.
    pub fn pending_faults(&self, route: RouteKind) -> usize {
        self.shared
            .read()
            .faults
            .get(&route)
            .map_or(0, VecDeque::len)
    }

    // ----- waiting -----

    /// Waits until `check` returns `Ok`, re-checking on every state change of the fake (no
    /// polling). On timeout the error carries the last `Err` text of `check`.
    pub async fn wait_for<T>(
        &self,
        timeout: Duration,
        mut check: impl FnMut(&FakeDiscord) -> Result<T, String>,
    ) -> Result<T, WaitTimeout> {
        let start = Instant::now();
        let mut rx = self.shared.version.subscribe();
        loop {
            rx.borrow_and_update();
            let why = match check(self) {
                Ok(v) => return Ok(v),
                Err(why) => why,
            };
            let left = timeout.saturating_sub(start.elapsed());
            let changed = tokio::time::timeout(left, rx.changed()).await;
            if !matches!(changed, Ok(Ok(()))) {
                return match check(self) {
                    Ok(v) => Ok(v),
                    Err(why2) => Err(WaitTimeout {
                        what: if why2.is_empty() { why } else { why2 },
                        waited: start.elapsed(),
                    }),
                };
            }
        }
    }
}

/// Runs `fut` with a timeout, panicking with `what` if it expires (for test code).
pub async fn within<T>(timeout: Duration, what: &str, fut: impl Future<Output = T>) -> T {
    match tokio::time::timeout(timeout, fut).await {
        Ok(v) => v,
        Err(_) => panic!("timed out after {timeout:?}: {what}"),
    }
}

/// One example of every gateway payload the fake emits (HELLO, READY, GUILD_CREATE,
/// MESSAGE_CREATE for guild/DM/reply/upload/bot messages, MESSAGE_UPDATE, MESSAGE_DELETE,
/// heartbeat ACK, RECONNECT, INVALID_SESSION), rendered by the same code the gateway uses.
/// A test deserializes each into serenity's `GatewayEvent`.
pub fn all_emitted_payload_examples() -> Vec<Value> {
    examples::gateway()
}

/// One example of every REST response body the fake serves, named by [`RouteKind`] (with a
/// suffix where one route has several shapes), rendered by the same code the routes use.
pub fn all_rest_response_examples() -> Vec<(String, Value)> {
    examples::rest()
}

mod examples {
    use super::*;

    const G: u64 = 1_000;
    const C: u64 = 1_001;
    const T: u64 = 1_002;
    const DM: u64 = 1_003;
    const ROLE: u64 = 1_004;

    fn sample_state() -> (State, u64, u64, u64) {
        let mut s = State::new(
            FakeUser::new(BOT_USER_ID, BOT_USER_NAME),
            "http://127.0.0.1:1".into(),
            "ws://127.0.0.1:2".into(),
        );
        let alice = FakeUser::new(77, "alice");
        s.ensure_guild(G, Some("Irish Gauge"));
        s.guilds.get_mut(&G).unwrap().roles.insert(
            ROLE,
            RoleInfo {
                name: "Moderator".into(),
                permissions: permissions::MANAGE_MESSAGES,
                position: 1,
            },
        );
        s.ensure_member(G, &alice);
        s.guilds
            .get_mut(&G)
            .unwrap()
            .members
            .insert(alice.id, vec![ROLE]);
        for (id, kind, parent) in [(C, 0u8, None), (T, 11, Some(C))] {
            s.channels.insert(
                id,
                ChannelInfo {
                    guild_id: Some(G),
                    name: format!("c{id}"),
                    kind,
                    parent_id: parent,
                    recipient: None,
                },
            );
        }
        s.channels.insert(
            DM,
            ChannelInfo {
                guild_id: None,
                name: String::new(),
                kind: 1,
                parent_id: None,
                recipient: Some(alice.id),
            },
        );
        let mk =
            |s: &mut State, channel: u64, guild: Option<u64>, author: &FakeUser, text: &str| {
                let id = s.next_id();
                s.messages.insert(
                    id,
                    RecordedMessage::new(id, channel, guild, author.clone(), text),
                );
                id
            };
        let bot = s.bot.clone();
        let user_msg = mk(
            &mut s,
            C,
            Some(G),
            &alice,
            &format!("!join <@{BOT_USER_ID}> <@&{ROLE}>"),
        );
        let dm_msg = mk(&mut s, DM, None, &alice, "hello in DM");
        let bot_msg = mk(&mut s, C, Some(G), &bot, "**Board** <@77>");
        let att_id = s.next_id();
        let ts = state::snowflake_ms(s.next_id());
        {
            let m = s.messages.get_mut(&bot_msg).unwrap();
            m.referenced_message = Some(user_msg);
            m.attachments.push(RecordedAttachment {
                id: att_id,
                filename: "board.png".into(),
                content_type: Some("image/png".into()),
                data: vec![0x89, b'P', b'N', b'G'],
            });
            m.embeds.push(
                json!({"title": "Turn 3", "description": "x", "color": 3447003,
                "fields": [{"name": "a", "value": "b", "inline": false}],
                "image": {"url": "attachment://board.png"}}),
            );
            m.edited_timestamp_ms = Some(ts);
            m.edit_count = 1;
            // A turn prompt's buttons, as serenity's builders send them.
            m.components.push(json!({"type": 1, "components": [
                {"type": 2, "style": 1, "label": "Bid £8", "custom_id": "gb|1001-1|3|bid 8"},
                {"type": 2, "style": 2, "label": "Pass", "custom_id": "gb|1001-1|3|pass"},
            ]}));
        }
        mk(&mut s, T, Some(G), &alice, "in a thread");
        (s, user_msg, dm_msg, bot_msg)
    }

    fn dispatch(s: u64, t: &str, d: Value) -> Value {
        json!({"op": 0, "s": s, "t": t, "d": d})
    }

    pub(super) fn gateway() -> Vec<Value> {
        let (mut s, user_msg, dm_msg, bot_msg) = sample_state();
        let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
        s.sessions.insert(
            1,
            state::SessionEntry {
                tx,
                intents: state::INTENT_GUILDS
                    | state::INTENT_GUILD_MESSAGES
                    | state::INTENT_DIRECT_MESSAGES,
                shard: None,
            },
        );
        let mut out = vec![
            gateway::hello_json(41_250),
            gateway::HEARTBEAT_ACK.clone(),
            json!({"op": 7, "d": null}),
            gateway::INVALID_SESSION.clone(),
            dispatch(1, "READY", s.ready_json("fake-session-1")),
        ];
        // Everything the dispatch helpers emit, through the same channel a session reads.
        s.dispatch_guild_create(G);
        for id in [user_msg, dm_msg, bot_msg] {
            s.dispatch_message("MESSAGE_CREATE", id);
        }
        let thread_msg = *s.messages.keys().last().unwrap();
        s.dispatch_message("MESSAGE_CREATE", thread_msg);
        s.dispatch_message("MESSAGE_UPDATE", bot_msg);
        // A thread's life: created, archived, deleted.
        s.dispatch_thread("THREAD_CREATE", T);
        s.archived.insert(T);
        s.dispatch_thread("THREAD_UPDATE", T);
        s.dispatch_thread("THREAD_DELETE", T);
        s.dispatch_delete(user_msg);
        s.dispatch_delete(dm_msg);
        // Reply whose target was deleted: referenced_message is null.
        s.messages.get_mut(&user_msg).unwrap().deleted = true;
        s.dispatch_message("MESSAGE_CREATE", bot_msg);
        let alice = FakeUser::new(77, "alice");
        let (interactions, _) = crate::interactions::examples::all(&mut s, C, G, &alice, bot_msg);
        for d in interactions {
            s.dispatch_interaction(d);
        }
        let mut seq = 2;
        while let Ok(o) = rx.try_recv() {
            match o {
                Outgoing::Dispatch(t, d) => out.push(dispatch(seq, t, d)),
                Outgoing::Raw(v) => out.push(v),
            }
            seq += 1;
        }
        out
    }

    pub(super) fn rest() -> Vec<(String, Value)> {
        let (mut s, user_msg, _, bot_msg) = sample_state();
        let alice = FakeUser::new(77, "alice");
        let (_, native) = crate::interactions::examples::all(&mut s, C, G, &alice, bot_msg);
        let name = |k: RouteKind, suffix: &str| format!("{k:?}{suffix}");
        let history: Vec<Value> = s
            .live_messages(C)
            .into_iter()
            .rev()
            .map(|m| s.message_json(m, false))
            .collect();
        s.archived.insert(T);
        let archived = s.archived_threads_json(C);
        s.archived.remove(&T);
        vec![
            (name(RouteKind::Gateway, ""), rest::gateway_json(&s)),
            (name(RouteKind::GatewayBot, ""), rest::gateway_bot_json(&s)),
            (name(RouteKind::CurrentUser, ""), s.current_user_json()),
            (name(RouteKind::ApplicationInfo, ""), s.application_json()),
            (name(RouteKind::CreateDm, ""), s.channel_json(DM).unwrap()),
            (name(RouteKind::GetChannel, ""), s.channel_json(C).unwrap()),
            (
                name(RouteKind::GetChannel, "/thread"),
                s.channel_json(T).unwrap(),
            ),
            (
                name(RouteKind::GetChannel, "/dm"),
                s.channel_json(DM).unwrap(),
            ),
            (name(RouteKind::ArchivedThreads, ""), archived),
            (name(RouteKind::GetMessages, ""), Value::Array(history)),
            (
                name(RouteKind::GetMessage, ""),
                s.message_json(&s.messages[&user_msg], false),
            ),
            (
                name(RouteKind::CreateMessage, ""),
                s.message_json(&s.messages[&bot_msg], false),
            ),
            (
                name(RouteKind::EditMessage, ""),
                s.message_json(&s.messages[&bot_msg], false),
            ),
            (
                name(RouteKind::GetGuild, ""),
                s.guild_json(G, false).unwrap(),
            ),
            (
                name(RouteKind::GetGuildRoles, ""),
                Value::Array(s.roles_json(G).unwrap()),
            ),
            (
                name(RouteKind::GetGuildMember, ""),
                s.member_json(G, 77).unwrap(),
            ),
            (
                name(RouteKind::GetGuildChannels, ""),
                rest::guild_channels_json(&s, G),
            ),
            ("Error".into(), rest::error_json(10_003, "Unknown Channel")),
            ("RateLimited".into(), rest::rate_limit_json(0.25, false)),
        ]
        .into_iter()
        .chain(native)
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use serenity::model::application::{Command, CurrentApplicationInfo, Interaction};
    use serenity::model::channel::MessageFlags;
    use serenity::model::channel::{Channel, GuildChannel, Message, PrivateChannel};
    use serenity::model::event::{Event, GatewayEvent};
    use serenity::model::gateway::{BotGateway, Gateway};
    use serenity::model::guild::{Member, PartialGuild, Role};
    use serenity::model::user::CurrentUser;

    use super::*;

    #[test]
    fn every_gateway_payload_parses_as_a_known_serenity_event() {
        let examples = all_emitted_payload_examples();
        let mut kinds = std::collections::BTreeSet::new();
        for v in &examples {
            let ev: GatewayEvent = serde_json::from_value(v.clone())
                .unwrap_or_else(|e| panic!("serenity rejects {v}: {e}"));
            match ev {
                GatewayEvent::Dispatch(_, Event::Unknown(u)) => {
                    panic!("serenity parses {} as Unknown: {}", u.kind, v)
                }
                GatewayEvent::Dispatch(_, Event::InteractionCreate(e)) => {
                    let kind = match e.interaction {
                        Interaction::Command(c) => {
                            assert_eq!(c.data.name, "bid");
                            if c.guild_id.is_some() {
                                let member = c.member.expect("a member");
                                assert!(member.permissions.is_some());
                                if c.data.options.len() == 3 {
                                    assert_eq!(c.data.resolved.users.len(), 1);
                                    assert_eq!(c.data.resolved.members.len(), 1);
                                }
                            } else {
                                assert_eq!(c.user.id.get(), 77);
                            }
                            "command"
                        }
                        Interaction::Autocomplete(a) => {
                            let focused = a.data.autocomplete().expect("a focused option");
                            assert_eq!((focused.name, focused.value), ("amount", "1"));
                            "autocomplete"
                        }
                        Interaction::Component(c) => {
                            assert_eq!(c.data.custom_id, "gb|x|1|pass");
                            assert_eq!(c.message.components.len(), 1);
                            "component"
                        }
                        other => panic!("unexpected interaction {other:?}"),
                    };
                    kinds.insert(format!("INTERACTION_CREATE/{kind}"));
                }
                GatewayEvent::Dispatch(_, e) => {
                    kinds.insert(e.name().expect("named event"));
                }
                GatewayEvent::Hello(ms) => {
                    assert_eq!(ms, 41_250);
                    kinds.insert("HELLO".into());
                }
                GatewayEvent::HeartbeatAck => {
                    kinds.insert("HEARTBEAT_ACK".into());
                }
                GatewayEvent::Reconnect => {
                    kinds.insert("RECONNECT".into());
                }
                GatewayEvent::InvalidateSession(resumable) => {
                    assert!(!resumable);
                    kinds.insert("INVALID_SESSION".into());
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        for k in [
            "HELLO",
            "HEARTBEAT_ACK",
            "RECONNECT",
            "INVALID_SESSION",
            "READY",
            "GUILD_CREATE",
            "MESSAGE_CREATE",
            "MESSAGE_UPDATE",
            "MESSAGE_DELETE",
            "INTERACTION_CREATE/command",
            "INTERACTION_CREATE/autocomplete",
            "INTERACTION_CREATE/component",
        ] {
            assert!(kinds.contains(k), "no example of {k}: {kinds:?}");
        }
    }

    #[test]
    fn message_examples_keep_their_details() {
        let examples = all_emitted_payload_examples();
        let creates: Vec<Message> = examples
            .iter()
            .filter(|v| v["t"] == "MESSAGE_CREATE")
            .map(|v| serde_json::from_value(v["d"].clone()).unwrap())
            .collect();
        let guild = &creates[0];
        assert!(guild.guild_id.is_some());
        let member = guild
            .member
            .as_ref()
            .expect("guild messages carry a member");
        assert_eq!(member.roles.len(), 1);
        assert_eq!(guild.mentions[0].id.get(), BOT_USER_ID);
        assert_eq!(guild.mention_roles.len(), 1);
        // No MESSAGE_CONTENT intent, but the bot is mentioned: content is kept.
        assert!(guild.content.starts_with("!join"));
        let dm = &creates[1];
        assert!(dm.guild_id.is_none());
        assert_eq!(dm.content, "hello in DM");
        let bot = &creates[2];
        assert!(bot.author.bot);
        assert_eq!(bot.attachments[0].filename, "board.png");
        assert_eq!(bot.embeds[0].title.as_deref(), Some("Turn 3"));
        assert!(bot.edited_timestamp.is_some());
        let reply = bot.referenced_message.as_ref().expect("reply target");
        assert_eq!(
            Some(reply.id),
            bot.message_reference.as_ref().unwrap().message_id
        );
        // A plain user message without MESSAGE_CONTENT: stripped.
        assert_eq!(creates[3].content, "");
        let last = creates.last().unwrap();
        assert!(last.referenced_message.is_none() && last.message_reference.is_some());
    }

    #[test]
    fn every_rest_response_parses_as_serenity_expects() {
        for (name, v) in all_rest_response_examples() {
            let r: Result<(), serde_json::Error> = (|| {
                let v = v.clone();
                match name.as_str() {
                    "Gateway" => drop(serde_json::from_value::<Gateway>(v)?),
                    "GatewayBot" => drop(serde_json::from_value::<BotGateway>(v)?),
                    "CurrentUser" => drop(serde_json::from_value::<CurrentUser>(v)?),
                    "ApplicationInfo" => drop(serde_json::from_value::<CurrentApplicationInfo>(v)?),
                    "CreateDm" | "GetChannel/dm" => {
                        drop(serde_json::from_value::<PrivateChannel>(v.clone())?);
                        assert!(matches!(
                            serde_json::from_value::<Channel>(v)?,
                            Channel::Private(_)
                        ));
                    }
                    "GetChannel" | "GetChannel/thread" => {
                        drop(serde_json::from_value::<GuildChannel>(v.clone())?);
                        assert!(matches!(
                            serde_json::from_value::<Channel>(v)?,
                            Channel::Guild(_)
                        ));
                    }
                    "ArchivedThreads" => {
                        let data = serde_json::from_value::<serenity::all::ThreadsData>(v)?;
                        assert_eq!(data.threads.len(), 1);
                        assert!(data.threads[0].thread_metadata.is_some_and(|m| m.archived));
                    }
                    "GetMessages" => {
                        let msgs = serde_json::from_value::<Vec<Message>>(v)?;
                        assert!(msgs.windows(2).all(|w| w[0].id > w[1].id));
                    }
                    "GetMessage" | "CreateMessage" | "EditMessage" => {
                        drop(serde_json::from_value::<Message>(v)?)
                    }
                    "GetGuild" => drop(serde_json::from_value::<PartialGuild>(v)?),
                    "GetGuildRoles" => drop(serde_json::from_value::<Vec<Role>>(v)?),
                    "GetGuildMember" => drop(serde_json::from_value::<Member>(v)?),
                    "GetGuildChannels" => drop(serde_json::from_value::<Vec<GuildChannel>>(v)?),
                    "Commands" => {
                        let commands = serde_json::from_value::<Vec<Command>>(v)?;
                        assert_eq!(commands[0].options.len(), 3);
                        assert!(commands[0].default_member_permissions.is_some());
                    }
                    "Followup" => {
                        let m = serde_json::from_value::<Message>(v)?;
                        assert!(m.flags.is_some_and(|f| f.contains(MessageFlags::EPHEMERAL)));
                    }
                    "Pins" => {
                        let pins = serde_json::from_value::<Vec<Message>>(v)?;
                        assert!(pins[0].pinned || pins.len() == 1);
                    }
                    "Error" | "RateLimited" => drop(serde_json::from_value::<
                        serenity::http::DiscordJsonError,
                    >(v)?),
                    other => panic!("no serenity type known for example {other}"),
                }
                Ok(())
            })();
            if let Err(e) = r {
                panic!("serenity rejects the {name} response {v}: {e}");
            }
        }
    }
}
