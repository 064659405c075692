//! Secret auction orders and what waits for a player: `!preset` (in a direct message to the
//! bot; for the player's eyes only) and `!waiting` (every game where the author is to act).
//! Both are answered across the tables ([`crate::Tables`]); `!waiting` at a table alone (when no
//! [`Tables`] routes it) looks at that table.

use async_trait::async_trait;
use serde_json::Value;

use crate::commands::registry::{arg, table_command, Access, ArgKind, ArgSpec, CommandSpec};
use crate::commands::seats::not_a_player;
use crate::commands::Command;
use crate::commands::Directory;
use crate::input::channel_ref;
use crate::input::{Author, Incoming, Response, Verdict};
use crate::messages;
use crate::store::Write;
use crate::table::Cx;
use crate::weeks::pace::{decision_data, drop_spent, time_of};
use crate::weeks::preset_book::StoredPreset;

const PRESET_ARGS: &[ArgSpec] = &[
    arg(
        "game",
        ArgKind::Text,
        false,
        "which game, when you play several",
    ),
    arg(
        "order",
        ArgKind::Text,
        true,
        "pass · max WLW 12 · clear (empty: list yours)",
    ),
];

/// `!preset [game] order`: a player's secret auction orders, in a direct message.
pub(crate) struct Preset;

#[async_trait]
impl Command for Preset {
    fn spec(&self) -> CommandSpec {
        CommandSpec {
            example: "preset pass · !preset max WLW 12 · !preset clear",
            ..table_command(
                "preset",
                &["presets"],
                Access::Anyone,
                PRESET_ARGS,
                "secret auction orders: send them to the bot in a direct message",
            )
        }
    }

    async fn run(&self, cx: &mut Cx, _args: &str, _msg: &Incoming) -> Response {
        Response::refused(cx.say(messages::PresetInChannel {}))
    }

    async fn run_across(
        &self,
        tables: &dyn Directory,
        dm: bool,
        args: &str,
        msg: &Incoming,
    ) -> Option<Response> {
        if !dm {
            return None;
        }
        Some(self.in_dm(tables, args, msg).await)
    }
}

impl Preset {
    /// `!preset [game] …` in a direct message: the game is asked for when the player is in
    /// several (by its number in the list or its id).
    async fn in_dm(&self, tables: &dyn Directory, args: &str, msg: &Incoming) -> Response {
        let now = time_of(msg);
        let games = match tables.games_of(&msg.author.id, now).await {
            Ok(games) => games,
            Err(error) => {
                return Response::new(Verdict::Refused).say(tables.host().say(messages::Storage {
                    error: error.to_string(),
                }))
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
                    .say(tables.host().say(messages::PresetNoGames {}))
            }
            (None, _) => {
                let list: Vec<messages::GameRef> = games
                    .iter()
                    .map(|g| messages::GameRef {
                        channel: channel_ref(&g.channel),
                        game_id: g.game_id.clone(),
                        title: g.title.to_string(),
                    })
                    .collect();
                return Response::new(Verdict::Answered).say(tables.host().say(
                    messages::PresetWhichGame {
                        games: list,
                        text: args.to_string(),
                    },
                ));
            }
        };
        let game = &games[index];
        match tables.cx(&game.channel).await {
            Ok(mut cx) => set_preset(&mut cx, &msg.author, text).await,
            Err(error) => {
                Response::new(Verdict::Refused).say(tables.host().say(messages::Storage {
                    error: error.to_string(),
                }))
            }
        }
    }
}

