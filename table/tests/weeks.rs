//! Play over weeks, the core's part of it, on the memory store and the toy game (no real game,
//! no SQL): clocks and reminders, deadline notices, absences, substitutes, moves made for a
//! seat, signups, secret presets, undo, a failed write and a message read twice. Every message
//! carries a chosen time and the tick runs at chosen times (no sleeps); a restart is a new bot
//! on the same store. Irish Gauge end to end over weeks is `bot/tests/async_play.rs`.

mod support;

use chrono::Duration;
use gaugebot_table::store::Store;
use gaugebot_table::Verdict;
use serde_json::json;
use support::play::{h, World};

const C: &str = "c";

/// A game of Pile between ann and bob, ann first (manual dice: no die, no coin flip); `with`
/// is added to the setup (`decision:auction`).
async fn game(w: &mut World, with: &str) {
    let setup = format!("!setup ann bob dice:manual first:0 {with}");
    let r = w.say(C, "mod", setup.trim()).await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    assert_eq!(w.to_act(C).await, "ann");
}

/// A game with a clock: turns and auctions of a day, reminders at half of it.
async fn clocked(w: &mut World, with: &str) {
    game(w, with).await;
    let r = w
        .say(C, "mod", "!clock turn:24h auction:24h remind:50%")
        .await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
}

#[tokio::test]
async fn a_reminder_comes_once_never_again_after_a_restart_and_once_if_it_fell_due_while_down() {
    let mut w = World::new();
    clocked(&mut w, "").await;
    assert_eq!(w.later(h(11) + Duration::minutes(59)).await, "");
    let reminder = w.later(Duration::minutes(1)).await;
    assert!(
        reminder.contains("ann") && reminder.contains("your turn"),
        "{reminder}"
    );
    assert_eq!(w.later(h(1)).await, "", "once only");
    w.restart();
    assert_eq!(w.later(h(1)).await, "", "not repeated after a restart");
    assert_eq!(w.table_entries(C, "reminded").await, 1);

    // bob's turn: its reminder point passes while the bot is down; it comes once at start.
    let r = w.say(C, "ann", "**take 1**").await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    w.now += h(20);
    w.restart();
    let overdue = w.later(Duration::zero()).await;
    assert!(
        overdue.contains("bob") && overdue.contains("your turn"),
        "{overdue}"
    );
    assert_eq!(w.later(h(1)).await, "");
    w.restart();
    assert_eq!(w.later(Duration::zero()).await, "");
    assert_eq!(w.table_entries(C, "reminded").await, 2);
}

#[tokio::test]
async fn a_turn_deadline_tells_the_moderators_once_for_a_game_without_an_automatic_move() {
    let mut w = World::new();
    clocked(&mut w, "").await;
    w.later(h(12)).await; // the reminder
    assert_eq!(w.later(h(11)).await, "");
    let deadline = w.later(h(1)).await;
    assert!(
        deadline.contains("ran out") && deadline.contains("!act @ann"),
        "the moderators are told how to move for ann: {deadline}"
    );
    assert_eq!(w.later(h(5)).await, "", "once only");
    w.restart();
    assert_eq!(w.later(h(5)).await, "", "not repeated after a restart");
    // Nothing was played for ann: a turn has no automatic move.
    assert_eq!(w.pile(C).await.pile, 10);
    assert_eq!(w.to_act(C).await, "ann");
    let log = w.log(C).await;
    assert_eq!(
        log.last(),
        Some(
            &json!({"entry": "table", "event": "reminded", "seat": 0, "since": 0,
            "kind": "deadline"})
        ),
        "{log:?}"
    );
}

#[tokio::test]
async fn an_auction_clock_that_runs_out_makes_the_game_s_automatic_move() {
    let mut w = World::new();
    clocked(&mut w, "decision:auction").await;
    w.later(h(12)).await; // the reminder
    assert_eq!(w.later(h(11)).await, "");
    let moved = w.later(h(1)).await;
    assert!(moved.contains("the auction clock ran out"), "{moved}");
    let pile = w.pile(C).await;
    assert_eq!((pile.pile, pile.to_act), (9, 1), "ann took 1; bob is next");
    let log = w.log(C).await;
    let n = log.len();
    assert_eq!(
        log[n - 2],
        json!({"entry": "table", "event": "proxy", "seat": 0, "why": "clock"})
    );
    assert_eq!(
        log[n - 1],
        json!({"entry": "action", "seat": 0, "action": 1})
    );
    // bob's clock starts now: nothing more is due until his reminder.
    assert_eq!(w.later(h(11)).await, "");
    assert!(w.later(h(1)).await.contains("bob"));
}

