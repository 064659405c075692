//! The Discord adapter: the real serenity 0.12 client, serving every channel it is in as a
//! table.
//!
//! The adapter is split by concern, each module one job:
//! - **Events in** ([`events`], one gateway event per file): READY registers a *collector* on
//!   its shard (a synchronous callback serenity runs in gateway order, before it spawns the
//!   event handlers) that puts every MESSAGE_CREATE into its channel's queue; the `message`
//!   handler is the fallback for messages that arrive before a new session's collector, whose
//!   channel then catches up first so nothing is processed ahead of older messages.
//! - **The per-channel queue and ownership** ([`queue`], [`worker`], [`ownership`]): one worker
//!   task per channel runs its jobs (live messages, interactions, catch-ups, edit notices) one
//!   at a time, in order; different channels run in parallel. With PostgreSQL a process
//!   applies a channel's messages only while it owns the channel, and takes over the channels
//!   of a process that died ([`gaugebot_store::backend::Owners`]).
//! - **Storage faults** ([`behind`]): a message not handled because the database is away (or
//!   busy, full, not writable, or who owns the channel cannot be told) leaves its channel
//!   behind, without a ❌; a retry of its own catches the channel up from its cursor as soon as
//!   the store works again, and the channel is told once per outage that its moves wait.
//! - **Catch-up** ([`catch_up`], [`shards`]): on every READY each channel with an active game
//!   whose last message (in its guild's GUILD_CREATE) is newer than its cursor reads its
//!   history after the cursor and applies what it missed, oldest first; the others are left
//!   alone, their tables unloaded until used.
//! - **Input to the table** ([`messages`], [`interactions`], [`play`]): a message and an
//!   interaction (slash command, button, autocomplete) both become an `Incoming` and meet at
//!   one entry point, [`play::play`], which hands it to the channel's
//!   [`Table`](crate::table::Table) (it stores an accepted command before it answers) and runs
//!   the one after-path: logging, posting, the old prompt's buttons, the pinned status.
//! - **Posting** ([`posting`]): replies (the first as a reply to the command, then ✅ or ❌),
//!   attachments, buttons, notices and the pinned status; a failed post never undoes the
//!   stored action.
//! - **Talking to Discord** ([`rest`], [`retry`], [`permissions`]): every request the bot makes
//!   (posts, edits, reactions, pins, reads of history, channels, guilds and members, the slash
//!   commands, the answers to interactions) is sent by the bot's one REST client (Discord's
//!   rate limits kept exactly, a timeout per attempt, a nonce on every post) and retried with
//!   backoff; the moderator check ([`perms`]) and the pins ([`pins`]) read through it and
//!   compute permissions by the one rule ([`permissions`]). Serenity's own `Http` serves only
//!   serenity's gateway client (`GET /gateway`).
//! - **Wording** ([`text`]): every text the adapter writes comes from `templates/discord/`.

mod author;
mod behind;
mod catch_up;
mod channel;
mod edits;
mod events;
mod interactions;
mod job;
mod mention;
mod messages;
mod outbox;
mod ownership;
mod parcel;
mod permissions;
mod perms;
mod pins;
mod play;
mod posting;
pub mod present;
mod queue;
mod rest;
mod retry;
mod session;
mod setup;
pub mod shards;
mod shared;
mod text;
mod ticker;
mod worker;

use std::sync::Arc;
use std::time::Duration;

use anyhow::Context as _;
use serenity::all::{ClientBuilder, GatewayIntents, Http, HttpBuilder, ShardManager};

use rest::Rest;
use serenity::model::id::ChannelId;
use tokio::task::JoinHandle;

use gaugebot_table::{TableSettings, Tables};

use crate::config::{Config, MessageContent, ShardRange};
use crate::games;
use gaugebot_store::backend::{open_for_bot, Database};

use events::Handler;
use shared::Shared;

pub use setup::{invite_url, SetupError, INVITE_PERMISSIONS, SETUP_EXIT_CODE};

