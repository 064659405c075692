//! `gaugebot backup PATH`: a consistent copy of a SQLite database, private (0600), never over an
//! existing file; the copy opens and holds the game.

use std::process::Command;

fn gaugebot(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(args)
        .output()
        .expect("gaugebot runs")
}

#[test]
fn a_backup_is_private_whole_and_never_overwrites() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("game.db");
    let script = dir.path().join("game.txt");
    std::fs::write(&script, "mod: !setup ann bob cat\n").expect("written");
    let db_text = db.to_string_lossy().into_owned();
    let out = gaugebot(&[
        "play",
        "--no-map",
        "--db",
        &db_text,
        &script.to_string_lossy(),
    ]);
    assert!(out.status.success());

    let copy = dir.path().join("backup.db");
    let copy_text = copy.to_string_lossy().into_owned();
    let out = gaugebot(&["backup", &copy_text, "--db", &db_text]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("unrevealed dice seeds"));
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&copy).expect("copy").permissions().mode();
        assert_eq!(mode & 0o777, 0o600, "the backup is private");
    }
    // The copy is the database: the game is there.
    std::fs::write(&script, "ann: !status\n").expect("written");
    let out = gaugebot(&[
        "play",
        "--no-map",
        "--db",
        &copy_text,
        &script.to_string_lossy(),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("console-1"), "{text}");

    // Never over an existing file.
    let before = std::fs::read(&copy).expect("copy");
    let out = gaugebot(&["backup", &copy_text, "--db", &db_text]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("never overwrites"));
    assert_eq!(std::fs::read(&copy).expect("copy"), before);

    // PostgreSQL: pg_dump (the documented recipe); nothing is written.
    let pg = dir.path().join("pg.db");
    let out = gaugebot(&[
        "backup",
        &pg.to_string_lossy(),
        "--db",
        "postgres://u@localhost/x",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("pg_dump"));
    assert!(!pg.exists());
}
