//! Issue 33 on Discord, end to end against the fake Discord (the real serenity client): a
//! status report carries ◀ ▶ buttons that page through the game's positions, each click
//! answered only to the person who clicked (point 3); every image the bot posts carries its alt
//! text as the attachment's description, and the map's and the chart's say what they show
//! (point 5).

use std::path::Path;
use std::time::Duration;

use fakediscord::{within, FakeDiscord, FakeUser, RecordedMessage};
use gaugebot::config::Config;
use gaugebot::discord::{self, BotHandle};
use tempfile::TempDir;

mod fake_table;
use fake_table::{private_answer, slash_answer};

const GUILD: u64 = 500;
const CHANNEL: u64 = 501;
const MODERATOR_ROLE: u64 = 600;
const WAIT: Duration = Duration::from_secs(15);
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

fn user(id: u64, name: &str) -> FakeUser {
    FakeUser::new(id, name)
}

fn moderator() -> FakeUser {
    user(10, "mona")
}

async fn world() -> (FakeDiscord, TempDir) {
    let fake = FakeDiscord::start().await;
    fake.add_guild(GUILD, "Irish Gauge");
    fake.add_channel(GUILD, CHANNEL, "game-1");
    fake.add_role(GUILD, MODERATOR_ROLE, "Moderator", 0);
    fake.add_member(GUILD, &moderator(), &[MODERATOR_ROLE]);
    for (id, name) in [(1, "ann"), (2, "bob"), (3, "cat"), (4, "dan")] {
        fake.add_member(GUILD, &user(id, name), &[]);
    }
    (fake, tempfile::tempdir().expect("temp dir"))
}

async fn start(fake: &FakeDiscord, dir: &Path) -> BotHandle {
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.database = dir.join("gaugebot.db");
    within(
        Duration::from_secs(30),
        "the bot starts",
        discord::start(config, fake.token().to_string()),
    )
    .await
    .expect("the bot starts")
}

/// Posts a move or command and waits for its ✅.
async fn play(fake: &FakeDiscord, who: &FakeUser, text: &str) {
    let id = fake.post_user_message(CHANNEL, Some(GUILD), who, text);
    let reactions = fake
        .wait_for_reactions(id, 1, WAIT)
        .await
        .expect("a reaction");
    assert_eq!(reactions, ["✅"], "{text}");
}

/// Posts a command that answers without a reaction and waits for the bot's reply to it.
async fn ask(fake: &FakeDiscord, who: &FakeUser, text: &str) -> RecordedMessage {
    let id = fake.post_user_message(CHANNEL, Some(GUILD), who, text);
    fake.wait_for(WAIT, |f| {
        f.bot_messages(CHANNEL)
            .into_iter()
            .rev()
            .find(|m| m.referenced_message == Some(id))
            .ok_or_else(|| format!("the answer to {text}"))
    })
    .await
    .expect("an answer")
}

/// The custom ids of a message's buttons, with their labels.
fn buttons(message: &RecordedMessage) -> Vec<(String, String)> {
    message
        .components
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|b| {
            Some((
                b["custom_id"].as_str()?.to_string(),
                b["label"].as_str().unwrap_or_default().to_string(),
            ))
        })
        .collect()
}

