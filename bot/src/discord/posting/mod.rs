//! Posting in a channel: replies (reactions, attachments, buttons), notices, the pinned status.
//! Every request goes through [`super::retry`]; a failed post is logged, never undoes a stored
//! action.

pub(crate) mod buttons;
pub(crate) mod pin;
pub(crate) mod reply;
