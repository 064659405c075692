//! Automa seats at the table, end to end: whole games with automa seats through the real
//! `gaugebot play` binary (both games, `--automa cheap`), and through the real table core and
//! SQLite storage with chosen times: a player replaced by an automa after a restart (and a
//! restart before the automa moved: the same move follows), `!undo` across automa moves, an
//! automa in a clocked game (never reminded, never on a clock), and determinism.

mod binary;

use std::path::{Path, PathBuf};

use chrono::{DateTime, Duration, Utc};
use gaugebot::dice::Seed;
use gaugebot_store::SqliteStore;
use gaugebot_table::game::automa::AutomaLevel;
use gaugebot_table::weeks::duration::parse_time;
use gaugebot_table::{Author, Incoming, Response, Store, TableSettings, Tables, ToAct, Verdict};
use serde_json::Value;

const SEED: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

// ----- the console -----

/// A transcript: the setup, then every human line `rounds` times (refused lines change
/// nothing; the accepted ones move the game on until it ends). Every line has a fixed message
/// id, so that the audited draws (keyed by it) are the same in every run.
fn spam(setup: &str, humans: &[&str], moves: &[&str], rounds: usize) -> String {
    let mut lines = vec![setup.to_string()];
    for _ in 0..rounds {
        for human in humans {
            for m in moves {
                lines.push(format!("{human}: **{m}**"));
            }
        }
    }
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| format!("[{}] {line}\n", 1_300_000_000_000_000_000 + i as u64))
        .collect()
}

fn console(name: &str, input: &str) -> (String, Value) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join(format!("{name}.db"));
    binary::play(&db, input, &["--seed", SEED, "--automa", "cheap"])
}

#[test]
fn an_irish_gauge_game_with_an_automa_seat_plays_to_its_end_at_the_console() {
    let input = spam(
        "mod: !setup ann bob automa",
        &["ann", "bob"],
        &["pass", "dividends"],
        150,
    );
    let (out, dump) = console("ig", &input);
    assert!(out.contains("**Game over.**"), "{out}");
    assert!(
        out.contains("🤖 **Automa 1: "),
        "the automa's moves are posted: {out}"
    );
    assert!(
        out.contains("🤖 Automa seats (a computer player moves at once"),
        "reports mark the automa seat"
    );
    assert!(!out.contains("@Automa"), "an automa is never pinged");
    assert!(dump.is_object());
    // The same input gives the same game: the automa's moves are seeded from public data.
    let (again, _) = console("ig-again", &input);
    assert_eq!(no_heads(&out), no_heads(&again));
}

#[test]
fn a_privates_game_with_two_automa_seats_plays_to_its_end_at_the_console() {
    let input = spam(
        "mod: !setup privates ann automa automa",
        &["ann"],
        &["pass", "buy", "drop"],
        150,
    );
    let (out, _) = console("pv", &input);
    assert!(out.contains("**Game over.**"), "{out}");
    assert!(out.contains("🤖 **Automa 1: ") && out.contains("🤖 **Automa 2: "));
    let (again, _) = console("pv-again", &input);
    assert_eq!(
        no_heads(&out),
        no_heads(&again),
        "the same position gives the same move"
    );
}

#[test]
fn a_game_of_automa_alone_plays_itself_and_its_log_marks_the_automa_moves() {
    let (out, _) = console(
        "solo",
        "mod: !setup privates automa automa automa\nmod: !log 3\n",
    );
    assert!(out.contains("**Game over.**"), "{out}");
    assert!(
        out.contains("(automa)"),
        "the log marks the automa's moves: {out}"
    );
}

#[test]
fn seating_an_automa_is_refused_clearly_when_it_cannot_be_done() {
    let (out, _) = binary::run(
        &tempfile::tempdir().expect("dir").path().join("r.db"),
        "mod: !setup ann bob cat\nmod: !sub automa @dan\nmod: !sub @ann automa\nmod: !sub @bob automa\nmod: !sub automa @dan\nmod: !sub automa1 @dan\n",
        &["--automa", "cheap"],
    );
    assert!(out.contains("not a player"), "no automa seated yet: {out}");
    assert!(out.contains("Automa 1 takes ann's seat"), "{out}");
    assert!(out.contains("Automa 2 takes bob's seat"), "{out}");
    assert!(
        out.contains("Which automa?"),
        "two automa: which one: {out}"
    );
    assert!(out.contains("dan takes Automa 1's seat"), "{out}");
}

// ----- the table core with chosen times -----

struct World {
    dir: tempfile::TempDir,
    store: SqliteStore,
    tables: Tables,
    now: DateTime<Utc>,
    next_id: u64,
}

fn t0() -> DateTime<Utc> {
    parse_time("2025-03-01T12:00:00Z").expect("time")
}

