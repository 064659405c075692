//! Shared helpers of the reliability campaigns (`bot/tests/reliability_*.rs`, `bot/benches/table.rs`):
//! a seeded random source, messages, tables, and an independent model of an audited game that
//! predicts exactly which log entries the bot must store for each accepted move.
#![allow(dead_code)]

use std::path::Path;
use std::sync::Arc;

use gaugebot::dice::{DrawSource, Seed, Spec};
use gaugebot::table::{Author, Host, Incoming, Mention, Table, TableSettings};
use gaugebot_store::SqliteStore;
use gaugebot_table::Store;
use irish_gauge::playout::random_action;
use irish_gauge::table::dice;
use irish_gauge::table::log::LogEntry;
use irish_gauge::{Action, Actor, Game, PlayError, Setup};

/// The fixed dice seed of the campaigns.
pub const SEED: &str = "5eed5eed00112233445566778899aabbccddeeff0123456789abcdef5eed5eed";

/// An environment variable as a count, or `default`.
pub fn env_count(name: &str, default: u64) -> u64 {
    match std::env::var(name) {
        Ok(v) => v
            .trim()
            .replace('_', "")
            .parse()
            .unwrap_or_else(|_| panic!("{name}={v} is not a number")),
        Err(_) => default,
    }
}

/// A small, fast, seeded random source (SplitMix64).
#[derive(Debug, Clone)]
pub struct Rng(u64);

impl Rng {
    /// A source from a seed.
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x9E37_79B9_7F4A_7C15)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            0
        } else {
            (self.next_u64() % n as u64) as usize
        }
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }

    /// One element of a slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    /// A copy of one element of a slice.
    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.below(items.len())]
    }

    /// A chooser for `irish_gauge::playout`.
    pub fn picker(&mut self) -> impl FnMut(usize) -> usize + '_ {
        move |n| self.below(n)
    }
}

/// A message from `author` (moderator or not).
pub fn message(id: impl ToString, author: &str, text: &str, moderator: bool) -> Incoming {
    Incoming {
        message_id: id.to_string(),
        author: Author {
            id: author.to_lowercase(),
            name: author.to_string(),
            is_moderator: moderator,
            mention: format!("@{author}"),
        },
        text: text.to_string(),
        at: "2026-11-22T10:00:00Z".parse().expect("a time"),
        mentions: Vec::<Mention>::new(),
    }
}

/// Table settings with a fixed seed and no map.
pub fn settings(seed: Option<&str>) -> TableSettings {
    TableSettings {
        map_after_build: false,
        fixed_seed: seed.map(|s| Seed::from_hex(s).expect("a hex seed")),
        ..TableSettings::default()
    }
}

/// The bot's games and templates with these settings.
pub fn host(seed: Option<&str>) -> Arc<Host> {
    gaugebot::games::host(None, settings(seed)).expect("the built-in templates load")
}

/// A store as the table takes it.
pub trait IntoShared {
    /// The shared store.
    fn into_shared(self) -> Arc<dyn Store>;
}

impl IntoShared for SqliteStore {
    fn into_shared(self) -> Arc<dyn Store> {
        self.shared()
    }
}

impl IntoShared for Arc<dyn Store> {
    fn into_shared(self) -> Arc<dyn Store> {
        self
    }
}

/// A table on a store.
pub async fn table_on(store: impl IntoShared, channel: &str, seed: Option<&str>) -> Table {
    Table::load(channel, store.into_shared(), host(seed))
        .await
        .expect("the table loads")
}

/// A table on a database file.
pub async fn open_table(db: &Path, channel: &str, seed: Option<&str>) -> Table {
    let store = SqliteStore::open(&db.to_string_lossy())
        .await
        .expect("the database opens");
    table_on(store.shared(), channel, seed).await
}

/// A line of `/proc/self/status` in kB (`VmRSS`, `VmHWM`); 0 where there is no /proc.
pub fn proc_status_kb(field: &str) -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with(field))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

/// A random legal action for the player to act: `random_action`, with dividend calls made
/// rarer (drawn again up to three times) so that games last longer (~100 moves, not ~40).
pub fn random_move(game: &Game, rng: &mut Rng) -> Option<Action> {
    let mut action = random_action(game, &mut rng.picker())?;
    for _ in 0..3 {
        if action != Action::CallDividends {
            break;
        }
        action = random_action(game, &mut rng.picker())?;
    }
    Some(action)
}

