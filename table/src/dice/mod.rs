//! Auditable dice, game-agnostic: the seed, its commitment, and the random stream of one draw
//! (docs/DICE.md, version `gaugebot-dice-v1`). What is drawn for which purpose is the game's
//! business (each game plug-in names its purposes and recomputes its own records).
//!
//! Every random draw of a game is derived deterministically from a secret [`Seed`], the game id,
//! the draw's index (its position in the game's history, or a number the game defines) and its
//! purpose. At setup the bot publishes the seed's [commitment](Seed::commitment) (SHA-256); when
//! the seed is revealed, anyone can recompute every draw of an [`AuditExport`] with [`verify`] or
//! with the independent script `tools/verify_draws.py`. Because the index is an input, undoing an
//! action and taking it again from the same position gives the same draw.
//!
//! Only [`ChaCha20Rng::from_seed`] and [`RngCore::next_u32`] are used from the rand crates: the
//! integer and sampling algorithms are spelled out here and in the specification, so that a
//! dependency bump cannot change a draw (the fixed test vectors below guard that).

use std::fmt;

use rand_chacha::ChaCha20Rng;
use rand_core::{OsRng, RngCore, SeedableRng, TryRngCore};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use sha2::{Digest, Sha256};

/// The version of the dice specification implemented here; also the domain tag of every draw key.
pub const VERSION: &str = "gaugebot-dice-v1";
/// Specification v2: the draw key also holds the id of the message that triggered the draw, which
/// nobody (the operator included) knows before the message is posted.
pub const VERSION_V2: &str = "gaugebot-dice-v2";
/// Specification v3: the draw key holds the game's *client seed* (one value per game, fixed and
/// public at setup) instead of a per-draw message, so that a draw depends only on its position
/// in the game and nobody can veto it by failing to store it (docs/DICE.md §3.3). A v3 export is
/// valid only inside a game record of format `gaugebot-record-v3`.
pub const VERSION_V3: &str = "gaugebot-dice-v3";
/// The game record format a `gaugebot-dice-v3` export must have (docs/DICE.md §8.6).
pub const RECORD_V3: &str = "gaugebot-record-v3";
/// The domain tag of a hidden draw's sealed hash (docs/DICE.md §7.2).
pub const SEALED_TAG: &str = "gaugebot-sealed-v1";

/// Which draw key a game's dice use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, Default)]
pub enum Spec {
    /// `gaugebot-dice-v1`: seed, game id, index, purpose.
    #[default]
    #[serde(rename = "gaugebot-dice-v1")]
    V1,
    /// `gaugebot-dice-v2`: also the triggering message's id.
    #[serde(rename = "gaugebot-dice-v2")]
    V2,
    /// `gaugebot-dice-v3`: seed, game id, index, purpose and the game's client seed.
    #[serde(rename = "gaugebot-dice-v3")]
    V3,
}

impl Spec {
    /// The version string.
    pub fn name(self) -> &'static str {
        match self {
            Spec::V1 => VERSION,
            Spec::V2 => VERSION_V2,
            Spec::V3 => VERSION_V3,
        }
    }

    /// The spec of a version string.
    pub fn of(version: &str) -> Option<Spec> {
        match version {
            VERSION => Some(Spec::V1),
            VERSION_V2 => Some(Spec::V2),
            VERSION_V3 => Some(Spec::V3),
            _ => None,
        }
    }
}

/// Whether a message id can key a v2 draw: decimal digits (a Discord snowflake).
pub fn is_message_id(text: &str) -> bool {
    !text.is_empty() && text.len() <= 20 && text.bytes().all(|b| b.is_ascii_digit())
}

/// Length of a seed in bytes.
pub const SEED_LEN: usize = 32;

/// Errors of the dice.
///
/// No variant ever contains seed material: a malformed seed is described, never echoed.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DiceError {
    /// The operating system's random source failed.
    #[error("could not get a random seed from the operating system: {0}")]
    Os(String),
    /// A seed given as text is not 64 hexadecimal digits.
    #[error("invalid seed: {0}")]
    InvalidSeed(String),
    /// The export names a specification version this build does not implement.
    #[error(
        "unsupported dice version {found:?} (this build implements {VERSION:?}, {VERSION_V2:?} and {VERSION_V3:?})"
    )]
    UnsupportedVersion {
        /// The version found in the export.
        found: String,
    },
    /// The export has no seed yet: draws cannot be recomputed before the reveal.
    #[error("seed not yet revealed")]
    SeedNotRevealed,
    /// The revealed seed does not hash to the published commitment.
    #[error("commitment mismatch: sha256(seed) is {actual} but the commitment is {committed}")]
    CommitmentMismatch {
        /// The commitment published at setup (as found in the export).
        committed: String,
        /// The SHA-256 of the revealed seed.
        actual: String,
    },
    /// A `gaugebot-dice-v3` game record whose format is not `gaugebot-record-v3`, or whose
    /// `format` or `chain` was stripped (docs/DICE.md §8.6): v3 draws are recorded only in
    /// records of that format, or in a bare audit export (draws only, no record field).
    #[error("a {VERSION_V3} game record must have format gaugebot-record-v3 and its chain (its format or chain was stripped or changed)")]
    V3OutsideRecord,
    /// A draw record lacks an input, or has one out of range, or names an unknown purpose.
    #[error("draw record at index {index} ({purpose}) is invalid: {reason}")]
    InvalidRecord {
        /// The record's history index.
        index: u64,
        /// The record's purpose.
        purpose: String,
        /// What is wrong with it.
        reason: String,
    },
}

/// A secret 32-byte seed.
///
/// Its [`Debug`] output is `Seed(<redacted>)` and it has no `Display` or `Serialize`, so that it
/// cannot leak into logs by accident; use [`Seed::to_hex`] deliberately, at the reveal.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed([u8; SEED_LEN]);

