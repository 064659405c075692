//! The phrasing corpus (`engine/tests/phrasing/corpus.txt`) against the real table: every line
//! is posted in bold by the player asked to act, and the table's answer must be the expected
//! reading — accepted (with the "read as" echo when not written canonically), answered shortly
//! as chat (and silently ignored from another player), refused with the suggestion, refused
//! with the options, or refused with the reason.
//! The engine runs the same file against the reader alone (`engine/tests/phrasing.rs`).

use gaugebot::table::{Response, Table, Verdict};
use gaugebot_table::ToAct;

mod common;

const CORPUS: &str = include_str!("../../engine/tests/phrasing/corpus.txt");

/// Manual dice with the forum game's city roll; ann, bob, cat in that order.
const SETUP: &str = "!setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

/// The moves (by the player asked to act) that lead to a position of the corpus.
fn moves_to(position: &str) -> Vec<&'static str> {
    let five_initial_auctions = vec!["pass"; 15];
    match position {
        "initial auction of CBSC" => Vec::new(),
        "initial auction of WLW" => vec!["pass"; 3],
        "turn" => five_initial_auctions,
        "auction of GSW" => {
            let mut moves = five_initial_auctions;
            moves.push("auction GSW");
            moves
        }
        other => panic!("the corpus names an unknown position: {other}"),
    }
}

/// Where a position-independent line is tried: bids and passes in an auction, the rest on a turn.
fn position_for(expected: &str) -> &'static str {
    let word = expected.split_whitespace().nth(1).unwrap_or("");
    if matches!(word, "bid" | "pass") || expected.contains("bid ") || expected.ends_with("pass") {
        "initial auction of CBSC"
    } else {
        "turn"
    }
}

struct Probe {
    table: Table,
    next_id: u64,
}

impl Probe {
    async fn at(position: &str) -> Probe {
        let store = gaugebot_store::SqliteStore::open(":memory:")
            .await
            .expect("memory store");
        let table = common::table_on(store, "corpus", None).await;
        let mut probe = Probe { table, next_id: 1 };
        let setup = probe.send("mod", SETUP, true).await;
        assert_eq!(setup.verdict, Verdict::Accepted, "{}", setup.text());
        for m in moves_to(position) {
            let who = probe.to_act();
            let r = probe.send(&who, &format!("**{m}**"), false).await;
            assert_eq!(
                r.verdict,
                Verdict::Accepted,
                "{position}: {m}: {}",
                r.text()
            );
        }
        probe
    }

    fn to_act(&self) -> String {
        self.table.player_to_act().expect("a player to act").name
    }

    /// A seated player who is not asked to act.
    fn not_to_act(&self) -> String {
        let who = self.to_act();
        ["ann", "bob", "cat"]
            .into_iter()
            .find(|p| *p != who)
            .unwrap_or("ann")
            .to_string()
    }

    async fn send(&mut self, author: &str, text: &str, moderator: bool) -> Response {
        self.next_id += 1;
        let message = common::message(self.next_id, author, text, moderator);
        self.table.handle(&message).await
    }

