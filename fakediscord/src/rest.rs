//! The fake REST API (axum).

// Handlers return `Result<_, Response>` on purpose: the error is the finished HTTP answer.
#![allow(clippy::result_large_err)]

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Instant;

use axum::body::Bytes;
use axum::extract::{FromRequest, MatchedPath, Multipart, Path, Query, Request, State};
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post, put};
use axum::{Json, Router};
use serde_json::{json, Value};

use crate::identity::BOT_TOKEN;
use crate::records::{
    parse_mentions, RecordedAttachment, RecordedMessage, RecordedReaction, RequestRecord,
};
use crate::routes::{RateLimitForm, RouteKind};
use crate::shared::Shared;
use crate::state::{self, ChannelInfo, Fault};

type St = State<Arc<Shared>>;

/// Discord's maximum message length.
const MAX_CONTENT_CHARS: usize = 2000;
/// How long a nonce is remembered for `enforce_nonce` ("the past few minutes").
const NONCE_WINDOW: std::time::Duration = std::time::Duration::from_secs(300);

/// The routes of this module, added to the fake's router (before its gatekeeper layer).
pub(crate) fn routes(router: Router<Arc<Shared>>) -> Router<Arc<Shared>> {
    const CH: &str = "/api/v10/channels/{channel_id}";
    router
        .route("/api/v10/gateway", get(gateway))
        .route("/api/v10/gateway/bot", get(gateway_bot))
        .route("/api/v10/users/@me", get(current_user))
        .route("/api/v10/users/@me/channels", post(create_dm))
        .route("/api/v10/oauth2/applications/@me", get(application))
        .route(CH, get(get_channel))
        .route(
            &format!("{CH}/messages"),
            get(get_messages).post(create_message),
        )
        .route(
            &format!("{CH}/messages/{{message_id}}"),
            get(get_message).patch(edit_message).delete(delete_message),
        )
        .route(
            &format!("{CH}/messages/{{message_id}}/reactions/{{emoji}}/@me"),
            put(create_reaction).delete(delete_reaction),
        )
        .route(&format!("{CH}/typing"), post(typing))
        .route(
            &format!("{CH}/threads/archived/public"),
            get(archived_public_threads),
        )
        .route("/api/v10/guilds/{guild_id}", get(get_guild))
        .route("/api/v10/guilds/{guild_id}/roles", get(get_roles))
        .route(
            "/api/v10/guilds/{guild_id}/channels",
            get(get_guild_channels),
        )
        .route(
            "/api/v10/guilds/{guild_id}/members/{user_id}",
            get(get_member),
        )
        .route(
            "/attachments/{channel_id}/{attachment_id}/{filename}",
            get(attachment),
        )
}

