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

use crate::game::{Decision, PlayerInfo};
use crate::input::{mentioned, Author, Incoming, Mention};
use crate::messages;
use crate::weeks::duration::{
    format_duration, full, parse_duration, parse_percent, relative, DurationError,
};
use crate::weeks::meta::{Bank, ClockSettings, DecisionClock, Meta, TimeoutPolicy};
use crate::weeks::preset_book::StoredPreset;

/// The longest absence reason kept.
pub(crate) const MAX_REASON_CHARS: usize = 200;

/// A person as the table names them (texts ping them by [`PlayerInfo::ping`], from the id
/// and the name; the mention kept is the transport's own).
pub(crate) fn person(author: &Author) -> PlayerInfo {
    PlayerInfo {
        name: author.name.clone(),
        id: author.id.clone(),
        mention: author.mention.clone(),
    }
}

/// The seat of a player named by a mention or a name; an automa by `automa` (the only one)
/// or `automa2`.
pub(crate) fn seat_by_token(
    seated: &[PlayerInfo],
    token: &str,
    mentions: &[Mention],
) -> Option<usize> {
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
    match mentioned(mentions, token) {
        Some(user) => seated.iter().position(|p| p.id == user.id),
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
    if let Some(user) = mentioned(mentions, token) {
        return Some(PlayerInfo {
            name: user.name.clone(),
            id: user.id.clone(),
            mention: user.written.first().cloned().unwrap_or_default(),
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
        timeout: (!clock.timeout.is_ping()).then(|| clock.timeout.name().to_string()),
        hand_over: clock.hand_over,
        bank: clock.bank.and_then(|b| d(Some(b.start_s))),
        bank_add: clock.bank.and_then(|b| d(Some(b.add_s))),
        bank_max: clock.bank.and_then(|b| d(Some(b.max_s.max(b.start_s)))),
    }
}

/// Every player's time bank at `now` (`ann 60h`), for `!clock` and the status.
pub(crate) fn bank_lines(
    meta: &Meta,
    to_act: crate::game::ToAct,
    seated: &[PlayerInfo],
    now: DateTime<Utc>,
) -> Vec<String> {
    meta.banks(to_act, seated, now)
        .into_iter()
        .map(|(name, left)| format!("{name} {}", format_duration(left)))
        .collect()
}

/// A decision's clock as template data.
pub(crate) fn decision_data(clock: &DecisionClock, now: DateTime<Utc>) -> messages::DecisionData {
    let deadline = clock.deadline(now);
    messages::DecisionData {
        player: clock.player.name.clone(),
        mention: clock.player.ping(),
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

/// Applies one `key:value` of `!clock`; false for an unknown key or value.
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
        "timeout" | "timeouts" => {
            settings.timeout = match value.to_ascii_lowercase().as_str() {
                "ping" | "off" | "none" => TimeoutPolicy::Ping,
                "automa" => TimeoutPolicy::Automa,
                "pass" => TimeoutPolicy::Pass,
                _ => return Ok(false),
            }
        }
        "hand-over" | "handover" | "hand_over" => {
            settings.hand_over = if off {
                None
            } else {
                match value.parse::<u32>() {
                    Ok(n) if (1..=100).contains(&n) => Some(n),
                    _ => return Ok(false),
                }
            }
        }
        "bank" | "banks" => {
            settings.bank = duration(value)?.map(|start_s| Bank {
                start_s,
                add_s: settings.bank.map_or(0, |b| b.add_s),
                max_s: settings.bank.map_or(start_s, |b| b.max_s).max(start_s),
            })
        }
        "add" | "increment" | "max" | "cap-bank" => {
            let Some(bank) = settings.bank.as_mut() else {
                return Ok(false);
            };
            let seconds = duration(value)?.unwrap_or(0);
            if key.eq_ignore_ascii_case("max") {
                bank.max_s = seconds.max(bank.start_s);
            } else {
                bank.add_s = seconds;
            }
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
