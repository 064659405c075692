//! Driving tables in tests, through the public API only: messages at a chosen time, tables on a
//! [`MemoryStore`] (behind [`Flaky`], which fails its writes on demand), and [`World`], a bot
//! whose clock the test moves, restarted on the same store. Every call of the table API that
//! the tests make goes through here, so a change of that API is one edit.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use chrono::{DateTime, Duration, Utc};
use gaugebot_table::store::memory::MemoryStore;
use gaugebot_table::store::{GameRow, LogRow, Outgoing, Store, StoreError, Write};
use gaugebot_table::weeks::duration::parse_time;
use gaugebot_table::{Author, Host, Incoming, Response, Table, TableSettings, Tables};
use serde_json::Value;

use super::pile::{host_with, Pile};

/// The time of every message of [`msg`]: 2026-11-23 10:00 UTC.
pub fn t0() -> DateTime<Utc> {
    parse_time("2026-11-23T10:00:00Z").expect("time")
}

/// A message in a channel at [`t0`]; `mod` is a moderator.
pub fn msg(id: u64, author: &str, text: &str) -> Incoming {
    msg_at_time(id, author, text, t0())
}

/// A message at `hours` after [`t0`].
pub fn msg_at(id: u64, author: &str, text: &str, hours: i64) -> Incoming {
    msg_at_time(id, author, text, t0() + Duration::hours(hours))
}

/// A message at `at`.
pub fn msg_at_time(id: u64, author: &str, text: &str, at: DateTime<Utc>) -> Incoming {
    Incoming {
        message_id: id.to_string(),
        author: Author {
            id: author.into(),
            name: author.into(),
            is_moderator: author == "mod",
            mention: format!("@{author}"),
        },
        text: text.into(),
        at: chrono::SubsecRound::trunc_subsecs(at, 0),
        mentions: Vec::new(),
    }
}

/// The name of the seat to act.
pub fn to_act(table: &Table) -> String {
    table.player_to_act().expect("a player to act").name
}

/// A [`MemoryStore`] whose writes fail while it is [down](Flaky::set_down) (the database is
/// unavailable: a full disk, a lost server); its reads go on.
#[derive(Debug, Default)]
pub struct Flaky {
    /// The store behind it.
    pub inner: MemoryStore,
    down: AtomicBool,
}

impl Flaky {
    /// Makes every write fail (`true`) or succeed again (`false`).
    pub fn set_down(&self, down: bool) {
        self.down.store(down, Ordering::SeqCst);
    }

    fn check(&self) -> Result<(), StoreError> {
        match self.down.load(Ordering::SeqCst) {
            true => Err(StoreError::Unavailable(Arc::new(std::io::Error::other(
                "the disk is gone",
            )))),
            false => Ok(()),
        }
    }
}

#[async_trait]
impl Store for Flaky {
    async fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.check()?;
        self.inner.write(writes).await
    }
    async fn pending(&self, channel: Option<&str>) -> Result<Vec<Outgoing>, StoreError> {
        self.inner.pending(channel).await
    }
    async fn delivered(&self, channel: &str, key: &str) -> Result<(), StoreError> {
        self.check()?;
        self.inner.delivered(channel, key).await
    }
    async fn active_game(&self, channel: &str) -> Result<Option<GameRow>, StoreError> {
        self.inner.active_game(channel).await
    }
    async fn game_count(&self, channel: &str) -> Result<i64, StoreError> {
        self.inner.game_count(channel).await
    }
    async fn next_game_id(&self, channel: &str) -> Result<String, StoreError> {
        self.inner.next_game_id(channel).await
    }
    async fn active_channels(&self) -> Result<Vec<String>, StoreError> {
        self.inner.active_channels().await
    }
    async fn seen(&self, channel: &str, message_id: &str) -> Result<bool, StoreError> {
        self.inner.seen(channel, message_id).await
    }
    async fn log(&self, game_id: &str) -> Result<Vec<LogRow>, StoreError> {
        self.inner.log(game_id).await
    }
    async fn cursor(&self, channel: &str) -> Result<Option<String>, StoreError> {
        self.inner.cursor(channel).await
    }
    async fn advance_cursor(&self, channel: &str, message_id: &str) -> Result<(), StoreError> {
        self.check()?;
        self.inner.advance_cursor(channel, message_id).await
    }
    async fn status_message(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        self.inner.status_message(game_id).await
    }
    async fn set_status_message(&self, game_id: &str, message_id: &str) -> Result<(), StoreError> {
        self.check()?;
        self.inner.set_status_message(game_id, message_id).await
    }
    async fn channel_state(&self, channel: &str) -> Result<Option<String>, StoreError> {
        self.inner.channel_state(channel).await
    }
    async fn state_channels(&self) -> Result<Vec<String>, StoreError> {
        self.inner.state_channels().await
    }
    async fn presets(&self, game_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        self.inner.presets(game_id).await
    }
    async fn close(&self) {
        self.inner.close().await
    }
    fn sole_writer(&self) -> bool {
        self.inner.sole_writer()
    }
    async fn active_cursors(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        self.inner.active_cursors().await
    }
}

