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

mod children;
mod fake_table;

use std::path::PathBuf;
use std::time::Duration;

use children::{eventually, spawn_bot, Bots};
use fake_table::{ann, bob, cat, guild, moderator, CHANNEL, GUILD};
use fakediscord::{FakeDiscord, FakeUser, RecordedMessage, RouteKind};
use gaugebot_store::SqliteStore;
use gaugebot_table::store::Store;

const WAIT: Duration = Duration::from_secs(30);
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

/// A game under way: the fake Discord with the game's guild, a bot process on a SQLite file
/// (its config and log in a temporary directory), the game set up and ann's bid answered.
struct Begun {
    fake: FakeDiscord,
    dir: tempfile::TempDir,
    config: PathBuf,
    bots: Bots,
    logs: Vec<PathBuf>,
    store: SqliteStore,
}

impl Begun {
    async fn new() -> Begun {
        let (fake, dir, db, config) = world().await;
        let log = dir.path().join("bot-0.log");
        let bots = Bots(vec![spawn_bot(&config, &log)]);
        fake.wait_for_identify_count(1, WAIT)
            .await
            .expect("the bot connects");
        accepted(&fake, &moderator(), SETUP).await;
        accepted(&fake, &ann(), "**bid 7**").await;
        let store = SqliteStore::open(&db.to_string_lossy())
            .await
            .expect("the database");
        Begun {
            fake,
            dir,
            config,
            bots,
            logs: vec![log],
            store,
        }
    }

    /// Kills the bot (SIGKILL) and starts a new process on the same database.
    fn crash_and_restart(&mut self, heal: impl FnOnce(&FakeDiscord)) {
        self.bots.crash(0);
        heal(&self.fake);
        let log = self.dir.path().join(format!("bot-{}.log", self.logs.len()));
        self.bots.0[0] = spawn_bot(&self.config, &log);
        self.logs.push(log);
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
async fn answered_once_after_restart(game: &Begun, pass: u64) {
    let (fake, store, logs) = (&game.fake, &game.store, &game.logs);
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
    let mut game = Begun::new().await;
    let (fake, store) = (&game.fake, &game.store);
    // Discord fails every post from now on; the move is stored with its answer kept.
    fake.fail_next(RouteKind::CreateMessage, 503, 1_000_000);
    let pass = fake.post_user_message(CHANNEL, Some(GUILD), &bob(), "**pass**");
    eventually(
        "the move stored with its answer kept",
        &game.logs,
        async || (stored(store, pass).await && kept(store).await == 1).then_some(()),
    )
    .await;
    eventually("a refused post of the answer", &game.logs, async || {
        let refused = fake
            .requests()
            .iter()
            .any(|r| r.route == Some(RouteKind::CreateMessage) && r.status == 503);
        refused.then_some(())
    })
    .await;
    game.crash_and_restart(|fake| {
        assert!(replies_to(fake, pass).is_empty());
        assert!(fake.reactions(pass).is_empty());
        fake.clear_faults(RouteKind::CreateMessage);
    });
    answered_once_after_restart(&game, pass).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_answer_discord_applied_but_never_acknowledged_is_not_doubled_after_the_restart() {
    let mut game = Begun::new().await;
    let (fake, store) = (&game.fake, &game.store);
    // Discord applies the answer's post but never says so; the process dies meanwhile.
    fake.hang_next(RouteKind::CreateMessage, true, 1);
    let pass = fake.post_user_message(CHANNEL, Some(GUILD), &bob(), "**pass**");
    eventually("the answer applied by Discord", &game.logs, async || {
        (!replies_to(fake, pass).is_empty()).then_some(())
    })
    .await;
    assert_eq!(kept(store).await, 1, "unacknowledged: still in the outbox");
    game.crash_and_restart(|fake| assert!(fake.reactions(pass).is_empty()));
    answered_once_after_restart(&game, pass).await;
}
