//! `gaugebot migrate --from sqlite:PATH --to postgres://…` through the real binary: every game,
//! log entry, read message and cursor arrives verbatim, and replaying each game on both sides
//! (the table core's `Table::load`, then `Table::dump`) gives identical states. PostgreSQL is a
//! real server the test starts itself (`pg/mod.rs`).

use std::process::{Command, Stdio};

use gaugebot::migrate::export_sqlite;
use gaugebot::postgres::PostgresStore;
use gaugebot::storage::SqliteStore;
use gaugebot::table::Verdict;

mod common;
mod pg;

/// Plays a few games into a SQLite file: finished and running, audited and manual, a retired
/// game, refused commands, cursors.
async fn fill(path: &str) {
    let store = SqliteStore::open(path).await.expect("sqlite");
    let mut rng = common::Rng::new(42);
    let mut next = 10_000u64;
    for (i, channel) in ["1001", "1002", "1003"].into_iter().enumerate() {
        let mut table = common::table_on(store.clone(), channel, Some(common::SEED)).await;
        common::setup_game(&mut table, next).await;
        next += 1;
        common::play_moves(&mut table, &mut rng, 20 + 15 * i, &mut next).await;
        // A refused command is marked read.
        let refused = table
            .handle(&common::message(next, "zed", "**bid 99**", false))
            .await;
        assert_eq!(refused.verdict, Verdict::Refused);
        next += 1;
        store
            .shared()
            .advance_cursor(channel, &(next - 1).to_string())
            .await
            .expect("cursor");
    }
    // Channel 1002 starts over: its first game is retired, not lost.
    let mut table = common::table_on(store.clone(), "1002", Some(common::SEED)).await;
    let again = table
        .handle(&common::message(
            next,
            "mod",
            "!setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12 force",
            true,
        ))
        .await;
    assert_eq!(again.verdict, Verdict::Accepted, "{}", again.text());
    next += 1;
    for (who, text) in [
        ("ann", "**bid 7**"),
        ("bob", "**pass**"),
        ("cat", "**pass**"),
    ] {
        let r = table.handle(&common::message(next, who, text, false)).await;
        assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
        next += 1;
    }
    // The console channel, with its word-named id.
    let mut table = common::table_on(store.clone(), "console", Some(common::SEED)).await;
    common::setup_game(&mut table, next).await;
    next += 1;
    common::play_moves(&mut table, &mut rng, 12, &mut next).await;
    store.shared().close().await;
}

fn migrate(from: &str, to: &str) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(["migrate", "--from", from, "--to", to])
        .stdin(Stdio::null())
        .output()
        .expect("gaugebot runs")
}

#[tokio::test]
async fn migrate_copies_every_game_verbatim_and_replays_identically() {
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("games.db").to_string_lossy().into_owned();
    fill(&path).await;
    let url = server.database().await;

    let out = migrate(&format!("sqlite:{path}"), &url);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("migrated 5 games"), "{stdout}");

    let sqlite = SqliteStore::open(&path).await.expect("sqlite");
    let postgres = PostgresStore::open(&url).await.expect("postgres");
    let source = export_sqlite(&sqlite).await.expect("export");
    let copy = postgres.export().await.expect("export");
    assert_eq!(source.games.len(), 5);
    assert!(source.logs.len() > 60, "{} entries", source.logs.len());
    assert!(!source.seen.is_empty() && source.cursors.len() == 3);
    assert_eq!(copy, source, "the copy is verbatim");

    // Each game replays to the same state on both sides.
    let channels = sqlite.shared().active_channels().await.expect("channels");
    assert_eq!(
        postgres.shared().active_channels().await.expect("channels"),
        channels
    );
    for channel in &channels {
        let a = common::table_on(sqlite.shared(), channel, Some(common::SEED)).await;
        let b = common::table_on(postgres.shared(), channel, Some(common::SEED)).await;
        assert!(a.frozen().is_none() && b.frozen().is_none(), "{channel}");
        assert!(a.dump().is_some(), "{channel} has a game");
        assert_eq!(a.dump(), b.dump(), "{channel} replays differently");
    }
    // And the game goes on in PostgreSQL where it stopped.
    let mut b = common::table_on(postgres.shared(), "1002", Some(common::SEED)).await;
    let next = b
        .handle(&common::message(99_999, "ann", "**pass**", false))
        .await;
    assert_eq!(next.verdict, Verdict::Accepted, "{}", next.text());
    postgres.shared().close().await;
    sqlite.shared().close().await;

    // A second migration into a database with games is refused; bad arguments too.
    let again = migrate(&format!("sqlite:{path}"), &url);
    assert!(!again.status.success());
    assert!(
        String::from_utf8_lossy(&again.stderr).contains("already has"),
        "{}",
        String::from_utf8_lossy(&again.stderr)
    );
    assert!(!migrate(&url, &url).status.success());
    assert!(!migrate("sqlite:/nonexistent/x.db", &url).status.success());
}

/// `gaugebot play --db postgres://…`: the console table plays the hand-computed game on
/// PostgreSQL, and a second run on the same database continues it (a restart).
#[tokio::test]
async fn the_console_plays_on_postgresql() {
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    let url = server.database().await;
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/complete_manual.txt");
    let lines: Vec<String> = std::fs::read_to_string(&script)
        .expect("the transcript")
        .lines()
        .map(str::to_string)
        .collect();
    let half = lines.len() / 2;
    let run = |input: String| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
            .args(["play", "--no-map", "--db", &url])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("gaugebot starts");
        {
            use std::io::Write;
            let mut stdin = child.stdin.take().expect("stdin");
            stdin.write_all(input.as_bytes()).expect("input");
        }
        let out = child.wait_with_output().expect("gaugebot ends");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    let first = run(lines[..half].join("\n") + "\n");
    assert!(first.contains("New game console-1"), "{first}");
    let second = run(lines[half..].join("\n") + "\n");
    assert!(second.contains("cat wins with £59"), "{second}");
}
