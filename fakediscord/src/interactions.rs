//! Interactions: application commands (registration), INTERACTION_CREATE for slash commands,
//! autocomplete and button clicks, the interaction callback and follow-up (webhook) endpoints,
//! and pins.
//!
//! Like Discord: an interaction must be answered (its callback) within 3 s of its creation and
//! only once, or the callback fails (404 `Unknown interaction`, 400 `already acknowledged`);
//! after a deferred answer (type 5) the first follow-up fills the "thinking…" message and keeps
//! the defer's visibility; ephemeral messages are seen by nobody else (never dispatched, never
//! in the history).

// Handlers return `Result<_, Response>` on purpose: the error is the finished HTTP answer.
#![allow(clippy::result_large_err)]

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::rest::{
    self, error, json_list, no_content, read_body, unknown_channel, unknown_message,
};
use crate::state::{self, State as FakeState};
use crate::{FakeDiscord, FakeUser, RecordedMessage, RouteKind, Shared, WaitTimeout};

type St = State<Arc<Shared>>;

/// How long Discord waits for an interaction's first answer.
pub const INTERACTION_DEADLINE: Duration = Duration::from_secs(3);

/// Message flag: only the invoking user sees it.
pub const EPHEMERAL: u64 = 1 << 6;

/// Application flag GATEWAY_MESSAGE_CONTENT (a verified bot granted the intent).
pub const APP_FLAG_MESSAGE_CONTENT: u64 = 1 << 18;
/// Application flag GATEWAY_MESSAGE_CONTENT_LIMITED (a bot in under 100 servers with the
/// intent switched on in the Developer Portal).
pub const APP_FLAG_MESSAGE_CONTENT_LIMITED: u64 = 1 << 19;

/// What kind of interaction a test sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InteractionKind {
    /// A slash command (type 2).
    Command,
    /// A click on a message component (type 3).
    Component,
    /// An autocomplete request (type 4).
    Autocomplete,
}

/// The bot's first answer to an interaction (`POST /interactions/{id}/{token}/callback`).
#[derive(Clone, Debug)]
pub struct Callback {
    /// The callback type: 4 message, 5 deferred message, 6 deferred update, 7 update,
    /// 8 autocomplete result.
    pub kind: u64,
    /// The callback's `data`, as sent.
    pub data: Value,
    /// When it arrived.
    pub at: Instant,
}

/// One interaction a test sent, with everything the bot answered.
#[derive(Clone, Debug)]
pub struct InteractionRecord {
    /// Its snowflake.
    pub id: u64,
    /// Its token.
    pub token: String,
    /// Its kind.
    pub kind: InteractionKind,
    /// The channel.
    pub channel_id: u64,
    /// Who invoked it.
    pub user: FakeUser,
    /// The command name, or the button's custom id.
    pub name: String,
    /// When INTERACTION_CREATE was handed to the session(s).
    pub sent_at: Instant,
    /// The first answer, if any.
    pub callback: Option<Callback>,
    /// Every callback attempt's HTTP status, in order.
    pub callback_statuses: Vec<u16>,
    /// The original response message (type 4, or the placeholder of type 5), if any.
    pub original: Option<u64>,
    /// Follow-up messages (the first follow-up after a defer fills `original` instead).
    pub followups: Vec<u64>,
    /// The autocomplete choices answered (type 8).
    pub choices: Vec<Value>,
    /// For a click: the message whose button was clicked.
    pub clicked: Option<u64>,
}

impl InteractionRecord {
    /// How long the bot took to answer, if it did.
    pub fn ack_latency(&self) -> Option<Duration> {
        self.callback
            .as_ref()
            .map(|c| c.at.saturating_duration_since(self.sent_at))
    }

    /// Whether the first answer was deferred (type 5 or 6).
    pub fn deferred(&self) -> bool {
        self.callback
            .as_ref()
            .is_some_and(|c| c.kind == 5 || c.kind == 6)
    }
}

/// A pending or answered interaction, as the fake keeps it.
pub(crate) struct Pending {
    pub record: InteractionRecord,
    /// Whether the original response is a "thinking…" placeholder no follow-up filled yet.
    pub placeholder: bool,
    /// Whether the defer (or first answer) was ephemeral.
    pub ephemeral: bool,
}

/// The fake's interaction state (one field of [`FakeState`]).
#[derive(Default)]
pub(crate) struct Native {
    /// The application's flags (`GET /oauth2/applications/@me`); `None`: the default
    /// (GATEWAY_MESSAGE_CONTENT_LIMITED).
    pub app_flags: Option<u64>,
    /// Global commands as registered, with ids.
    pub global_commands: Vec<Value>,
    /// Guild commands as registered, by guild.
    pub guild_commands: BTreeMap<u64, Vec<Value>>,
    /// How many times commands were registered (PUT).
    pub registrations: u32,
    /// Interactions by id.
    pub interactions: BTreeMap<u64, Pending>,
    /// Interaction ids by token.
    pub tokens: HashMap<String, u64>,
    /// Pinned message ids by channel, in pinning order.
    pub pins: BTreeMap<u64, Vec<u64>>,
}

impl Native {
    /// The application flags announced.
    pub(crate) fn flags(&self) -> u64 {
        self.app_flags.unwrap_or(APP_FLAG_MESSAGE_CONTENT_LIMITED)
    }

