//! All tables of one bot process: one per channel, loaded on first use. A table handles one
//! message at a time (its own lock); different tables run in parallel, and the map of tables is
//! never locked while a table loads from the database.

pub mod direct;

use std::collections::HashMap;
use std::sync::Arc;

use chrono::{DateTime, Utc};
use tokio::sync::Mutex;

use serde_json::Value;

use crate::commands::registry::Registry;
use crate::dice::AuditExport;
use crate::game::session::SharedPlugin;
use crate::game::{PlayerInfo, Query, Suggestion, ToAct};
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::record::GameRecord;
use crate::store::{Outgoing, Store, StoreError, Write};
use crate::table::extract::{extract, Commands};
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
            host,
            loaded: Loaded::Empty,
            ledger: Ledger::new(channel, store),
        };
        cx.reload().await?;
        Ok(Table { cx, registry })
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

    /// Time-driven work (deadlines, reminders, presets, signups) up to `now`, committed with no
    /// outbox item: the replies to post ([`crate::weeks::pace`]).
    pub async fn tick(&mut self, now: DateTime<Utc>) -> Response {
        let decision = self.decide_tick(now).await;
        self.commit(decision, None).await.response()
    }

    /// Decides the time-driven work up to `now` ([`Table::commit`] stores it). Work that cannot
    /// be stored is logged and done again at the next tick.
    pub async fn decide_tick(&mut self, now: DateTime<Utc>) -> Decided {
        if let Err(error) = self.cx.refresh().await {
            tracing::error!(channel = %self.cx.ledger.channel, %error, "the table does not load for the tick");
            return Decided::answer(Cause::Tick, Response::new(Verdict::Ignored));
        }
        let response = self.cx.pace_tick(now).await;
        self.decided(Cause::Tick, response)
    }

    /// Makes and commits (with no outbox item) one move of the automa to act, if an automa is
    /// to act and may move: its post ([`Table::decide_automa`]).
    pub async fn automa_step(&mut self, now: DateTime<Utc>) -> Option<Response> {
        let decision = self.decide_automa(now).await?;
        self.commit(decision, None).await.ok().map(|c| c.response)
    }

    /// Decides one move of the automa to act, if an automa is to act and may move (not held by
    /// an `!undo`): decided on tokio's blocking pool; [`Table::commit`] stores it. An adapter
    /// asks for it after posting the reply to an accepted command, and again while it gets a
    /// move, so that consecutive automa turns follow until a human is to act. A move that
    /// cannot be stored is logged and made again at the next tick.
    pub async fn decide_automa(&mut self, now: DateTime<Utc>) -> Option<Decided> {
        self.cx.refresh().await.ok()?;
        let response = self.cx.automa_step(now).await?;
        Some(self.decided(Cause::Automa, response))
    }

    /// Whether an automa is to act now and may move.
    pub fn automa_to_act(&self) -> bool {
        self.cx.automa_to_act().is_some()
    }

    /// Handles one message and commits it with no outbox item: its answer.
    pub async fn handle(&mut self, msg: &Incoming) -> Response {
        let decision = self.decide(msg).await;
        self.commit(decision, None).await.response()
    }

    /// Decides on one message: its answer and its writes, applied to the table in memory and
    /// stored by [`Table::commit`] (with the adapter's outbox item, if it keeps one). A table
    /// stays locked from its decision to its commit; a decision that is dropped instead leaves
    /// the table to be rebuilt from the store before its next message.
    #[tracing::instrument(target = "hop", level = "trace", skip_all)]
    pub async fn decide(&mut self, msg: &Incoming) -> Decided {
        if let Err(error) = self.cx.refresh().await {
            let refusal = self.cx.host.storage_refusal(&error);
            return Decided::answer(Cause::Message(msg.message_id.clone()), refusal);
        }
        let response = self.dispatch(msg).await;
        self.decided(Cause::Message(msg.message_id.clone()), response)
    }

    /// The decision of the command just handled: its answer and what it staged.
    fn decided(&mut self, cause: Cause, response: Response) -> Decided {
        let writes = self.cx.ledger.take_staged();
        Decided {
            response,
            cause,
            writes,
        }
    }

    /// Stores a decision of this table: its message marked `read` first (if it has one), its
    /// writes, and `outgoing` with them, in one transaction (`outgoing` is dropped if the
    /// decision writes nothing: an answer that changed nothing is not kept). A failed write
    /// refuses the command and leaves no trace of it: the table is rebuilt from the store.
    ///
    /// A message delivered twice is applied once: the transaction that stores what it did
    /// first marks it read, and is refused if it was read before (the table is then rebuilt
    /// and the answer is [`Verdict::Duplicate`]). So a command costs no read of its own before
    /// it is handled; an answer that writes nothing (`!status`) is given again, as it is.
    #[tracing::instrument(target = "hop", level = "trace", skip_all)]
    pub async fn commit(
        &mut self,
        decision: Decided,
        outgoing: Option<Outgoing>,
    ) -> Result<Committed, NotStored> {
        let Decided {
            response,
            cause,
            writes,
        } = decision;
        if writes.is_empty() {
            return Ok(Committed {
                response,
                kept: None,
            });
        }
        let read = match &cause {
            Cause::Message(id) => Some(id.as_str()),
            Cause::Tick | Cause::Automa => None,
        };
        match self.cx.flush(writes, read, outgoing.clone()).await {
            Ok(()) => Ok(Committed {
                response,
                kept: outgoing,
            }),
            Err(error) => {
                let response = match (&cause, &error) {
                    (Cause::Message(_), StoreError::AlreadyRead { .. }) => {
                        Response::new(Verdict::Duplicate)
                    }
                    (Cause::Message(_), _) => self.cx.host.storage_refusal(&error),
                    (Cause::Tick, _) => {
                        tracing::error!(channel = %self.cx.ledger.channel, %error, "the clock's work was not stored; it is retried at the next tick");
                        Response::new(Verdict::Ignored)
                    }
                    (Cause::Automa, _) => {
                        tracing::error!(channel = %self.cx.ledger.channel, %error, "the automa's move was not stored; it is made again at the next tick");
                        Response::new(Verdict::Ignored)
                    }
                };
                Err(NotStored { response, error })
            }
        }
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

/// What caused a decision: a message (its id, marked read by the commit), the clock, an automa.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Cause {
    Message(String),
    Tick,
    Automa,
}

