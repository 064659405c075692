//! The ownership of channels' tables among bot processes sharing a database: one process at a
//! time applies a channel's messages. A SQLite database has one process ([`SoleOwner`]); a
//! PostgreSQL store shared by processes implements [`Owners`] itself.

use async_trait::async_trait;
use gaugebot_table::store::StoreError;

/// The outcome of claiming a channel.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Claim {
    /// The channel was already this process's.
    Mine,
    /// The channel is this process's from now on: it was free, or its owner is gone. What the
    /// old owner stored is all committed; the table must be loaded afresh and the channel
    /// caught up from its stored cursor.
    New,
    /// Another live process owns the channel: leave its messages alone.
    Other,
}

/// The ownership of channels' tables among bot processes sharing a database: one process at a
/// time applies a channel's messages.
#[async_trait]
pub trait Owners: Send + Sync {
    /// Claims a channel (of `guild`, when known) for this process.
    async fn claim(&self, channel: &str, guild: Option<&str>) -> Result<Claim, StoreError>;

    /// Whether the channel is still this process's (asked after a refused write).
    async fn holds(&self, channel: &str) -> Result<bool, StoreError>;

    /// Channels with an active game whose owner is gone, with their guild when known: what a
    /// surviving process takes over.
    async fn orphans(&self) -> Result<Vec<(String, Option<String>)>, StoreError>;

    /// Whether other processes may share the database (ownership is checked at all).
    fn shared(&self) -> bool {
        true
    }
}

/// The only process of a SQLite database: owns every channel.
#[derive(Debug, Clone, Copy)]
pub struct SoleOwner;

#[async_trait]
impl Owners for SoleOwner {
    async fn claim(&self, _channel: &str, _guild: Option<&str>) -> Result<Claim, StoreError> {
        Ok(Claim::Mine)
    }

    async fn holds(&self, _channel: &str) -> Result<bool, StoreError> {
        Ok(true)
    }

    async fn orphans(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        Ok(Vec::new())
    }

    fn shared(&self) -> bool {
        false
    }
}
