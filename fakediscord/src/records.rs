//! What the fake records and hands to tests: the users a test acts as, the messages, reactions
//! and requests it saw.

use std::time::Instant;

use serde_json::Value;

use crate::identity::BOT_USER_ID;
use crate::routes::RouteKind;

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
    /// Its description (alt text), from the payload's `attachments` entry with its index.
    pub description: Option<String>,
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
    /// The nonce the bot created it with, if any: an edit keeps it (what `enforce_nonce`
    /// matches, as Discord does).
    pub nonce: Option<Value>,
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
        let (mentions, mention_roles, mention_everyone) = parse_mentions(content);
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
            nonce: None,
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
    /// Whether it was answered (false: an injected hang,
    /// [`FakeDiscord::hang_next`](crate::FakeDiscord::hang_next)).
    pub answered: bool,
}

/// Parses `<@123>`, `<@!123>` (users) and `<@&123>` (roles) out of message text, and whether
/// it contains `@everyone` / `@here`.
pub(crate) fn parse_mentions(content: &str) -> (Vec<u64>, Vec<u64>, bool) {
    let mut users = Vec::new();
    let mut roles = Vec::new();
    let mut rest = content;
    while let Some(pos) = rest.find("<@") {
        rest = &rest[pos + 2..];
        let (is_role, body) = if let Some(b) = rest.strip_prefix('&') {
            (true, b)
        } else if let Some(b) = rest.strip_prefix('!') {
            (false, b)
        } else {
            (false, rest)
        };
        let digits: String = body.chars().take_while(char::is_ascii_digit).collect();
        if digits.is_empty() || !body[digits.len()..].starts_with('>') {
            continue;
        }
        if let Ok(id) = digits.parse::<u64>() {
            let list = if is_role { &mut roles } else { &mut users };
            if !list.contains(&id) {
                list.push(id);
            }
        }
    }
    let everyone = content.contains("@everyone") || content.contains("@here");
    (users, roles, everyone)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mentions_are_parsed() {
        let (u, r, e) = parse_mentions("hi <@12> and <@!34>, <@&56> <@x> <@78 @everyone <@12>");
        assert_eq!(u, vec![12, 34]);
        assert_eq!(r, vec![56]);
        assert!(e);
    }
}
