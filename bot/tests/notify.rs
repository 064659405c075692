//! Turn pings by direct message (`!notify dm`, issue 34 point 5) at the console over two days,
//! across a restart: the choice is stored per player; each turn ping and reminder of a player
//! who chose it comes also as a direct message, none while they are away, none after
//! `!notify off`.

mod binary;
use binary::transcript;

#[test]
fn turn_pings_and_reminders_reach_players_who_asked_by_direct_message() {
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("games.db");
    let script = transcript("weeks_notify.txt");
    // The bot restarts after the choices are made: they are stored.
    let cut = script.find("ann: **bid 7**").expect("the first bid");
    let (first, rest) = script.split_at(cut);
    let (out, _) = binary::play(&db, first, &[]);
    assert!(out.contains("(to bob) 🔔 bob, from now on each turn ping and reminder also comes to you by direct message"), "{out}");
    assert!(
        out.contains("🔕 ann, turn pings reach you in the game's channel only"),
        "{out}"
    );
    let (out, _) = binary::play(&db, &format!("@2025-03-01T12:00:00Z\n{rest}"), &[]);
    let bid = "your bid or pass in Irish Gauge console-1 (#console); the clock runs out in 1d.";
    let dms: Vec<&str> = out.lines().filter(|l| l.starts_with("(dm to ")).collect();
    let expected: Vec<String> = [
        ("bob", bid.to_string()),
        ("cat", bid.to_string()),
        // Half of cat's auction clock: the reminder in the channel, and by direct message.
        ("cat", "a reminder: your bid or pass in Irish Gauge console-1 (#console); the clock runs out in 11h.".to_string()),
        ("bob", bid.to_string()),
        ("cat", bid.to_string()),
        ("bob", bid.to_string()),
        ("cat", bid.to_string()),
        ("cat", bid.to_string()),
        ("bob", bid.to_string()),
        ("cat", bid.to_string()),
        ("bob", bid.to_string()),
        // bob's turn to build; cat's turn comes while she is away: no direct message; bob's
        // `!notify off` stops his.
        ("bob", "your turn in Irish Gauge console-1 (#console); the clock runs out in 2d.".to_string()),
    ]
    .iter()
    .map(|(who, what)| format!("(dm to {who}) 🔔 {who}, {what}"))
    .collect();
    assert_eq!(dms, expected, "{out}");
    // Every direct message repeats a ping in the channel just before it.
    let lines: Vec<&str> = out.lines().collect();
    for (i, line) in lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with("(dm to "))
    {
        let who = line["(dm to ".len()..]
            .split(')')
            .next()
            .unwrap_or_default();
        assert!(
            lines[..i]
                .iter()
                .rev()
                .take(40)
                .any(|l| l.contains(&format!("@{who}"))),
            "a direct message without its ping: {line}\n{out}"
        );
    }
    assert!(
        out.contains(
            "(to bob) 🔕 bob, from now on turn pings reach you in the game's channel only"
        ),
        "{out}"
    );
}
