//! What a restart costs with many stored games: the Discord adapter starts against the fake
//! Discord (`fakediscord/`, same process) with a SQLite file holding `RESTART_GAMES` active
//! games (default 10,000) in `RESTART_GUILDS` guilds (default 10), of which one in
//! `RESTART_BEHIND_EVERY` (default 100, so 1%) got a message while the bot was away.
//!
//! Measured: the REST requests made while starting (by route; the probe's own excluded), the
//! time from `start` to "caught up", the time to the reply to a command posted in an up-to-date
//! channel as soon as the bot has identified (the probe: answered while the channels behind are
//! still being caught up) and to one posted after the catch-up (its table is loaded then,
//! lazily), and the process's memory (VmRSS before the bot
//! starts, when it has caught up, and the peak VmHWM; the fake's own state is in all three).
//! `RESTART_DB=postgres://…` runs the same against an empty PostgreSQL database instead.
//!
//! Run: `cargo bench -p gaugebot --bench restart`.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use fakediscord::{FakeDiscord, FakeUser};
use gaugebot::config::Config;
use gaugebot::discord;
use gaugebot::table::{Author, Incoming, Mention, Table, Verdict};
use gaugebot_table::store::Store;
use gaugebot_table::TableSettings;

const MODERATOR_ROLE: u64 = 600;
const FIRST_CHANNEL: u64 = 1_000_000;
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

fn env(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.replace('_', "").parse().ok())
        .unwrap_or(default)
}

fn status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1).and_then(|n| n.parse().ok()))
        })
        .unwrap_or(0)
}

fn mb(kb: u64) -> String {
    format!("{:.1} MB", kb as f64 / 1024.0)
}

fn user(id: u64, name: &str) -> FakeUser {
    FakeUser::new(id, name)
}

/// A game set up through the table core as a Discord channel would: its row and log.
async fn template() -> (
    gaugebot_table::store::GameRow,
    Vec<gaugebot_table::store::LogRow>,
) {
    let store = gaugebot_store::SqliteStore::open(":memory:")
        .await
        .expect("memory");
    let host = gaugebot::games::host(
        None,
        TableSettings {
            map_after_build: false,
            ..TableSettings::default()
        },
    )
    .expect("host");
    let mut table = Table::load("1", store.shared(), host).await.expect("table");
    let mention = |id: &str, name: &str| Mention {
        id: id.to_string(),
        name: name.to_string(),
        written: vec![format!("<@{id}>")],
    };
    let setup = table
        .handle(&Incoming {
            message_id: "10".to_string(),
            author: Author {
                id: "100".to_string(),
                name: "mona".to_string(),
                is_moderator: true,
                mention: "<@100>".to_string(),
            },
            text: SETUP.to_string(),
            at: "2026-01-01T00:00:00Z".parse().expect("a time"),
            mentions: vec![
                mention("1", "ann"),
                mention("2", "bob"),
                mention("3", "cat"),
            ],
        })
        .await;
    assert_eq!(setup.verdict, Verdict::Accepted, "{}", setup.text());
    let game = store
        .shared()
        .active_game("1")
        .await
        .expect("read")
        .expect("game");
    let log = store.shared().log(&game.id).await.expect("log");
    (game, log)
}