/// What a table decided on a message, the clock or an automa's turn: the answer and the writes
/// that store it, already applied to the table in memory. The adapter reads it (and the locked
/// table) to make its outbox item, then hands both to [`Table::commit`].
#[derive(Debug)]
#[must_use = "a decision is stored by Table::commit"]
pub struct Decided {
    response: Response,
    cause: Cause,
    writes: Vec<Write>,
}

impl Decided {
    fn answer(cause: Cause, response: Response) -> Decided {
        Decided {
            response,
            cause,
            writes: Vec::new(),
        }
    }

    /// The answer.
    pub fn response(&self) -> &Response {
        &self.response
    }

    /// The writes the commit stores (after marking the message read).
    pub fn writes(&self) -> &[Write] {
        &self.writes
    }

    /// Whether committing it stores anything (then an outbox item is stored with it).
    pub fn stores(&self) -> bool {
        !self.writes.is_empty()
    }
}

/// A committed decision: its answer, and the outbox item stored with it, if one was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Committed {
    /// The answer.
    pub response: Response,
    /// The outbox item stored with the command: the adapter posts it, then says it was
    /// delivered ([`Store::delivered`]).
    pub kept: Option<Outgoing>,
}

/// A decision whose write failed: nothing of it stays (the table was rebuilt from the store).
#[derive(Debug)]
pub struct NotStored {
    /// What to answer instead: [`Verdict::Duplicate`] for a message read before, a refusal
    /// that names the storage failure for another message, nothing for the clock's work or an
    /// automa's move (done again at the next tick).
    pub response: Response,
    /// Why.
    pub error: StoreError,
}

/// The answer of a commit, stored or not.
pub trait Answer {
    /// The answer to give.
    fn response(self) -> Response;
}

impl Answer for Result<Committed, NotStored> {
    fn response(self) -> Response {
        match self {
            Ok(committed) => committed.response,
            Err(not_stored) => not_stored.response,
        }
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
        if let Some(response) = self.across(false, message).await {
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
