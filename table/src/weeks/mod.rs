//! Play over weeks: automa seats ([`automa`]), clocks and reminders ([`pace`]), their log entries ([`events`]) and the state they add up to ([`meta`]), signups
//! ([`signup`]), durations as players write them ([`duration`]), and what is answered across
//! tables ([`direct`]).

pub mod automa;
pub mod direct;
pub mod duration;
pub mod events;
pub mod meta;
pub mod pace;
pub(crate) mod preset_book;
pub mod signup;
