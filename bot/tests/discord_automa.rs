//! An automa seat through the real serenity client against the fake Discord: the automa's
//! move is posted in the channel after the reply to the move before it, as the forum record
//! reads, and a player replaced by an automa (`!sub @bob automa`) is moved for at once.

use std::time::Duration;

use fakediscord::{within, FakeDiscord, RecordedMessage};
use gaugebot_table::game::automa::AutomaLevel;

mod fake_table;
use fake_table::{accepted, ann, bob, cat, guild, moderator, start, CHANNEL, GUILD, WAIT};

/// The bot with the cheap automa (a decision in milliseconds).
async fn start_cheap(fake: &FakeDiscord, db: &std::path::Path) -> gaugebot::discord::BotHandle {
    start(fake, db, |config| config.automa = AutomaLevel::Cheap).await
}

/// Waits for `count` automa posts in the channel; returns them.
async fn automa_posts(fake: &FakeDiscord, count: usize) -> Vec<RecordedMessage> {
    fake.wait_for(WAIT, |f| {
        let posts: Vec<RecordedMessage> = f
            .bot_messages(CHANNEL)
            .into_iter()
            .filter(|m| m.content.starts_with("🤖 **Automa 1: "))
            .collect();
        if posts.len() >= count {
            Ok(posts)
        } else {
            Err(format!("{count} automa posts, {} so far", posts.len()))
        }
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_automa_moves_after_the_reply_to_the_move_before_and_takes_a_seat_by_sub() {
    let fake = FakeDiscord::start().await;
    guild(&fake, "Irish Gauge", &[ann(), bob(), cat()]);
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = start_cheap(&fake, &dir.path().join("gaugebot.db")).await;

    // ann, bob and an automa, in that order.
    accepted(
        &fake,
        &moderator(),
        "!setup <@1> <@2> automa dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12",
    )
    .await;
    accepted(&fake, &ann(), "**bid 7**").await;
    let pass = accepted(&fake, &bob(), "**pass**").await;
    let posts = automa_posts(&fake, 1).await;
    let reply = fake
        .bot_messages(CHANNEL)
        .into_iter()
        .find(|m| m.referenced_message == Some(pass))
        .expect("the reply to bob's pass");
    let post = &posts[0];
    assert!(post.id > reply.id, "the automa posts after the reply");
    assert_eq!(post.referenced_message, None, "a post of its own");
    assert!(
        post.content.contains("<@1>"),
        "the person to act next is pinged: {}",
        post.content
    );
    assert!(
        post.content
            .lines()
            .nth(1)
            .is_some_and(|l| l.starts_with("Automa 1 ")),
        "its move, then the narration: {}",
        post.content
    );

    // cat takes the automa's seat; bob leaves and an automa takes his (moving at once if it is
    // bob's decision); the status marks the automa seat.
    accepted(&fake, &moderator(), "!sub automa <@3>").await;
    accepted(&fake, &moderator(), "!sub <@2> automa").await;
    let status = fake.post_user_message(CHANNEL, Some(GUILD), &ann(), "!status");
    fake.wait_for(WAIT, |f| {
        f.bot_messages(CHANNEL)
            .iter()
            .find(|m| m.referenced_message == Some(status))
            .map(|m| m.content.clone())
            .filter(|c| c.contains("🤖 Automa seats") && c.contains("Automa 1"))
            .ok_or_else(|| "the status marks the automa seat".to_string())
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    within(Duration::from_secs(20), "the bot stops", bot.shutdown()).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_privates_game_of_automa_seats_plays_to_its_end_through_discord() {
    let fake = FakeDiscord::start().await;
    guild(&fake, "Privates", &[]);
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = start_cheap(&fake, &dir.path().join("gaugebot.db")).await;

    accepted(&fake, &moderator(), "!setup privates automa automa automa").await;
    // Every move is the automa's, posted one after another until the final report.
    let over = fake
        .wait_for(Duration::from_secs(300), |f| {
            let pinned = f.pins(CHANNEL);
            f.bot_messages(CHANNEL)
                .into_iter()
                // The final report follows the last move in its post, or in the post's next
                // part when the whole is longer than Discord's 2,000 characters (a long
                // game's card lists); the pinned status, edited to the same report, is not it.
                .find(|m| m.content.contains("**Game over.**") && !pinned.contains(&m.id))
                .ok_or_else(|| "the final report after the last automa move".to_string())
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let posts = fake.bot_messages(CHANNEL);
    let automa_posts = posts
        .iter()
        .filter(|m| m.content.starts_with("🤖 **Automa "))
        .count();
    assert!(
        automa_posts >= 10,
        "the automa seats made the game's moves: {automa_posts} posts"
    );
    assert!(
        posts
            .iter()
            .all(|m| m.id <= over.id || !m.content.starts_with("🤖 **Automa ")),
        "no automa moves after the game is over: {}",
        posts
            .iter()
            .map(|m| format!("{} {}", m.id, m.content.lines().next().unwrap_or_default()))
            .collect::<Vec<_>>()
            .join("\n")
    );
    assert!(
        posts.iter().all(|m| !m.content.contains("<@")),
        "an automa is never pinged"
    );
    within(Duration::from_secs(20), "the bot stops", bot.shutdown()).await;
}
