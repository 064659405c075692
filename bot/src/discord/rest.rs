//! The bot's one REST client: every request the bot makes to Discord goes through it (what
//! it posts, edits and reacts, the pins, the reads of messages and history, of channels,
//! guilds, members, the bot itself and its application, the archived threads a catch-up
//! lists, the slash commands it registers, its answers to interactions). Serenity builds the
//! requests (routes, JSON bodies, multipart uploads, nonces); the bot sends them with a reqwest
//! client of its own and reads the whole answer, which serenity 0.12 does not hand on: a 429's
//! `retry_after` (JSON body) or `Retry-After` header, and whether the limit is global
//! (`"global": true`, `X-RateLimit-Global`). Two routes serenity 0.12 does not have are written
//! here as paths (the new pin route, [`Rest::pin`]). Every request carries the client's
//! [`USER_AGENT`]: Discord's `DiscordBot (…)` form, with `gaugebot-rest/…` after it.
//!
//! Serenity's own `Http` is left to serenity's gateway client, which asks it for the gateway's
//! address when it connects (`GET /gateway`).
//!
//! Rate limits are kept here, for the whole process: a 429 holds its bucket (route and
//! channel) for the time Discord said, a global 429 holds *every* request sent through this
//! client (but interaction callbacks and follow-ups, which Discord's global limit does not
//! cover), and `X-RateLimit-Remaining: 0` holds the bucket until `X-RateLimit-Reset-After`.
//! Every request waits for its holds before it is sent; the wait is not part of its timeout.
//! Retrying is [`super::retry`]'s job: a [`RestError::RateLimited`] tells it exactly how long.
//!
//! Each attempt has a timeout sized to what the request is ([`attempt_timeout`]): a few
//! seconds for JSON requests (posts carry a nonce with `enforce_nonce`, so a post that Discord
//! applied but did not answer comes back as the same message when retried; reactions and edits
//! are idempotent), longer for uploads.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use reqwest::header::HeaderMap;
use reqwest::StatusCode;
use serde_json::Value;
use serenity::all::{
    ApplicationId, CreateAttachment, CreateCommand, CreateInteractionResponse,
    CreateInteractionResponseFollowup, CreateMessage, CurrentApplicationInfo, CurrentUser,
    EditMessage, GuildId, InteractionId, Message, MessageId, Nonce, ReactionType, UserId,
};
use serenity::http::{LightMethod, Multipart, MultipartUpload, Request, Route};
use serenity::model::id::ChannelId;
use tokio::time::Instant;

/// An attempt's timeout for a JSON request (a post with a nonce, a reaction, an edit, a read).
pub(crate) const JSON_TIMEOUT: Duration = Duration::from_secs(5);
/// An attempt's timeout for an upload (a message with attachments, the map).
pub(crate) const UPLOAD_TIMEOUT: Duration = Duration::from_secs(30);
/// The user agent of every request of this client: Discord's form (serenity's, which Discord
/// wants), and this client after it.
pub(crate) const USER_AGENT: &str = concat!(
    "DiscordBot (https://github.com/serenity-rs/serenity, 0.12) gaugebot-rest/",
    env!("CARGO_PKG_VERSION")
);
/// The longest hold a 429 or a bucket's reset may impose (Discord's are seconds).
const MAX_HOLD: Duration = Duration::from_secs(600);

/// The timeout of one attempt of a request: longer for uploads.
pub(crate) fn attempt_timeout(uploads: bool) -> Duration {
    if uploads {
        UPLOAD_TIMEOUT
    } else {
        JSON_TIMEOUT
    }
}

