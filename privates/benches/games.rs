//! Benchmarks: complete random games of Privates from setup to final scores (games per
//! second), and replaying recorded games action by action onto a fresh game (actions per
//! second).
//!
//! Run: `cargo bench -p privates --bench games -- --warm-up-time 1 --measurement-time 5`

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use privates::draw::deck_population;
use privates::playout::{play_out, random_action, random_cards, random_chips, shuffle};
use privates::{Action, Actor, Chip, DrawRequest, Game, Seat, Setup};

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

/// A varied valid setup: 2 to 6 players, any dealer, audited (shuffled deck) or manual play.
fn setup_for(seed: u64) -> Setup {
    let mut pick = xorshift(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let players = 2 + (seed % 5) as usize;
    let names: Vec<String> = (1..=players).map(|i| format!("player{i}")).collect();
    let deck = seed.is_multiple_of(2).then(|| {
        let mut deck = deck_population(6);
        shuffle(&mut deck, &mut pick);
        deck
    });
    Setup {
        players: names,
        copies: 6,
        dealer: pick(players),
        deck,
    }
}

/// One step of a recorded game.
#[derive(Clone)]
enum Step {
    Play(Seat, Action),
    Chips(Vec<Chip>),
    Deal(Vec<u32>, Vec<Chip>),
}

/// Plays a random game and records its actions and draws.
fn record(setup: &Setup, seed: u64) -> Vec<Step> {
    let mut game = Game::new(setup).expect("valid setup");
    let mut pick = xorshift(seed);
    let mut steps = Vec::new();
    loop {
        match game.to_act() {
            Actor::Draw => {
                let request = game.pending_draw().expect("a draw");
                match request {
                    DrawRequest::Chips { .. } => {
                        let chips = random_chips(&request, &mut pick);
                        game.resolve_chips(&chips).expect("legal chips");
                        steps.push(Step::Chips(chips));
                    }
                    DrawRequest::Deal { .. } => {
                        let cards = random_cards(&request, &mut pick);
                        let chips = random_chips(&request, &mut pick);
                        game.resolve_deal(&cards, &chips).expect("legal deal");
                        steps.push(Step::Deal(cards, chips));
                    }
                }
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
            Step::Chips(chips) => game.resolve_chips(chips).expect("recorded chips"),
            Step::Deal(cards, chips) => game.resolve_deal(cards, chips).expect("recorded deal"),
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
            play_out(&mut game, &mut pick, 100_000);
            debug_assert!(game.is_finished());
            let total: u32 = game.scores().iter().map(|s| s.total).sum();
            black_box((total, game.winners()))
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
    group.bench_function(format!("{} games, {actions} steps", games.len()), |b| {
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
