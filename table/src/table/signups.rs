//! The signup work of a table (`!signup open`, `**sign up**`, the close at its time): opening,
//! extending and closing a channel's signups, and setting up the game they lead to. Functions
//! over the table's context: closing the signups sets up a game. The signups themselves, the
//! pick of players and its audit record are [`crate::weeks::signup`]'s.

use chrono::{DateTime, Duration, Utc};

use crate::dice::{is_message_id, DrawSource, Seed};
use crate::game::{DiceMode, PlayerInfo, SetupOptions};
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::table::start::{spec_for, start_game, SetupArgs};
use crate::table::{Cx, Loaded};
use crate::weeks::duration::{
    format_duration, full, parse_duration, parse_time, relative, store_time,
};
use crate::weeks::pace::{duration_error, person, time_of};
use crate::weeks::signup::{
    is_signup_phrase, pick_record, players_range, signup_pick, Signups, PURPOSE_SIGNUP_PICK,
    SIGNUP_CAP,
};

const DEFAULT_CLOSES: Duration = Duration::hours(24);
const DEFAULT_EXTEND: Duration = Duration::hours(24);
const DEFAULT_START_AFTER: Duration = Duration::hours(72);

/// The channel's open signups, or the refusal when there are none (or storage fails).
pub(crate) async fn open_signups_state(cx: &Cx) -> Result<Signups, Response> {
    match cx.ledger.signups().await {
        Ok(Some(state)) => Ok(state),
        Ok(None) => Err(Response::refused(cx.say(messages::SignupNone {}))),
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
        return Response::refused(cx.say(messages::SignupGameRunning {}));
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
            None => return Response::refused(cx.say(messages::SignupUsage { token: None })),
        },
    };
    let info = game.info();
    let (mut min, mut max) = (*info.players.start(), *info.players.end());
    let (mut closes, mut extend, mut start_after) =
        (DEFAULT_CLOSES, DEFAULT_EXTEND, DEFAULT_START_AFTER);
    for token in tokens {
        let Some((key, value)) = token.split_once(':') else {
            return Response::refused(cx.say(messages::SignupUsage {
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
                        return Response::refused(cx.say(messages::SignupPlayers {
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
                return Response::refused(cx.say(messages::SignupUsage {
                    token: Some(token.to_string()),
                }))
            }
        };
        match parse_duration(value) {
            Ok(d) => *duration = d,
            Err(error) => {
                return Response::refused(cx.say(messages::BadDuration {
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
        Some(join(cx, msg).await)
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
        return Response::refused(cx.say(messages::SignupTooFew {
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
                return Response::refused(cx.say(messages::DiceFailed {
                    reason: e.to_string(),
                }))
            }
        },
    };
    // The draws are keyed by the `!signup open` message (known to all, posted before the
    // seed existed), not by whatever closes the signups (a clock tick has no message).
    let key_message = state
        .open_message
        .as_deref()
        .filter(|m| is_message_id(m))
        .unwrap_or(message_id)
        .to_string();
    if crate::table::pending::waits(cx, Some(&seed), &key_message) {
        // The pick and the setup draws wait for the commitment post's id (docs/DICE.md §1).
        return crate::table::pending::commit_signups_first(
            cx,
            state,
            game,
            game_id,
            &seed,
            message_id,
            &key_message,
            now,
        );
    }
    let start = SignupStart {
        game,
        game_id,
        seed,
        closing_message: message_id,
        key_message: &key_message,
        client_seed: None,
        now,
    };
    pick_and_start(cx, state, start).await
}

/// What a game started by signups is set up with.
pub(crate) struct SignupStart<'a> {
    /// The game.
    pub(crate) game: crate::game::session::SharedPlugin,
    /// Its id.
    pub(crate) game_id: String,
    /// Its seed.
    pub(crate) seed: Seed,
    /// The message (or the clock's key) that closed the signups.
    pub(crate) closing_message: &'a str,
    /// The message that keys the draws (the `!signup open` message).
    pub(crate) key_message: &'a str,
    /// The client seed under v3 when it is the commitment post's id (docs/DICE.md §1).
    pub(crate) client_seed: Option<&'a str>,
    /// Now.
    pub(crate) now: DateTime<Utc>,
}

/// Picks the players among the signups (if more signed up than are wanted) and starts the game.
pub(crate) async fn pick_and_start(
    cx: &mut Cx,
    state: Signups,
    start: SignupStart<'_>,
) -> Response {
    let host = cx.host.clone();
    let SignupStart {
        game,
        game_id,
        seed,
        closing_message,
        key_message: message_id,
        client_seed,
        now,
    } = start;
    let count = state.players.len();
    let wanted = count.min(state.max);
    let (players, record, drawn) = if count > wanted {
        // Keyed like the game's setup draws: by this message under dice spec v2, by the
        // client seed under v3.
        let spec = spec_for(host.settings.dice_spec, message_id);
        let source = DrawSource {
            seed: &seed,
            game_id: &game_id,
            spec,
            message_id: client_seed
                .filter(|_| spec == crate::dice::Spec::V3)
                .unwrap_or(message_id),
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
        players: players.iter().map(PlayerInfo::ping).collect(),
        signup: signup_data(cx, &state),
    });
    let parsed = SetupArgs {
        game,
        players,
        dice: DiceMode::Audited,
        force: false,
        options: SetupOptions::default(),
        ask_forced: false,
    };
    let response = start_game(
        cx,
        parsed,
        game_id,
        Some(seed),
        closing_message,
        message_id,
        client_seed,
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

/// Signs the author up (`!join`, or **sign up** while signups are open).
pub(crate) async fn join(cx: &mut Cx, msg: &Incoming) -> Response {
    let mut state = match open_signups_state(cx).await {
        Ok(state) => state,
        Err(refusal) => return refusal,
    };
    let player = msg.author.name.clone();
    if state.players.iter().any(|p| p.id == msg.author.id) {
        return Response::new(Verdict::Answered).say(cx.say(messages::SignupStatus {
            change: "already".into(),
            player,
            signup: signup_data(cx, &state),
        }));
    }
    if state.players.len() >= SIGNUP_CAP {
        return Response::refused(cx.say(messages::SignupFull {
            player,
            cap: SIGNUP_CAP,
        }));
    }
    state.players.push(person(&msg.author));
    cx.ledger.save_signups(Some(&state), &msg.message_id);
    Response::new(Verdict::Accepted).say(cx.say(messages::SignupStatus {
        change: "joined".into(),
        player,
        signup: signup_data(cx, &state),
    }))
}
