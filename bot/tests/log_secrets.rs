//! The bot's token never reaches its logs, at any level (issue 31, finding 3): the gateway's
//! WebSocket library traces every frame it sends, IDENTIFY with the token among them, so the
//! bot's log filter caps it ([`gaugebot::logging::filter`]). This runs the real bot against
//! the fake Discord with everything at trace level, plays a move, and greps what was logged.

mod fake_table;

use std::sync::Mutex;

use fake_table::{accepted, ann, bob, cat, guild, moderator, start};
use fakediscord::FakeDiscord;

/// Everything logged, kept to look for the token.
static LOGS: Mutex<Vec<u8>> = Mutex::new(Vec::new());

struct Capture;

impl std::io::Write for Capture {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        LOGS.lock()
            .unwrap_or_else(|e| e.into_inner())
            .extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn at_trace_level_the_token_is_never_logged() {
    tracing_subscriber::fmt()
        .with_env_filter(gaugebot::logging::filter(Some("trace")))
        .with_ansi(false)
        .with_writer(|| Capture)
        .init();
    let fake = FakeDiscord::start().await;
    guild(&fake, "Irish Gauge", &[ann(), bob(), cat()]);
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = start(&fake, &dir.path().join("bot.db"), |_| {}).await;
    accepted(
        &fake,
        &moderator(),
        "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12",
    )
    .await;
    accepted(&fake, &ann(), "**bid 7**").await;
    bot.shutdown().await;
    let logs = String::from_utf8_lossy(&LOGS.lock().unwrap_or_else(|e| e.into_inner())).to_string();
    // Trace level was on: the bot's own traces and the gateway library's debug lines are there.
    assert!(logs.contains("TRACE"), "nothing was traced");
    assert!(
        logs.contains("tungstenite"),
        "the gateway library logged nothing"
    );
    let secret = fake.token().rsplit('.').next().unwrap_or(fake.token());
    assert!(!logs.contains(secret), "the token was logged");
    assert!(!logs.contains(fake.token()), "the token was logged");
}
