//! A channel's worker: takes the jobs of its queue in order (live messages, interactions,
//! catch-ups, the bot's own posts, edit and delete notices) and runs each in turn.

use std::panic::AssertUnwindSafe;
use std::sync::Arc;

use serenity::futures::future::BoxFuture;
use serenity::futures::FutureExt;
use serenity::model::id::ChannelId;
use tokio::sync::mpsc;

use super::catch_up::{before_live, catch_up, sync};
use super::channel::ChannelState;
use super::edits;
use super::job::Job;
use super::messages::process;
use super::outbox::{self, redeliver};
use super::ownership::owned;
use super::play::invoke;
use super::shared::Shared;

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
            let run = AssertUnwindSafe(run_job(&shared, &mut state, job))
                .catch_unwind()
                .await;
            if run.is_err() {
                tracing::error!(%channel, "a job panicked; the channel goes on with the next one");
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
            if !owned(shared, state).await {
                return;
            }
            redeliver(shared, state).await;
            before_live(shared, state, epoch, message.guild_id.map(|g| g.get())).await;
            process(shared, state, &message).await;
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
            }
            let _ = done.send(());
        }
        Job::Deliver(item) => {
            if state.outbox_checked {
                outbox::deliver(shared, state, &item).await;
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