/// Why one attempt of a request failed.
#[derive(Debug, Clone, thiserror::Error)]
pub(crate) enum RestError {
    /// 429: Discord said to wait `after` (for every request if `global`).
    #[error("429 Too Many Requests: retry after {after:?}{}", if *global { " (global)" } else { "" })]
    RateLimited { after: Duration, global: bool },
    /// Any other unsuccessful status, with Discord's error code and message.
    #[error("{status}: {message} (code {code})")]
    Refused {
        status: u16,
        code: i64,
        message: String,
    },
    /// No answer within the attempt's timeout (it may have been applied).
    #[error("no answer within {0:?}")]
    TimedOut(Duration),
    /// The connection failed.
    #[error("network error: {0}")]
    Network(String),
    /// The request could not be built, or the answer not read: retrying cannot help.
    #[error("{0}")]
    Invalid(String),
    /// Not sent: another process owns the channel now (a kept answer's post, withdrawn
    /// before an attempt; that process posts it).
    #[error("not sent: another process owns the channel now")]
    Withdrawn,
}

impl RestError {
    /// The HTTP status, if Discord answered.
    pub(crate) fn status(&self) -> Option<u16> {
        match self {
            RestError::RateLimited { .. } => Some(429),
            RestError::Refused { status, .. } => Some(*status),
            _ => None,
        }
    }

    /// Whether retrying can help: 429, 5xx, network errors and timeouts.
    pub(crate) fn transient(&self) -> bool {
        match self {
            RestError::RateLimited { .. } | RestError::TimedOut(_) | RestError::Network(_) => true,
            RestError::Refused { status, .. } => *status >= 500,
            RestError::Invalid(_) | RestError::Withdrawn => false,
        }
    }
}

/// How long a 429 says to wait, and whether for every request: the JSON body's `retry_after`
/// (seconds, a float) if there is one, else the `Retry-After` header (seconds); global if the
/// body says `"global": true` or `X-RateLimit-Global` is present. Neither: one second.
pub(crate) fn rate_limit(headers: &HeaderMap, body: &[u8]) -> (Duration, bool) {
    let json: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
    let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
    let seconds = json["retry_after"]
        .as_f64()
        .or_else(|| header("retry-after").and_then(|v| v.trim().parse::<f64>().ok()))
        .filter(|s| s.is_finite() && *s >= 0.0)
        .unwrap_or(1.0);
    let global = json["global"].as_bool() == Some(true)
        || header("x-ratelimit-global").is_some_and(|v| !v.eq_ignore_ascii_case("false"));
    (Duration::from_secs_f64(seconds).min(MAX_HOLD), global)
}

/// When requests may go again: every request (a global 429), and per bucket.
#[derive(Default)]
struct Holds {
    global: Option<Instant>,
    buckets: HashMap<String, Instant>,
}

/// Whether a request waits for a global 429's hold: interaction callbacks and follow-ups are
/// not under Discord's global limit.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Limit {
    /// Its bucket and the global hold.
    Global,
    /// Its bucket only.
    BucketOnly,
}

/// The bot's REST client: the bot's token, the base URL (a proxy if one is configured), a
/// reqwest client, the application's id (for interactions and commands) and the rate-limit
/// holds of the process.
pub(crate) struct Rest {
    /// `Bot …`, as the `Authorization` header wants it.
    token: String,
    /// The configured API base (`discord.api_base`), which serenity's routes are sent to
    /// instead of `https://discord.com`.
    proxy: Option<String>,
    client: reqwest::Client,
    /// `https://discord.com/api/v10`, or the proxy's.
    base: String,
    /// The application's id, once READY said it (0 before).
    application: AtomicU64,
    holds: Mutex<Holds>,
    /// Fresh nonces: this process's start (ms) and a counter.
    nonce_prefix: u64,
    nonces: AtomicU64,
}

