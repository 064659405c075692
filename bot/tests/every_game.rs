//! One suite over every registered game (as 18xx.games' `fixtures_spec.rb` replays every
//! game): a game gets these checks by registering in `bot/src/games.rs`.
//!
//! For every game: its golden games (`bot/tests/games/*.txt` whose `!setup` names it) replay
//! through `gaugebot play` to their stored dumps (`bot/tests/games/<name>.dump.json`; write them
//! again with `GAUGEBOT_GOLDEN=write`); undoing the last move and making it again gives the same
//! position; the stored game replays from the database to the same dump; every example refusal
//! renders from its template and cites its ruling; help answers for every command; and the
//! slash schema built from the registry is valid as Discord requires (names, descriptions,
//! option counts; the slash builder puts required options first itself).

mod binary;

use std::path::{Path, PathBuf};

use gaugebot::games::registry;
use gaugebot_table::commands::registry::Registry;
use gaugebot_table::game::session::{Plugin, Render, SharedPlugin};
use gaugebot_table::Templates;
use serde_json::Value;

/// The golden games and their dumps: `bot/tests/games/`.
fn games_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games")
}

/// Runs `gaugebot play` on `input` with a database file; returns stdout and the state dump
/// (`null` when none was written).
fn play(db: &Path, input: &str) -> (String, Value) {
    let (stdout, state) = binary::run(db, input, &[]);
    (stdout, state.unwrap_or(Value::Null))
}

/// The game a transcript sets up: the word after `!setup` if it names a game, else the
/// default (the first registered).
fn game_of<'a>(script: &str, games: &'a [SharedPlugin]) -> Option<&'a SharedPlugin> {
    let setup = script
        .lines()
        .find_map(|l| l.split_once("!setup ").map(|(_, s)| s))?;
    let word = setup.split_whitespace().next().unwrap_or_default();
    games
        .iter()
        .find(|g| g.info().is_named(word))
        .or_else(|| games.first())
}

/// The golden games of each registered kind: (name, script).
fn golden(games: &[SharedPlugin]) -> Vec<(String, String, &'static str)> {
    let dir = games_dir();
    let mut found = Vec::new();
    for entry in std::fs::read_dir(&dir).expect("bot/tests/games") {
        let path = entry.expect("an entry").path();
        if path.extension().and_then(|e| e.to_str()) != Some("txt") {
            continue;
        }
        let script = std::fs::read_to_string(&path).expect("a transcript");
        // Games over weeks set the console's clock: not a golden game of one kind.
        if script.lines().any(|l| l.starts_with('@')) {
            continue;
        }
        if let Some(game) = game_of(&script, games) {
            let name = path
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap_or_default();
            found.push((name.to_string(), script, game.info().kind));
        }
    }
    found.sort();
    found
}

#[test]
fn every_game_has_golden_games_that_replay_to_their_dumps_undo_and_redo_and_reload() {
    let games = registry();
    let golden = golden(&games);
    let write = std::env::var("GAUGEBOT_GOLDEN").as_deref() == Ok("write");
    for game in &games {
        let kind = game.info().kind;
        assert!(
            golden.iter().any(|(_, _, k)| *k == kind),
            "{kind} has no golden game in bot/tests/games/"
        );
    }
    for (name, script, kind) in &golden {
        let dir = tempfile::tempdir().expect("temp dir");
        let (out, dump) = play(&dir.path().join("games.db"), script);
        assert!(
            !out.contains('❌'),
            "{name} ({kind}): a line is refused:\n{out}"
        );
        let stored = games_dir().join(format!("{name}.dump.json"));
        if write {
            let text = serde_json::to_string_pretty(&dump).expect("json");
            std::fs::write(&stored, text + "\n").expect("golden dump written");
        }
        let expected: Value = serde_json::from_str(
            &std::fs::read_to_string(&stored).expect("a stored dump (GAUGEBOT_GOLDEN=write)"),
        )
        .expect("the stored dump reads");
        assert_eq!(
            dump, expected,
            "{name} ({kind}) no longer replays to its dump"
        );
        // The stored game replays from the database to the same dump.
        let (_, reloaded) = play(&dir.path().join("games.db"), "");
        assert_eq!(
            reloaded, dump,
            "{name} ({kind}): reloading changes the position"
        );
        // Undo the last move and make it again: the same position.
        let lines: Vec<&str> = script.lines().collect();
        let last = lines
            .iter()
            .rposition(|l| l.contains(": **"))
            .expect("a golden game has moves");
        let upto = lines[..=last].join("\n") + "\n";
        let (_, before) = play(&dir.path().join("upto.db"), &upto);
        let again = format!("{upto}mod: !undo\n{}\n", lines[last]);
        let (out, after) = play(&dir.path().join("again.db"), &again);
        assert!(out.contains("Undone"), "{name}: {out}");
        assert_eq!(
            after, before,
            "{name} ({kind}): undo and redo changed the position"
        );
    }
}

