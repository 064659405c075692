//! Signups before a game, as the forum moderator of seed 000 ran them: a moderator opens them
//! (`!signup open [game] [players:3-4] [closes:24h] [extend:24h] [start-after:72h]`), players
//! post **sign up** (or `!join`; `!leave` withdraws); when they close, too few signups extend
//! them, after `start-after` the game starts with what there is if the rules allow, and more
//! signups than seats are drawn from by the audited dice (purpose `signup-pick`, docs/DICE.md),
//! then the game is set up with those players.
//!
//! Open signups are the channel's state outside any game ([`crate::Store::channel_state`]); the
//! draw is stored with the game's setup and is the first record of its audit.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::commands::setup::SetupArgs;
use crate::dice::{is_message_id, DiceError, DrawRecord, DrawSource, Seed};
use crate::game::{DiceMode, PlayerInfo, SetupOptions};
use crate::input::{Incoming, Response, Verdict};
use crate::messages;

use crate::table::{Cx, Loaded};
use crate::weeks::duration::{
    format_duration, full, parse_duration, parse_time, relative, store_time,
};
use crate::weeks::pace::{duration_error, person, time_of};

/// The purpose of the random pick of players among the signups (drawn at index 0).
pub const PURPOSE_SIGNUP_PICK: &str = "signup-pick";
/// The most signups a record may name (a bound for the verifier).
pub const MAX_SIGNUPS: usize = 1000;

const DEFAULT_CLOSES: Duration = Duration::hours(24);
const DEFAULT_EXTEND: Duration = Duration::hours(24);
const DEFAULT_START_AFTER: Duration = Duration::hours(72);

/// Open signups of a channel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Signups {
    /// The game's kind.
    pub kind: String,
    /// The fewest players to start with once `start-after` has passed.
    pub min: usize,
    /// The players wanted; more signups are drawn from.
    pub max: usize,
    /// When they opened (RFC 3339).
    pub opened_at: String,
    /// When they close next (RFC 3339).
    pub closes_at: String,
    /// How long each extension is, in seconds.
    pub extend_s: i64,
    /// After how long (from opening) the game starts with fewer than `max`, in seconds.
    pub start_after_s: i64,
    /// The moderator who opened them.
    pub by: PlayerInfo,
    /// The players signed up, in order.
    pub players: Vec<PlayerInfo>,
    /// How many times they were extended.
    #[serde(default)]
    pub extensions: u32,
    /// The id of the `!signup open` message: it keys the pick and the game's setup draws
    /// (docs/DICE.md §3.2), whoever or whatever closes the signups. Signups opened by an older
    /// version have none (their game then keys by the message that closes them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_message: Option<String>,
}

/// The pick of `picks` of `signups` players: sign-up numbers (1 = the first to sign up) in
/// drawn order — `[1, 2, …, signups]`, `picks` drawn without replacement (docs/DICE.md §6)
/// from the stream of purpose `signup-pick` at index 0.
pub fn signup_pick(source: DrawSource<'_>, signups: usize, picks: usize) -> Vec<u32> {
    let count = u32::try_from(signups.min(MAX_SIGNUPS)).unwrap_or(0);
    let list: Vec<u32> = (1..=count).collect();
    source
        .stream(0, PURPOSE_SIGNUP_PICK)
        .pick_without_replacement(list, picks)
}

/// The audit record of a pick: its inputs (`signups`, `picks`, and the names for readers) and
/// its result.
pub fn pick_record(names: &[String], picks: usize, result: &[u32]) -> DrawRecord {
    DrawRecord::new(
        0,
        PURPOSE_SIGNUP_PICK,
        [
            ("signups", Value::from(names.len())),
            ("picks", Value::from(picks)),
            ("signed_up", Value::from(names.to_vec())),
        ],
        Value::from(result.to_vec()),
    )
    .with_population((1..=names.len()).map(Value::from).collect(), picks)
}

