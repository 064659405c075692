//! Load (issue #6.4): many tables played at once through one bot core (`Tables`, one database
//! file, one writer connection), each channel a game driven by random legal moves in its own
//! tokio task, all concurrently.
//!
//! Checked at the end, channel by channel: every move sent was accepted; the channel's log
//! holds exactly the moves sent, in the order sent (no lost, duplicated or misordered action,
//! no move in the wrong channel); the log replays to the table's game, and a table loaded
//! afresh from the file is the same game. Every channel uses the same message ids, so ids are
//! also shown not to be deduplicated across channels.
//!
//! Reported: commands per second, the latency of one command under load, peak memory (VmHWM),
//! and memory per idle game (a child process loads every game and reports its RSS growth).
//!
//! `GAUGEBOT_LOAD_TABLES` (default 200) tables × `GAUGEBOT_LOAD_MOVES` (default 5) moves; the
//! long form: `GAUGEBOT_LOAD_TABLES=200 GAUGEBOT_LOAD_MOVES=60 cargo test --release -p gaugebot
//! --test reliability_load -- --nocapture`.

mod common;

use irish_gauge::Game;
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{env_count, legal_message, message, proc_status_kb, Rng, SEED};
use gaugebot::table::StoredSetup;
use gaugebot::table::Verdict;
use gaugebot::tables::Tables;
use gaugebot_store::SqliteStore;
use gaugebot_table::Store;
use irish_gauge::table::log::{replay, LogEntry};

const PROBE_ENV: &str = "GAUGEBOT_IDLE_PROBE_DB";

fn channel(i: u64) -> String {
    format!("channel-{i:04}")
}

/// One channel's game: setup, then `moves` random legal moves; the message ids sent, in
/// order, and each command's latency.
async fn drive(tables: Arc<Tables>, i: u64, moves: u64) -> (Vec<String>, Vec<Duration>) {
    let channel = channel(i);
    let mut rng = Rng::new(1000 + i);
    let mut sent = Vec::new();
    let mut latencies = Vec::new();
    let setup = message(0, "mod", "!setup ann bob cat dan", true);
    let start = Instant::now();
    let response = tables.handle(&channel, &setup).await.expect("table loads");
    latencies.push(start.elapsed());
    assert_eq!(response.verdict, Verdict::Accepted, "{}", response.text());
    for id in 1..=moves {
        let msg = {
            let table = tables.table(&channel).await.expect("table");
            let table = table;
            legal_message(&table, &mut rng, id)
        };
        let Some(msg) = msg else {
            break;
        };
        let start = Instant::now();
        let response = tables.handle(&channel, &msg).await.expect("table");
        latencies.push(start.elapsed());
        assert_eq!(
            response.verdict,
            Verdict::Accepted,
            "{channel} {}: {}",
            msg.text,
            response.text()
        );
        sent.push(id.to_string());
    }
    (sent, latencies)
}

