//! The phrasing reader against the players' corpus (`tests/phrasing/corpus.txt`, whose header
//! documents the format and the positions), and its properties: every move the engine prints
//! reads back as itself, canonically; filler, punctuation and case never change what a move
//! reads as.

use std::collections::BTreeSet;

use proptest::prelude::*;

use irish_gauge::board::HEX_COUNT;
use irish_gauge::game::Phase;
use irish_gauge::notation::{
    check_named_share, read, read_in, Ambiguity, NamedShareError, Reading, HELP_PHRASING,
};
use irish_gauge::{Action, Actor, Colour, Game, HexId, NotationError, Railway, Seat, Setup};

#[path = "phrasing/long_texts.rs"]
mod long_texts;

use long_texts::long_texts;

const CORPUS: &str = include_str!("phrasing/corpus.txt");

/// What a corpus line expects.
#[derive(Debug, Clone)]
enum Expect {
    Accept {
        action: String,
        named: Option<Railway>,
        canonical: bool,
    },
    Chat,
    Suggest(String),
    SuggestWord(String),
    Ambiguous {
        why: String,
        options: Option<BTreeSet<String>>,
    },
    Refuse {
        kind: String,
        text: Option<String>,
    },
}

/// One corpus line.
#[derive(Debug, Clone)]
struct Line {
    number: usize,
    position: Option<String>,
    phrasing: String,
    expect: Expect,
}

fn parse_expect(phrasing: &str, text: &str) -> Result<Expect, String> {
    let text = text.trim();
    if text == "chat" {
        return Ok(Expect::Chat);
    }
    // Chat at the table that the reader alone refuses: it does not start as a move, so the
    // table takes it as chat (docs/PHRASING.md); the reader's refusal is still checked.
    if let Some(rest) = text.strip_prefix("aside ") {
        return parse_expect(phrasing, &format!("refuse {rest}"));
    }
    if let Some(rest) = text.strip_prefix("accept ") {
        let mut rest = rest.trim().to_string();
        let mut canonical = false;
        let mut named = None;
        loop {
            if let Some(r) = rest.strip_suffix("(canonical)") {
                canonical = true;
                rest = r.trim().to_string();
            } else if let Some((r, tag)) = rest.rsplit_once("(named ") {
                let code = tag.trim_end_matches(')').trim();
                named = Some(
                    code.parse::<Railway>()
                        .map_err(|()| format!("no railway {code}"))?,
                );
                rest = r.trim().to_string();
            } else {
                break;
            }
        }
        let canonical = canonical || phrasing == rest;
        return Ok(Expect::Accept {
            action: rest,
            named,
            canonical,
        });
    }
    if let Some(word) = text.strip_prefix("suggest word ") {
        return Ok(Expect::SuggestWord(word.trim().to_string()));
    }
    if let Some(action) = text.strip_prefix("suggest ") {
        return Ok(Expect::Suggest(action.trim().to_string()));
    }
    if let Some(rest) = text.strip_prefix("ambiguous ") {
        let (why, options) = match rest.split_once(':') {
            Some((why, options)) => (
                why.trim().to_string(),
                Some(options.split('|').map(|o| o.trim().to_string()).collect()),
            ),
            None => (rest.trim().to_string(), None),
        };
        if !["or", "two values", "no hex", "no railway", "question"].contains(&why.as_str()) {
            return Err(format!("no ambiguity '{why}'"));
        }
        return Ok(Expect::Ambiguous { why, options });
    }
    if let Some(rest) = text.strip_prefix("refuse ") {
        let (kind, text) = match rest.split_once(':') {
            Some((kind, text)) => (kind.trim().to_string(), Some(text.trim().to_string())),
            None => (rest.trim().to_string(), None),
        };
        let kinds = [
            "syntax",
            "unknown-hex",
            "unknown-railway",
            "unknown-colour",
            "not-under-auction",
            "no-auction",
        ];
        if !kinds.contains(&kind.as_str()) {
            return Err(format!("no refusal kind '{kind}'"));
        }
        return Ok(Expect::Refuse { kind, text });
    }
    Err(format!("no expectation '{text}'"))
}

