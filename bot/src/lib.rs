//! gaugebot: the moderator of play-by-forum Irish Gauge games.
//!
//! A transport-agnostic table per channel (message in, replies out), durable storage, auditable
//! dice, status reports from templates, the map as a picture, and the adapters (Discord through
//! serenity, and a console table for local play and scripted tests).

pub mod dice;
pub mod map;
