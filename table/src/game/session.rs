//! A game in progress ([`GameSession`]) and a registered game ([`PluginOf`]), generic over
//! the game, and their object-safe sides ([`Session`], [`Plugin`]) derived from the same
//! methods by `erased!` (`game/erased.rs`): no method is written twice. Moves cross the
//! erased boundary as the game's own values ([`Read`], the automa's [`AutomaPick`]), JSON only
//! where they are stored (a log entry, a preset); narration as rendered strings; refusals as
//! typed data ([`Refusal`]) that the table renders at its edge.

mod refusal;

use std::sync::Arc;

use serde_json::{Map, Value};

pub use refusal::{Refusal, ReplayError, Stored};

use crate::dice::{DiceError, DrawRecord, DrawSource};
use crate::game::automa::{AutomaLevel, TableAutoma};
use crate::game::erased::erased;
use crate::game::log::Entry;
use crate::game::spec::CommandSpec;
use crate::game::{
    Ctx, GameInfo, Names, PictureError, PlayerInfo, Preset, Proxy, Query, QuickMove, ReadMove,
    SetupDice, SetupOptions, Suggestion, Summary, TableGame, Text, ToAct, Worth,
};

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

/// A move read from what a player wrote, in the position it was read in: kept to be played in
/// that position without reading the text again ([`Session::play_read`]). The move is the
/// game's own type behind the erased layer.
pub struct Read {
    /// The game's `ReadMove<G::Move>`.
    read: Box<dyn std::any::Any + Send + Sync>,
    /// The text it was read from.
    text: String,
}

impl Read {
    /// A move of the game `M` read from `text`.
    fn of<M: Send + Sync + 'static>(read: ReadMove<M>, text: &str) -> Read {
        Read {
            read: Box::new(read),
            text: text.to_string(),
        }
    }
}

