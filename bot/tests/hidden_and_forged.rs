//! Issue 31, findings 1, 2 and 7, against records of the current version (`gaugebot-dice-v3`,
//! `gaugebot-record-v3`; docs/DICE.md §3.3, §7.2, §8.6 and its threat table §10):
//!
//! * a Privates game played whole through `gaugebot play`, every output and every file collected
//!   before the reveal, shows no run of undealt cards in deal order, and its record verifies
//!   with both verifiers after the reveal (its deck checked against the sealed hash and against
//!   every card dealt);
//! * a move posted again under another message id (the host's "could not be saved, try again")
//!   draws the same chips: no veto;
//! * each forged record of finding 7 is rejected by `gaugebot verify` and
//!   `tools/verify_draws.py` without any witness.

use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use gaugebot_table::dice::AuditExport;
use gaugebot_table::record::chain::{self, Chain, CHAIN_V2};
use gaugebot_table::record::redacted_setup;
use serde_json::{json, Value};

const SEED: &str = "5a17c0ffee5a17c0ffee5a17c0ffee5a17c0ffee5a17c0ffee5a17c0ffee0001";
const MARKER: &str = "@@end-of-replies@@";

/// `gaugebot play` driven line by line (`--end-marker`).
struct Console {
    child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
}

impl Console {
    fn start(db: &Path, attachments: &Path) -> Console {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
            .args([
                "play",
                "--no-map",
                "--seed",
                SEED,
                "--end-marker",
                MARKER,
                "--db",
            ])
            .arg(db)
            .arg("--attachments")
            .arg(attachments)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("gaugebot starts");
        let stdin = child.stdin.take().expect("stdin");
        let stdout = BufReader::new(child.stdout.take().expect("stdout"));
        Console {
            child,
            stdin,
            stdout,
        }
    }

    /// Sends one line; returns every reply to it.
    fn send(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").expect("a line sent");
        self.stdin.flush().expect("flushed");
        let mut out = String::new();
        loop {
            let mut reply = String::new();
            if self.stdout.read_line(&mut reply).expect("reads") == 0 || reply.trim() == MARKER {
                return out;
            }
            out.push_str(&reply);
        }
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The move of the player to act in `text` (the last prompt): buy the cheapest card offered,
/// else pass. `None` when nobody is to act.
fn next_move(text: &str) -> Option<(String, String)> {
    let line = text.lines().rev().find(|l| l.contains(", your turn"))?;
    let (before, after) = line.split_once(", your turn")?;
    let who = before
        .rsplit(|c: char| !(c.is_alphanumeric() || c == '_'))
        .next()?
        .to_string();
    let action = match after.split_once("**buy** ") {
        Some((_, rest)) => format!("**buy {}**", rest.chars().next()?),
        None => "**pass**".to_string(),
    };
    Some((who, action))
}

/// Every file in `dir`, as text.
fn files_of(dir: &Path) -> Vec<(PathBuf, String)> {
    std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok())
                .map(|e| e.path())
                .map(|p| {
                    let text = String::from_utf8_lossy(&std::fs::read(&p).unwrap_or_default())
                        .into_owned();
                    (p, text)
                })
                .collect()
        })
        .unwrap_or_default()
}

/// The round a report shows (`round N of 7`), 0 before the first.
fn round_of(text: &str, before: u64) -> u64 {
    text.to_lowercase()
        .match_indices("round ")
        .filter_map(|(i, m)| {
            let rest = &text[i + m.len()..];
            let (n, tail) = rest.split_once(' ')?;
            tail.starts_with("of ").then(|| n.parse().ok()).flatten()
        })
        .last()
        .unwrap_or(before)
}

/// Whether `text` holds `run` as a list of numbers in this order (`25, 50, 10, 5` or
/// `[25,50,10,5]`, any spacing or line breaks between them).
fn holds_run(text: &str, run: &[u64]) -> bool {
    number_lists(text)
        .iter()
        .any(|list| list.windows(run.len()).any(|w| w == run))
}

