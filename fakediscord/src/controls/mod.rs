//! The test's side of the fake: [`FakeDiscord`](crate::FakeDiscord)'s methods, one module per
//! concern (the world it serves, acting as users, inspecting the bot, the gateway sessions,
//! faults). The interactions' controls are in [`crate::interactions`].

mod faults;
mod inspect;
mod sessions;
mod users;
mod world;