    /// Whether the application may ask for the MESSAGE_CONTENT intent.
    pub(crate) fn may_read_content(&self) -> bool {
        self.flags() & (APP_FLAG_MESSAGE_CONTENT | APP_FLAG_MESSAGE_CONTENT_LIMITED) != 0
    }

    /// The registered command called `name` that a user in `guild` sees (guild commands first).
    fn command(&self, guild: Option<u64>, name: &str) -> Option<&Value> {
        guild
            .and_then(|g| self.guild_commands.get(&g))
            .into_iter()
            .flatten()
            .chain(self.global_commands.iter())
            .find(|c| c["name"] == name)
    }
}

// ----- JSON -----

/// The id of a fresh interaction token.
fn token_for(id: u64) -> String {
    format!("fake-interaction-token-{id}")
}

/// A registered command as Discord answers it: the body sent, with ids and defaults.
fn command_json(s: &mut FakeState, body: &Value, guild: Option<u64>) -> Value {
    let mut c = body.clone();
    let id = s.next_id();
    if let Some(obj) = c.as_object_mut() {
        obj.insert("id".into(), json!(id.to_string()));
        obj.insert("application_id".into(), json!(s.bot.id.to_string()));
        obj.insert("version".into(), json!(s.next_id().to_string()));
        obj.entry("type").or_insert(json!(1));
        obj.entry("description").or_insert(json!(""));
        obj.entry("options").or_insert(json!([]));
        obj.entry("default_member_permissions")
            .or_insert(Value::Null);
        obj.entry("nsfw").or_insert(json!(false));
        obj.insert(
            "guild_id".into(),
            guild.map(|g| json!(g.to_string())).unwrap_or(Value::Null),
        );
    }
    c
}

/// A member's permissions in a guild: @everyone and their roles (Administrator: all).
fn member_permissions(s: &FakeState, guild: u64, user: u64) -> u64 {
    let Some(g) = s.guilds.get(&guild) else {
        return 0;
    };
    let mut p = g.roles.get(&guild).map(|r| r.permissions).unwrap_or(0);
    for role in g.members.get(&user).into_iter().flatten() {
        p |= g.roles.get(role).map(|r| r.permissions).unwrap_or(0);
    }
    if p & crate::permissions::ADMINISTRATOR != 0 {
        p = (1u64 << 50) - 1;
    }
    p
}

/// The fields every interaction shares.
fn interaction_base(
    s: &FakeState,
    id: u64,
    kind: u8,
    channel_id: u64,
    guild: Option<u64>,
    user: &FakeUser,
) -> Value {
    let mut v = json!({
        "id": id.to_string(),
        "application_id": s.bot.id.to_string(),
        "type": kind,
        "channel_id": channel_id.to_string(),
        "channel": {"id": channel_id.to_string(), "type": if guild.is_some() { 0 } else { 1 }},
        "token": token_for(id),
        "version": 1,
        "app_permissions": crate::DEFAULT_EVERYONE_PERMISSIONS.to_string(),
        "locale": "en-GB",
        "guild_locale": guild.map(|_| "en-GB"),
        "entitlements": [],
        "authorizing_integration_owners": {},
        "context": if guild.is_some() { 0 } else { 1 },
        "attachment_size_limit": 26_214_400,
    });
    match guild {
        Some(g) => {
            v["guild_id"] = json!(g.to_string());
            let mut member = s.member_json(g, user.id).unwrap_or_else(|| json!({}));
            member["permissions"] = json!(member_permissions(s, g, user.id).to_string());
            v["member"] = member;
        }
        None => v["user"] = s.user_json(user.id),
    }
    v
}

/// A command option's value as Discord sends it, by the registered option type.
fn option_json(
    s: &FakeState,
    definition: &Value,
    name: &str,
    value: &str,
    focused: bool,
    resolved: &mut Value,
) -> Value {
    let kind = definition["options"]
        .as_array()
        .and_then(|o| o.iter().find(|o| o["name"] == name))
        .and_then(|o| o["type"].as_u64())
        .unwrap_or_else(|| panic!("the command {} has no option {name}", definition["name"]));
    let typed = if focused {
        // Autocomplete sends what is typed so far, as text.
        json!(value)
    } else {
        match kind {
            4 => json!(value
                .parse::<i64>()
                .unwrap_or_else(|_| panic!("option {name} takes an integer, not {value}"))),
            5 => json!(value == "true"),
            6 => {
                let id: u64 = value
                    .parse()
                    .unwrap_or_else(|_| panic!("option {name} takes a user id, not {value}"));
                resolved["users"][id.to_string()] = s.user_json(id);
                json!(id.to_string())
            }
            10 => json!(value
                .parse::<f64>()
                .unwrap_or_else(|_| panic!("option {name} takes a number, not {value}"))),
            _ => json!(value),
        }
    };
    let mut o = json!({"name": name, "type": kind, "value": typed});
    if focused {
        o["focused"] = json!(true);
    }
    o
}

