//! What a new admin sees when the setup is wrong, through the real `gaugebot` binary: each
//! error said once, with what to fix, and the exit code the docs name (78 for the operator's
//! setup, 1 otherwise).

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn gaugebot(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(args)
        .current_dir(dir)
        .env_remove("DISCORD_TOKEN")
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("gaugebot runs")
}

fn stderr(output: &Output) -> String {
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_configuration_error_is_printed_once_with_exit_code_78() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("unk.yaml"), "databse: x.db\n").expect("write");
    let output = gaugebot(dir.path(), &["--config", "unk.yaml", "play"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(78), "{text}");
    assert!(
        text.starts_with("gaugebot: invalid configuration unk.yaml: unknown field `databse`"),
        "{text}"
    );
    assert_eq!(text.matches("unknown field").count(), 1, "{text}");
}

#[test]
fn a_wrong_template_override_stops_the_start_listing_the_valid_names() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::create_dir(dir.path().join("texts")).expect("mkdir");
    std::fs::write(dir.path().join("texts/status.md.j2"), "x").expect("write");
    std::fs::write(dir.path().join("ok.yaml"), "templates_dir: texts\n").expect("write");
    let output = gaugebot(dir.path(), &["--config", "ok.yaml", "play"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(78), "{text}");
    assert!(
        text.contains("templates_dir texts: status.md.j2 override no template"),
        "{text}"
    );
    assert!(text.contains("irish-gauge/status.md.j2, "), "{text}");

    std::fs::write(dir.path().join("gone.yaml"), "templates_dir: nowhere\n").expect("write");
    let output = gaugebot(dir.path(), &["--config", "gone.yaml", "play"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(78), "{text}");
    assert!(
        text.contains("templates_dir nowhere is not a directory"),
        "{text}"
    );
    assert!(text.contains("privates/status.md.j2"), "{text}");
}

#[test]
fn a_postgres_server_that_refuses_is_named_with_the_refusal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = gaugebot(
        dir.path(),
        &[
            "play",
            "--db",
            "postgres://gaugebot:secret@127.0.0.1:1/gaugebot",
        ],
    );
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(1), "{text}");
    assert!(
        text.contains("cannot connect to PostgreSQL at 127.0.0.1:1: "),
        "{text}"
    );
    assert!(text.to_lowercase().contains("refused"), "{text}");
    assert!(!text.contains("secret"), "{text}");
    assert_eq!(text.matches("cannot connect").count(), 1, "{text}");
}

#[test]
fn logs_into_a_pipe_carry_no_colour_codes() {
    let dir = tempfile::tempdir().expect("temp dir");
    // stderr is a pipe here: a refused database logs nothing in colour, whatever NO_COLOR says.
    let output = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(["play", "--db", "postgres://gaugebot@127.0.0.1:1/gaugebot"])
        .current_dir(dir.path())
        .env_remove("NO_COLOR")
        .env("RUST_LOG", "debug")
        .stdin(Stdio::null())
        .output()
        .expect("gaugebot runs");
    let text = stderr(&output);
    assert!(text.contains("DEBUG") || text.contains("INFO"), "{text}");
    assert!(!text.contains('\u{1b}'), "{text}");
}

fn gaugebot_with_token(dir: &Path, token: &str, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(args)
        .current_dir(dir)
        .env("DISCORD_TOKEN", token)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("gaugebot runs")
}

#[test]
fn a_token_that_cannot_be_one_is_refused_before_anything_is_created() {
    let dir = tempfile::tempdir().expect("temp dir");
    for args in [&[][..], &["run"][..]] {
        let output = gaugebot_with_token(dir.path(), "abc", args);
        let text = stderr(&output);
        assert_eq!(output.status.code(), Some(78), "{text}");
        assert!(
            text.contains(
                "the environment variable DISCORD_TOKEN does not hold a Discord bot token"
            ),
            "{text}"
        );
        assert!(!text.contains("abc"), "the token is never shown: {text}");
        assert!(
            !dir.path().join("gaugebot.db").exists(),
            "a database was created: {text}"
        );
    }
    let output = gaugebot_with_token(
        dir.path(),
        "Bot OTAwMDAwMDAwMDAwMDAwMDAx.ZmFrZQ.ZmFrZWRpc2NvcmQtYm90LXRva2Vu",
        &[],
    );
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(78), "{text}");
    assert!(text.contains("leave out the \"Bot \" prefix"), "{text}");
    assert!(!dir.path().join("gaugebot.db").exists(), "{text}");
}

#[test]
fn a_configuration_error_points_at_its_key_with_the_fix() {
    let dir = tempfile::tempdir().expect("temp dir");
    let example = include_str!("../../config.example.yaml");
    let hard = example.replace("automa: standard", "automa: hard");
    let line = hard
        .lines()
        .position(|l| l.starts_with("automa:"))
        .expect("an automa line")
        + 1;
    std::fs::write(dir.path().join("hard.yaml"), &hard).expect("write");
    let output = gaugebot(dir.path(), &["--config", "hard.yaml", "play"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(78), "{text}");
    assert!(text.contains("automa: "), "{text}");
    assert!(
        text.contains(&format!("at line {line} column 1")),
        "line {line}: {text}"
    );

    std::fs::write(
        dir.path().join("token.yaml"),
        "database: x.db\ntoken: abc.def.ghi\n",
    )
    .expect("write");
    let output = gaugebot(dir.path(), &["--config", "token.yaml", "play"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(78), "{text}");
    assert!(text.contains("unknown field `token`"), "{text}");
    assert!(text.contains("at line 2 column 1"), "{text}");
    assert!(
        text.contains("the token goes in the environment variable DISCORD_TOKEN"),
        "{text}"
    );

    std::fs::write(dir.path().join("prefix.yaml"), "prefix: \"\"\n").expect("write");
    let output = gaugebot(dir.path(), &["--config", "prefix.yaml", "play"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(78), "{text}");
    assert!(text.contains("prefix: must not be empty"), "{text}");
    assert!(text.contains("at line 1 column 1"), "{text}");
}

#[test]
fn the_valid_template_names_are_listed_one_a_line() {
    let dir = tempfile::tempdir().expect("temp dir");
    std::fs::write(dir.path().join("gone.yaml"), "templates_dir: nowhere\n").expect("write");
    let output = gaugebot(dir.path(), &["--config", "gone.yaml", "play"]);
    let text = stderr(&output);
    assert_eq!(output.status.code(), Some(78), "{text}");
    let listed: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("  ") && l.contains(".j2"))
        .collect();
    assert!(listed.len() > 20, "{text}");
    assert!(
        listed.iter().all(|l| l.matches(".j2").count() == 1),
        "{text}"
    );
    assert!(
        listed.iter().any(|l| l.trim() == "privates/status.md.j2,"),
        "{text}"
    );
}