/// Clicks `custom_id` on `message` as `who`; the private answer it got.
async fn click(
    fake: &FakeDiscord,
    message: &RecordedMessage,
    who: &FakeUser,
    custom_id: &str,
) -> RecordedMessage {
    let interaction = fake.click_button(message.id, who, custom_id);
    private_answer(fake, interaction.id).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_status_pages_through_positions_for_whoever_clicks() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    let (ann, bob, cat, dan) = (
        user(1, "ann"),
        user(2, "bob"),
        user(3, "cat"),
        user(4, "dan"),
    );
    play(&fake, &moderator(), SETUP).await;
    play(&fake, &ann, "**bid 7**").await;
    play(&fake, &bob, "**pass**").await;
    play(&fake, &cat, "**pass**").await;

    // Entries #0–#2: the status now steps back to the position after #1.
    let status = ask(&fake, &dan, "!status").await;
    let ids = buttons(&status);
    assert_eq!(
        ids,
        [("gbp|501-1|1".to_string(), "◀ #1".to_string())],
        "{}",
        status.content
    );

    // dan clicks ◀: only he sees the position after entry #1 (bob's pass), with ◀ ▶.
    let before = bot_message_count(&fake);
    let past = click(&fake, &status, &dan, "gbp|501-1|1").await;
    assert!(past.ephemeral, "answered to dan only");
    assert!(
        past.content.contains("501-1 after record entry #1")
            && past.content.contains("bob: **pass**"),
        "{}",
        past.content
    );
    assert!(
        past.content.contains("high bid £7 by ann"),
        "the auction as it stood: {}",
        past.content
    );
    assert_eq!(
        buttons(&past)
            .into_iter()
            .map(|(id, _)| id)
            .collect::<Vec<_>>(),
        ["gbp|501-1|0", "gbp|501-1|2"]
    );
    // ◀ again, from the private answer: the position after ann's bid.
    let first = click(&fake, &past, &dan, "gbp|501-1|0").await;
    assert!(
        first.content.contains("after record entry #0") && first.content.contains("ann: **bid 7**"),
        "{}",
        first.content
    );
    assert_eq!(
        buttons(&first)
            .into_iter()
            .map(|(id, _)| id)
            .collect::<Vec<_>>(),
        ["gbp|501-1|1"]
    );
    assert_eq!(
        bot_message_count(&fake),
        before + 2,
        "nothing posted in the channel but the two private answers"
    );

    // The slash command takes the entry too, and its answer carries the buttons.
    let answer = slash_answer(
        &fake,
        CHANNEL,
        &dan,
        "status",
        &[("entry", "1"), ("private", "true")],
    )
    .await;
    assert!(
        answer.content.contains("501-1 after record entry #1"),
        "{}",
        answer.content
    );
    assert_eq!(buttons(&answer).len(), 2, "{:?}", answer.components);

    // An entry the record does not have is refused with the entries it has.
    let refused = ask(&fake, &dan, "!status 9").await;
    assert!(
        refused
            .content
            .contains("501-1 has no record entry #9: its record has entries #0–#2"),
        "{}",
        refused.content
    );
    within(Duration::from_secs(20), "the bot stops", bot.shutdown()).await;
}

/// The bot's messages in the channel, private answers included.
fn bot_message_count(fake: &FakeDiscord) -> usize {
    fake.bot_messages(CHANNEL).len()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_image_carries_alt_text_that_says_what_it_shows() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    let (ann, bob, cat) = (user(1, "ann"), user(2, "bob"), user(3, "cat"));
    play(&fake, &moderator(), SETUP).await;
    for (who, text) in [
        (&ann, "**bid 7**"),
        (&bob, "**pass**"),
        (&cat, "**pass**"),
        (&ann, "**pass**"),
        (&bob, "**bid 5**"),
        (&cat, "**pass**"),
        (&bob, "**pass**"),
        (&cat, "**bid 9**"),
        (&ann, "**pass**"),
        (&cat, "**pass**"),
        (&ann, "**pass**"),
        (&bob, "**pass**"),
        (&cat, "**bid 6**"),
        (&ann, "**pass**"),
        (&bob, "**pass**"),
        (&ann, "**build CBSC O3 N5**"),
    ] {
        play(&fake, who, text).await;
    }
    let map = ask(&fake, &bob, "!map").await;
    let chart = ask(&fake, &bob, "!chart").await;
    let past_map = ask(&fake, &bob, "!map 3").await;
    // Every image the bot posted in the channel (the maps after builds too) has its description.
    let images: Vec<_> = fake
        .bot_messages(CHANNEL)
        .into_iter()
        .flat_map(|m| m.attachments)
        .filter(|a| a.filename.ends_with(".png"))
        .collect();
    assert!(images.len() >= 3, "{images:?}");
    for image in &images {
        let described = image.description.as_deref().unwrap_or_default();
        assert!(
            described.len() > 40,
            "{}: {:?}",
            image.filename,
            image.description
        );
    }
    let description = |m: &RecordedMessage| {
        m.attachments
            .first()
            .and_then(|a| a.description.clone())
            .unwrap_or_default()
    };
    let map = description(&map);
    assert!(
        map.contains("CBSC: 3 locomotives placed, connecting Cork (White City)")
            && map.contains("City cubes: 3 White (Cork, Kilkenny, Limerick)")
            && map.contains("WLW: 1 locomotive placed, connecting Limerick (White City)")
            && map.contains("Built last (highlighted): O3, N5."),
        "{map}"
    );
    let chart = description(&chart);
    assert!(chart.contains("leads; at the end:"), "{chart}");
    let past_map = description(&past_map);
    assert!(
        past_map.contains("after record entry 3")
            && past_map.contains("CBSC: 1 locomotive placed")
            && !past_map.contains("Built last"),
        "{past_map}"
    );
    within(Duration::from_secs(20), "the bot stops", bot.shutdown()).await;
}
