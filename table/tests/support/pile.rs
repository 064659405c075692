//! "Pile", the toy game of the core's tests: a take-away game (take 1, 2 or 3 from a pile;
//! whoever takes the last wins) with an audited coin flip for the first player and an audited
//! die for the pile after every fifth take. It opts into nothing of play over weeks, unless set
//! up with `decision:auction`: then every take is an auction's decision, so the table answers it
//! for a seat whose clock ran out or who is away (`take 1`, the game's automatic move), and a
//! player's secret preset (`!preset take N`) answers it too. Set up with `steps:1`, every take
//! is of 1: no move has a choice, and the table makes them all.

use std::fmt;
use std::sync::Arc;

use gaugebot_table::commands::registry::{Access, CommandSpec, Form};
use gaugebot_table::dice::{DiceError, DrawRecord, DrawSource, Seed};
use gaugebot_table::game::{
    Decision, GameInfo, Preset, PresetAnswer, ReadMove, SetupDice, SetupOptions, TableGame, ToAct,
};
use gaugebot_table::{plugin, Host, TableSettings, Templates};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// The game's setup: seats, who starts, the pile, and whether takes are auctions' decisions.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct PileSetup {
    players: usize,
    first: usize,
    pile: u32,
    #[serde(default)]
    auction: bool,
    /// Every take is of 1 (`steps:1` at setup): no move has a choice, so the table makes
    /// them all (`TableGame::forced_move`).
    #[serde(default)]
    steps: bool,
}

/// A position of the game.
#[derive(Debug, Clone, PartialEq)]
pub struct Pile {
    players: usize,
    /// The seat to take next.
    pub to_act: usize,
    /// What is left of the pile.
    pub pile: u32,
    takes: u32,
    awaiting_die: bool,
    winner: Option<usize>,
    /// Whether a take is an auction's decision (`decision:auction` at setup).
    pub auction: bool,
    /// Whether every take is of 1 (`steps:1` at setup).
    pub steps: bool,
}

/// A move: take this many.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Take(u32);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take {}", self.0)
    }
}

/// The die for the pile.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Die {
    roll: u32,
}

/// Why a move, a draw or a preset is refused.
#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PileRefusal {
    NotANumber { text: String },
    TooMany { asked: u32, max: u32 },
    NotYourTurn,
    Over,
    NoDie,
}

impl fmt::Display for PileRefusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PileRefusal::NotANumber { text } => write!(f, "'{text}' is not a take"),
            PileRefusal::TooMany { asked, max } => write!(f, "{asked} is more than {max}"),
            other => write!(f, "{other:?}"),
        }
    }
}

/// The rules of the pile, as a game's engine would have them.
impl Pile {
    fn new(setup: &PileSetup) -> Pile {
        let (players, to_act, pile) = (setup.players, setup.first, setup.pile);
        let (takes, awaiting_die, winner) = (0, false, None);
        Pile {
            players,
            to_act,
            pile,
            takes,
            awaiting_die,
            winner,
            auction: setup.auction,
            steps: setup.steps,
        }
    }

    fn to_act(&self) -> ToAct {
        match (self.winner, self.awaiting_die) {
            (Some(_), _) => ToAct::Nobody,
            (None, true) => ToAct::Draw,
            (None, false) => ToAct::Player {
                seat: self.to_act,
                decision: match self.auction {
                    true => Decision::Auction,
                    false => Decision::Turn,
                },
            },
        }
    }

    fn take(&mut self, seat: usize, take: u32) -> Result<String, PileRefusal> {
        if self.winner.is_some() {
            return Err(PileRefusal::Over);
        }
        if seat != self.to_act || self.awaiting_die {
            return Err(PileRefusal::NotYourTurn);
        }
        let max = if self.steps { 1 } else { 3 }.min(self.pile);
        if take == 0 || take > max {
            return Err(PileRefusal::TooMany { asked: take, max });
        }
        self.pile -= take;
        self.takes += 1;
        if self.pile == 0 {
            self.winner = Some(seat);
            return Ok(format!("seat {seat} takes the last"));
        }
        self.to_act = (seat + 1) % self.players;
        self.awaiting_die = self.takes.is_multiple_of(5);
        Ok(format!("seat {seat} takes {take}"))
    }

