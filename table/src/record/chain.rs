//! The hash chain of a game record (docs/DICE.md §8.2, `gaugebot-chain-v1`): the record's header,
//! then its setup draw records, then every log entry followed by its draw record (if it has one),
//! each link hashing the one before it. The head after an entry is shown in every report, so the
//! channel itself holds witnesses of the record that nobody can rewrite later.
//!
//! A link's hash is `SHA-256("gaugebot-chain-v1" ‖ 0x00 ‖ prev ‖ canonical(body))`, where `prev`
//! is the 32 bytes of the link before it (32 zero bytes before the header) and `body` the link's
//! JSON object without its `prev` and `undone` fields (an `undone` mark changes when a later undo
//! takes the entry back, so it is checked by replaying the undos, not by the chain).

use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The chain's name: the domain tag of every link hash.
pub const CHAIN: &str = "gaugebot-chain-v1";
/// The chain of records of format `gaugebot-record-v3` (docs/DICE.md §8.6): its header also
/// holds the record's format and the game's client seed, and a hidden draw record's `result` is
/// left out of its hash (its `sealed` hash is in it), so the head does not change at the reveal.
pub const CHAIN_V2: &str = "gaugebot-chain-v2";

/// How many hex digits of the head a report shows.
pub const SHORT_HEAD: usize = 12;

/// Fields of a link that its hash leaves out.
const UNHASHED: [&str; 2] = ["prev", "undone"];

/// The canonical text of a JSON value: objects with their keys sorted (by their UTF-8 bytes), no
/// whitespace, strings escaped as JSON requires and nothing more (`"` `\` and control characters;
/// `\b \f \n \r \t` short, others `\u00XX` in lowercase hex; everything else as UTF-8), integers in
/// decimal. It is what Python's `json.dumps(v, sort_keys=True, separators=(",", ":"),
/// ensure_ascii=False)` writes.
pub fn canonical(value: &Value) -> String {
    let mut out = String::new();
    write_canonical(value, &mut out);
    out
}

fn write_canonical(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, key) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(&Value::String(key.clone()), out);
                out.push(':');
                write_canonical(&map[key], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        // serde_json writes scalars (and escapes strings) exactly as the canonical form wants.
        other => out.push_str(&other.to_string()),
    }
}

/// A link's body: its JSON object without the fields the hash leaves out.
pub fn body(link: &Value) -> Value {
    body_of(CHAIN, link)
}

/// A link's body in chain `algorithm`: under `gaugebot-chain-v2` a hidden draw record (one with
/// `"hidden": true`) also leaves out its `result`.
pub fn body_of(algorithm: &str, link: &Value) -> Value {
    match link {
        Value::Object(map) => {
            let hidden = algorithm == CHAIN_V2 && map.get("hidden") == Some(&Value::Bool(true));
            Value::Object(
                map.iter()
                    .filter(|(k, _)| !UNHASHED.contains(&k.as_str()))
                    .filter(|(k, _)| !(hidden && k.as_str() == "result"))
                    .map(|(k, v)| (k.clone(), v.clone()))
                    .collect(),
            )
        }
        other => other.clone(),
    }
}

/// The first link of a `gaugebot-chain-v2`: the v1 header with the chain's name, and also the
/// record's `format` and the game's `client_seed`; `setup` is the setup with its hidden fields
/// null (docs/DICE.md §8.6).
pub fn header_v2(
    format: &str,
    version: &str,
    game_id: &str,
    kind: &str,
    commitment: Option<&str>,
    client_seed: Option<&str>,
    setup: &Value,
) -> Value {
    let mut value = header(version, game_id, kind, commitment, setup);
    if let Value::Object(map) = &mut value {
        map.insert("chain".into(), Value::from(CHAIN_V2));
        map.insert("format".into(), Value::from(format));
        map.insert(
            "client_seed".into(),
            client_seed.map_or(Value::Null, Value::from),
        );
    }
    value
}

