//! Benchmarks: complete random games from setup to final scores (games per second), and
//! replaying recorded games action by action onto a fresh game (actions per second).
//!
//! Run: `cargo bench -p irish-gauge --bench games -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use irish_gauge::playout::{play_out, random_action, random_draw};
use irish_gauge::{Action, Actor, Colour, Game, Seat, Setup};

/// A small xorshift chooser: `pick(n)` returns a number below `n`.
fn xorshift(seed: u64) -> impl FnMut(usize) -> usize {
    let mut state = seed.max(1);
    move |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    }
}

/// A varied valid setup: 3 to 5 players, a shuffled order roll and city roll.
fn setup_for(seed: u64) -> Setup {
    let mut pick = xorshift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let players = 3 + (seed % 3) as usize;
    let mut order: Vec<u8> = (1..=players as u8).collect();
    let mut cubes: Vec<u8> = (1..=12).collect();
    for i in (1..order.len()).rev() {
        order.swap(i, pick(i + 1));
    }
    for i in (1..cubes.len()).rev() {
        cubes.swap(i, pick(i + 1));
    }
    Setup {
        players: (1..=players).map(|i| format!("player{i}")).collect(),
        order,
        cities: cubes[..8].try_into().expect("8 cubes"),
    }
}

/// One step of a recorded game.
#[derive(Clone)]
enum Step {
    Play(Seat, Action),
    Draw(Vec<Colour>),
}

/// Plays a random game and records its actions and draws.
fn record(setup: &Setup, seed: u64) -> Vec<Step> {
    let mut game = Game::new(setup).expect("valid setup");
    let mut pick = xorshift(seed);
    let mut steps = Vec::new();
    while !game.is_finished() {
        match game.to_act() {
            Actor::Dice => {
                let request = game.pending_draw().expect("draw pending");
                let cubes = random_draw(request.supply, request.count, &mut pick);
                game.resolve_draw(&cubes).expect("legal draw");
                steps.push(Step::Draw(cubes));
            }
            Actor::Player { seat } => {
                let action = random_action(&game, &mut pick).expect("an action");
                game.play(seat, &action).expect("legal action");
                steps.push(Step::Play(seat, action));
            }
            Actor::Nobody => break,
        }
    }
    steps
}

fn replay(setup: &Setup, steps: &[Step]) -> Game {
    let mut game = Game::new(setup).expect("valid setup");
    for step in steps {
        match step {
            Step::Play(seat, action) => game.play(*seat, action).expect("recorded action"),
            Step::Draw(cubes) => game.resolve_draw(cubes).expect("recorded draw"),
        };
    }
    game
}

fn random_games(c: &mut Criterion) {
    let setups: Vec<Setup> = (0..64).map(setup_for).collect();
    let mut group = c.benchmark_group("random_games");
    group.throughput(Throughput::Elements(1));
    group.bench_function("setup_to_final_scores", |b| {
        let mut seed = 0u64;
        b.iter(|| {
            seed += 1;
            let setup = &setups[(seed % 64) as usize];
            let mut game = Game::new(setup).expect("valid setup");
            let mut pick = xorshift(seed);
            play_out(&mut game, &mut pick, 10_000);
            debug_assert!(game.is_finished());
            let scores: u32 = (0..game.players().len()).map(|s| game.score(s)).sum();
            black_box((scores, game.winners()))
        })
    });
    group.finish();
}

fn replays(c: &mut Criterion) {
    let games: Vec<(Setup, Vec<Step>)> = (0..16)
        .map(|seed| {
            let setup = setup_for(seed);
            let steps = record(&setup, seed + 1000);
            (setup, steps)
        })
        .collect();
    let actions: usize = games.iter().map(|(_, steps)| steps.len()).sum();
    let mut group = c.benchmark_group("replay");
    group.throughput(Throughput::Elements(actions as u64));
    group.bench_function(format!("{} games, {actions} actions", games.len()), |b| {
        b.iter(|| {
            for (setup, steps) in &games {
                black_box(replay(setup, steps));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, random_games, replays);
criterion_main!(benches);
