//! `!odds` at the table gives the engine's exact odds, and the final report ends with a luck
//! line that adds up what each player received from dividend draws.

use gaugebot::table::Verdict;
use irish_gauge::notation::parse_cubes;
use irish_gauge::odds::{odds, received as paid, Ratio};
use irish_gauge::{Colour, Game, Railway};

mod common;
use common::message;

const GAME: &str = include_str!("games/complete_manual.txt");

#[tokio::test]
async fn odds_are_the_engine_s_exact_odds_and_the_luck_line_adds_up() {
    let store = gaugebot_store::SqliteStore::open(":memory:")
        .await
        .expect("memory store");
    let mut table = common::table_on(store, "odds", None).await;
    let mut received = [0u32; 3];
    let mut expected = [Ratio::ZERO; 3];
    let mut id = 0;
    let mut checked = 0;
    let mut before_draw: Option<Game> = None;
    for line in GAME
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let (author, text) = line.split_once(':').expect("name: message");
        let author = author.trim();
        // Before every dividend call: `!odds` is the engine's exact odds of the position.
        if text.contains("dividends**") {
            let game = table.state::<Game>().expect("a game").clone();
            let exact = odds(&game);
            id += 1;
            let answer = table.handle(&message(id, "anyone", "!odds", false)).await;
            assert_eq!(answer.verdict, Verdict::Answered);
            let text = answer.text();
            for colour in Colour::ALL {
                let shown = format!(
                    "{} {:.0}% ({})",
                    colour.name(),
                    exact.colour(colour).to_f64() * 100.0,
                    exact.colour(colour)
                );
                assert!(text.contains(&shown), "{shown} missing: {text}");
            }
            for railway in Railway::ALL {
                let shown = format!(
                    "{} {:.0}%",
                    railway.code(),
                    exact.railway(railway).to_f64() * 100.0
                );
                assert!(text.contains(&shown), "{shown} missing: {text}");
            }
            for (seat, e) in exact.expected.iter().enumerate() {
                expected[seat] += *e;
            }
            checked += 1;
        }
        id += 1;
        let r = table
            .handle(&message(id, author, text.trim(), author == "mod"))
            .await;
        assert!(
            matches!(r.verdict, Verdict::Accepted),
            "{line}: {}",
            r.text()
        );
        // What each player received from a draw: the engine's events of that draw, replayed on
        // the position before it.
        if let Some(cubes) = text.trim().strip_prefix("!draw ") {
            let mut game = before_draw.take().expect("a position before the draw");
            let cubes = parse_cubes(cubes).expect("cubes");
            let events = game.resolve_draw(&cubes).expect("the draw applies");
            for (seat, amount) in paid(&events, 3).into_iter().enumerate() {
                received[seat] += amount;
            }
        }
        before_draw = table.state::<Game>().cloned();
    }
    assert!(checked >= 5, "{checked} dividend calls checked");
    let game = table.state::<Game>().expect("a game").clone();
    assert!(game.is_finished());
    id += 1;
    let status = table
        .handle(&message(id, "anyone", "!status", false))
        .await
        .text();
    for (seat, player) in game.players().iter().enumerate() {
        let shown = format!(
            "{} £{} vs £{:.2}",
            player.name,
            received[seat],
            expected[seat].to_f64()
        );
        assert!(
            status.contains(&shown),
            "{shown} missing from the luck line: {status}"
        );
    }
    // The luckiest first (issue 33: the line listed seats as they sat, Automa 1, 3, 4, 2).
    let line = status
        .lines()
        .find(|l| l.contains("**Luck**"))
        .expect("a luck line");
    let mut order: Vec<(usize, f64)> = game
        .players()
        .iter()
        .enumerate()
        .map(|(seat, p)| {
            let at = line.find(&format!("{} £", p.name)).expect("listed");
            (at, received[seat] as f64 - expected[seat].to_f64())
        })
        .collect();
    order.sort_by_key(|(at, _)| *at);
    assert!(
        order.windows(2).all(|w| w[0].1 >= w[1].1),
        "not luckiest first: {line}"
    );
}
