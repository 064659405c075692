//! Play over weeks: clocks and reminders ([`pace`]), their log entries ([`meta`]), signups
//! ([`signup`]), durations as players write them ([`duration`]), and what is answered across
//! tables ([`direct`]).

pub mod direct;
pub mod duration;
pub mod meta;
pub mod pace;
pub mod signup;
