//! The table core with a game that is not Irish Gauge: "Pile", a take-away game (take 1, 2 or
//! 3 from a pile; whoever takes the last wins) with an audited coin flip for the first player
//! and an audited die for the pile after every fifth take. It shows that the core is
//! game-agnostic: setup, moves, refusals rendered from the game's own template, audited and
//! manual draws, undo, the log, the audit record, and a frozen table.

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use gaugebot_table::commands::registry::{Access, CommandSpec, Form};
use gaugebot_table::dice::{DiceError, DrawRecord, DrawSource, Seed};
use gaugebot_table::game::{
    Decision, GameInfo, ReadMove, SetupDice, SetupOptions, TableGame, ToAct,
};
use gaugebot_table::store::{GameRow, LogRow, Outgoing, Store, StoreError, Write};
use gaugebot_table::{
    plugin, Author, Host, Incoming, Table, TableSettings, Tables, Templates, Verdict,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

/// An in-memory store.
#[derive(Debug, Default)]
struct Memory {
    games: Mutex<Vec<GameRow>>,
    logs: Mutex<HashMap<String, Vec<LogRow>>>,
    seen: Mutex<Vec<(String, String)>>,
    states: Mutex<HashMap<String, String>>,
    presets: Mutex<HashMap<(String, String), String>>,
    outbox: Mutex<Vec<Outgoing>>,
    /// Every write batch stored, in order.
    batches: Mutex<Vec<Vec<Write>>>,
    /// While set, every write fails (the database is unavailable).
    down: std::sync::atomic::AtomicBool,
}

impl Memory {
    fn mark(&self, channel: &str, message_id: &str) {
        self.seen
            .lock()
            .unwrap()
            .push((channel.into(), message_id.into()));
    }

    fn apply(&self, write: &Write) {
        match write {
            Write::CreateGame { game, message_id } => {
                let mut games = self.games.lock().unwrap();
                for g in games.iter_mut().filter(|g| g.channel == game.channel) {
                    g.active = false;
                }
                games.push(game.clone());
                drop(games);
                self.mark(&game.channel, message_id);
            }
            Write::Append {
                game_id,
                channel,
                rows,
                message_id,
                revealed,
            } => {
                self.logs
                    .lock()
                    .unwrap()
                    .entry(game_id.clone())
                    .or_default()
                    .extend_from_slice(rows);
                if *revealed {
                    for g in self
                        .games
                        .lock()
                        .unwrap()
                        .iter_mut()
                        .filter(|g| &g.id == game_id)
                    {
                        g.revealed = true;
                    }
                }
                self.mark(channel, message_id);
            }
            Write::Read {
                channel,
                message_id,
            } => self.mark(channel, message_id),
            Write::MarkSeen {
                channel,
                message_id,
            } => self.mark(channel, message_id),
            Write::ChannelState {
                channel,
                state,
                message_id,
            } => {
                {
                    let mut states = self.states.lock().unwrap();
                    match state {
                        Some(state) => states.insert(channel.clone(), state.clone()),
                        None => states.remove(channel),
                    };
                }
                self.mark(channel, message_id);
            }
            Write::Presets {
                game_id,
                player_id,
                presets,
            } => {
                let key = (game_id.clone(), player_id.clone());
                let mut all = self.presets.lock().unwrap();
                match presets {
                    Some(p) => all.insert(key, p.clone()),
                    None => all.remove(&key),
                };
            }
            Write::Outbox(item) => self.outbox.lock().unwrap().push(item.clone()),
        }
    }
}

#[async_trait]
impl Store for Memory {
    async fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        if self.down.load(std::sync::atomic::Ordering::SeqCst) {
            return Err(StoreError::Unavailable(Arc::new(std::io::Error::other(
                "the disk is gone",
            ))));
        }
        for write in writes {
            if let Write::Read {
                channel,
                message_id,
            } = write
            {
                if self.seen(channel, message_id).await? {
                    return Err(StoreError::AlreadyRead {
                        channel: channel.clone(),
                        message_id: message_id.clone(),
                    });
                }
            }
        }
        for write in writes {
            self.apply(write);
        }
        self.batches.lock().unwrap().push(writes.to_vec());
        Ok(())
    }
    async fn pending(&self, channel: Option<&str>) -> Result<Vec<Outgoing>, StoreError> {
        Ok(self
            .outbox
            .lock()
            .unwrap()
            .iter()
            .filter(|o| channel.is_none_or(|c| c == o.channel))
            .cloned()
            .collect())
    }
    async fn delivered(&self, channel: &str, key: &str) -> Result<(), StoreError> {
        self.outbox
            .lock()
            .unwrap()
            .retain(|o| !(o.channel == channel && o.key == key));
        Ok(())
    }
    async fn active_game(&self, channel: &str) -> Result<Option<GameRow>, StoreError> {
        Ok(self
            .games
            .lock()
            .unwrap()
            .iter()
            .find(|g| g.channel == channel && g.active)
            .cloned())
    }
    async fn game_count(&self, channel: &str) -> Result<i64, StoreError> {
        Ok(self
            .games
            .lock()
            .unwrap()
            .iter()
            .filter(|g| g.channel == channel)
            .count() as i64)
    }
    async fn active_channels(&self) -> Result<Vec<String>, StoreError> {
        Ok(self
            .games
            .lock()
            .unwrap()
            .iter()
            .filter(|g| g.active)
            .map(|g| g.channel.clone())
            .collect())
    }
    async fn seen(&self, channel: &str, message_id: &str) -> Result<bool, StoreError> {
        Ok(self
            .seen
            .lock()
            .unwrap()
            .iter()
            .any(|(c, m)| c == channel && m == message_id))
    }
    async fn log(&self, game_id: &str) -> Result<Vec<LogRow>, StoreError> {
        Ok(self
            .logs
            .lock()
            .unwrap()
            .get(game_id)
            .cloned()
            .unwrap_or_default())
    }
    async fn cursor(&self, _channel: &str) -> Result<Option<String>, StoreError> {
        Ok(None)
    }
    async fn advance_cursor(&self, _channel: &str, _message_id: &str) -> Result<(), StoreError> {
        Ok(())
    }
    async fn channel_state(&self, channel: &str) -> Result<Option<String>, StoreError> {
        Ok(self.states.lock().unwrap().get(channel).cloned())
    }
    async fn state_channels(&self) -> Result<Vec<String>, StoreError> {
        Ok(self.states.lock().unwrap().keys().cloned().collect())
    }
    async fn presets(&self, game_id: &str) -> Result<Vec<(String, String)>, StoreError> {
        Ok(self
            .presets
            .lock()
            .unwrap()
            .iter()
            .filter(|((g, _), _)| g == game_id)
            .map(|((_, p), v)| (p.clone(), v.clone()))
            .collect())
    }
    async fn close(&self) {}
}