/// Recomputes a `signup-pick` record; `None` for any other purpose.
pub fn recompute(record: &DrawRecord, source: DrawSource<'_>) -> Option<Result<Value, DiceError>> {
    if record.purpose != PURPOSE_SIGNUP_PICK {
        return None;
    }
    if record.index != 0 {
        return Some(Err(record.invalid("signup-pick must be drawn at index 0")));
    }
    let number = |name| {
        record
            .input(name)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
    };
    Some(match (number("signups"), number("picks")) {
        (Some(signups), Some(picks))
            if (1..=MAX_SIGNUPS).contains(&signups) && (1..=signups).contains(&picks) =>
        {
            Ok(Value::from(signup_pick(source, signups, picks)))
        }
        _ => Err(record.invalid("signup-pick needs signups (1 to 1000) and picks (1 to signups)")),
    })
}

/// Whether bold text is a signup (`sign up`, `signup`, `sign me up`, `join`, `I'm in`).
fn is_signup_phrase(text: &str) -> bool {
    let words: Vec<String> = text
        .to_lowercase()
        .replace(['-', '\''], " ")
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    matches!(
        words
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        ["sign", "up"]
            | ["signup"]
            | ["sign", "me", "up"]
            | ["signing", "up"]
            | ["join"]
            | ["i", "m", "in"]
            | ["im", "in"]
    )
}

/// Reads `players:3-4` (or `players:4`).
fn players_range(value: &str) -> Option<(usize, usize)> {
    match value.split_once('-') {
        Some((a, b)) => Some((a.trim().parse().ok()?, b.trim().parse().ok()?)),
        None => value.trim().parse().ok().map(|n| (n, n)),
    }
}

/// The channel's open signups, or the refusal when there are none (or storage fails).
pub(crate) async fn open_signups_state(cx: &Cx) -> Result<Signups, Response> {
    match cx.ledger.signups().await {
        Ok(Some(state)) => Ok(state),
        Ok(None) => Err(cx.refuse(cx.say(messages::SignupNone {}))),
        Err(e) => Err(cx.host.storage_refusal(&e)),
    }
}

pub(crate) fn signup_data(cx: &Cx, state: &Signups) -> messages::SignupData {
    let closes = parse_time(&state.closes_at);
    let title = cx
        .host
        .game(&state.kind)
        .map(|g| g.info().title)
        .unwrap_or_default();
    messages::SignupData {
        title: title.to_string(),
        min: state.min,
        max: state.max,
        count: state.players.len(),
        names: state.players.iter().map(|p| p.name.clone()).collect(),
        closes: closes.map(relative),
        closes_full: closes.map(full),
        extend: format_duration(Duration::seconds(state.extend_s)),
        start_after: format_duration(Duration::seconds(state.start_after_s)),
        extensions: state.extensions,
        by: state.by.name.clone(),
    }
}

