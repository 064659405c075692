//! Automa seats at the table: when the seat to act is held by an automa, the table makes its
//! move as a move made for the seat — a `proxy` marker with [`ProxyWhy::Automa`] before the
//! move, the audited draw it calls for, the next players' presets and absences, one commit —
//! and posts it as the forum record reads (its name and move in bold, one short line of
//! reason, then the report).
//!
//! The decision runs on tokio's blocking pool (`spawn_blocking`), never on an async worker,
//! while the table is locked: one decision per table at a time, and no other table waits. It
//! is seeded from public data only (the game id and the log position, [`automa_seed`]), so a
//! restart while the automa thinks loses nothing: the same position gives the same move when
//! the table is next asked ([`crate::Tables::automa`], or the tick).
//!
//! After a moderator's `!undo` the automa waits until a human (or a moderator's `!act`, a
//! manual draw or a substitution) has moved again ([`held`]).

use crate::game::events::{ProxyWhy, TableEvent};
use crate::game::log::Entry;
use crate::store::LogRow;

/// Whether the automa must wait: the last entry that moved the game on is a moderator's
/// `!undo` (nothing has moved since but table entries other than a substitution).
pub(crate) fn held(log: &[(Entry, LogRow)]) -> bool {
    for (entry, _) in log.iter().rev() {
        match entry {
            Entry::Undo => return true,
            Entry::Action { .. } | Entry::Draw { .. } => return false,
            Entry::Table(TableEvent::Sub { .. }) => return false,
            Entry::Reveal | Entry::Table(_) => {}
        }
    }
    false
}

/// Whether the move stored at log position `seq` was the automa's (the entry before it is a
/// `proxy` marker with [`ProxyWhy::Automa`], or [`ProxyWhy::Cover`] when it covered the seat).
pub(crate) fn made_by_automa(log: &[(Entry, LogRow)], seq: i64) -> bool {
    made_as(log, seq, ProxyWhy::Automa) || made_as(log, seq, ProxyWhy::Cover)
}

/// Whether the log entry `seq` is a move the table made for its seat for this reason (the
/// `proxy` marker just before it names it).
pub(crate) fn made_as(log: &[(Entry, LogRow)], seq: i64, why: ProxyWhy) -> bool {
    log.iter()
        .position(|(_, row)| row.seq == seq)
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| log.get(i))
        .is_some_and(|(entry, _)| {
            matches!(entry, Entry::Table(TableEvent::Proxy { why: made, .. }) if *made == why)
        })
}
