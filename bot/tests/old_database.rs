//! A database written by the first version (before the table core) loads through the
//! migrations, replays to the same state, and its game continues.
//!
//! `bot/tests/fixtures/v1-gaugebot.db` was written by the v1 binary
//! (`bot/tests/fixtures/make_v1_fixture.py`, run from the workspace root): an audited game with auctions, a dividend draw, an undo, a redone
//! draw and a refused command; `v1-gaugebot.dump.json` is that binary's `--dump-state`.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use gaugebot::table::Verdict;
use gaugebot_store::SqliteStore;
use gaugebot_table::Store;
use sqlx::{Connection, Row};

mod common;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures")
        .join(name)
}

/// A copy of the fixture database in a temporary folder.
fn copy_fixture(dir: &Path) -> PathBuf {
    let db = dir.join("v1.db");
    std::fs::copy(fixture("v1-gaugebot.db"), &db).expect("fixture copied");
    db
}

#[tokio::test]
async fn a_v1_database_migrates_replays_and_plays_on() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = copy_fixture(dir.path());
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixture("v1-gaugebot.dump.json")).expect("dump"),
    )
    .expect("dump json");

    let store = SqliteStore::open(&db.to_string_lossy())
        .await
        .expect("opens");
    let mut table = common::table_on(store.clone(), "console", None).await;
    assert!(table.frozen().is_none(), "{:?}", table.frozen());
    assert_eq!(table.kind(), Some("irish-gauge"));
    assert_eq!(
        table.dump(),
        Some(expected.clone()),
        "the replayed state differs"
    );
    // The old log reads as before: undone draw struck through.
    let log = table
        .handle(&common::message(5001, "ann", "!log 20", false))
        .await
        .text();
    assert!(
        log.contains("(undone)") && log.contains("mod: undo"),
        "{log}"
    );
    // The game goes on: the player to act (on a turn) calls for dividends; the audited dice of
    // the old game draw at once.
    let next = expected["next"].as_str().expect("a player to act");
    let moved = table
        .handle(&common::message(5002, next, "**dividends**", false))
        .await;
    assert!(moved.text().contains("(audited dice)"), "{}", moved.text());
    assert_eq!(moved.verdict, Verdict::Accepted, "{}", moved.text());
    let rows = store
        .log(table.game_id().expect("a game"))
        .await
        .expect("log");
    assert_eq!(rows.last().map(|r| r.message_id.as_str()), Some("5002"));
    store.close().await;

    // Every migration ran on the old file.
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{}", db.display()))
        .await
        .expect("raw connection");
    let versions: Vec<i64> = sqlx::query("SELECT version FROM _sqlx_migrations ORDER BY version")
        .fetch_all(&mut conn)
        .await
        .expect("migrations table")
        .iter()
        .map(|r| r.get(0))
        .collect();
    // Every migration in store/migrations, whoever added it.
    let mut expected: Vec<i64> =
        std::fs::read_dir(Path::new(env!("CARGO_MANIFEST_DIR")).join("../store/migrations"))
            .expect("the migrations folder")
            .filter_map(|e| e.ok())
            .filter_map(|e| {
                let name = e.file_name().to_string_lossy().into_owned();
                name.split('_').next().and_then(|n| n.parse().ok())
            })
            .collect();
    expected.sort_unstable();
    assert!(expected.starts_with(&[1, 2]), "{expected:?}");
    assert_eq!(versions, expected);
    conn.close().await.expect("closed");
}

#[test]
fn the_binary_continues_a_v1_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = copy_fixture(dir.path());
    let dump = dir.path().join("after.json");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(["play", "--no-map", "--db"])
        .arg(&db)
        .arg("--dump-state")
        .arg(&dump)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gaugebot starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all(b"[6001] cat: !status\n[6002] cat: **dividends**\n")
            .expect("written");
    }
    let output = child.wait_with_output().expect("runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(stdout.contains("**Irish Gauge — console-1**"), "{stdout}");
    let after: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&dump).expect("dump written")).expect("json");
    assert_eq!(after["players"].as_array().map(Vec::len), Some(3));
    assert_eq!(
        after["draws"].as_array().map(Vec::len),
        Some(2),
        "cat's dividend call was drawn: {stdout}"
    );
    assert_ne!(after["next"], "cat");
}

#[cfg(unix)]
#[tokio::test]
async fn a_new_database_is_readable_by_its_owner_only() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("new.db");
    let store = SqliteStore::open(&db.to_string_lossy())
        .await
        .expect("opens");
    let mut table = common::table_on(store.clone(), "c", Some(common::SEED)).await;
    table
        .handle(&common::message(1, "mod", "!setup ann bob cat", true))
        .await;
    store.close().await;
    for file in [db.clone(), dir.path().join("new.db-wal")] {
        if let Ok(meta) = std::fs::metadata(&file) {
            assert_eq!(
                meta.permissions().mode() & 0o777,
                0o600,
                "{} is readable by others",
                file.display()
            );
        }
    }
}

/// The first version's game (dice v1), exported today: a chained record both verifiers accept.
#[tokio::test]
async fn a_v1_game_exports_a_chained_record_that_verifies() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = copy_fixture(dir.path());
    let store = SqliteStore::open(&db.to_string_lossy())
        .await
        .expect("opens");
    let mut table = common::table_on(store.clone(), "console", None).await;
    let r = table
        .handle(&common::message(5101, "mod", "!reveal confirm", true))
        .await;
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    let record = table.record().expect("a record");
    assert_eq!(record.version, "gaugebot-dice-v1");
    assert_eq!(record.format, "gaugebot-record-v2");
    let path = dir.path().join("v1-record.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&record).expect("json")).expect("written");
    let out = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .arg("verify")
        .arg(&path)
        .output()
        .expect("gaugebot runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stdout)
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/verify_draws.py");
    if let Ok(out) = Command::new("python3").arg(script).arg(&path).output() {
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stdout)
        );
    }
}
