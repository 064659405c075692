//! The table's own log entries for play over weeks — clock settings, absences, substitutions,
//! moves the table made for a seat, reminders sent — and the state they add up to ([`Meta`]).
//!
//! They are stored in the game's log like moves (`{"entry":"table","event":"clock",…}`), in the
//! same transaction as whatever they go with, so they survive restarts and replay with the game;
//! an `!undo` never takes them back (they are not moves). Nothing here knows any game.

use chrono::{DateTime, Duration, Utc};

pub use crate::game::events::{
    ClockSettings, ProxyWhy, ReminderKind, TableEvent, DEFAULT_AWAY_CAP, DEFAULT_REMIND_PERCENT,
};
use crate::game::log::Entry;
use crate::game::{Decision, PlayerInfo, ToAct};
use crate::weeks::duration::parse_time;

/// One absence.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Absence {
    /// The player's id.
    pub player: String,
    /// Their name.
    pub name: String,
    /// From when.
    pub from: DateTime<Utc>,
    /// Until when, as announced.
    pub until: DateTime<Utc>,
    /// Until when the turn clock pauses.
    pub pause_until: DateTime<Utc>,
    /// When `!back` (or a new `!away`) ended it early.
    pub ended: Option<DateTime<Utc>>,
    /// What they said.
    pub reason: Option<String>,
}

impl Absence {
    /// When it ends.
    pub fn end(&self) -> DateTime<Utc> {
        match self.ended {
            Some(ended) => ended.min(self.until),
            None => self.until,
        }
    }

    /// When the clock pause ends.
    pub fn pause_end(&self) -> DateTime<Utc> {
        self.pause_until.min(self.end())
    }

    /// Whether it covers `now`.
    pub fn covers(&self, now: DateTime<Utc>) -> bool {
        self.from <= now && now < self.end()
    }

    /// How much of the pause lies in `[from, to]`.
    fn paused_within(&self, from: DateTime<Utc>, to: DateTime<Utc>) -> Duration {
        let start = self.from.max(from);
        let end = self.pause_end().min(to);
        (end - start).max(Duration::zero())
    }
}

/// A seat given to another player.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Substitution {
    /// Log position.
    pub seq: i64,
    /// The seat.
    pub seat: usize,
    /// Who had it.
    pub old: PlayerInfo,
    /// Who has it.
    pub new: PlayerInfo,
}

/// What the table-level entries of a game's log add up to.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Meta {
    /// The clocks.
    pub clock: ClockSettings,
    /// Moderators who set the clock, gave a seat away or acted for a seat: pinged at deadlines.
    pub moderators: Vec<PlayerInfo>,
    /// Every absence, in order.
    pub absences: Vec<Absence>,
    /// Every substitution, in order.
    pub subs: Vec<Substitution>,
    /// Reminders sent: (decision start, kind).
    pub reminded: Vec<(i64, ReminderKind)>,
    /// Where the current decision began: the last move, undo, substitution or clock change
    /// (-1: the start of the game).
    pub since_seq: i64,
    /// When it began (`None` if the stored time does not read).
    pub since: Option<DateTime<Utc>>,
}

impl Meta {
    /// Adds up the log `(seq, entry, at)` of a game created at `created_at`.
    pub fn of<'a>(
        created_at: DateTime<Utc>,
        log: impl IntoIterator<Item = (i64, &'a Entry, DateTime<Utc>)>,
    ) -> Meta {
        let mut meta = Meta {
            since_seq: -1,
            since: Some(created_at),
            ..Meta::default()
        };
        for (seq, entry, at) in log {
            meta.add(seq, entry, Some(at));
        }
        meta
    }

    /// Adds one entry.
    pub fn add(&mut self, seq: i64, entry: &Entry, at: Option<DateTime<Utc>>) {
        let restart = match entry {
            Entry::Action { .. } | Entry::Draw { .. } | Entry::Undo => true,
            Entry::Reveal => false,
            Entry::Table(event) => self.event(seq, event, at),
        };
        if restart {
            self.since_seq = seq;
            self.since = at.or(self.since);
        }
    }

