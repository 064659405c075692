//! Issue 31, finding 2 (b): the host cannot grind seeds for the setup draws (docs/DICE.md §3.3
//! and its threat table §10). With `--commit-first`, `!setup` posts the dice commitment alone;
//! the setup draws follow in the next post, keyed by the id that the commitment post got (at the
//! console, the console's next id), which did not exist when the seed was committed; a setup
//! waiting for its post survives a restart and is finished once.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

use gaugebot_store::SqliteStore;
use gaugebot_table::dice::{AuditExport, DrawRecord, Seed};
use gaugebot_table::{Author, Incoming, Table, TableSettings, Verdict};
use serde_json::Value;

const SEED: &str = "5a17c0ffee5a17c0ffee5a17c0ffee5a17c0ffee5a17c0ffee5a17c0ffee0002";
const SETUP_MESSAGE: &str = "1190000000000000001";

/// Runs `gaugebot play` on `lines` (extra options first); its standard output.
fn play(dir: &Path, options: &[&str], lines: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(["play", "--no-map", "--seed", SEED])
        .args(options)
        .arg("--attachments")
        .arg(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("gaugebot starts");
    let mut stdin = child.stdin.take().expect("stdin");
    for line in lines {
        writeln!(stdin, "{line}").expect("a line sent");
    }
    drop(stdin);
    let out = child.wait_with_output().expect("gaugebot ends");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Whether the setup draws of `record` recompute (with the seed) under client seed `client`.
fn setup_draws_recompute(record: &Value, client: &str) -> bool {
    let draws: Vec<DrawRecord> = record["draws"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|d| d.get("seq").is_none())
        .filter_map(|d| serde_json::from_value(d.clone()).ok())
        .collect();
    assert!(!draws.is_empty(), "the game has setup draws");
    let export = AuditExport {
        version: "gaugebot-dice-v3".to_string(),
        game_id: record["game_id"].as_str().unwrap_or("").to_string(),
        commitment: record["commitment"].as_str().unwrap_or("").to_string(),
        seed: Some(SEED.to_string()),
        draws,
        format: None,
        client_seed: Some(client.to_string()),
    };
    gaugebot::games::verify(&export).is_ok_and(|report| report.is_ok())
}

#[test]
fn the_setup_draws_depend_on_the_commitment_posts_id_fixed_after_the_commitment() {
    let dir = tempfile::tempdir().expect("temp dir");
    let setup = format!("[{SETUP_MESSAGE}] mod: !setup ann bob cat");
    let out = play(
        dir.path(),
        &["--commit-first"],
        &[
            &setup,
            "zed: !export",
            "mod: !reveal confirm",
            "zed: !export",
        ],
    );
    // The commitment is posted alone, before any setup draw is shown.
    let committed = out.find("dice commitment").expect("the commitment post");
    let seated = out.find("Player order").expect("the setup's announcement");
    assert!(committed < seated, "{out}");
    assert!(!out[..seated].contains("City cubes"), "{out}");
    // The record (the last export: after the reveal).
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("game-console-1.json")).expect("the record"),
    )
    .expect("the record reads");
    assert_eq!(record["seed"].as_str(), Some(SEED), "{out}");
    // The client seed is the commitment post's id: the console's next id after the `!setup`.
    let client = record["client_seed"].as_str().expect("a client seed");
    assert_eq!(client, "1190000000000000002");
    assert_eq!(record["setup"]["client_seed"].as_str(), Some(client));
    assert_eq!(
        record["setup"]["setup_message"].as_str(),
        Some(SETUP_MESSAGE)
    );
    assert!(out.contains(&format!("Client seed: `{client}`")), "{out}");
    // The setup draws recompute from that id, not from the setup message the seed followed.
    assert!(setup_draws_recompute(&record, client));
    assert!(!setup_draws_recompute(&record, SETUP_MESSAGE));
    // The record verifies with both verifiers: every draw recomputed from its client seed.
    let path = dir.path().join("game-console-1.json");
    let rust = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .arg("verify")
        .arg(&path)
        .output()
        .expect("gaugebot verify runs");
    assert!(
        rust.status.success(),
        "{}",
        String::from_utf8_lossy(&rust.stdout)
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/verify_draws.py");
    if let Ok(python) = Command::new("python3").arg(script).arg(&path).output() {
        assert!(
            python.status.success(),
            "{}{}",
            String::from_utf8_lossy(&python.stdout),
            String::from_utf8_lossy(&python.stderr)
        );
    }
}

#[test]
fn another_commitment_post_id_gives_other_setup_draws() {
    // The same seed and `!setup` message; the commitment post gets another id (the console's
    // id sequence moved on, as a deleted and re-posted commitment would on Discord): the setup
    // draws change with it, so whoever chose the seed could not know them.
    let dir = tempfile::tempdir().expect("temp dir");
    let setup = format!("[{SETUP_MESSAGE}] mod: !setup ann bob cat");
    let first = play(dir.path(), &["--commit-first"], &[&setup]);
    let later = format!("[{SETUP_MESSAGE}] mod: !setup ann bob cat");
    let second = play(
        dir.path(),
        &["--commit-first"],
        &["[1190000000000000500] zed: hello", &later],
    );
    let cubes = |out: &str| {
        out.lines()
            .find(|l| l.starts_with("City cubes"))
            .map(str::to_string)
            .unwrap_or_default()
    };
    assert!(!cubes(&first).is_empty(), "{first}");
    assert!(second.contains("`1190000000000000501`"), "{second}");
    assert_ne!(cubes(&first), cubes(&second));
}

/// A message of `author` in the test channel.
fn message(id: &str, author: &str, text: &str) -> Incoming {
    Incoming {
        message_id: id.to_string(),
        author: Author {
            id: author.to_string(),
            name: author.to_string(),
            is_moderator: author == "mod",
            mention: format!("@{author}"),
        },
        text: text.to_string(),
        at: "2026-11-22T10:00:00Z".parse().expect("a time"),
        mentions: Vec::new(),
    }
}

/// The table of channel `c` on the database `db`, loaded afresh (as after a restart).
async fn table_on(db: &Path) -> Table {
    let settings = TableSettings {
        map_after_build: false,
        fixed_seed: Some(Seed::from_hex(SEED).expect("a seed")),
        setup_after_commitment: true,
        ..TableSettings::default()
    };
    let host = gaugebot::games::host(None, settings).expect("the host");
    let store = SqliteStore::open(&db.to_string_lossy())
        .await
        .expect("the database");
    Table::load("c", store.shared(), host)
        .await
        .expect("the table loads")
}

#[tokio::test]
async fn a_setup_waiting_for_its_commitment_post_survives_a_restart_and_is_finished_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("grind.db");
    let mut table = table_on(&db).await;
    let committed = table
        .handle(&message(SETUP_MESSAGE, "mod", "!setup ann bob cat"))
        .await;
    let game = committed
        .waiting_setup()
        .expect("the commitment post waits")
        .to_string();
    assert!(committed.text().contains("dice commitment"));
    assert!(!committed.text().contains("Player order"));
    assert_eq!(table.game_id(), None, "no game before the commitment post");
    // The process dies after the commitment post, before the setup draws.
    drop(table);
    let mut table = table_on(&db).await;
    let post = "1190000000000000002";
    let setup = table.commitment_posted(&game, post).await;
    assert_eq!(setup.verdict, Verdict::Accepted, "{}", setup.text());
    assert!(setup.text().contains(&format!("Client seed: `{post}`")));
    let record = table.record().expect("the record");
    assert_eq!(record.client_seed.as_deref(), Some(post));
    // The commitment post delivered again (same message, same id): nothing more.
    let again = table.commitment_posted(&game, post).await;
    assert_ne!(again.verdict, Verdict::Accepted);
    assert!(again.replies.is_empty(), "{}", again.text());
    drop(table);
    let table = table_on(&db).await;
    assert_eq!(table.game_id(), Some(game.as_str()));
    assert_eq!(table.record().expect("the record").draws, record.draws);
}

