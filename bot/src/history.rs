//! A game as a replay of its append-only log: accepted actions, draws, undos and reveals.

use irish_gauge::{Action, Colour, CubeCounts, Event, Game, PlayError, Seat, Setup};
use serde::{Deserialize, Serialize};

/// How random results are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceMode {
    /// Audited dice: derived from a committed secret seed (docs/DICE.md).
    Audited,
    /// Rolled elsewhere and entered by the moderator (rulings 23–25).
    Manual,
}

/// A seated player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Display name.
    pub name: String,
    /// Transport id (a Discord user id, or the name in the console).
    pub id: String,
    /// How to ping them (`<@123>` on Discord, `@name` in the console).
    pub mention: String,
}

/// Everything fixed at setup, stored with the game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameSetup {
    /// Players in sign-up order (the order of `!setup`).
    pub players: Vec<PlayerInfo>,
    /// The engine's setup (names, order roll, city roll).
    pub setup: Setup,
    /// How draws are made.
    pub dice: DiceMode,
}

impl GameSetup {
    /// Players in seat order.
    pub fn seated(&self) -> Vec<PlayerInfo> {
        self.setup
            .order
            .iter()
            .filter_map(|&n| self.players.get(usize::from(n).saturating_sub(1)).cloned())
            .collect()
    }
}

/// One log entry.
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
        /// The history index the audited draw was derived from.
        index: u64,
        /// The supply the cubes were drawn from.
        supply: CubeCounts,
    },
    /// The moderator undid the last action.
    Undo,
    /// The seed was revealed.
    Reveal,
}

/// An entry still in force, with its log position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Effective {
    /// Position in the log.
    pub seq: i64,
    /// The entry (an action or a draw).
    pub entry: LogEntry,
}

/// What an undo takes back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undone {
    /// The entries taken back, oldest first.
    pub entries: Vec<Effective>,
}

/// The entries in force after applying undos: a stack.
pub fn effective(log: &[(i64, LogEntry)]) -> Vec<Effective> {
    let mut stack: Vec<Effective> = Vec::new();
    for (seq, entry) in log {
        match entry {
            LogEntry::Action { .. } | LogEntry::Draw { .. } => stack.push(Effective {
                seq: *seq,
                entry: entry.clone(),
            }),
            LogEntry::Undo => {
                pop_unit(&mut stack);
            }
            LogEntry::Reveal => {}
        }
    }
    stack
}

/// Pops the last unit: an action, or a dividend call with its draw.
pub fn pop_unit(stack: &mut Vec<Effective>) -> Option<Undone> {
    let last = stack.pop()?;
    let mut entries = vec![last];
    if matches!(entries[0].entry, LogEntry::Draw { .. }) {
        if let Some(call) = stack.pop() {
            entries.insert(0, call);
        }
    }
    Some(Undone { entries })
}

/// Why a log does not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// The setup is invalid.
    #[error("setup: {0}")]
    Setup(#[from] irish_gauge::SetupError),
    /// An entry was refused by the engine.
    #[error("log entry {seq}: {error}")]
    Entry {
        /// Its position.
        seq: i64,
        /// The engine's refusal.
        error: PlayError,
    },
}

/// Rebuilds a game from its setup and the entries in force, returning each entry's events.
pub fn replay(setup: &Setup, stack: &[Effective]) -> Result<(Game, Vec<Vec<Event>>), ReplayError> {
    let mut game = Game::new(setup)?;
    let mut events = Vec::with_capacity(stack.len());
    for item in stack {
        events.push(
            apply(&mut game, &item.entry).map_err(|error| ReplayError::Entry {
                seq: item.seq,
                error,
            })?,
        );
    }
    Ok((game, events))
}

/// Applies one action or draw entry.
pub fn apply(game: &mut Game, entry: &LogEntry) -> Result<Vec<Event>, PlayError> {
    match entry {
        LogEntry::Action { seat, action } => game.play(*seat, action),
        LogEntry::Draw { cubes, .. } => game.resolve_draw(cubes),
        LogEntry::Undo | LogEntry::Reveal => Ok(Vec::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn action(seq: i64) -> (i64, LogEntry) {
        (
            seq,
            LogEntry::Action {
                seat: 0,
                action: Action::Pass,
            },
        )
    }

    #[test]
    fn undo_takes_back_a_dividend_call_with_its_draw() {
        let log = vec![
            action(0),
            action(1),
            (
                2,
                LogEntry::Draw {
                    cubes: vec![Colour::Pink],
                    manual: false,
                    index: 2,
                    supply: CubeCounts::default(),
                },
            ),
            (3, LogEntry::Undo),
        ];
        let stack = effective(&log);
        assert_eq!(stack.iter().map(|e| e.seq).collect::<Vec<_>>(), [0]);
    }

    #[test]
    fn undos_stack_up_and_redo_continues_the_log() {
        let log = vec![
            action(0),
            action(1),
            (2, LogEntry::Undo),
            (3, LogEntry::Undo),
            action(4),
            (5, LogEntry::Reveal),
        ];
        let stack = effective(&log);
        assert_eq!(stack.iter().map(|e| e.seq).collect::<Vec<_>>(), [4]);
    }
}
