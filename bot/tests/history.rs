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

/// The status reports in `out` by the record entry they end at (`-# Record #N: …`), each
/// from its title line (`**Irish Gauge — …` / `**Privates — …`) to that line.
fn reports_by_entry(out: &str, title: &str) -> Vec<(i64, String)> {
    let mut reports = Vec::new();
    let mut rest = out;
    while let Some(start) = rest.find(title) {
        let report = &rest[start..];
        let Some(end) = report.find("-# Record #") else {
            break;
        };
        let line_end = report[end..].find('\n').map_or(report.len(), |n| end + n);
        let entry: i64 = report[end + "-# Record #".len()..]
            .split(':')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("an entry number");
        reports.push((entry, report[..line_end].to_string()));
        rest = &report[line_end..];
    }
    reports
}

/// Plays `transcript` asking `!status` after every line, then plays it again asking
/// `!status N` for every entry at the end: each past report is the report of that time.
fn past_reports_are_the_reports_of_their_time(transcript: &str, title: &str, args: &[&str]) {
    let lines: Vec<&str> = transcript
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .collect();
    let mut live = String::from("@2025-03-01T12:00:00Z\n");
    for line in &lines {
        live.push_str(line);
        live.push_str("\nspy: !status\n");
    }
    let then: std::collections::BTreeMap<i64, String> =
        reports_by_entry(&play(live.as_bytes(), args), title)
            .into_iter()
            .collect();
    let last = *then.keys().last().expect("some entries");
    assert!(last >= 6, "{then:?}");
    // The same lines at the same line numbers (so the same message ids and record hashes),
    // chat in place of `!status`.
    let mut asked = String::from("@2025-03-01T12:00:00Z\n");
    for line in &lines {
        asked.push_str(line);
        asked.push_str("\nspy: just watching\n");
    }
    for entry in 0..=last {
        asked.push_str(&format!("spy: !status {entry}\n"));
    }
    asked.push_str(&format!("spy: !status {}\n", last + 1));
    let out = play(asked.as_bytes(), args);
    let tail = &out[out.find("📜").expect("a past position")..];
    let past = reports_by_entry(tail, title);
    assert_eq!(past.len() as i64, last + 1, "{tail}");
    for (entry, report) in past {
        if let Some(shown) = then.get(&entry) {
            assert_eq!(&report, shown, "the report after entry #{entry}");
        }
    }
    assert!(
        out.contains(&format!(
            "console-1 has no record entry #{}: its record has entries #0–#{last}",
            last + 1
        )),
        "{tail}"
    );
}

#[test]
fn status_n_shows_the_irish_gauge_report_of_that_time() {
    let manual = binary::transcript("complete_manual.txt");
    let first_half: String = manual.lines().take(60).collect::<Vec<_>>().join("\n");
    past_reports_are_the_reports_of_their_time(&first_half, "**Irish Gauge — ", &["--no-map"]);
}

#[test]
fn status_n_shows_the_privates_report_of_that_time() {
    let manual = binary::transcript("privates_manual.txt");
    let first_half: String = manual.lines().take(40).collect::<Vec<_>>().join("\n");
    past_reports_are_the_reports_of_their_time(&first_half, "**Privates — ", &["--no-map"]);
}

#[test]
fn status_n_of_an_audited_game_draws_nothing_again() {
    let game = "mod: !setup ann bob cat\ncat: **bid 7**\nann: **pass**\nbob: **pass**\n\
        ann: **bid 5**\nbob: **pass**\ncat: **pass**\nbob: **bid 8**\ncat: **pass**\n\
        ann: **pass**\ncat: **pass**\nann: **pass**\nbob: **pass**\ncat: **pass**\n\
        ann: **bid 6**\nbob: **pass**\ncat: **pass**\n";
    past_reports_are_the_reports_of_their_time(
        game,
        "**Irish Gauge — ",
        &["--no-map", "--seed", SEED],
    );
}

#[test]
fn map_n_is_written_apart_from_the_map_now() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("maps");
    // The auctions and the three builds of the hand-computed game (entries #0–#17).
    let manual = binary::transcript("complete_manual.txt");
    let mut input: String = manual.lines().take(24).collect::<Vec<_>>().join("\n");
    input.push_str("\nann: !map 14\nann: !map\nann: !map 18\n");
    let out = play(
        input.as_bytes(),
        &["--attachments", &folder.to_string_lossy()],
    );
    assert!(out.contains("The board after record entry #14."), "{out}");
    let now = std::fs::read(folder.join("console-1-18.png")).expect("the map now");
    let past = std::fs::read(folder.join("console-1-after-14.png")).expect("the map then");
    assert_ne!(now, past, "before the builds and after them, two pictures");
    assert!(
        out.contains("console-1 has no record entry #18: its record has entries #0–#17"),
        "{out}"
    );
}

#[test]
fn the_setup_posts_the_map_unless_told_not_to() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("maps");
    let setup = b"mod: !setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12\n";
    let out = play(setup, &["--attachments", &folder.to_string_lossy()]);
    let start = out.find("**New game console-1**").expect("the setup");
    let map = out.find("[attachment: ").expect("a map with the setup");
    assert!(map > start, "{out}");
    assert!(folder.join("console-1-0.png").exists(), "{out}");
    let out = play(setup, &["--no-map"]);
    assert!(!out.contains("[attachment"), "{out}");
    // Privates has no map.
    let out = play(
        b"mod: !setup privates ann bob cat dice:manual dealer:1\n",
        &[],
    );
    assert!(!out.contains("[attachment"), "{out}");
}

#[test]
fn the_last_turns_highlight_goes_once_a_turn_builds_nothing() {
    let manual = binary::transcript("complete_manual.txt");
    // The three builds (the last GSW's, to Drogheda), then ann's dividend call and its draw.
    let mut input: String = manual.lines().take(24).collect::<Vec<_>>().join("\n");
    input.push_str("\nann: !map\n");
    input.push_str(
        &manual
            .lines()
            .skip(24)
            .take(3)
            .collect::<Vec<_>>()
            .join("\n"),
    );
    input.push_str("\nann: !map\n");
    let out = play(input.as_bytes(), &[]);
    let alts: Vec<&str> = out.lines().filter(|l| l.starts_with("[alt: Map")).collect();
    let (after_build, after_dividends) = (alts[alts.len() - 2], alts[alts.len() - 1]);
    assert!(
        after_build.contains("Built last (highlighted): G11, Drogheda."),
        "{after_build}"
    );
    assert!(!after_dividends.contains("Built last"), "{after_dividends}");
}
