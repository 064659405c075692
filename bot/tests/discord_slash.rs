//! End to end, Discord-native play: the real serenity client (with poise) of
//! `gaugebot::discord` against the fake Discord on 127.0.0.1 — slash commands derived from the
//! command registry, autocomplete, buttons on the turn prompt, the pinned live status, and the
//! bot without the Message Content intent.

mod fake_table;

use std::path::Path;
use std::time::Duration;

use fakediscord::{
    permissions, within, FakeDiscord, FakeInteraction, FakeUser, InteractionRecord, RecordedMessage,
};
use gaugebot::config::{Config, MessageContent};
use gaugebot::discord::{self, BotHandle};
use serde_json::Value;
use tempfile::TempDir;

use fake_table::{ann, bob, cat, moderator};
const GUILD: u64 = 500;
const CHANNEL: u64 = 501;
const OTHER_CHANNEL: u64 = 502;
const MODERATOR_ROLE: u64 = 600;
const HELPER_ROLE: u64 = 601;
const WAIT: Duration = Duration::from_secs(15);

const OPTIONS: &str = "dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

/// Has a role named "Moderator" (no permission bits).
/// Has Manage Messages (a role named nothing special): may use the moderator slash commands.
fn helper() -> FakeUser {
    FakeUser::new(101, "hal")
}

fn user_named(name: &str) -> FakeUser {
    match name {
        "ann" => ann(),
        "bob" => bob(),
        "cat" => cat(),
        "mod" => helper(),
        other => panic!("unknown player {other}"),
    }
}

async fn world() -> (FakeDiscord, TempDir) {
    let fake = FakeDiscord::start().await;
    fake.add_guild(GUILD, "Irish Gauge");
    fake.add_channel(GUILD, CHANNEL, "game-1");
    fake.add_channel(GUILD, OTHER_CHANNEL, "game-2");
    fake.add_role(GUILD, MODERATOR_ROLE, "Moderator", 0);
    fake.add_role(GUILD, HELPER_ROLE, "Helpers", permissions::MANAGE_MESSAGES);
    fake.add_member(GUILD, &moderator(), &[MODERATOR_ROLE]);
    fake.add_member(GUILD, &helper(), &[HELPER_ROLE]);
    for user in [ann(), bob(), cat()] {
        fake.add_member(GUILD, &user, &[]);
    }
    (fake, tempfile::tempdir().expect("temp dir"))
}

fn config(fake: &FakeDiscord, dir: &Path) -> Config {
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.database = dir.join("gaugebot.db");
    config
}

async fn start_with(fake: &FakeDiscord, config: Config) -> BotHandle {
    let bot = within(
        Duration::from_secs(30),
        "the bot starts",
        discord::start(config, fake.token().to_string()),
    )
    .await
    .expect("the bot starts");
    fake.wait_for_commands(WAIT)
        .await
        .expect("the slash commands are registered");
    bot
}

async fn stop(bot: BotHandle) {
    within(Duration::from_secs(20), "the bot stops", bot.shutdown()).await;
}

/// What the bot did about one interaction: its private answer and its posts in the channel.
struct Answer {
    record: InteractionRecord,
    /// The text the user was answered (the deferred message, filled).
    private: String,
    /// What the bot posted in the channel for everyone after the interaction.
    public: Vec<RecordedMessage>,
}