    /// Adds a table event; true when it restarts the current decision's clock.
    fn event(&mut self, seq: i64, event: &TableEvent, at: Option<DateTime<Utc>>) -> bool {
        match event {
            TableEvent::Clock { settings, by } => {
                self.clock = *settings;
                self.moderator(by);
                true
            }
            TableEvent::Away {
                player,
                name,
                until,
                pause_until,
                reason,
            } => {
                let (Some(from), Some(until)) = (at, parse_time(until)) else {
                    return false;
                };
                self.end_absence(player, from);
                self.absences.push(Absence {
                    player: player.clone(),
                    name: name.clone(),
                    from,
                    until,
                    pause_until: parse_time(pause_until).unwrap_or(from),
                    ended: None,
                    reason: reason.clone(),
                });
                false
            }
            TableEvent::Back { player, .. } => {
                if let Some(at) = at {
                    self.end_absence(player, at);
                }
                false
            }
            TableEvent::Sub { seat, old, new, by } => {
                self.subs.push(Substitution {
                    seq,
                    seat: *seat,
                    old: old.clone(),
                    new: new.clone(),
                });
                self.moderator(by);
                true
            }
            TableEvent::Proxy { by, .. } => {
                if let Some(by) = by {
                    self.moderator(by);
                }
                false
            }
            TableEvent::Reminded { since, kind, .. } => {
                self.reminded.push((*since, *kind));
                false
            }
            // The undo that follows restarts the decision.
            TableEvent::TakeBack { .. } => false,
        }
    }

    fn moderator(&mut self, who: &PlayerInfo) {
        if !self.moderators.iter().any(|m| m.id == who.id) {
            self.moderators.push(who.clone());
        }
    }

    /// Ends a player's running absence at `at`.
    fn end_absence(&mut self, player: &str, at: DateTime<Utc>) {
        for absence in self
            .absences
            .iter_mut()
            .filter(|a| a.player == player && a.ended.is_none() && a.until > at)
        {
            absence.ended = Some(at.max(absence.from));
        }
    }

    /// The player's absence covering `now`, if any.
    pub fn away(&self, player: &str, now: DateTime<Utc>) -> Option<&Absence> {
        self.absences
            .iter()
            .rev()
            .find(|a| a.player == player && a.covers(now))
    }

    /// How much pause a player has used (or reserved) up to `now`, ending a running absence
    /// at `now`.
    pub fn pause_used(&self, player: &str, now: DateTime<Utc>) -> Duration {
        self.absences
            .iter()
            .filter(|a| a.player == player && a.from <= now)
            .map(|a| (a.pause_end().min(now.max(a.from)) - a.from).max(Duration::zero()))
            .fold(Duration::zero(), |sum, d| sum + d)
    }

    /// Whether a reminder of the current decision was sent.
    pub fn was_reminded(&self, kind: ReminderKind) -> bool {
        self.reminded.contains(&(self.since_seq, kind))
    }

    /// The clock of the decision `to_act` stands at, at `now`; `None` unless a player (not an
    /// automa) is to act.
    pub fn clock_of(
        &self,
        to_act: ToAct,
        seated: &[PlayerInfo],
        now: DateTime<Utc>,
    ) -> Option<DecisionClock> {
        let ToAct::Player { seat, decision } = to_act else {
            return None;
        };
        let player = seated.get(seat)?.clone();
        if player.is_automa() {
            // An automa moves at once: no clock, no reminder, no deadline.
            return None;
        }
        let since = self.since.unwrap_or(now).min(now);
        let budget = self.clock.budget(decision);
        let paused_time = match decision {
            Decision::Turn => self
                .absences
                .iter()
                .filter(|a| a.player == player.id)
                .map(|a| a.paused_within(since, now))
                .fold(Duration::zero(), |sum, d| sum + d),
            Decision::Auction => Duration::zero(),
        };
        let away = self.away(&player.id, now).is_some();
        let paused = decision == Decision::Turn
            && self
                .absences
                .iter()
                .any(|a| a.player == player.id && a.from <= now && now < a.pause_end());
        Some(DecisionClock {
            seat,
            decision,
            player,
            since_seq: self.since_seq,
            since,
            budget,
            elapsed: (now - since) - paused_time,
            away,
            paused,
            remind_pct: self.clock.remind_pct,
        })
    }
}

