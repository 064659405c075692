//! What is answered across tables rather than by one channel's table: direct messages to the
//! bot (`!preset …`, `!waiting`) and `!waiting` in any channel. A player's games are found by
//! looking at every channel with an active game; one table is locked at a time.

use chrono::{DateTime, Utc};

use crate::commands::registry::Access;
use crate::input::{Incoming, Response, Verdict};
use crate::messages::{self, Message};
use crate::table::extract::{extract, Commands};
use crate::table::tables::Tables;
use crate::weeks::meta::DecisionClock;

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
    /// One of the table's messages ([`crate::messages`]).
    pub(crate) fn say<M: Message>(&self, msg: M) -> String {
        self.host()
            .templates
            .say(&msg, &self.host().settings.prefix)
    }

    /// Messages answered across tables: every direct message (`dm`), and the commands the
    /// registry answers across tables anywhere (`!waiting`). `None`: the channel's own table
    /// handles the message.
    pub async fn across(&self, dm: bool, msg: &Incoming) -> Option<Response> {
        let prefix = self.host().settings.prefix.clone();
        match extract(&msg.text, &prefix) {
            Commands::Bang { name, args } => {
                let host = self.host().clone();
                if let Some(response) = host.registry.run_across(self, dm, &name, &args, msg).await
                {
                    return Some(response);
                }
                if !dm {
                    return None;
                }
                let spec = host.registry.bang_of_any_game(&name);
                let command = spec.map(|c| c.name).unwrap_or("");
                let mut text = String::new();
                if spec.is_some_and(|c| c.access == Access::Moderator) {
                    // Nobody is a moderator in a direct message.
                    text = host.templates.say(
                        &messages::ModeratorOnly {
                            author: msg.author.name.clone(),
                            command: command.to_string(),
                        },
                        &prefix,
                    );
                    text.push('\n');
                }
                text.push_str(&self.say(messages::DmHelp {
                    command: name.to_string(),
                }));
                Some(Response::new(Verdict::Refused).say(text))
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
}