pub(crate) async fn open_signups(cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
    if cx.loaded.playing().is_some() || matches!(cx.loaded, Loaded::Frozen(_)) {
        return cx.refuse(cx.say(messages::SignupGameRunning {}));
    }
    let host = cx.host.clone();
    let mut tokens = args.split_whitespace().peekable();
    let game = match tokens.peek().and_then(|t| host.game(t)) {
        Some(game) => {
            tokens.next();
            game.clone()
        }
        None => match host.games.first() {
            Some(game) => game.clone(),
            None => return cx.refuse(cx.say(messages::SignupUsage { token: None })),
        },
    };
    let info = game.info();
    let (mut min, mut max) = (*info.players.start(), *info.players.end());
    let (mut closes, mut extend, mut start_after) =
        (DEFAULT_CLOSES, DEFAULT_EXTEND, DEFAULT_START_AFTER);
    for token in tokens {
        let Some((key, value)) = token.split_once(':') else {
            return cx.refuse(cx.say(messages::SignupUsage {
                token: Some(token.to_string()),
            }));
        };
        let duration = match key.to_ascii_lowercase().as_str() {
            "players" => {
                match players_range(value) {
                    Some((a, b))
                        if a <= b && info.players.contains(&a) && info.players.contains(&b) =>
                    {
                        (min, max) = (a, b)
                    }
                    _ => {
                        return cx.refuse(cx.say(messages::SignupPlayers {
                            value: value.to_string(),
                            title: info.title.to_string(),
                            least: *info.players.start(),
                            most: *info.players.end(),
                        }))
                    }
                }
                continue;
            }
            "closes" | "close" => &mut closes,
            "extend" => &mut extend,
            "start-after" | "startafter" | "start_after" => &mut start_after,
            _ => {
                return cx.refuse(cx.say(messages::SignupUsage {
                    token: Some(token.to_string()),
                }))
            }
        };
        match parse_duration(value) {
            Ok(d) => *duration = d,
            Err(error) => {
                return cx.refuse(cx.say(messages::BadDuration {
                    error: duration_error(&error),
                }))
            }
        }
    }
    let now = time_of(msg);
    let state = Signups {
        kind: info.kind.to_string(),
        min,
        max,
        opened_at: store_time(now),
        closes_at: store_time(now + closes),
        extend_s: extend.num_seconds(),
        start_after_s: start_after.num_seconds(),
        by: person(&msg.author),
        players: Vec::new(),
        extensions: 0,
        open_message: Some(msg.message_id.clone()),
    };
    cx.ledger.save_signups(Some(&state), &msg.message_id);
    Response::new(Verdict::Accepted).say(cx.say(messages::SignupOpen {
        signup: signup_data(cx, &state),
    }))
}

/// Ends the channel's open signups (a game was set up by hand); the note to post, if there
/// were any.
pub(crate) async fn end_signups(cx: &mut Cx, message_id: &str) -> Option<String> {
    match cx.ledger.signups().await {
        Ok(Some(_)) => {}
        Ok(None) => return None,
        Err(error) => {
            tracing::error!(channel = %cx.ledger.channel, %error, "cannot read the signups");
            return None;
        }
    }
    cx.ledger.save_signups(None, message_id);
    Some(cx.say(messages::SignupDropped {}))
}

/// Bold text while no game is being played: a signup, or chat, if signups are open;
/// `None` when they are not.
pub(crate) async fn signup_bold(
    cx: &mut Cx,
    segments: &[String],
    msg: &Incoming,
) -> Option<Response> {
    match cx.ledger.signups().await {
        Ok(Some(_)) => {}
        Ok(None) => return None,
        Err(e) => return Some(cx.host.storage_refusal(&e)),
    }
    if segments.iter().any(|s| is_signup_phrase(s)) {
        Some(crate::commands::Command::run(&crate::commands::signup::Join, cx, "", msg).await)
    } else {
        Some(Response::new(Verdict::Ignored))
    }
}

/// Closes the signups when their time has come.
pub(crate) async fn signup_tick(cx: &mut Cx, now: DateTime<Utc>) -> Response {
    let state = match cx.ledger.signups().await {
        Ok(Some(state)) => state,
        Ok(None) => return Response::new(Verdict::Ignored),
        Err(error) => {
            tracing::error!(channel = %cx.ledger.channel, %error, "cannot read the signups");
            return Response::new(Verdict::Ignored);
        }
    };
    match parse_time(&state.closes_at) {
        Some(closes) if closes > now => return Response::new(Verdict::Ignored),
        _ => {}
    }
    let id = format!("signup:{}:{}", cx.ledger.channel, state.closes_at);
    close_signups(cx, state, now, false, &id).await
}