impl std::fmt::Debug for Read {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Read({:?})", self.text)
    }
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
#[derive(Debug)]
pub enum ProxySource<'a> {
    /// The game's automatic move (the seat did not answer in time, or is away).
    Auto,
    /// The first of the seat's presets (stored orders) that answers.
    Presets(&'a [Value]),
    /// A move in notation (a moderator's `!act`).
    Text(&'a str),
    /// A move the game made itself (the automa's choice), typed.
    Chosen(Read),
    /// The game's forced move for the seat to act, when it has no other
    /// ([`TableGame::forced_move`]).
    Forced,
    /// The game's pass for a player whose time ran out (`!clock timeout:pass`).
    TimeoutPass,
}

/// The automa's choice for a seat, as it crosses the erased layer: the game's own move, typed.
#[derive(Debug)]
pub struct AutomaPick {
    /// The move, the game's own type.
    pub action: Read,
    /// The move in canonical notation.
    pub notation: String,
    /// Why, as the automa's data (worded by [`Show::Reason`]).
    pub reason: Value,
}

/// A move made for a seat, if one was.
#[derive(Debug, Clone, Default)]
pub struct ProxyPlayed {
    /// The move, if one was made.
    pub played: Option<Played>,
    /// Presets (positions in the list given) that can never answer again.
    pub spent: Vec<usize>,
}

/// Rendering settings for a session's texts and refusals (the session supplies the names).
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
    /// The record's chain head, shown under every report (none offline): the last entry it
    /// covers (`None`: the setup) and its first 12 hex digits.
    pub head: Option<(Option<i64>, &'a str)>,
    /// The address of the game's web page, linked on the head's line (when pages are served).
    pub page: Option<&'a str>,
}

impl<'a> Render<'a> {
    /// The context a game renders with, naming `seated`.
    pub fn ctx(&self, seated: &'a [PlayerInfo]) -> Ctx<'a> {
        Ctx {
            templates: self.templates,
            prefix: self.prefix,
            game_id: self.game_id,
            moderator: self.moderator,
            draw_source: self.draw_source,
            names: Names::new(seated, self.ping, self.skip),
        }
    }
}

/// A report with the record's head line under it (when the table keeps one).
fn with_head(text: String, render: &Render<'_>) -> String {
    match render.head {
        Some((seq, head)) => {
            let line = render.templates.say(
                &crate::messages::RecordHead {
                    seq,
                    head: head.to_string(),
                    page: render.page.map(crate::answer::link),
                },
                render.prefix,
            );
            format!("{text}\n{line}")
        }
        None => text,
    }
}

/// A text of a session, rendered by [`Session::text`].
#[derive(Debug, Clone, Copy)]
pub enum Show<'a> {
    /// The announcement of the new game.
    Setup,
    /// The full report, with what the game's notes add.
    Status,
    /// Who acts next.
    Prompt,
    /// The legal moves.
    Moves,
    /// A stored preset in words (for its owner).
    Preset(&'a Value),
    /// Why the automa chose its move, in one short line.
    Reason(&'a Value),
    /// What the picture shows, in words (its alt text); asked only of a game with a picture.
    PictureAlt,
    /// The answer to one of the game's informational commands (`None` if `command` is not one).
    Answer {
        /// The command's name.
        command: &'a str,
        /// Its arguments as written.
        args: &'a str,
    },
}

/// Where a draw comes from.
#[derive(Debug, Clone, Copy)]
pub enum DrawFrom<'a> {
    /// The audited dice.
    Audited(DrawSource<'a>),
    /// A moderator's command (`!draw …`, `!deal …`) and its arguments.
    Manual {
        /// The command's name.
        command: &'a str,
        /// Its arguments as written.
        args: &'a str,
    },
}

erased! {
    /// One game in progress: the erased [`TableGame`], derived from `GameSession<G>`'s methods
    /// by `erased!` (each method is written once, below).
    pub trait Session for GameSession<G: TableGame> {
        /// The game's kind.
        fn info(&self) -> GameInfo {
            self.game.info()
        }

        /// A copy to try moves on.
        fn box_clone(&self) -> Box<dyn Session> {
            Box::new(self.clone())
        }

        /// The seated players, in seat order.
        fn seated(&self) -> &[PlayerInfo] {
            &self.seated
        }

        /// The position, for callers that know the game (tests, the game's own tools).
        fn state(&self) -> &dyn std::any::Any {
            &self.state
        }

        /// Who must act.
        fn to_act(&self) -> ToAct {
            self.game.to_act(&self.state)
        }

        /// Whether the game is over.
        fn is_finished(&self) -> bool {
            self.game.is_finished(&self.state)
        }

        /// Whether bold text from the player to act is chat in the position
        /// ([`TableGame::is_chat_in`]).
        fn is_chat_in(&self, text: &str) -> bool {
            self.game.is_chat_in(&self.state, text)
        }

        /// Reads a move in notation in the position (legal or not; the refusal says why it does
        /// not read).
        fn read(&self, text: &str) -> Result<Read, Refusal> {
            Ok(Read::of(self.read_move(text)?, text))
        }

        /// Applies a move by `seat` read in this position ([`Session::read`]).
        fn play_read(
            &mut self,
            seat: usize,
            read: Read,
            render: &Render<'_>,
        ) -> Result<Played, Refusal> {
            let read = self.typed(read)?;
            self.play_move(seat, read, render)
        }

        /// Makes and applies a move for `seat` from `source`, narrated with the proxy's note.
        /// `played: None` when the source has no move for the seat now.
        fn play_proxy(
            &mut self,
            seat: usize,
            source: ProxySource<'_>,
            proxy: &Proxy,
            render: &Render<'_>,
        ) -> Result<ProxyPlayed, Refusal> {
            let (action, spent) = match source {
                ProxySource::Auto => (self.game.auto_move(&self.state, seat), Vec::new()),
                ProxySource::TimeoutPass => {
                    (self.game.timeout_pass(&self.state, seat), Vec::new())
                }
                ProxySource::Forced => match self.game.to_act(&self.state) {
                    ToAct::Player { seat: to_act, .. } if to_act == seat => {
                        (self.game.forced_move(&self.state), Vec::new())
                    }
                    _ => (None, Vec::new()),
                },
                ProxySource::Presets(presets) => {
                    let answer = self.game.preset_answer(&self.state, seat, presets);
                    (answer.action, answer.spent)
                }
                ProxySource::Text(text) => {
                    let read = self.game.parse_move(&self.state, text);
                    (Some(read.map_err(|r| self.refusal(r))?.action), Vec::new())
                }
                ProxySource::Chosen(read) => (Some(self.typed(read)?.action), Vec::new()),
            };
            let played = match action {
                Some(action) => Some(self.apply(seat, action, true, Some(proxy), render)?),
                None => None,
            };
            Ok(ProxyPlayed { played, spent })
        }

        /// Makes and applies the audited draw (`None` when none is pending) or, with `manual`
        /// (the command and its arguments), a moderator's draw; `index` is the history's length.
        fn draw(
            &mut self,
            dice: DrawFrom<'_>,
            index: u64,
            render: &Render<'_>,
        ) -> Result<Option<Drawn>, Refusal> {
            let (index, draw) = match dice {
                DrawFrom::Audited(dice) => match self.game.audited_draw(&self.state, dice, index) {
                    Some(drawn) => drawn,
                    None => return Ok(None),
                },
                // Manual draws are indexed by their place in the history, like audited dividend
                // draws.
                DrawFrom::Manual { command, args } => {
                    let draw = self.game.manual_draw(&self.state, command, args);
                    (index, draw.map_err(|r| self.refusal(r))?)
                }
            };
            self.drawn(index, draw, render).map(Some)
        }

        /// Applies a stored entry again (replay).
        fn replay(&mut self, entry: &Entry) -> Result<(), ReplayError> {
            self.replay_summaries_of(entry, false).map(|_| ())
        }

        /// Applies a stored entry again and says what it came to ([`TableGame::summarize`]).
        fn replay_summaries(&mut self, entry: &Entry) -> Result<Vec<Summary>, ReplayError> {
            self.replay_summaries_of(entry, true)
        }

        /// A seat's money now ([`TableGame::worth`]).
        fn worth(&self, seat: usize) -> Option<Worth> {
            self.game.worth(&self.state, seat)
        }

        /// How near the end is ([`TableGame::pressure`]).
        fn pressure(&self) -> Option<Summary> {
            self.game.pressure(&self.state)
        }

        /// A text of the game.
        fn text(&self, show: Show<'_>, render: &Render<'_>) -> Option<String> {
            let ctx = self.ctx(render);
            let state = &self.state;
            let text = match show {
                Show::Setup => Text::Setup {
                    setup: &self.setup,
                    state,
                },
                Show::Status => {
                    let view = self.game.view(state, &self.recent, render.moderator);
                    let status = self.game.render(&ctx, Text::Status { state, view: &view });
                    let notes = Text::Notes {
                        state,
                        notes: &self.notes,
                    };
                    let notes = self.game.render(&ctx, notes);
                    let mut text = if notes.is_empty() {
                        status
                    } else {
                        format!("{status}\n{notes}")
                    };
                    // Seats an automa holds are marked under every report.
                    let mut automa: Vec<String> = self
                        .seated
                        .iter()
                        .filter(|p| p.is_automa())
                        .map(|p| p.name.clone())
                        .collect();
                    // In the automa's own order (Automa 1, 2, 3), not the seats' shuffled one.
                    automa.sort_by_key(|name| (name.len(), name.clone()));
                    if !automa.is_empty() {
                        let line = crate::messages::AutomaSeats { names: automa };
                        text.push('\n');
                        text.push_str(render.templates.say(&line, render.prefix).trim_end());
                    }
                    return Some(with_head(text, render));
                }
                Show::Prompt => {
                    return Some(with_head(
                        self.game.render(&ctx, Text::Prompt { state }),
                        render,
                    ))
                }
                Show::PictureAlt => {
                    let view = self.game.view(state, &self.recent, render.moderator);
                    let alt = self.game.render(&ctx, Text::PictureAlt { view: &view });
                    return Some(alt.trim().to_string());
                }
                Show::Moves => Text::Moves { state },
                Show::Preset(order) => Text::Preset(order),
                Show::Reason(reason) => Text::Reason(reason),
                Show::Answer { command, args } => return self.game.answer(&ctx, state, command, args),
            };
            Some(self.game.render(&ctx, text))
        }

        /// The `--dump-state` JSON.
        fn dump(&self, moderator: &str) -> Value {
            let view = self.game.view(&self.state, &self.recent, moderator);
            self.game.dump(&view)
        }

        /// The picture (PNG), if the game has one.
        fn picture(&self) -> Option<Result<Vec<u8>, PictureError>> {
            let view = self.game.view(&self.state, &self.recent, "");
            self.game.picture(&view)
        }

        /// The picture as an SVG document ([`TableGame::picture_svg`]), if the game has one.
        fn picture_svg(&self) -> Option<String> {
            let view = self.game.view(&self.state, &self.recent, "");
            self.game.picture_svg(&view)
        }

        /// A stored move in canonical notation, or a stored draw in words; `None` for other
        /// entries and for what does not read.
        fn notation(&self, entry: &Entry) -> Option<String> {
            match entry {
                Entry::Action { action, .. } => serde_json::from_value::<G::Move>(action.clone())
                    .ok()
                    .map(|a| a.to_string()),
                Entry::Draw { draw, .. } => Self::draw_from_map(draw)
                    .ok()
                    .map(|d| self.game.describe_draw(&d)),
                _ => None,
            }
        }

        /// The audit records of the setup's draws (without the message that keyed them).
        fn setup_records(&self) -> Vec<DrawRecord> {
            self.game.setup_records(&self.setup)
        }

        /// The audit record of an audited draw entry.
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

        /// Legal values for an argument being typed, for a seat (or an onlooker).
        fn suggest(&self, seat: Option<usize>, query: &Query<'_>) -> Vec<Suggestion> {
            self.game.suggest(&self.state, seat, query)
        }

        /// One-click moves of the player to act.
        fn quick_moves(&self) -> Vec<QuickMove> {
            self.game.quick_moves(&self.state)
        }

        /// Reads a preset of `seat`; `None` if the game has none.
        fn read_preset(&self, seat: usize, text: &str) -> Option<Result<Preset, Refusal>> {
            self.game
                .read_preset(&self.state, seat, text)
                .map(|read| read.map_err(|r| self.refusal(r)))
        }

        /// Which of `seat`'s presets can never answer again.
        fn spent_presets(&self, seat: usize, presets: &[Value]) -> Vec<usize> {
            self.game.preset_answer(&self.state, seat, presets).spent
        }

        /// Gives a seat to another player.
        fn substitute(&mut self, seat: usize, player: PlayerInfo) {
            self.game.rename(&mut self.state, seat, &player.name);
            if let Some(slot) = self.seated.get_mut(seat) {
                *slot = player;
            }
        }

        /// Whether the game has an automa.
        fn has_automa(&self) -> bool {
            self.automa.is_some()
        }

        /// The automa's choice for `seat` (`None` without an automa, or when `seat` is not to
        /// act). Pure and possibly slow (seconds): the table calls it on a blocking pool.
        fn automa_choose(&self, seat: usize, level: AutomaLevel, seed: u64) -> Option<AutomaPick> {
            let automa = self.automa.as_ref()?;
            let choice = automa.choose(&self.game, &self.state, seat, level, seed)?;
            let notation = choice.action.to_string();
            Some(AutomaPick {
                action: Read::of(ReadMove::canonical(choice.action), &notation),
                notation,
                reason: choice.reason,
            })
        }

        /// Reads and applies a move in notation by `seat`.
        fn play(
            &mut self,
            seat: usize,
            text: &str,
            render: &Render<'_>,
        ) -> Result<Played, Refusal> {
            let read = self.read(text)?;
            self.play_read(seat, read, render)
        }

        /// The announcement of the new game.
        fn announce(&self, render: &Render<'_>) -> String {
            self.text(Show::Setup, render).unwrap_or_default()
        }

        /// The full report.
        fn status(&self, render: &Render<'_>) -> String {
            self.text(Show::Status, render).unwrap_or_default()
        }

        /// Who acts next.
        fn prompt(&self, render: &Render<'_>) -> String {
            self.text(Show::Prompt, render).unwrap_or_default()
        }

        /// The legal moves.
        fn moves(&self, render: &Render<'_>) -> String {
            self.text(Show::Moves, render).unwrap_or_default()
        }

        /// The answer to one of the game's informational commands, if `command` is one.
        fn answer(&self, command: &str, args: &str, render: &Render<'_>) -> Option<String> {
            self.text(Show::Answer { command, args }, render)
        }

        /// What the game's picture shows, in words (ask only a game that has a picture).
        fn picture_alt(&self, render: &Render<'_>) -> String {
            self.text(Show::PictureAlt, render).unwrap_or_default()
        }

        /// Why the automa chose its move, in one short line.
        fn reason(&self, reason: &Value, render: &Render<'_>) -> String {
            self.text(Show::Reason(reason), render).unwrap_or_default()
        }

        /// A stored preset in words (for its owner).
        fn render_preset(&self, order: &Value, render: &Render<'_>) -> String {
            self.text(Show::Preset(order), render).unwrap_or_default()
        }

        /// Makes and applies the audited draw, if one is pending.
        fn audited_draw(
            &mut self,
            dice: DrawSource<'_>,
            history_index: u64,
            render: &Render<'_>,
        ) -> Result<Option<Drawn>, Refusal> {
            self.draw(DrawFrom::Audited(dice), history_index, render)
        }

        /// Reads and applies a moderator's manual draw (`None` only if the game made none).
        fn manual_draw(
            &mut self,
            command: &str,
            args: &str,
            history_index: u64,
            render: &Render<'_>,
        ) -> Result<Option<Drawn>, Refusal> {
            self.draw(DrawFrom::Manual { command, args }, history_index, render)
        }

        /// A stored move in canonical notation, if it reads.
        fn canonical(&self, action: &Value) -> Option<String> {
            self.notation(&Entry::Action {
                seat: 0,
                action: action.clone(),
            })
        }

        /// A stored move or draw in words: `ann: **bid 7**` (or `ann's **bid 7**` when
        /// `possessive`), or the draw (`pink black black`).
        fn describe(&self, entry: &Entry, possessive: bool) -> String {
            match entry {
                Entry::Action { seat, action } => {
                    let name = self
                        .seated()
                        .get(*seat)
                        .map(|p| p.name.as_str())
                        .unwrap_or("?");
                    let sep = if possessive { "'s" } else { ":" };
                    match self.notation(entry) {
                        Some(action) => format!("{name}{sep} **{action}**"),
                        None => format!("{name}{sep} (unreadable move {action})"),
                    }
                }
                Entry::Draw { .. } => self
                    .notation(entry)
                    .unwrap_or_else(|| "(unreadable draw)".to_string()),
                Entry::Undo => "undo".to_string(),
                Entry::Reveal => "seed revealed".to_string(),
                Entry::Table(_) => String::new(),
            }
        }
    }
}

erased! {
    /// A registered game: makes sessions. Derived from `PluginOf<G>`'s methods by `erased!`.
    pub trait Plugin for PluginOf<G: TableGame> {
        /// Kind, title, players, templates.
        fn info(&self) -> GameInfo {
            self.game.info()
        }

        /// The game's commands.
        fn commands(&self) -> Vec<CommandSpec> {
            self.game.commands()
        }

        /// Whether bold text is chat for this game (no game running needed).
        fn is_chat(&self, text: &str) -> bool {
            self.game.is_chat(text)
        }

        /// Whether bold text that does not read is an attempt at a move ([`TableGame::is_attempt`]).
        fn is_attempt(&self, text: &str) -> bool {
            self.game.is_attempt(text)
        }

        /// Whether bold text starts as a move ([`TableGame::starts_as_move`]).
        fn starts_as_move(&self, text: &str) -> bool {
            self.game.starts_as_move(text)
        }

        /// Sets up a new game; returns the stored setup and the session.
        fn create(
            &self,
            players: Vec<PlayerInfo>,
            options: &SetupOptions,
            dice: SetupDice<'_>,
        ) -> Result<(Value, Box<dyn Session>), Refusal> {
            let names = players.iter().map(|p| p.name.clone()).collect();
            let refused = |refusal| Refusal::of(self.game.clone(), refusal, players.clone());
            let setup = self.game.setup(names, options, dice).map_err(refused)?;
            let value = serde_json::to_value(&setup).map_err(Refusal::unstorable)?;
            let session = self
                .session(setup, players.clone())
                .map_err(|(seated, r)| Refusal::of(self.game.clone(), r, seated))?;
            Ok((value, Box::new(session)))
        }

        /// Loads a stored setup (before replaying its log).
        fn load(
            &self,
            setup: &Value,
            players: Vec<PlayerInfo>,
        ) -> Result<Box<dyn Session>, ReplayError> {
            let setup: G::Setup = serde_json::from_value(setup.clone())
                .map_err(|error| ReplayError::unreadable(Stored::Setup, error))?;
            match self.session(setup, players) {
                Ok(session) => Ok(Box::new(session)),
                Err((seated, r)) => Err(ReplayError::Refused(Refusal::of(
                    self.game.clone(),
                    r,
                    seated,
                ))),
            }
        }

        /// Recomputes a draw record of one of its purposes.
        fn recompute(
            &self,
            record: &DrawRecord,
            source: DrawSource<'_>,
        ) -> Option<Result<Value, DiceError>> {
            self.game.recompute(record, source)
        }

        /// The reference the table's own refusals cite ([`TableGame::table_ruling`]).
        fn table_ruling(&self) -> &'static str {
            self.game.table_ruling()
        }

        /// The table's commands the game has no use for ([`TableGame::unused_table_commands`]).
        fn unused_table_commands(&self) -> &'static [&'static str] {
            self.game.unused_table_commands()
        }

        /// The game's example refusals with the ruling each must cite (see
        /// [`TableGame::example_refusals`]), for the suite over every registered game.
        fn example_refusals(&self) -> Vec<(Refusal, String)> {
            self.game
                .example_refusals()
                .into_iter()
                .map(|(r, ruling)| (Refusal::of(self.game.clone(), r, Vec::new()), ruling))
                .collect()
        }

        /// Whether the game has an automa (seats `!setup … automa` may fill).
        fn has_automa(&self) -> bool {
            self.automa.is_some()
        }

        /// Whether every decision of the game has a pass ([`TableGame::passes_every_decision`]).
        fn passes_every_decision(&self) -> bool {
            self.game.passes_every_decision()
        }

        /// The game's templates: (file name, text), filed under `<kind>/`.
        fn templates(&self) -> &'static [(&'static str, &'static str)] {
            self.info().templates
        }
    }
}

