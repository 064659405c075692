//! Running the real `gaugebot play` binary on scripted input, for the tests that play whole
//! games through it (`acceptance.rs`, `privates.rs`, `every_game.rs`).
// Each test binary that includes this module uses only part of it.
#![allow(dead_code)]

use std::path::Path;
use std::process::{Command, Stdio};

use serde_json::Value;

/// A scripted game of `bot/tests/games/`.
pub fn transcript(name: &str) -> String {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    std::fs::read_to_string(games.join(name)).expect("transcript exists")
}

/// Runs `gaugebot play --no-map` on `input` with a database file and `extra` arguments; returns
/// stdout and the state dump.
pub fn play(db: &Path, input: &str, extra: &[&str]) -> (String, Value) {
    let (stdout, state) = run(db, input, extra);
    (stdout, state.expect("dump written"))
}

/// [`play`], with `None` for the dump when none was written (no game in the database).
pub fn run(db: &Path, input: &str, extra: &[&str]) -> (String, Option<Value>) {
    let dir = db.parent().expect("db in a folder");
    let dump = dir.join(format!("dump-{}.json", std::process::id()));
    let (db, dump_arg) = (db.to_string_lossy(), dump.to_string_lossy());
    let mut args = vec!["--db", &db, "--no-map", "--dump-state", &dump_arg];
    args.extend_from_slice(extra);
    let stdout = play_bytes(input.as_bytes(), &args);
    let state = std::fs::read_to_string(&dump)
        .ok()
        .map(|text| serde_json::from_str(&text).expect("the dump is JSON"));
    (stdout, state)
}

/// Runs `gaugebot play` with `args` on raw input bytes (not necessarily UTF-8); its stdout.
pub fn play_bytes(input: &[u8], args: &[&str]) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .arg("play")
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gaugebot starts");
    {
        use std::io::Write;
        let mut stdin = child.stdin.take().expect("stdin");
        stdin.write_all(input).expect("input written");
    }
    let output = child.wait_with_output().expect("gaugebot ends");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    assert!(
        output.status.success(),
        "gaugebot failed: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
}
