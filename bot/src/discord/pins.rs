//! The requests serenity 0.12 cannot make right, above all pins as Discord has them since 2026: the separate PIN_MESSAGES permission (bit 51, which
//! Manage Messages no longer implies) and the routes `/channels/{c}/messages/pins/{m}` (the old
//! `/channels/{c}/pins/{m}` is deprecated).
//!
//! serenity 0.12.5 knows neither: its `Permissions` drops unknown bits when it parses them, and
//! its routes are a closed enum. So this is a small REST client of its own, sharing the bot's
//! token and base URL: it reads permissions as raw integers (the channel's overwrites, the
//! guild's roles, the bot's roles), pins through the new route (the old one only when the new
//! answers 404), and honours Discord's rate limits itself (`X-RateLimit-Remaining` /
//! `X-RateLimit-Reset-After` per channel, `retry_after` of a 429), retrying server and network
//! errors with backoff as [`super::retry`] does. It also lists a forum's archived threads
//! (paged by an ISO 8601 `before`, which serenity sends as an integer) for the catch-up.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use reqwest::{Method, StatusCode};
use serde_json::Value;
use serenity::model::id::{ChannelId, MessageId};
use tokio::time::Instant;

/// PIN_MESSAGES.
pub(crate) const PIN_MESSAGES: u64 = 1 << 51;
/// ADMINISTRATOR.
const ADMINISTRATOR: u64 = 1 << 3;

/// Attempts per request (the first included), as [`super::retry`].
const MAX_ATTEMPTS: u32 = 5;
/// The first retry's wait after a server or network error; doubled each time.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
/// The longest one request may take.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

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

/// The pin client: the bot's token and base URL, the rate-limit waits per bucket, whether the
/// new route is missing, and the channels whose moderators were told the permission lacks.
pub(crate) struct Pins {
    client: reqwest::Client,
    /// `https://discord.com/api/v10`, or the configured `api_base` + `/api/v10`.
    base: String,
    /// `Bot <token>`, as serenity sends it.
    authorization: String,
    /// Not before this instant, per bucket (route and channel).
    waits: Mutex<HashMap<String, Instant>>,
    /// The new route answered 404: use the old one from now on.
    legacy: AtomicBool,
    /// Channels told once that the permission lacks.
    noticed: Mutex<HashSet<ChannelId>>,
    /// The bot's user id, once known.
    bot: tokio::sync::OnceCell<u64>,
}

/// A JSON answer, or why there is none.
type Answer = Result<Value, PinError>;

impl Pins {
    /// A client for `api_base` (none: discord.com) with serenity's authorization header value.
    pub(crate) fn new(api_base: Option<&str>, authorization: &str) -> Pins {
        let root = api_base
            .map(str::trim)
            .filter(|b| !b.is_empty())
            .map_or("https://discord.com", |b| b.trim_end_matches('/'));
        let client = reqwest::Client::builder()
            .timeout(REQUEST_TIMEOUT)
            .build()
            .unwrap_or_default();
        Pins {
            client,
            base: format!("{root}/api/v10"),
            authorization: authorization.to_string(),
            waits: Mutex::new(HashMap::new()),
            legacy: AtomicBool::new(false),
            noticed: Mutex::new(HashSet::new()),
            bot: tokio::sync::OnceCell::new(),
        }
    }