/// The lists of plain numbers in `text`: numbers separated only by a comma and spaces (a
/// card's `15/$5` is not a plain number).
fn number_lists(text: &str) -> Vec<Vec<u64>> {
    let bytes = text.as_bytes();
    let mut lists: Vec<Vec<u64>> = Vec::new();
    let mut current: Vec<u64> = Vec::new();
    let mut last_end = 0;
    let mut i = 0;
    while i < bytes.len() {
        if !bytes[i].is_ascii_digit() {
            i += 1;
            continue;
        }
        let start = i;
        while i < bytes.len() && bytes[i].is_ascii_digit() {
            i += 1;
        }
        let plain = (start == 0 || !matches!(bytes[start - 1], b'/' | b'$' | b'.'))
            && bytes.get(i).is_none_or(|b| !matches!(b, b'/' | b'.'));
        let between = &text[last_end..start];
        let joined = !current.is_empty()
            && between.trim().trim_start_matches(',').trim().is_empty()
            && between.contains(',');
        if !joined && !current.is_empty() {
            lists.push(std::mem::take(&mut current));
        }
        match text[start..i].parse() {
            Ok(n) if plain => current.push(n),
            _ => {
                if !current.is_empty() {
                    lists.push(std::mem::take(&mut current));
                }
            }
        }
        last_end = i;
    }
    if !current.is_empty() {
        lists.push(current);
    }
    lists
}

/// Both verifiers' exit statuses on `path` (Python's `None` without python3).
fn verdicts(path: &Path) -> ((i32, String), Option<(i32, String)>) {
    verdicts_with(path, &[])
}

