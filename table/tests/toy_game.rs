//! The table core with a game that is not Irish Gauge: "Pile", a take-away game (take 1, 2 or
//! 3 from a pile; whoever takes the last wins) with an audited coin flip for the first player
//! and an audited die for the pile after every fifth take. It shows that the core is
//! game-agnostic: setup, moves, refusals rendered from the game's own template, audited and
//! manual draws, undo, the log, the audit record, and a frozen table.

mod support;

use std::sync::Arc;

use gaugebot_table::dice::{DiceError, DrawRecord, DrawSource};
use gaugebot_table::game::{TableGame, ToAct};
use gaugebot_table::store::memory::MemoryStore;
use gaugebot_table::store::{Store, Write};
use gaugebot_table::{Table, Tables, Verdict};
use serde_json::Value;
use support::pile::{host, Pile, PileGame};
use support::play::{msg, msg_at, to_act, Flaky};

#[tokio::test]
async fn a_second_game_plays_through_the_core_with_its_own_texts_and_dice() {
    let store = Arc::new(MemoryStore::new());
    let host = host();
    let mut table = Table::load("c", store.clone(), host.clone())
        .await
        .expect("loads");
    let setup = table.handle(&msg(1, "mod", "!setup ann bob")).await;
    assert_eq!(setup.verdict, Verdict::Accepted, "{}", setup.text());
    assert!(
        setup
            .text()
            .contains("**New game c-1** — Pile for 2 players"),
        "{}",
        setup.text()
    );
    assert!(setup.text().contains("Dice commitment:"));
    // A refusal is the game's own template with its data.
    let who = to_act(&table);
    let refused = table.handle(&msg(2, &who, "**take 7**")).await;
    assert_eq!(refused.verdict, Verdict::Refused);
    assert!(
        refused.text().contains("too many: take at most 3"),
        "{}",
        refused.text()
    );
    // Five takes call for the audited die, which answers at once.
    let mut id = 3;
    for _ in 0..5 {
        let who = to_act(&table);
        let r = table.handle(&msg(id, &who, "**take 1**")).await;
        assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
        id += 1;
    }
    let state = table.state::<Pile>().expect("a pile");
    assert!(state.pile > 5, "the die added to the pile: {state:?}");
    // Undo takes back the fifth take with its die; redoing it rolls the same die.
    let before = table.state::<Pile>().cloned();
    let undo = table.handle(&msg(id, "mod", "!undo")).await;
    assert!(
        undo.text().contains("Undone: ") && undo.text().contains("the draw"),
        "{}",
        undo.text()
    );
    let who = to_act(&table);
    table.handle(&msg(id + 1, &who, "**take 1**")).await;
    assert_eq!(
        table.state::<Pile>().cloned(),
        before,
        "undo never re-rolls"
    );
    id += 2;
    // The log and the audit record come from the core; the records verify with the game.
    let log = table.handle(&msg(id, "anyone", "!log 3")).await;
    assert!(
        log.text().contains("draw:") && log.text().contains("(audited dice)"),
        "{}",
        log.text()
    );
    // Each entry's time to the second: `— 2026-01-02 03:04:05 UTC`, no fraction.
    for line in log.text().lines().filter(|l| l.starts_with('#')) {
        let at = line.rsplit(" — ").next().unwrap_or_default();
        let at = at.trim_end_matches("~~ (undone)");
        assert!(
            chrono::NaiveDateTime::parse_from_str(at, "%Y-%m-%d %H:%M:%S UTC").is_ok(),
            "{line}"
        );
    }
    let export = table.audit_export().expect("an audited game");
    assert_eq!(export.draws[0].purpose, "pile-first");
    assert!(
        export
            .draws
            .iter()
            .filter(|d| d.purpose == "pile-die")
            .count()
            >= 2
    );
    // Play to the end; the seed is revealed and every draw verifies.
    while table.player_to_act().is_some() {
        id += 1;
        let who = to_act(&table);
        let pile = table.state::<Pile>().expect("pile").pile;
        let r = table
            .handle(&msg(id, &who, &format!("**take {}**", pile.min(3))))
            .await;
        assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    }
    let export = table.audit_export().expect("export");
    assert!(export.seed.is_some(), "revealed at the end");
    struct Games;
    impl gaugebot_table::dice::Recompute for Games {
        fn recompute(
            &self,
            r: &DrawRecord,
            source: DrawSource<'_>,
        ) -> Option<Result<Value, DiceError>> {
            PileGame.recompute(r, source)
        }
    }
    let report = gaugebot_table::dice::verify(&export, &Games).expect("verifies");
    assert!(report.is_ok(), "{report:?}");
    // A fresh table replays the same game from the store.
    let again = Table::load("c", store, host).await.expect("reloads");
    assert_eq!(again.state::<Pile>(), table.state::<Pile>());
}

