//! What a move needs: the host (texts, settings), the ledger (the game's presets) and the
//! running game, with a draft to play on. A player's move in bold, its audited draw, and every
//! move the table makes for a seat (a preset's bid, an automatic pass, a moderator's `!act`,
//! the automa's choice) go through a [`Mover`]. The moves concern of a table's context
//! ([`crate::table::Cx`]).

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::dice::{is_message_id, DrawSource, Spec};
use crate::game::log::Entry;
use crate::game::session::{ProxySource, Read, Refusal as GameRefusal};
use crate::game::{Decision, PlayerInfo, Proxy, ToAct};
use crate::input::Incoming;
use crate::messages;
use crate::store::Write;
use crate::table::forced_run;
use crate::table::ledger::Ledger;
use crate::table::{Current, Cx, Draft, Host, Refusal};
use crate::weeks::meta::{Meta, ProxyWhy, TableEvent};
use crate::weeks::pace::drop_spent;
use crate::weeks::preset_book::PresetBook;

/// The most moves the table makes for seats in one go (a safety net; an auction ends first).
pub(crate) const MAX_PROXY_MOVES: usize = 100;
/// A move the table made for a seat: its narration, whether it ended a turn, whether it
/// changed the picture.
pub(crate) struct MadeMove {
    /// The name of the seat's player.
    pub(crate) player: String,
    /// The move in notation.
    pub(crate) canonical: String,
    pub(crate) text: String,
    pub(crate) ends_turn: bool,
    pub(crate) changes_picture: bool,
}

/// A made move (if any) and the presets spent.
pub(crate) type ProxyResult = Result<(Option<MadeMove>, Vec<usize>), Refusal>;

/// Moves the table made for seats on a draft.
#[derive(Default)]
pub(crate) struct Proxied {
    /// Their narration.
    pub(crate) texts: Vec<String>,
    /// Whether one ended a turn.
    pub(crate) ends_turn: bool,
    /// Whether one changed the picture.
    pub(crate) changes_picture: bool,
    /// The presets, once loaded.
    pub(crate) book: Option<PresetBook>,
    /// Players whose presets were spent.
    pub(crate) dirty: Vec<String>,
}

impl Proxied {
    /// Whether a move was made.
    pub(crate) fn moved(&self) -> bool {
        !self.texts.is_empty()
    }

    /// Stages the presets that were spent, with the moves that spent them.
    pub(crate) fn stage_spent(&self, ledger: &mut Ledger, game_id: &str) {
        let Some(book) = &self.book else {
            return;
        };
        for player in &self.dirty {
            let list = book.get(player).cloned().unwrap_or_default();
            let json = serde_json::to_string(&list).unwrap_or_default();
            ledger.stage(Write::Presets {
                game_id: game_id.to_string(),
                player_id: player.clone(),
                presets: (!list.is_empty()).then_some(json),
            });
        }
    }

    pub(crate) fn add(&mut self, made: MadeMove) {
        self.texts.push(made.text);
        self.ends_turn |= made.ends_turn;
        self.changes_picture |= made.changes_picture;
    }

    /// A run of forced moves, told briefly when it is long ([`forced_run::narrate`]).
    pub(crate) fn add_forced_run(&mut self, host: &Host, run: Vec<MadeMove>) {
        for made in &run {
            self.ends_turn |= made.ends_turn;
            self.changes_picture |= made.changes_picture;
        }
        let told: Vec<forced_run::Forced<'_>> = run
            .iter()
            .map(|made| forced_run::Forced {
                player: &made.player,
                canonical: &made.canonical,
                text: &made.text,
            })
            .collect();
        self.texts.extend(forced_run::narrate(host, &told));
    }
}

/// What a move needs: the host, the ledger and the running game.
#[derive(Clone, Copy)]
pub(crate) struct Mover<'a> {
    pub(crate) host: &'a Host,
    pub(crate) ledger: &'a Ledger,
    pub(crate) current: &'a Current,
}

