//! Test controls: acting as users (posting, replying, editing, deleting) and the clock.

use std::time::{Duration, Instant};

use crate::records::{parse_mentions, FakeUser, RecordedMessage};
use crate::server::FakeDiscord;
use crate::state::{self, ChannelInfo};

impl FakeDiscord {
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

    pub(crate) fn post_user_message_inner(
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
            let (mentions, mention_roles, mention_everyone) = parse_mentions(content);
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
}
