//! Which storage faults a piece of work met: every error the stores make of a transient
//! failure ([`StoreError::Unavailable`]: the database away, busy, a timeout, a full disk, a
//! file that cannot be written) is noted in the task that met it, so that a caller can tell,
//! after the fact, that what it did was refused for a reason that will pass ([`watch`]),
//! whatever layer (the table core, the ownership of channels) swallowed the error on the way.
//!
//! Notes are kept per task ([`tokio::task_local!`]): work in one channel's worker never sees
//! another's faults. Outside a [`watch`] nothing is kept.

use std::cell::RefCell;
use std::future::Future;

use gaugebot_table::store::StoreError;

tokio::task_local! {
    /// The first fault met in the innermost [`watch`] of this task.
    static MET: RefCell<Option<StoreError>>;
}

/// Runs `work` and returns what it returned with the first transient storage fault it met,
/// if any. Watches nest: an inner one keeps its faults to itself.
pub async fn watch<T>(work: impl Future<Output = T>) -> (T, Option<StoreError>) {
    MET.scope(RefCell::new(None), async {
        let out = work.await;
        let met = MET.with(|met| met.borrow_mut().take());
        (out, met)
    })
    .await
}

/// Whether the innermost [`watch`] of this task met a transient fault so far.
pub fn met() -> bool {
    MET.try_with(|met| met.borrow().is_some()).unwrap_or(false)
}

/// Notes `error` in the innermost [`watch`] of this task if it is a transient fault.
pub fn note(error: &StoreError) {
    if matches!(error, StoreError::Unavailable(_)) {
        note_any(error);
    }
}

/// Notes `error` as transient whatever its kind (a caller that knows the failure will pass:
/// an owner that cannot be told).
pub fn note_any(error: &StoreError) {
    let _ = MET.try_with(|met| {
        let mut met = met.borrow_mut();
        if met.is_none() {
            *met = Some(error.clone());
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    fn unavailable() -> StoreError {
        StoreError::Unavailable(Arc::new(std::io::Error::other("gone")))
    }

    #[tokio::test]
    async fn a_transient_fault_is_seen_by_its_watch_only() {
        let (_, met) = watch(async {
            let (_, inner) = watch(async { note(&unavailable()) }).await;
            assert!(inner.is_some(), "the inner watch sees its fault");
            assert!(!self::met(), "the outer watch does not");
            note(&StoreError::Corrupt("x".into()));
            assert!(!self::met(), "a corrupt row is no transient fault");
        })
        .await;
        assert!(met.is_none());
        let (_, met) = watch(async { note(&unavailable()) }).await;
        assert!(matches!(met, Some(StoreError::Unavailable(_))));
        // Outside a watch: nothing kept, nothing fails.
        note(&unavailable());
    }
}
