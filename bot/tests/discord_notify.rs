//! Through the real serenity client against the fake Discord (issue 34 points 4 and 5): a
//! player who asked for turn pings by direct message (`!notify dm`, in a direct message to the
//! bot) gets one, linking to the channel's post that pings them; a player takes back their own
//! move (`!takeback`) and is refused another's; a moderator's `!tables` lists the game.

use fakediscord::{within, FakeDiscord};

mod fake_table;
use fake_table::{ann, bob, cat, guild, moderator, reply_to, start, CHANNEL, GUILD, WAIT};

/// bob's direct-message channel with the bot.
const BOB_DM: u64 = 9_201;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_turn_ping_comes_by_direct_message_and_a_move_is_taken_back() {
    let fake = FakeDiscord::start().await;
    guild(&fake, "Irish Gauge", &[ann(), bob(), cat()]);
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = start(&fake, &dir.path().join("gaugebot.db"), |_| {}).await;

    // bob asks for direct messages, in a direct message to the bot.
    fake.add_dm_channel(BOB_DM, &bob());
    let asked = fake.post_user_message(BOB_DM, None, &bob(), "!notify dm");
    let answer = fake
        .wait_for(WAIT, |f| {
            f.bot_messages(BOB_DM)
                .into_iter()
                .find(|m| m.referenced_message == Some(asked))
                .map(|m| m.content)
                .ok_or_else(|| "the answer to !notify dm".to_string())
        })
        .await
        .expect("answered");
    assert!(
        answer.contains("also comes to you by direct message"),
        "{answer}"
    );

    reply_to(
        &fake,
        &moderator(),
        "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12",
    )
    .await;
    // ann bids: bob is pinged in the channel, and by direct message with a link to that post.
    let bid = fake.post_user_message(CHANNEL, Some(GUILD), &ann(), "**bid 9**");
    let ping = fake
        .wait_for(WAIT, |f| {
            f.bot_messages(CHANNEL)
                .into_iter()
                .find(|m| m.referenced_message == Some(bid) && m.content.contains("<@2>"))
                .ok_or_else(|| "the reply that pings bob".to_string())
        })
        .await
        .expect("bob pinged");
    let dm = fake
        .wait_for(WAIT, |f| {
            f.bot_messages(BOB_DM)
                .into_iter()
                .find(|m| m.content.contains("your bid or pass"))
                .map(|m| m.content)
                .ok_or_else(|| "the direct message".to_string())
        })
        .await
        .expect("a direct message to bob");
    assert!(
        dm.starts_with("🔔 bob, your bid or pass in Irish Gauge"),
        "{dm}"
    );
    let link = format!("https://discord.com/channels/{GUILD}/{CHANNEL}/{}", ping.id);
    assert!(dm.ends_with(&link), "the link to the ping: {dm}");
    assert!(!dm.contains("<@"), "a direct message pings nobody: {dm}");

    // ann meant 7: she takes her bid back herself; bob may not take it back for her.
    let refused = fake.post_user_message(CHANNEL, Some(GUILD), &bob(), "!takeback");
    let reactions = fake.wait_for_reactions(refused, 1, WAIT).await.expect("❌");
    assert_eq!(reactions, ["❌"]);
    let why = fake
        .wait_for(WAIT, |f| {
            f.bot_messages(CHANNEL)
                .into_iter()
                .find(|m| m.referenced_message == Some(refused))
                .map(|m| m.content)
                .ok_or_else(|| "the refusal".to_string())
        })
        .await
        .expect("refused with a reason");
    assert!(why.contains("The last move is ann's, not yours"), "{why}");
    let back = reply_to(&fake, &ann(), "!takeback").await;
    assert!(back.contains("↩️ ann takes back **bid 9**"), "{back}");
    assert!(back.contains("<@1>"), "ann is to bid again: {back}");
    let again = reply_to(&fake, &ann(), "**bid 7**").await;
    assert!(again.contains("ann bids £7"), "{again}");
    let asked = fake.post_user_message(CHANNEL, Some(GUILD), &ann(), "!log");
    let log = fake
        .wait_for(WAIT, |f| {
            f.bot_messages(CHANNEL)
                .into_iter()
                .find(|m| m.referenced_message == Some(asked))
                .map(|m| m.content)
                .ok_or_else(|| "the log".to_string())
        })
        .await
        .expect("the log");
    assert!(log.contains("~~ann: **bid 9**"), "{log}");
    assert!(log.contains("ann: takes back their own move"), "{log}");
    // A moderator's overview of the server's games.
    let asked = fake.post_user_message(CHANNEL, Some(GUILD), &moderator(), "!tables");
    let tables = fake
        .wait_for(WAIT, |f| {
            f.bot_messages(CHANNEL)
                .into_iter()
                .find(|m| m.referenced_message == Some(asked))
                .map(|m| m.content)
                .ok_or_else(|| "the overview".to_string())
        })
        .await
        .expect("the overview");
    assert!(
        tables.contains(&format!("in <#{CHANNEL}>: bob's bid or pass since <t:")),
        "{tables}"
    );
    within(WAIT, "the bot stops", bot.shutdown()).await;
}