#[tokio::test]
async fn manual_draws_wait_for_the_game_s_own_command() {
    let store = Arc::new(MemoryStore::new());
    let mut table = Table::load("m", store, host()).await.expect("loads");
    table
        .handle(&msg(1, "mod", "!setup pile ann bob dice:manual first:1"))
        .await;
    assert_eq!(to_act(&table), "bob");
    for i in 0..5 {
        let who = to_act(&table);
        table.handle(&msg(10 + i, &who, "**take 1**")).await;
    }
    assert_eq!(table.to_act(), Some(ToAct::Draw));
    let early = table.handle(&msg(20, "ann", "**take 1**")).await;
    assert_eq!(early.verdict, Verdict::Refused);
    let not_mod = table.handle(&msg(21, "ann", "!roll 4")).await;
    assert!(
        not_mod.text().contains("only a moderator may `!roll`"),
        "{}",
        not_mod.text()
    );
    let rolled = table.handle(&msg(22, "mod", "!roll 4")).await;
    assert_eq!(rolled.verdict, Verdict::Accepted, "{}", rolled.text());
    assert_eq!(table.state::<Pile>().expect("pile").pile, 9);
    // Irish Gauge's `!draw` is not this game's.
    let other = table.handle(&msg(23, "mod", "!draw 4")).await;
    assert!(other.text().contains("Unknown command"), "{}", other.text());
}

#[tokio::test]
async fn a_log_that_no_longer_replays_freezes_its_table_and_only_it() {
    let store = Arc::new(MemoryStore::new());
    let host = host();
    let tables = Tables::new(store.clone(), host.clone());
    for channel in ["broken", "fine"] {
        let r = tables
            .handle(channel, &msg(1, "mod", "!setup ann bob"))
            .await
            .expect("handled");
        assert_eq!(r.verdict, Verdict::Accepted);
        let who = tables
            .table(channel)
            .await
            .expect("table")
            .player_to_act()
            .expect("p")
            .name;
        tables
            .handle(channel, &msg(2, &who, "**take 2**"))
            .await
            .expect("handled");
    }
    // The stored move of one game is changed behind the bot's back (an engine change would do
    // the same): it no longer replays.
    store.edit_log("broken-1", |log| {
        log[0].entry_json = r#"{"entry":"action","seat":0,"action":9}"#.into()
    });
    let tables = Tables::new(store.clone(), host);
    let status = tables
        .handle("broken", &msg(3, "ann", "!status"))
        .await
        .expect("no crash");
    assert!(
        status.text().contains("frozen") && status.text().contains("#0"),
        "{}",
        status.text()
    );
    let refused = tables
        .handle("broken", &msg(4, "ann", "**take 1**"))
        .await
        .expect("handled");
    assert_eq!(refused.verdict, Verdict::Refused);
    let record = tables
        .handle("broken", &msg(5, "ann", "!audit"))
        .await
        .expect("handled");
    let file = record
        .replies
        .iter()
        .find_map(|r| r.attachment.clone())
        .expect("the record");
    assert!(String::from_utf8_lossy(&file.bytes).contains("\"failed_entry\": 0"));
    // The other table plays on.
    let who = tables
        .table("fine")
        .await
        .expect("table")
        .player_to_act()
        .expect("p")
        .name;
    let ok = tables
        .handle("fine", &msg(6, &who, "**take 1**"))
        .await
        .expect("handled");
    assert_eq!(ok.verdict, Verdict::Accepted, "{}", ok.text());
    // A moderator starts over in the frozen channel.
    let plain = tables
        .handle("broken", &msg(7, "mod", "!setup ann bob"))
        .await
        .expect("handled");
    assert_eq!(
        plain.verdict,
        Verdict::Refused,
        "force is needed: {}",
        plain.text()
    );
    let fresh = tables
        .handle("broken", &msg(8, "mod", "!setup ann bob force"))
        .await
        .expect("handled");
    assert_eq!(fresh.verdict, Verdict::Accepted, "{}", fresh.text());
    assert!(tables
        .table("broken")
        .await
        .expect("table")
        .frozen()
        .is_none());
}