#[test]
fn every_refusal_kind_of_every_game_renders_with_its_ruling() {
    let games = registry();
    let templates = Templates::load(None, &gaugebot_table::texts_of(&games)).expect("templates");
    let render = Render {
        templates: &templates,
        prefix: "!",
        game_id: "suite-1",
        moderator: "the moderator",
        draw_source: None,
        ping: false,
        skip: None,
        head: None,
        page: None,
    };
    for game in &games {
        let kind = game.info().kind;
        let plugin: &dyn Plugin = game.as_ref();
        let examples = plugin.example_refusals();
        assert!(!examples.is_empty(), "{kind} lists no example refusals");
        for (refusal, ruling) in examples {
            assert_eq!(refusal.kind(), Some(kind));
            let text = refusal.render(&render);
            assert!(!text.trim().is_empty(), "{kind}: {refusal:?} renders empty");
            assert!(!text.contains("text failed"), "{kind}: {refusal:?}: {text}");
            assert!(
                text.contains(&ruling),
                "{kind}: {refusal:?} does not cite {ruling}: {text}"
            );
        }
    }
}

#[test]
fn help_answers_for_every_command_of_the_registry() {
    let games = registry();
    let registry = Registry::new(&games);
    let input: String = registry
        .all()
        .iter()
        .map(|spec| format!("ann: !help {}\n", spec.name))
        .collect();
    let dir = tempfile::tempdir().expect("temp dir");
    let (out, _) = play(&dir.path().join("games.db"), &input);
    assert!(!out.contains("Unknown command"), "{out}");
    for spec in registry.all() {
        assert!(
            !spec.summary.trim().is_empty(),
            "{} has no summary",
            spec.name
        );
        assert!(out.contains(spec.name), "no help for {}: {out}", spec.name);
    }
}

#[test]
fn the_slash_schema_of_the_registry_is_valid_for_discord() {
    let games = registry();
    let registry = Registry::new(&games);
    let name_ok = |name: &str| {
        (1..=32).contains(&name.chars().count())
            && name
                .chars()
                .all(|c| c.is_lowercase() || c.is_ascii_digit() || c == '-' || c == '_')
    };
    let text_ok = |text: &str| (1..=100).contains(&text.chars().count());
    for spec in registry.all() {
        assert!(name_ok(spec.name), "command name {:?}", spec.name);
        assert!(
            text_ok(spec.summary),
            "{}: description {:?}",
            spec.name,
            spec.summary
        );
        assert!(spec.args.len() <= 25, "{}: more than 25 options", spec.name);
        for arg in spec.args {
            assert!(
                name_ok(arg.name),
                "{}: option name {:?}",
                spec.name,
                arg.name
            );
            assert!(
                text_ok(arg.help),
                "{} {}: description {:?}",
                spec.name,
                arg.name,
                arg.help
            );
        }
    }
}
