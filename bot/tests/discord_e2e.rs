//! End to end: the real, unmodified serenity client of `gaugebot::discord` against the fake
//! Discord of the `fakediscord` crate on 127.0.0.1, with a temporary SQLite database.

mod fake_table;

use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use fakediscord::{permissions, within, FakeDiscord, FakeUser, RecordedMessage, RouteKind};
use gaugebot::config::Config;
use gaugebot::discord::{self, BotHandle};
use tempfile::TempDir;

use fake_table::{ann, bob, cat, moderator};
const GUILD: u64 = 500;
const CHANNEL: u64 = 501;
const OTHER_CHANNEL: u64 = 502;
const DM_CHANNEL: u64 = 9_001;
const MODERATOR_ROLE: u64 = 600;
const HELPER_ROLE: u64 = 601;
/// Any single wait for the bot.
const WAIT: Duration = Duration::from_secs(15);
/// serenity waits about 5 s before it boots a dropped shard again.
const RECONNECT: Duration = Duration::from_secs(25);

const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

/// Has the role named "Moderator".
/// Has a role with Manage Messages, named nothing special.
fn helper() -> FakeUser {
    FakeUser::new(101, "hal")
}
/// In the server, not in any game.
fn outsider() -> FakeUser {
    FakeUser::new(200, "zed")
}

/// Everything the bot logs (all crates at debug level unless `RUST_LOG` says otherwise), kept to
/// check that the token never appears; echoed to stderr when `RUST_LOG` is set.
static LOGS: Mutex<Vec<u8>> = Mutex::new(Vec::new());

struct Capture;

