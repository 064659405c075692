//! The tamper suite of the game record (docs/DICE.md §8.2): real games of Irish Gauge and of
//! Privates played through `gaugebot play` (audited dice, message ids, an undo, the reveal,
//! `!export`), then changed in every way the audit must catch — each change rejected by BOTH
//! `gaugebot verify` and `tools/verify_draws.py`. A record rewritten consistently (its chain
//! recomputed after a cut tail) is caught by a witness: a head taken from a report the bot
//! posted during the game.

use std::path::{Path, PathBuf};
use std::process::Command;

use gaugebot_table::dice::AuditExport;
use gaugebot_table::record::chain::{self, Chain, CHAIN};
use serde_json::{json, Value};

const SEED: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";

/// A transcript of `lines` (`author: text`), each with a numeric message id from `first`.
fn transcript(first: u64, lines: &[String]) -> String {
    lines
        .iter()
        .enumerate()
        .map(|(i, line)| format!("[{}] {line}\n", first + 1 + i as u64))
        .collect()
}

fn irish_gauge_lines() -> Vec<String> {
    let mut lines = vec!["mod: !setup ann bob cat".to_string()];
    // Everyone passes in turn (moves out of turn are refused and change nothing).
    for _ in 0..20 {
        for p in ["ann", "bob", "cat"] {
            lines.push(format!("{p}: **pass**"));
        }
    }
    for round in 0..3 {
        for p in ["ann", "bob", "cat"] {
            lines.push(format!("{p}: **dividends**"));
        }
        if round == 0 {
            lines.push("mod: !undo".into());
        }
    }
    lines.push("mod: !reveal confirm".into());
    lines.push("ann: !export".into());
    lines
}

fn privates_lines() -> Vec<String> {
    let mut lines = vec!["mod: !setup privates ann bob cat".to_string()];
    for round in 0..25 {
        for p in ["ann", "bob", "cat"] {
            lines.push(format!("{p}: **buy**"));
        }
        if round == 3 {
            lines.push("mod: !undo".into());
        }
        for p in ["ann", "bob", "cat"] {
            lines.push(format!("{p}: **pass**"));
        }
    }
    lines.push("mod: !reveal confirm".into());
    lines.push("ann: !export".into());
    lines
}

/// Plays `input` through the binary; returns its output and the exported record.
fn play(dir: &Path, name: &str, input: &str) -> (String, Value) {
    let attachments = dir.join(format!("{name}-files"));
    std::fs::create_dir_all(&attachments).expect("folder");
    let db = dir.join(format!("{name}.db"));
    let script = dir.join(format!("{name}.txt"));
    std::fs::write(&script, input).expect("transcript written");
    let out = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        // These records are of the earlier version, gaugebot-dice-v2 (its message keys);
        // bot/tests/hidden_and_forged.rs tampers with records of the current one.
        .args([
            "play",
            "--no-map",
            "--dice-spec",
            "gaugebot-dice-v2",
            "--seed",
            SEED,
            "--db",
        ])
        .arg(&db)
        .arg("--attachments")
        .arg(&attachments)
        .arg(&script)
        .output()
        .expect("gaugebot runs");
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{stdout}");
    let file = attachments.join("game-console-1.json");
    let record =
        serde_json::from_str(&std::fs::read_to_string(&file).expect("exported")).expect("a record");
    (stdout, record)
}

/// The heads the bot posted under its reports: (`seq`, the 12 hex digits).
fn posted_heads(stdout: &str) -> Vec<(i64, String)> {
    stdout
        .lines()
        .filter_map(|line| {
            let rest = line.strip_prefix("-# Record #")?;
            let (seq, head) = rest.split_once(": `")?;
            Some((seq.parse().ok()?, head.trim_end_matches('`').to_string()))
        })
        .collect()
}

