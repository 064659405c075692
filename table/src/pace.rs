//! Play over weeks, at one table: the clocks (`!clock`), absences (`!away`, `!back`),
//! substitutes (`!sub`), a moderator's move for a seat (`!act`), secret presets (stored apart,
//! applied here), and the table's [`tick`](Table::tick): reminders, deadlines and automatic
//! passes.
//!
//! Every move the table makes for a seat — a preset's bid, an automatic pass, a moderator's
//! `!act` — goes the way of a player's move: applied to a draft, with its audited draw if it
//! calls for one, stored in one transaction with a [`TableEvent::Proxy`] marker before it, then
//! narrated. Settings and reminders are table entries of the game's log ([`crate::meta`]), so
//! nothing is repeated or lost across a restart.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use minijinja::context;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::duration::{
    format_duration, full, parse_duration, parse_percent, relative, store_time, DurationError,
};
use crate::extract::{extract, Commands};
use crate::game::{Decision, PlayerInfo, Proxy, ToAct};
use crate::input::{Author, Incoming, Mention, Response, Verdict};
use crate::log::Entry;
use crate::meta::{ClockSettings, DecisionClock, Meta, ProxyWhy, ReminderKind, TableEvent};
use crate::session::{ProxySource, Session};
use crate::store::LogRow;
use crate::table::{Current, Draft, Loaded, Table};

/// The template of this module's texts.
pub(crate) const TEMPLATE: &str = "table/pace.md.j2";
/// The most moves the table makes for seats in one go (a safety net; an auction ends first).
const MAX_PROXY_MOVES: usize = 100;
/// The longest absence reason kept.
const MAX_REASON_CHARS: usize = 200;

/// One stored preset of a player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct StoredPreset {
    /// Replaces a preset of the same key.
    pub(crate) key: String,
    /// The game's order.
    pub(crate) order: Value,
}

/// Players' presets in one game, by player id.
pub(crate) type PresetBook = HashMap<String, Vec<StoredPreset>>;

/// Reads the stored presets of a player.
pub(crate) fn read_presets(json: &str) -> Vec<StoredPreset> {
    serde_json::from_str(json).unwrap_or_default()
}

/// A move the table made for a seat: its narration, whether it ended a turn, whether it
/// changed the picture.
pub(crate) struct MadeMove {
    text: String,
    ends_turn: bool,
    changes_picture: bool,
}

/// A made move (if any) and the presets spent.
type ProxyResult = Result<(Option<MadeMove>, Vec<usize>), String>;

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

    fn add(&mut self, made: MadeMove) {
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

fn mention_of(id: &str, name: &str) -> String {
    if !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()) {
        format!("<@{id}>")
    } else {
        format!("@{name}")
    }
}

/// The id in a user mention `<@123>` / `<@!123>`.
fn mention_id(token: &str) -> Option<&str> {
    token
        .strip_prefix("<@")
        .and_then(|t| t.strip_suffix('>'))
        .map(|t| t.trim_start_matches('!'))
        .filter(|id| !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()))
}

