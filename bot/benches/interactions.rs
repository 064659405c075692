//! Interaction latency through the fake Discord on 127.0.0.1: from the moment the fake hands
//! INTERACTION_CREATE to the gateway session to the moment it receives the bot's first answer
//! (the callback: a defer, or the autocomplete choices), both instants taken by the fake.
//! Discord wants that answer within 3 s.
//!
//! Series, in the same run:
//! - the baseline: the minimal serenity echo bot of `fakediscord`, message in → reply received;
//! - gaugebot (database in a temp dir on disk): `/bid 7` and `/undo` alternately (stored moves)
//!   — acknowledgement, and the whole round (acknowledged, stored, posted in the channel, the
//!   pinned status edited, the user answered); `/status` acknowledgement; a click on the turn
//!   prompt's Pass button (then `/undo`); the autocomplete of `/bid amount`.
//!
//! Every round waits until the bot is done and pauses 20 ms, as commands typed by people do.
//! Run: `cargo bench -p gaugebot --bench interactions` (`LATENCY_ROUNDS=n` changes the 100
//! rounds per series). Prints medians and ratios to the echo bot's median.

use std::time::{Duration, Instant};

use fakediscord::{spawn_echo_bot, FakeDiscord, FakeInteraction, FakeUser, InteractionRecord};
use gaugebot::config::Config;

const GUILD: u64 = 500;
const CHANNEL: u64 = 501;
const HELPER_ROLE: u64 = 601;
const MANAGE_MESSAGES: u64 = 1 << 13;
const WAIT: Duration = Duration::from_secs(10);
const WARM_UP: usize = 5;
const PAUSE: Duration = Duration::from_millis(20);
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

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
        sorted[((sorted.len() - 1) as f64 * q).round() as usize]
    }

    fn print(&self, echo: Duration) {
        println!(
            "{:<48} n={:<4} median {:>9.3?}  p90 {:>9.3?}  p99 {:>9.3?}  max {:>9.3?}  {:>6.2}× echo",
            self.name,
            self.samples.len(),
            self.quantile(0.5),
            self.quantile(0.9),
            self.quantile(0.99),
            self.quantile(1.0),
            self.quantile(0.5).as_secs_f64() / echo.as_secs_f64().max(1e-9)
        );
    }
}

