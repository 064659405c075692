//! Pace figures (`!pace`), read from a game's log alone: for each seat, the median time its
//! player took to move (from the moment the seat was asked to the move, moves in force made by
//! the player themselves), the deadlines missed (deadline notices sent to the seat, automatic
//! passes when an auction clock ran out, moves made because time ran out) and the time the
//! automa covered the seat (while a moderator's `!sub` had given it to the automa, from a
//! hand-over to the player's return, during an absence with `cover:automa`), and the moves the
//! automa made for it.

use std::collections::HashSet;

use chrono::{DateTime, Duration, Utc};

use crate::game::events::{ProxyWhy, ReminderKind, TableEvent};
use crate::game::log::Entry;
use crate::game::PlayerInfo;
use crate::weeks::meta::Meta;

/// One seat's figures.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SeatPace {
    /// The seat.
    pub seat: usize,
    /// Who holds it now.
    pub player: PlayerInfo,
    /// Every time its player took to move, in log order.
    pub times: Vec<Duration>,
    /// Deadlines missed: deadline notices and automatic passes when the clock ran out.
    pub missed: usize,
    /// Moves the automa made for the seat while a person held it.
    pub automa_moves: usize,
    /// How long the automa held the seat in place of a person (`!sub @p automa` until
    /// `!sub automa @p`, or now).
    pub automa_time: Duration,
}

impl SeatPace {
    /// The median time to move (the lower middle of an even count); `None` before any move.
    pub fn median(&self) -> Option<Duration> {
        let mut times = self.times.clone();
        times.sort();
        times.get(times.len().checked_sub(1)? / 2).copied()
    }
}

