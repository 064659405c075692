//! MESSAGE_UPDATE: an edit, queued in its channel (an edited command is answered by a notice).

use std::sync::Arc;

use serenity::all::MessageUpdateEvent;

use crate::discord::job::Job;
use crate::discord::shared::Shared;

/// Queues an edit; updates without content (embeds being filled in) and the bots' are not edits.
pub(crate) fn message_update(shared: &Arc<Shared>, event: MessageUpdateEvent) {
    if event.author.as_ref().is_some_and(|a| a.bot) {
        return;
    }
    let Some(content) = event.content else {
        return;
    };
    shared.enqueue(
        event.channel_id,
        Job::Changed {
            id: event.id,
            edited: Some(content),
        },
    );
}
