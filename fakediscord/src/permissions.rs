//! Permission bits (Discord's numbering) used by the fake.

/// ADD_REACTIONS
pub const ADD_REACTIONS: u64 = 1 << 6;
/// VIEW_CHANNEL
pub const VIEW_CHANNEL: u64 = 1 << 10;
/// SEND_MESSAGES
pub const SEND_MESSAGES: u64 = 1 << 11;
/// MANAGE_MESSAGES
pub const MANAGE_MESSAGES: u64 = 1 << 13;
/// EMBED_LINKS
pub const EMBED_LINKS: u64 = 1 << 14;
/// ATTACH_FILES
pub const ATTACH_FILES: u64 = 1 << 15;
/// READ_MESSAGE_HISTORY
pub const READ_MESSAGE_HISTORY: u64 = 1 << 16;
/// MANAGE_ROLES
pub const MANAGE_ROLES: u64 = 1 << 28;
/// SEND_MESSAGES_IN_THREADS
pub const SEND_MESSAGES_IN_THREADS: u64 = 1 << 38;
/// ADMINISTRATOR
pub const ADMINISTRATOR: u64 = 1 << 3;
/// PIN_MESSAGES: since 2026 the one permission that lets a member pin and unpin (Manage
/// Messages no longer does).
pub const PIN_MESSAGES: u64 = 1 << 51;
