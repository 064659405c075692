//! Several bot processes sharing one PostgreSQL database (a real server the test starts
//! itself, `pg/mod.rs`) and one fake Discord (`fakediscord/`):
//!
//! - failover: two `gaugebot run` child processes serve the same shards; the channel's owner is
//!   killed (SIGKILL) right after a burst of moves; the other takes the channel over, catches up
//!   from the stored cursor, and the game goes on. The stored log holds every move exactly
//!   once, in the order sent, and no move was answered twice;
//! - shard ranges: two bots, one per shard of two, each get and serve only their guild.

mod fake_table;

use std::collections::HashMap;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use fakediscord::{within, FakeDiscord, RouteKind};
use gaugebot::config::Config;
use gaugebot::discord::{self, shards::ShardRange};
use gaugebot_store::postgres::PostgresStore;
use gaugebot_table::store::Store;

mod children;
mod pg;

use children::{eventually, spawn_bot, Bots};

use fake_table::{ann, bob, cat, moderator, moves, user};
const GUILD: u64 = 8 << 22; // shard 0 of 2
const OTHER_GUILD: u64 = 1 << 22; // shard 1 of 2
const CHANNEL: u64 = 701;
const OTHER_CHANNEL: u64 = 702;
const MODERATOR_ROLE: u64 = 600;
const WAIT: Duration = Duration::from_secs(30);
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

async fn world(guilds: &[(u64, u64)]) -> FakeDiscord {
    let fake = FakeDiscord::start().await;
    for (guild, channel) in guilds {
        fake.add_guild(*guild, "Irish Gauge");
        fake.add_channel(*guild, *channel, "game");
        fake.add_role(*guild, MODERATOR_ROLE, "Moderator", 0);
        fake.add_member(*guild, &moderator(), &[MODERATOR_ROLE]);
        for u in [ann(), bob(), cat()] {
            fake.add_member(*guild, &u, &[]);
        }
    }
    fake
}

/// The message ids of a game's log, one per command (a command's entries are adjacent).
fn commands(log: &[gaugebot_table::store::LogRow]) -> Vec<String> {
    let mut ids: Vec<String> = Vec::new();
    for row in log {
        if ids.last() != Some(&row.message_id) {
            ids.push(row.message_id.clone());
        }
    }
    ids
}

async fn stored_commands(store: &PostgresStore, channel: u64) -> Vec<String> {
    let Some(game) = store
        .active_game(&channel.to_string())
        .await
        .expect("read the game")
    else {
        return Vec::new();
    };
    commands(&store.log(&game.id).await.expect("read the log"))
}