async fn open(db: &Path) -> (SqliteStore, Tables) {
    let store = SqliteStore::open(&db.to_string_lossy())
        .await
        .expect("the database opens");
    let settings = TableSettings {
        map_after_build: false,
        fixed_seed: Some(Seed::from_hex(SEED).expect("seed")),
        moderator_name: "mod".into(),
        automa: AutomaLevel::Cheap,
        ..TableSettings::default()
    };
    let host = gaugebot::games::host(None, settings).expect("templates");
    let tables = Tables::new(store.shared(), host);
    (store, tables)
}

const C: &str = "c1";

impl World {
    async fn new() -> World {
        let dir = tempfile::tempdir().expect("temp dir");
        let (store, tables) = open(&dir.path().join("automa.db")).await;
        World {
            dir,
            store,
            tables,
            now: t0(),
            next_id: 1,
        }
    }

    fn db(&self) -> PathBuf {
        self.dir.path().join("automa.db")
    }

    async fn restart(&mut self) {
        self.store.close().await;
        let (store, tables) = open(&self.db()).await;
        self.store = store;
        self.tables = tables;
    }

    /// A message, without what follows it (the automa's moves, the tick).
    async fn handle(&mut self, author: &str, text: &str) -> Response {
        self.next_id += 1;
        let msg = Incoming {
            message_id: self.next_id.to_string(),
            author: Author {
                id: author.to_lowercase(),
                name: author.to_string(),
                is_moderator: author == "mod",
                mention: format!("@{author}"),
            },
            text: text.to_string(),
            at: chrono::SubsecRound::trunc_subsecs(self.now, 0),
            mentions: Vec::new(),
        };
        self.tables.handle(C, &msg).await.expect("the table loads")
    }

    /// A message, then the automa's moves and the tick (as the console does): the reply and
    /// what followed.
    async fn say(&mut self, author: &str, text: &str) -> (Response, String) {
        let response = self.handle(author, text).await;
        let after = self.tick().await;
        (response, after)
    }

    async fn tick(&mut self) -> String {
        texts(&self.tables.tick(self.now).await)
    }

    async fn later(&mut self, by: Duration) -> String {
        self.now += by;
        self.tick().await
    }

    async fn log(&mut self) -> Vec<Value> {
        let table = self.tables.table(C).await.expect("table");
        let game = table.game_id().expect("a game").to_string();
        drop(table);
        self.store
            .log(&game)
            .await
            .expect("log")
            .iter()
            .map(|r| serde_json::from_str(&r.entry_json).expect("json"))
            .collect()
    }

    async fn to_act(&self) -> ToAct {
        let table = self.tables.table(C).await.expect("table");
        table.to_act().expect("a game")
    }

    async fn dump(&self) -> Value {
        let table = self.tables.table(C).await.expect("table");
        table.dump().expect("a game")
    }

    /// The name of the seat to act, if a player is to act.
    async fn to_act_name(&self) -> Option<String> {
        let table = self.tables.table(C).await.expect("table");
        table.player_to_act().map(|p| p.name)
    }

    async fn automa_may_move(&self) -> bool {
        self.tables.table(C).await.expect("table").automa_to_act()
    }
}

fn texts(due: &[(String, Response)]) -> String {
    due.iter()
        .map(|(_, r)| r.text())
        .collect::<Vec<_>>()
        .join("\n")
}

/// The automa's moves in the log: the entries right after a `proxy` marker `automa`.
fn automa_moves(log: &[Value]) -> Vec<Value> {
    log.windows(2)
        .filter(|w| w[0]["event"] == "proxy" && w[0]["why"] == "automa")
        .map(|w| w[1].clone())
        .collect()
}

const MANUAL: &str = "dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

#[tokio::test]
async fn a_player_replaced_by_an_automa_after_a_restart_and_a_restart_before_it_moved() {
    let mut moves = Vec::new();
    for _ in 0..2 {
        let mut w = World::new().await;
        let (r, _) = w.say("mod", &format!("!setup ann bob cat {MANUAL}")).await;
        assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
        let (r, _) = w.say("ann", "**bid 7**").await;
        assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
        w.restart().await;
        // bob stopped posting: his seat, with its cash, goes to an automa while he is to act.
        let r = w.handle("mod", "!sub @bob automa").await;
        assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
        assert!(
            r.text().contains("Automa 1 takes bob's seat"),
            "{}",
            r.text()
        );
        assert_eq!(w.to_act_name().await.as_deref(), Some("Automa 1"));
        // The process dies before the automa's move is made: nothing is lost, it moves once
        // the table is next ticked.
        w.restart().await;
        let after = w.tick().await;
        assert!(after.contains("🤖 **Automa 1: "), "{after}");
        assert_ne!(w.to_act_name().await.as_deref(), Some("Automa 1"));
        let log = w.log().await;
        let made = automa_moves(&log);
        assert_eq!(made.len(), 1, "{log:?}");
        assert_eq!(made[0]["seat"], 1);
        moves.push(made[0].clone());
    }
    assert_eq!(moves[0], moves[1], "the same position gives the same move");
}

