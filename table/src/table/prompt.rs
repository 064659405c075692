//! What a transport with richer input than chat asks of a table: legal values for an argument
//! being typed (autocomplete), the one-click moves of the player to act (buttons), where the
//! game stands (to refuse a stale button), and the live status (a pinned message).

use crate::game::{PlayerInfo, QuickMove};

use crate::input::{Attachment, Incoming, Response, Verdict};
use crate::table::{Current, Cx, Draft, Host, Loaded};

/// The game's picture could not be drawn, for the game's reason.
#[derive(Debug, Clone, thiserror::Error)]
#[error("{0}")]
pub(crate) struct PictureFailed(pub(crate) String);

/// The turn prompt's one-click moves.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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

/// A move a refusal offers, as a one-click move: its notation, and as its label the notation
/// with a capital (`Bid 7`, `Bid 52 on G`).
pub(crate) fn offered_move(notation: &str) -> QuickMove {
    let mut chars = notation.chars();
    let label = match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    };
    QuickMove {
        label,
        notation: notation.to_string(),
    }
}

impl Cx {
    /// Stores the draft (an undo, a manual draw), then answers with `head` and what follows a
    /// turn.
    pub(crate) async fn commit_turn(
        &mut self,
        draft: Draft,
        msg: &Incoming,
        head: String,
    ) -> Response {
        self.commit(draft, msg);
        let Loaded::Running(current) = &self.loaded else {
            return self.host.no_game(&self.loaded);
        };
        let text = format!(
            "{head}\n{}",
            self.host
                .view(current)
                .after_turn(&self.host.view(current).render(true, None))
        );
        Response::new(Verdict::Accepted)
            .say(text)
            .attach(final_chart(current, &self.host))
    }
}

/// The net-worth chart posted with the final report: `Some` once the game is over.
pub(crate) fn final_chart(current: &Current, host: &Host) -> Option<Attachment> {
    if current.session.is_finished() {
        current.chart_attachment(host)
    } else {
        None
    }
}
