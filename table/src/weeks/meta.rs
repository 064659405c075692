//! The table's own log entries for play over weeks — clock settings, absences, substitutions,
//! moves the table made for a seat, reminders sent — and the state they add up to ([`Meta`]).
//!
//! They are stored in the game's log like moves (`{"entry":"table","event":"clock",…}`), in the
//! same transaction as whatever they go with, so they survive restarts and replay with the game;
//! an `!undo` never takes them back (they are not moves). Nothing here knows any game.

use chrono::{DateTime, Duration, Utc};

pub use crate::game::events::{
    Bank, ClockSettings, ClockSource, ProxyWhy, ReminderKind, TableEvent, TimeoutPolicy,
    DEFAULT_AWAY_CAP, DEFAULT_REMIND_PERCENT,
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
    /// Whether the automa plays the seat meanwhile (`cover:automa`).
    pub cover: bool,
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
    /// Timeouts in a row, by seat (reset by a move of the player's own).
    pub timeouts: Vec<(usize, u32)>,
    /// Seats the automa holds after timeouts in a row (`!clock hand-over:2`), until their
    /// players post again.
    pub handed_over: Vec<usize>,
    /// The time each move took, for the time banks: (seat, decision start, move).
    pub spans: Vec<(usize, DateTime<Utc>, DateTime<Utc>)>,
    /// When the current decision began for the time banks: the last move, draw or undo
    /// (`None`: the start of the game).
    pub turn_start: Option<DateTime<Utc>>,
    /// The marker of a move the table makes for a seat, until its move.
    pending_proxy: Option<(usize, ProxyWhy)>,
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
            turn_start: Some(created_at),
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
            Entry::Action { seat, .. } => {
                self.moved(*seat, at);
                true
            }
            Entry::Draw { .. } | Entry::Undo => {
                self.pending_proxy = None;
                self.turn_start = at.or(self.turn_start);
                true
            }
            Entry::Reveal => false,
            Entry::Table(event) => self.event(seq, event, at),
        };
        if restart {
            self.since_seq = seq;
            self.since = at.or(self.since);
        }
    }

    /// A move of `seat` at `at`: its time spent, and its timeouts in a row.
    fn moved(&mut self, seat: usize, at: Option<DateTime<Utc>>) {
        if let (Some(start), Some(at)) = (self.turn_start, at) {
            self.spans.push((seat, start, at));
        }
        self.turn_start = at.or(self.turn_start);
        let count = match self.pending_proxy.take() {
            // The player's own move, or their preset's.
            None | Some((_, ProxyWhy::Preset)) => Some(0),
            Some((_, why)) if why.timed_out() => Some(self.timeouts_of(seat) + 1),
            Some(_) => None,
        };
        if let Some(count) = count {
            self.timeouts.retain(|(s, _)| *s != seat);
            if count > 0 {
                self.timeouts.push((seat, count));
            }
        }
    }

    /// The timeouts in a row of a seat.
    pub fn timeouts_of(&self, seat: usize) -> u32 {
        self.timeouts
            .iter()
            .find(|(s, _)| *s == seat)
            .map_or(0, |(_, n)| *n)
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
                cover,
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
                    cover: *cover,
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
            TableEvent::Proxy { seat, why, by } => {
                if let Some(by) = by {
                    self.moderator(by);
                }
                self.pending_proxy = Some((*seat, *why));
                false
            }
            TableEvent::HandOver { seat, .. } => {
                if !self.handed_over.contains(seat) {
                    self.handed_over.push(*seat);
                }
                false
            }
            TableEvent::Reclaim { seat, .. } => {
                self.handed_over.retain(|s| s != seat);
                self.timeouts.retain(|(s, _)| s != seat);
                // The player's decision, if theirs, starts afresh.
                true
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

    /// How the automa covers a seat at `now`, if it does: handed over after timeouts in a
    /// row, or its player away with `cover:automa`.
    pub fn covered(&self, seat: usize, player: &str, now: DateTime<Utc>) -> Option<Cover> {
        if self.handed_over.contains(&seat) {
            return Some(Cover::HandOver);
        }
        self.away(player, now)
            .filter(|a| a.cover)
            .map(|_| Cover::Away)
    }

    /// How much of a player's absences paused their clock within `[from, to]`.
    fn paused_within(&self, player: &str, from: DateTime<Utc>, to: DateTime<Utc>) -> Duration {
        self.absences
            .iter()
            .filter(|a| a.player == player)
            .map(|a| a.paused_within(from, to))
            .fold(Duration::zero(), |sum, d| sum + d)
    }

    /// What is left in a seat's time bank once its moves so far are counted (before the
    /// current decision); `None` without banks.
    pub fn bank_left(&self, seat: usize, player: &str) -> Option<Duration> {
        let bank = self.clock.bank?;
        let max = Duration::seconds(bank.max_s.max(bank.start_s));
        let mut left = Duration::seconds(bank.start_s);
        for (_, from, to) in self.spans.iter().filter(|(s, _, _)| *s == seat) {
            let spent = (*to - *from) - self.paused_within(player, *from, *to);
            left = (left - spent.max(Duration::zero())).max(Duration::zero());
            left = (left + Duration::seconds(bank.add_s)).min(max);
        }
        Some(left)
    }

    /// Every seat's time bank at `now` (the player to act's running down), for the status.
    pub fn banks(
        &self,
        to_act: ToAct,
        seated: &[PlayerInfo],
        now: DateTime<Utc>,
    ) -> Vec<(String, Duration)> {
        let acting = self.clock_of(to_act, seated, now);
        seated
            .iter()
            .enumerate()
            .filter(|(_, p)| !p.is_automa())
            .filter_map(|(seat, p)| {
                let left = self.bank_left(seat, &p.id)?;
                let left = match &acting {
                    Some(c) if c.seat == seat && c.source == ClockSource::Bank => {
                        (left - c.elapsed).max(Duration::zero())
                    }
                    _ => left,
                };
                Some((p.name.clone(), left))
            })
            .collect()
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
        if player.is_automa() || self.covered(seat, &player.id, now).is_some() {
            // An automa moves at once: no clock, no reminder, no deadline.
            return None;
        }
        let since = self.since.unwrap_or(now).min(now);
        let source = self.clock.source(decision);
        let (budget, start) = match source {
            ClockSource::Bank => (
                self.bank_left(seat, &player.id),
                self.turn_start.unwrap_or(since).min(now),
            ),
            _ => (self.clock.budget(decision), since),
        };
        let paused_time = match source {
            ClockSource::Auction => Duration::zero(),
            _ => self.paused_within(&player.id, start, now),
        };
        let away = self.away(&player.id, now).is_some();
        let paused = source != ClockSource::Auction
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
            elapsed: (now - start) - paused_time,
            away,
            paused,
            remind_pct: self.clock.remind_pct,
            source,
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
    /// Which clock runs.
    pub source: ClockSource,
}

/// How the automa covers a seat.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cover {
    /// After timeouts in a row (`!clock hand-over:2`), until the player posts again.
    HandOver,
    /// While the player is away with `cover:automa`.
    Away,
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
                ..ClockSettings::default()
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
            cover: false,
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

    fn proxy(seat: usize, why: ProxyWhy) -> Entry {
        Entry::Table(TableEvent::Proxy {
            seat,
            why,
            by: None,
        })
    }

    #[test]
    fn timeouts_in_a_row_count_until_the_players_own_move_and_hand_the_seat_over() {
        let mut log = vec![
            (proxy(1, ProxyWhy::Clock), t(1)),
            (action(), t(1)),
            (proxy(1, ProxyWhy::Timeout), t(2)),
            (action(), t(2)),
        ];
        let m = meta(&log);
        // An auction clock's pass counts like a turn's timeout.
        assert_eq!(m.timeouts_of(1), 2);
        // A moderator's move for the seat neither counts nor resets.
        log.push((proxy(1, ProxyWhy::Moderator), t(3)));
        log.push((action(), t(3)));
        assert_eq!(meta(&log).timeouts_of(1), 2);
        log.push((
            Entry::Table(TableEvent::HandOver {
                seat: 1,
                player: person("bob"),
                timeouts: 2,
            }),
            t(3),
        ));
        let m = meta(&log);
        assert_eq!(m.covered(1, "bob", t(4)), Some(Cover::HandOver));
        let bids = ToAct::Player {
            seat: 1,
            decision: Decision::Turn,
        };
        assert!(m
            .clock_of(bids, &[person("ann"), person("bob")], t(4))
            .is_none());
        log.push((
            Entry::Table(TableEvent::Reclaim {
                seat: 1,
                player: person("bob"),
            }),
            t(5),
        ));
        let m = meta(&log);
        assert_eq!(m.covered(1, "bob", t(5)), None);
        assert_eq!(m.timeouts_of(1), 0);
        // The player's own move resets the count.
        log.push((proxy(1, ProxyWhy::Expired), t(6)));
        log.push((action(), t(6)));
        log.push((action(), t(7)));
        assert_eq!(meta(&log).timeouts_of(1), 0);
    }

    #[test]
    fn an_absence_with_cover_covers_the_seat_while_it_runs() {
        let mut covered = away("bob", t(10), t(10));
        if let Entry::Table(TableEvent::Away { cover, .. }) = &mut covered {
            *cover = true;
        }
        let m = meta(&[(covered, t(0)), (away("ann", t(10), t(10)), t(0))]);
        assert_eq!(m.covered(1, "bob", t(5)), Some(Cover::Away));
        assert_eq!(m.covered(1, "bob", t(11)), None, "the absence is over");
        assert_eq!(m.covered(0, "ann", t(5)), None, "away without cover");
    }

    #[test]
    fn a_time_bank_runs_down_while_the_player_is_to_act_and_grows_by_each_move() {
        let bank = Entry::Table(TableEvent::Clock {
            settings: ClockSettings {
                bank: Some(Bank {
                    start_s: 72 * 3600,
                    add_s: 12 * 3600,
                    max_s: 80 * 3600,
                }),
                ..ClockSettings::default()
            },
            by: person("mona"),
        });
        let seated = [person("ann"), person("bob")];
        let bob = ToAct::Player {
            seat: 1,
            decision: Decision::Turn,
        };
        // bob's move after 10h: 72 - 10 + 12 = 74h; his next after 4h: 74 - 4 + 12, capped at 80.
        let log = [(bank.clone(), t(0)), (action(), t(10)), (action(), t(14))];
        let m = meta(&log);
        assert_eq!(m.bank_left(1, "bob"), Some(Duration::hours(80)));
        // Now bob is to act again: his bank runs from his last move, and runs out.
        let c = m.clock_of(bob, &seated, t(14 + 30)).expect("bob acts");
        assert_eq!(c.source, ClockSource::Bank);
        assert_eq!(c.budget, Some(Duration::hours(80)));
        assert_eq!(c.elapsed, Duration::hours(30));
        assert!(m
            .clock_of(bob, &seated, t(14 + 80))
            .expect("acts")
            .expired());
        assert_eq!(
            m.banks(bob, &seated, t(14 + 30)),
            [
                ("ann".to_string(), Duration::hours(72)),
                ("bob".to_string(), Duration::hours(50))
            ]
        );
        // An absence pauses it (within the cap); an undo refunds nothing.
        let log = [
            (bank, t(0)),
            (away("bob", t(5), t(5)), t(0)),
            (action(), t(10)),
            (Entry::Undo, t(11)),
        ];
        let m = meta(&log);
        assert_eq!(m.bank_left(1, "bob"), Some(Duration::hours(72 - 5 + 12)));
    }

    #[test]
    fn default_clock_settings_are_stored_as_before_and_old_ones_read() {
        let json = serde_json::to_value(ClockSettings::default()).expect("json");
        assert_eq!(json, json!({"remind_pct": 50, "away_cap_s": 604800}));
        let old: ClockSettings =
            serde_json::from_value(json!({"turn_s": 3600, "away_cap_s": 60})).expect("reads");
        assert_eq!(old.timeout, TimeoutPolicy::Ping);
        assert_eq!((old.hand_over, old.bank), (None, None));
    }
}
