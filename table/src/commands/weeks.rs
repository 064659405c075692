//! The `!`-commands of play over weeks that change a game's course: `!clock`, `!away`,
//! `!back`, `!sub`, `!act`, and `!waiting` in a game's channel. Their entries are stored like
//! moves; the clocks and reminders they set are driven by the tick (`pace.rs`).

use crate::game::session::ProxySource;
use crate::input::{Author, Incoming, Response, Verdict};
use crate::record::log::Entry;
use crate::table::extract::{extract, Commands};
use crate::table::{Current, Draft, Loaded, Table};
use crate::weeks::duration::{format_duration, full, parse_duration, relative, store_time};
use crate::weeks::meta::{Meta, ProxyWhy, ReminderKind, TableEvent};
use minijinja::context;
use serde_json::Value;

use crate::weeks::pace::*;

impl Table {
    pub(crate) async fn clock(&mut self, args: &str, msg: &Incoming) -> Response {
        let Some(current) = self.playing() else {
            return self.not_playing();
        };
        let meta = Self::meta_of(current);
        let now = time_of(msg);
        if args.trim().is_empty() {
            let decision = meta
                .clock_of(current.session.to_act(), current.session.seated(), now)
                .map(|c| decision_data(&c, now));
            return Response::new(Verdict::Answered).say(self.pace(
                "clock_show",
                context! { clock => clock_data(&meta.clock), decision, game_id => current.row.id },
            ));
        }
        let mut settings = meta.clock;
        for token in args.split_whitespace() {
            let Some((key, value)) = token.split_once(':') else {
                return self.refuse(self.pace("clock_usage", context! { token }));
            };
            match clock_token(&mut settings, key, value) {
                Ok(true) => {}
                Ok(false) => return self.refuse(self.pace("clock_usage", context! { token })),
                Err(error) => {
                    return self.refuse(
                        self.pace("bad_duration", context! { error => duration_error(&error) }),
                    )
                }
            }
        }
        let mut draft = Draft::of(current);
        draft.entries.push(Entry::Table(TableEvent::Clock {
            settings,
            by: person(&msg.author),
        }));
        if let Err(e) = self.commit(draft, msg).await {
            return self.storage_refusal(&e);
        }
        let Some(current) = self.playing() else {
            return self.not_playing();
        };
        let meta = Self::meta_of(current);
        let decision = meta
            .clock_of(current.session.to_act(), current.session.seated(), now)
            .map(|c| decision_data(&c, now));
        Response::new(Verdict::Accepted).say(self.pace(
            "clock_set",
            context! { clock => clock_data(&settings), decision, game_id => current.row.id },
        ))
    }

    pub(crate) async fn away(&mut self, args: &str, msg: &Incoming) -> Response {
        let Some(current) = self.playing() else {
            return self.not_playing();
        };
        let Some(seat) = current.seat_of(&msg.author) else {
            return self.refuse(self.not_a_player(current, &msg.author.name));
        };
        let args = args.trim();
        let (length, reason) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
        if length.is_empty() {
            return self.refuse(self.pace("away_usage", context! {}));
        }
        let length = match parse_duration(length) {
            Ok(d) => d,
            Err(error) => {
                return self.refuse(
                    self.pace("bad_duration", context! { error => duration_error(&error) }),
                )
            }
        };
        let reason: String = reason.trim().chars().take(MAX_REASON_CHARS).collect();
        let now = time_of(msg);
        let mut meta = Self::meta_of(current);
        let player = current.session.seated()[seat].clone();
        let cap = meta.clock.away_cap();
        let left = (cap - meta.pause_used(&player.id, now)).max(chrono::Duration::zero());
        let until = now + length;
        let pause_until = now + length.min(left);
        let mut draft = Draft::of(current);
        let entry = Entry::Table(TableEvent::Away {
            player: player.id.clone(),
            name: player.name.clone(),
            until: store_time(until),
            pause_until: store_time(pause_until),
            reason: (!reason.is_empty()).then(|| reason.clone()),
        });
        meta.add(draft.next_seq, &entry, Some(now));
        draft.entries.push(entry);
        let before = current.session.to_act();
        let mut done = Proxied::default();
        self.auto_proxies(current, &mut draft, &meta, now, &mut done)
            .await;
        let game_id = current.row.id.clone();
        let notice = self.pace(
            "away_set",
            context! {
                player => player.name, until => full(until), until_rel => relative(until),
                reason => (!reason.is_empty()).then_some(reason),
                paused_until => full(pause_until),
                capped => pause_until < until,
                left => format_duration((left - length).max(chrono::Duration::zero())),
            },
        );
        if let Err(e) = self.commit(draft, msg).await {
            return self.storage_refusal(&e);
        }
        self.save_spent(&game_id, &done).await;
        let mut text = notice;
        if done.moved() {
            text.push('\n');
            let turn_ended = done.ends_turn;
            text.push_str(&self.after_moves(std::mem::take(&mut done.texts), before, turn_ended));
        }
        Response::new(Verdict::Accepted).say(text)
    }

