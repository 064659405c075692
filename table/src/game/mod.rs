//! The game trait: what a game plug-in gives the table. The table knows nothing of any game's
//! rules; it stores moves and draws as the game's JSON, asks the game to apply them, and renders
//! the game's typed results and refusals through the game's templates.
//!
//! A plug-in implements [`TableGame`] (typed: its own setup, state, moves, draws, events,
//! refusals and view model) and registers with one line in the bot's game registry.

pub mod automa;
pub(crate) mod erased;
pub mod events;
pub mod log;
pub mod session;
pub mod spec;

use std::fmt;
use std::ops::RangeInclusive;

use minijinja::context;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dice::{DiceError, DrawRecord, DrawSource};
use crate::game::spec::CommandSpec;
use crate::templates::Templates;

/// A seated player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerInfo {
    /// Display name.
    pub name: String,
    /// Transport id (a Discord user id, or the lower-case name in the console).
    pub id: String,
    /// How the transport wrote them when they were seated (`<@123>` on Discord, `@name` at
    /// the console), kept as stored; texts ping a player by [`PlayerInfo::ping`].
    pub mention: String,
}

impl PlayerInfo {
    /// How a text calls on this player: a ping token ([`crate::answer::ping`]) each transport
    /// presents; an automa is named, never pinged.
    pub fn ping(&self) -> String {
        if self.is_automa() {
            self.name.clone()
        } else {
            crate::answer::ping(&self.id, &self.name)
        }
    }
}

/// How random results are made.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DiceMode {
    /// Audited dice: derived from a committed secret seed (docs/DICE.md).
    Audited,
    /// Rolled elsewhere and entered by the moderator.
    Manual,
}

/// What a game is, for routing, help and checks.
#[derive(Clone, PartialEq, Eq)]
pub struct GameInfo {
    /// The stored kind, e.g. `irish-gauge`.
    pub kind: &'static str,
    /// The name shown to players, e.g. `Irish Gauge`.
    pub title: &'static str,
    /// Other names accepted after `!setup`, e.g. `ig`.
    pub aliases: &'static [&'static str],
    /// How many players it seats.
    pub players: RangeInclusive<usize>,
    /// The engine's version, stored with each game.
    pub engine_version: &'static str,
    /// The game's templates: (file name, text); the table files them under `<kind>/`.
    pub templates: &'static [(&'static str, &'static str)],
}

impl fmt::Debug for GameInfo {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("GameInfo")
            .field("kind", &self.kind)
            .field("players", &self.players)
            .field("engine_version", &self.engine_version)
            .finish_non_exhaustive()
    }
}

impl GameInfo {
    /// Whether `word` names this game.
    pub fn is_named(&self, word: &str) -> bool {
        let word = word.to_ascii_lowercase();
        word == self.kind || self.aliases.iter().any(|a| *a == word)
    }
}

/// The kind of decision a player is asked for (clocks treat them differently).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    /// A turn.
    Turn,
    /// A bid or pass in an auction.
    Auction,
}

/// Who must act now.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ToAct {
    /// A player, by seat.
    Player {
        /// Their seat.
        seat: usize,
        /// What they decide.
        decision: Decision,
    },
    /// A random result is pending (the audited dice, or the moderator's manual draw).
    Draw,
    /// Nobody: the game is over.
    Nobody,
}

/// A move the table makes for a seat: a preset's, an automatic pass, a moderator's `!act`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Proxy {
    /// Whether it is the game's automatic move (the seat did not answer: clock, absence), not
    /// a move chosen for the player.
    pub automatic: bool,
    /// Why, in the table's words: `preset`, `the auction clock ran out`, `by mona`.
    pub note: String,
}

/// A player's secret standing order for decisions to come (`!preset …` in a direct message),
/// as the game read it.
#[derive(Debug, Clone, PartialEq)]
pub struct Preset {
    /// A new preset replaces a stored one of the same key (`pass`, `max:WLW`).
    pub key: String,
    /// The order as the game stores it (kept secret until the game ends).
    pub order: Value,
}

