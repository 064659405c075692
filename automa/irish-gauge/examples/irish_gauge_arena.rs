//! Tournaments: the automa against two random or two greedy players, 3-player Irish Gauge,
//! seats rotated (game `g` seats the automa at `g % 3`). Not a test: run it in release.
//!
//! `cargo run --release -p irish-gauge-automa --example arena -- --games 200 --opponents greedy --level 300`
//!
//! `--player greedy` measures the greedy player in the automa's seat instead. `--first` is the
//! first game number (game `g` is the same game in every run, so a tournament can be split).
//! `--level` is `cheap`, `standard` or a number of simulations per decision. Prints win rate with
//! a 95% Wilson interval, mean score margin (automa less the best opponent), decision time
//! (median, p99; CPU time of the deciding thread, and wall time: on a shared machine wall time
//! counts the other builds' share of the core) and memory per decision (peak heap bytes
//! allocated during the decision beyond what was live before).

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

use irish_gauge::playout::random_draw;
use irish_gauge::{Actor, Game};
use irish_gauge_automa::rng::Rng;
use irish_gauge_automa::{baseline, decide, Level};

/// CPU time this thread has used, in seconds (the machine is shared: wall time counts the
/// other builds' share of the core too).
fn thread_cpu_seconds() -> f64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid timespec for clock_gettime to write.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut now) };
    now.tv_sec as f64 + now.tv_nsec as f64 * 1e-9
}

/// Counts live and peak heap bytes.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

#[derive(Clone, Copy, PartialEq)]
enum Opponent {
    Random,
    Greedy,
}

struct Args {
    /// The player measured: the automa, or the greedy player (to measure the baseline itself).
    greedy_hero: bool,
    games: u64,
    opponents: Opponent,
    level: Level,
    first: u64,
}

fn parse_args() -> Result<Args, String> {
    let mut args = Args {
        greedy_hero: false,
        games: 200,
        opponents: Opponent::Greedy,
        level: Level::Standard,
        first: 0,
    };
    let mut it = std::env::args().skip(1);
    while let Some(flag) = it.next() {
        let value = it.next().ok_or(format!("{flag} needs a value"))?;
        match flag.as_str() {
            "--games" => args.games = value.parse().map_err(|_| "--games: a number")?,
            "--player" => {
                args.greedy_hero = match value.as_str() {
                    "automa" => false,
                    "greedy" => true,
                    _ => return Err("--player: automa or greedy".into()),
                }
            }
            "--first" => args.first = value.parse().map_err(|_| "--first: a number")?,
            "--opponents" => {
                args.opponents = match value.as_str() {
                    "random" => Opponent::Random,
                    "greedy" => Opponent::Greedy,
                    _ => return Err("--opponents: random or greedy".into()),
                }
            }
            "--level" => {
                args.level = match value.as_str() {
                    "cheap" => Level::Cheap,
                    "standard" => Level::Standard,
                    n => Level::Simulations(
                        n.parse()
                            .map_err(|_| "--level: cheap, standard or a number")?,
                    ),
                }
            }
            _ => return Err(format!("unknown flag {flag}")),
        }
    }
    Ok(args)
}

/// The 95% Wilson score interval for `wins` out of `n`.
fn wilson(wins: f64, n: f64) -> (f64, f64) {
    let z = 1.959_964f64;
    let p = wins / n;
    let centre = (p + z * z / (2.0 * n)) / (1.0 + z * z / n);
    let half = z / (1.0 + z * z / n) * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt();
    (centre - half, centre + half)
}

