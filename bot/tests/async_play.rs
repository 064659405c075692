//! Play over weeks, deterministically: every message carries a chosen time and the tables'
//! tick is driven with chosen times (no sleeps). Irish Gauge through the real table core and
//! SQLite storage: reminders, automatic passes at a deadline, absences, substitutes, a
//! moderator's move for a seat, secret presets resolving a whole auction, `!waiting` across
//! games, signups with extension and an audited random pick (checked by both verifiers), and
//! restarts that neither repeat nor lose anything.

use std::path::{Path, PathBuf};
use std::process::Command;

use chrono::{DateTime, Duration, Utc};
use gaugebot::dice::Seed;
use gaugebot_store::SqliteStore;
use gaugebot_table::answer::utc;
use gaugebot_table::weeks::duration::parse_time;
use gaugebot_table::{Author, Incoming, Response, Store, TableSettings, Tables, Verdict};
use irish_gauge::{Game, Railway};
use serde_json::Value;

const SEED: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";
const SETUP: &str = "!setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";
const CLOCK: &str = "!clock turn:48h auction:24h remind:50%";
const C1: &str = "c1";
const C2: &str = "c2";

/// A bot on a database file, with a clock the test moves.
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
        ..TableSettings::default()
    };
    let host = gaugebot::games::host(None, settings).expect("templates");
    let tables = Tables::new(store.shared(), host);
    (store, tables)
}

impl World {
    async fn new() -> World {
        let dir = tempfile::tempdir().expect("temp dir");
        let (store, tables) = open(&dir.path().join("weeks.db")).await;
        World {
            dir,
            store,
            tables,
            now: t0(),
            next_id: 1,
        }
    }

    fn db(&self) -> PathBuf {
        self.dir.path().join("weeks.db")
    }

    /// A restart: the process goes away, a new one opens the same database.
    async fn restart(&mut self) {
        self.store.close().await;
        let (store, tables) = open(&self.db()).await;
        self.store = store;
        self.tables = tables;
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
            at: chrono::SubsecRound::trunc_subsecs(self.now, 0),
            mentions: Vec::new(),
        }
    }

    /// A message in a channel, then the tick (as the console does after every line).
    async fn say(&mut self, channel: &str, author: &str, text: &str) -> Response {
        let msg = self.message(author, text);
        let response = self
            .tables
            .handle(channel, &msg)
            .await
            .expect("the table loads");
        let due = self.tables.tick(self.now).await;
        assert!(
            due.is_empty(),
            "nothing falls due on a message at the same time: {}",
            texts(&due)
        );
        response
    }

    /// A direct message to the bot.
    async fn dm(&mut self, author: &str, text: &str) -> Response {
        let mut msg = self.message(author, text);
        msg.author.is_moderator = false;
        self.tables
            .across(true, &msg)
            .await
            .expect("direct messages are answered across the tables")
    }

    /// Moves the clock on and runs the tick: what it posted, all channels.
    async fn later(&mut self, by: Duration) -> String {
        self.now += by;
        texts(&self.tables.tick(self.now).await)
    }

    async fn log(&mut self, channel: &str) -> Vec<Value> {
        let table = self.tables.table(channel).await.expect("table");
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

    async fn game(&self, channel: &str) -> Game {
        self.tables
            .table(channel)
            .await
            .expect("table")
            .state::<Game>()
            .cloned()
            .expect("an Irish Gauge game")
    }

    /// Everyone passes the five initial auctions: ann takes every share free and has the
    /// first turn.
    async fn pass_initial_auctions(&mut self, channel: &str) {
        for _ in 0..5 {
            for player in ["ann", "bob", "cat"] {
                let r = self.say(channel, player, "**pass**").await;
                assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
            }
        }
    }
}

fn texts(due: &[(String, Response)]) -> String {
    due.iter()
        .map(|(_, r)| r.text())
        .collect::<Vec<_>>()
        .join("\n")
}

fn h(hours: i64) -> Duration {
    Duration::hours(hours)
}

async fn clocked_game(world: &mut World, channel: &str) {
    let r = world.say(channel, "mod", SETUP).await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    let r = world.say(channel, "mod", CLOCK).await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
}

