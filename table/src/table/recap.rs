//! Catching up: what happened since a player last posted in the game (the turn ping,
//! `!recap`) or since a time (`!recap 2d`, for spectators too). The game says what each move
//! and draw came to ([`crate::game::TableGame::summarize`]); the table replays the log from the
//! point asked for, groups the summaries by kind, seat and subject (each draw's on a line of its
//! own: a dividend call is one line), tells the moves made *for* the player as such (a
//! moderator's `!act`, an automatic pass, the automa), and the template words them, speaking to
//! the player about themselves in the second person.

use chrono::{DateTime, Utc};

use crate::game::events::{ProxyWhy, TableEvent};
use crate::game::log::Entry;
use crate::game::Summary;
use crate::messages::{Recap, RecapLine};
use crate::table::posts::{LastPost, Posts};
use crate::table::{Current, Host};
use crate::weeks::duration::relative;

/// The most lines a turn ping's recap shows, the money and the end-game lines included (an
/// asked-for `!recap` shows every line).
pub(crate) const RECAP_LINES: usize = 6;

/// A player who posted less than this long ago is pinged without a recap.
pub(crate) const RECAP_AFTER_MINUTES: i64 = 60;

/// Where a recap starts.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Since {
    /// After the seat's player last posted in the game (`None`: from the start).
    LastPostOf(usize, Option<LastPost>),
    /// After this time.
    Time(DateTime<Utc>),
}

/// How much of a recap to show.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Length {
    /// Every line (`!recap`: a long one is split into several posts by the adapter).
    Complete,
    /// At most [`RECAP_LINES`] (the turn ping), one line saying how many more.
    Short,
}

impl Current {
    /// The last time the player `player_id` posted in this game: the last log entry their
    /// message stored, or a later message of theirs this process saw (`posts`).
    pub(crate) fn last_post(&self, posts: &Posts, player_id: &str) -> Option<LastPost> {
        let stored = self
            .log
            .iter()
            .rev()
            .find(|(_, row)| row.author_id == player_id)
            .map(|(_, row)| LastPost {
                next_seq: row.seq + 1,
                at: row.at,
            });
        let seen = posts.last(&self.row.id, player_id);
        match (stored, seen) {
            (Some(a), Some(b)) => Some(if b.next_seq >= a.next_seq { b } else { a }),
            (a, b) => a.or(b),
        }
    }

    /// Why the move at log entry `seq` was made for its seat, and by whom, if it was.
    fn proxy_of(&self, seq: i64) -> Option<(ProxyWhy, Option<String>)> {
        let index = self.log.iter().position(|(_, row)| row.seq == seq)?;
        match self.log.get(index.checked_sub(1)?) {
            Some((Entry::Table(TableEvent::Proxy { why, by, .. }), _)) => {
                Some((*why, by.as_ref().map(|b| b.name.clone())))
            }
            _ => None,
        }
    }

