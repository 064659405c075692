//! Play over weeks, at one table: the clocks (`!clock`), absences (`!away`, `!back`),
//! substitutes (`!sub`), a moderator's move for a seat (`!act`), secret presets (stored apart,
//! applied here), and the table's [`tick`](Table::tick): reminders, deadlines and automatic
//! passes.
//!
//! Every move the table makes for a seat — a preset's bid, an automatic pass, a moderator's
//! `!act` — goes the way of a player's move: applied to a draft, with its audited draw if it
//! calls for one, stored in one transaction with a [`TableEvent::Proxy`] marker before it, then
//! narrated. Settings and reminders are table entries of the game's log ([`crate::weeks::meta`]), so
//! nothing is repeated or lost across a restart.

use chrono::{DateTime, Utc};
use serde_json::Value;

use crate::game::session::ProxySource;
use crate::game::{Decision, PlayerInfo, Proxy, ToAct};
use crate::input::{Author, Incoming, Mention, Response, Verdict};
use crate::messages;
use crate::record::log::Entry;
use crate::store::Write;
use crate::table::{Current, Cx, Draft, Loaded, Refusal};
use crate::weeks::duration::{
    format_duration, full, parse_duration, parse_percent, relative, store_time, DurationError,
};
use crate::weeks::meta::{ClockSettings, DecisionClock, Meta, ProxyWhy, ReminderKind, TableEvent};
use crate::weeks::preset_book::{read_presets, PresetBook, StoredPreset};

/// The most moves the table makes for seats in one go (a safety net; an auction ends first).
pub(crate) const MAX_PROXY_MOVES: usize = 100;
/// The longest absence reason kept.
pub(crate) const MAX_REASON_CHARS: usize = 200;

/// A move the table made for a seat: its narration, whether it ended a turn, whether it
/// changed the picture.
pub(crate) struct MadeMove {
    text: String,
    ends_turn: bool,
    changes_picture: bool,
}

/// A made move (if any) and the presets spent.
type ProxyResult = Result<(Option<MadeMove>, Vec<usize>), Refusal>;

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
    book: Option<PresetBook>,
    /// Players whose presets were spent.
    dirty: Vec<String>,
}

impl Proxied {
    /// Whether a move was made.
    pub(crate) fn moved(&self) -> bool {
        !self.texts.is_empty()
    }

    pub(crate) fn add(&mut self, made: MadeMove) {
        self.texts.push(made.text);
        self.ends_turn |= made.ends_turn;
        self.changes_picture |= made.changes_picture;
    }
}

/// A person as the table names and pings them: a Discord id is pinged as `<@id>`, a console
/// name as `@name`.
pub(crate) fn person(author: &Author) -> PlayerInfo {
    PlayerInfo {
        name: author.name.clone(),
        id: author.id.clone(),
        mention: mention_of(&author.id, &author.name),
    }
}

pub(crate) fn mention_of(id: &str, name: &str) -> String {
    if !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()) {
        format!("<@{id}>")
    } else {
        format!("@{name}")
    }
}

/// The id in a user mention `<@123>` / `<@!123>`.
pub(crate) fn mention_id(token: &str) -> Option<&str> {
    token
        .strip_prefix("<@")
        .and_then(|t| t.strip_suffix('>'))
        .map(|t| t.trim_start_matches('!'))
        .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()))
}

/// The seat of a player named by a mention or a name; an automa by `automa` (the only one)
/// or `automa2`.
pub(crate) fn seat_by_token(seated: &[PlayerInfo], token: &str) -> Option<usize> {
    if let Some(number) = crate::game::automa::automa_word(token) {
        let mut automa = (0..seated.len()).filter(|&i| seated[i].is_automa());
        return match number {
            Some(n) => automa
                .find(|&i| seated[i].id == format!("{}{n}", crate::game::automa::AUTOMA_ID_PREFIX)),
            None => {
                let first = automa.next();
                automa.next().is_none().then_some(first).flatten()
            }
        };
    }
    match mention_id(token) {
        Some(id) => seated.iter().position(|p| p.id == id),
        None => {
            let name = token.trim_start_matches('@').trim_matches(',');
            seated
                .iter()
                .position(|p| p.id.eq_ignore_ascii_case(name) || p.name.eq_ignore_ascii_case(name))
        }
    }
}

