//! The storage contract (`gaugebot_table::Store`), one suite run against every implementation:
//! the table core's memory store for tests (`MemoryStore`), SQLite in memory, a SQLite file, and
//! a real PostgreSQL server that the test starts itself
//! (`pg/mod.rs`: `initdb` into a temporary folder, a unix socket in it, stopped at the end).
//! Then what only PostgreSQL has: the ownership of channels between processes.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use gaugebot::table::Verdict;
use gaugebot_store::backend::{Claim, Owners};
use gaugebot_store::postgres::{PostgresStore, NOT_OWNER};
use gaugebot_store::SqliteStore;
use gaugebot_table::store::memory::MemoryStore;
use gaugebot_table::store::{GameRow, LogRow, Outgoing, Store, StoreError, Write};

mod common;
mod pg;

type Check = fn(Arc<dyn Store>) -> Pin<Box<dyn Future<Output = ()> + Send>>;

/// Every check of the contract, by name.
fn checks() -> Vec<(&'static str, Check)> {
    vec![
        ("games", |s| Box::pin(games(s))),
        ("logs", |s| Box::pin(logs(s))),
        ("atomic_append", |s| Box::pin(atomic_append(s))),
        ("outbox", |s| Box::pin(outbox(s))),
        ("batch", |s| Box::pin(batch(s))),
        ("duplicate_read", |s| Box::pin(duplicate_read(s))),
        ("failure_midway", |s| Box::pin(failure_midway(s))),
        ("seen", |s| Box::pin(seen(s))),
        ("notify", |s| Box::pin(notify(s))),
        ("servers", |s| Box::pin(servers(s))),
        ("cursors", |s| Box::pin(cursors(s))),
        ("verbatim_text", |s| Box::pin(verbatim_text(s))),
        ("played_game", |s| Box::pin(played_game(s))),
    ]
}

