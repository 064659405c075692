//! Play over weeks: automa seats ([`automa`]), clocks and reminders ([`pace`]), their log entries ([`events`]) and the state they add up to ([`meta`]), signups
//! ([`signup`]), durations as players write them ([`duration`]), and what is answered across
//! tables ([`direct`]).

pub mod automa;

pub mod duration;
/// The table's own log entries (kept with the log: [`crate::game::events`]).
pub use crate::game::events;
pub mod figures;
pub mod meta;
pub mod pace;
pub(crate) mod preset_book;
pub mod signup;