fn corpus() -> Vec<Line> {
    let mut lines = Vec::new();
    let mut position = None;
    for (i, raw) in CORPUS.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        if let Some(name) = line
            .strip_prefix("[position:")
            .and_then(|l| l.strip_suffix(']'))
        {
            position = Some(name.trim().to_string());
            continue;
        }
        let (phrasing, expect) = line
            .split_once(" => ")
            .unwrap_or_else(|| panic!("corpus line {}: no ' => ' in {line:?}", i + 1));
        let phrasing = phrasing.trim().to_string();
        let expect = parse_expect(&phrasing, expect)
            .unwrap_or_else(|e| panic!("corpus line {}: {e}", i + 1));
        lines.push(Line {
            number: i + 1,
            position: position.clone(),
            phrasing,
            expect,
        });
    }
    lines
}

/// The corpus positions, as the header describes them; the seat is the player asked to act.
fn position(name: &str) -> (Game, Seat) {
    let setup = Setup {
        players: vec!["ann".into(), "bob".into(), "cat".into()],
        order: vec![1, 2, 3],
        cities: [5, 2, 3, 11, 4, 7, 9, 12],
    };
    let mut game = Game::new(&setup).expect("the corpus setup is valid");
    let asked = |game: &Game| match game.to_act() {
        Actor::Player { seat } => seat,
        other => panic!("nobody to act in position {name}: {other:?}"),
    };
    let pass_until = |game: &mut Game, stop: &dyn Fn(&Phase) -> bool| {
        for _ in 0..100 {
            if stop(game.phase()) {
                return;
            }
            let seat = asked(game);
            game.play(seat, &Action::Pass)
                .unwrap_or_else(|e| panic!("setting up {name}: pass refused: {e}"));
        }
        panic!("position {name} never reached");
    };
    let initial = |railway: Railway| move |phase: &Phase| matches!(phase, Phase::InitialAuction { auction, .. } if auction.railway == railway);
    let turn = |phase: &Phase| matches!(phase, Phase::Turn { .. });
    match name {
        "initial auction of CBSC" => pass_until(&mut game, &initial(Railway::Cbsc)),
        "initial auction of WLW" => pass_until(&mut game, &initial(Railway::Wlw)),
        "turn" => pass_until(&mut game, &turn),
        "auction of GSW" => {
            pass_until(&mut game, &turn);
            let seat = asked(&game);
            let open = Action::Auction {
                railway: Railway::Gsw,
                opening_bid: None,
            };
            game.play(seat, &open)
                .unwrap_or_else(|e| panic!("setting up {name}: {e}"));
        }
        other => panic!("the corpus names an unknown position '{other}'"),
    }
    let seat = asked(&game);
    (game, seat)
}

