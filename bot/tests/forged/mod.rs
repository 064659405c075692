//! Forged `gaugebot-record-v3` records (docs/DICE.md §8.6, §10: issue 31's finding 7), as a
//! forger with the record and the seed makes them, and the two command-line verifiers' verdicts.
//! Shared by `hidden_and_forged.rs` (`gaugebot verify`, `tools/verify_draws.py`) and
//! `web_pages.rs` (the browser's verifier).
#![allow(dead_code)]

use std::path::Path;
use std::process::Command;

use gaugebot_table::dice::AuditExport;
use gaugebot_table::record::chain::{self, Chain, CHAIN_V2};
use gaugebot_table::record::redacted_setup;
use serde_json::{json, Value};

/// Recomputes a v3 record's chain (`gaugebot-chain-v2`), as a forger would.
pub fn rechain_v3(record: &mut Value) {
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
pub fn recomputed(record: &Value, draw: &Value) -> Value {
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

/// The forgeries of finding 7 of a revealed v3 record, each named: stripped, downgraded,
/// relabelled and re-rolled, every chain recomputed where the forgery keeps one. The re-keyed
/// redone draw needs a draw undone and taken again; without one it is left out.
pub fn forgeries(record: &Value) -> Vec<(&'static str, Value)> {
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
    let draws = record["draws"].as_array().cloned().expect("draws");
    let undone_draw = draws.iter().find(|d| d["undone"] == true);
    let redone = undone_draw.and_then(|undone_draw| {
        draws.iter().position(|d| {
            d["undone"] == false
                && d["purpose"] == undone_draw["purpose"]
                && d["index"] == undone_draw["index"]
        })
    });
    if let Some(redone) = redone {
        let mut rekeyed = record.clone();
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
    }
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
    let other = if record["client_seed"] == "1" {
        "2"
    } else {
        "1"
    };
    client["client_seed"] = json!(other);
    rechain_v3(&mut client);
    forgeries.push(("client seed changed", client));
    forgeries
}

/// Both verifiers' exit statuses on `path` (Python's `None` without python3).
pub fn verdicts(path: &Path) -> ((i32, String), Option<(i32, String)>) {
    verdicts_with(path, &[])
}

/// Both verifiers' exit statuses on `path` with these witnesses (`SEQ:HEAD`).
pub fn verdicts_with(path: &Path, witnesses: &[String]) -> ((i32, String), Option<(i32, String)>) {
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
