//! One guild with one game channel in the fake Discord, its players and a moderator, and the
//! game bot started against it: what the fake-Discord tests of a table share
//! (`discord_automa.rs`, `discord_recap.rs`, `discord_outbox.rs`; the players alone also
//! `discord_e2e.rs`, `discord_slash.rs`, `discord_outages.rs`, `multiprocess.rs`).
// Each test binary that includes this module uses only part of it.
#![allow(dead_code)]

use std::time::Duration;

use fakediscord::{within, FakeDiscord, FakeUser};
use gaugebot::config::Config;
use gaugebot::discord::{self, BotHandle};

/// The guild.
pub const GUILD: u64 = 500;
/// The game channel.
pub const CHANNEL: u64 = 501;
/// The moderators' role.
pub const MODERATOR_ROLE: u64 = 600;
/// How long a test waits for the bot.
pub const WAIT: Duration = Duration::from_secs(20);

pub fn ann() -> FakeUser {
    FakeUser::new(1, "ann")
}
pub fn bob() -> FakeUser {
    FakeUser::new(2, "bob")
}
pub fn cat() -> FakeUser {
    FakeUser::new(3, "cat")
}
pub fn moderator() -> FakeUser {
    FakeUser::new(100, "mona")
}

/// A player of the transcripts by name (anyone else is the moderator).
pub fn user(name: &str) -> FakeUser {
    match name {
        "ann" => ann(),
        "bob" => bob(),
        "cat" => cat(),
        _ => moderator(),
    }
}

/// The moves of the hand-computed game (bot/tests/games/complete_manual.txt) after its setup.
pub fn moves() -> Vec<(String, String)> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games/complete_manual.txt");
    std::fs::read_to_string(path)
        .expect("the transcript")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split_once(':'))
        .map(|(who, text)| (who.trim().to_string(), text.trim().to_string()))
        .filter(|(_, text)| !text.starts_with("!setup"))
        .collect()
}

/// The guild and its channel, with the moderator and `players` as members.
pub fn guild(fake: &FakeDiscord, name: &str, players: &[FakeUser]) {
    fake.add_guild(GUILD, name);
    fake.add_channel(GUILD, CHANNEL, "game");
    fake.add_role(GUILD, MODERATOR_ROLE, "Moderator", 0);
    fake.add_member(GUILD, &moderator(), &[MODERATOR_ROLE]);
    for user in players {
        fake.add_member(GUILD, user, &[]);
    }
}

/// The bot on the database `db`, with the configuration `tweak` makes of the test default
/// (moderators by role, no map after builds).
pub async fn start(
    fake: &FakeDiscord,
    db: &std::path::Path,
    tweak: impl FnOnce(&mut Config),
) -> BotHandle {
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.discord.moderator_roles = vec!["Moderator".to_string()];
    config.database = db.to_path_buf();
    config.map.after_build = false;
    tweak(&mut config);
    within(
        WAIT,
        "the bot starts",
        discord::start(config, fake.token().to_string()),
    )
    .await
    .expect("the bot starts")
}

/// Posts a message in the game channel and waits for its ✅; returns its id.
pub async fn accepted(fake: &FakeDiscord, user: &FakeUser, text: &str) -> u64 {
    let id = fake.post_user_message(CHANNEL, Some(GUILD), user, text);
    let reactions = fake.wait_for_reactions(id, 1, WAIT).await.expect(text);
    assert_eq!(reactions, ["✅"], "{text}");
    id
}

/// Posts a message, waits for its ✅ and returns the bot's reply to it.
pub async fn reply_to(fake: &FakeDiscord, user: &FakeUser, text: &str) -> String {
    let id = accepted(fake, user, text).await;
    reply_of(fake, CHANNEL, id, text).await
}

/// Posts a message in `channel` of `guild` and returns the bot's reply to it (a question
/// answered: no reaction to wait for).
pub async fn answer_in(
    fake: &FakeDiscord,
    guild: u64,
    channel: u64,
    user: &FakeUser,
    text: &str,
) -> String {
    let id = fake.post_user_message(channel, Some(guild), user, text);
    reply_of(fake, channel, id, text).await
}

/// The bot's reply in `channel` to the message `id` (`text`), once posted.
async fn reply_of(fake: &FakeDiscord, channel: u64, id: u64, text: &str) -> String {
    fake.wait_for(WAIT, |f| {
        f.bot_messages(channel)
            .into_iter()
            .find(|m| m.referenced_message == Some(id))
            .map(|m| m.content)
            .ok_or_else(|| format!("the reply to {text}"))
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Runs a slash command and returns its private answer (the deferred message, filled).
pub async fn slash_answer(
    fake: &FakeDiscord,
    channel: u64,
    user: &FakeUser,
    name: &str,
    options: &[(&str, &str)],
) -> fakediscord::RecordedMessage {
    let slash = fake.slash_command(channel, user, name, options);
    private_answer(fake, slash.id).await
}

/// The private answer to the interaction `id` (a slash command, a click): the deferred
/// message, once filled.
pub async fn private_answer(fake: &FakeDiscord, id: u64) -> fakediscord::RecordedMessage {
    let record = fake
        .wait_for_interaction(id, WAIT, "the answer", |f, r| {
            r.original
                .and_then(|m| f.message(m))
                .is_some_and(|m| m.edit_count > 0)
        })
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    record
        .original
        .and_then(|m| fake.message(m))
        .expect("the answer")
}