#[tokio::test]
async fn a_reminder_comes_once_at_the_remind_point_and_never_again_after_a_restart() {
    let mut w = World::new().await;
    clocked_game(&mut w, C1).await;
    // ann is asked to bid at t0; 24h auction clock, reminder at 50%.
    assert_eq!(w.later(h(11) + Duration::minutes(59)).await, "");
    let reminder = w.later(Duration::minutes(1)).await;
    assert!(
        reminder.starts_with("⏰ @ann: your bid or pass"),
        "{reminder}"
    );
    assert!(
        reminder.contains(&utc(t0() + h(24))),
        "the deadline in Discord markup: {reminder}"
    );
    assert_eq!(w.later(h(1)).await, "", "once only");
    w.restart().await;
    assert_eq!(w.later(h(1)).await, "", "not repeated after a restart");
    let reminders = |log: &[Value]| {
        log.iter()
            .filter(|e| e["entry"] == "table" && e["event"] == "reminded")
            .count()
    };
    assert_eq!(reminders(&w.log(C1).await), 1);

    // bob's bid: the reminder point passes while the bot is down; it comes once at start.
    let r = w.say(C1, "ann", "**bid 7**").await;
    assert!(r.text().contains("@bob"), "{}", r.text());
    w.now += h(20);
    w.restart().await;
    let overdue = w.later(Duration::zero()).await;
    assert!(overdue.starts_with("⏰ @bob"), "{overdue}");
    assert_eq!(w.later(h(1)).await, "");
    w.restart().await;
    assert_eq!(w.later(Duration::zero()).await, "");
    assert_eq!(reminders(&w.log(C1).await), 2);
}

#[tokio::test]
async fn an_auction_clock_that_runs_out_passes_the_player_automatically() {
    let mut w = World::new().await;
    clocked_game(&mut w, C1).await;
    w.say(C1, "ann", "**bid 7**").await;
    w.later(h(12)).await; // bob's reminder
    assert_eq!(w.later(h(11)).await, "");
    let passed = w.later(h(1)).await;
    assert!(
        passed.contains("bob is passed automatically: the auction clock ran out."),
        "{passed}"
    );
    assert!(
        passed.contains("@cat"),
        "the next player is pinged: {passed}"
    );
    let log = w.log(C1).await;
    let n = log.len();
    assert_eq!(
        log[n - 2],
        serde_json::json!({"entry": "table", "event": "proxy", "seat": 1, "why": "clock"})
    );
    assert_eq!(
        log[n - 1],
        serde_json::json!({"entry": "action", "seat": 1, "action": {"action": "pass"}})
    );
    let shown = w.say(C1, "cat", "!log 3").await.text();
    assert!(
        shown.contains("bob: **pass** (passed automatically: the auction clock ran out)"),
        "{shown}"
    );
    // The automatic pass is a move like any other: an undo takes it back.
    let undo = w.say(C1, "mod", "!undo").await;
    assert_eq!(undo.verdict, Verdict::Accepted, "{}", undo.text());
    assert!(undo.text().contains("bob's **pass**"), "{}", undo.text());
}

#[tokio::test]
async fn a_turn_deadline_pings_the_moderators_once_and_a_moderator_moves_for_the_seat() {
    let mut w = World::new().await;
    clocked_game(&mut w, C1).await;
    w.pass_initial_auctions(C1).await;
    // ann's turn began with cat's last pass, at t0.
    let reminder = w.later(h(24)).await;
    assert!(reminder.starts_with("⏰ @ann: your turn"), "{reminder}");
    assert_eq!(w.later(h(23)).await, "");
    let deadline = w.later(h(1)).await;
    assert!(
        deadline.contains("@ann: the clock of your turn") && deadline.contains("@mod:"),
        "the player and the moderator who set the clock: {deadline}"
    );
    assert!(deadline.contains("`!act @ann **…**`"), "{deadline}");
    assert_eq!(w.later(h(5)).await, "", "once only");
    w.restart().await;
    assert_eq!(w.later(h(1)).await, "", "not repeated after a restart");

    let before = w.log(C1).await.len();
    let refused = w.say(C1, "bob", "!act @ann **dividends**").await;
    assert_eq!(refused.verdict, Verdict::Refused);
    assert!(
        refused.text().contains("only a moderator"),
        "{}",
        refused.text()
    );
    let refused = w.say(C1, "mod", "!act @zed **dividends**").await;
    assert_eq!(refused.verdict, Verdict::Refused);
    assert!(
        refused.text().contains("zed is not a player"),
        "{}",
        refused.text()
    );
    let refused = w.say(C1, "mod", "!act @ann **bid 3**").await;
    assert_eq!(refused.verdict, Verdict::Refused, "{}", refused.text());
    assert_eq!(w.log(C1).await.len(), before, "a refusal changes nothing");

    let acted = w.say(C1, "mod", "!act @ann **dividends**").await;
    assert_eq!(acted.verdict, Verdict::Accepted, "{}", acted.text());
    assert!(
        acted.text().contains("ann calls for dividends (by mod)"),
        "{}",
        acted.text()
    );
    let log = w.log(C1).await;
    assert_eq!(
        log[before],
        serde_json::json!({"entry": "table", "event": "proxy", "seat": 0, "why": "moderator",
            "by": {"name": "mod", "id": "mod", "mention": "@mod"}})
    );
    assert_eq!(log[before + 1]["action"]["action"], "call_dividends");
    let shown = w.say(C1, "bob", "!log 2").await.text();
    assert!(
        shown.contains("ann: **dividends** (by mod for ann)"),
        "{shown}"
    );
}

