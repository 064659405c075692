//! `!setup [game] @a @b @c … [dice:manual] [key:value …] [force]`: the table reads the game,
//! the players, the dice mode and `force`; every other `key:value` goes to the game.

use chrono::{DateTime, Utc};

use crate::commands::registry::{arg, table_command, Access, ArgKind, ArgSpec, CommandSpec, Form};
use crate::commands::Command;
use crate::dice::{is_message_id, DrawRecord, DrawSource, Seed, Spec};
use crate::game::session::{Render, SharedPlugin};
use crate::game::{DiceMode, PlayerInfo, SetupDice, SetupOptions};
use crate::input::{Incoming, Mention, Response, Verdict};
use crate::messages;
use crate::record::log::effective;
use crate::record::RunningHead;
use crate::store::{GameRow, Write};
use crate::table::{Current, Cx, Host, Loaded, StoredSetup};
use async_trait::async_trait;

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
}

/// Why `!setup`'s arguments do not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The bot hosts no game.
    #[error("this bot has no games")]
    NoGames,
    /// `dice:` names no dice mode.
    #[error("unknown dice mode '{0}' (manual or audited)")]
    DiceMode(String),
    /// A `<@…>` that is not a user mention.
    #[error("'{0}' is not a user mention")]
    NotAMention(String),
    /// A word that is not a player name.
    #[error("'{0}' is not a player name (letters, digits, _ - .)")]
    NotAName(String),
    /// A player named twice.
    #[error("{0} is listed twice")]
    Twice(String),
    /// An automa seat in a game that has no automa.
    #[error("{0} has no automa at this bot")]
    NoAutoma(&'static str),
    /// Too few or too many players for the game.
    #[error("{title} is for {least} to {most} players; {named} named")]
    Players {
        /// The game.
        title: &'static str,
        /// Its fewest players.
        least: usize,
        /// Its most players.
        most: usize,
        /// How many were named.
        named: usize,
    },
}

impl SetupArgs {
    /// Reads the arguments; the error says what is wrong.
    pub fn parse(host: &Host, args: &str, mentions: &[Mention]) -> Result<SetupArgs, SetupError> {
        let mut tokens = args.split_whitespace().peekable();
        let game = match tokens.peek().and_then(|t| host.game(t)) {
            Some(game) => {
                tokens.next();
                game.clone()
            }
            None => host.games.first().cloned().ok_or(SetupError::NoGames)?,
        };
        let mut players = Vec::new();
        let mut dice = DiceMode::Audited;
        let mut force = false;
        let mut options = SetupOptions::default();
        for token in tokens {
            let lower = token.to_ascii_lowercase();
            if crate::game::automa::automa_word(token).is_some() {
                // `automa`: a seat the game's computer player fills (`Automa 1`, `Automa 2` …).
                if !game.has_automa() {
                    return Err(SetupError::NoAutoma(game.info().title));
                }
                players.push(crate::game::automa::next_automa(&players));
            } else if let Some(mode) = lower.strip_prefix("dice:") {
                dice = match mode {
                    "manual" => DiceMode::Manual,
                    "audited" => DiceMode::Audited,
                    other => return Err(SetupError::DiceMode(other.to_string())),
                };
            } else if lower == "force" {
                force = true;
            } else if let Some(id) = token
                .strip_prefix("<@")
                .and_then(|t| t.strip_suffix('>'))
                .map(|t| t.trim_start_matches('!'))
            {
                if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
                    return Err(SetupError::NotAMention(token.to_string()));
                }
                let name = mentions
                    .iter()
                    .find(|m| m.id == id)
                    .map(|m| m.name.clone())
                    .unwrap_or_else(|| format!("user{id}"));
                players.push(PlayerInfo {
                    name,
                    id: id.to_string(),
                    mention: format!("<@{id}>"),
                });
            } else if let Some((key, value)) = token.split_once(':').filter(|(k, _)| !k.is_empty())
            {
                options
                    .values
                    .push((key.to_ascii_lowercase(), value.to_string()));
            } else {
                let name = token.trim_start_matches('@').trim_matches(',');
                if name.is_empty() {
                    continue;
                }
                if !name
                    .chars()
                    .all(|c| c.is_alphanumeric() || "_-.".contains(c))
                {
                    return Err(SetupError::NotAName(name.to_string()));
                }
                players.push(PlayerInfo {
                    name: name.to_string(),
                    id: name.to_lowercase(),
                    mention: format!("@{name}"),
                });
            }
        }
        for (i, p) in players.iter().enumerate() {
            if players[..i].iter().any(|q| q.id == p.id) {
                return Err(SetupError::Twice(p.name.clone()));
            }
        }
        let info = game.info();
        if !info.players.contains(&players.len()) {
            return Err(SetupError::Players {
                title: info.title,
                least: *info.players.start(),
                most: *info.players.end(),
                named: players.len(),
            });
        }
        Ok(SetupArgs {
            game,
            players,
            dice,
            force,
            options,
        })
    }
}

