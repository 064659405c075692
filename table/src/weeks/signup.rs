//! Signups before a game, as the forum moderator of seed 000 ran them: a moderator opens them
//! (`!signup open [game] [players:3-4] [closes:24h] [extend:24h] [start-after:72h]`), players
//! post **sign up** (or `!join`; `!leave` withdraws); when they close, too few signups extend
//! them, after `start-after` the game starts with what there is if the rules allow, and more
//! signups than seats are drawn from by the audited dice (purpose `signup-pick`, docs/DICE.md),
//! then the game is set up with those players.
//!
//! Open signups are the channel's state outside any game ([`crate::Store::channel_state`]); the
//! draw is stored with the game's setup and is the first record of its audit.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::dice::{DiceError, DrawRecord, DrawSource};
use crate::game::PlayerInfo;

/// The purpose of the random pick of players among the signups (drawn at index 0).
pub const PURPOSE_SIGNUP_PICK: &str = "signup-pick";
/// The most signups a record may name (a bound for the verifier).
pub const MAX_SIGNUPS: usize = 1000;

/// The most players a channel's signups take (a table seats at most a handful; more are drawn
/// from at random): a `!join` beyond it is refused, so that replies stay short and the pick
/// stays within what the verifiers read ([`MAX_SIGNUPS`]).
pub const SIGNUP_CAP: usize = 100;

/// Open signups of a channel.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Signups {
    /// The game's kind.
    pub kind: String,
    /// The fewest players to start with once `start-after` has passed.
    pub min: usize,
    /// The players wanted; more signups are drawn from.
    pub max: usize,
    /// When they opened (RFC 3339).
    pub opened_at: String,
    /// When they close next (RFC 3339).
    pub closes_at: String,
    /// How long each extension is, in seconds.
    pub extend_s: i64,
    /// After how long (from opening) the game starts with fewer than `max`, in seconds.
    pub start_after_s: i64,
    /// The moderator who opened them.
    pub by: PlayerInfo,
    /// The players signed up, in order.
    pub players: Vec<PlayerInfo>,
    /// How many times they were extended.
    #[serde(default)]
    pub extensions: u32,
    /// The id of the `!signup open` message: it keys the pick and the game's setup draws
    /// (docs/DICE.md §3.2), whoever or whatever closes the signups. Signups opened by an older
    /// version have none (their game then keys by the message that closes them).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub open_message: Option<String>,
}

/// The pick of `picks` of `signups` players: sign-up numbers (1 = the first to sign up) in
/// drawn order — `[1, 2, …, signups]`, `picks` drawn without replacement (docs/DICE.md §6)
/// from the stream of purpose `signup-pick` at index 0.
pub fn signup_pick(source: DrawSource<'_>, signups: usize, picks: usize) -> Vec<u32> {
    let count = u32::try_from(signups.min(MAX_SIGNUPS)).unwrap_or(0);
    let list: Vec<u32> = (1..=count).collect();
    source
        .stream(0, PURPOSE_SIGNUP_PICK)
        .pick_without_replacement(list, picks)
}

/// The audit record of a pick: its inputs (`signups`, `picks`, and the names for readers) and
/// its result.
pub fn pick_record(names: &[String], picks: usize, result: &[u32]) -> DrawRecord {
    DrawRecord::new(
        0,
        PURPOSE_SIGNUP_PICK,
        [
            ("signups", Value::from(names.len())),
            ("picks", Value::from(picks)),
            ("signed_up", Value::from(names.to_vec())),
        ],
        Value::from(result.to_vec()),
    )
    .with_population((1..=names.len()).map(Value::from).collect(), picks)
}

/// Recomputes a `signup-pick` record; `None` for any other purpose.
pub fn recompute(record: &DrawRecord, source: DrawSource<'_>) -> Option<Result<Value, DiceError>> {
    if record.purpose != PURPOSE_SIGNUP_PICK {
        return None;
    }
    if record.index != 0 {
        return Some(Err(record.invalid("signup-pick must be drawn at index 0")));
    }
    let number = |name| {
        record
            .input(name)
            .and_then(Value::as_u64)
            .and_then(|n| usize::try_from(n).ok())
    };
    Some(match (number("signups"), number("picks")) {
        (Some(signups), Some(picks))
            if (1..=MAX_SIGNUPS).contains(&signups) && (1..=signups).contains(&picks) =>
        {
            Ok(Value::from(signup_pick(source, signups, picks)))
        }
        _ => Err(record.invalid("signup-pick needs signups (1 to 1000) and picks (1 to signups)")),
    })
}

