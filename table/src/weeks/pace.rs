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

use crate::game::session::ProxySource;
use crate::game::{Decision, PlayerInfo};
use crate::input::{Author, Incoming, Mention, Response, Verdict};
use crate::messages;
use crate::record::log::Entry;
use crate::store::Write;
use crate::table::ledger::Ledger;
use crate::table::mover::Mover;
use crate::table::{Current, Cx, Draft, Loaded, Refusal};
use crate::weeks::duration::{
    format_duration, full, parse_duration, parse_percent, relative, store_time, DurationError,
};
use crate::weeks::meta::{ClockSettings, DecisionClock, Meta, ProxyWhy, ReminderKind, TableEvent};
use crate::weeks::preset_book::{PresetBook, StoredPreset};

/// The most moves the table makes for seats in one go (a safety net; an auction ends first).
pub(crate) const MAX_PROXY_MOVES: usize = 100;
/// The longest absence reason kept.
pub(crate) const MAX_REASON_CHARS: usize = 200;

/// A move the table made for a seat: its narration, whether it ended a turn, whether it
/// changed the picture.
pub(crate) struct MadeMove {
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
    /// The refusal when no game is being played (none, frozen or over).
    pub(crate) fn not_playing(&self) -> Response {
        match &self.loaded {
            Loaded::Running(_) => self.refuse(self.say(messages::NotPlaying {})),
            _ => self.no_game(),
        }
    }

    // ----- the tick -----

    /// Time-driven work up to `now`: presets and absences answer auctions, an auction clock
    /// that ran out passes automatically, reminders and deadline notices go out once each, and
    /// signups close; the replies to post.
    pub(crate) async fn pace_tick(&mut self, now: DateTime<Utc>) -> Response {
        match &self.loaded {
            Loaded::Running(c) if !c.session.is_finished() => self.game_tick(now).await,
            Loaded::Frozen(_) => Response::new(Verdict::Ignored),
            _ => crate::weeks::signup::signup_tick(self, now).await,
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
        Mover::of(self, current)
            .auto_proxies(&mut draft, &meta, now, &mut done)
            .await;
        if !done.moved() {
            if let Some(clock) = meta.clock_of(before, current.session.seated(), now) {
                if clock.expired() {
                    let auto = if clock.decision == Decision::Auction {
                        match Mover::of(self, current).proxy_move(
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
                            Mover::of(self, current)
                                .auto_proxies(&mut draft, &meta, now, &mut done)
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
                    let render = self.host.view(current).render(false, None);
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
        let msg = clock_message(current, now);
        self.commit(draft, &msg);
        done.stage_spent(&mut self.ledger, &game_id);
        let text = if done.moved() {
            let turn_ended = done.ends_turn;
            crate::table::view::after_moves(
                &self.host,
                &self.loaded,
                std::mem::take(&mut done.texts),
                before,
                turn_ended,
            )
        } else {
            notices.join("\n")
        };
        let picture = match (&self.loaded, done.changes_picture) {
            (Loaded::Running(current), true) if self.host.settings.map_after_build => self
                .host
                .view(current)
                .picture_attachment()
                .and_then(Result::ok),
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

/// The message the table's own commits are stored under.
pub(crate) fn clock_message(current: &Current, now: DateTime<Utc>) -> Incoming {
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
