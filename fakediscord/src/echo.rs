//! A minimal real serenity bot that echoes every non-bot message: the baseline for latency
//! comparisons and the proof that the fake works with the unmodified client.

use std::sync::Arc;
use std::time::Duration;

use serenity::all::{
    ClientBuilder, Context, EventHandler, GatewayIntents, HttpBuilder, Message, Ready, ShardManager,
};
use serenity::async_trait;
use tokio::task::JoinHandle;

use crate::server::FakeDiscord;

/// Work the echo bot does before each reply (see [`spawn_echo_bot_with_work`]).
pub type BeforeReply = Arc<dyn Fn(&Message) + Send + Sync>;

/// The echo bot's event handler: replies to each message (not from a bot) with its content,
/// after `before_reply` if any.
struct Echo {
    before_reply: Option<BeforeReply>,
}

#[async_trait]
impl EventHandler for Echo {
    async fn message(&self, ctx: Context, msg: Message) {
        if msg.author.bot {
            return;
        }
        if let Some(work) = &self.before_reply {
            work(&msg);
        }
        if let Err(e) = msg.channel_id.say(&ctx.http, &msg.content).await {
            eprintln!("echo bot: reply failed: {e}");
        }
    }

    async fn ready(&self, _ctx: Context, _ready: Ready) {}
}

/// A running echo bot. Call [`EchoBotHandle::shutdown`] to stop it (dropping it leaves the
/// client running until the runtime ends).
pub struct EchoBotHandle {
    shard_manager: Arc<ShardManager>,
    task: JoinHandle<()>,
}

impl EchoBotHandle {
    /// Shuts every shard down (serenity takes about 0.5 s) and waits for the client task,
    /// at most 5 s.
    ///
    /// Each shard runner is told to shut down directly first: after a shard restart (e.g. a
    /// missed heartbeat ACK), serenity 0.12.5's `ShardManager::shutdown_all` alone returns
    /// without stopping the new runner, because `restart_shard` leaves a stale "shutdown
    /// finished" notice behind that the next `shutdown` consumes instead of waiting.
    pub async fn shutdown(self) {
        for runner in self.shard_manager.runners.lock().await.values() {
            runner.runner_tx.shutdown_clean();
        }
        self.shard_manager.shutdown_all().await;
        let _ = tokio::time::timeout(Duration::from_secs(5), self.task).await;
    }

    /// serenity's shard manager, e.g. to inspect shard state.
    pub fn shard_manager(&self) -> &Arc<ShardManager> {
        &self.shard_manager
    }
}

/// Intents the echo bot uses: GUILDS | GUILD_MESSAGES | DIRECT_MESSAGES | MESSAGE_CONTENT.
pub fn echo_intents() -> GatewayIntents {
    GatewayIntents::GUILDS
        | GatewayIntents::GUILD_MESSAGES
        | GatewayIntents::DIRECT_MESSAGES
        | GatewayIntents::MESSAGE_CONTENT
}

/// Starts the echo bot against `fake` with [`echo_intents`] and returns once the fake has sent
/// it READY (panics if that takes over 10 s).
pub async fn spawn_echo_bot(fake: &FakeDiscord) -> EchoBotHandle {
    spawn_echo_bot_with_intents(fake, echo_intents()).await
}

/// [`spawn_echo_bot`] that runs `before_reply` on each message (in its event handler, on the
/// runtime's thread) before replying: e.g. one durable write, as a floor for a bot that stores
/// every command before it answers.
pub async fn spawn_echo_bot_with_work(
    fake: &FakeDiscord,
    before_reply: BeforeReply,
) -> EchoBotHandle {
    spawn_echo_bot_inner(fake, echo_intents(), Some(before_reply)).await
}

/// [`spawn_echo_bot`] with other intents (e.g. without MESSAGE_CONTENT).
pub async fn spawn_echo_bot_with_intents(
    fake: &FakeDiscord,
    intents: GatewayIntents,
) -> EchoBotHandle {
    spawn_echo_bot_inner(fake, intents, None).await
}

async fn spawn_echo_bot_inner(
    fake: &FakeDiscord,
    intents: GatewayIntents,
    before_reply: Option<BeforeReply>,
) -> EchoBotHandle {
    let identified = fake.identify_count();
    // Ratelimiter off: with it on, serenity ignores the proxy and goes to discord.com.
    let http = HttpBuilder::new(fake.token())
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build();
    let mut client = ClientBuilder::new_with_http(http, intents)
        .event_handler(Echo { before_reply })
        .await
        .expect("build echo bot client");
    let shard_manager = client.shard_manager.clone();
    let task = tokio::spawn(async move {
        if let Err(e) = client.start().await {
            eprintln!("echo bot: client stopped with error: {e}");
        }
    });
    fake.wait_for(Duration::from_secs(10), |f| {
        let n = f.identify_count();
        if n > identified && f.connected_sessions() > 0 {
            Ok(())
        } else {
            Err(format!(
                "the echo bot to IDENTIFY (identifies {n}, before {identified})"
            ))
        }
    })
    .await
    .unwrap_or_else(|e| panic!("echo bot did not connect: {e}"));
    EchoBotHandle {
        shard_manager,
        task,
    }
}
