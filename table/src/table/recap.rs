//! Catching up: what happened since a player's last move (the turn ping, `!recap`) or since a
//! time (`!recap 2d`, for spectators too). The game says what each move and draw came to
//! ([`crate::game::TableGame::summarize`]); the table replays the log from the point asked
//! for, groups the summaries by kind, seat and subject, and the template words them.

use chrono::{DateTime, Utc};

use crate::game::log::Entry;
use crate::game::Summary;
use crate::messages::{Recap, RecapLine};
use crate::table::{Current, Host};
use crate::weeks::duration::relative;

/// The most lines a recap shows, the money and the end-game lines included.
pub(crate) const RECAP_LINES: usize = 6;

/// A player who moved less than this long ago is pinged without a recap.
pub(crate) const RECAP_AFTER_MINUTES: i64 = 60;

/// Where a recap starts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Since {
    /// After the seat's own last move (from the start if it has made none).
    LastMoveOf(usize),
    /// After this time.
    Time(DateTime<Utc>),
}

impl Current {
    /// The recap for `seat` (`None`: a spectator), or `None` when the log does not replay.
    pub(crate) fn recap(&self, seat: Option<usize>, since: Since) -> Option<Recap> {
        // The first entry in force that the recap tells, and when it starts.
        let (first, from) = match since {
            Since::LastMoveOf(me) => {
                let last =
                    self.stack.iter().rev().find(
                        |item| matches!(item.entry, Entry::Action { seat, .. } if seat == me),
                    );
                match last {
                    Some(item) => (item.seq + 1, self.time_of(item.seq)),
                    None => (0, self.row.created_at),
                }
            }
            Since::Time(at) => {
                let first = self
                    .log
                    .iter()
                    .find(|(_, row)| row.at > at)
                    .map_or(i64::MAX, |(_, row)| row.seq);
                (first, at)
            }
        };
        let mut session = self
            .plugin
            .load(&self.stored.setup, self.stored.players.clone())
            .ok()?;
        let mut cash_before = None;
        let mut summaries: Vec<Summary> = Vec::new();
        for item in &self.stack {
            if item.seq < first {
                session.replay(&item.entry).ok()?;
                continue;
            }
            if cash_before.is_none() {
                cash_before = seat.and_then(|s| session.worth(s));
            }
            let mine = matches!(
                (&item.entry, seat, since),
                (Entry::Action { seat: by, .. }, Some(me), Since::LastMoveOf(_)) if *by == me
            );
            let said = session.replay_summaries(&item.entry).ok()?;
            if !mine {
                summaries.extend(said);
            }
        }
        let names = self.seat_names();
        let mut lines = group(&summaries, &names);
        let worth_now = seat.and_then(|s| self.session.worth(s));
        let (money, cash) = match (cash_before, worth_now) {
            (Some(before), Some(now)) if before.cash != now.cash => {
                let change = now.cash - before.cash;
                let sign = if change > 0 { "+" } else { "" };
                (
                    Some(format!("{sign}{}", now.money(change))),
                    Some(now.money(now.cash)),
                )
            }
            _ => (None, None),
        };
        let pressure = self
            .session
            .pressure()
            .map(|s| group(&[s], &names).remove(0));
        // Six lines in all: the money and the end-game lines first, then the others' moves
        // (one line says how many more there were).
        let room = RECAP_LINES - usize::from(money.is_some()) - usize::from(pressure.is_some());
        let more = if lines.len() > room {
            let kept = room - 1;
            let more = lines.len() - kept;
            lines.truncate(kept);
            more
        } else {
            0
        };
        Some(Recap {
            player: seat.and_then(|s| names.get(s).cloned()),
            since: relative(from),
            mine: matches!(since, Since::LastMoveOf(_)),
            lines,
            more,
            money,
            cash,
            pressure,
        })
    }

    /// The recap a turn ping carries for `seat`: since its last move, unless that was less
    /// than an hour before `now` or nothing happened since.
    pub(crate) fn ping_recap(&self, seat: usize, now: DateTime<Utc>) -> Option<Recap> {
        let last = self
            .stack
            .iter()
            .rev()
            .find(|item| matches!(item.entry, Entry::Action { seat: by, .. } if by == seat))
            .map_or(self.row.created_at, |item| self.time_of(item.seq));
        if now - last < chrono::Duration::minutes(RECAP_AFTER_MINUTES) {
            return None;
        }
        self.recap(Some(seat), Since::LastMoveOf(seat))
            .filter(|recap| !recap.lines.is_empty() || recap.money.is_some())
    }