#[tokio::test]
async fn help_and_routing_come_from_the_registry() {
    let store = Arc::new(MemoryStore::new());
    let mut table = Table::load("h", store, host()).await.expect("loads");
    let help = table.handle(&msg(1, "ann", "!help")).await.text();
    for command in [
        "!setup",
        "!status",
        "!log [n]",
        "!undo",
        "!reveal [confirm]",
        "!roll",
    ] {
        assert!(
            help.contains(command),
            "{command} missing from help: {help}"
        );
    }
    let topic = table.handle(&msg(2, "ann", "!help log")).await.text();
    assert!(topic.contains("`!log [n]`"), "{topic}");
    let unknown = table.handle(&msg(3, "ann", "!frobnicate")).await.text();
    assert!(
        unknown.contains("Unknown command `!frobnicate`"),
        "{unknown}"
    );
}

#[tokio::test]
async fn the_game_record_is_complete_checks_itself_and_replays_offline() {
    use gaugebot_table::record::{check, replay};
    let store = Arc::new(MemoryStore::new());
    let host = host();
    let mut table = Table::load("r", store, host.clone()).await.expect("loads");
    table.handle(&msg(1, "mod", "!setup ann bob")).await;
    let mut id = 2;
    for _ in 0..5 {
        let who = to_act(&table);
        table.handle(&msg(id, &who, "**take 1**")).await;
        id += 1;
    }
    table.handle(&msg(id, "mod", "!undo")).await;
    let who = to_act(&table);
    table.handle(&msg(id + 1, &who, "**Take 1**")).await;
    let export = table.handle(&msg(id + 2, "ann", "!export")).await;
    let file = export
        .replies
        .iter()
        .find_map(|r| r.attachment.clone())
        .expect("a file");
    assert!(file.filename.starts_with("game-r-1"), "{}", file.filename);
    let record: gaugebot_table::record::GameRecord =
        serde_json::from_slice(&file.bytes).expect("a record");
    assert_eq!(
        record.version, "gaugebot-dice-v3",
        "new games key draws by their position and the game's client seed"
    );
    assert_eq!(record.seed, None, "the seed stays secret until the reveal");
    // One numbering with !log; the undone call and its die are marked.
    assert!(record
        .log
        .iter()
        .enumerate()
        .all(|(i, e)| e.seq == i as i64));
    let undone: Vec<i64> = record
        .log
        .iter()
        .filter(|e| e.undone)
        .map(|e| e.seq)
        .collect();
    assert_eq!(undone.len(), 2, "{undone:?}");
    let die_records: Vec<_> = record
        .draws
        .iter()
        .filter(|d| d.purpose == "pile-die")
        .collect();
    assert_eq!(
        die_records.len(),
        2,
        "the undone die and the die drawn again"
    );
    assert_eq!(
        die_records[0].result, die_records[1].result,
        "undo never re-rolls"
    );
    assert!(
        check(&record, &host.games).is_ok(),
        "{:?}",
        check(&record, &host.games)
    );
    // Offline replay: the whole game, or up to an entry.
    let whole = replay(&record, &host.games, None).expect("replays");
    assert_eq!(
        whole.state().downcast_ref::<Pile>(),
        table.state::<Pile>(),
        "the replay is the game"
    );
    let first = replay(&record, &host.games, Some(0)).expect("replays to #0");
    assert_eq!(
        first.state().downcast_ref::<Pile>().map(|p| p.pile),
        Some(9)
    );
    let second = replay(&record, &host.games, Some(1)).expect("replays to #1");
    assert_eq!(
        second.state().downcast_ref::<Pile>().map(|p| p.pile),
        Some(8)
    );
    // Tampering is caught: a draw record removed, a log entry removed, an undo mark changed.
    let mut no_record = record.clone();
    let last_die = no_record
        .draws
        .iter()
        .rposition(|d| d.purpose == "pile-die")
        .expect("a die record");
    no_record.draws.remove(last_die);
    assert!(check(&no_record, &host.games).is_err());
    let mut no_entry = record.clone();
    no_entry.log.remove(3);
    assert!(check(&no_entry, &host.games).is_err());
    let mut marks = record.clone();
    marks.log[0].undone = true;
    assert!(check(&marks, &host.games).is_err());
}