/// Writes a dump into a new SQLite database in one transaction.
async fn fill_sqlite(path: &str, dump: &gaugebot::migrate::Dump) {
    use sqlx::Connection;
    let store = gaugebot_store::SqliteStore::open(path)
        .await
        .expect("sqlite");
    store.shared().close().await;
    let mut conn = sqlx::SqliteConnection::connect(&format!("sqlite://{path}"))
        .await
        .expect("connect");
    let mut tx = conn.begin().await.expect("begin");
    <sqlx::Sqlite as gaugebot_store::sql::queries::Queries>::import(&mut tx, dump, &mut |_| {})
        .await
        .expect("import");
    tx.commit().await.expect("commit");
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() {
    if std::env::var_os("RUST_LOG").is_some() {
        tracing_subscriber::fmt()
            .with_env_filter(tracing_subscriber::EnvFilter::from_default_env())
            .with_writer(std::io::stderr)
            .init();
    }
    let games = env("RESTART_GAMES", 10_000);
    let guilds = env("RESTART_GUILDS", 10).max(1);
    let behind_every = env("RESTART_BEHIND_EVERY", 100).max(1);
    let fake = FakeDiscord::start().await;
    let moderator = user(100, "mona");
    let ann = user(1, "ann");
    for g in 0..guilds {
        let guild = 1_000 + g;
        fake.add_guild(guild, "Irish Gauge");
        fake.add_role(guild, MODERATOR_ROLE, "Moderator", 0);
        fake.add_member(guild, &moderator, &[MODERATOR_ROLE]);
        for u in [ann.clone(), user(2, "bob"), user(3, "cat")] {
            fake.add_member(guild, &u, &[]);
        }
    }
    let guild_of = |i: u64| 1_000 + i % guilds;
    // Each channel's history: the setup, then (for some) a command sent while the bot was away.
    let mut setups = Vec::with_capacity(games as usize);
    for i in 0..games {
        let channel = FIRST_CHANNEL + i;
        fake.add_channel(guild_of(i), channel, "game");
        setups.push(fake.post_user_message(channel, Some(guild_of(i)), &moderator, SETUP));
    }
    let mut behind = Vec::new();
    for i in (0..games).step_by(behind_every as usize) {
        let channel = FIRST_CHANNEL + i;
        behind.push(fake.post_user_message(channel, Some(guild_of(i)), &ann, "!status"));
    }

    // The database: every game as the template, its cursor at its setup message.
    let dir = tempfile::tempdir().expect("temp dir");
    let postgres = std::env::var("RESTART_DB").ok();
    let database = postgres
        .clone()
        .unwrap_or_else(|| dir.path().join("games.db").to_string_lossy().into_owned());
    let (game, log) = template().await;
    let filling = Instant::now();
    let mut dump = gaugebot::migrate::Dump::default();
    for (i, setup) in setups.iter().enumerate() {
        let channel = (FIRST_CHANNEL + i as u64).to_string();
        let id = format!("{}-{i}", game.id);
        dump.games.push(gaugebot_store::sql::queries::GameRecord {
            id: id.clone(),
            channel: channel.clone(),
            ..(&game).into()
        });
        for row in &log {
            dump.logs.push((id.clone(), row.into()));
        }
        dump.seen.push((channel.clone(), setup.to_string()));
        dump.cursors.push((channel, setup.to_string()));
    }
    match &postgres {
        Some(url) => {
            let store = gaugebot_store::postgres::PostgresStore::open(url)
                .await
                .expect("postgres");
            store.import(&dump, &mut |_| {}).await.expect("import");
            store.close().await;
        }
        None => fill_sqlite(&database, &dump).await,
    }
    eprintln!(
        "stored {games} games in {:.1} s",
        filling.elapsed().as_secs_f64()
    );

    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.discord.moderator_roles = vec!["Moderator".to_string()];
    config.database = database.clone().into();
    config.map.after_build = false;
    let rss_before = status_kb("VmRSS:");
    let requests_before = fake.requests().len();
    let started = Instant::now();
    let token = fake.token().to_string();
    let starting = tokio::spawn(discord::start(config, token));
    // A command in an up-to-date channel as soon as the bot has identified: it is answered
    // while the channels behind are still being caught up.
    let probe = FIRST_CHANNEL + 2;
    fake.wait_for_identify_count(1, Duration::from_secs(60))
        .await
        .expect("the bot identifies");
    let probe_sent = Instant::now();
    let probe_id = fake.post_user_message(probe, Some(guild_of(2)), &ann, "!status");
    fake.wait_for(Duration::from_secs(60), |f| {
        if f.bot_messages(probe).iter().any(|m| m.id > probe_id) {
            Ok(())
        } else {
            Err("the reply during start-up".to_string())
        }
    })
    .await
    .expect("a reply");
    let probe_reply = probe_sent.elapsed();
    let probe_since_start = started.elapsed();
    let bot = starting
        .await
        .expect("the start task")
        .expect("the bot starts");
    let caught_up = started.elapsed();
    let rss_started = status_kb("VmRSS:");
    let probe_path = format!("/channels/{probe}/");
    let start_requests: Vec<_> = fake.requests()[requests_before..]
        .iter()
        .filter(|r| !r.path.contains(&probe_path))
        .cloned()
        .collect();

    // The first command in a channel that was up to date, after the catch-up: its table
    // loads now.
    let fresh = FIRST_CHANNEL + 1;
    let asked = Instant::now();
    let question = fake.post_user_message(fresh, Some(guild_of(1)), &ann, "!status");
    fake.wait_for(Duration::from_secs(60), |f| {
        if f.bot_messages(fresh).iter().any(|m| m.id > question) {
            Ok(())
        } else {
            Err("the first reply".to_string())
        }
    })
    .await
    .expect("a reply");
    let first_reply = asked.elapsed();
    let answered_behind = behind
        .iter()
        .filter(|id| {
            let channel = fake.message(**id).map(|m| m.channel_id).unwrap_or(0);
            fake.bot_messages(channel).iter().any(|m| m.id > **id)
        })
        .count();
    let counts = bot.restart_counts();
    bot.shutdown().await;

    let mut by_route: BTreeMap<String, usize> = BTreeMap::new();
    for r in &start_requests {
        let route = r
            .route
            .map(|k| format!("{k:?}"))
            .unwrap_or_else(|| "unknown".to_string());
        *by_route.entry(format!("{} {route}", r.method)).or_default() += 1;
    }
    println!(
        "restart with {games} stored games in {guilds} guilds ({}), {} behind their cursor",
        if postgres.is_some() {
            "PostgreSQL"
        } else {
            "SQLite file"
        },
        behind.len()
    );
    println!(
        "  channels: {} active, {} behind (read), {} up to date (not read), {} in no guild",
        counts.active, counts.behind, counts.fresh, counts.unplaced
    );
    println!(
        "  requests while starting: {} ({})",
        start_requests.len(),
        by_route
            .iter()
            .map(|(k, v)| format!("{k}: {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    );
    println!(
        "  start to caught up: {:.0} ms; missed commands answered: {answered_behind}/{}",
        caught_up.as_secs_f64() * 1000.0,
        behind.len()
    );
    println!(
        "  a command sent as soon as the bot identified (up-to-date channel): answered {:.1} ms later, {:.0} ms after start",
        probe_reply.as_secs_f64() * 1000.0,
        probe_since_start.as_secs_f64() * 1000.0
    );
    println!(
        "  a command after the catch-up (up-to-date channel, table loaded then): {:.1} ms",
        first_reply.as_secs_f64() * 1000.0
    );
    println!(
        "  memory: VmRSS {} before the bot, {} caught up; peak VmHWM {}",
        mb(rss_before),
        mb(rss_started),
        mb(status_kb("VmHWM:"))
    );
}
