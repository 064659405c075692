//! Deadlines that act, away with cover and time banks (issue 34 points 1–3), as console
//! transcripts over weeks through the real `gaugebot play` binary (`@+25h` moves the console's
//! clock), restarts included (`gaugebot play --db FILE` twice on the same file): a game of three
//! in which one player stops posting after turn 10 plays to its end with `timeout:automa` and
//! `hand-over:2`, and the same game with the player coming back at turn 30 and reclaiming the
//! seat.

use std::path::Path;
use std::process::{Command, Stdio};

const SEED: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// Runs the console on `input` with the database `db` (kept between runs: a restart). The
/// transcript is read from a file, not stdin: a long game's input and output would each fill
/// their pipe.
fn run(db: &Path, input: &str) -> String {
    let dir = db.parent().expect("db in a folder");
    let script = dir.join("transcript.txt");
    std::fs::write(&script, input).expect("transcript written");
    let output = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .arg("play")
        .args(["--no-map", "--seed", SEED, "--automa", "cheap", "--db"])
        .arg(db)
        .arg(&script)
        .stdin(Stdio::null())
        .output()
        .expect("gaugebot runs");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "gaugebot failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}

/// A game of three at the console (`game`: `""` for Irish Gauge, `"privates "`), clocked
/// with `clock`. Each round every player who still posts sends each of `moves` in bold (the
/// refused ones change nothing), then the clock moves on an hour. `ann` posts nothing from
/// round `stop` until round `back`; in the first two rounds of her silence the clock moves on
/// 49 hours instead, so that her turn clock runs out twice. Every line has a fixed message
/// id, so that the audited draws are the same in every run.
fn silent_player_game(
    game: &str,
    clock: &str,
    moves: &[&str],
    stop: usize,
    back: usize,
    rounds: usize,
) -> String {
    let mut lines = vec![
        "@2025-03-01T12:00:00Z".to_string(),
        format!("[1300000000000000000] mod: !setup {game}ann bob cat"),
        format!("mod: !clock {clock}"),
    ];
    let mut id = 1_300_000_000_000_000_001_u64;
    for round in 0..rounds {
        for player in ["ann", "bob", "cat"] {
            if player == "ann" && (stop..back).contains(&round) {
                continue;
            }
            for m in moves {
                id += 1;
                lines.push(format!("[{id}] {player}: **{m}**"));
            }
        }
        let silent = (stop..back.min(stop + 2)).contains(&round);
        lines.push(if silent { "@+49h" } else { "@+1h" }.to_string());
    }
    lines.join("\n") + "\n"
}

fn count(out: &str, what: &str) -> usize {
    out.matches(what).count()
}

/// How many of ann's moves the narration of `out` tells (her own and those made for her).
fn ann_moves(out: &str) -> usize {
    out.lines()
        .map(|line| match line.strip_prefix('(') {
            Some(rest) => rest.split_once(") ").map_or(line, |(_, after)| after),
            None => line,
        })
        .filter(|line| {
            ["passes", "buys", "bids", "drops", "raises", "takes"]
                .iter()
                .any(|verb| line.starts_with(&format!("ann {verb}")))
        })
        .count()
}

fn position(out: &str, what: &str) -> usize {
    out.find(what)
        .unwrap_or_else(|| panic!("{what:?} not in the transcript"))
}

#[test]
fn a_game_of_three_plays_to_its_end_after_one_player_stops_posting() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = silent_player_game(
        "privates ",
        "turn:48h timeout:automa hand-over:2",
        &["pass", "buy", "drop"],
        11,
        usize::MAX,
        400,
    );
    // Nobody types a moderator command once the game is under way.
    assert_eq!(input.matches("mod:").count(), 2);
    let out = run(&dir.path().join("silent.db"), &input);
    assert!(out.contains("**Game over.**"), "{out}");
    // ann stops posting after her 10th turn.
    assert_eq!(
        ann_moves(&out[..position(&out, "⌛ ann's time ran out")]),
        10
    );
    // ann's time runs out twice, each time the automa decides once for her, marked as such …
    assert_eq!(
        count(&out, "⌛ ann's time ran out: 🤖 **Automa for ann: "),
        2
    );
    assert_eq!(count(&out, "(automa: ann's time ran out)"), 2);
    // … then it holds her seat, once, and plays it at once to the end.
    assert_eq!(
        count(
            &out,
            "🤖 ann's time ran out 2 times in a row: the automa holds ann's seat until ann posts again"
        ),
        1
    );
    let handed = position(&out, "the automa holds ann's seat");
    assert!(count(&out[handed..], "🤖 **Automa for ann: ") > 10, "{out}");
    assert!(!out[handed..].contains("⌛ ann's time ran out"));
    assert!(
        !out[handed..].contains("@ann, your turn"),
        "a covered seat is not pinged"
    );
    assert!(!out.contains("takes the seat back"));
    // The others were never timed out: they posted.
    assert!(!out.contains("⌛ bob's") && !out.contains("⌛ cat's"));
}

