//! The table core's [`Store`] over SQL, written once for both databases: [`SqlStore`] runs the
//! shared queries ([`queries`]) and leaves to its [`Backend`] only what truly differs between
//! them: how a write transaction begins and ends (SQLite's `BEGIN IMMEDIATE` and its recovery
//! from a failed commit; PostgreSQL's fencing of a channel's writes by its owner), and closing.

pub mod queries;

use std::fmt::Debug;
use std::ops::DerefMut;
use std::sync::Arc;

use async_trait::async_trait;
use gaugebot_table::store::{GameRow, LogRow, Outgoing, Store, StoreError, Write};
use sqlx::pool::PoolConnection;
use sqlx::{Database, Pool};

use queries::{failed, Copied, Dump, GameRecord, LogRecord, OutboxRecord, Queries};

/// What one database does its own way: its transactions, locking and fencing.
#[async_trait]
pub trait Backend: Send + Sync + Debug + 'static {
    /// The database, which runs the shared queries.
    type Db: Queries;
    /// An open write transaction: a connection inside it.
    type Tx: DerefMut<Target = <Self::Db as Database>::Connection> + Send;

    /// The connection pool (reads take a connection from it).
    fn pool(&self) -> &Pool<Self::Db>;

    /// Begins a write transaction. `channel` is the channel whose table writes, when the
    /// write is one of its moves: a database shared by processes refuses it
    /// ([`StoreError::NotOwner`]) unless this process owns the channel.
    async fn begin(&self, channel: Option<&str>) -> Result<Self::Tx, StoreError>;

    /// Commits the transaction if `result` is Ok, else rolls it back; the result of both.
    async fn finish(&self, tx: Self::Tx, result: Result<(), StoreError>) -> Result<(), StoreError>;

    /// Closes the database (what a process holds in it included).
    async fn close(&self);

    /// Whether this process is the database's only writer ([`Store::sole_writer`]).
    fn sole_writer(&self) -> bool {
        false
    }
}

/// A store on a SQL database: the one implementation of [`Store`] for both.
#[derive(Debug, Clone)]
pub struct SqlStore<B> {
    pub(crate) backend: B,
}

impl<B: Backend + Clone> SqlStore<B> {
    /// The store as the table core takes it.
    pub fn shared(&self) -> Arc<dyn Store> {
        Arc::new(self.clone())
    }
}

impl<B: Backend> SqlStore<B> {
    /// A connection for reading.
    async fn read(&self) -> Result<PoolConnection<B::Db>, StoreError> {
        self.backend.pool().acquire().await.map_err(failed)
    }

    /// The whole database, in insertion order (`gaugebot migrate` and its checks).
    pub async fn export(&self) -> Result<Dump, StoreError> {
        B::Db::export(&mut *self.read().await?).await
    }

    /// Copies a whole database into this one, verbatim, in one transaction: all of it or
    /// nothing. Refused unless every table of the bot's data is empty.
    pub async fn import(
        &self,
        dump: &Dump,
        progress: &mut (dyn FnMut(Copied) + Send),
    ) -> Result<(), StoreError> {
        let mut tx = self.backend.begin(None).await?;
        let result = B::Db::import(&mut tx, dump, progress).await;
        self.backend.finish(tx, result).await
    }

    /// The rows of each table of the bot's data ([`queries::TABLES`]).
    pub async fn row_counts(&self) -> Result<Vec<(&'static str, i64)>, StoreError> {
        B::Db::row_counts(&mut *self.read().await?).await
    }

    /// Every table of the schema, as the database's catalogue lists them.
    pub async fn tables(&self) -> Result<Vec<String>, StoreError> {
        B::Db::tables(&mut *self.read().await?).await
    }

    /// Whether a game with this id is stored, in any channel.
    pub async fn game_exists(&self, game_id: &str) -> Result<bool, StoreError> {
        B::Db::game_exists(&mut *self.read().await?, game_id).await
    }

    /// Stores an imported game with its whole log as the active game of its channel, in one
    /// transaction (`message_id` is marked read). Refused ([`StoreError::Conflict`]) when a
    /// game with its id is stored already.
    pub async fn insert_game_with_log(
        &self,
        game: &GameRow,
        rows: &[LogRow],
        message_id: &str,
    ) -> Result<(), StoreError> {
        let record = GameRecord {
            active: true,
            ..GameRecord::from(game)
        };
        let mut tx = self.backend.begin(Some(&game.channel)).await?;
        let result = async {
            B::Db::retire_games(&mut tx, &record.channel).await?;
            B::Db::insert_game(&mut tx, &record).await?;
            for row in rows {
                B::Db::insert_log(&mut tx, &record.id, &LogRecord::from(row)).await?;
            }
            B::Db::mark_seen(&mut tx, &record.channel, message_id).await
        }
        .await;
        self.backend.finish(tx, result).await
    }
}

impl<B: Backend> SqlStore<B> {
    /// Marks a message read inside the transaction, unless this batch marked it already (a
    /// command's message is marked once: one statement less on the way to its reply).
    async fn mark(
        tx: &mut B::Tx,
        marked: &mut Vec<(String, String)>,
        channel: &str,
        message_id: &str,
    ) -> Result<(), StoreError> {
        if marked.iter().any(|(c, m)| c == channel && m == message_id) {
            return Ok(());
        }
        B::Db::mark_seen(tx, channel, message_id).await?;
        marked.push((channel.to_string(), message_id.to_string()));
        Ok(())
    }

