//! The object-safe side of a game plug-in: a registered game ([`Plugin`]) makes sessions, and a
//! [`Session`] is one game in progress. Moves and draws cross this boundary as JSON, texts as
//! rendered strings; the typed [`TableGame`] stays inside.

use std::sync::Arc;

use serde_json::{Map, Value};

use crate::commands::registry::CommandSpec;
use crate::dice::{DiceError, DrawRecord, DrawSource};
use crate::game::{
    Ctx, GameInfo, Names, PlayerInfo, Preset, Proxy, Query, QuickMove, SetupDice, SetupOptions,
    Suggestion, TableGame, ToAct,
};
use crate::record::log::Entry;

/// A move that was applied.
#[derive(Debug, Clone)]
pub struct Played {
    /// The move as stored.
    pub action: Value,
    /// The move in canonical notation.
    pub canonical: String,
    /// Whether the player wrote it that way (if not, the table echoes the canonical form).
    pub as_written: bool,
    /// The narration.
    pub text: String,
    /// Whether a turn ended (the full report follows).
    pub ends_turn: bool,
    /// Whether the picture changed.
    pub changes_picture: bool,
}

/// A draw that was applied.
#[derive(Debug, Clone)]
pub struct Drawn {
    /// The index it was derived from.
    pub index: u64,
    /// The draw's fields as stored.
    pub draw: Map<String, Value>,
    /// The narration.
    pub text: String,
    /// Whether a turn ended.
    pub ends_turn: bool,
}

/// What a move made for a seat comes from.
#[derive(Debug, Clone, Copy)]
pub enum ProxySource<'a> {
    /// The game's automatic move (the seat did not answer in time, or is away).
    Auto,
    /// The first of the seat's presets (stored orders) that answers.
    Presets(&'a [Value]),
    /// A move in notation (a moderator's `!act`).
    Text(&'a str),
}

/// A move made for a seat, if one was.
#[derive(Debug, Clone, Default)]
pub struct ProxyPlayed {
    /// The move, if one was made.
    pub played: Option<Played>,
    /// Presets (positions in the list given) that can never answer again.
    pub spent: Vec<usize>,
}

/// Rendering settings for a session's texts (the session supplies the names).
#[derive(Clone, Copy)]
pub struct Render<'a> {
    /// The templates.
    pub templates: &'a crate::templates::Templates,
    /// The `!`-command prefix.
    pub prefix: &'a str,
    /// The game id.
    pub game_id: &'a str,
    /// Who makes manual draws.
    pub moderator: &'a str,
    /// Where draws come from, for narration (`audited dice`, `moderator`).
    pub draw_source: Option<&'a str>,
    /// Whether to mention the player called to act.
    pub ping: bool,
    /// A seat not to mention (the author).
    pub skip: Option<usize>,
}