/// At the close: start the game (drawing the players if more signed up than are wanted),
/// or extend. `forced` (a moderator's `!signup close`) starts with what there is.
pub(crate) async fn close_signups(
    cx: &mut Cx,
    mut state: Signups,
    now: DateTime<Utc>,
    forced: bool,
    message_id: &str,
) -> Response {
    let count = state.players.len();
    let opened = parse_time(&state.opened_at).unwrap_or(now);
    let late = forced || now >= opened + Duration::seconds(state.start_after_s);
    if count >= state.max || (late && count >= state.min) {
        return start_from_signups(cx, state, now, message_id).await;
    }
    if forced {
        return cx.refuse(cx.say(messages::SignupTooFew {
            count,
            min: state.min,
        }));
    }
    let extend = Duration::seconds(state.extend_s.max(60));
    let mut closes = parse_time(&state.closes_at).unwrap_or(now);
    while closes <= now {
        closes += extend;
        state.extensions += 1;
    }
    state.closes_at = store_time(closes);
    cx.ledger.save_signups(Some(&state), message_id);
    let can_start_at = opened + Duration::seconds(state.start_after_s);
    Response::new(Verdict::Accepted).say(cx.say(messages::SignupExtended {
        late,
        start_at: relative(can_start_at),
        signup: signup_data(cx, &state),
    }))
}

async fn start_from_signups(
    cx: &mut Cx,
    state: Signups,
    now: DateTime<Utc>,
    message_id: &str,
) -> Response {
    let host = cx.host.clone();
    let game = match host.game(&state.kind) {
        Some(game) if cx.loaded.playing().is_none() && !matches!(cx.loaded, Loaded::Frozen(_)) => {
            game.clone()
        }
        _ => {
            // A game was set up by hand meanwhile (or the game is gone): the signups end.
            cx.ledger.save_signups(None, message_id);
            return Response::new(Verdict::Accepted).say(cx.say(messages::SignupDropped {}));
        }
    };
    let game_id = match cx.ledger.store.next_game_id(&cx.ledger.channel).await {
        Ok(id) => id,
        Err(e) => return cx.host.storage_refusal(&e),
    };
    let seed = match &host.settings.fixed_seed {
        Some(seed) => seed.clone(),
        None => match Seed::generate() {
            Ok(seed) => seed,
            Err(e) => {
                return cx.refuse(cx.say(messages::DiceFailed {
                    reason: e.to_string(),
                }))
            }
        },
    };
    let count = state.players.len();
    let wanted = count.min(state.max);
    // The draws are keyed by the `!signup open` message (known to all, posted before the
    // seed existed), not by whatever closes the signups (a clock tick has no message).
    let closing_message = message_id;
    let message_id = state
        .open_message
        .as_deref()
        .filter(|m| is_message_id(m))
        .unwrap_or(message_id);
    let (players, record, drawn) = if count > wanted {
        // Keyed like the game's setup draws: by this message under dice spec v2.
        let source = DrawSource {
            seed: &seed,
            game_id: &game_id,
            spec: crate::commands::setup::spec_for(message_id),
            message_id,
        };
        let drawn = signup_pick(source, count, wanted);
        let mut chosen = drawn.clone();
        chosen.sort_unstable();
        let players: Vec<PlayerInfo> = chosen
            .iter()
            .filter_map(|&n| {
                let index = usize::try_from(n).ok()?.checked_sub(1)?;
                state.players.get(index).cloned()
            })
            .collect();
        let names: Vec<String> = state.players.iter().map(|p| p.name.clone()).collect();
        (players, Some(pick_record(&names, wanted, &drawn)), drawn)
    } else {
        (state.players.clone(), None, Vec::new())
    };
    let intro = cx.say(messages::SignupClosed {
        drawn,
        purpose: PURPOSE_SIGNUP_PICK.to_string(),
        players: players.iter().map(|p| p.mention.clone()).collect(),
        signup: signup_data(cx, &state),
    });
    let parsed = SetupArgs {
        game,
        players,
        dice: DiceMode::Audited,
        force: false,
        options: SetupOptions::default(),
    };
    let response = crate::commands::setup::start_game(
        cx,
        parsed,
        game_id,
        Some(seed),
        closing_message,
        message_id,
        now,
        record,
    )
    .await;
    if response.verdict != Verdict::Accepted {
        return response;
    }
    cx.ledger.save_signups(None, closing_message);
    Response::new(Verdict::Accepted).say(format!("{intro}\n{}", response.text()))
}

