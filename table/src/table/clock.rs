//! The clock's work at a table ([`crate::weeks::pace`] holds its model): presets and absences
//! answer auctions, an auction clock that ran out passes automatically, reminders and deadline
//! notices go out once each, and signups close.

use chrono::{DateTime, Utc};

use crate::game::events::{ProxyWhy, ReminderKind, TableEvent};
use crate::game::log::Entry;
use crate::game::session::ProxySource;
use crate::game::PlayerInfo;
use crate::input::{Author, Incoming, Response, Verdict};
use crate::messages;
use crate::table::mover::{MadeMove, Mover, Proxied};
use crate::table::{Current, Cx, Draft, Loaded};
use crate::weeks::meta::{ClockSource, DecisionClock, Meta, TimeoutPolicy};
use crate::weeks::pace::decision_data;

impl Cx {
    // ----- the tick -----

    /// Time-driven work up to `now`: presets and absences answer auctions, an auction clock
    /// that ran out passes automatically, reminders and deadline notices go out once each, and
    /// signups close; the replies to post.
    pub(crate) async fn pace_tick(&mut self, now: DateTime<Utc>) -> Response {
        match &self.loaded {
            Loaded::Running(c) if !c.session.is_finished() => self.game_tick(now).await,
            Loaded::Frozen(_) => Response::new(Verdict::Ignored),
            _ => crate::table::signups::signup_tick(self, now).await,
        }
    }

    async fn game_tick(&mut self, now: DateTime<Utc>) -> Response {
        let Some(current) = self.loaded.playing() else {
            return Response::new(Verdict::Ignored);
        };
        let meta = current.meta();
        let before = current.session.to_act();
        let mut draft = Draft::of(current);
        let mut done = Proxied::default();
        let mut notices = Vec::new();
        let mut handed_over = None;
        Mover::of(self, current)
            .auto_proxies(&mut draft, &meta, now, &mut done)
            .await;
        if !done.moved() {
            if let Some(clock) = meta.clock_of(before, current.session.seated(), now) {
                if clock.expired() {
                    match self.timeout_move(current, &mut draft, &meta, &clock).await {
                        Some(made) => {
                            notices.push(made.head);
                            done.add(made.made);
                            // The next players' presets and absences answer at once.
                            let mut meta = meta.clone();
                            for (i, entry) in draft.entries.iter().enumerate() {
                                meta.add(draft.next_seq + i as i64, entry, Some(now));
                            }
                            // Timeouts in a row hand the seat to the automa.
                            let timeouts = meta.timeouts_of(clock.seat);
                            if meta.clock.hand_over.is_some_and(|n| timeouts >= n)
                                && !meta.handed_over.contains(&clock.seat)
                                && current.session.has_automa()
                            {
                                let entry = Entry::Table(TableEvent::HandOver {
                                    seat: clock.seat,
                                    player: clock.player.clone(),
                                    timeouts,
                                });
                                meta.add(
                                    draft.next_seq + draft.entries.len() as i64,
                                    &entry,
                                    Some(now),
                                );
                                draft.entries.push(entry);
                                handed_over = Some(self.say(messages::HandOver {
                                    player: clock.player.name.clone(),
                                    timeouts,
                                }));
                            }
                            Mover::of(self, current)
                                .auto_proxies(&mut draft, &meta, now, &mut done)
                                .await;
                        }
                        None if !meta.was_reminded(ReminderKind::Deadline) => {
                            draft.entries.push(Entry::Table(TableEvent::Reminded {
                                seat: clock.seat,
                                since: clock.since_seq,
                                kind: ReminderKind::Deadline,
                            }));
                            let moderators: Vec<String> =
                                meta.moderators.iter().map(PlayerInfo::ping).collect();
                            notices.push(self.say(messages::Deadline {
                                c: decision_data(&clock, now),
                                moderators,
                                game_id: current.row.id.to_string(),
                            }));
                        }
                        None => {}
                    }
                } else if clock.remind_due()
                    && !clock.away
                    && !meta.was_reminded(ReminderKind::Remind)
                {
                    draft.entries.push(Entry::Table(TableEvent::Reminded {
                        seat: clock.seat,
                        since: clock.since_seq,
                        kind: ReminderKind::Remind,
                    }));
                    let render = self.host.view(current).render(false, None);
                    notices.push(self.say(messages::Reminder {
                        c: decision_data(&clock, now),
                        game_id: current.row.id.to_string(),
                        prompt: current.session.prompt(&render).to_string(),
                    }));
                }
            }
        }
        if draft.entries.is_empty() {
            return Response::new(Verdict::Ignored);
        }
        let game_id = current.row.id.clone();
        if done.moved() && draft.session.is_finished() && current.audited() && !draft.revealed {
            draft.entries.push(Entry::Reveal);
            draft.revealed = true;
        }
        let msg = clock_message(current, now);
        self.commit(draft, &msg);
        done.stage_spent(&mut self.ledger, &game_id);
        let text = if done.moved() {
            let turn_ended = done.ends_turn;
            let mut texts: Vec<String> = notices
                .iter()
                .filter(|n| !n.trim().is_empty())
                .map(|n| n.trim_end().to_string())
                .collect();
            texts.append(&mut done.texts);
            texts.extend(handed_over.map(|h| h.trim_end().to_string()));
            crate::table::view::after_moves(&self.host, &self.loaded, texts, before, turn_ended)
        } else {
            notices.join("\n")
        };
        let picture = match (&self.loaded, done.changes_picture) {
            (Loaded::Running(current), true) if self.host.settings.map_after_build => self
                .host
                .view(current)
                .picture_attachment()
                .and_then(Result::ok),
            _ => None,
        };
        let chart = match &self.loaded {
            Loaded::Running(current) => crate::table::prompt::final_chart(current, &self.host),
            _ => None,
        };
        Response::new(Verdict::Accepted)
            .say(text)
            .attach(picture)
            .attach(chart)
    }
}