/// What a player's presets answer to the decision they face now.
#[derive(Debug, Clone, PartialEq)]
pub struct PresetAnswer<M> {
    /// The move to make for them, if a preset answers.
    pub action: Option<M>,
    /// The positions (in the list given) of presets that can never answer again.
    pub spent: Vec<usize>,
}

impl<M> Default for PresetAnswer<M> {
    fn default() -> Self {
        PresetAnswer {
            action: None,
            spent: Vec::new(),
        }
    }
}

/// The `key:value` options of `!setup` that the table does not read itself, in order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SetupOptions {
    /// Lower-case keys with their values as written.
    pub values: Vec<(String, String)>,
}

impl SetupOptions {
    /// The value of an option, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.values
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, v)| v.as_str())
    }

    /// The first key not in `known`, if any.
    pub fn unknown(&self, known: &[&str]) -> Option<&str> {
        self.values
            .iter()
            .map(|(k, _)| k.as_str())
            .find(|k| !known.contains(k))
    }
}

/// The dice at setup.
#[derive(Debug, Clone, Copy)]
pub enum SetupDice<'a> {
    /// Audited: setup draws come from the seed.
    Audited(DrawSource<'a>),
    /// Manual: setup rolls are given as options.
    Manual,
}

/// How players are named in a text: names, or pings for the player to act.
#[derive(Debug, Clone, Copy)]
pub struct Names<'a> {
    seated: &'a [PlayerInfo],
    ping: bool,
    skip: Option<usize>,
}

impl<'a> Names<'a> {
    /// Names of the seated players (in seat order); `ping` mentions players called to act,
    /// except the seat `skip` (the author, who is reading already).
    pub fn new(seated: &'a [PlayerInfo], ping: bool, skip: Option<usize>) -> Self {
        Names { seated, ping, skip }
    }

    /// A player's name.
    pub fn name(&self, seat: usize) -> &str {
        self.seated
            .get(seat)
            .map(|p| p.name.as_str())
            .unwrap_or("?")
    }

    /// Every seated player's name, in seat order.
    pub fn all(&self) -> Vec<&str> {
        self.seated.iter().map(|p| p.name.as_str()).collect()
    }

    /// A player called to act: a mention when pinging, else the name.
    pub fn call(&self, seat: usize) -> String {
        match self.seated.get(seat) {
            Some(player) if self.ping && Some(seat) != self.skip => player.ping(),
            Some(player) => player.name.clone(),
            None => String::new(),
        }
    }
}

/// What a game's texts are rendered with.
#[derive(Clone, Copy)]
pub struct Ctx<'a> {
    /// The templates.
    pub templates: &'a Templates,
    /// The `!`-command prefix.
    pub prefix: &'a str,
    /// The game id.
    pub game_id: &'a str,
    /// Who makes manual draws.
    pub moderator: &'a str,
    /// Where draws come from, for narration (`audited dice`, `moderator`), if said.
    pub draw_source: Option<&'a str>,
    /// How players are named.
    pub names: Names<'a>,
}

impl fmt::Debug for Ctx<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Ctx")
            .field("game_id", &self.game_id)
            .finish()
    }
}

/// A move as read from what a player wrote.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadMove<M> {
    /// The move.
    pub action: M,
    /// Whether the text was the canonical notation itself; if not, the table says how it read
    /// it ("— read as **bid 8**"), so that players learn the notation.
    pub canonical: bool,
}

impl<M> ReadMove<M> {
    /// A move written in the canonical notation.
    pub fn canonical(action: M) -> Self {
        ReadMove {
            action,
            canonical: true,
        }
    }
}

/// What an autocomplete asks: the command, the argument being typed, what is typed so far, and
/// the arguments already given (name, value).
#[derive(Debug, Clone, Copy)]
pub struct Query<'a> {
    /// The command's name, e.g. `build`.
    pub command: &'a str,
    /// The argument being typed, e.g. `hexes`.
    pub arg: &'a str,
    /// What is typed so far.
    pub typed: &'a str,
    /// The other arguments already given, by name.
    pub given: &'a [(String, String)],
}

