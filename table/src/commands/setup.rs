//! `!setup [game] @a @b @c … [dice:manual] [key:value …] [force]`: the table reads the game,
//! the players, the dice mode and `force`; every other `key:value` goes to the game.

use crate::commands::registry::{arg, table_command, Access, ArgKind, ArgSpec, CommandSpec};
use crate::commands::Command;
use crate::dice::Seed;
use crate::game::{DiceMode, PlayerInfo, SetupOptions};
use crate::input::{mentioned, Incoming, Mention, Response, Verdict};
use crate::messages;
use crate::table::pending;
use crate::table::start::{start_game, SetupArgs};
use crate::table::{Cx, Host, Loaded};
use async_trait::async_trait;

/// Why `!setup`'s arguments do not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SetupError {
    /// The bot hosts no game.
    #[error("this bot has no games")]
    NoGames,
    /// `dice:` names no dice mode.
    #[error("unknown dice mode '{0}' (manual or audited)")]
    DiceMode(String),
    /// `forced:` is neither `ask` nor `auto`.
    #[error("unknown choice forced:{0} (forced:ask asks every move, even one without a choice; forced:auto, the default, plays those for the player)")]
    Forced(String),
    /// A word that is not a player name.
    #[error("'{0}' is not a player name (letters, digits, _ - .)")]
    NotAName(String),
    /// A player name that is also a word `!setup` reads otherwise (a game's name).
    #[error("'{name}' names {what}, not a player; put it in quotes (\"{name}\") for a player of that name, or name the game first")]
    KeywordName {
        /// The name as written.
        name: String,
        /// What else it names (`the game Irish Gauge`).
        what: String,
    },
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

/// Whether `word` names `game`: its kind, an alias, or a word of its title (`gauge`).
fn names_game(game: &crate::game::session::SharedPlugin, word: &str) -> bool {
    let info = game.info();
    info.is_named(word)
        || info
            .title
            .split_whitespace()
            .any(|w| w.eq_ignore_ascii_case(word))
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
        let mut ask_forced = false;
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
            } else if let Some(choice) = lower.strip_prefix("forced:") {
                ask_forced = match choice {
                    "ask" => true,
                    "auto" => false,
                    other => return Err(SetupError::Forced(other.to_string())),
                };
            } else if lower == "force" {
                force = true;
            } else if let Some(user) = mentioned(mentions, token) {
                players.push(PlayerInfo {
                    name: user.name.clone(),
                    id: user.id.clone(),
                    mention: user.written.first().cloned().unwrap_or_default(),
                });
            } else if let Some((key, value)) = token.split_once(':').filter(|(k, _)| !k.is_empty())
            {
                options
                    .values
                    .push((key.to_ascii_lowercase(), value.to_string()));
            } else {
                let unquoted = token.trim_matches(',');
                let quoted =
                    unquoted.len() >= 2 && unquoted.starts_with('"') && unquoted.ends_with('"');
                let name = if quoted {
                    &unquoted[1..unquoted.len() - 1]
                } else {
                    token.trim_start_matches('@').trim_matches(',')
                };
                if name.is_empty() {
                    continue;
                }
                if !quoted {
                    if let Some(game) = host.games.iter().find(|g| names_game(g, name)) {
                        return Err(SetupError::KeywordName {
                            name: name.to_string(),
                            what: format!("the game {}", game.info().title),
                        });
                    }
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
            ask_forced,
        })
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
    arg(
        "options",
        ArgKind::Text,
        false,
        "dice:manual, rolls, forced:ask, force",
    ),
];
/// `!setup …`: starts a game in this channel.
pub(crate) struct Setup;

#[async_trait]
impl Command for Setup {
    fn spec(&self) -> CommandSpec {
        CommandSpec {
            example: "setup @a @b @c … [game] [dice:manual] [forced:ask] [force]",
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
                return Response::refused(cx.say(messages::SetupUsage {
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
            return Response::refused(cx.say(messages::GameRunning {
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
                        return Response::refused(cx.say(messages::DiceFailed {
                            reason: e.to_string(),
                        }))
                    }
                },
            },
        };
        if let (Some(seed), true) = (&seed, pending::waits(cx, seed.as_ref(), &msg.message_id)) {
            // The setup draws wait for the commitment post's id (docs/DICE.md §3.3).
            let note = crate::table::signups::end_signups(cx, &msg.message_id).await;
            let response = pending::commit_first(cx, parsed, game_id, seed, msg);
            return match (note, response.verdict) {
                (Some(note), Verdict::Accepted) => {
                    let game = response.waiting_setup().unwrap_or_default().to_string();
                    Response::new(Verdict::Accepted)
                        .say(format!("{note}\n{}", response.text()))
                        .commitment_post(&game)
                }
                _ => response,
            };
        }
        let response = start_game(
            cx,
            parsed,
            game_id,
            seed,
            &msg.message_id,
            &msg.message_id,
            None,
            msg.stored_time(),
            None,
        )
        .await;
        if response.verdict != Verdict::Accepted {
            return response;
        }
        // A game set up by hand ends the channel's open signups.
        match crate::table::signups::end_signups(cx, &msg.message_id).await {
            Some(note) => {
                Response::new(Verdict::Accepted).say(format!("{note}\n{}", response.text()))
            }
            None => response,
        }
    }
}