/// Posts a move and waits for its reaction.
async fn answered(fake: &FakeDiscord, who: &str, text: &str) -> String {
    let id = fake.post_user_message(CHANNEL, Some(GUILD), &user(who), text);
    fake.wait_for_reactions(id, 1, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    id.to_string()
}

/// The log of the process whose token owns the channel.
async fn owner_log(store: &PostgresStore, logs: &[std::path::PathBuf]) -> usize {
    eventually("an owner", logs, async || {
        let owners = store.channel_owners().await.ok()?;
        let (_, token) = owners
            .into_iter()
            .find(|(c, _)| *c == CHANNEL.to_string())?;
        logs.iter().position(|log| {
            std::fs::read_to_string(log)
                .unwrap_or_default()
                .contains(&token)
        })
    })
    .await
}

/// Sends a signal (`STOP`, `CONT`) to a child process.
fn signal(child: &Child, name: &str) {
    let status = Command::new("kill")
        .args([&format!("-{name}"), &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(status.success(), "kill -{name}");
}

/// A process that hangs (SIGSTOP) mid-burst keeps its connections open but stops renewing its
/// lease: the other process takes the channel over when the lease runs out and applies the
/// burst; woken (SIGCONT), the old owner leaves the channel alone, and the game goes on to its
/// end with every move once, in order, answered once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_owner_loses_its_channel_and_nothing_is_doubled_or_lost() {
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    let url = server.database().await;
    let fake = world(&[(GUILD, CHANNEL)]).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("config.yaml");
    std::fs::write(
        &config,
        format!(
            "database: \"{url}\"\ndiscord:\n  api_base: \"{}\"\n  moderator_roles: [\"Moderator\"]\nmap:\n  after_build: false\n",
            fake.api_base()
        ),
    )
    .expect("config");
    let logs = vec![dir.path().join("bot-0.log"), dir.path().join("bot-1.log")];
    let bots = Bots(logs.iter().map(|log| spawn_bot(&config, log)).collect());
    fake.wait_for_identify_count(2, WAIT)
        .await
        .expect("both bots connect");
    let store = PostgresStore::open(&url).await.expect("postgres");
    let setup = fake.post_user_message(CHANNEL, Some(GUILD), &moderator(), SETUP);
    fake.wait_for_reactions(setup, 1, WAIT)
        .await
        .expect("the setup is answered");
    let mut sent: Vec<String> = Vec::new();
    let moves = moves();
    let mut next = moves.iter();
    for (who, text) in next.by_ref().take(3) {
        sent.push(answered(&fake, who, text).await);
    }
    let owner = owner_log(&store, &logs).await;
    let token = |owners: Vec<(String, String)>| {
        owners
            .into_iter()
            .find(|(c, _)| *c == CHANNEL.to_string())
            .map(|(_, t)| t)
    };
    let old = token(store.channel_owners().await.expect("owners")).expect("an owner");

    // The owner hangs while a burst arrives.
    let mut burst = next.by_ref().take(3);
    let (who, text) = burst.next().expect("a move");
    sent.push(
        fake.post_user_message(CHANNEL, Some(GUILD), &user(who), text)
            .to_string(),
    );
    signal(&bots.0[owner], "STOP");
    let stopped = Instant::now();
    for (who, text) in burst {
        sent.push(
            fake.post_user_message(CHANNEL, Some(GUILD), &user(who), text)
                .to_string(),
        );
    }
    let stored = eventually("the burst in the log", &logs, async || {
        let stored = stored_commands(&store, CHANNEL).await;
        (stored.len() >= sent.len()).then_some(stored)
    })
    .await;
    let takeover = stopped.elapsed();
    assert_eq!(stored, sent, "the burst once each, in order");
    let new = token(store.channel_owners().await.expect("owners")).expect("an owner");
    assert_ne!(new, old, "the channel changed hands");
    assert!(
        !store.process_alive(&old).await.expect("alive?"),
        "the hung process is not alive"
    );
    eprintln!(
        "the owner hung (SIGSTOP); the other process applied the burst {:.1} s later (lease {} s)",
        takeover.as_secs_f64(),
        gaugebot_store::postgres::LEASE.as_secs()
    );

    // Woken, the old owner renews its lease but leaves the channel to its new owner.
    signal(&bots.0[owner], "CONT");
    for (who, text) in next {
        sent.push(answered(&fake, who, text).await);
    }
    assert_eq!(
        stored_commands(&store, CHANNEL).await,
        sent,
        "every move once"
    );
    assert_eq!(
        token(store.channel_owners().await.expect("owners")),
        Some(new)
    );
    assert!(store.process_alive(&old).await.expect("alive?"), "woken");
    for id in &sent {
        let reactions = fake.reactions(id.parse().expect("an id"));
        assert!(reactions.len() <= 1, "message {id}: {reactions:?}");
        assert!(!reactions.contains(&"❌".to_string()), "message {id}");
    }
    let mut answers: HashMap<u64, usize> = HashMap::new();
    for m in fake.bot_messages(CHANNEL) {
        if let Some(reference) = m.referenced_message {
            *answers.entry(reference).or_default() += 1;
        }
    }
    let doubled: Vec<String> = fake
        .bot_messages(CHANNEL)
        .iter()
        .filter(|m| {
            m.referenced_message.is_some_and(|r| {
                answers.get(&r).is_some_and(|n| *n > 1) && sent.contains(&r.to_string())
            })
        })
        .map(|m| {
            format!(
                "{:?} nonce {:?}: {}",
                m.referenced_message,
                m.payload.as_ref().and_then(|p| p.get("nonce")),
                m.content
            )
        })
        .collect();
    if !doubled.is_empty() {
        // A rare failure (about once in 10–20 runs): keep what explains it.
        children::print_logs(&logs);
    }
    assert!(doubled.is_empty(), "a move answered twice: {doubled:#?}");
    let all: String = fake
        .bot_messages(CHANNEL)
        .iter()
        .map(|m| m.content.as_str())
        .collect();
    assert!(all.contains("cat wins with £59"));
    drop(bots);
    store.shared().close().await;
}

/// The fencing is the database's: a process that stops renewing its lease (its connections
/// open, as a hung process's) loses its channel to another process within the lease, and its
/// own writes to the channel are then refused by the database although it never learnt of
/// the takeover.
#[tokio::test]
async fn a_process_past_its_lease_has_its_writes_refused_by_the_database() {
    use gaugebot_store::backend::{Claim, Owners};
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    let url = server.database().await;
    let a = PostgresStore::open_owner(&url).await.expect("a");
    let b = PostgresStore::open_owner(&url).await.expect("b");
    assert_eq!(a.claim("c", None).await.expect("claim"), Claim::New);
    let game = gaugebot_table::store::GameRow {
        id: "c-1".into(),
        channel: "c".into(),
        kind: "irish-gauge".into(),
        engine_version: "test".into(),
        created_at: chrono::Utc::now(),
        setup_json: "{}".into(),
        seed_hex: None,
        commitment: None,
        revealed: false,
        active: true,
    };
    a.create_game(&game, "m1").await.expect("the owner writes");
    assert_eq!(b.claim("c", None).await.expect("claim"), Claim::Other);

    a.stop_renewing();
    let hung = Instant::now();
    loop {
        if b.claim("c", None).await.expect("claim") == Claim::New {
            break;
        }
        assert!(hung.elapsed() < WAIT, "never taken over");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    eprintln!(
        "taken over {:.1} s after the owner stopped renewing (lease {} s)",
        hung.elapsed().as_secs_f64(),
        gaugebot_store::postgres::LEASE.as_secs()
    );
    let refused = a.mark_seen("c", "m2").await;
    assert!(
        matches!(
            refused,
            Err(gaugebot_table::store::StoreError::NotOwner { .. })
        ),
        "{refused:?}"
    );
    let refused = a.advance_cursor("c", "99").await;
    assert!(
        matches!(
            refused,
            Err(gaugebot_table::store::StoreError::NotOwner { .. })
        ),
        "{refused:?}"
    );
    assert!(!a.holds("c").await.expect("holds"));
    assert!(b.holds("c").await.expect("holds"));
    b.mark_seen("c", "m3").await.expect("the new owner writes");
    assert!(
        !a.seen("c", "m2").await.expect("seen"),
        "nothing of a's write"
    );
    a.shared().close().await;
    b.shared().close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_owner_loses_nothing_and_doubles_nothing() {
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    let url = server.database().await;
    let fake = world(&[(GUILD, CHANNEL)]).await;
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("config.yaml");
    std::fs::write(
        &config,
        format!(
            "database: \"{url}\"\ndiscord:\n  api_base: \"{}\"\n  moderator_roles: [\"Moderator\"]\nmap:\n  after_build: false\n",
            fake.api_base()
        ),
    )
    .expect("config");
    // Two processes at any time: each killed owner is replaced by a new process.
    let mut logs = vec![dir.path().join("bot-0.log"), dir.path().join("bot-1.log")];
    let mut bots = Bots(logs.iter().map(|log| spawn_bot(&config, log)).collect());
    fake.wait_for_identify_count(2, WAIT)
        .await
        .expect("both bots connect");
    let store = PostgresStore::open(&url).await.expect("postgres");

    let setup = fake.post_user_message(CHANNEL, Some(GUILD), &moderator(), SETUP);
    fake.wait_for_reactions(setup, 1, WAIT)
        .await
        .expect("the setup is answered");
    // The setup is the game's row (its message marked read), the moves are its log.
    let mut sent: Vec<String> = Vec::new();
    let moves = moves();
    let (steady, burst) = (3, 3);
    let rounds = std::env::var("GAUGEBOT_FAILOVERS")
        .ok()
        .and_then(|v| v.parse::<usize>().ok())
        .unwrap_or(2)
        .min(moves.len() / (steady + burst) - 1);
    let mut next = moves.iter();
    for round in 0..rounds {
        for (who, text) in next.by_ref().take(steady) {
            sent.push(answered(&fake, who, text).await);
        }
        let owner = owner_log(&store, &logs).await;
        // A burst of moves, and the owner is killed while they arrive.
        for (who, text) in next.by_ref().take(burst) {
            sent.push(
                fake.post_user_message(CHANNEL, Some(GUILD), &user(who), text)
                    .to_string(),
            );
        }
        bots.0[owner].kill().expect("kill the owner");
        let _ = bots.0[owner].wait();
        // The survivor takes over (no new message needed) and applies the whole burst.
        let stored = eventually("the burst in the log", &logs, async || {
            let stored = stored_commands(&store, CHANNEL).await;
            (stored.len() >= sent.len()).then_some(stored)
        })
        .await;
        assert_eq!(
            stored, sent,
            "round {round}: the log is what was sent, once each"
        );
        eprintln!(
            "round {round}: killed the owner ({}) after {} moves; the survivor applied the burst",
            logs[owner].display(),
            sent.len()
        );
        // A new process replaces the dead one.
        let log = dir.path().join(format!("bot-{}.log", round + 2));
        bots.0[owner] = spawn_bot(&config, &log);
        logs[owner] = log;
        fake.wait_for_identify_count(3 + round, WAIT)
            .await
            .expect("the new process connects");
    }
    // The game goes on to its end.
    for (who, text) in next {
        sent.push(answered(&fake, who, text).await);
    }
    let stored = stored_commands(&store, CHANNEL).await;
    assert_eq!(stored, sent, "every move once, in order");
    // No move was answered twice: at most one reaction each, never a refusal.
    assert_eq!(fake.reactions(setup), ["✅"]);
    for id in &sent {
        let reactions = fake.reactions(id.parse().expect("an id"));
        assert!(reactions.len() <= 1, "message {id}: {reactions:?}");
        assert!(!reactions.contains(&"❌".to_string()), "message {id}");
    }
    let mut answers: HashMap<u64, usize> = HashMap::new();
    for m in fake.bot_messages(CHANNEL) {
        if let Some(reference) = m.referenced_message {
            *answers.entry(reference).or_default() += 1;
        }
    }
    let doubled: Vec<_> = answers
        .iter()
        .filter(|(id, n)| **n > 1 && sent.contains(&id.to_string()))
        .collect();
    assert!(doubled.is_empty(), "answered twice: {doubled:?}");
    // The stored game replays to the end of the transcript.
    let table = gaugebot_table::Table::load(
        &CHANNEL.to_string(),
        store.shared(),
        gaugebot::games::host(None, gaugebot_table::TableSettings::default()).expect("host"),
    )
    .await
    .expect("loads");
    assert!(table.frozen().is_none(), "{:?}", table.frozen());
    let last = fake
        .bot_messages(CHANNEL)
        .last()
        .map(|m| m.content.clone())
        .unwrap_or_default();
    let all: String = fake
        .bot_messages(CHANNEL)
        .iter()
        .map(|m| m.content.as_str())
        .collect();
    assert!(all.contains("cat wins with £59"), "{last}");
    drop(bots);
    store.shared().close().await;
}

fn config(fake: &FakeDiscord, url: &str, shards: ShardRange) -> Config {
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.discord.moderator_roles = vec!["Moderator".to_string()];
    config.discord.shards = Some(shards);
    config.database = url.into();
    config.map.after_build = false;
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_process_serves_its_shard_range() {
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    let url = server.database().await;
    let fake = world(&[(GUILD, CHANNEL), (OTHER_GUILD, OTHER_CHANNEL)]).await;
    let shard = |id| ShardRange {
        start: id,
        end: id,
        total: 2,
    };
    let start = |id| {
        within(
            WAIT,
            "a bot starts",
            discord::start(config(&fake, &url, shard(id)), fake.token().to_string()),
        )
    };
    let zero = start(0).await.expect("shard 0 starts");
    let one = start(1).await.expect("shard 1 starts");
    let mut shards: Vec<_> = fake.identifies().iter().filter_map(|i| i.shard).collect();
    shards.sort();
    assert_eq!(shards, vec![[0, 2], [1, 2]]);

    for (guild, channel) in [(GUILD, CHANNEL), (OTHER_GUILD, OTHER_CHANNEL)] {
        let id = fake.post_user_message(channel, Some(guild), &moderator(), SETUP);
        let reactions = fake.wait_for_reactions(id, 1, WAIT).await.expect("setup");
        assert_eq!(reactions, ["✅"]);
    }
    let store = PostgresStore::open(&url).await.expect("postgres");
    // Each channel is owned by the process of its guild's shard.
    let owners = store.channel_owners().await.expect("owners");
    let of = |channel: u64| {
        owners
            .iter()
            .find(|(c, _)| *c == channel.to_string())
            .map(|(_, o)| o.clone())
            .expect("an owner")
    };
    assert_ne!(of(CHANNEL), of(OTHER_CHANNEL));
    let history_reads = fake
        .requests()
        .iter()
        .filter(|r| r.route == Some(RouteKind::GetMessages))
        .count();
    assert_eq!(history_reads, 0, "nothing to catch up");
    within(WAIT, "stop", zero.shutdown()).await;
    within(WAIT, "stop", one.shutdown()).await;
    store.shared().close().await;
}
