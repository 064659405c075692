//! Discord's outages, through the real serenity client against the fake Discord: history reads
//! that fail across a gateway drop, six 503s on the replies, failures on the reactions, a run
//! of JSON 429s, 429s that say their wait only in the body or only in the header, a global 429,
//! replies that hang. In every case nothing is lost and nothing doubled: every move is applied
//! once, in order, and gets its one ✅ and its replies (RELIABILITY.md, Discord's faults).

mod fake_table;

use std::path::Path;
use std::time::Duration;

use fakediscord::{
    within, FakeDiscord, FakeUser, RateLimitForm, RecordedMessage, RequestRecord, RouteKind,
};
use gaugebot::config::Config;
use gaugebot::discord::{self, BotHandle};
use tempfile::TempDir;

use fake_table::{ann, bob, cat, moderator};
const GUILD: u64 = 700;
const CHANNEL: u64 = 701;
/// A second channel, without a game.
const OTHER_CHANNEL: u64 = 702;
/// The bot's timeout for one attempt of a JSON request (`discord/rest.rs` `JSON_TIMEOUT`).
const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(5);
const MODERATOR_ROLE: u64 = 800;
/// Any wait for the bot through an outage (the backoff grows to 10 s between attempts).
const WAIT: Duration = Duration::from_secs(45);

const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

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
    nothing_doubled_after(&fake, bid);

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
/// bot waits what each says and tries again, so the reply is posted once the limit has
/// passed; six of them in a row lost the reply before.
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

/// Sets the game up and waits until what the setup leads to is done (its status message
/// posted and pinned, the last request it makes), so a fault injected next hits the next move.
async fn set_up(fake: &FakeDiscord) {
    play(fake, &moderator(), SETUP).await;
    fake.wait_for(WAIT, |f| {
        if f.pins(CHANNEL).is_empty() {
            Err("the status message pinned".to_string())
        } else {
            Ok(())
        }
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
}

/// The posts (`POST /channels/{id}/messages`) the fake received after the first `skip`, in
/// order.
fn posts_after(fake: &FakeDiscord, skip: usize) -> Vec<RequestRecord> {
    fake.requests()
        .into_iter()
        .filter(|r| r.route == Some(RouteKind::CreateMessage))
        .skip(skip)
        .collect()
}

/// Nothing doubled: every text the bot posted in the channel after message `id` is there once.
fn nothing_doubled_after(fake: &FakeDiscord, id: u64) {
    let after: Vec<String> = fake
        .bot_messages(CHANNEL)
        .into_iter()
        .filter(|m| m.id > id)
        .map(|m| m.content)
        .collect();
    let mut unique = after.clone();
    unique.dedup();
    assert_eq!(after, unique, "a reply was posted twice");
}

/// A reply route answers one 429 that says 2.5 s in the way `form` says: the reply is retried
/// exactly once, no earlier than `wait` after the 429 arrived, and posted once.
async fn one_429_is_waited_out_exactly(form: RateLimitForm, wait: Duration) {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    set_up(&fake).await;

    let before = posts_after(&fake, 0).len();
    fake.fail_next_rate_limited_as(
        RouteKind::CreateMessage,
        Duration::from_millis(2500),
        false,
        form,
        1,
    );
    let bid = play(&fake, &ann(), "**bid 7**").await;
    assert_eq!(replies_to(&fake, bid).len(), 1);
    let posts = posts_after(&fake, before);
    let statuses: Vec<u16> = posts.iter().map(|p| p.status).collect();
    assert_eq!(statuses[..2], [429, 200], "{statuses:?}");
    assert_eq!(statuses.iter().filter(|s| **s == 429).count(), 1);
    let waited = posts[1].at.duration_since(posts[0].at);
    assert!(
        waited >= wait,
        "retried {waited:?} after the 429, which said {wait:?}"
    );
    println!("{form:?}: the retry came {waited:?} after the 429 (it said {wait:?})");
    nothing_doubled_after(&fake, bid);
    let next = play(&fake, &bob(), "**bid 8**").await;
    assert_eq!(replies_to(&fake, next).len(), 1);
    stop(bot).await;
}

/// A 429 whose wait (2.5 s) is only in Discord's JSON body (no `Retry-After` header).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_saying_its_wait_in_the_body_is_retried_once_after_it() {
    one_429_is_waited_out_exactly(RateLimitForm::BodyOnly, Duration::from_millis(2500)).await;
}

/// A 429 whose wait is only in the `Retry-After` header (whole seconds: 2.5 s reads `3`), its
/// body not JSON, as a proxy answers.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_429_saying_its_wait_in_the_header_is_retried_once_after_it() {
    one_429_is_waited_out_exactly(RateLimitForm::HeaderOnly, Duration::from_secs(3)).await;
}

