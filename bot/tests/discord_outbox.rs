//! The outbox across a crash: a `gaugebot run` child process (SQLite) against the fake
//! Discord is killed (SIGKILL) after a move was stored but before its answer reached the
//! channel; a new process on the same database posts that answer (the replies, the ✅, the next
//! player's ping) exactly once, and the game goes on.
//!
//! - Discord fails every post (503) when the process dies: the answer was never posted; the new
//!   process posts it.
//! - Discord applied the post but never answered it when the process dies: the new process
//!   posts it again with the same nonce, and Discord (`enforce_nonce`) returns the message it
//!   has: one reply, not two.

mod fake_table;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fake_table::{ann, bob, cat, guild, moderator, CHANNEL, GUILD};
use fakediscord::{FakeDiscord, FakeUser, RecordedMessage, RouteKind};
use gaugebot::storage::SqliteStore;
use gaugebot_table::store::Store;

const WAIT: Duration = Duration::from_secs(30);
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

/// A `gaugebot run` child process, killed when dropped (also when the test fails).
struct Bot(Child);

impl Drop for Bot {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

impl Bot {
    /// Starts `gaugebot run` on the configuration file; its log goes to `log`.
    fn start(config: &Path, log: &Path) -> Bot {
        let log = std::fs::File::create(log).expect("log file");
        let child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
            .args(["--config", &config.to_string_lossy(), "run"])
            .env("DISCORD_TOKEN", fakediscord::BOT_TOKEN)
            .env("RUST_LOG", "warn,gaugebot=info")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(log)
            .spawn()
            .expect("gaugebot starts");
        Bot(child)
    }