/// Logs every routed request, checks the bot token and applies injected faults.
pub(crate) async fn gatekeeper(
    State(shared): St,
    matched: MatchedPath,
    req: Request,
    next: Next,
) -> Response {
    let at = Instant::now();
    let method = req.method().clone();
    let path = req.uri().path().to_owned();
    let query = req.uri().query().map(str::to_owned);
    let route = RouteKind::of(&method, matched.as_str());
    let authorized = route == Some(RouteKind::Attachment)
        || req
            .headers()
            .get(header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            == Some(&format!("Bot {BOT_TOKEN}"));
    let fault = if authorized {
        route.and_then(|r| shared.write(|s| s.take_fault(r)))
    } else {
        None
    };
    let record = |status: u16, answered: bool| RequestRecord {
        method: method.to_string(),
        path: path.clone(),
        query: query.clone(),
        route,
        status,
        at,
        answered,
    };
    let response = match fault {
        _ if !authorized => error(StatusCode::UNAUTHORIZED, 0, "401: Unauthorized"),
        Some(Fault::Hang { applied }) => {
            let status = if applied {
                next.run(req).await.status().as_u16()
            } else {
                0
            };
            shared.write(|s| s.requests.push(record(status, false)));
            // Never answered: held until the client gives up (the connection closes and this
            // is dropped) or the fake stops.
            let mut stopped = shared.stopped.clone();
            let _ = stopped.wait_for(|stopped| *stopped).await;
            return error(StatusCode::SERVICE_UNAVAILABLE, 0, "the fake stopped");
        }
        Some(f) => fault_response(f),
        None => next.run(req).await,
    };
    let status = response.status().as_u16();
    shared.write(|s| s.requests.push(record(status, true)));
    response
}

pub(crate) async fn fallback(State(shared): St, method: Method, uri: axum::http::Uri) -> Response {
    let at = Instant::now();
    shared.write(|s| {
        s.unhandled.push(format!("{method} {}", uri.path()));
        s.requests.push(RequestRecord {
            method: method.to_string(),
            path: uri.path().to_owned(),
            query: uri.query().map(str::to_owned),
            route: None,
            status: 404,
            at,
            answered: true,
        });
    });
    error(StatusCode::NOT_FOUND, 0, "404: Not Found")
}

pub(crate) fn error_json(code: u32, message: &str) -> Value {
    json!({"code": code, "message": message})
}

pub(crate) fn error(status: StatusCode, code: u32, message: &str) -> Response {
    (status, Json(error_json(code, message))).into_response()
}

pub(crate) fn rate_limit_json(retry_after: f64, global: bool) -> Value {
    json!({
        "message": "You are being rate limited.",
        "retry_after": retry_after,
        "global": global,
        "code": 0,
    })
}

fn fault_response(f: Fault) -> Response {
    let Fault::Status {
        status: code,
        retry_after_secs: secs,
        global,
        form,
    } = f
    else {
        return error(
            StatusCode::INTERNAL_SERVER_ERROR,
            0,
            "500: Injected failure",
        );
    };
    let status = StatusCode::from_u16(code).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    if code != 429 {
        let msg = format!(
            "{code}: {}",
            status.canonical_reason().unwrap_or("Injected failure")
        );
        return error(status, 0, &msg);
    }
    let mut headers = HeaderMap::new();
    let set = |h: &mut HeaderMap, k: &'static str, v: String| {
        if let Ok(v) = HeaderValue::from_str(&v) {
            h.insert(k, v);
        }
    };
    let body = form != RateLimitForm::HeaderOnly;
    let header = form != RateLimitForm::BodyOnly;
    if header {
        set(
            &mut headers,
            "retry-after",
            format!("{}", secs.ceil() as u64),
        );
    }
    if form == RateLimitForm::BodyAndHeaders {
        set(&mut headers, "x-ratelimit-limit", "5".into());
        set(&mut headers, "x-ratelimit-remaining", "0".into());
        set(
            &mut headers,
            "x-ratelimit-reset-after",
            format!("{secs:.3}"),
        );
        let reset = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_secs_f64())
            .unwrap_or(0.0)
            + secs;
        set(&mut headers, "x-ratelimit-reset", format!("{reset:.3}"));
        set(
            &mut headers,
            "x-ratelimit-bucket",
            "fakediscord-bucket".into(),
        );
        set(
            &mut headers,
            "x-ratelimit-scope",
            if global { "global" } else { "user" }.into(),
        );
    }
    if global && header {
        set(&mut headers, "x-ratelimit-global", "true".into());
    }
    if !body {
        return (
            StatusCode::TOO_MANY_REQUESTS,
            headers,
            "You are being rate limited.",
        )
            .into_response();
    }
    (
        StatusCode::TOO_MANY_REQUESTS,
        headers,
        Json(rate_limit_json(secs, global)),
    )
        .into_response()
}

pub(crate) fn unknown_channel() -> Response {
    error(StatusCode::NOT_FOUND, 10_003, "Unknown Channel")
}