/// Whether bold text is a signup (`sign up`, `signup`, `sign me up`, `join`, `I'm in`).
pub(crate) fn is_signup_phrase(text: &str) -> bool {
    let words: Vec<String> = text
        .to_lowercase()
        .replace(['-', '\''], " ")
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    matches!(
        words
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice(),
        ["sign", "up"]
            | ["signup"]
            | ["sign", "me", "up"]
            | ["signing", "up"]
            | ["join"]
            | ["i", "m", "in"]
            | ["im", "in"]
    )
}

/// Reads `players:3-4` (or `players:4`).
pub(crate) fn players_range(value: &str) -> Option<(usize, usize)> {
    match value.split_once('-') {
        Some((a, b)) => Some((a.trim().parse().ok()?, b.trim().parse().ok()?)),
        None => value.trim().parse().ok().map(|n| (n, n)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dice::Seed;

    // Fixed test vectors, computed independently by `python3 tools/verify_draws.py --selftest`
    // (docs/DICE.md §9.4). Never edit them to make a test pass.
    const TEST_SEED_HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    const TEST_GAME_ID: &str = "test-game";
    const TEST_KEY_SIGNUP_PICK: &str =
        "d0dd6564cf0f8fdfe2cadb0ec6519ac7e3eee4f3ce21e774c684ea6521fb7049";
    const TEST_PICK_6_OF_4: [u32; 4] = [5, 3, 1, 2];
    const TEST_PICK_5_OF_3: [u32; 3] = [3, 5, 1];

    fn seed() -> Seed {
        Seed::from_hex(TEST_SEED_HEX).expect("seed")
    }

    #[test]
    fn fixed_vector_signup_picks() {
        assert_eq!(
            hex::encode(crate::dice::draw_key(
                &seed(),
                TEST_GAME_ID,
                0,
                PURPOSE_SIGNUP_PICK
            )),
            TEST_KEY_SIGNUP_PICK
        );
        assert_eq!(
            signup_pick(DrawSource::v1(&seed(), TEST_GAME_ID), 6, 4),
            TEST_PICK_6_OF_4
        );
        assert_eq!(
            signup_pick(DrawSource::v1(&seed(), TEST_GAME_ID), 5, 3),
            TEST_PICK_5_OF_3
        );
    }

    #[test]
    fn a_pick_record_recomputes_and_a_wrong_one_does_not() {
        let names: Vec<String> = ["a", "b", "c", "d", "e"].map(String::from).to_vec();
        let drawn = signup_pick(DrawSource::v1(&seed(), TEST_GAME_ID), 5, 3);
        let record = pick_record(&names, 3, &drawn);
        assert_eq!(
            recompute(&record, DrawSource::v1(&seed(), TEST_GAME_ID)),
            Some(Ok(record.result.clone()))
        );
        assert_ne!(
            recompute(&record, DrawSource::v1(&seed(), "other-game")),
            Some(Ok(record.result.clone()))
        );
        let mut bad = record.clone();
        bad.inputs.insert("picks".into(), Value::from(9));
        assert!(matches!(
            recompute(&bad, DrawSource::v1(&seed(), TEST_GAME_ID)),
            Some(Err(_))
        ));
        let mut bad = record.clone();
        bad.index = 3;
        assert!(matches!(
            recompute(&bad, DrawSource::v1(&seed(), TEST_GAME_ID)),
            Some(Err(_))
        ));
        let other = DrawRecord::new(0, "player-order", [], Value::Null);
        assert_eq!(
            recompute(&other, DrawSource::v1(&seed(), TEST_GAME_ID)),
            None
        );
        let mut distinct = drawn.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), 3);
        assert!(drawn.iter().all(|n| (1..=5).contains(n)));
    }

    #[test]
    fn signup_phrases_and_player_ranges() {
        for yes in [
            "sign up",
            "Sign Up!",
            "signup",
            "sign-up",
            "sign me up",
            "I'm in",
            "join",
        ] {
            assert!(is_signup_phrase(yes), "{yes}");
        }
        for no in ["bid 7", "pass", "sign", "up", "not signing up", ""] {
            assert!(!is_signup_phrase(no), "{no}");
        }
        assert_eq!(players_range("3-4"), Some((3, 4)));
        assert_eq!(players_range("4"), Some((4, 4)));
        assert_eq!(players_range("x-4"), None);
        assert_eq!(players_range("-4"), None);
    }
}
