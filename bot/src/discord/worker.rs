//! Per-channel queues: one worker task per channel runs its jobs (live messages, catch-ups,
//! edit and delete notices) one at a time, in the order they were queued.

use std::collections::{HashMap, HashSet, VecDeque};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serenity::all::{Context, GetMessages, Http, Message, MessageId, PartialMember, Ready, User};
use serenity::futures::FutureExt;
use serenity::gateway::CollectorCallback;
use serenity::model::event::Event;
use serenity::model::id::ChannelId;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

use super::deliver::{self, retry};
use super::perms::Perms;
use super::shards::{GuildPayload, Restart, ShardRange, GUILD_WAIT};
use crate::backend::{Claim, Owners};
use gaugebot_table::input::{Author, Incoming, Mention, Verdict};
use gaugebot_table::table::extract::{extract, Commands};
use gaugebot_table::Tables;

use crate::config::Config;
use crate::console::now_rfc3339;

/// Message ids remembered per channel (processed, commented on) and globally (collected).
const REMEMBERED_IDS: usize = 4096;
/// Messages per history page (Discord's maximum).
const HISTORY_PAGE: u8 = 100;
/// The Discord epoch (2015-01-01) in Unix milliseconds.
const DISCORD_EPOCH_MS: i128 = 1_420_070_400_000;
/// How much of an original command an edit notice quotes.
const QUOTE_CHARS: usize = 300;

/// Work for a channel's worker.
pub(crate) enum Job {
    /// A message from the gateway. `epoch` is the session whose collector queued it, `None`
    /// when it came through the fallback event handler.
    Live {
        /// The message.
        message: Box<Message>,
        /// The collector's session epoch.
        epoch: Option<u64>,
    },
    /// Catch up on the channel's history; signal when done.
    CatchUp(oneshot::Sender<()>),
    /// A slash command or a button click, as input for the table.
    Interaction(Box<super::invoke::Invocation>),
    /// The bot's own message (a reply it posted): once every message before it was
    /// processed, the cursor may move past it, so that a restart finds the channel up to date.
    Own(MessageId),
    /// A message was edited (`Some(new text)`) or deleted (`None`).
    Changed {
        /// The message.
        id: MessageId,
        /// The new text of an edit.
        edited: Option<String>,
    },
}

/// A set of the most recent ids, bounded.
pub(crate) struct RecentIds {
    set: HashSet<u64>,
    order: VecDeque<u64>,
}

impl RecentIds {
    pub(crate) fn new() -> Self {
        RecentIds {
            set: HashSet::new(),
            order: VecDeque::new(),
        }
    }

    /// Adds an id; false if it was there already.
    pub(crate) fn insert(&mut self, id: u64) -> bool {
        if !self.set.insert(id) {
            return false;
        }
        self.order.push_back(id);
        if self.order.len() > REMEMBERED_IDS {
            if let Some(old) = self.order.pop_front() {
                self.set.remove(&old);
            }
        }
        true
    }

    pub(crate) fn contains(&self, id: u64) -> bool {
        self.set.contains(&id)
    }
}

struct Queues {
    senders: HashMap<ChannelId, mpsc::UnboundedSender<Job>>,
    workers: Vec<JoinHandle<()>>,
}

