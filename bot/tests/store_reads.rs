//! What a move reads from the store on its way to the reply: nothing, once the table has its
//! game. Irish Gauge on SQLite behind a store that counts the reads it passes on. The presets a
//! decision needs are kept in memory when the process is the store's sole writer (SQLite), and
//! read at every decision on a store that processes share (where another process may have
//! stored a player's new preset).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use async_trait::async_trait;
use gaugebot::dice::Seed;
use gaugebot_store::SqliteStore;
use gaugebot_table::{
    Author, GameRow, Incoming, LogRow, Outgoing, Response, Store, StoreError, TableSettings,
    Tables, Verdict, Write,
};

const SEED: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const SETUP: &str = "!setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";
const CHANNEL: &str = "c1";

/// A store that passes everything on to SQLite, counting the reads, and says it is the sole
/// writer or not as told.
#[derive(Debug)]
struct Counting {
    inner: Arc<dyn Store>,
    sole_writer: bool,
    reads: AtomicUsize,
    preset_reads: AtomicUsize,
}

impl Counting {
    fn read(&self) {
        self.reads.fetch_add(1, Ordering::SeqCst);
    }
}

#[async_trait]
impl Store for Counting {
    async fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.inner.write(writes).await
    }
    async fn pending(&self, channel: Option<&str>) -> Result<Vec<Outgoing>, StoreError> {
        self.read();
        self.inner.pending(channel).await
    }
    async fn delivered(&self, channel: &str, key: &str) -> Result<(), StoreError> {
        self.inner.delivered(channel, key).await
    }
    async fn active_game(&self, channel: &str) -> Result<Option<GameRow>, StoreError> {
        self.read();
        self.inner.active_game(channel).await
    }
    async fn game_count(&self, channel: &str) -> Result<i64, StoreError> {
        self.read();
        self.inner.game_count(channel).await
    }
    async fn next_game_id(&self, channel: &str) -> Result<String, StoreError> {
        self.read();
        self.inner.next_game_id(channel).await
    }
    async fn active_channels(&self) -> Result<Vec<String>, StoreError> {
        self.read();
        self.inner.active_channels().await
    }
    async fn seen(&self, channel: &str, message_id: &str) -> Result<bool, StoreError> {
        self.read();
        self.inner.seen(channel, message_id).await
    }
    async fn log(&self, game_id: &str) -> Result<Vec<LogRow>, StoreError> {
        self.read();
        self.inner.log(game_id).await
    }
    async fn cursor(&self, channel: &str) -> Result<Option<String>, StoreError> {
        self.read();
        self.inner.cursor(channel).await
    }
    async fn advance_cursor(&self, channel: &str, message_id: &str) -> Result<(), StoreError> {
        self.inner.advance_cursor(channel, message_id).await
    }
    async fn status_message(&self, game_id: &str) -> Result<Option<String>, StoreError> {
        self.read();
        self.inner.status_message(game_id).await
    }
    async fn channel_state(&self, channel: &str) -> Result<Option<String>, StoreError> {
        self.read();
        self.inner.channel_state(channel).await
    }
    async fn state_channels(&self) -> Result<Vec<String>, StoreError> {
        self.read();
        self.inner.state_channels().await
    }
    async fn presets(&self, game_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        self.read();
        self.preset_reads.fetch_add(1, Ordering::SeqCst);
        self.inner.presets(game_id).await
    }
    async fn close(&self) {
        self.inner.close().await;
    }
    fn sole_writer(&self) -> bool {
        self.sole_writer
    }
    async fn active_cursors(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
        self.read();
        self.inner.active_cursors().await
    }
}

fn host() -> Arc<gaugebot_table::Host> {
    let settings = TableSettings {
        map_after_build: false,
        fixed_seed: Some(Seed::from_hex(SEED).expect("seed")),
        moderator_name: "mod".into(),
        ..TableSettings::default()
    };
    gaugebot::games::host(None, settings).expect("templates")
}

/// Tables on a fresh SQLite database behind a counting store.
struct World {
    _dir: tempfile::TempDir,
    store: Arc<Counting>,
    tables: Tables,
    next_id: u64,
}

