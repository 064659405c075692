//! A channel's worker: takes the jobs of its queue in order (live messages, interactions,
//! catch-ups, the bot's own posts, edit and delete notices) and runs each in turn. A job that
//! met a transient storage fault leaves the channel behind ([`super::behind`]): its live
//! messages are then read by the channel's catch-up, in order, once the store works again.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use serenity::all::{Message, MessageId};
use serenity::futures::future::BoxFuture;
use serenity::futures::FutureExt;
use serenity::model::id::ChannelId;
use tokio::sync::mpsc;

use gaugebot_store::faults;
use gaugebot_table::store::StoreError;
use gaugebot_table::table::extract::{extract, Commands};

use super::catch_up::{self, before_live, catch_up, sync};
use super::channel::ChannelState;
use super::edits;
use super::job::Job;
use super::messages::process;
use super::outbox::{self, redeliver, Delivery};
use super::ownership::owned;
use super::play::invoke;
use super::posting::reply;
use super::shared::Shared;
use super::text::Text;

/// The worker of a channel's queue (see [`super::queue::Worker`]): a panic in a job is logged
/// and the channel goes on with its next job.
pub(crate) fn run(
    shared: Arc<Shared>,
    channel: ChannelId,
    mut jobs: mpsc::UnboundedReceiver<Job>,
) -> BoxFuture<'static, ()> {
    Box::pin(async move {
        let mut state = ChannelState::new(channel);
        while let Some(job) = jobs.recv().await {
            let command = command_of(&shared, &job);
            // A catch-up, or a live message in a channel behind (read by its catch-up).
            let catching_up = matches!(job, Job::CatchUp(_))
                || (matches!(job, Job::Live { .. }) && shared.behind.is_behind(channel));
            let run = AssertUnwindSafe(faults::watch(run_job(&shared, &mut state, job)))
                .catch_unwind()
                .await;
            match run {
                Err(_) => {
                    tracing::error!(%channel, "a job panicked; the channel goes on with the next one")
                }
                Ok(((), Some(fault))) => fell_behind(&shared, &mut state, &fault, command).await,
                Ok(((), None)) if catching_up => {
                    shared.behind.clear(channel);
                    state.noticed = false;
                }
                Ok(((), None)) => {}
            }
        }
    })
}

/// Runs one job.
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
async fn run_job(shared: &Arc<Shared>, state: &mut ChannelState, job: Job) {
    match job {
        Job::Live { message, epoch } => {
            if let Some(guild) = message.guild_id {
                state.guild = Some(guild.to_string());
            }
            if shared.behind.is_behind(state.channel) {
                // Read after the messages left behind, in order (the catch-up finds it in the
                // history, or it waits with them).
                state.left.push(*message);
                if owned(shared, state).await {
                    redeliver(shared, state).await;
                    catch_up(shared, state).await;
                    read_left(shared, state).await;
                }
                return;
            }
            if !owned(shared, state).await {
                if faults::met() {
                    state.left.push(*message);
                }
                return;
            }
            redeliver(shared, state).await;
            before_live(shared, state, epoch, message.guild_id.map(|g| g.get())).await;
            process(shared, state, &message).await;
            if faults::met() {
                state.left.push(*message);
            }
        }
        Job::Interaction(invocation) => {
            if !owned(shared, state).await {
                return;
            }
            redeliver(shared, state).await;
            sync(shared, state).await;
            invoke(shared, state, *invocation).await;
        }
        Job::CatchUp(done) => {
            if owned(shared, state).await {
                redeliver(shared, state).await;
                if state.synced_epoch < shared.session.epoch() {
                    catch_up(shared, state).await;
                }
                read_left(shared, state).await;
            }
            let _ = done.send(());
        }
        Job::Deliver(item) => {
            if state.outbox_checked {
                // Not posted if the channel was taken over meanwhile (its new owner delivers
                // it; this process's table of it is stale) or its owner cannot be told
                // (delivered before the next job).
                if outbox::deliver(shared, state, &item).await == Delivery::LeftToOwner {
                    shared.tables.unload(&state.key).await;
                }
            } else {
                // The first read of the outbox delivers this parcel too, in its order.
                redeliver(shared, state).await;
            }
        }
        Job::Outbox => {
            if owned(shared, state).await {
                redeliver(shared, state).await;
            }
        }
        Job::Own(id) => {
            // Only a channel this worker has processed in this session (so owned, caught up)
            // and that has a cursor (an active game's channel).
            let current = shared.session.restart.epoch_of(state.guild_id());
            if state.synced_epoch >= current && state.synced_epoch > 0 && state.cursor_kept {
                let store = shared.tables.store();
                if let Err(error) = store.advance_cursor(&state.key, &id.to_string()).await {
                    tracing::debug!(channel = %state.channel, %error, "cannot move the cursor");
                }
            }
        }
        Job::Changed { id, edited } => {
            if shared.owners.holds(&state.key).await.unwrap_or(false) {
                edits::changed(shared, state, id, edited).await;
            }
        }
    }
}