    /// The recap for `seat` (`None`: a spectator), or `None` when the log does not replay.
    pub(crate) fn recap(&self, seat: Option<usize>, since: Since, length: Length) -> Option<Recap> {
        // The first entry in force that the recap tells, and when it starts.
        let (first, from) = match since {
            Since::LastPostOf(_, Some(post)) => (post.next_seq, post.at),
            Since::LastPostOf(_, None) => (0, self.row.created_at),
            Since::Time(at) => {
                let first = self
                    .log
                    .iter()
                    .find(|(_, row)| row.at > at)
                    .map_or(i64::MAX, |(_, row)| row.seq);
                (first, at)
            }
        };
        let me = match since {
            Since::LastPostOf(me, _) => Some(me),
            Since::Time(_) => seat,
        };
        let mut session = self
            .plugin
            .load(&self.stored.setup, self.stored.players.clone())
            .ok()?;
        let mut cash_before = None;
        // Each summary with the draw it came from (a draw's summaries are grouped apart).
        let mut summaries: Vec<(Summary, Option<i64>)> = Vec::new();
        for item in &self.stack {
            if item.seq < first {
                session.replay(&item.entry).ok()?;
                continue;
            }
            if cash_before.is_none() {
                cash_before = seat.and_then(|s| session.worth(s));
            }
            let said = session.replay_summaries(&item.entry).ok()?;
            match &item.entry {
                Entry::Action { seat: by, action }
                    if Some(*by) == me && self.proxy_of(item.seq).is_some() =>
                {
                    // A move made for the player: said as such; what it did to the board
                    // (a build) is in that line.
                    let (why, moderator) = self
                        .proxy_of(item.seq)
                        .unwrap_or((ProxyWhy::Moderator, None));
                    summaries.push((
                        Summary {
                            kind: "for_you".into(),
                            seat: Some(*by),
                            subject: session.canonical(action).unwrap_or_default(),
                            amounts: Vec::new(),
                            detail: std::iter::once(why.name().to_string())
                                .chain(moderator)
                                .collect(),
                            ..Summary::default()
                        },
                        Some(item.seq),
                    ));
                    // Its bid is in that line too.
                    summaries.extend(
                        said.into_iter()
                            .filter(|s| s.seat.is_some() && !s.open)
                            .map(|s| (s, None)),
                    );
                }
                Entry::Draw { .. } => {
                    summaries.extend(said.into_iter().map(|s| (s, Some(item.seq))));
                }
                _ => summaries.extend(said.into_iter().map(|s| (s, None))),
            }
        }
        let summaries = closed_or_open(summaries, length);
        let names = self.seat_names();
        let mut lines = group(&summaries, &names, me);
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
        // "End in sight" only when it is: near, and the game not over.
        let pressure = self
            .session
            .pressure()
            .filter(|p| p.near && !self.session.is_finished())
            .map(|s| group(&[(s, None)], &names, me).remove(0));
        // A ping's recap: six lines in all, the money and the end-game lines first, then the
        // others' moves (one line says how many more there were).
        let room = RECAP_LINES - usize::from(money.is_some()) - usize::from(pressure.is_some());
        let more = if length == Length::Short && lines.len() > room {
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
            mine: matches!(since, Since::LastPostOf(..)),
            started: matches!(since, Since::LastPostOf(_, None)),
            lines,
            more,
            money,
            cash,
            pressure,
        })
    }

    /// The recap a turn ping carries for `seat`: since its player last posted, unless that was
    /// less than an hour before `now` or nothing happened since.
    pub(crate) fn ping_recap(
        &self,
        seat: usize,
        posts: &Posts,
        now: DateTime<Utc>,
    ) -> Option<Recap> {
        let player = self.session.seated().get(seat)?.id.clone();
        let post = self.last_post(posts, &player);
        let last = post.map_or(self.row.created_at, |p| p.at);
        if now - last < chrono::Duration::minutes(RECAP_AFTER_MINUTES) {
            return None;
        }
        self.recap(Some(seat), Since::LastPostOf(seat, post), Length::Short)
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
        crate::table::chart::net_worth_series(
            &mut *session,
            names,
            self.stack.iter().map(|item| &item.entry),
        )
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
}

/// The summaries a recap tells: an open step ([`Summary::open`], a bid in an auction not
/// decided yet) only in an asked-for recap, and only while no later summary with its key
/// closes it (the auction's result, or the same seat's next bid there).
fn closed_or_open(
    summaries: Vec<(Summary, Option<i64>)>,
    length: Length,
) -> Vec<(Summary, Option<i64>)> {
    let closed_later = |index: usize, open: &Summary| {
        summaries[index + 1..].iter().any(|(later, _)| {
            !open.key.is_empty()
                && later.key == open.key
                && (!later.open || later.seat == open.seat)
        })
    };
    summaries
        .iter()
        .enumerate()
        .filter(|(index, (s, _))| {
            !s.open || (length == Length::Complete && !closed_later(*index, s))
        })
        .map(|(_, item)| item.clone())
        .collect()
}

