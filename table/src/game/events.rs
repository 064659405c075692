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
    /// The seat had no other legal move (a pass it cannot avoid): played at once, unless the
    /// game was set up with `forced:ask`.
    Forced,
    /// The player's time ran out and the automa made this one decision for them
    /// (`!clock timeout:automa`).
    Timeout,
    /// The player's time ran out and they passed automatically (`!clock timeout:pass`).
    Expired,
    /// The automa covers the seat for its player: after timeouts in a row (`!clock
    /// hand-over:2`) or while they are away (`!away 5d cover:automa`).
    Cover,
}

impl ProxyWhy {
    /// Whether the move is the game's automatic move (a pass), not one chosen for the player.
    pub fn automatic(self) -> bool {
        matches!(
            self,
            ProxyWhy::Clock | ProxyWhy::Away | ProxyWhy::Forced | ProxyWhy::Expired
        )
    }

    /// Whether the move was made because the player's time ran out (it counts towards a
    /// hand-over, `!clock hand-over:2`).
    pub fn timed_out(self) -> bool {
        matches!(
            self,
            ProxyWhy::Clock | ProxyWhy::Timeout | ProxyWhy::Expired
        )
    }

    /// The name templates use.
    pub fn name(self) -> &'static str {
        match self {
            ProxyWhy::Preset => "preset",
            ProxyWhy::Clock => "clock",
            ProxyWhy::Away => "away",
            ProxyWhy::Moderator => "moderator",
            ProxyWhy::Automa => "automa",
            ProxyWhy::Forced => "forced",
            ProxyWhy::Timeout => "timeout",
            ProxyWhy::Expired => "expired",
            ProxyWhy::Cover => "cover",
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

/// What happens when a player's time runs out (`!clock timeout:…`).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum TimeoutPolicy {
    /// The moderators who set the clock are pinged (the default).
    #[default]
    Ping,
    /// The automa makes this one decision for the seat.
    Automa,
    /// The player passes automatically (games with a pass for every decision).
    Pass,
}

impl TimeoutPolicy {
    /// Whether it is the default ([`TimeoutPolicy::Ping`]).
    pub fn is_ping(&self) -> bool {
        *self == TimeoutPolicy::Ping
    }

    /// The name `!clock` reads and shows.
    pub fn name(self) -> &'static str {
        match self {
            TimeoutPolicy::Ping => "ping",
            TimeoutPolicy::Automa => "automa",
            TimeoutPolicy::Pass => "pass",
        }
    }
}

/// A time bank per player (`!clock bank:72h add:12h max:120h`); durations in seconds.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Bank {
    /// Each player's bank at the start.
    pub start_s: i64,
    /// What a move adds.
    #[serde(default)]
    pub add_s: i64,
    /// The most a bank holds.
    pub max_s: i64,
}

/// Which clock a decision runs on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockSource {
    /// The turn clock (`turn:48h`; for bids too when no auction clock is set and a timeout
    /// acts).
    Turn,
    /// The auction clock (`auction:24h`): its timeout is an automatic pass.
    Auction,
    /// The player's time bank (`bank:72h`).
    Bank,
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
    /// What happens when time runs out.
    #[serde(default, skip_serializing_if = "TimeoutPolicy::is_ping")]
    pub timeout: TimeoutPolicy,
    /// After this many timeouts in a row the automa holds the seat until its player posts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hand_over: Option<u32>,
    /// A time bank per player, in place of the turn clock.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank: Option<Bank>,
}

impl Default for ClockSettings {
    fn default() -> Self {
        ClockSettings {
            turn_s: None,
            auction_s: None,
            remind_pct: Some(DEFAULT_REMIND_PERCENT),
            away_cap_s: DEFAULT_AWAY_CAP.num_seconds(),
            timeout: TimeoutPolicy::Ping,
            hand_over: None,
            bank: None,
        }
    }
}

impl ClockSettings {
    /// The time allowed for a decision, if it is clocked.
    pub fn budget(&self, decision: Decision) -> Option<Duration> {
        match self.source(decision) {
            ClockSource::Turn => self.turn_s,
            ClockSource::Auction => self.auction_s,
            ClockSource::Bank => self.bank.map(|b| b.start_s),
        }
        .map(Duration::seconds)
    }

    /// Which clock a decision runs on: the auction clock for bids when set, else the time
    /// bank when set, else the turn clock (for bids only when a timeout acts).
    pub fn source(&self, decision: Decision) -> ClockSource {
        match decision {
            Decision::Auction if self.auction_s.is_some() => ClockSource::Auction,
            _ if self.bank.is_some() => ClockSource::Bank,
            Decision::Turn => ClockSource::Turn,
            Decision::Auction if self.timeout.is_ping() => ClockSource::Auction,
            Decision::Auction => ClockSource::Turn,
        }
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
        /// Whether the automa plays the seat meanwhile (`cover:automa`).
        #[serde(default, skip_serializing_if = "std::ops::Not::not")]
        cover: bool,
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
    /// The automa holds the seat after `timeouts` timeouts in a row, until its player posts.
    HandOver {
        /// The seat.
        seat: usize,
        /// Its player.
        player: PlayerInfo,
        /// The timeouts in a row.
        timeouts: u32,
    },
    /// The player took their seat back from the automa (a move of theirs, or `!back`).
    Reclaim {
        /// The seat.
        seat: usize,
        /// Its player.
        player: PlayerInfo,
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