/// A message posted as an answer to an interaction.
fn response_message(
    s: &mut FakeState,
    channel_id: u64,
    body: &Value,
    files: Vec<(usize, crate::RecordedAttachment)>,
    ephemeral: bool,
    interaction: u64,
) -> u64 {
    let guild = s.channels.get(&channel_id).and_then(|c| c.guild_id);
    let id = s.next_id();
    let mut attachments = Vec::new();
    let mut files = files;
    files.sort_by_key(|(i, _)| *i);
    for (_, mut a) in files {
        a.id = s.next_id();
        attachments.push(a);
    }
    let bot = s.bot.clone();
    let content = body["content"].as_str().unwrap_or_default().to_owned();
    s.messages.insert(
        id,
        RecordedMessage {
            attachments,
            embeds: json_list(&body["embeds"]),
            components: json_list(&body["components"]),
            allowed_mentions: body.get("allowed_mentions").cloned(),
            payload: Some(body.clone()),
            ephemeral,
            interaction: Some(interaction),
            ..RecordedMessage::new(id, channel_id, guild, bot, &content)
        },
    );
    if !ephemeral {
        s.dispatch_message("MESSAGE_CREATE", id);
    }
    id
}

/// Applies an edit body to a stored message (content, embeds, components, attachments kept
/// by id, new uploads).
fn apply_edit(
    s: &mut FakeState,
    message_id: u64,
    body: &Value,
    files: Vec<(usize, crate::RecordedAttachment)>,
) {
    let mut new_files = Vec::new();
    let mut files = files;
    files.sort_by_key(|(i, _)| *i);
    for (_, mut a) in files {
        a.id = s.next_id();
        new_files.push(a);
    }
    let edited_ms = state::snowflake_ms(s.next_id());
    let Some(m) = s.messages.get_mut(&message_id) else {
        return;
    };
    if let Some(c) = body.get("content").filter(|c| !c.is_null()) {
        m.content = c.as_str().unwrap_or_default().to_owned();
        let (mentions, roles, everyone) = state::parse_mentions(&m.content);
        m.mentions = mentions;
        m.mention_roles = roles;
        m.mention_everyone = everyone;
    }
    if let Some(e) = body.get("embeds").filter(|e| !e.is_null()) {
        m.embeds = json_list(e);
    }
    if let Some(c) = body.get("components").filter(|c| !c.is_null()) {
        m.components = json_list(c);
    }
    if let Some(keep) = body.get("attachments").filter(|a| !a.is_null()) {
        let keep: Vec<u64> = json_list(keep)
            .iter()
            .filter_map(|a| rest::parse_id(&a["id"]))
            .collect();
        m.attachments.retain(|a| keep.contains(&a.id));
    }
    m.attachments.extend(new_files);
    m.payload = Some(body.clone());
    m.edited_at = Some(Instant::now());
    m.edit_count += 1;
    m.edited_timestamp_ms = Some(edited_ms);
    if !m.ephemeral {
        s.dispatch_message("MESSAGE_UPDATE", message_id);
    }
}

// ----- REST -----

/// The routes of this module, added to the fake's router (before its gatekeeper layer).
pub(crate) fn routes(router: Router<Arc<Shared>>) -> Router<Arc<Shared>> {
    const WH: &str = "/api/v10/webhooks/{application_id}/{token}";
    router
        .route(
            "/api/v10/applications/{application_id}/commands",
            get(get_global_commands).put(put_global_commands),
        )
        .route(
            "/api/v10/applications/{application_id}/guilds/{guild_id}/commands",
            get(get_guild_commands).put(put_guild_commands),
        )
        .route(
            "/api/v10/interactions/{interaction_id}/{token}/callback",
            post(callback),
        )
        .route(WH, post(followup))
        .route(
            &format!("{WH}/messages/{{message_id}}"),
            get(get_webhook_message)
                .patch(edit_webhook_message)
                .delete(delete_webhook_message),
        )
        .route("/api/v10/channels/{channel_id}/pins", get(get_pins))
        .route(
            "/api/v10/channels/{channel_id}/pins/{message_id}",
            put(pin).delete(unpin),
        )
        .route(
            "/api/v10/channels/{channel_id}/messages/pins/{message_id}",
            put(message_pin).delete(message_unpin),
        )
}

/// The [`RouteKind`] of one of this module's routes.
pub(crate) fn route_kind(method: &str, path: &str) -> Option<RouteKind> {
    use RouteKind::*;
    Some(match (method, path) {
        ("GET", "/applications/{application_id}/commands") => GetCommands,
        ("PUT", "/applications/{application_id}/commands") => SetCommands,
        ("GET", "/applications/{application_id}/guilds/{guild_id}/commands") => GetCommands,
        ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands") => SetCommands,
        ("POST", "/interactions/{interaction_id}/{token}/callback") => InteractionCallback,
        ("POST", "/webhooks/{application_id}/{token}") => Followup,
        ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}") => GetResponse,
        ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}") => EditResponse,
        ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}") => DeleteResponse,
        ("GET", "/channels/{channel_id}/pins") => GetPins,
        ("PUT", "/channels/{channel_id}/pins/{message_id}") => Pin,
        ("DELETE", "/channels/{channel_id}/pins/{message_id}") => Unpin,
        ("PUT", "/channels/{channel_id}/messages/pins/{message_id}") => MessagePin,
        ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}") => MessageUnpin,
        _ => return None,
    })
}

fn unknown_application() -> Response {
    error(StatusCode::NOT_FOUND, 10_002, "Unknown Application")
}

fn unknown_interaction() -> Response {
    error(StatusCode::NOT_FOUND, 10_062, "Unknown interaction")
}

fn unknown_webhook() -> Response {
    error(StatusCode::NOT_FOUND, 10_015, "Unknown Webhook")
}