/// The seat of a player named by a mention or a name.
pub(crate) fn seat_by_token(seated: &[PlayerInfo], token: &str) -> Option<usize> {
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
fn user_by_token(token: &str, mentions: &[Mention]) -> Option<PlayerInfo> {
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
pub(crate) fn duration_error(error: &DurationError) -> minijinja::Value {
    let (kind, text) = match error {
        DurationError::Unreadable(t) => ("unreadable", t),
        DurationError::OutOfRange(t) => ("range", t),
        DurationError::Percent(t) => ("percent", t),
    };
    context! { kind, text }
}

/// The time of a message, or now when it does not read.
pub(crate) fn time_of(msg: &Incoming) -> DateTime<Utc> {
    msg.time().unwrap_or_else(Utc::now)
}

/// The table's clock settings as template data.
fn clock_data(clock: &ClockSettings) -> minijinja::Value {
    let d = |s: Option<i64>| s.map(|s| format_duration(chrono::Duration::seconds(s)));
    context! {
        turn => d(clock.turn_s), auction => d(clock.auction_s), remind => clock.remind_pct,
        away_cap => format_duration(clock.away_cap()),
    }
}

/// A decision's clock as template data.
pub(crate) fn decision_data(clock: &DecisionClock, now: DateTime<Utc>) -> minijinja::Value {
    let deadline = clock.deadline(now);
    context! {
        player => clock.player.name, mention => clock.player.mention,
        decision => match clock.decision { Decision::Turn => "turn", Decision::Auction => "auction" },
        since => relative(clock.since), since_full => full(clock.since),
        waited => format_duration(now - clock.since),
        budget => clock.budget.map(format_duration),
        deadline => deadline.map(relative), deadline_full => deadline.map(full),
        away => clock.away, paused => clock.paused,
    }
}

/// Applies one `key:value` of `!clock`; false for an unknown key.
fn clock_token(
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
fn drop_spent(list: &mut Vec<StoredPreset>, spent: &[usize]) {
    let mut i = 0;
    list.retain(|_| {
        i += 1;
        !spent.contains(&(i - 1))
    });
}

/// The name of the player who had a seat at log position `seq` (before later substitutions).
fn name_at(meta: &Meta, seated: &[PlayerInfo], seat: usize, seq: i64) -> String {
    meta.subs
        .iter()
        .find(|s| s.seat == seat && s.seq > seq)
        .map(|s| s.old.name.clone())
        .or_else(|| seated.get(seat).map(|p| p.name.clone()))
        .unwrap_or_else(|| "?".into())
}

/// Gives every substituted seat to its new player (after a replay).
pub(crate) fn substitute_all(session: &mut dyn Session, log: &[(Entry, LogRow)]) {
    for (entry, _) in log {
        if let Entry::Table(TableEvent::Sub { seat, new, .. }) = entry {
            session.substitute(*seat, new.clone());
        }
    }
}

impl Table {
    /// One of this module's texts.
    pub(crate) fn pace(&self, msg: &str, ctx: minijinja::Value) -> String {
        let p = &self.host.settings.prefix;
        self.host
            .templates
            .text(TEMPLATE, context! { msg, p, ..ctx })
    }

    /// The table-level state of the running game.
    pub(crate) fn meta_of(current: &Current) -> Meta {
        Meta::of(
            &current.row.created_at,
            current
                .log
                .iter()
                .map(|(entry, row)| (row.seq, entry, row.at.as_str())),
        )
    }

    /// The running game, if it is not over.
    pub(crate) fn playing(&self) -> Option<&Current> {
        match &self.loaded {
            Loaded::Running(c) if !c.session.is_finished() => Some(c),
            _ => None,
        }
    }

    /// The seated players of the running game (in seat order).
    pub fn seated(&self) -> Option<&[PlayerInfo]> {
        match &self.loaded {
            Loaded::Running(c) => Some(c.session.seated()),
            _ => None,
        }
    }

    /// Whether a game is running here and not over.
    pub fn is_playing(&self) -> bool {
        self.playing().is_some()
    }

    /// The clock of the decision the running game waits for, at `now`.
    pub fn decision_clock(&self, now: DateTime<Utc>) -> Option<DecisionClock> {
        let current = self.playing()?;
        Self::meta_of(current).clock_of(current.session.to_act(), current.session.seated(), now)
    }

    /// The running game's title.
    pub fn title(&self) -> Option<&'static str> {
        match &self.loaded {
            Loaded::Running(c) => Some(c.session.info().title),
            _ => None,
        }
    }

    /// The refusal when no game is being played (none, frozen or over).
    fn not_playing(&self) -> Response {
        match &self.loaded {
            Loaded::Running(_) => self.refuse(self.pace("game_over", context! {})),
            _ => self.no_game(),
        }
    }

    /// The table's commands of play over weeks; `None` for a name that is not one of them.
    pub(crate) async fn pace_command(
        &mut self,
        name: &str,
        args: &str,
        msg: &Incoming,
    ) -> Option<Response> {
        Some(match name {
            "clock" => self.clock(args, msg).await,
            "away" => self.away(args, msg).await,
            "back" => self.back(msg).await,
            "sub" => self.sub(args, msg).await,
            "act" => self.act(args, msg).await,
            "preset" => self.refuse(self.pace("preset_in_channel", context! {})),
            "waiting" => self.waiting_here(msg),
            "signup" | "join" | "leave" => self.signup_command(name, args, msg).await,
            _ => return None,
        })
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
            return Err(self.message("game_over", context! {}));
        }
        let player = draft
            .session
            .seated()
            .get(seat)
            .map(|p| p.name.clone())
            .unwrap_or_default();
        let note = self.pace(
            "proxy_note",
            context! { why => why.name(), by => by.as_ref().map(|b| b.name.clone()), player },
        );
        let proxy = Proxy {
            automatic: why.automatic(),
            note,
        };
        let render = self.render(current, false, None);
        let outcome = draft.session.play_proxy(seat, source, &proxy, &render)?;
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

    async fn answer_auctions(
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
                        tracing::warn!(game = %current.row.id, seat, %reason, "a preset's move was refused");
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
                        tracing::warn!(game = %current.row.id, seat, %reason, "an automatic pass was refused");
                    }
                }
            }
            let Some(made) = made else {
                return;
            };
            done.add(made);
        }
    }

    /// The presets of a game, by player (none if storage fails: nothing is played for them).
    pub(crate) async fn preset_book(&self, game_id: &str) -> PresetBook {
        match self.store.presets(game_id).await {
            Ok(rows) => rows
                .into_iter()
                .map(|(player, json)| (player, read_presets(&json)))
                .collect(),
            Err(error) => {
                tracing::error!(game = game_id, %error, "cannot read the presets");
                PresetBook::new()
            }
        }
    }

    /// Stores the presets that were spent (after the moves are stored).
    pub(crate) async fn save_spent(&self, game_id: &str, done: &Proxied) {
        let Some(book) = &done.book else {
            return;
        };
        for player in &done.dirty {
            let list = book.get(player).cloned().unwrap_or_default();
            let json = serde_json::to_string(&list).unwrap_or_default();
            let value = (!list.is_empty()).then_some(json.as_str());
            if let Err(error) = self.store.set_presets(game_id, player, value).await {
                tracing::warn!(game = game_id, %error, "cannot drop spent presets");
            }
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
    fn after_moves(&self, texts: Vec<String>, before: ToAct, turn_ended: bool) -> String {
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
        let Some(current) = self.playing() else {
            return Response::new(Verdict::Ignored);
        };
        let meta = Self::meta_of(current);
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
                                tracing::warn!(game = %current.row.id, %reason, "the automatic pass was refused");
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
                            notices.push(self.pace(
                                "deadline",
                                context! {
                                    c => decision_data(&clock, now), moderators,
                                    game_id => current.row.id,
                                },
                            ));
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
                    notices.push(self.pace(
                        "reminder",
                        context! {
                            c => decision_data(&clock, now), game_id => current.row.id,
                            prompt => current.session.prompt(&render),
                        },
                    ));
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
        if let Err(error) = self.commit(draft, &msg).await {
            tracing::error!(game = %game_id, %error, "the clock's work was not stored; it is retried at the next tick");
            return Response::new(Verdict::Ignored);
        }
        self.save_spent(&game_id, &done).await;
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
        Response::new(Verdict::Accepted).say(text).attach(picture)
    }

    // ----- commands -----

    async fn clock(&mut self, args: &str, msg: &Incoming) -> Response {
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

    async fn away(&mut self, args: &str, msg: &Incoming) -> Response {
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

    async fn back(&mut self, msg: &Incoming) -> Response {
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

    fn not_a_player(&self, current: &Current, who: &str) -> String {
        let players: Vec<&str> = current
            .session
            .seated()
            .iter()
            .map(|p| p.name.as_str())
            .collect();
        self.pace("not_a_player", context! { who, players })
    }

    async fn sub(&mut self, args: &str, msg: &Incoming) -> Response {
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

    async fn act(&mut self, args: &str, msg: &Incoming) -> Response {
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
    fn waiting_here(&self, msg: &Incoming) -> Response {
        let now = time_of(msg);
        let games: Vec<minijinja::Value> = self
            .decision_clock(now)
            .filter(|c| c.player.id == msg.author.id)
            .map(|c| {
                context! {
                    channel => crate::direct::channel_ref(&self.channel),
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
        let channel = crate::direct::channel_ref(&self.channel);
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
            _ => match current.session.read_preset(seat, text, &render) {
                None => {
                    return self.refuse(self.pace(
                        "preset_unsupported",
                        context! { title => current.session.info().title },
                    ))
                }
                Some(Err(reason)) => {
                    return self.refuse(self.pace("preset_refused", context! { reason }))
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
                until => crate::duration::parse_time(until).map(full).unwrap_or_else(|| until.clone()),
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
