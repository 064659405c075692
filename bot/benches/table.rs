//! Messages per second through one table with durable storage (a SQLite file in a temp dir,
//! WAL, synchronous=FULL: every accepted command is fsynced before its reply).
//!
//! - `table/accepted moves`: a whole random audited game's moves (recorded once in memory with
//!   a fixed seed, replayed into a fresh file database per iteration); throughput in moves.
//! - `table/refused, no write`: a command refused before any storage write (a non-moderator's
//!   `!undo`).
//! - `table/refused move (seen mark written)`: a move by someone not seated, refused; the
//!   message is marked seen (one small write) so its re-delivery is not re-read.
//! - `table/answered (!status)`: an information command (a read, the report rendered).
//!
//! Run: `cargo bench -p gaugebot --bench table`.

#[path = "../tests/common/mod.rs"]
mod common;

use std::time::{Duration, Instant};

use common::{legal_message, message, Rng, SEED};
use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use gaugebot::table::{Incoming, Table, Verdict};
use gaugebot_store::SqliteStore;

const CHANNEL: &str = "bench";

/// The messages of a whole random audited game: the setup, then every move.
async fn record_game() -> Vec<Incoming> {
    let store = SqliteStore::open(":memory:").await.expect("store");
    let mut table = common::table_on(store, CHANNEL, Some(SEED)).await;
    let setup = message(1, "mod", "!setup ann bob cat dan", true);
    table.handle(&setup).await;
    let mut script = vec![setup];
    let mut rng = Rng::new(2026);
    let mut id = 2;
    while let Some(msg) = legal_message(&table, &mut rng, id) {
        id += 1;
        let response = table.handle(&msg).await;
        assert_eq!(response.verdict, Verdict::Accepted, "{}", response.text());
        script.push(msg);
    }
    script
}

/// A table with a running game on a fresh database file.
async fn fresh_table(dir: &tempfile::TempDir, name: &str, setup: &Incoming) -> Table {
    let db = dir.path().join(name);
    let mut table = common::open_table(&db, CHANNEL, Some(SEED)).await;
    let response = table.handle(setup).await;
    assert_eq!(response.verdict, Verdict::Accepted);
    table
}

fn bench_table(c: &mut Criterion) {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let script = rt.block_on(record_game());
    let moves = script.len() - 1;
    let dir = tempfile::tempdir().expect("temp dir");
    let mut group = c.benchmark_group("table");
    group.sample_size(10);
    group.measurement_time(Duration::from_secs(15));

    group.throughput(Throughput::Elements(moves as u64));
    let mut run = 0;
    group.bench_function(
        format!("accepted moves ({moves}-move game, file db)"),
        |b| {
            b.iter_custom(|iters| {
                rt.block_on(async {
                    let mut total = Duration::ZERO;
                    for _ in 0..iters {
                        run += 1;
                        let mut table =
                            fresh_table(&dir, &format!("accepted-{run}.db"), &script[0]).await;
                        let start = Instant::now();
                        for msg in &script[1..] {
                            let response = table.handle(msg).await;
                            assert_eq!(response.verdict, Verdict::Accepted);
                        }
                        total += start.elapsed();
                    }
                    total
                })
            })
        },
    );

    group.throughput(Throughput::Elements(1));
    let mut table = rt.block_on(fresh_table(&dir, "refused.db", &script[0]));
    let mut id = 1_000_000u64;
    group.bench_function("refused, no write (non-moderator !undo)", |b| {
        b.iter(|| {
            id += 1;
            let response = rt.block_on(table.handle(&message(id, "zed", "!undo", false)));
            assert_eq!(response.verdict, Verdict::Refused);
        })
    });
    group.bench_function("refused move (seen mark written)", |b| {
        b.iter(|| {
            id += 1;
            let response = rt.block_on(table.handle(&message(id, "zed", "**pass**", false)));
            assert_eq!(response.verdict, Verdict::Refused);
        })
    });
    group.bench_function("answered (!status)", |b| {
        b.iter(|| {
            id += 1;
            let response = rt.block_on(table.handle(&message(id, "zed", "!status", false)));
            assert_eq!(response.verdict, Verdict::Answered);
        })
    });
    group.finish();
}

criterion_group!(benches, bench_table);
criterion_main!(benches);