/// Exit code and output of `gaugebot verify` and of the Python verifier (`None` without
/// python3).
fn verdicts(path: &Path, witnesses: &[String]) -> ((i32, String), Option<(i32, String)>) {
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
    let mut python = Command::new("python3");
    python.arg(script).arg(path);
    for w in witnesses {
        python.arg("--witness").arg(w);
    }
    let python = python.output().ok().map(|out| {
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

/// Recomputes a record's chain (`prev` of every link, the summary) as a forger would.
fn rechain(record: &mut Value) {
    let header = chain::header(
        record["version"].as_str().unwrap_or(""),
        record["game_id"].as_str().unwrap_or(""),
        record["kind"].as_str().unwrap_or(""),
        record["commitment"].as_str(),
        &record["setup"],
    );
    let mut chain = Chain::start(&header);
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
    for draw in draws.iter_mut().skip(cursor) {
        draw["prev"] = Value::from(chain.link(draw));
    }
    record["chain"] = json!({
        "algorithm": CHAIN,
        "head": chain.head(),
        "seq": log.last().map(|e| e["seq"].clone()).unwrap_or(Value::Null),
        "entries": log.len(),
        "draws": draws.len(),
    });
    record["draws"] = Value::from(draws);
    record["log"] = Value::from(log);
}

/// The result a draw record would have with other inputs (as a forger recomputes it).
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
    match gaugebot::games::verify(&export) {
        Ok(report) => report
            .mismatches
            .first()
            .map(|m| m.expected.clone())
            .unwrap_or_else(|| draw["result"].clone()),
        Err(e) => panic!("cannot recompute: {e}"),
    }
}

/// Position in `draws` of the log draws (those with a `seq`).
fn log_draws(record: &Value) -> Vec<usize> {
    record["draws"]
        .as_array()
        .expect("draws")
        .iter()
        .enumerate()
        .filter(|(_, d)| d.get("seq").is_some())
        .map(|(i, _)| i)
        .collect()
}

/// Removes log entry `k` and closes up the numbering (entries and draw records after it).
fn drop_entry(record: &mut Value, k: usize) {
    let log = record["log"].as_array_mut().expect("log");
    log.remove(k);
    for item in log.iter_mut().skip(k) {
        item["seq"] = Value::from(item["seq"].as_i64().expect("seq") - 1);
    }
    let k = k as i64;
    let draws = record["draws"].as_array_mut().expect("draws");
    draws.retain(|d| d["seq"].as_i64() != Some(k));
    for d in draws.iter_mut() {
        if let Some(seq) = d["seq"].as_i64().filter(|s| *s > k) {
            d["seq"] = Value::from(seq - 1);
        }
    }
}

/// Every tamper of the suite, applied to a copy of `record`.
fn tampers(record: &Value) -> Vec<(&'static str, Value)> {
    let draws = log_draws(record);
    let last_draw = *draws.last().expect("a draw in the log");
    let middle_draw = draws[draws.len() / 2];
    let entries = record["log"].as_array().expect("log").len();
    // A move in the middle of the game that is neither a draw nor followed by one.
    let middle_entry = (entries / 3..entries)
        .find(|&k| {
            record["log"][k]["entry"]["entry"] == "action"
                && record["log"][k + 1]["entry"]["entry"] == "action"
        })
        .expect("a move in the middle");
    let undone_draw = draws
        .iter()
        .copied()
        .find(|&i| record["draws"][i]["undone"] == true);
    let active_draw = draws
        .iter()
        .copied()
        .find(|&i| record["draws"][i]["undone"] == false)
        .expect("a draw in force");
    let mut out: Vec<(&'static str, Value)> = Vec::new();
    let mut add = |name: &'static str, change: &dyn Fn(&mut Value)| {
        let mut copy = record.clone();
        change(&mut copy);
        out.push((name, copy));
    };
    add("commitment", &|r| {
        r["commitment"] = Value::from(hex_of(&[7u8; 32]));
    });
    add("seed", &|r| {
        r["seed"] = Value::from(hex_of(&[9u8; 32]));
    });
    add("game id", &|r| {
        r["game_id"] = Value::from("console-2");
    });
    add("a drawn value", &|r| {
        let result = r["draws"][last_draw]["result"]
            .as_array_mut()
            .expect("result");
        result.reverse();
        result.push(Value::from("pink"));
    });
    add("an index", &|r| {
        let index = r["draws"][middle_draw]["index"].as_u64().expect("index");
        r["draws"][middle_draw]["index"] = Value::from(index + 1);
        let seq = r["draws"][middle_draw]["seq"].as_u64().expect("seq") as usize;
        r["log"][seq]["entry"]["index"] = Value::from(index + 1);
        let result = recomputed(r, &r["draws"][middle_draw]);
        r["draws"][middle_draw]["result"] = result;
    });
    add("a message key (re-keyed, result recomputed)", &|r| {
        let seq = r["draws"][last_draw]["seq"].as_u64().expect("seq") as usize;
        let other = r["log"][seq - 2]["message_id"].clone();
        r["draws"][last_draw]["message_id"] = other.clone();
        r["log"][seq]["entry"]["message_id"] = other;
        let result = recomputed(r, &r["draws"][last_draw]);
        r["draws"][last_draw]["result"] = result;
    });
    add("drop the last draw record", &|r| {
        r["draws"].as_array_mut().expect("draws").remove(last_draw);
    });
    add("drop a middle draw record", &|r| {
        r["draws"]
            .as_array_mut()
            .expect("draws")
            .remove(middle_draw);
    });
    add("drop log entries at the end", &|r| {
        let log = r["log"].as_array_mut().expect("log");
        log.truncate(log.len() - 2);
    });
    add("drop a log entry in the middle (seq closed up)", &|r| {
        drop_entry(r, middle_entry);
    });
    add("reorder two draw records", &|r| {
        r["draws"]
            .as_array_mut()
            .expect("draws")
            .swap(middle_draw, last_draw);
    });
    add("duplicate a draw record", &|r| {
        let copy = r["draws"][middle_draw].clone();
        r["draws"]
            .as_array_mut()
            .expect("draws")
            .insert(middle_draw + 1, copy);
    });
    add("mark an active draw undone", &|r| {
        r["draws"][active_draw]["undone"] = Value::Bool(true);
        let seq = r["draws"][active_draw]["seq"].as_u64().expect("seq") as usize;
        r["log"][seq]["undone"] = Value::Bool(true);
    });
    add("unmark an undone draw (or move)", &|r| match undone_draw {
        Some(i) => {
            r["draws"][i]["undone"] = Value::Bool(false);
            let seq = r["draws"][i]["seq"].as_u64().expect("seq") as usize;
            r["log"][seq]["undone"] = Value::Bool(false);
        }
        None => {
            let log = r["log"].as_array_mut().expect("log");
            let item = log
                .iter_mut()
                .find(|e| e["undone"] == true)
                .expect("an undone move");
            item["undone"] = Value::Bool(false);
        }
    });
    add("cut the tail including the reveal", &|r| {
        let seq = r["draws"][last_draw]["seq"].as_u64().expect("seq") as usize;
        r["log"].as_array_mut().expect("log").truncate(seq - 1);
        let draws = r["draws"].as_array_mut().expect("draws");
        draws.retain(|d| d["seq"].as_u64().is_none_or(|s| (s as usize) < seq - 1));
    });
    out
}

fn hex_of(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

struct Tally {
    tried: usize,
    /// Rechained tampers checked without witnesses: (rejected by gaugebot verify, by Python).
    unwitnessed: (usize, usize, usize),
    rust: usize,
    python: usize,
    python_ran: bool,
}

/// Runs every tamper of `record` (also rechained, with the last posted witness) through both
/// verifiers; panics on any tamper a verifier accepts.
fn suite(dir: &Path, game: &str, record: &Value, stdout: &str) -> Tally {
    let path = |name: &str| -> PathBuf { dir.join(format!("{game}-{name}.json")) };
    let write = |p: &Path, v: &Value| {
        std::fs::write(p, serde_json::to_vec_pretty(v).expect("json")).expect("written")
    };
    // The untouched record verifies, with every witness the bot posted.
    let heads = posted_heads(stdout);
    assert!(heads.len() > 10, "reports show the head: {stdout}");
    let witnesses: Vec<String> = heads.iter().map(|(s, h)| format!("{s}:{h}")).collect();
    let good = path("good");
    write(&good, record);
    let (rust, python) = verdicts(&good, &witnesses);
    assert_eq!(rust.0, 0, "{game}: {}", rust.1);
    if let Some(python) = &python {
        assert_eq!(python.0, 0, "{game}: {}", python.1);
    }
    let last_witness = vec![witnesses.last().expect("a witness").clone()];
    let mut tally = Tally {
        unwitnessed: (0, 0, 0),
        tried: 0,
        rust: 0,
        python: 0,
        python_ran: python.is_some(),
    };
    for (name, tampered) in tampers(record) {
        // As is (a naive edit), and rewritten with its chain recomputed, checked against the
        // last head the bot posted.
        let mut rechained = tampered.clone();
        rechain(&mut rechained);
        // Without witnesses a consistent rewrite is caught only by what the record's own
        // checks see (counted for the figures, not asserted).
        let file = path("rechained");
        write(&file, &rechained);
        let (rust, python) = verdicts(&file, &[]);
        tally.unwitnessed.0 += 1;
        tally.unwitnessed.1 += usize::from(rust.0 != 0);
        tally.unwitnessed.2 += usize::from(python.is_some_and(|p| p.0 != 0));
        for (variant, value, witnesses) in [
            ("edited", &tampered, &Vec::new()),
            (
                "rechained, with the last posted witness",
                &rechained,
                &last_witness,
            ),
        ] {
            let file = path("tampered");
            write(&file, value);
            let (rust, python) = verdicts(&file, witnesses);
            tally.tried += 1;
            assert_ne!(
                rust.0, 0,
                "{game}: {name} ({variant}) passed gaugebot verify:\n{}",
                rust.1
            );
            tally.rust += 1;
            if let Some(python) = python {
                assert_ne!(
                    python.0, 0,
                    "{game}: {name} ({variant}) passed tools/verify_draws.py:\n{}",
                    python.1
                );
                tally.python += 1;
            }
        }
    }
    tally
}

#[test]
fn every_tamper_of_both_games_is_rejected_by_both_verifiers() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut totals = Vec::new();
    for (game, input) in [
        (
            "irish-gauge",
            transcript(1_187_000_000_000_000_000, &irish_gauge_lines()),
        ),
        (
            "privates",
            transcript(1_190_000_000_000_000_000, &privates_lines()),
        ),
    ] {
        let (stdout, record) = play(dir.path(), game, &input);
        assert_eq!(record["format"], "gaugebot-record-v2");
        assert_eq!(record["kind"], game);
        let tally = suite(dir.path(), game, &record, &stdout);
        assert!(tally.tried >= 28, "{game}: {} tampers", tally.tried);
        totals.push((game, tally));
    }
    for (game, t) in &totals {
        println!(
            "{game}: {} tampers tried; gaugebot verify rejected {}; tools/verify_draws.py rejected {}{} \
             (rewritten with the chain recomputed and no witness: {} tried, {} and {} rejected)",
            t.tried,
            t.rust,
            t.python,
            if t.python_ran { "" } else { " (python3 not found)" },
            t.unwitnessed.0,
            t.unwitnessed.1,
            t.unwitnessed.2
        );
    }
}

#[test]
fn a_witness_from_a_posted_report_catches_a_cut_tail() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = transcript(1_187_000_000_000_000_000, &irish_gauge_lines());
    let (stdout, record) = play(dir.path(), "cut", &input);
    let heads = posted_heads(&stdout);
    let (seq, head) = heads.last().expect("a posted head").clone();
    // The forger cuts the record after an earlier entry, keeps the reveal (renumbered) and
    // recomputes its chain: the record is whole and complete again, so without witnesses both
    // verifiers accept it …
    let mut cut = record.clone();
    let reveal = record["log"]
        .as_array()
        .expect("log")
        .iter()
        .find(|e| e["entry"]["entry"] == "reveal")
        .cloned()
        .expect("a reveal entry");
    // (right after a draw, so that no call is left without its draw)
    let keep = (0..(seq - 2) as usize)
        .rev()
        .find(|&k| record["log"][k]["entry"]["entry"] == "draw")
        .expect("a draw before the end")
        + 1;
    cut["log"].as_array_mut().expect("log").truncate(keep);
    let mut reveal = reveal;
    reveal["seq"] = json!(keep);
    cut["log"].as_array_mut().expect("log").push(reveal);
    cut["draws"]
        .as_array_mut()
        .expect("draws")
        .retain(|d| d["seq"].as_u64().is_none_or(|s| (s as usize) < keep));
    rechain(&mut cut);
    let file = dir.path().join("cut.json");
    std::fs::write(&file, serde_json::to_vec_pretty(&cut).expect("json")).expect("written");
    let (rust, python) = verdicts(&file, &[]);
    assert_eq!(rust.0, 0, "{}", rust.1);
    if let Some(python) = &python {
        assert_eq!(python.0, 0, "{}", python.1);
    }
    // … but the head the bot posted under its last report names the cut.
    let witness = vec![format!("{seq}:{head}")];
    let (rust, python) = verdicts(&file, &witness);
    assert_eq!(rust.0, 1, "{}", rust.1);
    assert!(
        rust.1.contains(&format!("witness #{seq}:{head}")) && rust.1.contains("tail was cut"),
        "{}",
        rust.1
    );
    if let Some(python) = python {
        assert_eq!(python.0, 1, "{}", python.1);
        assert!(python.1.contains("tail was cut"), "{}", python.1);
    }
    // A witness that does not match the record up to its entry is named too.
    let wrong = vec![format!("{}:{}", heads[3].0, "0123456789ab")];
    let good = dir.path().join("good.json");
    std::fs::write(&good, serde_json::to_vec_pretty(&record).expect("json")).expect("written");
    let (rust, python) = verdicts(&good, &wrong);
    assert_eq!(rust.0, 1, "{}", rust.1);
    assert!(rust.1.contains("not the one players saw"), "{}", rust.1);
    if let Some(python) = python {
        assert_eq!(python.0, 1, "{}", python.1);
    }
}

/// A scripted game of `bot/tests/games/`.
fn game_transcript(name: &str) -> String {
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    std::fs::read_to_string(games.join(name)).expect("transcript exists")
}

#[test]
fn manual_dice_records_verify_with_both_verifiers() {
    let dir = tempfile::tempdir().expect("temp dir");
    for (name, file) in [
        ("ig-manual", "complete_manual.txt"),
        ("privates-manual", "privates_manual.txt"),
    ] {
        let input = format!("{}\nann: !export\n", game_transcript(file));
        let (stdout, record) = play(dir.path(), name, &input);
        assert_eq!(record["commitment"], Value::Null, "{name}");
        assert_eq!(record["seed"], Value::Null, "{name}");
        assert!(
            stdout.contains("-# Record #"),
            "manual games show the head too"
        );
        let path = dir.path().join(format!("{name}.json"));
        std::fs::write(&path, serde_json::to_vec_pretty(&record).expect("json")).expect("written");
        let heads: Vec<String> = posted_heads(&stdout)
            .iter()
            .map(|(s, h)| format!("{s}:{h}"))
            .collect();
        let (rust, python) = verdicts(&path, &heads);
        assert_eq!(rust.0, 0, "{name}: {}", rust.1);
        assert!(
            rust.1.contains("manual dice (no seed, no commitment)"),
            "{}",
            rust.1
        );
        assert!(
            rust.1.contains("MANUAL #"),
            "the draws are listed: {}",
            rust.1
        );
        if let Some(python) = python {
            assert_eq!(python.0, 0, "{name}: {}", python.1);
            assert!(
                python.1.contains("RECORD VERIFIED (manual dice)"),
                "{}",
                python.1
            );
            assert!(python.1.contains("MANUAL   #"), "{}", python.1);
        }
        // Its chain is checked like any other: a dropped entry is caught.
        let mut cut = record.clone();
        drop_entry(&mut cut, 5);
        std::fs::write(&path, serde_json::to_vec_pretty(&cut).expect("json")).expect("written");
        let (rust, python) = verdicts(&path, &[]);
        assert_eq!(rust.0, 1, "{name}: {}", rust.1);
        if let Some(python) = python {
            assert_eq!(python.0, 1, "{name}: {}", python.1);
        }
    }
}

#[test]
fn records_of_the_first_format_still_verify() {
    let fixtures = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/records");
    for name in ["irish-gauge-record-v1.json", "privates-record-v1.json"] {
        let path = fixtures.join(name);
        let (rust, python) = verdicts(&path, &[]);
        assert_eq!(rust.0, 0, "{name}: {}", rust.1);
        if let Some(python) = python {
            assert_eq!(python.0, 0, "{name}: {}", python.1);
        }
        // A witness needs a chain: a record of the first format has none.
        let (rust, python) = verdicts(&path, &["3:0123456789ab".to_string()]);
        assert_eq!(rust.0, 1, "{name}: {}", rust.1);
        if let Some(python) = python {
            assert_eq!(python.0, 1, "{name}: {}", python.1);
        }
    }
}

#[test]
fn a_game_keyed_by_its_signup_open_message_is_of_the_current_version() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = "@2025-03-01T12:00:00Z\n\
        [1187000000000000100] mod: !signup open players:3-3 closes:24h\n\
        [1187000000000000101] ann: **sign up**\n\
        [1187000000000000102] bob: **sign up**\n\
        [1187000000000000103] cat: **sign up**\n\
        [1187000000000000104] dan: **sign up**\n\
        @+25h\n\
        [1187000000000000105] mod: !reveal confirm\n\
        [1187000000000000106] ann: !export\n";
    let (_, record) = play(dir.path(), "signup", input);
    assert_eq!(record["version"], "gaugebot-dice-v2");
    assert_eq!(record["setup"]["setup_message"], "1187000000000000100");
    let draws = record["draws"].as_array().expect("draws");
    assert_eq!(draws[0]["purpose"], "signup-pick");
    for draw in draws {
        assert_eq!(draw["message_id"], "1187000000000000100", "{draw}");
    }
    let path = dir.path().join("signup.json");
    std::fs::write(&path, serde_json::to_vec_pretty(&record).expect("json")).expect("written");
    let (rust, python) = verdicts(&path, &[]);
    assert_eq!(rust.0, 0, "{}", rust.1);
    if let Some(python) = python {
        assert_eq!(python.0, 0, "{}", python.1);
    }
}