    /// Whether the bot may pin in `channel`: PIN_MESSAGES in its permissions there, computed
    /// from the raw values (the guild's roles, the bot's roles, the channel's overwrites; a
    /// thread's are its parent's). A DM: yes.
    pub(crate) async fn may_pin(&self, channel: ChannelId) -> Result<bool, PinError> {
        let facts = self.get(&format!("/channels/{channel}"), "channel").await?;
        let Some(guild) = id_of(&facts["guild_id"]) else {
            return Ok(true);
        };
        let thread = matches!(facts["type"].as_u64(), Some(10..=12));
        let overwrites = match (thread, id_of(&facts["parent_id"])) {
            (true, Some(parent)) => self.get(&format!("/channels/{parent}"), "channel").await?
                ["permission_overwrites"]
                .clone(),
            _ => facts["permission_overwrites"].clone(),
        };
        let bot = self.bot_id().await?;
        let server = self.get(&format!("/guilds/{guild}"), "guild").await?;
        let member = self
            .get(&format!("/guilds/{guild}/members/{bot}"), "member")
            .await?;
        let roles: Vec<u64> = member["roles"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(id_of)
            .collect();
        let permissions = if id_of(&server["owner_id"]) == Some(bot) {
            u64::MAX
        } else {
            permissions_in(guild, &server["roles"], &roles, &overwrites, bot)
        };
        Ok(permissions & PIN_MESSAGES != 0)
    }

    /// Pins `message`: `PUT /channels/{c}/messages/pins/{m}`, or the old
    /// `PUT /channels/{c}/pins/{m}` once the new one answered 404. (The fake Discord serves
    /// `DELETE` on both routes too; the bot never unpins.)
    pub(crate) async fn pin(&self, channel: ChannelId, message: MessageId) -> Result<(), PinError> {
        self.both_routes(Method::PUT, channel, message).await
    }

    /// One page (up to 100, newest archive first) of the archived public threads of a forum or
    /// channel (`GET /channels/{c}/threads/archived/public`), before the ISO 8601 archive time
    /// `before`; serenity 0.12 sends `before` as an integer, which Discord does not take.
    pub(crate) async fn archived_threads(
        &self,
        parent: u64,
        before: Option<&str>,
    ) -> Result<Value, PinError> {
        let query = match before {
            // An ISO 8601 time: `+00:00` must not read as a space.
            Some(before) => format!("?limit=100&before={}", before.replace('+', "%2B")),
            None => "?limit=100".to_string(),
        };
        let path = format!("/channels/{parent}/threads/archived/public{query}");
        self.get(&path, &format!("archived {parent}")).await
    }

    /// Whether this is the first time the moderators of `channel` are to be told.
    pub(crate) fn first_notice(&self, channel: ChannelId) -> bool {
        self.noticed
            .lock()
            .map(|mut n| n.insert(channel))
            .unwrap_or(false)
    }

    async fn both_routes(
        &self,
        method: Method,
        channel: ChannelId,
        message: MessageId,
    ) -> Result<(), PinError> {
        if !self.legacy.load(Ordering::Relaxed) {
            let path = format!("/channels/{channel}/messages/pins/{message}");
            match self
                .send(method.clone(), &path, &format!("pins {channel}"))
                .await
            {
                Err(PinError::NotFound) => {}
                other => return other.map(drop),
            }
            // Unknown route or unknown message: the old route tells which.
            let old = format!("/channels/{channel}/pins/{message}");
            let answer = self
                .send(method, &old, &format!("old pins {channel}"))
                .await;
            if answer.is_ok() {
                tracing::warn!("Discord does not serve /channels/{{id}}/messages/pins: pinning through the deprecated /channels/{{id}}/pins from now on");
                self.legacy.store(true, Ordering::Relaxed);
            }
            return answer.map(drop);
        }
        let old = format!("/channels/{channel}/pins/{message}");
        self.send(method, &old, &format!("old pins {channel}"))
            .await
            .map(drop)
    }

    async fn bot_id(&self) -> Result<u64, PinError> {
        self.bot
            .get_or_try_init(|| async {
                let me = self.get("/users/@me", "me").await?;
                id_of(&me["id"]).ok_or_else(|| PinError::Failed("no id in /users/@me".into()))
            })
            .await
            .copied()
    }

    async fn get(&self, path: &str, bucket: &str) -> Answer {
        self.send(Method::GET, path, bucket).await
    }

    /// One request, waiting out its bucket's rate limit first, retried on 429 (after
    /// `retry_after`), 5xx and network errors (with backoff); at most [`MAX_ATTEMPTS`].
    async fn send(&self, method: Method, path: &str, bucket: &str) -> Answer {
        let mut backoff = FIRST_BACKOFF;
        let mut last = String::new();
        for attempt in 1..=MAX_ATTEMPTS {
            self.wait_for(bucket).await;
            let sent = self
                .client
                .request(method.clone(), format!("{}{path}", self.base))
                .header(reqwest::header::AUTHORIZATION, &self.authorization)
                .header(reqwest::header::CONTENT_LENGTH, "0")
                .send()
                .await;
            let response = match sent {
                Ok(r) => r,
                Err(error) => {
                    last = error.without_url().to_string();
                    tracing::warn!(path, attempt, error = %last, "Discord request failed; retrying");
                    tokio::time::sleep(backoff).await;
                    backoff *= 2;
                    continue;
                }
            };
            self.note_limits(bucket, response.headers());
            let status = response.status();
            let body: Value = response.json().await.unwrap_or(Value::Null);
            match status {
                s if s.is_success() => return Ok(body),
                StatusCode::TOO_MANY_REQUESTS => {
                    let wait = body["retry_after"].as_f64().unwrap_or(1.0).clamp(0.0, 60.0);
                    tracing::warn!(path, attempt, wait, "rate limited; waiting");
                    tokio::time::sleep(Duration::from_secs_f64(wait)).await;
                    last = "429 Too Many Requests".to_string();
                }
                s if s.is_server_error() => {
                    last = s.to_string();
                    tracing::warn!(path, attempt, status = %s, "Discord request failed; retrying");
                    tokio::time::sleep(backoff).await;
                    backoff *= 2;
                }
                StatusCode::FORBIDDEN => return Err(PinError::Forbidden),
                StatusCode::NOT_FOUND => return Err(PinError::NotFound),
                s => {
                    return Err(PinError::Failed(format!(
                        "{s}: {}",
                        body["message"].as_str().unwrap_or_default()
                    )))
                }
            }
        }
        tracing::error!(path, error = %last, "Discord request failed; giving up");
        Err(PinError::Failed(last))
    }

    async fn wait_for(&self, bucket: &str) {
        let until = self.waits.lock().ok().and_then(|w| w.get(bucket).copied());
        if let Some(until) = until {
            tokio::time::sleep_until(until).await;
        }
    }

    /// Remembers when the bucket may be used again: after `X-RateLimit-Reset-After` when
    /// `X-RateLimit-Remaining` is 0.
    fn note_limits(&self, bucket: &str, headers: &reqwest::header::HeaderMap) {
        let number = |name: &str| {
            headers
                .get(name)
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.parse::<f64>().ok())
        };
        if number("x-ratelimit-remaining") == Some(0.0) {
            if let Some(after) = number("x-ratelimit-reset-after") {
                let until = Instant::now() + Duration::from_secs_f64(after.clamp(0.0, 60.0));
                if let Ok(mut waits) = self.waits.lock() {
                    waits.insert(bucket.to_string(), until);
                }
            }
        }
    }
}