/// New games key their draws by the triggering message too (dice spec v2), where the message
/// has an id that can (Discord's snowflakes; the console's clock); otherwise v1.
pub(crate) fn spec_for(message_id: &str) -> Spec {
    if is_message_id(message_id) {
        Spec::V2
    } else {
        Spec::V1
    }
}

const SETUP_ARGS: &[ArgSpec] = &[
    arg(
        "game",
        ArgKind::Text,
        false,
        "which game (Irish Gauge when left out)",
    ),
    arg(
        "players",
        ArgKind::Users,
        true,
        "the players, in sign-up order (automa: a computer player)",
    ),
    arg("options", ArgKind::Text, false, "dice:manual, rolls, force"),
];
/// `!setup …`: starts a game in this channel.
pub(crate) struct Setup;

#[async_trait]
impl Command for Setup {
    fn spec(&self) -> CommandSpec {
        CommandSpec {
            example: "setup @a @b @c … [game] [dice:manual] [force]",
            ..table_command(
                "setup",
                &[],
                Access::Moderator,
                SETUP_ARGS,
                "start a game in this channel",
            )
        }
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        let host = cx.host.clone();
        let parsed = match SetupArgs::parse(&host, args, &msg.mentions) {
            Ok(parsed) => parsed,
            Err(reason) => {
                return cx.refuse(cx.say(messages::SetupUsage {
                    reason: reason.to_string(),
                }))
            }
        };
        let running = match &cx.loaded {
            Loaded::Running(c) if !c.session.is_finished() => Some(c.row.id.clone()),
            Loaded::Frozen(f) => Some(f.row.id.clone()),
            _ => None,
        };
        if let (Some(game_id), false) = (running, parsed.force) {
            return cx.refuse(cx.say(messages::GameRunning {
                game_id: game_id.to_string(),
            }));
        }
        let game_id = match cx.ledger.store.next_game_id(&cx.ledger.channel).await {
            Ok(id) => id,
            Err(e) => return cx.host.storage_refusal(&e),
        };
        let seed = match parsed.dice {
            DiceMode::Manual => None,
            DiceMode::Audited => match &host.settings.fixed_seed {
                Some(seed) => Some(seed.clone()),
                None => match Seed::generate() {
                    Ok(seed) => Some(seed),
                    Err(e) => {
                        return cx.refuse(cx.say(messages::DiceFailed {
                            reason: e.to_string(),
                        }))
                    }
                },
            },
        };
        let response = start_game(
            cx,
            parsed,
            game_id,
            seed,
            &msg.message_id,
            &msg.message_id,
            msg.stored_time(),
            None,
        )
        .await;
        if response.verdict != Verdict::Accepted {
            return response;
        }
        // A game set up by hand ends the channel's open signups.
        match crate::weeks::signup::end_signups(cx, &msg.message_id).await {
            Some(note) => {
                Response::new(Verdict::Accepted).say(format!("{note}\n{}", response.text()))
            }
            None => response,
        }
    }
}

/// Sets up a game with these players (already checked), id and seed, at time `at`: its setup
/// draws keyed by message `message_id` (the `!setup`, or the `!signup open` message), message
/// `seen` marked handled; `signup` is the draw that picked the players.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn start_game(
    cx: &mut Cx,
    parsed: SetupArgs,
    game_id: String,
    seed: Option<Seed>,
    seen: &str,
    message_id: &str,
    at: DateTime<Utc>,
    signup: Option<DrawRecord>,
) -> Response {
    let host = cx.host.clone();
    let spec = spec_for(message_id);
    let dice = match &seed {
        Some(seed) => SetupDice::Audited(DrawSource {
            seed,
            game_id: &game_id,
            spec,
            message_id,
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
            return cx.refuse(cx.say(messages::Refused { reason }));
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
    });
    let render = cx.host.view(&current).render(true, None);
    text.push('\n');
    text.push_str(&current.session.announce(&render));
    text.push('\n');
    text.push_str(&current.session.status(&render));
    cx.loaded = Loaded::Running(Box::new(current));
    Response::new(Verdict::Accepted).say(text)
}