/// The clock of the decision a player is asked for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DecisionClock {
    /// The seat to act.
    pub seat: usize,
    /// What they decide.
    pub decision: Decision,
    /// Who sits there.
    pub player: PlayerInfo,
    /// The log position where the decision began.
    pub since_seq: i64,
    /// When it began.
    pub since: DateTime<Utc>,
    /// The time allowed, if clocked.
    pub budget: Option<Duration>,
    /// The time run so far (pauses excluded).
    pub elapsed: Duration,
    /// Whether the player is away now.
    pub away: bool,
    /// Whether the clock is paused now.
    pub paused: bool,
    /// The reminder point in percent.
    pub remind_pct: Option<u8>,
}

impl DecisionClock {
    /// Whether the time is up.
    pub fn expired(&self) -> bool {
        self.budget.is_some_and(|b| self.elapsed >= b)
    }

    /// Whether the reminder point is reached (and the time not up).
    pub fn remind_due(&self) -> bool {
        match (self.budget, self.remind_pct) {
            (Some(budget), Some(pct)) => {
                self.elapsed >= budget * i32::from(pct) / 100 && self.elapsed < budget
            }
            _ => false,
        }
    }

    /// When the time runs out, if the clock keeps running from `now`.
    pub fn deadline(&self, now: DateTime<Utc>) -> Option<DateTime<Utc>> {
        self.budget.map(|b| now + (b - self.elapsed))
    }
}