impl Rest {
    /// A client for the bot's `token` (with or without `Bot `), sending to Discord or to
    /// `api_base` if one is given.
    pub(crate) fn new(token: &str, api_base: Option<&str>) -> Rest {
        let token = token.trim();
        let token = if token.starts_with("Bot ") || token.starts_with("Bearer ") {
            token.to_string()
        } else {
            format!("Bot {token}")
        };
        let proxy = api_base
            .map(|p| p.trim().trim_end_matches('/').to_string())
            .filter(|p| !p.is_empty());
        let root = proxy
            .clone()
            .unwrap_or_else(|| "https://discord.com".to_string());
        let client = reqwest::Client::builder()
            // A backstop: every attempt has its own, shorter timeout.
            .timeout(UPLOAD_TIMEOUT * 2)
            .build()
            .unwrap_or_default();
        let started = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as u64);
        Rest {
            token,
            proxy,
            client,
            base: format!("{root}/api/v10"),
            application: AtomicU64::new(0),
            holds: Mutex::new(Holds::default()),
            nonce_prefix: started,
            nonces: AtomicU64::new(0),
        }
    }

    /// A nonce no other post of this process carries (for posts that have no id of their own
    /// to derive one from): fixed before the first attempt, so every retry carries it.
    pub(crate) fn fresh_nonce(&self) -> Nonce {
        let n = self.nonces.fetch_add(1, Ordering::Relaxed);
        Nonce::String(format!("gb{:x}-{n:x}", self.nonce_prefix))
    }

    /// `POST /channels/{c}/messages`: `message` as serenity builds it, with `file` uploaded
    /// (one at most: serenity numbers every new attachment 0 until it sends them, and the
    /// upload's part is `files[0]`).
    pub(crate) async fn send_message(
        &self,
        channel: ChannelId,
        message: &CreateMessage,
        file: Option<&CreateAttachment>,
    ) -> Result<Message, RestError> {
        let route = Route::ChannelMessages {
            channel_id: channel,
        };
        let request = Request::new(route, LightMethod::Post);
        let request = match file {
            None => request.body(Some(json(message)?)),
            Some(file) => {
                let payload = message.clone().add_file(file.clone());
                request.multipart(Some(Multipart {
                    upload: MultipartUpload::Attachments(vec![file.clone()]),
                    payload_json: Some(json_text(&payload)?),
                    fields: Vec::new(),
                }))
            }
        };
        let bucket = format!("post {channel}");
        let body = self
            .execute(request, &bucket, attempt_timeout(file.is_some()))
            .await?;
        decode(&body)
    }

    /// `PATCH /channels/{c}/messages/{m}` with `edit` (no attachments).
    pub(crate) async fn edit_message(
        &self,
        channel: ChannelId,
        message: MessageId,
        edit: &EditMessage,
    ) -> Result<Message, RestError> {
        let route = Route::ChannelMessage {
            channel_id: channel,
            message_id: message,
        };
        let request = Request::new(route, LightMethod::Patch).body(Some(json(edit)?));
        let body = self
            .execute(request, &format!("edit {channel}"), JSON_TIMEOUT)
            .await?;
        decode(&body)
    }

    /// `PUT /channels/{c}/messages/{m}/reactions/{emoji}/@me`.
    pub(crate) async fn react(
        &self,
        channel: ChannelId,
        message: MessageId,
        reaction: &ReactionType,
    ) -> Result<(), RestError> {
        let data = reaction.as_data();
        let route = Route::ChannelMessageReactionMe {
            channel_id: channel,
            message_id: message,
            reaction: &data,
        };
        let request = Request::new(route, LightMethod::Put);
        self.execute(request, &format!("react {channel}"), JSON_TIMEOUT)
            .await
            .map(drop)
    }

    /// `GET /channels/{c}/messages?after=…&limit=…`: up to `limit` messages after `after`.
    pub(crate) async fn messages_after(
        &self,
        channel: ChannelId,
        after: MessageId,
        limit: u8,
    ) -> Result<Vec<Message>, RestError> {
        let route = Route::ChannelMessages {
            channel_id: channel,
        };
        let params = vec![("limit", limit.to_string()), ("after", after.to_string())];
        let request = Request::new(route, LightMethod::Get).params(Some(params));
        let body = self
            .execute(request, &format!("history {channel}"), JSON_TIMEOUT)
            .await?;
        decode(&body)
    }

    /// `POST /users/@me/channels`: the direct-message channel with a user (made if need be).
    pub(crate) async fn dm_channel(&self, user: u64) -> Result<ChannelId, RestError> {
        let body = serde_json::json!({ "recipient_id": user.to_string() });
        let request =
            Request::new(Route::UserMeDmChannels, LightMethod::Post).body(Some(json(&body)?));
        let body = self.execute(request, "dm channels", JSON_TIMEOUT).await?;
        let channel: Value = decode(&body)?;
        channel
            .get("id")
            .and_then(Value::as_str)
            .and_then(|id| id.parse::<u64>().ok())
            .filter(|id| *id != 0)
            .map(ChannelId::new)
            .ok_or_else(|| RestError::Invalid("a DM channel without an id".into()))
    }

    /// `GET /channels/{c}`: the channel object, as Discord sends it (permission bits kept).
    pub(crate) async fn channel(&self, channel: ChannelId) -> Result<Value, RestError> {
        let route = Route::Channel {
            channel_id: channel,
        };
        let request = Request::new(route, LightMethod::Get);
        let body = self.execute(request, "channel", JSON_TIMEOUT).await?;
        decode(&body)
    }

    /// `GET /guilds/{g}`: the guild object (its owner, its roles with their bits).
    pub(crate) async fn guild(&self, guild: GuildId) -> Result<Value, RestError> {
        let route = Route::Guild { guild_id: guild };
        let request = Request::new(route, LightMethod::Get);
        let body = self.execute(request, "guild", JSON_TIMEOUT).await?;
        decode(&body)
    }

    /// `GET /guilds/{g}/members/{u}`: the member object (its roles).
    pub(crate) async fn member(&self, guild: GuildId, user: UserId) -> Result<Value, RestError> {
        let route = Route::GuildMember {
            guild_id: guild,
            user_id: user,
        };
        let request = Request::new(route, LightMethod::Get);
        let body = self.execute(request, "member", JSON_TIMEOUT).await?;
        decode(&body)
    }

    /// `GET /users/@me`: the bot itself (a 401 here: the token is refused).
    pub(crate) async fn current_user(&self) -> Result<CurrentUser, RestError> {
        let request = Request::new(Route::UserMe, LightMethod::Get);
        let body = self.execute(request, "me", JSON_TIMEOUT).await?;
        decode(&body)
    }

    /// `GET /oauth2/applications/@me`: the bot's application (its flags).
    pub(crate) async fn application_info(&self) -> Result<CurrentApplicationInfo, RestError> {
        let request = Request::new(Route::Oauth2ApplicationCurrent, LightMethod::Get);
        let body = self.execute(request, "application", JSON_TIMEOUT).await?;
        decode(&body)
    }

    /// One page (up to 100, newest archive first) of the archived public threads of a forum or
    /// channel (`GET /channels/{c}/threads/archived/public`), before the ISO 8601 archive time
    /// `before` (serenity's own call sends `before` as an integer, which Discord does not take).
    pub(crate) async fn archived_threads(
        &self,
        parent: ChannelId,
        before: Option<&str>,
    ) -> Result<Value, RestError> {
        let route = Route::ChannelArchivedPublicThreads { channel_id: parent };
        let mut params = vec![("limit", "100".to_string())];
        if let Some(before) = before {
            // An ISO 8601 time: `+00:00` must not read as a space (serenity does not encode).
            params.push(("before", before.replace('+', "%2B")));
        }
        let request = Request::new(route, LightMethod::Get).params(Some(params));
        let bucket = format!("archived {parent}");
        let body = self.execute(request, &bucket, JSON_TIMEOUT).await?;
        decode(&body)
    }

    /// Pins `message`: `PUT /channels/{c}/messages/pins/{m}` (Discord's route since 2026, which
    /// serenity 0.12 does not have), or with `legacy` the deprecated
    /// `PUT /channels/{c}/pins/{m}`.
    pub(crate) async fn pin(
        &self,
        channel: ChannelId,
        message: MessageId,
        legacy: bool,
    ) -> Result<(), RestError> {
        if legacy {
            let route = Route::ChannelPin {
                channel_id: channel,
                message_id: message,
            };
            let request = Request::new(route, LightMethod::Put);
            let bucket = format!("old pins {channel}");
            return self.execute(request, &bucket, JSON_TIMEOUT).await.map(drop);
        }
        let path = format!("/channels/{channel}/messages/pins/{message}");
        let request = self
            .client
            .request(reqwest::Method::PUT, format!("{}{path}", self.base))
            .header(reqwest::header::AUTHORIZATION, &self.token)
            .header(reqwest::header::CONTENT_LENGTH, "0");
        let bucket = format!("pins {channel}");
        self.exchange(request, &bucket, Limit::Global, JSON_TIMEOUT)
            .await
            .map(drop)
    }

    /// The application's id, once READY said it: interactions' follow-ups and the commands
    /// are the application's.
    pub(crate) fn set_application_id(&self, application: ApplicationId) {
        self.application.store(application.get(), Ordering::Relaxed);
    }

    fn application_id(&self) -> Result<ApplicationId, RestError> {
        match self.application.load(Ordering::Relaxed) {
            0 => Err(RestError::Invalid(
                "the application id is not known before READY".to_string(),
            )),
            id => Ok(ApplicationId::new(id)),
        }
    }

    /// `PUT /applications/{a}/commands`, or `…/guilds/{g}/commands` with `guild`: the slash
    /// commands, all at once (commands not among them disappear).
    pub(crate) async fn set_commands(
        &self,
        guild: Option<GuildId>,
        commands: &[CreateCommand],
    ) -> Result<(), RestError> {
        let application_id = self.application_id()?;
        let route = match guild {
            Some(guild_id) => Route::GuildCommands {
                application_id,
                guild_id,
            },
            None => Route::Commands { application_id },
        };
        let request = Request::new(route, LightMethod::Put).body(Some(json(&commands)?));
        self.execute(request, "commands", JSON_TIMEOUT)
            .await
            .map(drop)
    }

    /// `POST /interactions/{i}/{token}/callback`: the first answer to an interaction (a
    /// deferral). Not under Discord's global limit.
    pub(crate) async fn answer_interaction(
        &self,
        interaction: InteractionId,
        token: &str,
        answer: &CreateInteractionResponse,
    ) -> Result<(), RestError> {
        let route = Route::InteractionResponse {
            interaction_id: interaction,
            token,
        };
        let request = Request::new(route, LightMethod::Post).body(Some(json(answer)?));
        let bucket = format!("interaction {interaction}");
        self.execute_limited(request, &bucket, Limit::BucketOnly, JSON_TIMEOUT)
            .await
            .map(drop)
    }

    /// `POST /webhooks/{a}/{token}`: a follow-up message to an interaction, with `file`
    /// uploaded (one at most, as [`Rest::send_message`]). Not under Discord's global limit.
    pub(crate) async fn follow_up(
        &self,
        token: &str,
        followup: &CreateInteractionResponseFollowup,
        file: Option<&CreateAttachment>,
    ) -> Result<(), RestError> {
        let route = Route::WebhookFollowupMessages {
            application_id: self.application_id()?,
            token,
        };
        let request = Request::new(route, LightMethod::Post);
        let request = match file {
            None => request.body(Some(json(followup)?)),
            Some(file) => {
                let payload = followup.clone().add_file(file.clone());
                request.multipart(Some(Multipart {
                    upload: MultipartUpload::Attachments(vec![file.clone()]),
                    payload_json: Some(json_text(&payload)?),
                    fields: Vec::new(),
                }))
            }
        };
        // The token is the interaction's: one bucket per interaction (named by a hash of it,
        // so no token is kept).
        let bucket = format!("followup {:x}", {
            use std::hash::{Hash, Hasher};
            let mut hasher = std::collections::hash_map::DefaultHasher::new();
            token.hash(&mut hasher);
            hasher.finish()
        });
        self.execute_limited(
            request,
            &bucket,
            Limit::BucketOnly,
            attempt_timeout(file.is_some()),
        )
        .await
        .map(drop)
    }

    /// One attempt of a request serenity built, in `bucket`, within `timeout`.
    async fn execute(
        &self,
        request: Request<'_>,
        bucket: &str,
        timeout: Duration,
    ) -> Result<Vec<u8>, RestError> {
        self.execute_limited(request, bucket, Limit::Global, timeout)
            .await
    }

    /// One attempt of a request serenity built, in `bucket` (under the global limit or not).
    async fn execute_limited(
        &self,
        request: Request<'_>,
        bucket: &str,
        limit: Limit,
        timeout: Duration,
    ) -> Result<Vec<u8>, RestError> {
        let built = request
            .build(&self.client, &self.token, self.proxy.as_deref())
            .map_err(|e| RestError::Invalid(e.to_string()))?;
        self.exchange(built, bucket, limit, timeout).await
    }

    /// Waits for the holds on `bucket` (and every request's, under `limit`), sends `request`
    /// with the client's [`USER_AGENT`] and reads its answer within `timeout`, and notes what
    /// the answer says of the limits.
    async fn exchange(
        &self,
        request: reqwest::RequestBuilder,
        bucket: &str,
        limit: Limit,
        timeout: Duration,
    ) -> Result<Vec<u8>, RestError> {
        self.wait_for(bucket, limit).await;
        let mut request = request
            .build()
            .map_err(|e| RestError::Invalid(e.without_url().to_string()))?;
        request.headers_mut().insert(
            reqwest::header::USER_AGENT,
            reqwest::header::HeaderValue::from_static(USER_AGENT),
        );
        let answer = async {
            let response = self.client.execute(request).await?;
            let status = response.status();
            let headers = response.headers().clone();
            let body = response.bytes().await?;
            Ok::<_, reqwest::Error>((status, headers, body.to_vec()))
        };
        let (status, headers, body) = match tokio::time::timeout(timeout, answer).await {
            Err(_) => return Err(RestError::TimedOut(timeout)),
            Ok(Err(error)) => return Err(RestError::Network(error.without_url().to_string())),
            Ok(Ok(answer)) => answer,
        };
        self.note(bucket, &headers);
        if status.is_success() {
            return Ok(body);
        }
        if status == StatusCode::TOO_MANY_REQUESTS {
            let (after, global) = rate_limit(&headers, &body);
            self.hold(bucket, after, global);
            return Err(RestError::RateLimited { after, global });
        }
        let json: Value = serde_json::from_slice(&body).unwrap_or(Value::Null);
        Err(RestError::Refused {
            status: status.as_u16(),
            code: json["code"].as_i64().unwrap_or(0),
            message: json["message"]
                .as_str()
                .unwrap_or(status.canonical_reason().unwrap_or_default())
                .to_string(),
        })
    }

    /// Sleeps until `bucket` may go again (and every request may, under the global limit).
    async fn wait_for(&self, bucket: &str, limit: Limit) {
        loop {
            match self.held_until(bucket, limit) {
                Some(until) if until > Instant::now() => tokio::time::sleep_until(until).await,
                // A hold set while this one slept is waited for too.
                _ => return,
            }
        }
    }

    /// Until when `bucket` is held (by its own hold or, under the global limit, a global one),
    /// if it is.
    fn held_until(&self, bucket: &str, limit: Limit) -> Option<Instant> {
        let holds = self.holds.lock().ok()?;
        let global = holds.global.filter(|_| limit == Limit::Global);
        [global, holds.buckets.get(bucket).copied()]
            .into_iter()
            .flatten()
            .max()
    }

    /// Holds `bucket` (or every request) for `after` from now.
    fn hold(&self, bucket: &str, after: Duration, global: bool) {
        let now = Instant::now();
        let until = now + after;
        if let Ok(mut holds) = self.holds.lock() {
            // Holds that have passed are forgotten.
            holds.buckets.retain(|_, held| *held > now);
            if global {
                holds.global = Some(holds.global.map_or(until, |g| g.max(until)));
            } else {
                let held = holds.buckets.entry(bucket.to_string()).or_insert(until);
                *held = (*held).max(until);
            }
        }
    }

    /// Holds the bucket until its reset when the answer says none are left.
    fn note(&self, bucket: &str, headers: &HeaderMap) {
        let number = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<f64>().ok())
                .filter(|n| n.is_finite() && *n >= 0.0)
        };
        if number("x-ratelimit-remaining") == Some(0.0) {
            if let Some(after) = number("x-ratelimit-reset-after") {
                self.hold(bucket, Duration::from_secs_f64(after).min(MAX_HOLD), false);
            }
        }
    }
}

