//! The storage the table needs, as a trait: games, their append-only logs, the messages already
//! read, each channel's catch-up cursor, a channel's state outside any game (open signups) and
//! the players' secret presets. The bot implements it (SQLite by default); the core knows no
//! SQL.

use async_trait::async_trait;

/// A storage failure; the command that caused it was not applied.
#[derive(Debug, Clone, thiserror::Error)]
#[error("the game database failed: {0}")]
pub struct StoreError(pub String);

impl StoreError {
    /// A failure described by any error.
    pub fn from_error(error: impl std::fmt::Display) -> StoreError {
        StoreError(error.to_string())
    }
}

/// A game's row.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameRow {
    /// Game id, used in the dice derivation.
    pub id: String,
    /// The channel it is played in.
    pub channel: String,
    /// The game kind (`irish-gauge`, `privates`): which plug-in replays it.
    pub kind: String,
    /// The engine version that started it.
    pub engine_version: String,
    /// When it was set up (RFC 3339).
    pub created_at: String,
    /// Setup JSON (players, the game's setup, dice mode).
    pub setup_json: String,
    /// The secret seed of audited dice.
    pub seed_hex: Option<String>,
    /// The seed's commitment.
    pub commitment: Option<String>,
    /// Whether the seed has been revealed.
    pub revealed: bool,
    /// Whether the game is the channel's current one.
    pub active: bool,
}

/// One log entry with its source message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LogRow {
    /// Position in the game's log, from 0.
    pub seq: i64,
    /// The entry as JSON.
    pub entry_json: String,
    /// The message it came from.
    pub message_id: String,
    /// Who sent it.
    pub author_id: String,
    /// Their name then.
    pub author_name: String,
    /// The message text as first received.
    pub text: String,
    /// When (RFC 3339).
    pub at: String,
}

/// Durable storage of games. Every write is one transaction: all of it or nothing.
#[async_trait]
pub trait Store: Send + Sync + std::fmt::Debug {
    /// The active game of a channel.
    async fn active_game(&self, channel: &str) -> Result<Option<GameRow>, StoreError>;

    /// How many games a channel has had.
    async fn game_count(&self, channel: &str) -> Result<i64, StoreError>;

    /// Channels with an active game, in order.
    async fn active_channels(&self) -> Result<Vec<String>, StoreError>;

    /// Starts a game: retires the channel's previous one and marks the message seen.
    async fn create_game(&self, game: &GameRow, message_id: &str) -> Result<(), StoreError>;

    /// Appends entries to a game's log and marks their message seen; `revealed` also records
    /// that the seed is now public.
    async fn append(
        &self,
        game_id: &str,
        channel: &str,
        rows: &[LogRow],
        message_id: &str,
        revealed: bool,
    ) -> Result<(), StoreError>;

    /// Records that a message was read (a refused command), so a re-delivery is not re-read.
    async fn mark_seen(&self, channel: &str, message_id: &str) -> Result<(), StoreError>;

    /// Whether a message was read before.
    async fn seen(&self, channel: &str, message_id: &str) -> Result<bool, StoreError>;

    /// A game's whole log, in order.
    async fn log(&self, game_id: &str) -> Result<Vec<LogRow>, StoreError>;

    /// The last message processed in a channel.
    async fn cursor(&self, channel: &str) -> Result<Option<String>, StoreError>;

    /// Moves a channel's cursor forward (never back: snowflakes compare as numbers).
    async fn advance_cursor(&self, channel: &str, message_id: &str) -> Result<(), StoreError>;

    /// The message that shows a game's live status (pinned in its channel), if one was posted.
    ///
    /// The default keeps nothing: a store without it makes the adapter post a new status
    /// message after a restart.
    async fn status_message(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        let _ = game_id;
        Ok(None)
    }

    /// Records the message that shows a game's live status.
    async fn set_status_message(&self, game_id: &str, message_id: &str) -> Result<(), StoreError> {
        let _ = (game_id, message_id);
        Ok(())
    }
    /// A channel's table-level state outside any game (open signups, as JSON), if it has one.
    async fn channel_state(&self, channel: &str) -> Result<Option<String>, StoreError>;

    /// Replaces a channel's state (`None` removes it) and marks the message seen, in one
    /// transaction.
    async fn set_channel_state(
        &self,
        channel: &str,
        state: Option<&str>,
        message_id: &str,
    ) -> Result<(), StoreError>;

    /// Channels that have a state, in order.
    async fn state_channels(&self) -> Result<Vec<String>, StoreError>;

    /// A game's secret presets: (player id, that player's presets as JSON), by player id.
    async fn presets(&self, game_id: &str) -> Result<Vec<(String, String)>, StoreError>;

    /// Replaces one player's presets in a game (`None` removes them), in one transaction.
    async fn set_presets(
        &self,
        game_id: &str,
        player_id: &str,
        presets: Option<&str>,
    ) -> Result<(), StoreError>;

    /// Flushes and closes.
    async fn close(&self);

    /// Each channel with an active game and its cursor (`None` before its first message), in
    /// channel order: what a restart compares with the channels' last message ids. Stores
    /// override it with one query; this default asks channel by channel.
    async fn active_cursors(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        let mut out = Vec::new();
        for channel in self.active_channels().await? {
            let cursor = self.cursor(&channel).await?;
            out.push((channel, cursor));
        }
        Ok(out)
    }
}
