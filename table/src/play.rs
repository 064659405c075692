//! Moves in bold: each segment is read and applied by the game on a draft; audited draws answer
//! at once; everything is stored in one transaction before the reply.

use minijinja::context;

use crate::input::{Incoming, Response, Verdict};
use crate::log::Entry;
use crate::table::{Current, Draft, Loaded, Table};

impl Table {
    /// Handles the bold segments of a message.
    pub(crate) async fn moves(&mut self, segments: &[String], msg: &Incoming) -> Response {
        if !self.is_playing() {
            // No game being played: **sign up** while signups are open.
            if let Some(response) = self.signup_bold(segments, msg).await {
                return response;
            }
        }
        let Loaded::Running(current) = &self.loaded else {
            return self.no_game();
        };
        // Bold text that does not read as a command is chat: no reply at all.
        let segments: Vec<&String> = segments
            .iter()
            .filter(|s| !current.session.is_chat(s))
            .collect();
        if segments.is_empty() {
            return Response::new(Verdict::Ignored);
        }
        let mut draft = Draft::of(current);
        let mut narration = Vec::new();
        let mut refusal = None;
        let mut turn_ended = false;
        let mut picture_changed = false;
        for (i, segment) in segments.iter().enumerate() {
            match self.one_move(current, &mut draft, segment, msg) {
                Ok((text, ends_turn, changes_picture)) => {
                    narration.push(text);
                    turn_ended |= ends_turn;
                    picture_changed |= changes_picture;
                }
                Err(reason) => {
                    refusal = Some(self.message(
                        "move_refused",
                        context! {
                            author => msg.author.name, segment, reason,
                            more => i + 1 < segments.len(),
                        },
                    ));
                    break;
                }
            }
        }
        if draft.entries.is_empty() {
            if let Err(e) = self.store.mark_seen(&self.channel, &msg.message_id).await {
                return self.storage_refusal(&e);
            }
            return self.refuse(refusal.unwrap_or_default());
        }
        // The next players' presets and absences answer their auction decisions at once.
        let mut proxied = crate::pace::Proxied::default();
        let now = crate::pace::time_of(msg);
        let mut meta = Self::meta_of(current);
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
        if let Err(e) = self.commit(draft, msg).await {
            return self.storage_refusal(&e);
        }
        self.save_spent(&game_id, &proxied).await;
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
        let body = if turn_ended {
            current.session.status(&render)
        } else {
            current.session.prompt(&render)
        };
        text.push('\n');
        text.push_str(&body);
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
        Response::new(Verdict::Accepted).say(text).attach(picture)
    }

    /// Applies one bold command to the draft: (narration, ends a turn, changes the picture);
    /// the error is the refusal's reason.
    fn one_move(
        &self,
        current: &Current,
        draft: &mut Draft,
        segment: &str,
        msg: &Incoming,
    ) -> Result<(String, bool, bool), String> {
        if draft.session.is_finished() {
            return Err(self.message("game_over", context! {}));
        }
        let Some(seat) = current.seat_of(&msg.author) else {
            let players: Vec<&str> = current
                .session
                .seated()
                .iter()
                .map(|p| p.name.as_str())
                .collect();
            return Err(self.message("not_seated", context! { players }));
        };
        let render = self.render(current, false, None);
        let played = draft.session.play(seat, segment, &render)?;
        draft.push(Entry::Action {
            seat,
            action: played.action,
        });
        let mut text = played.text;
        let mut ends_turn = played.ends_turn;
        if let (Some(dice), false) = (self.dice(current), draft.revealed) {
            // Audited dice answer at once; the index is the draw's position in the history.
            let index = draft.stack.len() as u64;
            if let Some(drawn) = draft.session.audited_draw(dice, index, &render)? {
                draft.push(Entry::Draw {
                    manual: false,
                    index: drawn.index,
                    draw: drawn.draw,
                });
                text.push('\n');
                text.push_str(&drawn.text);
                ends_turn |= drawn.ends_turn;
            }
        }
        Ok((text, ends_turn, played.changes_picture))
    }
}