impl std::fmt::Debug for dyn Plugin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.info().kind)
    }
}

/// Wraps a [`TableGame`] (and its automa, if it has one) as a [`Plugin`].
pub struct PluginOf<G: TableGame> {
    game: Arc<G>,
    automa: Option<Arc<dyn TableAutoma<G>>>,
}

/// A registered game, shared.
pub type SharedPlugin = Arc<dyn Plugin>;

/// The built-in templates of these games, for [`Templates::load`](crate::templates::Templates::load).
pub fn texts_of(games: &[SharedPlugin]) -> Vec<crate::templates::GameTexts> {
    games
        .iter()
        .map(|g| crate::templates::GameTexts {
            kind: g.info().kind,
            files: g.templates(),
        })
        .collect()
}

/// Registers a game.
pub fn plugin<G: TableGame>(game: G) -> SharedPlugin {
    Arc::new(PluginOf {
        game: Arc::new(game),
        automa: None,
    })
}

/// Registers a game with its automa (a computer player for seats no human fills). The automa
/// lives in a crate of its own beside the game's (it depends on the game, so the game cannot
/// depend on it).
pub fn plugin_with_automa<G: TableGame>(game: G, automa: impl TableAutoma<G>) -> SharedPlugin {
    Arc::new(PluginOf {
        game: Arc::new(game),
        automa: Some(Arc::new(automa)),
    })
}

