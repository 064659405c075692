//! Issue 33 at the console, through `gaugebot play`: a transcript with `--seed` plays the same
//! every time (point 7), a second `play --db` run continues the stored game's clock, and
//! `!status N` / `!map N` show the position after record entry N (point 3).

mod binary;

use binary::play_bytes as play;

const SEED: &str = "0000000000000000000000000000000000000000000000000000000000000001";

/// The output without the lines that carry the wall clock (the record's hashes cover the
/// entries' times).
fn without_times(out: &str) -> String {
    out.lines()
        .filter(|l| !l.starts_with("-# Record") && !l.contains(" UTC"))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn a_seeded_transcript_draws_the_same_on_every_run() {
    let input = b"mod: !setup ann bob cat\nann: **bid 7**\nbob: **pass**\ncat: **pass**\n";
    let first = play(input, &["--no-map", "--seed", SEED]);
    let second = play(input, &["--no-map", "--seed", SEED]);
    assert!(first.contains("City cubes (12p8)"), "{first}");
    assert_eq!(without_times(&first), without_times(&second));
}

#[test]
fn a_seeded_transcript_with_a_clock_is_the_same_to_the_byte() {
    let input = b"@2025-03-01T12:00:00Z\nmod: !setup ann bob cat\ncat: **bid 7**\nmod: !log\n";
    let first = play(input, &["--no-map", "--seed", SEED]);
    let second = play(input, &["--no-map", "--seed", SEED]);
    assert!(first.contains("-# Record #0"), "{first}");
    assert_eq!(first, second);
}

#[test]
fn a_second_run_on_the_database_continues_the_games_clock() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("weeks.db");
    let db = db.to_string_lossy();
    let args = ["--no-map", "--seed", SEED, "--db", &db];
    let first = play(
        b"@2025-03-01T12:00:00Z\nmod: !setup ann bob cat\nmod: !clock turn:48h auction:48h\n",
        &args,
    );
    assert!(first.contains("New game console-1"), "{first}");
    // A day after the stored game's last entry, not a day after today: no clock has run out.
    let second = play(b"@+25h\nmod: !log\n", &args);
    assert!(!second.contains("automatically"), "{second}");
    assert!(second.contains("2025-03-01 12:00:00 UTC"), "{second}");
    // Two more days: now the auction clock has run out.
    let third = play(b"@+48h\n", &args);
    assert!(third.contains("passed automatically"), "{third}");
    // The third run's ids are new: the move it made is stored, not refused as read before.
    let fourth = play(b"mod: !log\n", &args);
    assert!(
        fourth.contains("cat: **pass** (passed automatically: the auction clock ran out)"),
        "{fourth}"
    );
}

/// README's fenced block after `marker` as its verbatim pieces: the runs of lines between
/// the `...` lines that leave output out.
fn readme_pieces(readme: &str, marker: &str, fence: &str) -> Vec<String> {
    let start = readme.find(marker).expect("the marker is in README");
    let rest = &readme[start..];
    let open = rest.find(fence).expect("a fenced block") + fence.len();
    let block = &rest[open..];
    let close = block.find("```").expect("the block ends");
    block[..close]
        .split("...\n")
        .filter(|piece| !piece.trim().is_empty())
        .map(str::to_string)
        .collect()
}

/// Checks that every piece is in `text` to the byte, from the start of a line, in order.
fn in_order(pieces: &[String], text: &str, what: &str) {
    let mut from = 0;
    for piece in pieces {
        let found = text[from..]
            .match_indices(piece.as_str())
            .map(|(at, _)| from + at)
            .find(|&at| at == 0 || text[..at].ends_with('\n'));
        match found {
            Some(at) => from = at + piece.len(),
            None => panic!("README's piece is not in {what}, to the byte and in order:\n{piece}\n--- {what} from there:\n{}", &text[from..]),
        }
    }
}

#[test]
fn readmes_sample_transcripts_are_the_bots_output_to_the_byte() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    let games = root.join("bot/tests/games");
    let manual = std::fs::read_to_string(games.join("complete_manual.txt")).expect("transcript");
    let input = readme_pieces(&readme, "### A sample game", "```text\n");
    assert!(input.len() >= 2, "{input:?}");
    in_order(&input, &manual, "complete_manual.txt");
    let output = readme_pieces(&readme, "and what the bot answers", "```text\n");
    assert!(output.len() >= 4, "{output:?}");
    in_order(
        &output,
        &play(manual.as_bytes(), &["--no-map"]),
        "its output",
    );

    let weeks = std::fs::read_to_string(games.join("weeks.txt")).expect("transcript");
    assert!(readme.contains(&format!(
        "play --no-map --seed {SEED} bot/tests/games/weeks.txt"
    )));
    let output = readme_pieces(&readme, "bot/tests/games/weeks.txt\n```", "```text\n");
    assert!(output.len() >= 4, "{output:?}");
    in_order(
        &output,
        &play(weeks.as_bytes(), &["--no-map", "--seed", SEED]),
        "the output of weeks.txt",
    );
}