/// Reads the live messages a storage fault left, oldest first, unless the catch-up read them
/// (or a fault stops it again: the rest wait for the next try). At most [`LEFT_KEPT`] wait.
async fn read_left(shared: &Arc<Shared>, state: &mut ChannelState) {
    if faults::met() || state.left.is_empty() {
        return;
    }
    let mut left = std::mem::take(&mut state.left);
    left.sort_by_key(|m| m.id);
    left.dedup_by_key(|m| m.id);
    let mut waiting = left.into_iter();
    for message in waiting.by_ref() {
        process(shared, state, &message).await;
        if faults::met() {
            state.left.push(message);
            break;
        }
    }
    state.left.extend(waiting);
}

/// How many live messages left by a fault a channel keeps (the oldest are dropped first; a
/// channel with a game reads them from its history anyway).
const LEFT_KEPT: usize = 1000;

/// The message of a live job that reads as a command from a person (what the outage notice
/// answers); none for chat, the bot's own posts and every other job.
fn command_of(shared: &Shared, job: &Job) -> Option<MessageId> {
    let Job::Live { message, .. } = job else {
        return None;
    };
    let Message {
        author, content, ..
    } = &**message;
    let mentioned = message
        .mentions
        .iter()
        .any(|u| u.id.get() == shared.session.me());
    let command = !matches!(extract(content, &shared.settings.prefix), Commands::None);
    (!author.bot && (command || mentioned)).then_some(message.id)
}

/// After a job that met a transient storage fault: the channel is behind (caught up by its
/// retry, [`super::behind`]), its cursor kept where it is, its outbox read again first; a
/// command posted meanwhile is told, once per outage in the channel, that it is read when the
/// storage is back.
async fn fell_behind(
    shared: &Arc<Shared>,
    state: &mut ChannelState,
    fault: &StoreError,
    command: Option<MessageId>,
) {
    state.synced_epoch = 0;
    // A write whose commit the fault hid may have stored its answer: the outbox is read again
    // before the catch-up (a parcel posted twice keeps its nonces: Discord drops the second).
    state.outbox_checked = false;
    if state.left.len() > LEFT_KEPT {
        let excess = state.left.len() - LEFT_KEPT;
        state.left.drain(..excess);
    }
    let retrying = shared.clone();
    let channel = state.channel;
    shared.behind.mark(channel, fault, move || {
        let shared = retrying.clone();
        async move {
            if shared.queues.closing() {
                return false;
            }
            let _ = catch_up::start(&shared, channel.get()).await;
            true
        }
    });
    if command.is_some() && !state.noticed {
        state.noticed = true;
        let text = Text::StorageUnavailable.render(&shared.tables.host().templates);
        reply::notice(&shared.discord.rest, state.channel, None, &text).await;
    }
}
