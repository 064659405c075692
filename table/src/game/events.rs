//! The table's own log entries for play over weeks, as data: clock settings, absences,
//! substitutions, moves the table made for a seat, reminders sent. The log stores them
//! (`{"entry":"table","event":"clock",…}`); the state they add up to is [`crate::weeks::meta`].

use chrono::Duration;
use serde::{Deserialize, Serialize};

use crate::game::{Decision, PlayerInfo};

/// The away cap when no `!clock away-cap:` was set.
pub const DEFAULT_AWAY_CAP: Duration = Duration::days(7);
/// The reminder point when a clock is set without `remind:`.
pub const DEFAULT_REMIND_PERCENT: u8 = 50;

/// Why the table made a move for a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ProxyWhy {
    /// The player's secret preset answered.
    Preset,
    /// The auction clock ran out: automatic pass.
    Clock,
    /// The player is away: automatic pass in auctions.
    Away,
    /// A moderator acted for the seat (`!act`).
    Moderator,
    /// The automa holding the seat chose the move (docs/AUTOMA.md).
    Automa,
}

impl ProxyWhy {
    /// Whether the move is the game's automatic move (a pass), not one chosen for the player.
    pub fn automatic(self) -> bool {
        matches!(self, ProxyWhy::Clock | ProxyWhy::Away)
    }

    /// The name templates use.
    pub fn name(self) -> &'static str {
        match self {
            ProxyWhy::Preset => "preset",
            ProxyWhy::Clock => "clock",
            ProxyWhy::Away => "away",
            ProxyWhy::Moderator => "moderator",
            ProxyWhy::Automa => "automa",
        }
    }
}

/// Which reminder of a decision was sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ReminderKind {
    /// At the reminder point (`remind:50%`).
    Remind,
    /// At the deadline.
    Deadline,
}

/// The clocks of a game (`!clock`); durations in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClockSettings {
    /// Time for a turn, if clocked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_s: Option<i64>,
    /// Time for a bid or pass in an auction, if clocked.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub auction_s: Option<i64>,
    /// The reminder point, in percent of the time; `None`: no reminder before the deadline.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remind_pct: Option<u8>,
    /// How long each player's absences may pause their turn clock over the whole game.
    pub away_cap_s: i64,
}

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings {
            turn_s: None,
            auction_s: None,
            remind_pct: Some(DEFAULT_REMIND_PERCENT),
            away_cap_s: DEFAULT_AWAY_CAP.num_seconds(),
        }
    }
}

impl ClockSettings {
    /// The time allowed for a decision, if it is clocked.
    pub fn budget(&self, decision: Decision) -> Option<Duration> {
        match decision {
            Decision::Turn => self.turn_s,
            Decision::Auction => self.auction_s,
        }
        .map(Duration::seconds)
    }

    /// The away cap.
    pub fn away_cap(&self) -> Duration {
        Duration::seconds(self.away_cap_s)
    }
}

/// One table-level log entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum TableEvent {
    /// A moderator set the clocks (the full settings after the change).
    Clock {
        /// The settings.
        #[serde(flatten)]
        settings: ClockSettings,
        /// Who set them.
        by: PlayerInfo,
    },
    /// A player is away from the entry's time until `until`.
    Away {
        /// Their id.
        player: String,
        /// Their name.
        name: String,
        /// Until when (RFC 3339).
        until: String,
        /// Until when their turn clock pauses (the away cap may end it earlier).
        pause_until: String,
        /// What they said.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reason: Option<String>,
    },
    /// A player is back.
    Back {
        /// Their id.
        player: String,
        /// Their name.
        name: String,
    },
    /// A moderator gave a seat to another player.
    Sub {
        /// The seat.
        seat: usize,
        /// Who had it.
        old: PlayerInfo,
        /// Who has it now.
        new: PlayerInfo,
        /// The moderator.
        by: PlayerInfo,
    },
    /// The next entry is a move the table made for `seat`.
    Proxy {
        /// The seat.
        seat: usize,
        /// Why.
        why: ProxyWhy,
        /// The moderator, for `!act`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        by: Option<PlayerInfo>,
    },
    /// A reminder of the decision that began at log entry `since` was sent.
    Reminded {
        /// The seat reminded.
        seat: usize,
        /// The log position where the decision began (-1: the start of the game).
        since: i64,
        /// Which reminder.
        kind: ReminderKind,
    },
    /// The player of `seat` takes back their own last move (`!takeback`): the undo that
    /// follows is theirs, not a moderator's.
    TakeBack {
        /// The seat.
        seat: usize,
        /// The player.
        player: PlayerInfo,
    },
}