impl<'a> Mover<'a> {
    /// The mover of the table `cx`, at its running game `current`.
    pub(crate) fn of(cx: &'a Cx, current: &'a Current) -> Mover<'a> {
        Mover {
            host: &cx.host,
            ledger: &cx.ledger,
            current,
        }
    }

    /// Makes a move for `seat` on the draft — its marker, the move, and the audited draw it
    /// calls for — narrated with the reason. `Ok(None)`: the source has no move now (and the
    /// presets it spent).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn proxy_move(
        &self,
        draft: &mut Draft,
        seat: usize,
        source: ProxySource<'_>,
        why: ProxyWhy,
        by: Option<PlayerInfo>,
        message_id: &str,
    ) -> ProxyResult {
        if draft.session.is_finished() {
            return Err(Refusal::GameOver);
        }
        let player = draft
            .session
            .seated()
            .get(seat)
            .map(|p| p.name.clone())
            .unwrap_or_default();
        let note = self.host.say(messages::ProxyNote {
            why: why.name().to_string(),
            by: by.as_ref().map(|b| b.name.clone()),
            player: player.to_string(),
        });
        let proxy = Proxy {
            automatic: why.automatic(),
            note,
        };
        let render = self.host.view(self.current).render(false, None);
        let outcome = draft
            .session
            .play_proxy(seat, source, &proxy, &render)
            .map_err(Refusal::Game)?;
        let Some(played) = outcome.played else {
            return Ok((None, outcome.spent));
        };
        draft
            .entries
            .push(Entry::Table(TableEvent::Proxy { seat, why, by }));
        draft.push(Entry::Action {
            seat,
            action: played.action,
        });
        let canonical = played.canonical;
        let mut text = played.text;
        let mut ends_turn = played.ends_turn;
        if let Some((drawn, ended)) = self.draw_after(draft, message_id, &render)? {
            text.push('\n');
            text.push_str(&drawn);
            ends_turn |= ended;
        }
        Ok((
            Some(MadeMove {
                player,
                canonical,
                text,
                ends_turn,
                changes_picture: played.changes_picture,
            }),
            outcome.spent,
        ))
    }

    /// The moves the table makes at once on the draft: a move the player to act has no choice
    /// in (unless the game was set up with `forced:ask`); in auctions, a player's presets
    /// answer for them, and an absent player passes automatically (unless a preset answers).
    pub(crate) async fn auto_proxies(
        &self,
        draft: &mut Draft,
        meta: &Meta,
        now: DateTime<Utc>,
        done: &mut Proxied,
    ) {
        self.answer_auctions(draft, meta, now, done).await;
        // Presets that can never answer again (their share was sold) are dropped.
        if let Some(book) = done.book.as_mut() {
            for (seat, player) in draft.session.seated().iter().enumerate() {
                let Some(list) = book.get_mut(&player.id) else {
                    continue;
                };
                let orders: Vec<Value> = list.iter().map(|p| p.order.clone()).collect();
                let spent = draft.session.spent_presets(seat, &orders);
                if !spent.is_empty() {
                    drop_spent(list, &spent);
                    done.dirty.push(player.id.clone());
                }
            }
        }
    }

    /// The moves the table makes at once for the players to act in turn: forced moves, and in
    /// auctions presets and absences; a run of forced moves is told briefly
    /// ([`crate::table::forced_run`]).
    pub(crate) async fn answer_auctions(
        &self,
        draft: &mut Draft,
        meta: &Meta,
        now: DateTime<Utc>,
        done: &mut Proxied,
    ) {
        let mut run = Vec::new();
        for _ in 0..MAX_PROXY_MOVES {
            let ToAct::Player { seat, decision } = draft.session.to_act() else {
                break;
            };
            if let Some(made) = self.forced(draft, seat) {
                run.push(made);
                continue;
            }
            done.add_forced_run(self.host, std::mem::take(&mut run));
            if decision != Decision::Auction {
                break;
            }
            match self.auction_answer(draft, meta, now, done, seat).await {
                Some(made) => done.add(made),
                None => break,
            }
        }
        done.add_forced_run(self.host, run);
    }

    /// The move a seat's presets make in an auction, or the automatic pass of an absent player
    /// (unless a preset answers); `None` when the table makes none.
    async fn auction_answer(
        &self,
        draft: &mut Draft,
        meta: &Meta,
        now: DateTime<Utc>,
        done: &mut Proxied,
        seat: usize,
    ) -> Option<MadeMove> {
        let player = draft.session.seated().get(seat).cloned()?;
        if done.book.is_none() {
            done.book = Some(self.ledger.preset_book(&self.current.row.id).await);
        }
        let orders: Vec<Value> = done
            .book
            .as_ref()
            .and_then(|b| b.get(&player.id))
            .map(|list| list.iter().map(|p| p.order.clone()).collect())
            .unwrap_or_default();
        let mut made = None;
        if !orders.is_empty() {
            match self.proxy_move(
                draft,
                seat,
                ProxySource::Presets(&orders),
                ProxyWhy::Preset,
                None,
                "",
            ) {
                Ok((played, spent)) => {
                    if !spent.is_empty() {
                        if let Some(list) = done.book.as_mut().and_then(|b| b.get_mut(&player.id)) {
                            drop_spent(list, &spent);
                        }
                        done.dirty.push(player.id.clone());
                    }
                    made = played;
                }
                Err(reason) => {
                    tracing::warn!(game = %self.current.row.id, seat, ?reason, "a preset's move was refused");
                }
            }
        }
        // An absence with cover leaves the decision to the automa.
        if made.is_none() && meta.away(&player.id, now).is_some_and(|a| !a.cover) {
            match self.proxy_move(draft, seat, ProxySource::Auto, ProxyWhy::Away, None, "") {
                Ok((played, _)) => made = played,
                Err(reason) => {
                    tracing::warn!(game = %self.current.row.id, seat, ?reason, "an automatic pass was refused");
                }
            }
        }
        made
    }

    /// The move `seat`, to act, has no choice in, made for it on the draft
    /// ([`ProxyWhy::Forced`]); `None` when it has a choice or the game asks every move
    /// (`forced:ask`).
    pub(crate) fn forced(&self, draft: &mut Draft, seat: usize) -> Option<MadeMove> {
        if self.current.stored.ask_forced {
            return None;
        }
        match self.proxy_move(draft, seat, ProxySource::Forced, ProxyWhy::Forced, None, "") {
            Ok((made, _)) => made,
            Err(reason) => {
                tracing::warn!(game = %self.current.row.id, seat, ?reason, "a forced move was refused");
                None
            }
        }
    }

    /// Applies one bold command to the draft: (narration, ends a turn, changes the picture,
    /// canonical notation); the error is the refusal's reason. `read`: the segment as read in
    /// the running game's position, played as it is while the draft is still there (a segment
    /// after a move is read again in the position the move left).
    pub(crate) fn one_move(
        &self,
        draft: &mut Draft,
        segment: &str,
        read: Result<Read, GameRefusal>,
        msg: &Incoming,
    ) -> Result<(String, bool, bool, String), Refusal> {
        if draft.session.is_finished() {
            return Err(Refusal::GameOver);
        }
        let Some(seat) = self.current.seat_of(&msg.author) else {
            let players = self.current.seat_names();
            return Err(Refusal::NotSeated { players });
        };
        let render = self.host.view(self.current).render(false, None);
        // A segment after a move is read again in the position the move left.
        let read = if draft.entries.is_empty() {
            read
        } else {
            draft.session.read(segment)
        };
        let read = match (read, draft.session.to_act()) {
            (Ok(read), _) => read,
            // Someone not to act wrote no move that reads: whose move it is comes first, not the
            // moves nearest to it for the player to act.
            (
                Err(_),
                ToAct::Player {
                    seat: to_act,
                    decision,
                },
            ) if to_act != seat => {
                let player = draft.session.seated().get(to_act).map(|p| p.name.clone());
                return Err(Refusal::NotYourTurn {
                    player: player.unwrap_or_default(),
                    auction: decision == Decision::Auction,
                });
            }
            (Err(refusal), _) => return Err(Refusal::Game(refusal)),
        };
        let played = draft
            .session
            .play_read(seat, read, &render)
            .map_err(Refusal::Game)?;
        draft.push(Entry::Action {
            seat,
            action: played.action,
        });
        let mut text = played.text;
        if !played.as_written {
            // Say how the text was read, after the first line of the narration.
            let echo = self.host.say(messages::ReadAs {
                canonical: played.canonical.to_string(),
            });
            text = match text.split_once('\n') {
                Some((first, rest)) => format!("{} {echo}\n{rest}", first.trim_end_matches('.')),
                None => format!("{} {echo}", text.trim_end_matches('.')),
            };
        }
        let mut ends_turn = played.ends_turn;
        if let Some((drawn, ended)) = self.draw_after(draft, &msg.message_id, &render)? {
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
        draft: &mut Draft,
        message_id: &str,
        render: &crate::game::session::Render<'_>,
    ) -> Result<Option<(String, bool)>, Refusal> {
        let message_id = if is_message_id(message_id) {
            message_id
        } else {
            self.current
                .stored
                .setup_message
                .as_deref()
                .filter(|m| is_message_id(m))
                .unwrap_or(message_id)
        };
        let (Some(dice), false) = (
            self.host.view(self.current).dice(message_id),
            draft.revealed,
        ) else {
            return Ok(None);
        };
        // Audited dice answer at once; the index is the draw's position in the history.
        let index = draft.stack.len() as u64;
        let key = match dice.spec {
            // v3: the draw depends on its position and the game's client seed only, so a move
            // posted again after a lost answer draws the same (docs/DICE.md §3.3).
            Spec::V1 | Spec::V3 => None,
            Spec::V2 if !is_message_id(message_id) => return Err(Refusal::NoMessageKey),
            Spec::V2 => Some(self.redo_key(draft, index, message_id)),
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
    pub(crate) fn redo_key(&self, draft: &Draft, history_index: u64, message_id: &str) -> String {
        let own = message_id.to_string();
        let Some(dice) = self.host.view(self.current).dice(message_id) else {
            return own;
        };
        let render = self.host.view(self.current).render(false, None);
        let mut trial = draft.session.box_clone();
        let Ok(Some(drawn)) = trial.audited_draw(dice, history_index, &render) else {
            return own;
        };
        // A record's identity without the message that keyed it.
        let identity = |entry: &Entry| {
            self.current.session.draw_record(entry).map(|mut r| {
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
        self.current
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

    /// A refusal's reason in words.
    pub(crate) fn refusal_text(&self, refusal: &Refusal) -> String {
        match refusal {
            Refusal::GameOver => self.host.say(messages::GameOver {
                ruling: self.host.table_ruling(Some(&self.current.row.kind)),
            }),
            Refusal::NotSeated { players } => self.host.say(messages::NotSeated {
                players: players.clone(),
                ruling: self.host.table_ruling(Some(&self.current.row.kind)),
            }),
            Refusal::NotYourTurn { player, auction } => self.host.say(messages::NotYourTurn {
                player: player.clone(),
                auction: *auction,
                ruling: self.host.table_ruling(Some(&self.current.row.kind)),
            }),
            Refusal::NoMessageKey => self.host.say(messages::NoMessageKey {}),
            Refusal::Game(refusal) => {
                refusal.render(&self.host.view(self.current).render(false, None))
            }
        }
    }

    /// A refused segment of the author's message (`more`: commands after it were skipped).
    pub(crate) fn move_refused(
        &self,
        msg: &Incoming,
        segment: &str,
        refusal: &Refusal,
        more: bool,
    ) -> String {
        self.host.say(messages::MoveRefused {
            author: msg.author.name.clone(),
            segment: segment.to_string(),
            reason: self.refusal_text(refusal),
            more,
        })
    }
}
