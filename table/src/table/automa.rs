//! The automa's turn at a table: its choice made on tokio's blocking pool, played for its seat
//! like any move the table makes for a seat ([`crate::weeks::automa`] says when it may move).

use chrono::{DateTime, Utc};

use crate::game::automa::{automa_seed, AutomaLevel};
use crate::game::events::ProxyWhy;
use crate::game::log::Entry;
use crate::game::session::AutomaPick;
use crate::game::session::ProxySource;
use crate::game::ToAct;
use crate::input::{Author, Incoming, Response, Verdict};
use crate::messages;
use crate::table::mover::{Mover, Proxied};
use crate::table::{Current, Cx, Draft, Loaded};
use crate::weeks::automa::held;

impl Current {
    /// The seat of the automa to act at `now`, if it may move: a game being played whose game
    /// has an automa, an automa's seat to act — or a player's seat the automa covers (handed
    /// over after timeouts in a row, or away with `cover:automa`) — and no `!undo` since the
    /// last move.
    pub(crate) fn automa_to_act(&self, now: DateTime<Utc>) -> Option<usize> {
        if self.session.is_finished() || !self.session.has_automa() {
            return None;
        }
        let ToAct::Player { seat, .. } = self.session.to_act() else {
            return None;
        };
        let player = self.session.seated().get(seat)?;
        let automa = player.is_automa() || self.covered_seat(seat, now);
        (automa && !held(&self.log)).then_some(seat)
    }

    /// Whether the automa covers a player's seat at `now`.
    fn covered_seat(&self, seat: usize, now: DateTime<Utc>) -> bool {
        let Some(player) = self.session.seated().get(seat) else {
            return false;
        };
        !player.is_automa() && self.meta().covered(seat, &player.id, now).is_some()
    }

    /// The automa's choice (at `level`) for `seat`, decided on the blocking pool.
    pub(crate) async fn automa_pick(&self, seat: usize, level: AutomaLevel) -> Option<AutomaPick> {
        let game_id = self.row.id.clone();
        let seed = automa_seed(&game_id, self.log.len() as u64);
        let position = self.session.box_clone();
        let decided =
            tokio::task::spawn_blocking(move || position.automa_choose(seat, level, seed)).await;
        match decided {
            Ok(Some(pick)) => Some(pick),
            Ok(None) => {
                tracing::warn!(game = %game_id, seat, "the automa found no move");
                None
            }
            Err(error) => {
                tracing::error!(game = %game_id, seat, %error, "the automa's decision failed");
                None
            }
        }
    }
}

impl Cx {
    /// Makes one move of the automa to act, if one is: decided on the blocking pool, stored,
    /// and posted (`None`: no automa is to act, or it found no move).
    pub(crate) async fn automa_step(&mut self, now: DateTime<Utc>) -> Option<Response> {
        let current = self.loaded.playing()?;
        let seat = current.automa_to_act(now)?;
        let covering = current.covered_seat(seat, now);
        let pick = current.automa_pick(seat, self.host.settings.automa).await?;
        let game_id = current.row.id.clone();
        let player = current.session.seated().get(seat)?.name.clone();
        let render = self.host.view(current).render(false, None);
        let reason = current.session.reason(&pick.reason, &render);
        let before = current.session.to_act();
        let msg = automa_message(current, now);
        let mut draft = Draft::of(current);
        let made = match Mover::of(self, current).proxy_move(
            &mut draft,
            seat,
            ProxySource::Chosen(pick.action),
            if covering {
                ProxyWhy::Cover
            } else {
                ProxyWhy::Automa
            },
            None,
            &msg.message_id,
        ) {
            Ok((Some(made), _)) => made,
            Ok((None, _)) => return None,
            Err(refusal) => {
                tracing::error!(game = %game_id, seat, ?refusal, "the automa's move was refused");
                return None;
            }
        };
        let mut done = Proxied::default();
        done.add(made);
        // The next players' presets and absences answer their auction decisions at once.
        let mut meta = current.meta();
        for (i, entry) in draft.entries.iter().enumerate() {
            meta.add(draft.next_seq + i as i64, entry, Some(now));
        }
        Mover::of(self, current)
            .auto_proxies(&mut draft, &meta, now, &mut done)
            .await;
        if draft.session.is_finished() && current.audited() && !draft.revealed {
            draft.entries.push(Entry::Reveal);
            draft.revealed = true;
        }
        self.commit(draft, &msg);
        done.stage_spent(&mut self.ledger, &game_id);
        let head = self.say(messages::AutomaMove {
            covering: covering.then(|| player.clone()),
            player,
            notation: pick.notation,
            reason: (!reason.trim().is_empty()).then(|| reason.trim().to_string()),
        });
        // The full report after a turn, unless the bot posts compact reports.
        let full = done.ends_turn && self.host.settings.report == crate::table::Report::Full;
        let body = crate::table::view::after_moves(
            &self.host,
            &self.loaded,
            std::mem::take(&mut done.texts),
            before,
            full,
        );
        // The automa's own post names its seat already: no seat notice under it (the notice
        // stays under the players' reports and `!status`).
        let body = match &self.loaded {
            Loaded::Running(current) => without_seat_notice(&self.host, current, &body),
            _ => body,
        };
        let picture = match (&self.loaded, done.changes_picture) {
            (Loaded::Running(current), true) if self.host.settings.map_after_build => self
                .host
                .view(current)
                .picture_attachment()
                .and_then(Result::ok),
            _ => None,
        };
        // The automa's last move ends the game: the net-worth chart comes with the final
        // report, as after a player's.
        let chart = match &self.loaded {
            Loaded::Running(current) => crate::table::prompt::final_chart(current, &self.host),
            _ => None,
        };
        Some(
            Response::new(Verdict::Accepted)
                .say(format!("{}\n{body}", head.trim_end()))
                .attach(picture)
                .attach(chart),
        )
    }
}

/// `text` without the line that lists the automa seats.
fn without_seat_notice(host: &crate::table::Host, current: &Current, text: &str) -> String {
    let mut names: Vec<String> = current
        .session
        .seated()
        .iter()
        .filter(|p| p.is_automa())
        .map(|p| p.name.clone())
        .collect();
    names.sort_by_key(|name| (name.len(), name.clone()));
    let notice = host.say(messages::AutomaSeats { names });
    let notice = notice.trim_end();
    if notice.is_empty() {
        return text.to_string();
    }
    text.lines()
        .filter(|line| *line != notice)
        .collect::<Vec<_>>()
        .join("\n")
}

/// The message an automa's move is stored under (`automa:<game>:<position>`).
fn automa_message(current: &Current, now: DateTime<Utc>) -> Incoming {
    Incoming {
        message_id: format!("automa:{}:{}", current.row.id, current.log.len()),
        author: Author {
            id: "gaugebot".into(),
            name: "gaugebot".into(),
            is_moderator: false,
            mention: "@gaugebot".into(),
        },
        text: "(the automa)".into(),
        at: chrono::SubsecRound::trunc_subsecs(now, 0),
        mentions: Vec::new(),
    }
}
