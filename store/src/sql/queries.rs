//! The query layer of both stores: every query's SQL written once (with `$N` placeholders, which
//! SQLite reads too), its rows read with `sqlx::FromRow`, generic over the database. The one
//! thing the two databases spell differently here is the column that orders games as they were
//! inserted ([`Dialect::INSERTION_ORDER`]); lists of channels and messages are put in byte order
//! here, not by the database's collation.
//!
//! Rows are read and written as stored ([`GameRecord`], [`LogRecord`]: times as their text) and
//! converted to and from the table core's typed rows at the store's boundary, so that a copy
//! between databases (`gaugebot migrate`) is verbatim.

use async_trait::async_trait;
use gaugebot_table::store::{read_time, time_text, GameRow, LogRow, Outgoing, StoreError};
use sqlx::{Database, Encode, Executor, FromRow, IntoArguments, Type};

/// A game's row as stored.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct GameRecord {
    /// Game id.
    pub id: String,
    /// Its channel.
    pub channel: String,
    /// Its game kind.
    pub kind: String,
    /// The engine version that started it.
    pub engine_version: String,
    /// When it was set up: RFC 3339 text.
    pub created_at: String,
    /// Setup JSON.
    pub setup_json: String,
    /// The secret seed of audited dice.
    pub seed_hex: Option<String>,
    /// The seed's commitment.
    pub commitment: Option<String>,
    /// Whether the seed has been revealed.
    pub revealed: bool,
    /// Whether it is the channel's current game.
    pub active: bool,
}

/// One log entry as stored.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct LogRecord {
    /// Position in the game's log.
    pub seq: i64,
    /// The entry as JSON.
    pub entry_json: String,
    /// The message it came from.
    pub message_id: String,
    /// Who sent it.
    pub author_id: String,
    /// Their name then.
    pub author_name: String,
    /// The message text.
    pub text: String,
    /// When: RFC 3339 text.
    pub at: String,
}

/// An outbox item as stored.
#[derive(Debug, Clone, PartialEq, Eq, FromRow)]
pub struct OutboxRecord {
    /// The channel it is posted in.
    pub channel: String,
    /// Its key (the adapter's nonce), unique in the channel.
    pub key: String,
    /// What to post, as the adapter wrote it.
    pub payload: String,
    /// When it was stored: RFC 3339 text.
    pub at: String,
}

impl TryFrom<OutboxRecord> for Outgoing {
    type Error = StoreError;

    fn try_from(r: OutboxRecord) -> Result<Outgoing, StoreError> {
        Ok(Outgoing {
            at: read_time(&r.at)?,
            channel: r.channel,
            key: r.key,
            payload: r.payload,
        })
    }
}

impl From<&Outgoing> for OutboxRecord {
    fn from(o: &Outgoing) -> OutboxRecord {
        OutboxRecord {
            channel: o.channel.clone(),
            key: o.key.clone(),
            payload: o.payload.clone(),
            at: time_text(o.at),
        }
    }
}

/// A log entry with its game's id, as a whole-database export reads it.
#[derive(Debug, Clone, FromRow)]
pub struct GameLogRecord {
    /// The game's id.
    pub game_id: String,
    /// The entry.
    #[sqlx(flatten)]
    pub row: LogRecord,
}

impl TryFrom<GameRecord> for GameRow {
    type Error = StoreError;

    fn try_from(r: GameRecord) -> Result<GameRow, StoreError> {
        Ok(GameRow {
            created_at: read_time(&r.created_at)?,
            id: r.id,
            channel: r.channel,
            kind: r.kind,
            engine_version: r.engine_version,
            setup_json: r.setup_json,
            seed_hex: r.seed_hex,
            commitment: r.commitment,
            revealed: r.revealed,
            active: r.active,
        })
    }
}

impl From<&GameRow> for GameRecord {
    fn from(g: &GameRow) -> GameRecord {
        GameRecord {
            id: g.id.clone(),
            channel: g.channel.clone(),
            kind: g.kind.clone(),
            engine_version: g.engine_version.clone(),
            created_at: time_text(g.created_at),
            setup_json: g.setup_json.clone(),
            seed_hex: g.seed_hex.clone(),
            commitment: g.commitment.clone(),
            revealed: g.revealed,
            active: g.active,
        }
    }
}

impl TryFrom<LogRecord> for LogRow {
    type Error = StoreError;

    fn try_from(r: LogRecord) -> Result<LogRow, StoreError> {
        Ok(LogRow {
            at: read_time(&r.at)?,
            seq: r.seq,
            entry_json: r.entry_json,
            message_id: r.message_id,
            author_id: r.author_id,
            author_name: r.author_name,
            text: r.text,
        })
    }
}

impl From<&LogRow> for LogRecord {
    fn from(r: &LogRow) -> LogRecord {
        LogRecord {
            seq: r.seq,
            entry_json: r.entry_json.clone(),
            message_id: r.message_id.clone(),
            author_id: r.author_id.clone(),
            author_name: r.author_name.clone(),
            text: r.text.clone(),
            at: time_text(r.at),
        }
    }
}

/// A whole database as stored rows, in insertion order (`gaugebot migrate` and its check).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Dump {
    /// Every game, active or not.
    pub games: Vec<GameRecord>,
    /// Every log entry, with its game id, by game then position.
    pub logs: Vec<(String, LogRecord)>,
    /// Every message already read: (channel, message id).
    pub seen: Vec<(String, String)>,
    /// Every channel's cursor: (channel, message id).
    pub cursors: Vec<(String, String)>,
    /// Every channel's state outside a game (open signups): (channel, JSON).
    pub states: Vec<(String, String)>,
    /// Every player's secret presets: (game id, player id, JSON).
    pub presets: Vec<(String, String, String)>,
    /// Every game's live (pinned) status message: (game id, message id).
    pub status: Vec<(String, String)>,
    /// The outbox's undelivered items, in the order they were stored.
    pub outbox: Vec<OutboxRecord>,
    /// Every game's web page token: (game id, token).
    pub pages: Vec<(String, String)>,
    /// Every player's choice of turn pings by direct message: (player id, mode).
    pub notify: Vec<(String, String)>,
    /// Every channel's server: (channel, server).
    pub servers: Vec<(String, String)>,
    /// Every server's standings page token: (server, token).
    pub standings_pages: Vec<(String, String)>,
}