impl Query<'_> {
    /// The value given for another argument, if any.
    pub fn given(&self, name: &str) -> Option<&str> {
        self.given
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// One answer to an autocomplete: what the player reads and what the argument becomes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Suggestion {
    /// What is shown, e.g. `K3 Shannon — 1 BP`.
    pub label: String,
    /// The argument's value, e.g. `K3`.
    pub value: String,
}

impl Suggestion {
    /// A suggestion.
    pub fn new(label: impl Into<String>, value: impl Into<String>) -> Self {
        Suggestion {
            label: label.into(),
            value: value.into(),
        }
    }
}

/// A move the player to act can make with one click (a button on the turn prompt).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct QuickMove {
    /// The button's text, e.g. `Bid £8`.
    pub label: String,
    /// The move in the players' notation, e.g. `bid 8`.
    pub notation: String,
}

/// What a move or draw did to the table's rhythm.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Marks {
    /// Whether it ended a turn (the full report follows).
    pub ends_turn: bool,
    /// Whether it changed the picture (the map follows the report).
    pub changes_picture: bool,
}

/// A text of a game, rendered by [`TableGame::render`]. Each kind has a template of the same
/// name under the game's kind (`<kind>/status.md.j2` …), used by [`render_template`].
pub enum Text<'a, G: TableGame> {
    /// The announcement of a new game (`setup.md.j2`).
    Setup {
        /// The setup.
        setup: &'a G::Setup,
        /// The starting position.
        state: &'a G::State,
    },
    /// The narration of what a move or draw did (`events.md.j2`).
    Events {
        /// The position it left.
        state: &'a G::State,
        /// What it did.
        events: &'a G::Events,
        /// Set when the table made the move for a seat (a preset, a clock, `!act`).
        proxy: Option<&'a Proxy>,
    },
    /// The full status report (`status.md.j2`).
    Status {
        /// The position.
        state: &'a G::State,
        /// Its view model.
        view: &'a G::View,
    },
    /// What follows the status report from the game's notes (none by default).
    Notes {
        /// The position.
        state: &'a G::State,
        /// The notes.
        notes: &'a G::Notes,
    },
    /// Who acts next and what they may do (`prompt.md.j2`).
    Prompt {
        /// The position.
        state: &'a G::State,
    },
    /// The legal moves of the player to act (`moves.md.j2`).
    Moves {
        /// The position.
        state: &'a G::State,
    },
    /// A refusal (`refusal.md.j2`).
    Refusal(&'a G::Refusal),
    /// A stored preset in words, for its owner (by default its JSON).
    Preset(&'a Value),
    /// Why the automa chose its move, in one short line (`automa.md.j2`, with `reason`, the
    /// data its [`automa::TableAutoma`] gave).
    Reason(&'a Value),
    /// What the game's picture shows, in words: its alt text (`picture_alt.md.j2`, with
    /// `view`). Asked only of a game that has a picture.
    PictureAlt {
        /// The view model the picture is drawn from.
        view: &'a G::View,
    },
}

/// The templates-driven rendering every game gets by default: `<kind>/<text>.md.j2` rendered
/// with the text's data — `setup`, `view`, `players` (names in seat order) for the setup;
/// `events` for events; `view` and `prompt` for the status; `view`, `to_act` (`player`,
/// `draw` or `nobody`), `who` (the mention), `player` (the name) for the prompt and the moves;
/// `refusal` (the refusal's data) and `text` (its plain wording) for a refusal. Every text also
/// has `p` (the prefix), `game_id` and `moderator`. A proxy move's narration is the note in
/// brackets before the events.
pub fn render_template<G: TableGame>(game: &G, ctx: &Ctx<'_>, text: Text<'_, G>) -> String {
    use minijinja::Value as V;
    let data = |name: &str, data: V| {
        let common =
            context! { p => ctx.prefix, game_id => ctx.game_id, moderator => ctx.moderator };
        let name = format!("{}/{name}.md.j2", game.info().kind);
        ctx.templates.text(&name, context! { ..data, ..common })
    };
    let to_act = |state: &G::State| {
        let view = V::from_serialize(game.view(state, &[], ctx.moderator));
        match game.to_act(state) {
            ToAct::Player { seat, .. } => context! {
                view, to_act => "player", who => ctx.names.call(seat), player => ctx.names.name(seat),
            },
            ToAct::Draw => context! { view, to_act => "draw" },
            ToAct::Nobody => context! { view, to_act => "nobody" },
        }
    };
    match text {
        Text::Setup { setup, state } => data(
            "setup",
            context! {
                setup => V::from_serialize(setup),
                view => V::from_serialize(game.view(state, &[], ctx.moderator)),
                players => ctx.names.all(),
            },
        ),
        Text::Events {
            events,
            proxy: None,
            ..
        } => data("events", context! { events => V::from_serialize(events) }),
        Text::Events {
            state,
            events,
            proxy: Some(proxy),
        } => format!(
            "({}) {}",
            proxy.note,
            game.render(
                ctx,
                Text::Events {
                    state,
                    events,
                    proxy: None
                }
            )
        ),
        Text::Status { state, view } => data(
            "status",
            context! {
                view => V::from_serialize(view),
                prompt => game.render(ctx, Text::Prompt { state }),
            },
        ),
        Text::Notes { .. } => String::new(),
        Text::Prompt { state } => data("prompt", to_act(state)),
        Text::Moves { state } => data("moves", to_act(state)),
        Text::Refusal(refusal) => data(
            "refusal",
            context! { refusal => V::from_serialize(refusal), text => refusal.to_string() },
        ),
        Text::Preset(order) => order.to_string(),
        Text::Reason(reason) => data("automa", context! { reason => V::from_serialize(reason) })
            .trim()
            .to_string(),
        Text::PictureAlt { view } => {
            data("picture_alt", context! { view => V::from_serialize(view) })
                .trim()
                .to_string()
        }
    }
}

/// An example refusal for the suite over every registered game: the refusal and the ruling
/// its text must cite (empty when it cites none).
pub type Example<R> = (R, String);

/// A game plug-in. The rules live in the game's engine; this adapts them to the table.
///
/// The required core is what only the game knows: what it is ([`info`](TableGame::info) with
/// its templates, [`commands`](TableGame::commands)), how a game starts
/// ([`setup`](TableGame::setup), [`start`](TableGame::start)), how a move reads and plays
/// ([`parse_move`](TableGame::parse_move), [`apply`](TableGame::apply),
/// [`to_act`](TableGame::to_act)), its random results ([`audited_draw`](TableGame::audited_draw),
/// [`manual_draw`](TableGame::manual_draw), [`apply_draw`](TableGame::apply_draw)) and its view
/// model ([`view`](TableGame::view)). Everything else has a default: texts render from the
/// game's templates ([`render_template`]), a game opts into pictures, audit records, presets,
/// automatic moves and autocomplete by overriding their hooks.
///
/// Every method is pure: no I/O, no clock, no randomness but the [`DrawSource`] given.
pub trait TableGame: Send + Sync + Sized + 'static {
    /// The validated setup, stored with the game.
    type Setup: Clone + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// The position.
    type State: Clone + Send + Sync + 'static;
    /// A player's move, stored in the log; `Display` prints the canonical notation.
    type Move: Clone + Serialize + DeserializeOwned + fmt::Display + Send + Sync + 'static;
    /// A random result, stored in the log (a JSON object).
    type Draw: Clone + Serialize + DeserializeOwned + Send + Sync + 'static;
    /// What a move or draw caused, for narration (its data is the events template's).
    type Events: Clone + Serialize + Send + Sync + 'static;
    /// A refusal, as data (the refusal template's); the wording players see is in the game's
    /// templates (`Display` is the plain wording for moderators' diagnostics, e.g. a log that no
    /// longer replays).
    type Refusal: fmt::Display + fmt::Debug + Serialize + Send + Sync + 'static;
    /// The one view model of a position: report, dump and map are made from it.
    type View: Serialize;
    /// What the game notes beside the position as the game goes (e.g. each dividend call's
    /// expected payouts, for a luck line at the end); `()` for none.
    type Notes: Default + Clone + Send + Sync + 'static;

    // ----- the required core -----

    /// Kind, title, player range, version, templates.
    fn info(&self) -> GameInfo;
    /// The game's commands: its moves (for help and slash commands) and moderator commands.
    fn commands(&self) -> Vec<CommandSpec>;
    /// Makes the setup from the players' names (in sign-up order), the options and the dice.
    fn setup(
        &self,
        names: Vec<String>,
        options: &SetupOptions,
        dice: SetupDice<'_>,
    ) -> Result<Self::Setup, Self::Refusal>;
    /// The starting position of a setup.
    fn start(&self, setup: &Self::Setup) -> Result<Self::State, Self::Refusal>;
    /// Reads a move as a player wrote it, in the position (a share named with a bid must be the
    /// one up, say). Parsing only: whether the move is legal is [`TableGame::apply`]'s business.
    fn parse_move(
        &self,
        state: &Self::State,
        text: &str,
    ) -> Result<ReadMove<Self::Move>, Self::Refusal>;
    /// Applies a move by a seat; a refusal changes nothing.
    fn apply(
        &self,
        state: &mut Self::State,
        seat: usize,
        action: &Self::Move,
    ) -> Result<Self::Events, Self::Refusal>;
    /// Who must act.
    fn to_act(&self, state: &Self::State) -> ToAct;
    /// The audited answer to a pending draw, with the index it was derived from; `None` when
    /// no draw is pending. `history_index` is the number of moves and draws in force.
    fn audited_draw(
        &self,
        state: &Self::State,
        dice: DrawSource<'_>,
        history_index: u64,
    ) -> Option<(u64, Self::Draw)>;
    /// A moderator's manual draw (`!draw …`, `!deal …`).
    fn manual_draw(
        &self,
        state: &Self::State,
        command: &str,
        args: &str,
    ) -> Result<Self::Draw, Self::Refusal>;
    /// Applies a draw.
    fn apply_draw(
        &self,
        state: &mut Self::State,
        draw: &Self::Draw,
    ) -> Result<Self::Events, Self::Refusal>;
    /// The view model; `recent` are the events of the last unit that changed the picture,
    /// `moderator` names who makes a pending manual draw.
    fn view(&self, state: &Self::State, recent: &[Self::Events], moderator: &str) -> Self::View;

    // ----- texts -----

    /// Renders a text. By default from the game's templates ([`render_template`]); a game
    /// overrides the texts it words itself and passes the rest to [`render_template`].
    fn render(&self, ctx: &Ctx<'_>, text: Text<'_, Self>) -> String {
        render_template(self, ctx, text)
    }
    /// A draw, for the log. By default its fields' values, space-separated.
    fn describe_draw(&self, draw: &Self::Draw) -> String {
        fn words(value: &Value, out: &mut Vec<String>) {
            match value {
                Value::Object(map) => map.values().for_each(|v| words(v, out)),
                Value::Array(items) => items.iter().for_each(|v| words(v, out)),
                Value::String(s) => out.push(s.clone()),
                Value::Null => {}
                other => out.push(other.to_string()),
            }
        }
        let mut out = Vec::new();
        words(&serde_json::to_value(draw).unwrap_or_default(), &mut out);
        out.join(" ")
    }
    /// Answers one of the game's informational `!`-commands (e.g. `!odds`); `None` when
    /// `command` is not one (then it is a manual draw).
    fn answer(
        &self,
        ctx: &Ctx<'_>,
        state: &Self::State,
        command: &str,
        args: &str,
    ) -> Option<String> {
        let _ = (ctx, state, command, args);
        None
    }
    /// Example refusals, one of every kind the game has, with the ruling each text must cite:
    /// the suite over every registered game renders each one. A registered game must list
    /// some (the suite fails on none).
    fn example_refusals(&self) -> Vec<Example<Self::Refusal>> {
        Vec::new()
    }

    // ----- the rhythm of play -----

    /// Seat order: for each seat, the index of its player in sign-up order (`players` of
    /// them). By default sign-up order.
    fn seats(&self, setup: &Self::Setup, players: usize) -> Vec<usize> {
        let _ = setup;
        (0..players).collect()
    }
    /// Whether bold text is chat, not a command (no reply at all). By default everything in
    /// bold is read as a move.
    fn is_chat(&self, text: &str) -> bool {
        let _ = text;
        false
    }
    /// Whether bold text from the player to act is chat in this position: by default
    /// [`TableGame::is_chat`]; a game adds what only the position makes a move (Irish Gauge: an
    /// amount alone, `£9`, while an auction runs).
    fn is_chat_in(&self, state: &Self::State, text: &str) -> bool {
        let _ = state;
        self.is_chat(text)
    }
    /// Whether bold text that does not read as a whole move is still clearly an attempt at
    /// one when the player to act writes it (refused with the reason, rather than taken as
    /// chat): by default, when it starts with one of the game's move words (`bid x`); a game
    /// adds its near misses (`bdi 8`). From anyone else such text is chat unless it starts
    /// with a move word.
    fn is_attempt(&self, text: &str) -> bool {
        self.starts_as_move(text)
    }
    /// Whether bold text starts as a move: by default, its first words are one of the game's
    /// move words or aliases ([`starts_with_move_word`]). Such text is refused with the reason
    /// whoever writes it; other text that does not read is chat unless [`TableGame::is_attempt`]
    /// says the player to act meant a move.
    fn starts_as_move(&self, text: &str) -> bool {
        starts_with_move_word(&self.commands(), text)
    }
    /// Whether the game is over. By default: when nobody is to act.
    fn is_finished(&self, state: &Self::State) -> bool {
        self.to_act(state) == ToAct::Nobody
    }
    /// Whether these events end a turn and change the picture. By default every move ends a
    /// turn and there is no picture.
    fn marks(&self, events: &Self::Events) -> Marks {
        let _ = events;
        Marks {
            ends_turn: true,
            changes_picture: false,
        }
    }
    /// The `--dump-state` JSON. By default the view model.
    fn dump(&self, view: &Self::View) -> Value {
        serde_json::to_value(view).unwrap_or(Value::Null)
    }
    /// The picture of the position (PNG), if the game has one (none by default).
    fn picture(&self, view: &Self::View) -> Option<Result<Vec<u8>, PictureError>> {
        let _ = view;
        None
    }
    /// The same picture as an SVG document, drawn by the same code (the web page shows it);
    /// none by default.
    fn picture_svg(&self, view: &Self::View) -> Option<String> {
        let _ = view;
        None
    }
    /// Notes what a move or draw did (`after` is the position it left); nothing by default.
    fn note(&self, notes: &mut Self::Notes, after: &Self::State, events: &Self::Events) {
        let _ = (notes, after, events);
    }

    // ----- the audit record (audited games override all three) -----

    /// The audit records of the setup's draws; none by default.
    fn setup_records(&self, setup: &Self::Setup) -> Vec<DrawRecord> {
        let _ = setup;
        Vec::new()
    }
    /// The audit record of an audited draw. By default purpose `<kind>` with the draw as its
    /// result.
    fn draw_record(&self, index: u64, draw: &Self::Draw) -> DrawRecord {
        let result = serde_json::to_value(draw).unwrap_or_default();
        DrawRecord::new(index, self.info().kind, [], result)
    }
    /// Recomputes a record of one of this game's purposes from `source` (its seed, game id,
    /// spec and the record's message); `None` for other purposes (the default).
    fn recompute(
        &self,
        record: &DrawRecord,
        source: DrawSource<'_>,
    ) -> Option<Result<Value, DiceError>> {
        let _ = (record, source);
        None
    }

    // ----- help while typing -----

    /// Legal values for an argument being typed (slash-command autocomplete), best first;
    /// `seat` is the asker's seat if seated. By default nothing is suggested.
    fn suggest(
        &self,
        state: &Self::State,
        seat: Option<usize>,
        query: &Query<'_>,
    ) -> Vec<Suggestion> {
        let _ = (state, seat, query);
        Vec::new()
    }
    /// The moves the player to act can make with one click (pass, the minimum bid...); each is
    /// checked like any move when clicked. By default none.
    fn quick_moves(&self, state: &Self::State) -> Vec<QuickMove> {
        let _ = state;
        Vec::new()
    }
    /// The moves a refusal of a text offers the player to act instead (a near miss's
    /// correction, the legal move nearest to what was written): named in the short answer to
    /// bold text from the player to act that reads as no move (docs/PHRASING.md). None by
    /// default.
    fn offered_moves(&self, refusal: &Self::Refusal) -> Vec<Self::Move> {
        let _ = refusal;
        Vec::new()
    }

    // ----- play over weeks (every method has a default: a game opts in) -----

    /// The move made for `seat` when it does not answer in time (its auction clock ran out) or
    /// is away, if the game has one for the decision it faces (Irish Gauge: `pass` in an
    /// auction). `None` (the default): nothing is automatic; moderators are told instead.
    fn auto_move(&self, state: &Self::State, seat: usize) -> Option<Self::Move> {
        let _ = (state, seat);
        None
    }
    /// The one move the player to act can make when they have no choice (Privates: a pass
    /// when they can neither buy nor bid): the table plays it for them at once, marked as
    /// automatic (`ProxyWhy::Forced`), unless the game was set up with `forced:ask`. `None`
    /// (the default): every decision is asked.
    fn forced_move(&self, state: &Self::State) -> Option<Self::Move> {
        let _ = state;
        None
    }

    /// Whether every decision of the game has a pass, so that `!clock timeout:pass` may pass
    /// for a player whose time ran out (Privates). `false` (the default): only what
    /// [`TableGame::auto_move`] answers passes (Irish Gauge: bids).
    fn passes_every_decision(&self) -> bool {
        false
    }
    /// The move made for `seat` when its time ran out under `!clock timeout:pass`: by default
    /// [`TableGame::auto_move`].
    fn timeout_pass(&self, state: &Self::State, seat: usize) -> Option<Self::Move> {
        self.auto_move(state, seat)
    }
    /// Reads a secret preset of `seat` (the text after `!preset`), checking it against the
    /// position (e.g. a bid limit above the player's cash is refused). `None` (the default):
    /// the game has no presets.
    fn read_preset(
        &self,
        state: &Self::State,
        seat: usize,
        text: &str,
    ) -> Option<Result<Preset, Self::Refusal>> {
        let _ = (state, seat, text);
        None
    }
    /// What `seat`'s presets (their stored orders, oldest first) answer to the decision it
    /// faces now.
    fn preset_answer(
        &self,
        state: &Self::State,
        seat: usize,
        presets: &[Value],
    ) -> PresetAnswer<Self::Move> {
        let _ = (state, seat, presets);
        PresetAnswer::default()
    }
    /// A seat passed to another player (`!sub`): the game's own copy of the name, if it keeps
    /// one, follows. The default does nothing.
    fn rename(&self, state: &mut Self::State, seat: usize, name: &str) {
        let _ = (state, seat, name);
    }

    // ----- the table's conventions, as this game's documents number them -----

    /// The reference the table's own refusals cite for this game (a finished game, a player
    /// without a seat, a draw nobody waits for, a moderator's command): Irish Gauge "ruling
    /// 27", Privates "P17". Empty (the default): they cite nothing.
    fn table_ruling(&self) -> &'static str {
        ""
    }
    /// The table's commands this game has no use for (Privates: `map`, `preset`): left out of
    /// `!help` while it is played. The default: none.
    fn unused_table_commands(&self) -> &'static [&'static str] {
        &[]
    }

    // ----- catching up (`!recap`, the turn ping) -----

    /// What the events of one move or draw come to for a player catching up: shares won,
    /// builds, cards taken, dividends, revenue ([`Summary`]). The table groups them and its
    /// recap template words them. The default: nothing to say.
    fn summarize(&self, state: &Self::State, events: &Self::Events) -> Vec<Summary> {
        let _ = (state, events);
        Vec::new()
    }
    /// A seat's money now, for the recap's money line and the net-worth chart (`!chart`).
    /// The default: the game does not say (no money line, no chart).
    fn worth(&self, state: &Self::State, seat: usize) -> Option<Worth> {
        let _ = (state, seat);
        None
    }
    /// How near the end is, for the status and the recap (Irish Gauge: cubes left and the
    /// dividend calls they last; Privates: the round); [`Summary::near`] when the end is close
    /// enough for the recap to say so. `None` once the game is over.
    fn pressure(&self, state: &Self::State) -> Option<Summary> {
        let _ = state;
        None
    }
}

