//! What a transport with richer input than chat asks of a table: legal values for an argument
//! being typed (autocomplete), the one-click moves of the player to act (buttons), where the
//! game stands (to refuse a stale button), and the live status (a pinned message).

use crate::game::session::Render;
use crate::game::{PlayerInfo, Query, QuickMove, Suggestion, ToAct};
use crate::table::{Current, Loaded, Report, Table};

/// The turn prompt's one-click moves.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prompt {
    /// The running game.
    pub game_id: String,
    /// The game's position: the number of log entries (a click made on an older prompt is
    /// stale).
    pub position: usize,
    /// The player to act.
    pub player: PlayerInfo,
    /// Their one-click moves.
    pub moves: Vec<QuickMove>,
}

impl Table {
    /// The running game and its position (the number of log entries).
    pub fn position(&self) -> Option<(&str, usize)> {
        match &self.loaded {
            Loaded::Running(c) => Some((c.row.id.as_str(), c.log.len())),
            _ => None,
        }
    }

    /// The one-click moves of the player to act, if a player is to act and has any.
    pub fn prompt(&self) -> Option<Prompt> {
        let Loaded::Running(current) = &self.loaded else {
            return None;
        };
        let ToAct::Player { seat, .. } = current.session.to_act() else {
            return None;
        };
        let player = current.session.seated().get(seat)?.clone();
        let moves = current.session.quick_moves();
        if moves.is_empty() {
            return None;
        }
        Some(Prompt {
            game_id: current.row.id.clone(),
            position: current.log.len(),
            player,
            moves,
        })
    }

    /// Legal values for an argument being typed by the user `author_id` (autocomplete). Empty
    /// without a running game.
    pub fn suggest(&self, author_id: &str, query: &Query<'_>) -> Vec<Suggestion> {
        let Loaded::Running(current) = &self.loaded else {
            return Vec::new();
        };
        let seat = current
            .session
            .seated()
            .iter()
            .position(|p| p.id == author_id);
        current.session.suggest(seat, query)
    }

    /// The live status of the game (running or frozen), without pings: what a pinned status
    /// message shows.
    pub fn status_text(&self) -> Option<String> {
        match &self.loaded {
            Loaded::Running(current) => {
                Some(current.session.status(&self.render(current, false, None)))
            }
            Loaded::Frozen(frozen) => Some(self.frozen_text(frozen)),
            Loaded::Empty => None,
        }
    }

    /// What follows a move that ended a turn, an undo or a draw: the full report, or with
    /// [`Report::Compact`] only who acts next.
    pub(crate) fn after_turn(&self, current: &Current, render: &Render<'_>) -> String {
        match self.host.settings.report {
            Report::Full => current.session.status(render),
            Report::Compact => current.session.prompt(render),
        }
    }
}