/// How long [`start`] waits for READY and the first catch-up.
pub const START_TIMEOUT: Duration = Duration::from_secs(120);

/// How often the tables' time-driven work (reminders, deadlines) runs.
pub const TICK_INTERVAL: Duration = Duration::from_secs(30);

/// The gateway intents the bot asks for: guild and direct messages, with their content, and
/// GUILDS for the GUILD_CREATE payloads (each channel's last message id, read on READY).
///
/// Roles and channel permissions are fetched over REST and cached by the adapter; every
/// request goes through the adapter's own client, never through serenity's cache-checked
/// builders, so serenity's local permission checks never refuse one ([`cache_settings`]).
pub fn intents() -> GatewayIntents {
    intents_with(true)
}

/// The gateway intents, with or without the privileged Message Content intent (without it the
/// bot reads slash commands, buttons and messages that mention it).
pub fn intents_with(message_content: bool) -> GatewayIntents {
    let intents =
        GatewayIntents::GUILDS | GatewayIntents::GUILD_MESSAGES | GatewayIntents::DIRECT_MESSAGES;
    if message_content {
        intents | GatewayIntents::MESSAGE_CONTENT
    } else {
        intents
    }
}

/// Whether to ask for the Message Content intent: as configured, or (auto) if the application
/// has it, per its flags.
async fn wants_message_content(config: &Config, rest: &Rest) -> bool {
    use serenity::all::ApplicationFlags;
    match config.discord.message_content {
        MessageContent::On => true,
        MessageContent::Off => false,
        MessageContent::Auto => {
            match retry::retry("read the application", ChannelId::new(1), || {
                rest.application_info()
            })
            .await
            {
                Ok(info) => info.flags.is_some_and(|f| {
                    f.intersects(
                        ApplicationFlags::GATEWAY_MESSAGE_CONTENT
                            | ApplicationFlags::GATEWAY_MESSAGE_CONTENT_LIMITED,
                    )
                }),
                Err(_) => false,
            }
        }
    }
}

/// A running bot: connected, READY seen and the first catch-up done.
pub struct BotHandle {
    shared: Arc<Shared>,
    shard_manager: Arc<ShardManager>,
    client: JoinHandle<()>,
    ticker: JoinHandle<()>,
    takeover: JoinHandle<()>,
    /// The web pages' server, if configured: stopped first (its address is free again).
    web: Option<JoinHandle<()>>,
}

impl BotHandle {
    /// The bot's tables (and through them its database).
    pub fn tables(&self) -> &Tables {
        &self.shared.tables
    }

    /// Whether the bot asked for the Message Content intent (configured, or detected from the
    /// application's flags); without it only slash commands, buttons and messages that mention
    /// the bot are read.
    pub fn reads_message_content(&self) -> bool {
        self.shared.settings.content_intent
    }

    /// Runs the tables' time-driven work at `now` and posts what is due, as the ticker does
    /// every [`TICK_INTERVAL`] (tests inject the time).
    pub async fn tick(&self, now: chrono::DateTime<chrono::Utc>) {
        ticker::tick(&self.shared, now).await;
    }

    /// How the last READY's catch-up went: channels behind, fresh, and mentioned by no guild.
    pub fn restart_counts(&self) -> shards::RestartCounts {
        self.shared.session.restart.counts()
    }

    /// Disconnects cleanly, lets every channel worker finish the jobs it already has, and
    /// closes the database.
    ///
    /// Each shard runner is told to shut down before `ShardManager::shutdown_all`: after a
    /// shard restart (a missed heartbeat ACK, a reconnect), serenity 0.12.5's `shutdown_all`
    /// alone returns without stopping the new runner.
    pub async fn shutdown(self) {
        tracing::info!("shutting down");
        if let Some(web) = self.web {
            web.abort();
            let _ = web.await;
        }
        self.ticker.abort();
        self.takeover.abort();
        for runner in self.shard_manager.runners.lock().await.values() {
            runner.runner_tx.shutdown_clean();
        }
        self.shard_manager.shutdown_all().await;
        if tokio::time::timeout(Duration::from_secs(5), self.client)
            .await
            .is_err()
        {
            tracing::warn!("the gateway client did not stop within 5 s");
        }
        self.shared.queues.close().await;
        self.shared.tables.store().close().await;
        tracing::info!("shut down");
    }
}