impl World {
    async fn new(sole_writer: bool) -> World {
        let dir = tempfile::tempdir().expect("temp dir");
        let db = dir.path().join("reads.db");
        let sqlite = SqliteStore::open(&db.to_string_lossy())
            .await
            .expect("the database opens");
        let store = Arc::new(Counting {
            inner: sqlite.shared(),
            sole_writer,
            reads: AtomicUsize::new(0),
            preset_reads: AtomicUsize::new(0),
        });
        let tables = Tables::new(store.clone(), host());
        World {
            _dir: dir,
            store,
            tables,
            next_id: 1,
        }
    }

    fn message(&mut self, author: &str, text: &str) -> Incoming {
        self.next_id += 1;
        Incoming {
            message_id: self.next_id.to_string(),
            author: Author {
                id: author.to_lowercase(),
                name: author.to_string(),
                is_moderator: author == "mod",
                mention: format!("@{author}"),
            },
            text: text.to_string(),
            at: "2025-03-01T12:00:00Z".parse().expect("a time"),
            mentions: Vec::new(),
        }
    }

    async fn say(&mut self, author: &str, text: &str) -> Response {
        let msg = self.message(author, text);
        self.tables
            .handle(CHANNEL, &msg)
            .await
            .expect("the table loads")
    }

    async fn dm(&mut self, author: &str, text: &str) -> Response {
        let msg = self.message(author, text);
        self.tables
            .across(true, &msg)
            .await
            .expect("direct messages are answered across the tables")
    }

    fn reads(&self) -> (usize, usize) {
        (
            self.store.reads.load(Ordering::SeqCst),
            self.store.preset_reads.load(Ordering::SeqCst),
        )
    }

    /// ann bids 7 on the opening auction: bob is to bid next (his preset, if any, answers at
    /// once).
    async fn bid(&mut self) -> Response {
        let bid = self.say("ann", "**bid 7**").await;
        assert_eq!(bid.verdict, Verdict::Accepted, "{}", bid.text());
        bid
    }

    /// The moderator takes the last move back.
    async fn undo(&mut self) {
        let undo = self.say("mod", "!undo").await;
        assert_eq!(undo.verdict, Verdict::Accepted, "{}", undo.text());
    }

    async fn preset(&mut self, author: &str, text: &str) {
        let r = self.dm(author, &format!("!preset {text}")).await;
        assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    }
}

#[tokio::test]
async fn a_move_into_an_auction_reads_nothing_from_the_store_once_the_presets_are_kept() {
    let mut w = World::new(true).await;
    let setup = w.say("mod", SETUP).await;
    assert_eq!(setup.verdict, Verdict::Accepted, "{}", setup.text());
    // bob's decision after ann's bid reads the presets once; they are kept from then on.
    w.bid().await;
    w.undo().await;
    let before = w.reads();
    assert_eq!(before.1, 1, "read once");
    for _ in 0..3 {
        w.bid().await;
        w.undo().await;
    }
    assert_eq!(w.reads(), before, "bids and undos read nothing");

    // Presets set and cleared by direct message change what the table keeps: no read back.
    w.preset("bob", "pass").await;
    w.preset("bob", "clear").await;
    let bid = w.bid().await;
    assert!(!bid.text().contains("(preset)"), "{}", bid.text());
    w.undo().await;
    w.preset("bob", "pass").await;
    let bid = w.bid().await;
    assert!(bid.text().contains("bob passes (preset)"), "{}", bid.text());
    assert_eq!(w.reads().1, 1, "the presets were never read back");
}

#[tokio::test]
async fn on_a_shared_store_each_decision_reads_the_presets_another_process_stored() {
    let mut w = World::new(false).await;
    let setup = w.say("mod", SETUP).await;
    assert_eq!(setup.verdict, Verdict::Accepted, "{}", setup.text());
    w.bid().await;
    w.undo().await;
    let (_, read) = w.reads();
    assert_eq!(read, 1, "the decision read the presets");
    // Another process on the same database reads bob's direct message and stores his preset.
    let other = Tables::new(w.store.inner.clone(), host());
    let msg = w.message("bob", "!preset pass");
    let r = other.across(true, &msg).await.expect("answered");
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    let bid = w.bid().await;
    assert!(bid.text().contains("bob passes (preset)"), "{}", bid.text());
    assert_eq!(w.reads().1, 2, "read again");
}