fn percentile(sorted: &[f64], q: f64) -> f64 {
    if sorted.is_empty() {
        return 0.0;
    }
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let args = match parse_args() {
        Ok(args) => args,
        Err(e) => {
            eprintln!("arena: {e}");
            std::process::exit(2);
        }
    };
    let (mut wins, mut margins) = (0.0, Vec::new());
    let (mut times, mut cpu_times, mut memory) = (Vec::new(), Vec::new(), Vec::new());
    for g in args.first..args.first + args.games {
        let mut dice = Rng::derive(0xa7e4a, g);
        let mut game = Game::new(&baseline::random_setup(3, &mut dice)).expect("a valid setup");
        let automa = (g % 3) as usize;
        let mut step = 0u64;
        while !game.is_finished() {
            step += 1;
            match game.to_act() {
                Actor::Nobody => break,
                Actor::Dice => {
                    let request = game.pending_draw().expect("a draw is pending");
                    let cubes = random_draw(request.supply, request.count, &mut |n| dice.below(n));
                    game.resolve_draw(&cubes).expect("a legal draw");
                }
                Actor::Player { seat } => {
                    let seed = g.wrapping_mul(1_000_003).wrapping_add(step);
                    let choice = if seat == automa {
                        let live = LIVE.load(Ordering::Relaxed);
                        PEAK.store(live, Ordering::Relaxed);
                        let start = Instant::now();
                        let cpu_start = thread_cpu_seconds();
                        let choice = if args.greedy_hero {
                            baseline::greedy(&game, seat)
                        } else {
                            decide(&game, seat, args.level, seed)
                        };
                        times.push(start.elapsed().as_secs_f64());
                        cpu_times.push(thread_cpu_seconds() - cpu_start);
                        memory.push(PEAK.load(Ordering::Relaxed).saturating_sub(live) as f64);
                        choice
                    } else if args.opponents == Opponent::Random {
                        baseline::random(&game, seat, seed)
                    } else {
                        baseline::greedy(&game, seat)
                    };
                    let choice = choice.expect("the seat to act has a move");
                    game.play(seat, &choice.action).expect("a legal move");
                }
            }
        }
        let scores: Vec<u32> = (0..3).map(|s| game.score(s)).collect();
        let winners = game.winners();
        if winners.contains(&automa) {
            wins += 1.0 / winners.len() as f64;
        }
        let best_other = (0..3)
            .filter(|&s| s != automa)
            .map(|s| scores[s])
            .max()
            .unwrap_or(0);
        margins.push(scores[automa] as f64 - best_other as f64);
        eprintln!(
            "game {g}: automa seat {automa}, scores {scores:?}, wins so far {wins}/{}",
            g - args.first + 1
        );
    }
    let n = args.games as f64;
    let (low, high) = wilson(wins, n);
    times.sort_by(f64::total_cmp);
    cpu_times.sort_by(f64::total_cmp);
    memory.sort_by(f64::total_cmp);
    let mean_margin = margins.iter().sum::<f64>() / n;
    let opponents = if args.opponents == Opponent::Random {
        "random"
    } else {
        "greedy"
    };
    let hero = if args.greedy_hero {
        "greedy".to_string()
    } else {
        format!("automa ({} simulations)", args.level.simulations())
    };
    println!(
        "{hero} vs two {opponents}: {} games, wins {wins} = {:.1}% (95% CI {:.1}–{:.1}%), mean margin {mean_margin:+.1}",
        args.games,
        100.0 * wins / n,
        100.0 * low,
        100.0 * high,
    );
    println!(
        "decisions {}: CPU time median {:.1} ms, p99 {:.1} ms, max {:.1} ms; wall time median {:.1} ms, p99 {:.1} ms, max {:.1} ms; memory median {:.0} KB, p99 {:.0} KB",
        times.len(),
        1e3 * percentile(&cpu_times, 0.5),
        1e3 * percentile(&cpu_times, 0.99),
        1e3 * cpu_times.last().copied().unwrap_or(0.0),
        1e3 * percentile(&times, 0.5),
        1e3 * percentile(&times, 0.99),
        1e3 * times.last().copied().unwrap_or(0.0),
        percentile(&memory, 0.5) / 1024.0,
        percentile(&memory, 0.99) / 1024.0,
    );
}
