//! Automa seats at the table: when the seat to act is held by an automa, the table makes its
//! move as a move made for the seat — a `proxy` marker with [`ProxyWhy::Automa`] before the
//! move, the audited draw it calls for, the next players' presets and absences, one commit —
//! and posts it as the forum record reads (its name and move in bold, one short line of
//! reason, then the report).
//!
//! The decision runs on tokio's blocking pool (`spawn_blocking`), never on an async worker,
//! while the table is locked: one decision per table at a time, and no other table waits. It
//! is seeded from public data only (the game id and the log position, [`automa_seed`]), so a
//! restart while the automa thinks loses nothing: the same position gives the same move when
//! the table is next asked ([`crate::Tables::automa`], or the tick).
//!
//! After a moderator's `!undo` the automa waits until a human (or a moderator's `!act`, a
//! manual draw or a substitution) has moved again ([`held`]).

use chrono::{DateTime, Utc};

use crate::game::automa::automa_seed;
use crate::game::session::ProxySource;
use crate::game::ToAct;
use crate::input::{Author, Incoming, Response, Verdict};
use crate::messages;
use crate::record::log::Entry;
use crate::store::LogRow;
use crate::table::mover::Mover;
use crate::table::{Current, Cx, Draft, Loaded};
use crate::weeks::duration::store_time;
use crate::weeks::events::{ProxyWhy, TableEvent};
use crate::weeks::pace::Proxied;

/// Whether the automa must wait: the last entry that moved the game on is a moderator's
/// `!undo` (nothing has moved since but table entries other than a substitution).
pub(crate) fn held(log: &[(Entry, LogRow)]) -> bool {
    for (entry, _) in log.iter().rev() {
        match entry {
            Entry::Undo => return true,
            Entry::Action { .. } | Entry::Draw { .. } => return false,
            Entry::Table(TableEvent::Sub { .. }) => return false,
            Entry::Reveal | Entry::Table(_) => {}
        }
    }
    false
}

/// Whether the move stored at log position `seq` was the automa's (the entry before it is a
/// `proxy` marker with [`ProxyWhy::Automa`]).
pub(crate) fn made_by_automa(log: &[(Entry, LogRow)], seq: i64) -> bool {
    log.iter()
        .position(|(_, row)| row.seq == seq)
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| log.get(i))
        .is_some_and(|(entry, _)| {
            matches!(
                entry,
                Entry::Table(TableEvent::Proxy {
                    why: ProxyWhy::Automa,
                    ..
                })
            )
        })
}

impl Cx {
    /// The seat of the automa to act now, if it may move: a game being played whose game has
    /// an automa, an automa's seat to act, and no `!undo` since the last move.
    pub(crate) fn automa_to_act(&self) -> Option<usize> {
        let current = self.loaded.playing()?;
        if !current.session.has_automa() {
            return None;
        }
        let ToAct::Player { seat, .. } = current.session.to_act() else {
            return None;
        };
        let automa = current.session.seated().get(seat)?.is_automa();
        (automa && !held(&current.log)).then_some(seat)
    }

    /// Makes one move of the automa to act, if one is: decided on the blocking pool, stored,
    /// and posted (`None`: no automa is to act, or it found no move).
    pub(crate) async fn automa_step(&mut self, now: DateTime<Utc>) -> Option<Response> {
        let seat = self.automa_to_act()?;
        let current = self.loaded.playing()?;
        let game_id = current.row.id.clone();
        let seed = automa_seed(&game_id, current.log.len() as u64);
        let level = self.host.settings.automa;
        let position = current.session.box_clone();
        let decided =
            tokio::task::spawn_blocking(move || position.automa_choose(seat, level, seed)).await;
        let pick = match decided {
            Ok(Some(pick)) => pick,
            Ok(None) => {
                tracing::warn!(game = %game_id, seat, "the automa found no move");
                return None;
            }
            Err(error) => {
                tracing::error!(game = %game_id, seat, %error, "the automa's decision failed");
                return None;
            }
        };
        let current = self.loaded.playing()?;
        let player = current.session.seated().get(seat)?.name.clone();
        let render = self.host.view(current).render(false, None);
        let reason = current.session.reason(&pick.reason, &render);
        let before = current.session.to_act();
        let msg = automa_message(current, now);
        let mut draft = Draft::of(current);
        let made = match Mover::of(self, current).proxy_move(
            &mut draft,
            seat,
            ProxySource::Stored(&pick.action),
            ProxyWhy::Automa,
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
        let picture = match (&self.loaded, done.changes_picture) {
            (Loaded::Running(current), true) if self.host.settings.map_after_build => self
                .host
                .view(current)
                .picture_attachment()
                .and_then(Result::ok),
            _ => None,
        };
        Some(
            Response::new(Verdict::Accepted)
                .say(format!("{}\n{body}", head.trim_end()))
                .attach(picture),
        )
    }
}

/// The message an automa's move is stored under (`automa:<game>:<position>`).
fn automa_message(current: &Current, now: DateTime<Utc>) -> Incoming {
    Incoming {
        message_id: format!("automa:{}:{}", current.row.id, current.log.len()),
        author: Author {
            id: "gaugebot".into(),
            name: "gaugebot".into(),
            is_moderator: false,
        },
        text: "(the automa)".into(),
        at: store_time(now),
        mentions: Vec::new(),
    }
}