/// A global 429 (2.5 s) on one channel's reply holds back the bot's requests in another
/// channel (its reads of the channel too) until it has passed; both are posted once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_global_429_holds_every_channel() {
    let (fake, dir) = world().await;
    fake.add_channel(GUILD, OTHER_CHANNEL, "lobby");
    let bot = start(&fake, dir.path()).await;
    set_up(&fake).await;

    let before = posts_after(&fake, 0).len();
    fake.fail_next_rate_limited_as(
        RouteKind::CreateMessage,
        Duration::from_millis(2500),
        true,
        RateLimitForm::BodyOnly,
        1,
    );
    let bid = fake.post_user_message(CHANNEL, Some(GUILD), &ann(), "**bid 7**");
    let limited = fake
        .wait_for(WAIT, |f| {
            posts_after(f, before)
                .into_iter()
                .find(|p| p.status == 429)
                .ok_or_else(|| "the 429".to_string())
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // While the global limit holds, a command in the other channel: half a second after the
    // fake answered 429, so that the bot has read that answer (a request it sent before could
    // not know of the limit); without the hold its requests would come at once.
    tokio::time::sleep(Duration::from_millis(500)).await;
    let status = fake.post_user_message(OTHER_CHANNEL, Some(GUILD), &bob(), "!status");
    assert_eq!(reaction(&fake, bid).await, ["✅"]);
    fake.wait_for(WAIT, |f| {
        f.bot_messages(OTHER_CHANNEL)
            .into_iter()
            .find(|m| m.referenced_message == Some(status))
            .ok_or_else(|| "the answer in the other channel".to_string())
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));

    let hold = Duration::from_millis(2500);
    let other = format!("/channels/{OTHER_CHANNEL}");
    let in_other = |path: &str| path.ends_with(&other) || path.contains(&format!("{other}/"));
    let others: Vec<RequestRecord> = fake
        .requests()
        .into_iter()
        .filter(|r| in_other(&r.path) && r.at > limited.at)
        .collect();
    assert!(!others.is_empty());
    for request in &others {
        let waited = request.at.duration_since(limited.at);
        assert!(
            waited >= hold,
            "{} {} went {waited:?} after the global 429",
            request.method,
            request.path
        );
    }
    println!(
        "the other channel's requests ({:?}) came {:?} and later after the global 429",
        others
            .iter()
            .map(|r| format!("{} {}", r.method, r.path))
            .collect::<Vec<_>>(),
        others[0].at.duration_since(limited.at)
    );
    let posts = posts_after(&fake, before);
    assert_eq!(posts.iter().filter(|p| p.status == 429).count(), 1);
    assert_eq!(replies_to(&fake, bid).len(), 1);
    let answers: Vec<RecordedMessage> = fake
        .bot_messages(OTHER_CHANNEL)
        .into_iter()
        .filter(|m| m.referenced_message == Some(status))
        .collect();
    assert_eq!(answers.len(), 1, "answered once");
    nothing_doubled_after(&fake, bid);
    stop(bot).await;
}

/// A reply post that Discord applies but never answers, then one it neither applies nor
/// answers: each is tried again after the attempt's timeout (not the 30 s request timeout)
/// with the same nonce, so the applied one comes back as the same message and the other is
/// posted then; the channel's next command is answered, and its ✅, applied but never
/// answered, is put again and there once; nothing doubled.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reply_that_hangs_is_retried_after_its_timeout_and_posted_once() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    set_up(&fake).await;

    for (applied, user, text) in [(true, ann(), "**bid 7**"), (false, bob(), "**bid 8**")] {
        let before = posts_after(&fake, 0).len();
        let messages_before = fake.bot_messages(CHANNEL).len();
        fake.hang_next(RouteKind::CreateMessage, applied, 1);
        let id = play(&fake, &user, text).await;
        let replies = replies_to(&fake, id);
        assert_eq!(replies.len(), 1, "{text}: one reply");
        let posts = posts_after(&fake, before);
        assert!(!posts[0].answered, "the first post hung");
        assert!(posts[1..].iter().all(|p| p.answered && p.status == 200));
        let waited = posts[1].at.duration_since(posts[0].at);
        assert!(
            waited >= ATTEMPT_TIMEOUT,
            "retried {waited:?} after the post that hung"
        );
        println!("{text} (applied: {applied}): retried {waited:?} after the post that hung");
        // One request more than messages posted: applied, the hung post made its message and
        // its retry was answered with that message (same nonce); not applied, it made none.
        let posted = fake.bot_messages(CHANNEL).len() - messages_before;
        assert_eq!(posts.len(), posted + 1, "{posts:?}");
        nothing_doubled_after(&fake, id);
    }
    // The ✅ of the next move is applied but never answered: tried again after the timeout
    // (a reaction is the same however often it is put), there once.
    let before = fake.requests().len();
    fake.hang_next(RouteKind::CreateReaction, true, 1);
    let next = play(&fake, &cat(), "**pass**").await;
    assert_eq!(fake.reactions(next), ["✅"]);
    assert_eq!(replies_to(&fake, next).len(), 1);
    // The hung PUT already shows the ✅: wait for its retry.
    let puts = fake
        .wait_for(WAIT, |f| {
            let puts: Vec<RequestRecord> = f.requests()[before..]
                .iter()
                .filter(|r| r.route == Some(RouteKind::CreateReaction))
                .filter(|r| r.path.contains(&format!("/messages/{next}/")))
                .cloned()
                .collect();
            if puts.len() >= 2 {
                Ok(puts)
            } else {
                Err(format!("the ✅ put again: {puts:?}"))
            }
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(puts.len(), 2, "{puts:?}");
    assert_eq!(fake.reactions(next), ["✅"]);
    assert!(!puts[0].answered && puts[1].answered);
    assert!(puts[1].at.duration_since(puts[0].at) >= ATTEMPT_TIMEOUT);
    assert_eq!(log_len(&bot).await, 3);
    stop(bot).await;
}

/// The moves of the hand-computed game (bot/tests/games/complete_manual.txt) after its setup.
fn transcript_moves() -> Vec<(FakeUser, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/complete_manual.txt");
    std::fs::read_to_string(path)
        .expect("the transcript")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(':'))
        .filter(|(_, text)| !text.trim().starts_with("!setup"))
        .map(|(who, text)| {
            let user = match who.trim() {
                "ann" => ann(),
                "bob" => bob(),
                "cat" => cat(),
                _ => moderator(),
            };
            (user, text.trim().to_string())
        })
        .collect()
}

fn env_number(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

/// A small seeded random source (xorshift), so a campaign can be replayed.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: u64) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0 % n
    }
}

