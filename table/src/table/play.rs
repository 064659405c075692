//! Moves in bold: each segment is read and applied by the game on a draft; audited draws answer
//! at once; everything is stored in one transaction before the reply.

use crate::game::session::{Read, Refusal as GameRefusal};
use crate::table::mover::Mover;

use crate::input::{Incoming, Response, Verdict};

use crate::game::events::TableEvent;
use crate::game::log::Entry;
use crate::store::Write;
use crate::table::prompt::offered_move;
use crate::table::{Cx, Draft, Loaded, Refusal, Report};

impl Cx {
    /// Handles the bold segments of a message.
    pub(crate) async fn moves(&mut self, segments: &[String], msg: &Incoming) -> Response {
        if self.loaded.playing().is_none() {
            // No game being played: **sign up** while signups are open.
            if let Some(response) = crate::table::signups::signup_bold(self, segments, msg).await {
                return response;
            }
        }
        let Loaded::Running(current) = &self.loaded else {
            // Without a game, bold text is chat unless it starts with a move word of a game; a
            // frozen game refuses moves.
            if matches!(self.loaded, Loaded::Empty)
                && !segments
                    .iter()
                    .any(|s| self.host.games.iter().any(|g| g.starts_as_move(s)))
            {
                return Response::new(Verdict::Ignored);
            }
            return self.host.no_game(&self.loaded);
        };
        // Bold text that does not read as a whole move is chat (no reply at all), unless it is
        // clearly an attempt at one: a near miss or a move word of the player to act, a move
        // word of anyone else.
        let acting = match current.session.to_act() {
            crate::game::ToAct::Player { seat, .. } => current.seat_of(&msg.author) == Some(seat),
            _ => false,
        };
        // Each segment is read once, here, in the position it is played in if it comes first;
        // one after a move is read again in the position that move left.
        let mut unread = Vec::new();
        let segments: Vec<(&String, Result<Read, GameRefusal>)> = segments
            .iter()
            .filter(|s| {
                // The player to act is read in the position (an amount alone is a bid in an
                // auction); anyone else's bold text is chat when it would be anywhere.
                acting || !current.plugin.is_chat(s)
            })
            .map(|s| (s, current.session.read(s)))
            .filter_map(|(s, read)| {
                let a_move = if acting {
                    !current.session.is_chat_in(s)
                        && (read.is_ok()
                            || current.plugin.starts_as_move(s)
                            || current.plugin.is_attempt(s))
                } else {
                    read.is_ok() || current.plugin.starts_as_move(s)
                };
                if a_move {
                    return Some((s, read));
                }
                // What the player to act wrote that reads as no move is answered, unless
                // another segment of the message is a move.
                if acting {
                    unread.push((s, read));
                }
                None
            })
            .collect();
        if segments.is_empty() {
            if unread.is_empty() {
                return Response::new(Verdict::Ignored);
            }
            return self.not_read(&unread, msg);
        }
        let now = crate::weeks::pace::time_of(msg);
        let mut draft = Draft::of(current);
        let mut narration = Vec::new();
        // A move of a player whose seat the automa covers takes the seat back.
        if let Some(seat) = current.seat_of(&msg.author) {
            let meta = current.meta();
            let player = current.session.seated()[seat].clone();
            if meta.covered(seat, &player.id, now).is_some() {
                if meta.away(&player.id, now).is_some() {
                    draft.entries.push(Entry::Table(TableEvent::Back {
                        player: player.id.clone(),
                        name: player.name.clone(),
                    }));
                }
                if meta.handed_over.contains(&seat) {
                    draft.entries.push(Entry::Table(TableEvent::Reclaim {
                        seat,
                        player: player.clone(),
                    }));
                }
                let reclaim = self.say(crate::messages::Reclaim {
                    player: player.name.clone(),
                });
                narration.push(reclaim.trim_end().to_string());
            }
        }
        let mut refusal = None;
        let mut offers = Vec::new();
        let mut turn_ended = false;
        let mut picture_changed = false;
        let mut canonical = Vec::new();
        let count = segments.len();
        for (i, (segment, read)) in segments.into_iter().enumerate() {
            match Mover::of(self, current).one_move(&mut draft, segment, read, msg) {
                Ok((text, ends_turn, changes_picture, notation)) => {
                    narration.push(text);
                    canonical.push(notation);
                    turn_ended |= ends_turn;
                    picture_changed |= changes_picture;
                }
                Err(reason) => {
                    if let (true, Refusal::Game(refused)) = (acting, &reason) {
                        offers = refused.offered();
                    }
                    refusal = Some(Mover::of(self, current).move_refused(
                        msg,
                        segment,
                        &reason,
                        i + 1 < count,
                    ));
                    break;
                }
            }
        }
        if draft.entries.is_empty() {
            self.ledger.stage(Write::MarkSeen {
                channel: self.ledger.channel.clone(),
                message_id: msg.message_id.clone(),
            });
            return Response::refused(refusal.unwrap_or_default())
                .offer(offers.iter().map(|m| offered_move(m)).collect());
        }
        // The next players' presets and absences answer their auction decisions at once.
        let mut proxied = crate::table::mover::Proxied::default();
        let mut meta = current.meta();
        for (i, entry) in draft.entries.iter().enumerate() {
            meta.add(draft.next_seq + i as i64, entry, Some(now));
        }
        Mover::of(self, current)
            .auto_proxies(&mut draft, &meta, now, &mut proxied)
            .await;
        narration.append(&mut proxied.texts);
        turn_ended |= proxied.ends_turn;
        picture_changed |= proxied.changes_picture;
        if draft.session.is_finished() && current.audited() && !draft.revealed {
            draft.entries.push(Entry::Reveal);
            draft.revealed = true;
        }
        let before = current.session.to_act();
        let game_id = current.row.id.clone();
        self.commit(draft, msg);
        proxied.stage_spent(&mut self.ledger, &game_id);
        let Loaded::Running(current) = &self.loaded else {
            return self.host.no_game(&self.loaded);
        };
        let mut text = narration.join("\n");
        if let Some(refusal) = &refusal {
            text.push('\n');
            text.push_str(refusal);
        }
        let author_seat = current.seat_of(&msg.author);
        let ping = (current.session.to_act() != before || turn_ended)
            && self.host.view(current).may_ping_to_act(now);
        let render = self.host.view(current).render(ping, author_seat);
        let body = if turn_ended && self.host.settings.report == Report::Full {
            current.session.status(&render)
        } else {
            current.session.prompt(&render)
        };
        text.push('\n');
        text.push_str(&body);
        // The player pinged back after a while is told what happened since they last posted.
        if let (true, crate::game::ToAct::Player { seat, .. }) = (ping, current.session.to_act()) {
            if Some(seat) != author_seat {
                if let Some(recap) = current.ping_recap(seat, &self.posts, now) {
                    text.push('\n');
                    text.push_str(&self.say(recap));
                }
            }
        }
        if current.session.is_finished() {
            text.push('\n');
            text.push_str(&self.host.view(current).ending_notes());
        }
        let picture = if picture_changed && self.host.settings.map_after_build {
            self.host
                .view(current)
                .picture_attachment()
                .and_then(Result::ok)
        } else {
            None
        };
        // Something was stored, so the message counts as accepted; a later refused command in
        // it is explained in the text.
        let mut response = Response::new(Verdict::Accepted)
            .say(text)
            .attach(picture)
            .attach(crate::table::prompt::final_chart(current, &self.host));
        response.moves = canonical;
        response
    }