impl Dump {
    /// The rows of each table, by the table's name, in [`TABLES`]' order.
    pub fn counts(&self) -> Vec<(&'static str, usize)> {
        let counts = [
            self.games.len(),
            self.logs.len(),
            self.seen.len(),
            self.cursors.len(),
            self.states.len(),
            self.presets.len(),
            self.status.len(),
            self.outbox.len(),
            self.pages.len(),
            self.notify.len(),
            self.servers.len(),
            self.standings_pages.len(),
        ];
        TABLES.iter().copied().zip(counts).collect()
    }
}

/// Every table of the schema that holds the bot's data, as [`Dump`] carries them (a table
/// added to the schema must be added here and to [`Dump`], or `gaugebot migrate` refuses to
/// run: it will not leave a table behind). PostgreSQL's `channel_owners` is not data: which
/// process owns a channel is decided anew by the processes on the new database.
pub const TABLES: [&str; 12] = [
    "games",
    "log",
    "seen_messages",
    "channel_cursor",
    "channel_state",
    "presets",
    "status_message",
    "outbox",
    "game_pages",
    "notify",
    "channel_servers",
    "standings_pages",
];

/// Tables of a schema that are not the bot's data: the migrations' own bookkeeping, the
/// ownership of channels between processes and their leases.
pub const NOT_DATA: [&str; 3] = ["_sqlx_migrations", "channel_owners", "process_leases"];

/// An import into a database that has data already.
#[derive(Debug, thiserror::Error)]
#[error("the target database already has {rows} rows in {table}; migrate into an empty one")]
pub struct NotEmpty {
    /// The first table with rows.
    pub table: String,
    /// Its rows.
    pub rows: i64,
}

/// A database error as the table core sees it: what a caller can act on, the error kept as
/// the source.
pub fn failed(error: sqlx::Error) -> StoreError {
    use sqlx::error::ErrorKind;
    let kind = match &error {
        sqlx::Error::Database(db) => match db.kind() {
            ErrorKind::UniqueViolation
            | ErrorKind::ForeignKeyViolation
            | ErrorKind::NotNullViolation
            | ErrorKind::CheckViolation => Kind::Conflict,
            _ => db.code().map_or(Kind::Failed, |code| by_code(&code)),
        },
        sqlx::Error::Io(_)
        | sqlx::Error::Tls(_)
        | sqlx::Error::PoolTimedOut
        | sqlx::Error::PoolClosed
        | sqlx::Error::WorkerCrashed => Kind::Unavailable,
        sqlx::Error::ColumnDecode { .. } | sqlx::Error::Decode(_) => Kind::Corrupt,
        _ => Kind::Failed,
    };
    kind.of(error)
}

/// A SQLite error with the (extended) result code `code`, as [`failed`] sees sqlx's: a
/// constraint refuses (a conflict), the rest by [`by_code`] (for the write connection,
/// `crate::sqlite_writer`).
pub fn sqlite_failed(
    code: i32,
    error: impl std::error::Error + Send + Sync + 'static,
) -> StoreError {
    const CONSTRAINT: i32 = 19;
    let kind = match code & 0xff {
        CONSTRAINT => Kind::Conflict,
        _ => by_code(&code.to_string()),
    };
    kind.of(error)
}

enum Kind {
    Unavailable,
    Conflict,
    Corrupt,
    Failed,
}

impl Kind {
    /// The store's error of this kind, `error` kept as its source.
    /// A transient one is noted for the task that met it ([`crate::faults`]).
    fn of(self, error: impl std::error::Error + Send + Sync + 'static) -> StoreError {
        let error = match self {
            Kind::Unavailable => StoreError::Unavailable(std::sync::Arc::new(error)),
            Kind::Conflict => StoreError::Conflict(std::sync::Arc::new(error)),
            Kind::Corrupt => StoreError::Corrupt(error.to_string()),
            Kind::Failed => StoreError::failed(error),
        };
        crate::faults::note(&error);
        error
    }
}

/// What a database's error code says: SQLite's (primary code in the low byte: busy, locked,
/// read-only, I/O, full, cannot open; corrupt, not a database) or PostgreSQL's SQLSTATE (connection
/// exceptions, insufficient resources, operator intervention; serialization failures and
/// deadlocks).
fn by_code(code: &str) -> Kind {
    if let Ok(number) = code.parse::<u32>() {
        return match number & 0xff {
            5 | 6 | 8 | 10 | 13 | 14 => Kind::Unavailable,
            11 | 26 => Kind::Corrupt,
            _ => Kind::Failed,
        };
    }
    match code {
        "40001" | "40P01" | "55P03" => Kind::Unavailable,
        _ if ["08", "53", "57"]
            .iter()
            .any(|class| code.starts_with(class)) =>
        {
            Kind::Unavailable
        }
        _ => Kind::Failed,
    }
}

/// What the two databases spell differently.
pub trait Dialect: Database {
    /// The column that orders the games as they were inserted.
    const INSERTION_ORDER: &'static str;
    /// A query of the names of every table of the schema, from the catalogue.
    const CATALOGUE: &'static str;
    /// The rows a statement changed.
    fn rows_affected(result: &Self::QueryResult) -> u64;
}