#[tokio::test]
async fn away_players_move_automatically_in_auctions_and_back_ends_it() {
    let mut w = World::new();
    clocked(&mut w, "decision:auction").await;
    for bad in ["!away", "!away soon", "!away -2d", "!away 400d"] {
        let r = w.say(C, "bob", bad).await;
        assert_eq!(r.verdict, Verdict::Refused, "{bad}: {}", r.text());
    }
    let r = w.say(C, "zed", "!away 3d").await;
    assert_eq!(r.verdict, Verdict::Refused, "only a player may be away");
    assert_eq!(
        w.table_entries(C, "away").await,
        0,
        "refusals store nothing"
    );

    let away = w.say(C, "bob", "!away 3d at sea").await;
    assert_eq!(away.verdict, Verdict::Accepted, "{}", away.text());
    assert!(away.text().contains("bob is away until"), "{}", away.text());
    // When the decision comes to bob, it is made for him at once.
    let r = w.say(C, "ann", "**take 2**").await;
    assert!(r.text().contains("bob is away"), "{}", r.text());
    let pile = w.pile(C).await;
    assert_eq!((pile.pile, pile.to_act), (7, 0), "bob took 1 for himself");
    let log = w.log(C).await;
    assert!(
        log.contains(&json!({"entry": "table", "event": "proxy", "seat": 1, "why": "away"})),
        "{log:?}"
    );
    // Back: his next decision waits for him; a second !back has nothing to end.
    assert_eq!(w.say(C, "bob", "!back").await.verdict, Verdict::Accepted);
    assert_eq!(w.say(C, "bob", "!back").await.verdict, Verdict::Refused);
    w.say(C, "ann", "**take 1**").await;
    assert_eq!(w.pile(C).await.to_act, 1, "bob decides himself now");
    assert_eq!(w.table_entries(C, "back").await, 1);
}

#[tokio::test]
async fn an_away_player_s_turn_clock_pauses_without_reminders() {
    let mut w = World::new();
    clocked(&mut w, "").await;
    let away = w.say(C, "ann", "!away 3d").await;
    assert_eq!(away.verdict, Verdict::Accepted, "{}", away.text());
    assert_eq!(
        w.later(h(72)).await,
        "",
        "no reminder, no deadline while away"
    );
    // Back at 72h: her clock has run 0h; the reminder is 12h later, the deadline 24h.
    assert_eq!(w.later(h(11)).await, "");
    assert!(w.later(h(1)).await.contains("your turn"));
    assert_eq!(w.later(h(11)).await, "");
    assert!(w.later(h(1)).await.contains("ran out"));
}

#[tokio::test]
async fn a_substitute_takes_the_seat_for_good() {
    let mut w = World::new();
    clocked(&mut w, "").await;
    w.say(C, "ann", "**take 1**").await;
    let before = w.log(C).await.len();
    for bad in [
        "!sub @zed @dan",
        "!sub @bob @ann",
        "!sub @bob",
        "!sub @bob @d@n",
    ] {
        let r = w.say(C, "mod", bad).await;
        assert_eq!(r.verdict, Verdict::Refused, "{bad}: {}", r.text());
    }
    let r = w.say(C, "ann", "!sub @bob @dan").await;
    assert_eq!(r.verdict, Verdict::Refused, "moderators only");
    assert_eq!(w.log(C).await.len(), before, "refusals change nothing");

    let subbed = w.say(C, "mod", "!sub @bob @dan").await;
    assert_eq!(subbed.verdict, Verdict::Accepted, "{}", subbed.text());
    assert!(
        subbed.text().contains("dan takes bob's seat (seat 2)"),
        "{}",
        subbed.text()
    );
    w.restart();
    assert_eq!(w.to_act(C).await, "dan", "kept across a restart");
    let r = w.say(C, "bob", "**take 1**").await;
    assert_eq!(r.verdict, Verdict::Refused, "{}", r.text());
    let r = w.say(C, "dan", "**take 1**").await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    let shown = w.say(C, "ann", "!log 5").await.text();
    assert!(
        shown.contains("ann: **take 1**"),
        "old moves keep their author: {shown}"
    );
    assert!(shown.contains("dan takes bob's seat"), "{shown}");
}