fn json(value: &impl serde::Serialize) -> Result<Vec<u8>, RestError> {
    serde_json::to_vec(value).map_err(|e| RestError::Invalid(e.to_string()))
}

fn json_text(value: &impl serde::Serialize) -> Result<String, RestError> {
    serde_json::to_string(value).map_err(|e| RestError::Invalid(e.to_string()))
}

fn decode<T: serde::de::DeserializeOwned>(body: &[u8]) -> Result<T, RestError> {
    serde_json::from_slice(body)
        .map_err(|e| RestError::Invalid(format!("cannot read Discord's answer: {e}")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::HeaderValue;

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, HeaderValue::from_static(v));
        }
        map
    }

    #[test]
    fn a_429_says_how_long_in_its_body_or_its_header() {
        let body = br#"{"message":"You are being rate limited.","retry_after":2.5,"global":false}"#;
        assert_eq!(
            rate_limit(&headers(&[("retry-after", "3")]), body),
            (Duration::from_millis(2500), false)
        );
        assert_eq!(
            rate_limit(&headers(&[("retry-after", "3")]), b"error code: 1015"),
            (Duration::from_secs(3), false)
        );
        let global = br#"{"retry_after":0.75,"global":true}"#;
        assert_eq!(
            rate_limit(&HeaderMap::new(), global),
            (Duration::from_millis(750), true)
        );
        assert_eq!(
            rate_limit(
                &headers(&[("retry-after", "2"), ("x-ratelimit-global", "true")]),
                b""
            ),
            (Duration::from_secs(2), true)
        );
        assert_eq!(
            rate_limit(&HeaderMap::new(), b""),
            (Duration::from_secs(1), false)
        );
    }

    #[test]
    fn fresh_nonces_differ_and_fit_discord() {
        let rest = Rest::new("x", None);
        let (Nonce::String(a), Nonce::String(b)) = (rest.fresh_nonce(), rest.fresh_nonce()) else {
            panic!("string nonces");
        };
        assert_ne!(a, b);
        assert!(a.len() <= 25 && b.len() <= 25, "{a} {b}");
    }

    #[test]
    fn the_token_and_the_base_are_read_as_serenity_reads_them() {
        let rest = Rest::new(" abc ", Some("http://127.0.0.1:9/"));
        assert_eq!(rest.token, "Bot abc");
        assert_eq!(rest.proxy.as_deref(), Some("http://127.0.0.1:9"));
        assert_eq!(rest.base, "http://127.0.0.1:9/api/v10");
        let rest = Rest::new("Bot abc", Some(" "));
        assert_eq!(rest.token, "Bot abc");
        assert_eq!(rest.base, "https://discord.com/api/v10");
        assert!(
            USER_AGENT.starts_with("DiscordBot ("),
            "Discord's form: {USER_AGENT}"
        );
    }

    #[test]
    fn uploads_get_the_longer_timeout() {
        assert!(attempt_timeout(false) < attempt_timeout(true));
        assert!(attempt_timeout(false) <= Duration::from_secs(5));
    }

    #[test]
    fn a_global_hold_holds_every_bucket_and_a_bucket_hold_only_its_own() {
        let rest = Rest::new("x", None);
        let hold = Duration::from_secs(60);
        let global = Limit::Global;
        rest.hold("post 1", hold, false);
        assert!(rest.held_until("post 1", global).is_some());
        assert_eq!(rest.held_until("post 2", global), None);
        rest.hold("post 1", hold, true);
        assert!(
            rest.held_until("react 9", global).is_some(),
            "a global hold holds every bucket"
        );
        assert_eq!(
            rest.held_until("interaction 9", Limit::BucketOnly),
            None,
            "but not the interactions'"
        );
    }
}