    pub(crate) async fn back(&mut self, msg: &Incoming) -> Response {
        let Some(current) = self.playing() else {
            return self.not_playing();
        };
        let Some(seat) = current.seat_of(&msg.author) else {
            return self.refuse(self.not_a_player(current, &msg.author.name));
        };
        let now = time_of(msg);
        let meta = Self::meta_of(current);
        let player = current.session.seated()[seat].clone();
        if meta.away(&player.id, now).is_none() {
            return self.refuse(self.pace("not_away", context! { player => player.name }));
        }
        let mut draft = Draft::of(current);
        draft.entries.push(Entry::Table(TableEvent::Back {
            player: player.id.clone(),
            name: player.name.clone(),
        }));
        if let Err(e) = self.commit(draft, msg).await {
            return self.storage_refusal(&e);
        }
        let Some(current) = self.playing() else {
            return self.not_playing();
        };
        let decision = self
            .decision_clock(now)
            .filter(|c| c.seat == seat)
            .map(|c| decision_data(&c, now));
        let render = self.render(current, false, None);
        Response::new(Verdict::Accepted).say(self.pace(
            "back",
            context! { player => player.name, decision, prompt => current.session.prompt(&render) },
        ))
    }

    pub(crate) fn not_a_player(&self, current: &Current, who: &str) -> String {
        let players: Vec<&str> = current
            .session
            .seated()
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        self.pace("not_a_player", context! { who, players })
    }

    pub(crate) async fn sub(&mut self, args: &str, msg: &Incoming) -> Response {
        let Some(current) = self.playing() else {
            return self.not_playing();
        };
        let tokens: Vec<&str> = args.split_whitespace().collect();
        let [old, new] = tokens.as_slice() else {
            return self.refuse(self.pace("sub_usage", context! {}));
        };
        let seated = current.session.seated();
        let Some(seat) = seat_by_token(seated, old) else {
            return self.refuse(self.not_a_player(current, old));
        };
        let Some(new) = user_by_token(new, &msg.mentions) else {
            return self.refuse(self.pace("sub_usage", context! {}));
        };
        if seated.iter().any(|p| p.id == new.id) {
            return self.refuse(self.pace("sub_seated", context! { player => new.name }));
        }
        let old = seated[seat].clone();
        let mut draft = Draft::of(current);
        draft.session.substitute(seat, new.clone());
        draft.entries.push(Entry::Table(TableEvent::Sub {
            seat,
            old: old.clone(),
            new: new.clone(),
            by: person(&msg.author),
        }));
        let game_id = current.row.id.clone();
        if let Err(e) = self.commit(draft, msg).await {
            return self.storage_refusal(&e);
        }
        // The old player's secret orders are theirs, not the seat's.
        if let Err(error) = self.store.set_presets(&game_id, &old.id, None).await {
            tracing::warn!(game = %game_id, %error, "cannot drop the old player's presets");
        }
        let Some(current) = self.playing() else {
            return self.not_playing();
        };
        let render = self.render(current, true, None);
        Response::new(Verdict::Accepted).say(self.pace(
            "sub_done",
            context! {
                old => old.name, new => new.name, seat => seat + 1, by => msg.author.name,
                status => current.session.status(&render),
            },
        ))
    }