#[tokio::test]
async fn a_moderator_moves_for_a_seat_with_act() {
    let mut w = World::new();
    clocked(&mut w, "").await;
    let before = w.log(C).await.len();
    let r = w.say(C, "bob", "!act @ann **take 2**").await;
    assert_eq!(r.verdict, Verdict::Refused);
    assert!(r.text().contains("only a moderator"), "{}", r.text());
    let r = w.say(C, "mod", "!act @zed **take 2**").await;
    assert_eq!(r.verdict, Verdict::Refused);
    assert!(r.text().contains("zed is not a player"), "{}", r.text());
    let r = w.say(C, "mod", "!act @ann **take 7**").await;
    assert_eq!(
        r.verdict,
        Verdict::Refused,
        "the game refuses it: {}",
        r.text()
    );
    assert_eq!(w.log(C).await.len(), before, "a refusal changes nothing");

    let acted = w.say(C, "mod", "!act @ann **take 2**").await;
    assert_eq!(acted.verdict, Verdict::Accepted, "{}", acted.text());
    assert!(acted.text().contains("(by mod) "), "{}", acted.text());
    assert_eq!(w.pile(C).await.pile, 8);
    let log = w.log(C).await;
    assert_eq!(
        log[before],
        json!({"entry": "table", "event": "proxy", "seat": 0, "why": "moderator",
            "by": {"name": "mod", "id": "mod", "mention": "@mod"}})
    );
    assert_eq!(
        log[before + 1],
        json!({"entry": "action", "seat": 0, "action": 2})
    );
}

#[tokio::test]
async fn signups_open_take_joins_and_leaves_and_close_into_a_game() {
    let mut w = World::new();
    let r = w.say(C, "ann", "!signup open").await;
    assert_eq!(r.verdict, Verdict::Refused, "moderators open signups");
    let r = w.say(C, "ann", "!join").await;
    assert_eq!(r.verdict, Verdict::Refused, "nothing to join yet");
    let open = w
        .say(C, "mod", "!signup open players:2-2 closes:24h extend:24h")
        .await;
    assert_eq!(open.verdict, Verdict::Accepted, "{}", open.text());
    assert!(open.text().contains("Signups are open"), "{}", open.text());
    assert_eq!(
        w.say(C, "ann", "**sign up**").await.verdict,
        Verdict::Accepted
    );
    assert_eq!(
        w.say(C, "ann", "!join").await.verdict,
        Verdict::Answered,
        "once only"
    );
    assert_eq!(w.say(C, "bob", "!join").await.verdict, Verdict::Accepted);
    assert_eq!(w.say(C, "cat", "!join").await.verdict, Verdict::Accepted);
    assert_eq!(w.say(C, "cat", "!leave").await.verdict, Verdict::Accepted);
    assert_eq!(w.say(C, "cat", "!leave").await.verdict, Verdict::Refused);
    // Durable: a restart keeps them.
    w.restart();
    assert_eq!(w.store.state_channels().await.expect("states"), [C]);
    assert_eq!(w.later(h(23)).await, "", "not yet");
    let started = w.later(h(1)).await;
    assert!(
        started.contains("**Signups closed**: 2 signed up (ann, bob)"),
        "{started}"
    );
    assert!(started.contains("**New game c-1**"), "{started}");
    let table = w.tables.table(C).await.expect("table");
    let mut seated: Vec<String> = table
        .seated()
        .expect("seats")
        .iter()
        .map(|p| p.name.clone())
        .collect();
    drop(table);
    seated.sort();
    assert_eq!(seated, ["ann", "bob"]);
    assert!(w.store.state_channels().await.expect("states").is_empty());
    assert_eq!(w.later(h(48)).await, "", "the signups are over");
    let r = w.say(C, "mod", "!signup open").await;
    assert_eq!(r.verdict, Verdict::Refused, "not over a running game");
}

