//! The storage the table needs, as a trait: games, their append-only logs, the messages already
//! read, each channel's catch-up cursor, a channel's state outside any game (open signups), the
//! players' secret presets and the outbox (what the adapter is to post, kept until it is
//! delivered). The crate `gaugebot-store` implements it (SQLite by default, or PostgreSQL); the
//! core knows no SQL. With the feature `testing`, [`memory::MemoryStore`] keeps it in memory for
//! tests.
//! Rows cross this boundary typed (times as [`DateTime<Utc>`]) and failures as a [`StoreError`]
//! whose cases say what a caller can do about them.
//!
//! A command's writes are one [`Write`] batch, stored by [`Store::write`] in one transaction
//! together with its outbox item ([`Outgoing`]): the answer to an accepted command is durable
//! with the command, and survives a crash before it is posted.

#[cfg(any(test, feature = "testing"))]
pub mod memory;

use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, SecondsFormat, Utc};

/// The words of a write refused because another process owns the channel now.
pub const NOT_OWNER: &str = "this process no longer owns the channel";

/// The underlying error of a storage failure (the database driver's), kept as the source.
pub type Cause = Arc<dyn std::error::Error + Send + Sync>;

/// A storage failure; the command that caused it was not applied.
#[derive(Debug, Clone, thiserror::Error)]
#[non_exhaustive]
pub enum StoreError {
    /// The database cannot be reached now, or is busy (locked, a connection refused or timed
    /// out, an I/O failure): the same write may succeed later.
    #[error("the game database failed: it is unavailable: {0}")]
    Unavailable(#[source] Cause),
    /// Another process owns the channel now (a database shared by several processes): this
    /// one must leave the channel alone.
    #[error("the game database failed: {NOT_OWNER} {channel}")]
    NotOwner {
        /// The channel written to.
        channel: String,
    },
    /// The write conflicts with what is stored (a game id or log position taken, a row it
    /// refers to missing): nothing of it was written.
    #[error("the game database failed: a conflict with a stored row: {0}")]
    Conflict(#[source] Cause),
    /// The command's message was read before ([`Write::Read`]): nothing of the write was
    /// stored (a message delivered twice is applied once).
    #[error("message {message_id} of channel {channel} was read before")]
    AlreadyRead {
        /// The channel.
        channel: String,
        /// The message.
        message_id: String,
    },
    /// A stored value does not read as what it should be (e.g. a time that is not RFC 3339).
    #[error("the game database failed: a stored row does not read: {0}")]
    Corrupt(String),
    /// Any other failure of the database.
    #[error("the game database failed: {0}")]
    Failed(#[source] Cause),
}

impl StoreError {
    /// Any other failure, from its error.
    pub fn failed(error: impl std::error::Error + Send + Sync + 'static) -> StoreError {
        StoreError::Failed(Arc::new(error))
    }
}

/// A time as the stores keep it: RFC 3339 text in UTC (`2026-01-02T03:04:05Z`, with a fraction
/// of a second only when it has one).
pub fn time_text(at: DateTime<Utc>) -> String {
    at.to_rfc3339_opts(SecondsFormat::AutoSi, true)
}

/// Reads a stored time (RFC 3339 text, any offset).
pub fn read_time(text: &str) -> Result<DateTime<Utc>, StoreError> {
    DateTime::parse_from_rfc3339(text)
        .map(|t| t.with_timezone(&Utc))
        .map_err(|_| StoreError::Corrupt(format!("{text:?} is not an RFC 3339 time")))
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
    /// When it was set up.
    pub created_at: DateTime<Utc>,
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
    /// When it was received.
    pub at: DateTime<Utc>,
}

/// One write of a command; a command's writes are stored together ([`Store::write`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Write {
    /// Marks the command's message read, and fails the whole write with
    /// [`StoreError::AlreadyRead`] if it was read before: the check that a message delivered
    /// twice is applied once, made in the transaction that applies it (the first write of a
    /// command's batch).
    Read {
        /// The channel.
        channel: String,
        /// The message.
        message_id: String,
    },
    /// Starts a game: retires the channel's previous one and marks the message seen.
    CreateGame {
        /// The game's row.
        game: GameRow,
        /// The message that set it up.
        message_id: String,
    },
    /// Appends entries to a game's log and marks their message seen; `revealed` also records
    /// that the seed is now public.
    Append {
        /// The game.
        game_id: String,
        /// Its channel.
        channel: String,
        /// The entries, at the log's next positions.
        rows: Vec<LogRow>,
        /// The message they came from.
        message_id: String,
        /// Whether the seed is revealed with them.
        revealed: bool,
    },
    /// Records that a message was read (a refused command), so a re-delivery is not re-read.
    MarkSeen {
        /// The channel.
        channel: String,
        /// The message.
        message_id: String,
    },
    /// Replaces a channel's state (`None` removes it) and marks the message seen.
    ChannelState {
        /// The channel.
        channel: String,
        /// The state as JSON.
        state: Option<String>,
        /// The message that changed it.
        message_id: String,
    },
    /// Replaces one player's presets in a game (`None` removes them).
    Presets {
        /// The game.
        game_id: String,
        /// The player.
        player_id: String,
        /// Their presets as JSON.
        presets: Option<String>,
    },
    /// Keeps what the adapter is to post until it says it was delivered.
    Outbox(Outgoing),
}

impl Write {
    /// The channel whose table makes this write, when it is one of a table's moves (a database
    /// shared by processes fences those by the channel's owner); presets come by direct
    /// message to any process and are not fenced.
    pub fn channel(&self) -> Option<&str> {
        match self {
            Write::CreateGame { game, .. } => Some(&game.channel),
            Write::Append { channel, .. }
            | Write::Read { channel, .. }
            | Write::MarkSeen { channel, .. }
            | Write::ChannelState { channel, .. } => Some(channel),
            Write::Outbox(out) => Some(&out.channel),
            Write::Presets { .. } => None,
        }
    }
}

/// Something an adapter is to post in a channel (replies, a reaction, a prompt, the pinned
/// status), kept in the store from the moment the command it answers is stored until the
/// adapter has delivered it. The payload is the adapter's own (JSON); the core only keeps it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Outgoing {
    /// The channel it is posted in.
    pub channel: String,
    /// Its key, unique in the channel (the adapter's nonce: a retry after a restart posts
    /// nothing twice).
    pub key: String,
    /// What to post, as the adapter wrote it.
    pub payload: String,
    /// When it was stored.
    pub at: DateTime<Utc>,
}

/// Durable storage of games. Every write is one transaction: all of it or nothing.
///
/// The required core is [`Store::write`] (every write), the reads, and the outbox's
/// [`Store::pending`] and [`Store::delivered`]; the single writes are provided over `write`.
#[async_trait]
pub trait Store: Send + Sync + std::fmt::Debug {
    /// Stores a command's writes in one transaction, in order: all of them or none.
    async fn write(&self, writes: &[Write]) -> Result<(), StoreError>;