impl Seed {
    /// A fresh seed from the operating system's random source.
    pub fn generate() -> Result<Seed, DiceError> {
        let mut bytes = [0u8; SEED_LEN];
        OsRng
            .try_fill_bytes(&mut bytes)
            .map_err(|err| DiceError::Os(err.to_string()))?;
        Ok(Seed(bytes))
    }

    /// A seed from its bytes.
    pub fn from_bytes(bytes: [u8; SEED_LEN]) -> Seed {
        Seed(bytes)
    }

    /// The seed's bytes.
    pub fn as_bytes(&self) -> &[u8; SEED_LEN] {
        &self.0
    }

    /// Parses exactly 64 hexadecimal digits (either case, no whitespace). The error never quotes
    /// the input.
    pub fn from_hex(text: &str) -> Result<Seed, DiceError> {
        if text.len() != 2 * SEED_LEN {
            return Err(DiceError::InvalidSeed(format!(
                "expected {} hexadecimal digits, got {} bytes of text",
                2 * SEED_LEN,
                text.len()
            )));
        }
        let mut bytes = [0u8; SEED_LEN];
        hex::decode_to_slice(text, &mut bytes).map_err(|_| {
            DiceError::InvalidSeed("the text is not hexadecimal digits only".to_owned())
        })?;
        Ok(Seed(bytes))
    }

    /// The seed as 64 lowercase hexadecimal digits (for the reveal only).
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// The public commitment: lowercase hex of SHA-256 of the 32 seed bytes.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Seed(<redacted>)")
    }
}

/// Appends `text` as UTF-8 prefixed by its byte length as a big-endian u32.
///
/// Texts longer than `u32::MAX` bytes are outside the specification; their prefix saturates.
fn push_length_prefixed(message: &mut Vec<u8>, text: &str) {
    let len = u32::try_from(text.len()).unwrap_or(u32::MAX);
    message.extend_from_slice(&len.to_be_bytes());
    message.extend_from_slice(text.as_bytes());
}

/// The draw key: SHA-256 of `"gaugebot-dice-v1" ‖ 0x00 ‖ seed ‖ len32(game id) ‖ game id ‖
/// u64be(index) ‖ len32(purpose) ‖ purpose` (lengths and integers big-endian).
pub fn draw_key(seed: &Seed, game_id: &str, index: u64, purpose: &str) -> [u8; 32] {
    let mut message = Vec::with_capacity(VERSION.len() + 1 + SEED_LEN + 16 + game_id.len() + 32);
    message.extend_from_slice(VERSION.as_bytes());
    message.push(0);
    message.extend_from_slice(&seed.0);
    push_length_prefixed(&mut message, game_id);
    message.extend_from_slice(&index.to_be_bytes());
    push_length_prefixed(&mut message, purpose);
    Sha256::digest(&message).into()
}

/// The v2 draw key: as [`draw_key`] with the domain tag `"gaugebot-dice-v2"`, followed by
/// `len32(message id) ‖ message id` (the id as decimal text).
pub fn draw_key_v2(
    seed: &Seed,
    game_id: &str,
    index: u64,
    purpose: &str,
    message_id: &str,
) -> [u8; 32] {
    let mut message = Vec::with_capacity(VERSION_V2.len() + 1 + SEED_LEN + 24 + game_id.len() + 64);
    message.extend_from_slice(VERSION_V2.as_bytes());
    message.push(0);
    message.extend_from_slice(&seed.0);
    push_length_prefixed(&mut message, game_id);
    message.extend_from_slice(&index.to_be_bytes());
    push_length_prefixed(&mut message, purpose);
    push_length_prefixed(&mut message, message_id);
    Sha256::digest(&message).into()
}

/// The v3 draw key: as [`draw_key`] with the domain tag `"gaugebot-dice-v3"`, followed by
/// `len32(client seed) ‖ client seed` (the game's client seed, UTF-8).
pub fn draw_key_v3(
    seed: &Seed,
    game_id: &str,
    index: u64,
    purpose: &str,
    client_seed: &str,
) -> [u8; 32] {
    let mut message = Vec::with_capacity(VERSION_V3.len() + 1 + SEED_LEN + 24 + game_id.len() + 64);
    message.extend_from_slice(VERSION_V3.as_bytes());
    message.push(0);
    message.extend_from_slice(&seed.0);
    push_length_prefixed(&mut message, game_id);
    message.extend_from_slice(&index.to_be_bytes());
    push_length_prefixed(&mut message, purpose);
    push_length_prefixed(&mut message, client_seed);
    Sha256::digest(&message).into()
}

/// The sealed hash of a hidden draw (docs/DICE.md §7.2): lowercase hex of
/// `SHA-256("gaugebot-sealed-v1" ‖ 0x00 ‖ key ‖ canonical(result))`, where `key` is the draw's
/// key (secret until the seed is revealed, so it salts the hash) and `canonical` the record's
/// canonical JSON text (§8.2).
pub fn sealed_hash(key: &[u8; 32], result: &Value) -> String {
    let mut hasher = Sha256::new();
    hasher.update(SEALED_TAG.as_bytes());
    hasher.update([0u8]);
    hasher.update(key);
    hasher.update(crate::record::chain::canonical(result).as_bytes());
    hex::encode(hasher.finalize())
}

/// The deterministic random stream of one draw: the ChaCha20 keystream (RFC 8439, key = the draw
/// key, nonce = 12 zero bytes, block counter from 0) read as little-endian u32 words.
pub struct DrawStream {
    rng: ChaCha20Rng,
}

impl fmt::Debug for DrawStream {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // The stream's state is derived from the seed: keep it out of logs too.
        f.write_str("DrawStream(<redacted>)")
    }
}

