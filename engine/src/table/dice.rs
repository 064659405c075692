//! Irish Gauge's draws on the audited dice (docs/DICE.md): the seating roll, the city cubes and
//! the dividend draws, their audit records, and their recomputation for the verifier.

use gaugebot_table::dice::{DiceError, DrawRecord, DrawSource};
use serde_json::Value;

use crate::{Colour, CubeCounts};

/// Purpose of the seating roll (drawn at history index 0).
pub const PURPOSE_PLAYER_ORDER: &str = "player-order";
/// Purpose of the setup roll of the eight city cubes (drawn at history index 0).
pub const PURPOSE_CITY_CUBES: &str = "city-cubes";
/// Purpose of a dividend draw of cubes from the supply (drawn at the dividend call's index).
pub const PURPOSE_DIVIDEND_DRAW: &str = "dividend-draw";

/// The cities that receive a setup cube, in the order of the numbers of [`city_cubes`].
pub use crate::board::CITY_DRAW_ORDER as CITY_CUBE_CITIES;

/// The fewest players of a game (the lower bound of a `player-order` record).
pub const MIN_PLAYERS: usize = 3;
/// The most players of a game (the upper bound of a `player-order` record).
pub const MAX_PLAYERS: usize = 5;
/// Cubes drawn by a dividend (fewer if the supply holds fewer).
pub const DIVIDEND_DRAW_SIZE: usize = 3;

/// The seating roll ("NpN"): the sign-up numbers `1..=players` drawn in full, seat by seat.
///
/// Drawn at history index 0 with purpose `player-order`. Games have 3 to 5 players; counts above
/// 255 are capped at 255.
pub fn player_order(source: DrawSource<'_>, players: usize) -> Vec<u8> {
    let players = u8::try_from(players).unwrap_or(u8::MAX);
    let list: Vec<u8> = (1..=players).collect();
    let all = list.len();
    source
        .stream(0, PURPOSE_PLAYER_ORDER)
        .pick_without_replacement(list, all)
}