#[test]
fn the_player_who_stopped_comes_back_at_turn_30_and_reclaims_the_seat() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = silent_player_game(
        "privates ",
        "turn:48h timeout:automa hand-over:2",
        &["pass", "buy", "drop"],
        11,
        30,
        400,
    );
    let out = run(&dir.path().join("back.db"), &input);
    assert!(out.contains("**Game over.**"), "{out}");
    let handed = position(&out, "the automa holds ann's seat");
    let back = position(&out, "↩️ ann takes the seat back from the automa.");
    assert!(handed < back);
    assert_eq!(count(&out, "takes the seat back"), 1);
    // 30 turns of ann's were played when she comes back: 10 of hers, 20 made for her.
    assert_eq!(ann_moves(&out[..back]), 30);
    assert!(count(&out[handed..back], "🤖 **Automa for ann: ") > 3);
    // From then on ann plays her own seat: no automa moves for her, and she is pinged again.
    assert_eq!(count(&out[back..], "Automa for ann"), 0, "{}", &out[back..]);
    assert!(out[back..].contains("@ann, your turn"));
}

#[test]
fn an_irish_gauge_game_with_a_silent_player_ends_with_nobody_moderating() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = silent_player_game(
        "",
        "turn:48h timeout:automa hand-over:2",
        &["pass", "dividends"],
        // With everyone calling for dividends at once the game lasts about eight turns (the
        // draws of dice v3): ann goes silent after her first round.
        1,
        usize::MAX,
        200,
    );
    let out = run(&dir.path().join("ig.db"), &input);
    assert!(out.contains("**Game over.**"), "{out}");
    assert_eq!(count(&out, "the automa holds ann's seat"), 1);
    // The clock set without an auction clock times bids out too (a silent bidder no longer
    // stalls the game): the timeouts include bids.
    assert!(
        out.contains("bid or pass: the clock runs out in 2d"),
        "{out}"
    );
    assert!(out.contains("(automa: ann's time ran out)"));
}

#[test]
fn a_timeout_that_fell_due_while_the_bot_was_down_is_acted_on_once_at_start() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("restart.db");
    let first = run(
        &db,
        "@2025-03-01T12:00:00Z\n\
         [1300000000000000000] mod: !setup privates ann bob cat\n\
         mod: !clock turn:48h timeout:automa hand-over:2\n",
    );
    assert!(first.contains("When time runs out the automa decides for the player."));
    assert!(first.contains("@cat, your turn"), "{first}");
    // Down for three days; the first line after the restart runs the clock's work.
    let second = run(&db, "@2025-03-04T12:00:00Z\n");
    assert_eq!(
        count(&second, "⌛ cat's time ran out: 🤖 **Automa for cat: "),
        1
    );
    // Started again at the same time: nothing is repeated.
    let third = run(&db, "@2025-03-04T12:00:00Z\n");
    assert!(!third.contains("time ran out"), "{third}");
    // The next player's clock runs from the automa's move: two days later, once more.
    let fourth = run(&db, "@2025-03-06T13:00:00Z\nmod: !log\n");
    assert_eq!(
        count(&fourth, "'s time ran out: 🤖 **Automa for "),
        1,
        "{fourth}"
    );
    assert!(
        fourth.contains("(automa for cat: time ran out)"),
        "the log marks it: {fourth}"
    );
}

#[test]
fn timeout_pass_is_refused_without_a_pass_for_every_decision_and_passes_in_privates() {
    let dir = tempfile::tempdir().expect("temp dir");
    let ig = run(
        &dir.path().join("ig-pass.db"),
        "@2025-03-01T12:00:00Z\n\
         [1300000000000000000] mod: !setup ann bob cat\n\
         mod: !clock turn:48h timeout:pass\n\
         mod: !clock turn:48h timeout:sometimes\n",
    );
    assert!(
        ig.contains("❌ `timeout:pass` needs a pass for every decision, and Irish Gauge has none for a turn"),
        "{ig}"
    );
    assert!(ig.contains("❌ `timeout:sometimes` is not a clock setting"));
    let privates = run(
        &dir.path().join("privates-pass.db"),
        "@2025-03-01T12:00:00Z\n\
         [1300000000000000000] mod: !setup privates ann bob cat\n\
         mod: !clock turn:48h timeout:pass\n\
         @+49h\n\
         mod: !log\n",
    );
    assert!(privates.contains("⌛ cat's time ran out: cat passes automatically."));
    assert!(privates.contains("cat: **pass** (passed automatically: time ran out)"));
    assert!(privates.contains("@ann, your turn"));
}

#[test]
fn the_default_is_still_a_ping_and_the_notice_suggests_act_with_a_mention() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = run(
        &dir.path().join("ping.db"),
        "@2025-03-01T12:00:00Z\n\
         [1300000000000000000] mod: !setup privates ann bob cat\n\
         mod: !clock turn:48h\n\
         @+49h\n\
         @+49h\n",
    );
    assert_eq!(count(&out, "ran out"), 1, "{out}");
    assert!(out.contains("`!act @cat **…**`"), "{out}");
    assert!(!out.contains("Automa for"));
}