    /// The short answer to bold text from the player to act that reads as no move: what could
    /// not be read, the legal moves nearest to it (if the game finds any), and what they may do.
    fn not_read(
        &mut self,
        unread: &[(&String, Result<Read, GameRefusal>)],
        msg: &Incoming,
    ) -> Response {
        let Loaded::Running(current) = &self.loaded else {
            return self.host.no_game(&self.loaded);
        };
        let mut offered: Vec<String> = Vec::new();
        for refusal in unread.iter().filter_map(|(_, read)| read.as_ref().err()) {
            for legal in refusal.offered() {
                if !offered.contains(&legal) {
                    offered.push(legal);
                }
            }
        }
        offered.truncate(MAX_OFFERED);
        let offers = offered.iter().map(|m| offered_move(m)).collect();
        let mut render = self.host.view(current).render(false, None);
        render.head = None;
        let text = self.say(crate::messages::NotRead {
            author: msg.author.name.clone(),
            segments: unread.iter().map(|(s, _)| s.to_string()).collect(),
            offered,
            prompt: current.session.prompt(&render).trim().to_string(),
        });
        self.ledger.stage(Write::MarkSeen {
            channel: self.ledger.channel.clone(),
            message_id: msg.message_id.clone(),
        });
        Response::refused(text).offer(offers)
    }
}

/// The most moves the short answer to an unread text names.
const MAX_OFFERED: usize = 3;
