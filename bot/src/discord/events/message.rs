//! MESSAGE_CREATE: the collector (registered on READY, run by serenity in gateway order before
//! the event handlers are spawned) puts every message into its channel's queue; the `message`
//! event handler is the fallback for messages that arrive before a new session's collector is
//! registered (their channel catches up first, so none is processed ahead of older ones).

use std::sync::Arc;

use serenity::all::Message;
use serenity::model::event::Event;

use crate::discord::job::Job;
use crate::discord::shared::Shared;

/// The collector of session `epoch`. Returns false (and is removed) once the bot shuts down.
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
pub(crate) fn collect(shared: &Arc<Shared>, event: &Event, epoch: u64) -> bool {
    if shared.queues.closing() {
        return false;
    }
    if let Event::MessageCreate(created) = event {
        let message = &created.message;
        if message.author.id.get() == shared.session.me() {
            shared.enqueue(message.channel_id, Job::Own(message.id));
        } else if !message.author.bot {
            shared.session.collected(message.id);
            shared.enqueue(
                message.channel_id,
                Job::Live {
                    message: Box::new(message.clone()),
                    epoch: Some(epoch),
                },
            );
        }
    }
    true
}

/// The fallback: a message no collector has queued.
pub(crate) fn message(shared: &Arc<Shared>, message: Message) {
    if message.author.bot || shared.session.was_collected(message.id) {
        return;
    }
    tracing::debug!(msg = %message.id, "message not seen by a collector");
    shared.enqueue(
        message.channel_id,
        Job::Live {
            message: Box::new(message),
            epoch: None,
        },
    );
}