#[tokio::test]
async fn an_absent_player_is_not_reminded_passes_auctions_and_their_turn_clock_pauses() {
    let mut w = World::new().await;
    clocked_game(&mut w, C1).await;
    // bob is away: when the bidding comes to him he passes at once.
    let away = w.say(C1, "bob", "!away 3d at sea").await;
    assert_eq!(away.verdict, Verdict::Accepted, "{}", away.text());
    assert!(away.text().contains("bob is away until"), "{}", away.text());
    let r = w.say(C1, "ann", "**bid 7**").await;
    assert!(
        r.text()
            .contains("bob is passed automatically: bob is away."),
        "{}",
        r.text()
    );
    assert!(r.text().contains("@cat"), "{}", r.text());
    assert_eq!(w.say(C1, "bob", "!back").await.verdict, Verdict::Accepted);
    assert_eq!(w.say(C1, "bob", "!back").await.verdict, Verdict::Refused);
    for bad in ["!away", "!away soon", "!away -2d", "!away 400d"] {
        let r = w.say(C1, "bob", bad).await;
        assert_eq!(r.verdict, Verdict::Refused, "{bad}: {}", r.text());
    }
    assert_eq!(
        w.say(C1, "zed", "!away 3d").await.verdict,
        Verdict::Refused,
        "only a player may be away"
    );
    w.say(C1, "cat", "**pass**").await;
    // The rest of the initial auctions.
    let game = w.game(C1).await;
    assert_eq!(game.railway(Railway::Cbsc).owners[0], Some(0));
    while w.game(C1).await.to_act() != (irish_gauge::Actor::Player { seat: 0 })
        || !w
            .game(C1)
            .await
            .railway(Railway::Mgw)
            .owners
            .iter()
            .any(Option::is_some)
    {
        let game = w.game(C1).await;
        let irish_gauge::Actor::Player { seat } = game.to_act() else {
            panic!("a player acts");
        };
        let name = game.name(seat).to_string();
        w.say(C1, &name, "**pass**").await;
    }
    // ann's turn from now: she is away for 3 days; her clock pauses (cap 7d).
    let start = w.now;
    w.say(C1, "ann", "!away 3d").await;
    assert_eq!(
        w.later(h(72)).await,
        "",
        "no reminder, no deadline while away"
    );
    // Back at 72h: the clock has run 0h; the reminder is at 24h more.
    assert_eq!(w.later(h(23)).await, "");
    let reminder = w.later(h(1)).await;
    assert!(reminder.starts_with("⏰ @ann: your turn"), "{reminder}");
    assert!(reminder.contains(&utc(start + h(72 + 48))), "{reminder}");
    let waiting = w.say(C1, "ann", "!waiting").await.text();
    assert!(waiting.contains("your turn"), "{waiting}");
    assert_eq!(w.later(h(23)).await, "");
    let deadline = w.later(h(1)).await;
    assert!(deadline.contains("ran out"), "{deadline}");
}