impl std::io::Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        LOGS.lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        if std::env::var_os("RUST_LOG").is_some() {
            std::io::stderr().write_all(buf)?;
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

fn init_logs() {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env().unwrap_or_else(|_| {
        // tungstenite traces whole frames, the fake's received IDENTIFY included: that is the
        // fake's side, not the bot's.
        tracing_subscriber::EnvFilter::new("debug,tungstenite=info,tokio_tungstenite=info")
    });
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(false)
        .with_writer(|| Capture)
        .try_init();
}

/// The bot logged something, and never its token.
fn assert_token_never_logged(token: &str) {
    let logs = LOGS.lock().unwrap_or_else(|e| e.into_inner());
    let text = String::from_utf8_lossy(&logs);
    assert!(text.contains("READY"), "the logs were captured");
    let secret = token.rsplit('.').next().unwrap_or(token);
    assert!(!text.contains(secret), "the token was logged");
}

/// A fake server with two game channels, a moderator role and a Manage Messages role.
async fn world() -> (FakeDiscord, TempDir) {
    init_logs();
    let fake = FakeDiscord::start().await;
    fake.add_guild(GUILD, "Irish Gauge");
    fake.add_channel(GUILD, CHANNEL, "game-1");
    fake.add_channel(GUILD, OTHER_CHANNEL, "game-2");
    fake.add_role(GUILD, MODERATOR_ROLE, "Moderator", 0);
    fake.add_role(GUILD, HELPER_ROLE, "Helpers", permissions::MANAGE_MESSAGES);
    fake.add_member(GUILD, &moderator(), &[MODERATOR_ROLE]);
    fake.add_member(GUILD, &helper(), &[HELPER_ROLE]);
    for user in [ann(), bob(), cat(), outsider()] {
        fake.add_member(GUILD, &user, &[]);
    }
    let dir = tempfile::tempdir().expect("temp dir");
    (fake, dir)
}

fn config(fake: &FakeDiscord, dir: &Path) -> Config {
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.database = dir.join("gaugebot.db");
    config
}

async fn start(fake: &FakeDiscord, dir: &Path) -> BotHandle {
    within(
        Duration::from_secs(30),
        "the bot starts",
        discord::start(config(fake, dir), fake.token().to_string()),
    )
    .await
    .expect("the bot starts")
}

async fn stop(bot: BotHandle) {
    within(Duration::from_secs(20), "the bot stops", bot.shutdown()).await;
}

/// What the bot did about one command.
struct Outcome {
    id: u64,
    reactions: Vec<String>,
    replies: Vec<RecordedMessage>,
}

impl Outcome {
    fn text(&self) -> String {
        self.replies
            .iter()
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn accepted(&self) -> bool {
        self.reactions == ["✅"]
    }

    fn refused(&self) -> bool {
        self.reactions == ["❌"]
    }
}

/// The bot messages posted in `channel` after message `id`.
fn replies_after(fake: &FakeDiscord, channel: u64, id: u64) -> Vec<RecordedMessage> {
    fake.bot_messages(channel)
        .into_iter()
        .filter(|m| m.id > id)
        .collect()
}

/// Waits for the reaction to message `id` (the bot reacts after posting all its replies) and
/// returns the reaction and the replies.
async fn reacted(fake: &FakeDiscord, channel: u64, id: u64) -> Outcome {
    let reactions = fake
        .wait_for_reactions(id, 1, WAIT)
        .await
        .unwrap_or_else(|e| {
            panic!(
                "no reaction to {:?}: {e}",
                fake.message(id).map(|m| m.content)
            )
        });
    Outcome {
        id,
        reactions,
        replies: replies_after(fake, channel, id),
    }
}

/// Posts a command that gets a reaction and waits for the bot's whole response.
async fn command(fake: &FakeDiscord, channel: u64, user: &FakeUser, text: &str) -> Outcome {
    let id = fake.post_user_message(channel, Some(GUILD), user, text);
    reacted(fake, channel, id).await
}

/// Posts a question (no reaction expected) and waits for the answer that replies to it.
async fn ask(fake: &FakeDiscord, channel: u64, user: &FakeUser, text: &str) -> Outcome {
    let id = fake.post_user_message(channel, Some(GUILD), user, text);
    fake.wait_for(WAIT, |f| {
        if f.bot_messages(channel)
            .iter()
            .any(|m| m.referenced_message == Some(id))
        {
            Ok(())
        } else {
            Err(format!("an answer to {text}"))
        }
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    Outcome {
        id,
        reactions: fake.reactions(id),
        replies: replies_after(fake, channel, id),
    }
}

/// `name: text` lines of a transcript, without comments and blank lines.
fn transcript(path: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(path).expect("read the transcript");
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(':'))
        .map(|(name, text)| (name.trim().to_string(), text.trim().to_string()))
        .collect()
}

fn user_named(name: &str) -> FakeUser {
    match name {
        "ann" => ann(),
        "bob" => bob(),
        "cat" => cat(),
        "mod" => moderator(),
        other => panic!("unknown player {other} in the transcript"),
    }
}

/// The game's log length, read from the bot's own database.
async fn log_len(bot: &BotHandle, channel: u64) -> usize {
    let store = bot.tables().store();
    let game = store
        .active_game(&channel.to_string())
        .await
        .expect("read the game")
        .expect("a game");
    store.log(&game.id).await.expect("read the log").len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_complete_game_is_played_over_the_gateway() {
    let started = Instant::now();
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    let intents = fake.last_intents().expect("identified");
    for bit in [1 << 9, 1 << 12, 1 << 15] {
        assert_ne!(intents & bit, 0, "intent {bit:#x} missing");
    }

    let setup = command(&fake, CHANNEL, &moderator(), SETUP).await;
    assert!(setup.accepted(), "{}", setup.text());
    assert!(setup
        .text()
        .contains("Player order (3p3): {1, 2, 3} — ann, bob, cat"));
    assert!(setup.text().contains("**Player Status**"));
    assert_eq!(setup.replies[0].referenced_message, Some(setup.id));
    // The first to act is pinged for real.
    assert!(setup.text().contains("<@1>"));
    assert!(setup.replies.iter().any(|m| m.mentions.contains(&1)));
    let allowed = setup.replies[0]
        .allowed_mentions
        .clone()
        .expect("allowed_mentions sent");
    // Exactly the player called on may be pinged (issue 31: a user id quoted in a player's
    // text never pings); roles and @everyone never.
    assert_eq!(allowed["users"], serde_json::json!(["1"]), "{allowed}");
    assert!(
        allowed["parse"].as_array().is_some_and(|p| p.is_empty()),
        "no blanket pings: {allowed}"
    );

    // Out of turn: refused with the reason, nothing changes.
    let early = command(&fake, CHANNEL, &bob(), "**bid 7**").await;
    assert!(early.refused(), "{}", early.text());
    assert!(
        early.text().contains("❌ bob: **bid 7**"),
        "{}",
        early.text()
    );
    // A user id quoted back from a player's text is words, not a ping (issue 31, finding 6):
    // the answer may ping nobody.
    let quoted = ask(&fake, CHANNEL, &bob(), "!help <@123456789012345678>").await;
    assert!(
        quoted.text().contains("<@123456789012345678>"),
        "{}",
        quoted.text()
    );
    for reply in &quoted.replies {
        let allowed = reply
            .allowed_mentions
            .clone()
            .expect("allowed_mentions sent");
        assert_eq!(allowed["users"], serde_json::json!([]), "{allowed}");
        assert!(
            allowed["parse"].as_array().is_some_and(|p| p.is_empty()),
            "{allowed}"
        );
    }

    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/complete_manual.txt");
    let moves: Vec<_> = transcript(&path)
        .into_iter()
        .filter(|(_, text)| !text.starts_with("!setup"))
        .collect();
    assert!(
        moves.len() >= 38,
        "the transcript has {} moves",
        moves.len()
    );
    let mut turn_reports = 0;
    let mut map_uploads = 0;
    let mut last = None;
    for (name, text) in &moves {
        let outcome = command(&fake, CHANNEL, &user_named(name), text).await;
        assert!(
            outcome.accepted(),
            "{name}: {text} was not accepted: {:?}\n{}",
            outcome.reactions,
            outcome.text()
        );
        let all = outcome.text();
        if all.contains("it is your turn") {
            // A new turn: the whole report comes with it, and the player to act is pinged.
            assert!(all.contains("**Player Status**"), "{name}: {text}\n{all}");
            assert!(all.contains("**Railway Status**"), "{name}: {text}\n{all}");
            turn_reports += 1;
        }
        for reply in &outcome.replies {
            for attachment in &reply.attachments {
                assert!(attachment.filename.ends_with(".png"));
                assert!(attachment.data.starts_with(b"\x89PNG"));
                map_uploads += 1;
            }
        }
        if name == "ann" && text == "**build CBSC O3 N5**" {
            // Turn 2 is bob's: a real mention of user 2.
            assert!(all.contains("<@2>, it is your turn"), "{all}");
            assert!(outcome.replies.iter().any(|m| m.mentions.contains(&2)));
        }
        last = Some(outcome);
    }
    assert!(turn_reports >= 11, "{turn_reports} turn reports");
    assert!(map_uploads >= 3, "{map_uploads} maps uploaded");
    let last = last.expect("moves were played");
    let scores = last.text();
    assert!(scores.contains("cat wins with £59"), "{scores}");
    assert!(scores.contains("cat £59"), "{scores}");
    assert!(scores.contains("bob £35"), "{scores}");
    assert!(scores.contains("ann £27"), "{scores}");

    // After the end: refused.
    let late = command(&fake, CHANNEL, &ann(), "**pass**").await;
    assert!(
        late.refused() && late.text().contains("the game is over"),
        "{}",
        late.text()
    );
    assert!(
        fake.unhandled_requests().is_empty(),
        "{:?}",
        fake.unhandled_requests()
    );
    stop(bot).await;
    eprintln!("complete game: {:?}", started.elapsed());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_channels_play_two_games_at_once() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    for channel in [CHANNEL, OTHER_CHANNEL] {
        assert!(command(&fake, channel, &moderator(), SETUP)
            .await
            .accepted());
    }
    // Posted interleaved and all at once: each channel must take its own in order.
    let first: [(&FakeUser, &str); 4] = [
        (&ann(), "**bid 7**"),
        (&bob(), "**pass**"),
        (&cat(), "**pass**"),
        (&ann(), "**pass**"),
    ];
    let second: [(&FakeUser, &str); 4] = [
        (&ann(), "**bid 10**"),
        (&bob(), "**bid 11**"),
        (&cat(), "**pass**"),
        (&ann(), "**pass**"),
    ];
    let mut ids = Vec::new();
    for i in 0..4 {
        let a = fake.post_user_message(CHANNEL, Some(GUILD), first[i].0, first[i].1);
        let b = fake.post_user_message(OTHER_CHANNEL, Some(GUILD), second[i].0, second[i].1);
        ids.push((a, b));
    }
    for (a, b) in &ids {
        let one = reacted(&fake, CHANNEL, *a).await;
        let two = reacted(&fake, OTHER_CHANNEL, *b).await;
        assert!(
            one.accepted() && two.accepted(),
            "{}\n{}",
            one.text(),
            two.text()
        );
    }
    let one = ask(&fake, CHANNEL, &ann(), "!status").await.text();
    let two = ask(&fake, OTHER_CHANNEL, &ann(), "!status").await.text();
    assert!(one.contains("ann: £13, CBSC £7"), "{one}");
    assert!(one.contains("bob: £20, no shares"), "{one}");
    assert!(two.contains("bob: £9, CBSC £7"), "{two}");
    assert!(two.contains("ann: £20, no shares"), "{two}");
    // Each reply went to its own channel, as a reply to a message of that channel.
    for channel in [CHANNEL, OTHER_CHANNEL] {
        for reply in fake.bot_messages(channel) {
            if let Some(target) = reply.referenced_message {
                assert_eq!(fake.message(target).map(|m| m.channel_id), Some(channel));
            }
        }
    }
    stop(bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_strangers_are_refused_what_they_may_not_do() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;

    let setup = command(&fake, CHANNEL, &ann(), SETUP).await;
    assert!(setup.refused(), "{}", setup.text());
    assert!(
        setup.text().contains("only a moderator may `!setup`"),
        "{}",
        setup.text()
    );
    // Manage Messages in the channel makes a moderator too.
    let setup = command(&fake, CHANNEL, &helper(), SETUP).await;
    assert!(setup.accepted(), "{}", setup.text());

    let undo = command(&fake, CHANNEL, &bob(), "!undo").await;
    assert!(
        undo.refused() && undo.text().contains("only a moderator may `!undo`"),
        "{}",
        undo.text()
    );
    let out_of_turn = command(&fake, CHANNEL, &bob(), "**bid 8**").await;
    assert!(out_of_turn.refused(), "{}", out_of_turn.text());
    assert!(
        out_of_turn.text().contains("❌ bob: **bid 8**"),
        "{}",
        out_of_turn.text()
    );
    let stranger = command(&fake, CHANNEL, &outsider(), "**bid 9**").await;
    assert!(stranger.refused(), "{}", stranger.text());
    assert!(
        stranger.text().contains("not seated"),
        "{}",
        stranger.text()
    );
    assert_eq!(stranger.replies[0].referenced_message, Some(stranger.id));

    // The refusals changed nothing: ann is still to open the bidding, and a moderator may undo
    // nothing yet.
    let bid = command(&fake, CHANNEL, &ann(), "**bid 7**").await;
    assert!(bid.accepted(), "{}", bid.text());
    let undo = command(&fake, CHANNEL, &moderator(), "!undo").await;
    assert!(undo.accepted(), "{}", undo.text());
    assert!(undo.text().contains("Undone"), "{}", undo.text());

    // In a DM nobody is a moderator, not even the server's moderators.
    let id = fake.post_user_message(DM_CHANNEL, None, &moderator(), SETUP);
    let dm = reacted(&fake, DM_CHANNEL, id).await;
    assert!(
        dm.refused() && dm.text().contains("only a moderator"),
        "{}",
        dm.text()
    );

    // Chat gets nothing.
    let chat = fake.post_user_message(CHANNEL, Some(GUILD), &bob(), "good luck all");
    let probe = ask(&fake, CHANNEL, &bob(), "!status").await;
    assert!(fake.reactions(chat).is_empty());
    assert!(probe
        .replies
        .iter()
        .all(|m| m.referenced_message != Some(chat)));
    stop(bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn commands_posted_while_the_bot_is_down_are_applied_in_order_on_restart() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    assert!(command(&fake, CHANNEL, &moderator(), SETUP)
        .await
        .accepted());
    assert!(command(&fake, CHANNEL, &ann(), "**bid 7**")
        .await
        .accepted());
    let before = log_len(&bot, CHANNEL).await;
    stop(bot).await;
    fake.wait_for_sessions(0, WAIT).await.expect("disconnected");
    let bot_messages_before = fake.bot_messages(CHANNEL).len();

    // While it is down: two moves, chat, a refused move, more chat than one page of history
    // holds, and the move that ends the auction.
    let mut missed = vec![
        (bob(), "**bid 8**".to_string()),
        (cat(), "nice bid".to_string()),
        (ann(), "**bid 8**".to_string()),
        (cat(), "**pass**".to_string()),
    ];
    for i in 0..110 {
        missed.push((cat(), format!("chat {i}")));
    }
    missed.push((ann(), "**pass**".to_string()));
    let ids: Vec<u64> = missed
        .iter()
        .map(|(user, text)| fake.post_user_message(CHANNEL, Some(GUILD), user, text))
        .collect();
    for id in &ids {
        assert_eq!(fake.message(*id).and_then(|m| m.dispatched_at), None);
    }
    let last = ids[ids.len() - 1];

    // Restarted from the same database. A live move arrives right after READY, while the
    // catch-up is (most likely) still reading: it is only legal after the missed ones.
    let live = async {
        fake.wait_for(WAIT, |f| {
            if f.identify_count() >= 2 && f.connected_sessions() == 1 {
                Ok(())
            } else {
                Err("the second READY".to_string())
            }
        })
        .await
        .expect("the bot reconnects");
        let during_catch_up = fake.reactions(last).is_empty();
        let id = fake.post_user_message(CHANNEL, Some(GUILD), &bob(), "**pass**");
        eprintln!("live move posted during the catch-up: {during_catch_up}");
        id
    };
    let (bot, live) = tokio::join!(start(&fake, dir.path()), live);
    // Everything missed was applied before start returned.
    let reactions: Vec<Vec<String>> = [ids[0], ids[1], ids[2], ids[3], last]
        .iter()
        .map(|id| fake.reactions(*id))
        .collect();
    assert_eq!(
        reactions,
        vec![
            vec!["✅".to_string()],
            vec![],
            vec!["❌".to_string()],
            vec!["✅".to_string()],
            vec!["✅".to_string()],
        ]
    );
    let live = reacted(&fake, CHANNEL, live).await;
    assert!(live.accepted(), "{}", live.text());
    // Replies in the order of the commands, one first reply each, the live one last.
    let replies: Vec<u64> = fake
        .bot_messages(CHANNEL)
        .into_iter()
        .skip(bot_messages_before)
        .filter_map(|m| m.referenced_message)
        .collect();
    assert_eq!(replies, vec![ids[0], ids[2], ids[3], last, live.id]);
    let texts = replies_after(&fake, CHANNEL, last);
    assert!(
        texts
            .iter()
            .any(|m| m.content.contains("bob wins the CBSC £7 share for £8")),
        "{:?}",
        texts.iter().map(|m| &m.content).collect::<Vec<_>>()
    );
    assert_eq!(log_len(&bot, CHANNEL).await, before + 4);
    let history_reads = fake
        .requests()
        .iter()
        .filter(|r| r.route == Some(RouteKind::GetMessages))
        .count();
    assert!(history_reads >= 2, "{history_reads} history pages read");

    // A second restart processes nothing twice.
    let count = fake.bot_messages(CHANNEL).len();
    stop(bot).await;
    let bot = start(&fake, dir.path()).await;
    let status = ask(&fake, CHANNEL, &cat(), "!status").await;
    assert_eq!(
        fake.bot_messages(CHANNEL).len(),
        count + status.replies.len()
    );
    assert_eq!(log_len(&bot, CHANNEL).await, before + 4);
    for id in ids {
        assert!(fake.reactions(id).len() <= 1);
    }
    stop(bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missed_heartbeat_ack_reconnects_and_play_goes_on() {
    let (fake, dir) = world().await;
    fake.set_heartbeat_interval(Duration::from_millis(250));
    let bot = start(&fake, dir.path()).await;
    assert!(command(&fake, CHANNEL, &moderator(), SETUP)
        .await
        .accepted());
    assert!(command(&fake, CHANNEL, &ann(), "**bid 7**")
        .await
        .accepted());
    assert_eq!(fake.identify_count(), 1);

    fake.drop_heartbeat_acks(true);
    fake.wait_for_sessions(0, RECONNECT)
        .await
        .expect("serenity drops the session");
    fake.drop_heartbeat_acks(false);
    // Posted while the bot is disconnected: read back from the history after READY.
    let missed = fake.post_user_message(CHANNEL, Some(GUILD), &bob(), "**pass**");
    fake.wait_for_identify_count(2, RECONNECT)
        .await
        .expect("serenity identifies again");
    let outcome = reacted(&fake, CHANNEL, missed).await;
    assert!(outcome.accepted(), "{}", outcome.text());

    let live = command(&fake, CHANNEL, &cat(), "**pass**").await;
    assert!(live.accepted(), "{}", live.text());
    assert!(
        live.text().contains("ann wins the CBSC £7 share for £7"),
        "{}",
        live.text()
    );
    assert_eq!(fake.reactions(missed), ["✅"]);
    stop(bot).await;
    fake.wait_for_sessions(0, WAIT)
        .await
        .expect("stopped after a reconnect");
    assert_token_never_logged(fake.token());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn editing_or_deleting_an_accepted_command_changes_nothing() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    assert!(command(&fake, CHANNEL, &moderator(), SETUP)
        .await
        .accepted());
    let bid = command(&fake, CHANNEL, &ann(), "**bid 7**").await;
    assert!(bid.accepted());

    assert!(fake.edit_user_message(bid.id, "**bid 12**"));
    let notice = fake
        .wait_for(WAIT, |f| {
            replies_after(f, CHANNEL, bid.id)
                .into_iter()
                .find(|m| m.content.starts_with("Edits don't change moves"))
                .ok_or_else(|| "the edit notice".to_string())
        })
        .await
        .expect("the bot comments on the edit");
    assert_eq!(
        notice.content,
        "Edits don't change moves: **bid 7** stands; the log keeps the original text."
    );
    assert_eq!(notice.referenced_message, Some(bid.id));
    assert!(notice.mentions.is_empty());

    // The game saw £7, not £12: bob may bid 8.
    let next = command(&fake, CHANNEL, &bob(), "**bid 8**").await;
    assert!(next.accepted(), "{}", next.text());
    assert!(fake.delete_user_message(next.id));
    let notice = fake
        .wait_for(WAIT, |f| {
            f.bot_messages(CHANNEL)
                .into_iter()
                .find(|m| {
                    m.content
                        .starts_with("Deleting a message doesn't change moves")
                })
                .ok_or_else(|| "the delete notice".to_string())
        })
        .await
        .expect("the bot comments on the deletion");
    assert!(
        notice.content.contains("**bid 8** stands"),
        "{}",
        notice.content
    );

    // Edited chat is not commented on; nor is the same edit twice.
    let chat = fake.post_user_message(CHANNEL, Some(GUILD), &cat(), "hmm");
    fake.edit_user_message(chat, "hmm, **bid 30**");
    fake.edit_user_message(bid.id, "**bid 13**");
    let status = ask(&fake, CHANNEL, &cat(), "!status").await;
    assert!(
        status.text().contains("high bid £8 by bob"),
        "{}",
        status.text()
    );
    let notices = fake
        .bot_messages(CHANNEL)
        .into_iter()
        .filter(|m| m.content.contains("change moves"))
        .count();
    assert_eq!(notices, 2);
    assert!(fake.reactions(chat).is_empty());
    assert_eq!(log_len(&bot, CHANNEL).await, 2);
    stop(bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failed_posts_are_retried_and_the_action_is_not_repeated() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    assert!(command(&fake, CHANNEL, &moderator(), SETUP)
        .await
        .accepted());

    fake.fail_next(RouteKind::CreateMessage, 500, 1);
    fake.fail_next(RouteKind::CreateReaction, 429, 1);
    let bid = command(&fake, CHANNEL, &ann(), "**bid 7**").await;
    assert!(bid.accepted(), "{}", bid.text());
    let first_replies: Vec<_> = fake
        .bot_messages(CHANNEL)
        .into_iter()
        .filter(|m| m.referenced_message == Some(bid.id))
        .collect();
    assert_eq!(first_replies.len(), 1);
    assert!(
        first_replies[0].content.contains("ann bids £7"),
        "{}",
        first_replies[0].content
    );
    let posts: Vec<u16> = fake
        .requests()
        .into_iter()
        .filter(|r| r.route == Some(RouteKind::CreateMessage))
        .map(|r| r.status)
        .collect();
    assert!(posts.contains(&500), "{posts:?}");
    assert_eq!(fake.pending_faults(RouteKind::CreateMessage), 0);
    assert_eq!(fake.pending_faults(RouteKind::CreateReaction), 0);
    assert_eq!(log_len(&bot, CHANNEL).await, 1);

    // Five failures in a row (an outage): the reply is posted when Discord answers again,
    // once; the action stands.
    fake.fail_next(RouteKind::CreateMessage, 503, 5);
    let id = fake.post_user_message(CHANNEL, Some(GUILD), &bob(), "**bid 8**");
    let reactions = fake
        .wait_for_reactions(id, 1, WAIT)
        .await
        .expect("a reaction");
    assert_eq!(reactions, ["✅"]);
    assert_eq!(fake.pending_faults(RouteKind::CreateMessage), 0);
    assert_eq!(
        fake.bot_messages(CHANNEL)
            .iter()
            .filter(|m| m.referenced_message == Some(id))
            .count(),
        1
    );
    assert_eq!(log_len(&bot, CHANNEL).await, 2);
    let status = ask(&fake, CHANNEL, &cat(), "!status").await;
    assert!(
        status.text().contains("high bid £8 by bob"),
        "{}",
        status.text()
    );
    stop(bot).await;
}

/// The bot's messages in `channel` whose text contains `needle`, waited for.
async fn bot_said(fake: &FakeDiscord, channel: u64, needle: &str) -> Vec<RecordedMessage> {
    fake.wait_for(WAIT, |f| {
        let found: Vec<RecordedMessage> = f
            .bot_messages(channel)
            .into_iter()
            .filter(|m| m.content.contains(needle))
            .collect();
        if found.is_empty() {
            Err(format!("the bot to say {needle:?} in {channel}"))
        } else {
            Ok(found)
        }
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reminder_pings_the_player_and_secret_presets_resolve_an_auction() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    assert!(command(&fake, CHANNEL, &moderator(), SETUP)
        .await
        .accepted());
    let clock = command(
        &fake,
        CHANNEL,
        &moderator(),
        "!clock turn:48h auction:24h remind:50%",
    )
    .await;
    assert!(clock.accepted(), "{}", clock.text());

    // The reminder: the tick runs with an injected time, 13 hours on.
    let now = chrono::Utc::now();
    let before = fake.bot_messages(CHANNEL).len();
    bot.tick(now + chrono::Duration::hours(13)).await;
    let reminder = bot_said(&fake, CHANNEL, "⏰").await;
    assert_eq!(reminder.len(), 1);
    let reminder = &reminder[0];
    assert!(
        reminder.content.starts_with("⏰ <@1>: your bid or pass"),
        "{}",
        reminder.content
    );
    assert!(reminder.content.contains("<t:"), "{}", reminder.content);
    assert!(reminder.mentions.contains(&1), "a real ping");
    // Delivered from the outbox by the channel's worker like a player's move: the reminder
    // carries the turn's buttons, and the prompt before it no longer does.
    assert!(
        !reminder.components.is_empty(),
        "the reminder has the buttons: {}",
        reminder.content
    );
    let reminder_id = reminder.id;
    fake.wait_for(WAIT, |f| {
        let with_buttons: Vec<u64> = f
            .bot_messages(CHANNEL)
            .into_iter()
            .filter(|m| !m.components.is_empty())
            .map(|m| m.id)
            .collect();
        if with_buttons == [reminder_id] {
            Ok(())
        } else {
            Err(format!("only the reminder with buttons: {with_buttons:?}"))
        }
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    let allowed = reminder.allowed_mentions.clone().expect("allowed_mentions");
    // The reminder may ping exactly the player it reminds, nobody else, no role.
    assert_eq!(allowed["users"], serde_json::json!(["1"]), "{allowed}");
    assert!(
        allowed["parse"].as_array().is_some_and(|p| p.is_empty()),
        "{allowed}"
    );
    bot.tick(now + chrono::Duration::hours(14)).await;
    assert_eq!(
        fake.bot_messages(CHANNEL).len(),
        before + 1,
        "the reminder is not repeated"
    );

    // Secret presets by direct message; the last one lets the tick resolve the auction.
    let before = fake.bot_messages(CHANNEL).len();
    let dms = [
        (9_101, bob(), "!preset pass"),
        (9_102, cat(), "!preset max CBSC 9"),
        (9_103, ann(), "!preset max CBSC 10"),
    ];
    for (dm, user, text) in &dms {
        fake.add_dm_channel(*dm, user);
        let id = fake.post_user_message(*dm, None, user, text);
        let saved = reacted(&fake, *dm, id).await;
        assert!(saved.accepted(), "{}", saved.text());
        assert!(saved.text().contains("Saved for"), "{}", saved.text());
    }
    let won = bot_said(&fake, CHANNEL, "ann wins the CBSC £7 share for £9").await;
    let channel: Vec<String> = fake
        .bot_messages(CHANNEL)
        .into_iter()
        .skip(before)
        .map(|m| m.content)
        .collect();
    let channel = channel.join("\n");
    for line in [
        "ann bids £7 (preset).",
        "bob passes (preset).",
        "cat bids £8 (preset).",
        "ann bids £9 (preset).",
        "cat passes (preset).",
    ] {
        assert!(channel.contains(line), "{line}:\n{channel}");
    }
    assert!(
        !channel.contains("£10") && !channel.contains("up to"),
        "the limits stay secret:\n{channel}"
    );
    assert_eq!(won.len(), 1, "the auction is resolved once");
    // Only ann's DM shows ann's limit.
    assert!(fake
        .bot_messages(9_103)
        .iter()
        .any(|m| m.content.contains("up to £10")));
    assert!(!fake
        .bot_messages(9_101)
        .iter()
        .chain(fake.bot_messages(9_102).iter())
        .any(|m| m.content.contains("£10")));
    let status = ask(&fake, CHANNEL, &bob(), "!status").await.text();
    assert!(status.contains("ann: £11, CBSC £7"), "{status}");
    stop(bot).await;
}
