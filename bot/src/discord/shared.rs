//! What the event handlers, the collectors, the interactions and the channel workers share,
//! grouped by concern: the tables, the Discord client, the settings, the sessions, the queues
//! and the channels' owners.

use std::sync::Arc;

use serenity::model::id::ChannelId;

use gaugebot_table::{KnownServers, Tables};

use super::behind::Behind;
use super::job::Job;
use super::perms::Perms;
use super::pins::Pins;
use super::queue::{Queues, Worker};
use super::rest::Rest;
use super::session::Session;
use crate::config::{Config, ShardRange};
use gaugebot_store::backend::{Database, Owners};

/// What the configuration turns on.
pub(crate) struct Settings {
    /// The `!`-command prefix.
    pub(crate) prefix: String,
    /// Whether the session reads message content (the privileged intent).
    pub(crate) content_intent: bool,
    /// Buttons on the turn prompt.
    pub(crate) buttons: bool,
    /// One pinned status message per game.
    pub(crate) pinned_status: bool,
    /// The shards this process runs.
    pub(crate) shards: ShardRange,
}

/// Talking to Discord: the bot's one REST client (every request the bot makes, rate limits
/// kept exactly), and over it the moderator check and the pins (the route and permission
/// serenity 0.12 does not know).
pub(crate) struct Discord {
    pub(crate) rest: Arc<Rest>,
    pub(crate) perms: Perms,
    pub(crate) pins: Pins,
}

/// The adapter's state.
pub(crate) struct Shared {
    /// The tables (and through them the store and the templates).
    pub(crate) tables: Tables,
    pub(crate) discord: Discord,
    pub(crate) settings: Settings,
    pub(crate) session: Session,
    /// One queue and worker per channel.
    pub(crate) queues: Queues<Shared>,
    /// Which process owns each channel (PostgreSQL), or this one alone (SQLite).
    pub(crate) owners: Arc<dyn Owners>,
    /// The channels left behind by a storage fault, and their retries.
    pub(crate) behind: Arc<Behind>,
    /// Which server each channel is in (`!tables`, `!standings`), kept in the store.
    pub(crate) servers: Arc<KnownServers>,
}

impl Shared {
    /// The adapter's state, talking to Discord through `rest`; `worker` serves each channel's
    /// queue; `servers`: the channels' servers the store knows.
    pub(crate) fn new(
        tables: Tables,
        servers: Arc<KnownServers>,
        rest: Arc<Rest>,
        config: &Config,
        content_intent: bool,
        owners: Arc<dyn Owners>,
        worker: Worker<Shared>,
    ) -> Arc<Shared> {
        let shards = config.discord.shards.unwrap_or(ShardRange::SINGLE);
        tables.set_servers(servers.clone());
        Arc::new(Shared {
            tables,
            discord: Discord {
                perms: Perms::new(rest.clone(), &config.discord.moderator_roles),
                pins: Pins::new(rest.clone()),
                rest,
            },
            settings: Settings {
                prefix: config.prefix.clone(),
                content_intent,
                buttons: config.discord.buttons,
                pinned_status: config.discord.pinned_status,
                shards,
            },
            session: Session::new(config.discord.shards.map_or(1, |s| s.total)),
            queues: Queues::new(worker),
            owners,
            behind: Arc::new(Behind::new(
                Database::parse(&config.database.to_string_lossy()).display(),
            )),
            servers,
        })
    }

    /// Queues a job for a channel (see [`Queues::enqueue`]).
    #[tracing::instrument(target = "hop", level = "trace", skip_all)]
    pub(crate) fn enqueue(self: &Arc<Self>, channel: ChannelId, job: Job) {
        self.queues.enqueue(self, channel, job);
    }
}