/// A move made because time ran out: the line that marks it, and the move.
pub(crate) struct TimedOut {
    head: String,
    made: MadeMove,
}

impl Cx {
    /// The move made for a seat whose time ran out, on the draft: an automatic pass when the
    /// auction clock ran out; otherwise as `!clock timeout:` says — the automa's choice, the
    /// game's pass, or nothing (`ping`: the moderators are told instead).
    async fn timeout_move(
        &self,
        current: &Current,
        draft: &mut Draft,
        meta: &Meta,
        clock: &DecisionClock,
    ) -> Option<TimedOut> {
        let player = clock.player.name.clone();
        let (source, why, pick) = match (clock.source, meta.clock.timeout) {
            (ClockSource::Auction, _) => (ProxySource::Auto, ProxyWhy::Clock, None),
            (_, TimeoutPolicy::Ping) => return None,
            (_, TimeoutPolicy::Pass) => (ProxySource::TimeoutPass, ProxyWhy::Expired, None),
            (_, TimeoutPolicy::Automa) => {
                if !current.session.has_automa() {
                    return None;
                }
                let pick = current
                    .automa_pick(clock.seat, self.host.settings.automa)
                    .await?;
                (ProxySource::Auto, ProxyWhy::Timeout, Some(pick))
            }
        };
        // The automa's move crosses typed; its words stay for the narration.
        let (source, pick) = match pick {
            Some(pick) => (
                ProxySource::Chosen(pick.action),
                Some((pick.notation, pick.reason)),
            ),
            None => (source, None),
        };
        let made = match Mover::of(self, current)
            .proxy_move(draft, clock.seat, source, why, None, "")
        {
            Ok((Some(made), _)) => made,
            Ok((None, _)) => return None,
            Err(reason) => {
                tracing::warn!(game = %current.row.id, ?reason, ?why, "the move for a timeout was refused");
                return None;
            }
        };
        let head = match (why, pick) {
            // The auction clock's pass is narrated by the game, as before.
            (ProxyWhy::Clock, _) => String::new(),
            (_, pick) => {
                let render = self.host.view(current).render(false, None);
                self.say(messages::TimeoutMove {
                    player,
                    reason: pick.as_ref().and_then(|(_, reason)| {
                        let reason = current.session.reason(reason, &render);
                        (!reason.trim().is_empty()).then(|| reason.trim().to_string())
                    }),
                    notation: pick.map(|(notation, _)| notation),
                })
            }
        };
        Some(TimedOut { head, made })
    }
}

/// The message the table's own commits are stored under.
pub(crate) fn clock_message(current: &Current, now: DateTime<Utc>) -> Incoming {
    Incoming {
        message_id: format!("clock:{}:{}", current.row.id, current.log.len()),
        author: Author {
            id: "gaugebot".into(),
            name: "gaugebot".into(),
            is_moderator: false,
            mention: "@gaugebot".into(),
        },
        text: "(the table's clock)".into(),
        at: chrono::SubsecRound::trunc_subsecs(now, 0),
        mentions: Vec::new(),
    }
}
