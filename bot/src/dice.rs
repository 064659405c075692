//! Auditable dice: see docs/DICE.md (version `gaugebot-dice-v1`).
//!
//! Every random draw of a game is derived deterministically from a secret [`Seed`], the game id,
//! the draw's index in the game's current action history and its purpose. At setup the bot
//! publishes the seed's [commitment](Seed::commitment) (SHA-256); when the seed is revealed, anyone
//! can recompute every draw of an [`AuditExport`] with [`verify`] or with the independent script
//! `tools/verify_draws.py`. Because the history index is an input, undoing an action and taking it
//! again from the same position gives the same draw.
//!
//! Only [`ChaCha20Rng::from_seed`] and [`RngCore::next_u32`] are used from the rand crates: the
//! integer and sampling algorithms are spelled out here and in the specification, so that a
//! dependency bump cannot change a draw (the fixed test vectors below guard that).

use std::fmt;

use irish_gauge::{Colour, CubeCounts};
use rand_chacha::ChaCha20Rng;
use rand_core::{OsRng, RngCore, SeedableRng, TryRngCore};
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};

/// The version of the dice specification implemented here; also the domain tag of every draw key.
pub const VERSION: &str = "gaugebot-dice-v1";

/// Purpose of the seating roll (drawn at history index 0).
pub const PURPOSE_PLAYER_ORDER: &str = "player-order";
/// Purpose of the setup roll of the eight city cubes (drawn at history index 0).
pub const PURPOSE_CITY_CUBES: &str = "city-cubes";
/// Purpose of a dividend draw of cubes from the supply (drawn at the dividend call's index).
pub const PURPOSE_DIVIDEND_DRAW: &str = "dividend-draw";

/// The cities that receive a setup cube, in the order of the numbers of [`city_cubes`].
pub use irish_gauge::board::CITY_DRAW_ORDER as CITY_CUBE_CITIES;

/// The fewest players of a game (the lower bound of a `player-order` record).
pub const MIN_PLAYERS: usize = 3;
/// The most players of a game (the upper bound of a `player-order` record).
pub const MAX_PLAYERS: usize = 5;
/// Cubes drawn by a dividend (fewer if the supply holds fewer).
pub const DIVIDEND_DRAW_SIZE: usize = 3;

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
    #[error("unsupported dice version {found:?} (this build implements {VERSION:?})")]
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

/// The seating roll ("NpN"): the sign-up numbers `1..=players` drawn in full, seat by seat.
///
/// Drawn at history index 0 with purpose `player-order`. Games have 3 to 5 players; counts above
/// 255 are capped at 255.
pub fn player_order(seed: &Seed, game_id: &str, players: usize) -> Vec<u8> {
    let players = u8::try_from(players).unwrap_or(u8::MAX);
    let list: Vec<u8> = (1..=players).collect();
    let all = list.len();
    draw_stream(seed, game_id, 0, PURPOSE_PLAYER_ORDER).pick_without_replacement(list, all)
}

/// The setup roll of the city cubes ("12p8"): eight of the numbers `1..=12`, for
/// [`CITY_CUBE_CITIES`] in order (1–4 white, 5–8 pink, 9–12 black; see
/// [`Colour::of_setup_number`]).
///
/// Drawn at history index 0 with purpose `city-cubes`.
pub fn city_cubes(seed: &Seed, game_id: &str) -> [u8; 8] {
    let list: Vec<u8> = (1..=12).collect();
    let picked =
        draw_stream(seed, game_id, 0, PURPOSE_CITY_CUBES).pick_without_replacement(list, 8);
    let mut numbers = [0u8; 8];
    for (slot, number) in numbers.iter_mut().zip(picked) {
        *slot = number;
    }
    numbers
}

/// A dividend draw: up to three cubes from the supply laid out as all its white cubes, then pink,
/// then black; returns the colours in drawn order.
///
/// `index` is the position of the dividend call in the game's current action history.
pub fn dividend_draw(seed: &Seed, game_id: &str, index: u64, supply: CubeCounts) -> Vec<Colour> {
    let bag: Vec<Colour> = Colour::ALL
        .into_iter()
        .flat_map(|colour| std::iter::repeat_n(colour, usize::from(supply.get(colour))))
        .collect();
    let picks = DIVIDEND_DRAW_SIZE.min(bag.len());
    draw_stream(seed, game_id, index, PURPOSE_DIVIDEND_DRAW).pick_without_replacement(bag, picks)
}

