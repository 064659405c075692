//! Cheap restarts, end to end against the fake Discord: on READY the bot reads the history of
//! only those channels whose last message (in the GUILD_CREATE payload) is newer than their
//! stored cursor; the others make no request and stay unloaded until a message comes.

use std::time::Duration;

use fakediscord::{within, FakeDiscord, FakeUser, RouteKind};
use gaugebot::config::Config;
use gaugebot::discord::{self, BotHandle};

const GUILD: u64 = 500;
const CHANNELS: [u64; 3] = [501, 502, 503];
const MODERATOR_ROLE: u64 = 600;
const WAIT: Duration = Duration::from_secs(20);
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

fn ann() -> FakeUser {
    FakeUser::new(1, "ann")
}
fn moderator() -> FakeUser {
    FakeUser::new(100, "mona")
}

fn config(fake: &FakeDiscord, db: &std::path::Path) -> Config {
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.discord.moderator_roles = vec!["Moderator".to_string()];
    config.database = db.to_path_buf();
    config.map.after_build = false;
    config
}

async fn start(fake: &FakeDiscord, db: &std::path::Path) -> BotHandle {
    within(
        WAIT,
        "the bot starts",
        discord::start(config(fake, db), fake.token().to_string()),
    )
    .await
    .expect("the bot starts")
}

/// The channels whose history was read, in order of the requests.
fn history_reads(fake: &FakeDiscord, from: usize) -> Vec<String> {
    fake.requests()[from..]
        .iter()
        .filter(|r| r.route == Some(RouteKind::GetMessages))
        .map(|r| r.path.clone())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_restart_reads_only_the_channels_behind_their_cursor() {
    let fake = FakeDiscord::start().await;
    fake.add_guild(GUILD, "Irish Gauge");
    for channel in CHANNELS {
        fake.add_channel(GUILD, channel, "game");
    }
    fake.add_role(GUILD, MODERATOR_ROLE, "Moderator", 0);
    fake.add_member(GUILD, &moderator(), &[MODERATOR_ROLE]);
    for u in [ann(), FakeUser::new(2, "bob"), FakeUser::new(3, "cat")] {
        fake.add_member(GUILD, &u, &[]);
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("gaugebot.db");

    let bot = start(&fake, &db).await;
    for channel in CHANNELS {
        let id = fake.post_user_message(channel, Some(GUILD), &moderator(), SETUP);
        let reactions = fake.wait_for_reactions(id, 1, WAIT).await.expect("setup");
        assert_eq!(reactions, ["✅"]);
    }
    // The cursors move past the bot's own replies (its last message in each channel).
    // (The bot may still be posting after the ✅: the pinned status comes after the replies, so
    // "the last message" is read again each time.)
    for channel in CHANNELS {
        within(WAIT, "the cursor reaches the last reply", async {
            loop {
                let last = fake
                    .channel_messages(channel)
                    .last()
                    .map(|m| m.id.to_string());
                let cursor = bot
                    .tables()
                    .store()
                    .cursor(&channel.to_string())
                    .await
                    .expect("cursor");
                if cursor == last {
                    return;
                }
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
        })
        .await;
    }
    within(WAIT, "the bot stops", bot.shutdown()).await;

    // While the bot is away, a move in the second channel only.
    let missed = fake.post_user_message(CHANNELS[1], Some(GUILD), &ann(), "**bid 7**");
    let before = fake.requests().len();
    let bot = start(&fake, &db).await;
    // `start` returns once the catch-up is done: the missed move is applied.
    assert_eq!(fake.reactions(missed), ["✅"]);
    assert_eq!(
        history_reads(&fake, before),
        vec![format!("/api/v10/channels/{}/messages", CHANNELS[1])],
        "only the channel behind its cursor is read"
    );
    let counts = bot.restart_counts();
    assert_eq!((counts.active, counts.behind, counts.fresh), (3, 1, 2));
    assert_eq!(counts.unplaced, 0);

    // A fresh channel plays on without reading its history.
    let move_id = fake.post_user_message(CHANNELS[0], Some(GUILD), &ann(), "**bid 7**");
    let reactions = fake
        .wait_for_reactions(move_id, 1, WAIT)
        .await
        .expect("answered");
    assert_eq!(reactions, ["✅"]);
    assert_eq!(history_reads(&fake, before).len(), 1);
    within(WAIT, "the bot stops", bot.shutdown()).await;
}
