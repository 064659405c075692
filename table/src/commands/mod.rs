//! The `!`-commands of the table and the one registry they are routed by.

mod basic;
pub mod registry;
pub mod setup;
mod weeks;