/// The setup roll of the city cubes ("12p8"): eight of the numbers `1..=12`, for
/// [`CITY_CUBE_CITIES`] in order (1–4 white, 5–8 pink, 9–12 black; see
/// [`Colour::of_setup_number`]).
///
/// Drawn at history index 0 with purpose `city-cubes`.
pub fn city_cubes(source: DrawSource<'_>) -> [u8; 8] {
    let list: Vec<u8> = (1..=12).collect();
    let picked = source
        .stream(0, PURPOSE_CITY_CUBES)
        .pick_without_replacement(list, 8);
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
pub fn dividend_draw(source: DrawSource<'_>, index: u64, supply: CubeCounts) -> Vec<Colour> {
    let bag: Vec<Colour> = Colour::ALL
        .into_iter()
        .flat_map(|colour| std::iter::repeat_n(colour, usize::from(supply.get(colour))))
        .collect();
    let picks = DIVIDEND_DRAW_SIZE.min(bag.len());
    source
        .stream(index, PURPOSE_DIVIDEND_DRAW)
        .pick_without_replacement(bag, picks)
}

/// The audit record of the seating roll.
pub fn player_order_record(order: &[u8]) -> DrawRecord {
    DrawRecord::new(
        0,
        PURPOSE_PLAYER_ORDER,
        [("players", Value::from(order.len()))],
        numbers_value(order),
    )
    .with_population((1..=order.len()).map(Value::from).collect(), order.len())
}

/// The audit record of the city-cube roll.
pub fn city_cubes_record(cities: &[u8]) -> DrawRecord {
    DrawRecord::new(0, PURPOSE_CITY_CUBES, [], numbers_value(cities))
        .with_population((1..=12).map(Value::from).collect(), 8)
}

/// The audit record of a dividend draw.
pub fn dividend_record(index: u64, supply: CubeCounts, cubes: &[Colour]) -> DrawRecord {
    DrawRecord::new(
        index,
        PURPOSE_DIVIDEND_DRAW,
        [(
            "supply",
            serde_json::to_value(supply).unwrap_or(Value::Null),
        )],
        colours_value(cubes),
    )
    .with_population(
        Colour::ALL
            .into_iter()
            .flat_map(|colour| std::iter::repeat_n(colour, usize::from(supply.get(colour))))
            .map(|c| Value::from(c.name()))
            .collect(),
        DIVIDEND_DRAW_SIZE.min(usize::from(supply.total())),
    )
}

/// Recomputes a record of one of Irish Gauge's purposes; `None` for other purposes.
pub fn recompute(record: &DrawRecord, source: DrawSource<'_>) -> Option<Result<Value, DiceError>> {
    let result = match record.purpose.as_str() {
        PURPOSE_PLAYER_ORDER => {
            if record.index != 0 {
                return Some(Err(record.invalid("player-order must be drawn at index 0")));
            }
            match record
                .input("players")
                .and_then(Value::as_u64)
                .and_then(|p| usize::try_from(p).ok())
            {
                Some(players) if (MIN_PLAYERS..=MAX_PLAYERS).contains(&players) => {
                    Ok(numbers_value(&player_order(source, players)))
                }
                _ => Err(record.invalid("player-order needs players between 3 and 5")),
            }
        }
        PURPOSE_CITY_CUBES => {
            if record.index != 0 {
                return Some(Err(record.invalid("city-cubes must be drawn at index 0")));
            }
            Ok(numbers_value(&city_cubes(source)))
        }
        PURPOSE_DIVIDEND_DRAW => match record
            .input("supply")
            .and_then(|s| serde_json::from_value::<CubeCounts>(s.clone()).ok())
        {
            Some(supply) => Ok(colours_value(&dividend_draw(source, record.index, supply))),
            None => Err(record.invalid("dividend-draw needs the supply")),
        },
        _ => return None,
    };
    Some(result)
}

fn numbers_value(numbers: &[u8]) -> Value {
    Value::Array(numbers.iter().map(|&n| Value::from(n)).collect())
}

fn colours_value(colours: &[Colour]) -> Value {
    Value::Array(colours.iter().map(|c| Value::from(c.name())).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use gaugebot_table::dice::{verify, AuditExport, Mismatch, Recompute, Seed};
    use std::path::PathBuf;
    use std::process::Command;

    // Fixed test vectors, computed independently by `python3 tools/verify_draws.py --selftest`
    // (pure-Python ChaCha20, cross-checked against OpenSSL's ChaCha20). Never edit them to make a
    // test pass.
    const TEST_SEED_HEX: &str = "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f";
    const TEST_GAME_ID: &str = "test-game";
    const TEST_COMMITMENT: &str =
        "630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd";
    const TEST_PLAYER_ORDER_3: [u8; 3] = [3, 2, 1];
    const TEST_PLAYER_ORDER_4: [u8; 4] = [4, 1, 3, 2];
    const TEST_PLAYER_ORDER_5: [u8; 5] = [3, 2, 4, 5, 1];
    const TEST_CITY_CUBES: [u8; 8] = [10, 2, 8, 4, 5, 6, 3, 12];
    const TEST_DIVIDEND_12: [Colour; 3] = [Colour::White, Colour::White, Colour::Pink];

    struct IrishGaugeDraws;

    impl Recompute for IrishGaugeDraws {
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

    fn supply(white: u8, pink: u8, black: u8) -> CubeCounts {
        CubeCounts { white, pink, black }
    }

    fn dividend(seed: &Seed, game_id: &str, index: u64, s: CubeCounts) -> DrawRecord {
        dividend_record(
            index,
            s,
            &dividend_draw(DrawSource::v1(seed, game_id), index, s),
        )
    }

    fn sample_draws(seed: &Seed, game_id: &str) -> Vec<DrawRecord> {
        vec![
            player_order_record(&player_order(DrawSource::v1(seed, game_id), 4)),
            city_cubes_record(&city_cubes(DrawSource::v1(seed, game_id))),
            dividend(seed, game_id, 12, supply(7, 8, 7)),
            dividend(seed, game_id, 31, supply(3, 0, 1)),
            dividend(seed, game_id, 57, supply(1, 1, 0)),
            dividend(seed, game_id, 80, supply(0, 0, 0)),
        ]
    }

    #[test]
    fn fixed_vector_draws() {
        let seed = test_seed();
        assert_eq!(seed.commitment(), TEST_COMMITMENT);
        assert_eq!(
            player_order(DrawSource::v1(&seed, TEST_GAME_ID), 3),
            TEST_PLAYER_ORDER_3
        );
        assert_eq!(
            player_order(DrawSource::v1(&seed, TEST_GAME_ID), 4),
            TEST_PLAYER_ORDER_4
        );
        assert_eq!(
            player_order(DrawSource::v1(&seed, TEST_GAME_ID), 5),
            TEST_PLAYER_ORDER_5
        );
        assert_eq!(
            city_cubes(DrawSource::v1(&seed, TEST_GAME_ID)),
            TEST_CITY_CUBES
        );
        assert_eq!(
            dividend_draw(DrawSource::v1(&seed, TEST_GAME_ID), 12, supply(7, 8, 7)),
            TEST_DIVIDEND_12
        );
    }

    #[test]
    fn player_order_is_a_permutation() {
        let seed = Seed::generate().expect("OS randomness");
        for players in MIN_PLAYERS..=MAX_PLAYERS {
            let mut order = player_order(DrawSource::v1(&seed, "perm"), players);
            order.sort_unstable();
            assert_eq!(order, (1..=players as u8).collect::<Vec<_>>());
        }
    }

    #[test]
    fn city_cubes_are_distinct_setup_numbers() {
        let seed = Seed::generate().expect("OS randomness");
        let cubes = city_cubes(DrawSource::v1(&seed, "cities"));
        for (i, &n) in cubes.iter().enumerate() {
            assert!(Colour::of_setup_number(n).is_some());
            assert!(!cubes[..i].contains(&n));
        }
    }

    #[test]
    fn dividend_draw_respects_the_supply() {
        let seed = test_seed();
        assert!(dividend_draw(DrawSource::v1(&seed, TEST_GAME_ID), 5, supply(0, 0, 0)).is_empty());
        assert_eq!(
            dividend_draw(DrawSource::v1(&seed, TEST_GAME_ID), 5, supply(0, 2, 0)),
            [Colour::Pink, Colour::Pink]
        );
        assert_eq!(
            dividend_draw(DrawSource::v1(&seed, TEST_GAME_ID), 5, supply(0, 0, 9)),
            [Colour::Black; 3]
        );
        for index in 0..200 {
            let drawn = dividend_draw(DrawSource::v1(&seed, TEST_GAME_ID), index, supply(1, 2, 1));
            assert_eq!(drawn.len(), 3);
            for colour in Colour::ALL {
                let n = drawn.iter().filter(|&&c| c == colour).count();
                assert!(n <= usize::from(supply(1, 2, 1).get(colour)));
            }
        }
    }

    #[test]
    fn same_position_same_draw() {
        let seed = test_seed();
        let s = supply(7, 8, 7);
        // Undo and redo from the same history position: the same draw.
        assert_eq!(
            dividend_draw(DrawSource::v1(&seed, TEST_GAME_ID), 40, s),
            dividend_draw(DrawSource::v1(&seed, TEST_GAME_ID), 40, s)
        );
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
        // The first version's layout: inputs are fields of the record.
        let json = serde_json::to_value(&draws[2]).expect("json");
        assert_eq!(
            json["supply"],
            serde_json::json!({"white": 7, "pink": 8, "black": 7})
        );
        assert_eq!(serde_json::to_value(&draws[0]).expect("json")["players"], 4);
    }

    #[test]
    fn verify_accepts_a_genuine_export() {
        let seed = Seed::generate().expect("OS randomness");
        let export = AuditExport::revealed("game-1", &seed, sample_draws(&seed, "game-1"));
        let json = serde_json::to_string(&export).expect("serialize");
        let parsed: AuditExport = serde_json::from_str(&json).expect("parse");
        assert_eq!(parsed, export);
        let report = verify(&parsed, &IrishGaugeDraws).expect("verifies");
        assert!(report.is_ok(), "{report:?}");
        assert_eq!(report.draws_checked, 6);
    }

    #[test]
    fn verify_reports_a_tampered_draw() {
        let seed = test_seed();
        let mut export =
            AuditExport::revealed(TEST_GAME_ID, &seed, sample_draws(&seed, TEST_GAME_ID));
        export.draws[2].result = serde_json::json!(["black", "white", "pink"]);
        export.draws[0].result = serde_json::json!([1, 2, 3, 4]);
        let report = verify(&export, &IrishGaugeDraws).expect("still checkable");
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
        // A changed input is caught too: the recorded result no longer follows.
        let mut export =
            AuditExport::revealed(TEST_GAME_ID, &seed, sample_draws(&seed, TEST_GAME_ID));
        export.draws[2].index = 13;
        let report = verify(&export, &IrishGaugeDraws).expect("checkable");
        assert_eq!(report.mismatches.len(), 1);
    }

    #[test]
    fn verify_rejects_malformed_records() {
        let seed = test_seed();
        let good = dividend(&seed, TEST_GAME_ID, 12, supply(7, 8, 7));
        let mut no_supply = good.clone();
        no_supply.inputs.remove("supply");
        let mut six_players = player_order_record(&[1, 2, 3, 4]);
        six_players.inputs.insert("players".into(), Value::from(6));
        let mut no_players = player_order_record(&[1, 2, 3, 4]);
        no_players.inputs.remove("players");
        let mut late_cities = city_cubes_record(&[1, 2, 3, 4, 5, 6, 7, 8]);
        late_cities.index = 3;
        let mut coin_flip = good.clone();
        coin_flip.purpose = "coin-flip".into();
        // (A record that describes itself is recomputed whatever its purpose: docs/DICE.md §7.1.)
        coin_flip.inputs.remove("population");
        coin_flip.inputs.remove("count");
        for record in [no_supply, six_players, no_players, late_cities, coin_flip] {
            let export = AuditExport::revealed(TEST_GAME_ID, &seed, vec![record]);
            assert!(
                matches!(
                    verify(&export, &IrishGaugeDraws),
                    Err(DiceError::InvalidRecord { .. })
                ),
                "{export:?}"
            );
        }
    }

    #[test]
    fn the_example_export_in_the_specification_verifies() {
        let doc = include_str!("../../../docs/DICE.md");
        let start = doc.find("```json\n").expect("example in docs/DICE.md") + "```json\n".len();
        let len = doc[start..].find("```").expect("end of the example");
        let export: AuditExport = serde_json::from_str(&doc[start..start + len]).expect("parse");
        assert_eq!(export.game_id, TEST_GAME_ID);
        assert_eq!(export.seed.as_deref(), Some(TEST_SEED_HEX));
        let report = verify(&export, &IrishGaugeDraws).expect("verifies");
        assert!(report.is_ok(), "{report:?}");
        assert_eq!(report.draws_checked, 3);
    }

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
        draws.push(player_order_record(&player_order(
            DrawSource::v1(&seed, "python-game"),
            3,
        )));
        draws.push(player_order_record(&player_order(
            DrawSource::v1(&seed, "python-game"),
            5,
        )));
        for index in 100..140 {
            let s = supply((index % 8) as u8, (index % 5) as u8, (index % 3) as u8);
            draws.push(dividend(&seed, "python-game", index, s));
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

        // A seed that does not match the commitment is a mismatch (1); an export that cannot be
        // checked at all is invalid (2).
        let mut wrong_seed = export.clone();
        wrong_seed.seed = Some(test_seed().to_hex());
        assert_eq!(run_python(&wrong_seed).status.code(), Some(1));
        let sealed = AuditExport::sealed("python-game", &seed, export.draws.clone());
        assert_eq!(run_python(&sealed).status.code(), Some(2));
    }
}
