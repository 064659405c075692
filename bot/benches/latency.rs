//! Command round-trip latency through the fake Discord on 127.0.0.1: from the moment the fake
//! hands a user's MESSAGE_CREATE to the gateway session to the moment it receives the bot's
//! reply over REST (both instants are taken by the fake).
//!
//! Two bots in the same run, each against its own fake:
//! - the minimal serenity echo bot of `fakediscord` (the baseline: one REST post per message);
//! - gaugebot's Discord adapter with a file database (WAL, synchronous=FULL) in a temp dir,
//!   playing stored moves: `**bid 7**` by the player to act, then the moderator's `!undo`,
//!   alternately. Both are accepted commands written to the database (one transaction each)
//!   before the reply is posted; the undo's reply carries the whole status report.
//!   `!status` (read only) is measured as well, for comparison.
//!
//! Run: `cargo bench -p gaugebot --bench latency` (`LATENCY_ROUNDS=n` to change the 200 round
//! trips per series). Prints the medians and the ratio; the target is the game bot within 1.5×
//! the echo bot's median.

use std::time::{Duration, Instant};

use fakediscord::{spawn_echo_bot, FakeDiscord, FakeUser, RecordedMessage};
use gaugebot::config::Config;

const GUILD: u64 = 500;
const CHANNEL: u64 = 501;
const MODERATOR_ROLE: u64 = 600;
const WAIT: Duration = Duration::from_secs(10);
const WARM_UP: usize = 10;
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

/// Latency samples of one series.
struct Series {
    name: String,
    samples: Vec<Duration>,
}

impl Series {
    fn new(name: &str) -> Self {
        Series {
            name: name.to_string(),
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
            "{:<34} n={:<4} median {:>9.3?}  p10 {:>9.3?}  p90 {:>9.3?}  p99 {:>9.3?}",
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

async fn echo_series(rounds: usize) -> Series {
    let fake = FakeDiscord::start().await;
    fake.add_channel(GUILD, CHANNEL, "bench");
    let bot = spawn_echo_bot(&fake).await;
    let user = FakeUser::new(1, "ann");
    let mut series = Series::new("echo bot (fakediscord)");
    for i in 0..WARM_UP + rounds {
        let id = fake.post_user_message(CHANNEL, Some(GUILD), &user, &format!("ping {i}"));
        let replies = fake
            .wait_for_bot_messages(CHANNEL, i + 1, WAIT)
            .await
            .expect("the echo");
        if i >= WARM_UP {
            series.samples.push(latency(&fake, id, &replies[i]));
        }
    }
    bot.shutdown().await;
    series
}

/// Posts a command and waits until the bot is done with it: its reply and, when `react`, its
/// reaction (the bot reacts after replying, so the next command finds it idle).
async fn round_trip(fake: &FakeDiscord, user: &FakeUser, text: &str, react: bool) -> Duration {
    let id = fake.post_user_message(CHANNEL, Some(GUILD), user, text);
    let reply = fake
        .wait_for(WAIT, |f| {
            f.bot_messages(CHANNEL)
                .into_iter()
                .find(|m| m.referenced_message == Some(id))
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
    if std::env::var_os("LATENCY_DEBUG").is_some() {
        let m = fake.message(id).expect("message");
        eprintln!(
            "{text}: created {:?} dispatched {:?} reply {:?} => {:?}",
            m.created_at,
            m.dispatched_at,
            reply.created_at,
            latency(fake, id, &reply)
        );
    }
    latency(fake, id, &reply)
}

/// The stored-move series first, then bids, undos and `!status` alone.
async fn game_series(rounds: usize) -> Vec<Series> {
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
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.database = dir.path().join("bench.db");
    let bot = gaugebot::discord::start(config, fake.token().to_string())
        .await
        .expect("the game bot starts");
    round_trip(&fake, &moderator, SETUP, true).await;

    let mut stored = Series::new("game bot: stored moves (all)");
    let mut bids = Series::new("game bot: **bid 7**");
    let mut undos = Series::new("game bot: !undo");
    for i in 0..WARM_UP + rounds {
        let (sample, is_bid) = if i % 2 == 0 {
            (round_trip(&fake, &ann, "**bid 7**", true).await, true)
        } else {
            (round_trip(&fake, &moderator, "!undo", true).await, false)
        };
        if i >= WARM_UP {
            stored.samples.push(sample);
            if is_bid {
                bids.samples.push(sample);
            } else {
                undos.samples.push(sample);
            }
        }
    }
    let mut status = Series::new("game bot: !status (read only)");
    for i in 0..WARM_UP + rounds / 2 {
        let sample = round_trip(&fake, &ann, "!status", false).await;
        if i >= WARM_UP {
            status.samples.push(sample);
        }
    }
    bot.shutdown().await;
    drop(dir);
    vec![stored, bids, undos, status]
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
        println!("command round trips through the fake Discord ({rounds} per series, after {WARM_UP} warm-up rounds)");
        let echo = echo_series(rounds).await;
        let game = game_series(rounds).await;
        echo.print();
        for series in &game {
            series.print();
        }
        let ratio = game[0].median().as_secs_f64() / echo.median().as_secs_f64().max(1e-9);
        println!(
            "game bot (stored moves) median / echo bot median = {ratio:.2} (target <= 1.50: {})",
            if ratio <= 1.5 { "met" } else { "NOT met" }
        );
    });
    println!("total {:.1?}", started.elapsed());
}
