//! What a new server admin meets when the bot cannot get in: a refused token and a Message
//! Content intent not enabled in the Developer Portal each stop the bot at once with what to do.

use std::path::Path;
use std::time::Duration;

use fakediscord::{within, FakeDiscord};
use gaugebot::config::{Config, MessageContent};
use gaugebot::discord::{self, SetupError};

fn config(fake: &FakeDiscord, dir: &Path) -> Config {
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.database = dir.join("gaugebot.db");
    config
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_refused_token_stops_the_bot_at_once_naming_the_variable() {
    let fake = FakeDiscord::start().await;
    fake.add_channel(500, 501, "game-1");
    let dir = tempfile::tempdir().expect("temp dir");
    let outcome = within(
        Duration::from_secs(10),
        "the bot gives up",
        discord::start(config(&fake, dir.path()), "not-the-token".to_string()),
    )
    .await;
    let error = outcome.err().expect("refused");
    assert_eq!(
        error.downcast_ref::<SetupError>(),
        Some(&SetupError::TokenRefused {
            env: "DISCORD_TOKEN".to_string()
        })
    );
    let shown = format!("{error:#}");
    assert!(
        shown.contains("401 Unauthorized")
            && shown.contains("check the environment variable DISCORD_TOKEN"),
        "{shown}"
    );
    // It never got as far as the gateway, nor created the database.
    assert_eq!(fake.identify_count(), 0);
    assert!(!dir.path().join("gaugebot.db").exists());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_missing_message_content_intent_says_where_to_enable_it() {
    let fake = FakeDiscord::start().await;
    fake.add_channel(500, 501, "game-1");
    // The application has not enabled the intent, and the configuration asks for it.
    fake.set_application_flags(0);
    let dir = tempfile::tempdir().expect("temp dir");
    let mut config = config(&fake, dir.path());
    config.discord.message_content = MessageContent::On;
    let outcome = within(
        Duration::from_secs(15),
        "the bot gives up",
        discord::start(config, fake.token().to_string()),
    )
    .await;
    let error = outcome.err().expect("refused");
    assert_eq!(
        error.downcast_ref::<SetupError>(),
        Some(&SetupError::IntentDisallowed)
    );
    let shown = format!("{error:#}");
    assert!(
        shown.contains("close code 4014")
            && shown.contains(
                "Developer Portal → Applications → your application → Bot → Privileged Gateway Intents → Message Content"
            ),
        "{shown}"
    );
    assert_eq!(fake.connected_sessions(), 0, "no session is left trying");
}
