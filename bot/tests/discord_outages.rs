//! Discord's outages, through the real serenity client against the fake Discord: history reads
//! that fail across a gateway drop, six 503s on the replies, failures on the reactions, a run
//! of JSON 429s. In every case nothing is lost and nothing doubled: every move is applied once,
//! in order, and gets its one ✅ and its replies (RELIABILITY.md, Discord's faults).

use std::path::Path;
use std::time::Duration;

use fakediscord::{within, FakeDiscord, FakeUser, RecordedMessage, RouteKind};
use gaugebot::config::Config;
use gaugebot::discord::{self, BotHandle};
use tempfile::TempDir;

const GUILD: u64 = 700;
const CHANNEL: u64 = 701;
const MODERATOR_ROLE: u64 = 800;
/// Any wait for the bot through an outage (the backoff grows to 10 s between attempts).
const WAIT: Duration = Duration::from_secs(45);

const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

fn ann() -> FakeUser {
    FakeUser::new(1, "ann")
}
fn bob() -> FakeUser {
    FakeUser::new(2, "bob")
}
fn cat() -> FakeUser {
    FakeUser::new(3, "cat")
}
fn moderator() -> FakeUser {
    FakeUser::new(100, "mona")
}

async fn world() -> (FakeDiscord, TempDir) {
    let fake = FakeDiscord::start().await;
    fake.add_guild(GUILD, "Irish Gauge");
    fake.add_channel(GUILD, CHANNEL, "game-1");
    fake.add_role(GUILD, MODERATOR_ROLE, "Moderator", 0);
    fake.add_member(GUILD, &moderator(), &[MODERATOR_ROLE]);
    for user in [ann(), bob(), cat()] {
        fake.add_member(GUILD, &user, &[]);
    }
    (fake, tempfile::tempdir().expect("temp dir"))
}

async fn start(fake: &FakeDiscord, dir: &Path) -> BotHandle {
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.database = dir.join("gaugebot.db");
    within(
        Duration::from_secs(60),
        "the bot starts",
        discord::start(config, fake.token().to_string()),
    )
    .await
    .expect("the bot starts")
}

async fn stop(bot: BotHandle) {
    within(Duration::from_secs(20), "the bot stops", bot.shutdown()).await;
}

/// The bot's messages that reply to message `id`.
fn replies_to(fake: &FakeDiscord, id: u64) -> Vec<RecordedMessage> {
    fake.bot_messages(CHANNEL)
        .into_iter()
        .filter(|m| m.referenced_message == Some(id))
        .collect()
}

/// Waits for the reaction to message `id` and returns it.
async fn reaction(fake: &FakeDiscord, id: u64) -> Vec<String> {
    fake.wait_for_reactions(id, 1, WAIT)
        .await
        .unwrap_or_else(|e| panic!("no reaction to {:?}: {e}", fake.message(id)))
}

/// Posts a move and waits until it has its reaction.
async fn play(fake: &FakeDiscord, user: &FakeUser, text: &str) -> u64 {
    let id = fake.post_user_message(CHANNEL, Some(GUILD), user, text);
    assert_eq!(reaction(fake, id).await, ["✅"], "{text}");
    id
}

