//! The table core's [`Store`] over SQL, written once for both databases: [`SqlStore`] turns
//! each batch of writes into the shared query layer's statements ([`queries::Statement`]) and
//! leaves to its [`Backend`] only what truly differs between them: how a write transaction
//! runs (a SQLite file's write connection on the calling thread, and SQLite's recovery from a
//! failure; PostgreSQL's fencing of a channel's writes by its owner), and closing.

pub mod queries;

use std::fmt::Debug;
use std::ops::DerefMut;
use std::sync::Arc;

use async_trait::async_trait;
use gaugebot_table::store::{GameRow, LogRow, Outgoing, Store, StoreError, Write};
use sqlx::pool::PoolConnection;
use sqlx::{Database, Pool};

use queries::{failed, Copied, Dump, GameRecord, LogRecord, OutboxRecord, Queries, Statement};

/// What one database does its own way: its transactions, locking and fencing.
#[async_trait]
pub trait Backend: Send + Sync + Debug + Sized + 'static {
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

    /// Runs `statements` as one write transaction, in order: all of them or none (the first
    /// that fails is the error, as [`Statement::error`] maps it). `channel` as for
    /// [`begin`](Self::begin). By default [`run_each`]: begin, each statement, finish.
    async fn run(&self, channel: Option<&str>, statements: &[Statement]) -> Result<(), StoreError> {
        run_each(self, channel, statements).await
    }

    /// Closes the database (what a process holds in it included).
    async fn close(&self);

    /// Whether this process is the database's only writer ([`Store::sole_writer`]).
    fn sole_writer(&self) -> bool {
        false
    }
}

/// Runs `statements` as one write transaction, one after the other: [`Backend::begin`], each
/// statement until one fails, [`Backend::finish`].
pub async fn run_each<B: Backend>(
    backend: &B,
    channel: Option<&str>,
    statements: &[Statement],
) -> Result<(), StoreError> {
    let mut tx = backend.begin(channel).await?;
    let mut result = Ok(());
    for statement in statements {
        result = B::Db::execute(&mut tx, statement).await;
        if result.is_err() {
            break;
        }
    }
    backend.finish(tx, result).await
}

/// A batch of writes as the statements that store it, in order. A message is marked read once
/// per batch (a command's message is marked by its first write that marks it: one statement
/// less on the way to its reply); the read mark of [`Write::Read`] is the statement that
/// refuses a message read before ([`Statement::first_read`]).
fn statements(writes: &[Write]) -> Vec<Statement> {
    let mut plan = Plan::default();
    for write in writes {
        plan.add(write);
    }
    plan.statements
}

/// The statements of a batch so far, and the messages they mark read.
#[derive(Default)]
struct Plan<'w> {
    statements: Vec<Statement>,
    marked: Vec<(&'w str, &'w str)>,
}

impl<'w> Plan<'w> {
    /// Marks a message read, unless this batch marked it already.
    fn mark(&mut self, channel: &'w str, message_id: &'w str) {
        if !self.marked.contains(&(channel, message_id)) {
            self.statements
                .push(Statement::mark_seen(channel, message_id));
            self.marked.push((channel, message_id));
        }
    }

    fn add(&mut self, write: &'w Write) {
        match write {
            Write::CreateGame { game, message_id } => {
                let record = GameRecord {
                    active: true,
                    ..GameRecord::from(game)
                };
                self.statements.push(Statement::retire_games(&game.channel));
                self.statements.push(Statement::insert_game(record));
                self.mark(&game.channel, message_id);
            }
            Write::Append {
                game_id,
                channel,
                rows,
                message_id,
                revealed,
            } => {
                for row in rows {
                    self.statements
                        .push(Statement::insert_log(game_id, LogRecord::from(row)));
                }
                if *revealed {
                    self.statements.push(Statement::reveal(game_id));
                }
                self.mark(channel, message_id);
            }
            Write::Read {
                channel,
                message_id,
            } => {
                self.statements
                    .push(Statement::first_read(channel, message_id));
                self.marked.push((channel, message_id));
            }
            Write::MarkSeen {
                channel,
                message_id,
            } => self.mark(channel, message_id),
            Write::ChannelState {
                channel,
                state,
                message_id,
            } => {
                self.statements
                    .push(Statement::set_channel_state(channel, state.as_deref()));
                self.mark(channel, message_id);
            }
            Write::Presets {
                game_id,
                player_id,
                presets,
            } => self.statements.push(Statement::set_presets(
                game_id,
                player_id,
                presets.as_deref(),
            )),
            Write::Outbox(item) => self
                .statements
                .push(Statement::insert_outbox(OutboxRecord::from(item))),
        }
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
        let mut statements = Vec::with_capacity(rows.len() + 3);
        statements.push(Statement::retire_games(&game.channel));
        statements.push(Statement::insert_game(record));
        for row in rows {
            statements.push(Statement::insert_log(&game.id, LogRecord::from(row)));
        }
        statements.push(Statement::mark_seen(&game.channel, message_id));
        self.backend.run(Some(&game.channel), &statements).await
    }
}