#[cfg(test)]
mod tests {
    use super::*;

    // Fixed test vectors, computed independently by `python3 tools/verify_draws.py --selftest`
    // (docs/DICE.md §9.4). Never edit them to make a test pass.
    const TEST_SEED_HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    const TEST_GAME_ID: &str = "test-game";
    const TEST_KEY_SIGNUP_PICK: &str =
        "d0dd6564cf0f8fdfe2cadb0ec6519ac7e3eee4f3ce21e774c684ea6521fb7049";
    const TEST_PICK_6_OF_4: [u32; 4] = [5, 3, 1, 2];
    const TEST_PICK_5_OF_3: [u32; 3] = [3, 5, 1];

    fn seed() -> Seed {
        Seed::from_hex(TEST_SEED_HEX).expect("seed")
    }

    #[test]
    fn fixed_vector_signup_picks() {
        assert_eq!(
            hex::encode(crate::dice::draw_key(
                &seed(),
                TEST_GAME_ID,
                0,
                PURPOSE_SIGNUP_PICK
            )),
            TEST_KEY_SIGNUP_PICK
        );
        assert_eq!(
            signup_pick(DrawSource::v1(&seed(), TEST_GAME_ID), 6, 4),
            TEST_PICK_6_OF_4
        );
        assert_eq!(
            signup_pick(DrawSource::v1(&seed(), TEST_GAME_ID), 5, 3),
            TEST_PICK_5_OF_3
        );
    }

    #[test]
    fn a_pick_record_recomputes_and_a_wrong_one_does_not() {
        let names: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let drawn = signup_pick(DrawSource::v1(&seed(), TEST_GAME_ID), 5, 3);
        let record = pick_record(&names, 3, &drawn);
        assert_eq!(
            recompute(&record, DrawSource::v1(&seed(), TEST_GAME_ID)),
            Some(Ok(record.result.clone()))
        );
        assert_ne!(
            recompute(&record, DrawSource::v1(&seed(), "other-game")),
            Some(Ok(record.result.clone()))
        );
        let mut bad = record.clone();
        bad.inputs.insert("picks".into(), Value::from(9));
        assert!(matches!(
            recompute(&bad, DrawSource::v1(&seed(), TEST_GAME_ID)),
            Some(Err(_))
        ));
        let mut bad = record.clone();
        bad.index = 3;
        assert!(matches!(
            recompute(&bad, DrawSource::v1(&seed(), TEST_GAME_ID)),
            Some(Err(_))
        ));
        let other = DrawRecord::new(0, "player-order", [], Value::Null);
        assert_eq!(
            recompute(&other, DrawSource::v1(&seed(), TEST_GAME_ID)),
            None
        );
        let mut distinct = drawn.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 3);
        assert!(drawn.iter().all(|n| (1..=5).contains(n)));
    }

    #[test]
    fn signup_phrases_and_player_ranges() {
        for yes in [
            "sign up",
            "Sign Up!",
            "signup",
            "sign-up",
            "sign me up",
            "I'm in",
            "join",
        ] {
            assert!(is_signup_phrase(yes), "{yes}");
        }
        for no in ["bid 7", "pass", "sign", "up", "not signing up", ""] {
            assert!(!is_signup_phrase(no), "{no}");
        }
        assert_eq!(players_range("3-4"), Some((3, 4)));
        assert_eq!(players_range("4"), Some((4, 4)));
        assert_eq!(players_range("x-4"), None);
        assert_eq!(players_range("-4"), None);
    }
}
