//! What is answered across tables rather than by one channel's table: direct messages to the
//! bot (`!preset …`, `!waiting`) and `!waiting` in any channel. A player's games are found by
//! looking at every channel with an active game; one table is locked at a time.

use chrono::{DateTime, Utc};
use minijinja::context;

use crate::commands::registry::Access;
use crate::input::{Incoming, Response, Verdict};
use crate::table::extract::{extract, Commands};
use crate::table::tables::Tables;
use crate::weeks::meta::DecisionClock;
use crate::weeks::pace::{decision_data, time_of, TEMPLATE};

/// How a channel is named in a text: `<#id>` on Discord (a numeric id), `#name` otherwise.
pub fn channel_ref(channel: &str) -> String {
    if !channel.is_empty() && channel.chars().all(|c| c.is_ascii_digit()) {
        format!("<#{channel}>")
    } else {
        format!("#{channel}")
    }
}

/// A game a player is seated in.
#[derive(Debug, Clone)]
pub struct PlayerGame {
    /// Its channel.
    pub channel: String,
    /// Its id.
    pub game_id: String,
    /// The game's title.
    pub title: &'static str,
    /// The decision it waits for, if a player is to act.
    pub clock: Option<DecisionClock>,
}

impl Tables {
    fn text(&self, msg: &str, ctx: minijinja::Value) -> String {
        let p = &self.host().settings.prefix;
        self.host()
            .templates
            .text(TEMPLATE, context! { msg, p, ..ctx })
    }

    /// Messages answered across tables: every direct message (`dm`), and `!waiting` anywhere.
    /// `None`: the channel's own table handles the message.
    pub async fn across(&self, dm: bool, msg: &Incoming) -> Option<Response> {
        let prefix = self.host().settings.prefix.clone();
        match extract(&msg.text, &prefix) {
            Commands::Bang { name, args } => {
                let spec = self.host().registry.bang_of_any_game(&name).cloned();
                let command = spec.as_ref().map(|c| c.name).unwrap_or("");
                match (command, dm) {
                    ("waiting", _) => Some(self.waiting(msg).await),
                    ("preset", true) => Some(self.preset(&args, msg).await),
                    (_, true) => {
                        let mut text = String::new();
                        if spec.is_some_and(|c| c.access == Access::Moderator) {
                            // Nobody is a moderator in a direct message.
                            text = self.host().templates.message(
                                "moderator_only",
                                context! { author => msg.author.name, command, p => prefix },
                            );
                            text.push('\n');
                        }
                        text.push_str(&self.text("dm_help", context! { command => name }));
                        Some(Response::new(Verdict::Refused).say(text))
                    }
                    _ => None,
                }
            }
            _ if dm => Some(Response::new(Verdict::Ignored)),
            _ => None,
        }
    }

    /// Every running game the player `id` is seated in, with the decision it waits for.
    pub async fn games_of(
        &self,
        id: &str,
        now: DateTime<Utc>,
    ) -> Result<Vec<PlayerGame>, crate::TableError> {
        let mut games = Vec::new();
        for channel in self.active_channels().await? {
            let table = self.table(&channel).await?;
            if !table.is_playing() || !table.seated().is_some_and(|s| s.iter().any(|p| p.id == id))
            {
                continue;
            }
            games.push(PlayerGame {
                channel: channel.clone(),
                game_id: table.game_id().unwrap_or_default().to_string(),
                title: table.title().unwrap_or_default(),
                clock: table.decision_clock(now),
            });
        }
        Ok(games)
    }

    /// `!waiting`: every game where the author is to act, and for how long.
    pub async fn waiting(&self, msg: &Incoming) -> Response {
        let now = time_of(msg);
        let games = match self.games_of(&msg.author.id, now).await {
            Ok(games) => games,
            Err(error) => {
                return Response::new(Verdict::Refused).say(
                    self.host()
                        .templates
                        .message("storage", context! { error => error.to_string() }),
                )
            }
        };
        let games: Vec<minijinja::Value> = games
            .iter()
            .filter_map(|g| {
                let clock = g.clock.as_ref().filter(|c| c.player.id == msg.author.id)?;
                Some(context! {
                    channel => channel_ref(&g.channel), game_id => g.game_id, title => g.title,
                    c => decision_data(clock, now),
                })
            })
            .collect();
        Response::new(Verdict::Answered)
            .say(self.text("waiting", context! { player => msg.author.name, games }))
    }

    /// `!preset [game] …` in a direct message: the game is asked for when the player is in
    /// several (by its number in the list or its id).
    async fn preset(&self, args: &str, msg: &Incoming) -> Response {
        let now = time_of(msg);
        let games = match self.games_of(&msg.author.id, now).await {
            Ok(games) => games,
            Err(error) => {
                return Response::new(Verdict::Refused).say(
                    self.host()
                        .templates
                        .message("storage", context! { error => error.to_string() }),
                )
            }
        };
        let args = args.trim();
        let (first, rest) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
        let chosen = first
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=games.len()).contains(n))
            .map(|n| n - 1)
            .or_else(|| games.iter().position(|g| g.game_id == first));
        let (index, text) = match (chosen, games.len()) {
            (Some(index), _) => (index, rest),
            (None, 1) => (0, args),
            (None, 0) => {
                return Response::new(Verdict::Refused)
                    .say(self.text("preset_no_games", context! {}))
            }
            (None, _) => {
                let list: Vec<minijinja::Value> = games
                    .iter()
                    .map(|g| {
                        context! { channel => channel_ref(&g.channel), game_id => g.game_id, title => g.title }
                    })
                    .collect();
                return Response::new(Verdict::Answered).say(self.text(
                    "preset_which_game",
                    context! { games => list, text => args },
                ));
            }
        };
        let game = &games[index];
        match self.table(&game.channel).await {
            Ok(mut table) => table.set_preset(&msg.author, text).await,
            Err(error) => Response::new(Verdict::Refused).say(
                self.host()
                    .templates
                    .message("storage", context! { error => error.to_string() }),
            ),
        }
    }
}