    /// The outbox's undelivered items, of one channel or of all, in the order they were
    /// stored.
    async fn pending(&self, channel: Option<&str>) -> Result<Vec<Outgoing>, StoreError>;

    /// Removes an item from the outbox once it is delivered (or can never be).
    async fn delivered(&self, channel: &str, key: &str) -> Result<(), StoreError>;

    /// The active game of a channel.
    async fn active_game(&self, channel: &str) -> Result<Option<GameRow>, StoreError>;

    /// How many games a channel has had.
    async fn game_count(&self, channel: &str) -> Result<i64, StoreError>;

    /// The id of a channel's next game: `<channel>-<n>`, its number after the channel's games,
    /// or the next one free when that id is taken (by a game imported into another channel).
    async fn next_game_id(&self, channel: &str) -> Result<String, StoreError> {
        Ok(format!("{channel}-{}", self.game_count(channel).await? + 1))
    }

    /// Channels with an active game, in order.
    async fn active_channels(&self) -> Result<Vec<String>, StoreError>;

    /// Starts a game: retires the channel's previous one and marks the message seen.
    async fn create_game(&self, game: &GameRow, message_id: &str) -> Result<(), StoreError> {
        self.write(&[Write::CreateGame {
            game: game.clone(),
            message_id: message_id.to_string(),
        }])
        .await
    }

    /// Appends entries to a game's log and marks their message seen; `revealed` also records
    /// that the seed is now public.
    async fn append(
        &self,
        game_id: &str,
        channel: &str,
        rows: &[LogRow],
        message_id: &str,
        revealed: bool,
    ) -> Result<(), StoreError> {
        self.write(&[Write::Append {
            game_id: game_id.to_string(),
            channel: channel.to_string(),
            rows: rows.to_vec(),
            message_id: message_id.to_string(),
            revealed,
        }])
        .await
    }

