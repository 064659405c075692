//! `!tables` (a moderator's overview of the games) and `!pace` (each player's pace, from the
//! log) at the console over a week, across a restart (issue 34 points 6 and 7).

mod binary;
use binary::transcript;

/// The lines of `out` that start with one of `marks`.
fn lines_with<'a>(out: &'a str, marks: &[&str]) -> Vec<&'a str> {
    out.lines()
        .filter(|l| marks.iter().any(|m| l.starts_with(m)))
        .collect()
}

#[test]
fn a_moderator_sees_every_game_and_anyone_the_pace_of_each_player() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("games.db");
    let script = transcript("weeks_overview.txt");
    // The bot restarts while the automa holds cat's seat: the figures come from the log.
    let cut = script.find("@+50h").expect("the last week");
    let (first, rest) = script.split_at(cut);
    let (out, _) = binary::play(&db, first, &[]);
    assert_eq!(
        lines_with(&out, &["📋", "- ", "❌"]),
        [
            "📋 **1 game** here:",
            "- Irish Gauge console-1 in #console: bob's bid or pass since 1h ago, deadline 2025-03-04 11:00 UTC; away: cat (until 2025-03-06 11:00 UTC).",
            "❌ ann: only a moderator may `!tables` (ruling 27).",
        ],
        "{out}"
    );
    let (out, _) = binary::play(&db, &format!("@2025-03-04T15:00:00Z\n{rest}"), &[]);
    assert_eq!(
        lines_with(&out, &["📋", "- ", "⏱️"]),
        [
            "📋 **1 game** here:",
            "- Irish Gauge console-1 in #console: ann's bid or pass since now, deadline 2025-03-07 17:00 UTC; automa: Automa 1 (for cat).",
            "⏱️ **Pace of console-1** (from the log; a move's time runs from when the seat was asked):",
            // ann: 2h and 1h; bob: 10h, 4h and 3h; the auction clock passed each once.
            "- ann: median 1h to move (2 moves), 1 missed deadline.",
            "- bob: median 4h to move (3 moves), 1 missed deadline.",
            // From the !sub (4 March, 15:00) to the !pace (6 March, 17:00).
            "- Automa 1 (for cat): no move yet, 1 missed deadline; covered by the automa for 2d2h.",
        ],
        "{out}"
    );
}
