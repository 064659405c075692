//! MESSAGE_DELETE: a deletion, queued in its channel (a deleted command is answered by a
//! notice).

use std::sync::Arc;

use serenity::all::MessageId;
use serenity::model::id::ChannelId;

use crate::discord::job::Job;
use crate::discord::shared::Shared;

/// Queues a deletion.
pub(crate) fn message_delete(shared: &Arc<Shared>, channel: ChannelId, id: MessageId) {
    shared.enqueue(channel, Job::Changed { id, edited: None });
}