    /// Posts one phrasing and checks the answer; an accepted move is undone again.
    async fn check(&mut self, line: &str, phrasing: &str, expected: &str) -> Result<(), String> {
        let who = self.to_act();
        let response = self.send(&who, &format!("**{phrasing}**"), false).await;
        let text = response.text();
        let fail = |why: &str| {
            Err(format!(
                "{line}\n  {why}; the table said ({:?}):\n{text}",
                response.verdict
            ))
        };
        let (kind, rest) = expected.split_once(' ').unwrap_or((expected, ""));
        match kind {
            "accept" => {
                let canonical_note = rest.ends_with("(canonical)");
                let action = rest.split(" (").next().unwrap_or(rest).trim().to_string();
                match response.verdict {
                    Verdict::Accepted => {
                        let echoed = text.contains(&format!("read as **{action}**"));
                        let canonical = canonical_note || phrasing == action;
                        if canonical && echoed {
                            return fail("a canonical move was echoed");
                        }
                        if !canonical && !echoed {
                            return fail(&format!("no \"read as **{action}**\" echo"));
                        }
                        let undo = self.send("mod", "!undo", true).await;
                        if undo.verdict != Verdict::Accepted {
                            return Err(format!("{line}\n  undo failed: {}", undo.text()));
                        }
                    }
                    // Read as the move, refused by the rules of this position: fine.
                    Verdict::Refused if text.contains("(ruling") => {}
                    _ => return fail(&format!("not read as {action}")),
                }
            }
            // `aside`: the reader alone refuses it, but it does not start as a move, so at the
            // table it is chat: the player to act is answered (issue 32), anyone else is not.
            "chat" | "aside" => {
                let answered = format!("I could not read **{phrasing}** as a move");
                if response.verdict != Verdict::Refused || !text.contains(&answered) {
                    return fail("the player to act was not answered");
                }
                let other = self.not_to_act();
                let aside = self.send(&other, &format!("**{phrasing}**"), false).await;
                if aside.verdict != Verdict::Ignored || !aside.replies.is_empty() {
                    return Err(format!(
                        "{line}\n  chat from {other}, not to act, got an answer: {}",
                        aside.text()
                    ));
                }
            }
            "suggest" => {
                let needle = match rest.strip_prefix("word ") {
                    Some(word) => format!("is close to {word}"),
                    None => format!("did you mean **{rest}**"),
                };
                if response.verdict != Verdict::Refused || !text.contains(&needle) {
                    return fail(&format!("no suggestion {needle:?}"));
                }
            }
            "ambiguous" => {
                if response.verdict != Verdict::Refused {
                    return fail("an ambiguous text was not refused");
                }
                if let Some((_, options)) = rest.split_once(':') {
                    for option in options.split('|').map(str::trim) {
                        if !text.contains(&format!("**{option}**")) {
                            return fail(&format!("option **{option}** not offered"));
                        }
                    }
                }
            }
            "refuse" => {
                if response.verdict != Verdict::Refused {
                    return fail("not refused");
                }
                if let Some((_, needle)) = rest.split_once(':') {
                    if !text.contains(needle.trim()) {
                        return fail(&format!("the reason does not say {:?}", needle.trim()));
                    }
                }
            }
            other => return Err(format!("{line}\n  unknown expectation '{other}'")),
        }
        if self
            .table
            .to_act()
            .is_none_or(|a| matches!(a, ToAct::Nobody))
        {
            return Err(format!("{line}\n  the game ended"));
        }
        Ok(())
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_corpus_phrasing_reads_as_expected_at_the_real_table() {
    let mut section: Option<String> = None;
    let mut probes: std::collections::HashMap<String, Probe> = Default::default();
    let mut failures = Vec::new();
    let mut checked = 0;
    for (number, raw) in CORPUS.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(position) = line
            .strip_prefix("[position:")
            .and_then(|p| p.strip_suffix(']'))
        {
            section = Some(position.trim().to_string());
            continue;
        }
        let Some((phrasing, expected)) = line.split_once(" => ") else {
            failures.push(format!("line {}: no ' => ' in {line}", number + 1));
            continue;
        };
        let (phrasing, expected) = (phrasing.trim(), expected.trim());
        let position = section
            .clone()
            .unwrap_or_else(|| position_for(expected).to_string());
        if !probes.contains_key(&position) {
            probes.insert(position.clone(), Probe::at(&position).await);
        }
        let probe = probes.get_mut(&position).expect("a probe");
        let label = format!("line {}: {phrasing} => {expected} [{position}]", number + 1);
        if let Err(e) = probe.check(&label, phrasing, expected).await {
            failures.push(e);
        }
        checked += 1;
    }
    assert!(checked >= 100, "only {checked} phrasings in the corpus");
    assert!(
        failures.is_empty(),
        "{} of {checked} phrasings read wrongly at the table:\n{}",
        failures.len(),
        failures.join("\n")
    );
}