/// The chain's first link: what the record is a record of.
pub fn header(
    version: &str,
    game_id: &str,
    kind: &str,
    commitment: Option<&str>,
    setup: &Value,
) -> Value {
    let mut map = Map::new();
    map.insert("chain".into(), Value::from(CHAIN));
    map.insert("version".into(), Value::from(version));
    map.insert("game_id".into(), Value::from(game_id));
    map.insert("kind".into(), Value::from(kind));
    map.insert(
        "commitment".into(),
        commitment.map_or(Value::Null, Value::from),
    );
    map.insert("setup".into(), setup.clone());
    Value::Object(map)
}

/// The hash of a link whose predecessor hashed to `prev`.
pub fn link_hash(prev: &[u8; 32], body: &Value) -> [u8; 32] {
    link_hash_of(CHAIN, prev, body)
}

/// The hash of a link of chain `algorithm` (its domain tag) whose predecessor hashed to `prev`.
pub fn link_hash_of(algorithm: &str, prev: &[u8; 32], body: &Value) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(algorithm.as_bytes());
    hasher.update([0u8]);
    hasher.update(prev);
    hasher.update(canonical(body).as_bytes());
    hasher.finalize().into()
}

/// A chain being built or checked: the hash of its last link.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Chain {
    algorithm: &'static str,
    hash: [u8; 32],
    /// The last log entry linked, if any.
    pub seq: Option<i64>,
}

impl Chain {
    /// A chain holding only its header.
    pub fn start(header: &Value) -> Chain {
        Chain::start_of(CHAIN, header)
    }

    /// A chain of `algorithm` ([`CHAIN`] or [`CHAIN_V2`]) holding only its header.
    pub fn start_of(algorithm: &'static str, header: &Value) -> Chain {
        Chain {
            algorithm,
            hash: link_hash_of(algorithm, &[0u8; 32], &body_of(algorithm, header)),
            seq: None,
        }
    }

    /// The chain's algorithm.
    pub fn algorithm(&self) -> &'static str {
        self.algorithm
    }

    /// The hash of the last link, in hex.
    pub fn head(&self) -> String {
        hex::encode(self.hash)
    }

    /// The head as reports show it.
    pub fn short_head(&self) -> String {
        self.head()[..SHORT_HEAD].to_string()
    }

    /// Links `link` (its `prev` and `undone` fields, if any, are left out) and returns the
    /// `prev` it must carry: the hash of the link before it, in hex.
    pub fn link(&mut self, link: &Value) -> String {
        let prev = self.head();
        self.hash = link_hash_of(self.algorithm, &self.hash, &body_of(self.algorithm, link));
        prev
    }
}

/// The chain summary a record carries: the head, what it covers, and how many links.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ChainSummary {
    /// `gaugebot-chain-v1`.
    pub algorithm: String,
    /// The hash of the last link, 64 hex digits.
    pub head: String,
    /// The last log entry it covers (`null`: none, only the setup).
    pub seq: Option<i64>,
    /// How many log entries the record holds.
    pub entries: usize,
    /// How many draw records the record holds.
    pub draws: usize,
}

/// A head that players saw: `SEQ:HEAD` (`SEQ` a log entry's number, or `setup`; `HEAD` at least
/// the 12 hex digits a report shows).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Witness {
    /// The last entry it covers (`None`: the setup).
    pub seq: Option<i64>,
    /// The head's first hex digits, lowercase.
    pub head: String,
}

impl std::str::FromStr for Witness {
    type Err = String;

    fn from_str(text: &str) -> Result<Witness, String> {
        let (seq, head) = text
            .split_once(':')
            .ok_or_else(|| format!("a witness is SEQ:HEAD, not '{text}'"))?;
        let seq = match seq.trim().trim_start_matches('#') {
            "setup" => None,
            n => Some(
                n.parse::<i64>()
                    .ok()
                    .filter(|n| *n >= 0)
                    .ok_or_else(|| format!("a witness's SEQ is an entry number, not '{seq}'"))?,
            ),
        };
        let head = head.trim().to_ascii_lowercase();
        if head.len() < SHORT_HEAD
            || head.len() > 64
            || !head.bytes().all(|b| b.is_ascii_hexdigit())
        {
            return Err(format!(
                "a witness's HEAD is {SHORT_HEAD} to 64 hex digits, not '{head}'"
            ));
        }
        Ok(Witness { seq, head })
    }
}