/// The stream of the draw with this game id, history index and purpose.
pub fn draw_stream(seed: &Seed, game_id: &str, index: u64, purpose: &str) -> DrawStream {
    DrawStream {
        rng: ChaCha20Rng::from_seed(draw_key(seed, game_id, index, purpose)),
    }
}

impl DrawStream {
    /// The next raw keystream word.
    pub fn next_u32(&mut self) -> u32 {
        self.rng.next_u32()
    }

    /// A uniform integer in `[0, n)` by rejection sampling: take `x = next_u32()`; with
    /// `limit = 2^32 − (2^32 mod n)`, draw again while `x ≥ limit`; the result is `x mod n`.
    ///
    /// # Panics
    ///
    /// If `n` is 0 (an empty range has no uniform element).
    pub fn uniform(&mut self, n: u32) -> u32 {
        assert!(n >= 1, "uniform(n) needs n >= 1");
        const RANGE: u64 = 1 << 32;
        let n = u64::from(n);
        let limit = RANGE - RANGE % n;
        loop {
            let x = u64::from(self.next_u32());
            if x < limit {
                // x mod n < n ≤ u32::MAX, so the narrowing is lossless.
                return (x % n) as u32;
            }
        }
    }

    /// Draws `k` items without replacement (all of them if `k` exceeds the list): each pick is
    /// `j = uniform(remaining length)`, then element `j` is removed, the rest keeping its order.
    /// Returns the items in drawn order.
    ///
    /// # Panics
    ///
    /// If the list has more than `u32::MAX` items.
    pub fn pick_without_replacement<T>(&mut self, mut list: Vec<T>, k: usize) -> Vec<T> {
        let picks = k.min(list.len());
        let mut picked = Vec::with_capacity(picks);
        for _ in 0..picks {
            let remaining = u32::try_from(list.len())
                .expect("lists of more than u32::MAX items are unsupported");
            let j = self.uniform(remaining) as usize;
            picked.push(list.remove(j));
        }
        picked
    }
}
/// The dice of one draw: the game's seed, id and spec, and (v2) the triggering message. Games
/// draw from it by index and purpose.
#[derive(Debug, Clone, Copy)]
pub struct DrawSource<'a> {
    /// The secret seed.
    pub seed: &'a Seed,
    /// The game id.
    pub game_id: &'a str,
    /// Which key.
    pub spec: Spec,
    /// The id of the message that triggered the draw (v2), or the game's client seed (v3).
    pub message_id: &'a str,
}

impl<'a> DrawSource<'a> {
    /// A v1 source (no message in the key).
    pub fn v1(seed: &'a Seed, game_id: &'a str) -> DrawSource<'a> {
        DrawSource {
            seed,
            game_id,
            spec: Spec::V1,
            message_id: "",
        }
    }

    /// The key of the draw with this index and purpose.
    pub fn key(&self, index: u64, purpose: &str) -> [u8; 32] {
        match self.spec {
            Spec::V1 => draw_key(self.seed, self.game_id, index, purpose),
            Spec::V2 => draw_key_v2(self.seed, self.game_id, index, purpose, self.message_id),
            Spec::V3 => draw_key_v3(self.seed, self.game_id, index, purpose, self.message_id),
        }
    }

    /// The stream of the draw with this index and purpose.
    pub fn stream(&self, index: u64, purpose: &str) -> DrawStream {
        DrawStream {
            rng: ChaCha20Rng::from_seed(self.key(index, purpose)),
        }
    }
}

/// One draw as recorded for the audit: its index and purpose, the inputs its purpose needs
/// (`supply`, `players`, … — defined by the game that draws it) and its result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrawRecord {
    /// The index the draw was derived from (0 for setup draws).
    pub index: u64,
    /// The purpose, e.g. `dividend-draw`.
    pub purpose: String,
    /// The inputs the purpose needs, as named fields of the record.
    #[serde(flatten)]
    pub inputs: Map<String, Value>,
    /// The result: a list of numbers or of names.
    pub result: Value,
}

