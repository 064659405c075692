//! A setup waiting for the bot's commitment post (docs/DICE.md §3.3). With
//! [`crate::TableSettings::setup_after_commitment`], `!setup` of a v3 game with audited dice
//! draws the seed, posts its commitment alone and keeps the setup in the channel's state, stored
//! with the post in one commit; when the transport reports the id that post got, the setup
//! draws are made with that id as the game's client seed. Nobody knew the id when the seed was
//! committed, so the host cannot try seeds until the setup draws suit it. A crash between the
//! post and the draws finishes the setup when the post is delivered again (same nonce, same id).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

use crate::dice::{DrawSource, Seed, Spec};
use crate::game::{DiceMode, PlayerInfo, SetupDice, SetupOptions};
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::store::{StoreError, Write};
use crate::table::start::{start_game, SetupArgs};
use crate::table::Cx;

/// A set-up game whose setup draws wait for its commitment post's id.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct PendingSetup {
    /// The game's id.
    game_id: String,
    /// The game's kind.
    kind: String,
    /// The players in sign-up order.
    players: Vec<PlayerInfo>,
    /// The game's own `key:value` options.
    options: Vec<(String, String)>,
    /// `forced:ask`.
    ask_forced: bool,
    /// The secret seed (hex), committed to in the post.
    seed: String,
    /// The `!setup` message.
    setup_message: String,
    /// When it was posted.
    at: DateTime<Utc>,
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
        return cx.refuse(cx.say(messages::Refused { reason }));
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
    };
    let state = ChannelPending {
        pending_setup: pending,
    };
    cx.ledger.stage(Write::ChannelState {
        channel: cx.ledger.channel.clone(),
        state: Some(serde_json::to_string(&state).unwrap_or_default()),
        message_id: msg.message_id.clone(),
    });
    let text = cx.say(messages::SetupCommitted {
        game_id: game_id.clone(),
        title: info.title.to_string(),
        commitment: seed.commitment(),
    });
    Response::new(Verdict::Accepted)
        .say(text)
        .commitment_post(&game_id)
}

/// The setup waiting in the channel, if one is (as staged by this command, else as stored).
async fn waiting(cx: &Cx) -> Result<Option<PendingSetup>, StoreError> {
    Ok(cx
        .ledger
        .channel_state()
        .await?
        .and_then(|json| serde_json::from_str::<ChannelPending>(&json).ok())
        .map(|state| state.pending_setup))
}

/// `!setup`'s second step, once the commitment post of game `game_id` has the id `post_id`:
/// the setup draws with that id as the game's client seed, the game started and the channel's
/// state cleared. Nothing (an ignored answer, no writes) if no setup of that game waits: its
/// post was reported before.
pub(crate) async fn finish(cx: &mut Cx, game_id: &str, post_id: &str) -> Response {
    let pending = match waiting(cx).await {
        Ok(Some(pending)) if pending.game_id == game_id => pending,
        Ok(_) => return Response::new(Verdict::Ignored),
        Err(error) => return cx.host.storage_refusal(&error),
    };
    cx.ledger.stage(Write::ChannelState {
        channel: cx.ledger.channel.clone(),
        state: None,
        message_id: post_id.to_string(),
    });
    let host = cx.host.clone();
    let (Some(game), Ok(seed)) = (host.game(&pending.kind), Seed::from_hex(&pending.seed)) else {
        tracing::error!(channel = %cx.ledger.channel, game = game_id, "a waiting setup names no game of this bot or has no seed; dropped");
        return Response::new(Verdict::Accepted);
    };
    let parsed = SetupArgs {
        game: game.clone(),
        players: pending.players,
        dice: DiceMode::Audited,
        force: true,
        options: SetupOptions {
            values: pending.options,
        },
        ask_forced: pending.ask_forced,
    };
    start_game(
        cx,
        parsed,
        pending.game_id,
        Some(seed),
        post_id,
        &pending.setup_message,
        Some(post_id),
        pending.at,
        None,
    )
    .await
}