/// Everything the event handler, the collectors and the workers share.
pub(crate) struct Shared {
    pub(crate) tables: Tables,
    pub(crate) http: Arc<Http>,
    pub(crate) prefix: String,
    pub(crate) perms: Perms,
    /// The bot's own user id (from READY), to read messages that mention it.
    pub(crate) bot_id: AtomicU64,
    /// Whether the session reads message content (the privileged intent).
    pub(crate) content_intent: bool,
    /// Buttons on the turn prompt.
    pub(crate) buttons: bool,
    /// One pinned status message per game.
    pub(crate) pinned_status: bool,
    queues: Mutex<Queues>,
    closing: AtomicBool,
    collected: Mutex<RecentIds>,
    /// Incremented on every READY: a channel synced in an older epoch must catch up first.
    epoch: AtomicU64,
    /// How many READYs have been fully caught up.
    caught_up: watch::Sender<u64>,
    /// Which process owns each channel (PostgreSQL), or this one alone (SQLite).
    pub(crate) owners: Arc<dyn Owners>,
    /// The shards this process runs.
    pub(crate) shards: ShardRange,
    /// What READY reads (only channels behind their cursor), paced.
    pub(crate) restart: Restart,
    /// The bot's own user id (from READY).
    me: AtomicU64,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Shared {
    pub(crate) fn new(
        tables: Tables,
        http: Arc<Http>,
        config: &Config,
        content_intent: bool,
        owners: Arc<dyn Owners>,
    ) -> Arc<Shared> {
        Arc::new(Shared {
            tables,
            perms: Perms::new(http.clone(), &config.discord.moderator_roles),
            http,
            prefix: config.prefix.clone(),
            bot_id: AtomicU64::new(0),
            content_intent,
            buttons: config.discord.buttons,
            pinned_status: config.discord.pinned_status,
            queues: Mutex::new(Queues {
                senders: HashMap::new(),
                workers: Vec::new(),
            }),
            closing: AtomicBool::new(false),
            collected: Mutex::new(RecentIds::new()),
            epoch: AtomicU64::new(0),
            caught_up: watch::channel(0).0,
            owners,
            shards: config.discord.shards.unwrap_or(ShardRange::SINGLE),
            restart: Restart::new(config.discord.shards.map_or(1, |s| s.total)),
            me: AtomicU64::new(0),
        })
    }

    /// Watches the number of READYs that were caught up.
    pub(crate) fn subscribe_caught_up(&self) -> watch::Receiver<u64> {
        self.caught_up.subscribe()
    }

    /// Queues a job for a channel, starting its worker if needed. Dropped while shutting down
    /// (what it was about is caught up on the next start).
    pub(crate) fn enqueue(self: &Arc<Self>, channel: ChannelId, job: Job) {
        if self.closing.load(Ordering::SeqCst) {
            tracing::debug!(%channel, "shutting down: job dropped");
            return;
        }
        let mut queues = lock(&self.queues);
        let job = match queues.senders.get(&channel) {
            Some(tx) => match tx.send(job) {
                Ok(()) => return,
                Err(mpsc::error::SendError(job)) => job,
            },
            None => job,
        };
        let (tx, rx) = mpsc::unbounded_channel();
        // The receiver is alive: this send cannot fail.
        let _ = tx.send(job);
        queues.senders.insert(channel, tx);
        let worker = tokio::spawn(worker(self.clone(), channel, rx));
        queues.workers.push(worker);
    }

    /// Whether a collector has queued this message.
    pub(crate) fn was_collected(&self, id: MessageId) -> bool {
        lock(&self.collected).contains(id.get())
    }

    /// The collector: runs inside serenity's shard runner, in gateway order, before the event
    /// handlers are spawned. Returns false (and is removed) once the bot shuts down.
    fn collect(self: &Arc<Self>, event: &Event, epoch: u64) -> bool {
        if self.closing.load(Ordering::SeqCst) {
            return false;
        }
        if let Event::MessageCreate(created) = event {
            let message = &created.message;
            if message.author.id.get() == self.me.load(Ordering::SeqCst) {
                self.enqueue(message.channel_id, Job::Own(message.id));
            } else if !message.author.bot {
                lock(&self.collected).insert(message.id.get());
                self.enqueue(
                    message.channel_id,
                    Job::Live {
                        message: Box::new(message.clone()),
                        epoch: Some(epoch),
                    },
                );
            }
        }
        true
    }

    /// A new session: register a collector on its shard, then catch up the channels with an
    /// active game whose last message (in their guild's GUILD_CREATE) is newer than their
    /// cursor, and those no guild mentions; then count the READY as caught up.
    pub(crate) async fn on_ready(self: &Arc<Self>, ctx: &Context, ready: &Ready) {
        let me = ready.user.id.get();
        let guilds: Vec<u64> = ready.guilds.iter().map(|g| g.id.get()).collect();
        self.bot_id.store(me, Ordering::SeqCst);
        // Interaction follow-ups from this client need the application id.
        self.http.set_application_id(ready.application.id);
        self.me.store(me, Ordering::SeqCst);
        let epoch = self.epoch.fetch_add(1, Ordering::SeqCst) + 1;
        let shard = ctx.shard_id.0;
        // Before the collector: a message it queues finds its channel stale until caught up.
        self.restart.session(shard, epoch);
        let me = self.clone();
        ctx.shard
            .add_collector(CollectorCallback(Box::new(move |event| {
                me.collect(event, epoch)
            })));
        let active = match self.tables.store().active_cursors().await {
            Ok(active) => active,
            Err(error) => {
                tracing::error!(%error, "cannot list the active games; no catch-up");
                Vec::new()
            }
        };
        let active = active
            .into_iter()
            .filter_map(|(key, cursor)| {
                let channel = key.parse::<u64>().ok().filter(|id| *id != 0)?;
                Some((channel, cursor.and_then(|c| c.parse::<u64>().ok())))
            })
            .collect();
        self.restart.begin(shard, epoch, guilds, active, &mut |c| {
            self.start_catch_up(c)
        });
        self.restart.wait_for_guilds(shard, epoch, GUILD_WAIT).await;
        let mut waits = self.restart.finish(shard, epoch);
        // Channels no guild mentioned (direct messages, archived threads): read as before, by
        // the shard that gets direct messages, once every shard of the process has placed its
        // guilds' channels.
        if shard == 0 {
            let shards = self.shards.start..=self.shards.end;
            for channel in self.restart.unplaced(shards, GUILD_WAIT).await {
                waits.push(self.start_catch_up(channel));
            }
        }
        let count = waits.len();
        for wait in waits {
            let _ = wait.await;
        }
        let counts = self.restart.counts();
        tracing::info!(
            epoch,
            channels = count,
            active = counts.active,
            fresh = counts.fresh,
            behind = counts.behind,
            unplaced = counts.unplaced,
            "caught up after READY"
        );
        self.caught_up.send_modify(|n| *n += 1);
    }

    /// A guild's payload (GUILD_CREATE): its channels' last message ids.
    pub(crate) fn on_guild(self: &Arc<Self>, payload: GuildPayload, announced: bool) {
        self.restart
            .guild(payload, announced, &mut |c| self.start_catch_up(c));
    }

    /// Queues a catch-up of a channel; the receiver fires when it is done.
    fn start_catch_up(self: &Arc<Self>, channel: u64) -> oneshot::Receiver<()> {
        let (tx, rx) = oneshot::channel();
        self.enqueue(ChannelId::new(channel.max(1)), Job::CatchUp(tx));
        rx
    }

    /// Takes over the channels (of this process's shards) whose owner is gone: each is claimed
    /// and caught up from its stored cursor by its worker.
    pub(crate) async fn take_over(self: &Arc<Self>) {
        if self.closing.load(Ordering::SeqCst) || !self.owners.shared() {
            return;
        }
        let orphans = match self.owners.orphans().await {
            Ok(orphans) => orphans,
            Err(error) => {
                tracing::warn!(%error, "cannot list the channels without an owner");
                return;
            }
        };
        for (key, guild) in orphans {
            let Some(channel) = key.parse::<u64>().ok().filter(|id| *id != 0) else {
                continue;
            };
            let guild = guild.and_then(|g| g.parse::<u64>().ok());
            if guild.is_none() && self.shards != ShardRange::SINGLE {
                continue;
            }
            if self.shards.serves(guild) {
                tracing::info!(%channel, "taking over a channel whose owner is gone");
                drop(self.start_catch_up(channel));
            }
        }
    }

    /// Time-driven work of every table (reminders, deadlines, presets, signups): posts what is
    /// due, pinging the players it names. Waits until every READY has been caught up, so that
    /// a move posted while the bot was away is read before its clock is judged.
    pub(crate) async fn tick(&self, now: chrono::DateTime<chrono::Utc>) {
        let ready = *self.caught_up.borrow();
        if self.closing.load(Ordering::SeqCst)
            || ready == 0
            || ready < self.epoch.load(Ordering::SeqCst)
        {
            return;
        }
        for (key, response) in self.tables.tick(now).await {
            let Some(channel) = key.parse::<u64>().ok().filter(|id| *id != 0) else {
                continue;
            };
            if self.owners.shared() && !self.owners.holds(&key).await.unwrap_or(false) {
                // Another process owns the channel now: its reminders are that one's to post.
                self.tables.unload(&key).await;
                continue;
            }
            deliver::announce(&self.http, ChannelId::new(channel), &response).await;
        }
    }

    /// Stops taking jobs and lets every worker finish the jobs it has (at most 30 s).
    pub(crate) async fn close(&self) {
        self.closing.store(true, Ordering::SeqCst);
        let workers = {
            let mut queues = lock(&self.queues);
            queues.senders.clear();
            std::mem::take(&mut queues.workers)
        };
        let all = async {
            for worker in workers {
                let _ = worker.await;
            }
        };
        if tokio::time::timeout(Duration::from_secs(30), all)
            .await
            .is_err()
        {
            tracing::warn!("channel workers did not finish within 30 s");
        }
    }

    /// Runs one job; a panic is logged and the channel goes on with its next job.
    async fn run_job(&self, state: &mut ChannelState, job: Job) {
        match job {
            Job::Live { message, epoch } => {
                if let Some(guild) = message.guild_id {
                    state.guild = Some(guild.to_string());
                }
                if !self.owned(state).await {
                    return;
                }
                let guild = message.guild_id.map(|g| g.get());
                // The session of the channel's shard (another shard's READY leaves it alone).
                let current = self.restart.epoch_of(guild);
                if epoch.is_some()
                    && state.synced_epoch < current
                    && self
                        .restart
                        .placed_fresh(state.channel.get(), guild, GUILD_WAIT)
                        .await
                {
                    state.synced_epoch = current;
                }
                let stale = match epoch {
                    None => true,
                    Some(_) => state.synced_epoch < current,
                };
                if stale {
                    if self.has_game(&state.key).await {
                        self.catch_up(state).await;
                    } else {
                        state.synced_epoch = current;
                    }
                }
                self.process(state, &message).await;
            }
            Job::Interaction(invocation) => {
                if !self.owned(state).await {
                    return;
                }
                self.sync(state, false).await;
                self.invoke(state, *invocation).await;
            }
            Job::CatchUp(done) => {
                if self.owned(state).await && state.synced_epoch < self.epoch.load(Ordering::SeqCst)
                {
                    self.catch_up(state).await;
                }
                let _ = done.send(());
            }
            Job::Own(id) => {
                // Only a channel this worker has processed in this session (so owned, caught
                // up) and that has a cursor (an active game's channel).
                let guild = state.guild.as_deref().and_then(|g| g.parse().ok());
                if state.synced_epoch >= self.restart.epoch_of(guild)
                    && state.synced_epoch > 0
                    && state.cursor_kept
                {
                    if let Err(error) = self
                        .tables
                        .store()
                        .advance_cursor(&state.key, &id.to_string())
                        .await
                    {
                        tracing::debug!(channel = %state.channel, %error, "cannot move the cursor");
                    }
                }
            }
            Job::Changed { id, edited } => {
                if self.owners.holds(&state.key).await.unwrap_or(false) {
                    self.changed(state, id, edited).await;
                }
            }
        }
    }

    /// Whether this process may apply the channel's messages now; claims it when it is free
    /// or its owner is gone (then the table is loaded afresh and the channel caught up first).
    async fn owned(&self, state: &mut ChannelState) -> bool {
        match self.owners.claim(&state.key, state.guild.as_deref()).await {
            Ok(Claim::Mine) => true,
            Ok(Claim::New) => {
                tracing::info!(channel = %state.channel, "this process owns the channel now");
                // Loaded afresh, and caught up first unless the guild's payload found it up to
                // date in this session and no message of it was left to another process since
                // (leaving one forgets that).
                self.tables.unload(&state.key).await;
                state.synced_epoch = 0;
                true
            }
            Ok(Claim::Other) => {
                self.restart.forget(state.channel.get());
                state.synced_epoch = 0;
                false
            }
            Err(error) => {
                tracing::error!(channel = %state.channel, %error, "cannot tell who owns the channel; message left");
                state.synced_epoch = 0;
                false
            }
        }
    }

    /// Catches the channel up first if it was not since the last READY (or `force`).
    async fn sync(&self, state: &mut ChannelState, force: bool) {
        let current = self.epoch.load(Ordering::SeqCst);
        if force || state.synced_epoch < current {
            if self.has_game(&state.key).await {
                self.catch_up(state).await;
            } else {
                state.synced_epoch = current;
            }
        }
    }

    async fn has_game(&self, key: &str) -> bool {
        match self.tables.table(key).await {
            Ok(table) => table.game_id().is_some(),
            Err(error) => {
                tracing::error!(channel = key, %error, "the table does not load");
                false
            }
        }
    }

    /// Where the channel's catch-up starts: its cursor, else the start of its active game.
    async fn catch_up_start(&self, key: &str) -> Option<u64> {
        let store = self.tables.store();
        match store.cursor(key).await {
            Ok(Some(cursor)) => return cursor.parse().ok().filter(|c| *c != 0),
            Ok(None) => {}
            Err(error) => {
                tracing::error!(channel = key, %error, "cannot read the cursor; no catch-up");
                return None;
            }
        }
        match store.active_game(key).await {
            Ok(Some(game)) => snowflake_at(&gaugebot_table::store::time_text(game.created_at)),
            Ok(None) => None,
            Err(error) => {
                tracing::error!(channel = key, %error, "cannot read the game; no catch-up");
                None
            }
        }
    }

    /// Reads the channel's history after its cursor, oldest first, page by page, and processes
    /// every message not processed yet.
    async fn catch_up(&self, state: &mut ChannelState) {
        let epoch = self.epoch.load(Ordering::SeqCst);
        let channel = state.channel;
        let Some(mut after) = self.catch_up_start(&state.key).await else {
            state.synced_epoch = epoch;
            return;
        };
        let mut read = 0usize;
        let mut processed = 0usize;
        loop {
            self.restart.pacer.wait().await;
            let page = retry("read the channel history", channel, || {
                channel.messages(
                    &*self.http,
                    GetMessages::new()
                        .after(MessageId::new(after))
                        .limit(HISTORY_PAGE),
                )
            })
            .await;
            let mut page = match page {
                Ok(page) => page,
                Err(_) => {
                    tracing::error!(
                        %channel,
                        "catch-up stopped: commands posted while the bot was away may need to be posted again"
                    );
                    break;
                }
            };
            let full = page.len() >= usize::from(HISTORY_PAGE);
            page.sort_by_key(|m| m.id);
            read += page.len();
            for message in &page {
                after = after.max(message.id.get());
                if self.process(state, message).await {
                    processed += 1;
                }
            }
            if !full {
                break;
            }
        }
        if read > 0 {
            tracing::info!(%channel, read, processed, "caught up");
        }
        state.synced_epoch = epoch;
    }

    /// Hands one message to its table, posts the replies, reacts, and moves the cursor.
    /// Returns whether the message was handed to the table.
    async fn process(&self, state: &mut ChannelState, message: &Message) -> bool {
        if message.author.bot || state.done.contains(message.id.get()) {
            return false;
        }
        let text = super::mention::rewrite(
            &message.content,
            self.bot_id.load(Ordering::SeqCst),
            &self.prefix,
            &self.tables.host().registry,
        )
        .unwrap_or_else(|| message.content.clone());
        let is_moderator = match extract(&text, &self.prefix) {
            Commands::Bang { .. } => self.perms.is_moderator(message).await,
            _ => false,
        };
        let incoming = Incoming {
            message_id: message.id.to_string(),
            author: Author {
                id: message.author.id.to_string(),
                name: display_name(&message.author, message.member.as_deref()),
                is_moderator,
            },
            text,
            at: message.timestamp.to_rfc3339().unwrap_or_else(now_rfc3339),
            mentions: message
                .mentions
                .iter()
                .map(|user| Mention {
                    id: user.id.to_string(),
                    name: display_name(user, user.member.as_deref()),
                })
                .collect(),
        };
        // Direct messages (`!preset`, `!waiting`) and `!waiting` anywhere are answered across
        // the tables, never by this channel's own table.
        let dm = self.perms.is_direct(message).await;
        if let Some(response) = self.tables.across(dm, &incoming).await {
            state.done.insert(message.id.get());
            deliver::respond(&self.http, state.channel, message.id, &response, Vec::new()).await;
            if !dm && self.has_game(&state.key).await {
                // `!waiting` in a game channel: not answered again by a catch-up.
                let _ = self
                    .tables
                    .store()
                    .advance_cursor(&state.key, &incoming.message_id)
                    .await;
            }
            if dm && response.verdict == Verdict::Accepted {
                // A new preset may answer an auction at once.
                self.tick(chrono::Utc::now()).await;
            }
            return true;
        }
        let mut table = match self.tables.table(&state.key).await {
            Ok(table) => table,
            Err(error) => {
                tracing::error!(channel = %state.channel, %error, "the table does not load; message not processed");
                return false;
            }
        };
        let response = table.handle(&incoming).await;
        if response.verdict == Verdict::Refused
            && self.owners.shared()
            && !self.owners.holds(&state.key).await.unwrap_or(false)
        {
            // Another process took the channel over while this one handled the message (the
            // write was refused): it applies the message; this one says nothing.
            drop(table);
            tracing::warn!(channel = %state.channel, msg = %message.id, "the channel was taken over; message left to its new owner");
            self.tables.unload(&state.key).await;
            self.restart.forget(state.channel.get());
            state.synced_epoch = 0;
            return false;
        }
        let active = table.game_id().is_some();
        let after = self.after(&table, &response);
        drop(table);
        state.done.insert(message.id.get());
        if matches!(response.verdict, Verdict::Accepted | Verdict::Refused) {
            state.remember(message.id.get(), &incoming.text, response.verdict);
        }
        if response.verdict != Verdict::Ignored {
            tracing::info!(
                channel = %state.channel,
                msg = %message.id,
                author = %message.author.id,
                verdict = ?response.verdict,
                "command"
            );
        }
        let components = after.components();
        let prompt =
            deliver::respond(&self.http, state.channel, message.id, &response, components).await;
        state.cursor_kept = active;
        self.settle(state, after, prompt).await;
        if active {
            if let Err(error) = self
                .tables
                .store()
                .advance_cursor(&state.key, &incoming.message_id)
                .await
            {
                tracing::warn!(channel = %state.channel, %error, "cannot move the cursor");
            }
        }
        true
    }

    /// The original text and verdict of a processed command, if the message was read.
    async fn original(&self, state: &ChannelState, id: MessageId) -> Option<Original> {
        let key = &state.key;
        let id_text = id.to_string();
        match self.tables.store().seen(key, &id_text).await {
            Ok(true) => {}
            Ok(false) => return None,
            Err(error) => {
                tracing::warn!(channel = key, %error, "cannot tell whether a message was read");
                return None;
            }
        }
        if let Some(known) = state.commands.get(&id.get()) {
            return Some(known.clone());
        }
        let game = match self.tables.table(key).await {
            Ok(table) => table.game_id().map(str::to_string),
            Err(_) => None,
        };
        let logged = match game {
            Some(game) => self
                .tables
                .store()
                .log(&game)
                .await
                .ok()
                .and_then(|rows| rows.into_iter().find(|r| r.message_id == id_text))
                .map(|row| Original {
                    text: Some(row.text),
                    verdict: Some(Verdict::Accepted),
                }),
            None => None,
        };
        Some(logged.unwrap_or(Original {
            text: None,
            verdict: None,
        }))
    }

    /// An edited or deleted message: if it was read as a command, say that nothing changes.
    async fn changed(&self, state: &mut ChannelState, id: MessageId, edited: Option<String>) {
        if state.commented.contains(id.get()) {
            return;
        }
        let Some(original) = self.original(state, id).await else {
            return;
        };
        if let (Some(new), Some(old)) = (&edited, &original.text) {
            if new == old {
                return;
            }
        }
        let quoted = original.text.as_deref().map(quote);
        let notice = match (edited.is_some(), original.verdict, quoted) {
            (true, Some(Verdict::Refused), Some(q)) => format!(
                "Edits don't re-run commands: {q} was refused and stays refused; post the corrected command as a new message."
            ),
            (false, Some(Verdict::Refused), _) => return,
            (true, _, Some(q)) => {
                format!("Edits don't change moves: {q} stands; the log keeps the original text.")
            }
            (false, _, Some(q)) => format!(
                "Deleting a message doesn't change moves: {q} stands; the log keeps the original text."
            ),
            (true, _, None) => "Edits don't change moves: that message was already read and stands as first written; the log keeps the original text.".to_string(),
            (false, _, None) => "Deleting a message doesn't change moves: it was already read and stands; the log keeps the original text.".to_string(),
        };
        state.commented.insert(id.get());
        tracing::info!(channel = %state.channel, msg = %id, edited = edited.is_some(), "edit of a read command");
        let reference = edited.is_some().then_some(id);
        deliver::notice(&self.http, state.channel, reference, &notice).await;
    }
}

/// What an edit notice knows of the original command.
#[derive(Clone)]
struct Original {
    text: Option<String>,
    verdict: Option<Verdict>,
}

/// One channel's worker state.
pub(crate) struct ChannelState {
    pub(crate) channel: ChannelId,
    pub(crate) key: String,
    /// The last message posted with buttons (stripped of them when the game moves on).
    pub(crate) last_prompt: Option<MessageId>,
    /// The channel's guild, once a message said it.
    guild: Option<String>,
    /// Whether the last processed message moved the cursor (the channel has a game).
    cursor_kept: bool,
    /// The epoch of the last catch-up (or of the check that none was needed).
    synced_epoch: u64,
    /// Messages processed in this run.
    done: RecentIds,
    /// Commands read in this run, for edit notices.
    commands: HashMap<u64, Original>,
    commands_order: VecDeque<u64>,
    /// Messages whose edit or deletion was commented on.
    commented: RecentIds,
}

impl ChannelState {
    fn new(channel: ChannelId) -> Self {
        ChannelState {
            channel,
            key: channel.to_string(),
            last_prompt: None,
            guild: None,
            cursor_kept: false,
            synced_epoch: 0,
            done: RecentIds::new(),
            commands: HashMap::new(),
            commands_order: VecDeque::new(),
            commented: RecentIds::new(),
        }
    }