/// serenity's cache: guilds only (it tells, in gateway order, whether a GUILD_CREATE belongs
/// to the latest READY: `is_new`); no channels, users or messages.
pub fn cache_settings() -> serenity::cache::Settings {
    let mut settings = serenity::cache::Settings::default();
    settings.cache_guilds = true;
    settings.cache_channels = false;
    settings.cache_users = false;
    settings.max_messages = 0;
    settings
}

/// Builds serenity's own REST client, which serenity's gateway client uses (for the gateway's
/// address; the bot's own requests go through [`rest`]): pointed at `api_base` (ratelimiter
/// off, or serenity would ignore the proxy) when one is configured, the normal one otherwise.
fn build_http(config: &Config, token: &str) -> Http {
    match config.discord.api_base.as_deref().map(str::trim) {
        Some(base) if !base.is_empty() => HttpBuilder::new(token)
            .proxy(base.trim_end_matches('/'))
            .ratelimiter_disabled(true)
            .build(),
        _ => Http::new(token),
    }
}

/// Connects to Discord and returns once READY was seen and the channels with an active game
/// have caught up on what they missed. Fails if that takes over [`START_TIMEOUT`] or the client
/// stops; a refused token or intent fails at once with a [`SetupError`] saying what to fix.
pub async fn start(config: Config, token: String) -> anyhow::Result<BotHandle> {
    let database = config.database.to_string_lossy().into_owned();
    let shards = config.discord.shards.unwrap_or(ShardRange::SINGLE);
    shards.check().map_err(anyhow::Error::msg)?;
    let host = games::host_with_pages(
        config.templates_dir.as_deref(),
        TableSettings {
            prefix: config.prefix.clone(),
            map_after_build: config.map.after_build,
            fixed_seed: None,
            dice_spec: gaugebot_table::dice::Spec::V3,
            moderator_name: "the moderator".to_string(),
            report: config.report.into(),
            automa: config.automa,
            // The setup draws wait for the commitment post's id (docs/DICE.md §1).
            setup_after_commitment: true,
        },
        config.web.as_ref().map(|w| w.public_url()),
    )?;
    // The bot's one REST client; serenity's gateway client has its own `Http`.
    let rest = Arc::new(Rest::new(&token, config.discord.api_base.as_deref()));
    // A refused token stops here, at once, rather than in serenity's reconnection loop.
    setup::check_token(&rest, &config.discord.token_env).await?;
    let (store, owners) = open_for_bot(&database).await.with_context(|| {
        format!(
            "opening the database {}",
            Database::parse(&database).display()
        )
    })?;
    let tables = Tables::new(store, host);
    let mut web_task = None;
    if let Some(web) = &config.web {
        let pages = gaugebot_web::Web {
            store: tables.store().clone(),
            host: tables.host().clone(),
            standings: web.standings,
        };
        let (bound, task) = gaugebot_web::serve(pages, web.listen)
            .await
            .with_context(|| format!("serving the web pages on {}", web.listen))?;
        tracing::info!(%bound, public_url = %web.public_url(), "serving the games' web pages");
        web_task = Some(task);
    }
    let content = wants_message_content(&config, &rest).await;
    if !content {
        tracing::info!("without the Message Content intent: slash commands, buttons and messages that mention the bot");
    }
    let servers = Arc::new(gaugebot_table::KnownServers::load(tables.store().clone()).await);
    let shared = Shared::new(tables, servers, rest, &config, content, owners, worker::run);
    let mut caught_up = shared.session.subscribe_caught_up();

    let mut builder =
        ClientBuilder::new_with_http(build_http(&config, &token), intents_with(content))
            .cache_settings(cache_settings())
            .event_handler(Handler {
                shared: shared.clone(),
            });
    if config.discord.slash_commands {
        builder = builder.framework(interactions::slash::framework(
            shared.clone(),
            config.discord.command_guilds.clone(),
        ));
    }
    let mut client = builder.await.context("building the Discord client")?;
    let shard_manager = client.shard_manager.clone();
    let (stopped_tx, mut stopped_rx) = tokio::sync::oneshot::channel::<Stopped>();
    let token_env = config.discord.token_env.clone();
    let client_task = tokio::spawn(async move {
        // serenity's range is inclusive of its end, as `discord.shards.end` is.
        let started = client
            .start_shard_range(shards.start..shards.end, shards.total)
            .await;
        let outcome = match started {
            Ok(()) => Stopped::Other("the gateway client stopped".to_string()),
            Err(e) => match setup::of_gateway(&e, &token_env) {
                Some(refusal) => {
                    tracing::error!("{refusal}");
                    Stopped::Setup(refusal)
                }
                None => Stopped::Other(format!("the gateway client stopped: {e}")),
            },
        };
        if let Stopped::Other(why) = &outcome {
            tracing::info!("{why}");
        }
        let _ = stopped_tx.send(outcome);
    });
    let ticking = shared.clone();
    let ticker = tokio::spawn(async move {
        let mut interval = tokio::time::interval(TICK_INTERVAL);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            interval.tick().await;
            ticker::tick(&ticking, chrono::Utc::now()).await;
        }
    });
    let taking_over = shared.clone();
    let takeover = tokio::spawn(async move {
        let mut interval = tokio::time::interval(shards::TAKEOVER_INTERVAL);
        interval.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            interval.tick().await;
            ownership::take_over(&taking_over).await;
        }
    });
    let handle = BotHandle {
        shared,
        shard_manager,
        client: client_task,
        ticker,
        takeover,
        web: web_task,
    };

    let ready = tokio::time::timeout(START_TIMEOUT, async {
        loop {
            tokio::select! {
                changed = caught_up.changed() => {
                    if changed.is_err() {
                        return Err(Stopped::Other("the bot stopped".to_string()));
                    }
                    // Every shard of the range has READY and caught up.
                    if *caught_up.borrow_and_update() > u64::from(shards.end - shards.start) {
                        return Ok(());
                    }
                }
                outcome = &mut stopped_rx => {
                    return Err(outcome.unwrap_or_else(|_| Stopped::Other("the gateway client failed".to_string())));
                }
            }
        }
    })
    .await;
    match ready {
        Ok(Ok(())) => Ok(handle),
        Ok(Err(Stopped::Setup(refusal))) => {
            handle.shutdown().await;
            Err(refusal.into())
        }
        Ok(Err(Stopped::Other(why))) => {
            handle.shutdown().await;
            anyhow::bail!("could not connect to Discord: {why}")
        }
        Err(_) => {
            handle.shutdown().await;
            anyhow::bail!("no READY from Discord within {START_TIMEOUT:?}")
        }
    }
}

/// Why the gateway client stopped before the bot was ready.
enum Stopped {
    /// Discord refused the token or an intent: the operator must act.
    Setup(SetupError),
    /// Anything else.
    Other(String),
}

/// Connects to Discord and serves every channel as a table until ctrl-c, then shuts down
/// cleanly.
pub async fn run(config: Config, token: String) -> anyhow::Result<()> {
    let bot = start(config, token).await?;
    tracing::info!("connected; ctrl-c stops the bot");
    let stop = tokio::signal::ctrl_c().await;
    if let Err(e) = stop {
        tracing::error!(error = %e, "cannot wait for ctrl-c; stopping");
    }
    bot.shutdown().await;
    Ok(())
}