impl Dialect for sqlx::Sqlite {
    const INSERTION_ORDER: &'static str = "rowid";
    const CATALOGUE: &'static str =
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'";

    fn rows_affected(result: &sqlx::sqlite::SqliteQueryResult) -> u64 {
        result.rows_affected()
    }
}

impl Dialect for sqlx::Postgres {
    const INSERTION_ORDER: &'static str = "position";
    const CATALOGUE: &'static str =
        "SELECT table_name::TEXT FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'";

    fn rows_affected(result: &sqlx::postgres::PgQueryResult) -> u64 {
        result.rows_affected()
    }
}

/// The columns of a game, in [`GameRecord`]'s order (a macro, so that the statements can
/// name them in their constant SQL).
macro_rules! game_columns {
    () => {
        "id, channel, kind, engine_version, created_at, setup_json, seed_hex, commitment, \
         revealed, active"
    };
}

/// The columns of a game, in [`GameRecord`]'s order.
const GAME: &str = game_columns!();

/// A value bound to one of a [`Statement`]'s placeholders, typed as its column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    /// Text.
    Text(String),
    /// Text or NULL.
    OptionalText(Option<String>),
    /// An integer.
    Int(i64),
    /// A boolean.
    Bool(bool),
}

/// One write as data before it runs: its SQL, written once for both databases with the
/// placeholders `$1`, `$2`, … for its values in order, and those values, typed. The store turns
/// a batch of writes into statements ([`SqlStore`](super::SqlStore)) and its backend runs them
/// as one transaction ([`Backend::run`](super::Backend::run)): one by one on sqlx's
/// connection, or on a SQLite file in one call of its write connection
/// ([`crate::sqlite_writer`]).
#[derive(Debug, Clone)]
pub struct Statement {
    sql: &'static str,
    values: Vec<Value>,
    /// What a unique violation of this statement means to the caller (the read mark's: the
    /// message was read before); any other failure is mapped by [`failed`].
    conflict: Option<StoreError>,
}

impl Statement {
    fn new(sql: &'static str, values: Vec<Value>) -> Statement {
        Statement {
            sql,
            values,
            conflict: None,
        }
    }

