//! The second step of a setup made with the commitment first (docs/DICE.md §1): the bot's
//! commitment post got its id, the game's client seed; the setup waiting in the channel
//! ([`super::pending`]) is made with it — the pick of players first for closed signups — and
//! the channel's state cleared.

use crate::dice::Seed;
use crate::game::{DiceMode, SetupOptions};
use crate::input::{Response, Verdict};
use crate::store::Write;
use crate::table::pending::waiting;
use crate::table::signups::{pick_and_start, SignupStart};
use crate::table::start::{start_game, SetupArgs};
use crate::table::Cx;

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
    if let Some(signups) = pending.signups {
        let start = SignupStart {
            game: game.clone(),
            game_id: pending.game_id,
            seed,
            closing_message: post_id,
            key_message: &pending.setup_message,
            client_seed: Some(post_id),
            now: pending.at,
        };
        return pick_and_start(cx, signups, start).await;
    }
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
