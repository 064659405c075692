//! Whole games with audited dice through the table: random legal play to the end, the audit
//! record verified by the Rust and the Python verifier, and restarts that change nothing.

use irish_gauge::Game;
use std::path::Path;
use std::process::Command;

use gaugebot::dice;
use gaugebot::table::{Table, Verdict};
use irish_gauge::playout::random_action;
use irish_gauge::Actor;

mod common;
use common::message;

async fn open_table(db: &Path, seed: Option<&str>) -> Table {
    common::open_table(db, "game-channel", seed).await
}

/// A xorshift chooser for random legal play.
fn chooser(mut state: u64) -> impl FnMut(usize) -> usize {
    move |n| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % n.max(1) as u64) as usize
    }
}

#[tokio::test]
async fn a_random_audited_game_verifies_and_survives_restarts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("audited.db");
    let mut table = open_table(&db, None).await;
    let setup = table
        .handle(&message(1, "mod", "!setup ann bob cat dan", true))
        .await;
    assert_eq!(setup.verdict, Verdict::Accepted, "{}", setup.text());
    let commitment = table.audit_export().expect("audited").commitment;
    assert!(setup.text().contains(&commitment));
    let mut pick = chooser(7);
    let mut id = 2;
    let mut restarts = 0;
    while table.state::<Game>().is_some_and(|g| !g.is_finished()) {
        let game = table.state::<Game>().expect("game").clone();
        let Actor::Player { seat } = game.to_act() else {
            panic!("audited dice never leave a draw pending");
        };
        let action = random_action(&game, &mut pick).expect("a legal action");
        let name = game.name(seat).to_string();
        let response = table
            .handle(&message(id, &name, &format!("**{action}**"), false))
            .await;
        assert_eq!(
            response.verdict,
            Verdict::Accepted,
            "{action}: {}",
            response.text()
        );
        id += 1;
        if !table.state::<Game>().is_some_and(|g| g.is_finished()) {
            assert_eq!(
                table.audit_export().and_then(|e| e.seed),
                None,
                "seed secret"
            );
        }
        if id % 40 == 0 {
            // A restart: a new table on the same database is exactly the same game.
            let before = table.state::<Game>().cloned();
            drop(table);
            table = open_table(&db, None).await;
            assert_eq!(table.state::<Game>().cloned(), before);
            restarts += 1;
        }
        assert!(id < 5_000, "the game ends");
    }
    assert!(restarts > 0);
    let export = table.audit_export().expect("audit export");
    let seed = export
        .seed
        .clone()
        .expect("the seed is revealed at the end");
    assert_eq!(
        dice::Seed::from_hex(&seed).expect("hex").commitment(),
        commitment
    );
    let game = table.state::<Game>().expect("game");
    assert_eq!(export.draws.len(), 2 + game.draws().len());
    let report = gaugebot::games::verify(&export).expect("verifies");
    assert!(report.is_ok(), "{:?}", report.mismatches);

    // The independent verifier agrees, and catches a tampered record.
    let workspace = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let script = workspace.join("tools/verify_draws.py");
    let file = dir.path().join("audit.json");
    std::fs::write(&file, serde_json::to_vec(&export).expect("json")).expect("written");
    let run = |path: &Path| Command::new("python3").arg(&script).arg(path).output();
    match run(&file) {
        Ok(output) => {
            assert!(
                output.status.success(),
                "{}",
                String::from_utf8_lossy(&output.stdout)
            );
            let mut tampered = export.clone();
            let last = tampered.draws.len() - 1;
            // Four cubes: no dividend draw ever has them, whatever the supply was.
            tampered.draws[last].result = serde_json::json!(["black", "black", "black", "black"]);
            let bad = dir.path().join("tampered.json");
            std::fs::write(&bad, serde_json::to_vec(&tampered).expect("json")).expect("written");
            let output = run(&bad).expect("python runs");
            assert!(!output.status.success(), "tampering is detected");
        }
        Err(e) => eprintln!("python3 not available ({e}); the Rust verifier was checked"),
    }
    // After the reveal an undo could choose draws: it is refused.
    let undo = table.handle(&message(id, "mod", "!undo", true)).await;
    assert_eq!(undo.verdict, Verdict::Refused, "{}", undo.text());
}

#[tokio::test]
async fn the_same_seed_and_moves_give_the_same_game() {
    let seed = "ff".repeat(32);
    let mut games = Vec::new();
    for _ in 0..2 {
        let dir = tempfile::tempdir().expect("temp dir");
        let mut table = open_table(&dir.path().join("g.db"), Some(&seed)).await;
        table
            .handle(&message(1, "mod", "!setup ann bob cat", true))
            .await;
        let mut pick = chooser(99);
        for id in 2..200 {
            let game = table.state::<Game>().expect("game").clone();
            let Actor::Player { seat } = game.to_act() else {
                break;
            };
            let Some(action) = random_action(&game, &mut pick) else {
                break;
            };
            table
                .handle(&message(
                    id,
                    game.name(seat),
                    &format!("**{action}**"),
                    false,
                ))
                .await;
        }
        games.push(table.state::<Game>().cloned());
    }
    assert_eq!(games[0], games[1]);
}