    /// Its SQL, with `$1`… for its values.
    pub fn sql(&self) -> &'static str {
        self.sql
    }

    /// Its values, in the order of their placeholders.
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// What a unique violation of this statement means, when it means more than a conflict
    /// (the read mark's: the message was read before).
    pub fn on_unique_violation(&self) -> Option<&StoreError> {
        self.conflict.as_ref()
    }

    /// The store's error for a failure of this statement.
    pub fn error(&self, error: sqlx::Error) -> StoreError {
        if let (Some(conflict), sqlx::Error::Database(db)) = (&self.conflict, &error) {
            if db.kind() == sqlx::error::ErrorKind::UniqueViolation {
                return conflict.clone();
            }
        }
        failed(error)
    }

    /// Retires a channel's active game.
    pub fn retire_games(channel: &str) -> Statement {
        Statement::new(
            "UPDATE games SET active = FALSE WHERE channel = $1 AND active",
            vec![text(channel)],
        )
    }

    /// Inserts a game as it is.
    pub fn insert_game(game: GameRecord) -> Statement {
        Statement::new(
            concat!(
                "INSERT INTO games (",
                game_columns!(),
                ") VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)"
            ),
            vec![
                Value::Text(game.id),
                Value::Text(game.channel),
                Value::Text(game.kind),
                Value::Text(game.engine_version),
                Value::Text(game.created_at),
                Value::Text(game.setup_json),
                Value::OptionalText(game.seed_hex),
                Value::OptionalText(game.commitment),
                Value::Bool(game.revealed),
                Value::Bool(game.active),
            ],
        )
    }

    /// Inserts a log entry.
    pub fn insert_log(game_id: &str, row: LogRecord) -> Statement {
        Statement::new(
            "INSERT INTO log (game_id, seq, entry_json, message_id, author_id, author_name,
                              text, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
            vec![
                text(game_id),
                Value::Int(row.seq),
                Value::Text(row.entry_json),
                Value::Text(row.message_id),
                Value::Text(row.author_id),
                Value::Text(row.author_name),
                Value::Text(row.text),
                Value::Text(row.at),
            ],
        )
    }

    /// Records that a game's seed is public.
    pub fn reveal(game_id: &str) -> Statement {
        Statement::new(
            "UPDATE games SET revealed = TRUE WHERE id = $1",
            vec![text(game_id)],
        )
    }

    /// Marks a message read (again: nothing).
    pub fn mark_seen(channel: &str, message_id: &str) -> Statement {
        Statement::new(
            "INSERT INTO seen_messages (channel, message_id) VALUES ($1, $2)
             ON CONFLICT DO NOTHING",
            vec![text(channel), text(message_id)],
        )
    }

    /// Marks a message read, and fails with [`StoreError::AlreadyRead`] if it was read before:
    /// its unique violation stops the transaction before its commit (nothing of it is kept).
    pub fn first_read(channel: &str, message_id: &str) -> Statement {
        Statement {
            conflict: Some(StoreError::AlreadyRead {
                channel: channel.to_string(),
                message_id: message_id.to_string(),
            }),
            ..Statement::new(
                "INSERT INTO seen_messages (channel, message_id) VALUES ($1, $2)",
                vec![text(channel), text(message_id)],
            )
        }
    }

    /// Moves a channel's cursor forward, never back (snowflakes compare as numbers).
    pub fn advance_cursor(channel: &str, message_id: &str) -> Statement {
        Statement::new(
            "INSERT INTO channel_cursor (channel, message_id) VALUES ($1, $2)
             ON CONFLICT (channel) DO UPDATE SET message_id = excluded.message_id
             WHERE length(excluded.message_id) > length(channel_cursor.message_id)
                OR (length(excluded.message_id) = length(channel_cursor.message_id)
                    AND excluded.message_id > channel_cursor.message_id)",
            vec![text(channel), text(message_id)],
        )
    }

    /// Records a game's live status message.
    pub fn set_status_message(game_id: &str, message_id: &str) -> Statement {
        Statement::new(
            "INSERT INTO status_message (game_id, message_id) VALUES ($1, $2)
             ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id",
            vec![text(game_id), text(message_id)],
        )
    }

    /// Gives a game its web page's token, unless it has one (then nothing changes).
    pub fn set_page_token(game_id: &str, token: &str) -> Statement {
        Statement::new(
            "INSERT INTO game_pages (game_id, token) VALUES ($1, $2)
             ON CONFLICT (game_id) DO NOTHING",
            vec![text(game_id), text(token)],
        )
    }

    /// Records (or replaces) a channel's server.
    pub fn set_channel_server(channel: &str, server: &str) -> Statement {
        Statement::new(
            "INSERT INTO channel_servers (channel, server) VALUES ($1, $2)
             ON CONFLICT (channel) DO UPDATE SET server = excluded.server",
            vec![text(channel), text(server)],
        )
    }

    /// Stores a server's standings page token, unless it has one.
    pub fn set_standings_token(server: &str, token: &str) -> Statement {
        Statement::new(
            "INSERT INTO standings_pages (server, token) VALUES ($1, $2)
             ON CONFLICT (server) DO NOTHING",
            vec![text(server), text(token)],
        )
    }

    /// Replaces (or with `None` removes) a player's choice of turn pings.
    pub fn set_notify(player_id: &str, mode: Option<&str>) -> Statement {
        match mode {
            Some(mode) => Statement::new(
                "INSERT INTO notify (player_id, mode) VALUES ($1, $2)
                 ON CONFLICT (player_id) DO UPDATE SET mode = excluded.mode",
                vec![text(player_id), text(mode)],
            ),
            None => Statement::new(
                "DELETE FROM notify WHERE player_id = $1",
                vec![text(player_id)],
            ),
        }
    }

    /// Replaces (or with `None` removes) a channel's state.
    pub fn set_channel_state(channel: &str, state: Option<&str>) -> Statement {
        match state {
            Some(state) => Statement::new(
                "INSERT INTO channel_state (channel, state_json) VALUES ($1, $2)
                 ON CONFLICT (channel) DO UPDATE SET state_json = excluded.state_json",
                vec![text(channel), text(state)],
            ),
            None => Statement::new(
                "DELETE FROM channel_state WHERE channel = $1",
                vec![text(channel)],
            ),
        }
    }

    /// Replaces (or with `None` removes) a player's presets.
    pub fn set_presets(game_id: &str, player_id: &str, presets: Option<&str>) -> Statement {
        match presets {
            Some(presets) => Statement::new(
                "INSERT INTO presets (game_id, player_id, presets_json) VALUES ($1, $2, $3)
                 ON CONFLICT (game_id, player_id)
                 DO UPDATE SET presets_json = excluded.presets_json",
                vec![text(game_id), text(player_id), text(presets)],
            ),
            None => Statement::new(
                "DELETE FROM presets WHERE game_id = $1 AND player_id = $2",
                vec![text(game_id), text(player_id)],
            ),
        }
    }

    /// Adds an item to the outbox.
    pub fn insert_outbox(item: OutboxRecord) -> Statement {
        Statement::new(
            "INSERT INTO outbox (channel, key, payload, at) VALUES ($1, $2, $3, $4)",
            vec![
                Value::Text(item.channel),
                Value::Text(item.key),
                Value::Text(item.payload),
                Value::Text(item.at),
            ],
        )
    }

    /// Removes an item from the outbox (nothing if it is not there).
    pub fn remove_outbox(channel: &str, key: &str) -> Statement {
        Statement::new(
            "DELETE FROM outbox WHERE channel = $1 AND key = $2",
            vec![text(channel), text(key)],
        )
    }
}

fn text(value: &str) -> Value {
    Value::Text(value.to_string())
}

/// A query of `sql` with `values` bound in order.
pub fn bound<'q, DB>(
    sql: &'q str,
    values: impl IntoIterator<Item = &'q Value>,
) -> sqlx::query::Query<'q, DB, DB::Arguments<'q>>
where
    DB: Database,
    &'q str: Encode<'q, DB> + Type<DB>,
    Option<&'q str>: Encode<'q, DB> + Type<DB>,
    i64: Encode<'q, DB> + Type<DB>,
    bool: Encode<'q, DB> + Type<DB>,
{
    values
        .into_iter()
        .fold(sqlx::query(sql), |query, value| match value {
            Value::Text(text) => query.bind(text.as_str()),
            Value::OptionalText(text) => query.bind(text.as_deref()),
            Value::Int(n) => query.bind(*n),
            Value::Bool(b) => query.bind(*b),
        })
}

