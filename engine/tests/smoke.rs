use irish_gauge::playout::play_out;
use irish_gauge::{Game, Setup};

#[test]
fn random_games_end() {
    let mut state: u64 = 42;
    let mut pick = |n: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    };
    for players in 3..=5 {
        for _ in 0..200 {
            let setup = Setup {
                players: (1..=players).map(|i| format!("p{i}")).collect(),
                order: (1..=players as u8).collect(),
                cities: [1, 2, 3, 5, 6, 7, 9, 10],
            };
            let mut game = Game::new(&setup).unwrap();
            let n = play_out(&mut game, &mut pick, 10_000);
            assert!(game.is_finished(), "game ended after {n} actions");
        }
    }
}