/// Checks one line; the error says what went wrong.
fn check(line: &Line) -> Result<(), String> {
    let reading = match line.position.as_deref() {
        Some(name) => read_in(&position(name).0, &line.phrasing),
        None => read(&line.phrasing),
    };
    let got = || format!("read as {reading:?} ({reading})");
    let named_check = line.position.as_deref().map(|name| {
        let (game, seat) = position(name);
        (check_named_share(&game, &reading), game, seat)
    });
    match &line.expect {
        Expect::Accept {
            action: expected,
            named: expected_named,
            canonical: expected_canonical,
        } => {
            let Reading::Move {
                action,
                canonical,
                named,
            } = &reading
            else {
                return Err(got());
            };
            if action.to_string() != *expected {
                return Err(format!("{} instead of {expected}", got()));
            }
            if named != expected_named {
                return Err(format!(
                    "{}: named {named:?}, expected {expected_named:?}",
                    got()
                ));
            }
            if canonical != expected_canonical {
                return Err(format!(
                    "{}: canonical {canonical}, expected {expected_canonical}",
                    got()
                ));
            }
            if let Some((result, game, seat)) = named_check {
                result.map_err(|e| format!("named share refused: {e}"))?;
                let mut game = game;
                game.play(seat, action)
                    .map_err(|e| format!("not legal in the position: {e}"))?;
            }
            Ok(())
        }
        Expect::Chat => match reading {
            Reading::Chat => Ok(()),
            _ => Err(got()),
        },
        Expect::Suggest(expected) => match &reading {
            Reading::NearMiss {
                suggestion: Some(action),
                ..
            } if action.to_string() == *expected => Ok(()),
            _ => Err(got()),
        },
        Expect::SuggestWord(word) => match &reading {
            Reading::NearMiss {
                meant,
                suggestion: None,
                ..
            } if meant == word => Ok(()),
            _ => Err(got()),
        },
        Expect::Ambiguous { why, options } => {
            let Reading::Ambiguous {
                options: got_options,
                why: got_why,
            } = &reading
            else {
                return Err(got());
            };
            let tag = match got_why {
                Ambiguity::Alternatives => "or",
                Ambiguity::TwoValues => "two values",
                Ambiguity::NoHex { .. } => "no hex",
                Ambiguity::NoRailway => "no railway",
                Ambiguity::Question => "question",
            };
            if tag != why {
                return Err(format!("{}: ambiguity '{tag}', expected '{why}'", got()));
            }
            if let Some(options) = options {
                let got_set: BTreeSet<String> = got_options.iter().map(Action::to_string).collect();
                if got_set != *options {
                    return Err(format!(
                        "{}: options {got_set:?}, expected {options:?}",
                        got()
                    ));
                }
            }
            Ok(())
        }
        Expect::Refuse { kind, text } => {
            let message = match kind.as_str() {
                "not-under-auction" | "no-auction" => {
                    let Some((result, ..)) = named_check else {
                        return Err(format!("'{kind}' needs a position section"));
                    };
                    match (kind.as_str(), result) {
                        ("not-under-auction", Err(e @ NamedShareError::NotUnderAuction { .. }))
                        | ("no-auction", Err(e @ NamedShareError::NoAuction { .. })) => {
                            e.to_string()
                        }
                        (_, result) => {
                            return Err(format!("{}; named share check {result:?}", got()))
                        }
                    }
                }
                _ => {
                    let Reading::Malformed(error) = &reading else {
                        return Err(got());
                    };
                    let got_kind = match error {
                        NotationError::Syntax { .. } | NotationError::Empty => "syntax",
                        NotationError::UnknownCommand { .. } => "unknown-command",
                        NotationError::UnknownHex { .. } => "unknown-hex",
                        NotationError::UnknownRailway { .. } => "unknown-railway",
                        NotationError::UnknownColour { .. } => "unknown-colour",
                    };
                    if got_kind != kind {
                        return Err(format!("{}: '{got_kind}', expected '{kind}'", got()));
                    }
                    error.to_string()
                }
            };
            match text {
                Some(text) if !message.contains(text.as_str()) => {
                    Err(format!("the reason {message:?} does not say {text:?}"))
                }
                _ => Ok(()),
            }
        }
    }
}

#[test]
fn the_corpus_reads_as_expected() {
    let lines = corpus();
    let failures: Vec<String> = lines
        .iter()
        .filter_map(|line| {
            check(line)
                .err()
                .map(|e| format!("line {} {:?}: {e}", line.number, line.phrasing))
        })
        .collect();
    assert!(
        failures.is_empty(),
        "{} of {} corpus lines read wrongly:\n{}",
        failures.len(),
        lines.len(),
        failures.join("\n")
    );
}