async fn get_global_commands(State(shared): St, Path(app): Path<u64>) -> Response {
    let s = shared.read();
    if app != s.bot.id {
        return unknown_application();
    }
    Json(Value::Array(s.native.global_commands.clone())).into_response()
}

async fn get_guild_commands(State(shared): St, Path((app, guild)): Path<(u64, u64)>) -> Response {
    let s = shared.read();
    if app != s.bot.id {
        return unknown_application();
    }
    let list = s
        .native
        .guild_commands
        .get(&guild)
        .cloned()
        .unwrap_or_default();
    Json(Value::Array(list)).into_response()
}

/// Checks a bulk overwrite as Discord does: names unique, lower case, 1–32 characters;
/// descriptions 1–100; at most 25 options, required ones first.
fn check_commands(body: &Value) -> Result<Vec<Value>, Response> {
    let Some(list) = body.as_array() else {
        return Err(rest::invalid_form(
            "_root",
            "BASE_TYPE_ARRAY",
            "Must be an array",
        ));
    };
    let bad = |what: String| Err(rest::invalid_form("commands", "INVALID_COMMAND", &what));
    let mut names = Vec::new();
    for c in list {
        let name = c["name"].as_str().unwrap_or_default();
        if name.is_empty()
            || name.chars().count() > 32
            || name
                .chars()
                .any(|ch| ch.is_uppercase() || ch.is_whitespace())
        {
            return bad(format!("invalid command name {name:?}"));
        }
        if names.contains(&name) {
            return bad(format!("command {name} twice"));
        }
        names.push(name);
        let description = c["description"].as_str().unwrap_or_default();
        if description.is_empty() || description.chars().count() > 100 {
            return bad(format!(
                "command {name}: description of {} characters",
                description.chars().count()
            ));
        }
        let options = json_list(&c["options"]);
        if options.len() > 25 {
            return bad(format!("command {name}: {} options", options.len()));
        }
        let mut optional_seen = false;
        for o in &options {
            let oname = o["name"].as_str().unwrap_or_default();
            if oname.is_empty()
                || oname
                    .chars()
                    .any(|ch| ch.is_uppercase() || ch.is_whitespace())
            {
                return bad(format!("command {name}: invalid option name {oname:?}"));
            }
            let odesc = o["description"].as_str().unwrap_or_default();
            if odesc.is_empty() || odesc.chars().count() > 100 {
                return bad(format!("command {name} option {oname}: bad description"));
            }
            let required = o["required"].as_bool().unwrap_or(false);
            if required && optional_seen {
                return bad(format!(
                    "command {name}: required option {oname} after an optional one"
                ));
            }
            optional_seen |= !required;
            if o["autocomplete"].as_bool() == Some(true) && !json_list(&o["choices"]).is_empty() {
                return bad(format!(
                    "command {name} option {oname}: choices and autocomplete"
                ));
            }
        }
    }
    Ok(list.clone())
}

async fn put_global_commands(State(shared): St, Path(app): Path<u64>, req: Request) -> Response {
    let body = match read_body(req).await {
        Ok(b) => b.json,
        Err(r) => return r,
    };
    let list = match check_commands(&body) {
        Ok(list) => list,
        Err(r) => return r,
    };
    shared.write(|s| {
        if app != s.bot.id {
            return unknown_application();
        }
        let made: Vec<Value> = list.iter().map(|c| command_json(s, c, None)).collect();
        s.native.global_commands = made.clone();
        s.native.registrations += 1;
        Json(Value::Array(made)).into_response()
    })
}

async fn put_guild_commands(
    State(shared): St,
    Path((app, guild)): Path<(u64, u64)>,
    req: Request,
) -> Response {
    let body = match read_body(req).await {
        Ok(b) => b.json,
        Err(r) => return r,
    };
    let list = match check_commands(&body) {
        Ok(list) => list,
        Err(r) => return r,
    };
    shared.write(|s| {
        if app != s.bot.id {
            return unknown_application();
        }
        if !s.guilds.contains_key(&guild) {
            return error(StatusCode::NOT_FOUND, 10_004, "Unknown Guild");
        }
        let made: Vec<Value> = list
            .iter()
            .map(|c| command_json(s, c, Some(guild)))
            .collect();
        s.native.guild_commands.insert(guild, made.clone());
        s.native.registrations += 1;
        Json(Value::Array(made)).into_response()
    })
}