#[tokio::test]
async fn the_away_cap_limits_how_long_a_turn_clock_pauses() {
    let mut w = World::new().await;
    clocked_game(&mut w, C1).await;
    w.say(C1, "mod", "!clock away-cap:1d").await;
    w.pass_initial_auctions(C1).await;
    let away = w.say(C1, "ann", "!away 3d").await.text();
    assert!(
        away.contains("the away cap of this game is used up"),
        "{away}"
    );
    // Paused 24h only: the deadline is 24h + 48h after the turn began, though ann is away.
    assert_eq!(w.later(h(71)).await, "", "away: no reminder");
    let deadline = w.later(h(1)).await;
    assert!(
        deadline.contains("@ann: the clock of your turn"),
        "{deadline}"
    );
    // The cap is used: a new absence does not pause again.
    w.say(C1, "mod", "!act ann **dividends**").await;
    w.say(C1, "mod", "!draw white pink black").await;
    let again = w.say(C1, "ann", "!away 1d").await.text();
    assert!(again.contains("used up"), "{again}");
}

#[tokio::test]
async fn a_substitute_takes_the_seat_with_its_cash_and_shares() {
    let mut w = World::new().await;
    clocked_game(&mut w, C1).await;
    w.say(C1, "ann", "**pass**").await;
    w.say(C1, "bob", "**pass**").await;
    w.say(C1, "cat", "**bid 7**").await; // cat takes CBSC for £7
    let before = w.log(C1).await.len();
    for bad in [
        "!sub @zed @dan",
        "!sub @cat @ann",
        "!sub @cat",
        "!sub @cat @d@n",
    ] {
        let r = w.say(C1, "mod", bad).await;
        assert_eq!(r.verdict, Verdict::Refused, "{bad}: {}", r.text());
    }
    let r = w.say(C1, "bob", "!sub @cat @dan").await;
    assert_eq!(r.verdict, Verdict::Refused, "moderators only");
    assert_eq!(w.log(C1).await.len(), before, "refusals change nothing");

    let subbed = w.say(C1, "mod", "!sub @cat @dan").await;
    assert_eq!(subbed.verdict, Verdict::Accepted, "{}", subbed.text());
    let text = subbed.text();
    assert!(text.contains("dan takes cat's seat (seat 3)"), "{text}");
    assert!(
        text.contains("dan: £13, CBSC £7"),
        "the report shows it: {text}"
    );
    assert!(!text.contains("cat: £"), "{text}");
    w.restart().await;
    let game = w.game(C1).await;
    assert_eq!(game.name(2), "dan");
    assert_eq!(game.players()[2].cash, 13);
    assert_eq!(game.railway(Railway::Cbsc).owners[0], Some(2));
    let status = w.say(C1, "bob", "!status").await.text();
    assert!(status.contains("dan: £13"), "{status}");
    let log = w.say(C1, "bob", "!log 4").await.text();
    assert!(
        log.contains("cat: **bid 7**"),
        "old moves keep their author: {log}"
    );
    assert!(log.contains("mod: dan takes cat's seat (seat 3)"), "{log}");
    // dan plays the seat; cat no longer can.
    while w.game(C1).await.to_act() != (irish_gauge::Actor::Player { seat: 2 }) {
        let game = w.game(C1).await;
        let irish_gauge::Actor::Player { seat } = game.to_act() else {
            panic!("a player acts");
        };
        let name = game.name(seat).to_string();
        w.say(C1, &name, "**pass**").await;
    }
    let r = w.say(C1, "cat", "**pass**").await;
    assert_eq!(r.verdict, Verdict::Refused, "{}", r.text());
    let r = w.say(C1, "dan", "**pass**").await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
}