impl std::fmt::Display for Witness {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.seq {
            Some(seq) => write!(f, "#{seq}:{}", self.head),
            None => write!(f, "setup:{}", self.head),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn the_canonical_text_sorts_keys_and_escapes_like_python() {
        let value = json!({"b": [1, "x\ny\u{1}\"\\é"], "a": {"d": null, "c": true}});
        assert_eq!(
            canonical(&value),
            r#"{"a":{"c":true,"d":null},"b":[1,"x\ny\u0001\"\\é"]}"#
        );
    }

    /// The test vectors of docs/DICE.md §9.5 (also in `tools/verify_draws.py --selftest`).
    #[test]
    fn chain_test_vectors() {
        let header = header(
            "gaugebot-dice-v2",
            "test-game",
            "irish-gauge",
            Some("630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"),
            &json!({"players": [], "setup": {}, "dice": "audited", "spec": "gaugebot-dice-v2"}),
        );
        let mut chain = Chain::start(&header);
        assert_eq!(chain.head(), VECTOR_HEADER);
        let entry = json!({"seq": 0, "entry": {"entry": "action", "seat": 0,
            "action": {"action": "bid", "amount": 7}}, "message_id": "1187654321098765436",
            "author_id": "1", "author_name": "ann", "text": "**bid 7**",
            "at": "2026-01-01T00:00:00Z", "undone": true, "prev": "ignored"});
        assert_eq!(chain.link(&entry), VECTOR_HEADER);
        assert_eq!(chain.head(), VECTOR_ENTRY_0);
        assert_eq!(chain.short_head(), &VECTOR_ENTRY_0[..12]);
    }

    /// The `gaugebot-chain-v2` vectors of docs/DICE.md §9.6: the header of a v3 record (its
    /// setup's hidden `deck` null) and a hidden draw record, whose result is not hashed.
    #[test]
    fn chain_v2_test_vectors() {
        let header = header_v2(
            "gaugebot-record-v3",
            "gaugebot-dice-v3",
            "test-privates",
            "privates",
            Some("630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd"),
            Some("1190123456789012345"),
            &json!({"players": [], "setup": {"deck": null}, "dice": "audited",
                "spec": "gaugebot-dice-v3", "setup_message": "1190123456789012345"}),
        );
        let mut chain = Chain::start_of(CHAIN_V2, &header);
        assert_eq!(
            chain.head(),
            "a316b81bcf78946ec437c4dfe4aa884dfafd7e5c1d74bf35d3b4449d6af978f3"
        );
        let mut deck = json!({"index": 0, "purpose": "privates-deck", "copies": 6,
            "population": [], "count": 54, "hidden": true, "fills": "deck",
            "sealed": "b4e923c93499edd4ed5df3664f0962917b3b9045e6da90faa23301e769a2918c",
            "result": null, "prev": "ignored"});
        let mut revealed = chain.clone();
        chain.link(&deck);
        deck["result"] = json!([25, 40, 20]);
        revealed.link(&deck);
        assert_eq!(chain.head(), revealed.head());
        assert_eq!(
            chain.head(),
            "b2ca3c26525b2b1ab454822ceaec38cc70d94ab85cb0e86d7e38d2b96177f7cb"
        );
    }

    const VECTOR_HEADER: &str = "08ec27565372d7b3395c6f943c8fee0e644b938738a7541c3efe2172a17042db";
    const VECTOR_ENTRY_0: &str = "4cb463913a798df42a43b2a0c2c90fff931facda933502c434047db1203992ed";

    #[test]
    fn witnesses_read() {
        let w: Witness = "17:ABCDEF012345".parse().expect("reads");
        assert_eq!(w.seq, Some(17));
        assert_eq!(w.head, "abcdef012345");
        let w: Witness = "setup:abcdef0123456".parse().expect("reads");
        assert_eq!(w.seq, None);
        assert!("17:abc".parse::<Witness>().is_err());
        assert!("x:abcdef012345".parse::<Witness>().is_err());
        assert!("abcdef012345".parse::<Witness>().is_err());
    }
}