/// A player's presets in this game, replaced by `text` (`clear` removes them all; empty
/// lists them). For their eyes only: the reply goes to a direct message.
pub(crate) async fn set_preset(cx: &mut Cx, author: &Author, text: &str) -> Response {
    let Some(current) = cx.loaded.playing() else {
        return cx.host.not_playing(&cx.loaded);
    };
    let Some(seat) = current.seat_of(author) else {
        return Response::refused(not_a_player(cx, current, &author.name));
    };
    let game_id = current.row.id.clone();
    let channel = channel_ref(&cx.ledger.channel);
    let mut list = cx
        .ledger
        .preset_book(&game_id)
        .await
        .remove(&author.id)
        .unwrap_or_default();
    let orders: Vec<Value> = list.iter().map(|p| p.order.clone()).collect();
    drop_spent(&mut list, &current.session.spent_presets(seat, &orders));
    let render = cx.host.view(current).render(false, None);
    let text = text.trim();
    let (verdict, kind, described) = match text.to_ascii_lowercase().as_str() {
        "" | "list" | "show" => (Verdict::Answered, PresetReply::List, None),
        "clear" | "off" | "none" => {
            list.clear();
            (Verdict::Accepted, PresetReply::Cleared, None)
        }
        _ => match current.session.read_preset(seat, text) {
            None => {
                return Response::refused(cx.say(messages::PresetUnsupported {
                    title: current.session.info().title.to_string(),
                }))
            }
            Some(Err(refusal)) => {
                return Response::refused(cx.say(messages::PresetRefused {
                    reason: refusal.render(&render),
                }))
            }
            Some(Ok(preset)) => {
                let described = current.session.render_preset(&preset.order, &render);
                list.retain(|p| p.key != preset.key);
                list.push(StoredPreset {
                    key: preset.key,
                    order: preset.order,
                });
                (Verdict::Accepted, PresetReply::Saved, Some(described))
            }
        },
    };
    let presets: Vec<String> = list
        .iter()
        .map(|p| current.session.render_preset(&p.order, &render))
        .collect();
    if verdict == Verdict::Accepted {
        let json = serde_json::to_string(&list).unwrap_or_default();
        let write = [Write::Presets {
            game_id: game_id.clone(),
            player_id: author.id.to_string(),
            presets: (!list.is_empty()).then_some(json),
        }];
        if let Err(e) = cx.ledger.store.write(&write).await {
            return cx.host.storage_refusal(&e);
        }
        cx.ledger.presets.committed(&write);
    }
    let text = match kind {
        PresetReply::List => cx.say(messages::PresetList {
            game_id,
            channel,
            preset: described,
            presets,
        }),
        PresetReply::Cleared => cx.say(messages::PresetCleared {
            game_id,
            channel,
            preset: described,
            presets,
        }),
        PresetReply::Saved => cx.say(messages::PresetSaved {
            game_id,
            channel,
            preset: described,
            presets,
        }),
    };
    Response::new(verdict).say(text)
}

/// What `!preset` answers.
enum PresetReply {
    List,
    Cleared,
    Saved,
}

/// `!waiting`: every game where the author is to act, and for how long.
pub(crate) struct Waiting;

#[async_trait]
impl Command for Waiting {
    fn spec(&self) -> CommandSpec {
        table_command(
            "waiting",
            &["wait"],
            Access::Anyone,
            &[],
            "every game where you are to act, and for how long",
        )
    }

    async fn run(&self, cx: &mut Cx, _args: &str, msg: &Incoming) -> Response {
        let now = time_of(msg);
        let running = cx.loaded.running();
        let games: Vec<messages::WaitingGame> = cx
            .loaded
            .decision_clock(now)
            .filter(|c| c.player.id == msg.author.id)
            .map(|c| messages::WaitingGame {
                channel: channel_ref(&cx.ledger.channel),
                game_id: running.map(|c| c.row.id.clone()).unwrap_or_default(),
                title: running
                    .map(|c| c.session.info().title.to_string())
                    .unwrap_or_default(),
                c: decision_data(&c, now),
            })
            .into_iter()
            .collect();
        Response::new(Verdict::Answered).say(cx.say(messages::Waiting {
            player: msg.author.name.to_string(),
            games,
        }))
    }

    async fn run_across(
        &self,
        tables: &dyn Directory,
        _dm: bool,
        _args: &str,
        msg: &Incoming,
    ) -> Option<Response> {
        let now = time_of(msg);
        let games = match tables.games_of(&msg.author.id, now).await {
            Ok(games) => games,
            Err(error) => {
                return Some(Response::new(Verdict::Refused).say(tables.host().say(
                    messages::Storage {
                        error: error.to_string(),
                    },
                )))
            }
        };
        let games: Vec<messages::WaitingGame> = games
            .iter()
            .filter_map(|g| {
                let clock = g.clock.as_ref().filter(|c| c.player.id == msg.author.id)?;
                Some(messages::WaitingGame {
                    channel: channel_ref(&g.channel),
                    game_id: g.game_id.clone(),
                    title: g.title.to_string(),
                    c: decision_data(clock, now),
                })
            })
            .collect();
        Some(
            Response::new(Verdict::Answered).say(tables.host().say(messages::Waiting {
                player: msg.author.name.to_string(),
                games,
            })),
        )
    }
}