#[tokio::test]
async fn undo_takes_back_the_last_human_move_with_the_automa_moves_after_it() {
    let mut w = World::new().await;
    // The automa bids first in every initial auction (order 1,2,3: Automa 1, ann, bob).
    let (r, after) = w
        .say("mod", &format!("!setup automa ann bob {MANUAL}"))
        .await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    assert!(
        after.contains("🤖 **Automa 1: "),
        "the automa moves first: {after}"
    );
    // The humans pass whenever they are to act, until a human move is followed by the
    // automa's.
    let mut before = None;
    for _ in 0..40 {
        let who = w.to_act_name().await.expect("a player acts");
        assert_ne!(who, "Automa 1", "the automa never waits");
        let position = w.dump().await;
        let (r, after) = w.say(&who, "**pass**").await;
        assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
        if after.contains("🤖 **Automa 1: ") {
            before = Some((who, position));
            break;
        }
    }
    let (who, position) = before.expect("the automa moved after a human");
    let (r, after) = w.say("mod", "!undo").await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    assert!(
        r.text().contains(&format!("{who}'s **pass**")),
        "{}",
        r.text()
    );
    assert!(r.text().contains("Automa 1's **"), "{}", r.text());
    assert!(after.is_empty(), "nothing follows the undo: {after}");
    assert_eq!(w.dump().await, position, "back to before the human's pass");
    assert_eq!(w.to_act_name().await, Some(who.clone()));
    // Undo everything: the automa is to act at the start again, but waits for a person.
    for _ in 0..60 {
        let (r, _) = w.say("mod", "!undo").await;
        if r.verdict != Verdict::Accepted {
            break;
        }
    }
    assert_eq!(w.to_act_name().await.as_deref(), Some("Automa 1"));
    assert!(!w.automa_may_move().await, "held after an undo");
    assert_eq!(
        w.later(Duration::hours(100)).await,
        "",
        "not even at a tick"
    );
    // A moderator moves for it; then it plays on by itself.
    let (r, _) = w.say("mod", "!act automa **pass**").await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    for _ in 0..40 {
        let who = w.to_act_name().await.expect("a player acts");
        let (_, after) = w.say(&who, "**pass**").await;
        if after.contains("🤖 **Automa 1: ") {
            return;
        }
    }
    panic!("the automa moves again once a human has moved");
}

#[tokio::test]
async fn an_automa_in_a_clocked_game_is_never_on_a_clock_nor_reminded() {
    let mut w = World::new().await;
    let (r, _) = w
        .say("mod", &format!("!setup ann bob automa {MANUAL}"))
        .await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    let (r, _) = w.say("mod", "!clock turn:48h auction:24h remind:50%").await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    // Weeks pass with nobody posting: the humans are reminded and passed automatically at
    // their auction clocks; the automa answers at once every time.
    let mut posted = String::new();
    for _ in 0..30 {
        posted.push_str(&w.later(Duration::hours(13)).await);
        posted.push('\n');
    }
    assert!(posted.contains("is passed automatically: the auction clock ran out"));
    assert!(posted.contains("🤖 **Automa 1: "), "{posted}");
    for line in posted.lines().filter(|l| l.starts_with('⏰')) {
        assert!(
            !line.contains("Automa"),
            "an automa is never reminded: {line}"
        );
    }
    let log = w.log().await;
    assert!(log
        .iter()
        .filter(|e| e["event"] == "reminded")
        .all(|e| e["seat"] != 2));
    assert!(
        log.iter()
            .filter(|e| e["event"] == "proxy" && e["why"] == "clock")
            .all(|e| e["seat"] != 2),
        "the automa never runs out of time"
    );
    // `!waiting` never lists an automa, and the table never waits for one.
    let table = w.tables.table(C).await.expect("table");
    if let Some(clock) = table.decision_clock(w.now) {
        assert!(!clock.player.id.starts_with("automa:"));
    }
    drop(table);
    let (r, _) = w.say("mod", "!status").await;
    assert!(r.text().contains("🤖 Automa seats"), "{}", r.text());
    assert!(matches!(w.to_act().await, ToAct::Player { .. }));
}

#[test]
fn in_privates_the_automa_takes_the_seat_under_its_own_name() {
    let (out, dump) = console(
        "pv-sub",
        "[1300000000000000001] mod: !setup privates ann bob cat\n[1300000000000000002] mod: !sub @bob automa\n",
    );
    let after = out
        .split("🔁 Automa 1 takes bob's seat")
        .nth(1)
        .expect("the substitution");
    assert!(after.contains("Automa 1"), "{after}");
    assert!(
        !after.contains("bob:") && !after.contains("bob ("),
        "{after}"
    );
    assert!(dump.to_string().contains("Automa 1"), "{dump}");
}

/// A text without the record's head lines (`-# Record …`): the head hashes each message's id
/// and time, which differ between two runs of the same game.
fn no_heads(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("-# Record"))
        .collect::<Vec<_>>()
        .join("\n")
}
