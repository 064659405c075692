//! The state the handle, the REST handlers and the gateway sessions share, and its change
//! signal (every waiting helper wakes on it).

use std::sync::{Mutex, MutexGuard};

use tokio::sync::watch;

use crate::state::State;

/// State shared by the handle, the REST handlers and the gateway sessions.
pub(crate) struct Shared {
    pub(crate) state: Mutex<State>,
    /// Bumped on every write; waiters subscribe to it.
    pub(crate) version: watch::Sender<u64>,
    /// Turns true when the fake stops (ends the requests left hanging).
    pub(crate) stopped: watch::Receiver<bool>,
}

impl Shared {
    /// Read-only access.
    pub(crate) fn read(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Mutating access; wakes every waiter afterwards.
    pub(crate) fn write<R>(&self, f: impl FnOnce(&mut State) -> R) -> R {
        let r = {
            let mut guard = self.read();
            f(&mut guard)
        };
        self.version.send_modify(|v| *v = v.wrapping_add(1));
        r
    }
}
