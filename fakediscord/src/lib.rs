//! A fake Discord on 127.0.0.1 for end-to-end tests of the real, unmodified serenity 0.12 client.
//!
//! [`FakeDiscord::start`] binds a REST listener (axum) and a gateway listener (WebSocket) on
//! random loopback ports. Point serenity at it with
//! `HttpBuilder::new(fake.token()).proxy(fake.api_base()).ratelimiter_disabled(true).build()`
//! and `ClientBuilder::new_with_http(http, intents)` (never call `ClientBuilder::token` after
//! that: it rebuilds the `Http` and drops the proxy). See [`spawn_echo_bot`] for a complete bot.
//!
//! The test then plays the users ([`FakeDiscord::post_user_message`] and friends) and inspects
//! what the bot did ([`FakeDiscord::bot_messages`], [`FakeDiscord::reactions`], ...). Every
//! waiting helper takes a timeout and wakes on state changes, not by polling.
//!
//! ```no_run
//! use std::time::Duration;
//! use fakediscord::{spawn_echo_bot, FakeDiscord, FakeUser};
//! # async fn demo() {
//! let fake = FakeDiscord::start().await;
//! fake.add_channel(1, 2, "game-1"); // guild 1, channel 2
//! let bot = spawn_echo_bot(&fake).await; // returns once READY was sent
//! fake.post_user_message(2, Some(1), &FakeUser::new(7, "alice"), "hi");
//! let replies = fake.wait_for_bot_messages(2, 1, Duration::from_secs(5)).await.unwrap();
//! assert_eq!(replies[0].content, "hi");
//! bot.shutdown().await;
//! # }
//! ```
//!
//! Behaviour worth knowing:
//! - Channels must exist before the bot posts to them: [`FakeDiscord::add_channel`],
//!   [`FakeDiscord::add_dm_channel`], or a first [`FakeDiscord::post_user_message`] creates
//!   them. Unknown channels answer 404 `Unknown Channel`, as Discord does.
//! - Like Discord, the bot's own messages, edits and deletions are dispatched back to it
//!   (turn off with [`FakeDiscord::set_dispatch_own_messages`]).
//! - Like Discord, a session without the MESSAGE_CONTENT intent gets guild messages with empty
//!   content unless the bot is mentioned; sessions without GUILD_MESSAGES / DIRECT_MESSAGES get no
//!   guild / DM message events; GUILD_CREATE is only sent with the GUILDS intent.
//! - Sending a reply to a message that does not exist (or was deleted) fails with 400 unless
//!   `fail_if_not_exists` is false; content over 2000 characters and empty messages fail with 400.
//! - Like Discord, a post with a `nonce` and `enforce_nonce: true` whose nonce a message of the
//!   same author in the same channel carries (from the last few minutes) is not posted again:
//!   the answer is that message.
//! - Faults can be injected per route: error statuses and 429s ([`FakeDiscord::fail_next`],
//!   [`FakeDiscord::fail_next_rate_limited`]), and requests that are never answered, applied or
//!   not ([`FakeDiscord::hang_next`]). Every request is recorded with the instant it arrived
//!   ([`FakeDiscord::requests`]).
//! - Interactions ([`interactions`]): the bot registers its application commands (checked as
//!   Discord checks them); a test invokes them ([`FakeDiscord::slash_command`],
//!   [`FakeDiscord::autocomplete`], [`FakeDiscord::click_button`]) and reads what the bot
//!   answered ([`FakeDiscord::interaction`]). The first answer must come within 3 s and only
//!   once; after a defer the first follow-up fills the deferred message; ephemeral messages are
//!   never dispatched nor in the history. Pins are kept per channel ([`FakeDiscord::pins`]). An
//!   application without the Message Content flags is refused that intent (close code 4014).

#![warn(missing_docs)]

mod controls;
mod echo;
mod examples;
mod gateway;
mod identity;
pub mod interactions;
pub mod permissions;
mod records;
mod rest;
mod router;
mod routes;
mod server;
mod shared;
mod state;
mod waiting;

pub use echo::{
    echo_intents, spawn_echo_bot, spawn_echo_bot_with_intents, spawn_echo_bot_with_work,
    BeforeReply, EchoBotHandle,
};
pub use examples::{all_emitted_payload_examples, all_rest_response_examples};
pub use identity::{
    bot_role_id, BOT_TOKEN, BOT_USER_ID, BOT_USER_NAME, DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
};
pub use interactions::{
    Callback, FakeInteraction, InteractionKind, InteractionRecord, APP_FLAG_MESSAGE_CONTENT,
    APP_FLAG_MESSAGE_CONTENT_LIMITED,
};
pub use records::{FakeUser, RecordedAttachment, RecordedMessage, RecordedReaction, RequestRecord};
pub use routes::{RateLimitForm, RouteKind};
pub use server::FakeDiscord;
pub use state::IdentifyRecord;
pub use waiting::{within, WaitTimeout};