    fn add_die(&mut self, roll: u32) -> Result<String, PileRefusal> {
        if !self.awaiting_die {
            return Err(PileRefusal::NoDie);
        }
        self.pile += roll;
        self.awaiting_die = false;
        Ok(format!("the die adds {roll}"))
    }
}

/// The notation: `take N`, any case.
fn read(text: &str) -> Result<ReadMove<Take>, PileRefusal> {
    let action = read_take(text)?;
    Ok(ReadMove {
        canonical: action.to_string() == text,
        action,
    })
}

/// `take N`, any case.
fn read_take(text: &str) -> Result<Take, PileRefusal> {
    let lower = text.trim().to_ascii_lowercase();
    let take = lower
        .strip_prefix("take ")
        .and_then(|n| n.trim().parse().ok());
    take.map(Take)
        .ok_or_else(|| PileRefusal::NotANumber { text: text.into() })
}

/// The audited draws: who starts (`pile-first`), and the die for the pile (`pile-die`).
fn first(source: DrawSource<'_>, players: u64) -> u32 {
    source.stream(0, "pile-first").uniform(players as u32)
}

fn die(source: DrawSource<'_>, index: u64) -> u32 {
    1 + source.stream(index, "pile-die").uniform(6)
}

fn recompute(record: &DrawRecord, source: DrawSource<'_>) -> Option<Result<Value, DiceError>> {
    let result = match record.purpose.as_str() {
        "pile-die" => die(source, record.index),
        "pile-first" => first(source, record.input("players")?.as_u64()?),
        _ => return None,
    };
    Some(Ok(Value::from(result)))
}

/// Every text is the default: the game's templates rendered with the view.
const TEMPLATES: &[(&str, &str)] = &[
    ("setup.md.j2", "{{ players[setup.first] }} starts"),
    ("events.md.j2", "{{ events }}"),
    ("status.md.j2", "Pile: {{ view.pile }}{% if view.winner is not none %}; seat {{ view.winner }} wins{% endif %}"),
    ("prompt.md.j2", "{{ who }} to take"),
    ("moves.md.j2", "{{ who }} to take"),
    ("refusal.md.j2", "{{ refusal.kind | replace('_', ' ') }}{% if refusal.max %}: take at most {{ refusal.max }}{% endif %}"),
];

const INFO: GameInfo = GameInfo {
    kind: "pile",
    title: "Pile",
    aliases: &[],
    players: 2..=4,
    engine_version: "1",
    templates: TEMPLATES,
};

const ROLL: CommandSpec = CommandSpec {
    name: "roll",
    aliases: &[],
    access: Access::Moderator,
    form: Form::Bang,
    args: &[],
    summary: "the die for the pile (manual dice)",
    example: "",
    game: Some("pile"),
};

/// The plug-in.
pub struct PileGame;

thread_local! {
    /// How often this thread's tables asked the game to read a move.
    pub static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
}

// The plug-in: the required core and the audit record.
impl TableGame for PileGame {
    type Setup = PileSetup;
    type State = Pile;
    type Move = Take;
    type Draw = Die;
    type Events = String;
    type Refusal = PileRefusal;
    type View = Value;
    type Notes = ();