#[async_trait]
impl<B: Backend> Store for SqlStore<B> {
    /// One transaction, fenced by the owner of the first write's channel (a batch of presets
    /// alone is not fenced: they come by direct message, to whichever process reads it).
    #[tracing::instrument(
        target = "hop",
        level = "trace",
        skip_all,
        fields(milestone = "stored")
    )]
    async fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        if writes.is_empty() {
            return Ok(());
        }
        let channel = writes.iter().find_map(Write::channel);
        self.backend.run(channel, &statements(writes)).await
    }

    async fn pending(&self, channel: Option<&str>) -> Result<Vec<Outgoing>, StoreError> {
        let records = B::Db::outbox(&mut *self.read().await?, channel).await?;
        records.into_iter().map(Outgoing::try_from).collect()
    }

    /// Not fenced: the item was delivered, whoever owns the channel now.
    async fn delivered(&self, channel: &str, key: &str) -> Result<(), StoreError> {
        self.backend
            .run(None, &[Statement::remove_outbox(channel, key)])
            .await
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
        self.backend
            .run(
                Some(channel),
                &[Statement::advance_cursor(channel, message_id)],
            )
            .await
    }

    async fn status_message(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        B::Db::status_message(&mut *self.read().await?, game_id).await
    }

    async fn set_status_message(&self, game_id: &str, message_id: &str) -> Result<(), StoreError> {
        self.backend
            .run(None, &[Statement::set_status_message(game_id, message_id)])
            .await
    }

    async fn page_token(&self, game_id: &str, fresh: &str) -> Result<Option<String>, StoreError> {
        if let Some(token) = B::Db::page_token(&mut *self.read().await?, game_id).await? {
            return Ok(Some(token));
        }
        self.backend
            .run(None, &[Statement::set_page_token(game_id, fresh)])
            .await?;
        B::Db::page_token(&mut *self.read().await?, game_id).await
    }

    async fn game_of_page(&self, token: &str) -> Result<Option<GameRow>, StoreError> {
        B::Db::game_of_page(&mut *self.read().await?, token)
            .await?
            .map(GameRow::try_from)
            .transpose()
    }

    async fn game(&self, game_id: &str) -> Result<Option<GameRow>, StoreError> {
        B::Db::game(&mut *self.read().await?, game_id)
            .await?
            .map(GameRow::try_from)
            .transpose()
    }

    async fn games(&self) -> Result<Vec<GameRow>, StoreError> {
        let records = B::Db::games(&mut *self.read().await?).await?;
        records.into_iter().map(GameRow::try_from).collect()
    }

    async fn channel_state(&self, channel: &str) -> Result<Option<String>, StoreError> {
        B::Db::channel_state(&mut *self.read().await?, channel).await
    }

    async fn notify_mode(&self, player_id: &str) -> Result<Option<String>, StoreError> {
        B::Db::notify_mode(&mut *self.read().await?, player_id).await
    }

    async fn set_notify_mode(&self, player_id: &str, mode: Option<&str>) -> Result<(), StoreError> {
        self.backend
            .run(None, &[Statement::set_notify(player_id, mode)])
            .await
    }

    async fn channel_servers(&self) -> Result<Vec<(String, String)>, StoreError> {
        B::Db::channel_servers(&mut *self.read().await?).await
    }

    async fn set_channel_server(&self, channel: &str, server: &str) -> Result<(), StoreError> {
        self.backend
            .run(None, &[Statement::set_channel_server(channel, server)])
            .await
    }

    async fn standings_token(
        &self,
        server: &str,
        fresh: &str,
    ) -> Result<Option<String>, StoreError> {
        if let Some(token) = B::Db::standings_token(&mut *self.read().await?, server).await? {
            return Ok(Some(token));
        }
        self.backend
            .run(None, &[Statement::set_standings_token(server, fresh)])
            .await?;
        B::Db::standings_token(&mut *self.read().await?, server).await
    }

    async fn server_of_standings(&self, token: &str) -> Result<Option<String>, StoreError> {
        B::Db::server_of_standings(&mut *self.read().await?, token).await
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
