//! gaugebot: the moderator of play-by-forum Irish Gauge games.
//!
//! A transport-agnostic [`table::Table`] per channel (message in, replies out), durable
//! [`storage`], auditable [`dice`], status reports from templates ([`report`]), the map as a
//! picture ([`map`]), and the adapters: Discord through serenity and a console table
//! ([`console`]) for local play and scripted tests.

pub mod config;
pub mod console;
pub mod dice;
pub mod discord;
pub mod dump;
pub mod extract;
pub mod history;
pub mod map;
pub mod report;
pub mod storage;
pub mod table;
pub mod tables;