    /// Every player's net worth from the start and after each move in force, and the
    /// currency; `None` when the game does not say what its players are worth.
    pub(crate) fn net_worth(&self) -> Option<(Vec<crate::table::chart::Series>, &'static str)> {
        let names = self.seat_names();
        let mut session = self
            .plugin
            .load(&self.stored.setup, self.stored.players.clone())
            .ok()?;
        let currency = session.worth(0)?.currency;
        let sample = |session: &dyn crate::game::session::Session| -> Option<Vec<i64>> {
            (0..names.len())
                .map(|seat| session.worth(seat).map(|w| w.total))
                .collect()
        };
        let mut points = vec![sample(&*session)?];
        for item in &self.stack {
            session.replay(&item.entry).ok()?;
            match item.entry {
                Entry::Action { .. } => points.push(sample(&*session)?),
                // A draw belongs to the move that called for it (the dividends it pays).
                Entry::Draw { .. } => {
                    let now = sample(&*session)?;
                    if points.len() > 1 {
                        if let Some(last) = points.last_mut() {
                            *last = now;
                        }
                    }
                }
                _ => {}
            }
        }
        let series = names
            .into_iter()
            .enumerate()
            .map(|(seat, name)| crate::table::chart::Series {
                name,
                values: points.iter().map(|p| p[seat]).collect(),
            })
            .collect();
        Some((series, currency))
    }

    /// Every player's net worth now, highest first (`cat £59`).
    pub(crate) fn net_worth_now(&self) -> Vec<String> {
        let Some((series, currency)) = self.net_worth() else {
            return Vec::new();
        };
        let mut now: Vec<(i64, String)> = series
            .into_iter()
            .map(|s| (s.values.last().copied().unwrap_or(0), s.name))
            .collect();
        now.sort_by_key(|entry| std::cmp::Reverse(entry.0));
        now.into_iter()
            .map(|(v, name)| format!("{name} {currency}{v}"))
            .collect()
    }

    /// The net-worth chart as a PNG attachment, if the game says what its players are worth.
    pub(crate) fn chart_attachment(&self, host: &Host) -> Option<crate::input::Attachment> {
        let (series, currency) = self.net_worth()?;
        let title = format!("{} {} — net worth", self.plugin.info().title, self.row.id);
        let bytes = crate::table::chart::chart_png(&title, currency, &series).ok()?;
        let alt = host.say(crate::messages::Alt {
            kind: "chart".into(),
            title: self.plugin.info().title.to_string(),
            game_id: self.row.id.clone(),
            entry: None,
            // Highest worth first: the alt text names the leader.
            detail: {
                let mut last: Vec<(&str, i64)> = series
                    .iter()
                    .map(|s| (s.name.as_str(), s.values.last().copied().unwrap_or(0)))
                    .collect();
                last.sort_by_key(|(_, worth)| std::cmp::Reverse(*worth));
                last.iter()
                    .map(|(name, worth)| format!("{name} {currency}{worth}"))
                    .collect()
            },
        });
        Some(crate::input::Attachment {
            filename: format!("chart-{}.png", self.row.id),
            bytes,
            alt,
        })
    }

    /// When the entry `seq` was stored.
    fn time_of(&self, seq: i64) -> DateTime<Utc> {
        self.log
            .iter()
            .find(|(_, row)| row.seq == seq)
            .map_or(self.row.created_at, |(_, row)| row.at)
    }
}

/// Groups summaries by kind, seat and subject, in the order each group first happened; the
/// amounts and details of a group are kept in order, details once each.
fn group(summaries: &[Summary], names: &[String]) -> Vec<RecapLine> {
    let mut keys: Vec<(&str, Option<usize>, &str)> = Vec::new();
    let mut lines: Vec<RecapLine> = Vec::new();
    for s in summaries {
        let key = (s.kind.as_str(), s.seat, s.subject.as_str());
        let index = match keys.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                keys.push(key);
                lines.push(RecapLine {
                    kind: s.kind.clone(),
                    who: s.seat.and_then(|seat| names.get(seat).cloned()),
                    subject: s.subject.clone(),
                    amounts: Vec::new(),
                    detail: Vec::new(),
                });
                lines.len() - 1
            }
        };
        let line = &mut lines[index];
        line.amounts.extend(s.amounts.iter().cloned());
        for d in &s.detail {
            if !line.detail.contains(d) {
                line.detail.push(d.clone());
            }
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn summary(kind: &str, seat: Option<usize>, subject: &str, detail: &[&str]) -> Summary {
        Summary {
            kind: kind.into(),
            seat,
            subject: subject.into(),
            amounts: Vec::new(),
            detail: detail.iter().map(|d| d.to_string()).collect(),
        }
    }

    #[test]
    fn summaries_group_by_kind_seat_and_subject_in_order() {
        let names = vec!["ann".to_string(), "bob".to_string()];
        let lines = group(
            &[
                summary("build", Some(0), "WLW", &["Shannon"]),
                summary("card_taken", Some(1), "", &["A"]),
                summary("build", Some(0), "WLW", &["Shannon", "Ennis"]),
                summary("build", Some(1), "WLW", &["Sligo"]),
            ],
            &names,
        );
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].who.as_deref(), Some("ann"));
        assert_eq!(lines[0].detail, ["Shannon", "Ennis"]);
        assert_eq!(lines[1].kind, "card_taken");
        assert_eq!(lines[2].who.as_deref(), Some("bob"));
    }
}