    /// Records that a message was read (a refused command), so a re-delivery is not re-read.
    async fn mark_seen(&self, channel: &str, message_id: &str) -> Result<(), StoreError> {
        self.write(&[Write::MarkSeen {
            channel: channel.to_string(),
            message_id: message_id.to_string(),
        }])
        .await
    }

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
    /// The token of a game's web page (its secret address): the stored one, else `fresh`,
    /// stored now. `None` from a store that keeps no pages (the default).
    async fn page_token(&self, game_id: &str, fresh: &str) -> Result<Option<String>, StoreError> {
        let _ = (game_id, fresh);
        Ok(None)
    }

    /// The game whose web page has this token (any game, active or not).
    async fn game_of_page(&self, token: &str) -> Result<Option<GameRow>, StoreError> {
        let _ = token;
        Ok(None)
    }

    /// A game by its id, active or not (the default knows none).
    async fn game(&self, game_id: &str) -> Result<Option<GameRow>, StoreError> {
        let _ = game_id;
        Ok(None)
    }

    /// Every game, active or not, in the order they were created (the default knows none).
    async fn games(&self) -> Result<Vec<GameRow>, StoreError> {
        Ok(Vec::new())
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
    ) -> Result<(), StoreError> {
        self.write(&[Write::ChannelState {
            channel: channel.to_string(),
            state: state.map(str::to_string),
            message_id: message_id.to_string(),
        }])
        .await
    }

    /// Channels that have a state, in order.
    async fn state_channels(&self) -> Result<Vec<String>, StoreError>;

    /// A game's secret presets: (player id, that player's presets as JSON), by player id.
    async fn presets(&self, game_id: &str) -> Result<Vec<(String, String)>, StoreError>;

    /// Replaces one player's presets in a game (`None` removes them), in one transaction (not
    /// fenced by a channel's owner: see [`Write::channel`]).
    async fn set_presets(
        &self,
        game_id: &str,
        player_id: &str,
        presets: Option<&str>,
    ) -> Result<(), StoreError> {
        self.write(&[Write::Presets {
            game_id: game_id.to_string(),
            player_id: player_id.to_string(),
            presets: presets.map(str::to_string),
        }])
        .await
    }

    /// How turn pings reach a player besides the channel (`dm`), if they chose (`!notify`).
    ///
    /// The default keeps nothing: a store without it pings in the channel only.
    async fn notify_mode(&self, player_id: &str) -> Result<Option<String>, StoreError> {
        let _ = player_id;
        Ok(None)
    }

    /// Records a player's choice (`None`: pings in the channel only), in one transaction (not
    /// fenced: it is no channel's).
    async fn set_notify_mode(&self, player_id: &str, mode: Option<&str>) -> Result<(), StoreError> {
        let _ = (player_id, mode);
        Ok(())
    }

    /// The server (community) of each channel the transport named one for: (channel, server),
    /// by channel. The default knows none.
    async fn channel_servers(&self) -> Result<Vec<(String, String)>, StoreError> {
        Ok(Vec::new())
    }

    /// Records the server of a channel (a second write replaces the first), in one transaction
    /// (not fenced: it is a fact about the channel, not a move of its table).
    async fn set_channel_server(&self, channel: &str, server: &str) -> Result<(), StoreError> {
        let _ = (channel, server);
        Ok(())
    }

    /// The token of a server's standings page (its secret address): the stored one, else
    /// `fresh`, stored now. `None` from a store that keeps no pages (the default).
    async fn standings_token(
        &self,
        server: &str,
        fresh: &str,
    ) -> Result<Option<String>, StoreError> {
        let _ = (server, fresh);
        Ok(None)
    }

    /// The server whose standings page has this token.
    async fn server_of_standings(&self, token: &str) -> Result<Option<String>, StoreError> {
        let _ = token;
        Ok(None)
    }

    /// Flushes and closes.
    async fn close(&self);

    /// Whether this process is the only one that writes to the database (SQLite: one
    /// process, one connection). A table may then keep what it wrote in memory (the presets)
    /// instead of reading it back before each decision. False (the default) for a database
    /// that several processes share.
    fn sole_writer(&self) -> bool {
        false
    }

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
