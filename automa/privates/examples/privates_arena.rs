//! The arena: tournaments of 3-player Privates, the automa against two random players and
//! against two greedy players, seats rotated game by game. Prints win rates with 95% Wilson
//! intervals, the mean score margin, decision time (median, p99) and memory per decision.
//! Not a test: run it by hand, on a quiet core (docs/AUTOMA.md). With `ARENA_TRACE` set in
//! the environment it prints every automa move with its reason, and every game's totals.
//!
//! ```text
//! nice -n 10 cargo run --release -p privates-automa --example arena -- \
//!     [--games 200] [--level cheap|standard|SIMULATIONS] [--against random|greedy|both] [--seed 1]
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use privates::draw::deck_population;
use privates::playout::{random_draw, shuffle};
use privates::{Actor, Game, Setup};
use privates_automa::baseline;
use privates_automa::rng::{mix, Stream};
use privates_automa::{decide, Level, Reason};

/// Counts live heap bytes and their peak, to measure memory per decision.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = unsafe { System.alloc(layout) };
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) };
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

const PLAYERS: usize = 3;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Opponent {
    Random,
    Greedy,
}

impl Opponent {
    fn name(self) -> &'static str {
        match self {
            Opponent::Random => "random",
            Opponent::Greedy => "greedy",
        }
    }
}

#[derive(Default)]
struct Tournament {
    games: u32,
    wins: u32,
    ties: u32,
    margin: i64,
    times: Vec<Duration>,
    searched_times: Vec<Duration>,
    peaks: Vec<usize>,
}

fn main() {
    let mut games = 200u32;
    let mut level = Level::Simulations(400);
    let mut against = vec![Opponent::Random, Opponent::Greedy];
    let mut seed = 1u64;
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut i = 0;
    while i < args.len() {
        let value = args.get(i + 1).cloned().unwrap_or_default();
        match args[i].as_str() {
            "--games" => games = value.parse().expect("--games N"),
            "--seed" => seed = value.parse().expect("--seed N"),
            "--level" => {
                level = match value.as_str() {
                    "cheap" => Level::Cheap,
                    "standard" => Level::Standard,
                    n => Level::Simulations(n.parse().expect("--level cheap|standard|N")),
                };
            }
            "--against" => {
                against = match value.as_str() {
                    "random" => vec![Opponent::Random],
                    "greedy" => vec![Opponent::Greedy],
                    _ => vec![Opponent::Random, Opponent::Greedy],
                }
            }
            other => panic!("unknown option {other}"),
        }
        i += 2;
    }
    println!(
        "3-player Privates, automa level {level:?} ({} simulations), {games} games per tournament, seats rotated, seed {seed}",
        level.simulations()
    );
    println!();
    println!("| against | games | automa wins | win rate (95% Wilson) | ties | mean margin | decisions (searched) | median, p99 (all) | median, p99 (searched) | peak memory per decision (median, max) |");
    println!("|---|---|---|---|---|---|---|---|---|---|");
    for opponent in against {
        let t = tournament(opponent, games, level, seed);
        let n = t.games as f64;
        let rate = t.wins as f64 / n;
        let (low, high) = wilson(t.wins as f64, n);
        let mut times = t.times.clone();
        times.sort();
        let mut searched = t.searched_times.clone();
        searched.sort();
        let mut peaks = t.peaks.clone();
        peaks.sort();
        println!(
            "| two {} | {} | {} | {:.1}% ({:.1}–{:.1}%) | {} | {:+.1} | {} ({}) | {}, {} | {}, {} | {} KiB, {} KiB |",
            opponent.name(),
            t.games,
            t.wins,
            100.0 * rate,
            100.0 * low,
            100.0 * high,
            t.ties,
            t.margin as f64 / n,
            times.len(),
            searched.len(),
            ms(percentile(&times, 0.5)),
            ms(percentile(&times, 0.99)),
            ms(percentile(&searched, 0.5)),
            ms(percentile(&searched, 0.99)),
            percentile(&peaks, 0.5) / 1024,
            peaks.last().copied().unwrap_or(0) / 1024,
        );
    }
}