#[test]
fn the_corpus_is_large_and_covers_every_kind_of_reading() {
    let lines = corpus();
    assert!(lines.len() >= 100, "only {} phrasings", lines.len());
    let count = |f: &dyn Fn(&Expect) -> bool| lines.iter().filter(|l| f(&l.expect)).count();
    let accepted = count(&|e| matches!(e, Expect::Accept { .. }));
    let echoed = count(&|e| {
        matches!(
            e,
            Expect::Accept {
                canonical: false,
                ..
            }
        )
    });
    let named = count(&|e| matches!(e, Expect::Accept { named: Some(_), .. }));
    let chat = count(&|e| matches!(e, Expect::Chat));
    let near = count(&|e| matches!(e, Expect::Suggest(_) | Expect::SuggestWord(_)));
    let ambiguous = count(&|e| matches!(e, Expect::Ambiguous { .. }));
    let refused = count(&|e| matches!(e, Expect::Refuse { .. }));
    for (what, n) in [
        ("accepted", accepted),
        ("echoed", echoed),
        ("named", named),
        ("chat", chat),
        ("near misses", near),
        ("ambiguous", ambiguous),
        ("refused", refused),
    ] {
        assert!(n >= 5, "only {n} {what} phrasings");
    }
    let phrasings: BTreeSet<(Option<String>, String)> = lines
        .iter()
        .map(|l| (l.position.clone(), l.phrasing.clone()))
        .collect();
    assert_eq!(phrasings.len(), lines.len(), "a phrasing is listed twice");
}

#[test]
fn the_help_text_is_in_the_phrasing_doc() {
    let doc = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/PHRASING.md"))
        .expect("docs/PHRASING.md exists");
    assert!(
        doc.contains(HELP_PHRASING),
        "docs/PHRASING.md does not quote HELP_PHRASING verbatim"
    );
}

// ============================================================================ Properties

fn any_railway() -> impl Strategy<Value = Railway> {
    proptest::sample::select(Railway::ALL.to_vec())
}

fn any_colour() -> impl Strategy<Value = Colour> {
    proptest::sample::select(Colour::ALL.to_vec())
}

fn any_hex() -> impl Strategy<Value = HexId> {
    (0..HEX_COUNT as u8).prop_map(HexId)
}

/// Any move the engine can print (a build names at least one hex, as every legal build does).
fn printable_action() -> impl Strategy<Value = Action> {
    prop_oneof![
        any::<u32>().prop_map(|amount| Action::Bid { amount }),
        Just(Action::Pass),
        (any_railway(), proptest::option::of(any::<u32>())).prop_map(|(railway, opening_bid)| {
            Action::Auction {
                railway,
                opening_bid,
            }
        }),
        (any_railway(), proptest::collection::vec(any_hex(), 1..5))
            .prop_map(|(railway, hexes)| Action::Build { railway, hexes }),
        (any_hex(), any_colour())
            .prop_map(|(town, colour)| Action::SpecialInterest { town, colour }),
        Just(Action::CallDividends),
    ]
}

/// Every accepted phrasing of the corpus, position sections included.
fn accepted_phrasings() -> Vec<String> {
    corpus()
        .into_iter()
        .filter(|l| matches!(l.expect, Expect::Accept { .. }))
        .map(|l| l.phrasing)
        .collect()
}

/// The position an accepted corpus phrasing is read in: none when it is accepted anywhere (a
/// line before the first position header, or a printed move), else its section's.
fn position_of(phrasing: &str) -> Option<String> {
    let lines: Vec<Line> = corpus()
        .into_iter()
        .filter(|l| l.phrasing == phrasing && matches!(l.expect, Expect::Accept { .. }))
        .collect();
    if lines.is_empty() || lines.iter().any(|l| l.position.is_none()) {
        return None;
    }
    lines.into_iter().find_map(|l| l.position)
}

/// Reads `text`, a dressed form of `base`, where the corpus reads `base`.
fn read_where(base: &str, text: &str) -> Reading {
    match position_of(base) {
        Some(name) => read_in(&position(&name).0, text),
        None => read(text),
    }
}

/// A phrasing to dress: a printed move or an accepted corpus phrasing.
fn accepted_phrasing() -> impl Strategy<Value = String> {
    prop_oneof![
        printable_action().prop_map(|a| a.to_string()),
        proptest::sample::select(accepted_phrasings()),
    ]
}