/// One game in progress, of the game `G`: its setup, position, seats and notes. Its methods
/// are typed; [`Session`] is the same methods with the game erased.
pub struct GameSession<G: TableGame> {
    game: Arc<G>,
    automa: Option<Arc<dyn TableAutoma<G>>>,
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
            automa: self.automa.clone(),
            setup: self.setup.clone(),
            state: self.state.clone(),
            seated: self.seated.clone(),
            recent: self.recent.clone(),
            notes: self.notes.clone(),
        }
    }
}

impl<G: TableGame> GameSession<G> {
    /// The position.
    pub fn position(&self) -> &G::State {
        &self.state
    }

    /// Reads a move in notation in the position, as the game's own move.
    pub fn read_move(&self, text: &str) -> Result<ReadMove<G::Move>, Refusal> {
        self.game
            .parse_move(&self.state, text)
            .map_err(|r| self.refusal(r))
    }

    /// Applies the game's own move by `seat`, as read ([`GameSession::read_move`]).
    pub fn play_move(
        &mut self,
        seat: usize,
        read: ReadMove<G::Move>,
        render: &Render<'_>,
    ) -> Result<Played, Refusal> {
        self.apply(seat, read.action, read.canonical, None, render)
    }

    /// The game's own move behind a [`Read`] (one read by another game is read here again).
    fn typed(&self, read: Read) -> Result<ReadMove<G::Move>, Refusal> {
        match read.read.downcast::<ReadMove<G::Move>>() {
            Ok(read) => Ok(*read),
            Err(_) => self.read_move(&read.text),
        }
    }