/// One draw as recorded for the audit: its inputs and its result.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DrawRecord {
    /// The history index the draw was derived from (0 for the setup rolls).
    pub index: u64,
    /// The purpose: `player-order`, `city-cubes` or `dividend-draw`.
    pub purpose: String,
    /// The supply before a `dividend-draw` (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub supply: Option<CubeCounts>,
    /// The number of players of a `player-order` roll (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub players: Option<usize>,
    /// The result: a list of numbers (`player-order`, `city-cubes`) or of colour names
    /// (`dividend-draw`).
    pub result: Value,
}

impl DrawRecord {
    /// Draws and records the seating roll.
    pub fn player_order(seed: &Seed, game_id: &str, players: usize) -> DrawRecord {
        DrawRecord {
            index: 0,
            purpose: PURPOSE_PLAYER_ORDER.to_owned(),
            supply: None,
            players: Some(players),
            result: numbers_value(&player_order(seed, game_id, players)),
        }
    }

    /// Draws and records the city-cube roll.
    pub fn city_cubes(seed: &Seed, game_id: &str) -> DrawRecord {
        DrawRecord {
            index: 0,
            purpose: PURPOSE_CITY_CUBES.to_owned(),
            supply: None,
            players: None,
            result: numbers_value(&city_cubes(seed, game_id)),
        }
    }

    /// Draws and records a dividend draw.
    pub fn dividend_draw(seed: &Seed, game_id: &str, index: u64, supply: CubeCounts) -> DrawRecord {
        DrawRecord {
            index,
            purpose: PURPOSE_DIVIDEND_DRAW.to_owned(),
            supply: Some(supply),
            players: None,
            result: colours_value(&dividend_draw(seed, game_id, index, supply)),
        }
    }

    /// Recomputes this record's result from the seed and the record's inputs.
    pub fn expected(&self, seed: &Seed, game_id: &str) -> Result<Value, DiceError> {
        let invalid = |reason: &str| DiceError::InvalidRecord {
            index: self.index,
            purpose: self.purpose.clone(),
            reason: reason.to_owned(),
        };
        match self.purpose.as_str() {
            PURPOSE_PLAYER_ORDER => {
                if self.index != 0 {
                    return Err(invalid("player-order must be drawn at index 0"));
                }
                match self.players {
                    Some(players) if (MIN_PLAYERS..=MAX_PLAYERS).contains(&players) => {
                        Ok(numbers_value(&player_order(seed, game_id, players)))
                    }
                    _ => Err(invalid("player-order needs players between 3 and 5")),
                }
            }
            PURPOSE_CITY_CUBES => {
                if self.index != 0 {
                    return Err(invalid("city-cubes must be drawn at index 0"));
                }
                Ok(numbers_value(&city_cubes(seed, game_id)))
            }
            PURPOSE_DIVIDEND_DRAW => match self.supply {
                Some(supply) => Ok(colours_value(&dividend_draw(
                    seed, game_id, self.index, supply,
                ))),
                None => Err(invalid("dividend-draw needs the supply")),
            },
            _ => Err(invalid("unknown purpose")),
        }
    }
}

fn numbers_value(numbers: &[u8]) -> Value {
    Value::Array(numbers.iter().map(|&n| Value::from(n)).collect())
}