    pub(crate) async fn act(&mut self, args: &str, msg: &Incoming) -> Response {
        let Some(current) = self.playing() else {
            return self.not_playing();
        };
        let args = args.trim();
        let Some((who, rest)) = args.split_once(char::is_whitespace) else {
            return self.refuse(self.pace("act_usage", context! {}));
        };
        let Some(seat) = seat_by_token(current.session.seated(), who) else {
            return self.refuse(self.not_a_player(current, who));
        };
        let Commands::Bold(segments) = extract(rest, &self.host.settings.prefix) else {
            return self.refuse(self.pace("act_usage", context! {}));
        };
        let now = time_of(msg);
        let meta = Self::meta_of(current);
        let before = current.session.to_act();
        let mut draft = Draft::of(current);
        let mut done = Proxied::default();
        let mut refusal = None;
        let by = person(&msg.author);
        for (i, segment) in segments.iter().enumerate() {
            match self.proxy_move(
                current,
                &mut draft,
                seat,
                ProxySource::Text(segment),
                ProxyWhy::Moderator,
                Some(by.clone()),
                &msg.message_id,
            ) {
                Ok((Some(made), _)) => done.add(made),
                Ok((None, _)) => break,
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
            return self.refuse(refusal.unwrap_or_default());
        }
        let mut meta = meta;
        for (i, entry) in draft.entries.iter().enumerate() {
            meta.add(draft.next_seq + i as i64, entry, Some(now));
        }
        self.auto_proxies(current, &mut draft, &meta, now, &mut done)
            .await;
        if draft.session.is_finished() && current.audited() && !draft.revealed {
            draft.entries.push(Entry::Reveal);
            draft.revealed = true;
        }
        let game_id = current.row.id.clone();
        if let Err(e) = self.commit(draft, msg).await {
            return self.storage_refusal(&e);
        }
        self.save_spent(&game_id, &done).await;
        let turn_ended = done.ends_turn;
        let mut text = self.after_moves(std::mem::take(&mut done.texts), before, turn_ended);
        if let Some(refusal) = refusal {
            text.push('\n');
            text.push_str(&refusal);
        }
        let picture = match (&self.loaded, done.changes_picture) {
            (Loaded::Running(current), true) if self.host.settings.map_after_build => {
                self.picture_attachment(current).and_then(Result::ok)
            }
            _ => None,
        };
        Response::new(Verdict::Accepted).say(text).attach(picture)
    }

    /// `!waiting` answered by this table alone (when no [`crate::Tables`] routes it).
    pub(crate) fn waiting_here(&self, msg: &Incoming) -> Response {
        let now = time_of(msg);
        let games: Vec<minijinja::Value> = self
            .decision_clock(now)
            .filter(|c| c.player.id == msg.author.id)
            .map(|c| {
                context! {
                    channel => crate::weeks::direct::channel_ref(&self.channel),
                    game_id => self.game_id(), title => self.title(),
                    c => decision_data(&c, now),
                }
            })
            .into_iter()
            .collect();
        Response::new(Verdict::Answered)
            .say(self.pace("waiting", context! { player => msg.author.name, games }))
    }

    /// A player's presets in this game, replaced by `text` (`clear` removes them all; empty
    /// lists them). For their eyes only: the reply goes to a direct message.
    pub(crate) async fn set_preset(&mut self, author: &Author, text: &str) -> Response {
        let Some(current) = self.playing() else {
            return self.not_playing();
        };
        let Some(seat) = current.seat_of(author) else {
            return self.refuse(self.not_a_player(current, &author.name));
        };
        let game_id = current.row.id.clone();
        let channel = crate::weeks::direct::channel_ref(&self.channel);
        let mut list = self
            .preset_book(&game_id)
            .await
            .remove(&author.id)
            .unwrap_or_default();
        let orders: Vec<Value> = list.iter().map(|p| p.order.clone()).collect();
        drop_spent(&mut list, &current.session.spent_presets(seat, &orders));
        let render = self.render(current, false, None);
        let text = text.trim();
        let (verdict, kind, described) = match text.to_ascii_lowercase().as_str() {
            "" | "list" | "show" => (Verdict::Answered, "preset_list", None),
            "clear" | "off" | "none" => {
                list.clear();
                (Verdict::Accepted, "preset_cleared", None)
            }
            _ => match current.session.read_preset(seat, text) {
                None => {
                    return self.refuse(self.pace(
                        "preset_unsupported",
                        context! { title => current.session.info().title },
                    ))
                }
                Some(Err(refusal)) => {
                    let reason = refusal.render(&render);
                    return self.refuse(self.pace("preset_refused", context! { reason }));
                }
                Some(Ok(preset)) => {
                    let described = current.session.render_preset(&preset.order, &render);
                    list.retain(|p| p.key != preset.key);
                    list.push(StoredPreset {
                        key: preset.key,
                        order: preset.order,
                    });
                    (Verdict::Accepted, "preset_saved", Some(described))
                }
            },
        };
        let presets: Vec<String> = list
            .iter()
            .map(|p| current.session.render_preset(&p.order, &render))
            .collect();
        if verdict == Verdict::Accepted {
            let json = serde_json::to_string(&list).unwrap_or_default();
            let value = (!list.is_empty()).then_some(json.as_str());
            if let Err(e) = self.store.set_presets(&game_id, &author.id, value).await {
                return self.storage_refusal(&e);
            }
        }
        Response::new(verdict).say(self.pace(
            kind,
            context! { game_id, channel, preset => described, presets },
        ))
    }

    /// A log line for a table entry; `None` for a marker shown with its move.
    pub(crate) fn describe_table_event(&self, event: &TableEvent, author: &str) -> Option<String> {
        let data = match event {
            TableEvent::Proxy { .. } => return None,
            TableEvent::Clock { settings, by } => {
                context! { event => "clock", by => by.name, clock => clock_data(settings) }
            }
            TableEvent::Away {
                name,
                until,
                reason,
                ..
            } => context! {
                event => "away", player => name, reason,
                until => crate::weeks::duration::parse_time(until).map(full).unwrap_or_else(|| until.clone()),
            },
            TableEvent::Back { name, .. } => context! { event => "back", player => name },
            TableEvent::Sub { seat, old, new, by } => context! {
                event => "sub", old => old.name, new => new.name, seat => seat + 1, by => by.name,
            },
            TableEvent::Reminded { seat, kind, .. } => {
                let player = match &self.loaded {
                    Loaded::Running(c) => c.session.seated().get(*seat).map(|p| p.name.clone()),
                    _ => None,
                };
                context! {
                    event => "reminded", player, author,
                    deadline => *kind == ReminderKind::Deadline,
                }
            }
        };
        Some(self.pace("log_event", data))
    }

    /// A logged move in words, with the name the seat had then and, for a move made for the
    /// seat, why (`previous` is the entry before it).
    pub(crate) fn describe_move(
        &self,
        current: &Current,
        meta: &Meta,
        seq: i64,
        entry: &Entry,
        previous: Option<&Entry>,
    ) -> String {
        let Entry::Action { seat, action } = entry else {
            return current.session.describe(entry, false);
        };
        let player = name_at(meta, current.session.seated(), *seat, seq);
        let proxy = match previous {
            Some(Entry::Table(TableEvent::Proxy { seat: s, why, by })) if s == seat => {
                Some(context! { why => why.name(), by => by.as_ref().map(|b| b.name.clone()) })
            }
            _ => None,
        };
        match current.session.canonical(action) {
            Some(canonical) => self.pace("log_move", context! { player, canonical, proxy }),
            None => current.session.describe(entry, false),
        }
    }
}
