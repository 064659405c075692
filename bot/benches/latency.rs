//! Command round-trip latency through the fake Discord on 127.0.0.1: from the moment the fake
//! hands a user's MESSAGE_CREATE to the gateway session to the moment it receives the bot's
//! reply over REST (both instants are taken by the fake).
//!
//! Series, each bot against its own fake, in the same run:
//! - the minimal serenity echo bot of `fakediscord` (the baseline: one REST post per message);
//! - the floor of a bot that stores every command before it answers: the same echo bot that
//!   first appends 8 KiB (about one commit's growth of the database's WAL) to a file in the
//!   temp dir of the on-disk series and fsyncs it (`File::sync_all`: the fsync(2) SQLite's
//!   commit issues), inline in its event handler — nothing but the disk's price;
//! - gaugebot's Discord adapter with a file database (WAL, synchronous=FULL) in a temp dir on
//!   disk, playing stored moves: `**bid 7**` by the player to act, then the moderator's
//!   `!undo`, alternately. Both are accepted commands written to the database (one
//!   transaction, one fsync) before the reply is posted; the undo's reply carries the whole
//!   status report. `!status` (read only: no write, no fsync) is measured too;
//! - the same stored moves with the database file on tmpfs (`/dev/shm`, if present), where an
//!   fsync costs nothing: the adapter's and the table's own cost without the disk.
//!
//! Every round waits for the bot's reaction (posted after the reply) and pauses 20 ms, so each
//! command finds the bot idle, as commands typed by people do. The waits look for the reply
//! from the newest message back ([`FakeDiscord::last_bot_message`]): copying the whole history
//! at every state change of the fake cost the game series up to 0.5 ms of the two cores.
//!
//! Run: `cargo bench -p gaugebot --bench latency` (`LATENCY_ROUNDS=n` changes the 200 round
//! trips per series). Prints the medians and the ratios; the targets: a stored move's median
//! within 1.5× the floor's, `!status` within 1.5× the echo bot's.

use std::path::Path;
use std::time::{Duration, Instant};

use std::fs::File;
use std::io::Write;
use std::sync::{Arc, Mutex};

use fakediscord::{
    spawn_echo_bot, spawn_echo_bot_with_work, BeforeReply, FakeDiscord, FakeUser, RecordedMessage,
};
use gaugebot::config::Config;

const GUILD: u64 = 500;
const CHANNEL: u64 = 501;
const MODERATOR_ROLE: u64 = 600;
const WAIT: Duration = Duration::from_secs(10);
const WARM_UP: usize = 10;
const PAUSE: Duration = Duration::from_millis(20);
/// What the floor writes and fsyncs before each echo: about what one stored move adds to the
/// database's WAL (the bench prints that growth).
const FLOOR_BYTES: usize = 8 * 1024;
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

/// Latency samples of one series.
struct Series {
    name: String,
    samples: Vec<Duration>,
}

impl Series {
    fn new(name: impl Into<String>) -> Self {
        Series {
            name: name.into(),
            samples: Vec::new(),
        }
    }

    fn quantile(&self, q: f64) -> Duration {
        let mut sorted = self.samples.clone();
        sorted.sort();
        if sorted.is_empty() {
            return Duration::ZERO;
        }
        let index = ((sorted.len() - 1) as f64 * q).round() as usize;
        sorted[index.min(sorted.len() - 1)]
    }

    fn median(&self) -> Duration {
        self.quantile(0.5)
    }

    fn print(&self) {
        println!(
            "{:<40} n={:<4} median {:>9.3?}  p10 {:>9.3?}  p90 {:>9.3?}  p99 {:>9.3?}",
            self.name,
            self.samples.len(),
            self.median(),
            self.quantile(0.1),
            self.quantile(0.9),
            self.quantile(0.99)
        );
    }
}