/// One thing that happened, as a recap tells it: data the table groups by kind, seat and
/// subject, worded by `templates/table/messages/recap.md.j2`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, Default)]
pub struct Summary {
    /// What happened: `share_won`, `build`, `interest`, `dividends`, `cubes_left` (Irish
    /// Gauge); `card_taken`, `price_drop`, `revenue`, `round` (Privates).
    pub kind: String,
    /// The seat who did it, if a player did.
    pub seat: Option<usize>,
    /// What it concerned (a railway), or empty when the details say it.
    pub subject: String,
    /// Sums of money, written with their currency (`£8`).
    pub amounts: Vec<String>,
    /// Details: the towns a build reached, the cards taken, each railway's pay.
    pub detail: Vec<String>,
    /// For [`TableGame::pressure`]: whether the end is near (fewer than three dividend calls
    /// or rounds left), so that the recap says "end in sight".
    #[serde(default)]
    pub near: bool,
    /// A step of something still going on (a bid in an auction not decided yet): an asked-for
    /// recap shows it until a later summary with the same [`Summary::key`] closes it (one not
    /// open, or the same seat's next open one); a turn ping's recap leaves it out (the ping
    /// says where the auction stands).
    #[serde(default)]
    pub open: bool,
    /// What the summary is about, for [`Summary::open`]'s matching (a card's letter, a share):
    /// empty when nothing is to match.
    #[serde(default)]
    pub key: String,
}

