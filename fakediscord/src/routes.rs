//! The REST routes the fake serves, by kind (for fault injection and the request log), and the
//! forms of a 429 it can answer on them.

use axum::http::Method;

/// The REST routes the fake serves, for
/// [`FakeDiscord::fail_next`](crate::FakeDiscord::fail_next) and
/// [`RequestRecord`](crate::RequestRecord).
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

impl RouteKind {
    /// The kind of the route that `matched_path` (axum's matched route, with or without the
    /// `/api/v10` prefix) names for `method`; `None` for a route the fake does not serve.
    pub(crate) fn of(method: &Method, matched_path: &str) -> Option<RouteKind> {
        use RouteKind::*;
        Some(
            match (method.as_str(), matched_path.trim_start_matches("/api/v10")) {
                ("GET", "/gateway") => Gateway,
                ("GET", "/gateway/bot") => GatewayBot,
                ("GET", "/users/@me") => CurrentUser,
                ("POST", "/users/@me/channels") => CreateDm,
                ("GET", "/oauth2/applications/@me") => ApplicationInfo,
                ("GET", "/channels/{channel_id}") => GetChannel,
                ("GET", "/channels/{channel_id}/messages") => GetMessages,
                ("POST", "/channels/{channel_id}/messages") => CreateMessage,
                ("GET", "/channels/{channel_id}/messages/{message_id}") => GetMessage,
                ("PATCH", "/channels/{channel_id}/messages/{message_id}") => EditMessage,
                ("DELETE", "/channels/{channel_id}/messages/{message_id}") => DeleteMessage,
                ("PUT", "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me") => {
                    CreateReaction
                }
                (
                    "DELETE",
                    "/channels/{channel_id}/messages/{message_id}/reactions/{emoji}/@me",
                ) => DeleteReaction,
                ("POST", "/channels/{channel_id}/typing") => Typing,
                ("GET", "/channels/{channel_id}/threads/archived/public") => ArchivedThreads,
                ("GET", "/guilds/{guild_id}") => GetGuild,
                ("GET", "/guilds/{guild_id}/roles") => GetGuildRoles,
                ("GET", "/guilds/{guild_id}/channels") => GetGuildChannels,
                ("GET", "/guilds/{guild_id}/members/{user_id}") => GetGuildMember,
                ("GET", "/attachments/{channel_id}/{attachment_id}/{filename}") => Attachment,
                ("GET", "/applications/{application_id}/commands") => GetCommands,
                ("PUT", "/applications/{application_id}/commands") => SetCommands,
                ("GET", "/applications/{application_id}/guilds/{guild_id}/commands") => GetCommands,
                ("PUT", "/applications/{application_id}/guilds/{guild_id}/commands") => SetCommands,
                ("POST", "/interactions/{interaction_id}/{token}/callback") => InteractionCallback,
                ("POST", "/webhooks/{application_id}/{token}") => Followup,
                ("GET", "/webhooks/{application_id}/{token}/messages/{message_id}") => GetResponse,
                ("PATCH", "/webhooks/{application_id}/{token}/messages/{message_id}") => {
                    EditResponse
                }
                ("DELETE", "/webhooks/{application_id}/{token}/messages/{message_id}") => {
                    DeleteResponse
                }
                ("GET", "/channels/{channel_id}/pins") => GetPins,
                ("PUT", "/channels/{channel_id}/pins/{message_id}") => Pin,
                ("DELETE", "/channels/{channel_id}/pins/{message_id}") => Unpin,
                ("PUT", "/channels/{channel_id}/messages/pins/{message_id}") => MessagePin,
                ("DELETE", "/channels/{channel_id}/messages/pins/{message_id}") => MessageUnpin,
                _ => return None,
            },
        )
    }
}

/// How a 429 says how long to wait
/// ([`FakeDiscord::fail_next_rate_limited_as`](crate::FakeDiscord::fail_next_rate_limited_as)).
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