async fn callback(
    State(shared): St,
    Path((interaction_id, token)): Path<(u64, String)>,
    req: Request,
) -> Response {
    let body = match read_body(req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let at = Instant::now();
    shared.write(|s| {
        let status = |s: &mut FakeState, code: u16| {
            if let Some(p) = s.native.interactions.get_mut(&interaction_id) {
                p.record.callback_statuses.push(code);
            }
        };
        let Some(p) = s.native.interactions.get(&interaction_id) else {
            return unknown_interaction();
        };
        if p.record.token != token || at.duration_since(p.record.sent_at) > INTERACTION_DEADLINE {
            status(s, 404);
            return unknown_interaction();
        }
        if p.record.callback.is_some() {
            status(s, 400);
            return error(
                StatusCode::BAD_REQUEST,
                40_060,
                "Interaction has already been acknowledged.",
            );
        }
        let kind = body.json["type"].as_u64().unwrap_or(0);
        let data = body.json["data"].clone();
        let ephemeral = data["flags"].as_u64().unwrap_or(0) & EPHEMERAL != 0;
        let channel = p.record.channel_id;
        let interaction_kind = p.record.kind;
        let allowed = match interaction_kind {
            InteractionKind::Autocomplete => kind == 8,
            InteractionKind::Command => kind == 4 || kind == 5,
            InteractionKind::Component => (4..=7).contains(&kind),
        };
        if !allowed {
            status(s, 400);
            return rest::invalid_form(
                "type",
                "INTERACTION_RESPONSE_TYPE_INVALID",
                "Invalid interaction response type",
            );
        }
        if kind == 4 {
            if let Err(r) = rest::validate_content(data["content"].as_str().unwrap_or_default()) {
                status(s, 400);
                return r;
            }
        }
        let original = match kind {
            4 => Some(response_message(
                s,
                channel,
                &data,
                body.files.clone(),
                ephemeral,
                interaction_id,
            )),
            5 => Some(response_message(
                s,
                channel,
                &json!({"content": ""}),
                Vec::new(),
                ephemeral,
                interaction_id,
            )),
            7 => {
                // Updates the clicked message.
                let target = s
                    .native
                    .interactions
                    .get(&interaction_id)
                    .and_then(|p| p.record.clicked);
                if let Some(m) = target {
                    apply_edit(s, m, &data, body.files.clone());
                }
                None
            }
            _ => None,
        };
        if let Some(p) = s.native.interactions.get_mut(&interaction_id) {
            p.record.callback = Some(Callback {
                kind,
                data: data.clone(),
                at,
            });
            p.record.callback_statuses.push(204);
            if kind == 8 {
                p.record.choices = json_list(&data["choices"]);
            }
            if original.is_some() {
                p.record.original = original;
            }
            p.placeholder = kind == 5;
            p.ephemeral = ephemeral;
        }
        no_content()
    })
}

/// The interaction of a webhook token, checking the application id.
fn interaction_of(s: &FakeState, app: u64, token: &str) -> Result<u64, Response> {
    if app != s.bot.id {
        return Err(unknown_webhook());
    }
    s.native
        .tokens
        .get(token)
        .copied()
        .filter(|id| {
            s.native
                .interactions
                .get(id)
                .is_some_and(|p| p.record.callback.is_some())
        })
        .ok_or_else(unknown_webhook)
}

async fn followup(
    State(shared): St,
    Path((app, token)): Path<(u64, String)>,
    req: Request,
) -> Response {
    let body = match read_body(req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let content = body.json["content"].as_str().unwrap_or_default().to_owned();
    if let Err(r) = rest::validate_content(&content) {
        return r;
    }
    if content.is_empty()
        && json_list(&body.json["embeds"]).is_empty()
        && body.files.is_empty()
        && json_list(&body.json["components"]).is_empty()
    {
        return error(
            StatusCode::BAD_REQUEST,
            50_006,
            "Cannot send an empty message",
        );
    }
    shared.write(|s| {
        let id = match interaction_of(s, app, &token) {
            Ok(id) => id,
            Err(r) => return r,
        };
        let Some(p) = s.native.interactions.get(&id) else {
            return unknown_webhook();
        };
        let channel = p.record.channel_id;
        let message = match (p.placeholder, p.record.original) {
            (true, Some(original)) => {
                // The first follow-up after a defer fills the "thinking…" message.
                apply_edit(s, original, &body.json, body.files.clone());
                if let Some(p) = s.native.interactions.get_mut(&id) {
                    p.placeholder = false;
                }
                original
            }
            _ => {
                let ephemeral = body.json["flags"].as_u64().unwrap_or(0) & EPHEMERAL != 0;
                let m = response_message(s, channel, &body.json, body.files.clone(), ephemeral, id);
                if let Some(p) = s.native.interactions.get_mut(&id) {
                    p.record.followups.push(m);
                }
                m
            }
        };
        Json(s.message_json(&s.messages[&message], false)).into_response()
    })
}

/// The message a webhook path names: `@original` or a follow-up of that interaction.
fn webhook_message(s: &FakeState, id: u64, which: &str) -> Option<u64> {
    let p = s.native.interactions.get(&id)?;
    if which == "@original" {
        return p.record.original;
    }
    let m: u64 = which.parse().ok()?;
    (p.record.original == Some(m) || p.record.followups.contains(&m)).then_some(m)
}

async fn get_webhook_message(
    State(shared): St,
    Path((app, token, which)): Path<(u64, String, String)>,
) -> Response {
    let s = shared.read();
    let id = match interaction_of(&s, app, &token) {
        Ok(id) => id,
        Err(r) => return r,
    };
    match webhook_message(&s, id, &which).and_then(|m| s.messages.get(&m)) {
        Some(m) if !m.deleted => Json(s.message_json(m, false)).into_response(),
        _ => unknown_message(),
    }
}

async fn edit_webhook_message(
    State(shared): St,
    Path((app, token, which)): Path<(u64, String, String)>,
    req: Request,
) -> Response {
    let body = match read_body(req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    if let Some(c) = body.json["content"].as_str() {
        if let Err(r) = rest::validate_content(c) {
            return r;
        }
    }
    shared.write(|s| {
        let id = match interaction_of(s, app, &token) {
            Ok(id) => id,
            Err(r) => return r,
        };
        let Some(m) = webhook_message(s, id, &which)
            .filter(|m| s.messages.get(m).is_some_and(|m| !m.deleted))
        else {
            return unknown_message();
        };
        apply_edit(s, m, &body.json, body.files.clone());
        if let Some(p) = s.native.interactions.get_mut(&id) {
            if p.record.original == Some(m) {
                p.placeholder = false;
            }
        }
        Json(s.message_json(&s.messages[&m], false)).into_response()
    })
}

async fn delete_webhook_message(
    State(shared): St,
    Path((app, token, which)): Path<(u64, String, String)>,
) -> Response {
    shared.write(|s| {
        let id = match interaction_of(s, app, &token) {
            Ok(id) => id,
            Err(r) => return r,
        };
        let Some(m) = webhook_message(s, id, &which) else {
            return unknown_message();
        };
        let ephemeral = match s.messages.get_mut(&m) {
            Some(msg) if !msg.deleted => {
                msg.deleted = true;
                msg.ephemeral
            }
            _ => return unknown_message(),
        };
        if !ephemeral {
            s.dispatch_delete(m);
        }
        no_content()
    })
}

async fn get_pins(State(shared): St, Path(channel_id): Path<u64>) -> Response {
    let s = shared.read();
    if !s.channels.contains_key(&channel_id) {
        return unknown_channel();
    }
    let pins: Vec<Value> = s
        .native
        .pins
        .get(&channel_id)
        .into_iter()
        .flatten()
        .rev()
        .filter_map(|m| s.messages.get(m))
        .filter(|m| !m.deleted)
        .map(|m| s.message_json(m, false))
        .collect();
    Json(Value::Array(pins)).into_response()
}

/// Today's rule: pinning and unpinning need PIN_MESSAGES (1 << 51) in the channel; Manage
/// Messages no longer grants it. Without it: 403, code 50013.
fn may_pin(s: &FakeState, channel_id: u64) -> Option<Response> {
    let bot = s.bot.id;
    (s.channel_permissions(channel_id, bot) & crate::permissions::PIN_MESSAGES == 0)
        .then(|| error(StatusCode::FORBIDDEN, 50_013, "Missing Permissions"))
}

/// The 404 of a Discord that does not serve the new pin routes.
fn route_missing() -> Response {
    error(StatusCode::NOT_FOUND, 0, "404: Not Found")
}

async fn message_pin(state: St, Path((channel_id, message_id)): Path<(u64, u64)>) -> Response {
    if !state.0.read().new_pin_routes {
        return route_missing();
    }
    pin(state, Path((channel_id, message_id))).await
}

async fn message_unpin(state: St, Path((channel_id, message_id)): Path<(u64, u64)>) -> Response {
    if !state.0.read().new_pin_routes {
        return route_missing();
    }
    unpin(state, Path((channel_id, message_id))).await
}

async fn pin(State(shared): St, Path((channel_id, message_id)): Path<(u64, u64)>) -> Response {
    shared.write(|s| {
        if !s.channels.contains_key(&channel_id) {
            return unknown_channel();
        }
        if let Some(refused) = may_pin(s, channel_id) {
            return refused;
        }
        if !s
            .messages
            .get(&message_id)
            .is_some_and(|m| m.channel_id == channel_id && !m.deleted && !m.ephemeral)
        {
            return unknown_message();
        }
        let pins = s.native.pins.entry(channel_id).or_default();
        if !pins.contains(&message_id) {
            if pins.len() >= 50 {
                return error(
                    StatusCode::BAD_REQUEST,
                    30_003,
                    "Maximum number of pins reached (50)",
                );
            }
            pins.push(message_id);
        }
        no_content()
    })
}

async fn unpin(State(shared): St, Path((channel_id, message_id)): Path<(u64, u64)>) -> Response {
    shared.write(|s| {
        if !s.channels.contains_key(&channel_id) {
            return unknown_channel();
        }
        if let Some(refused) = may_pin(s, channel_id) {
            return refused;
        }
        if let Some(pins) = s.native.pins.get_mut(&channel_id) {
            pins.retain(|m| *m != message_id);
        }
        no_content()
    })
}

// ----- acting as users, inspecting -----

/// A slash command, autocomplete request or click a test sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeInteraction {
    /// Its snowflake.
    pub id: u64,
    /// Its token.
    pub token: String,
}

impl FakeDiscord {
    /// Sets the application's flags (`GET /oauth2/applications/@me`). Without
    /// [`APP_FLAG_MESSAGE_CONTENT`] or [`APP_FLAG_MESSAGE_CONTENT_LIMITED`] the gateway refuses
    /// an IDENTIFY asking for the MESSAGE_CONTENT intent (close code 4014), as Discord does.
    pub fn set_application_flags(&self, flags: u64) {
        self.shared.write(|s| s.native.app_flags = Some(flags));
    }

    /// The commands registered globally, as Discord stored them (with ids).
    pub fn global_commands(&self) -> Vec<Value> {
        self.shared.read().native.global_commands.clone()
    }

    /// The commands registered in a guild.
    pub fn guild_commands(&self, guild_id: u64) -> Vec<Value> {
        self.shared
            .read()
            .native
            .guild_commands
            .get(&guild_id)
            .cloned()
            .unwrap_or_default()
    }

    /// Waits until commands were registered (globally or in any guild) and returns how many
    /// registrations there were.
    pub async fn wait_for_commands(&self, timeout: Duration) -> Result<u32, WaitTimeout> {
        self.wait_for(timeout, |f| {
            let n = f.shared.read().native.registrations;
            if n > 0 {
                Ok(n)
            } else {
                Err("the bot to register its commands".into())
            }
        })
        .await
    }

    fn send_interaction(
        &self,
        channel_id: u64,
        user: &FakeUser,
        kind: InteractionKind,
        name: &str,
        build: impl FnOnce(&mut FakeState, u64, Option<u64>) -> Value,
    ) -> FakeInteraction {
        self.shared.write(|s| {
            s.remember_user(user);
            let guild = s.channels.get(&channel_id).and_then(|c| c.guild_id);
            if let Some(g) = guild {
                s.ensure_member(g, user);
            }
            let id = s.next_id();
            let payload = build(s, id, guild);
            let token = token_for(id);
            s.native.tokens.insert(token.clone(), id);
            s.native.interactions.insert(
                id,
                Pending {
                    record: InteractionRecord {
                        id,
                        token: token.clone(),
                        kind,
                        channel_id,
                        user: user.clone(),
                        name: name.to_owned(),
                        sent_at: Instant::now(),
                        callback: None,
                        callback_statuses: Vec::new(),
                        original: None,
                        followups: Vec::new(),
                        choices: Vec::new(),
                        clicked: None,
                    },
                    placeholder: false,
                    ephemeral: false,
                },
            );
            s.dispatch_interaction(payload);
            if let Some(p) = s.native.interactions.get_mut(&id) {
                p.record.sent_at = Instant::now();
            }
            FakeInteraction { id, token }
        })
    }

    #[allow(clippy::too_many_arguments)]
    fn command_payload(
        s: &mut FakeState,
        id: u64,
        guild: Option<u64>,
        channel_id: u64,
        user: &FakeUser,
        name: &str,
        options: &[(&str, &str)],
        focused: Option<&str>,
    ) -> Value {
        let definition = s
            .native
            .command(guild, name)
            .cloned()
            .unwrap_or_else(|| panic!("no command /{name} is registered"));
        let mut resolved = json!({"users": {}});
        let options: Vec<Value> = options
            .iter()
            .map(|(n, v)| option_json(s, &definition, n, v, focused == Some(*n), &mut resolved))
            .collect();
        let kind = if focused.is_some() { 4 } else { 2 };
        let mut v = interaction_base(s, id, kind, channel_id, guild, user);
        let mut data = json!({
            "id": definition["id"],
            "name": name,
            "type": 1,
            "options": options,
        });
        if resolved["users"].as_object().is_some_and(|u| !u.is_empty()) {
            if let Some(g) = guild {
                let mut members = json!({});
                for uid in resolved["users"]
                    .as_object()
                    .map(|u| u.keys().cloned().collect::<Vec<_>>())
                    .unwrap_or_default()
                {
                    let Ok(u) = uid.parse::<u64>() else { continue };
                    if let Some(mut m) = s.member_json(g, u) {
                        if let Some(obj) = m.as_object_mut() {
                            obj.remove("user");
                        }
                        m["permissions"] = json!(member_permissions(s, g, u).to_string());
                        members[uid] = m;
                    }
                }
                resolved["members"] = members;
            }
            data["resolved"] = resolved;
        }
        if let Some(g) = guild {
            if definition["guild_id"].is_string() {
                data["guild_id"] = json!(g.to_string());
            }
        }
        v["data"] = data;
        v
    }

    /// Invokes the registered slash command `/name` in a channel as `user`, with options as
    /// `(name, value)` text (a user option takes the user id; types come from the registered
    /// command). Panics if no such command is registered. Returns the interaction.
    pub fn slash_command(
        &self,
        channel_id: u64,
        user: &FakeUser,
        name: &str,
        options: &[(&str, &str)],
    ) -> FakeInteraction {
        let invoker = user.clone();
        self.send_interaction(
            channel_id,
            user,
            InteractionKind::Command,
            name,
            |s, id, guild| {
                Self::command_payload(s, id, guild, channel_id, &invoker, name, options, None)
            },
        )
    }

    /// Asks for the autocomplete of option `focused` of `/name`, with the options typed so
    /// far (the focused one's value is the text being typed).
    pub fn autocomplete(
        &self,
        channel_id: u64,
        user: &FakeUser,
        name: &str,
        options: &[(&str, &str)],
        focused: &str,
    ) -> FakeInteraction {
        let invoker = user.clone();
        self.send_interaction(
            channel_id,
            user,
            InteractionKind::Autocomplete,
            name,
            |s, id, guild| {
                Self::command_payload(
                    s,
                    id,
                    guild,
                    channel_id,
                    &invoker,
                    name,
                    options,
                    Some(focused),
                )
            },
        )
    }

    /// Clicks the button `custom_id` of message `message_id` as `user`. Panics if the message
    /// has no such button and was never edited (a client may still show buttons the bot has
    /// just removed: a click on them is allowed).
    pub fn click_button(
        &self,
        message_id: u64,
        user: &FakeUser,
        custom_id: &str,
    ) -> FakeInteraction {
        let (channel_id, found) = {
            let s = self.shared.read();
            let m = s
                .messages
                .get(&message_id)
                .unwrap_or_else(|| panic!("no message {message_id}"));
            let found = m.components.iter().any(|row| {
                json_list(&row["components"])
                    .iter()
                    .any(|c| c["custom_id"] == custom_id)
            });
            (m.channel_id, found || m.edit_count > 0)
        };
        assert!(found, "message {message_id} has no button {custom_id}");
        let interaction = self.send_interaction(
            channel_id,
            user,
            InteractionKind::Component,
            custom_id,
            |s, id, guild| {
                let mut v = interaction_base(s, id, 3, channel_id, guild, user);
                let mut message = s.message_json(&s.messages[&message_id], false);
                if let Some(g) = guild {
                    message["guild_id"] = json!(g.to_string());
                }
                v["message"] = message;
                v["data"] = json!({"custom_id": custom_id, "component_type": 2});
                v
            },
        );
        self.shared.write(|s| {
            if let Some(p) = s.native.interactions.get_mut(&interaction.id) {
                p.record.clicked = Some(message_id);
            }
        });
        interaction
    }

    /// An interaction and what the bot answered so far.
    pub fn interaction(&self, id: u64) -> Option<InteractionRecord> {
        self.shared
            .read()
            .native
            .interactions
            .get(&id)
            .map(|p| p.record.clone())
    }

    /// Waits until `check` accepts the interaction's record.
    pub async fn wait_for_interaction(
        &self,
        id: u64,
        timeout: Duration,
        what: &str,
        mut check: impl FnMut(&FakeDiscord, &InteractionRecord) -> bool,
    ) -> Result<InteractionRecord, WaitTimeout> {
        self.wait_for(timeout, |f| match f.interaction(id) {
            Some(r) if check(f, &r) => Ok(r),
            Some(r) => Err(format!("{what} (interaction {id}: {r:?})")),
            None => Err(format!("{what} (no interaction {id})")),
        })
        .await
    }

    /// Waits until the bot answered the interaction (its callback).
    pub async fn wait_for_ack(
        &self,
        id: u64,
        timeout: Duration,
    ) -> Result<InteractionRecord, WaitTimeout> {
        self.wait_for_interaction(id, timeout, "the interaction's answer", |_, r| {
            r.callback.is_some()
        })
        .await
    }

    /// The messages pinned in a channel, oldest pin first.
    pub fn pins(&self, channel_id: u64) -> Vec<u64> {
        self.shared
            .read()
            .native
            .pins
            .get(&channel_id)
            .cloned()
            .unwrap_or_default()
    }
}

impl FakeState {
    /// Sends INTERACTION_CREATE to every session (interactions need no intent).
    pub(crate) fn dispatch_interaction(&mut self, payload: Value) {
        for s in self.sessions.values() {
            let _ = s.tx.send(state::Outgoing::Dispatch(
                "INTERACTION_CREATE",
                payload.clone(),
            ));
        }
    }
}

/// Examples of the interaction payloads and REST answers, for the validation tests.
pub(crate) mod examples {
    use super::*;

    /// A registered command with an integer, an autocompleted string and a user option.
    pub(crate) fn command_body() -> Value {
        json!({
            "name": "bid",
            "description": "raise the high bid",
            "type": 1,
            "options": [
                {"type": 4, "name": "amount", "description": "pounds", "required": true, "autocomplete": true},
                {"type": 3, "name": "note", "description": "words", "required": false},
                {"type": 6, "name": "player", "description": "a player", "required": false},
            ],
            "default_member_permissions": "8192",
        })
    }

    /// INTERACTION_CREATE payloads (command, autocomplete, component) and REST answers
    /// (commands, a follow-up message, pins), made by the code the fake runs.
    pub(crate) fn all(
        s: &mut FakeState,
        channel: u64,
        guild: u64,
        user: &FakeUser,
        message: u64,
    ) -> (Vec<Value>, Vec<(String, Value)>) {
        let registered = command_json(s, &command_body(), None);
        s.native.global_commands = vec![registered.clone()];
        let id = s.next_id();
        let command = FakeDiscord::command_payload(
            s,
            id,
            Some(guild),
            channel,
            user,
            "bid",
            &[
                ("amount", "7"),
                ("note", "hi"),
                ("player", &user.id.to_string()),
            ],
            None,
        );
        let id = s.next_id();
        let autocomplete = FakeDiscord::command_payload(
            s,
            id,
            Some(guild),
            channel,
            user,
            "bid",
            &[("amount", "1")],
            Some("amount"),
        );
        let id = s.next_id();
        let mut component = interaction_base(s, id, 3, channel, Some(guild), user);
        component["message"] = s.message_json(&s.messages[&message], false);
        component["data"] = json!({"custom_id": "gb|x|1|pass", "component_type": 2});
        let dm_id = s.next_id();
        let mut dm = FakeDiscord::command_payload(
            s,
            dm_id,
            None,
            channel,
            user,
            "bid",
            &[("amount", "7")],
            None,
        );
        dm["channel"]["type"] = json!(1);
        let interactions = vec![command, autocomplete, component, dm];
        let follow = response_message(
            s,
            channel,
            &json!({"content": "ann: **bid 7**"}),
            Vec::new(),
            true,
            id,
        );
        let rest = vec![
            ("Commands".to_string(), Value::Array(vec![registered])),
            (
                "Followup".to_string(),
                s.message_json(&s.messages[&follow], false),
            ),
            (
                "Pins".to_string(),
                Value::Array(vec![s.message_json(&s.messages[&message], false)]),
            ),
        ];
        (interactions, rest)
    }
}