#[test]
fn many_tables_at_once_lose_and_reorder_nothing() {
    if std::env::var_os(PROBE_ENV).is_some() {
        return; // this process is the idle-memory probe
    }
    let count = env_count("GAUGEBOT_LOAD_TABLES", 200);
    let moves = env_count("GAUGEBOT_LOAD_MOVES", 5);
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("load.db");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let (elapsed, mut latencies, sent) = rt.block_on(async {
        let store = SqliteStore::open(&db.to_string_lossy()).await.expect("db");
        let tables = Arc::new(Tables::new(store.shared(), common::host(Some(SEED))));
        let started = Instant::now();
        let tasks: Vec<_> = (0..count)
            .map(|i| tokio::spawn(drive(tables.clone(), i, moves)))
            .collect();
        let mut sent = Vec::new();
        let mut latencies = Vec::new();
        for task in tasks {
            let (ids, lat) = tokio::time::timeout(Duration::from_secs(600), task)
                .await
                .expect("the load finishes within 10 minutes")
                .expect("the channel's task does not panic");
            sent.push(ids);
            latencies.extend(lat);
        }
        let elapsed = started.elapsed();
        // Channel by channel: the log is the moves sent, in order; it replays to the table.
        for (i, ids) in sent.iter().enumerate() {
            let channel = channel(i as u64);
            let row = store
                .active_game(&channel)
                .await
                .expect("games")
                .expect("the channel's game");
            assert_eq!(row.channel, channel);
            let log = store.log(&row.id).await.expect("log");
            let mut in_log: Vec<String> = Vec::new();
            let mut entries = Vec::new();
            for r in &log {
                let entry: LogEntry = serde_json::from_str(&r.entry_json).expect("entry");
                if matches!(entry, LogEntry::Action { .. }) {
                    in_log.push(r.message_id.clone());
                } else {
                    assert_eq!(
                        in_log.last(),
                        Some(&r.message_id),
                        "{channel}: a draw or reveal apart from its action"
                    );
                }
                entries.push(entry);
            }
            assert_eq!(
                &in_log, ids,
                "{channel}: the log is not the moves sent, in order"
            );
            let stored: StoredSetup = serde_json::from_str(&row.setup_json).expect("setup");
            let setup: irish_gauge::Setup = serde_json::from_value(stored.setup).expect("setup");
            let replayed = replay(&setup, &entries).expect("replays");
            let table = tables.table(&channel).await.expect("table");
            assert_eq!(table.state::<Game>(), Some(&replayed), "{channel}");
            let fresh = common::table_on(store.clone(), &channel, Some(SEED)).await;
            assert_eq!(
                fresh.state::<Game>(),
                Some(&replayed),
                "{channel}: reloaded"
            );
        }
        store.close().await;
        (elapsed, latencies, sent)
    });
    let commands = latencies.len();
    latencies.sort();
    let pct = |p: f64| latencies[((commands as f64 - 1.0) * p) as usize].as_secs_f64() * 1000.0;
    let peak_kb = proc_status_kb("VmHWM:");
    let moves_sent: usize = sent.iter().map(Vec::len).sum();
    assert_eq!(moves_sent + count as usize, commands);

    // Memory per idle game: a fresh process loads every table and reports its RSS growth.
    let probe = Command::new(std::env::current_exe().expect("test binary"))
        .args([
            "--exact",
            "idle_memory_probe",
            "--nocapture",
            "--test-threads",
            "1",
        ])
        .env(PROBE_ENV, &db)
        .output()
        .expect("the probe runs");
    let out = String::from_utf8_lossy(&probe.stdout);
    assert!(
        probe.status.success(),
        "the probe failed:\n{out}\n{}",
        String::from_utf8_lossy(&probe.stderr)
    );
    let line = out
        .lines()
        .find_map(|l| {
            l.find("IDLE_PROBE ")
                .map(|at| &l[at + "IDLE_PROBE ".len()..])
        })
        .unwrap_or_else(|| panic!("no probe line in:\n{out}"));
    println!(
        "load: {count} tables × {moves} moves concurrently, {commands} commands in {:.2} s = {:.0} commands/s; latency p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; peak memory (VmHWM) {:.1} MB; {line}",
        elapsed.as_secs_f64(),
        commands as f64 / elapsed.as_secs_f64(),
        pct(0.5),
        pct(0.99),
        pct(1.0),
        peak_kb as f64 / 1024.0,
    );
}

/// Run by the load test in a child process: loads every active game of the database in
/// `GAUGEBOT_IDLE_PROBE_DB` and prints the RSS growth per game. A no-op otherwise.
#[test]
fn idle_memory_probe() {
    let Some(db) = std::env::var_os(PROBE_ENV) else {
        return;
    };
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let store = SqliteStore::open(&db.to_string_lossy()).await.expect("db");
        let channels = store.active_channels().await.expect("channels");
        let tables = Tables::new(store.shared(), common::host(Some(SEED)));
        // Warm up: the board, the templates and SQLite's caches, with one table loaded.
        let first = tables.table(&channels[0]).await.expect("table");
        drop(first);
        let before = proc_status_kb("VmRSS:");
        let mut moves = 0;
        for channel in &channels[1..] {
            let table = tables.table(channel).await.expect("table");
            moves += table.dump().and_then(|d| d["draws"].as_array().map(Vec::len)).unwrap_or(0);
        }
        let after = proc_status_kb("VmRSS:");
        let n = channels.len() - 1;
        println!(
            "IDLE_PROBE memory per idle game {:.1} KB (RSS {} → {} kB for {n} loaded games, {moves} draws among them)",
            after.saturating_sub(before) as f64 / n as f64,
            before,
            after
        );
        store.close().await;
    });
}