#[tokio::test]
async fn a_moderator_closes_signups_early_and_a_setup_by_hand_closes_them_too() {
    let mut w = World::new();
    w.say(C, "mod", "!signup open players:2-4").await;
    w.say(C, "ann", "!join").await;
    let r = w.say(C, "mod", "!signup close").await;
    assert_eq!(r.verdict, Verdict::Refused, "one is too few: {}", r.text());
    w.say(C, "bob", "!join").await;
    let closed = w.say(C, "mod", "!signup close").await;
    assert_eq!(closed.verdict, Verdict::Accepted, "{}", closed.text());
    assert!(
        closed.text().contains("**New game c-1**"),
        "{}",
        closed.text()
    );

    let mut w = World::new();
    w.say(C, "mod", "!signup open players:2-4").await;
    w.say(C, "ann", "!join").await;
    let setup = w.say(C, "mod", "!setup ann bob").await;
    assert_eq!(setup.verdict, Verdict::Accepted, "{}", setup.text());
    assert!(
        setup.text().contains("The open signups are closed"),
        "{}",
        setup.text()
    );
    assert!(w.store.state_channels().await.expect("states").is_empty());
    assert_eq!(w.later(h(100)).await, "", "nothing left to close");
    let r = w.say(C, "cat", "!join").await;
    assert_eq!(r.verdict, Verdict::Refused, "{}", r.text());
}

#[tokio::test]
async fn a_secret_preset_sent_by_direct_message_answers_the_decision_and_stays_secret() {
    let mut w = World::new();
    clocked(&mut w, "decision:auction").await;
    let game_id = w.game_id(C).await;
    let r = w.say(C, "bob", "!preset take 3").await;
    assert_eq!(r.verdict, Verdict::Refused);
    assert!(r.text().contains("direct message"), "{}", r.text());
    let r = w.dm("bob", "!preset take lots").await;
    assert_eq!(r.verdict, Verdict::Refused, "{}", r.text());
    let r = w.dm("zed", "!preset take 1").await;
    assert_eq!(r.verdict, Verdict::Refused, "{}", r.text());
    assert!(w.store.presets(&game_id).await.expect("presets").is_empty());

    let saved = w.dm("bob", "!preset take 3").await;
    assert_eq!(saved.verdict, Verdict::Accepted, "{}", saved.text());
    assert_eq!(
        w.store.presets(&game_id).await.expect("presets").len(),
        1,
        "stored"
    );
    // Durable: after a restart, ann's take brings bob's decision, which his preset answers.
    w.restart();
    let r = w.say(C, "ann", "**take 1**").await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    assert!(r.text().contains("(preset)"), "{}", r.text());
    let pile = w.pile(C).await;
    assert_eq!((pile.pile, pile.to_act), (6, 0), "bob took 3 by his preset");
    let log = w.log(C).await;
    assert!(
        log.contains(&json!({"entry": "table", "event": "proxy", "seat": 1, "why": "preset"})),
        "{log:?}"
    );
    assert!(
        !serde_json::to_string(&log)
            .expect("json")
            .contains("preset take"),
        "the order itself is never in the log"
    );
    assert_eq!(
        w.dm("bob", "!preset clear").await.verdict,
        Verdict::Accepted
    );
    assert!(w.store.presets(&game_id).await.expect("presets").is_empty());
}

#[tokio::test]
async fn undo_takes_back_the_move_and_keeps_the_table_s_entries() {
    let mut w = World::new();
    clocked(&mut w, "").await;
    w.later(h(12)).await; // ann's reminder: a table entry
    w.say(C, "mod", "!sub @bob @dan").await;
    w.say(C, "ann", "**take 2**").await;
    let entries = |log: &[serde_json::Value]| {
        log.iter()
            .filter(|e| e["entry"] == "table")
            .cloned()
            .collect::<Vec<_>>()
    };
    let before = entries(&w.log(C).await);
    assert_eq!(w.pile(C).await.pile, 8);
    let undo = w.say(C, "mod", "!undo").await;
    assert_eq!(undo.verdict, Verdict::Accepted, "{}", undo.text());
    assert!(undo.text().contains("ann's **take 2**"), "{}", undo.text());
    assert_eq!(w.pile(C).await.pile, 10);
    assert_eq!(entries(&w.log(C).await), before, "the table's entries stay");
    // The clock, the reminder and the substitute are still in force, after a restart too.
    w.restart();
    assert_eq!(w.later(h(1)).await, "", "ann was reminded already");
    let r = w.say(C, "ann", "**take 1**").await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    assert_eq!(w.to_act(C).await, "dan");
    let shown = w.say(C, "mod", "!clock").await.text();
    assert!(shown.contains("turns 1d"), "{shown}");
}