/// Waits until the bot said `needle` in the channel; every message that says it.
async fn said(fake: &FakeDiscord, needle: &str) -> Vec<RecordedMessage> {
    fake.wait_for(WAIT, |f| {
        let found: Vec<RecordedMessage> = f
            .bot_messages(CHANNEL)
            .into_iter()
            .filter(|m| m.content.contains(needle))
            .collect();
        if found.is_empty() {
            Err(format!("the bot to say {needle:?}"))
        } else {
            Ok(found)
        }
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"))
}

/// The game's log length, from the bot's database.
async fn log_len(bot: &BotHandle) -> usize {
    let store = bot.tables().store();
    let game = store
        .active_game(&CHANNEL.to_string())
        .await
        .expect("read the game")
        .expect("a game");
    store.log(&game.id).await.expect("read the log").len()
}

/// Statuses the fake answered on a route.
fn statuses(fake: &FakeDiscord, route: RouteKind) -> Vec<u16> {
    fake.requests()
        .into_iter()
        .filter(|r| r.route == Some(route))
        .map(|r| r.status)
        .collect()
}

/// History reads answer 503 six times in a row while the gateway is down and two moves are
/// posted: the catch-up keeps reading (with backoff) until Discord answers, applies both in
/// order, and the live move after them is in turn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn history_503s_across_a_gateway_drop_lose_no_move() {
    let (fake, dir) = world().await;
    fake.set_heartbeat_interval(Duration::from_millis(250));
    let bot = start(&fake, dir.path()).await;
    play(&fake, &moderator(), SETUP).await;
    play(&fake, &ann(), "**bid 7**").await;

    fake.fail_next(RouteKind::GetMessages, 503, 6);
    fake.drop_heartbeat_acks(true);
    fake.wait_for_sessions(0, WAIT)
        .await
        .expect("serenity drops the session");
    fake.drop_heartbeat_acks(false);
    let bid = fake.post_user_message(CHANNEL, Some(GUILD), &bob(), "**bid 8**");
    let pass = fake.post_user_message(CHANNEL, Some(GUILD), &cat(), "**pass**");
    fake.wait_for_identify_count(2, WAIT)
        .await
        .expect("serenity identifies again");
    assert_eq!(reaction(&fake, bid).await, ["✅"]);
    assert_eq!(reaction(&fake, pass).await, ["✅"]);
    assert_eq!(fake.pending_faults(RouteKind::GetMessages), 0);
    assert!(
        statuses(&fake, RouteKind::GetMessages)
            .iter()
            .filter(|s| **s == 503)
            .count()
            >= 6
    );

    let live = play(&fake, &ann(), "**pass**").await;
    let won = said(&fake, "bob wins the CBSC £7 share for £8").await;
    assert_eq!(won.len(), 1);
    for id in [bid, pass, live] {
        assert_eq!(fake.reactions(id), ["✅"]);
        assert_eq!(replies_to(&fake, id).len(), 1, "one first reply each");
    }
    assert_eq!(log_len(&bot).await, 4);
    stop(bot).await;
}

/// Six 503s on `POST /channels/{id}/messages` after a move: its reply and the next player's
/// prompt are posted once Discord answers again, each once (the same nonce on every try).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn six_503s_on_replies_lose_no_reply() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    play(&fake, &moderator(), SETUP).await;

    fake.fail_next(RouteKind::CreateMessage, 503, 6);
    let bid = play(&fake, &ann(), "**bid 7**").await;
    assert_eq!(fake.pending_faults(RouteKind::CreateMessage), 0);
    let replies = replies_to(&fake, bid);
    assert_eq!(replies.len(), 1);
    assert!(
        replies[0].content.contains("ann bids £7"),
        "{}",
        replies[0].content
    );
    let prompts = said(&fake, "<@2>").await;
    assert!(!prompts.is_empty());
    // Nothing doubled: every text the bot posted after the bid is there once.
    let after: Vec<String> = fake
        .bot_messages(CHANNEL)
        .into_iter()
        .filter(|m| m.id > bid)
        .map(|m| m.content)
        .collect();
    let mut unique = after.clone();
    unique.dedup();
    assert_eq!(after, unique, "a reply was posted twice");

    let next = play(&fake, &bob(), "**bid 8**").await;
    assert_eq!(replies_to(&fake, next).len(), 1);
    assert_eq!(log_len(&bot).await, 2);
    stop(bot).await;
}

/// Six failures on the reactions route: the ✅ still comes, once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_on_reactions_lose_no_check_mark() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    play(&fake, &moderator(), SETUP).await;

    fake.fail_next(RouteKind::CreateReaction, 503, 3);
    fake.fail_next(RouteKind::CreateReaction, 500, 3);
    let bid = play(&fake, &ann(), "**bid 7**").await;
    assert_eq!(fake.pending_faults(RouteKind::CreateReaction), 0);
    assert_eq!(fake.reactions(bid), ["✅"]);
    assert_eq!(replies_to(&fake, bid).len(), 1);
    let next = play(&fake, &bob(), "**bid 8**").await;
    assert_eq!(fake.reactions(next), ["✅"]);
    stop(bot).await;
}

/// A run of 429s with Discord's JSON body (and its `Retry-After` header) on the replies: the
/// bot waits (at least a second each time) and keeps trying, so the reply is posted once the
/// limit has passed; six of them in a row lost the reply before.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_run_of_json_429s_is_waited_out() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    play(&fake, &moderator(), SETUP).await;

    fake.fail_next_rate_limited(
        RouteKind::CreateMessage,
        Duration::from_millis(500),
        false,
        6,
    );
    let bid = play(&fake, &ann(), "**bid 7**").await;
    assert_eq!(fake.pending_faults(RouteKind::CreateMessage), 0);
    let replies = replies_to(&fake, bid);
    assert_eq!(replies.len(), 1);
    assert!(replies[0].content.contains("ann bids £7"));
    let posts = statuses(&fake, RouteKind::CreateMessage);
    assert_eq!(posts.iter().filter(|s| **s == 429).count(), 6, "{posts:?}");
    stop(bot).await;
}
