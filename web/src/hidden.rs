//! Nothing hidden leaves the bot: before the reveal, a v1 or v2 record a page serves withholds
//! the order of what is not dealt yet (Privates' shuffled deck: in its setup and in its
//! `privates-deck` draw; docs/DICE.md §8.7). A `gaugebot-record-v3` seals what it hides itself
//! (§7.2: a hidden draw's `result` and the setup field it fills are `null` until the reveal, and
//! its chain hashes neither), so it is served as `!export` gives it, nothing withheld. The seed
//! is in a record only once revealed ([`gaugebot_table::record::GameRecord::of`]).

use gaugebot_table::record::{GameRecord, FORMAT_V3};
use serde_json::Value;

/// The fields of a game's own setup that hold a hidden order (Privates: `deck`).
pub const HIDDEN_SETUP: [&str; 1] = ["deck"];

/// The draw purposes whose result is a hidden order until the reveal.
pub const HIDDEN_PURPOSES: [&str; 1] = ["privates-deck"];

/// The record as a page may serve it. A v3 record as it is: before the reveal it already holds
/// no hidden result (§7.2), and nulling any of its hashed fields would break its chain. A v1 or
/// v2 record before the reveal (a commitment and no seed): the hidden orders are replaced by
/// `null` and listed in `withheld`: `header` when the setup lost a field (the chain's header is
/// then not hashable: its hash is the first link's `prev`), and `draws`, the positions in
/// `draws` of the records without their result (each one's hash is the next link's `prev`, or
/// the chain's head). After the reveal, the whole record.
pub fn public_record(record: &GameRecord) -> Value {
    let mut value = serde_json::to_value(record).unwrap_or(Value::Null);
    if record.format == FORMAT_V3 || record.seed.is_some() || record.commitment.is_none() {
        return value;
    }
    let mut header = false;
    if let Some(own) = value
        .pointer_mut("/setup/setup")
        .and_then(Value::as_object_mut)
    {
        for field in HIDDEN_SETUP {
            if own.get(field).is_some_and(|v| !v.is_null()) {
                own.insert(field.to_string(), Value::Null);
                header = true;
            }
        }
    }
    let mut draws = Vec::new();
    if let Some(list) = value.get_mut("draws").and_then(Value::as_array_mut) {
        for (i, draw) in list.iter_mut().enumerate() {
            let hidden = draw
                .get("purpose")
                .and_then(Value::as_str)
                .is_some_and(|p| HIDDEN_PURPOSES.contains(&p));
            if hidden {
                if let Some(object) = draw.as_object_mut() {
                    object.insert("result".into(), Value::Null);
                }
                draws.push(i);
            }
        }
    }
    if header || !draws.is_empty() {
        if let Some(object) = value.as_object_mut() {
            object.insert(
                "withheld".into(),
                serde_json::json!({ "header": header, "draws": draws }),
            );
        }
    }
    value
}