/// A user named by a mention (with its display name from the message) or a name.
pub(crate) fn user_by_token(token: &str, mentions: &[Mention]) -> Option<PlayerInfo> {
    if let Some(id) = mention_id(token) {
        let name = mentions
            .iter()
            .find(|m| m.id == id)
            .map(|m| m.name.clone())
            .unwrap_or_else(|| format!("user{id}"));
        return Some(PlayerInfo {
            name,
            id: id.to_string(),
            mention: format!("<@{id}>"),
        });
    }
    let name = token.trim_start_matches('@').trim_matches(',');
    let ok = !name.is_empty()
        && name
            .chars()
            .all(|c| c.is_alphanumeric() || "_-.".contains(c));
    ok.then(|| PlayerInfo {
        name: name.to_string(),
        id: name.to_lowercase(),
        mention: format!("@{name}"),
    })
}

/// A duration refusal as template data.
pub(crate) fn duration_error(error: &DurationError) -> messages::DurationProblem {
    let (kind, text) = match error {
        DurationError::Unreadable(t) => ("unreadable", t),
        DurationError::OutOfRange(t) => ("range", t),
        DurationError::Percent(t) => ("percent", t),
    };
    messages::DurationProblem {
        kind: kind.to_string(),
        text: text.clone(),
    }
}

/// The time of a message, or now when it does not read.
pub(crate) fn time_of(msg: &Incoming) -> DateTime<Utc> {
    msg.time().unwrap_or_else(Utc::now)
}

/// The table's clock settings as template data.
pub(crate) fn clock_data(clock: &ClockSettings) -> messages::ClockData {
    let d = |s: Option<i64>| s.map(|s| format_duration(chrono::Duration::seconds(s)));
    messages::ClockData {
        turn: d(clock.turn_s),
        auction: d(clock.auction_s),
        remind: clock.remind_pct,
        away_cap: format_duration(clock.away_cap()),
    }
}

/// A decision's clock as template data.
pub(crate) fn decision_data(clock: &DecisionClock, now: DateTime<Utc>) -> messages::DecisionData {
    let deadline = clock.deadline(now);
    messages::DecisionData {
        player: clock.player.name.clone(),
        mention: clock.player.mention.clone(),
        decision: match clock.decision {
            Decision::Turn => "turn",
            Decision::Auction => "auction",
        }
        .to_string(),
        since: relative(clock.since),
        since_full: full(clock.since),
        waited: format_duration(now - clock.since),
        budget: clock.budget.map(format_duration),
        deadline: deadline.map(relative),
        deadline_full: deadline.map(full),
        away: clock.away,
        paused: clock.paused,
    }
}

/// Applies one `key:value` of `!clock`; false for an unknown key.
pub(crate) fn clock_token(
    settings: &mut ClockSettings,
    key: &str,
    value: &str,
) -> Result<bool, DurationError> {
    let off = matches!(value.to_ascii_lowercase().as_str(), "off" | "none" | "0");
    let duration = |value: &str| -> Result<Option<i64>, DurationError> {
        if off {
            Ok(None)
        } else {
            parse_duration(value).map(|d| Some(d.num_seconds()))
        }
    };
    match key.to_ascii_lowercase().as_str() {
        "turn" | "turns" => settings.turn_s = duration(value)?,
        "auction" | "auctions" | "bid" => settings.auction_s = duration(value)?,
        "remind" | "reminder" => {
            settings.remind_pct = if off {
                None
            } else {
                Some(parse_percent(value)?)
            }
        }
        "away-cap" | "awaycap" | "away_cap" | "cap" => {
            settings.away_cap_s = duration(value)?.unwrap_or(0)
        }
        _ => return Ok(false),
    }
    Ok(true)
}

/// Removes the presets at these positions.
pub(crate) fn drop_spent(list: &mut Vec<StoredPreset>, spent: &[usize]) {
    let mut i = 0;
    list.retain(|_| {
        i += 1;
        !spent.contains(&(i - 1))
    });
}

/// The name of the player who had a seat at log position `seq` (before later substitutions).
pub(crate) fn name_at(meta: &Meta, seated: &[PlayerInfo], seat: usize, seq: i64) -> String {
    meta.subs
        .iter()
        .find(|s| s.seat == seat && s.seq > seq)
        .map(|s| s.old.name.clone())
        .or_else(|| seated.get(seat).map(|p| p.name.clone()))
        .unwrap_or_else(|| "?".into())
}

