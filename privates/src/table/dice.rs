//! Privates' draws on the audited dice (docs/DICE.md §7): the first dealer, the deck's shuffle
//! and each round's chips, their audit records, and their recomputation for the verifier.
//!
//! | purpose | index | list | drawn | record inputs |
//! |---|---|---|---|---|
//! | `privates-dealer` | 0 | `[1, 2, …, n]` | 1 | `players` |
//! | `privates-deck` | 0 | the costs, lowest first, `copies` of each | all | `copies` |
//! | `privates-chips` | the round | the bag's chips, red, yellow, green, blue, black | min(7, bag) | `bag` |

use gaugebot_table::dice::{DiceError, DrawRecord, DrawSource};
use serde_json::Value;

use crate::card::{Chip, ChipCounts, DEFAULT_COPIES, VARIANT_COPIES};
use crate::draw::{
    chip_population, chips_to_draw, dealer_population, deck_population, PURPOSE_CHIPS,
    PURPOSE_DEALER, PURPOSE_DECK,
};
use crate::setup::{MAX_PLAYERS, MIN_PLAYERS};

/// The first dealer: one of the sign-up numbers `1..=players` (purpose `privates-dealer`,
/// index 0). The result k means that the player signed up k-th (seat k − 1) deals first.
pub fn dealer(source: DrawSource<'_>, players: usize) -> u32 {
    source
        .stream(0, PURPOSE_DEALER)
        .pick_without_replacement(dealer_population(players), 1)
        .first()
        .copied()
        .unwrap_or(1)
}

/// The shuffled deck, top card first: every card's cost drawn in full (purpose `privates-deck`,
/// index 0).
pub fn deck(source: DrawSource<'_>, copies: u8) -> Vec<u32> {
    let population = deck_population(copies);
    let all = population.len();
    source
        .stream(0, PURPOSE_DECK)
        .pick_without_replacement(population, all)
}

/// A round's chips in drawn order (onto A, B, …): min(7, bag) of the bag's chips (purpose
/// `privates-chips`, index = the round).
pub fn chips(source: DrawSource<'_>, round: u64, bag: &ChipCounts) -> Vec<Chip> {
    source
        .stream(round, PURPOSE_CHIPS)
        .pick_without_replacement(chip_population(bag), chips_to_draw(bag))
}

/// The audit record of the dealer's draw; `drawn` is the sign-up number drawn.
pub fn dealer_record(players: usize, drawn: u32) -> DrawRecord {
    DrawRecord::new(
        0,
        PURPOSE_DEALER,
        [("players", Value::from(players))],
        Value::Array(vec![Value::from(drawn)]),
    )
    .with_population(
        dealer_population(players)
            .into_iter()
            .map(Value::from)
            .collect(),
        1,
    )
}

/// The audit record of the deck's shuffle: hidden until the reveal (the deck's order decides the
/// game), filling the setup's `deck` (docs/DICE.md §7.2).
pub fn deck_record(copies: u8, deck: &[u32]) -> DrawRecord {
    DrawRecord::new(
        0,
        PURPOSE_DECK,
        [("copies", Value::from(copies))],
        Value::Array(deck.iter().map(|&c| Value::from(c)).collect()),
    )
    .with_population(
        deck_population(copies)
            .into_iter()
            .map(Value::from)
            .collect(),
        deck.len(),
    )
    .hidden(Some("deck"))
}

/// The audit record of a round's chips: the bag they were drawn from (after that round's chips
/// went in) and the chips in drawn order.
pub fn chips_record(round: u64, bag: &ChipCounts, chips: &[Chip]) -> DrawRecord {
    DrawRecord::new(
        round,
        PURPOSE_CHIPS,
        [("bag", serde_json::to_value(bag).unwrap_or(Value::Null))],
        chips_value(chips),
    )
    .with_population(
        chip_population(bag)
            .into_iter()
            .map(|c| Value::from(c.name()))
            .collect(),
        chips_to_draw(bag),
    )
}

fn chips_value(chips: &[Chip]) -> Value {
    Value::Array(chips.iter().map(|c| Value::from(c.name())).collect())
}