/// Every query of the stores, on one connection (a pooled one, or one inside a transaction
/// that the store begun). Implemented once, for every database sqlx can run them on.
#[async_trait]
pub trait Queries: Dialect {
    /// Runs a write ([`Statement`]); its failure as [`Statement::error`] maps it.
    async fn execute(conn: &mut Self::Connection, statement: &Statement) -> Result<(), StoreError>;
    /// The active game of a channel.
    async fn active_game(
        conn: &mut Self::Connection,
        channel: &str,
    ) -> Result<Option<GameRecord>, StoreError>;
    /// How many games a channel has had.
    async fn game_count(conn: &mut Self::Connection, channel: &str) -> Result<i64, StoreError>;
    /// Channels with an active game, in byte order.
    async fn active_channels(conn: &mut Self::Connection) -> Result<Vec<String>, StoreError>;
    /// A game's log, in order.
    async fn log(conn: &mut Self::Connection, game_id: &str) -> Result<Vec<LogRecord>, StoreError>;
    /// Whether a message was read.
    async fn seen(
        conn: &mut Self::Connection,
        channel: &str,
        message_id: &str,
    ) -> Result<bool, StoreError>;
    /// A channel's cursor.
    async fn cursor(
        conn: &mut Self::Connection,
        channel: &str,
    ) -> Result<Option<String>, StoreError>;
    /// Each channel with an active game and its cursor, in byte order of the channels.
    async fn active_cursors(
        conn: &mut Self::Connection,
    ) -> Result<Vec<(String, Option<String>)>, StoreError>;
    /// A game's live status message.
    async fn status_message(
        conn: &mut Self::Connection,
        game_id: &str,
    ) -> Result<Option<String>, StoreError>;
    /// A game's web page token.
    async fn page_token(
        conn: &mut Self::Connection,
        game_id: &str,
    ) -> Result<Option<String>, StoreError>;
    /// The game whose web page has this token.
    async fn game_of_page(
        conn: &mut Self::Connection,
        token: &str,
    ) -> Result<Option<GameRecord>, StoreError>;
    /// A game by its id.
    async fn game(
        conn: &mut Self::Connection,
        game_id: &str,
    ) -> Result<Option<GameRecord>, StoreError>;
    /// Every game, in the order they were created.
    async fn games(conn: &mut Self::Connection) -> Result<Vec<GameRecord>, StoreError>;
    /// A player's choice of turn pings.
    async fn notify_mode(
        conn: &mut Self::Connection,
        player_id: &str,
    ) -> Result<Option<String>, StoreError>;
    /// Every channel's server, by channel.
    async fn channel_servers(
        conn: &mut Self::Connection,
    ) -> Result<Vec<(String, String)>, StoreError>;
    /// A server's standings page token.
    async fn standings_token(
        conn: &mut Self::Connection,
        server: &str,
    ) -> Result<Option<String>, StoreError>;
    /// The server whose standings page has this token.
    async fn server_of_standings(
        conn: &mut Self::Connection,
        token: &str,
    ) -> Result<Option<String>, StoreError>;
    /// A channel's state outside any game.
    async fn channel_state(
        conn: &mut Self::Connection,
        channel: &str,
    ) -> Result<Option<String>, StoreError>;
    /// Channels with a state, in byte order.
    async fn state_channels(conn: &mut Self::Connection) -> Result<Vec<String>, StoreError>;
    /// A game's presets by player id.
    async fn presets(
        conn: &mut Self::Connection,
        game_id: &str,
    ) -> Result<Vec<(String, String)>, StoreError>;
    /// The outbox's items, of one channel or of all, in the order they were stored.
    async fn outbox(
        conn: &mut Self::Connection,
        channel: Option<&str>,
    ) -> Result<Vec<OutboxRecord>, StoreError>;
    /// The whole database, in insertion order.
    async fn export(conn: &mut Self::Connection) -> Result<Dump, StoreError>;
    /// Copies a whole database in, verbatim; refused ([`NotEmpty`]) unless every table of
    /// [`TABLES`] is empty. The caller's transaction makes it all or nothing. `progress` is
    /// told every [`PROGRESS_EVERY`] rows of a table and at its last row.
    async fn import(
        conn: &mut Self::Connection,
        dump: &Dump,
        progress: &mut (dyn FnMut(Copied) + Send),
    ) -> Result<(), StoreError>;
    /// The rows of each table of [`TABLES`].
    async fn row_counts(
        conn: &mut Self::Connection,
    ) -> Result<Vec<(&'static str, i64)>, StoreError>;
    /// Every table of the schema, from the database's catalogue, in byte order.
    async fn tables(conn: &mut Self::Connection) -> Result<Vec<String>, StoreError>;
    /// Whether a game with this id is stored (in any channel).
    async fn game_exists(conn: &mut Self::Connection, game_id: &str) -> Result<bool, StoreError>;
}

/// How many rows of a table are copied between two reports of progress.
pub const PROGRESS_EVERY: usize = 5_000;

/// Progress of a copy: `rows` of the `of` rows of `table` are copied.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Copied {
    /// The table.
    pub table: &'static str,
    /// Rows copied so far.
    pub rows: usize,
    /// Rows to copy.
    pub of: usize,
}

