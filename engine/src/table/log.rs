//! Irish Gauge's log entries as typed data, in the layout the table stores them, and a replay
//! of a stored log: for tools and tests that read a game's record.

use gaugebot_table::record::log::{effective, Entry};
use serde::{Deserialize, Serialize};

use crate::{Action, Colour, CubeCounts, Game, Seat, Setup};

/// One stored log entry of an Irish Gauge game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "entry", rename_all = "snake_case")]
pub enum LogEntry {
    /// A player's accepted action.
    Action {
        /// Their seat.
        seat: Seat,
        /// The action.
        action: Action,
    },
    /// The cubes of a dividend call.
    Draw {
        /// The cubes in drawn order.
        cubes: Vec<Colour>,
        /// Whether the moderator entered them (otherwise the audited dice made them).
        manual: bool,
        /// The history index the draw was derived from.
        index: u64,
        /// The supply the cubes were drawn from.
        supply: CubeCounts,
    },
    /// The moderator undid the last action.
    Undo,
    /// The seed was revealed.
    Reveal,
}

/// Why a log does not replay.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ReplayError(pub String);

/// The game after a stored log (undos applied), from its setup.
pub fn replay(setup: &Setup, log: &[LogEntry]) -> Result<Game, ReplayError> {
    let entries: Vec<Entry> = log
        .iter()
        .map(|e| {
            let value = serde_json::to_value(e).map_err(|e| ReplayError(e.to_string()))?;
            Entry::from_json(&value).map_err(|e| ReplayError(e.to_string()))
        })
        .collect::<Result<_, _>>()?;
    let stack = effective(entries.iter().enumerate().map(|(i, e)| (i as i64, e)));
    let mut game = Game::new(setup).map_err(|e| ReplayError(e.to_string()))?;
    for item in stack {
        let typed: LogEntry =
            serde_json::from_value(item.entry.to_json()).map_err(|e| ReplayError(e.to_string()))?;
        let result = match &typed {
            LogEntry::Action { seat, action } => game.play(*seat, action),
            LogEntry::Draw { cubes, .. } => game.resolve_draw(cubes),
            LogEntry::Undo | LogEntry::Reveal => Ok(Vec::new()),
        };
        result.map_err(|e| ReplayError(format!("log entry {}: {e}", item.seq)))?;
    }
    Ok(game)
}
