//! `!takeback` at the console, over days and across a restart (issue 34 point 4): a player
//! takes back their own last move until the next player acts, never after a draw and never a
//! move made for them; the log keeps the move, marked undone; the position is the one the game
//! would have without the mistakes.

mod binary;
use binary::transcript;

/// The lines of `text` up to (not including) the first line that starts with `stop`.
fn until(text: &str, stop: &str) -> String {
    text.lines()
        .take_while(|l| !l.starts_with(stop))
        .map(|l| format!("{l}\n"))
        .collect()
}

#[test]
fn players_take_back_their_own_moves_until_the_next_player_acts() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("games.db");
    let script = transcript("weeks_takeback.txt");
    // The first run stops after ann's mistaken bid; the take-back comes after a restart.
    let first = until(&script, "# ann meant 7");
    let rest = script[first.len()..].to_string();
    let (out, _) = binary::play(&db, &first, &[]);
    assert!(out.contains("ann bids £9."), "{out}");
    let (out, state) = binary::play(&db, &format!("@2025-03-01T12:00:00Z\n{rest}"), &[]);

    let answers: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("↩️") || l.starts_with('❌'))
        .collect();
    assert_eq!(
        answers,
        [
            "↩️ ann takes back **bid 9**. It stays in `!log`, marked undone.",
            "❌ bob has moved since your move: a take-back is only allowed until the next player acts (a moderator may `!undo`).",
            "❌ The last move is bob's, not yours: only the player who made the last move may take it back (a moderator may `!undo`).",
            "↩️ bob takes back **pass**. It stays in `!log`, marked undone.",
            "↩️ ann takes back **build CBSC O3 N5**. It stays in `!log`, marked undone.",
            "❌ Your last move was made for you by a moderator (`!act`): only a move you made yourself can be taken back (a moderator may `!undo`).",
            "❌ A draw was made since your move: a take-back never re-rolls, so it is closed once dice are drawn or cards shown (a moderator may `!undo`).",
        ],
        "{out}"
    );
    // The log keeps each taken-back move, struck through, and says whose take-back it was.
    assert!(
        out.contains("#21 ~~ann: **build CBSC O3 N5** — 2025-03-03 14:00:00 UTC~~ (undone)"),
        "{out}"
    );
    assert!(
        out.contains("#23 ann: takes back their own move — 2025-03-03 14:00:00 UTC"),
        "{out}"
    );

    // The same position as the game without the mistakes: complete_manual.txt to its first draw.
    let manual = transcript("complete_manual.txt");
    let plain = until(&manual, "# Turn 5");
    let other = dir.path().join("plain.db");
    let (_, expected) = binary::play(&other, &plain, &[]);
    for field in ["players", "railways", "supply", "draws", "next"] {
        assert_eq!(state[field], expected[field], "{field}");
    }
    assert_eq!(
        state["players"][0]["cash"], 13,
        "ann after the first dividends"
    );
}
