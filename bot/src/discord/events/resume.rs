//! RESUMED: nothing to catch up.

/// A resumed session replays what it missed, in order, on the same shard runner (whose
/// collector is still registered): nothing to catch up.
pub(crate) fn resume() {
    tracing::info!("session resumed");
}
