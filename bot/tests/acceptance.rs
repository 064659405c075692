//! Acceptance tests: whole games played through the real `gaugebot play` binary, as a
//! moderator would script them, checked against hand-computed values.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use serde_json::Value;

mod binary;
use binary::transcript;

const SEED: &str = "00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff";

/// Runs `gaugebot play` on `input` with a database file, attachments in its folder; returns
/// stdout and the state dump.
fn play(db: &Path, input: &str, extra: &[&str]) -> (String, Value) {
    let dir = db.parent().expect("db in a folder");
    let mut args = vec!["--attachments", dir.to_str().expect("a UTF-8 temp path")];
    args.extend_from_slice(extra);
    binary::play(db, input, &args)
}

fn temp_db() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("games.db");
    (dir, db)
}

#[test]
fn a_complete_manual_game_reaches_the_hand_computed_scores() {
    let (_dir, db) = temp_db();
    let (out, state) = play(&db, &transcript("complete_manual.txt"), &[]);
    assert!(
        !out.contains('❌'),
        "no command of the script is refused:\n{out}"
    );
    // Cash and scores worked out by hand in the transcript's comments.
    let players = state["players"].as_array().expect("players");
    let summary: Vec<(String, u64, u64)> = players
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap_or("").to_string(),
                p["cash"].as_u64().unwrap_or(0),
                p["score"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            ("ann".to_string(), 10, 27),
            ("bob".to_string(), 30, 35),
            ("cat".to_string(), 41, 59)
        ]
    );
    assert_eq!(
        state["players"][0]["shares"]["WLW"],
        serde_json::json!([10])
    );
    assert_eq!(state["players"][2]["shares"]["BCD"], serde_json::json!([8]));
    assert_eq!(state["finished"], true);
    assert_eq!(state["winners"], serde_json::json!(["cat"]));
    assert_eq!(state["next"], Value::Null);
    assert_eq!(
        state["supply"],
        serde_json::json!({"white": 0, "pink": 0, "black": 0})
    );
    assert_eq!(state["draws"].as_array().map(Vec::len), Some(7));
    assert_eq!(
        state["draws"][1],
        serde_json::json!(["black", "black", "black"])
    );
    assert_eq!(
        state["railways"]["GSW"]["track"],
        serde_json::json!(["F11", "G11", "H11"])
    );
    assert_eq!(
        state["railways"]["WLW"]["available"],
        serde_json::json!([15, 19])
    );
    assert_eq!(state["cities"]["Drogheda"], "pink");
    assert_eq!(state["cities"].as_object().map(|o| o.len()), Some(9));
    assert!(out.contains("cat wins with £59"), "{out}");
    assert!(
        out.contains(
            "WLW pays £6 (1 paying city (Limerick), 1 town (Shannon)): £3 a share — ann £3, bob £3"
        ),
        "{out}"
    );
}

#[test]
fn a_restart_in_the_middle_continues_exactly() {
    let script = transcript("complete_manual.txt");
    let (_a, whole_db) = temp_db();
    let (_, whole) = play(&whole_db, &script, &[]);
    // The same game in three processes on one database, cut mid-auction and mid-turn.
    let lines: Vec<&str> = script.lines().collect();
    let (_b, db) = temp_db();
    let cuts = [0, 12, 31, lines.len()];
    let mut last = Value::Null;
    for window in cuts.windows(2) {
        let part = lines[window[0]..window[1]].join("\n");
        let (_, state) = play(&db, &part, &[]);
        last = state;
    }
    assert_eq!(last, whole);
}

#[test]
fn refused_messages_change_nothing() {
    // Stop after turn 3's builds: ann is to call dividends.
    let prefix = first_three_turns();
    let (_a, db_a) = temp_db();
    let (_, before) = play(&db_a, &prefix, &[]);
    assert_eq!(before["next"], "ann");
    let long = format!("ann: **dividends** {}", "x".repeat(5000));
    let nasty = [
        "bob: **dividends**",         // out of turn
        "bob: !setup bob cat dan",    // not a moderator
        "cat: !undo",                 // not a moderator
        "ann: !draw pink pink pink",  // not a moderator, no draw pending
        "mod: !draw pink pink pink",  // no draw pending
        "dan: **dividends**",         // not a player
        "ann: **bdi 7**",             // a near miss
        "ann: **build CBSC Shanon**", // misspelt
        "ann: **build CBSC N4 N3**",  // too expensive
        "ann: **auction BCD 99999999999999999999**",
        "ann: `**dividends**` in code", // ignored, not a command
        "ann: > **dividends**",         // a quote: ignored
        long.as_str(),                  // over-long
        "mod: !setup ann bob cat",      // a game is running
    ];
    let (_b, db_b) = temp_db();
    let (out, after) = play(&db_b, &format!("{prefix}\n{}", nasty.join("\n")), &[]);
    assert_eq!(after, before, "refusals changed the game:\n{out}");
    for expected in [
        "it is ann's turn, not bob's",
        "only a moderator may `!setup`",
        "only a moderator may `!undo`",
        "No draw is pending",
        "you are not seated in this game",
        "'bdi' is close to bid; did you mean **bid 7**?",
        "did you mean Shannon?",
        "costs 4 BP",
        "more money than there is",
        "over 4000 characters",
        "A game is running in this channel",
    ] {
        assert!(out.contains(expected), "missing '{expected}' in:\n{out}");
    }
}