    /// Applies one write inside the command's transaction (`marked`: the messages this batch
    /// has marked read so far).
    async fn apply(
        tx: &mut B::Tx,
        marked: &mut Vec<(String, String)>,
        write: &Write,
    ) -> Result<(), StoreError> {
        match write {
            Write::CreateGame { game, message_id } => {
                let record = GameRecord {
                    active: true,
                    ..GameRecord::from(game)
                };
                B::Db::retire_games(tx, &record.channel).await?;
                B::Db::insert_game(tx, &record).await?;
                Self::mark(tx, marked, &record.channel, message_id).await
            }
            Write::Append {
                game_id,
                channel,
                rows,
                message_id,
                revealed,
            } => {
                for row in rows {
                    B::Db::insert_log(tx, game_id, &LogRecord::from(row)).await?;
                }
                if *revealed {
                    B::Db::reveal(tx, game_id).await?;
                }
                Self::mark(tx, marked, channel, message_id).await
            }
            Write::Read {
                channel,
                message_id,
            } => match B::Db::mark_first_read(tx, channel, message_id).await? {
                true => {
                    marked.push((channel.clone(), message_id.clone()));
                    Ok(())
                }
                false => Err(StoreError::AlreadyRead {
                    channel: channel.clone(),
                    message_id: message_id.clone(),
                }),
            },
            Write::MarkSeen {
                channel,
                message_id,
            } => Self::mark(tx, marked, channel, message_id).await,
            Write::ChannelState {
                channel,
                state,
                message_id,
            } => {
                B::Db::set_channel_state(tx, channel, state.as_deref()).await?;
                Self::mark(tx, marked, channel, message_id).await
            }
            Write::Presets {
                game_id,
                player_id,
                presets,
            } => B::Db::set_presets(tx, game_id, player_id, presets.as_deref()).await,
            Write::Outbox(item) => B::Db::insert_outbox(tx, &OutboxRecord::from(item)).await,
        }
    }
}

#[async_trait]
impl<B: Backend> Store for SqlStore<B> {
    /// One transaction, fenced by the owner of the first write's channel (a batch of presets
    /// alone is not fenced: they come by direct message, to whichever process reads it).
    async fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        let channel = writes.iter().find_map(Write::channel);
        let mut tx = self.backend.begin(channel).await?;
        let result = async {
            let mut marked = Vec::new();
            for write in writes {
                Self::apply(&mut tx, &mut marked, write).await?;
            }
            Ok(())
        }
        .await;
        self.backend.finish(tx, result).await
    }

    async fn pending(&self, channel: Option<&str>) -> Result<Vec<Outgoing>, StoreError> {
        let records = B::Db::outbox(&mut *self.read().await?, channel).await?;
        records.into_iter().map(Outgoing::try_from).collect()
    }

    /// Not fenced: the item was delivered, whoever owns the channel now.
    async fn delivered(&self, channel: &str, key: &str) -> Result<(), StoreError> {
        let mut tx = self.backend.begin(None).await?;
        let result = B::Db::remove_outbox(&mut tx, channel, key).await;
        self.backend.finish(tx, result).await
    }

    async fn active_game(&self, channel: &str) -> Result<Option<GameRow>, StoreError> {
        let mut conn = self.read().await?;
        B::Db::active_game(&mut conn, channel)
            .await?
            .map(GameRow::try_from)
            .transpose()
    }

    async fn game_count(&self, channel: &str) -> Result<i64, StoreError> {
        B::Db::game_count(&mut *self.read().await?, channel).await
    }

    async fn next_game_id(&self, channel: &str) -> Result<String, StoreError> {
        let mut conn = self.read().await?;
        let mut n = B::Db::game_count(&mut conn, channel).await? + 1;
        loop {
            let id = format!("{channel}-{n}");
            if !B::Db::game_exists(&mut conn, &id).await? {
                return Ok(id);
            }
            n += 1;
        }
    }

    async fn active_channels(&self) -> Result<Vec<String>, StoreError> {
        B::Db::active_channels(&mut *self.read().await?).await
    }

    async fn seen(&self, channel: &str, message_id: &str) -> Result<bool, StoreError> {
        B::Db::seen(&mut *self.read().await?, channel, message_id).await
    }

    async fn log(&self, game_id: &str) -> Result<Vec<LogRow>, StoreError> {
        let records = B::Db::log(&mut *self.read().await?, game_id).await?;
        records.into_iter().map(LogRow::try_from).collect()
    }

    async fn cursor(&self, channel: &str) -> Result<Option<String>, StoreError> {
        B::Db::cursor(&mut *self.read().await?, channel).await
    }

    async fn advance_cursor(&self, channel: &str, message_id: &str) -> Result<(), StoreError> {
        let mut tx = self.backend.begin(Some(channel)).await?;
        let result = B::Db::advance_cursor(&mut tx, channel, message_id).await;
        self.backend.finish(tx, result).await
    }

    async fn status_message(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        B::Db::status_message(&mut *self.read().await?, game_id).await
    }

    async fn set_status_message(&self, game_id: &str, message_id: &str) -> Result<(), StoreError> {
        let mut tx = self.backend.begin(None).await?;
        let result = B::Db::set_status_message(&mut tx, game_id, message_id).await;
        self.backend.finish(tx, result).await
    }

    async fn channel_state(&self, channel: &str) -> Result<Option<String>, StoreError> {
        B::Db::channel_state(&mut *self.read().await?, channel).await
    }

    async fn state_channels(&self) -> Result<Vec<String>, StoreError> {
        B::Db::state_channels(&mut *self.read().await?).await
    }

    async fn presets(&self, game_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        B::Db::presets(&mut *self.read().await?, game_id).await
    }

    async fn close(&self) {
        self.backend.close().await;
    }

    fn sole_writer(&self) -> bool {
        self.backend.sole_writer()
    }

    async fn active_cursors(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        B::Db::active_cursors(&mut *self.read().await?).await
    }
}
