//! Setting up a game at a table: the game's setup made and its first report, from `!setup`'s
//! arguments ([`crate::commands::setup`] reads them) or from closed signups
//! ([`crate::table::signups`]).

use chrono::{DateTime, Utc};

use crate::dice::{DrawRecord, DrawSource, Seed, Spec};
use crate::game::log::effective;
use crate::game::session::{Render, SharedPlugin};
use crate::game::spec::{Access, Form};
use crate::game::{DiceMode, PlayerInfo, SetupDice, SetupOptions};
use crate::input::{Response, Verdict};
use crate::messages;
use crate::record::RunningHead;
use crate::store::{GameRow, Write};
use crate::table::{Current, Cx, Loaded, StoredSetup};

/// `!setup`'s arguments as the table reads them.
#[derive(Debug, Clone)]
pub struct SetupArgs {
    /// The game (the host's first when none is named).
    pub game: SharedPlugin,
    /// The players in sign-up order.
    pub players: Vec<PlayerInfo>,
    /// How draws are made.
    pub dice: DiceMode,
    /// Replace a running game.
    pub force: bool,
    /// The game's own options.
    pub options: SetupOptions,
    /// `forced:ask`: the player is asked even for a move they have no choice in (by default
    /// the table plays it for them).
    pub ask_forced: bool,
}

/// The dice spec of a new game set up by `message_id`: the host's (v3 unless a test asks for an
/// earlier one; docs/DICE.md §3.3); v2 needs a message with a numeric id, else v1 (as before v3).
/// Games in progress keep the spec they were created under (stored with their setup).
pub(crate) fn spec_for(wanted: Spec, message_id: &str) -> Spec {
    match wanted {
        Spec::V2 if !crate::dice::is_message_id(message_id) => Spec::V1,
        other => other,
    }
}

/// Sets up a game with these players (already checked), id and seed, at time `at`: its setup
/// draws keyed by message `message_id` (the `!setup`, or the `!signup open` message) — under v3
/// by `client_seed` when one is given (the id of the bot's commitment post, docs/DICE.md §3.3)
/// —, message `seen` marked handled; `signup` is the draw that picked the players.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn start_game(
    cx: &mut Cx,
    parsed: SetupArgs,
    game_id: String,
    seed: Option<Seed>,
    seen: &str,
    message_id: &str,
    client_seed: Option<&str>,
    at: DateTime<Utc>,
    signup: Option<DrawRecord>,
) -> Response {
    let host = cx.host.clone();
    let spec = spec_for(host.settings.dice_spec, message_id);
    let client_seed = client_seed.filter(|_| spec == Spec::V3);
    let dice = match &seed {
        Some(seed) => SetupDice::Audited(DrawSource {
            seed,
            game_id: &game_id,
            spec,
            message_id: client_seed.unwrap_or(message_id),
        }),
        None => SetupDice::Manual,
    };
    let render = Render {
        templates: &host.templates,
        prefix: &host.settings.prefix,
        game_id: &game_id,
        moderator: &host.settings.moderator_name,
        draw_source: None,
        ping: true,
        skip: None,
        head: None,
        page: None,
    };
    let (setup, session) = match parsed
        .game
        .create(parsed.players.clone(), &parsed.options, dice)
    {
        Ok(created) => created,
        Err(refusal) => {
            // A refusal of the setup names players without pinging them.
            let reason = refusal.render(&Render {
                ping: false,
                ..render
            });
            return Response::refused(cx.say(messages::Refused { reason }));
        }
    };
    let info = parsed.game.info();
    let stored = StoredSetup {
        players: parsed.players,
        setup,
        dice: parsed.dice,
        spec,
        setup_message: Some(message_id.to_string()),
        signup,
        ask_forced: parsed.ask_forced,
        client_seed: client_seed.map(str::to_string),
    };
    let row = GameRow {
        id: game_id.clone(),
        channel: cx.ledger.channel.clone(),
        kind: info.kind.to_string(),
        engine_version: info.engine_version.to_string(),
        created_at: at,
        setup_json: serde_json::to_string(&stored).unwrap_or_default(),
        seed_hex: seed.as_ref().map(|s| s.to_hex()),
        commitment: seed.as_ref().map(|s| s.commitment()),
        revealed: false,
        active: true,
    };
    cx.ledger.stage(Write::CreateGame {
        game: row.clone(),
        message_id: seen.to_string(),
    });
    let head = RunningHead::of(&row, &stored, session.as_ref(), std::iter::empty());
    let current = Current {
        row,
        plugin: parsed.game.clone(),
        stored,
        seed,
        log: Vec::new(),
        stack: effective(std::iter::empty()),
        session,
        head,
        report: std::sync::OnceLock::new(),
        page: None,
    };
    let draw_commands: Vec<String> = host
        .commands
        .for_game(Some(info.kind))
        .filter(|c| {
            c.game == Some(info.kind) && c.form == Form::Bang && c.access == Access::Moderator
        })
        .map(|c| format!("`{}{}`", host.settings.prefix, c.name))
        .collect();
    let mut text = cx.say(messages::NewGame {
        game_id: game_id.to_string(),
        title: info.title.to_string(),
        players: current.session.seated().len(),
        commitment: current.row.commitment.clone(),
        draw_commands,
        client_seed: current.stored.client_seed.clone(),
    });
    let render = cx.host.view(&current).render(true, None);
    text.push('\n');
    text.push_str(&current.session.announce(&render));
    text.push('\n');
    text.push_str(&current.session.status(&render));
    // The board at the start, as the forum moderator posts it with the setup (where maps are
    // posted after builds).
    let picture = if cx.host.settings.map_after_build {
        cx.host
            .view(&current)
            .picture_attachment()
            .and_then(Result::ok)
    } else {
        None
    };
    cx.loaded = Loaded::Running(Box::new(current));
    Response::new(Verdict::Accepted).say(text).attach(picture)
}