    fn remember(&mut self, id: u64, text: &str, verdict: Verdict) {
        let original = Original {
            text: Some(text.to_string()),
            verdict: Some(verdict),
        };
        if self.commands.insert(id, original).is_none() {
            self.commands_order.push_back(id);
            if self.commands_order.len() > REMEMBERED_IDS {
                if let Some(old) = self.commands_order.pop_front() {
                    self.commands.remove(&old);
                }
            }
        }
    }
}

async fn worker(shared: Arc<Shared>, channel: ChannelId, mut jobs: mpsc::UnboundedReceiver<Job>) {
    let mut state = ChannelState::new(channel);
    while let Some(job) = jobs.recv().await {
        let run = AssertUnwindSafe(shared.run_job(&mut state, job))
            .catch_unwind()
            .await;
        if run.is_err() {
            tracing::error!(%channel, "a job panicked; the channel goes on with the next one");
        }
    }
}

/// The name shown for a user: server nickname, global display name, or username.
pub(crate) fn display_name(user: &User, member: Option<&PartialMember>) -> String {
    member
        .and_then(|m| m.nick.clone())
        .or_else(|| user.global_name.clone())
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| user.name.clone())
}

/// A command quoted in a notice, shortened.
fn quote(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= QUOTE_CHARS {
        return text.to_string();
    }
    let short: String = text.chars().take(QUOTE_CHARS).collect();
    format!("{short}…")
}

