//! Moves in bold: each segment is read and applied by the game on a draft; audited draws answer
//! at once; everything is stored in one transaction before the reply.

use crate::dice::{is_message_id, DrawSource, Spec};
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::record::log::Entry;
use crate::store::Write;
use crate::table::{Current, Cx, Draft, Loaded, Refusal, Report};

impl Cx {
    /// Handles the bold segments of a message.
    pub(crate) async fn moves(&mut self, segments: &[String], msg: &Incoming) -> Response {
        if self.loaded.playing().is_none() {
            // No game being played: **sign up** while signups are open.
            if let Some(response) = self.signup_bold(segments, msg).await {
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
            return self.no_game();
        };
        // Bold text that does not read as a whole move is chat (no reply at all), unless it is
        // clearly an attempt at one: a near miss or a move word of the player to act, a move
        // word of anyone else.
        let acting = match current.session.to_act() {
            crate::game::ToAct::Player { seat, .. } => current.seat_of(&msg.author) == Some(seat),
            _ => false,
        };
        let segments: Vec<&String> = segments
            .iter()
            .filter(|s| {
                !current.plugin.is_chat(s)
                    && (current.session.reads(s)
                        || current.plugin.starts_as_move(s)
                        || (acting && current.plugin.is_attempt(s)))
            })
            .collect();
        if segments.is_empty() {
            return Response::new(Verdict::Ignored);
        }
        let mut draft = Draft::of(current);
        let mut narration = Vec::new();
        let mut refusal = None;
        let mut turn_ended = false;
        let mut picture_changed = false;
        let mut canonical = Vec::new();
        for (i, segment) in segments.iter().enumerate() {
            match self.one_move(current, &mut draft, segment, msg) {
                Ok((text, ends_turn, changes_picture, notation)) => {
                    narration.push(text);
                    canonical.push(notation);
                    turn_ended |= ends_turn;
                    picture_changed |= changes_picture;
                }
                Err(reason) => {
                    refusal =
                        Some(self.move_refused(msg, segment, &reason, i + 1 < segments.len()));
                    break;
                }
            }
        }
        if draft.entries.is_empty() {
            self.stage(Write::MarkSeen {
                channel: self.channel.clone(),
                message_id: msg.message_id.clone(),
            });
            return self.refuse(refusal.unwrap_or_default());
        }
        // The next players' presets and absences answer their auction decisions at once.
        let mut proxied = crate::weeks::pace::Proxied::default();
        let now = crate::weeks::pace::time_of(msg);
        let mut meta = current.meta();
        for (i, entry) in draft.entries.iter().enumerate() {
            meta.add(draft.next_seq + i as i64, entry, Some(now));
        }
        self.auto_proxies(current, &mut draft, &meta, now, &mut proxied)
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
        self.save_spent(&game_id, &proxied);
        let Loaded::Running(current) = &self.loaded else {
            return self.no_game();
        };
        let mut text = narration.join("\n");
        if let Some(refusal) = &refusal {
            text.push('\n');
            text.push_str(refusal);
        }
        let author_seat = current.seat_of(&msg.author);
        let ping = current.session.to_act() != before || turn_ended;
        let render = self.render(current, ping, author_seat);
        let body = if turn_ended && self.host.settings.report == Report::Full {
            current.session.status(&render)
        } else {
            current.session.prompt(&render)
        };
        text.push('\n');
        text.push_str(&body);
        // The player pinged back after a while is told what happened since their last move.
        if let (true, crate::game::ToAct::Player { seat, .. }) = (ping, current.session.to_act()) {
            if Some(seat) != author_seat {
                if let Some(recap) = current.ping_recap(seat, now) {
                    text.push('\n');
                    text.push_str(&self.say(recap));
                }
            }
        }
        if current.session.is_finished() {
            text.push('\n');
            text.push_str(&self.reveal_text(current));
        }
        let picture = if picture_changed && self.host.settings.map_after_build {
            self.picture_attachment(current).and_then(Result::ok)
        } else {
            None
        };
        // Something was stored, so the message counts as accepted; a later refused command in
        // it is explained in the text.
        let mut response = Response::new(Verdict::Accepted)
            .say(text)
            .attach(picture)
            .attach(crate::table::prompt::final_chart(current));
        response.moves = canonical;
        response
    }

    /// Applies one bold command to the draft: (narration, ends a turn, changes the picture,
    /// canonical notation); the error is the refusal's reason.
    fn one_move(
        &self,
        current: &Current,
        draft: &mut Draft,
        segment: &str,
        msg: &Incoming,
    ) -> Result<(String, bool, bool, String), Refusal> {
        if draft.session.is_finished() {
            return Err(Refusal::GameOver);
        }
        let Some(seat) = current.seat_of(&msg.author) else {
            let players = current.seat_names();
            return Err(Refusal::NotSeated { players });
        };
        let render = self.render(current, false, None);
        let played = draft
            .session
            .play(seat, segment, &render)
            .map_err(Refusal::Game)?;
        draft.push(Entry::Action {
            seat,
            action: played.action,
        });
        let mut text = played.text;
        if !played.as_written {
            // Say how the text was read, after the first line of the narration.
            let echo = self.say(messages::ReadAs {
                canonical: played.canonical.to_string(),
            });
            text = match text.split_once('\n') {
                Some((first, rest)) => format!("{} {echo}\n{rest}", first.trim_end_matches('.')),
                None => format!("{} {echo}", text.trim_end_matches('.')),
            };
        }
        let mut ends_turn = played.ends_turn;
        if let Some((drawn, ended)) = self.draw_after(current, draft, &msg.message_id, &render)? {
            text.push('\n');
            text.push_str(&drawn);
            ends_turn |= ended;
        }
        Ok((text, ends_turn, played.changes_picture, played.canonical))
    }

    /// Makes the audited draw the game asks for after a move on the draft, if any: its
    /// narration and whether it ended a turn. Under dice spec v2 the draw is keyed by the
    /// message that caused it; a move the table makes itself at a clock's tick has no message,
    /// and its draw is keyed by the game's `!setup` message.
    pub(crate) fn draw_after(
        &self,
        current: &Current,
        draft: &mut Draft,
        message_id: &str,
        render: &crate::game::session::Render<'_>,
    ) -> Result<Option<(String, bool)>, Refusal> {
        let message_id = if is_message_id(message_id) {
            message_id
        } else {
            current
                .stored
                .setup_message
                .as_deref()
                .filter(|m| is_message_id(m))
                .unwrap_or(message_id)
        };
        let (Some(dice), false) = (self.dice(current, message_id), draft.revealed) else {
            return Ok(None);
        };
        // Audited dice answer at once; the index is the draw's position in the history.
        let index = draft.stack.len() as u64;
        let key = match dice.spec {
            Spec::V1 => None,
            Spec::V2 if !is_message_id(message_id) => return Err(Refusal::NoMessageKey),
            Spec::V2 => Some(self.redo_key(current, draft, index, message_id)),
        };
        let dice = DrawSource {
            message_id: key.as_deref().unwrap_or(dice.message_id),
            ..dice
        };
        let Some(drawn) = draft
            .session
            .audited_draw(dice, index, render)
            .map_err(Refusal::Game)?
        else {
            return Ok(None);
        };
        draft.push(Entry::Draw {
            manual: false,
            index: drawn.index,
            draw: drawn.draw,
            key,
        });
        Ok(Some((drawn.text, drawn.ends_turn)))
    }

    /// The message that keys a v2 draw: the draw's own message, except when an undone draw had
    /// the same purpose, index and inputs — then that draw's message, so that taking an action
    /// again after an undo never re-rolls (the draw is the one everybody saw).
    fn redo_key(
        &self,
        current: &Current,
        draft: &Draft,
        history_index: u64,
        message_id: &str,
    ) -> String {
        let own = message_id.to_string();
        let Some(dice) = self.dice(current, message_id) else {
            return own;
        };
        let render = self.render(current, false, None);
        let mut trial = draft.session.box_clone();
        let Ok(Some(drawn)) = trial.audited_draw(dice, history_index, &render) else {
            return own;
        };
        // A record's identity without the message that keyed it.
        let identity = |entry: &Entry| {
            current.session.draw_record(entry).map(|mut r| {
                r.inputs.remove("message_id");
                (r.purpose, r.index, r.inputs)
            })
        };
        let wanted = identity(&Entry::Draw {
            manual: false,
            index: drawn.index,
            draw: drawn.draw,
            key: None,
        });
        if wanted.is_none() {
            return own;
        }
        current
            .log
            .iter()
            .rev()
            .find_map(|(entry, _)| match entry {
                Entry::Draw {
                    manual: false,
                    key: Some(key),
                    ..
                } if identity(entry) == wanted => Some(key.clone()),
                _ => None,
            })
            .unwrap_or(own)
    }
}