/// One game in progress.
pub trait Session: Send + Sync {
    /// The game's kind.
    fn info(&self) -> GameInfo;
    /// A copy to try moves on.
    fn box_clone(&self) -> Box<dyn Session>;
    /// The seated players, in seat order.
    fn seated(&self) -> &[PlayerInfo];
    /// Who must act.
    fn to_act(&self) -> ToAct;
    /// Whether the game is over.
    fn is_finished(&self) -> bool;
    /// The position, for callers that know the game (tests, the game's own tools).
    fn state(&self) -> &dyn std::any::Any;
    /// Whether bold text is chat rather than a move.
    fn is_chat(&self, text: &str) -> bool;
    /// Reads and applies a move in notation; the error is the rendered refusal.
    fn play(&mut self, seat: usize, text: &str, render: &Render<'_>) -> Result<Played, String>;
    /// Makes and applies the audited draw, if one is pending.
    fn audited_draw(
        &mut self,
        dice: DrawSource<'_>,
        history_index: u64,
        render: &Render<'_>,
    ) -> Result<Option<Drawn>, String>;
    /// Reads and applies a moderator's manual draw.
    fn manual_draw(
        &mut self,
        command: &str,
        args: &str,
        history_index: u64,
        render: &Render<'_>,
    ) -> Result<Drawn, String>;
    /// Applies a stored entry again (replay); the error says why it does not apply.
    fn replay(&mut self, entry: &Entry) -> Result<(), String>;
    /// The announcement of the new game.
    fn announce(&self, render: &Render<'_>) -> String;
    /// The full report.
    fn status(&self, render: &Render<'_>) -> String;
    /// Who acts next.
    fn prompt(&self, render: &Render<'_>) -> String;
    /// The answer to one of the game's informational commands, if `command` is one.
    fn answer(&self, command: &str, args: &str, render: &Render<'_>) -> Option<String>;
    /// The legal moves.
    fn moves(&self, render: &Render<'_>) -> String;
    /// The `--dump-state` JSON.
    fn dump(&self, moderator: &str) -> Value;
    /// The picture (PNG), if the game has one.
    fn picture(&self) -> Option<Result<Vec<u8>, String>>;
    /// A stored move or draw in words: `ann: **bid 7**` (or `ann's **bid 7**` when
    /// `possessive`), or the draw (`pink black black`).
    fn describe(&self, entry: &Entry, possessive: bool) -> String;
    /// The audit records of the setup's draws (without the message that keyed them).
    fn setup_records(&self) -> Vec<DrawRecord>;
    /// The audit record of an audited draw entry.
    fn draw_record(&self, entry: &Entry) -> Option<DrawRecord>;
    /// Legal values for an argument being typed, for a seat (or an onlooker).
    fn suggest(&self, seat: Option<usize>, query: &Query<'_>) -> Vec<Suggestion>;
    /// One-click moves of the player to act.
    fn quick_moves(&self) -> Vec<QuickMove>;
    /// Makes and applies a move for `seat` from `source`, narrated with the proxy's note.
    /// `played: None` when the source has no move for the seat now; the error is the rendered
    /// refusal.
    fn play_proxy(
        &mut self,
        seat: usize,
        source: ProxySource<'_>,
        proxy: &Proxy,
        render: &Render<'_>,
    ) -> Result<ProxyPlayed, String>;
    /// Reads a preset of `seat`; `None` if the game has none; the error is the rendered refusal.
    fn read_preset(
        &self,
        seat: usize,
        text: &str,
        render: &Render<'_>,
    ) -> Option<Result<Preset, String>>;
    /// A stored preset in words (for its owner).
    fn render_preset(&self, order: &Value, render: &Render<'_>) -> String;
    /// Which of `seat`'s presets can never answer again.
    fn spent_presets(&self, seat: usize, presets: &[Value]) -> Vec<usize>;
    /// Gives a seat to another player.
    fn substitute(&mut self, seat: usize, player: PlayerInfo);
    /// A stored move in canonical notation, if it reads.
    fn canonical(&self, action: &Value) -> Option<String>;
}

/// A registered game: makes sessions.
pub trait Plugin: Send + Sync {
    /// Kind, title, players.
    fn info(&self) -> GameInfo;
    /// The game's commands.
    fn commands(&self) -> Vec<CommandSpec>;
    /// The game's templates.
    fn templates(&self) -> &'static [(&'static str, &'static str)];
    /// Whether bold text is chat for this game (no game running needed).
    fn is_chat(&self, text: &str) -> bool;
    /// Sets up a new game; returns the stored setup and the session. The error is rendered.
    fn create(
        &self,
        players: Vec<PlayerInfo>,
        options: &SetupOptions,
        dice: SetupDice<'_>,
        render: &Render<'_>,
    ) -> Result<(Value, Box<dyn Session>), String>;
    /// Loads a stored setup (before replaying its log).
    fn load(&self, setup: &Value, players: Vec<PlayerInfo>) -> Result<Box<dyn Session>, String>;
    /// Recomputes a draw record of one of its purposes.
    fn recompute(
        &self,
        record: &DrawRecord,
        source: DrawSource<'_>,
    ) -> Option<Result<Value, DiceError>>;
}

impl std::fmt::Debug for dyn Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.info().kind)
    }
}

/// Wraps a [`TableGame`] as a [`Plugin`].
pub struct PluginOf<G: TableGame>(pub Arc<G>);

/// A registered game, shared.
pub type SharedPlugin = Arc<dyn Plugin>;

/// Registers a game.
pub fn plugin<G: TableGame>(game: G) -> SharedPlugin {
    Arc::new(PluginOf(Arc::new(game)))
}

struct GameSession<G: TableGame> {
    game: Arc<G>,
    setup: G::Setup,
    state: G::State,
    seated: Vec<PlayerInfo>,
    /// Events of the last unit that changed the picture.
    recent: Vec<G::Events>,
    /// What the game noted as it went.
    notes: G::Notes,
}

impl<G: TableGame> Clone for GameSession<G> {
    fn clone(&self) -> Self {
        GameSession {
            game: self.game.clone(),
            setup: self.setup.clone(),
            state: self.state.clone(),
            seated: self.seated.clone(),
            recent: self.recent.clone(),
            notes: self.notes.clone(),
        }
    }
}

impl<G: TableGame> GameSession<G> {
    fn ctx<'a>(&'a self, render: &Render<'a>) -> Ctx<'a> {
        Ctx {
            templates: render.templates,
            prefix: render.prefix,
            game_id: render.game_id,
            moderator: render.moderator,
            draw_source: render.draw_source,
            names: Names::new(&self.seated, render.ping, render.skip),
        }
    }

    fn refusal(&self, render: &Render<'_>, refusal: &G::Refusal) -> String {
        self.game.render_refusal(&self.ctx(render), refusal)
    }

    fn note(&mut self, events: &G::Events) {
        if self.game.changes_picture(events) {
            self.recent = vec![events.clone()];
        }
        self.game.note(&mut self.notes, &self.state, events);
    }

    fn draw_from_map(draw: &Map<String, Value>) -> Result<G::Draw, String> {
        serde_json::from_value(Value::Object(draw.clone())).map_err(|e| e.to_string())
    }

    fn drawn(&mut self, index: u64, draw: G::Draw, render: &Render<'_>) -> Result<Drawn, String> {
        let events = self
            .game
            .apply_draw(&mut self.state, &draw)
            .map_err(|r| self.refusal(render, &r))?;
        self.note(&events);
        let draw = match serde_json::to_value(&draw) {
            Ok(Value::Object(map)) => map,
            Ok(_) => return Err("a draw must be stored as a JSON object".into()),
            Err(e) => return Err(e.to_string()),
        };
        Ok(Drawn {
            index,
            draw,
            text: self
                .game
                .render_events(&self.ctx(render), &self.state, &events),
            ends_turn: self.game.ends_turn(&events),
        })
    }
}

impl<G: TableGame> Session for GameSession<G> {
    fn info(&self) -> GameInfo {
        self.game.info()
    }

    fn box_clone(&self) -> Box<dyn Session> {
        Box::new(self.clone())
    }

    fn seated(&self) -> &[PlayerInfo] {
        &self.seated
    }

    fn to_act(&self) -> ToAct {
        self.game.to_act(&self.state)
    }

    fn is_finished(&self) -> bool {
        self.game.is_finished(&self.state)
    }

    fn state(&self) -> &dyn std::any::Any {
        &self.state
    }

    fn is_chat(&self, text: &str) -> bool {
        self.game.is_chat(text)
    }

    fn play(&mut self, seat: usize, text: &str, render: &Render<'_>) -> Result<Played, String> {
        let read = self
            .game
            .parse_move(&self.state, text)
            .map_err(|r| self.refusal(render, &r))?;
        let action = read.action;
        let events = self
            .game
            .apply(&mut self.state, seat, &action)
            .map_err(|r| self.refusal(render, &r))?;
        self.note(&events);
        Ok(Played {
            action: serde_json::to_value(&action).map_err(|e| e.to_string())?,
            canonical: action.to_string(),
            as_written: read.canonical,
            text: self
                .game
                .render_events(&self.ctx(render), &self.state, &events),
            ends_turn: self.game.ends_turn(&events),
            changes_picture: self.game.changes_picture(&events),
        })
    }

    fn audited_draw(
        &mut self,
        dice: DrawSource<'_>,
        history_index: u64,
        render: &Render<'_>,
    ) -> Result<Option<Drawn>, String> {
        match self.game.audited_draw(&self.state, dice, history_index) {
            None => Ok(None),
            Some((index, draw)) => self.drawn(index, draw, render).map(Some),
        }
    }

    fn manual_draw(
        &mut self,
        command: &str,
        args: &str,
        history_index: u64,
        render: &Render<'_>,
    ) -> Result<Drawn, String> {
        let draw = self
            .game
            .manual_draw(&self.state, command, args)
            .map_err(|r| self.refusal(render, &r))?;
        // Manual draws are indexed by their place in the history, like audited dividend draws.
        self.drawn(history_index, draw, render)
    }

    fn replay(&mut self, entry: &Entry) -> Result<(), String> {
        let events = match entry {
            Entry::Action { seat, action } => {
                let action: G::Move =
                    serde_json::from_value(action.clone()).map_err(|e| e.to_string())?;
                self.game
                    .apply(&mut self.state, *seat, &action)
                    .map_err(|r| r.to_string())?
            }
            Entry::Draw { draw, .. } => {
                let draw = Self::draw_from_map(draw)?;
                self.game
                    .apply_draw(&mut self.state, &draw)
                    .map_err(|r| r.to_string())?
            }
            Entry::Undo | Entry::Reveal | Entry::Table(_) => return Ok(()),
        };
        self.note(&events);
        Ok(())
    }

    fn announce(&self, render: &Render<'_>) -> String {
        self.game
            .render_setup(&self.ctx(render), &self.setup, &self.state)
    }

    fn status(&self, render: &Render<'_>) -> String {
        let view = self.game.view(&self.state, &self.recent, render.moderator);
        let ctx = self.ctx(render);
        let status = self.game.render_status(&ctx, &self.state, &view);
        let notes = self.game.render_notes(&ctx, &self.state, &self.notes);
        if notes.is_empty() {
            status
        } else {
            format!("{status}\n{notes}")
        }
    }

    fn answer(&self, command: &str, args: &str, render: &Render<'_>) -> Option<String> {
        self.game
            .answer(&self.ctx(render), &self.state, command, args)
    }

    fn prompt(&self, render: &Render<'_>) -> String {
        self.game.render_prompt(&self.ctx(render), &self.state)
    }

    fn moves(&self, render: &Render<'_>) -> String {
        self.game.render_moves(&self.ctx(render), &self.state)
    }

    fn dump(&self, moderator: &str) -> Value {
        let view = self.game.view(&self.state, &self.recent, moderator);
        self.game.dump(&view)
    }

    fn picture(&self) -> Option<Result<Vec<u8>, String>> {
        let view = self.game.view(&self.state, &self.recent, "");
        self.game.picture(&view)
    }

    fn describe(&self, entry: &Entry, possessive: bool) -> String {
        match entry {
            Entry::Action { seat, action } => {
                let name = self
                    .seated
                    .get(*seat)
                    .map(|p| p.name.as_str())
                    .unwrap_or("?");
                let sep = if possessive { "'s" } else { ":" };
                match serde_json::from_value::<G::Move>(action.clone()) {
                    Ok(action) => format!("{name}{sep} **{action}**"),
                    Err(_) => format!("{name}{sep} (unreadable move {action})"),
                }
            }
            Entry::Draw { draw, .. } => match Self::draw_from_map(draw) {
                Ok(draw) => self.game.describe_draw(&draw),
                Err(_) => "(unreadable draw)".to_string(),
            },
            Entry::Undo => "undo".to_string(),
            Entry::Reveal => "seed revealed".to_string(),
            Entry::Table(_) => String::new(),
        }
    }

    fn setup_records(&self) -> Vec<DrawRecord> {
        self.game.setup_records(&self.setup)
    }

    fn draw_record(&self, entry: &Entry) -> Option<DrawRecord> {
        match entry {
            Entry::Draw {
                manual: false,
                index,
                draw,
                key,
            } => Self::draw_from_map(draw).ok().map(|d| {
                let mut record = self.game.draw_record(*index, &d);
                if let Some(key) = key {
                    record
                        .inputs
                        .insert("message_id".into(), Value::from(key.clone()));
                }
                record
            }),
            _ => None,
        }
    }

    fn suggest(&self, seat: Option<usize>, query: &Query<'_>) -> Vec<Suggestion> {
        self.game.suggest(&self.state, seat, query)
    }

    fn quick_moves(&self) -> Vec<QuickMove> {
        self.game.quick_moves(&self.state)
    }

    fn play_proxy(
        &mut self,
        seat: usize,
        source: ProxySource<'_>,
        proxy: &Proxy,
        render: &Render<'_>,
    ) -> Result<ProxyPlayed, String> {
        let (action, spent) = match source {
            ProxySource::Auto => (self.game.auto_move(&self.state, seat), Vec::new()),
            ProxySource::Presets(presets) => {
                let answer = self.game.preset_answer(&self.state, seat, presets);
                (answer.action, answer.spent)
            }
            ProxySource::Text(text) => (
                Some(
                    self.game
                        .parse_move(&self.state, text)
                        .map_err(|r| self.refusal(render, &r))?
                        .action,
                ),
                Vec::new(),
            ),
        };
        let Some(action) = action else {
            return Ok(ProxyPlayed {
                played: None,
                spent,
            });
        };
        let events = self
            .game
            .apply(&mut self.state, seat, &action)
            .map_err(|r| self.refusal(render, &r))?;
        self.note(&events);
        let text = self
            .game
            .render_proxy_events(&self.ctx(render), &self.state, &events, proxy);
        Ok(ProxyPlayed {
            played: Some(Played {
                action: serde_json::to_value(&action).map_err(|e| e.to_string())?,
                canonical: action.to_string(),
                as_written: true,
                text,
                ends_turn: self.game.ends_turn(&events),
                changes_picture: self.game.changes_picture(&events),
            }),
            spent,
        })
    }

    fn read_preset(
        &self,
        seat: usize,
        text: &str,
        render: &Render<'_>,
    ) -> Option<Result<Preset, String>> {
        self.game
            .read_preset(&self.state, seat, text)
            .map(|read| read.map_err(|r| self.refusal(render, &r)))
    }

    fn render_preset(&self, order: &Value, render: &Render<'_>) -> String {
        self.game.render_preset(&self.ctx(render), order)
    }

    fn spent_presets(&self, seat: usize, presets: &[Value]) -> Vec<usize> {
        self.game.preset_answer(&self.state, seat, presets).spent
    }

    fn substitute(&mut self, seat: usize, player: PlayerInfo) {
        self.game.rename(&mut self.state, seat, &player.name);
        if let Some(slot) = self.seated.get_mut(seat) {
            *slot = player;
        }
    }

    fn canonical(&self, action: &Value) -> Option<String> {
        serde_json::from_value::<G::Move>(action.clone())
            .ok()
            .map(|a| a.to_string())
    }
}

impl<G: TableGame> Plugin for PluginOf<G> {
    fn info(&self) -> GameInfo {
        self.0.info()
    }

    fn commands(&self) -> Vec<CommandSpec> {
        self.0.commands()
    }

    fn templates(&self) -> &'static [(&'static str, &'static str)] {
        self.0.templates()
    }

    fn is_chat(&self, text: &str) -> bool {
        self.0.is_chat(text)
    }

    fn create(
        &self,
        players: Vec<PlayerInfo>,
        options: &SetupOptions,
        dice: SetupDice<'_>,
        render: &Render<'_>,
    ) -> Result<(Value, Box<dyn Session>), String> {
        let names = players.iter().map(|p| p.name.clone()).collect();
        let plain = |players: &[PlayerInfo], refusal: &G::Refusal| {
            let ctx = Ctx {
                templates: render.templates,
                prefix: render.prefix,
                game_id: render.game_id,
                moderator: render.moderator,
                draw_source: render.draw_source,
                names: Names::new(players, false, None),
            };
            self.0.render_refusal(&ctx, refusal)
        };
        let setup = self
            .0
            .setup(names, options, dice)
            .map_err(|r| plain(&players, &r))?;
        let value = serde_json::to_value(&setup).map_err(|e| e.to_string())?;
        let session = self
            .session(setup, players)
            .map_err(|(players, r)| plain(&players, &r))?;
        Ok((value, Box::new(session)))
    }

    fn load(&self, setup: &Value, players: Vec<PlayerInfo>) -> Result<Box<dyn Session>, String> {
        let setup: G::Setup = serde_json::from_value(setup.clone()).map_err(|e| e.to_string())?;
        match self.session(setup, players) {
            Ok(session) => Ok(Box::new(session)),
            Err((_, refusal)) => Err(refusal.to_string()),
        }
    }

    fn recompute(
        &self,
        record: &DrawRecord,
        source: DrawSource<'_>,
    ) -> Option<Result<Value, DiceError>> {
        self.0.recompute(record, source)
    }
}

impl<G: TableGame> PluginOf<G> {
    /// A session of a setup, the players put in seat order.
    #[allow(clippy::type_complexity)]
    fn session(
        &self,
        setup: G::Setup,
        players: Vec<PlayerInfo>,
    ) -> Result<GameSession<G>, (Vec<PlayerInfo>, G::Refusal)> {
        let seated: Vec<PlayerInfo> = self
            .0
            .seats(&setup)
            .into_iter()
            .filter_map(|i| players.get(i).cloned())
            .collect();
        let state = self.0.start(&setup).map_err(|r| (seated.clone(), r))?;
        Ok(GameSession {
            game: self.0.clone(),
            setup,
            state,
            seated,
            recent: Vec::new(),
            notes: G::Notes::default(),
        })
    }
}
