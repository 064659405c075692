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
        ];
        TABLES.iter().copied().zip(counts).collect()
    }
}

/// Every table of the schema that holds the bot's data, as [`Dump`] carries them (a table
/// added to the schema must be added here and to [`Dump`], or `gaugebot migrate` refuses to
/// run: it will not leave a table behind). PostgreSQL's `channel_owners` is not data: which
/// process owns a channel is decided anew by the processes on the new database.
pub const TABLES: [&str; 8] = [
    "games",
    "log",
    "seen_messages",
    "channel_cursor",
    "channel_state",
    "presets",
    "status_message",
    "outbox",
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
    match kind {
        Kind::Unavailable => StoreError::Unavailable(std::sync::Arc::new(error)),
        Kind::Conflict => StoreError::Conflict(std::sync::Arc::new(error)),
        Kind::Corrupt => StoreError::Corrupt(error.to_string()),
        Kind::Failed => StoreError::failed(error),
    }
}

enum Kind {
    Unavailable,
    Conflict,
    Corrupt,
    Failed,
}

/// What a database's error code says: SQLite's (primary code in the low byte: busy, locked,
/// I/O, full, cannot open; corrupt, not a database) or PostgreSQL's SQLSTATE (connection
/// exceptions, insufficient resources, operator intervention; serialization failures and
/// deadlocks).
fn by_code(code: &str) -> Kind {
    if let Ok(number) = code.parse::<u32>() {
        return match number & 0xff {
            5 | 6 | 10 | 13 | 14 => Kind::Unavailable,
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

/// The columns of a game, in [`GameRecord`]'s order.
const GAME: &str = "id, channel, kind, engine_version, created_at, setup_json, seed_hex, \
                    commitment, revealed, active";

/// Every query of the stores, on one connection (a pooled one, or one inside a transaction
/// that the store begun). Implemented once, for every database sqlx can run them on.
#[async_trait]
pub trait Queries: Dialect {
    /// The active game of a channel.
    async fn active_game(
        conn: &mut Self::Connection,
        channel: &str,
    ) -> Result<Option<GameRecord>, StoreError>;
    /// How many games a channel has had.
    async fn game_count(conn: &mut Self::Connection, channel: &str) -> Result<i64, StoreError>;
    /// Channels with an active game, in byte order.
    async fn active_channels(conn: &mut Self::Connection) -> Result<Vec<String>, StoreError>;
    /// Retires a channel's active game.
    async fn retire_games(conn: &mut Self::Connection, channel: &str) -> Result<(), StoreError>;
    /// Inserts a game as it is.
    async fn insert_game(conn: &mut Self::Connection, game: &GameRecord) -> Result<(), StoreError>;
    /// Inserts a log entry.
    async fn insert_log(
        conn: &mut Self::Connection,
        game_id: &str,
        row: &LogRecord,
    ) -> Result<(), StoreError>;
    /// Records that a game's seed is public.
    async fn reveal(conn: &mut Self::Connection, game_id: &str) -> Result<(), StoreError>;
    /// A game's log, in order.
    async fn log(conn: &mut Self::Connection, game_id: &str) -> Result<Vec<LogRecord>, StoreError>;
    /// Marks a message read (again: nothing).
    async fn mark_seen(
        conn: &mut Self::Connection,
        channel: &str,
        message_id: &str,
    ) -> Result<(), StoreError>;
    /// Marks a message read; false if it was read before (nothing changed).
    async fn mark_first_read(
        conn: &mut Self::Connection,
        channel: &str,
        message_id: &str,
    ) -> Result<bool, StoreError>;
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
    /// Moves a channel's cursor forward, never back (snowflakes compare as numbers).
    async fn advance_cursor(
        conn: &mut Self::Connection,
        channel: &str,
        message_id: &str,
    ) -> Result<(), StoreError>;
    /// Each channel with an active game and its cursor, in byte order of the channels.
    async fn active_cursors(
        conn: &mut Self::Connection,
    ) -> Result<Vec<(String, Option<String>)>, StoreError>;
    /// A game's live status message.
    async fn status_message(
        conn: &mut Self::Connection,
        game_id: &str,
    ) -> Result<Option<String>, StoreError>;
    /// Records a game's live status message.
    async fn set_status_message(
        conn: &mut Self::Connection,
        game_id: &str,
        message_id: &str,
    ) -> Result<(), StoreError>;
    /// A channel's state outside any game.
    async fn channel_state(
        conn: &mut Self::Connection,
        channel: &str,
    ) -> Result<Option<String>, StoreError>;
    /// Replaces (or with `None` removes) a channel's state.
    async fn set_channel_state(
        conn: &mut Self::Connection,
        channel: &str,
        state: Option<&str>,
    ) -> Result<(), StoreError>;
    /// Channels with a state, in byte order.
    async fn state_channels(conn: &mut Self::Connection) -> Result<Vec<String>, StoreError>;
    /// A game's presets by player id.
    async fn presets(
        conn: &mut Self::Connection,
        game_id: &str,
    ) -> Result<Vec<(String, String)>, StoreError>;
    /// Replaces (or with `None` removes) a player's presets.
    async fn set_presets(
        conn: &mut Self::Connection,
        game_id: &str,
        player_id: &str,
        presets: Option<&str>,
    ) -> Result<(), StoreError>;
    /// Adds an item to the outbox.
    async fn insert_outbox(
        conn: &mut Self::Connection,
        item: &OutboxRecord,
    ) -> Result<(), StoreError>;
    /// The outbox's items, of one channel or of all, in the order they were stored.
    async fn outbox(
        conn: &mut Self::Connection,
        channel: Option<&str>,
    ) -> Result<Vec<OutboxRecord>, StoreError>;
    /// Removes an item from the outbox (nothing if it is not there).
    async fn remove_outbox(
        conn: &mut Self::Connection,
        channel: &str,
        key: &str,
    ) -> Result<(), StoreError>;
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

    async fn retire_games(conn: &mut DB::Connection, channel: &str) -> Result<(), StoreError> {
        execute(
            sqlx::query("UPDATE games SET active = FALSE WHERE channel = $1 AND active")
                .bind(channel),
            conn,
        )
        .await
    }

    async fn insert_game(conn: &mut DB::Connection, game: &GameRecord) -> Result<(), StoreError> {
        let sql =
            format!("INSERT INTO games ({GAME}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)");
        let query = sqlx::query(&sql)
            .bind(game.id.as_str())
            .bind(game.channel.as_str())
            .bind(game.kind.as_str())
            .bind(game.engine_version.as_str())
            .bind(game.created_at.as_str())
            .bind(game.setup_json.as_str())
            .bind(game.seed_hex.as_deref())
            .bind(game.commitment.as_deref())
            .bind(game.revealed)
            .bind(game.active);
        execute(query, conn).await
    }

    async fn insert_log(
        conn: &mut DB::Connection,
        game_id: &str,
        row: &LogRecord,
    ) -> Result<(), StoreError> {
        let query = sqlx::query(
            "INSERT INTO log (game_id, seq, entry_json, message_id, author_id, author_name,
                              text, at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(game_id)
        .bind(row.seq)
        .bind(row.entry_json.as_str())
        .bind(row.message_id.as_str())
        .bind(row.author_id.as_str())
        .bind(row.author_name.as_str())
        .bind(row.text.as_str())
        .bind(row.at.as_str());
        execute(query, conn).await
    }

    async fn reveal(conn: &mut DB::Connection, game_id: &str) -> Result<(), StoreError> {
        execute(
            sqlx::query("UPDATE games SET revealed = TRUE WHERE id = $1").bind(game_id),
            conn,
        )
        .await
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

    async fn mark_seen(
        conn: &mut DB::Connection,
        channel: &str,
        message_id: &str,
    ) -> Result<(), StoreError> {
        let query = sqlx::query(
            "INSERT INTO seen_messages (channel, message_id) VALUES ($1, $2)
             ON CONFLICT DO NOTHING",
        )
        .bind(channel)
        .bind(message_id);
        execute(query, conn).await
    }

    async fn mark_first_read(
        conn: &mut DB::Connection,
        channel: &str,
        message_id: &str,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "INSERT INTO seen_messages (channel, message_id) VALUES ($1, $2)
             ON CONFLICT DO NOTHING",
        )
        .bind(channel)
        .bind(message_id)
        .execute(conn)
        .await
        .map_err(failed)?;
        Ok(DB::rows_affected(&done) == 1)
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

    async fn advance_cursor(
        conn: &mut DB::Connection,
        channel: &str,
        message_id: &str,
    ) -> Result<(), StoreError> {
        let query = sqlx::query(
            "INSERT INTO channel_cursor (channel, message_id) VALUES ($1, $2)
             ON CONFLICT (channel) DO UPDATE SET message_id = excluded.message_id
             WHERE length(excluded.message_id) > length(channel_cursor.message_id)
                OR (length(excluded.message_id) = length(channel_cursor.message_id)
                    AND excluded.message_id > channel_cursor.message_id)",
        )
        .bind(channel)
        .bind(message_id);
        execute(query, conn).await
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

    async fn set_status_message(
        conn: &mut DB::Connection,
        game_id: &str,
        message_id: &str,
    ) -> Result<(), StoreError> {
        let query = sqlx::query(
            "INSERT INTO status_message (game_id, message_id) VALUES ($1, $2)
             ON CONFLICT (game_id) DO UPDATE SET message_id = excluded.message_id",
        )
        .bind(game_id)
        .bind(message_id);
        execute(query, conn).await
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

    async fn set_channel_state(
        conn: &mut DB::Connection,
        channel: &str,
        state: Option<&str>,
    ) -> Result<(), StoreError> {
        let query = match state {
            Some(state) => sqlx::query(
                "INSERT INTO channel_state (channel, state_json) VALUES ($1, $2)
                 ON CONFLICT (channel) DO UPDATE SET state_json = excluded.state_json",
            )
            .bind(channel)
            .bind(state),
            None => sqlx::query("DELETE FROM channel_state WHERE channel = $1").bind(channel),
        };
        execute(query, conn).await
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

    async fn set_presets(
        conn: &mut DB::Connection,
        game_id: &str,
        player_id: &str,
        presets: Option<&str>,
    ) -> Result<(), StoreError> {
        let query = match presets {
            Some(presets) => sqlx::query(
                "INSERT INTO presets (game_id, player_id, presets_json) VALUES ($1, $2, $3)
                 ON CONFLICT (game_id, player_id)
                 DO UPDATE SET presets_json = excluded.presets_json",
            )
            .bind(game_id)
            .bind(player_id)
            .bind(presets),
            None => sqlx::query("DELETE FROM presets WHERE game_id = $1 AND player_id = $2")
                .bind(game_id)
                .bind(player_id),
        };
        execute(query, conn).await
    }

    async fn insert_outbox(
        conn: &mut DB::Connection,
        item: &OutboxRecord,
    ) -> Result<(), StoreError> {
        let query =
            sqlx::query("INSERT INTO outbox (channel, key, payload, at) VALUES ($1, $2, $3, $4)")
                .bind(item.channel.as_str())
                .bind(item.key.as_str())
                .bind(item.payload.as_str())
                .bind(item.at.as_str());
        execute(query, conn).await
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

    async fn remove_outbox(
        conn: &mut DB::Connection,
        channel: &str,
        key: &str,
    ) -> Result<(), StoreError> {
        let query = sqlx::query("DELETE FROM outbox WHERE channel = $1 AND key = $2")
            .bind(channel)
            .bind(key);
        execute(query, conn).await
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
        let outbox = DB::outbox(conn, None).await?;
        Ok(Dump {
            games,
            logs: logs.into_iter().map(|l| (l.game_id, l.row)).collect(),
            seen,
            cursors,
            states,
            presets,
            status,
            outbox,
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
            DB::insert_game(conn, game).await?;
            step(0, &mut done);
        }
        for (game_id, row) in &dump.logs {
            DB::insert_log(conn, game_id, row).await?;
            step(1, &mut done);
        }
        for (channel, message_id) in &dump.seen {
            DB::mark_seen(conn, channel, message_id).await?;
            step(2, &mut done);
        }
        for (channel, message_id) in &dump.cursors {
            DB::advance_cursor(conn, channel, message_id).await?;
            step(3, &mut done);
        }
        for (channel, state) in &dump.states {
            DB::set_channel_state(conn, channel, Some(state)).await?;
            step(4, &mut done);
        }
        for (game_id, player_id, presets) in &dump.presets {
            DB::set_presets(conn, game_id, player_id, Some(presets)).await?;
            step(5, &mut done);
        }
        for (game_id, message_id) in &dump.status {
            DB::set_status_message(conn, game_id, message_id).await?;
            step(6, &mut done);
        }
        for item in &dump.outbox {
            DB::insert_outbox(conn, item).await?;
            step(7, &mut done);
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

/// Runs a statement that returns no rows.
async fn execute<'q, DB>(
    query: sqlx::query::Query<'q, DB, DB::Arguments<'q>>,
    conn: &mut DB::Connection,
) -> Result<(), StoreError>
where
    DB: Database,
    for<'c> &'c mut DB::Connection: Executor<'c, Database = DB>,
    DB::Arguments<'q>: IntoArguments<'q, DB>,
{
    query.execute(conn).await.map_err(failed)?;
    Ok(())
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