/// An independent model of an audited game as the bot plays it: the engine with the dice
/// derivation of docs/DICE.md, predicting every log entry a move must add.
#[derive(Debug, Clone)]
pub struct Model {
    /// The game id (`channel-N`).
    pub game_id: String,
    /// The dice seed.
    pub seed: Seed,
    /// The position.
    pub game: Game,
    /// Entries in force (actions and draws): the next draw's index is derived from it.
    pub stack_len: u64,
    /// Whether the seed was revealed.
    pub revealed: bool,
    /// The id of the `!setup` message: the game's client seed (dice v3).
    pub setup_message: String,
}

/// The dice of a draw of a new game (spec v3): keyed by its position and the game's client
/// seed, the id of the message that set the game up.
fn v3<'a>(seed: &'a Seed, game_id: &'a str, client_seed: &'a str) -> DrawSource<'a> {
    DrawSource {
        seed,
        game_id,
        spec: Spec::V3,
        message_id: client_seed,
    }
}

impl Model {
    /// The game `!setup names…` (posted as message `setup_message`) starts as `game_id` with
    /// audited dice from `seed_hex`.
    pub fn new(seed_hex: &str, game_id: &str, names: &[&str], setup_message: &str) -> Model {
        let seed = Seed::from_hex(seed_hex).expect("a hex seed");
        let source = v3(&seed, game_id, setup_message);
        let setup = Setup {
            players: names.iter().map(|n| n.to_string()).collect(),
            order: dice::player_order(source, names.len()),
            cities: dice::city_cubes(source),
        };
        Model {
            game_id: game_id.to_string(),
            seed,
            game: Game::new(&setup).expect("a valid setup"),
            stack_len: 0,
            revealed: false,
            setup_message: setup_message.to_string(),
        }
    }

    /// The player to act and a random legal action of theirs ([`random_move`]); `None` once
    /// the game is over.
    pub fn next_move(&self, rng: &mut Rng) -> Option<(String, Action)> {
        let Actor::Player { seat } = self.game.to_act() else {
            return None;
        };
        let action = random_move(&self.game, rng)?;
        Some((self.game.name(seat).to_string(), action))
    }

    /// Plays `action` for the player named `author` (posted as message `message_id`); the log
    /// entries the bot stores for it.
    pub fn apply(
        &mut self,
        author: &str,
        action: &Action,
        message_id: &str,
    ) -> Result<Vec<LogEntry>, PlayError> {
        let seat = self.game.seat_of(author).expect("a seated player");
        let mut game = self.game.clone();
        game.play(seat, action)?;
        let mut entries = vec![LogEntry::Action {
            seat,
            action: action.clone(),
        }];
        let mut stack_len = self.stack_len + 1;
        if let (Some(request), false) = (game.pending_draw(), self.revealed) {
            let _ = message_id; // v3 keys no draw by its message
            let source = v3(&self.seed, &self.game_id, &self.setup_message);
            let cubes = dice::dividend_draw(source, stack_len, request.supply);
            game.resolve_draw(&cubes)?;
            entries.push(LogEntry::Draw {
                cubes,
                manual: false,
                index: stack_len,
                supply: request.supply,
            });
            stack_len += 1;
        }
        if game.is_finished() && !self.revealed {
            entries.push(LogEntry::Reveal);
            self.revealed = true;
        }
        self.game = game;
        self.stack_len = stack_len;
        Ok(entries)
    }
}

/// Starts an audited game of four on a table; panics unless accepted.
pub async fn setup_game(table: &mut Table, id: impl ToString) {
    let response = table
        .handle(&message(id, "mod", "!setup ann bob cat dan", true))
        .await;
    assert_eq!(
        response.verdict,
        gaugebot::table::Verdict::Accepted,
        "{}",
        response.text()
    );
}

/// A random legal move for the table's player to act, as a message; `None` when nobody is.
pub fn legal_message(table: &Table, rng: &mut Rng, id: impl ToString) -> Option<Incoming> {
    let game = table.state::<Game>()?;
    let Actor::Player { seat } = game.to_act() else {
        return None;
    };
    let action = random_move(game, rng)?;
    Some(message(
        id,
        game.name(seat),
        &format!("**{action}**"),
        false,
    ))
}

/// Plays up to `n` random legal moves, each of which must be accepted; the number played.
pub async fn play_moves(table: &mut Table, rng: &mut Rng, n: usize, next_id: &mut u64) -> usize {
    for played in 0..n {
        let Some(msg) = legal_message(table, rng, *next_id) else {
            return played;
        };
        *next_id += 1;
        let response = table.handle(&msg).await;
        assert_eq!(
            response.verdict,
            gaugebot::table::Verdict::Accepted,
            "{}: {}",
            msg.text,
            response.text()
        );
    }
    n
}
