//! The complete game record: `!export` from a played game, checked by both verifiers (draws and
//! completeness), tampering caught, replayed offline with `gaugebot replay`, and continued
//! elsewhere with `gaugebot import`.

use std::path::Path;
use std::process::Command;

use gaugebot::table::Verdict;
use gaugebot_table::record::GameRecord;
use serde_json::Value;

mod common;
use common::{message, SEED};

fn gaugebot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(args)
        .output()
        .expect("gaugebot runs")
}

fn python(file: &Path) -> Option<std::process::Output> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/verify_draws.py");
    Command::new("python3").arg(script).arg(file).output().ok()
}

fn write(path: &Path, record: &Value) {
    std::fs::write(path, serde_json::to_vec_pretty(record).expect("json")).expect("written");
}

/// Both verifiers' exit codes for a record.
fn verdicts(path: &Path) -> (Option<i32>, Option<i32>) {
    let rust = gaugebot(&["verify", &path.to_string_lossy()]).status.code();
    let python = python(path).and_then(|o| o.status.code());
    (rust, python)
}

async fn send(
    table: &mut gaugebot::table::Table,
    id: &mut u64,
    author: &str,
    text: &str,
    moderator: bool,
) -> gaugebot::table::Response {
    *id += 1;
    table.handle(&message(*id, author, text, moderator)).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_record_checks_itself_replays_and_moves() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("game.db");
    let mut table = common::open_table(&db, "record", Some(SEED)).await;
    let mut id = 1000u64;
    let r = send(&mut table, &mut id, "mod", "!setup ann bob cat", true).await;
    assert_eq!(r.verdict, Verdict::Accepted);
    for _ in 0..15 {
        let who = table.player_to_act().expect("a player").name;
        send(&mut table, &mut id, &who, "**pass**", false).await;
    }
    // A dividend call, undone, and called again: the same cubes (undo never re-rolls).
    let who = table.player_to_act().expect("a player").name;
    let first = send(&mut table, &mut id, &who, "**dividends**", false)
        .await
        .text();
    let undo = send(&mut table, &mut id, "mod", "!undo", true).await;
    assert_eq!(undo.verdict, Verdict::Accepted, "{}", undo.text());
    let again = send(&mut table, &mut id, &who, "**dividends**", false)
        .await
        .text();
    let drawn = |t: &str| {
        t.lines()
            .find(|l| l.starts_with("Drawn:"))
            .map(str::to_string)
    };
    assert_eq!(drawn(&first), drawn(&again), "{first}\n---\n{again}");
    for _ in 0..3 {
        let who = table.player_to_act().expect("a player").name;
        send(&mut table, &mut id, &who, "**dividends**", false).await;
    }
    let sealed = table.record().expect("a record");
    assert_eq!(
        sealed.seed, None,
        "the seed stays secret in a record before the reveal"
    );
    let r = send(&mut table, &mut id, "mod", "!reveal confirm", true).await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    let exported = send(&mut table, &mut id, "ann", "!export", false).await;
    let file = exported
        .replies
        .iter()
        .find_map(|r| r.attachment.clone())
        .expect("the record is attached");
    let record: GameRecord = serde_json::from_slice(&file.bytes).expect("a game record");
    assert_eq!(record.version, "gaugebot-dice-v3");
    assert!(
        record.log.iter().any(|e| e.undone),
        "the undone call is marked"
    );
    let path = dir.path().join(&file.filename);
    std::fs::write(&path, &file.bytes).expect("written");

    // Both verifiers agree: every draw matches and the record is complete.
    let (rust, python) = verdicts(&path);
    assert_eq!(
        rust,
        Some(0),
        "{}",
        String::from_utf8_lossy(&gaugebot(&["verify", &path.to_string_lossy()]).stdout)
    );
    if let Some(code) = python {
        assert_eq!(code, 0);
    }
    // Tampering: a draw record removed, a log entry removed, an undone mark flipped.
    let value: Value = serde_json::from_slice(&file.bytes).expect("json");
    let mut no_draw = value.clone();
    let draws = no_draw["draws"].as_array_mut().expect("draws");
    let last_dividend = draws
        .iter()
        .rposition(|d| d["purpose"] == "dividend-draw")
        .expect("a dividend draw");
    draws.remove(last_dividend);
    let mut no_entry = value.clone();
    no_entry["log"].as_array_mut().expect("log").remove(16);
    let mut flipped = value.clone();
    flipped["log"][0]["undone"] = Value::Bool(true);
    for (what, tampered) in [
        ("draw record removed", no_draw),
        ("log entry removed", no_entry),
        ("undo mark flipped", flipped),
    ] {
        let bad = dir.path().join("tampered.json");
        write(&bad, &tampered);
        let (rust, python) = verdicts(&bad);
        assert_eq!(rust, Some(1), "{what}: gaugebot verify");
        if let Some(code) = python {
            assert_eq!(code, 1, "{what}: tools/verify_draws.py");
        }
    }

    // Replayed offline: the whole game gives the table's state; `--until` stops at an entry.
    let dump = dir.path().join("replayed.json");
    let out = gaugebot(&[
        "replay",
        &path.to_string_lossy(),
        "--dump-state",
        &dump.to_string_lossy(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let replayed: Value =
        serde_json::from_str(&std::fs::read_to_string(&dump).expect("dump")).expect("json");
    assert_eq!(Some(replayed), table.dump());
    let out = gaugebot(&[
        "replay",
        &path.to_string_lossy(),
        "--until",
        "14",
        "--dump-state",
        &dump.to_string_lossy(),
    ]);
    assert!(out.status.success());
    let early: Value =
        serde_json::from_str(&std::fs::read_to_string(&dump).expect("dump")).expect("json");
    assert_eq!(
        early["draws"],
        Value::Array(Vec::new()),
        "no dividend call before #15"
    );

    // Imported into another bot's database, the game goes on there (manual draws: its seed is
    // public, so no further draw could be kept secret).
    let other = dir.path().join("other.db");
    let out = gaugebot(&[
        "import",
        &path.to_string_lossy(),
        "--db",
        &other.to_string_lossy(),
        "--channel",
        "console",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut moved = common::open_table(&other, "console", None).await;
    assert_eq!(moved.dump(), table.dump());
    let who = moved.player_to_act().expect("a player").name;
    let next = moved
        .handle(&message(9001, &who, "**dividends**", false))
        .await;
    assert_eq!(next.verdict, Verdict::Accepted, "{}", next.text());
    assert!(
        next.text().contains("Waiting for the moderator's `!draw`"),
        "{}",
        next.text()
    );
    let twice = gaugebot(&[
        "import",
        &path.to_string_lossy(),
        "--db",
        &other.to_string_lossy(),
        "--channel",
        "console",
    ]);
    assert!(
        !twice.status.success(),
        "a second import into a channel with a game is refused"
    );
    // A record whose game id is a path is refused before anything is written (its id would
    // name files: `--attachments` would write outside its folder).
    let mut forged: Value =
        serde_json::from_str(&std::fs::read_to_string(&path).expect("record")).expect("json");
    forged["game_id"] = Value::from("../../evil-1");
    let forged_path = dir.path().join("forged.json");
    std::fs::write(&forged_path, forged.to_string()).expect("write");
    let third = dir.path().join("third.db");
    let out = gaugebot(&[
        "import",
        &forged_path.to_string_lossy(),
        "--db",
        &third.to_string_lossy(),
        "--channel",
        "console",
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "a path as a game id is imported");
    assert!(stderr.contains("is not a game id"), "{stderr}");
    assert!(!third.exists(), "nothing is written");
}