#[tokio::test]
async fn clocks_reminders_and_moderator_moves_work_for_a_game_that_opts_into_nothing() {
    let store = Arc::new(MemoryStore::new());
    let tables = Tables::new(store.clone(), host());
    let start = support::play::t0();
    let say = |id, author: &str, text: &str| msg_at(id, author, text, 0);
    let r = tables
        .handle("c", &say(1, "mod", "!setup ann bob"))
        .await
        .expect("loads");
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    let r = tables
        .handle("c", &say(2, "mod", "!clock turn:1d remind:50%"))
        .await
        .expect("loads");
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    let who = to_act(&tables.table("c").await.expect("table"));
    let tick = |hours| tables.tick(start + chrono::Duration::hours(hours));
    assert!(tick(11).await.is_empty());
    let reminder = tick(12).await;
    assert_eq!(reminder.len(), 1);
    assert!(
        reminder[0]
            .1
            .text()
            .starts_with(&format!("⏰ @{who}: your turn")),
        "{}",
        reminder[0].1.text()
    );
    // No automatic move for this game: the deadline tells the moderators, once.
    let deadline = tick(24).await;
    assert!(
        deadline[0].1.text().contains("a moderator may move for"),
        "{}",
        deadline[0].1.text()
    );
    assert!(tick(30).await.is_empty());
    // A moderator moves for the seat; the default narration carries the note.
    let acted = tables
        .handle(
            "c",
            &msg_at(3, "mod", &format!("!act {who} **take 2**"), 30),
        )
        .await
        .expect("loads");
    assert_eq!(acted.verdict, Verdict::Accepted, "{}", acted.text());
    assert!(acted.text().contains("(by mod) "), "{}", acted.text());
    // The game has no presets: said so in the direct message.
    let preset = tables
        .across(true, &msg_at(4, &who, "!preset pass", 30))
        .await
        .expect("a direct message is answered");
    assert_eq!(preset.verdict, Verdict::Refused);
    assert!(
        preset.text().contains("Pile has no presets"),
        "{}",
        preset.text()
    );
}