fn tournament(opponent: Opponent, games: u32, level: Level, seed: u64) -> Tournament {
    let mut t = Tournament::default();
    for g in 0..games {
        let game_seed = mix(seed, g as u64);
        let automa_seat = g as usize % PLAYERS;
        let mut dice = Stream::derived(game_seed, 0, 0);
        let mut baseline_seed = Stream::derived(game_seed, 1, 0);
        let mut deck = deck_population(6);
        shuffle(&mut deck, &mut |n| dice.below(n));
        let names = ["p1", "p2", "p3"];
        let dealer = dice.below(PLAYERS);
        let mut game = Game::new(&Setup::audited(&names, dealer, deck)).expect("a valid setup");
        let mut step = 0u64;
        loop {
            match game.to_act() {
                Actor::Nobody => break,
                Actor::Draw => {
                    random_draw(&mut game, &mut |n| dice.below(n)).expect("a draw");
                }
                Actor::Player { seat } => {
                    let action = if seat == automa_seat {
                        let before = LIVE.load(Ordering::Relaxed);
                        PEAK.store(before, Ordering::Relaxed);
                        let start = Instant::now();
                        let choice = decide(&game, seat, level, mix(game_seed, step))
                            .expect("the automa is to act");
                        let elapsed = start.elapsed();
                        t.times.push(elapsed);
                        if matches!(choice.reason, Reason::Searched { .. }) {
                            t.searched_times.push(elapsed);
                        }
                        t.peaks
                            .push(PEAK.load(Ordering::Relaxed).saturating_sub(before));
                        if std::env::var_os("ARENA_TRACE").is_some() {
                            eprintln!(
                                "g{g} r{} seat {seat}: {} ({:?})",
                                game.round(),
                                choice.action,
                                choice.reason
                            );
                        }
                        choice.action
                    } else {
                        match opponent {
                            Opponent::Random => {
                                baseline::random(&game, seat, baseline_seed.next_u64())
                            }
                            Opponent::Greedy => baseline::greedy(&game, seat),
                        }
                        .expect("a move")
                        .action
                    };
                    game.play(seat, &action).expect("a legal move");
                }
            }
            step += 1;
        }
        let totals: Vec<u32> = game.scores().iter().map(|s| s.total).collect();
        let winners = game.winners();
        if std::env::var_os("ARENA_TRACE").is_some() {
            eprintln!("g{g} automa seat {automa_seat}: totals {totals:?}");
        }
        t.games += 1;
        if winners.contains(&automa_seat) {
            t.wins += 1;
            if winners.len() > 1 {
                t.ties += 1;
            }
        }
        let best_other = (0..PLAYERS)
            .filter(|&s| s != automa_seat)
            .map(|s| totals[s])
            .max()
            .unwrap_or(0);
        t.margin += totals[automa_seat] as i64 - best_other as i64;
        if (g + 1) % 20 == 0 {
            eprintln!("{}: {} games, {} wins", opponent.name(), t.games, t.wins);
        }
    }
    t
}

/// The 95% Wilson score interval of `wins` in `n`.
fn wilson(wins: f64, n: f64) -> (f64, f64) {
    if n == 0.0 {
        return (0.0, 0.0);
    }
    let z = 1.959_964;
    let p = wins / n;
    let denominator = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denominator;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denominator;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

fn percentile<T: Copy + Default>(sorted: &[T], q: f64) -> T {
    if sorted.is_empty() {
        return T::default();
    }
    let i = ((sorted.len() - 1) as f64 * q).round() as usize;
    sorted[i]
}

fn ms(d: Duration) -> String {
    format!("{:.1} ms", d.as_secs_f64() * 1000.0)
}