pub(crate) fn unknown_message() -> Response {
    error(StatusCode::NOT_FOUND, 10_008, "Unknown Message")
}

pub(crate) fn no_content() -> Response {
    StatusCode::NO_CONTENT.into_response()
}

pub(crate) fn invalid_form(field: &str, code: &str, message: &str) -> Response {
    (
        StatusCode::BAD_REQUEST,
        Json(json!({
            "code": 50_035,
            "message": "Invalid Form Body",
            "errors": {field: {"_errors": [{"code": code, "message": message}]}},
        })),
    )
        .into_response()
}

// ----- gateway / identity -----

pub(crate) fn gateway_json(s: &state::State) -> Value {
    json!({"url": s.gateway_url})
}

pub(crate) fn gateway_bot_json(s: &state::State) -> Value {
    json!({
        "url": s.gateway_url,
        "shards": 1,
        "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 0, "max_concurrency": 1},
    })
}

async fn gateway(State(shared): St) -> Response {
    Json(gateway_json(&shared.read())).into_response()
}

async fn gateway_bot(State(shared): St) -> Response {
    Json(gateway_bot_json(&shared.read())).into_response()
}

async fn current_user(State(shared): St) -> Response {
    Json(shared.read().current_user_json()).into_response()
}

async fn application(State(shared): St) -> Response {
    Json(shared.read().application_json()).into_response()
}

async fn create_dm(State(shared): St, body: Bytes) -> Response {
    let Ok(v) = serde_json::from_slice::<Value>(&body) else {
        return error(
            StatusCode::BAD_REQUEST,
            50_109,
            "The request body contains invalid JSON.",
        );
    };
    let recipient = match &v["recipient_id"] {
        Value::String(s) => s.parse::<u64>().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    };
    let Some(recipient) = recipient else {
        return invalid_form(
            "recipient_id",
            "BASE_TYPE_REQUIRED",
            "This field is required",
        );
    };
    let v = shared.write(|s| {
        let existing = s
            .channels
            .iter()
            .find(|(_, c)| c.kind == 1 && c.recipient == Some(recipient))
            .map(|(id, _)| *id);
        let id = existing.unwrap_or_else(|| {
            let id = s.next_id();
            s.channels.insert(
                id,
                ChannelInfo {
                    guild_id: None,
                    name: String::new(),
                    kind: 1,
                    parent_id: None,
                    recipient: Some(recipient),
                },
            );
            id
        });
        s.channel_json(id)
    });
    Json(v).into_response()
}

// ----- channels and messages -----

async fn get_channel(State(shared): St, Path(channel_id): Path<u64>) -> Response {
    match shared.read().channel_json(channel_id) {
        Some(v) => Json(v).into_response(),
        None => unknown_channel(),
    }
}