    /// Applies a stored entry again; with `summarize`, says what it came to.
    fn replay_summaries_of(
        &mut self,
        entry: &Entry,
        summarize: bool,
    ) -> Result<Vec<Summary>, ReplayError> {
        let events = match entry {
            Entry::Action { seat, action } => {
                let action: G::Move = serde_json::from_value(action.clone())
                    .map_err(|error| ReplayError::unreadable(Stored::Move, error))?;
                self.game.apply(&mut self.state, *seat, &action)
            }
            Entry::Draw { draw, .. } => {
                let draw = Self::draw_from_map(draw)
                    .map_err(|error| ReplayError::unreadable(Stored::Draw, error))?;
                self.game.apply_draw(&mut self.state, &draw)
            }
            Entry::Undo | Entry::Reveal | Entry::Table(_) => return Ok(Vec::new()),
        };
        let events = events.map_err(|r| ReplayError::Refused(self.refusal(r)))?;
        self.note(&events);
        Ok(if summarize {
            self.game.summarize(&self.state, &events)
        } else {
            Vec::new()
        })
    }

    fn ctx<'a>(&'a self, render: &Render<'a>) -> Ctx<'a> {
        render.ctx(&self.seated)
    }

    fn refusal(&self, refusal: G::Refusal) -> Refusal {
        Refusal::of(self.game.clone(), refusal, self.seated.clone())
    }