#[test]
fn a_move_made_for_a_seat_is_marked_and_its_key_checked() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut lines = vec!["mod: !setup ann bob cat".to_string()];
    for _ in 0..20 {
        for p in ["ann", "bob", "cat"] {
            lines.push(format!("{p}: **pass**"));
        }
    }
    // A moderator's `!act` calls for dividends for whoever is to act.
    for p in ["ann", "bob", "cat"] {
        lines.push(format!("mod: !act @{p} **dividends**"));
    }
    lines.push("mod: !reveal confirm".into());
    lines.push("ann: !export".into());
    let (_, record) = play(
        dir.path(),
        "act",
        &transcript(1_187_000_000_000_000_000, &lines),
    );
    let at = *log_draws(&record).last().expect("a dividend draw");
    let draw = &record["draws"][at];
    let seq = draw["seq"].as_i64().expect("seq");
    assert_eq!(draw["trigger"], json!(seq - 1));
    assert_eq!(
        draw["bot_made"],
        json!({"why": "moderator", "marker": seq - 2}),
        "marked as made for the seat, with the marker entry"
    );
    assert_eq!(
        draw["message_id"], record["log"][seq as usize]["message_id"],
        "keyed by the moderator's message"
    );
    let path = dir.path().join("act.json");
    let check = |value: &Value| {
        std::fs::write(&path, serde_json::to_vec_pretty(value).expect("json")).expect("written");
        verdicts(&path, &[])
    };
    let (rust, python) = check(&record);
    assert_eq!(rust.0, 0, "{}", rust.1);
    if let Some(python) = python {
        assert_eq!(python.0, 0, "{}", python.1);
    }
    // Rewritten consistently (chain recomputed): the mark removed, or the draw re-keyed to the
    // setup message with its result recomputed — both verifiers still reject it.
    let mut unmarked = record.clone();
    unmarked["draws"][at]
        .as_object_mut()
        .expect("record")
        .remove("bot_made");
    rechain(&mut unmarked);
    let mut rekeyed = record.clone();
    let setup_message = record["setup"]["setup_message"].clone();
    rekeyed["draws"][at]["message_id"] = setup_message.clone();
    rekeyed["log"][seq as usize]["entry"]["message_id"] = setup_message;
    let result = recomputed(&rekeyed, &rekeyed["draws"][at]);
    rekeyed["draws"][at]["result"] = result.clone();
    rekeyed["log"][seq as usize]["entry"]["cubes"] = result;
    rechain(&mut rekeyed);
    for (what, value) in [("unmarked", unmarked), ("re-keyed", rekeyed)] {
        let (rust, python) = check(&value);
        assert_eq!(rust.0, 1, "{what}: {}", rust.1);
        assert!(
            rust.1.contains("the draw record for #"),
            "{what}: {}",
            rust.1
        );
        if let Some(python) = python {
            assert_eq!(python.0, 1, "{what}: {}", python.1);
        }
    }
}