#[async_trait]
impl<DB> Queries for DB
where
    DB: Dialect,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'q> Option<&'q str>: Encode<'q, DB> + Type<DB>,
    for<'q> i64: Encode<'q, DB> + Type<DB>,
    for<'q> bool: Encode<'q, DB> + Type<DB>,
    for<'r> GameRecord: FromRow<'r, DB::Row>,
    for<'r> LogRecord: FromRow<'r, DB::Row>,
    for<'r> GameLogRecord: FromRow<'r, DB::Row>,
    for<'r> (i64,): FromRow<'r, DB::Row>,
    for<'r> (String,): FromRow<'r, DB::Row>,
    for<'r> (String, String): FromRow<'r, DB::Row>,
    for<'r> (String, Option<String>): FromRow<'r, DB::Row>,
    for<'r> (String, String, String): FromRow<'r, DB::Row>,
    for<'r> OutboxRecord: FromRow<'r, DB::Row>,
{
    async fn execute(conn: &mut DB::Connection, statement: &Statement) -> Result<(), StoreError> {
        bound::<DB>(statement.sql(), statement.values())
            .execute(conn)
            .await
            .map_err(|e| statement.error(e))?;
        Ok(())
    }

    async fn active_game(
        conn: &mut DB::Connection,
        channel: &str,
    ) -> Result<Option<GameRecord>, StoreError> {
        let sql = format!("SELECT {GAME} FROM games WHERE channel = $1 AND active");
        sqlx::query_as(&sql)
            .bind(channel)
            .fetch_optional(conn)
            .await
            .map_err(failed)
    }

    async fn game_count(conn: &mut DB::Connection, channel: &str) -> Result<i64, StoreError> {
        let (count,): (i64,) = sqlx::query_as("SELECT COUNT(*) FROM games WHERE channel = $1")
            .bind(channel)
            .fetch_one(conn)
            .await
            .map_err(failed)?;
        Ok(count)
    }

    async fn active_channels(conn: &mut DB::Connection) -> Result<Vec<String>, StoreError> {
        strings(conn, "SELECT channel FROM games WHERE active").await
    }

    async fn log(conn: &mut DB::Connection, game_id: &str) -> Result<Vec<LogRecord>, StoreError> {
        sqlx::query_as(
            "SELECT seq, entry_json, message_id, author_id, author_name, text, at
             FROM log WHERE game_id = $1 ORDER BY seq",
        )
        .bind(game_id)
        .fetch_all(conn)
        .await
        .map_err(failed)
    }

    async fn seen(
        conn: &mut DB::Connection,
        channel: &str,
        message_id: &str,
    ) -> Result<bool, StoreError> {
        let row = sqlx::query("SELECT 1 FROM seen_messages WHERE channel = $1 AND message_id = $2")
            .bind(channel)
            .bind(message_id)
            .fetch_optional(conn)
            .await
            .map_err(failed)?;
        Ok(row.is_some())
    }

    async fn cursor(
        conn: &mut DB::Connection,
        channel: &str,
    ) -> Result<Option<String>, StoreError> {
        optional(
            conn,
            "SELECT message_id FROM channel_cursor WHERE channel = $1",
            channel,
        )
        .await
    }

    async fn active_cursors(
        conn: &mut DB::Connection,
    ) -> Result<Vec<(String, Option<String>)>, StoreError> {
        let mut rows: Vec<(String, Option<String>)> = sqlx::query_as(
            "SELECT g.channel, c.message_id FROM games g
             LEFT JOIN channel_cursor c ON c.channel = g.channel
             WHERE g.active",
        )
        .fetch_all(conn)
        .await
        .map_err(failed)?;
        rows.sort();
        Ok(rows)
    }

    async fn status_message(
        conn: &mut DB::Connection,
        game_id: &str,
    ) -> Result<Option<String>, StoreError> {
        optional(
            conn,
            "SELECT message_id FROM status_message WHERE game_id = $1",
            game_id,
        )
        .await
    }

    async fn page_token(
        conn: &mut DB::Connection,
        game_id: &str,
    ) -> Result<Option<String>, StoreError> {
        optional(
            conn,
            "SELECT token FROM game_pages WHERE game_id = $1",
            game_id,
        )
        .await
    }

    async fn notify_mode(
        conn: &mut DB::Connection,
        player_id: &str,
    ) -> Result<Option<String>, StoreError> {
        optional(
            conn,
            "SELECT mode FROM notify WHERE player_id = $1",
            player_id,
        )
        .await
    }

    async fn channel_servers(
        conn: &mut DB::Connection,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let mut servers: Vec<(String, String)> =
            sqlx::query_as("SELECT channel, server FROM channel_servers")
                .fetch_all(&mut *conn)
                .await
                .map_err(failed)?;
        servers.sort();
        Ok(servers)
    }

    async fn standings_token(
        conn: &mut DB::Connection,
        server: &str,
    ) -> Result<Option<String>, StoreError> {
        optional(
            conn,
            "SELECT token FROM standings_pages WHERE server = $1",
            server,
        )
        .await
    }

    async fn server_of_standings(
        conn: &mut DB::Connection,
        token: &str,
    ) -> Result<Option<String>, StoreError> {
        optional(
            conn,
            "SELECT server FROM standings_pages WHERE token = $1",
            token,
        )
        .await
    }

    async fn game_of_page(
        conn: &mut DB::Connection,
        token: &str,
    ) -> Result<Option<GameRecord>, StoreError> {
        let sql = format!(
            "SELECT {GAME} FROM games WHERE id = (SELECT game_id FROM game_pages WHERE token = $1)"
        );
        sqlx::query_as(&sql)
            .bind(token)
            .fetch_optional(conn)
            .await
            .map_err(failed)
    }

    async fn game(
        conn: &mut DB::Connection,
        game_id: &str,
    ) -> Result<Option<GameRecord>, StoreError> {
        let sql = format!("SELECT {GAME} FROM games WHERE id = $1");
        sqlx::query_as(&sql)
            .bind(game_id)
            .fetch_optional(conn)
            .await
            .map_err(failed)
    }

    async fn games(conn: &mut DB::Connection) -> Result<Vec<GameRecord>, StoreError> {
        let order = DB::INSERTION_ORDER;
        sqlx::query_as(&format!("SELECT {GAME} FROM games ORDER BY {order}"))
            .fetch_all(conn)
            .await
            .map_err(failed)
    }

    async fn channel_state(
        conn: &mut DB::Connection,
        channel: &str,
    ) -> Result<Option<String>, StoreError> {
        optional(
            conn,
            "SELECT state_json FROM channel_state WHERE channel = $1",
            channel,
        )
        .await
    }

    async fn state_channels(conn: &mut DB::Connection) -> Result<Vec<String>, StoreError> {
        strings(conn, "SELECT channel FROM channel_state").await
    }

    async fn presets(
        conn: &mut DB::Connection,
        game_id: &str,
    ) -> Result<Vec<(String, String)>, StoreError> {
        let mut rows: Vec<(String, String)> =
            sqlx::query_as("SELECT player_id, presets_json FROM presets WHERE game_id = $1")
                .bind(game_id)
                .fetch_all(conn)
                .await
                .map_err(failed)?;
        rows.sort();
        Ok(rows)
    }

    async fn outbox(
        conn: &mut DB::Connection,
        channel: Option<&str>,
    ) -> Result<Vec<OutboxRecord>, StoreError> {
        let query = match channel {
            Some(channel) => sqlx::query_as(
                "SELECT channel, key, payload, at FROM outbox WHERE channel = $1
                 ORDER BY position",
            )
            .bind(channel),
            None => {
                sqlx::query_as("SELECT channel, key, payload, at FROM outbox ORDER BY position")
            }
        };
        query.fetch_all(conn).await.map_err(failed)
    }

    async fn export(conn: &mut DB::Connection) -> Result<Dump, StoreError> {
        let order = DB::INSERTION_ORDER;
        let games = sqlx::query_as(&format!("SELECT {GAME} FROM games ORDER BY {order}"))
            .fetch_all(&mut *conn)
            .await
            .map_err(failed)?;
        let logs: Vec<GameLogRecord> = sqlx::query_as(&format!(
            "SELECT l.game_id, l.seq, l.entry_json, l.message_id, l.author_id, l.author_name,
                    l.text, l.at
             FROM log l JOIN games g ON g.id = l.game_id ORDER BY g.{order}, l.seq"
        ))
        .fetch_all(&mut *conn)
        .await
        .map_err(failed)?;
        let mut seen: Vec<(String, String)> =
            sqlx::query_as("SELECT channel, message_id FROM seen_messages")
                .fetch_all(&mut *conn)
                .await
                .map_err(failed)?;
        seen.sort();
        let mut cursors: Vec<(String, String)> =
            sqlx::query_as("SELECT channel, message_id FROM channel_cursor")
                .fetch_all(&mut *conn)
                .await
                .map_err(failed)?;
        cursors.sort();
        let mut states: Vec<(String, String)> =
            sqlx::query_as("SELECT channel, state_json FROM channel_state")
                .fetch_all(&mut *conn)
                .await
                .map_err(failed)?;
        states.sort();
        let mut presets: Vec<(String, String, String)> =
            sqlx::query_as("SELECT game_id, player_id, presets_json FROM presets")
                .fetch_all(&mut *conn)
                .await
                .map_err(failed)?;
        presets.sort();
        let mut status: Vec<(String, String)> =
            sqlx::query_as("SELECT game_id, message_id FROM status_message")
                .fetch_all(&mut *conn)
                .await
                .map_err(failed)?;
        status.sort();
        let mut pages: Vec<(String, String)> =
            sqlx::query_as("SELECT game_id, token FROM game_pages")
                .fetch_all(&mut *conn)
                .await
                .map_err(failed)?;
        pages.sort();
        let outbox = DB::outbox(conn, None).await?;
        let mut notify: Vec<(String, String)> =
            sqlx::query_as("SELECT player_id, mode FROM notify")
                .fetch_all(&mut *conn)
                .await
                .map_err(failed)?;
        notify.sort();
        let servers = DB::channel_servers(conn).await?;
        let mut standings_pages: Vec<(String, String)> =
            sqlx::query_as("SELECT server, token FROM standings_pages")
                .fetch_all(&mut *conn)
                .await
                .map_err(failed)?;
        standings_pages.sort();
        Ok(Dump {
            games,
            logs: logs.into_iter().map(|l| (l.game_id, l.row)).collect(),
            seen,
            cursors,
            states,
            presets,
            status,
            outbox,
            pages,
            notify,
            servers,
            standings_pages,
        })
    }

    async fn import(
        conn: &mut DB::Connection,
        dump: &Dump,
        progress: &mut (dyn FnMut(Copied) + Send),
    ) -> Result<(), StoreError> {
        let existing = DB::row_counts(conn).await?;
        if let Some((table, rows)) = existing.iter().find(|(_, rows)| *rows > 0) {
            return Err(StoreError::Conflict(std::sync::Arc::new(NotEmpty {
                table: table.to_string(),
                rows: *rows,
            })));
        }
        let counts = dump.counts();
        let mut done = [0usize; TABLES.len()];
        let mut step = |table: usize, done: &mut [usize; TABLES.len()]| {
            done[table] += 1;
            if done[table].is_multiple_of(PROGRESS_EVERY) || done[table] == counts[table].1 {
                progress(Copied {
                    table: TABLES[table],
                    rows: done[table],
                    of: counts[table].1,
                });
            }
        };
        for game in &dump.games {
            DB::execute(conn, &Statement::insert_game(game.clone())).await?;
            step(0, &mut done);
        }
        for (game_id, row) in &dump.logs {
            DB::execute(conn, &Statement::insert_log(game_id, row.clone())).await?;
            step(1, &mut done);
        }
        for (channel, message_id) in &dump.seen {
            DB::execute(conn, &Statement::mark_seen(channel, message_id)).await?;
            step(2, &mut done);
        }
        for (channel, message_id) in &dump.cursors {
            DB::execute(conn, &Statement::advance_cursor(channel, message_id)).await?;
            step(3, &mut done);
        }
        for (channel, state) in &dump.states {
            DB::execute(conn, &Statement::set_channel_state(channel, Some(state))).await?;
            step(4, &mut done);
        }
        for (game_id, player_id, presets) in &dump.presets {
            DB::execute(
                conn,
                &Statement::set_presets(game_id, player_id, Some(presets)),
            )
            .await?;
            step(5, &mut done);
        }
        for (game_id, message_id) in &dump.status {
            DB::execute(conn, &Statement::set_status_message(game_id, message_id)).await?;
            step(6, &mut done);
        }
        for item in &dump.outbox {
            DB::execute(conn, &Statement::insert_outbox(item.clone())).await?;
            step(7, &mut done);
        }
        for (game_id, token) in &dump.pages {
            DB::execute(conn, &Statement::set_page_token(game_id, token)).await?;
            step(8, &mut done);
        }
        for (player_id, mode) in &dump.notify {
            DB::execute(conn, &Statement::set_notify(player_id, Some(mode))).await?;
            step(9, &mut done);
        }
        for (channel, server) in &dump.servers {
            DB::execute(conn, &Statement::set_channel_server(channel, server)).await?;
            step(10, &mut done);
        }
        for (server, token) in &dump.standings_pages {
            DB::execute(conn, &Statement::set_standings_token(server, token)).await?;
            step(11, &mut done);
        }
        Ok(())
    }

    async fn row_counts(conn: &mut DB::Connection) -> Result<Vec<(&'static str, i64)>, StoreError> {
        let mut counts = Vec::with_capacity(TABLES.len());
        for table in TABLES {
            let (rows,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM {table}"))
                .fetch_one(&mut *conn)
                .await
                .map_err(failed)?;
            counts.push((table, rows));
        }
        Ok(counts)
    }

    async fn tables(conn: &mut DB::Connection) -> Result<Vec<String>, StoreError> {
        strings(conn, DB::CATALOGUE).await
    }

    async fn game_exists(conn: &mut DB::Connection, game_id: &str) -> Result<bool, StoreError> {
        let row: Option<(String,)> = sqlx::query_as("SELECT channel FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(conn)
            .await
            .map_err(failed)?;
        Ok(row.is_some())
    }
}

/// The one text column of a query with one text parameter, if a row matches.
async fn optional<DB>(
    conn: &mut DB::Connection,
    sql: &str,
    key: &str,
) -> Result<Option<String>, StoreError>
where
    DB: Database,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'q> &'q str: Encode<'q, DB> + Type<DB>,
    for<'r> (String,): FromRow<'r, DB::Row>,
{
    let row: Option<(String,)> = sqlx::query_as(sql)
        .bind(key)
        .fetch_optional(conn)
        .await
        .map_err(failed)?;
    Ok(row.map(|(text,)| text))
}

/// The one text column of every row of a query, in byte order.
async fn strings<DB>(conn: &mut DB::Connection, sql: &str) -> Result<Vec<String>, StoreError>
where
    DB: Database,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    for<'q> DB::Arguments<'q>: IntoArguments<'q, DB>,
    for<'r> (String,): FromRow<'r, DB::Row>,
{
    let rows: Vec<(String,)> = sqlx::query_as(sql).fetch_all(conn).await.map_err(failed)?;
    let mut texts: Vec<String> = rows.into_iter().map(|(text,)| text).collect();
    texts.sort();
    Ok(texts)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The placeholders of a statement: `$k`, in order of appearance.
    fn placeholders(sql: &str) -> Vec<usize> {
        sql.split('$')
            .skip(1)
            .map(|rest| {
                rest.chars()
                    .take_while(char::is_ascii_digit)
                    .collect::<String>()
                    .parse()
                    .expect("a number")
            })
            .collect()
    }

    fn record() -> (GameRecord, LogRecord, OutboxRecord) {
        let game = GameRecord {
            id: "g".into(),
            channel: "1".into(),
            kind: "irish-gauge".into(),
            engine_version: "1".into(),
            created_at: "2026-01-02T03:04:05Z".into(),
            setup_json: "{}".into(),
            seed_hex: None,
            commitment: Some("cd".into()),
            revealed: false,
            active: true,
        };
        let row = LogRecord {
            seq: 11,
            entry_json: "{}".into(),
            message_id: "2".into(),
            author_id: "3".into(),
            author_name: "ann".into(),
            text: "**pass**".into(),
            at: "2026-01-02T03:04:06Z".into(),
        };
        let item = OutboxRecord {
            channel: "1".into(),
            key: "k".into(),
            payload: "{}".into(),
            at: "2026-01-02T03:04:07Z".into(),
        };
        (game, row, item)
    }

    fn every_statement() -> Vec<Statement> {
        let (game, row, item) = record();
        vec![
            Statement::retire_games("1"),
            Statement::insert_game(game),
            Statement::insert_log("g", row),
            Statement::reveal("g"),
            Statement::mark_seen("1", "2"),
            Statement::first_read("1", "2"),
            Statement::advance_cursor("1", "2"),
            Statement::set_status_message("g", "2"),
            Statement::set_channel_state("1", Some("{}")),
            Statement::set_channel_state("1", None),
            Statement::set_presets("g", "3", Some("{}")),
            Statement::set_presets("g", "3", None),
            Statement::insert_outbox(item),
            Statement::remove_outbox("1", "k"),
        ]
    }

    #[test]
    fn every_statement_binds_each_of_its_values_in_order() {
        for statement in every_statement() {
            let mut numbers = placeholders(statement.sql());
            numbers.dedup();
            let expected: Vec<usize> = (1..=statement.values().len()).collect();
            assert_eq!(numbers, expected, "{}", statement.sql());
        }
    }

    #[test]
    fn only_the_read_mark_turns_a_unique_violation_into_already_read() {
        let protocol = || sqlx::Error::Protocol("x".into());
        let read = Statement::first_read("1", "2");
        assert!(matches!(read.error(protocol()), StoreError::Failed(_)));
        assert!(read.sql().contains("INSERT INTO seen_messages"));
        assert!(!read.sql().contains("ON CONFLICT"), "{}", read.sql());
        assert!(Statement::mark_seen("1", "2").sql().contains("ON CONFLICT"));
    }
}
