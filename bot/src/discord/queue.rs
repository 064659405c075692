//! Per-channel queues: one worker task per channel runs its jobs one at a time, in the order
//! they were queued; different channels run in parallel. The worker is given by the adapter
//! (`C` is what it works with), so this module knows nothing of what a job does.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use serenity::futures::future::BoxFuture;
use serenity::model::id::ChannelId;
use tokio::sync::mpsc;
use tokio::task::JoinHandle;

use super::job::Job;

/// How long [`Queues::close`] lets the workers finish their jobs.
const CLOSE_WAIT: Duration = Duration::from_secs(30);

/// A channel's worker: runs the jobs of its receiver until it closes.
pub(crate) type Worker<C> =
    fn(Arc<C>, ChannelId, mpsc::UnboundedReceiver<Job>) -> BoxFuture<'static, ()>;

struct Lanes {
    senders: HashMap<ChannelId, mpsc::UnboundedSender<Job>>,
    workers: Vec<JoinHandle<()>>,
}

/// Every channel's queue and worker.
pub(crate) struct Queues<C> {
    lanes: Mutex<Lanes>,
    closing: AtomicBool,
    worker: Worker<C>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl<C: Send + Sync + 'static> Queues<C> {
    /// No queue yet; `worker` serves each channel's.
    pub(crate) fn new(worker: Worker<C>) -> Self {
        Queues {
            lanes: Mutex::new(Lanes {
                senders: HashMap::new(),
                workers: Vec::new(),
            }),
            closing: AtomicBool::new(false),
            worker,
        }
    }

    /// Whether the queues stopped taking jobs.
    pub(crate) fn closing(&self) -> bool {
        self.closing.load(Ordering::SeqCst)
    }

    /// Queues a job for a channel, starting its worker (with `context`) if needed. Dropped
    /// while shutting down (what it was about is caught up on the next start).
    #[tracing::instrument(target = "hop", level = "trace", skip_all)]
    pub(crate) fn enqueue(&self, context: &Arc<C>, channel: ChannelId, job: Job) {
        if self.closing() {
            tracing::debug!(%channel, "shutting down: job dropped");
            return;
        }
        let mut lanes = lock(&self.lanes);
        let job = match lanes.senders.get(&channel) {
            Some(tx) => match tx.send(job) {
                Ok(()) => return,
                Err(mpsc::error::SendError(job)) => job,
            },
            None => job,
        };
        let (tx, rx) = mpsc::unbounded_channel();
        // The receiver is alive: this send cannot fail.
        let _ = tx.send(job);
        lanes.senders.insert(channel, tx);
        let worker = tokio::spawn((self.worker)(context.clone(), channel, rx));
        lanes.workers.push(worker);
    }

    /// Stops taking jobs and lets every worker finish the jobs it has (at most 30 s).
    pub(crate) async fn close(&self) {
        self.closing.store(true, Ordering::SeqCst);
        let workers = {
            let mut lanes = lock(&self.lanes);
            lanes.senders.clear();
            std::mem::take(&mut lanes.workers)
        };
        let all = async {
            for worker in workers {
                let _ = worker.await;
            }
        };
        if tokio::time::timeout(CLOSE_WAIT, all).await.is_err() {
            tracing::warn!("channel workers did not finish within 30 s");
        }
    }
}