const PREFIXES: [&str; 12] = [
    "",
    "I ",
    "I'll ",
    "I will ",
    "I'd like to ",
    "I\u{2019}d like to ",
    "Please ",
    "please, ",
    "OK, ",
    "Ok so I'll ",
    "i would like to ",
    "Let me ",
];

const SUFFIXES: [&str; 11] = [
    "",
    " please",
    "!",
    ".",
    ", thanks",
    " please!",
    " thank you",
    "!!",
    " now",
    " then",
    ", sorry",
];

/// Changes the case of a text: 0 as is, 1 upper, 2 lower, 3 alternating.
fn recase(text: &str, how: u8) -> String {
    match how {
        1 => text.to_uppercase(),
        2 => text.to_lowercase(),
        3 => text
            .chars()
            .enumerate()
            .flat_map(|(i, c)| {
                if i % 2 == 0 {
                    c.to_uppercase().collect::<Vec<_>>()
                } else {
                    c.to_lowercase().collect::<Vec<_>>()
                }
            })
            .collect(),
        _ => text.to_string(),
    }
}

proptest! {
    // Failing cases are saved beside this file (`*.proptest-regressions`, committed) and run
    // first on every later run.
    #![proptest_config(ProptestConfig {
        cases: 2000,
        failure_persistence: Some(Box::new(
            proptest::test_runner::FileFailurePersistence::SourceParallel("proptest-regressions"),
        )),
        ..ProptestConfig::default()
    })]

    /// Every move the engine prints reads back as itself, canonically and naming no share.
    #[test]
    fn every_printed_move_reads_back_as_itself(action in printable_action()) {
        let text = action.to_string();
        prop_assert_eq!(
            read(&text),
            Reading::Move { action: action.clone(), canonical: true, named: None },
            "{}", text
        );
    }

    /// Filler, punctuation and case never change the move a text reads as. A changed text is
    /// canonical exactly when it is the printed notation itself: filler never is, but recasing
    /// can make an accepted phrasing strict (`PASS` lowered is `pass`).
    #[test]
    fn filler_never_changes_a_reading(
        base in accepted_phrasing(),
        prefix in proptest::sample::select(PREFIXES.to_vec()),
        suffix in proptest::sample::select(SUFFIXES.to_vec()),
        case in 0u8..4,
    ) {
        let Reading::Move { action, named, canonical: base_canonical } = read_where(&base, &base)
        else {
            return Err(TestCaseError::fail(format!(
                "{base:?} is not accepted: {}",
                read_where(&base, &base)
            )));
        };
        let dressed = recase(&format!("{prefix}{base}{suffix}"), case);
        match read_where(&base, &dressed) {
            Reading::Move { action: a, named: n, canonical } => {
                prop_assert_eq!(&a, &action, "{:?} read as {} but {:?} as {}", base, action, dressed, a);
                prop_assert_eq!(n, named, "{:?}", dressed);
                if dressed == base {
                    prop_assert_eq!(canonical, base_canonical);
                } else {
                    let written = dressed.split_whitespace().collect::<Vec<_>>().join(" ");
                    let printed = written == action.to_string();
                    prop_assert_eq!(
                        canonical, printed,
                        "{:?} (the move prints as {:?}) is marked canonical: {}", dressed, action.to_string(), canonical
                    );
                }
            }
            other => prop_assert!(false, "{:?} read as {} but {:?} as {:?}", base, action, dressed, other),
        }
    }

    /// Whatever the text, reading never panics, and a refusal always says something.
    #[test]
    fn reading_any_text_explains_itself(text in "\\PC{0,40}") {
        let reading = read(&text);
        if !reading.is_chat() {
            prop_assert!(!reading.to_string().trim().is_empty(), "{:?}", text);
        }
    }
}

/// Long texts read as something (a move, chat or a refusal that says why). How long reading them
/// takes is measured in `benches/phrasing.rs` (BENCHMARKS.md), not asserted here.
#[test]
fn long_texts_are_read() {
    for text in long_texts() {
        let reading = read(&text);
        assert!(!reading.to_string().is_empty());
    }
}