#[test]
fn away_with_cover_lets_the_automa_play_until_back_and_an_away_player_is_not_pinged() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("cover.db");
    let out = run(
        &db,
        "@2025-03-01T12:00:00Z\n\
         [1300000000000000000] mod: !setup privates ann bob cat\n\
         mod: !clock turn:48h\n\
         ann: !away 5d cover:automa at the beach\n\
         ann: !away 5d cover at the beach\n\
         cat: **pass**\n",
    );
    // The keyword is `cover:automa`; `cover` alone is a reason, as before.
    assert!(out.contains("🏖️ ann is away until 2025-03-06 12:00 UTC (in 5d): cover at the beach. No reminders meanwhile; ann passes automatically in auctions"), "{out}");
    // Her turn begins while she is away: she is not pinged.
    assert!(
        out.contains("ann, your turn") && !out.contains("@ann, your turn"),
        "{out}"
    );
    let out = run(
        &db,
        "@2025-03-01T13:00:00Z\n\
         ann: !away 5d cover:automa at the beach\n\
         bob: **pass**\n\
         cat: **pass**\n",
    );
    assert!(
        out.contains("the automa plays ann's seat until ann is back"),
        "{out}"
    );
    // ann's turn begins while she is away: not pinged, and the automa moves for her at once.
    assert!(!out.contains("@ann"), "{out}");
    assert!(out.contains("🤖 **Automa for ann: "), "{out}");
    assert!(out.contains("(automa for ann)"));
    // After a restart, `!back` hands the seat back, announced.
    let out = run(
        &db,
        "@2025-03-02T13:00:00Z\n\
         ann: !back\n\
         bob: **pass**\n\
         cat: **pass**\n",
    );
    assert!(
        out.contains("↩️ ann takes the seat back from the automa."),
        "{out}"
    );
    assert!(!out.contains("Automa for ann"), "{out}");
    // `!back` of someone neither away nor covered is refused, as before.
    let out = run(&db, "@2025-03-02T14:00:00Z\nbob: !back\n");
    assert!(out.contains("❌ bob is not away."), "{out}");
}

#[test]
fn the_cover_ends_with_the_absence() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = run(
        &dir.path().join("ends.db"),
        "@2025-03-01T12:00:00Z\n\
         [1300000000000000000] mod: !setup privates ann bob cat\n\
         ann: !away 1d cover:automa\n\
         cat: **pass**\n\
         @+25h\n\
         bob: **pass**\n\
         cat: **pass**\n",
    );
    assert_eq!(count(&out, "🤖 **Automa for ann: "), 1, "{out}");
    // Once the absence is over ann is pinged for her turn again.
    assert!(out.contains("@ann, your turn"), "{out}");
}

#[test]
fn time_banks_run_while_a_player_is_to_act_grow_with_each_move_and_run_out() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("bank.db");
    let out = run(
        &db,
        "@2025-03-01T12:00:00Z\n\
         [1300000000000000000] mod: !setup privates ann bob cat\n\
         mod: !clock bank:72h add:12h max:100h timeout:pass\n\
         @+40h\n\
         cat: **pass**\n\
         @+10h\n\
         mod: !status\n",
    );
    assert!(
        out.contains("Time banks: 3d each, 12h added by each move, at most 4d4h."),
        "{out}"
    );
    assert!(out.contains("Banks: ann 3d, bob 3d, cat 3d."));
    // cat used 40h of 72h and got 12h back; ann has been to act for 10h.
    assert!(
        out.contains("⏳ Time banks: ann 2d14h, bob 3d, cat 1d20h."),
        "{out}"
    );
    // The reminder comes at half of what ann's bank held; her bank runs out after 72h.
    let out = run(
        &db,
        "@2025-03-04T12:00:00Z\n@2025-03-05T12:00:00Z\n@2025-03-06T05:00:00Z\n",
    );
    assert!(
        out.contains("⏰ @ann: your turn in console-1 has waited"),
        "{out}"
    );
    assert!(
        out.contains("⌛ ann's time ran out: ann passes automatically."),
        "{out}"
    );
    // An undo refunds nothing: the time spent stays spent.
    let out = run(&db, "@2025-03-06T06:00:00Z\nmod: !undo\nmod: !clock\n");
    assert!(out.contains("Banks: ann 12h, bob 3d, cat 1d20h."), "{out}");
}

#[test]
fn help_describes_each_option() {
    let dir = tempfile::tempdir().expect("temp dir");
    let out = run(
        &dir.path().join("help.db"),
        "ann: !help clock\nann: !help away\n",
    );
    for option in [
        "timeout:ping",
        "timeout:automa",
        "timeout:pass",
        "hand-over:2",
        "bank:72h add:12h max:120h",
        "`!undo` refunds nothing",
        "`!away 5d cover:automa [reason]`",
        "takes your seat back from the automa",
    ] {
        assert!(out.contains(option), "{option} in {out}");
    }
}