/// A seat's money: cash and net worth, written with the game's currency by [`Worth::money`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Worth {
    /// Cash in hand.
    pub cash: i64,
    /// Net worth: cash and holdings at face value (Irish Gauge), the running score (Privates).
    pub total: i64,
    /// The currency sign (`£`, `$`).
    pub currency: &'static str,
}

impl Worth {
    /// An amount in this currency: `£8`, `-£3`.
    pub fn money(&self, amount: i64) -> String {
        if amount < 0 {
            format!("-{}{}", self.currency, -amount)
        } else {
            format!("{}{amount}", self.currency)
        }
    }
}

/// Whether `text` starts with one of the move words (name or alias) of `commands`: `bid x`,
/// `special interest …`; case and trailing punctuation do not matter.
pub fn starts_with_move_word(commands: &[CommandSpec], text: &str) -> bool {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .collect();
    commands
        .iter()
        .filter(|c| c.form == crate::game::spec::Form::Move)
        .flat_map(|c| std::iter::once(c.name).chain(c.aliases.iter().copied()))
        .any(|name| {
            let name: Vec<&str> = name.split_whitespace().collect();
            !name.is_empty()
                && words.len() >= name.len()
                && name
                    .iter()
                    .zip(&words)
                    .all(|(a, b)| a.eq_ignore_ascii_case(b))
        })
}

/// Why a picture could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct PictureError(pub String);