impl DrawRecord {
    /// A record with its inputs.
    pub fn new(
        index: u64,
        purpose: &str,
        inputs: impl IntoIterator<Item = (&'static str, Value)>,
        result: Value,
    ) -> DrawRecord {
        DrawRecord {
            index,
            purpose: purpose.to_owned(),
            inputs: inputs.into_iter().map(|(k, v)| (k.to_owned(), v)).collect(),
            result,
        }
    }

    /// The record, self-described (docs/DICE.md §7.1): `population`, the list drawn from in
    /// order, and `count`, how many were drawn without replacement (§6), so that a verifier can
    /// recompute it without knowing the purpose.
    pub fn with_population(mut self, population: Vec<Value>, count: usize) -> DrawRecord {
        self.inputs
            .insert("population".into(), Value::Array(population));
        self.inputs.insert("count".into(), Value::from(count));
        self
    }

    /// The draw of a self-described record (§7.1) from `source`: `count` items of `population`
    /// without replacement; `None` when the record does not describe itself.
    pub fn recompute_described(&self, source: DrawSource<'_>) -> Option<Result<Value, DiceError>> {
        let population = self.input("population")?.as_array()?.clone();
        let Some(count) = self.input("count").and_then(Value::as_u64) else {
            return Some(Err(self.invalid("count is not a non-negative integer")));
        };
        if population.len() > u32::MAX as usize {
            return Some(Err(self.invalid("the population is too large")));
        }
        let count = usize::try_from(count).unwrap_or(usize::MAX);
        Some(Ok(Value::Array(
            source
                .stream(self.index, &self.purpose)
                .pick_without_replacement(population, count),
        )))
    }

    /// The record, declared hidden by its game (docs/DICE.md §7.2): what it drew is kept out of
    /// every output until the seed is revealed (a deck's order); `fills` names the field of the
    /// game's own setup that holds its result, if one does (that field is hidden too).
    pub fn hidden(mut self, fills: Option<&str>) -> DrawRecord {
        self.inputs.insert("hidden".into(), Value::Bool(true));
        if let Some(field) = fills {
            self.inputs.insert("fills".into(), Value::from(field));
        }
        self
    }

    /// Whether the game declared this draw hidden until the reveal.
    pub fn is_hidden(&self) -> bool {
        self.input("hidden") == Some(&Value::Bool(true))
    }

    /// The field of the game's setup this hidden draw fills, if any.
    pub fn fills(&self) -> Option<&str> {
        self.input("fills").and_then(Value::as_str)
    }

    /// One input, if present.
    pub fn input(&self, name: &str) -> Option<&Value> {
        self.inputs.get(name)
    }

    /// The error for a record that lacks an input or has one out of range.
    pub fn invalid(&self, reason: impl Into<String>) -> DiceError {
        DiceError::InvalidRecord {
            index: self.index,
            purpose: self.purpose.clone(),
            reason: reason.into(),
        }
    }
}

/// Recomputes draw records: each game plug-in knows its own purposes.
pub trait Recompute {
    /// The expected result of `record` drawn from `source`, `None` if its purpose is not this
    /// game's.
    fn recompute(
        &self,
        record: &DrawRecord,
        source: DrawSource<'_>,
    ) -> Option<Result<Value, DiceError>>;
}

/// All draws of a game, for publication: the commitment from setup, the seed once revealed, and
/// every draw with its inputs. `tools/verify_draws.py` reads this JSON.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditExport {
    /// The specification version, `gaugebot-dice-v1`.
    pub version: String,
    /// The game id the draws were derived from.
    pub game_id: String,
    /// Lowercase hex SHA-256 of the seed, published at setup.
    pub commitment: String,
    /// The seed in hex, `None` (JSON `null`) until revealed.
    #[serde(default)]
    pub seed: Option<String>,
    /// The draws in the order they were made.
    pub draws: Vec<DrawRecord>,
    /// The game record's format, when the export is read from a game record
    /// (`gaugebot-record-v3` is the only one a `gaugebot-dice-v3` export may have). Read, never
    /// written: an export written out is not a game record.
    #[serde(default, skip_serializing)]
    pub format: Option<String>,
    /// The game's client seed (`gaugebot-dice-v3`: an input of every draw key).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub client_seed: Option<String>,
}

impl AuditExport {
    /// An export before the reveal: the commitment only.
    pub fn sealed(game_id: &str, seed: &Seed, draws: Vec<DrawRecord>) -> AuditExport {
        AuditExport {
            version: VERSION.to_owned(),
            game_id: game_id.to_owned(),
            commitment: seed.commitment(),
            seed: None,
            draws,
            format: None,
            client_seed: None,
        }
    }

    /// An export after the reveal: the commitment and the seed.
    pub fn revealed(game_id: &str, seed: &Seed, draws: Vec<DrawRecord>) -> AuditExport {
        AuditExport {
            seed: Some(seed.to_hex()),
            ..AuditExport::sealed(game_id, seed, draws)
        }
    }
}

/// A recorded draw that differs from its recomputation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Mismatch {
    /// The record's history index.
    pub index: u64,
    /// The record's purpose.
    pub purpose: String,
    /// The recomputed result.
    pub expected: Value,
    /// The result in the export.
    pub recorded: Value,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "draw at index {} ({}): expected {} but recorded {}",
            self.index, self.purpose, self.expected, self.recorded
        )
    }
}

/// The outcome of [`verify`] once the commitment matched.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifyReport {
    /// The game id of the export.
    pub game_id: String,
    /// How many draws were recomputed.
    pub draws_checked: usize,
    /// Every draw whose recorded result differs from its recomputation.
    pub mismatches: Vec<Mismatch>,
}

impl VerifyReport {
    /// Whether every draw matched.
    pub fn is_ok(&self) -> bool {
        self.mismatches.is_empty()
    }
}

/// Verifies an export: the version, that SHA-256 of the revealed seed is the commitment, then
/// recomputes every draw with the games' [`Recompute`] and reports each mismatch.
///
/// Errors (rather than mismatches) for an unsupported version, an unrevealed or malformed seed, a
/// commitment mismatch, or a record without the inputs its purpose needs.
pub fn verify(export: &AuditExport, games: &dyn Recompute) -> Result<VerifyReport, DiceError> {
    let Some(spec) = Spec::of(&export.version) else {
        return Err(DiceError::UnsupportedVersion {
            found: export.version.clone(),
        });
    };
    if spec == Spec::V3 && export.format.as_deref().is_some_and(|f| f != RECORD_V3) {
        return Err(DiceError::V3OutsideRecord);
    }
    let seed_hex = export.seed.as_deref().ok_or(DiceError::SeedNotRevealed)?;
    let seed = Seed::from_hex(seed_hex)?;
    let actual = seed.commitment();
    if !actual.eq_ignore_ascii_case(&export.commitment) {
        return Err(DiceError::CommitmentMismatch {
            committed: export.commitment.clone(),
            actual,
        });
    }
    let mut mismatches = Vec::new();
    for record in &export.draws {
        let message_id = match spec {
            Spec::V1 => "",
            Spec::V3 => {
                if export.client_seed.is_none() {
                    return Err(
                        record.invalid("a v3 export needs client_seed, the game's client seed")
                    );
                }
                if record.input("message_id").is_some() {
                    return Err(record.invalid(
                        "a v3 record has no message_id: its key is its position and the game's client seed",
                    ));
                }
                export.client_seed.as_deref().unwrap_or("")
            }
            Spec::V2 => match record.input("message_id").and_then(Value::as_str) {
                Some(id) if is_message_id(id) => id,
                _ => {
                    return Err(record.invalid(
                        "a v2 record needs message_id, the message's id as decimal digits",
                    ))
                }
            },
        };
        let source = DrawSource {
            seed: &seed,
            game_id: &export.game_id,
            spec,
            message_id,
        };
        // A purpose no game here knows is recomputed from the record's own description.
        let expected = games
            .recompute(record, source)
            .or_else(|| record.recompute_described(source))
            .unwrap_or_else(|| Err(record.invalid("unknown purpose")))?;
        if spec == Spec::V3 && record.is_hidden() {
            // A hidden draw's sealed hash, published before the reveal, binds its result.
            let sealed = sealed_hash(&source.key(record.index, &record.purpose), &expected);
            if record.input("sealed").and_then(Value::as_str) != Some(sealed.as_str()) {
                mismatches.push(Mismatch {
                    index: record.index,
                    purpose: format!("{} (sealed hash)", record.purpose),
                    expected: Value::from(sealed),
                    recorded: record.input("sealed").cloned().unwrap_or(Value::Null),
                });
            }
        }
        if expected != record.result {
            mismatches.push(Mismatch {
                index: record.index,
                purpose: record.purpose.clone(),
                expected,
                recorded: record.result.clone(),
            });
        }
    }
    Ok(VerifyReport {
        game_id: export.game_id.clone(),
        draws_checked: export.draws.len(),
        mismatches,
    })
}

