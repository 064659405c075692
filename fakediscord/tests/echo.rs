//! The real serenity client against the fake: connect, echo, survive reconnects.

use std::time::Duration;

use fakediscord::{spawn_echo_bot, spawn_echo_bot_with_intents, FakeDiscord, FakeUser};
use serenity::all::GatewayIntents;

const GUILD: u64 = 500;
const CHANNEL: u64 = 501;
const SHORT: Duration = Duration::from_secs(5);
/// serenity waits ~5 s between shard boots, so a re-IDENTIFY takes 5-7 s.
const RECONNECT: Duration = Duration::from_secs(20);

fn alice() -> FakeUser {
    FakeUser::new(77, "alice")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn echo_survives_missed_heartbeat_acks() {
    let fake = FakeDiscord::start().await;
    fake.set_heartbeat_interval(Duration::from_millis(250));
    fake.add_guild(GUILD, "Irish Gauge");
    fake.add_channel(GUILD, CHANNEL, "game-1");
    let bot = spawn_echo_bot(&fake).await;

    let intents = fake.last_intents().expect("identified");
    for bit in [1 << 9, 1 << 12, 1 << 15] {
        assert_ne!(
            intents & bit,
            0,
            "intent bit {bit:#x} missing in {intents:#x}"
        );
    }
    assert!(fake.identifies()[0].token.starts_with("Bot "));

    let id = fake.post_user_message(CHANNEL, Some(GUILD), &alice(), "hello fake");
    let replies = fake.wait_for_bot_messages(CHANNEL, 1, SHORT).await.unwrap();
    assert_eq!(replies[0].content, "hello fake");
    let sent = fake.message(id).unwrap().dispatched_at.expect("dispatched");
    assert!(replies[0].created_at >= sent);
    // The bot's own message is dispatched back to it and ignored (no echo of the echo).
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(fake.bot_messages(CHANNEL).len(), 1);

    // Heartbeats go unacknowledged: serenity drops the session and identifies again.
    fake.drop_heartbeat_acks(true);
    fake.wait_for_identify_count(2, RECONNECT).await.unwrap();
    fake.drop_heartbeat_acks(false);
    fake.wait_for_sessions(1, SHORT).await.unwrap();

    fake.post_user_message(CHANNEL, Some(GUILD), &alice(), "still there?");
    let replies = fake.wait_for_bot_messages(CHANNEL, 2, SHORT).await.unwrap();
    assert_eq!(replies[1].content, "still there?");
    assert!(fake.heartbeat_count() > 0);
    assert!(
        fake.unhandled_requests().is_empty(),
        "{:?}",
        fake.unhandled_requests()
    );

    bot.shutdown().await;
    fake.wait_for_sessions(0, SHORT).await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn reconnect_request_is_resumed_refused_and_reidentified() {
    let fake = FakeDiscord::start().await;
    let dm_user = alice();
    let bot = spawn_echo_bot(&fake).await;

    // A DM (no guild at all) is echoed too.
    fake.post_user_message(9_001, None, &dm_user, "dm ping");
    let r = fake.wait_for_bot_messages(9_001, 1, SHORT).await.unwrap();
    assert_eq!(r[0].content, "dm ping");
    assert_eq!(r[0].guild_id, None);

    fake.request_reconnect();
    fake.wait_for(RECONNECT, |f| {
        if f.resume_count() >= 1 && f.identify_count() >= 2 && f.connected_sessions() == 1 {
            Ok(())
        } else {
            Err(format!(
                "RESUME then IDENTIFY; resumes {}, identifies {}, sessions {}",
                f.resume_count(),
                f.identify_count(),
                f.connected_sessions()
            ))
        }
    })
    .await
    .unwrap();

    fake.post_user_message(9_001, None, &dm_user, "after reconnect");
    let r = fake.wait_for_bot_messages(9_001, 2, SHORT).await.unwrap();
    assert_eq!(r[1].content, "after reconnect");
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn messages_posted_while_down_are_only_stored_and_content_needs_the_intent() {
    let fake = FakeDiscord::start().await;
    fake.add_channel(GUILD, CHANNEL, "game-1");
    let early = fake.post_user_message(CHANNEL, Some(GUILD), &alice(), "while down");
    assert_eq!(fake.message(early).unwrap().dispatched_at, None);

    // Without MESSAGE_CONTENT the bot sees guild messages with empty content (and the echo
    // of an empty message is refused with 400), unless it is mentioned.
    let intents = GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES;
    let bot = spawn_echo_bot_with_intents(&fake, intents).await;
    assert_eq!(fake.last_intents().unwrap() & (1 << 15), 0);
    let plain = fake.post_user_message(CHANNEL, Some(GUILD), &alice(), "secret");
    let mention = format!("<@{}> hi", fake.bot_user_id());
    fake.post_user_message(CHANNEL, Some(GUILD), &alice(), &mention);
    let r = fake.wait_for_bot_messages(CHANNEL, 1, SHORT).await.unwrap();
    assert_eq!(r[0].content, mention);
    assert!(fake.message(plain).unwrap().dispatched_at.is_some());
    let refused = fake
        .wait_for(SHORT, |f| {
            let bad: Vec<_> = f
                .requests()
                .into_iter()
                .filter(|r| r.method == "POST" && r.status == 400)
                .collect();
            if bad.is_empty() {
                Err("a 400 for the empty echo".into())
            } else {
                Ok(bad)
            }
        })
        .await
        .unwrap();
    assert_eq!(refused.len(), 1);
    assert_eq!(fake.bot_messages(CHANNEL).len(), 1);
    assert_eq!(fake.message(early).unwrap().dispatched_at, None);
    bot.shutdown().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn round_trip_latency_is_measurable() {
    let fake = FakeDiscord::start().await;
    fake.add_channel(GUILD, CHANNEL, "game-1");
    let bot = spawn_echo_bot(&fake).await;
    let mut samples = Vec::new();
    for i in 0..20 {
        let id = fake.post_user_message(CHANNEL, Some(GUILD), &alice(), &format!("ping {i}"));
        let replies = fake
            .wait_for_bot_messages(CHANNEL, i + 1, SHORT)
            .await
            .unwrap();
        let sent = fake.message(id).unwrap().dispatched_at.unwrap();
        samples.push(replies[i].created_at - sent);
    }
    samples.sort();
    eprintln!(
        "echo round trip: median {:?}, max {:?}",
        samples[samples.len() / 2],
        samples[samples.len() - 1]
    );
    // Measurable: every reply is stamped after its message was dispatched. How fast is the
    // latency bench's (`cargo bench -p gaugebot --bench latency`, BENCHMARKS.md), not a test's.
    assert!(samples.iter().all(|s| *s > Duration::ZERO), "{samples:?}");
    bot.shutdown().await;
}
