//! A run of moves the table made for seats that had no choice, told briefly. When the money
//! runs out near the end of a Privates game every player may be forced to pass, round after
//! round, while a card's price drops: told move by move that is dozens of lines (and a post split
//! in two on Discord). A run in which a player is forced twice is told as one line naming the
//! players and the move, what the moves brought about (a price drop, a new round) with lines
//! alike shortened to the first and the last, and the last move in full (where the run stopped);
//! a move other than the run's most frequent one (a card taken at $0 among the passes) keeps its
//! own line. `!log` still lists every move.

use crate::messages;
use crate::table::Host;

/// A move made for a seat without a choice, as narrated.
pub(crate) struct Forced<'a> {
    /// The name of the seat's player.
    pub(crate) player: &'a str,
    /// The move in notation.
    pub(crate) canonical: &'a str,
    /// Its narration: the move's own line, then what it brought about.
    pub(crate) text: &'a str,
}

/// The fewest lines alike shortened to their first and last.
const FEWEST_ALIKE: usize = 4;

/// The narration of a run of forced moves, in order: each move's own narration when no player
/// was forced twice; otherwise the run told in one line, what the moves brought about, and the
/// last move in full.
pub(crate) fn narrate(host: &Host, run: &[Forced<'_>]) -> Vec<String> {
    let left_out = |count| host.say(messages::LinesAlike { count }).trim().to_string();
    match brief(run, left_out) {
        None => run.iter().map(|made| made.text.to_string()).collect(),
        Some(brief) => {
            let told = host.say(messages::ForcedRun {
                players: brief.players,
                moves: brief.moves,
                count: run.len(),
            });
            vec![told, brief.lines.join("\n")]
        }
    }
}

/// A run told briefly: its players, its moves in notation, and its lines.
#[derive(Debug, PartialEq)]
struct Brief {
    /// The players, in the order they first moved.
    players: Vec<String>,
    /// The moves, in notation, the most frequent first.
    moves: Vec<String>,
    /// What the moves brought about, lines alike shortened (`left_out(n)` between the first and
    /// the last), then the last move in full. The own line of a move other than the most
    /// frequent one (a card taken at $0 among passes) is kept where it came.
    lines: Vec<String>,
}

/// The run told briefly, or `None` when no player was forced twice (told move by move).
fn brief(run: &[Forced<'_>], left_out: impl Fn(usize) -> String) -> Option<Brief> {
    let mut players: Vec<String> = Vec::new();
    let mut moves: Vec<(String, usize)> = Vec::new();
    let mut repeated = false;
    for made in run {
        if players.iter().any(|p| p == made.player) {
            repeated = true;
        } else {
            players.push(made.player.to_string());
        }
        match moves.iter_mut().find(|(m, _)| m == made.canonical) {
            Some((_, count)) => *count += 1,
            None => moves.push((made.canonical.to_string(), 1)),
        }
    }
    let (last, before) = run.split_last().filter(|_| repeated)?;
    // The most frequent first; a stable sort keeps the first played first among equals.
    moves.sort_by_key(|(_, count)| std::cmp::Reverse(*count));
    let most = moves.first().map(|(m, _)| m.clone()).unwrap_or_default();
    // A move's narration is its own line, then what it brought about.
    let brought: Vec<&str> = before
        .iter()
        .flat_map(|made| made.text.lines().skip(usize::from(made.canonical == most)))
        .filter(|line| !line.trim().is_empty())
        .collect();
    let mut lines = shortened(&brought, left_out);
    lines.push(last.text.to_string());
    Some(Brief {
        players,
        moves: moves.into_iter().map(|(m, _)| m).collect(),
        lines,
    })
}

/// `lines` with each stretch of [`FEWEST_ALIKE`] or more lines alike (the same but for their
/// numbers) shortened to its first line, `left_out(n)` and its last line.
fn shortened(lines: &[&str], left_out: impl Fn(usize) -> String) -> Vec<String> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let first = shape(lines[i]);
        // At least the line itself.
        let alike = lines[i..]
            .iter()
            .take_while(|line| shape(line) == first)
            .count();
        let end = i + alike;
        if alike >= FEWEST_ALIKE {
            out.push(lines[i].to_string());
            out.push(left_out(alike - 2));
            out.push(lines[end - 1].to_string());
        } else {
            out.extend(lines[i..end].iter().map(|line| line.to_string()));
        }
        i = end;
    }
    out
}

/// A line with every run of digits as `#`: lines alike have the same shape.
fn shape(line: &str) -> String {
    let mut out = String::with_capacity(line.len());
    let mut in_digits = false;
    for c in line.chars() {
        if c.is_ascii_digit() {
            if !in_digits {
                out.push('#');
            }
            in_digits = true;
        } else {
            out.push(c);
            in_digits = false;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn left_out(n: usize) -> String {
        format!("({n} more)")
    }

    #[test]
    fn four_lines_alike_or_more_keep_their_first_and_last() {
        let drops: Vec<String> = (1..=8)
            .map(|n| format!("G drops from ${} to ${}.", 55 - 5 * n, 50 - 5 * n))
            .collect();
        let mut lines: Vec<&str> = drops.iter().map(String::as_str).collect();
        lines.push("Round 4 of 7 begins.");
        assert_eq!(
            shortened(&lines, left_out),
            [
                "G drops from $50 to $45.",
                "(6 more)",
                "G drops from $15 to $10.",
                "Round 4 of 7 begins."
            ]
        );
        // Three alike are told in full.
        assert_eq!(shortened(&lines[..3], left_out), lines[..3]);
        // Lines that differ in words are not alike.
        let mixed = ["A drops.", "B drops.", "C drops.", "D drops."];
        assert_eq!(shortened(&mixed, left_out), mixed);
    }

    #[test]
    fn a_card_taken_among_passes_keeps_its_line_and_a_short_run_is_not_brief() {
        let passed = |player| Forced {
            player,
            canonical: "pass",
            text: "passes automatically.",
        };
        let dropped = Forced {
            player: "cat",
            canonical: "pass",
            text: "cat passes automatically.\nG drops from $5 to $0 and must be taken.",
        };
        let taken = Forced {
            player: "ann",
            canonical: "buy",
            text: "ann takes G for free, automatically.\nRound 4 of 7 begins.",
        };
        let run = [passed("ann"), passed("bob"), dropped, taken, passed("bob")];
        assert_eq!(
            brief(&run, left_out),
            Some(Brief {
                players: vec!["ann".into(), "bob".into(), "cat".into()],
                moves: vec!["pass".into(), "buy".into()],
                lines: vec![
                    "G drops from $5 to $0 and must be taken.".into(),
                    "ann takes G for free, automatically.".into(),
                    "Round 4 of 7 begins.".into(),
                    "passes automatically.".into(),
                ],
            })
        );
        // Nobody forced twice: told move by move.
        assert_eq!(brief(&run[..3], left_out), None);
    }

    #[test]
    fn a_shape_is_the_line_without_its_numbers() {
        assert_eq!(
            shape("G drops from $50 to $45 (P9)."),
            "G drops from $# to $# (P#)."
        );
        assert_eq!(shape("no numbers"), "no numbers");
    }
}