/// A snowflake, as Discord sends it (a string).
fn id_of(value: &Value) -> Option<u64> {
    value.as_str().and_then(|s| s.parse().ok())
}

/// A permission value, as Discord sends it (a string of the integer; every bit kept).
fn bits(value: &Value) -> u64 {
    value
        .as_str()
        .and_then(|s| s.parse().ok())
        .or_else(|| value.as_u64())
        .unwrap_or(0)
}

/// A member's permissions in a channel from the raw values, as Discord computes them:
/// @everyone and the member's roles, Administrator grants everything, then the channel's
/// overwrites for @everyone, for the member's roles (together), and for the member.
fn permissions_in(
    guild: u64,
    guild_roles: &Value,
    roles: &[u64],
    overwrites: &Value,
    member: u64,
) -> u64 {
    let role_bits: HashMap<u64, u64> = guild_roles
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|r| Some((id_of(&r["id"])?, bits(&r["permissions"]))))
        .collect();
    let mut permissions = role_bits.get(&guild).copied().unwrap_or(0);
    for role in roles {
        permissions |= role_bits.get(role).copied().unwrap_or(0);
    }
    if permissions & ADMINISTRATOR != 0 {
        return u64::MAX;
    }
    let overwrites: Vec<(u64, u64, u64, u64)> = overwrites
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|o| {
            Some((
                id_of(&o["id"])?,
                o["type"].as_u64().unwrap_or(0),
                bits(&o["allow"]),
                bits(&o["deny"]),
            ))
        })
        .collect();
    for (_, _, allow, deny) in overwrites.iter().filter(|o| o.1 == 0 && o.0 == guild) {
        permissions = (permissions & !deny) | allow;
    }
    let (mut allow, mut deny) = (0, 0);
    for o in overwrites
        .iter()
        .filter(|o| o.1 == 0 && o.0 != guild && roles.contains(&o.0))
    {
        allow |= o.2;
        deny |= o.3;
    }
    permissions = (permissions & !deny) | allow;
    for (_, _, allow, deny) in overwrites.iter().filter(|o| o.1 == 1 && o.0 == member) {
        permissions = (permissions & !deny) | allow;
    }
    permissions
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn bit_51_is_read_from_the_raw_values_and_overwrites_apply_in_order() {
        let guild = 10;
        let roles = json!([
            {"id": "10", "permissions": "3072"},
            {"id": "20", "permissions": (PIN_MESSAGES | (1 << 13)).to_string()},
            {"id": "30", "permissions": "8192"},
        ]);
        let none = json!([]);
        // The bot's role grants it; a Manage Messages role alone does not.
        assert_ne!(
            permissions_in(guild, &roles, &[20], &none, 5) & PIN_MESSAGES,
            0
        );
        assert_eq!(
            permissions_in(guild, &roles, &[30], &none, 5) & PIN_MESSAGES,
            0
        );
        // A role overwrite denies it here; a member overwrite grants it back.
        let deny = json!([{"id": "20", "type": 0, "allow": "0", "deny": PIN_MESSAGES.to_string()}]);
        assert_eq!(
            permissions_in(guild, &roles, &[20], &deny, 5) & PIN_MESSAGES,
            0
        );
        let back = json!([
            {"id": "20", "type": 0, "allow": "0", "deny": PIN_MESSAGES.to_string()},
            {"id": "5", "type": 1, "allow": PIN_MESSAGES.to_string(), "deny": "0"},
        ]);
        assert_ne!(
            permissions_in(guild, &roles, &[20], &back, 5) & PIN_MESSAGES,
            0
        );
        // @everyone's overwrite grants it to everybody in the channel.
        let everyone =
            json!([{"id": "10", "type": 0, "allow": PIN_MESSAGES.to_string(), "deny": "0"}]);
        assert_ne!(
            permissions_in(guild, &roles, &[], &everyone, 5) & PIN_MESSAGES,
            0
        );
        // Administrator has it whatever the overwrites say.
        let admin = json!([{"id": "40", "permissions": "8"}]);
        assert_eq!(permissions_in(guild, &admin, &[40], &deny, 5), u64::MAX);
    }
}
