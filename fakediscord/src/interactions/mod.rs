//! Interactions: application commands (registration), INTERACTION_CREATE for slash commands,
//! autocomplete and button clicks, the interaction callback and follow-up (webhook) endpoints,
//! and pins.
//!
//! Like Discord: an interaction must be answered (its callback) within 3 s of its creation and
//! only once, or the callback fails (404 `Unknown interaction`, 400 `already acknowledged`);
//! after a deferred answer (type 5) the first follow-up fills the "thinking…" message and keeps
//! the defer's visibility; ephemeral messages are seen by nobody else (never dispatched, never
//! in the history).
//!
//! This module holds the routes and their handlers; what the fake keeps of interactions is in
//! `kept`, the test's side (acting as users, reading the answers) in `controls`, the payload
//! examples in `examples`.

// Handlers return `Result<_, Response>` on purpose: the error is the finished HTTP answer.
#![allow(clippy::result_large_err)]

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path, Request, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::identity::DEFAULT_EVERYONE_PERMISSIONS;
use crate::permissions;
use crate::records::{parse_mentions, FakeUser, RecordedAttachment, RecordedMessage};
use crate::rest::{
    self, error, json_list, no_content, read_body, unknown_channel, unknown_message,
};
use crate::shared::Shared;
use crate::state::{self, State as FakeState};

mod controls;
pub(crate) mod examples;
pub(crate) mod kept;

pub use controls::FakeInteraction;
pub(crate) use kept::Pending;
pub use kept::{
    Callback, InteractionKind, InteractionRecord, APP_FLAG_MESSAGE_CONTENT,
    APP_FLAG_MESSAGE_CONTENT_LIMITED, EPHEMERAL, INTERACTION_DEADLINE,
};

type St = State<Arc<Shared>>;

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
    if p & permissions::ADMINISTRATOR != 0 {
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
        "app_permissions": DEFAULT_EVERYONE_PERMISSIONS.to_string(),
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
    files: Vec<(usize, RecordedAttachment)>,
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
    files: Vec<(usize, RecordedAttachment)>,
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
        let (mentions, roles, everyone) = parse_mentions(&m.content);
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
    (s.channel_permissions(channel_id, bot) & permissions::PIN_MESSAGES == 0)
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