impl Answer {
    fn public_text(&self) -> String {
        self.public
            .iter()
            .map(|m| m.content.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }

    fn accepted(&self) -> bool {
        self.private.starts_with('✅')
    }
}

/// Waits for the answer to an interaction (the first follow-up fills the deferred message).
async fn answered(fake: &FakeDiscord, channel: u64, interaction: &FakeInteraction) -> Answer {
    let record = fake
        .wait_for_interaction(interaction.id, WAIT, "the answer", |f, r| {
            r.original
                .and_then(|m| f.message(m))
                .is_some_and(|m| m.edit_count > 0)
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let original = record
        .original
        .and_then(|m| fake.message(m))
        .expect("the answer");
    let public = fake
        .bot_messages(channel)
        .into_iter()
        .filter(|m| m.id > interaction.id && !m.ephemeral && m.interaction.is_none())
        .collect();
    Answer {
        private: original.content.clone(),
        record,
        public,
    }
}

/// A slash command and its answer.
async fn slash(
    fake: &FakeDiscord,
    channel: u64,
    user: &FakeUser,
    name: &str,
    options: &[(&str, &str)],
) -> Answer {
    let interaction = fake.slash_command(channel, user, name, options);
    answered(fake, channel, &interaction).await
}

/// The latest message of the bot in the channel that carries buttons, if any.
fn prompt_message(fake: &FakeDiscord, channel: u64) -> Option<RecordedMessage> {
    fake.bot_messages(channel)
        .into_iter()
        .rev()
        .find(|m| !m.deleted && !m.components.is_empty())
}

/// Waits until each of `messages` has lost its buttons.
async fn buttons_removed(fake: &FakeDiscord, messages: &[u64]) {
    fake.wait_for(WAIT, |f| {
        let bare = |id| f.message(id).is_some_and(|m| m.components.is_empty());
        if messages.iter().all(|&id| bare(id)) {
            Ok(())
        } else {
            Err(format!("the buttons of {messages:?} are removed"))
        }
    })
    .await
    .expect("old buttons removed");
}

/// The number of entries in the channel's game log.
async fn log_len(bot: &BotHandle) -> usize {
    let log = bot.tables().store().log(&format!("{CHANNEL}-1")).await;
    log.expect("the log").len()
}

/// The custom ids of a message's buttons.
fn button_ids(message: &RecordedMessage) -> Vec<String> {
    message
        .components
        .iter()
        .flat_map(|row| row["components"].as_array().cloned().unwrap_or_default())
        .filter_map(|b| b["custom_id"].as_str().map(str::to_string))
        .collect()
}

/// A move in the players' notation as a slash command: (name, options).
fn as_slash(text: &str) -> (String, Vec<(String, String)>) {
    let text = text.trim_matches('*').trim();
    if let Some(cubes) = text.strip_prefix("!draw ") {
        return ("draw".into(), vec![("cubes".into(), cubes.into())]);
    }
    let words: Vec<&str> = text.split_whitespace().collect();
    let opt = |n: &str, v: &str| (n.to_string(), v.to_string());
    match words.as_slice() {
        ["bid", n] => ("bid".into(), vec![opt("amount", n)]),
        ["pass"] => ("pass".into(), vec![]),
        ["dividends"] | ["call", "for", "dividends"] | ["call", "dividends"] => {
            ("dividends".into(), vec![])
        }
        ["auction", r] => ("auction".into(), vec![opt("railway", r)]),
        ["auction", r, n] => ("auction".into(), vec![opt("railway", r), opt("amount", n)]),
        ["build", r, hexes @ ..] => (
            "build".into(),
            vec![opt("railway", r), opt("hexes", &hexes.join(" "))],
        ),
        ["interest", town, colour] => (
            "interest".into(),
            vec![opt("town", town), opt("colour", colour)],
        ),
        _ => panic!("no slash form for {text}"),
    }
}

/// The button for a move on the latest prompt, if the prompt has one.
fn button_for(fake: &FakeDiscord, channel: u64, text: &str) -> Option<(u64, String)> {
    let notation = match text.trim_matches('*').trim() {
        "call for dividends" | "call dividends" => "dividends".to_string(),
        other => other.to_string(),
    };
    let prompt = prompt_message(fake, channel)?;
    button_ids(&prompt)
        .into_iter()
        .find(|id| id.ends_with(&format!("|{notation}")))
        .map(|id| (prompt.id, id))
}

/// The moves of the complete manual game (without its setup).
fn transcript() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/complete_manual.txt");
    std::fs::read_to_string(path)
        .expect("read the transcript")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(':'))
        .map(|(n, t)| (n.trim().to_string(), t.trim().to_string()))
        .filter(|(_, t)| !t.starts_with("!setup"))
        .collect()
}

async fn slash_setup(fake: &FakeDiscord, channel: u64) -> Answer {
    let setup = slash(
        fake,
        channel,
        &helper(),
        "setup",
        &[
            ("player1", "1"),
            ("player2", "2"),
            ("player3", "3"),
            ("options", OPTIONS),
        ],
    )
    .await;
    assert!(
        setup.accepted(),
        "{} / {}",
        setup.private,
        setup.public_text()
    );
    setup
}

/// The state dump of a channel's game, without what names the game.
async fn dump(bot: &BotHandle, channel: u64) -> Value {
    let table = bot
        .tables()
        .table(&channel.to_string())
        .await
        .expect("the table");
    table.dump().expect("a running game")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_complete_game_is_played_with_slash_commands_and_buttons_only() {
    let (fake, dir) = world().await;
    let bot = start_with(&fake, config(&fake, dir.path())).await;
    assert!(bot.reads_message_content());

    // The registry's commands, registered once, each with its options.
    let commands = fake.global_commands();
    let names: Vec<&str> = commands.iter().filter_map(|c| c["name"].as_str()).collect();
    for name in [
        "bid",
        "pass",
        "auction",
        "build",
        "interest",
        "dividends",
        "status",
        "moves",
        "map",
        "log",
        "audit",
        "help",
        "setup",
        "undo",
        "draw",
        "reveal",
    ] {
        assert!(names.contains(&name), "/{name} missing: {names:?}");
    }
    let command = |name: &str| commands.iter().find(|c| c["name"] == name).expect(name);
    assert_eq!(command("setup")["default_member_permissions"], "8192");
    assert_eq!(command("undo")["default_member_permissions"], "8192");
    assert!(command("bid")["default_member_permissions"].is_null());
    let build_options: Vec<(&str, bool)> = command("build")["options"]
        .as_array()
        .expect("options")
        .iter()
        .map(|o| (o["name"].as_str().unwrap_or(""), o["autocomplete"] == true))
        .collect();
    assert_eq!(build_options, [("railway", true), ("hexes", true)]);

    let setup = slash_setup(&fake, CHANNEL).await;
    let text = setup.public_text();
    assert!(
        text.starts_with("hal: `!setup @ann @bob @cat dice:manual"),
        "{text}"
    );
    assert!(
        text.contains("Player order (3p3): {1, 2, 3} — ann, bob, cat"),
        "{text}"
    );
    // The new game's live status is pinned.
    let pins = fake.pins(CHANNEL);
    assert_eq!(pins.len(), 1);
    let status_id = pins[0];

    let mut clicks = 0;
    let mut slashes = 0;
    let mut last = None;
    for (name, text) in transcript() {
        let user = user_named(&name);
        let answer = match button_for(&fake, CHANNEL, &text) {
            Some((message, id)) if name != "mod" => {
                clicks += 1;
                let click = fake.click_button(message, &user, &id);
                answered(&fake, CHANNEL, &click).await
            }
            _ => {
                slashes += 1;
                let (command, options) = as_slash(&text);
                let options: Vec<(&str, &str)> = options
                    .iter()
                    .map(|(n, v)| (n.as_str(), v.as_str()))
                    .collect();
                slash(&fake, CHANNEL, &user, &command, &options).await
            }
        };
        assert!(
            answer.accepted(),
            "{name}: {text}: {}\n{}",
            answer.private,
            answer.public_text()
        );
        // Acknowledged (how fast, against Discord's 3 s, is measured by
        // `benches/interactions.rs`: BENCHMARKS.md).
        assert!(answer.record.ack_latency().is_some(), "not acknowledged");
        assert_eq!(answer.record.callback_statuses, [204]);
        assert!(answer.record.deferred());
        // The channel reads like the forum record: the mover and the move in bold.
        let public = answer.public_text();
        if name != "mod" {
            assert!(public.starts_with(&format!("{name}: **")), "{public}");
        }
        last = Some(answer);
    }
    assert!(clicks >= 15, "{clicks} clicks");
    assert!(slashes >= 10, "{slashes} slash commands");
    let last = last.expect("moves");
    let scores = last.public_text();
    assert!(scores.contains("cat wins with £59"), "{scores}");
    // The final report carries the net-worth chart, a PNG.
    let charts: Vec<_> = last
        .public
        .iter()
        .flat_map(|m| m.attachments.iter())
        .filter(|a| a.filename.ends_with(".png") && a.filename.contains("chart"))
        .collect();
    assert_eq!(charts.len(), 1, "one chart with the final report: {scores}");
    assert!(charts[0].data.starts_with(b"\x89PNG"), "the chart is a PNG");

    // One status message, edited in place after every turn, still pinned.
    assert_eq!(fake.pins(CHANNEL), [status_id]);
    let status = fake.message(status_id).expect("the status message");
    assert!(status.edit_count >= 30, "{} edits", status.edit_count);
    assert!(status.content.contains("Live status"), "{}", status.content);
    assert!(status.content.contains("cat £59") || status.content.contains("**Player Status**"));
    // Only the latest prompt has buttons (none at the end: nobody acts).
    assert!(prompt_message(&fake, CHANNEL).is_none());

    // Information: public by default, private on request, /moves always private.
    let public = slash(&fake, CHANNEL, &ann(), "status", &[]).await;
    let public_answer = fake
        .message(public.record.original.expect("answer"))
        .expect("answer");
    assert!(!public_answer.ephemeral && public.private.contains("**Player Status**"));
    let private = slash(&fake, CHANNEL, &ann(), "status", &[("private", "true")]).await;
    assert!(
        fake.message(private.record.original.expect("answer"))
            .expect("answer")
            .ephemeral
    );
    // /recap answers the caller only, with what happened since their last move.
    let recap = slash(&fake, CHANNEL, &ann(), "recap", &[]).await;
    assert!(
        fake.message(recap.record.original.expect("answer"))
            .expect("answer")
            .ephemeral,
        "/recap is private"
    );
    assert!(
        recap.public.is_empty(),
        "/recap posts nothing in the channel"
    );
    assert!(
        recap.private.contains("dividends paid"),
        "the recap names the moves since ann's last one: {}",
        recap.private
    );
    let log = slash(&fake, CHANNEL, &bob(), "log", &[("n", "3")]).await;
    assert!(
        log.private.contains("cat: **dividends**"),
        "{}",
        log.private
    );
    assert!(
        fake.unhandled_requests().is_empty(),
        "{:?}",
        fake.unhandled_requests()
    );
    stop(bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn refusals_are_private_and_stale_buttons_do_nothing() {
    let (fake, dir) = world().await;
    let bot = start_with(&fake, config(&fake, dir.path())).await;
    // Only moderators set up, even if a server admin let everyone see /setup.
    let refused = slash(
        &fake,
        CHANNEL,
        &ann(),
        "setup",
        &[("player1", "1"), ("player2", "2"), ("player3", "3")],
    )
    .await;
    assert!(
        refused.private.contains("only a moderator"),
        "{}",
        refused.private
    );
    assert!(refused.public.is_empty());
    // A moderator by role name (no permission bits) may.
    let setup = slash(
        &fake,
        CHANNEL,
        &moderator(),
        "setup",
        &[
            ("player1", "1"),
            ("player2", "2"),
            ("player3", "3"),
            ("options", OPTIONS),
        ],
    )
    .await;
    assert!(setup.accepted(), "{}", setup.private);

    // ann is to bid: bob's click on her prompt is refused privately; nothing changes.
    let prompt = prompt_message(&fake, CHANNEL).expect("the prompt has buttons");
    let ids = button_ids(&prompt);
    assert!(ids.iter().any(|id| id.ends_with("|bid 7")), "{ids:?}");
    let pass = ids.iter().find(|id| id.ends_with("|pass")).expect("pass");
    let wrong = fake.click_button(prompt.id, &bob(), pass);
    let wrong = answered(&fake, CHANNEL, &wrong).await;
    assert!(
        wrong.private.contains("❌ bob: **pass**"),
        "{}",
        wrong.private
    );
    assert!(wrong.public.is_empty());
    let out_of_turn = slash(&fake, CHANNEL, &cat(), "bid", &[("amount", "9")]).await;
    assert!(
        out_of_turn.private.contains("❌ cat: **bid 9**"),
        "{}",
        out_of_turn.private
    );

    // ann bids by writing; the old prompt's buttons go, and a click on them is stale.
    let id = fake.post_user_message(CHANNEL, Some(GUILD), &ann(), "**bid 7**");
    fake.wait_for_reactions(id, 1, WAIT)
        .await
        .expect("a reaction");
    let stale = fake.click_button(prompt.id, &ann(), pass);
    let stale = answered(&fake, CHANNEL, &stale).await;
    assert!(
        stale.private.contains("earlier prompt"),
        "{}",
        stale.private
    );
    buttons_removed(&fake, &[prompt.id]).await;
    assert_eq!(log_len(&bot).await, 1);
    stop(bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_bid_offers_the_nearest_legal_bid_as_a_button() {
    let (fake, dir) = world().await;
    let bot = start_with(&fake, config(&fake, dir.path())).await;
    let setup = fake.post_user_message(CHANNEL, Some(GUILD), &moderator(), SETUP);
    fake.wait_for_reactions(setup, 1, WAIT)
        .await
        .expect("the setup is answered");
    let prompt = prompt_message(&fake, CHANNEL).expect("the prompt has buttons");
    // ann writes a bid below the face value: refused, with the least bid as a button.
    let low = fake.post_user_message(CHANNEL, Some(GUILD), &ann(), "I open **bid 5**");
    let reactions = fake
        .wait_for_reactions(low, 1, WAIT)
        .await
        .expect("a reaction");
    assert_eq!(reactions, ["❌"]);
    let refusal = fake
        .wait_for(WAIT, |f| {
            f.bot_messages(CHANNEL)
                .into_iter()
                .find(|m| m.referenced_message == Some(low) && !m.components.is_empty())
                .ok_or_else(|| "the refusal with its button".to_string())
        })
        .await
        .expect("the refusal offers a button");
    assert!(
        refusal
            .content
            .contains("face value of £7 (ruling 2) — the nearest legal move: **bid 7**"),
        "{}",
        refusal.content
    );
    let ids = button_ids(&refusal);
    assert_eq!(ids.len(), 1, "{ids:?}");
    assert!(ids[0].ends_with("|bid 7"), "{ids:?}");
    assert_eq!(
        refusal.components[0]["components"][0]["label"], "Bid 7",
        "{:?}",
        refusal.components
    );
    // The prompt keeps its buttons: they are still good.
    assert!(fake
        .message(prompt.id)
        .is_some_and(|m| !m.components.is_empty()));
    // bob's text out of turn offers nothing.
    let bob_low = fake.post_user_message(CHANNEL, Some(GUILD), &bob(), "**bid 5**");
    fake.wait_for_reactions(bob_low, 1, WAIT)
        .await
        .expect("a reaction");
    assert!(
        fake.bot_messages(CHANNEL)
            .iter()
            .filter(|m| m.referenced_message == Some(bob_low))
            .all(|m| m.components.is_empty()),
        "no button for bob"
    );
    // bob's click on ann's offer is refused privately; ann's click bids.
    let wrong = fake.click_button(refusal.id, &bob(), &ids[0]);
    let wrong = answered(&fake, CHANNEL, &wrong).await;
    assert!(
        wrong.private.contains("❌ bob: **bid 7**"),
        "{}",
        wrong.private
    );
    let click = fake.click_button(refusal.id, &ann(), &ids[0]);
    let click = answered(&fake, CHANNEL, &click).await;
    assert!(click.accepted(), "{}", click.private);
    assert!(
        click.public_text().contains("ann bids £7"),
        "{}",
        click.public_text()
    );
    // The game moved on: the offer and the old prompt lose their buttons.
    buttons_removed(&fake, &[refusal.id, prompt.id]).await;
    assert_eq!(log_len(&bot).await, 1, "one bid, nothing else");
    stop(bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn autocomplete_answers_with_the_legal_moves() {
    let (fake, dir) = world().await;
    let bot = start_with(&fake, config(&fake, dir.path())).await;
    let id = fake.post_user_message(CHANNEL, Some(GUILD), &helper(), SETUP);
    fake.wait_for_reactions(id, 1, WAIT).await.expect("setup");

    let choices = |r: &InteractionRecord| -> Vec<(String, String)> {
        r.choices
            .iter()
            .map(|c| {
                (
                    c["name"].as_str().unwrap_or("").to_string(),
                    c["value"].to_string(),
                )
            })
            .collect()
    };
    // The least bid first, as a number.
    let ask = fake.autocomplete(CHANNEL, &ann(), "bid", &[("amount", "")], "amount");
    let record = fake.wait_for_ack(ask.id, WAIT).await.expect("answered");
    assert_eq!(record.callback.as_ref().map(|c| c.kind), Some(8));
    let bids = choices(&record);
    assert_eq!(bids[0], ("£7 (the least bid)".to_string(), "7".to_string()));
    // Answered (how fast is measured by `benches/interactions.rs`: BENCHMARKS.md).
    assert!(record.ack_latency().is_some(), "not answered");
    // Someone not to act gets nothing.
    let ask = fake.autocomplete(CHANNEL, &bob(), "bid", &[("amount", "")], "amount");
    assert!(choices(&fake.wait_for_ack(ask.id, WAIT).await.expect("answered")).is_empty());

    // Play the initial auctions to ann's first turn.
    for (name, text) in transcript()
        .into_iter()
        .take_while(|(_, t)| !t.contains("build"))
    {
        let id = fake.post_user_message(CHANNEL, Some(GUILD), &user_named(&name), &text);
        let r = fake
            .wait_for_reactions(id, 1, WAIT)
            .await
            .expect("a reaction");
        assert_eq!(r, ["✅"], "{name}: {text}");
    }
    let ask = fake.autocomplete(CHANNEL, &ann(), "build", &[("railway", "")], "railway");
    let railways = choices(&fake.wait_for_ack(ask.id, WAIT).await.expect("answered"));
    assert_eq!(railways.len(), 1, "{railways:?}");
    assert!(railways[0].0.starts_with("CBSC"), "{railways:?}");
    let ask = fake.autocomplete(
        CHANNEL,
        &ann(),
        "build",
        &[("railway", "CBSC"), ("hexes", "")],
        "hexes",
    );
    let hexes = choices(&fake.wait_for_ack(ask.id, WAIT).await.expect("answered"));
    assert!(!hexes.is_empty());
    assert!(
        hexes.iter().all(|(label, _)| label.contains("BP")),
        "{hexes:?}"
    );
    assert!(hexes.iter().any(|(_, v)| v == "\"O3\""), "{hexes:?}");
    // A second hex after the first: the build so far, then the next.
    let ask = fake.autocomplete(
        CHANNEL,
        &ann(),
        "build",
        &[("railway", "CBSC"), ("hexes", "O3 N")],
        "hexes",
    );
    let next = choices(&fake.wait_for_ack(ask.id, WAIT).await.expect("answered"));
    assert!(next.iter().any(|(_, v)| v == "\"O3 N5\""), "{next:?}");
    assert!(
        next.iter().all(|(_, v)| v.starts_with("\"O3 N")),
        "{next:?}"
    );
    let ask = fake.autocomplete(CHANNEL, &ann(), "auction", &[("railway", "")], "railway");
    let auctions = choices(&fake.wait_for_ack(ask.id, WAIT).await.expect("answered"));
    assert!(
        auctions.iter().any(|(l, _)| l.starts_with("WLW")),
        "{auctions:?}"
    );
    let ask = fake.autocomplete(
        CHANNEL,
        &ann(),
        "interest",
        &[("town", "x"), ("colour", "p")],
        "colour",
    );
    let colours = choices(&fake.wait_for_ack(ask.id, WAIT).await.expect("answered"));
    assert!(colours.iter().all(|(_, v)| v == "\"pink\""), "{colours:?}");
    // The suggested build is accepted as is.
    let built = slash(
        &fake,
        CHANNEL,
        &ann(),
        "build",
        &[("railway", "CBSC"), ("hexes", "O3 N5")],
    )
    .await;
    assert!(built.accepted(), "{}", built.private);
    assert!(built.public_text().starts_with("ann: **build CBSC O3 N5**"));
    assert!(
        built.public.iter().any(|m| !m.attachments.is_empty()),
        "the map"
    );
    stop(bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_mixed_game_reaches_the_state_of_the_bold_game() {
    let (fake, dir) = world().await;
    let bot = start_with(&fake, config(&fake, dir.path())).await;
    let id = fake.post_user_message(CHANNEL, Some(GUILD), &helper(), SETUP);
    fake.wait_for_reactions(id, 1, WAIT).await.expect("setup");
    slash_setup(&fake, OTHER_CHANNEL).await;
    for (i, (name, text)) in transcript().into_iter().enumerate() {
        let user = user_named(&name);
        let id = fake.post_user_message(CHANNEL, Some(GUILD), &user, &text);
        let bold = fake
            .wait_for_reactions(id, 1, WAIT)
            .await
            .expect("a reaction");
        assert_eq!(bold, ["✅"], "{name}: {text}");
        if i % 2 == 0 {
            let id = fake.post_user_message(OTHER_CHANNEL, Some(GUILD), &user, &text);
            let r = fake
                .wait_for_reactions(id, 1, WAIT)
                .await
                .expect("a reaction");
            assert_eq!(r, ["✅"], "{name}: {text}");
        } else {
            let (command, options) = as_slash(&text);
            let options: Vec<(&str, &str)> = options
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .collect();
            let answer = slash(&fake, OTHER_CHANNEL, &user, &command, &options).await;
            assert!(answer.accepted(), "{name}: {text}: {}", answer.private);
        }
    }
    assert_eq!(dump(&bot, CHANNEL).await, dump(&bot, OTHER_CHANNEL).await);
    let status = |channel: u64| {
        let bot = &bot;
        async move {
            bot.tables()
                .table(&channel.to_string())
                .await
                .expect("table")
                .status_text()
                .expect("status")
        }
    };
    // The same report, but for the game's id in its title and the record's head (each game's
    // record has its own id, channel and messages).
    let without_head = |text: String| {
        text.lines()
            .filter(|l| !l.starts_with("-# Record"))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert_eq!(
        without_head(status(CHANNEL).await).replace(&format!("{CHANNEL}-1"), "game"),
        without_head(status(OTHER_CHANNEL).await).replace(&format!("{OTHER_CHANNEL}-1"), "game")
    );
    // Each slash move is in the log under its interaction, with its author.
    let log = bot
        .tables()
        .store()
        .log(&format!("{OTHER_CHANNEL}-1"))
        .await
        .expect("the log");
    assert!(log
        .iter()
        .any(|r| r.text == "**bid 5**" && r.author_name == "bob"));
    stop(bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_message_content_intent_mentions_slash_commands_and_buttons_work() {
    let (fake, dir) = world().await;
    // The application has no Message Content intent: auto detects it and does not ask.
    fake.set_application_flags(0);
    let bot = start_with(&fake, config(&fake, dir.path())).await;
    assert!(!bot.reads_message_content());
    let intents = fake.last_intents().expect("identified");
    assert_eq!(
        intents & (1 << 15),
        0,
        "the privileged intent was asked for"
    );

    let setup = slash_setup(&fake, CHANNEL).await;
    assert!(setup.public_text().contains("ann, bob, cat"));
    // Bold without a mention arrives empty: nothing is read.
    let unread = fake.post_user_message(CHANNEL, Some(GUILD), &ann(), "**bid 7**");
    // A mention is read: the move, then a command by its name.
    let mention = format!("<@{}> bid 7", fake.bot_user_id());
    let id = fake.post_user_message(CHANNEL, Some(GUILD), &ann(), &mention);
    assert_eq!(
        fake.wait_for_reactions(id, 1, WAIT)
            .await
            .expect("a reaction"),
        ["✅"]
    );
    assert!(fake.reactions(unread).is_empty());
    let asked = format!("<@{}> status", fake.bot_user_id());
    let id = fake.post_user_message(CHANNEL, Some(GUILD), &cat(), &asked);
    let reply = fake
        .wait_for(WAIT, |f| {
            f.bot_messages(CHANNEL)
                .into_iter()
                .find(|m| m.referenced_message == Some(id))
                .ok_or_else(|| "the status".to_string())
        })
        .await
        .expect("answered");
    assert!(
        reply.content.contains("high bid £7 by ann"),
        "{}",
        reply.content
    );
    // A button and a slash command.
    let (message, pass) = button_for(&fake, CHANNEL, "pass").expect("a pass button");
    let click = fake.click_button(message, &bob(), &pass);
    assert!(answered(&fake, CHANNEL, &click).await.accepted());
    let passed = slash(&fake, CHANNEL, &cat(), "pass", &[]).await;
    assert!(passed.accepted(), "{}", passed.private);
    assert!(
        passed
            .public_text()
            .contains("ann wins the CBSC £7 share for £7"),
        "{}",
        passed.public_text()
    );
    stop(bot).await;

    // Switched off in the configuration, whatever the application may.
    fake.set_application_flags(fakediscord::APP_FLAG_MESSAGE_CONTENT_LIMITED);
    let mut off = config(&fake, dir.path());
    off.discord.message_content = MessageContent::Off;
    let bot = start_with(&fake, off).await;
    assert!(!bot.reads_message_content());
    assert_eq!(fake.last_intents().expect("identified") & (1 << 15), 0);
    stop(bot).await;
}

const FORUM: u64 = 520;

/// Posts a message and waits for its reaction.
async fn posted(fake: &FakeDiscord, channel: u64, user: &FakeUser, text: &str) -> u64 {
    let id = fake.post_user_message(channel, Some(GUILD), user, text);
    let reactions = fake
        .wait_for_reactions(id, 1, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(reactions, ["✅"], "{text}");
    id
}

/// One move of the transcript by bold text (`way` 0), slash command (1) or button (2, when the
/// prompt has one; else a slash command).
async fn play_one(fake: &FakeDiscord, channel: u64, name: &str, text: &str, way: usize) {
    let user = user_named(name);
    if way == 0 {
        posted(fake, channel, &user, text).await;
        return;
    }
    let answer = match button_for(fake, channel, text) {
        Some((message, id)) if way == 2 && name != "mod" => {
            let click = fake.click_button(message, &user, &id);
            answered(fake, channel, &click).await
        }
        _ => {
            let (command, options) = as_slash(text);
            let options: Vec<(&str, &str)> = options
                .iter()
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .collect();
            slash(fake, channel, &user, &command, &options).await
        }
    };
    assert!(answer.accepted(), "{name}: {text}: {}", answer.private);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_in_a_forum_post_plays_to_its_end_across_restarts_and_archiving() {
    let (fake, dir) = world().await;
    fake.add_forum(GUILD, FORUM, "games");
    let bot = start_with(&fake, config(&fake, dir.path())).await;

    // The moderator opens a post whose first message sets the game up.
    let thread = fake.create_forum_post(GUILD, FORUM, "Game 1", &helper(), SETUP);
    let reactions = fake
        .wait_for_reactions(thread, 1, WAIT)
        .await
        .expect("a reaction");
    assert_eq!(reactions, ["✅"]);
    let status = fake
        .wait_for(WAIT, |f| match f.pins(thread).as_slice() {
            [one] => Ok(*one),
            other => Err(format!("pins in the post: {other:?}")),
        })
        .await
        .expect("the live status is pinned in the post");
    assert!(fake
        .message(status)
        .expect("status")
        .content
        .contains("Live status"));

    let moves = transcript();
    let third = moves.len() / 3;
    let mut bot = Some(bot);
    for (i, (name, text)) in moves.iter().enumerate() {
        if i == third {
            // Down: three moves are posted, then the post is archived (it leaves GUILD_CREATE).
            stop(bot.take().expect("running")).await;
            let mut missed = Vec::new();
            for (name, text) in &moves[i..i + 3] {
                missed.push(fake.post_user_message(thread, Some(GUILD), &user_named(name), text));
            }
            fake.set_thread_archived(thread, true);
            bot = Some(start_with(&fake, config(&fake, dir.path())).await);
            for id in missed {
                let reactions = fake
                    .wait_for_reactions(id, 1, WAIT)
                    .await
                    .expect("caught up");
                assert_eq!(reactions, ["✅"]);
            }
            continue;
        }
        if (third..third + 3).contains(&i) {
            continue;
        }
        if i == 2 * third {
            // Archived while the bot runs; the next move unarchives it and is read.
            fake.set_thread_archived(thread, true);
            assert!(fake.is_archived(thread));
            posted(&fake, thread, &user_named(name), text).await;
            assert!(!fake.is_archived(thread));
            continue;
        }
        play_one(&fake, thread, name, text, i % 3).await;
    }
    let end = fake
        .wait_for(WAIT, |f| {
            f.bot_messages(thread)
                .into_iter()
                .find(|m| m.content.contains("cat wins with £59"))
                .ok_or_else(|| "the final scores".to_string())
        })
        .await
        .expect("the game ends");
    assert!(end.content.contains("cat wins with £59"));
    // One status message all game long, pinned in the post, edited after every turn.
    assert_eq!(fake.pins(thread), [status]);
    assert!(fake.message(status).expect("status").edit_count >= 30);
    assert!(fake.pins(CHANNEL).is_empty());
    stop(bot.take().expect("running")).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn signups_in_a_forum_post_start_the_game_there() {
    let (fake, dir) = world().await;
    fake.add_forum(GUILD, FORUM, "games");
    let bot = start_with(&fake, config(&fake, dir.path())).await;
    let thread = fake.create_forum_post(
        GUILD,
        FORUM,
        "Irish Gauge, 3 players",
        &helper(),
        "!signup open players:3 closes:24h",
    );
    fake.wait_for_reactions(thread, 1, WAIT)
        .await
        .expect("opened");
    for user in [ann(), bob(), cat()] {
        posted(&fake, thread, &user, "I'm in, **sign up**").await;
    }
    posted(&fake, thread, &helper(), "!signup close").await;
    fake.wait_for(WAIT, |f| match f.pins(thread).as_slice() {
        [_] => Ok(()),
        other => Err(format!("pins in the post: {other:?}")),
    })
    .await
    .expect("the new game's status is pinned in the post");
    let state = dump(&bot, thread).await;
    assert!(state.to_string().contains("ann"), "{state}");
    stop(bot).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn archived_forum_posts_up_to_date_cost_no_request_each_on_restart() {
    const POSTS: usize = 20;
    let (fake, dir) = world().await;
    fake.add_forum(GUILD, FORUM, "games");
    let bot = start_with(&fake, config(&fake, dir.path())).await;
    let mut threads = Vec::new();
    for i in 0..POSTS {
        let thread = fake.create_forum_post(GUILD, FORUM, &format!("Game {i}"), &helper(), SETUP);
        fake.wait_for_reactions(thread, 1, WAIT)
            .await
            .expect("set up");
        threads.push(thread);
    }
    // Let every status be posted (and pinned) before the bot stops.
    fake.wait_for(WAIT, |f| {
        let pinned = threads.iter().filter(|t| f.pins(**t).len() == 1).count();
        (pinned == POSTS)
            .then_some(())
            .ok_or_else(|| format!("{pinned} statuses pinned"))
    })
    .await
    .expect("every status pinned");
    // The bot moves each post's cursor past its own posts when their gateway events come back,
    // after the pins: wait for that, or a restart rightly reads a post whose cursor lags.
    let store = bot.tables().store().clone();
    let settled = tokio::time::Instant::now();
    loop {
        let mut lagging = Vec::new();
        for thread in &threads {
            let last = fake
                .channel_messages(*thread)
                .iter()
                .filter(|m| !m.deleted)
                .map(|m| m.id)
                .max();
            let cursor = store
                .cursor(&thread.to_string())
                .await
                .expect("a cursor")
                .and_then(|c| c.parse::<u64>().ok());
            if last > cursor {
                lagging.push(*thread);
            }
        }
        if lagging.is_empty() {
            break;
        }
        assert!(
            settled.elapsed() < WAIT * 3,
            "cursors behind their posts' last message: {lagging:?}"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    stop(bot).await;
    // While down: a move in the first post; then every post is archived.
    let missed = fake.post_user_message(threads[0], Some(GUILD), &ann(), "**bid 7**");
    for thread in &threads {
        fake.set_thread_archived(*thread, true);
    }
    let from = fake.requests().len();
    let bot = start_with(&fake, config(&fake, dir.path())).await;
    let reactions = fake
        .wait_for_reactions(missed, 1, WAIT)
        .await
        .expect("caught up");
    assert_eq!(reactions, ["✅"]);
    let after: Vec<_> = fake.requests().into_iter().skip(from).collect();
    let count =
        |route: fakediscord::RouteKind| after.iter().filter(|r| r.route == Some(route)).count();
    // One listing of the forum's archived posts; history read only in the post that is behind.
    assert_eq!(count(fakediscord::RouteKind::ArchivedThreads), 1);
    let histories: Vec<&str> = after
        .iter()
        .filter(|r| r.route == Some(fakediscord::RouteKind::GetMessages))
        .map(|r| r.path.as_str())
        .collect();
    let first = format!("/api/v10/channels/{}/messages", threads[0]);
    assert!(
        !histories.is_empty() && histories.iter().all(|p| *p == first),
        "{histories:?}"
    );
    let counts = bot.restart_counts();
    assert_eq!(counts.active, POSTS);
    assert_eq!(counts.fresh, POSTS - 1, "{counts:?}");
    assert_eq!(counts.unplaced, 1, "{counts:?}");
    stop(bot).await;
}