/// The figures of every seat of a game created at `created_at`, from its log `(seq, entry,
/// at)`; `in_force` are the positions of the moves no undo took back, `seated` the players
/// now, `until` the end of a span still running (now, or the last entry of a finished game).
pub fn pace<'a>(
    created_at: DateTime<Utc>,
    log: impl IntoIterator<Item = (i64, &'a Entry, DateTime<Utc>)>,
    in_force: &HashSet<i64>,
    seated: &[PlayerInfo],
    until: DateTime<Utc>,
) -> Vec<SeatPace> {
    let mut seats: Vec<SeatPace> = seated
        .iter()
        .enumerate()
        .map(|(seat, player)| SeatPace {
            seat,
            player: player.clone(),
            times: Vec::new(),
            missed: 0,
            automa_moves: 0,
            automa_time: Duration::zero(),
        })
        .collect();
    let mut held_since: Vec<Option<DateTime<Utc>>> = vec![None; seats.len()];
    // Away with cover: from when, until when (the absence's end, unless `!back` comes first).
    let mut covered: Vec<Option<(DateTime<Utc>, DateTime<Utc>)>> = vec![None; seats.len()];
    let seat_of = |id: &str| seated.iter().position(|p| p.id == id);
    let mut meta = Meta::of(created_at, std::iter::empty());
    let mut marker: Option<(usize, ProxyWhy)> = None;
    for (seq, entry, at) in log {
        let proxy = marker.take();
        match entry {
            Entry::Action { seat, .. } if in_force.contains(&seq) => {
                if let Some(figures) = seats.get_mut(*seat) {
                    match proxy {
                        Some((s, why)) if s == *seat => match why {
                            // The clock ran out: an auction clock's pass, or a timeout's move.
                            ProxyWhy::Clock | ProxyWhy::Expired => figures.missed += 1,
                            ProxyWhy::Timeout => {
                                figures.missed += 1;
                                figures.automa_moves += 1;
                            }
                            ProxyWhy::Automa | ProxyWhy::Cover if !figures.player.is_automa() => {
                                figures.automa_moves += 1
                            }
                            _ => {}
                        },
                        _ => {
                            if let Some(since) = meta.since {
                                figures.times.push((at - since).max(Duration::zero()));
                            }
                        }
                    }
                }
            }
            Entry::Table(TableEvent::Proxy { seat, why, .. }) => marker = Some((*seat, *why)),
            Entry::Table(TableEvent::Reminded {
                seat,
                kind: ReminderKind::Deadline,
                ..
            }) => {
                if let Some(figures) = seats.get_mut(*seat) {
                    figures.missed += 1;
                }
            }
            // The automa holds the seat after timeouts in a row, until its player is back.
            Entry::Table(TableEvent::HandOver { seat, .. }) => {
                if let Some(held) = held_since.get_mut(*seat) {
                    held.get_or_insert(at);
                }
            }
            Entry::Table(TableEvent::Reclaim { seat, .. }) => {
                if let (Some(Some(from)), Some(figures)) = (
                    held_since.get_mut(*seat).map(Option::take),
                    seats.get_mut(*seat),
                ) {
                    figures.automa_time += (at - from).max(Duration::zero());
                }
            }
            Entry::Table(TableEvent::Away {
                player,
                until: away_until,
                cover: true,
                ..
            }) => {
                let end = crate::weeks::duration::parse_time(away_until).unwrap_or(at);
                if let Some(span) = seat_of(player).and_then(|seat| covered.get_mut(seat)) {
                    *span = Some((at, end));
                }
            }
            Entry::Table(TableEvent::Back { player, .. }) => {
                if let Some(seat) = seat_of(player) {
                    if let (Some(Some((from, end))), Some(figures)) =
                        (covered.get_mut(seat).map(Option::take), seats.get_mut(seat))
                    {
                        figures.automa_time += (at.min(end) - from).max(Duration::zero());
                    }
                }
            }
            Entry::Table(TableEvent::Sub { seat, old, new, .. }) => {
                if let Some(held) = held_since.get_mut(*seat) {
                    if new.is_automa() && !old.is_automa() {
                        *held = Some(at);
                    } else if old.is_automa() {
                        if let (Some(from), Some(figures)) = (held.take(), seats.get_mut(*seat)) {
                            figures.automa_time += at - from;
                        }
                    }
                }
            }
            _ => {}
        }
        meta.add(seq, entry, Some(at));
    }
    for ((figures, held), cover) in seats.iter_mut().zip(held_since).zip(covered) {
        if let Some(from) = held {
            figures.automa_time += (until - from).max(Duration::zero());
        }
        if let Some((from, end)) = cover {
            figures.automa_time += (until.min(end) - from).max(Duration::zero());
        }
    }
    seats
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn t(hours: i64) -> DateTime<Utc> {
        crate::weeks::duration::parse_time("2025-03-01T00:00:00Z").expect("time")
            + Duration::hours(hours)
    }

    fn person(name: &str) -> PlayerInfo {
        PlayerInfo {
            name: name.into(),
            id: name.into(),
            mention: format!("@{name}"),
        }
    }

    fn action(seat: usize) -> Entry {
        Entry::Action {
            seat,
            action: json!({"action": "pass"}),
        }
    }

    #[test]
    fn the_median_counts_own_moves_in_force_from_when_the_seat_was_asked() {
        let automa = PlayerInfo::automa(1);
        let log = [
            (action(0), t(2)),  // ann: 2h
            (action(1), t(12)), // bob: 10h
            (action(0), t(13)), // ann: 1h
            (action(1), t(20)), // bob: 7h, then taken back
            (Entry::Undo, t(21)),
            (
                Entry::Table(TableEvent::Reminded {
                    seat: 1,
                    since: 4,
                    kind: ReminderKind::Deadline,
                }),
                t(70),
            ),
            (
                Entry::Table(TableEvent::Sub {
                    seat: 1,
                    old: person("bob"),
                    new: automa.clone(),
                    by: person("mona"),
                }),
                t(71),
            ),
            (
                Entry::Table(TableEvent::Proxy {
                    seat: 1,
                    why: ProxyWhy::Automa,
                    by: None,
                }),
                t(71),
            ),
            (action(1), t(71)),
            (action(0), t(80)), // ann: 9h
        ];
        let in_force: HashSet<i64> = [0, 1, 2, 8, 9].into_iter().collect();
        let seated = [person("ann"), automa];
        let figures = pace(
            t(0),
            log.iter()
                .enumerate()
                .map(|(i, (e, at))| (i as i64, e, *at)),
            &in_force,
            &seated,
            t(100),
        );
        assert_eq!(
            figures[0].times,
            [Duration::hours(2), Duration::hours(1), Duration::hours(9)]
        );
        assert_eq!(figures[0].median(), Some(Duration::hours(2)));
        assert_eq!(
            figures[1].times,
            [Duration::hours(10)],
            "the undone move and the automa's are not bob's"
        );
        assert_eq!(figures[1].missed, 1);
        // The automa holds seat 2 from hour 71 to now (hour 100); its move there is its own seat's.
        assert_eq!(figures[1].automa_time, Duration::hours(29));
        assert_eq!(figures[0].missed + figures[0].automa_moves, 0);
    }

    #[test]
    fn timeouts_hand_overs_and_cover_count_as_missed_and_covered() {
        let log = [
            (
                Entry::Table(TableEvent::Proxy {
                    seat: 0,
                    why: ProxyWhy::Timeout,
                    by: None,
                }),
                t(48),
            ),
            (action(0), t(48)),
            (
                Entry::Table(TableEvent::HandOver {
                    seat: 0,
                    player: person("ann"),
                    timeouts: 2,
                }),
                t(50),
            ),
            (
                Entry::Table(TableEvent::Proxy {
                    seat: 0,
                    why: ProxyWhy::Cover,
                    by: None,
                }),
                t(50),
            ),
            (action(0), t(50)),
            (
                Entry::Table(TableEvent::Reclaim {
                    seat: 0,
                    player: person("ann"),
                }),
                t(60),
            ),
            (
                Entry::Table(TableEvent::Proxy {
                    seat: 1,
                    why: ProxyWhy::Expired,
                    by: None,
                }),
                t(61),
            ),
            (action(1), t(61)),
            (
                Entry::Table(TableEvent::Away {
                    player: "bob".into(),
                    name: "bob".into(),
                    until: "2025-03-04T00:00:00Z".into(),
                    pause_until: "2025-03-04T00:00:00Z".into(),
                    reason: None,
                    cover: true,
                }),
                t(62),
            ),
            (
                Entry::Table(TableEvent::Back {
                    player: "bob".into(),
                    name: "bob".into(),
                }),
                t(66),
            ),
        ];
        let in_force: HashSet<i64> = [1, 4, 7].into_iter().collect();
        let seated = [person("ann"), person("bob")];
        let figures = pace(
            t(0),
            log.iter()
                .enumerate()
                .map(|(i, (e, at))| (i as i64, e, *at)),
            &in_force,
            &seated,
            t(100),
        );
        // ann: one timeout (missed, made by the automa), one covered move, 10h held.
        assert_eq!(figures[0].missed, 1);
        assert_eq!(figures[0].automa_moves, 2);
        assert_eq!(figures[0].automa_time, Duration::hours(10));
        assert!(figures[0].times.is_empty(), "{:?}", figures[0].times);
        // bob: one expired pass; away with cover for 4h until `!back`.
        assert_eq!(figures[1].missed, 1);
        assert_eq!(figures[1].automa_time, Duration::hours(4));
    }
}