/// The smallest snowflake of the millisecond of an RFC 3339 time, less one: "after" it finds
/// every message from that moment on.
fn snowflake_at(at: &str) -> Option<u64> {
    let time =
        time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339).ok()?;
    let since = time.unix_timestamp_nanos() / 1_000_000 - DISCORD_EPOCH_MS;
    let since = u64::try_from(since).ok().filter(|ms| *ms > 0)?;
    Some((since << 22).saturating_sub(1).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn recent_ids_are_bounded() {
        let mut ids = RecentIds::new();
        assert!(ids.insert(1));
        assert!(!ids.insert(1));
        for i in 2..=(REMEMBERED_IDS as u64 + 1) {
            ids.insert(i);
        }
        assert!(!ids.contains(1));
        assert!(ids.contains(2));
    }

    #[test]
    fn a_time_becomes_the_snowflake_before_it() {
        // 2015-01-01T00:00:01Z is 1000 ms after the Discord epoch.
        assert_eq!(
            snowflake_at("2015-01-01T00:00:01Z"),
            Some((1000u64 << 22) - 1)
        );
        assert_eq!(snowflake_at("2014-01-01T00:00:00Z"), None);
        assert_eq!(snowflake_at("not a time"), None);
    }

    #[test]
    fn long_commands_are_shortened_in_notices() {
        assert_eq!(quote(" **bid 7** "), "**bid 7**");
        let long = "x".repeat(QUOTE_CHARS + 10);
        assert_eq!(quote(&long).chars().count(), QUOTE_CHARS + 1);
    }
}