fn rounds() -> usize {
    std::env::var("LATENCY_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(200)
}

/// MESSAGE_CREATE handed to the session → the reply received.
fn latency(fake: &FakeDiscord, command: u64, reply: &RecordedMessage) -> Duration {
    let sent = fake
        .message(command)
        .and_then(|m| m.dispatched_at)
        .expect("the command was dispatched to the bot");
    reply.created_at.saturating_duration_since(sent)
}

/// The echo bot, doing `work` before each reply if given.
async fn echo_series(rounds: usize, name: &str, work: Option<BeforeReply>) -> Series {
    let fake = FakeDiscord::start().await;
    fake.add_channel(GUILD, CHANNEL, "bench");
    let bot = match work {
        Some(work) => spawn_echo_bot_with_work(&fake, work).await,
        None => spawn_echo_bot(&fake).await,
    };
    let user = FakeUser::new(1, "ann");
    let mut series = Series::new(name);
    for i in 0..WARM_UP + rounds {
        let text = format!("ping {i}");
        let id = fake.post_user_message(CHANNEL, Some(GUILD), &user, &text);
        let reply = fake
            .wait_for(WAIT, |f| {
                f.last_bot_message(CHANNEL, |m| m.content == text)
                    .ok_or_else(|| format!("the echo of {text}"))
            })
            .await
            .expect("the echo");
        if i >= WARM_UP {
            series.samples.push(latency(&fake, id, &reply));
        }
        tokio::time::sleep(PAUSE).await;
    }
    bot.shutdown().await;
    series
}

/// Posts a command and waits until the bot is done with it: its reply and, when `react`, its
/// reaction (the bot reacts after replying); then pauses.
async fn round_trip(fake: &FakeDiscord, user: &FakeUser, text: &str, react: bool) -> Duration {
    let id = fake.post_user_message(CHANNEL, Some(GUILD), user, text);
    let reply = fake
        .wait_for(WAIT, |f| {
            f.last_bot_message(CHANNEL, |m| m.referenced_message == Some(id))
                .ok_or_else(|| format!("the reply to {text}"))
        })
        .await
        .expect("a reply");
    if react {
        let reactions = fake
            .wait_for_reactions(id, 1, WAIT)
            .await
            .expect("a reaction");
        assert_eq!(reactions, ["✅"], "{text}: {}", reply.content);
    }
    tokio::time::sleep(PAUSE).await;
    latency(fake, id, &reply)
}

/// The game bot with its database in `dir` (`label` names where that is): the stored-move
/// series first, then bids and undos apart, then `!status` if `status`.
async fn game_series(rounds: usize, dir: &Path, label: &str, status: bool) -> Vec<Series> {
    let fake = FakeDiscord::start().await;
    fake.add_channel(GUILD, CHANNEL, "bench");
    fake.add_role(GUILD, MODERATOR_ROLE, "Moderator", 0);
    let moderator = FakeUser::new(100, "mona");
    fake.add_member(GUILD, &moderator, &[MODERATOR_ROLE]);
    let ann = FakeUser::new(1, "ann");
    for user in [
        ann.clone(),
        FakeUser::new(2, "bob"),
        FakeUser::new(3, "cat"),
    ] {
        fake.add_member(GUILD, &user, &[]);
    }
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.database = dir.join("bench.db");
    let bot = gaugebot::discord::start(config, fake.token().to_string())
        .await
        .expect("the game bot starts");
    round_trip(&fake, &moderator, SETUP, true).await;
    let wal = dir.join("bench.db-wal");
    let wal_before = std::fs::metadata(&wal).map_or(0, |m| m.len());

    let mut stored = Series::new(format!("game bot, db {label}: stored moves"));
    let mut bids = Series::new(format!("game bot, db {label}: **bid 7**"));
    let mut undos = Series::new(format!("game bot, db {label}: !undo"));
    for i in 0..WARM_UP + rounds {
        let bid = i % 2 == 0;
        let sample = if bid {
            round_trip(&fake, &ann, "**bid 7**", true).await
        } else {
            round_trip(&fake, &moderator, "!undo", true).await
        };
        if i >= WARM_UP {
            stored.samples.push(sample);
            if bid {
                bids.samples.push(sample);
            } else {
                undos.samples.push(sample);
            }
        }
    }
    let wal_after = std::fs::metadata(&wal).map_or(0, |m| m.len());
    println!(
        "db {label}: the WAL grew {} bytes a stored move (its commit and the cursor's after the reply)",
        wal_after.saturating_sub(wal_before) / (WARM_UP + rounds) as u64
    );
    let mut series = vec![stored, bids, undos];
    if status {
        let mut reads = Series::new(format!("game bot, db {label}: !status (read only)"));
        for i in 0..WARM_UP + rounds / 2 {
            let sample = round_trip(&fake, &ann, "!status", false).await;
            if i >= WARM_UP {
                reads.samples.push(sample);
            }
        }
        series.push(reads);
    }
    bot.shutdown().await;
    series
}

/// The floor's durable write: `FLOOR_BYTES` appended to a file and fsynced (`File::sync_all`,
/// the fsync(2) SQLite issues for a commit: see BENCHMARKS.md).
fn durable_write(dir: &Path) -> BeforeReply {
    let file = File::create(dir.join("floor.log")).expect("the floor's file");
    let file = Mutex::new(file);
    let record = vec![b'x'; FLOOR_BYTES];
    Arc::new(move |_| {
        let mut file = file.lock().unwrap_or_else(|e| e.into_inner());
        file.write_all(&record).expect("the floor's write");
        file.sync_all().expect("the floor's fsync");
    })
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a tokio runtime");
    let rounds = rounds();
    let started = Instant::now();
    runtime.block_on(async {
        println!(
            "command round trips through the fake Discord ({rounds} per series after {WARM_UP} warm-up rounds, {PAUSE:?} apart)"
        );
        let disk = tempfile::tempdir().expect("a temp dir");
        let echo = echo_series(rounds, "echo bot (fakediscord)", None).await;
        let floor = echo_series(
            rounds,
            "echo bot + one fsync (floor)",
            Some(durable_write(disk.path())),
        )
        .await;
        let on_disk = game_series(rounds, disk.path(), "on disk", true).await;
        let shm = Path::new("/dev/shm");
        let on_tmpfs = match shm.is_dir() {
            true => match tempfile::tempdir_in(shm) {
                Ok(dir) => Some(game_series(rounds, dir.path(), "on tmpfs", false).await),
                Err(_) => None,
            },
            false => None,
        };
        echo.print();
        floor.print();
        for series in on_disk.iter().chain(on_tmpfs.iter().flatten()) {
            series.print();
        }
        let ratio = |s: &Series, to: &Series| {
            s.median().as_secs_f64() / to.median().as_secs_f64().max(1e-9)
        };
        println!(
            "stored move (db on disk) median / floor median = {:.2} (target <= 1.50)",
            ratio(&on_disk[0], &floor)
        );
        println!(
            "!status (read only) median / echo median = {:.2} (target <= 1.50)",
            ratio(&on_disk[3], &echo)
        );
        println!(
            "stored move (db on disk) median / echo median = {:.2}",
            ratio(&on_disk[0], &echo)
        );
        if let Some(tmpfs) = &on_tmpfs {
            println!(
                "stored move (db on tmpfs) median / echo median = {:.2}",
                ratio(&tmpfs[0], &echo)
            );
        }
    });
    println!("total {:.1?}", started.elapsed());
}
