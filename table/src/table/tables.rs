//! All tables of one bot process: one per channel, loaded on first use. A table handles one
//! message at a time (its own lock); different tables run in parallel, and the map of tables is
//! never locked while a table loads from the database.

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use tokio::sync::Mutex;

use serde_json::Value;

use crate::commands::registry::Registry;
use crate::dice::AuditExport;
use crate::game::session::SharedPlugin;
use crate::game::{PlayerInfo, ToAct};
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::record::GameRecord;
use crate::store::{Outgoing, Store, StoreError};
use crate::table::extract::{extract, Commands};
use crate::table::{Cx, Host, Loaded, TableError, TableSettings};
use crate::templates::Templates;
use crate::weeks::meta::DecisionClock;

/// One channel's table: what the bot asks of it. The commands work on its [`Cx`], routed by
/// the [`Registry`].
pub struct Table {
    pub(crate) cx: Cx,
    registry: Arc<Registry>,
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
        }
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
            channel: channel.to_string(),
            store,
            host,
            loaded: Loaded::Empty,
            staged: Vec::new(),
            stale: false,
            presets: Default::default(),
        };
        cx.reload().await?;
        Ok(Table { cx, registry })
    }

    /// The channel.
    pub fn channel(&self) -> &str {
        &self.cx.channel
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
            Loaded::Frozen(f) => Some(self.cx.frozen_text(f)),
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
        self.cx.decision_clock(now)
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

    /// Time-driven work (deadlines, reminders, presets, signups) up to `now`; the replies to
    /// post ([`crate::weeks::pace`]).
    pub async fn tick(&mut self, now: chrono::DateTime<chrono::Utc>) -> Response {
        self.tick_keeping(now, &no_outbox).await.response
    }

    /// [`Table::tick`], its answer kept in the outbox as `keep` says (see [`Keep`]). Work that
    /// cannot be stored is logged and done again at the next tick.
    pub async fn tick_keeping(&mut self, now: DateTime<Utc>, keep: Keep<'_>) -> Handled {
        if let Err(error) = self.cx.refresh().await {
            tracing::error!(channel = %self.cx.channel, %error, "the table does not load for the tick");
            return Handled::new(Response::new(Verdict::Ignored));
        }
        let response = self.cx.pace_tick(now).await;
        self.store_with(response, None, keep).await.unwrap_or_else(|error| {
            tracing::error!(channel = %self.cx.channel, %error, "the clock's work was not stored; it is retried at the next tick");
            Handled::new(Response::new(Verdict::Ignored))
        })
    }

    /// Makes one move of the automa to act, if an automa is to act and may move (not held by
    /// an `!undo`): decided on tokio's blocking pool, stored, and its post returned. An adapter
    /// calls it after posting the reply to an accepted command, and again while it returns a
    /// move, so that consecutive automa turns follow until a human is to act.
    pub async fn automa_step(&mut self, now: DateTime<Utc>) -> Option<Response> {
        Some(self.automa_step_keeping(now, &no_outbox).await?.response)
    }

    /// [`Table::automa_step`], its post kept in the outbox as `keep` says (see [`Keep`]). A
    /// move that cannot be stored is logged and made again at the next tick.
    pub async fn automa_step_keeping(
        &mut self,
        now: DateTime<Utc>,
        keep: Keep<'_>,
    ) -> Option<Handled> {
        self.cx.refresh().await.ok()?;
        let response = self.cx.automa_step(now).await?;
        match self.store_with(response, None, keep).await {
            Ok(handled) => Some(handled),
            Err(error) => {
                tracing::error!(channel = %self.cx.channel, %error, "the automa's move was not stored; it is made again at the next tick");
                None
            }
        }
    }

    /// Whether an automa is to act now and may move.
    pub fn automa_to_act(&self) -> bool {
        self.cx.automa_to_act().is_some()
    }

    /// Handles one message.
    pub async fn handle(&mut self, msg: &Incoming) -> Response {
        self.handle_keeping(msg, &no_outbox).await.response
    }

    /// Handles one message; what it wrote is stored in one transaction with its answer's outbox
    /// item, as `keep` makes it (see [`Keep`]). A failed write refuses the command and leaves
    /// no trace of it.
    ///
    /// A message delivered twice is applied once: the transaction that stores what it did
    /// first marks it read, and is refused if it was read before (the table is then rebuilt
    /// and the answer is [`Verdict::Duplicate`]). So a command costs no read of its own before
    /// it is handled; an answer that writes nothing (`!status`) is given again, as it is.
    pub async fn handle_keeping(&mut self, msg: &Incoming, keep: Keep<'_>) -> Handled {
        if let Err(error) = self.cx.refresh().await {
            return Handled::new(self.cx.storage_refusal(&error));
        }
        let response = self.dispatch(msg).await;
        match self.store_with(response, Some(&msg.message_id), keep).await {
            Ok(handled) => handled,
            Err(StoreError::AlreadyRead { .. }) => Handled::new(Response::new(Verdict::Duplicate)),
            Err(error) => Handled::new(self.cx.storage_refusal(&error)),
        }
    }

    /// Stores what the command staged (its message marked `read` first, if it has one), with
    /// the outbox item `keep` makes of its answer (none if it wrote nothing: an answer that
    /// changed nothing is not kept).
    async fn store_with(
        &mut self,
        response: Response,
        read: Option<&str>,
        keep: Keep<'_>,
    ) -> Result<Handled, StoreError> {
        if !self.cx.has_staged() {
            return Ok(Handled::new(response));
        }
        let kept = keep(self, &response).map(|kept| Outgoing {
            channel: self.cx.channel.clone(),
            key: kept.key,
            payload: kept.payload,
            at: Utc::now(),
        });
        self.cx.flush(read, kept.clone()).await?;
        Ok(Handled { response, kept })
    }

    /// Routes one message to its command.
    async fn dispatch(&mut self, msg: &Incoming) -> Response {
        let cx = &mut self.cx;
        match extract(&msg.text, &cx.host.settings.prefix) {
            Commands::None => Response::new(Verdict::Ignored),
            Commands::Refused(reason) => cx.refuse(cx.say(messages::Unreadable {
                author: msg.author.name.to_string(),
                reason: reason.to_string(),
            })),
            Commands::Bang { name, args } => self.registry.run(cx, &name, &args, msg).await,
            Commands::Bold(segments) => cx.moves(&segments, msg).await,
        }
    }
}

