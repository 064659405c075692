//! What Irish Gauge suggests: the legal values of an argument being typed (slash-command
//! autocomplete), from [`Game::legal_actions`] and trial moves on a copy; the moves the player to
//! act can make with one click; and, in a refusal of a text, the legal move nearest to what was
//! written ([`with_nearest`]), so that every move a refusal offers is one the game accepts now.

use gaugebot_table::game::{Query, QuickMove, Suggestion};

use super::report::Refusal;
use crate::build::format_half_points;
use crate::game::LegalActions;
use crate::notation::{nearest_legal, Ambiguity};
use crate::{Action, Actor, Board, Event, Game, HexId, PlayError, Railway};

/// A refusal of `text` as the player to act reads it, with the legal move nearest to what was
/// written in place of a fixed example or an illegal correction: a near miss whose corrected
/// move is legal stays as it is (`bdi 8`: did you mean **bid 8**?); a near miss or a notation
/// error gets [`Refusal::Closest`] when a legal move of that kind exists (`bid 5.5` with the
/// high bid at £5: **bid 6**); a near miss whose move has no legal kin (`bdi 7` on a turn) is
/// [`Refusal::NotNow`]: its correction and the rule that refuses it, no move offered; a question
/// about a move that is not legal offers no move.
/// Other refusals are returned unchanged.
pub fn with_nearest(game: &Game, text: &str, refusal: Refusal) -> Refusal {
    let Actor::Player { seat } = game.to_act() else {
        return refusal;
    };
    match refusal {
        Refusal::NearMiss {
            suggestion: Some(ref action),
            ..
        } if game.is_legal(seat, action) => refusal,
        Refusal::NearMiss { .. } | Refusal::Notation(_) => match nearest_legal(game, seat, text) {
            Some(nearest) => Refusal::Closest {
                why: Box::new(refusal),
                nearest,
            },
            // No move of that kind is legal now: the correction, and why the rules refuse it.
            None => match &refusal {
                Refusal::NearMiss {
                    suggestion: Some(action),
                    ..
                } => match game.clone().play(seat, action) {
                    Err(error) => Refusal::NotNow {
                        why: Box::new(refusal),
                        rule: Box::new(Refusal::Play(error)),
                    },
                    Ok(_) => refusal,
                },
                // `intrest` in an auction: no fixed example (`interest Sligo pink`), which would
                // not be legal either.
                Refusal::NearMiss {
                    suggestion: None,
                    meant,
                    ..
                } => {
                    let none = format!("no {meant} is legal for you");
                    Refusal::NotNow {
                        why: Box::new(refusal),
                        rule: Box::new(Refusal::Option(none)),
                    }
                }
                _ => refusal,
            },
        },
        Refusal::Unclear {
            ref options,
            why: Ambiguity::Question,
        } if options.iter().any(|o| !game.is_legal(seat, o)) => Refusal::Unclear {
            options: Vec::new(),
            why: Ambiguity::Question,
        },
        other => other,
    }
}

/// The rules' refusal of a move with an amount by the player to act (a bid below the least or
/// over their cash, an auction opened below the share's face value), with the legal amount
/// nearest to it offered ([`Refusal::Closest`]): `bid 5` for the CBSC £7 share offers
/// **bid 7**. The nearest move is of the same kind (a bid; an auction of the same railway);
/// when there is none, or the move has no amount, the rules' refusal stands alone.
pub fn with_nearest_amount(game: &Game, seat: usize, action: &Action, error: PlayError) -> Refusal {
    let to_act = matches!(game.to_act(), Actor::Player { seat: s } if s == seat);
    let amount_move = matches!(
        action,
        Action::Bid { .. }
            | Action::Auction {
                opening_bid: Some(_),
                ..
            }
    );
    if !to_act || !amount_move || !matches!(error, PlayError::Illegal { .. }) {
        return Refusal::Play(error);
    }
    let same_kind = |nearest: &Action| match (action, nearest) {
        (Action::Bid { .. }, Action::Bid { .. }) => true,
        (Action::Auction { railway: a, .. }, Action::Auction { railway: b, .. }) => a == b,
        _ => false,
    };
    match nearest_legal(game, seat, &action.to_string())
        .filter(|nearest| nearest != action && same_kind(nearest))
    {
        Some(nearest) => Refusal::Closest {
            why: Box::new(Refusal::Play(error)),
            nearest,
        },
        None => Refusal::Play(error),
    }
}