fn rounds() -> usize {
    std::env::var("LATENCY_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .filter(|n| *n > 0)
        .unwrap_or(100)
}

async fn echo_series(rounds: usize) -> Series {
    let fake = FakeDiscord::start().await;
    fake.add_channel(GUILD, CHANNEL, "bench");
    let bot = spawn_echo_bot(&fake).await;
    let user = FakeUser::new(1, "ann");
    let mut series = Series::new("echo bot: message → reply");
    for i in 0..WARM_UP + rounds {
        let id = fake.post_user_message(CHANNEL, Some(GUILD), &user, &format!("ping {i}"));
        let replies = fake
            .wait_for_bot_messages(CHANNEL, i + 1, WAIT)
            .await
            .expect("the echo");
        let sent = fake
            .message(id)
            .and_then(|m| m.dispatched_at)
            .expect("sent");
        if i >= WARM_UP {
            series
                .samples
                .push(replies[i].created_at.saturating_duration_since(sent));
        }
        tokio::time::sleep(PAUSE).await;
    }
    bot.shutdown().await;
    series
}

/// Waits until the bot answered the interaction in full (the deferred message filled, or the
/// autocomplete choices sent).
async fn done(fake: &FakeDiscord, interaction: &FakeInteraction) -> InteractionRecord {
    let record = fake
        .wait_for_interaction(interaction.id, WAIT, "the answer", |f, r| {
            match r.callback.as_ref().map(|c| c.kind) {
                Some(8) => true,
                Some(_) => r
                    .original
                    .and_then(|m| f.message(m))
                    .is_some_and(|m| m.edit_count > 0),
                None => false,
            }
        })
        .await
        .expect("answered");
    tokio::time::sleep(PAUSE).await;
    record
}

/// The whole round: INTERACTION_CREATE sent → the user's answer received.
fn whole(fake: &FakeDiscord, record: &InteractionRecord) -> Duration {
    let answer = record
        .original
        .and_then(|m| fake.message(m))
        .and_then(|m| m.edited_at)
        .expect("answered");
    answer.saturating_duration_since(record.sent_at)
}

async fn game_series(rounds: usize) -> Vec<Series> {
    let fake = FakeDiscord::start().await;
    fake.add_channel(GUILD, CHANNEL, "bench");
    fake.add_role(GUILD, HELPER_ROLE, "Helpers", MANAGE_MESSAGES);
    let moderator = FakeUser::new(101, "hal");
    fake.add_member(GUILD, &moderator, &[HELPER_ROLE]);
    let ann = FakeUser::new(1, "ann");
    for user in [
        ann.clone(),
        FakeUser::new(2, "bob"),
        FakeUser::new(3, "cat"),
    ] {
        fake.add_member(GUILD, &user, &[]);
    }
    let dir = tempfile::tempdir().expect("a temp dir");
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.database = dir.path().join("bench.db");
    let bot = gaugebot::discord::start(config, fake.token().to_string())
        .await
        .expect("the game bot starts");
    fake.wait_for_commands(WAIT).await.expect("commands");
    let id = fake.post_user_message(CHANNEL, Some(GUILD), &moderator, SETUP);
    fake.wait_for_reactions(id, 1, WAIT).await.expect("set up");

    let mut ack = Series::new("gaugebot: /bid 7, /undo → acknowledged");
    let mut round = Series::new("gaugebot: /bid 7, /undo → answered (whole)");
    let mut status = Series::new("gaugebot: /status → acknowledged");
    let mut click = Series::new("gaugebot: Pass button → acknowledged");
    let mut complete = Series::new("gaugebot: /bid autocomplete → choices");
    for i in 0..WARM_UP + rounds {
        let keep = i >= WARM_UP;
        let bid = fake.slash_command(CHANNEL, &ann, "bid", &[("amount", "7")]);
        let record = done(&fake, &bid).await;
        let undo = fake.slash_command(CHANNEL, &moderator, "undo", &[]);
        let undone = done(&fake, &undo).await;
        let asked = fake.slash_command(CHANNEL, &ann, "status", &[]);
        let asked = done(&fake, &asked).await;
        let typed = fake.autocomplete(CHANNEL, &ann, "bid", &[("amount", "")], "amount");
        let typed = done(&fake, &typed).await;
        // ann's Pass button on the latest prompt, then undone again.
        let prompt = fake
            .bot_messages(CHANNEL)
            .into_iter()
            .rev()
            .find(|m| !m.components.is_empty())
            .expect("a prompt with buttons");
        let pass = prompt.components[0]["components"]
            .as_array()
            .and_then(|b| b.iter().find(|b| b["label"] == "Pass"))
            .and_then(|b| b["custom_id"].as_str())
            .expect("a Pass button")
            .to_string();
        let clicked = fake.click_button(prompt.id, &ann, &pass);
        let clicked = done(&fake, &clicked).await;
        let undo = fake.slash_command(CHANNEL, &moderator, "undo", &[]);
        done(&fake, &undo).await;
        if keep {
            for r in [&record, &undone] {
                ack.samples.push(r.ack_latency().expect("acknowledged"));
                round.samples.push(whole(&fake, r));
            }
            status
                .samples
                .push(asked.ack_latency().expect("acknowledged"));
            click
                .samples
                .push(clicked.ack_latency().expect("acknowledged"));
            complete
                .samples
                .push(typed.ack_latency().expect("answered"));
        }
    }
    bot.shutdown().await;
    vec![ack, round, status, click, complete]
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
            "interaction latency through the fake Discord ({rounds} rounds after {WARM_UP} warm-up, {PAUSE:?} apart)"
        );
        let echo = echo_series(rounds).await;
        let game = game_series(rounds).await;
        let baseline = echo.quantile(0.5);
        echo.print(baseline);
        for series in &game {
            series.print(baseline);
        }
        // Discord wants every first answer (not the whole round) within 3 s: the slowest one.
        let slowest = [&game[0], &game[2], &game[3], &game[4]]
            .iter()
            .map(|series| series.quantile(1.0))
            .max()
            .unwrap_or_default();
        println!("slowest first answer {slowest:.3?} (Discord's limit: 3 s)");
    });
    println!("total {:.1?}", started.elapsed());
}