async fn get_messages(
    State(shared): St,
    Path(channel_id): Path<u64>,
    Query(q): Query<HashMap<String, String>>,
) -> Response {
    let num = |k: &str| q.get(k).map(|v| v.parse::<u64>());
    let limit = match num("limit") {
        None => 50,
        Some(Ok(n)) if (1..=100).contains(&n) => n as usize,
        Some(_) => {
            return invalid_form(
                "limit",
                "NUMBER_TYPE_MAX",
                "int value should be between 1 and 100",
            )
        }
    };
    let anchor = |k| match num(k) {
        None => Ok(None),
        Some(Ok(id)) => Ok(Some(id)),
        Some(Err(_)) => Err(invalid_form(
            k,
            "NUMBER_TYPE_COERCE",
            "Value is not snowflake.",
        )),
    };
    let (after, before, around) = match (anchor("after"), anchor("before"), anchor("around")) {
        (Ok(a), Ok(b), Ok(c)) => (a, b, c),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return e,
    };
    let s = shared.read();
    if !s.channels.contains_key(&channel_id) {
        return unknown_channel();
    }
    let all = s.live_messages(channel_id); // oldest first
    let picked: Vec<&RecordedMessage> = if let Some(around) = around {
        let older: Vec<_> = all.iter().filter(|m| m.id < around).collect();
        let newer: Vec<_> = all.iter().filter(|m| m.id >= around).collect();
        let n_newer = newer.len().min(limit.div_ceil(2));
        let n_older = older.len().min(limit - n_newer);
        older[older.len() - n_older..]
            .iter()
            .chain(newer[..n_newer].iter())
            .map(|m| **m)
            .collect()
    } else if let Some(before) = before {
        let older: Vec<_> = all.into_iter().filter(|m| m.id < before).collect();
        older[older.len().saturating_sub(limit)..].to_vec()
    } else if let Some(after) = after {
        // Discord returns the `limit` messages closest after the anchor.
        all.into_iter()
            .filter(|m| m.id > after)
            .take(limit)
            .collect()
    } else {
        all[all.len().saturating_sub(limit)..].to_vec()
    };
    // Newest first, as Discord answers.
    let out: Vec<Value> = picked
        .iter()
        .rev()
        .map(|m| s.message_json(m, false))
        .collect();
    Json(Value::Array(out)).into_response()
}

async fn get_message(
    State(shared): St,
    Path((channel_id, message_id)): Path<(u64, u64)>,
) -> Response {
    let s = shared.read();
    if !s.channels.contains_key(&channel_id) {
        return unknown_channel();
    }
    match s.messages.get(&message_id) {
        Some(m) if m.channel_id == channel_id && !m.deleted => {
            Json(s.message_json(m, false)).into_response()
        }
        _ => unknown_message(),
    }
}

/// A message body: JSON, or multipart with `files[n]` parts and `payload_json`.
pub(crate) struct Body {
    pub(crate) json: Value,
    pub(crate) files: Vec<(usize, RecordedAttachment)>,
}

pub(crate) async fn read_body(req: Request) -> Result<Body, Response> {
    let is_multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let bad_json = || {
        error(
            StatusCode::BAD_REQUEST,
            50_109,
            "The request body contains invalid JSON.",
        )
    };
    if !is_multipart {
        let bytes = Bytes::from_request(req, &())
            .await
            .map_err(IntoResponse::into_response)?;
        let json = serde_json::from_slice(&bytes).map_err(|_| bad_json())?;
        return Ok(Body {
            json,
            files: Vec::new(),
        });
    }
    let mut mp = Multipart::from_request(req, &())
        .await
        .map_err(IntoResponse::into_response)?;
    let mut json = json!({});
    let mut files = Vec::new();
    while let Some(field) = mp.next_field().await.map_err(IntoResponse::into_response)? {
        let name = field.name().unwrap_or_default().to_owned();
        if name == "payload_json" {
            let text = field.text().await.map_err(IntoResponse::into_response)?;
            json = serde_json::from_str(&text).map_err(|_| bad_json())?;
        } else if let Some(idx) = name
            .strip_prefix("files[")
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|i| i.parse::<usize>().ok())
            .or_else(|| (name == "file").then_some(0))
        {
            let filename = field.file_name().unwrap_or("unknown").to_owned();
            let content_type = field.content_type().map(str::to_owned);
            let data = field
                .bytes()
                .await
                .map_err(IntoResponse::into_response)?
                .to_vec();
            files.push((
                idx,
                RecordedAttachment {
                    id: 0,
                    filename,
                    content_type,
                    data,
                    description: None,
                },
            ));
        } else {
            // Other form fields are accepted and ignored.
            let _ = field.bytes().await;
        }
    }
    // Each upload's description (alt text) is in the payload's `attachments`, by index.
    for (index, file) in &mut files {
        file.description = json_list(&json["attachments"])
            .iter()
            .find(|a| parse_id(&a["id"]) == Some(*index as u64))
            .and_then(|a| a["description"].as_str().map(str::to_owned));
        if file
            .description
            .as_ref()
            .is_some_and(|d| d.chars().count() > MAX_DESCRIPTION_CHARS)
        {
            return Err(invalid_form(
                "attachments",
                "BASE_TYPE_MAX_LENGTH",
                "Must be 1024 or fewer in length.",
            ));
        }
    }
    Ok(Body { json, files })
}