#[tokio::test]
async fn a_failed_write_leaves_no_trace_and_the_same_message_is_taken_later() {
    let mut w = World::new();
    clocked(&mut w, "").await;
    let log = w.log(C).await;
    let batches = w.store.inner.batches().len();
    w.store.set_down(true);
    let take = w.message("ann", "**take 2**");
    let failed = w.deliver(C, &take).await;
    assert_eq!(failed.verdict, Verdict::Refused);
    assert!(
        failed.text().contains("the disk is gone"),
        "{}",
        failed.text()
    );
    let away = w.say(C, "bob", "!away 2d").await;
    assert_eq!(away.verdict, Verdict::Refused, "{}", away.text());
    // Nothing stayed: not in the store, not in the table.
    assert_eq!(w.pile(C).await.pile, 10);
    assert_eq!(w.to_act(C).await, "ann");
    assert_eq!(w.log(C).await, log);
    assert_eq!(w.store.inner.batches().len(), batches);
    assert!(!w.store.seen(C, &take.message_id).await.expect("seen"));
    assert!(w.store.pending(None).await.expect("pending").is_empty());
    w.restart();
    assert_eq!(w.pile(C).await.pile, 10);

    // The store comes back: the same message is taken, once.
    w.store.set_down(false);
    let taken = w.deliver(C, &take).await;
    assert_eq!(taken.verdict, Verdict::Accepted, "{}", taken.text());
    assert_eq!(w.pile(C).await.pile, 8);
    assert_eq!(w.log(C).await.len(), log.len() + 1);
}

#[tokio::test]
async fn a_message_read_twice_is_applied_once_even_after_a_restart() {
    let mut w = World::new();
    game(&mut w, "").await;
    let take = w.message("ann", "**take 2**");
    assert_eq!(w.deliver(C, &take).await.verdict, Verdict::Accepted);
    let again = w.deliver(C, &take).await;
    assert_eq!(again.verdict, Verdict::Duplicate);
    assert!(again.replies.is_empty());
    assert_eq!(w.pile(C).await.pile, 8);
    w.restart();
    let after_restart = w.deliver(C, &take).await;
    assert_eq!(after_restart.verdict, Verdict::Duplicate);
    assert_eq!(w.pile(C).await.pile, 8);
    assert_eq!(w.log(C).await.len(), 1);
}

/// A run of moves without a choice (a pile of single steps: every take is of 1) is told in one
/// line with how many moves the table made, what they brought about with lines alike shortened,
/// and the last move in full; the log keeps every move, each marked as the only legal one.
#[tokio::test]
async fn a_run_of_moves_without_a_choice_is_told_in_one_line_and_logged_in_full() {
    let mut w = World::new();
    let setup = w.message("mod", "!setup ann bob steps:1");
    let r = w.deliver(C, &setup).await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    // The tick makes the moves nobody has a choice in, to the end of the game.
    let told = w.later(Duration::zero()).await;
    let log = w.log(C).await;
    let forced = log
        .iter()
        .filter(|e| e["entry"] == "table" && e["event"] == "proxy" && e["why"] == "forced")
        .count();
    let takes = log.iter().filter(|e| e["entry"] == "action").count();
    let dice = log.iter().filter(|e| e["entry"] == "draw").count();
    assert_eq!(forced, takes, "every take was forced");
    assert!(dice >= 4, "the pile grew {dice} times");
    assert_eq!(w.pile(C).await.pile, 0, "the game is over");
    let lines: Vec<&str> = told.lines().collect();
    assert_eq!(
        lines[0],
        format!(
            "⏩ ann and bob had no choice: **take 1**, made for them automatically {takes} times \
             in a row (the only legal move each time; `!log` lists every one)."
        ),
        "{told}"
    );
    // What the takes brought about: the die's first and last additions, the ones between
    // counted, then the last take in full.
    assert!(lines[1].starts_with("the die adds "), "{told}");
    assert_eq!(
        lines[2],
        format!("… and {} more like them …", dice - 2),
        "{told}"
    );
    assert!(lines[3].starts_with("the die adds "), "{told}");
    assert!(lines[4].ends_with("takes the last"), "{told}");
    assert_eq!(
        told.matches(" takes ").count(),
        1,
        "one take told, not {takes}: {told}"
    );
}
