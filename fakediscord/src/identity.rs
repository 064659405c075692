//! Who the bot is to the fake: its token, user id and name, and what its role and @everyone
//! may do in every fake guild.

use crate::permissions;

/// The bot token the fake accepts (REST `Authorization: Bot <token>` and gateway IDENTIFY).
pub const BOT_TOKEN: &str = "OTAwMDAwMDAwMDAwMDAwMDAx.ZmFrZQ.ZmFrZWRpc2NvcmQtYm90LXRva2Vu";
/// The bot's user id (also its application id).
pub const BOT_USER_ID: u64 = 900_000_000_000_000_001;
/// The bot's user name.
pub const BOT_USER_NAME: &str = "gaugebot";

/// What the bot's own role grants in every fake guild (what the invite URL asks for): pinning.
/// [`FakeDiscord::set_bot_permissions`](crate::FakeDiscord::set_bot_permissions) changes it.
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
