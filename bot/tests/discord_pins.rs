//! Pins as Discord has them since 2026, against the fake Discord's rule (a pin needs
//! PIN_MESSAGES, bit 51, whatever Manage Messages says; 403/50013 otherwise): the live status is
//! pinned through `/channels/{c}/messages/pins/{m}` when the bot holds the permission, through
//! the old route only when the new one answers 404, and without the permission no pin request
//! is sent at all and the moderators are told once.

use std::path::Path;
use std::time::Duration;

use fakediscord::{permissions, within, FakeDiscord, FakeUser, RouteKind};
use gaugebot::config::Config;
use gaugebot::discord::{self, BotHandle};
use tempfile::TempDir;

const GUILD: u64 = 500;
const CHANNEL: u64 = 501;
const MODERATOR_ROLE: u64 = 600;
const WAIT: Duration = Duration::from_secs(15);
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";
const NOTICE: &str = "I lack the **Pin Messages** permission";

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
    for (id, name) in [(1, "ann"), (2, "bob"), (3, "cat")] {
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

/// Posts a move or command and waits for its ✅, then for the live status message.
async fn play(fake: &FakeDiscord, who: &FakeUser, text: &str) {
    let id = fake.post_user_message(CHANNEL, Some(GUILD), who, text);
    let reactions = fake
        .wait_for_reactions(id, 1, WAIT)
        .await
        .expect("a reaction");
    assert_eq!(reactions, ["✅"], "{text}");
}

/// The live status message, once posted (and edited after the last move).
async fn status(fake: &FakeDiscord) -> u64 {
    fake.wait_for(WAIT, |f| {
        f.bot_messages(CHANNEL)
            .into_iter()
            .find(|m| m.content.contains("Live status"))
            .map(|m| m.id)
            .ok_or_else(|| "the live status".to_string())
    })
    .await
    .expect("a live status")
}

/// Waits until the fake has recorded `n` requests to `route` (it records a request after
/// answering it, so just after the pin itself is seen).
async fn recorded(fake: &FakeDiscord, route: RouteKind, n: usize) {
    fake.wait_for(WAIT, |f| {
        (requests_to(f, route) >= n)
            .then_some(())
            .ok_or_else(|| format!("{n} requests to {route:?}"))
    })
    .await
    .expect("recorded");
}

fn requests_to(fake: &FakeDiscord, route: RouteKind) -> usize {
    fake.requests()
        .iter()
        .filter(|r| r.route == Some(route))
        .count()
}

fn notices(fake: &FakeDiscord) -> usize {
    fake.bot_messages(CHANNEL)
        .iter()
        .filter(|m| m.content.contains(NOTICE))
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn with_pin_messages_the_status_is_pinned_through_the_new_route() {
    let (fake, dir) = world().await;
    let bot = start(&fake, dir.path()).await;
    play(&fake, &moderator(), SETUP).await;
    let status = status(&fake).await;
    fake.wait_for(WAIT, |f| {
        (f.pins(CHANNEL) == [status])
            .then_some(())
            .ok_or_else(|| format!("pins {:?}", f.pins(CHANNEL)))
    })
    .await
    .expect("pinned");
    recorded(&fake, RouteKind::MessagePin, 1).await;
    assert_eq!(requests_to(&fake, RouteKind::MessagePin), 1);
    assert_eq!(
        requests_to(&fake, RouteKind::Pin),
        0,
        "the deprecated route"
    );
    assert_eq!(notices(&fake), 0);
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_old_route_is_used_only_when_the_new_one_answers_404() {
    let (fake, dir) = world().await;
    fake.set_new_pin_routes(false);
    let bot = start(&fake, dir.path()).await;
    play(&fake, &moderator(), SETUP).await;
    let status = status(&fake).await;
    fake.wait_for(WAIT, |f| {
        (f.pins(CHANNEL) == [status])
            .then_some(())
            .ok_or_else(|| format!("pins {:?}", f.pins(CHANNEL)))
    })
    .await
    .expect("pinned");
    recorded(&fake, RouteKind::Pin, 1).await;
    let new: Vec<u16> = fake
        .requests()
        .iter()
        .filter(|r| r.route == Some(RouteKind::MessagePin))
        .map(|r| r.status)
        .collect();
    assert_eq!(new, [404]);
    assert_eq!(requests_to(&fake, RouteKind::Pin), 1);
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_pin_messages_no_pin_is_attempted_and_the_moderators_are_told_once() {
    let (fake, dir) = world().await;
    // Manage Messages, as the old README asked for: no longer enough to pin.
    fake.set_bot_permissions(GUILD, permissions::MANAGE_MESSAGES);
    let bot = start(&fake, dir.path()).await;
    play(&fake, &moderator(), SETUP).await;
    let status = status(&fake).await;
    fake.wait_for(WAIT, |f| {
        (notices(f) == 1)
            .then_some(())
            .ok_or_else(|| "the notice".to_string())
    })
    .await
    .expect("one notice");
    // Turns go on, the status is edited, nothing is pinned, no new notice.
    play(&fake, &user(1, "ann"), "**bid 7**").await;
    play(&fake, &user(2, "bob"), "**pass**").await;
    fake.wait_for(WAIT, |f| {
        f.message(status)
            .filter(|m| m.edit_count >= 2)
            .map(|_| ())
            .ok_or_else(|| "status edits".to_string())
    })
    .await
    .expect("the status is edited");
    // A second game in the channel posts a new status: still no pin request, no second notice.
    play(&fake, &moderator(), &format!("{SETUP} force")).await;
    fake.wait_for(WAIT, |f| {
        (f.bot_messages(CHANNEL)
            .iter()
            .filter(|m| m.content.contains("Live status"))
            .count()
            == 2)
            .then_some(())
            .ok_or_else(|| "a second status".to_string())
    })
    .await
    .expect("a second status");
    assert_eq!(notices(&fake), 1);
    assert!(fake.pins(CHANNEL).is_empty());
    assert_eq!(requests_to(&fake, RouteKind::MessagePin), 0);
    assert_eq!(requests_to(&fake, RouteKind::Pin), 0);
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_channel_overwrite_that_denies_pin_messages_is_honoured() {
    let (fake, dir) = world().await;
    fake.set_overwrite(
        CHANNEL,
        fakediscord::bot_role_id(GUILD),
        true,
        0,
        permissions::PIN_MESSAGES,
    );
    let bot = start(&fake, dir.path()).await;
    play(&fake, &moderator(), SETUP).await;
    status(&fake).await;
    fake.wait_for(WAIT, |f| {
        (notices(f) == 1)
            .then_some(())
            .ok_or_else(|| "the notice".to_string())
    })
    .await
    .expect("one notice");
    assert_eq!(requests_to(&fake, RouteKind::MessagePin), 0);
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fake_refuses_a_pin_without_pin_messages_whatever_manage_messages_says() {
    let (fake, _dir) = world().await;
    fake.set_bot_permissions(
        GUILD,
        permissions::MANAGE_MESSAGES | permissions::MANAGE_ROLES,
    );
    let message = fake.post_user_message(CHANNEL, Some(GUILD), &user(1, "ann"), "hello");
    let client = reqwest::Client::new();
    for path in [
        format!("/channels/{CHANNEL}/messages/pins/{message}"),
        format!("/channels/{CHANNEL}/pins/{message}"),
    ] {
        let answer = client
            .put(format!("{}/api/v10{path}", fake.api_base()))
            .header("Authorization", format!("Bot {}", fake.token()))
            .send()
            .await
            .expect("an answer");
        assert_eq!(answer.status().as_u16(), 403, "{path}");
        let body: serde_json::Value = answer.json().await.expect("json");
        assert_eq!(body["code"], 50_013, "{path}");
    }
    fake.set_bot_permissions(GUILD, permissions::PIN_MESSAGES);
    let answer = client
        .put(format!(
            "{}/api/v10/channels/{CHANNEL}/messages/pins/{message}",
            fake.api_base()
        ))
        .header("Authorization", format!("Bot {}", fake.token()))
        .send()
        .await
        .expect("an answer");
    assert_eq!(answer.status().as_u16(), 204);
    assert_eq!(fake.pins(CHANNEL), [message]);
}
