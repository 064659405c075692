//! What rendering the running game needs: the host's templates and settings, and the game.
//! The texts concern of a table's context ([`crate::table::Cx`]): reports, the dice of a draw,
//! the picture, the revealed seed.

use crate::dice::{DrawSource, Spec};
use crate::game::session::Render;
use crate::game::ToAct;
use crate::input::Attachment;
use crate::messages;
use crate::table::prompt::PictureFailed;
use crate::table::{Current, Host, Loaded, Report};

/// The running game as the host renders it.
#[derive(Clone, Copy)]
pub(crate) struct View<'a> {
    pub(crate) host: &'a Host,
    pub(crate) current: &'a Current,
}

impl Host {
    /// The running game `current`, to render.
    pub(crate) fn view<'a>(&'a self, current: &'a Current) -> View<'a> {
        View {
            host: self,
            current,
        }
    }
}

impl<'a> View<'a> {
    /// How texts of the running game are rendered.
    pub(crate) fn render(&self, ping: bool, skip: Option<usize>) -> Render<'a> {
        let (host, current) = (self.host, self.current);
        Render {
            templates: &host.templates,
            prefix: &host.settings.prefix,
            game_id: &current.row.id,
            moderator: &host.settings.moderator_name,
            draw_source: current.audited().then_some("audited dice"),
            ping,
            skip,
            head: Some((current.head.seq(), current.head.short())),
            page: current.page.as_deref(),
        }
    }

    /// Whether the player to act may be pinged at `now`: not while they are away or the
    /// automa covers their seat.
    pub(crate) fn may_ping_to_act(&self, now: chrono::DateTime<chrono::Utc>) -> bool {
        let current = self.current;
        let ToAct::Player { seat, .. } = current.session.to_act() else {
            return true;
        };
        let Some(player) = current.session.seated().get(seat) else {
            return true;
        };
        let meta = current.meta();
        meta.away(&player.id, now).is_none() && meta.covered(seat, &player.id, now).is_none()
    }

    /// The running game's status report as anyone sees it, rendered once per position:
    /// `!status` and the pinned status share it; every commit clears it.
    pub(crate) fn report(&self) -> &'a str {
        let current = self.current;
        current
            .report
            .get_or_init(|| current.session.status(&self.render(false, None)))
    }

    /// The dice of the running game for a draw triggered by `message_id`, while they are
    /// audited.
    pub(crate) fn dice(&self, message_id: &'a str) -> Option<DrawSource<'a>> {
        let current = self.current;
        match (&current.seed, current.audited()) {
            (Some(seed), true) => Some(DrawSource {
                seed,
                game_id: &current.row.id,
                spec: current.stored.spec,
                // v3 keys every draw by the game's client seed (docs/DICE.md §3.3).
                message_id: match current.stored.spec {
                    Spec::V3 => current.stored.v3_client_seed().unwrap_or(""),
                    Spec::V1 | Spec::V2 => message_id,
                },
            }),
            _ => None,
        }
    }

    /// What follows a move that ended a turn, an undo or a draw: the full report, or with
    /// [`Report::Compact`] only who acts next.
    /// Once the game is over, who held the seats that changed hands follows it.
    pub(crate) fn after_turn(&self, render: &Render<'_>) -> String {
        let text = match self.host.settings.report {
            Report::Full => self.current.session.status(render),
            Report::Compact => self.current.session.prompt(render),
        };
        let seats = self.seats_held();
        if self.current.session.is_finished() && !seats.is_empty() {
            format!(
                "{}\n{}",
                text.trim_end(),
                self.host.say(messages::SeatsHeld { seats })
            )
        } else {
            text
        }
    }

    /// Narration, then the prompt or the report, as after a player's move (`before`: who was
    /// to act before the moves).
    pub(crate) fn after_moves(
        &self,
        texts: Vec<String>,
        before: ToAct,
        turn_ended: bool,
    ) -> String {
        let current = self.current;
        // The time of the moves just stored.
        let now = current
            .log
            .last()
            .map_or_else(chrono::Utc::now, |(_, row)| row.at);
        let ping = (current.session.to_act() != before || turn_ended) && self.may_ping_to_act(now);
        let render = self.render(ping, None);
        let mut text = texts.join("\n");
        if !text.is_empty() {
            text.push('\n');
        }
        text.push_str(&if turn_ended {
            current.session.status(&render)
        } else {
            current.session.prompt(&render)
        });
        if current.session.is_finished() {
            text.push('\n');
            text.push_str(&self.ending_notes());
        }
        text
    }

    /// The picture of the running game as an attachment; `None` if the game has none.
    pub(crate) fn picture_attachment(&self) -> Option<Result<Attachment, PictureFailed>> {
        let current = self.current;
        self.picture_named(format!("{}-{}.png", current.row.id, current.log.len()))
    }

    /// The picture of a past position (the game after record entry `entry`), named apart
    /// from the picture of the position now: `console-1-after-19.png`.
    pub(crate) fn picture_attachment_after(
        &self,
        entry: i64,
    ) -> Option<Result<Attachment, PictureFailed>> {
        self.picture_named(format!("{}-after-{entry}.png", self.current.row.id))
    }

    /// The picture as an attachment named `filename`, with its alt text.
    fn picture_named(&self, filename: String) -> Option<Result<Attachment, PictureFailed>> {
        let current = self.current;
        let picture = current.session.picture()?;
        Some(
            picture
                .map_err(|e| PictureFailed(e.to_string()))
                .map(|bytes| Attachment {
                    filename,
                    bytes,
                    alt: self.host.say(messages::Alt {
                        kind: "map".into(),
                        title: current.session.info().title.to_string(),
                        game_id: current.row.id.clone(),
                        entry: current.log.last().map(|(_, row)| row.seq),
                        detail: vec![current.session.picture_alt(&self.render(false, None))],
                    }),
                }),
        )
    }

    /// The seed and how to check the draws, once revealed.
    pub(crate) fn reveal_text(&self) -> String {
        let current = self.current;
        match (&current.seed, current.row.revealed) {
            (Some(seed), true) => self.host.say(messages::Revealed {
                seed: seed.to_hex().to_string(),
                commitment: seed.commitment().to_string(),
                file: format!("audit-{}.json", current.row.id),
            }),
            _ => String::new(),
        }
    }
}

/// Narration, then the prompt or the report, as after a player's move, at the table's loaded
/// game (only the narration without a running game).
pub(crate) fn after_moves(
    host: &Host,
    loaded: &Loaded,
    texts: Vec<String>,
    before: ToAct,
    turn_ended: bool,
) -> String {
    match loaded.running() {
        Some(current) => host.view(current).after_moves(texts, before, turn_ended),
        None => texts.join("\n"),
    }
}