impl Cx {
    /// The clock of the decision the running game waits for, at `now`.
    pub fn decision_clock(&self, now: DateTime<Utc>) -> Option<DecisionClock> {
        let current = self.loaded.playing()?;
        current
            .meta()
            .clock_of(current.session.to_act(), current.session.seated(), now)
    }

    /// The refusal when no game is being played (none, frozen or over).
    pub(crate) fn not_playing(&self) -> Response {
        match &self.loaded {
            Loaded::Running(_) => self.refuse(self.say(messages::NotPlaying {})),
            _ => self.no_game(),
        }
    }

    // ----- the moves the table makes for a seat -----

    /// Makes a move for `seat` on the draft — its marker, the move, and the audited draw it
    /// calls for — narrated with the reason. `Ok(None)`: the source has no move now (and the
    /// presets it spent).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn proxy_move(
        &self,
        current: &Current,
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
        let note = self.say(messages::ProxyNote {
            why: why.name().to_string(),
            by: by.as_ref().map(|b| b.name.clone()),
            player: player.to_string(),
        });
        let proxy = Proxy {
            automatic: why.automatic(),
            note,
        };
        let render = self.render(current, false, None);
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
        let mut text = played.text;
        let mut ends_turn = played.ends_turn;
        if let Some((drawn, ended)) = self.draw_after(current, draft, message_id, &render)? {
            text.push('\n');
            text.push_str(&drawn);
            ends_turn |= ended;
        }
        Ok((
            Some(MadeMove {
                text,
                ends_turn,
                changes_picture: played.changes_picture,
            }),
            outcome.spent,
        ))
    }

    /// The moves the table makes at once on the draft: in auctions, a player's presets answer
    /// for them, and an absent player passes automatically (unless a preset answers).
    pub(crate) async fn auto_proxies(
        &self,
        current: &Current,
        draft: &mut Draft,
        meta: &Meta,
        now: DateTime<Utc>,
        done: &mut Proxied,
    ) {
        self.answer_auctions(current, draft, meta, now, done).await;
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

    pub(crate) async fn answer_auctions(
        &self,
        current: &Current,
        draft: &mut Draft,
        meta: &Meta,
        now: DateTime<Utc>,
        done: &mut Proxied,
    ) {
        for _ in 0..MAX_PROXY_MOVES {
            let ToAct::Player {
                seat,
                decision: Decision::Auction,
            } = draft.session.to_act()
            else {
                return;
            };
            let Some(player) = draft.session.seated().get(seat).cloned() else {
                return;
            };
            if done.book.is_none() {
                done.book = Some(self.preset_book(&current.row.id).await);
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
                    current,
                    draft,
                    seat,
                    ProxySource::Presets(&orders),
                    ProxyWhy::Preset,
                    None,
                    "",
                ) {
                    Ok((played, spent)) => {
                        if !spent.is_empty() {
                            if let Some(list) =
                                done.book.as_mut().and_then(|b| b.get_mut(&player.id))
                            {
                                drop_spent(list, &spent);
                            }
                            done.dirty.push(player.id.clone());
                        }
                        made = played;
                    }
                    Err(reason) => {
                        tracing::warn!(game = %current.row.id, seat, ?reason, "a preset's move was refused");
                    }
                }
            }
            if made.is_none() && meta.away(&player.id, now).is_some() {
                match self.proxy_move(
                    current,
                    draft,
                    seat,
                    ProxySource::Auto,
                    ProxyWhy::Away,
                    None,
                    "",
                ) {
                    Ok((played, _)) => made = played,
                    Err(reason) => {
                        tracing::warn!(game = %current.row.id, seat, ?reason, "an automatic pass was refused");
                    }
                }
            }
            let Some(made) = made else {
                return;
            };
            done.add(made);
        }
    }

    /// The presets of a game, by player (none if storage fails: nothing is played for them):
    /// kept in memory after the first read when this process is the store's sole writer.
    pub(crate) async fn preset_book(&self, game_id: &str) -> PresetBook {
        if let Some(book) = self.presets.get(game_id) {
            return book;
        }
        match self.store.presets(game_id).await {
            Ok(rows) => {
                let book: PresetBook = rows
                    .into_iter()
                    .map(|(player, json)| (player, read_presets(&json)))
                    .collect();
                if self.store.sole_writer() {
                    self.presets.put(game_id, book.clone());
                }
                book
            }
            Err(error) => {
                tracing::error!(game = game_id, %error, "cannot read the presets");
                PresetBook::new()
            }
        }
    }

    /// Stores the presets that were spent, with the moves that spent them.
    pub(crate) fn save_spent(&mut self, game_id: &str, done: &Proxied) {
        let Some(book) = &done.book else {
            return;
        };
        for player in &done.dirty {
            let list = book.get(player).cloned().unwrap_or_default();
            let json = serde_json::to_string(&list).unwrap_or_default();
            self.stage(Write::Presets {
                game_id: game_id.to_string(),
                player_id: player.clone(),
                presets: (!list.is_empty()).then_some(json),
            });
        }
    }

    /// The message the table's own commits are stored under.
    pub(crate) fn clock_message(&self, current: &Current, now: DateTime<Utc>) -> Incoming {
        Incoming {
            message_id: format!("clock:{}:{}", current.row.id, current.log.len()),
            author: Author {
                id: "gaugebot".into(),
                name: "gaugebot".into(),
                is_moderator: false,
            },
            text: "(the table's clock)".into(),
            at: store_time(now),
            mentions: Vec::new(),
        }
    }

    /// Narration, then the prompt or the report, as after a player's move.
    pub(crate) fn after_moves(
        &self,
        texts: Vec<String>,
        before: ToAct,
        turn_ended: bool,
    ) -> String {
        let Loaded::Running(current) = &self.loaded else {
            return texts.join("\n");
        };
        let ping = current.session.to_act() != before || turn_ended;
        let render = self.render(current, ping, None);
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
            text.push_str(&self.reveal_text(current));
        }
        text
    }

    // ----- the tick -----

    /// Time-driven work up to `now`: presets and absences answer auctions, an auction clock
    /// that ran out passes automatically, reminders and deadline notices go out once each, and
    /// signups close; the replies to post.
    pub(crate) async fn pace_tick(&mut self, now: DateTime<Utc>) -> Response {
        match &self.loaded {
            Loaded::Running(c) if !c.session.is_finished() => self.game_tick(now).await,
            Loaded::Frozen(_) => Response::new(Verdict::Ignored),
            _ => self.signup_tick(now).await,
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
        self.auto_proxies(current, &mut draft, &meta, now, &mut done)
            .await;
        if !done.moved() {
            if let Some(clock) = meta.clock_of(before, current.session.seated(), now) {
                if clock.expired() {
                    let auto = if clock.decision == Decision::Auction {
                        match self.proxy_move(
                            current,
                            &mut draft,
                            clock.seat,
                            ProxySource::Auto,
                            ProxyWhy::Clock,
                            None,
                            "",
                        ) {
                            Ok((played, _)) => played,
                            Err(reason) => {
                                tracing::warn!(game = %current.row.id, ?reason, "the automatic pass was refused");
                                None
                            }
                        }
                    } else {
                        None
                    };
                    match auto {
                        Some(made) => {
                            done.add(made);
                            // The next players' presets and absences answer at once.
                            let mut meta = meta.clone();
                            for (i, entry) in draft.entries.iter().enumerate() {
                                meta.add(draft.next_seq + i as i64, entry, Some(now));
                            }
                            self.auto_proxies(current, &mut draft, &meta, now, &mut done)
                                .await;
                        }
                        None if !meta.was_reminded(ReminderKind::Deadline) => {
                            draft.entries.push(Entry::Table(TableEvent::Reminded {
                                seat: clock.seat,
                                since: clock.since_seq,
                                kind: ReminderKind::Deadline,
                            }));
                            let moderators: Vec<String> =
                                meta.moderators.iter().map(|m| m.mention.clone()).collect();
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
                    let render = self.render(current, false, None);
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
        let msg = self.clock_message(current, now);
        self.commit(draft, &msg);
        self.save_spent(&game_id, &done);
        let text = if done.moved() {
            let turn_ended = done.ends_turn;
            self.after_moves(std::mem::take(&mut done.texts), before, turn_ended)
        } else {
            notices.join("\n")
        };
        let picture = match (&self.loaded, done.changes_picture) {
            (Loaded::Running(current), true) if self.host.settings.map_after_build => {
                self.picture_attachment(current).and_then(Result::ok)
            }
            _ => None,
        };
        let chart = match &self.loaded {
            Loaded::Running(current) => crate::table::prompt::final_chart(current),
            _ => None,
        };
        Response::new(Verdict::Accepted)
            .say(text)
            .attach(picture)
            .attach(chart)
    }
}