#[test]
fn signups_closed_by_the_clock_pick_and_set_up_with_the_commitment_posts_id() {
    // Four sign up for three seats; the clock closes the signups: the commitment is posted
    // first, then the pick of players and the setup draws, keyed by that post's id.
    let dir = tempfile::tempdir().expect("temp dir");
    let open = "1187000000000000006";
    let out = play(
        dir.path(),
        &["--commit-first"],
        &[
            "@2026-11-22T10:00:00Z",
            &format!("[{open}] mod: !signup open players:3-3 closes:24h"),
            "ann: !join",
            "bob: !join",
            "cat: !join",
            "dan: !join",
            "@+25h",
            "mod: !reveal confirm",
            "zed: !export",
        ],
    );
    let committed = out.find("dice commitment").expect("the commitment post");
    let seated = out.find("Player order").expect("the setup's announcement");
    assert!(committed < seated, "{out}");
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("game-console-1.json")).expect("the record"),
    )
    .expect("the record reads");
    let client = record["client_seed"].as_str().expect("a client seed");
    assert_ne!(client, open);
    assert_eq!(record["setup"]["client_seed"].as_str(), Some(client));
    assert_eq!(record["setup"]["setup_message"].as_str(), Some(open));
    let purposes: Vec<&str> = record["draws"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|d| d["purpose"].as_str())
        .collect();
    assert!(purposes.contains(&"signup-pick"), "{purposes:?}");
    assert_eq!(record["seed"].as_str(), Some(SEED), "{out}");
    assert!(setup_draws_recompute(&record, client));
    assert!(!setup_draws_recompute(&record, open));
}