#[tokio::test]
async fn a_command_s_writes_and_its_kept_answer_are_stored_together_or_not_at_all() {
    use gaugebot_table::store::Outgoing;
    use gaugebot_table::{Committed, Incoming, NotStored};
    let store = Arc::new(Flaky::default());
    let mut table = Table::load("k", store.clone(), host())
        .await
        .expect("loads");
    // The adapter's outbox item, made from the decision and the table (locked from decision
    // to commit), then committed with it.
    async fn keep(table: &mut Table, msg: &Incoming) -> Result<Committed, NotStored> {
        let decided = table.decide(msg).await;
        let kept = Outgoing {
            channel: table.channel().to_string(),
            key: format!("{}", table.position().map_or(0, |(_, at)| at)),
            payload: decided.response().text(),
            at: chrono::Utc::now(),
        };
        table.commit(decided, Some(kept)).await
    }
    let answer = |result: Result<Committed, NotStored>| match result {
        Ok(committed) => committed,
        Err(not_stored) => Committed {
            response: not_stored.response,
            kept: None,
        },
    };
    let setup = answer(
        keep(
            &mut table,
            &msg(1, "mod", "!setup pile ann bob dice:manual first:1"),
        )
        .await,
    );
    assert_eq!(setup.response.verdict, Verdict::Accepted);
    let kept = setup.kept.expect("an accepted command's answer is kept");
    assert_eq!(kept.payload, setup.response.text());
    assert_eq!(kept.channel, "k");
    // The game and its answer were one write.
    let batches = store.inner.batches();
    assert_eq!(batches.len(), 1);
    assert_eq!(
        batches[0][0],
        Write::Read {
            channel: "k".into(),
            message_id: "1".into()
        },
        "the message is marked read first"
    );
    assert!(matches!(batches[0][1], Write::CreateGame { .. }));
    assert_eq!(batches[0].last(), Some(&Write::Outbox(kept.clone())));
    assert_eq!(
        store.pending(Some("k")).await.expect("pending"),
        std::slice::from_ref(&kept)
    );
    store.delivered("k", &kept.key).await.expect("delivered");
    assert!(store.pending(None).await.expect("pending").is_empty());

    // A read-only command writes nothing and keeps nothing.
    let status = answer(keep(&mut table, &msg(2, "ann", "!status")).await);
    assert_eq!(status.kept, None);
    assert_eq!(store.inner.batches().len(), 1);

    // The database fails: the move is refused, and neither it nor its answer stays, in the
    // store or in the table.
    store.set_down(true);
    let who = to_act(&table);
    let failed = answer(keep(&mut table, &msg(3, &who, "**take 2**")).await);
    assert_eq!(failed.response.verdict, Verdict::Refused);
    assert!(
        failed.response.text().contains("the disk is gone"),
        "{}",
        failed.response.text()
    );
    assert_eq!(failed.kept, None);
    assert_eq!(table.state::<Pile>().expect("pile").pile, 10);
    assert_eq!(to_act(&table), who);
    assert!(store.pending(None).await.expect("pending").is_empty());

    // It comes back: the same move is taken, stored with its answer.
    store.set_down(false);
    let taken = answer(keep(&mut table, &msg(3, &who, "**take 2**")).await);
    assert_eq!(
        taken.response.verdict,
        Verdict::Accepted,
        "{}",
        taken.response.text()
    );
    assert_eq!(table.state::<Pile>().expect("pile").pile, 8);
    let batches = store.inner.batches();
    assert_eq!(batches.len(), 2);
    assert!(matches!(batches[1][1], Write::Append { .. }));
    assert_eq!(batches[1].last(), taken.kept.map(Write::Outbox).as_ref());

    // The same message delivered again is applied once: refused by the store in the write
    // that would apply it, and the table is as it was.
    let again = answer(keep(&mut table, &msg(3, &who, "**take 2**")).await);
    assert_eq!(again.response.verdict, Verdict::Duplicate);
    assert_eq!(again.kept, None);
    assert!(again.response.replies.is_empty());
    assert_eq!(table.state::<Pile>().expect("pile").pile, 8);
    assert_eq!(store.inner.batches().len(), 2);
    assert_eq!(store.log("k-1").await.expect("log").len(), 1);
}

#[tokio::test]
async fn a_move_is_read_once_on_its_way_in() {
    use support::pile::PARSES;
    let store = Arc::new(MemoryStore::default());
    let mut table = Table::load("r", store, host()).await.expect("loads");
    table.handle(&msg(1, "mod", "!setup ann bob")).await;
    let parses = || PARSES.with(|parses| parses.get());
    let who = to_act(&table);
    let before = parses();
    let taken = table.handle(&msg(2, &who, "**take 1**")).await;
    assert_eq!(taken.verdict, Verdict::Accepted, "{}", taken.text());
    assert_eq!(parses() - before, 1, "read once, played as read");
    // A move that reads but is refused is read once too.
    let who = to_act(&table);
    let before = parses();
    let refused = table.handle(&msg(3, &who, "**take 7**")).await;
    assert_eq!(refused.verdict, Verdict::Refused);
    assert_eq!(parses() - before, 1);
}