/// Gives every substituted seat to its new player (after a replay).
pub(crate) fn substitute_all(
    session: &mut dyn crate::game::session::Session,
    log: &[(Entry, crate::store::LogRow)],
) {
    for (entry, _) in log {
        if let Entry::Table(TableEvent::Sub { seat, new, .. }) = entry {
            session.substitute(*seat, new.clone());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::weeks::duration::store_time;
    use serde_json::json;

    fn t(hours: i64) -> DateTime<Utc> {
        parse_time("2025-03-01T00:00:00Z").expect("time") + Duration::hours(hours)
    }

    fn person(name: &str) -> PlayerInfo {
        PlayerInfo {
            name: name.into(),
            id: name.into(),
            mention: format!("@{name}"),
        }
    }

    fn action() -> Entry {
        Entry::Action {
            seat: 1,
            action: json!({"action": "pass"}),
        }
    }

    fn clock(turn_h: i64) -> Entry {
        Entry::Table(TableEvent::Clock {
            settings: ClockSettings {
                turn_s: Some(turn_h * 3600),
                auction_s: Some(24 * 3600),
                remind_pct: Some(50),
                away_cap_s: 3 * 24 * 3600,
            },
            by: person("mona"),
        })
    }

    fn away(player: &str, until: DateTime<Utc>, pause_until: DateTime<Utc>) -> Entry {
        Entry::Table(TableEvent::Away {
            player: player.into(),
            name: player.into(),
            until: store_time(until),
            pause_until: store_time(pause_until),
            reason: None,
        })
    }

    fn meta(log: &[(Entry, DateTime<Utc>)]) -> Meta {
        Meta::of(
            t(0),
            log.iter()
                .enumerate()
                .map(|(i, (e, at))| (i as i64, e, *at)),
        )
    }

    #[test]
    fn table_entries_are_stored_as_table_kind_and_read_back() {
        for entry in [
            clock(48),
            away("ann", t(1), t(2)),
            Entry::Table(TableEvent::Proxy {
                seat: 2,
                why: ProxyWhy::Moderator,
                by: Some(person("mona")),
            }),
            Entry::Table(TableEvent::Reminded {
                seat: 0,
                since: -1,
                kind: ReminderKind::Deadline,
            }),
        ] {
            let json = entry.to_json();
            assert_eq!(json["entry"], "table");
            assert_eq!(Entry::from_json(&json), Ok(entry.clone()), "{json}");
            assert!(!entry.is_play());
        }
        let json = clock(48).to_json();
        assert_eq!(json["event"], "clock");
        assert_eq!(json["turn_s"], 48 * 3600);
    }

    #[test]
    fn the_decision_clock_starts_at_the_last_move_and_reminds_then_expires() {
        let seated = [person("ann"), person("bob")];
        let turn = ToAct::Player {
            seat: 1,
            decision: Decision::Turn,
        };
        let log = [(clock(48), t(0)), (action(), t(10))];
        let m = meta(&log);
        assert_eq!(m.since_seq, 1);
        let at = |h| m.clock_of(turn, &seated, t(h)).expect("a player acts");
        assert!(!at(33).remind_due(), "23h of 48h");
        assert!(at(34).remind_due(), "24h of 48h");
        assert!(!at(57).expired());
        assert!(at(58).expired() && !at(58).remind_due());
        assert_eq!(at(34).deadline(t(34)), Some(t(58)));
    }

    #[test]
    fn an_absence_pauses_the_turn_clock_up_to_the_cap_only() {
        let seated = [person("ann"), person("bob")];
        let turn = ToAct::Player {
            seat: 1,
            decision: Decision::Turn,
        };
        // bob is away from hour 10 for 5 days, but the cap (3 days) pauses 72h only.
        let log = [
            (clock(48), t(0)),
            (action(), t(10)),
            (away("bob", t(10 + 120), t(10 + 72)), t(10)),
        ];
        let m = meta(&log);
        let at = |h| m.clock_of(turn, &seated, t(h)).expect("acts");
        assert!(at(50).away && at(50).paused);
        assert_eq!(at(50).elapsed, Duration::zero());
        // After the pause (hour 82) the clock runs though bob is still away.
        assert!(at(90).away && !at(90).paused);
        assert_eq!(at(90).elapsed, Duration::hours(8));
        assert!(at(10 + 72 + 48).expired());
        assert!(!at(10 + 72 + 47).expired());
        assert_eq!(m.pause_used("bob", t(200)), Duration::hours(72));
        // An auction clock never pauses.
        let bid = ToAct::Player {
            seat: 1,
            decision: Decision::Auction,
        };
        assert_eq!(
            m.clock_of(bid, &seated, t(50)).expect("acts").elapsed,
            Duration::hours(40)
        );
    }

    #[test]
    fn back_ends_an_absence_and_a_new_away_replaces_the_old_one() {
        let log = [
            (away("bob", t(100), t(100)), t(0)),
            (
                Entry::Table(TableEvent::Back {
                    player: "bob".into(),
                    name: "bob".into(),
                }),
                t(5),
            ),
            (away("ann", t(50), t(50)), t(6)),
            (away("ann", t(20), t(20)), t(8)),
        ];
        let m = meta(&log);
        assert!(m.away("bob", t(4)).is_some());
        assert!(m.away("bob", t(6)).is_none());
        assert_eq!(m.pause_used("bob", t(50)), Duration::hours(5));
        assert_eq!(m.absences[1].end(), t(8));
        assert!(m.away("ann", t(19)).is_some() && m.away("ann", t(21)).is_none());
        assert_eq!(m.pause_used("ann", t(30)), Duration::hours(14));
    }

    #[test]
    fn reminders_are_remembered_per_decision_and_a_clock_change_restarts_it() {
        let log = [
            (action(), t(0)),
            (
                Entry::Table(TableEvent::Reminded {
                    seat: 1,
                    since: 0,
                    kind: ReminderKind::Remind,
                }),
                t(30),
            ),
        ];
        let m = meta(&log);
        assert!(m.was_reminded(ReminderKind::Remind));
        assert!(!m.was_reminded(ReminderKind::Deadline));
        let mut log = log.to_vec();
        log.push((clock(48), t(31)));
        let m = meta(&log);
        assert_eq!(m.since_seq, 2);
        assert_eq!(m.since, Some(t(31)));
        assert!(!m.was_reminded(ReminderKind::Remind));
        assert_eq!(m.moderators, [person("mona")]);
    }
}