#[tokio::test]
async fn secret_presets_resolve_a_whole_auction_and_are_never_shown() {
    let mut w = World::new().await;
    clocked_game(&mut w, C1).await;
    // In the channel: refused, nothing stored.
    let r = w.say(C1, "ann", "!preset max CBSC 10").await;
    assert_eq!(r.verdict, Verdict::Refused);
    assert!(r.text().contains("direct message"), "{}", r.text());
    let game_id = "c1-1";
    assert!(w.store.presets(game_id).await.expect("presets").is_empty());
    // Bad presets are refused in the DM; nothing is stored.
    for bad in [
        "max CBSC 25",
        "max CBSC 6",
        "max XYZ 9",
        "bid 7",
        "max CBSC lots",
    ] {
        let r = w.dm("ann", &format!("!preset {bad}")).await;
        assert_eq!(r.verdict, Verdict::Refused, "{bad}: {}", r.text());
    }
    assert!(w.store.presets(game_id).await.expect("presets").is_empty());
    let r = w.dm("zed", "!preset pass").await;
    assert_eq!(r.verdict, Verdict::Refused, "{}", r.text());

    let r = w.dm("ann", "!preset max CBSC 10").await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    assert!(
        r.text().contains("up to £10"),
        "the owner sees it: {}",
        r.text()
    );
    assert_eq!(w.dm("bob", "!preset pass").await.verdict, Verdict::Accepted);
    assert_eq!(
        w.dm("cat", "!preset max CBSC 9").await.verdict,
        Verdict::Accepted
    );
    // Durable: a restart keeps them; the next tick resolves the whole auction.
    w.restart().await;
    let channel = w.later(Duration::minutes(1)).await;
    for line in [
        "ann bids £7 (preset).",
        "bob passes (preset).",
        "cat bids £8 (preset).",
        "ann bids £9 (preset).",
        "cat passes (preset).",
        "ann wins the CBSC £7 share for £9.",
    ] {
        assert!(channel.contains(line), "{line} in:\n{channel}");
    }
    for secret in ["£10", "up to", "max", "limit"] {
        assert!(!channel.contains(secret), "{secret} shown:\n{channel}");
    }
    let game = w.game(C1).await;
    assert_eq!(game.players()[0].cash, 11);
    // The WLW auction is next: bob's standing pass answers it, the others decide.
    assert_eq!(game.to_act(), irish_gauge::Actor::Player { seat: 0 });
    let log = w.say(C1, "bob", "!log 20").await.text();
    assert!(log.contains("cat: **bid 8** (preset)"), "{log}");
    assert!(!log.contains("£10"), "{log}");
    // cat's order on the sold share is spent and dropped; bob's stands.
    let stored = w.store.presets(game_id).await.expect("presets");
    let players: Vec<&str> = stored.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(players, ["bob"], "{stored:?}");
    let listed = w.dm("bob", "!preset").await;
    assert_eq!(listed.verdict, Verdict::Answered);
    assert!(
        listed.text().contains("pass every auction"),
        "{}",
        listed.text()
    );
    assert_eq!(
        w.dm("bob", "!preset clear").await.verdict,
        Verdict::Accepted
    );
    assert!(w.store.presets(game_id).await.expect("presets").is_empty());
    // Never in the stored log either: only the moves, marked as made by a preset.
    let stored = serde_json::to_string(&w.log(C1).await).expect("json");
    assert!(stored.contains(r#""why":"preset""#), "{stored}");
    assert!(
        !stored.contains("limit") && !stored.contains("max"),
        "{stored}"
    );
}

#[tokio::test]
async fn waiting_and_presets_across_two_games() {
    let mut w = World::new().await;
    clocked_game(&mut w, C1).await;
    clocked_game(&mut w, C2).await;
    w.say(C2, "ann", "**bid 7**").await; // bob to bid in c2; ann to bid in c1
    w.now += h(3);
    let waiting = w.dm("ann", "!waiting").await.text();
    assert!(waiting.contains("1 game"), "{waiting}");
    assert!(waiting.contains("c1-1 in #c1"), "{waiting}");
    assert!(waiting.contains(&utc(t0())), "since when: {waiting}");
    let waiting = w.say(C2, "bob", "!waiting").await.text();
    assert!(waiting.contains("c2-1 in #c2"), "{waiting}");
    assert!(!waiting.contains("#c1"), "{waiting}");
    let none = w.dm("zed", "!waiting").await.text();
    assert!(none.contains("no game is waiting"), "{none}");

    // ann plays in both: the bot asks which game.
    let asked = w.dm("ann", "!preset pass").await;
    assert_eq!(asked.verdict, Verdict::Answered);
    assert!(
        asked.text().contains("1. Irish Gauge c1-1 in #c1")
            && asked.text().contains("2. Irish Gauge c2-1 in #c2"),
        "{}",
        asked.text()
    );
    assert!(w.store.presets("c1-1").await.expect("p").is_empty());
    let set = w.dm("ann", "!preset 2 pass").await;
    assert_eq!(set.verdict, Verdict::Accepted, "{}", set.text());
    assert!(set.text().contains("c2-1"), "{}", set.text());
    let set = w.dm("ann", "!preset c1-1 max WLW 12").await;
    assert_eq!(set.verdict, Verdict::Accepted, "{}", set.text());
    assert_eq!(w.store.presets("c2-1").await.expect("p").len(), 1);
    assert_eq!(w.store.presets("c1-1").await.expect("p").len(), 1);
    let other = w.dm("ann", "!status").await;
    assert_eq!(other.verdict, Verdict::Refused);
    assert!(other.text().contains("direct message"), "{}", other.text());
}

/// Runs the independent verifier on an export; `None` without python3.
fn python_verifies(dir: &Path, export: &Value) -> Option<bool> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/verify_draws.py");
    let file = dir.join("audit.json");
    std::fs::write(&file, serde_json::to_vec(export).expect("json")).expect("written");
    match Command::new("python3").arg(&script).arg(&file).output() {
        Ok(output) => Some(output.status.success()),
        Err(e) => {
            eprintln!("python3 not available ({e}); the Rust verifier was checked");
            None
        }
    }
}

#[tokio::test]
async fn signups_extend_then_draw_the_players_at_random_with_an_audited_pick() {
    let mut w = World::new().await;
    for bad in [
        "!signup open players:2-9",
        "!signup open players:4-3",
        "!signup open closes:-1h",
        "!signup open closes:forever",
        "!signup open speed:3",
    ] {
        let r = w.say(C1, "mod", bad).await;
        assert_eq!(r.verdict, Verdict::Refused, "{bad}: {}", r.text());
    }
    let r = w.say(C1, "ann", "!signup open").await;
    assert_eq!(r.verdict, Verdict::Refused, "moderators open signups");
    let r = w.say(C1, "ann", "!join").await;
    assert_eq!(r.verdict, Verdict::Refused, "nothing to join yet");

    let open = w
        .say(
            C1,
            "mod",
            "!signup open players:3-4 closes:24h extend:24h start-after:72h",
        )
        .await;
    // The `!signup open` message keys the pick and the game's setup draws (dice v2).
    let open_id = w.next_id.to_string();
    assert_eq!(open.verdict, Verdict::Accepted, "{}", open.text());
    assert!(open.text().contains(&utc(t0() + h(24))), "{}", open.text());
    assert_eq!(
        w.say(C1, "ann", "I'm keen: **sign up**").await.verdict,
        Verdict::Accepted
    );
    assert_eq!(w.say(C1, "bob", "!join").await.verdict, Verdict::Accepted);
    assert_eq!(
        w.say(C1, "bob", "**sign up**").await.verdict,
        Verdict::Answered,
        "once only"
    );
    assert_eq!(
        w.say(C1, "cat", "**what is this**").await.verdict,
        Verdict::Ignored
    );
    // Restart: the signups are durable.
    w.restart().await;
    let extended = w.later(h(24)).await;
    assert!(extended.contains("Signups extended: 2 of 4"), "{extended}");
    assert!(extended.contains(&utc(t0() + h(48))), "{extended}");
    w.now += h(6);
    for player in ["cat", "dan", "eve"] {
        let r = w.say(C1, player, "**sign up**").await;
        assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    }
    assert_eq!(w.later(h(17)).await, "", "not yet");
    let started = w.later(h(1)).await;
    assert!(
        started.contains("**Signups closed**: 5 signed up"),
        "{started}"
    );
    assert!(started.contains("**New game c1-1**"), "{started}");

    // The pick is the audited draw of 4 of the 5 sign-up numbers.
    let seed = Seed::from_hex(SEED).expect("seed");
    let drawn = gaugebot_table::weeks::signup::signup_pick(
        gaugebot_table::dice::DrawSource {
            seed: &seed,
            game_id: "c1-1",
            spec: gaugebot_table::dice::Spec::V3,
            message_id: &open_id,
        },
        5,
        4,
    );
    let names = ["ann", "bob", "cat", "dan", "eve"];
    let mut chosen: Vec<&str> = drawn.iter().map(|&n| names[n as usize - 1]).collect();
    assert!(
        started.contains(&format!(
            "sign-up numbers in drawn order): {}",
            drawn
                .iter()
                .map(u32::to_string)
                .collect::<Vec<_>>()
                .join(", ")
        )),
        "{started}"
    );
    let game = w.game(C1).await;
    let mut seated: Vec<&str> = game.players().iter().map(|p| p.name.as_str()).collect();
    chosen.sort_unstable();
    seated.sort_unstable();
    assert_eq!(seated, chosen);
    assert_eq!(w.later(h(48)).await, "", "the signups are over");

    // Both verifiers recompute it.
    let reveal = w.say(C1, "mod", "!reveal confirm").await;
    assert_eq!(reveal.verdict, Verdict::Accepted, "{}", reveal.text());
    let export = w
        .tables
        .table(C1)
        .await
        .expect("table")
        .audit_export()
        .expect("audited");
    assert_eq!(
        export.version, "gaugebot-dice-v3",
        "a signup game is of the current version"
    );
    assert_eq!(export.draws[0].purpose, "signup-pick");
    assert_eq!(export.draws[0].result, serde_json::json!(drawn));
    assert_eq!(
        export.client_seed.as_deref(),
        Some(open_id.as_str()),
        "every draw is keyed by the !signup open message, the game's client seed"
    );
    for draw in &export.draws {
        assert_eq!(
            draw.input("message_id"),
            None,
            "v3 keys no draw by a message"
        );
    }
    let report = gaugebot::games::verify(&export).expect("verifies");
    assert!(report.is_ok(), "{:?}", report.mismatches);
    let json = serde_json::to_value(&export).expect("json");
    if let Some(ok) = python_verifies(w.dir.path(), &json) {
        assert!(ok, "the independent verifier agrees");
        let mut tampered = json.clone();
        tampered["draws"][0]["result"] = serde_json::json!([5, 4, 3, 2]);
        assert_eq!(python_verifies(w.dir.path(), &tampered), Some(false));
    }
}

#[tokio::test]
async fn too_few_signups_start_with_what_there_is_after_start_after() {
    let mut w = World::new().await;
    w.say(
        C1,
        "mod",
        "!signup open players:3-4 closes:24h extend:24h start-after:72h",
    )
    .await;
    for player in ["ann", "bob"] {
        w.say(C1, player, "!join").await;
    }
    let r = w.say(C1, "mod", "!signup close").await;
    assert_eq!(r.verdict, Verdict::Refused, "two are too few");
    assert!(w.later(h(24)).await.contains("extended"));
    w.say(C1, "cat", "!join").await;
    w.say(C1, "bob", "!leave").await;
    w.say(C1, "bob", "!join").await;
    assert!(w.later(h(24)).await.contains("extended: 3 of 4"));
    let started = w.later(h(24)).await;
    assert!(started.contains("**New game c1-1**"), "{started}");
    assert!(!started.contains("drawn by the audited dice"), "{started}");
    assert_eq!(w.game(C1).await.players().len(), 3);
    let export = w
        .tables
        .table(C1)
        .await
        .expect("table")
        .audit_export()
        .expect("audited");
    assert_eq!(export.draws[0].purpose, "player-order", "no pick was drawn");
    // Signups cannot open over a running game.
    let r = w.say(C1, "mod", "!signup open").await;
    assert_eq!(r.verdict, Verdict::Refused, "{}", r.text());
}

#[tokio::test]
async fn clock_settings_are_checked_and_stored() {
    let mut w = World::new().await;
    let r = w.say(C1, "mod", CLOCK).await;
    assert_eq!(r.verdict, Verdict::Refused, "no game yet");
    w.say(C1, "mod", SETUP).await;
    for bad in [
        "!clock turn:-3h",
        "!clock turn:0h",
        "!clock turn:500d",
        "!clock auction:soon",
        "!clock remind:150%",
        "!clock remind:0%",
        "!clock speed:3h",
        "!clock turn",
    ] {
        let r = w.say(C1, "mod", bad).await;
        assert_eq!(r.verdict, Verdict::Refused, "{bad}: {}", r.text());
    }
    let r = w.say(C1, "ann", CLOCK).await;
    assert_eq!(r.verdict, Verdict::Refused, "moderators only");
    assert!(w.log(C1).await.is_empty(), "refusals change nothing");
    let r = w
        .say(C1, "mod", "!clock turn:2d auction:12h remind:off")
        .await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    w.restart().await;
    let shown = w.say(C1, "mod", "!clock").await;
    assert_eq!(shown.verdict, Verdict::Answered);
    assert!(
        shown.text().contains("turns 2d, auctions 12h, no reminder"),
        "{}",
        shown.text()
    );
    // No reminder before the deadline; the deadline passes ann.
    assert_eq!(w.later(h(11)).await, "");
    assert!(w.later(h(1)).await.contains("ann is passed automatically"));
}