    fn info(&self) -> GameInfo {
        INFO
    }
    fn commands(&self) -> Vec<CommandSpec> {
        vec![ROLL]
    }
    fn setup(
        &self,
        names: Vec<String>,
        options: &SetupOptions,
        dice: SetupDice<'_>,
    ) -> Result<PileSetup, PileRefusal> {
        let players = names.len();
        let first = match dice {
            SetupDice::Audited(source) => first(source, players as u64) as usize,
            SetupDice::Manual => options
                .get("first")
                .and_then(|f| f.parse().ok())
                .unwrap_or(0),
        };
        Ok(PileSetup {
            players,
            first,
            pile: 10,
            auction: options.get("decision") == Some("auction"),
            steps: options.get("steps") == Some("1"),
        })
    }
    fn start(&self, setup: &PileSetup) -> Result<Pile, PileRefusal> {
        Ok(Pile::new(setup))
    }
    fn parse_move(&self, _state: &Pile, text: &str) -> Result<ReadMove<Take>, PileRefusal> {
        PARSES.with(|parses| parses.set(parses.get() + 1));
        read(text)
    }
    fn apply(&self, state: &mut Pile, seat: usize, action: &Take) -> Result<String, PileRefusal> {
        state.take(seat, action.0)
    }
    fn to_act(&self, state: &Pile) -> ToAct {
        state.to_act()
    }
    fn audited_draw(&self, state: &Pile, dice: DrawSource<'_>, index: u64) -> Option<(u64, Die)> {
        let roll = die(dice, index);
        state.awaiting_die.then_some((index, Die { roll }))
    }
    fn manual_draw(&self, _state: &Pile, _command: &str, args: &str) -> Result<Die, PileRefusal> {
        let roll = args.trim().parse();
        Ok(Die {
            roll: roll.map_err(|_| PileRefusal::NotANumber { text: args.into() })?,
        })
    }
    fn apply_draw(&self, state: &mut Pile, draw: &Die) -> Result<String, PileRefusal> {
        state.add_die(draw.roll)
    }
    fn view(&self, state: &Pile, _recent: &[String], _moderator: &str) -> Value {
        serde_json::json!({ "pile": state.pile, "winner": state.winner })
    }
    fn setup_records(&self, setup: &PileSetup) -> Vec<DrawRecord> {
        let inputs = [("players", Value::from(setup.players))];
        vec![DrawRecord::new(0, "pile-first", inputs, setup.first.into())]
    }
    fn draw_record(&self, index: u64, draw: &Die) -> DrawRecord {
        DrawRecord::new(index, "pile-die", [], Value::from(draw.roll))
    }
    fn recompute(&self, r: &DrawRecord, s: DrawSource<'_>) -> Option<Result<Value, DiceError>> {
        recompute(r, s)
    }

    // Play over weeks, for a pile set up with `decision:auction` (a plain pile has none of it).

    /// A seat that does not answer in time, or is away, takes 1.
    fn auto_move(&self, state: &Pile, seat: usize) -> Option<Take> {
        let to_act = state.to_act()
            == ToAct::Player {
                seat,
                decision: Decision::Auction,
            };
        to_act.then_some(Take(1))
    }
    /// A pile of single steps (`steps:1`) leaves the player to act no choice: take 1.
    fn forced_move(&self, state: &Pile) -> Option<Take> {
        let to_act = matches!(state.to_act(), ToAct::Player { .. });
        (state.steps && to_act).then_some(Take(1))
    }
    /// `!preset take N`: a standing order to take N (or what is left) at each decision.
    fn read_preset(
        &self,
        state: &Pile,
        _seat: usize,
        text: &str,
    ) -> Option<Result<Preset, PileRefusal>> {
        if !state.auction {
            return None;
        }
        Some(read_take(text).map(|take| Preset {
            key: "take".to_string(),
            order: Value::from(take.0),
        }))
    }
    /// The last order given answers the seat's decision.
    fn preset_answer(&self, state: &Pile, seat: usize, presets: &[Value]) -> PresetAnswer<Take> {
        let deciding = state.to_act()
            == ToAct::Player {
                seat,
                decision: Decision::Auction,
            };
        let order = presets.iter().rev().find_map(Value::as_u64);
        let action = order
            .filter(|_| deciding)
            .map(|n| Take(u32::try_from(n).unwrap_or(3).min(3).min(state.pile)));
        PresetAnswer {
            action,
            spent: Vec::new(),
        }
    }
}

/// The seed of the tests' audited games.
pub const SEED: &str = "5eed5eed00112233445566778899aabbccddeeff0123456789abcdef5eed5eed";

/// The host of a table that plays Pile, with the tests' fixed seed.
pub fn host() -> Arc<Host> {
    host_with(TableSettings::default())
}

/// The host of a table that plays Pile, with these settings and the tests' fixed seed.
pub fn host_with(settings: TableSettings) -> Arc<Host> {
    let games = vec![plugin(PileGame)];
    let templates = Templates::load(None, &gaugebot_table::texts_of(&games)).expect("templates");
    let settings = TableSettings {
        fixed_seed: Some(Seed::from_hex(SEED).expect("seed")),
        ..settings
    };
    Arc::new(Host::new(games, templates, settings))
}
