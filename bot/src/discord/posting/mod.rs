//! Posting in a channel: replies (reactions, attachments, buttons), notices, the pinned status.
//! Every request is sent by the bot's own client ([`super::rest`]: Discord's rate limits kept
//! exactly, a short timeout per attempt, a nonce on every post) and retried by
//! [`super::retry::deliver`]; a failed post is logged, never undoes a stored action.

pub(crate) mod buttons;
pub(crate) mod commitment;
pub(crate) mod pages;
pub(crate) mod pin;
pub(crate) mod reply;
