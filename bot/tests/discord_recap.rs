//! Catching up through the real serenity client against the fake Discord: the turn ping of a
//! player who last moved hours ago carries a recap of what happened since; a player who moved
//! a moment ago is pinged without one.

use std::time::Duration;

use fakediscord::{within, FakeDiscord};

mod fake_table;
use fake_table::{ann, bob, cat, guild, moderator, reply_to, start};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_turn_ping_of_a_player_back_after_hours_carries_a_recap() {
    let fake = FakeDiscord::start().await;
    guild(&fake, "Irish Gauge", &[ann(), bob(), cat()]);
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = start(&fake, &dir.path().join("gaugebot.db"), |_| {}).await;

    reply_to(
        &fake,
        &moderator(),
        "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12",
    )
    .await;
    // ann wins the first share; bob, who passed a moment ago, is pinged without a recap.
    reply_to(&fake, &ann(), "**bid 7**").await;
    reply_to(&fake, &bob(), "**pass**").await;
    reply_to(&fake, &cat(), "**pass**").await;
    let to_bob = reply_to(&fake, &ann(), "**pass**").await;
    assert!(to_bob.contains("<@2>"), "bob is pinged: {to_bob}");
    assert!(!to_bob.contains("📜"), "no recap a moment later: {to_bob}");

    // Three hours pass; bob wins WLW for £5 and cat opens the next auction: ann, back, is
    // told what happened since her last move.
    fake.advance_clock(Duration::from_secs(3 * 3600));
    reply_to(&fake, &bob(), "**bid 5**").await;
    reply_to(&fake, &cat(), "**pass**").await;
    reply_to(&fake, &bob(), "**pass**").await;
    let to_ann = reply_to(&fake, &cat(), "**bid 9**").await;
    assert!(to_ann.contains("<@1>"), "ann is pinged: {to_ann}");
    assert!(
        to_ann.contains("📜 ann, since you last posted"),
        "the ping carries the recap: {to_ann}"
    );
    assert!(
        to_ann.contains("bob won the WLW") && to_ann.contains("share for £5"),
        "the recap names the auction won and its price: {to_ann}"
    );
    let recap_lines = to_ann
        .lines()
        .skip_while(|l| !l.starts_with("📜"))
        .take_while(|l| l.starts_with("📜") || l.starts_with('·'))
        .count();
    assert!(
        (2..=7).contains(&recap_lines),
        "a heading and at most six lines: {to_ann}"
    );
    within(Duration::from_secs(20), "the bot stops", bot.shutdown()).await;
}