/// Groups summaries by kind, seat, subject and draw, in the order each group first happened;
/// the amounts and details of a group are kept in order, details once each. A line about
/// `me` is marked `yours` (the template says "you").
fn group(
    summaries: &[(Summary, Option<i64>)],
    names: &[String],
    me: Option<usize>,
) -> Vec<RecapLine> {
    let mut keys: Vec<(&str, Option<usize>, &str, Option<i64>)> = Vec::new();
    let mut lines: Vec<RecapLine> = Vec::new();
    for (s, draw) in summaries {
        let key = (s.kind.as_str(), s.seat, s.subject.as_str(), *draw);
        let index = match keys.iter().position(|k| *k == key) {
            Some(i) => i,
            None => {
                keys.push(key);
                lines.push(RecapLine {
                    kind: s.kind.clone(),
                    who: s.seat.and_then(|seat| names.get(seat).cloned()),
                    yours: s.seat.is_some() && s.seat == me,
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

    fn summary(
        kind: &str,
        seat: Option<usize>,
        subject: &str,
        detail: &[&str],
    ) -> (Summary, Option<i64>) {
        (
            Summary {
                kind: kind.into(),
                seat,
                subject: subject.into(),
                detail: detail.iter().map(|d| d.to_string()).collect(),
                ..Summary::default()
            },
            None,
        )
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
            Some(1),
        );
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0].who.as_deref(), Some("ann"));
        assert_eq!(lines[0].detail, ["Shannon", "Ennis"]);
        assert_eq!(lines[1].kind, "card_taken");
        assert_eq!(lines[2].who.as_deref(), Some("bob"));
        assert!(lines[2].yours && !lines[0].yours);
    }

    #[test]
    fn each_draw_groups_apart() {
        let names = vec!["ann".to_string()];
        let paid = |draw| {
            let (s, _) = summary("dividends", None, "", &["WLW £6 a share"]);
            (s, Some(draw))
        };
        let lines = group(&[paid(4), paid(9)], &names, None);
        assert_eq!(lines.len(), 2, "two calls, two lines");
        assert_eq!(lines[1].detail, ["WLW £6 a share"]);
    }

    /// A bid (open) by `seat` on `key`, or what closed it (a card taken).
    fn step(kind: &str, seat: usize, key: &str, open: bool) -> (Summary, Option<i64>) {
        (
            Summary {
                kind: kind.into(),
                seat: Some(seat),
                subject: key.into(),
                open,
                key: key.into(),
                ..Summary::default()
            },
            None,
        )
    }

    fn kinds(kept: &[(Summary, Option<i64>)]) -> Vec<(String, Option<usize>, String)> {
        kept.iter()
            .map(|(s, _)| (s.kind.clone(), s.seat, s.key.clone()))
            .collect()
    }

    #[test]
    fn an_open_bid_is_told_until_its_card_is_taken_or_its_bidder_bids_again() {
        let told = |summaries: Vec<(Summary, Option<i64>)>, length| {
            kinds(&closed_or_open(summaries, length))
        };
        let open = vec![step("bid", 0, "D", true), step("bid", 1, "D", true)];
        // Both bids stand: each is told in an asked-for recap, none in a ping's.
        assert_eq!(told(open.clone(), Length::Complete).len(), 2);
        assert!(told(open.clone(), Length::Short).is_empty());
        // ann bids again on D: her first bid is replaced, bob's stands.
        let mut again = open.clone();
        again.push(step("bid", 0, "D", true));
        assert_eq!(
            told(again, Length::Complete),
            [
                ("bid".to_string(), Some(1), "D".to_string()),
                ("bid".to_string(), Some(0), "D".to_string())
            ]
        );
        // bob takes D: both bids are history, the card taken is told.
        let mut taken = open.clone();
        taken.push(step("card_taken", 1, "D", false));
        assert_eq!(
            told(taken, Length::Complete),
            [("card_taken".to_string(), Some(1), "D".to_string())]
        );
        // A card taken elsewhere closes nothing here.
        let mut elsewhere = open;
        elsewhere.push(step("card_taken", 1, "E", false));
        assert_eq!(told(elsewhere, Length::Complete).len(), 3);
    }
}