/// Recomputes a record of one of Privates' purposes; `None` for other purposes. A record with
/// a wrong index or missing or out-of-range inputs is an error (docs/DICE.md §8).
pub fn recompute(record: &DrawRecord, source: DrawSource<'_>) -> Option<Result<Value, DiceError>> {
    let result = match record.purpose.as_str() {
        PURPOSE_DEALER => {
            if record.index != 0 {
                return Some(Err(
                    record.invalid("privates-dealer must be drawn at index 0")
                ));
            }
            match record
                .input("players")
                .and_then(Value::as_u64)
                .and_then(|p| usize::try_from(p).ok())
            {
                Some(players) if (MIN_PLAYERS..=MAX_PLAYERS).contains(&players) => {
                    Ok(Value::Array(vec![Value::from(dealer(source, players))]))
                }
                _ => Err(record.invalid("privates-dealer needs players between 2 and 6")),
            }
        }
        PURPOSE_DECK => {
            if record.index != 0 {
                return Some(Err(record.invalid("privates-deck must be drawn at index 0")));
            }
            match record.input("copies").and_then(Value::as_u64) {
                Some(c) if c == u64::from(DEFAULT_COPIES) || c == u64::from(VARIANT_COPIES) => {
                    let copies = c as u8;
                    Ok(Value::Array(
                        deck(source, copies).into_iter().map(Value::from).collect(),
                    ))
                }
                _ => Err(record.invalid("privates-deck needs copies 6 or 5")),
            }
        }
        PURPOSE_CHIPS => {
            if record.index < 1 {
                return Some(Err(
                    record.invalid("privates-chips is drawn at the round number, 1 or more")
                ));
            }
            match record
                .input("bag")
                .and_then(|b| serde_json::from_value::<ChipCounts>(b.clone()).ok())
            {
                Some(bag) => Ok(chips_value(&chips(source, record.index, &bag))),
                None => Err(record.invalid(
                    "privates-chips needs a bag of red, yellow, green, blue and black counts 0..=255",
                )),
            }
        }
        _ => return None,
    };
    Some(result)
}

#[cfg(test)]
mod tests {
    use super::*;
    use gaugebot_table::dice::Seed;
    use gaugebot_table::dice::{draw_key, verify, AuditExport, Recompute};
    use std::path::PathBuf;
    use std::process::Command;

    // The test vectors of docs/DICE.md §9.3 (gaugebot-dice-v1), computed independently by
    // `python3 tools/verify_draws.py --selftest` (pure-Python ChaCha20, cross-checked against
    // OpenSSL's). Never edit them to make a test pass.
    const TEST_SEED_HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    const TEST_GAME_ID: &str = "test-privates";
    const TEST_COMMITMENT: &str =
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";
    const TEST_KEY_DEALER: &str =
        "2548b98cc4e0dc095d2ab51dbd53cd0eb206d142a0d65d13004d2405bd9993f5";
    const TEST_KEY_DECK: &str = "5d7757474a0e73e8d1c4600d1f4ba5a472ae4b101f816c6033910c1126ce0103";
    const TEST_KEY_CHIPS_1: &str =
        "c07d1fd4a2b0c02494bd0dbb171f995aff4e36e0295ddeca7beb413facc96e40";
    const TEST_KEY_CHIPS_7: &str =
        "99608eae04b5ec8469031205ffd318f215770c2c00c670da01aab084d9559291";
    /// `privates-dealer` for 2, 3, 4, 5 and 6 players.
    const TEST_DEALER: [(usize, u32); 5] = [(2, 2), (3, 1), (4, 4), (5, 3), (6, 4)];
    const TEST_DECK_6: [u32; 54] = [
        30, 50, 5, 20, 25, 10, 25, 40, 5, 40, 35, 15, 30, 40, 10, 5, 5, 50, 40, 30, 20, 20, 50, 10,
        25, 30, 35, 50, 35, 15, 15, 40, 20, 15, 10, 25, 30, 10, 15, 5, 10, 15, 25, 30, 50, 50, 35,
        20, 25, 35, 20, 40, 35, 5,
    ];
    const TEST_DECK_5: [u32; 45] = [
        50, 30, 25, 10, 50, 10, 20, 15, 30, 25, 5, 25, 30, 40, 10, 15, 25, 35, 40, 20, 40, 30, 35,
        25, 35, 15, 20, 15, 50, 40, 10, 5, 35, 20, 10, 40, 5, 20, 50, 5, 15, 5, 35, 50, 30,
    ];
    const TEST_CHIPS_1: [Chip; 7] = [
        Chip::Green,
        Chip::Red,
        Chip::Red,
        Chip::Blue,
        Chip::Black,
        Chip::Blue,
        Chip::Yellow,
    ];
    const TEST_CHIPS_7: [Chip; 4] = [Chip::Green, Chip::Green, Chip::Black, Chip::Yellow];

