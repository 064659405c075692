//! Issue 31, finding 2 (b), through the real serenity client against the fake Discord
//! (docs/DICE.md §1 and its threat table §10): `!setup` of a game with audited dice posts the
//! dice commitment alone; the setup's announcement follows in a post of its own, and its draws
//! recompute from the id Discord gave the commitment post — an id that did not exist when the
//! seed was committed — and not from the `!setup` message's id.

use std::sync::Arc;

use fakediscord::{within, FakeDiscord, RecordedMessage};
use gaugebot_store::SqliteStore;
use gaugebot_table::dice::AuditExport;
use gaugebot_table::record::GameRecord;
use gaugebot_table::{TableSettings, Tables};

mod fake_table;
use fake_table::{accepted, ann, bob, cat, guild, moderator, start, CHANNEL, WAIT};

/// The bot's first post in the channel whose text contains `text`.
async fn bot_post(fake: &FakeDiscord, text: &str) -> RecordedMessage {
    fake.wait_for(WAIT, |f| {
        f.bot_messages(CHANNEL)
            .into_iter()
            .find(|m| m.content.contains(text))
            .ok_or_else(|| format!("a post with '{text}'"))
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"))
}

/// Whether the setup draws of `record` recompute (with its revealed seed) under `client`.
fn setup_draws_recompute(record: &GameRecord, client: &str) -> bool {
    let export = AuditExport {
        version: record.version.clone(),
        game_id: record.game_id.clone(),
        commitment: record.commitment.clone().unwrap_or_default(),
        seed: record.seed.clone(),
        draws: record
            .draws
            .iter()
            .filter(|d| d.input("seq").is_none())
            .cloned()
            .collect(),
        format: None,
        client_seed: Some(client.to_string()),
    };
    assert!(!export.draws.is_empty(), "the game has setup draws");
    gaugebot::games::verify(&export).is_ok_and(|report| report.is_ok())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_setup_draws_recompute_from_the_commitment_posts_id() {
    let fake = FakeDiscord::start().await;
    guild(&fake, "Irish Gauge", &[ann(), bob(), cat()]);
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("gaugebot.db");
    let bot = start(&fake, &db, |_| {}).await;

    let setup = accepted(&fake, &moderator(), "!setup <@1> <@2> <@3>").await;
    let commitment = bot_post(&fake, "dice commitment").await;
    let announcement = bot_post(&fake, "Client seed: `").await;
    assert_eq!(
        commitment.referenced_message,
        Some(setup),
        "the answer to !setup"
    );
    assert!(
        !commitment.content.contains("Player order") && !commitment.content.contains("City cubes"),
        "no setup draw before the commitment is posted: {}",
        commitment.content
    );
    assert!(
        announcement.id > commitment.id,
        "the setup follows the commitment"
    );
    assert!(
        announcement
            .content
            .contains(&format!("Client seed: `{}`", commitment.id)),
        "the announcement names the commitment post's id: {}",
        announcement.content
    );
    assert!(
        announcement.content.contains("City cubes"),
        "{}",
        announcement.content
    );
    accepted(&fake, &moderator(), "!reveal confirm").await;
    within(WAIT, "the bot stops", bot.shutdown()).await;

    // The record as stored: its client seed is the commitment post's id, and the setup draws
    // recompute from it, not from the `!setup` message's id.
    let store = SqliteStore::open(&db.to_string_lossy())
        .await
        .expect("the database");
    let host = gaugebot::games::host(None, TableSettings::default()).expect("the host");
    let tables = Tables::new(Arc::new(store), host);
    let record = tables
        .table(&CHANNEL.to_string())
        .await
        .expect("the table loads")
        .record()
        .expect("the game's record");
    let client = commitment.id.to_string();
    assert_eq!(record.client_seed.as_deref(), Some(client.as_str()));
    assert!(record.seed.is_some(), "the seed is revealed");
    assert!(setup_draws_recompute(&record, &client));
    assert!(!setup_draws_recompute(&record, &setup.to_string()));
    gaugebot_table::record::check_v3(&record).expect("the record's v3 rules hold");
}