/// Both verifiers' exit statuses on `path` with these witnesses (`SEQ:HEAD`).
fn verdicts_with(path: &Path, witnesses: &[String]) -> ((i32, String), Option<(i32, String)>) {
    let mut args = vec!["verify".to_string(), path.to_string_lossy().into_owned()];
    for w in witnesses {
        args.push("--witness".into());
        args.push(w.clone());
    }
    let out = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(&args)
        .output()
        .expect("gaugebot runs");
    let rust = (
        out.status.code().unwrap_or(-1),
        format!(
            "{}{}",
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        ),
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("../tools/verify_draws.py");
    let python = Command::new("python3")
        .arg(script)
        .arg(path)
        .args(
            witnesses
                .iter()
                .flat_map(|w| ["--witness".to_string(), w.clone()]),
        )
        .output()
        .ok()
        .map(|out| {
            (
                out.status.code().unwrap_or(-1),
                format!(
                    "{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ),
            )
        });
    (rust, python)
}

/// Plays a whole Privates game at the console, a spectator asking for everything after every
/// move; returns the outputs and files seen before the reveal (with the round each was seen
/// in) and the record exported after it.
fn play_whole_game(dir: &Path) -> (Vec<(u64, String)>, Value, Vec<String>) {
    let attachments = dir.join("files");
    let mut console = Console::start(&dir.join("whole.db"), &attachments);
    let mut seen: Vec<(u64, String)> = Vec::new();
    let mut round = 0;
    let mut out = console.send("mod: !setup privates ann bob cat");
    let mut rows = Vec::new();
    let spectator = [
        "zed: !audit",
        "zed: !export",
        "zed: !log",
        "zed: !status",
        "zed: !help",
        "zed: !help audit",
        "zed: !moves",
        "zed: **buy A**",
        "zed: !history",
    ];
    let mut moves = 0;
    while !out.contains("Dice seed revealed") {
        round = round_of(&out, round);
        rows.extend(
            out.lines()
                .filter(|l| l.contains("The row:"))
                .map(str::to_string),
        );
        seen.push((round, out.clone()));
        if moves % 5 == 0 {
            for ask in spectator {
                let answer = console.send(ask);
                seen.push((round, answer));
            }
            for (path, text) in files_of(&attachments) {
                seen.push((round, format!("{}\n{text}", path.display())));
            }
        }
        let (who, action) = next_move(&out).expect("someone is to act until the end");
        out = console.send(&format!("{who}: {action}"));
        moves += 1;
        assert!(moves < 400, "the game ends");
    }
    // The last move ended the game and revealed the seed: what it showed before the reveal
    // line was shown with the last round's cards all dealt.
    let before_reveal = out
        .split("Dice seed revealed")
        .next()
        .unwrap_or("")
        .to_string();
    seen.push((round_of(&out, round), before_reveal));
    let export = console.send("zed: !export");
    assert!(export.contains("game-console-1.json"), "{export}");
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(attachments.join("game-console-1.json")).expect("the record"),
    )
    .expect("json");
    (seen, record, rows)
}

#[test]
fn a_privates_game_played_whole_shows_no_undealt_card_before_the_reveal_and_verifies_after() {
    let dir = tempfile::tempdir().expect("temp dir");
    let (seen, record, rows) = play_whole_game(dir.path());
    assert_eq!(record["format"], "gaugebot-record-v3");
    assert_eq!(record["version"], "gaugebot-dice-v3");
    let deck: Vec<u64> = record["setup"]["setup"]["deck"]
        .as_array()
        .expect("the deck is in the record after the reveal")
        .iter()
        .filter_map(Value::as_u64)
        .collect();
    assert_eq!(deck.len(), 54);
    let deck_record = record["draws"]
        .as_array()
        .expect("draws")
        .iter()
        .find(|d| d["purpose"] == "privates-deck")
        .expect("the deck's draw record");
    assert_eq!(deck_record["hidden"], true);
    assert_eq!(deck_record["result"], json!(deck));
    // Before the reveal: in round r, 7r cards are dealt; no run of 4 undealt cards in deal
    // order appears in any output or file, and the record said the deck was sealed.
    let mut checked = 0;
    for (round, text) in &seen {
        let dealt = (7 * round) as usize;
        for run in deck[dealt.min(deck.len())..].windows(4) {
            assert!(
                !holds_run(text, run),
                "round {round}: undealt cards {run:?} in deal order are shown:\n{text}"
            );
            checked += 1;
        }
        assert!(
            !text.contains("\"deck\": [") && !text.contains("\"deck\":["),
            "round {round}: a deck is shown:\n{text}"
        );
    }
    assert!(checked > 1000, "{checked} runs checked");
    let audits: Vec<&String> = seen
        .iter()
        .map(|(_, t)| t)
        .filter(|t| t.contains("**Dice audit of"))
        .collect();
    assert!(!audits.is_empty());
    for audit in &audits {
        assert!(
            audit.contains("privates-deck: hidden until the reveal (sealed `"),
            "{audit}"
        );
    }
    let sealed_files: Vec<&String> = seen
        .iter()
        .map(|(_, t)| t)
        .filter(|t| t.contains("\"gaugebot-record-v3\""))
        .collect();
    assert!(!sealed_files.is_empty(), "the record files were collected");
    // Every round's row is 7 cards of the deck, in deal order, as the replayed record says:
    // the verifiers replay the game from the revealed deck (gaugebot verify) and check the
    // deck against its sealed hash (both).
    let dealt_rows: Vec<Vec<u64>> = rows
        .iter()
        .filter_map(|l| l.split_once("The row:"))
        .map(|(_, row)| {
            row.split("**")
                .filter_map(|part| part.trim().split_once("/$"))
                .filter_map(|(cost, _)| cost.rsplit(' ').next()?.parse().ok())
                .collect()
        })
        .collect();
    assert_eq!(dealt_rows.len(), 6, "rounds 2 to 7 were dealt: {rows:?}");
    for (i, row) in dealt_rows.iter().enumerate() {
        let mut row = row.clone();
        let start = 7 * (i + 1);
        let mut cards = deck[start..start + 7].to_vec();
        row.sort_unstable();
        cards.sort_unstable();
        assert_eq!(
            row,
            cards,
            "round {}'s row is the deck's next 7 cards",
            i + 2
        );
    }
    let path = dir.path().join("revealed.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&record).expect("json")).expect("written");
    // The heads posted before the reveal (the deck sealed) are the heads of the revealed record:
    // the first one, after the setup, and one from each round, as witnesses.
    let heads: Vec<String> = seen
        .iter()
        .flat_map(|(_, t)| t.lines())
        .filter_map(|l| {
            let rest = l.strip_prefix("-# Record ")?;
            let (seq, head) = rest.split_once(": `")?;
            let seq = seq.trim_start_matches('#');
            Some(format!("{seq}:{}", head.trim_end_matches('`')))
        })
        .collect();
    assert!(
        heads.first().is_some_and(|h| h.starts_with("setup:")),
        "{heads:?}"
    );
    let witnesses: Vec<String> = heads.iter().step_by(20).cloned().collect();
    assert!(witnesses.len() >= 3, "{witnesses:?}");
    let (rust, python) = verdicts_with(&path, &witnesses);
    assert_eq!(rust.0, 0, "{}", rust.1);
    assert!(rust.1.contains("the game replays"), "{}", rust.1);
    if let Some(python) = python {
        assert_eq!(python.0, 0, "{}", python.1);
    }
    // A deck swapped after the reveal (two cards exchanged in the result and the setup) no
    // longer matches its sealed hash, nor the cards the game dealt.
    let mut swapped = record.clone();
    let position = swapped["draws"]
        .as_array()
        .expect("draws")
        .iter()
        .position(|d| d["purpose"] == "privates-deck")
        .expect("deck");
    let mut other = deck.clone();
    let last = other.len() - 1;
    let differs = (0..last)
        .rev()
        .find(|&i| other[i] != other[last])
        .expect("two costs");
    other.swap(differs, last);
    swapped["draws"][position]["result"] = json!(other);
    swapped["setup"]["setup"]["deck"] = json!(other);
    let path = dir.path().join("swapped.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&swapped).expect("json")).expect("written");
    let (rust, python) = verdicts(&path);
    assert_ne!(rust.0, 0, "{}", rust.1);
    if let Some(python) = python {
        assert_ne!(python.0, 0, "{}", python.1);
    }
}

/// Plays `lines` at the console on a fresh database; returns every reply.
fn run(dir: &Path, name: &str, lines: &[String]) -> Vec<String> {
    let attachments = dir.join(format!("{name}-files"));
    let mut console = Console::start(&dir.join(format!("{name}.db")), &attachments);
    lines.iter().map(|l| console.send(l)).collect()
}

#[test]
fn a_move_posted_again_under_another_message_draws_the_same() {
    // Round 1 played to its last buy; that move (which draws round 2's chips) is posted under
    // two message ids, as after a host's "could not be saved, try again".
    let dir = tempfile::tempdir().expect("temp dir");
    let attachments = dir.path().join("probe-files");
    let mut console = Console::start(&dir.path().join("probe.db"), &attachments);
    let mut lines = vec!["[1190000000000000001] mod: !setup privates ann bob cat".to_string()];
    let mut out = console.send(&lines[0]);
    let mut id = 1_190_000_000_000_000_010u64;
    let last = loop {
        let (who, action) = next_move(&out).expect("a player to act");
        let line = format!("{who}: {action}");
        out = console.send(&format!("[{id}] {line}"));
        id += 1;
        if out.contains("Round 2") || out.contains("round 2 of") {
            break line;
        }
        lines.push(format!("[{}] {line}", id - 1));
        assert!(id < 1_190_000_000_000_000_100, "round 1 ends");
    };
    let chips = |replies: &[String]| {
        let text = replies.last().cloned().unwrap_or_default();
        text.lines()
            .find(|l| l.contains("**Round 2 of"))
            .map(str::to_string)
            .unwrap_or(text)
    };
    let mut first = lines.clone();
    first.push(format!("[1190000000000000500] {last}"));
    let mut second = lines.clone();
    second.push(format!("[1190000000000000777] {last}"));
    let a = chips(&run(dir.path(), "first", &first));
    let b = chips(&run(dir.path(), "second", &second));
    assert!(a.contains("chips"), "{a}");
    assert_eq!(a, b, "the same move posted again draws the same chips");
}

/// Recomputes a v3 record's chain (`gaugebot-chain-v2`), as a forger would.
fn rechain_v3(record: &mut Value) {
    let draws_typed: Vec<gaugebot_table::dice::DrawRecord> =
        serde_json::from_value(record["draws"].clone()).unwrap_or_default();
    let header = chain::header_v2(
        record["format"].as_str().unwrap_or(""),
        record["version"].as_str().unwrap_or(""),
        record["game_id"].as_str().unwrap_or(""),
        record["kind"].as_str().unwrap_or(""),
        record["commitment"].as_str(),
        record["client_seed"].as_str(),
        &redacted_setup(&record["setup"], &draws_typed),
    );
    let mut chain = Chain::start_of(CHAIN_V2, &header);
    let mut draws: Vec<Value> = record["draws"].as_array().cloned().unwrap_or_default();
    let mut log: Vec<Value> = record["log"].as_array().cloned().unwrap_or_default();
    let mut cursor = 0;
    while cursor < draws.len() && draws[cursor].get("seq").is_none() {
        draws[cursor]["prev"] = Value::from(chain.link(&draws[cursor]));
        cursor += 1;
    }
    for item in &mut log {
        item["prev"] = Value::from(chain.link(item));
        if cursor < draws.len() && draws[cursor]["seq"] == item["seq"] {
            draws[cursor]["prev"] = Value::from(chain.link(&draws[cursor]));
            cursor += 1;
        }
    }
    record["chain"] = json!({
        "algorithm": CHAIN_V2,
        "head": chain.head(),
        "seq": log.last().map(|e| e["seq"].clone()).unwrap_or(Value::Null),
        "entries": log.len(),
        "draws": draws.len(),
    });
    record["draws"] = Value::from(draws);
    record["log"] = Value::from(log);
}

/// The result a draw record gives with its (changed) inputs, as a forger recomputes it.
fn recomputed(record: &Value, draw: &Value) -> Value {
    let export = AuditExport {
        version: record["version"].as_str().unwrap_or("").to_string(),
        game_id: record["game_id"].as_str().unwrap_or("").to_string(),
        commitment: record["commitment"].as_str().unwrap_or("").to_string(),
        seed: record["seed"].as_str().map(str::to_string),
        draws: vec![serde_json::from_value(draw.clone()).expect("a draw record")],
        format: record["format"].as_str().map(str::to_string),
        client_seed: record["client_seed"].as_str().map(str::to_string),
    };
    let report = gaugebot::games::verify(&export).expect("recomputes");
    report
        .mismatches
        .first()
        .map(|m| m.expected.clone())
        .unwrap_or_else(|| draw["result"].clone())
}

#[test]
fn every_forged_record_of_finding_7_is_rejected_by_both_verifiers_without_a_witness() {
    let dir = tempfile::tempdir().expect("temp dir");
    // A game with an undone round-ending move taken again, then the reveal and the export.
    let attachments = dir.path().join("files");
    let mut console = Console::start(&dir.path().join("forge.db"), &attachments);
    let mut out = console.send("mod: !setup privates ann bob cat");
    let mut undone = false;
    let mut moves = 0;
    while moves < 40 {
        let (who, action) = next_move(&out).expect("a player to act");
        let line = format!("{who}: {action}");
        out = console.send(&line);
        moves += 1;
        if !undone && (out.contains("**Round 2 of") || out.contains("round 2 of")) {
            console.send("mod: !undo");
            out = console.send(&line);
            undone = true;
        }
    }
    assert!(undone);
    let reveal = console.send("mod: !reveal confirm");
    assert!(reveal.contains("revealed"), "{reveal}");
    console.send("zed: !export");
    let record: Value = serde_json::from_str(
        &std::fs::read_to_string(attachments.join("game-console-1.json")).expect("the record"),
    )
    .expect("json");
    let honest = dir.path().join("honest.json");
    std::fs::write(&honest, serde_json::to_vec_pretty(&record).expect("json")).expect("written");
    let (rust, python) = verdicts(&honest);
    assert_eq!(rust.0, 0, "{}", rust.1);
    if let Some(python) = &python {
        assert_eq!(python.0, 0, "{}", python.1);
    }

    let mut forgeries: Vec<(&str, Value)> = Vec::new();
    // 1. format and chain stripped: read as a bare export it would pass; v3 refuses it.
    let mut stripped = record.clone();
    stripped.as_object_mut().expect("object").remove("format");
    stripped.as_object_mut().expect("object").remove("chain");
    forgeries.push(("format and chain stripped", stripped));
    // 2. downgraded to the first record format (no chain).
    let mut v1 = record.clone();
    v1["format"] = json!("gaugebot-record-v1");
    v1.as_object_mut().expect("object").remove("chain");
    for list in ["log", "draws"] {
        for item in v1[list].as_array_mut().expect("list") {
            item.as_object_mut().expect("object").remove("prev");
        }
    }
    forgeries.push(("rewritten as gaugebot-record-v1", v1));
    // 3. the dice version downgraded under the same format, chain recomputed.
    let mut v2 = record.clone();
    v2["version"] = json!("gaugebot-dice-v2");
    rechain_v3(&mut v2);
    forgeries.push(("dice relabelled gaugebot-dice-v2", v2));
    // 4. audited draws passed off as the moderator's (chain recomputed).
    let mut manual = record.clone();
    for item in manual["log"].as_array_mut().expect("log") {
        if item["entry"]["entry"] == "draw" {
            item["entry"]["manual"] = json!(true);
        }
    }
    manual["draws"]
        .as_array_mut()
        .expect("draws")
        .retain(|d| d.get("seq").is_none());
    rechain_v3(&mut manual);
    forgeries.push(("audited draws relabelled manual", manual));
    // 5. the redone draw re-keyed: another index, its result recomputed, in the log and the
    //    draw record alike (a re-roll), chain recomputed.
    let mut rekeyed = record.clone();
    let draws = rekeyed["draws"].as_array().cloned().expect("draws");
    let undone_draw = draws
        .iter()
        .find(|d| d["undone"] == true)
        .expect("an undone draw");
    let redone = draws
        .iter()
        .position(|d| {
            d["undone"] == false
                && d["purpose"] == undone_draw["purpose"]
                && d["index"] == undone_draw["index"]
        })
        .expect("the redone draw");
    let seq = draws[redone]["seq"].as_u64().expect("seq") as usize;
    let mut draw = draws[redone].clone();
    draw["index"] = json!(draw["index"].as_u64().unwrap_or(0) + 40);
    let result = recomputed(&rekeyed, &draw);
    draw["result"] = result.clone();
    rekeyed["draws"][redone] = draw.clone();
    rekeyed["log"][seq]["entry"]["index"] = draw["index"].clone();
    rekeyed["log"][seq]["entry"]["chips"] = result;
    rechain_v3(&mut rekeyed);
    forgeries.push(("redone draw re-keyed", rekeyed));
    // 6. a draw moved to another index without an undo (a re-roll), chain recomputed.
    let mut moved = record.clone();
    let last = moved["draws"].as_array().map_or(0, Vec::len) - 1;
    let seq = moved["draws"][last]["seq"].as_u64().expect("seq") as usize;
    let mut draw = moved["draws"][last].clone();
    draw["index"] = json!(draw["index"].as_u64().unwrap_or(0) + 1);
    let result = recomputed(&moved, &draw);
    draw["result"] = result.clone();
    moved["draws"][last] = draw.clone();
    moved["log"][seq]["entry"]["index"] = draw["index"].clone();
    moved["log"][seq]["entry"]["chips"] = result;
    rechain_v3(&mut moved);
    forgeries.push(("a draw moved to another index", moved));
    // 7. the client seed changed (every draw recomputed would be needed; here only the field).
    let mut client = record.clone();
    // Another value than the record's (console ids are reproducible: the setup's id is `1`).
    client["client_seed"] = json!(format!("{}9", record["client_seed"].as_str().unwrap_or("")));
    rechain_v3(&mut client);
    forgeries.push(("client seed changed", client));

    for (what, forged) in forgeries {
        let path = dir.path().join(format!("{}.json", what.replace(' ', "-")));
        std::fs::write(&path, serde_json::to_vec_pretty(&forged).expect("json")).expect("written");
        let (rust, python) = verdicts(&path);
        let why = |out: &str| {
            out.lines()
                .find(|l| {
                    l.starts_with("INCOMPLETE")
                        || l.starts_with("MISMATCH")
                        || l.starts_with("ERROR")
                        || l.contains("verify:")
                })
                .unwrap_or("")
                .to_string()
        };
        println!("{what}: gaugebot verify {} ({})", rust.0, why(&rust.1));
        if let Some(python) = &python {
            println!("{what}: verify_draws.py {} ({})", python.0, why(&python.1));
        }
        assert_ne!(rust.0, 0, "gaugebot verify accepts '{what}':\n{}", rust.1);
        if let Some(python) = python {
            assert_ne!(
                python.0, 0,
                "verify_draws.py accepts '{what}':\n{}",
                python.1
            );
        }
    }
}