/// What one whole game left in the channel: the bot's messages' texts, in order.
fn texts(fake: &FakeDiscord) -> Vec<String> {
    fake.bot_messages(CHANNEL)
        .into_iter()
        .map(|m| m.content)
        .collect()
}

/// The fault campaign: the hand-computed game played through the fake Discord while faults are
/// injected before a share of its moves: 503/502 runs on the replies, 500 runs on the
/// reactions, JSON 429 runs, and gateway drops with the move posted while the bot is away and
/// the history failing meanwhile. Checked against the same game played without faults: the same
/// messages in the same order (nothing lost, nothing doubled), every move stored once in
/// order with exactly one ✅. CI: one game, a third of the moves faulted, runs of up to 4, one
/// gateway drop; by hand: `GAUGEBOT_DISCORD_FAULT_GAMES`, `…_RATE` (percent), `…_RUN`,
/// `…_DROPS` (per game), `…_SEED`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_whole_game_under_discord_faults_loses_nothing() {
    let games = env_number("GAUGEBOT_DISCORD_FAULT_GAMES", 1);
    let rate = env_number("GAUGEBOT_DISCORD_FAULT_RATE", 33);
    let run = env_number("GAUGEBOT_DISCORD_FAULT_RUN", 4).max(1);
    let drops = env_number("GAUGEBOT_DISCORD_FAULT_DROPS", 1);
    let mut rng = Rng(env_number("GAUGEBOT_DISCORD_FAULT_SEED", 1)
        .max(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15));
    let moves = transcript_moves();

    // The oracle: the game without faults.
    let expected = {
        let (fake, dir) = world().await;
        let bot = start(&fake, dir.path()).await;
        play(&fake, &moderator(), SETUP).await;
        for (user, text) in &moves {
            play(&fake, user, text).await;
        }
        let _ = said(&fake, "cat wins with £59").await;
        stop(bot).await;
        texts(&fake)
    };

    let (mut injected, mut acknowledged, mut recoveries) = (0u64, 0u64, Vec::new());
    let mut kinds = std::collections::BTreeMap::<&str, u64>::new();
    for game in 0..games {
        let (fake, dir) = world().await;
        fake.set_heartbeat_interval(Duration::from_millis(250));
        let bot = start(&fake, dir.path()).await;
        play(&fake, &moderator(), SETUP).await;
        let mut sent = Vec::new();
        let mut drops_left = drops;
        // The moves where the gateway drops, spread over the game.
        let drop_at: Vec<usize> = (0..drops)
            .map(|i| ((i + 1) as usize * moves.len()) / (drops as usize + 1))
            .collect();
        for (index, (user, text)) in moves.iter().enumerate() {
            let faulted = rng.below(100) < rate;
            let n = 1 + rng.below(run) as u32;
            let posted = std::time::Instant::now();
            let id = if drops_left > 0 && drop_at.contains(&index) {
                drops_left -= 1;
                *kinds.entry("gateway drop").or_default() += 1;
                *kinds.entry("503 on history").or_default() += u64::from(n);
                injected += 1 + u64::from(n);
                fake.fail_next(RouteKind::GetMessages, 503, n);
                fake.drop_heartbeat_acks(true);
                fake.wait_for_sessions(0, WAIT)
                    .await
                    .expect("serenity drops the session");
                fake.drop_heartbeat_acks(false);
                fake.post_user_message(CHANNEL, Some(GUILD), user, text)
            } else {
                if faulted {
                    injected += u64::from(n);
                    match rng.below(4) {
                        0 => {
                            *kinds.entry("503 on replies").or_default() += u64::from(n);
                            fake.fail_next(RouteKind::CreateMessage, 503, n);
                        }
                        1 => {
                            *kinds.entry("502 on replies").or_default() += u64::from(n);
                            fake.fail_next(RouteKind::CreateMessage, 502, n);
                        }
                        2 => {
                            *kinds.entry("500 on reactions").or_default() += u64::from(n);
                            fake.fail_next(RouteKind::CreateReaction, 500, n);
                        }
                        _ => {
                            *kinds.entry("JSON 429 on replies").or_default() += u64::from(n);
                            fake.fail_next_rate_limited(
                                RouteKind::CreateMessage,
                                Duration::from_millis(200),
                                false,
                                n,
                            );
                        }
                    }
                }
                fake.post_user_message(CHANNEL, Some(GUILD), user, text)
            };
            assert_eq!(reaction(&fake, id).await, ["✅"], "game {game}: {text}");
            if faulted || drop_at.contains(&index) {
                recoveries.push(posted.elapsed());
            }
            sent.push(id.to_string());
            acknowledged += 1;
        }
        let _ = said(&fake, "cat wins with £59").await;
        // Whatever is still being retried (or edited: the pinned status) lands: the channel
        // becomes the fault-free game's, message for message.
        let settled = fake
            .wait_for(WAIT, |f| {
                let now = texts(f);
                if now == expected {
                    Ok(now)
                } else {
                    Err(String::new())
                }
            })
            .await
            .unwrap_or_else(|_| texts(&fake));
        let settled: Vec<String> = settled.iter().map(|t| no_heads(t)).collect();
        let expected: Vec<String> = expected.iter().map(|t| no_heads(t)).collect();
        if settled != expected {
            let at = settled
                .iter()
                .zip(&expected)
                .position(|(a, b)| a != b)
                .unwrap_or(settled.len().min(expected.len()));
            let short = |t: Option<&String>| t.map(|t| t.chars().take(300).collect::<String>());
            panic!(
                "game {game}: the channel differs from the game without faults at message {at} \
                 ({} and {} messages):\nfaults:    {:?}\nno faults: {:?}",
                settled.len(),
                expected.len(),
                short(settled.get(at)),
                short(expected.get(at))
            );
        }
        for id in &sent {
            assert_eq!(fake.reactions(id.parse().expect("an id")), ["✅"]);
        }
        let store = bot.tables().store();
        let row = store
            .active_game(&CHANNEL.to_string())
            .await
            .expect("read")
            .expect("a game");
        let mut commands: Vec<String> = Vec::new();
        for entry in store.log(&row.id).await.expect("log") {
            if commands.last() != Some(&entry.message_id) {
                commands.push(entry.message_id);
            }
        }
        assert_eq!(commands, sent, "game {game}: every move once, in order");
        stop(bot).await;
    }
    recoveries.sort();
    let median = recoveries
        .get(recoveries.len() / 2)
        .copied()
        .unwrap_or_default();
    let max = recoveries.last().copied().unwrap_or_default();
    eprintln!(
        "{games} games, {injected} faults injected ({kinds:?}); {acknowledged} commands \
         acknowledged once each, 0 duplicates, 0 lost; faulted moves answered in a median \
         {:.2} s, at most {:.2} s",
        median.as_secs_f64(),
        max.as_secs_f64()
    );
}

/// A text without the record's head lines (`-# Record …`): the head hashes each message's id
/// and time, which differ between two runs of the same game.
fn no_heads(text: &str) -> String {
    text.lines()
        .filter(|l| !l.starts_with("-# Record"))
        .collect::<Vec<_>>()
        .join("\n")
}
