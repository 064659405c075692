//! `gaugebot migrate --from sqlite:PATH --to postgres://…` through the real binary: every game,
//! log entry, read message and cursor arrives verbatim, and replaying each game on both sides
//! (the table core's `Table::load`, then `Table::dump`) gives identical states. PostgreSQL is a
//! real server the test starts itself (`pg/mod.rs`).

use std::process::{Command, Stdio};

use gaugebot::migrate::export_sqlite;
use gaugebot::table::Verdict;
use gaugebot_store::postgres::PostgresStore;
use gaugebot_store::SqliteStore;

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
    // The tables outside the log: open signups in a channel without a game, a player's secret
    // presets, a game's pinned status message.
    let shared = store.shared();
    shared
        .set_channel_state("1004", Some(r#"{"signups":"open"}"#), "20000")
        .await
        .expect("state");
    let game = shared
        .active_game("1001")
        .await
        .expect("game")
        .expect("a game");
    shared
        .set_presets(&game.id, "bob", Some(r#"["pass"]"#))
        .await
        .expect("presets");
    shared
        .set_status_message(&game.id, "30000")
        .await
        .expect("status");
    // The game's web page (its secret address).
    shared
        .page_token(&game.id, "0123456789abcdef0123456789abcdef")
        .await
        .expect("page token");
    shared
        .set_notify_mode("bob", Some("dm"))
        .await
        .expect("notify");
    // The channel's server, and the server's standings page.
    shared
        .set_channel_server("1001", "500")
        .await
        .expect("server");
    shared
        .standings_token("500", "fedcba9876543210fedcba9876543210")
        .await
        .expect("standings token");
    // Two answers not yet delivered when the bot stopped: they are posted from the copy.
    for key in ["40001", "40000"] {
        let item = gaugebot_table::Outgoing {
            channel: "1001".into(),
            key: key.into(),
            payload: format!(r#"{{"replies":["answer to {key}"]}}"#),
            at: chrono::Utc::now(),
        };
        shared
            .write(&[gaugebot_table::Write::Outbox(item)])
            .await
            .expect("outbox");
    }
    shared.close().await;
}

/// Every table of a schema, from the database's own catalogue, with its rows.
async fn catalogue_counts_sqlite(path: &str) -> Vec<(String, i64)> {
    use sqlx::Connection;
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
        .await
        .expect("connect");
    let tables: Vec<(String,)> = sqlx::query_as(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name",
    )
    .fetch_all(&mut conn)
    .await
    .expect("catalogue");
    let mut counts = Vec::new();
    for (table,) in tables {
        let (n,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM \"{table}\""))
            .fetch_one(&mut conn)
            .await
            .expect("count");
        counts.push((table, n));
    }
    counts
}

async fn catalogue_counts_postgres(url: &str) -> Vec<(String, i64)> {
    use sqlx::Connection;
    let mut conn = sqlx::PgConnection::connect(url).await.expect("connect");
    let tables: Vec<(String,)> = sqlx::query_as(
        "SELECT table_name::TEXT FROM information_schema.tables
         WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY 1",
    )
    .fetch_all(&mut conn)
    .await
    .expect("catalogue");
    let mut counts = Vec::new();
    for (table,) in tables {
        let (n,): (i64,) = sqlx::query_as(&format!("SELECT COUNT(*) FROM \"{table}\""))
            .fetch_one(&mut conn)
            .await
            .expect("count");
        counts.push((table, n));
    }
    counts
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
    assert!(
        stdout.contains("1 channel_state, 1 presets, 1 status_message, 2 outbox"),
        "{stdout}"
    );
    assert!(
        stdout.contains("all 5 games replay identically on both sides"),
        "{stdout}"
    );

    // Every table of either schema, as the databases' catalogues list them, holds rows in the
    // source and the same number in the copy: a table added to the schema later fails here
    // until the fixture fills it and `gaugebot migrate` copies it.
    let source_tables = catalogue_counts_sqlite(&path).await;
    let target_tables = catalogue_counts_postgres(&url).await;
    let data = |counts: &[(String, i64)]| -> Vec<(String, i64)> {
        counts
            .iter()
            .filter(|(t, _)| !gaugebot::migrate::NOT_DATA.contains(&t.as_str()))
            .cloned()
            .collect()
    };
    assert_eq!(
        data(&source_tables),
        data(&target_tables),
        "every table, row for row"
    );
    for (table, rows) in data(&source_tables) {
        assert!(rows > 0, "the fixture leaves {table} empty: fill it");
    }
    assert_eq!(data(&source_tables).len(), gaugebot::migrate::TABLES.len());

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
        String::from_utf8_lossy(&again.stderr).contains("already has 5 rows in games"),
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

/// A large database (tens of thousands of rows): `migrate` shows its progress; killed while
/// copying, it leaves the target empty, and run again it copies everything once; run a third
/// time it finds its own copy and checks it again. A source with a table `migrate` does not
/// know is refused, with nothing copied.
#[tokio::test]
async fn an_interrupted_migration_is_run_again_without_doubling() {
    use std::io::BufRead;
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("games.db").to_string_lossy().into_owned();
    fill(&path).await;
    {
        use sqlx::Connection;
        let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
            .await
            .expect("connect");
        sqlx::query(
            "WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 30000)
             INSERT INTO seen_messages (channel, message_id)
             SELECT 'busy', CAST(1000000 + i AS TEXT) FROM n",
        )
        .execute(&mut conn)
        .await
        .expect("many read messages");
    }
    let url = server.database().await;
    let from = format!("sqlite:{path}");

    let mut child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(["migrate", "--from", &from, "--to", &url])
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gaugebot runs");
    let stderr = child.stderr.take().expect("stderr");
    let mut lines = std::io::BufReader::new(stderr).lines();
    let mut seen = Vec::new();
    loop {
        let line = lines
            .next()
            .expect("migrate prints its progress before it ends")
            .expect("a line");
        seen.push(line.clone());
        if line.contains("copying seen_messages: 10000 of") {
            break;
        }
    }
    child.kill().expect("killed");
    child.wait().expect("reaped");
    assert!(
        seen.iter()
            .any(|l| l.contains("copying seen_messages: 5000 of 30129 rows")),
        "{seen:?}"
    );
    let postgres = PostgresStore::open(&url).await.expect("postgres");
    assert!(
        postgres
            .row_counts()
            .await
            .expect("counts")
            .iter()
            .all(|(_, n)| *n == 0),
        "nothing of an interrupted copy is left"
    );

    let out = migrate(&from, &url);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let sqlite = SqliteStore::open(&path).await.expect("sqlite");
    let source = export_sqlite(&sqlite).await.expect("export");
    assert_eq!(postgres.export().await.expect("export"), source);
    assert!(source.seen.len() > 30_000);

    // Interrupted after its commit (or simply run twice): the copy is found and checked again.
    let again = migrate(&from, &url);
    let stdout = String::from_utf8_lossy(&again.stdout);
    assert!(again.status.success(), "{stdout}");
    assert!(stdout.contains("copied by an earlier run"), "{stdout}");
    assert_eq!(postgres.export().await.expect("export"), source);

    // A table the migration does not know: refused before anything is copied.
    sqlite.shared().close().await;
    {
        use sqlx::Connection;
        let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
            .await
            .expect("connect");
        sqlx::query("CREATE TABLE extra_notes (note TEXT)")
            .execute(&mut conn)
            .await
            .expect("a new table");
    }
    let fresh = server.database().await;
    let refused = migrate(&from, &fresh);
    assert!(!refused.status.success());
    let stderr = String::from_utf8_lossy(&refused.stderr);
    assert!(
        stderr.contains("does not know how to copy: extra_notes"),
        "{stderr}"
    );
    let empty = PostgresStore::open(&fresh).await.expect("postgres");
    assert!(empty
        .row_counts()
        .await
        .expect("counts")
        .iter()
        .all(|(_, n)| *n == 0));
    empty.shared().close().await;
    postgres.shared().close().await;
}

/// Runs `gaugebot play` on `db` (a path or a URL) with a fixed seed; stdout.
fn play_on(db: &str, input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(["play", "--no-map", "--seed", common::SEED, "--db", db])
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
}

/// The transcript with every relative clock line (`@+24h`) made absolute, so that it can be
/// cut anywhere and its second half still runs on the transcript's clock.
fn absolute_clock(transcript: &str) -> Vec<String> {
    let mut now: Option<chrono::DateTime<chrono::Utc>> = None;
    transcript
        .lines()
        .map(|line| {
            let trimmed = line.trim();
            if let Some(hours) = trimmed
                .strip_prefix("@+")
                .and_then(|h| h.strip_suffix('h'))
                .and_then(|h| h.parse::<i64>().ok())
            {
                let at = now.expect("an absolute time first") + chrono::Duration::hours(hours);
                now = Some(at);
                format!("@{}", at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true))
            } else {
                if let Some(at) = trimmed
                    .strip_prefix('@')
                    .and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok())
                {
                    now = Some(at.with_timezone(&chrono::Utc));
                }
                line.to_string()
            }
        })
        .collect()
}

/// A game over weeks (signups open, presets saved, a reminder, an absence, an automatic pass,
/// a substitute, a moderator's log) played whole on SQLite, and stopped at several points on
/// SQLite, moved to PostgreSQL with `gaugebot migrate` and continued there: every stop gives
/// the whole game's output, line for line.
#[tokio::test]
async fn a_game_over_weeks_moved_to_postgresql_at_any_point_goes_on_the_same() {
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/weeks.txt");
    let lines = absolute_clock(&std::fs::read_to_string(&script).expect("the transcript"));
    let dir = tempfile::tempdir().expect("temp dir");
    let whole_db = dir.path().join("whole.db").to_string_lossy().into_owned();
    let whole = no_heads(&play_on(&whole_db, &(lines.join("\n") + "\n")));
    assert!(whole.contains("bob passes (preset)."), "{whole}");
    assert!(whole.contains("📝 Signups extended"), "{whole}");

    let after = |needle: &str| -> usize {
        lines
            .iter()
            .position(|l| l.trim() == needle)
            .unwrap_or_else(|| panic!("{needle} is in the transcript"))
            + 1
    };
    let stops = [
        ("signups open", after("bob: **sign up**")),
        ("presets saved", after("dm:cat: !preset max CBSC 30")),
        ("after the reminder", after("dm:ann: !waiting")),
        ("ann away", after("ann: !away 3d family visit")),
        ("after the substitution", after("mod: !sub @ann @dan")),
    ];
    for (what, cut) in stops {
        let db = dir
            .path()
            .join(format!("stop-{cut}.db"))
            .to_string_lossy()
            .into_owned();
        let first = play_on(&db, &(lines[..cut].join("\n") + "\n"));
        let url = server.database().await;
        let out = migrate(&format!("sqlite:{db}"), &url);
        assert!(
            out.status.success(),
            "{what}: {}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
        // The console's clock is the transcript's, not kept in the database: the second
        // process is told the time at the stop first, as the first one knew it.
        let clock = lines[..cut]
            .iter()
            .rev()
            .find(|l| l.starts_with('@'))
            .expect("the transcript sets its clock first");
        let rest = std::iter::once(clock.as_str())
            .chain(lines[cut..].iter().map(String::as_str))
            .collect::<Vec<_>>()
            .join("\n");
        let second = play_on(&url, &(rest + "\n"));
        let moved = no_heads(&format!("{first}{second}"));
        if moved != whole {
            let at = whole
                .lines()
                .zip(moved.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "stopped {what} (line {cut}) and moved, the game differs from line {at}:\n\
                 whole: {:?}\nmoved: {:?}\n--- moved ---\n{moved}",
                whole.lines().nth(at),
                moved.lines().nth(at)
            );
        }
    }
}

/// `gaugebot import RECORD --db postgres://…` writes to PostgreSQL; importing a game whose id
/// the database has already is refused with a clear error and changes nothing; and a game
/// imported under another channel's id never blocks that channel's next `!setup`.
#[tokio::test]
async fn import_writes_to_postgresql_and_never_breaks_the_next_setup() {
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    let dir = tempfile::tempdir().expect("temp dir");
    let attachments = dir.path().join("files");
    std::fs::create_dir_all(&attachments).expect("folder");
    let db = dir.path().join("games.db").to_string_lossy().into_owned();
    let script =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/complete_manual.txt");
    let text = std::fs::read_to_string(&script).expect("the transcript");
    let mut input: Vec<&str> = text.lines().take(12).collect();
    input.push("mod: !export");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(["play", "--no-map", "--db", &db, "--attachments"])
        .arg(&attachments)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gaugebot starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin
            .write_all((input.join("\n") + "\n").as_bytes())
            .expect("input");
    }
    let out = child.wait_with_output().expect("gaugebot ends");
    assert!(out.status.success());
    let record = std::fs::read_dir(&attachments)
        .expect("attachments")
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .find(|p| std::fs::read_to_string(p).is_ok_and(|t| t.contains("\"gaugebot-record-v3\"")))
        .expect("!export wrote the record");
    let import = |channel: &str, db: &str| {
        Command::new(env!("CARGO_BIN_EXE_gaugebot"))
            .args(["import"])
            .arg(&record)
            .args(["--db", db, "--channel", channel])
            .stdin(Stdio::null())
            .output()
            .expect("gaugebot runs")
    };
    let url = server.database().await;
    let out = import("2001", &url);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let postgres = PostgresStore::open(&url).await.expect("postgres");
    let game = postgres
        .shared()
        .active_game("2001")
        .await
        .expect("read")
        .expect("the game is in PostgreSQL");
    assert_eq!(game.id, "console-1");
    let moved = common::table_on(postgres.shared(), "2001", None).await;
    assert!(moved.frozen().is_none());

    // The same record again, into another channel: refused, clearly, nothing written.
    let before = postgres.export().await.expect("export");
    let twice = import("2002", &url);
    assert!(!twice.status.success());
    let stderr = String::from_utf8_lossy(&twice.stderr);
    assert!(stderr.contains("has a game console-1 already"), "{stderr}");
    assert_eq!(postgres.export().await.expect("export"), before);

    // The channel whose id the imported game carries sets up its first game under a free id.
    let mut console = common::table_on(postgres.shared(), "console", None).await;
    let setup = console
        .handle(&common::message(
            1,
            "mod",
            "!setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12",
            true,
        ))
        .await;
    assert_eq!(
        setup.verdict,
        gaugebot::table::Verdict::Accepted,
        "{}",
        setup.text()
    );
    assert_eq!(
        postgres
            .shared()
            .active_game("console")
            .await
            .expect("read")
            .expect("a game")
            .id,
        "console-2"
    );
    postgres.shared().close().await;
}

/// A text without the record's head lines (`-# Record …`): the head hashes each message's id
/// and time, which differ between two runs of the same game.
fn no_heads(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("-# Record"))
        .collect::<Vec<_>>()
        .join("\n")
}