    fn note(&mut self, events: &G::Events) {
        let marks = self.game.marks(events);
        if marks.changes_picture {
            self.recent = vec![events.clone()];
        } else if marks.ends_turn {
            // The picture highlights the last turn's changes: a turn that changed nothing on it
            // (an auction, a dividend call) leaves nothing highlighted.
            self.recent.clear();
        }
        self.game.note(&mut self.notes, &self.state, events);
    }

    fn draw_from_map(draw: &Map<String, Value>) -> Result<G::Draw, serde_json::Error> {
        serde_json::from_value(Value::Object(draw.clone()))
    }

    /// Applies a move and narrates it (with the proxy's note when the table made it).
    fn apply(
        &mut self,
        seat: usize,
        action: G::Move,
        as_written: bool,
        proxy: Option<&Proxy>,
        render: &Render<'_>,
    ) -> Result<Played, Refusal> {
        // A proxy without a note (the automa's) narrates like the player's own move.
        let proxy = proxy.filter(|p| !p.note.trim().is_empty());
        let events = self
            .game
            .apply(&mut self.state, seat, &action)
            .map_err(|r| self.refusal(r))?;
        self.note(&events);
        let marks = self.game.marks(&events);
        let text = Text::Events {
            state: &self.state,
            events: &events,
            proxy,
        };
        Ok(Played {
            action: serde_json::to_value(&action).map_err(Refusal::unstorable)?,
            canonical: action.to_string(),
            as_written,
            text: self.game.render(&self.ctx(render), text),
            ends_turn: marks.ends_turn,
            changes_picture: marks.changes_picture,
        })
    }

    fn drawn(&mut self, index: u64, draw: G::Draw, render: &Render<'_>) -> Result<Drawn, Refusal> {
        let events = self
            .game
            .apply_draw(&mut self.state, &draw)
            .map_err(|r| self.refusal(r))?;
        self.note(&events);
        let draw = match serde_json::to_value(&draw).map_err(Refusal::unstorable)? {
            Value::Object(map) => map,
            _ => {
                let error = "a draw must be stored as a JSON object";
                return Err(Refusal::unstorable(serde::ser::Error::custom(error)));
            }
        };
        let text = Text::Events {
            state: &self.state,
            events: &events,
            proxy: None,
        };
        Ok(Drawn {
            index,
            draw,
            text: self.game.render(&self.ctx(render), text),
            ends_turn: self.game.marks(&events).ends_turn,
        })
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
            .game
            .seats(&setup, players.len())
            .into_iter()
            .filter_map(|i| players.get(i).cloned())
            .collect();
        let state = self.game.start(&setup).map_err(|r| (seated.clone(), r))?;
        Ok(GameSession {
            game: self.game.clone(),
            automa: self.automa.clone(),
            setup,
            state,
            seated,
            recent: Vec::new(),
            notes: G::Notes::default(),
        })
    }
}