fn game(id: &str, channel: &str) -> GameRow {
    GameRow {
        id: id.to_string(),
        channel: channel.to_string(),
        kind: "irish-gauge".to_string(),
        engine_version: "1.2.3".to_string(),
        created_at: "2026-01-02T03:04:05Z".parse().expect("a time"),
        setup_json: format!(r#"{{"players":["ann","bob"],"id":"{id}"}}"#),
        seed_hex: Some("ab".repeat(32)),
        commitment: Some("cd".repeat(32)),
        revealed: false,
        active: true,
    }
}

fn row(seq: i64, message: &str) -> LogRow {
    LogRow {
        seq,
        entry_json: format!(r#"{{"n":{seq}}}"#),
        message_id: message.to_string(),
        author_id: "7".to_string(),
        author_name: "ann".to_string(),
        text: format!("**bid {seq}**"),
        at: "2026-01-02T03:04:06Z".parse().expect("a time"),
    }
}

async fn games(store: Arc<dyn Store>) {
    assert_eq!(store.active_game("10").await.expect("read"), None);
    assert_eq!(store.game_count("10").await.expect("count"), 0);
    let first = game("g1", "10");
    store.create_game(&first, "100").await.expect("create");
    assert_eq!(
        store.active_game("10").await.expect("read"),
        Some(first.clone())
    );
    assert!(
        store.seen("10", "100").await.expect("seen"),
        "setup is seen"
    );
    // A new game retires the old one.
    let second = GameRow {
        seed_hex: None,
        commitment: None,
        ..game("g2", "10")
    };
    store.create_game(&second, "101").await.expect("create");
    assert_eq!(
        store.active_game("10").await.expect("read"),
        Some(second.clone())
    );
    assert_eq!(store.game_count("10").await.expect("count"), 2);
    store
        .create_game(&game("g3", "9"), "102")
        .await
        .expect("create");
    store
        .create_game(&game("g4", "11"), "103")
        .await
        .expect("create");
    assert_eq!(
        store.active_channels().await.expect("channels"),
        vec!["10", "11", "9"],
        "active channels in (text) order"
    );
    // A game id is unique.
    assert!(store.create_game(&game("g1", "12"), "104").await.is_err());
    assert_eq!(store.active_game("12").await.expect("read"), None);
}

async fn logs(store: Arc<dyn Store>) {
    store
        .create_game(&game("g1", "20"), "200")
        .await
        .expect("create");
    assert!(store.log("g1").await.expect("log").is_empty());
    store
        .append("g1", "20", &[row(0, "201")], "201", false)
        .await
        .expect("append");
    store
        .append("g1", "20", &[row(1, "202"), row(2, "202")], "202", false)
        .await
        .expect("append");
    let log = store.log("g1").await.expect("log");
    assert_eq!(log, vec![row(0, "201"), row(1, "202"), row(2, "202")]);
    assert!(store.seen("20", "202").await.expect("seen"));
    // Revealing marks the game.
    store
        .append("g1", "20", &[row(3, "203")], "203", true)
        .await
        .expect("append");
    let game = store.active_game("20").await.expect("read").expect("game");
    assert!(game.revealed);
    assert!(store.log("other").await.expect("log").is_empty());
}

async fn atomic_append(store: Arc<dyn Store>) {
    store
        .create_game(&game("g1", "30"), "300")
        .await
        .expect("create");
    store
        .append("g1", "30", &[row(0, "301")], "301", false)
        .await
        .expect("append");
    // The second row collides with an existing one: nothing of this append is kept.
    let failed = store
        .append("g1", "30", &[row(1, "302"), row(0, "302")], "302", true)
        .await;
    assert!(failed.is_err());
    assert_eq!(store.log("g1").await.expect("log"), vec![row(0, "301")]);
    assert!(!store.seen("30", "302").await.expect("seen"));
    assert!(
        !store
            .active_game("30")
            .await
            .expect("read")
            .expect("game")
            .revealed
    );
    // And the store goes on.
    store
        .append("g1", "30", &[row(1, "303")], "303", false)
        .await
        .expect("append after a failure");
    assert_eq!(store.log("g1").await.expect("log").len(), 2);
}

fn parcel(channel: &str, key: &str) -> Outgoing {
    Outgoing {
        channel: channel.to_string(),
        key: key.to_string(),
        payload: format!(r#"{{"answer to":"{key}","text":"ann bids £7 — «ok» ✅"}}"#),
        at: "2026-01-02T03:04:05.5Z".parse().expect("a time"),
    }
}

/// A command's writes and its outbox item are one transaction; the outbox keeps its items in
/// the order they were stored, per channel, until each is delivered.
async fn outbox(store: Arc<dyn Store>) {
    store
        .create_game(&game("o1", "35"), "350")
        .await
        .expect("create");
    let append = |seq: i64, message: &str| Write::Append {
        game_id: "o1".to_string(),
        channel: "35".to_string(),
        rows: vec![row(seq, message)],
        message_id: message.to_string(),
        revealed: false,
    };
    // Keys that do not sort as they were stored: the order is the order of storing.
    for (seq, key) in [(0, "9"), (1, "10"), (2, "1")] {
        store
            .write(&[append(seq, key), Write::Outbox(parcel("35", key))])
            .await
            .expect("a command with its answer");
    }
    store
        .write(&[Write::Outbox(parcel("36", "5"))])
        .await
        .expect("another channel's");
    let keys = |items: Vec<Outgoing>| -> Vec<String> { items.into_iter().map(|o| o.key).collect() };
    assert_eq!(
        keys(store.pending(Some("35")).await.expect("pending")),
        ["9", "10", "1"]
    );
    assert_eq!(
        keys(store.pending(None).await.expect("pending")),
        ["9", "10", "1", "5"]
    );
    assert_eq!(
        store.pending(Some("35")).await.expect("pending")[0],
        parcel("35", "9")
    );
    // A command whose log row collides stores neither the row nor its answer.
    let failed = store
        .write(&[append(0, "11"), Write::Outbox(parcel("35", "11"))])
        .await;
    assert!(failed.is_err());
    assert_eq!(store.pending(Some("35")).await.expect("pending").len(), 3);
    assert!(!store.seen("35", "11").await.expect("seen"));
    // Delivered items leave, in any order; an unknown one is no error.
    store.delivered("35", "10").await.expect("delivered");
    store
        .delivered("35", "404")
        .await
        .expect("nothing to remove");
    assert_eq!(
        keys(store.pending(Some("35")).await.expect("pending")),
        ["9", "1"]
    );
    store.delivered("35", "9").await.expect("delivered");
    store.delivered("35", "1").await.expect("delivered");
    store.delivered("36", "5").await.expect("delivered");
    assert!(store.pending(None).await.expect("pending").is_empty());
    assert_eq!(store.log("o1").await.expect("log").len(), 3);
}

fn read(channel: &str, message: &str) -> Write {
    Write::Read {
        channel: channel.to_string(),
        message_id: message.to_string(),
    }
}

fn append(game_id: &str, channel: &str, rows: &[LogRow], message: &str) -> Write {
    Write::Append {
        game_id: game_id.to_string(),
        channel: channel.to_string(),
        rows: rows.to_vec(),
        message_id: message.to_string(),
        revealed: false,
    }
}

fn presets(game_id: &str, player: &str, presets: Option<&str>) -> Write {
    Write::Presets {
        game_id: game_id.to_string(),
        player_id: player.to_string(),
        presets: presets.map(str::to_string),
    }
}

fn state(channel: &str, state: Option<&str>, message: &str) -> Write {
    Write::ChannelState {
        channel: channel.to_string(),
        state: state.map(str::to_string),
        message_id: message.to_string(),
    }
}

/// Everything a batch may write in a channel and its game, as stored.
#[derive(Debug, PartialEq)]
struct Stored {
    game: Option<GameRow>,
    log: Vec<LogRow>,
    presets: Vec<(String, String)>,
    state: Option<String>,
    pending: Vec<Outgoing>,
}

async fn stored(store: &Arc<dyn Store>, channel: &str, game_id: &str) -> Stored {
    Stored {
        game: store.active_game(channel).await.expect("game"),
        log: store.log(game_id).await.expect("log"),
        presets: store.presets(game_id).await.expect("presets"),
        state: store.channel_state(channel).await.expect("state"),
        pending: store.pending(Some(channel)).await.expect("pending"),
    }
}

/// A command's whole batch (its read mark, several log rows, presets, the channel's state and
/// its answers) is stored together, in order; a later batch removes presets and state.
async fn batch(store: Arc<dyn Store>) {
    store
        .create_game(&game("b1", "90"), "900")
        .await
        .expect("create");
    let rows = [row(0, "901"), row(1, "901"), row(2, "901")];
    store
        .write(&[
            read("90", "901"),
            Write::Append {
                game_id: "b1".to_string(),
                channel: "90".to_string(),
                rows: rows.to_vec(),
                message_id: "901".to_string(),
                revealed: true,
            },
            presets("b1", "7", Some(r#"{"bid":7}"#)),
            presets("b1", "8", Some(r#"{"bid":"pass"}"#)),
            state("90", Some(r#"{"signups":["ann"]}"#), "901"),
            Write::Outbox(parcel("90", "901")),
            Write::Outbox(parcel("90", "901-prompt")),
        ])
        .await
        .expect("the batch");
    let now = stored(&store, "90", "b1").await;
    assert_eq!(now.log, rows);
    assert!(now.game.expect("game").revealed);
    assert_eq!(
        now.presets,
        [
            ("7".to_string(), r#"{"bid":7}"#.to_string()),
            ("8".to_string(), r#"{"bid":"pass"}"#.to_string())
        ]
    );
    assert_eq!(now.state.as_deref(), Some(r#"{"signups":["ann"]}"#));
    assert_eq!(
        now.pending,
        [parcel("90", "901"), parcel("90", "901-prompt")]
    );
    assert!(store.seen("90", "901").await.expect("seen"));
    // The next command's batch: one preset and the state removed, a row, an answer.
    store
        .write(&[
            read("90", "902"),
            append("b1", "90", &[row(3, "902")], "902"),
            presets("b1", "7", None),
            state("90", None, "902"),
            Write::Outbox(parcel("90", "902")),
        ])
        .await
        .expect("the next batch");
    let now = stored(&store, "90", "b1").await;
    assert_eq!(now.log.len(), 4);
    assert_eq!(
        now.presets,
        [("8".to_string(), r#"{"bid":"pass"}"#.to_string())]
    );
    assert_eq!(now.state, None);
    assert_eq!(now.pending.len(), 3);
    assert!(store.seen("90", "902").await.expect("seen"));
}

/// A message read before is refused by its read mark, with nothing of its batch stored: not
/// what comes after the mark, nor what comes before it.
async fn duplicate_read(store: Arc<dyn Store>) {
    store
        .create_game(&game("d1", "92"), "920")
        .await
        .expect("create");
    store
        .write(&[
            read("92", "921"),
            append("d1", "92", &[row(0, "921")], "921"),
            presets("d1", "7", Some("[1]")),
            Write::Outbox(parcel("92", "921")),
        ])
        .await
        .expect("the first delivery");
    let before = stored(&store, "92", "d1").await;
    let refused = store
        .write(&[
            read("92", "921"),
            append("d1", "92", &[row(1, "921")], "921"),
            presets("d1", "7", Some("[2]")),
            state("92", Some("{}"), "921"),
            Write::Outbox(parcel("92", "921-again")),
        ])
        .await
        .expect_err("delivered twice");
    assert!(
        matches!(
            &refused,
            StoreError::AlreadyRead { channel, message_id } if channel == "92" && message_id == "921"
        ),
        "{refused:?}"
    );
    assert_eq!(stored(&store, "92", "d1").await, before);
    // The read mark last: the writes before it are rolled back with it.
    let refused = store
        .write(&[
            presets("d1", "8", Some("[3]")),
            Write::Outbox(parcel("92", "922")),
            append("d1", "92", &[row(1, "922")], "922"),
            read("92", "921"),
        ])
        .await
        .expect_err("read before");
    assert!(
        matches!(refused, StoreError::AlreadyRead { .. }),
        "{refused:?}"
    );
    assert_eq!(stored(&store, "92", "d1").await, before);
    assert!(!store.seen("92", "922").await.expect("seen"));
    // And the store goes on: the next message is stored, whole.
    store
        .write(&[
            read("92", "922"),
            append("d1", "92", &[row(1, "922")], "922"),
            Write::Outbox(parcel("92", "922")),
        ])
        .await
        .expect("the next message");
    let now = stored(&store, "92", "d1").await;
    assert_eq!(now.log.len(), 2);
    assert_eq!(now.pending.len(), 2);
}

/// A batch that fails midway (a log position taken) or at its last write (an outbox key taken)
/// stores nothing, and leaves no transaction open: the next write is stored, and committed.
async fn failure_midway(store: Arc<dyn Store>) {
    store
        .create_game(&game("f1", "94"), "940")
        .await
        .expect("create");
    store
        .write(&[
            read("94", "941"),
            append("f1", "94", &[row(0, "941")], "941"),
            Write::Outbox(parcel("94", "941")),
        ])
        .await
        .expect("a move");
    let before = stored(&store, "94", "f1").await;
    let failed = store
        .write(&[
            read("94", "942"),
            presets("f1", "7", Some("[1]")),
            state("94", Some("{}"), "942"),
            append("f1", "94", &[row(1, "942"), row(0, "942")], "942"),
            Write::Outbox(parcel("94", "942")),
        ])
        .await
        .expect_err("seq 0 is taken");
    assert!(matches!(failed, StoreError::Conflict(_)), "{failed:?}");
    assert_eq!(stored(&store, "94", "f1").await, before);
    assert!(!store.seen("94", "942").await.expect("seen"));
    store
        .write(&[
            read("94", "942"),
            append("f1", "94", &[row(1, "942")], "942"),
            presets("f1", "7", Some("[1]")),
            Write::Outbox(parcel("94", "942")),
        ])
        .await
        .expect("the next write");
    let after = stored(&store, "94", "f1").await;
    assert_eq!(after.log.len(), 2);
    assert_eq!(after.presets.len(), 1);
    assert_eq!(after.pending.len(), 2);
    assert!(store.seen("94", "942").await.expect("seen"));
    // The last write fails (the answer's key is taken): the same.
    let failed = store
        .write(&[
            read("94", "943"),
            append("f1", "94", &[row(2, "943")], "943"),
            presets("f1", "7", None),
            Write::Outbox(parcel("94", "942")),
        ])
        .await
        .expect_err("the key is taken");
    assert!(matches!(failed, StoreError::Conflict(_)), "{failed:?}");
    assert_eq!(stored(&store, "94", "f1").await, after);
    assert!(!store.seen("94", "943").await.expect("seen"));
    // The same writes with a fresh key (the same statements as the failed batch) are stored.
    store
        .write(&[
            read("94", "943"),
            append("f1", "94", &[row(2, "943")], "943"),
            presets("f1", "7", None),
            Write::Outbox(parcel("94", "943")),
        ])
        .await
        .expect("the same batch, its key free");
    let after = stored(&store, "94", "f1").await;
    assert_eq!(after.log.len(), 3);
    assert!(after.presets.is_empty());
    assert_eq!(after.pending.len(), 3);
    // Single writes go on too.
    store.advance_cursor("94", "943").await.expect("cursor");
    store.delivered("94", "941").await.expect("delivered");
    assert_eq!(
        store.cursor("94").await.expect("cursor").as_deref(),
        Some("943")
    );
    assert_eq!(store.pending(Some("94")).await.expect("pending").len(), 2);
}

async fn seen(store: Arc<dyn Store>) {
    assert!(!store.seen("40", "1").await.expect("seen"));
    store.mark_seen("40", "1").await.expect("mark");
    store.mark_seen("40", "1").await.expect("mark twice");
    assert!(store.seen("40", "1").await.expect("seen"));
    assert!(!store.seen("41", "1").await.expect("seen"), "per channel");
}

async fn notify(store: Arc<dyn Store>) {
    assert_eq!(store.notify_mode("7").await.expect("read"), None);
    store.set_notify_mode("7", Some("dm")).await.expect("set");
    store
        .set_notify_mode("7", Some("dm"))
        .await
        .expect("set again");
    assert_eq!(
        store.notify_mode("7").await.expect("read").as_deref(),
        Some("dm")
    );
    assert_eq!(
        store.notify_mode("8").await.expect("read"),
        None,
        "per player"
    );
    store.set_notify_mode("7", None).await.expect("clear");
    assert_eq!(store.notify_mode("7").await.expect("read"), None);
}

/// The channels' servers (a second write replaces the first) and each server's standings page
/// token (kept once made; found back by it).
async fn servers(store: Arc<dyn Store>) {
    assert!(store.channel_servers().await.expect("read").is_empty());
    store.set_channel_server("9", "700").await.expect("set");
    store.set_channel_server("10", "500").await.expect("set");
    store.set_channel_server("9", "701").await.expect("replace");
    assert_eq!(
        store.channel_servers().await.expect("read"),
        [
            ("10".to_string(), "500".to_string()),
            ("9".to_string(), "701".to_string())
        ],
        "by channel, in byte order"
    );
    let first = "0123456789abcdef0123456789abcdef";
    let other = "fedcba9876543210fedcba9876543210";
    let token = store.standings_token("500", first).await.expect("a token");
    if token.is_none() {
        return; // a store that keeps no pages
    }
    assert_eq!(token.as_deref(), Some(first));
    assert_eq!(
        store
            .standings_token("500", other)
            .await
            .expect("a token")
            .as_deref(),
        Some(first),
        "a server keeps its first token"
    );
    assert_eq!(
        store
            .server_of_standings(first)
            .await
            .expect("a read")
            .as_deref(),
        Some("500")
    );
    assert_eq!(
        store.server_of_standings(other).await.expect("a read"),
        None
    );
}

async fn cursors(store: Arc<dyn Store>) {
    assert_eq!(store.cursor("50").await.expect("cursor"), None);
    store.advance_cursor("50", "99").await.expect("advance");
    assert_eq!(
        store.cursor("50").await.expect("cursor").as_deref(),
        Some("99")
    );
    // Snowflakes compare as numbers: 100 > 99 although "100" < "99" as text.
    store.advance_cursor("50", "100").await.expect("advance");
    assert_eq!(
        store.cursor("50").await.expect("cursor").as_deref(),
        Some("100")
    );
    store.advance_cursor("50", "99").await.expect("never back");
    store.advance_cursor("50", "100").await.expect("same");
    assert_eq!(
        store.cursor("50").await.expect("cursor").as_deref(),
        Some("100")
    );
    store
        .create_game(&game("g1", "50"), "1")
        .await
        .expect("create");
    store
        .create_game(&game("g2", "51"), "2")
        .await
        .expect("create");
    assert_eq!(
        store.active_cursors().await.expect("cursors"),
        vec![
            ("50".to_string(), Some("100".to_string())),
            ("51".to_string(), None)
        ]
    );
}

async fn verbatim_text(store: Arc<dyn Store>) {
    let text = "**build WLW Shannon** 🚂 «quotes» \"double\" 'single' \\ back\nline\ttab ∑ 日本語";
    let mut g = game("g-ü", "60");
    g.setup_json = format!(r#"{{"note":"{}"}}"#, "ẞ🚂");
    store.create_game(&g, "600").await.expect("create");
    let mut r = row(0, "601");
    r.text = text.to_string();
    r.author_name = "Zoë 🦊".to_string();
    store
        .append("g-ü", "60", &[r.clone()], "601", false)
        .await
        .expect("append");
    assert_eq!(store.log("g-ü").await.expect("log"), vec![r]);
    assert_eq!(store.active_game("60").await.expect("read"), Some(g));
}

/// A game played through the table core; what a fresh table loads from the store is the same.
async fn played_game(store: Arc<dyn Store>) {
    let mut table = common::table_on(store.clone(), "70", Some(common::SEED)).await;
    common::setup_game(&mut table, 1000).await;
    let mut rng = common::Rng::new(7);
    let mut next = 1001;
    let played = common::play_moves(&mut table, &mut rng, 60, &mut next).await;
    assert!(played > 10, "only {played} moves");
    let undo = table
        .handle(&common::message(next, "mod", "!undo", true))
        .await;
    assert_eq!(undo.verdict, Verdict::Accepted, "{}", undo.text());
    let replayed = common::table_on(store.clone(), "70", Some(common::SEED)).await;
    assert!(replayed.frozen().is_none());
    assert_eq!(replayed.dump(), table.dump());
    // A message already read is a duplicate for the replayed table too.
    let mut replayed = replayed;
    let again = replayed
        .handle(&common::message(1001, "ann", "**pass**", false))
        .await;
    assert_eq!(again.verdict, Verdict::Duplicate);
}

async fn sqlite_memory() -> Arc<dyn Store> {
    SqliteStore::open(":memory:")
        .await
        .expect("memory")
        .shared()
}

#[tokio::test]
async fn the_memory_store_for_tests_keeps_the_contract() {
    for (name, check) in checks() {
        eprintln!("memory store {name}");
        let store: Arc<dyn Store> = MemoryStore::new().shared();
        assert!(store.sole_writer());
        check(store).await;
    }
}

#[tokio::test]
async fn sqlite_in_memory_keeps_the_contract() {
    for (name, check) in checks() {
        eprintln!("sqlite :memory: {name}");
        check(sqlite_memory().await).await;
    }
}

#[tokio::test]
async fn a_sqlite_file_keeps_the_contract() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, check) in checks() {
        eprintln!("sqlite file {name}");
        let path = dir.path().join(format!("{name}.db"));
        let store = SqliteStore::open(&path.to_string_lossy())
            .await
            .expect("file");
        check(store.shared()).await;
        store.shared().close().await;
    }
}

#[tokio::test]
async fn postgresql_keeps_the_contract_and_the_ownership_of_channels() {
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    for (name, check) in checks() {
        eprintln!("postgresql {name}");
        let url = server.database().await;
        let store = PostgresStore::open(&url).await.expect("postgres");
        check(store.shared()).await;
        store.shared().close().await;
    }
    // The same checks with ownership on: a process writes only to channels it owns.
    let url = server.database().await;
    let owner = PostgresStore::open_owner(&url).await.expect("postgres");
    let owned: Arc<dyn Store> = owner.shared();
    let refused = owned
        .mark_seen("80", "1")
        .await
        .expect_err("not claimed yet");
    assert!(matches!(refused, StoreError::NotOwner { .. }), "{refused}");
    assert!(refused.to_string().contains(NOT_OWNER), "{refused}");
    for channel in ["10", "11", "12", "20", "9", "70"] {
        assert_eq!(
            owner.claim(channel, Some("5")).await.expect("claim"),
            Claim::New
        );
    }
    assert_eq!(owner.claim("10", None).await.expect("claim"), Claim::Mine);
    games(owned.clone()).await;
    played_game(owned.clone()).await;
    ownership(&server).await;
}

/// Two processes (two stores with their own liveness sessions) and one database: one owner
/// per channel, writes fenced, and a takeover when the owner's session is gone.
async fn ownership(server: &pg::TestPostgres) {
    let url = server.database().await;
    let a = PostgresStore::open_owner(&url).await.expect("a");
    let b = PostgresStore::open_owner(&url).await.expect("b");
    assert_ne!(a.token(), b.token());
    assert_eq!(a.claim("1", Some("9")).await.expect("claim"), Claim::New);
    assert_eq!(a.claim("1", Some("9")).await.expect("claim"), Claim::Mine);
    assert_eq!(b.claim("1", Some("9")).await.expect("claim"), Claim::Other);
    assert!(a.holds("1").await.expect("holds"));
    assert!(!b.holds("1").await.expect("holds"));
    a.create_game(&game("g1", "1"), "100")
        .await
        .expect("a writes");
    let refused = b
        .append("g1", "1", &[row(0, "101")], "101", false)
        .await
        .expect_err("b may not write");
    assert!(matches!(refused, StoreError::NotOwner { .. }), "{refused}");
    assert!(refused.to_string().contains(NOT_OWNER), "{refused}");
    assert!(b.advance_cursor("1", "101").await.is_err());
    assert!(b.orphans().await.expect("orphans").is_empty());

    // Two claims racing for a free channel: exactly one wins.
    let (x, y) = tokio::join!(a.claim("2", None), b.claim("2", None));
    let outcomes = [x.expect("claim"), y.expect("claim")];
    assert_eq!(
        outcomes.iter().filter(|c| **c == Claim::New).count(),
        1,
        "{outcomes:?}"
    );
    assert_eq!(
        outcomes.iter().filter(|c| **c == Claim::Other).count(),
        1,
        "{outcomes:?}"
    );

    // a's process ends: its liveness session closes; its channels are orphans, b takes one.
    let a_token = a.token().map(str::to_string);
    Store::close(&a).await;
    drop(a);
    wait_until_gone(&b, a_token.as_deref()).await;
    assert_eq!(
        b.orphans().await.expect("orphans"),
        vec![("1".to_string(), Some("9".to_string()))]
    );
    assert_eq!(b.claim("1", None).await.expect("claim"), Claim::New);
    b.append("g1", "1", &[row(0, "101")], "101", false)
        .await
        .expect("b owns it now");
    assert!(b.orphans().await.expect("orphans").is_empty());
    Store::close(&b).await;
}

/// Waits (bounded) until the server has seen a process's liveness session end.
async fn wait_until_gone(store: &PostgresStore, token: Option<&str>) {
    let token = token.expect("a token");
    for _ in 0..200 {
        let gone = !store.process_alive(token).await.expect("query");
        if gone {
            return;
        }
        tokio::time::sleep(std::time::Duration::from_millis(25)).await;
    }
    panic!("the closed process still looks alive");
}