fn colours_value(colours: &[Colour]) -> Value {
    Value::Array(colours.iter().map(|c| Value::from(c.name())).collect())
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
/// recomputes every draw and reports each mismatch.
///
/// Errors (rather than mismatches) for an unsupported version, an unrevealed or malformed seed, a
/// commitment mismatch, or a record without the inputs its purpose needs.
pub fn verify(export: &AuditExport) -> Result<VerifyReport, DiceError> {
    if export.version != VERSION {
        return Err(DiceError::UnsupportedVersion {
            found: export.version.clone(),
        });
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
        let expected = record.expected(&seed, &export.game_id)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;
    use std::process::Command;

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
    const TEST_PLAYER_ORDER_3: [u8; 3] = [3, 2, 1];
    const TEST_PLAYER_ORDER_4: [u8; 4] = [4, 1, 3, 2];
    const TEST_PLAYER_ORDER_5: [u8; 5] = [3, 2, 4, 5, 1];
    const TEST_CITY_CUBES: [u8; 8] = [10, 2, 8, 4, 5, 6, 3, 12];
    const TEST_DIVIDEND_12: [Colour; 3] = [Colour::White, Colour::White, Colour::Pink];

    fn test_seed() -> Seed {
        Seed::from_hex(TEST_SEED_HEX).expect("test seed")
    }

    fn supply(white: u8, pink: u8, black: u8) -> CubeCounts {
        CubeCounts { white, pink, black }
    }

    // ---------------------------------------------------------------- independent ChaCha20

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

    // ---------------------------------------------------------------- fixed vectors

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
    fn fixed_vector_draws() {
        let seed = test_seed();
        assert_eq!(player_order(&seed, TEST_GAME_ID, 3), TEST_PLAYER_ORDER_3);
        assert_eq!(player_order(&seed, TEST_GAME_ID, 4), TEST_PLAYER_ORDER_4);
        assert_eq!(player_order(&seed, TEST_GAME_ID, 5), TEST_PLAYER_ORDER_5);
        assert_eq!(city_cubes(&seed, TEST_GAME_ID), TEST_CITY_CUBES);
        assert_eq!(
            dividend_draw(&seed, TEST_GAME_ID, 12, supply(7, 8, 7)),
            TEST_DIVIDEND_12
        );
    }

    // ---------------------------------------------------------------- seed

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

    // ---------------------------------------------------------------- uniform and picks

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

    // ---------------------------------------------------------------- the game's draws

    #[test]
    fn player_order_is_a_permutation() {
        let seed = Seed::generate().expect("OS randomness");
        for players in MIN_PLAYERS..=MAX_PLAYERS {
            let mut order = player_order(&seed, "perm", players);
            order.sort_unstable();
            assert_eq!(order, (1..=players as u8).collect::<Vec<_>>());
        }
    }

    #[test]
    fn city_cubes_are_distinct_setup_numbers() {
        let seed = Seed::generate().expect("OS randomness");
        let cubes = city_cubes(&seed, "cities");
        for (i, &n) in cubes.iter().enumerate() {
            assert!(Colour::of_setup_number(n).is_some());
            assert!(!cubes[..i].contains(&n));
        }
    }

    #[test]
    fn dividend_draw_respects_the_supply() {
        let seed = test_seed();
        assert!(dividend_draw(&seed, TEST_GAME_ID, 5, supply(0, 0, 0)).is_empty());
        assert_eq!(
            dividend_draw(&seed, TEST_GAME_ID, 5, supply(0, 2, 0)),
            [Colour::Pink, Colour::Pink]
        );
        assert_eq!(
            dividend_draw(&seed, TEST_GAME_ID, 5, supply(0, 0, 9)),
            [Colour::Black; 3]
        );
        for index in 0..200 {
            let drawn = dividend_draw(&seed, TEST_GAME_ID, index, supply(1, 2, 1));
            assert_eq!(drawn.len(), 3);
            for colour in Colour::ALL {
                let n = drawn.iter().filter(|&&c| c == colour).count();
                assert!(n <= usize::from(supply(1, 2, 1).get(colour)));
            }
        }
    }

    #[test]
    fn same_position_same_draw_other_position_other_stream() {
        let seed = test_seed();
        let s = supply(7, 8, 7);
        // Undo and redo from the same history position: the same draw.
        assert_eq!(
            dividend_draw(&seed, TEST_GAME_ID, 40, s),
            dividend_draw(&seed, TEST_GAME_ID, 40, s)
        );
        let first = |index, purpose, game: &str| {
            let mut stream = draw_stream(&seed, game, index, purpose);
            [stream.next_u32(), stream.next_u32()]
        };
        let base = first(40, PURPOSE_DIVIDEND_DRAW, TEST_GAME_ID);
        assert_ne!(base, first(41, PURPOSE_DIVIDEND_DRAW, TEST_GAME_ID));
        assert_ne!(base, first(40, PURPOSE_CITY_CUBES, TEST_GAME_ID));
        assert_ne!(base, first(40, PURPOSE_DIVIDEND_DRAW, "other-game"));
        // The length prefixes keep ("ab", "c") and ("a", "bc") apart.
        assert_ne!(draw_key(&seed, "ab", 0, "c"), draw_key(&seed, "a", 0, "bc"));
    }

    // ---------------------------------------------------------------- export and verify

    fn sample_draws(seed: &Seed, game_id: &str) -> Vec<DrawRecord> {
        vec![
            DrawRecord::player_order(seed, game_id, 4),
            DrawRecord::city_cubes(seed, game_id),
            DrawRecord::dividend_draw(seed, game_id, 12, supply(7, 8, 7)),
            DrawRecord::dividend_draw(seed, game_id, 31, supply(3, 0, 1)),
            DrawRecord::dividend_draw(seed, game_id, 57, supply(1, 1, 0)),
            DrawRecord::dividend_draw(seed, game_id, 80, supply(0, 0, 0)),
        ]
    }

    #[test]
    fn records_hold_the_fixed_vectors() {
        let seed = test_seed();
        let draws = sample_draws(&seed, TEST_GAME_ID);
        assert_eq!(draws[0].result, serde_json::json!([4, 1, 3, 2]));
        assert_eq!(
            draws[1].result,
            serde_json::json!([10, 2, 8, 4, 5, 6, 3, 12])
        );
        assert_eq!(
            draws[2].result,
            serde_json::json!(["white", "white", "pink"])
        );
        assert_eq!(draws[5].result, serde_json::json!([]));
    }

    #[test]
    fn verify_accepts_a_genuine_export() {
        let seed = Seed::generate().expect("OS randomness");
        let export = AuditExport::revealed("game-1", &seed, sample_draws(&seed, "game-1"));
        let json = serde_json::to_string(&export).expect("serialize");
        let parsed: AuditExport = serde_json::from_str(&json).expect("parse");
        assert_eq!(parsed, export);
        let report = verify(&parsed).expect("verifies");
        assert!(report.is_ok(), "{report:?}");
        assert_eq!(report.draws_checked, 6);
        assert_eq!(report.game_id, "game-1");
    }

    #[test]
    fn verify_reports_a_tampered_draw() {
        let seed = test_seed();
        let mut export =
            AuditExport::revealed(TEST_GAME_ID, &seed, sample_draws(&seed, TEST_GAME_ID));
        export.draws[2].result = serde_json::json!(["black", "white", "pink"]);
        export.draws[0].result = serde_json::json!([1, 2, 3, 4]);
        let report = verify(&export).expect("still checkable");
        assert!(!report.is_ok());
        assert_eq!(
            report.mismatches,
            vec![
                Mismatch {
                    index: 0,
                    purpose: PURPOSE_PLAYER_ORDER.to_owned(),
                    expected: serde_json::json!([4, 1, 3, 2]),
                    recorded: serde_json::json!([1, 2, 3, 4]),
                },
                Mismatch {
                    index: 12,
                    purpose: PURPOSE_DIVIDEND_DRAW.to_owned(),
                    expected: serde_json::json!(["white", "white", "pink"]),
                    recorded: serde_json::json!(["black", "white", "pink"]),
                },
            ]
        );
        assert!(report.mismatches[1].to_string().contains("index 12"));
        // A changed input is caught too: the recorded result no longer follows.
        let mut export =
            AuditExport::revealed(TEST_GAME_ID, &seed, sample_draws(&seed, TEST_GAME_ID));
        export.draws[2].index = 13;
        assert_eq!(verify(&export).expect("checkable").mismatches.len(), 1);
    }

    #[test]
    fn verify_rejects_a_wrong_seed() {
        let seed = test_seed();
        let other = Seed::generate().expect("OS randomness");
        let mut export =
            AuditExport::revealed(TEST_GAME_ID, &seed, sample_draws(&seed, TEST_GAME_ID));
        export.seed = Some(other.to_hex());
        match verify(&export) {
            Err(DiceError::CommitmentMismatch { committed, actual }) => {
                assert_eq!(committed, TEST_COMMITMENT);
                assert_eq!(actual, other.commitment());
            }
            other => panic!("expected a commitment mismatch, got {other:?}"),
        }
    }

    #[test]
    fn verify_needs_the_revealed_seed_and_the_version() {
        let seed = test_seed();
        let sealed = AuditExport::sealed(TEST_GAME_ID, &seed, sample_draws(&seed, TEST_GAME_ID));
        assert_eq!(sealed.seed, None);
        let err = verify(&sealed).expect_err("sealed");
        assert_eq!(err, DiceError::SeedNotRevealed);
        assert_eq!(err.to_string(), "seed not yet revealed");
        let json = serde_json::to_value(&sealed).expect("serialize");
        assert_eq!(json["seed"], Value::Null);
        assert!(!json.to_string().contains(TEST_SEED_HEX));

        let mut export = AuditExport::revealed(TEST_GAME_ID, &seed, Vec::new());
        export.version = "gaugebot-dice-v0".to_owned();
        assert!(matches!(
            verify(&export),
            Err(DiceError::UnsupportedVersion { .. })
        ));
    }

    #[test]
    fn verify_rejects_malformed_records() {
        let seed = test_seed();
        let good = DrawRecord::dividend_draw(&seed, TEST_GAME_ID, 12, supply(7, 8, 7));
        let bad_records = [
            DrawRecord {
                supply: None,
                ..good.clone()
            },
            DrawRecord {
                purpose: "coin-flip".to_owned(),
                ..good.clone()
            },
            DrawRecord {
                players: Some(6),
                ..DrawRecord::player_order(&seed, TEST_GAME_ID, 4)
            },
            DrawRecord {
                players: None,
                ..DrawRecord::player_order(&seed, TEST_GAME_ID, 4)
            },
            DrawRecord {
                index: 3,
                ..DrawRecord::city_cubes(&seed, TEST_GAME_ID)
            },
        ];
        for record in bad_records {
            let export = AuditExport::revealed(TEST_GAME_ID, &seed, vec![record]);
            assert!(
                matches!(verify(&export), Err(DiceError::InvalidRecord { .. })),
                "{export:?}"
            );
        }
    }

    #[test]
    fn the_example_export_in_the_specification_verifies() {
        let doc = include_str!("../../docs/DICE.md");
        let start = doc.find("```json\n").expect("example in docs/DICE.md") + "```json\n".len();
        let len = doc[start..].find("```").expect("end of the example");
        let export: AuditExport = serde_json::from_str(&doc[start..start + len]).expect("parse");
        assert_eq!(export.game_id, TEST_GAME_ID);
        assert_eq!(export.seed.as_deref(), Some(TEST_SEED_HEX));
        let report = verify(&export).expect("verifies");
        assert!(report.is_ok(), "{report:?}");
        assert_eq!(report.draws_checked, 3);
    }

    // ---------------------------------------------------------------- the Python verifier

    fn script() -> PathBuf {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/verify_draws.py")
    }

    fn python_available() -> bool {
        match Command::new("python3").arg("--version").output() {
            Ok(output) => output.status.success(),
            Err(_) => {
                eprintln!("note: python3 not found; skipping the tools/verify_draws.py test");
                false
            }
        }
    }

    fn run_python(export: &AuditExport) -> std::process::Output {
        let file = tempfile::NamedTempFile::new().expect("temp file");
        serde_json::to_writer_pretty(file.as_file(), export).expect("write export");
        Command::new("python3")
            .arg(script())
            .arg(file.path())
            .output()
            .expect("run python3")
    }

    #[test]
    fn python_verifier_agrees() {
        if !python_available() {
            return;
        }
        let selftest = Command::new("python3")
            .arg(script())
            .arg("--selftest")
            .output()
            .expect("run python3");
        assert!(
            selftest.status.success(),
            "selftest: {}",
            String::from_utf8_lossy(&selftest.stdout)
        );

        let seed = Seed::generate().expect("OS randomness");
        let mut draws = sample_draws(&seed, "python-game");
        draws.push(DrawRecord::player_order(&seed, "python-game", 3));
        draws.push(DrawRecord::player_order(&seed, "python-game", 5));
        for index in 100..140 {
            draws.push(DrawRecord::dividend_draw(
                &seed,
                "python-game",
                index,
                supply((index % 8) as u8, (index % 5) as u8, (index % 3) as u8),
            ));
        }
        let export = AuditExport::revealed("python-game", &seed, draws);
        let output = run_python(&export);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(
            output.status.success(),
            "stdout: {stdout}\nstderr: {}",
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(stdout.lines().filter(|l| l.starts_with("OK ")).count(), 48);
        assert!(stdout.contains("ALL DRAWS VERIFIED"));

        let mut tampered = export.clone();
        tampered.draws[1].result = serde_json::json!([1, 2, 3, 4, 5, 6, 7, 8]);
        let output = run_python(&tampered);
        assert_eq!(output.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&output.stdout).contains("MISMATCH"));

        // A seed that does not match the commitment is a failed verification (1), not an
        // invalid file (2): docs/DICE.md, "Verification".
        let mut wrong_seed = export.clone();
        wrong_seed.seed = Some(test_seed().to_hex());
        assert_eq!(run_python(&wrong_seed).status.code(), Some(1));

        let sealed = AuditExport::sealed("python-game", &seed, export.draws.clone());
        assert_eq!(run_python(&sealed).status.code(), Some(2));
    }
}
