//! What is answered across tables rather than by one channel's table: direct messages to the
//! bot (`!preset …`, `!waiting`) and `!waiting` in any channel. A player's games are found by
//! looking at every channel with an active game; one table is locked at a time.

use std::ops::{Deref, DerefMut};
use std::sync::Arc;

use chrono::{DateTime, Utc};

use crate::commands::{Directory, LockedCx, PlayerGame};
use crate::game::spec::Access;
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::table::extract::{extract, Commands};
use crate::table::{Cx, Host, TableError};
use crate::tables::{TableGuard, Tables};

impl Tables {
    /// Messages answered across tables: every direct message (`dm`), and the commands the
    /// registry answers across tables anywhere (`!waiting`). `None`: the channel's own table
    /// handles the message.
    pub async fn across(&self, dm: bool, msg: &Incoming) -> Option<Response> {
        self.across_from(if dm { None } else { Some("") }, msg)
            .await
    }

    /// [`Tables::across`], knowing the channel asked in (`None`: a direct message): the
    /// commands that answer for the caller's server (`!tables`) need it.
    pub async fn across_from(&self, channel: Option<&str>, msg: &Incoming) -> Option<Response> {
        let dm = channel.is_none();
        let prefix = self.host().settings.prefix.clone();
        match extract(&msg.text, &prefix) {
            Commands::Bang { name, args } => {
                let host = self.host().clone();
                if let Some(channel) = channel.filter(|c| !c.is_empty()) {
                    if let Some(response) = self
                        .registry()
                        .run_from(self, channel, &name, &args, msg)
                        .await
                    {
                        return Some(response);
                    }
                }
                if let Some(response) = self
                    .registry()
                    .run_across(self, dm, &name, &args, msg)
                    .await
                {
                    return Some(response);
                }
                if !dm {
                    return None;
                }
                let spec = host.commands.bang_of_any_game(&name);
                let command = spec.map(|c| c.name).unwrap_or("");
                let mut text = String::new();
                if spec.is_some_and(|c| c.access == Access::Moderator) {
                    // Nobody is a moderator in a direct message.
                    text = host.templates.say(
                        &messages::ModeratorOnly {
                            author: msg.author.name.clone(),
                            command: command.to_string(),
                            ruling: host.table_ruling(spec.and_then(|c| c.game)),
                        },
                        &prefix,
                    );
                    text.push('\n');
                }
                text.push_str(&self.host().say(messages::DmHelp {
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
    ) -> Result<Vec<PlayerGame>, TableError> {
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

/// A locked table, as the commands across tables work on it.
struct TableCx(TableGuard);

impl Deref for TableCx {
    type Target = Cx;

    fn deref(&self) -> &Cx {
        &self.0.cx
    }
}

impl DerefMut for TableCx {
    fn deref_mut(&mut self) -> &mut Cx {
        &mut self.0.cx
    }
}

#[async_trait::async_trait]
impl Directory for Tables {
    fn host(&self) -> &Arc<Host> {
        Tables::host(self)
    }

    async fn games_of(&self, id: &str, now: DateTime<Utc>) -> Result<Vec<PlayerGame>, TableError> {
        Tables::games_of(self, id, now).await
    }

    async fn cx(&self, channel: &str) -> Result<LockedCx, TableError> {
        Ok(Box::new(TableCx(self.table(channel).await?)))
    }

    fn store(&self) -> &Arc<dyn crate::store::Store> {
        Tables::store(self)
    }

    async fn channels(&self) -> Result<Vec<String>, TableError> {
        self.active_channels().await
    }

    fn server_of(&self, channel: &str) -> Option<String> {
        self.servers().server_of(channel)
    }

    fn one_server(&self) -> bool {
        self.servers().one_server()
    }
}
