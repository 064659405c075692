//! Where the players stand: each seat's worth and rank (players with equal worth share a
//! rank), how near the end is, who is to act and until when, who is away (the `!status`
//! text); and, at the end, every person who held a seat that changed hands.

use chrono::{DateTime, Utc};

use crate::messages;
use crate::table::view::View;
use crate::weeks::duration::{full, relative};
use crate::weeks::meta::{ReminderKind, Substitution};
use crate::weeks::pace::decision_data;

/// Competition ranks of `values`, highest first: equal values share a rank (`1, 1, 3`).
pub(crate) fn ranks(values: &[i64]) -> Vec<usize> {
    values
        .iter()
        .map(|v| 1 + values.iter().filter(|o| *o > v).count())
        .collect()
}

/// Who held `seat` before its present player, with the log entry from which each next one
/// held it: `[(ann, None), (dan, Some(12))]` for a seat ann gave to dan at entry 12.
fn holders(subs: &[Substitution], seat: usize, now: &str) -> Vec<messages::Holder> {
    let mut chain: Vec<messages::Holder> = Vec::new();
    for sub in subs.iter().filter(|s| s.seat == seat) {
        if chain.is_empty() {
            chain.push(messages::Holder {
                name: sub.old.name.clone(),
                from: None,
            });
        }
        chain.push(messages::Holder {
            name: sub.new.name.clone(),
            from: Some(sub.seq),
        });
    }
    if chain.last().is_some_and(|h| h.name != now) {
        chain.push(messages::Holder {
            name: now.to_string(),
            from: None,
        });
    }
    chain
}

impl View<'_> {
    /// Every seat whose player changed during the game, with each person who held it.
    pub(crate) fn seats_held(&self) -> Vec<messages::SeatHeld> {
        let meta = self.current.meta();
        self.current
            .seat_names()
            .iter()
            .enumerate()
            .filter_map(|(seat, name)| {
                let chain = holders(&meta.subs, seat, name);
                (chain.len() > 1).then(|| messages::SeatHeld {
                    seat: seat + 1,
                    name: name.clone(),
                    holders: chain,
                })
            })
            .collect()
    }

    /// What follows the final report: who held the seats that changed hands, and the
    /// revealed seed.
    pub(crate) fn ending_notes(&self) -> String {
        let seats = self.seats_held();
        let held = if seats.is_empty() {
            String::new()
        } else {
            self.host.say(messages::SeatsHeld { seats })
        };
        [held, self.reveal_text()]
            .into_iter()
            .filter(|t| !t.trim().is_empty())
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The standing at `now`: worth and rank, the end, the player to act, who is away.
    pub(crate) fn standing(&self, now: DateTime<Utc>) -> String {
        let current = self.current;
        let names = current.seat_names();
        let worths: Vec<Option<crate::game::Worth>> = (0..names.len())
            .map(|seat| current.session.worth(seat))
            .collect();
        let totals: Vec<i64> = worths.iter().map(|w| w.map_or(0, |w| w.total)).collect();
        let rank = ranks(&totals);
        let mut players: Vec<messages::RankLine> = names
            .iter()
            .enumerate()
            .filter_map(|(seat, name)| {
                let worth = worths[seat]?;
                Some(messages::RankLine {
                    rank: rank[seat],
                    name: name.clone(),
                    worth: worth.money(worth.total),
                })
            })
            .collect();
        players.sort_by_key(|p| p.rank);
        let pressure = current.session.pressure().map(|p| messages::RecapLine {
            kind: p.kind,
            subject: p.subject,
            amounts: p.amounts,
            ..Default::default()
        });
        let meta = current.meta();
        let clock = meta.clock_of(current.session.to_act(), current.session.seated(), now);
        let reminder = clock.as_ref().and_then(|c| {
            let (budget, pct) = (c.budget?, c.remind_pct?);
            let at = budget * i32::from(pct) / 100;
            (!meta.was_reminded(ReminderKind::Remind) && c.elapsed < at)
                .then(|| now + (at - c.elapsed))
        });
        let away = meta
            .absences
            .iter()
            .filter(|a| a.covers(now))
            .map(|a| messages::AwayLine {
                name: a.name.clone(),
                until: relative(a.end()),
                until_full: full(a.end()),
            })
            .collect();
        self.host.say(messages::Standing {
            finished: current.session.is_finished(),
            players,
            pressure,
            to_act: clock.as_ref().map(|c| decision_data(c, now)),
            reminder: reminder.map(relative),
            reminder_full: reminder.map(full),
            away,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_worths_share_a_rank() {
        assert_eq!(ranks(&[87, 87, 40]), [1, 1, 3]);
        assert_eq!(ranks(&[10, 30, 20, 30]), [4, 1, 3, 1]);
    }
}