/// Every move a refusal offers the player to act as what to write instead: a near miss's
/// suggestion, the nearest legal move, a question's move without its question mark. (The
/// readings listed when a text reads two ways are what was written, not suggestions.)
pub fn offered_moves(refusal: &Refusal) -> Vec<Action> {
    match refusal {
        Refusal::NearMiss {
            suggestion: Some(action),
            ..
        } => vec![action.clone()],
        Refusal::Closest { nearest, .. } => vec![nearest.clone()],
        Refusal::Unclear {
            options,
            why: Ambiguity::Question,
        } => options.clone(),
        _ => Vec::new(),
    }
}

/// The most suggestions Discord shows.
const MAX: usize = 25;

/// Whether `candidate` starts with what is typed (case and spaces ignored).
fn matches(candidate: &str, typed: &str) -> bool {
    let typed = typed.trim().to_lowercase();
    typed.is_empty() || candidate.to_lowercase().starts_with(&typed)
}

/// A hex as players read it: `K3 Shannon`, or `K3` for a hex without a name.
fn hex_label(hex: HexId) -> String {
    match &hex.hex().name {
        Some(name) => format!("{} {name}", hex.label()),
        None => hex.label().to_string(),
    }
}

/// Keeps the suggestions whose label or value starts with what is typed, at most [`MAX`].
fn filtered(all: Vec<Suggestion>, typed: &str) -> Vec<Suggestion> {
    let mut out: Vec<Suggestion> = all
        .iter()
        .filter(|s| matches(&s.value, typed) || matches(&s.label, typed))
        .cloned()
        .collect();
    if out.is_empty() {
        // Typed something else (a town's name in the middle, a typo): show everything.
        out = all;
    }
    out.truncate(MAX);
    out
}

