//! Test controls: inspecting what the bot did (messages, reactions, typing, requests).

use std::time::Duration;

use crate::records::{RecordedMessage, RecordedReaction, RequestRecord};
use crate::server::FakeDiscord;
use crate::waiting::WaitTimeout;

impl FakeDiscord {
    /// Every message the bot posted in the channel, in posting order, including deleted ones
    /// (see [`RecordedMessage::deleted`]), with their current content.
    pub fn bot_messages(&self, channel_id: u64) -> Vec<RecordedMessage> {
        self.shared
            .read()
            .messages
            .values()
            .filter(|m| m.channel_id == channel_id && m.is_bot())
            .cloned()
            .collect()
    }

    /// The newest message the bot posted in the channel for which `pick` holds (searched from
    /// the newest, without copying the others: a waiting loop over a long history stays cheap).
    pub fn last_bot_message(
        &self,
        channel_id: u64,
        pick: impl Fn(&RecordedMessage) -> bool,
    ) -> Option<RecordedMessage> {
        self.shared
            .read()
            .messages
            .values()
            .rev()
            .find(|m| m.channel_id == channel_id && m.is_bot() && pick(m))
            .cloned()
    }

    /// Every message the bot posted in any channel, in posting order.
    pub fn all_bot_messages(&self) -> Vec<RecordedMessage> {
        self.shared
            .read()
            .messages
            .values()
            .filter(|m| m.is_bot())
            .cloned()
            .collect()
    }

    /// The channel's whole history (users and bot, including deleted), oldest first.
    pub fn channel_messages(&self, channel_id: u64) -> Vec<RecordedMessage> {
        self.shared
            .read()
            .messages
            .values()
            .filter(|m| m.channel_id == channel_id)
            .cloned()
            .collect()
    }

    /// One stored message by id.
    pub fn message(&self, message_id: u64) -> Option<RecordedMessage> {
        self.shared.read().messages.get(&message_id).cloned()
    }

    /// Waits until the bot has posted at least `count` messages in the channel and returns
    /// them all (in posting order).
    pub async fn wait_for_bot_messages(
        &self,
        channel_id: u64,
        count: usize,
        timeout: Duration,
    ) -> Result<Vec<RecordedMessage>, WaitTimeout> {
        self.wait_for(timeout, |f| {
            let msgs = f.bot_messages(channel_id);
            if msgs.len() >= count {
                Ok(msgs)
            } else {
                Err(format!(
                    "{count} bot message(s) in channel {channel_id}; got {}: {:?}",
                    msgs.len(),
                    msgs.iter().map(|m| m.content.as_str()).collect::<Vec<_>>()
                ))
            }
        })
        .await
    }

    /// The emojis the bot currently has on a message, in the order added (percent-decoded:
    /// `"✅"`, or `name:id` for custom emojis).
    pub fn reactions(&self, message_id: u64) -> Vec<String> {
        self.shared
            .read()
            .reactions
            .iter()
            .filter(|r| r.message_id == message_id && !r.removed)
            .map(|r| r.emoji.clone())
            .collect()
    }

    /// Every reaction PUT the bot made, including removed ones.
    pub fn all_reactions(&self) -> Vec<RecordedReaction> {
        self.shared.read().reactions.clone()
    }

    /// Waits until the bot has at least `count` reactions on the message.
    pub async fn wait_for_reactions(
        &self,
        message_id: u64,
        count: usize,
        timeout: Duration,
    ) -> Result<Vec<String>, WaitTimeout> {
        self.wait_for(timeout, |f| {
            let r = f.reactions(message_id);
            if r.len() >= count {
                Ok(r)
            } else {
                Err(format!(
                    "{count} reaction(s) on message {message_id}; got {r:?}"
                ))
            }
        })
        .await
    }

    /// How many typing indicators the bot triggered in the channel.
    pub fn typing_count(&self, channel_id: u64) -> u32 {
        self.shared
            .read()
            .typing
            .get(&channel_id)
            .copied()
            .unwrap_or(0)
    }

    /// Every REST request answered so far, in arrival order.
    pub fn requests(&self) -> Vec<RequestRecord> {
        self.shared.read().requests.clone()
    }

    /// `METHOD /path` of every request to a route the fake does not serve (answered 404).
    pub fn unhandled_requests(&self) -> Vec<String> {
        self.shared.read().unhandled.clone()
    }
}