    struct PrivatesDraws;

    impl Recompute for PrivatesDraws {
        fn recompute(
            &self,
            record: &DrawRecord,
            source: DrawSource<'_>,
        ) -> Option<Result<Value, DiceError>> {
            recompute(record, source)
        }
    }

    fn test_seed() -> Seed {
        Seed::from_hex(TEST_SEED_HEX).expect("test seed")
    }

    fn source(seed: &Seed) -> DrawSource<'_> {
        DrawSource {
            spec: gaugebot_table::dice::Spec::V1,
            message_id: "",
            seed,
            game_id: TEST_GAME_ID,
        }
    }

    fn bag(red: u8, yellow: u8, green: u8, blue: u8, black: u8) -> ChipCounts {
        ChipCounts {
            red,
            yellow,
            green,
            blue,
            black,
        }
    }

    #[test]
    fn fixed_vector_keys() {
        let seed = test_seed();
        assert_eq!(seed.commitment(), TEST_COMMITMENT);
        let key = |index, purpose| draw_key(&seed, TEST_GAME_ID, index, purpose);
        let hex = |bytes: [u8; 32]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(hex(key(0, PURPOSE_DEALER)), TEST_KEY_DEALER);
        assert_eq!(hex(key(0, PURPOSE_DECK)), TEST_KEY_DECK);
        assert_eq!(hex(key(1, PURPOSE_CHIPS)), TEST_KEY_CHIPS_1);
        assert_eq!(hex(key(7, PURPOSE_CHIPS)), TEST_KEY_CHIPS_7);
    }

    #[test]
    fn fixed_vector_draws() {
        let seed = test_seed();
        for (players, expected) in TEST_DEALER {
            assert_eq!(
                dealer(source(&seed), players),
                expected,
                "{players} players"
            );
        }
        assert_eq!(deck(source(&seed), 6), TEST_DECK_6);
        assert_eq!(deck(source(&seed), 5), TEST_DECK_5);
        assert_eq!(
            chips(source(&seed), 1, &ChipCounts::uniform(2)),
            TEST_CHIPS_1
        );
        // Fewer than 7 chips in the bag: all of them are drawn.
        assert_eq!(chips(source(&seed), 7, &bag(0, 1, 2, 0, 1)), TEST_CHIPS_7);
    }

    #[test]
    fn draws_are_permutations_of_their_populations() {
        let seed = Seed::generate().expect("OS randomness");
        let source = DrawSource {
            spec: gaugebot_table::dice::Spec::V1,
            message_id: "",
            seed: &seed,
            game_id: "perm",
        };
        for copies in [5, 6] {
            let mut shuffled = deck(source, copies);
            shuffled.sort_unstable();
            assert_eq!(shuffled, deck_population(copies));
        }
        for players in MIN_PLAYERS..=MAX_PLAYERS {
            assert!((1..=players as u32).contains(&dealer(source, players)));
        }
        for round in 1..=200 {
            let b = bag(3, 0, 5, 1, 2);
            let drawn = chips(source, round, &b);
            assert_eq!(drawn.len(), 7);
            assert!(b.contains(&drawn));
        }
        assert!(chips(source, 3, &ChipCounts::default()).is_empty());
    }

    fn sample_draws(seed: &Seed, game_id: &str) -> Vec<DrawRecord> {
        let source = DrawSource::v1(seed, game_id);
        let mut draws = vec![
            dealer_record(5, dealer(source, 5)),
            deck_record(6, &deck(source, 6)),
        ];
        for (round, b) in [
            (1, bag(2, 2, 2, 2, 2)),
            (2, bag(3, 2, 4, 2, 2)),
            (7, bag(0, 1, 2, 0, 1)),
        ] {
            draws.push(chips_record(round, &b, &chips(source, round, &b)));
        }
        draws
    }

    #[test]
    fn records_hold_the_fixed_vectors_in_the_specified_layout() {
        let draws = sample_draws(&test_seed(), TEST_GAME_ID);
        let json: Vec<Value> = draws
            .iter()
            .map(|d| serde_json::to_value(d).expect("json"))
            .collect();
        assert_eq!(
            json[0],
            serde_json::json!({"index": 0, "purpose": "privates-dealer", "players": 5, "result": [3],
                "population": [1, 2, 3, 4, 5], "count": 1})
        );
        assert_eq!(json[1]["copies"], 6);
        assert_eq!(json[1]["result"], serde_json::json!(TEST_DECK_6.to_vec()));
        assert_eq!(
            json[2],
            serde_json::json!({
                "index": 1, "purpose": "privates-chips",
                "bag": {"red": 2, "yellow": 2, "green": 2, "blue": 2, "black": 2},
                "result": ["green", "red", "red", "blue", "black", "blue", "yellow"],
                "population": ["red", "red", "yellow", "yellow", "green", "green", "blue",
                               "blue", "black", "black"],
                "count": 7
            })
        );
        assert_eq!(
            json[4]["result"],
            serde_json::json!(["green", "green", "black", "yellow"])
        );
    }

    #[test]
    fn the_privates_example_export_in_the_specification_verifies() {
        let doc = include_str!("../../../docs/DICE.md");
        let at = doc
            .find("\"game_id\": \"test-privates\"")
            .expect("the Privates example in docs/DICE.md");
        let start = doc[..at].rfind("```json\n").expect("its code block") + "```json\n".len();
        let len = doc[start..].find("```").expect("end of the example");
        let export: AuditExport = serde_json::from_str(&doc[start..start + len]).expect("parse");
        assert_eq!(export.seed.as_deref(), Some(TEST_SEED_HEX));
        let report = verify(&export, &PrivatesDraws).expect("verifies");
        assert!(report.is_ok(), "{report:?}");
        assert_eq!(report.draws_checked, 3);
    }

    #[test]
    fn verify_accepts_genuine_records_and_reports_tampering() {
        let seed = Seed::generate().expect("OS randomness");
        let export = AuditExport::revealed("game-1", &seed, sample_draws(&seed, "game-1"));
        let report = verify(&export, &PrivatesDraws).expect("verifies");
        assert!(report.is_ok(), "{report:?}");
        assert_eq!(report.draws_checked, 5);
        let mut tampered = export.clone();
        tampered.draws[0].result = serde_json::json!([6]);
        tampered.draws[2].index = 2;
        let report = verify(&tampered, &PrivatesDraws).expect("checkable");
        assert_eq!(report.mismatches.len(), 2);
    }

    #[test]
    fn verify_rejects_malformed_records() {
        let seed = test_seed();
        let draws = sample_draws(&seed, TEST_GAME_ID);
        let mut seven_players = draws[0].clone();
        seven_players
            .inputs
            .insert("players".into(), Value::from(7));
        let mut late_dealer = draws[0].clone();
        late_dealer.index = 1;
        let mut four_copies = draws[1].clone();
        four_copies.inputs.insert("copies".into(), Value::from(4));
        let mut no_bag = draws[2].clone();
        no_bag.inputs.remove("bag");
        let mut short_bag = draws[2].clone();
        short_bag
            .inputs
            .insert("bag".into(), serde_json::json!({"red": 2, "yellow": 2}));
        let mut round_zero = draws[2].clone();
        round_zero.index = 0;
        for record in [
            seven_players,
            late_dealer,
            four_copies,
            no_bag,
            short_bag,
            round_zero,
        ] {
            let export = AuditExport::revealed(TEST_GAME_ID, &seed, vec![record]);
            assert!(
                matches!(
                    verify(&export, &PrivatesDraws),
                    Err(DiceError::InvalidRecord { .. })
                ),
                "{export:?}"
            );
        }
        let other = DrawRecord::new(0, "city-cubes", [], Value::Null);
        assert!(recompute(&other, DrawSource::v1(&seed, TEST_GAME_ID)).is_none());
    }

    #[test]
    fn python_verifier_agrees() {
        let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tools/verify_draws.py");
        if Command::new("python3").arg("--version").output().is_err() {
            eprintln!("note: python3 not found; skipping the tools/verify_draws.py test");
            return;
        }
        let seed = Seed::generate().expect("OS randomness");
        let mut draws = sample_draws(&seed, "python-privates");
        let source = DrawSource {
            spec: gaugebot_table::dice::Spec::V1,
            message_id: "",
            seed: &seed,
            game_id: "python-privates",
        };
        for players in MIN_PLAYERS..=MAX_PLAYERS {
            draws.push(dealer_record(players, dealer(source, players)));
        }
        draws.push(deck_record(5, &deck(source, 5)));
        for round in 1..=30u64 {
            let b = bag(
                (round % 4) as u8,
                (round % 3) as u8,
                2,
                (round % 5) as u8,
                (round % 2) as u8,
            );
            draws.push(chips_record(round, &b, &chips(source, round, &b)));
        }
        let count = draws.len();
        let export = AuditExport::revealed("python-privates", &seed, draws);
        let run = |export: &AuditExport| {
            let file = tempfile::NamedTempFile::new().expect("temp file");
            serde_json::to_writer_pretty(file.as_file(), export).expect("write export");
            Command::new("python3")
                .arg(&script)
                .arg(file.path())
                .output()
                .expect("run python3")
        };
        let output = run(&export);
        let stdout = String::from_utf8_lossy(&output.stdout);
        assert!(output.status.success(), "{stdout}");
        assert_eq!(
            stdout.lines().filter(|l| l.starts_with("OK ")).count(),
            count
        );
        let mut tampered = export.clone();
        tampered.draws[2].result = serde_json::json!(vec!["red"; 7]);
        assert_eq!(run(&tampered).status.code(), Some(1));
    }

    /// The `gaugebot-dice-v3` vectors of docs/DICE.md §9.6 (also in `verify_draws.py
    /// --selftest`): keys, draws and the deck's sealed hash.
    #[test]
    fn fixed_vectors_v3() {
        let seed = test_seed();
        let source = DrawSource {
            spec: gaugebot_table::dice::Spec::V3,
            message_id: "1190123456789012345",
            seed: &seed,
            game_id: TEST_GAME_ID,
        };
        let hex = |bytes: [u8; 32]| bytes.iter().map(|b| format!("{b:02x}")).collect::<String>();
        assert_eq!(
            hex(source.key(0, PURPOSE_DEALER)),
            "255fe67e4da307cfda3695e5a5396452079c7cfe2264f7e42a237eece1ca64f3"
        );
        assert_eq!(
            hex(source.key(0, PURPOSE_DECK)),
            "bddb191bd56c91fa84b2d19836d5bcc9cb3411042ae1543a01c59cc99a848892"
        );
        assert_eq!(
            hex(source.key(1, PURPOSE_CHIPS)),
            "68e92a304de3d3a7b05d797de89a99cb228378fb2881dfb63a3ae0fa103b09c4"
        );
        assert_eq!(dealer(source, 4), 3);
        let deck = deck(source, 6);
        assert_eq!(
            deck,
            [
                25, 40, 20, 40, 50, 30, 10, 40, 50, 35, 5, 20, 15, 15, 35, 15, 30, 35, 30, 10, 40,
                10, 20, 35, 15, 5, 50, 5, 10, 25, 30, 10, 20, 35, 40, 5, 5, 15, 35, 10, 25, 50, 30,
                5, 30, 25, 20, 50, 25, 40, 15, 50, 25, 20
            ]
        );
        let record = deck_record(6, &deck);
        assert!(record.is_hidden() && record.fills() == Some("deck"));
        assert_eq!(
            gaugebot_table::dice::sealed_hash(&source.key(0, PURPOSE_DECK), &record.result),
            "b4e923c93499edd4ed5df3664f0962917b3b9045e6da90faa23301e769a2918c"
        );
        let names: Vec<String> = chips(source, 1, &bag(2, 2, 2, 2, 2))
            .iter()
            .map(|c| c.to_string())
            .collect();
        assert_eq!(
            names,
            ["red", "black", "green", "black", "blue", "yellow", "red"]
        );
    }
}