/// Legal values of an argument being typed by `seat` (only the player to act gets any).
pub fn suggest(game: &Game, seat: Option<usize>, query: &Query<'_>) -> Vec<Suggestion> {
    let legal = game.legal_actions();
    let mine = match &legal {
        LegalActions::Bidding { player, .. } | LegalActions::Turn { player, .. } => {
            seat == Some(*player)
        }
        _ => false,
    };
    if !mine {
        return Vec::new();
    }
    let all = match (query.command, query.arg, &legal) {
        ("bid", "amount", LegalActions::Bidding { min, max, .. }) => {
            let mut amounts = vec![Suggestion::new(
                format!("£{min} (the least bid)"),
                min.to_string(),
            )];
            amounts.extend(
                (min + 1..=*max)
                    .take(MAX - 1)
                    .map(|a| Suggestion::new(format!("£{a}"), a.to_string())),
            );
            amounts
        }
        ("auction", "railway", LegalActions::Turn { auctions, .. }) => auctions
            .iter()
            .map(|a| {
                Suggestion::new(
                    format!("{} — share £{}", a.railway.code(), a.face),
                    a.railway.code(),
                )
            })
            .collect(),
        ("auction", "amount", LegalActions::Turn { auctions, .. }) => {
            let railway = query
                .given("railway")
                .and_then(|r| r.parse::<Railway>().ok());
            auctions
                .iter()
                .filter(|a| railway.is_none_or(|r| r == a.railway))
                .take(1)
                .flat_map(|a| {
                    (a.face..=a.max_bid).take(MAX).map(move |v| {
                        let label = if v == a.face {
                            format!("£{v} (face value)")
                        } else {
                            format!("£{v}")
                        };
                        Suggestion::new(label, v.to_string())
                    })
                })
                .collect()
        }
        ("build", "railway", LegalActions::Turn { builds, .. }) => builds
            .iter()
            .map(|b| {
                Suggestion::new(
                    format!(
                        "{} — {} locomotives left, {} hexes next to its track",
                        b.railway.code(),
                        b.unplaced,
                        b.hexes.len()
                    ),
                    b.railway.code(),
                )
            })
            .collect(),
        ("build", "hexes", LegalActions::Turn { player, .. }) => {
            return build_targets(game, *player, query);
        }
        ("interest", "town", LegalActions::Turn { interests, .. }) => interests
            .iter()
            .map(|i| Suggestion::new(hex_label(i.town), i.town.display_name()))
            .collect(),
        ("interest", "colour", LegalActions::Turn { interests, .. }) => interests
            .first()
            .map(|i| {
                i.colours
                    .iter()
                    .map(|c| {
                        Suggestion::new(
                            format!("{} ({} in the supply)", c.name(), game.supply().get(*c)),
                            c.name(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    filtered(all, query.typed)
}

/// The hexes a build can go on next: the hexes already typed, then one more, each checked by
/// playing the build on a copy; labelled with the hex's cost and the build's total.
fn build_targets(game: &Game, seat: usize, query: &Query<'_>) -> Vec<Suggestion> {
    let Some(railway) = query
        .given("railway")
        .and_then(|r| r.parse::<Railway>().ok())
    else {
        return Vec::new();
    };
    let board = Board::get();
    // Everything before the last space is settled; the last word is being typed.
    let typed = query.typed.trim_start();
    let (settled, partial) = match typed.rsplit_once(char::is_whitespace) {
        Some((before, last)) => (before, last),
        None => ("", typed),
    };
    let mut before = Vec::new();
    for word in settled.split_whitespace() {
        match board.find(word) {
            Some(hex) => before.push(hex),
            None => return Vec::new(),
        }
    }
    let prefix: String = before.iter().map(|h| format!("{} ", h.label())).collect();
    let mut out = Vec::new();
    for hex in board.ids() {
        if before.contains(&hex) {
            continue;
        }
        let label = hex_label(hex);
        if !matches(&label, partial) && !matches(hex.display_name(), partial) {
            continue;
        }
        let mut hexes = before.clone();
        hexes.push(hex);
        let mut trial = game.clone();
        let Ok(events) = trial.play(seat, &Action::Build { railway, hexes }) else {
            continue;
        };
        let cost = events.iter().find_map(|e| match e {
            Event::LocomotivesPlaced {
                hexes, half_points, ..
            } => Some((
                hexes.iter().find(|(h, _)| *h == hex).map(|(_, c)| *c),
                *half_points,
            )),
            _ => None,
        });
        let text = match cost {
            Some((Some(own), total)) if !before.is_empty() => format!(
                "{prefix}{label} — {} BP, {} BP in all",
                format_half_points(own),
                format_half_points(total)
            ),
            Some((_, total)) => format!("{prefix}{label} — {} BP", format_half_points(total)),
            None => format!("{prefix}{label}"),
        };
        out.push(Suggestion::new(text, format!("{prefix}{}", hex.label())));
        if out.len() == MAX {
            break;
        }
    }
    out
}

/// The one-click moves of the player to act: pass and the least bid in an auction; calling
/// dividends on a turn.
pub fn quick_moves(game: &Game) -> Vec<QuickMove> {
    match game.legal_actions() {
        LegalActions::Bidding { min, max, .. } => {
            let mut moves = Vec::new();
            if min <= max {
                moves.push(QuickMove {
                    label: format!("Bid £{min}"),
                    notation: format!("bid {min}"),
                });
            }
            moves.push(QuickMove {
                label: "Pass".to_string(),
                notation: "pass".to_string(),
            });
            moves
        }
        LegalActions::Turn { player, .. } if game.is_legal(player, &Action::CallDividends) => {
            vec![QuickMove {
                label: "Call dividends".to_string(),
                notation: "dividends".to_string(),
            }]
        }
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Setup;

    fn game() -> Game {
        let setup = Setup {
            players: vec!["ann".into(), "bob".into(), "cat".into()],
            order: vec![1, 2, 3],
            cities: [5, 2, 3, 11, 4, 7, 9, 12],
        };
        Game::new(&setup).expect("a game")
    }

    fn query<'a>(
        command: &'a str,
        arg: &'a str,
        typed: &'a str,
        given: &'a [(String, String)],
    ) -> Query<'a> {
        Query {
            command,
            arg,
            typed,
            given,
        }
    }

    #[test]
    fn the_auction_suggests_the_least_bid_and_quick_moves_bid_or_pass() {
        let game = game();
        let bids = suggest(&game, Some(0), &query("bid", "amount", "", &[]));
        assert_eq!(bids[0], Suggestion::new("£7 (the least bid)", "7"));
        assert!(bids.len() <= MAX);
        assert!(suggest(&game, Some(1), &query("bid", "amount", "", &[])).is_empty());
        assert!(suggest(&game, None, &query("bid", "amount", "", &[])).is_empty());
        let quick: Vec<String> = quick_moves(&game).into_iter().map(|m| m.notation).collect();
        assert_eq!(quick, ["bid 7", "pass"]);
    }

    /// The game after the initial auctions of the complete manual game (ann owns CBSC, her
    /// turn).
    fn after_initial_auctions() -> Game {
        let mut game = game();
        for (seat, text) in [
            (0, "bid 7"),
            (1, "pass"),
            (2, "pass"),
            (0, "pass"),
            (1, "bid 5"),
            (2, "pass"),
            (1, "pass"),
            (2, "bid 9"),
            (0, "pass"),
            (2, "pass"),
            (0, "pass"),
            (1, "pass"),
            (2, "bid 6"),
            (0, "pass"),
            (1, "pass"),
        ] {
            let action = crate::parse_action(text).expect("notation");
            game.play(seat, &action).expect(text);
        }
        game
    }

    #[test]
    fn every_suggested_build_is_legal() {
        let game = after_initial_auctions();
        let railways = suggest(&game, Some(0), &query("build", "railway", "", &[]));
        assert_eq!(railways.len(), 1);
        assert_eq!(railways[0].value, "CBSC");
        let given = [("railway".to_string(), "CBSC".to_string())];
        let first = suggest(&game, Some(0), &query("build", "hexes", "", &given));
        assert!(!first.is_empty());
        for s in &first {
            let hexes: Vec<HexId> = s
                .value
                .split_whitespace()
                .filter_map(|w| Board::get().find(w))
                .collect();
            let build = Action::Build {
                railway: Railway::Cbsc,
                hexes,
            };
            assert!(game.is_legal(0, &build), "{s:?}");
            assert!(s.label.contains("BP"), "{s:?}");
        }
        let second = suggest(&game, Some(0), &query("build", "hexes", "O3 ", &given));
        assert!(
            second.iter().all(|s| s.value.starts_with("O3 ")),
            "{second:?}"
        );
        assert!(second.iter().any(|s| s.value == "O3 N5"), "{second:?}");
        assert!(quick_moves(&game).iter().any(|m| m.notation == "dividends"));
    }

    /// Words players write, right and wrong, to build texts from.
    const WORDS: &[&str] = &[
        "bid",
        "bdi",
        "pass",
        "pas",
        "auction",
        "auciton",
        "build",
        "biuld",
        "interest",
        "intrest",
        "dividends",
        "divdends",
        "raise",
        "to",
        "on",
        "at",
        "the",
        "I'll",
        "5.5",
        "7",
        "9",
        "£12",
        "100",
        "-3",
        "GSW",
        "GWS",
        "WLW",
        "WLV",
        "CBSC",
        "blue",
        "pink",
        "pnik",
        "blak",
        "Sligo",
        "Shannon",
        "Shanon",
        "Drogheda",
        "K3",
        "N7",
        "let's",
        "see",
        "or",
        "?",
    ];

    /// A position reached by the legal moves `choices` pick.
    fn walked(choices: &[u8]) -> Game {
        let mut game = game();
        for &choice in choices {
            let Actor::Player { seat } = game.to_act() else {
                break;
            };
            let action = match game.legal_actions() {
                LegalActions::Bidding { min, max, .. } if choice % 2 == 0 && min <= max => {
                    Action::Bid {
                        amount: min + u32::from(choice) % (max - min + 1),
                    }
                }
                LegalActions::Turn {
                    builds, interests, ..
                } => match (choice % 3, builds.first(), interests.first()) {
                    (0, Some(build), _) => Action::Build {
                        railway: build.railway,
                        hexes: vec![build.hexes[usize::from(choice) % build.hexes.len()].0],
                    },
                    (1, _, Some(interest)) => Action::SpecialInterest {
                        town: interest.town,
                        colour: interest.colours[0],
                    },
                    _ => Action::Auction {
                        railway: Railway::ALL[usize::from(choice) % 5],
                        opening_bid: None,
                    },
                },
                _ => Action::Pass,
            };
            if game.play(seat, &action).is_err() {
                continue;
            }
        }
        game
    }

    /// The rules' refusal of `text` as `seat`'s move in `game`, through the plug-in.
    fn refused(game: &Game, seat: usize, text: &str) -> Refusal {
        use gaugebot_table::game::TableGame;
        let action = crate::parse_action(text).expect("notation");
        let mut state = game.clone();
        super::super::IrishGauge
            .apply(&mut state, seat, &action)
            .expect_err(text)
    }

    #[test]
    fn a_bid_the_rules_refuse_offers_the_nearest_legal_amount() {
        let mut game = game();
        // ann opens the CBSC £7 share: below the face value, over her £20.
        let low = refused(&game, 0, "bid 5");
        assert_eq!(offered_moves(&low), [Action::Bid { amount: 7 }], "{low}");
        assert!(low.to_string().contains("face value"), "{low}");
        assert_eq!(
            offered_moves(&refused(&game, 0, "bid 25")),
            [Action::Bid { amount: 20 }]
        );
        // Not ann's bid: the rule alone, nothing offered to bob.
        let not_yours = refused(&game, 1, "bid 9");
        assert!(offered_moves(&not_yours).is_empty(), "{not_yours}");
        // bob must beat ann's £8.
        game.play(0, &Action::Bid { amount: 8 }).expect("legal");
        assert_eq!(
            offered_moves(&refused(&game, 1, "bid 8")),
            [Action::Bid { amount: 9 }]
        );
    }

    #[test]
    fn an_auction_opened_below_face_value_offers_the_same_railway() {
        let game = after_initial_auctions();
        // ann's turn: an opening bid below GSW's face value.
        let low = refused(&game, 0, "auction GSW 3");
        assert_eq!(
            offered_moves(&low),
            [Action::Auction {
                railway: Railway::Gsw,
                opening_bid: None
            }],
            "{low}"
        );
        let Refusal::Closest { why, .. } = &low else {
            panic!("the nearest legal move: {low:?}");
        };
        assert!(matches!(**why, Refusal::Play(_)), "{why:?}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// Every amount the rules' refusal of a bid or an auction offers the player to act,
        /// replayed as their move in that position, is accepted.
        #[test]
        fn every_amount_a_rule_refusal_offers_is_accepted(
            choices in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..60),
            amount in 0u32..60,
            railway in 0usize..5,
            auction in proptest::prelude::any::<bool>(),
        ) {
            use gaugebot_table::game::TableGame;
            let game = walked(&choices);
            let Actor::Player { seat } = game.to_act() else {
                return Ok(());
            };
            let action = if auction {
                Action::Auction { railway: Railway::ALL[railway], opening_bid: Some(amount) }
            } else {
                Action::Bid { amount }
            };
            let mut state = game.clone();
            if let Err(refusal) = super::super::IrishGauge.apply(&mut state, seat, &action) {
                proptest::prop_assert_eq!(&state, &game, "a refused move changes nothing");
                for offered in offered_moves(&refusal) {
                    let mut replay = game.clone();
                    let played = replay.play(seat, &offered);
                    proptest::prop_assert!(played.is_ok(), "{action}: {refusal} offered {offered}: {played:?}");
                }
            }
        }

        /// Every move a refusal offers the player to act (a near miss's correction, the nearest
        /// legal move, a question's move), replayed as their move in that position, is accepted.
        #[test]
        fn every_move_a_refusal_offers_is_accepted(
            choices in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..60),
            picks in proptest::collection::vec(0..WORDS.len(), 1..6),
        ) {
            use gaugebot_table::game::TableGame;
            let game = walked(&choices);
            let Actor::Player { seat } = game.to_act() else {
                return Ok(());
            };
            let text = picks.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" ");
            if let Err(refusal) = super::super::IrishGauge.parse_move(&game, &text) {
                for offered in offered_moves(&refusal) {
                    let mut replay = game.clone();
                    let played = replay.play(seat, &offered);
                    proptest::prop_assert!(
                        played.is_ok(),
                        "{text:?}: {refusal:?} offered {offered}: {played:?} in {:?}",
                        game.phase()
                    );
                }
            }
        }
    }
}
