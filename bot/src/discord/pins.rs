//! The requests serenity 0.12 cannot make right, above all pins as Discord has them since 2026: the separate PIN_MESSAGES permission (bit 51, which
//! Manage Messages no longer implies) and the routes `/channels/{c}/messages/pins/{m}` (the old
//! `/channels/{c}/pins/{m}` is deprecated).
//!
//! serenity 0.12.5 knows neither: its `Permissions` drops unknown bits when it parses them, and
//! its routes are a closed enum. So these requests go through the bot's own client
//! ([`super::rest::Rest`]: the bot's token and base URL, Discord's rate limits honoured with
//! the rest of the bot's requests: `X-RateLimit-Remaining` / `X-RateLimit-Reset-After` per
//! bucket, a 429's `retry_after`, a global 429): it reads permissions as raw integers (the
//! channel's overwrites, the guild's roles, the bot's roles), pins through the new route (the
//! old one only when the new answers 404), retrying server and network errors with backoff as
//! [`super::retry`] does. It also lists a forum's archived threads (paged by an ISO 8601
//! `before`, which serenity sends as an integer) for the catch-up.

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use reqwest::Method;
use serde_json::Value;
use serenity::model::id::{ChannelId, MessageId};

use super::rest::{Rest, RestError};

/// PIN_MESSAGES.
pub(crate) const PIN_MESSAGES: u64 = 1 << 51;
/// ADMINISTRATOR.
const ADMINISTRATOR: u64 = 1 << 3;

/// Attempts per request (the first included), as [`super::retry`].
const MAX_ATTEMPTS: u32 = 5;
/// The first retry's wait after a server or network error; doubled each time.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);

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

/// The pin client: the bot's REST client, whether the new route is missing, and the channels
/// whose moderators were told the permission lacks.
pub(crate) struct Pins {
    rest: Arc<Rest>,
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
    /// The pin client, sending through `rest`.
    pub(crate) fn new(rest: Arc<Rest>) -> Pins {
        Pins {
            rest,
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

    /// One request, retried on 429 (once the time Discord said has passed: the client holds
    /// the bucket, or every request, that long), 5xx, network errors and timeouts (with
    /// backoff); at most [`MAX_ATTEMPTS`].
    async fn send(&self, method: Method, path: &str, bucket: &str) -> Answer {
        let mut backoff = FIRST_BACKOFF;
        let mut last = String::new();
        for attempt in 1..=MAX_ATTEMPTS {
            let error = match self.rest.raw(method.clone(), path, bucket).await {
                Ok(body) => return Ok(serde_json::from_slice(&body).unwrap_or(Value::Null)),
                Err(error) => error,
            };
            last = error.to_string();
            match error {
                RestError::RateLimited { after, .. } => {
                    // The next attempt waits for the hold.
                    tracing::warn!(path, attempt, ?after, "rate limited; waiting");
                }
                ref e if e.transient() => {
                    tracing::warn!(path, attempt, error = %e, "Discord request failed; retrying");
                    tokio::time::sleep(backoff).await;
                    backoff *= 2;
                }
                RestError::Refused { status: 403, .. } => return Err(PinError::Forbidden),
                RestError::Refused { status: 404, .. } => return Err(PinError::NotFound),
                e => return Err(PinError::Failed(e.to_string())),
            }
        }
        tracing::error!(path, error = %last, "Discord request failed; giving up");
        Err(PinError::Failed(last))
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