    /// SIGKILL: no shutdown, no flush, nothing more posted.
    fn crash(mut self) {
        self.0.kill().expect("kill");
        self.0.wait().expect("wait");
    }
}

/// The fake Discord with the game's guild, a temporary directory with the bot's config file.
async fn world() -> (FakeDiscord, tempfile::TempDir, PathBuf, PathBuf) {
    let fake = FakeDiscord::start().await;
    guild(&fake, "Irish Gauge", &[ann(), bob(), cat()]);
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("gaugebot.db");
    let config = dir.path().join("config.yaml");
    std::fs::write(
        &config,
        format!(
            "database: \"{}\"\ndiscord:\n  api_base: \"{}\"\n  moderator_roles: [\"Moderator\"]\nmap:\n  after_build: false\n",
            db.display(),
            fake.api_base()
        ),
    )
    .expect("config");
    (fake, dir, db, config)
}

/// Polls (bounded) until `check` holds; prints the bots' logs if it never does.
async fn eventually<T>(what: &str, logs: &[&Path], mut check: impl AsyncFnMut() -> Option<T>) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = check().await {
            return v;
        }
        if start.elapsed() > WAIT {
            for log in logs {
                eprintln!(
                    "--- {}\n{}",
                    log.display(),
                    std::fs::read_to_string(log).unwrap_or_default()
                );
            }
            panic!("timed out waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// Posts a message and waits for its ✅.
async fn accepted(fake: &FakeDiscord, user: &FakeUser, text: &str) -> u64 {
    let id = fake.post_user_message(CHANNEL, Some(GUILD), user, text);
    let reactions = fake.wait_for_reactions(id, 1, WAIT).await.expect(text);
    assert_eq!(reactions, ["✅"], "{text}");
    id
}

/// The bot's messages that reply to message `id`.
fn replies_to(fake: &FakeDiscord, id: u64) -> Vec<RecordedMessage> {
    fake.bot_messages(CHANNEL)
        .into_iter()
        .filter(|m| m.referenced_message == Some(id))
        .collect()
}

/// Whether the stored log has an entry of message `id`.
async fn stored(store: &SqliteStore, id: u64) -> bool {
    let Ok(Some(game)) = store.active_game(&CHANNEL.to_string()).await else {
        return false;
    };
    let log = store.log(&game.id).await.unwrap_or_default();
    log.iter().any(|row| row.message_id == id.to_string())
}

/// The outbox's parcels of the game channel.
async fn kept(store: &SqliteStore) -> usize {
    store
        .pending(Some(&CHANNEL.to_string()))
        .await
        .expect("read the outbox")
        .len()
}

/// After the restart: `pass` has its one ✅ and its one reply, which pings the next player;
/// the outbox is empty; and the game goes on.
async fn answered_once_after_restart(
    fake: &FakeDiscord,
    store: &SqliteStore,
    pass: u64,
    logs: &[&Path],
) {
    let reactions = fake
        .wait_for_reactions(pass, 1, WAIT)
        .await
        .expect("the ✅");
    assert_eq!(reactions, ["✅"]);
    let replies = eventually("the reply", logs, async || {
        let replies = replies_to(fake, pass);
        (!replies.is_empty()).then_some(replies)
    })
    .await;
    eventually("an empty outbox", logs, async || {
        (kept(store).await == 0).then_some(())
    })
    .await;
    let cat_pass = accepted(fake, &cat(), "**pass**").await;
    assert!(!replies_to(fake, cat_pass).is_empty());
    // Nothing doubled: one reply and one ✅ for the answer kept across the crash.
    assert_eq!(replies_to(fake, pass).len(), 1, "{replies:?}");
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert!(
        replies[0].content.contains("<@3>"),
        "the next player is pinged: {}",
        replies[0].content
    );
    assert_eq!(fake.reactions(pass), ["✅"]);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_discord_refused_until_the_crash_is_posted_after_the_restart() {
    let (fake, dir, db, config) = world().await;
    let first_log = dir.path().join("bot-0.log");
    let bot = Bot::start(&config, &first_log);
    fake.wait_for_identify_count(1, WAIT)
        .await
        .expect("the bot connects");
    accepted(&fake, &moderator(), SETUP).await;
    accepted(&fake, &ann(), "**bid 7**").await;
    let store = SqliteStore::open(&db.to_string_lossy())
        .await
        .expect("the database");

    // Discord fails every post from now on; the move is stored with its answer kept.
    fake.fail_next(RouteKind::CreateMessage, 503, 1_000_000);
    let pass = fake.post_user_message(CHANNEL, Some(GUILD), &bob(), "**pass**");
    let logs = [first_log.as_path()];
    eventually("the move stored with its answer kept", &logs, async || {
        (stored(&store, pass).await && kept(&store).await == 1).then_some(())
    })
    .await;
    eventually("a refused post of the answer", &logs, async || {
        let refused = fake
            .requests()
            .iter()
            .any(|r| r.route == Some(RouteKind::CreateMessage) && r.status == 503);
        refused.then_some(())
    })
    .await;
    bot.crash();
    assert!(replies_to(&fake, pass).is_empty());
    assert!(fake.reactions(pass).is_empty());

    fake.clear_faults(RouteKind::CreateMessage);
    let second_log = dir.path().join("bot-1.log");
    let _bot = Bot::start(&config, &second_log);
    let logs = [first_log.as_path(), second_log.as_path()];
    answered_once_after_restart(&fake, &store, pass, &logs).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_discord_applied_but_never_acknowledged_is_not_doubled_after_the_restart() {
    let (fake, dir, db, config) = world().await;
    let first_log = dir.path().join("bot-0.log");
    let bot = Bot::start(&config, &first_log);
    fake.wait_for_identify_count(1, WAIT)
        .await
        .expect("the bot connects");
    accepted(&fake, &moderator(), SETUP).await;
    accepted(&fake, &ann(), "**bid 7**").await;
    let store = SqliteStore::open(&db.to_string_lossy())
        .await
        .expect("the database");

    // Discord applies the answer's post but never says so; the process dies meanwhile.
    fake.hang_next(RouteKind::CreateMessage, true, 1);
    let pass = fake.post_user_message(CHANNEL, Some(GUILD), &bob(), "**pass**");
    let logs = [first_log.as_path()];
    eventually("the answer applied by Discord", &logs, async || {
        (!replies_to(&fake, pass).is_empty()).then_some(())
    })
    .await;
    assert_eq!(kept(&store).await, 1, "unacknowledged: still in the outbox");
    bot.crash();
    assert!(fake.reactions(pass).is_empty());

    let second_log = dir.path().join("bot-1.log");
    let _bot = Bot::start(&config, &second_log);
    let logs = [first_log.as_path(), second_log.as_path()];
    answered_once_after_restart(&fake, &store, pass, &logs).await;
}
