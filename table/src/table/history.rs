//! Past positions of the running game (`!status N`, `!map N`, the status's ◀ ▶ buttons): the
//! position after one record entry, replayed from the stored log up to it. Nothing is drawn
//! again: every draw comes from its stored entry, and the position is the one the table held
//! then, so its report shows what the report showed then and nothing dealt later.

use crate::game::log::Entry;
use crate::game::session::Session;
use crate::messages;
use crate::table::{Current, Host};
use crate::weeks::meta::TableEvent;

/// Which position a command asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Asked {
    /// The position now.
    Now,
    /// The position after this record entry.
    After(i64),
}

impl Asked {
    /// Reads a command's argument: nothing (or words) for now, `19` or `#19` for the position
    /// after entry 19; `Err` with the text for a number that is no entry (`-3`, `1.5`).
    pub(crate) fn read(args: &str) -> Result<Asked, String> {
        let word = args.split_whitespace().next().unwrap_or_default();
        let number = word.strip_prefix('#').unwrap_or(word);
        let looks_numeric = number
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_digit() || c == '-' || c == '+');
        if !looks_numeric {
            return Ok(Asked::Now);
        }
        number
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0)
            .map(Asked::After)
            .ok_or_else(|| word.to_string())
    }
}

/// The record entries a past position may be asked after: the first and last entry's numbers,
/// `None` before the first entry.
pub(crate) fn entries(current: &Current) -> Option<(i64, i64)> {
    let first = current.log.first()?.1.seq;
    let last = current.log.last()?.1.seq;
    Some((first, last))
}

impl Host {
    /// The running game `current` as it stood after record entry `entry`, replayed from its
    /// stored log; `None` when the log has no such entry, or it no longer replays.
    pub(crate) fn past(&self, current: &Current, entry: i64) -> Option<Current> {
        let (first, last) = entries(current)?;
        if entry < first || entry > last {
            return None;
        }
        let rows: Vec<_> = current
            .log
            .iter()
            .map(|(_, row)| row.clone())
            .filter(|row| row.seq <= entry)
            .collect();
        self.replay(&current.row, &rows).ok()
    }
}

/// A logged move in words, as `!log` and a game's web page write it (`ann: **bid 7**
/// (preset)`): `player` is the seat's name then; why the move was made for the seat, when the
/// entry before it (`previous`) is the table's note of that. `None` when the entry is no move
/// or the game cannot write it.
pub fn logged_move(
    host: &Host,
    session: &dyn Session,
    player: &str,
    entry: &Entry,
    previous: Option<&Entry>,
) -> Option<String> {
    let Entry::Action { seat, action } = entry else {
        return None;
    };
    let proxy = match previous {
        Some(Entry::Table(TableEvent::Proxy { seat: s, why, by })) if s == seat => {
            Some(messages::ProxyData {
                why: why.name().to_string(),
                by: by.as_ref().map(|b| b.name.clone()),
            })
        }
        _ => None,
    };
    let canonical = session.canonical(action)?;
    Some(host.say(messages::LogMove {
        player: player.to_string(),
        canonical: canonical.to_string(),
        proxy,
    }))
}