#[test]
fn a_message_id_seen_before_is_never_applied_twice() {
    let (_a, db) = temp_db();
    let (_, before) = play(&db, &first_three_turns(), &[]);
    // One undo delivered three times (a reconnecting client re-sending it) undoes once.
    let (out, after) = play(
        &db,
        "[u-1] mod: !undo\n[u-1] mod: !undo\n[u-1] mod: !undo",
        &[],
    );
    assert_eq!(out.matches("Undone:").count(), 1, "{out}");
    assert_eq!(after["next"], "cat");
    assert_eq!(
        after["railways"]["GSW"]["track"],
        serde_json::json!(["H11"])
    );
    assert_eq!(before["railways"]["WLW"], after["railways"]["WLW"]);
}

/// Seats of an audited game set up with the fixed seed, from its dump.
fn audited_seats(db: &Path) -> Vec<String> {
    let (_, state) = play(db, "mod: !setup ann bob cat", &["--seed", SEED]);
    state["players"]
        .as_array()
        .expect("players")
        .iter()
        .map(|p| p["name"].as_str().unwrap_or("").to_string())
        .collect()
}

/// Everyone passes the five initial auctions: the first seat takes every share free.
fn everyone_passes_the_initial_auctions(seats: &[String]) -> Vec<String> {
    (0..5)
        .flat_map(|_| seats.iter().map(|seat| format!("{seat}: **pass**")))
        .collect()
}

#[test]
fn undo_across_a_dividend_call_reproduces_the_same_cubes() {
    let (_a, db) = temp_db();
    let seats = audited_seats(&db);
    let mut lines = everyone_passes_the_initial_auctions(&seats);
    lines.push(format!("{}: **dividends**", seats[0]));
    let (_, first) = play(&db, &lines.join("\n"), &["--seed", SEED]);
    let drawn = first["draws"][0].clone();
    assert_eq!(drawn.as_array().map(Vec::len), Some(3), "{first}");
    let redo = format!("mod: !undo\n{}: **dividends**", seats[0]);
    let (out, second) = play(&db, &redo, &["--seed", SEED]);
    assert!(out.contains("Undone:"), "{out}");
    assert_eq!(second["draws"], serde_json::json!([drawn]));
    assert_eq!(second, first);
    // The seed stays secret while the game runs.
    let (audit, _) = play(&db, "bob: !audit", &["--seed", SEED]);
    assert!(audit.contains("Commitment:"), "{audit}");
    assert!(!audit.contains(SEED), "the seed leaked:\n{audit}");
}

#[test]
fn setup_with_the_forum_rolls_posts_the_forum_order_and_cities() {
    let (_a, db) = temp_db();
    let (out, state) = play(
        &db,
        "mod: !setup discrider Daemonis JPants 38thDoe dice:manual order:3,1,2,4 cities:5,2,3,11,4,7,9,12",
        &[],
    );
    let names: Vec<&str> = state["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names, ["JPants", "discrider", "Daemonis", "38thDoe"]);
    assert!(
        out.contains("3 White (Cork, Kilkenny, Limerick), 2 Pink (Galway, Waterford), 3 Black (Belfast, Derry, Dublin)"),
        "{out}"
    );
    assert_eq!(state["next"], "JPants");
    assert_eq!(
        state["supply"],
        serde_json::json!({"white": 7, "pink": 8, "black": 7})
    );
}

/// The script up to the end of turn 3 (ann is to call dividends).
fn first_three_turns() -> String {
    let script = transcript("complete_manual.txt");
    let upto = script
        .lines()
        .position(|l| l.starts_with("cat: **build GSW"))
        .expect("script has the GSW build")
        + 1;
    script.lines().take(upto).collect::<Vec<_>>().join("\n")
}

#[test]
fn information_and_moderator_commands_answer() {
    let (_a, db) = temp_db();
    play(&db, &first_three_turns(), &[]);
    let probe = |line: &str| play(&db, line, &[]).0;
    let moves = probe("ann: !moves");
    for expected in [
        "ann, your turn",
        "**auction**",
        "**build CBSC**",
        "N4 2",
        "**dividends**",
    ] {
        assert!(moves.contains(expected), "'{expected}' in:\n{moves}");
    }
    assert!(probe("bob: !moves").contains("It is ann's move, not yours."));
    assert!(probe("bob: !log 3").contains("cat: **build GSW G11 F11**"));
    assert!(probe("bob: !status").contains("**Player Status**"));
    assert!(probe("bob: !help build").contains("3 build points"));
    assert!(probe("bob: !help").contains("!setup @a @b @c"));
    // Irish Gauge takes secret presets: the help on play over weeks tells how to send them.
    assert!(probe("bob: !help weeks").contains("!preset max WLW 12"));
    assert!(probe("bob: !audit").contains("manual dice"));
    assert!(probe("mod: !reveal").contains("no seed to reveal"));
    assert!(probe("bob: !frobnicate").contains("Unknown command `!frobnicate`"));
    let undo = probe("mod: !undo");
    assert!(
        undo.contains("Undone: cat's **build GSW G11 F11**"),
        "{undo}"
    );
    let log = probe("mod: !log 2");
    assert!(log.contains("~~cat: **build GSW G11 F11**"), "{log}");
    assert!(log.contains("(undone)"), "{log}");
    assert!(log.contains("mod: undo"), "{log}");
}

#[test]
fn a_seed_revealed_mid_game_turns_the_dice_manual() {
    let (_a, db) = temp_db();
    let seats = audited_seats(&db);
    let lines = everyone_passes_the_initial_auctions(&seats);
    play(&db, &lines.join("\n"), &["--seed", SEED]);
    let (warn, _) = play(&db, "mod: !reveal", &["--seed", SEED]);
    assert!(warn.contains("!reveal confirm"), "{warn}");
    assert!(!warn.contains(SEED));
    let (revealed, _) = play(&db, "mod: !reveal confirm", &["--seed", SEED]);
    assert!(revealed.contains(SEED), "{revealed}");
    let (call, state) = play(
        &db,
        &format!("{}: **dividends**", seats[0]),
        &["--seed", SEED],
    );
    assert!(
        call.contains("Waiting for the moderator's `!draw`"),
        "{call}"
    );
    assert_eq!(state["next"], "mod");
    let (_, state) = play(&db, "mod: !draw pink pink pink", &["--seed", SEED]);
    assert_eq!(
        state["draws"],
        serde_json::json!([["pink", "pink", "pink"]])
    );
    let (undo, _) = play(&db, "mod: !undo", &["--seed", SEED]);
    assert!(undo.contains("undo is closed"), "{undo}");
}

#[test]
fn a_bad_seed_is_refused_before_anything_starts() {
    let output = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(["play", "--seed", "not-a-seed"])
        .stdin(Stdio::null())
        .output()
        .expect("gaugebot runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--seed"), "{stderr}");
    assert!(output.stdout.is_empty());
}