// ------------------------------------------------------------------ the game

#[derive(Debug, Clone, Serialize, Deserialize)]
struct PileSetup {
    players: usize,
    first: usize,
    pile: u32,
}

#[derive(Debug, Clone, PartialEq)]
struct Pile {
    players: usize,
    to_act: usize,
    pile: u32,
    takes: u32,
    awaiting_die: bool,
    winner: Option<usize>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Take(u32);

impl fmt::Display for Take {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "take {}", self.0)
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
struct Die {
    roll: u32,
}

#[derive(Debug, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
enum PileRefusal {
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
        }
    }

    fn to_act(&self) -> ToAct {
        match (self.winner, self.awaiting_die) {
            (Some(_), _) => ToAct::Nobody,
            (None, true) => ToAct::Draw,
            (None, false) => ToAct::Player {
                seat: self.to_act,
                decision: Decision::Turn,
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
        let max = 3.min(self.pile);
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
    let lower = text.trim().to_ascii_lowercase();
    let take = lower
        .strip_prefix("take ")
        .and_then(|n| n.trim().parse().ok());
    let action = take
        .map(Take)
        .ok_or_else(|| PileRefusal::NotANumber { text: text.into() })?;
    Ok(ReadMove {
        canonical: action.to_string() == text,
        action,
    })
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

struct PileGame;

thread_local! {
    /// How often this thread's tables asked the game to read a move.
    static PARSES: std::cell::Cell<usize> = const { std::cell::Cell::new(0) };
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
}

// ------------------------------------------------------------------ tests

const SEED: &str = "5eed5eed00112233445566778899aabbccddeeff0123456789abcdef5eed5eed";

fn host() -> Arc<Host> {
    let games = vec![plugin(PileGame)];
    let templates = Templates::load(None, &gaugebot_table::texts_of(&games)).expect("templates");
    let settings = TableSettings {
        fixed_seed: Some(Seed::from_hex(SEED).expect("seed")),
        ..TableSettings::default()
    };
    Arc::new(Host::new(games, templates, settings))
}

fn msg(id: u64, author: &str, text: &str) -> Incoming {
    Incoming {
        message_id: id.to_string(),
        author: Author {
            id: author.into(),
            name: author.into(),
            is_moderator: author == "mod",
        },
        text: text.into(),
        at: "2026-11-23T10:00:00Z".into(),
        mentions: Vec::new(),
    }
}

/// The seat to act's name.
fn to_act(table: &Table) -> String {
    table.player_to_act().expect("a player to act").name
}

#[tokio::test]
async fn a_second_game_plays_through_the_core_with_its_own_texts_and_dice() {
    let store = Arc::new(Memory::default());
    let host = host();
    let mut table = Table::load("c", store.clone(), host.clone())
        .await
        .expect("loads");
    let setup = table.handle(&msg(1, "mod", "!setup ann bob")).await;
    assert_eq!(setup.verdict, Verdict::Accepted, "{}", setup.text());
    assert!(
        setup
            .text()
            .contains("**New game c-1** — Pile for 2 players"),
        "{}",
        setup.text()
    );
    assert!(setup.text().contains("Dice commitment:"));
    // A refusal is the game's own template with its data.
    let who = to_act(&table);
    let refused = table.handle(&msg(2, &who, "**take 7**")).await;
    assert_eq!(refused.verdict, Verdict::Refused);
    assert!(
        refused.text().contains("too many: take at most 3"),
        "{}",
        refused.text()
    );
    // Five takes call for the audited die, which answers at once.
    let mut id = 3;
    for _ in 0..5 {
        let who = to_act(&table);
        let r = table.handle(&msg(id, &who, "**take 1**")).await;
        assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
        id += 1;
    }
    let state = table.state::<Pile>().expect("a pile");
    assert!(state.pile > 5, "the die added to the pile: {state:?}");
    // Undo takes back the fifth take with its die; redoing it rolls the same die.
    let before = table.state::<Pile>().cloned();
    let undo = table.handle(&msg(id, "mod", "!undo")).await;
    assert!(
        undo.text().contains("Undone: ") && undo.text().contains("the draw"),
        "{}",
        undo.text()
    );
    let who = to_act(&table);
    table.handle(&msg(id + 1, &who, "**take 1**")).await;
    assert_eq!(
        table.state::<Pile>().cloned(),
        before,
        "undo never re-rolls"
    );
    id += 2;
    // The log and the audit record come from the core; the records verify with the game.
    let log = table.handle(&msg(id, "anyone", "!log 3")).await;
    assert!(
        log.text().contains("draw:") && log.text().contains("(audited dice)"),
        "{}",
        log.text()
    );
    // Each entry's time to the second: `— 2026-01-02 03:04:05 UTC`, no fraction.
    for line in log.text().lines().filter(|l| l.starts_with('#')) {
        let at = line.rsplit(" — ").next().unwrap_or_default();
        let at = at.trim_end_matches("~~ (undone)");
        assert!(
            chrono::NaiveDateTime::parse_from_str(at, "%Y-%m-%d %H:%M:%S UTC").is_ok(),
            "{line}"
        );
    }
    let export = table.audit_export().expect("an audited game");
    assert_eq!(export.draws[0].purpose, "pile-first");
    assert!(
        export
            .draws
            .iter()
            .filter(|d| d.purpose == "pile-die")
            .count()
            >= 2
    );
    // Play to the end; the seed is revealed and every draw verifies.
    while table.player_to_act().is_some() {
        id += 1;
        let who = to_act(&table);
        let pile = table.state::<Pile>().expect("pile").pile;
        let r = table
            .handle(&msg(id, &who, &format!("**take {}**", pile.min(3))))
            .await;
        assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    }
    let export = table.audit_export().expect("export");
    assert!(export.seed.is_some(), "revealed at the end");
    struct Games;
    impl gaugebot_table::dice::Recompute for Games {
        fn recompute(
            &self,
            r: &DrawRecord,
            source: DrawSource<'_>,
        ) -> Option<Result<Value, DiceError>> {
            PileGame.recompute(r, source)
        }
    }
    let report = gaugebot_table::dice::verify(&export, &Games).expect("verifies");
    assert!(report.is_ok(), "{report:?}");
    // A fresh table replays the same game from the store.
    let again = Table::load("c", store, host).await.expect("reloads");
    assert_eq!(again.state::<Pile>(), table.state::<Pile>());
}

#[tokio::test]
async fn manual_draws_wait_for_the_game_s_own_command() {
    let store = Arc::new(Memory::default());
    let mut table = Table::load("m", store, host()).await.expect("loads");
    table
        .handle(&msg(1, "mod", "!setup pile ann bob dice:manual first:1"))
        .await;
    assert_eq!(to_act(&table), "bob");
    for i in 0..5 {
        let who = to_act(&table);
        table.handle(&msg(10 + i, &who, "**take 1**")).await;
    }
    assert_eq!(table.to_act(), Some(ToAct::Draw));
    let early = table.handle(&msg(20, "ann", "**take 1**")).await;
    assert_eq!(early.verdict, Verdict::Refused);
    let not_mod = table.handle(&msg(21, "ann", "!roll 4")).await;
    assert!(
        not_mod.text().contains("only a moderator may `!roll`"),
        "{}",
        not_mod.text()
    );
    let rolled = table.handle(&msg(22, "mod", "!roll 4")).await;
    assert_eq!(rolled.verdict, Verdict::Accepted, "{}", rolled.text());
    assert_eq!(table.state::<Pile>().expect("pile").pile, 9);
    // Irish Gauge's `!draw` is not this game's.
    let other = table.handle(&msg(23, "mod", "!draw 4")).await;
    assert!(other.text().contains("Unknown command"), "{}", other.text());
}

#[tokio::test]
async fn a_log_that_no_longer_replays_freezes_its_table_and_only_it() {
    let store = Arc::new(Memory::default());
    let host = host();
    let tables = Tables::new(store.clone(), host.clone());
    for channel in ["broken", "fine"] {
        let r = tables
            .handle(channel, &msg(1, "mod", "!setup ann bob"))
            .await
            .expect("handled");
        assert_eq!(r.verdict, Verdict::Accepted);
        let who = tables
            .table(channel)
            .await
            .expect("table")
            .player_to_act()
            .expect("p")
            .name;
        tables
            .handle(channel, &msg(2, &who, "**take 2**"))
            .await
            .expect("handled");
    }
    // The stored move of one game is changed behind the bot's back (an engine change would do
    // the same): it no longer replays.
    store.logs.lock().unwrap().get_mut("broken-1").expect("log")[0].entry_json =
        r#"{"entry":"action","seat":0,"action":9}"#.into();
    let tables = Tables::new(store.clone(), host);
    let status = tables
        .handle("broken", &msg(3, "ann", "!status"))
        .await
        .expect("no crash");
    assert!(
        status.text().contains("frozen") && status.text().contains("#0"),
        "{}",
        status.text()
    );
    let refused = tables
        .handle("broken", &msg(4, "ann", "**take 1**"))
        .await
        .expect("handled");
    assert_eq!(refused.verdict, Verdict::Refused);
    let record = tables
        .handle("broken", &msg(5, "ann", "!audit"))
        .await
        .expect("handled");
    let file = record
        .replies
        .iter()
        .find_map(|r| r.attachment.clone())
        .expect("the record");
    assert!(String::from_utf8_lossy(&file.bytes).contains("\"failed_entry\": 0"));
    // The other table plays on.
    let who = tables
        .table("fine")
        .await
        .expect("table")
        .player_to_act()
        .expect("p")
        .name;
    let ok = tables
        .handle("fine", &msg(6, &who, "**take 1**"))
        .await
        .expect("handled");
    assert_eq!(ok.verdict, Verdict::Accepted, "{}", ok.text());
    // A moderator starts over in the frozen channel.
    let plain = tables
        .handle("broken", &msg(7, "mod", "!setup ann bob"))
        .await
        .expect("handled");
    assert_eq!(
        plain.verdict,
        Verdict::Refused,
        "force is needed: {}",
        plain.text()
    );
    let fresh = tables
        .handle("broken", &msg(8, "mod", "!setup ann bob force"))
        .await
        .expect("handled");
    assert_eq!(fresh.verdict, Verdict::Accepted, "{}", fresh.text());
    assert!(tables
        .table("broken")
        .await
        .expect("table")
        .frozen()
        .is_none());
}

#[tokio::test]
async fn help_and_routing_come_from_the_registry() {
    let store = Arc::new(Memory::default());
    let mut table = Table::load("h", store, host()).await.expect("loads");
    let help = table.handle(&msg(1, "ann", "!help")).await.text();
    for command in [
        "!setup",
        "!status",
        "!log [n]",
        "!undo",
        "!reveal [confirm]",
        "!roll",
    ] {
        assert!(
            help.contains(command),
            "{command} missing from help: {help}"
        );
    }
    let topic = table.handle(&msg(2, "ann", "!help log")).await.text();
    assert!(topic.contains("`!log [n]`"), "{topic}");
    let unknown = table.handle(&msg(3, "ann", "!frobnicate")).await.text();
    assert!(
        unknown.contains("Unknown command `!frobnicate`"),
        "{unknown}"
    );
}

#[tokio::test]
async fn the_game_record_is_complete_checks_itself_and_replays_offline() {
    use gaugebot_table::record::{check, replay};
    let store = Arc::new(Memory::default());
    let host = host();
    let mut table = Table::load("r", store, host.clone()).await.expect("loads");
    table.handle(&msg(1, "mod", "!setup ann bob")).await;
    let mut id = 2;
    for _ in 0..5 {
        let who = to_act(&table);
        table.handle(&msg(id, &who, "**take 1**")).await;
        id += 1;
    }
    table.handle(&msg(id, "mod", "!undo")).await;
    let who = to_act(&table);
    table.handle(&msg(id + 1, &who, "**Take 1**")).await;
    let export = table.handle(&msg(id + 2, "ann", "!export")).await;
    let file = export
        .replies
        .iter()
        .find_map(|r| r.attachment.clone())
        .expect("a file");
    assert!(file.filename.starts_with("game-r-1"), "{}", file.filename);
    let record: gaugebot_table::record::GameRecord =
        serde_json::from_slice(&file.bytes).expect("a record");
    assert_eq!(
        record.version, "gaugebot-dice-v2",
        "new games key draws by message"
    );
    assert_eq!(record.seed, None, "the seed stays secret until the reveal");
    // One numbering with !log; the undone call and its die are marked.
    assert!(record
        .log
        .iter()
        .enumerate()
        .all(|(i, e)| e.seq == i as i64));
    let undone: Vec<i64> = record
        .log
        .iter()
        .filter(|e| e.undone)
        .map(|e| e.seq)
        .collect();
    assert_eq!(undone.len(), 2, "{undone:?}");
    let die_records: Vec<_> = record
        .draws
        .iter()
        .filter(|d| d.purpose == "pile-die")
        .collect();
    assert_eq!(
        die_records.len(),
        2,
        "the undone die and the die drawn again"
    );
    assert_eq!(
        die_records[0].result, die_records[1].result,
        "undo never re-rolls"
    );
    assert!(
        check(&record, &host.games).is_ok(),
        "{:?}",
        check(&record, &host.games)
    );
    // Offline replay: the whole game, or up to an entry.
    let whole = replay(&record, &host.games, None).expect("replays");
    assert_eq!(
        whole.state().downcast_ref::<Pile>(),
        table.state::<Pile>(),
        "the replay is the game"
    );
    let first = replay(&record, &host.games, Some(0)).expect("replays to #0");
    assert_eq!(
        first.state().downcast_ref::<Pile>().map(|p| p.pile),
        Some(9)
    );
    let second = replay(&record, &host.games, Some(1)).expect("replays to #1");
    assert_eq!(
        second.state().downcast_ref::<Pile>().map(|p| p.pile),
        Some(8)
    );
    // Tampering is caught: a draw record removed, a log entry removed, an undo mark changed.
    let mut no_record = record.clone();
    let last_die = no_record
        .draws
        .iter()
        .rposition(|d| d.purpose == "pile-die")
        .expect("a die record");
    no_record.draws.remove(last_die);
    assert!(check(&no_record, &host.games).is_err());
    let mut no_entry = record.clone();
    no_entry.log.remove(3);
    assert!(check(&no_entry, &host.games).is_err());
    let mut marks = record.clone();
    marks.log[0].undone = true;
    assert!(check(&marks, &host.games).is_err());
}

/// A message at `hours` after the toy game's time.
fn msg_at(id: u64, author: &str, text: &str, hours: i64) -> Incoming {
    let at = gaugebot_table::weeks::duration::parse_time("2026-11-23T10:00:00Z").expect("time")
        + chrono::Duration::hours(hours);
    Incoming {
        at: gaugebot_table::weeks::duration::store_time(at),
        ..msg(id, author, text)
    }
}

#[tokio::test]
async fn clocks_reminders_and_moderator_moves_work_for_a_game_that_opts_into_nothing() {
    let store = Arc::new(Memory::default());
    let tables = Tables::new(store.clone(), host());
    let start = gaugebot_table::weeks::duration::parse_time("2026-11-23T10:00:00Z").expect("time");
    let say = |id, author: &str, text: &str| msg_at(id, author, text, 0);
    let r = tables
        .handle("c", &say(1, "mod", "!setup ann bob"))
        .await
        .expect("loads");
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    let r = tables
        .handle("c", &say(2, "mod", "!clock turn:1d remind:50%"))
        .await
        .expect("loads");
    assert_eq!(r.verdict, Verdict::Accepted, "{}", r.text());
    let who = to_act(&tables.table("c").await.expect("table"));
    let tick = |hours| tables.tick(start + chrono::Duration::hours(hours));
    assert!(tick(11).await.is_empty());
    let reminder = tick(12).await;
    assert_eq!(reminder.len(), 1);
    assert!(
        reminder[0]
            .1
            .text()
            .starts_with(&format!("⏰ @{who}: your turn")),
        "{}",
        reminder[0].1.text()
    );
    // No automatic move for this game: the deadline tells the moderators, once.
    let deadline = tick(24).await;
    assert!(
        deadline[0].1.text().contains("a moderator may move for"),
        "{}",
        deadline[0].1.text()
    );
    assert!(tick(30).await.is_empty());
    // A moderator moves for the seat; the default narration carries the note.
    let acted = tables
        .handle(
            "c",
            &msg_at(3, "mod", &format!("!act {who} **take 2**"), 30),
        )
        .await
        .expect("loads");
    assert_eq!(acted.verdict, Verdict::Accepted, "{}", acted.text());
    assert!(acted.text().contains("(by mod) "), "{}", acted.text());
    // The game has no presets: said so in the direct message.
    let preset = tables
        .across(true, &msg_at(4, &who, "!preset pass", 30))
        .await
        .expect("a direct message is answered");
    assert_eq!(preset.verdict, Verdict::Refused);
    assert!(
        preset.text().contains("Pile has no presets"),
        "{}",
        preset.text()
    );
}

#[tokio::test]
async fn a_command_s_writes_and_its_kept_answer_are_stored_together_or_not_at_all() {
    use gaugebot_table::{Committed, NotStored};
    let store = Arc::new(Memory::default());
    let mut table = Table::load("k", store.clone(), host())
        .await
        .expect("loads");
    // The adapter's outbox item, made from the decision and the table (locked from decision
    // to commit), then committed with it.
    async fn keep(table: &mut Table, msg: &Incoming) -> Result<Committed, NotStored> {
        let decided = table.decide(msg).await;
        let kept = Outgoing {
            channel: table.channel().to_string(),
            key: format!("{}", table.position().map_or(0, |(_, at)| at)),
            payload: decided.response().text(),
            at: chrono::Utc::now(),
        };
        table.commit(decided, Some(kept)).await
    }
    let answer = |result: Result<Committed, NotStored>| match result {
        Ok(committed) => committed,
        Err(not_stored) => Committed {
            response: not_stored.response,
            kept: None,
        },
    };
    let setup = answer(
        keep(
            &mut table,
            &msg(1, "mod", "!setup pile ann bob dice:manual first:1"),
        )
        .await,
    );
    assert_eq!(setup.response.verdict, Verdict::Accepted);
    let kept = setup.kept.expect("an accepted command's answer is kept");
    assert_eq!(kept.payload, setup.response.text());
    assert_eq!(kept.channel, "k");
    // The game and its answer were one write.
    let batches = store.batches.lock().unwrap().clone();
    assert_eq!(batches.len(), 1);
    assert_eq!(
        batches[0][0],
        Write::Read {
            channel: "k".into(),
            message_id: "1".into()
        },
        "the message is marked read first"
    );
    assert!(matches!(batches[0][1], Write::CreateGame { .. }));
    assert_eq!(batches[0].last(), Some(&Write::Outbox(kept.clone())));
    assert_eq!(
        store.pending(Some("k")).await.expect("pending"),
        std::slice::from_ref(&kept)
    );
    store.delivered("k", &kept.key).await.expect("delivered");
    assert!(store.pending(None).await.expect("pending").is_empty());

    // A read-only command writes nothing and keeps nothing.
    let status = answer(keep(&mut table, &msg(2, "ann", "!status")).await);
    assert_eq!(status.kept, None);
    assert_eq!(store.batches.lock().unwrap().len(), 1);

    // The database fails: the move is refused, and neither it nor its answer stays, in the
    // store or in the table.
    store.down.store(true, std::sync::atomic::Ordering::SeqCst);
    let who = to_act(&table);
    let failed = answer(keep(&mut table, &msg(3, &who, "**take 2**")).await);
    assert_eq!(failed.response.verdict, Verdict::Refused);
    assert!(
        failed.response.text().contains("the disk is gone"),
        "{}",
        failed.response.text()
    );
    assert_eq!(failed.kept, None);
    assert_eq!(table.state::<Pile>().expect("pile").pile, 10);
    assert_eq!(to_act(&table), who);
    assert!(store.pending(None).await.expect("pending").is_empty());

    // It comes back: the same move is taken, stored with its answer.
    store.down.store(false, std::sync::atomic::Ordering::SeqCst);
    let taken = answer(keep(&mut table, &msg(3, &who, "**take 2**")).await);
    assert_eq!(
        taken.response.verdict,
        Verdict::Accepted,
        "{}",
        taken.response.text()
    );
    assert_eq!(table.state::<Pile>().expect("pile").pile, 8);
    let batches = store.batches.lock().unwrap().clone();
    assert_eq!(batches.len(), 2);
    assert!(matches!(batches[1][1], Write::Append { .. }));
    assert_eq!(batches[1].last(), taken.kept.map(Write::Outbox).as_ref());

    // The same message delivered again is applied once: refused by the store in the write
    // that would apply it, and the table is as it was.
    let again = answer(keep(&mut table, &msg(3, &who, "**take 2**")).await);
    assert_eq!(again.response.verdict, Verdict::Duplicate);
    assert_eq!(again.kept, None);
    assert!(again.response.replies.is_empty());
    assert_eq!(table.state::<Pile>().expect("pile").pile, 8);
    assert_eq!(store.batches.lock().unwrap().len(), 2);
    assert_eq!(store.logs.lock().unwrap()["k-1"].len(), 1);
}

#[tokio::test]
async fn a_move_is_read_once_on_its_way_in() {
    let store = Arc::new(Memory::default());
    let mut table = Table::load("r", store, host()).await.expect("loads");
    table.handle(&msg(1, "mod", "!setup ann bob")).await;
    let parses = || PARSES.with(|parses| parses.get());
    let who = to_act(&table);
    let before = parses();
    let taken = table.handle(&msg(2, &who, "**take 1**")).await;
    assert_eq!(taken.verdict, Verdict::Accepted, "{}", taken.text());
    assert_eq!(parses() - before, 1, "read once, played as read");
    // A move that reads but is refused is read once too.
    let who = to_act(&table);
    let before = parses();
    let refused = table.handle(&msg(3, &who, "**take 7**")).await;
    assert_eq!(refused.verdict, Verdict::Refused);
    assert_eq!(parses() - before, 1);
}