/// A fresh token for a game's web page: 128 bits from the operating system's random source, as
/// 32 hex digits (all zeros only if that source failed: the store then keeps a page nobody
/// can be sent to by chance, and the web server refuses nothing else).
pub fn fresh_page_token() -> String {
    let mut bytes = [0u8; 16];
    if OsRng.try_fill_bytes(&mut bytes).is_err() {
        tracing::error!("the OS's random source failed: a game's page token is not random");
    }
    hex::encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    // Purposes of the first game, used here as plain strings (the keys are game-agnostic).
    const PURPOSE_PLAYER_ORDER: &str = "player-order";
    const PURPOSE_CITY_CUBES: &str = "city-cubes";
    const PURPOSE_DIVIDEND_DRAW: &str = "dividend-draw";

    // Fixed test vectors, computed independently by `python3 tools/verify_draws.py --selftest`
    // (pure-Python ChaCha20, cross-checked against OpenSSL's ChaCha20). They guard against a
    // dependency bump changing a draw: never edit them to make a test pass.
    const TEST_SEED_HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    const TEST_GAME_ID: &str = "test-game";
    const TEST_COMMITMENT: &str =
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";
    const TEST_KEY_PLAYER_ORDER: &str =
        "03253273b50e835de9fcc2d1efc1ce085da25d5f8aa01564bfd6a0b6b3b8e878";
    const TEST_KEY_CITY_CUBES: &str =
        "2494de6ad5ad77b969a6b173af2bb45cc3800843524330ccc8391d3721834c54";
    const TEST_KEY_DIVIDEND_12: &str =
        "7fde711ab856062cdc263436de0ef851b05f9de224bf5a34f575d6ef1c2f9d14";
    const TEST_WORDS_PLAYER_ORDER: [u32; 4] = [2570235227, 2846557017, 3453062251, 4049679983];
    const REJECTION_BOUND: u32 = (1 << 31) + 1;
    const TEST_REJECTION: [u32; 4] = [373383135, 1783334843, 313863242, 1385407034];

    fn test_seed() -> Seed {
        Seed::from_hex(TEST_SEED_HEX).expect("test seed")
    }

    fn quarter_round(s: &mut [u32; 16], a: usize, b: usize, c: usize, d: usize) {
        s[a] = s[a].wrapping_add(s[b]);
        s[d] = (s[d] ^ s[a]).rotate_left(16);
        s[c] = s[c].wrapping_add(s[d]);
        s[b] = (s[b] ^ s[c]).rotate_left(12);
        s[a] = s[a].wrapping_add(s[b]);
        s[d] = (s[d] ^ s[a]).rotate_left(8);
        s[c] = s[c].wrapping_add(s[d]);
        s[b] = (s[b] ^ s[c]).rotate_left(7);
    }

    /// RFC 8439 §2.3 block function, written from the RFC: 16 output words.
    fn chacha20_block(key: &[u8; 32], counter: u32, nonce: &[u8; 12]) -> [u32; 16] {
        let le = |b: &[u8]| u32::from_le_bytes([b[0], b[1], b[2], b[3]]);
        let mut state = [0u32; 16];
        state[..4].copy_from_slice(&[0x6170_7865, 0x3320_646e, 0x7962_2d32, 0x6b20_6574]);
        for i in 0..8 {
            state[4 + i] = le(&key[4 * i..]);
        }
        state[12] = counter;
        for i in 0..3 {
            state[13 + i] = le(&nonce[4 * i..]);
        }
        let mut working = state;
        for _ in 0..10 {
            quarter_round(&mut working, 0, 4, 8, 12);
            quarter_round(&mut working, 1, 5, 9, 13);
            quarter_round(&mut working, 2, 6, 10, 14);
            quarter_round(&mut working, 3, 7, 11, 15);
            quarter_round(&mut working, 0, 5, 10, 15);
            quarter_round(&mut working, 1, 6, 11, 12);
            quarter_round(&mut working, 2, 7, 8, 13);
            quarter_round(&mut working, 3, 4, 9, 14);
        }
        for (w, s) in working.iter_mut().zip(state) {
            *w = w.wrapping_add(s);
        }
        working
    }

    /// The keystream words of RFC 8439 ChaCha20 with a zero nonce, counter from 0.
    fn independent_words(key: &[u8; 32], count: usize) -> Vec<u32> {
        (0u32..)
            .flat_map(|counter| chacha20_block(key, counter, &[0; 12]))
            .take(count)
            .collect()
    }

    #[test]
    fn independent_chacha20_matches_rfc8439_block_vector() {
        // RFC 8439 §2.3.2.
        let key: [u8; 32] = std::array::from_fn(|i| i as u8);
        let nonce = [0, 0, 0, 0x09, 0, 0, 0, 0x4a, 0, 0, 0, 0];
        let block = chacha20_block(&key, 1, &nonce);
        let serialized: Vec<u8> = block.iter().flat_map(|w| w.to_le_bytes()).collect();
        assert_eq!(
            hex::encode(serialized),
            "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e\
             d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
        );
    }

    #[test]
    fn draw_stream_is_rfc8439_chacha20_with_zero_nonce() {
        let seed = test_seed();
        for (index, purpose) in [
            (0, PURPOSE_PLAYER_ORDER),
            (0, PURPOSE_CITY_CUBES),
            (12, PURPOSE_DIVIDEND_DRAW),
            (u64::MAX, "other"),
        ] {
            let key = draw_key(&seed, TEST_GAME_ID, index, purpose);
            // 300 words: several of rand_chacha's 4-block buffers, so counters 0..=18.
            let expected = independent_words(&key, 300);
            let mut stream = draw_stream(&seed, TEST_GAME_ID, index, purpose);
            let actual: Vec<u32> = (0..300).map(|_| stream.next_u32()).collect();
            assert_eq!(actual, expected, "index {index} purpose {purpose}");
        }
    }

    #[test]
    fn fixed_vector_commitment_and_keys() {
        let seed = test_seed();
        assert_eq!(seed.commitment(), TEST_COMMITMENT);
        assert_eq!(
            hex::encode(draw_key(&seed, TEST_GAME_ID, 0, PURPOSE_PLAYER_ORDER)),
            TEST_KEY_PLAYER_ORDER
        );
        assert_eq!(
            hex::encode(draw_key(&seed, TEST_GAME_ID, 0, PURPOSE_CITY_CUBES)),
            TEST_KEY_CITY_CUBES
        );
        assert_eq!(
            hex::encode(draw_key(&seed, TEST_GAME_ID, 12, PURPOSE_DIVIDEND_DRAW)),
            TEST_KEY_DIVIDEND_12
        );
    }

    #[test]
    fn fixed_vector_raw_words() {
        let mut stream = draw_stream(&test_seed(), TEST_GAME_ID, 0, PURPOSE_PLAYER_ORDER);
        let words: Vec<u32> = (0..4).map(|_| stream.next_u32()).collect();
        assert_eq!(words, TEST_WORDS_PLAYER_ORDER);
    }

    #[test]
    fn fixed_vector_rejection_sampling() {
        // With n = 2^31 + 1 the limit is 2^31 + 1, so about half the words are rejected: the
        // first four words of this stream are all rejected, the fifth is the first result.
        let mut stream = draw_stream(&test_seed(), TEST_GAME_ID, 0, PURPOSE_PLAYER_ORDER);
        let results: Vec<u32> = (0..4).map(|_| stream.uniform(REJECTION_BOUND)).collect();
        assert_eq!(results, TEST_REJECTION);
        assert!(TEST_WORDS_PLAYER_ORDER
            .iter()
            .all(|&w| w >= REJECTION_BOUND));
    }

    #[test]
    fn seed_hex_round_trip_and_commitment() {
        let seed = Seed::generate().expect("OS randomness");
        let again = Seed::from_hex(&seed.to_hex()).expect("round trip");
        assert_eq!(seed, again);
        assert_eq!(seed.to_hex().len(), 64);
        assert_eq!(seed.to_hex(), seed.to_hex().to_lowercase());
        assert_eq!(
            seed.commitment(),
            hex::encode(Sha256::digest(seed.as_bytes()))
        );
        assert_ne!(seed.commitment(), seed.to_hex());
        assert_ne!(Seed::generate().expect("OS randomness"), seed);
        // Upper case is accepted too.
        assert_eq!(
            Seed::from_hex(&TEST_SEED_HEX.to_uppercase()).expect("upper case"),
            test_seed()
        );
    }

    #[test]
    fn seed_from_hex_rejects_bad_text_without_quoting_it() {
        let too_short = &TEST_SEED_HEX[..62];
        let not_hex = format!("{}zz", &TEST_SEED_HEX[..62]);
        let spaced = format!(" {}", &TEST_SEED_HEX[..63]);
        for text in [too_short, not_hex.as_str(), spaced.as_str(), ""] {
            let err = Seed::from_hex(text).expect_err("must be rejected");
            assert!(matches!(err, DiceError::InvalidSeed(_)));
            let shown = format!("{err} {err:?}");
            assert!(!shown.contains("0a0b0c0d"), "error leaks the text: {shown}");
        }
    }

    #[test]
    fn debug_does_not_leak_the_seed() {
        let seed = test_seed();
        assert_eq!(format!("{seed:?}"), "Seed(<redacted>)");
        assert_eq!(format!("{seed:#?}"), "Seed(<redacted>)");
        let stream = draw_stream(&seed, TEST_GAME_ID, 0, PURPOSE_CITY_CUBES);
        let shown = format!("{stream:?}");
        assert!(!shown.contains("0a0b") && !shown.contains(TEST_KEY_CITY_CUBES));
        let wrapped = format!("{:?}", Some(seed));
        assert!(!wrapped.contains("0a0b"), "{wrapped}");
    }

    #[test]
    fn uniform_one_is_always_zero() {
        let mut stream = draw_stream(&test_seed(), TEST_GAME_ID, 1, "uniform-one");
        for _ in 0..1000 {
            assert_eq!(stream.uniform(1), 0);
        }
    }

    #[test]
    fn uniform_three_is_roughly_uniform() {
        let mut stream = draw_stream(&test_seed(), TEST_GAME_ID, 2, "uniform-three");
        let mut counts = [0u32; 3];
        for _ in 0..30_000 {
            counts[stream.uniform(3) as usize] += 1;
        }
        // Expected 10000 each, standard deviation about 82.
        for count in counts {
            assert!((9_500..=10_500).contains(&count), "{counts:?}");
        }
    }

    #[test]
    fn uniform_stays_in_range_and_follows_the_rejection_rule() {
        let seed = test_seed();
        for n in [
            2u32,
            3,
            5,
            7,
            12,
            1000,
            (1 << 31) - 1,
            1 << 31,
            (1 << 31) + 1,
            u32::MAX,
        ] {
            let key = draw_key(&seed, TEST_GAME_ID, u64::from(n), "uniform-range");
            let words = independent_words(&key, 2000);
            let limit = (1u64 << 32) - (1u64 << 32) % u64::from(n);
            let mut expected = words
                .iter()
                .filter(|&&w| u64::from(w) < limit)
                .map(|&w| w % n);
            let mut stream = draw_stream(&seed, TEST_GAME_ID, u64::from(n), "uniform-range");
            for _ in 0..200 {
                let x = stream.uniform(n);
                assert!(x < n);
                assert_eq!(Some(x), expected.next(), "n = {n}");
            }
        }
    }

    #[test]
    #[should_panic(expected = "n >= 1")]
    fn uniform_zero_panics() {
        draw_stream(&test_seed(), TEST_GAME_ID, 0, "zero").uniform(0);
    }

    #[test]
    fn pick_without_replacement_takes_distinct_items() {
        let mut stream = draw_stream(&test_seed(), TEST_GAME_ID, 3, "picks");
        let list: Vec<u32> = (0..20).collect();
        let mut all = stream.pick_without_replacement(list.clone(), 20);
        all.sort_unstable();
        assert_eq!(all, list);
        let some = stream.pick_without_replacement(list.clone(), 5);
        assert_eq!(some.len(), 5);
        assert!(some.iter().all(|x| list.contains(x)));
        assert!(stream.pick_without_replacement(list.clone(), 0).is_empty());
        assert_eq!(stream.pick_without_replacement(vec!['a', 'b'], 9).len(), 2);
        assert!(stream
            .pick_without_replacement(Vec::<u8>::new(), 3)
            .is_empty());
    }

    #[test]
    fn pick_follows_the_specified_algorithm() {
        let seed = test_seed();
        let key = draw_key(&seed, TEST_GAME_ID, 4, "algorithm");
        let words = independent_words(&key, 64);
        // No rejection for these tiny n with these words (checked by the limit below).
        let mut remaining: Vec<u32> = (10..22).collect();
        let mut expected = Vec::new();
        let mut words = words.into_iter();
        while expected.len() < 8 {
            let n = remaining.len() as u64;
            let w = u64::from(words.next().expect("enough words"));
            if w >= (1u64 << 32) - (1u64 << 32) % n {
                continue;
            }
            expected.push(remaining.remove((w % n) as usize));
        }
        let mut stream = draw_stream(&seed, TEST_GAME_ID, 4, "algorithm");
        assert_eq!(
            stream.pick_without_replacement((10..22).collect(), 8),
            expected
        );
    }

    #[test]
    fn other_position_purpose_or_game_other_stream() {
        let seed = test_seed();
        let first = |index, purpose, game: &str| {
            let mut stream = draw_stream(&seed, game, index, purpose);
            [stream.next_u32(), stream.next_u32()]
        };
        let base = first(40, PURPOSE_DIVIDEND_DRAW, TEST_GAME_ID);
        assert_eq!(base, first(40, PURPOSE_DIVIDEND_DRAW, TEST_GAME_ID));
        assert_ne!(base, first(41, PURPOSE_DIVIDEND_DRAW, TEST_GAME_ID));
        assert_ne!(base, first(40, PURPOSE_CITY_CUBES, TEST_GAME_ID));
        assert_ne!(base, first(40, PURPOSE_DIVIDEND_DRAW, "other-game"));
        // The length prefixes keep ("ab", "c") and ("a", "bc") apart.
        assert_ne!(draw_key(&seed, "ab", 0, "c"), draw_key(&seed, "a", 0, "bc"));
    }

    /// A game of one purpose, `coin`: one pick of [0, 1].
    struct Coin;

    impl Recompute for Coin {
        fn recompute(
            &self,
            record: &DrawRecord,
            source: DrawSource<'_>,
        ) -> Option<Result<Value, DiceError>> {
            (record.purpose == "coin").then(|| {
                let mut stream = source.stream(record.index, "coin");
                Ok(Value::from(stream.uniform(2)))
            })
        }
    }

    fn coin(seed: &Seed, index: u64) -> DrawRecord {
        let expected = Coin
            .recompute(
                &DrawRecord::new(index, "coin", [], Value::Null),
                DrawSource::v1(seed, "g"),
            )
            .expect("coin purpose")
            .expect("recomputes");
        DrawRecord::new(index, "coin", [("note", Value::from("x"))], expected)
    }

    #[test]
    fn verify_uses_the_games_recomputation_and_reports_mismatches() {
        let seed = test_seed();
        let mut export =
            AuditExport::revealed("g", &seed, (0..20).map(|i| coin(&seed, i)).collect());
        let json = serde_json::to_value(&export).expect("serialize");
        assert_eq!(
            json["draws"][0]["note"], "x",
            "inputs are fields of the record"
        );
        let again: AuditExport = serde_json::from_value(json).expect("parse");
        assert_eq!(again, export);
        assert!(verify(&export, &Coin).expect("verifies").is_ok());
        let flipped = Value::from(1 - export.draws[3].result.as_u64().expect("number"));
        export.draws[3].result = flipped;
        let report = verify(&export, &Coin).expect("checkable");
        assert_eq!(report.mismatches.len(), 1);
        assert_eq!(report.mismatches[0].index, 3);
        export
            .draws
            .push(DrawRecord::new(0, "dice", [], Value::Null));
        assert!(matches!(
            verify(&export, &Coin),
            Err(DiceError::InvalidRecord { .. })
        ));
    }

    #[test]
    fn verify_needs_the_revealed_seed_the_commitment_and_the_version() {
        let seed = test_seed();
        let sealed = AuditExport::sealed("g", &seed, vec![coin(&seed, 1)]);
        assert_eq!(verify(&sealed, &Coin), Err(DiceError::SeedNotRevealed));
        let json = serde_json::to_value(&sealed).expect("serialize");
        assert_eq!(json["seed"], Value::Null);
        assert!(!json.to_string().contains(TEST_SEED_HEX));
        let mut wrong = AuditExport::revealed("g", &seed, Vec::new());
        wrong.seed = Some("11".repeat(32));
        assert!(matches!(
            verify(&wrong, &Coin),
            Err(DiceError::CommitmentMismatch { .. })
        ));
        let mut old = AuditExport::revealed("g", &seed, Vec::new());
        old.version = "gaugebot-dice-v0".to_owned();
        assert!(matches!(
            verify(&old, &Coin),
            Err(DiceError::UnsupportedVersion { .. })
        ));
    }

    // Fixed v2 vectors, computed by `python3 tools/verify_draws.py --selftest` and cross-checked
    // with OpenSSL (docs/DICE.md section 9.2).
    const TEST_V2_SETUP_MESSAGE: &str = "1187654321098765435";
    const TEST_V2_DIVIDEND_MESSAGE: &str = "1187654987654321098";

    #[test]
    fn fixed_vector_v2_keys() {
        let seed = test_seed();
        assert_eq!(
            hex::encode(draw_key_v2(
                &seed,
                TEST_GAME_ID,
                0,
                PURPOSE_PLAYER_ORDER,
                TEST_V2_SETUP_MESSAGE
            )),
            "4893a2f636216eddc0556d9786b457714dbf153815ce047d25bb0a4dd3dad21e"
        );
        assert_eq!(
            hex::encode(draw_key_v2(
                &seed,
                TEST_GAME_ID,
                0,
                PURPOSE_CITY_CUBES,
                TEST_V2_SETUP_MESSAGE
            )),
            "30e4946ab88a4f95c8a3d8b522981457a9f82373974a1deb5b451b07e66bdbae"
        );
        assert_eq!(
            hex::encode(draw_key_v2(
                &seed,
                TEST_GAME_ID,
                12,
                PURPOSE_DIVIDEND_DRAW,
                TEST_V2_DIVIDEND_MESSAGE
            )),
            "08b1d97c39a94006c998cf725c2b0675346c062567b13a3fec7d7292a54e6cdc"
        );
        let source = DrawSource {
            seed: &seed,
            game_id: TEST_GAME_ID,
            spec: Spec::V2,
            message_id: TEST_V2_SETUP_MESSAGE,
        };
        let words: Vec<u32> = {
            let mut stream = source.stream(0, PURPOSE_PLAYER_ORDER);
            (0..4).map(|_| stream.next_u32()).collect()
        };
        assert_eq!(words, [4123278155, 2318355670, 3218373244, 3075799232]);
        // Another message, another draw: nobody knows a v2 draw before its message exists.
        let other = DrawSource {
            message_id: TEST_V2_DIVIDEND_MESSAGE,
            ..source
        };
        assert_ne!(other.stream(0, PURPOSE_PLAYER_ORDER).next_u32(), words[0]);
    }

    #[test]
    fn v2_records_need_their_message_id() {
        let seed = test_seed();
        let mut record = coin(&seed, 1);
        let mut export = AuditExport::revealed("g", &seed, vec![record.clone()]);
        export.version = VERSION_V2.into();
        assert!(matches!(
            verify(&export, &Coin),
            Err(DiceError::InvalidRecord { .. })
        ));
        record
            .inputs
            .insert("message_id".into(), Value::from("12345"));
        let v2 = Coin
            .recompute(
                &record,
                DrawSource {
                    seed: &seed,
                    game_id: "g",
                    spec: Spec::V2,
                    message_id: "12345",
                },
            )
            .expect("coin")
            .expect("recomputes");
        record.result = v2;
        export.draws = vec![record];
        assert!(verify(&export, &Coin).expect("verifies").is_ok());
        assert!(is_message_id("1187654321098765435"));
        assert!(!is_message_id("abc") && !is_message_id(""));
    }

    /// A record that describes itself (§7.1) is recomputed with no game knowing its purpose.
    #[test]
    fn a_described_record_of_an_unknown_purpose_is_recomputed() {
        struct NoGame;
        impl Recompute for NoGame {
            fn recompute(
                &self,
                _: &DrawRecord,
                _: DrawSource<'_>,
            ) -> Option<Result<Value, DiceError>> {
                None
            }
        }
        let seed = test_seed();
        let population: Vec<Value> = ["a", "b", "c", "d", "e"]
            .into_iter()
            .map(Value::from)
            .collect();
        let source = DrawSource::v1(&seed, "test-game");
        let drawn = source
            .stream(4, "test-unknown")
            .pick_without_replacement(population.clone(), 3);
        let record = DrawRecord::new(4, "test-unknown", [], Value::Array(drawn))
            .with_population(population, 3);
        let mut export = AuditExport::revealed("test-game", &seed, vec![record.clone()]);
        let report = verify(&export, &NoGame).expect("verifies");
        assert!(report.is_ok(), "{report:?}");
        export.draws[0].result = Value::Array(vec![Value::from("a")]);
        assert_eq!(
            verify(&export, &NoGame).expect("verifies").mismatches.len(),
            1
        );
        export.draws[0].inputs.remove("population");
        assert!(
            verify(&export, &NoGame).is_err(),
            "no description: unknown purpose"
        );
    }
}
