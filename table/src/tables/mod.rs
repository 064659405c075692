//! All tables of one bot process: one per channel, loaded on first use. A table handles one
//! message at a time (its own lock); different tables run in parallel, and the map of tables is
//! never locked while a table loads from the database.

pub mod commit;
pub mod decide;
pub mod direct;
pub mod notify;
pub mod servers;

pub use commit::{Answer, Committed, NotStored};
pub use decide::Decided;

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use tokio::sync::Mutex;

use serde_json::Value;

use crate::commands::registry::Registry;
use crate::commands::{OneServer, Servers};
use crate::dice::AuditExport;
use crate::game::session::SharedPlugin;
use crate::game::{PlayerInfo, Query, QuickMove, Suggestion, ToAct};
use crate::input::{Incoming, Response};
use crate::record::GameRecord;
use crate::store::Store;
use crate::table::ledger::Ledger;
use crate::table::prompt::Prompt;
use crate::table::{Cx, Host, Loaded, TableError, TableSettings};
use crate::templates::Templates;
use crate::weeks::meta::DecisionClock;

/// One channel's table: what the bot asks of it. The commands work on its [`Cx`], routed by
/// the [`Registry`].
pub struct Table {
    pub(crate) cx: Cx,
    registry: Arc<Registry>,
    /// The direct messages sent in this run: (game, decision, kind) ([`notify`]).
    notified: std::collections::HashSet<(String, i64, &'static str)>,
}

impl Host {
    /// A host of these games (at least one).
    pub fn new(games: Vec<SharedPlugin>, templates: Templates, settings: TableSettings) -> Host {
        let commands = Registry::new(&games).catalogue().clone();
        Host {
            games,
            templates,
            commands,
            settings,
            page_url: None,
        }
    }

    /// The same host, its reports linking each game's web page under `page_url` (`None`: no
    /// pages are served).
    pub fn with_page_url(mut self, page_url: Option<String>) -> Host {
        self.page_url = page_url;
        self
    }
}

impl Table {
    /// Loads the channel's active game, if any, by replaying its log. Fails only if storage
    /// fails; a log that does not replay freezes the table.
    pub async fn load(
        channel: &str,
        store: Arc<dyn Store>,
        host: Arc<Host>,
    ) -> Result<Table, TableError> {
        let registry = Arc::new(Registry::new(&host.games));
        Table::load_with(channel, store, host, registry).await
    }

    /// Loads a table that routes its commands through `registry` (the one its [`Tables`]
    /// share).
    pub(crate) async fn load_with(
        channel: &str,
        store: Arc<dyn Store>,
        host: Arc<Host>,
        registry: Arc<Registry>,
    ) -> Result<Table, TableError> {
        let mut cx = Cx {
            host,
            loaded: Loaded::Empty,
            ledger: Ledger::new(channel, store),
            posts: Default::default(),
        };
        cx.reload().await?;
        Ok(Table {
            cx,
            registry,
            notified: Default::default(),
        })
    }

    /// The channel.
    pub fn channel(&self) -> &str {
        &self.cx.ledger.channel
    }

    /// The current game's id (running or frozen).
    pub fn game_id(&self) -> Option<&str> {
        self.cx.loaded.row().map(|r| r.id.as_str())
    }

    /// The current game's kind.
    pub fn kind(&self) -> Option<&str> {
        self.cx.loaded.row().map(|r| r.kind.as_str())
    }

    /// Whether the table is frozen (its log does not replay), and why.
    pub fn frozen(&self) -> Option<String> {
        match &self.cx.loaded {
            Loaded::Frozen(f) => Some(self.cx.host.frozen_text(f)),
            _ => None,
        }
    }

    /// The position of the running game, if it is of type `S`.
    pub fn state<S: 'static>(&self) -> Option<&S> {
        self.cx
            .loaded
            .running()?
            .session
            .state()
            .downcast_ref::<S>()
    }

    /// Who must act in the running game.
    pub fn to_act(&self) -> Option<ToAct> {
        Some(self.cx.loaded.running()?.session.to_act())
    }

    /// The state dump of the running game (`--dump-state`).
    pub fn dump(&self) -> Option<Value> {
        let current = self.cx.loaded.running()?;
        Some(current.session.dump(&self.cx.host.settings.moderator_name))
    }

    /// The seated player to act now, if a player is to act.
    pub fn player_to_act(&self) -> Option<PlayerInfo> {
        let current = self.cx.loaded.running()?;
        match current.session.to_act() {
            ToAct::Player { seat, .. } => current.session.seated().get(seat).cloned(),
            _ => None,
        }
    }

    /// The seated players of the running game (in seat order).
    pub fn seated(&self) -> Option<&[PlayerInfo]> {
        Some(self.cx.loaded.running()?.session.seated())
    }

    /// Whether a game is running here and not over.
    pub fn is_playing(&self) -> bool {
        self.cx.loaded.playing().is_some()
    }

