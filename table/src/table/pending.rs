//! A setup waiting for the bot's commitment post (docs/DICE.md §3.3). With
//! [`crate::TableSettings::setup_after_commitment`], `!setup` of a v3 game with audited dice
//! draws the seed, posts its commitment alone and keeps the setup in the channel's state, stored
//! with the post in one commit; when the transport reports the id that post got, the setup
//! draws are made with that id as the game's client seed ([`super::setup_after_post`]). Closed
//! signups wait the same way: the pick of players is made with that id too. Nobody knew the id when the seed was
//! committed, so the host cannot try seeds until the setup draws suit it. A crash between the
//! post and the draws finishes the setup when the post is delivered again (same nonce, same id).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::dice::{DrawSource, Seed, Spec};
use crate::game::session::SharedPlugin;
use crate::game::{PlayerInfo, SetupDice};
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::store::{StoreError, Write};
use crate::table::start::SetupArgs;
use crate::table::Cx;
use crate::weeks::signup::Signups;

/// A set-up game whose setup draws wait for its commitment post's id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct PendingSetup {
    /// The game's id.
    pub(crate) game_id: String,
    /// The game's kind.
    pub(crate) kind: String,
    /// The players in sign-up order.
    pub(crate) players: Vec<PlayerInfo>,
    /// The game's own `key:value` options.
    pub(crate) options: Vec<(String, String)>,
    /// `forced:ask`.
    pub(crate) ask_forced: bool,
    /// The secret seed (hex), committed to in the post.
    pub(crate) seed: String,
    /// The `!setup` message.
    pub(crate) setup_message: String,
    /// When it was posted.
    pub(crate) at: DateTime<Utc>,
    /// For a game started by signups: the closed signups, whose players are picked (if more
    /// signed up than are wanted) with the commitment post's id too; `setup_message` is then
    /// the `!signup open` message and `players` is empty.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) signups: Option<Signups>,
}

/// The channel's state while a setup waits (open signups are another state of the channel).
#[derive(Debug, Serialize, Deserialize)]
struct ChannelPending {
    pending_setup: PendingSetup,
}

/// Whether `!setup` of these arguments, with `seed`, waits for the commitment post.
pub(crate) fn waits(cx: &Cx, seed: Option<&Seed>, message_id: &str) -> bool {
    let settings = &cx.host.settings;
    settings.setup_after_commitment
        && seed.is_some()
        && crate::table::start::spec_for(settings.dice_spec, message_id) == Spec::V3
}

/// `!setup`'s first step: checks the setup (made once with a placeholder client seed and
/// dropped), stages it with the channel's state and answers with the commitment post alone.
pub(crate) fn commit_first(
    cx: &mut Cx,
    parsed: SetupArgs,
    game_id: String,
    seed: &Seed,
    msg: &Incoming,
) -> Response {
    let trial = DrawSource {
        seed,
        game_id: &game_id,
        spec: Spec::V3,
        message_id: "0",
    };
    if let Err(refusal) = parsed.game.create(
        parsed.players.clone(),
        &parsed.options,
        SetupDice::Audited(trial),
    ) {
        let host = cx.host.clone();
        let reason = refusal.render(&crate::game::session::Render {
            templates: &host.templates,
            prefix: &host.settings.prefix,
            game_id: &game_id,
            moderator: &host.settings.moderator_name,
            draw_source: None,
            ping: false,
            skip: None,
            head: None,
            page: None,
        });
        return Response::refused(cx.say(messages::Refused { reason }));
    }
    let info = parsed.game.info();
    let pending = PendingSetup {
        game_id: game_id.clone(),
        kind: info.kind.to_string(),
        players: parsed.players,
        options: parsed.options.values,
        ask_forced: parsed.ask_forced,
        seed: seed.to_hex(),
        setup_message: msg.message_id.clone(),
        at: msg.stored_time(),
        signups: None,
    };
    keep(cx, pending, &msg.message_id, info.title)
}

/// The closing of signups with the commitment first: the signups kept with the commitment
/// post; the pick of players and the setup draws are made once its id is known ([`finish`]).
/// `closing_message` closed them (marked seen), `key_message` is the `!signup open` message.
#[allow(clippy::too_many_arguments)]
pub(crate) fn commit_signups_first(
    cx: &mut Cx,
    signups: Signups,
    game: SharedPlugin,
    game_id: String,
    seed: &Seed,
    closing_message: &str,
    key_message: &str,
    now: DateTime<Utc>,
) -> Response {
    let pending = PendingSetup {
        game_id,
        kind: signups.kind.clone(),
        players: Vec::new(),
        options: Vec::new(),
        ask_forced: false,
        seed: seed.to_hex(),
        setup_message: key_message.to_string(),
        at: now,
        signups: Some(signups),
    };
    keep(cx, pending, closing_message, game.info().title)
}

/// Stages `pending` as the channel's state (message `seen` marked seen) and answers with the
/// commitment post, marked as the post whose id the setup waits for.
fn keep(cx: &mut Cx, pending: PendingSetup, seen: &str, title: &str) -> Response {
    let game_id = pending.game_id.clone();
    let commitment = Seed::from_hex(&pending.seed)
        .map(|seed| seed.commitment())
        .unwrap_or_default();
    let state = ChannelPending {
        pending_setup: pending,
    };
    cx.ledger.stage(Write::ChannelState {
        channel: cx.ledger.channel.clone(),
        state: Some(serde_json::to_string(&state).unwrap_or_default()),
        message_id: seen.to_string(),
    });
    let text = cx.say(messages::SetupCommitted {
        game_id: game_id.clone(),
        title: title.to_string(),
        commitment,
    });
    Response::new(Verdict::Accepted)
        .say(text)
        .commitment_post(&game_id)
}

/// The setup waiting in the channel, if one is (as staged by this command, else as stored).
pub(crate) async fn waiting(cx: &Cx) -> Result<Option<PendingSetup>, StoreError> {
    Ok(cx
        .ledger
        .channel_state()
        .await?
        .and_then(|json| serde_json::from_str::<ChannelPending>(&json).ok())
        .map(|state| state.pending_setup))
}