/// What an adapter keeps of an answer until it has posted it ([`Kept`]), made from the table
/// after the command and its answer: stored in the same transaction as the command, so that an
/// answer is never lost between the command's commit and its post.
pub type Keep<'a> = &'a (dyn Fn(&Table, &Response) -> Option<Kept> + Sync);

/// An outbox item as the adapter makes it: its key (unique in the channel; the adapter's
/// nonce) and its payload (what to post, in the adapter's own form).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Kept {
    /// Unique in the channel.
    pub key: String,
    /// What to post.
    pub payload: String,
}

/// Keeps nothing: for adapters that post at once and need no outbox (the console).
pub fn no_outbox(_: &Table, _: &Response) -> Option<Kept> {
    None
}

/// A command's answer, and the outbox item stored with it, if one was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handled {
    /// The answer.
    pub response: Response,
    /// The outbox item stored with the command: the adapter posts it, then says it was
    /// delivered ([`Store::delivered`]).
    pub kept: Option<Outgoing>,
}

impl Handled {
    fn new(response: Response) -> Handled {
        Handled {
            response,
            kept: None,
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
        }
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
        if let Some(response) = self.across(false, message).await {
            return Ok(response);
        }
        let mut table = self.table(channel).await?;
        Ok(table.handle(message).await)
    }

    /// Time-driven work up to `now` of every table with an active game or open signups (the
    /// only ones that can have any; loaded if need be, so that what fell due while the bot was
    /// down happens once at start): the replies to post, by channel.
    pub async fn tick(&self, now: DateTime<Utc>) -> Vec<(String, Response)> {
        self.tick_keeping(now, &no_outbox)
            .await
            .into_iter()
            .map(|(channel, handled)| (channel, handled.response))
            .collect()
    }

    /// [`Tables::tick`], each answer kept in the outbox as `keep` says (see [`Keep`]).
    pub async fn tick_keeping(&self, now: DateTime<Utc>, keep: Keep<'_>) -> Vec<(String, Handled)> {
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
        let mut out = Vec::new();
        for channel in due {
            let mut table = match self.table(&channel).await {
                Ok(table) => table,
                Err(error) => {
                    tracing::error!(%channel, %error, "a table does not load for the tick");
                    continue;
                }
            };
            let handled = table.tick_keeping(now, keep).await;
            if !handled.response.replies.is_empty() {
                out.push((channel.clone(), handled));
            }
            // An automa to act moves (after a restart too: the same position, the same move).
            for _ in 0..MAX_AUTOMA_MOVES {
                let Some(handled) = table.automa_step_keeping(now, keep).await else {
                    break;
                };
                out.push((channel.clone(), handled));
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