    /// The clock of the decision the running game waits for, at `now`.
    pub fn decision_clock(&self, now: chrono::DateTime<chrono::Utc>) -> Option<DecisionClock> {
        self.cx.loaded.decision_clock(now)
    }

    /// The time of the current game's latest stored entry (its creation before any), and the
    /// largest numeric message id among its entries: where a console run on a stored game
    /// continues its clock and its message ids.
    pub fn latest(&self) -> Option<(DateTime<Utc>, Option<u64>)> {
        let (row, rows): (_, Vec<&crate::store::LogRow>) = match &self.cx.loaded {
            Loaded::Running(c) => (&c.row, c.log.iter().map(|(_, r)| r).collect()),
            Loaded::Frozen(f) => (&f.row, f.rows.iter().collect()),
            Loaded::Empty => return None,
        };
        let at = rows
            .iter()
            .map(|r| r.at)
            .chain([row.created_at])
            .max()
            .unwrap_or(row.created_at);
        let id = rows.iter().filter_map(|r| r.message_id.parse().ok()).max();
        Some((at, id))
    }

    /// The running game's title.
    pub fn title(&self) -> Option<&'static str> {
        Some(self.cx.loaded.running()?.session.info().title)
    }

    /// The complete record of the running game (the seed only once revealed).
    pub fn record(&self) -> Option<GameRecord> {
        self.cx.loaded.running()?.record()
    }

    /// The audit record of the current game: the seed only once revealed.
    pub fn audit_export(&self) -> Option<AuditExport> {
        self.cx.loaded.running()?.audit_export()
    }
}

impl Table {
    /// The running game and its position (the number of log entries).
    pub fn position(&self) -> Option<(&str, usize)> {
        match &self.cx.loaded {
            Loaded::Running(c) => Some((c.row.id.as_str(), c.log.len())),
            _ => None,
        }
    }

    /// The one-click moves of the player to act, if a player is to act and has any.
    pub fn prompt(&self) -> Option<Prompt> {
        let Loaded::Running(current) = &self.cx.loaded else {
            return None;
        };
        let ToAct::Player { seat, .. } = current.session.to_act() else {
            return None;
        };
        let player = current.session.seated().get(seat)?.clone();
        let moves = current.session.quick_moves();
        if moves.is_empty() {
            return None;
        }
        Some(Prompt {
            game_id: current.row.id.clone(),
            position: current.log.len(),
            player,
            moves,
        })
    }

    /// The one-click moves a refusal offers the player to act (`moves`, from
    /// [`Response::offers`]), for the game's position now; `None` without them.
    pub fn offer(&self, moves: &[QuickMove]) -> Option<Prompt> {
        if moves.is_empty() {
            return None;
        }
        let Loaded::Running(current) = &self.cx.loaded else {
            return None;
        };
        let ToAct::Player { seat, .. } = current.session.to_act() else {
            return None;
        };
        Some(Prompt {
            game_id: current.row.id.clone(),
            position: current.log.len(),
            player: current.session.seated().get(seat)?.clone(),
            moves: moves.to_vec(),
        })
    }

    /// Legal values for an argument being typed by the user `author_id` (autocomplete). Empty
    /// without a running game.
    pub fn suggest(&self, author_id: &str, query: &Query<'_>) -> Vec<Suggestion> {
        let Loaded::Running(current) = &self.cx.loaded else {
            return Vec::new();
        };
        let seat = current
            .session
            .seated()
            .iter()
            .position(|p| p.id == author_id);
        current.session.suggest(seat, query)
    }

    /// The live status of the game (running or frozen), without pings: what a pinned status
    /// message shows.
    pub fn status_text(&self) -> Option<String> {
        match &self.cx.loaded {
            Loaded::Running(current) => Some(self.cx.host.view(current).report().to_string()),
            Loaded::Frozen(frozen) => Some(self.cx.host.frozen_text(frozen)),
            Loaded::Empty => None,
        }
    }
}

/// The most automa moves one tick makes at a table (a game between automa seats alone ends
/// well before).
pub const MAX_AUTOMA_MOVES: usize = 1000;

/// A channel's slot: empty until its table is loaded.
type Slot = Arc<Mutex<Option<Table>>>;

/// A loaded table, locked: one command at a time.
pub struct TableGuard(tokio::sync::OwnedMutexGuard<Option<Table>>);

impl std::ops::Deref for TableGuard {
    type Target = Table;

    fn deref(&self) -> &Table {
        // A guard is only made once its slot holds a table.
        self.0.as_ref().expect("a loaded table")
    }
}

impl std::ops::DerefMut for TableGuard {
    fn deref_mut(&mut self) -> &mut Table {
        self.0.as_mut().expect("a loaded table")
    }
}