/// Discord's limit on an attachment's description.
const MAX_DESCRIPTION_CHARS: usize = 1024;

pub(crate) fn json_list(v: &Value) -> Vec<Value> {
    v.as_array().cloned().unwrap_or_default()
}

pub(crate) fn parse_id(v: &Value) -> Option<u64> {
    match v {
        Value::String(s) => s.parse().ok(),
        Value::Number(n) => n.as_u64(),
        _ => None,
    }
}

/// Checks the parts Discord validates on create/edit.
pub(crate) fn validate_content(content: &str) -> Result<(), Response> {
    if content.chars().count() > MAX_CONTENT_CHARS {
        return Err(invalid_form(
            "content",
            "BASE_TYPE_MAX_LENGTH",
            "Must be 2000 or fewer in length.",
        ));
    }
    Ok(())
}

async fn create_message(State(shared): St, Path(channel_id): Path<u64>, req: Request) -> Response {
    let received = Instant::now();
    let body = match read_body(req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let v = &body.json;
    let content = v["content"].as_str().unwrap_or_default().to_owned();
    if let Err(r) = validate_content(&content) {
        return r;
    }
    let embeds = json_list(&v["embeds"]);
    let components = json_list(&v["components"]);
    let stickers = json_list(&v["sticker_ids"]);
    if content.is_empty()
        && embeds.is_empty()
        && body.files.is_empty()
        && stickers.is_empty()
        && components.is_empty()
    {
        return error(
            StatusCode::BAD_REQUEST,
            50_006,
            "Cannot send an empty message",
        );
    }
    shared.write(|s| {
        let Some(channel) = s.channels.get(&channel_id).cloned() else {
            return unknown_channel();
        };
        // enforce_nonce: a nonce this author created a message with in this channel lately
        // gets that message (edited since or not).
        let nonce = v.get("nonce").filter(|n| !n.is_null());
        if let (Some(nonce), Some(true)) = (nonce, v["enforce_nonce"].as_bool()) {
            let bot = s.bot.id;
            let earlier = s.messages.values().find(|m| {
                m.channel_id == channel_id
                    && m.author.id == bot
                    && received.duration_since(m.created_at) < NONCE_WINDOW
                    && m.nonce.as_ref() == Some(nonce)
            });
            if let Some(earlier) = earlier {
                return Json(s.message_json(earlier, false)).into_response();
            }
        }
        // The bot may send messages in threads: a post unarchives an archived one.
        s.unarchive_on_post(channel_id);
        let mut referenced = None;
        if let Some(r) = v.get("message_reference").filter(|r| !r.is_null()) {
            let target = parse_id(&r["message_id"]);
            let exists = target.is_some_and(|t| {
                s.messages
                    .get(&t)
                    .is_some_and(|m| m.channel_id == channel_id && !m.deleted)
            });
            if exists {
                referenced = target;
            } else if r["fail_if_not_exists"].as_bool() != Some(false) {
                return invalid_form(
                    "message_reference",
                    "MESSAGE_REFERENCE_UNKNOWN_MESSAGE",
                    "Unknown message",
                );
            }
        }
        let id = s.next_id();
        let mut attachments = Vec::new();
        let mut files = body.files.clone();
        files.sort_by_key(|(i, _)| *i);
        for (_, mut a) in files {
            a.id = s.next_id();
            attachments.push(a);
        }
        let bot = s.bot.clone();
        s.messages.insert(
            id,
            RecordedMessage {
                attachments,
                embeds: embeds.clone(),
                components: components.clone(),
                referenced_message: referenced,
                allowed_mentions: v.get("allowed_mentions").cloned(),
                payload: Some(v.clone()),
                nonce: nonce.cloned(),
                created_at: received,
                ..RecordedMessage::new(id, channel_id, channel.guild_id, bot, &content)
            },
        );
        let response = s.message_json(&s.messages[&id], false);
        s.dispatch_message("MESSAGE_CREATE", id);
        Json(response).into_response()
    })
}

async fn edit_message(
    State(shared): St,
    Path((channel_id, message_id)): Path<(u64, u64)>,
    req: Request,
) -> Response {
    let body = match read_body(req).await {
        Ok(b) => b,
        Err(r) => return r,
    };
    let v = &body.json;
    if let Some(c) = v["content"].as_str() {
        if let Err(r) = validate_content(c) {
            return r;
        }
    }
    shared.write(|s| {
        if !s.channels.contains_key(&channel_id) {
            return unknown_channel();
        }
        let bot_id = s.bot.id;
        match s.messages.get(&message_id) {
            Some(m) if m.channel_id == channel_id && !m.deleted => {
                if m.author.id != bot_id {
                    return error(
                        StatusCode::FORBIDDEN,
                        50_005,
                        "Cannot edit a message authored by another user",
                    );
                }
            }
            _ => return unknown_message(),
        }
        let mut new_files: Vec<RecordedAttachment> = Vec::new();
        let mut files = body.files.clone();
        files.sort_by_key(|(i, _)| *i);
        for (_, mut a) in files {
            a.id = s.next_id();
            new_files.push(a);
        }
        let edited_ms = state::snowflake_ms(s.next_id());
        let m = s.messages.get_mut(&message_id).expect("checked above");
        if let Some(c) = v.get("content") {
            m.content = c.as_str().unwrap_or_default().to_owned();
            let (mentions, mention_roles, mention_everyone) = parse_mentions(&m.content);
            m.mentions = mentions;
            m.mention_roles = mention_roles;
            m.mention_everyone = mention_everyone;
        }
        if let Some(e) = v.get("embeds") {
            m.embeds = json_list(e);
        }
        if let Some(c) = v.get("components") {
            m.components = json_list(c);
        }
        if let Some(a) = v.get("allowed_mentions") {
            m.allowed_mentions = Some(a.clone());
        }
        if let Some(keep) = v.get("attachments") {
            // Existing attachments listed by id are kept; entries for new uploads carry the
            // upload index instead, which never matches a snowflake.
            let keep: Vec<u64> = json_list(keep)
                .iter()
                .filter_map(|a| parse_id(&a["id"]))
                .collect();
            m.attachments.retain(|a| keep.contains(&a.id));
        }
        m.attachments.extend(new_files);
        m.payload = Some(v.clone());
        m.edited_at = Some(Instant::now());
        m.edit_count += 1;
        m.edited_timestamp_ms = Some(edited_ms);
        let response = s.message_json(&s.messages[&message_id], false);
        s.dispatch_message("MESSAGE_UPDATE", message_id);
        Json(response).into_response()
    })
}

async fn delete_message(
    State(shared): St,
    Path((channel_id, message_id)): Path<(u64, u64)>,
) -> Response {
    shared.write(|s| {
        if !s.channels.contains_key(&channel_id) {
            return unknown_channel();
        }
        match s.messages.get_mut(&message_id) {
            Some(m) if m.channel_id == channel_id && !m.deleted => {
                m.deleted = true;
                s.dispatch_delete(message_id);
                no_content()
            }
            _ => unknown_message(),
        }
    })
}

async fn create_reaction(
    State(shared): St,
    Path((channel_id, message_id, emoji)): Path<(u64, u64, String)>,
) -> Response {
    shared.write(|s| {
        if !s.channels.contains_key(&channel_id) {
            return unknown_channel();
        }
        if !s
            .messages
            .get(&message_id)
            .is_some_and(|m| m.channel_id == channel_id && !m.deleted)
        {
            return unknown_message();
        }
        let already = s
            .reactions
            .iter()
            .any(|r| r.message_id == message_id && r.emoji == emoji && !r.removed);
        if !already {
            s.reactions.push(RecordedReaction {
                channel_id,
                message_id,
                emoji,
                at: Instant::now(),
                removed: false,
            });
        }
        no_content()
    })
}

async fn delete_reaction(
    State(shared): St,
    Path((channel_id, message_id, emoji)): Path<(u64, u64, String)>,
) -> Response {
    shared.write(|s| {
        if !s.channels.contains_key(&channel_id) {
            return unknown_channel();
        }
        for r in s
            .reactions
            .iter_mut()
            .filter(|r| r.message_id == message_id && r.emoji == emoji)
        {
            r.removed = true;
        }
        no_content()
    })
}

async fn typing(State(shared): St, Path(channel_id): Path<u64>) -> Response {
    shared.write(|s| {
        if !s.channels.contains_key(&channel_id) {
            return unknown_channel();
        }
        *s.typing.entry(channel_id).or_default() += 1;
        no_content()
    })
}

// ----- guilds -----

fn unknown_guild() -> Response {
    error(StatusCode::NOT_FOUND, 10_004, "Unknown Guild")
}

async fn get_guild(State(shared): St, Path(guild_id): Path<u64>) -> Response {
    match shared.read().guild_json(guild_id, false) {
        Some(v) => Json(v).into_response(),
        None => unknown_guild(),
    }
}

async fn archived_public_threads(State(shared): St, Path(channel_id): Path<u64>) -> Response {
    let s = shared.read();
    if !s.channels.contains_key(&channel_id) {
        return unknown_channel();
    }
    Json(s.archived_threads_json(channel_id)).into_response()
}

async fn get_roles(State(shared): St, Path(guild_id): Path<u64>) -> Response {
    match shared.read().roles_json(guild_id) {
        Some(v) => Json(v).into_response(),
        None => unknown_guild(),
    }
}

pub(crate) fn guild_channels_json(s: &state::State, guild_id: u64) -> Value {
    Value::Array(
        s.channels
            .iter()
            .filter(|(_, c)| c.guild_id == Some(guild_id) && !state::is_thread(c.kind))
            .filter_map(|(id, _)| s.channel_json(*id))
            .collect(),
    )
}

async fn get_guild_channels(State(shared): St, Path(guild_id): Path<u64>) -> Response {
    let s = shared.read();
    if !s.guilds.contains_key(&guild_id) {
        return unknown_guild();
    }
    Json(guild_channels_json(&s, guild_id)).into_response()
}

async fn get_member(State(shared): St, Path((guild_id, user_id)): Path<(u64, u64)>) -> Response {
    let s = shared.read();
    if !s.guilds.contains_key(&guild_id) {
        return unknown_guild();
    }
    match s.member_json(guild_id, user_id) {
        Some(v) => Json(v).into_response(),
        None => error(StatusCode::NOT_FOUND, 10_007, "Unknown Member"),
    }
}

// ----- attachments -----

async fn attachment(
    State(shared): St,
    Path((channel_id, attachment_id, _filename)): Path<(u64, u64, String)>,
) -> Response {
    let s = shared.read();
    let found = s
        .messages
        .values()
        .filter(|m| m.channel_id == channel_id)
        .flat_map(|m| m.attachments.iter())
        .find(|a| a.id == attachment_id);
    match found {
        Some(a) => {
            let ct = a
                .content_type
                .clone()
                .unwrap_or_else(|| "application/octet-stream".into());
            ([(header::CONTENT_TYPE, ct)], a.data.clone()).into_response()
        }
        None => (StatusCode::NOT_FOUND, "Not Found").into_response(),
    }
}
