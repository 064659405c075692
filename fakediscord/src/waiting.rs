//! Waiting: every waiting helper takes a timeout and wakes on state changes, not by polling.

use std::fmt;
use std::future::Future;
use std::time::{Duration, Instant};

use crate::server::FakeDiscord;

/// A wait that ran out of time. Its message says what was awaited and what was seen.
#[derive(Clone, Debug)]
pub struct WaitTimeout {
    /// What was awaited and the state at the deadline.
    pub what: String,
    /// How long it waited.
    pub waited: Duration,
}

impl fmt::Display for WaitTimeout {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "timed out after {:?} waiting for {}",
            self.waited, self.what
        )
    }
}

impl std::error::Error for WaitTimeout {}

impl FakeDiscord {
    /// Waits until `check` returns `Ok`, re-checking on every state change of the fake (no
    /// polling). On timeout the error carries the last `Err` text of `check`.
    pub async fn wait_for<T>(
        &self,
        timeout: Duration,
        mut check: impl FnMut(&FakeDiscord) -> Result<T, String>,
    ) -> Result<T, WaitTimeout> {
        let start = Instant::now();
        let mut rx = self.shared.version.subscribe();
        loop {
            rx.borrow_and_update();
            let why = match check(self) {
                Ok(v) => return Ok(v),
                Err(why) => why,
            };
            let left = timeout.saturating_sub(start.elapsed());
            let changed = tokio::time::timeout(left, rx.changed()).await;
            if !matches!(changed, Ok(Ok(()))) {
                return match check(self) {
                    Ok(v) => Ok(v),
                    Err(why2) => Err(WaitTimeout {
                        what: if why2.is_empty() { why } else { why2 },
                        waited: start.elapsed(),
                    }),
                };
            }
        }
    }
}

/// Runs `fut` with a timeout, panicking with `what` if it expires (for test code).
pub async fn within<T>(timeout: Duration, what: &str, fut: impl Future<Output = T>) -> T {
    match tokio::time::timeout(timeout, fut).await {
        Ok(v) => v,
        Err(_) => panic!("timed out after {timeout:?}: {what}"),
    }
}