/// The tables of a bot.
pub struct Tables {
    store: Arc<dyn Store>,
    host: Arc<Host>,
    registry: Arc<Registry>,
    slots: std::sync::Mutex<HashMap<String, Slot>>,
    servers: std::sync::RwLock<Arc<dyn Servers>>,
}

impl Tables {
    /// No table loaded yet.
    pub fn new(store: Arc<dyn Store>, host: Arc<Host>) -> Self {
        let registry = Arc::new(Registry::new(&host.games));
        Tables {
            store,
            host,
            registry,
            slots: std::sync::Mutex::new(HashMap::new()),
            servers: std::sync::RwLock::new(Arc::new(OneServer)),
        }
    }

    /// Tells the tables which server each channel belongs to (`!tables` lists the games of
    /// the caller's server); by default every channel is in one.
    pub fn set_servers(&self, servers: Arc<dyn Servers>) {
        *self.servers.write().unwrap_or_else(|e| e.into_inner()) = servers;
    }

    /// Which server each channel belongs to.
    pub fn servers(&self) -> Arc<dyn Servers> {
        self.servers
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The database.
    pub fn store(&self) -> &Arc<dyn Store> {
        &self.store
    }

    /// What the tables share.
    pub fn host(&self) -> &Arc<Host> {
        &self.host
    }

    /// Every command with its handler.
    pub fn registry(&self) -> &Arc<Registry> {
        &self.registry
    }

    fn slot(&self, channel: &str) -> Slot {
        let mut slots = self.slots.lock().unwrap_or_else(|e| e.into_inner());
        slots
            .entry(channel.to_string())
            .or_insert_with(|| Arc::new(Mutex::new(None)))
            .clone()
    }

    /// The table of a channel, locked, loaded from the database on first use. Only this
    /// channel waits while it loads.
    #[tracing::instrument(target = "hop", level = "trace", skip_all)]
    pub async fn table(&self, channel: &str) -> Result<TableGuard, TableError> {
        let mut guard = self.slot(channel).lock_owned().await;
        if guard.is_none() {
            let table = Table::load_with(
                channel,
                self.store.clone(),
                self.host.clone(),
                self.registry.clone(),
            )
            .await?;
            *guard = Some(table);
        }
        Ok(TableGuard(guard))
    }

    /// Drops a channel's loaded table (waiting for its current command), so that its next use
    /// loads it afresh from the database: for a channel another process wrote to meanwhile.
    pub async fn unload(&self, channel: &str) {
        let slot = self.slot(channel);
        *slot.lock().await = None;
    }

    /// Handles a message in its channel's table (`!waiting` is answered across tables).
    pub async fn handle(&self, channel: &str, message: &Incoming) -> Result<Response, TableError> {
        if let Some(response) = self.across_from(Some(channel), message).await {
            return Ok(response);
        }
        let mut table = self.table(channel).await?;
        Ok(table.handle(message).await)
    }

    /// The channels whose tables may have time-driven work: every one with an active game or
    /// open signups (loaded if need be, so that what fell due while the bot was down happens
    /// once at start).
    pub async fn due_channels(&self) -> Vec<String> {
        let mut due = self.store.active_channels().await.unwrap_or_else(|error| {
            tracing::error!(%error, "cannot list the active games for the tick");
            Vec::new()
        });
        due.extend(self.store.state_channels().await.unwrap_or_else(|error| {
            tracing::error!(%error, "cannot list the open signups for the tick");
            Vec::new()
        }));
        due.sort();
        due.dedup();
        due
    }

    /// Time-driven work up to `now` of every table that may have any ([`Tables::due_channels`]),
    /// then the moves of the automa to act there, each committed with no outbox item: the
    /// replies to post, by channel.
    pub async fn tick(&self, now: DateTime<Utc>) -> Vec<(String, Response)> {
        let mut out = Vec::new();
        for channel in self.due_channels().await {
            let mut table = match self.table(&channel).await {
                Ok(table) => table,
                Err(error) => {
                    tracing::error!(%channel, %error, "a table does not load for the tick");
                    continue;
                }
            };
            let response = table.tick(now).await;
            if !response.replies.is_empty() {
                out.push((channel.clone(), response));
            }
            // An automa to act moves (after a restart too: the same position, the same move).
            for _ in 0..MAX_AUTOMA_MOVES {
                let Some(response) = table.automa_step(now).await else {
                    break;
                };
                out.push((channel.clone(), response));
            }
        }
        out
    }

    /// One move of the automa to act at a channel's table, if one is (see
    /// [`Table::automa_step`]).
    pub async fn automa(
        &self,
        channel: &str,
        now: DateTime<Utc>,
    ) -> Result<Option<Response>, TableError> {
        let mut table = self.table(channel).await?;
        Ok(table.automa_step(now).await)
    }

    /// Channels with an active game in the database.
    pub async fn active_channels(&self) -> Result<Vec<String>, TableError> {
        Ok(self.store.active_channels().await?)
    }
}