#[test]
fn a_scripted_game_writes_no_files_unless_asked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .arg("play")
        .current_dir(dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("gaugebot starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(b"mod: !setup ann bob cat\nann: !map\nann: !audit\n")
            .expect("input written");
    }
    let output = child.wait_with_output().expect("gaugebot ends");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success());
    assert!(
        stdout.contains("(not saved: give --attachments DIR)"),
        "{stdout}"
    );
    let files: Vec<_> = std::fs::read_dir(dir.path()).expect("dir").collect();
    assert!(files.is_empty(), "files were written: {files:?}");
}

#[test]
fn verify_names_a_missing_file_and_exits_2() {
    let output = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(["verify", "no-such-audit.json"])
        .output()
        .expect("gaugebot runs");
    assert_eq!(output.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("no-such-audit.json"), "{stderr}");
}

#[test]
fn a_game_over_weeks_runs_on_the_console_clock() {
    let (_dir, db) = temp_db();
    let (out, state) = play(&db, &transcript("weeks.txt"), &["--seed", SEED]);
    let channel: Vec<&str> = out.lines().filter(|l| !l.starts_with("(to ")).collect();
    let channel = channel.join("\n");
    for line in [
        "📝 Signups extended: 2 of 4 signed up (ann, bob).",
        "📝 **Signups closed**: 3 signed up (ann, bob, cat).",
        "⏰ @bob: your bid or pass in console-1 has waited since",
        "cat bids £8 (preset).",
        "ann is passed automatically: ann is away.",
        "bob is passed automatically: the auction clock ran out.",
        "cat wins the CBSC £7 share for £8.",
        "🔁 dan takes ann's seat (seat 3), with its cash and shares (by mod).",
        "bob passes (preset).",
        "#7 ann: **pass** (passed automatically: away)",
        "#10 mod: dan takes ann's seat (seat 3)",
    ] {
        assert!(channel.contains(line), "{line}\n{out}");
    }
    // Presets are answered privately; the channel never shows a limit.
    assert!(out.contains("(to cat) ❌ a limit of £30 is more than the £20 you have"));
    assert!(out
        .contains("(to cat) 🤫 Saved for console-1 (#console): bid the minimum needed, up to £9"));
    assert!(!channel.contains("up to £"), "{channel}");
    assert!(out.contains("(to ann) ann, no game is waiting for you."));
    assert_eq!(out.matches("⏰").count(), 1, "one reminder:\n{out}");
    assert!(!channel.contains('❌'), "{channel}");
    let names: Vec<&str> = state["players"]
        .as_array()
        .expect("players")
        .iter()
        .filter_map(|p| p["name"].as_str())
        .collect();
    assert_eq!(names, ["bob", "cat", "dan"]);
    // Restarted on the same database at the same time: nothing is repeated.
    let (again, _) = play(&db, "@2025-03-06T01:00:00Z\n", &[]);
    assert_eq!(again.trim(), "", "{again}");
}