/// The tables of a bot on `store`.
pub fn tables_on(store: Arc<dyn Store>, host: Arc<Host>) -> Tables {
    Tables::new(store, host)
}

/// A bot playing Pile on a memory store (that fails on demand), with a clock the test moves:
/// every message carries the clock's time and the tick runs at chosen times (no sleeps).
pub struct World {
    /// The database, kept across restarts.
    pub store: Arc<Flaky>,
    /// The bot's tables (a restart makes new ones on the same store).
    pub tables: Tables,
    /// The clock.
    pub now: DateTime<Utc>,
    /// The id of the last message sent.
    pub last_id: u64,
    settings: TableSettings,
}

impl World {
    /// A bot with the default settings, at [`t0`].
    pub fn new() -> World {
        World::with(TableSettings {
            moderator_name: "mod".into(),
            ..TableSettings::default()
        })
    }

    /// A bot with these settings, at [`t0`].
    pub fn with(settings: TableSettings) -> World {
        let store = Arc::new(Flaky::default());
        let tables = tables_on(store.clone(), host_with(settings.clone()));
        World {
            store,
            tables,
            now: t0(),
            last_id: 0,
            settings,
        }
    }

    /// A restart: the process goes away, a new one opens the same store.
    pub fn restart(&mut self) {
        self.tables = tables_on(self.store.clone(), host_with(self.settings.clone()));
    }

    /// The next message, at the clock's time.
    pub fn message(&mut self, author: &str, text: &str) -> Incoming {
        self.last_id += 1;
        msg_at_time(self.last_id, author, text, self.now)
    }

    /// A message in a channel, then the tick at the same time (as the console does after every
    /// line), which finds nothing due.
    pub async fn say(&mut self, channel: &str, author: &str, text: &str) -> Response {
        let message = self.message(author, text);
        let response = self.deliver(channel, &message).await;
        let due = self.tables.tick(self.now).await;
        assert!(
            due.is_empty(),
            "nothing falls due on a message at the same time: {}",
            texts(&due)
        );
        response
    }

    /// A message delivered (again, if it was before) in a channel.
    pub async fn deliver(&mut self, channel: &str, message: &Incoming) -> Response {
        self.tables
            .handle(channel, message)
            .await
            .expect("the table loads")
    }

    /// A direct message to the bot.
    pub async fn dm(&mut self, author: &str, text: &str) -> Response {
        let mut message = self.message(author, text);
        message.author.is_moderator = false;
        self.tables
            .across(true, &message)
            .await
            .expect("direct messages are answered across the tables")
    }

    /// Moves the clock on and runs the tick: what it posted, in every channel.
    pub async fn later(&mut self, by: Duration) -> String {
        self.now += by;
        texts(&self.tables.tick(self.now).await)
    }

    /// The id of a channel's game.
    pub async fn game_id(&self, channel: &str) -> String {
        let table = self.tables.table(channel).await.expect("table");
        table.game_id().expect("a game").to_string()
    }

    /// A channel's stored log, entry by entry.
    pub async fn log(&self, channel: &str) -> Vec<Value> {
        let game = self.game_id(channel).await;
        self.store
            .log(&game)
            .await
            .expect("log")
            .iter()
            .map(|r| serde_json::from_str(&r.entry_json).expect("json"))
            .collect()
    }

    /// A channel's stored table entries of one event (`reminded`, `away`, `sub`, …).
    pub async fn table_entries(&self, channel: &str, event: &str) -> usize {
        self.log(channel)
            .await
            .iter()
            .filter(|e| e["entry"] == "table" && e["event"] == event)
            .count()
    }

    /// A channel's position.
    pub async fn pile(&self, channel: &str) -> Pile {
        let table = self.tables.table(channel).await.expect("table");
        table.state::<Pile>().cloned().expect("a game of Pile")
    }

    /// The name of the player to act in a channel.
    pub async fn to_act(&self, channel: &str) -> String {
        to_act(&self.tables.table(channel).await.expect("table"))
    }
}

/// The texts of the tick's replies, one per line.
pub fn texts(due: &[(String, Response)]) -> String {
    due.iter()
        .map(|(_, r)| r.text())
        .collect::<Vec<_>>()
        .join("\n")
}

/// Hours.
pub fn h(hours: i64) -> Duration {
    Duration::hours(hours)
}
