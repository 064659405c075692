//! How forum players write their moves, as a table of cases in the positions where they write
//! them (issue 32): each phrasing is read by the player asked to act ([`read_in`]) and is
//! accepted as the canonical move, refused (with the legal move nearest to it, when the game has
//! one: [`nearest_legal`]), reads several ways, is a question, or is chat. docs/PHRASING.md lists
//! the forms; the corpus (`phrasing/corpus.txt`) keeps the older, position-free cases.
//!
//! And the property of suggestions: whatever a player to act writes, the nearest legal move
//! offered, replayed as that player's move in that position, is accepted.

use proptest::prelude::*;

use irish_gauge::game::LegalActions;
use irish_gauge::notation::{nearest_legal, read_in, Reading};
use irish_gauge::{Action, Actor, Game, Seat, Setup};

/// ann, bob and cat in that order with the forum game's city roll.
fn new_game() -> Game {
    let setup = Setup {
        players: vec!["ann".into(), "bob".into(), "cat".into()],
        order: vec![1, 2, 3],
        cities: [5, 2, 3, 11, 4, 7, 9, 12],
    };
    Game::new(&setup).expect("valid setup")
}

fn seat_to_act(game: &Game) -> Seat {
    match game.to_act() {
        Actor::Player { seat } => seat,
        other => panic!("no player to act: {other:?}"),
    }
}

fn play(game: &mut Game, text: &str) {
    let seat = seat_to_act(game);
    let action = irish_gauge::parse_action(text).expect("strict notation");
    game.play(seat, &action).expect(text);
}

/// The positions of the cases.
#[derive(Debug, Clone, Copy)]
enum Position {
    /// The first initial auction, CBSC at face £7; nobody has bid.
    Auction,
    /// The WLW initial auction (face £5); the first bidder bid £5.
    HighBidFive,
    /// Everybody passed the five initial auctions: ann holds a share of each railway; her turn.
    Turn,
}

fn position(at: Position) -> Game {
    let mut game = new_game();
    match at {
        Position::Auction => {}
        Position::HighBidFive => {
            for _ in 0..3 {
                play(&mut game, "pass");
            }
            play(&mut game, "bid 5");
        }
        Position::Turn => {
            for _ in 0..15 {
                play(&mut game, "pass");
            }
        }
    }
    game
}

/// What a case expects.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// Read as this move (strict notation).
    Move(&'static str),
    /// Refused; the nearest legal move offered, if any.
    Refused(Option<&'static str>),
    /// Reads several ways: refused with the readings.
    Ambiguous,
    /// A question about a move: not a move.
    Question,
    /// Chat: no reply.
    Chat,
}

use Expect::{Ambiguous, Chat, Move, Question, Refused};
use Position::{Auction, HighBidFive, Turn};

/// The cases: how players write, in the position where they write it.
const CASES: &[(Position, &str, Expect)] = &[
    // Passing in an auction, with words around it.
    (Auction, "nope, pass", Move("pass")),
    (Auction, "hard pass", Move("pass")),
    (Auction, "no thanks, pass", Move("pass")),
    (Auction, "skip", Move("pass")),
    (Auction, "I'll skip this one", Move("pass")),
    (Auction, "I'll sit this one out", Move("pass")),
    (Auction, "sitting this one out", Move("pass")),
    (Auction, "Pass for now", Move("pass")),
    (Auction, "nah, I'll pass", Move("pass")),
    (Auction, "count me out", Move("pass")),
    (Auction, "not for me, thanks", Move("pass")),
    (Auction, "I drop out", Move("pass")),
    (Auction, "pass this time", Move("pass")),
    (Auction, "Hmm... pass.", Move("pass")),
    (Auction, "pass?", Question),
    // A bare amount, where a bid is the only thing it can be.
    (Auction, "£9", Move("bid 9")),
    (Auction, "9", Move("bid 9")),
    (Auction, "9 quid please", Move("bid 9")),
    (Auction, "$10!", Move("bid 10")),
    (Auction, "9?", Chat),
    (Turn, "9", Chat),
    (Turn, "£9", Chat),
    // Opening and raising.
    (Auction, "I'll open at 8", Move("bid 8")),
    (Auction, "open at £8", Move("bid 8")),
    (Auction, "opening bid 8", Move("bid 8")),
    (Auction, "my bid is 8", Move("bid 8")),
    (Auction, "make it 9", Move("bid 9")),
    (Auction, "I'll go up to 10", Move("bid 10")),
    (Auction, "raise to 9", Move("bid 9")),
    (Auction, "bid 8, let's see", Move("bid 8")),
    (Auction, "bid 8 I guess", Move("bid 8")),
    (Auction, "OK fine, bid 8", Move("bid 8")),
    (Auction, "well, I'll bid 8 then", Move("bid 8")),
    (Auction, "bid 8 lol", Move("bid 8")),
    (Auction, "bid 8 or 9", Ambiguous),
    // Amounts that are not legal: the nearest legal one.
    (HighBidFive, "bid 5.5", Refused(Some("bid 6"))),
    (Auction, "bid 7.5", Refused(Some("bid 8"))),
    (Auction, "bdi 3", Refused(Some("bid 7"))),
    (Auction, "bid", Refused(Some("bid 7"))),
    (Auction, "bid 8 and pass", Refused(Some("bid 8"))),
    (Auction, "bid -5", Refused(Some("bid 7"))),
    // Turns.
    (Turn, "start an auction for GSW", Move("auction GSW")),
    (
        Turn,
        "open an auction for the GSW share",
        Move("auction GSW"),
    ),
    (Turn, "put GSW up for auction at 10", Move("auction GSW 10")),
    (Turn, "extend WLW to Shannon", Move("build WLW K3")),
    (Turn, "WLW builds to Shannon", Move("build WLW K3")),
    (Turn, "pay dividends", Move("dividends")),
    (Turn, "call divs please", Move("dividends")),
    (Turn, "divvies", Move("dividends")),
    (Turn, "build WLW Shanon", Refused(Some("build WLW K3"))),
    (Turn, "auction GWS", Refused(Some("auction GSW"))),
    (Turn, "auction GSW at 10.5", Refused(Some("auction GSW 11"))),
    (Turn, "auction GSW at 7.5", Refused(Some("auction GSW"))),
    (Turn, "intrest Drogheda blak", Refused(None)),
    // Read as a bid, then refused by the rules: no auction is running.
    (Turn, "bid 8", Move("bid 8")),
    (Turn, "dividends?", Question),
    // Chat.
    (Auction, "good luck everyone", Chat),
    (Auction, "nope", Chat),
    (Auction, "out", Chat),
    (Turn, "well played", Chat),
];

#[test]
fn forum_phrasings_read_as_the_players_mean_them() {
    assert!(CASES.len() >= 40, "{} cases", CASES.len());
    let mut failures = Vec::new();
    for &(at, text, expect) in CASES {
        let game = position(at);
        let seat = seat_to_act(&game);
        let reading = read_in(&game, text);
        let nearest = nearest_legal(&game, seat, text).map(|a| a.to_string());
        let fits = match (expect, &reading) {
            (Move(move_text), Reading::Move { action, .. }) => action.to_string() == move_text,
            (Refused(offered), Reading::NearMiss { .. } | Reading::Malformed(_)) => {
                nearest.as_deref() == offered
            }
            (Ambiguous, Reading::Ambiguous { options, .. }) => options.len() >= 2,
            (Question, Reading::Ambiguous { options, .. }) => options.len() == 1,
            (Chat, Reading::Chat) => true,
            _ => false,
        };
        if !fits {
            failures.push(format!(
                "{at:?}: {text:?} read as {reading:?} (nearest {nearest:?}), expected {expect:?}"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {}:\n{}",
        failures.len(),
        CASES.len(),
        failures.join("\n")
    );
}

/// Walks a game forward by `steps` legal moves chosen by `choices`, so that suggestions are
/// tried in many positions: auctions with high bids, turns with track and cubes.
fn some_position(choices: &[u8]) -> Game {
    let mut game = new_game();
    for &choice in choices {
        let Actor::Player { seat } = game.to_act() else {
            break;
        };
        let action = match game.legal_actions() {
            LegalActions::Bidding { min, max, .. } if choice % 3 == 0 && min <= max => {
                Action::Bid {
                    amount: min + u32::from(choice / 3) % (max - min + 1),
                }
            }
            LegalActions::Bidding { .. } => Action::Pass,
            LegalActions::Turn {
                auctions,
                builds,
                interests,
                ..
            } => {
                let pick = usize::from(choice);
                match choice % 3 {
                    0 if !builds.is_empty() => {
                        let build = &builds[pick % builds.len()];
                        Action::Build {
                            railway: build.railway,
                            hexes: vec![build.hexes[pick % build.hexes.len()].0],
                        }
                    }
                    1 if !interests.is_empty() => {
                        let interest = &interests[pick % interests.len()];
                        Action::SpecialInterest {
                            town: interest.town,
                            colour: interest.colours[pick % interest.colours.len()],
                        }
                    }
                    _ if !auctions.is_empty() => Action::Auction {
                        railway: auctions[pick % auctions.len()].railway,
                        opening_bid: None,
                    },
                    _ => Action::CallDividends,
                }
            }
            _ => break,
        };
        if game.play(seat, &action).is_err() {
            break;
        }
    }
    game
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
    "for",
    "the",
    "I'll",
    "please",
    "5.5",
    "7",
    "9",
    "£12",
    "100",
    "-3",
    "0",
    "GSW",
    "GWS",
    "WLW",
    "WLV",
    "CBSC",
    "MGW",
    "BCD",
    "blue",
    "pink",
    "pnik",
    "black",
    "blak",
    "white",
    "Sligo",
    "Shannon",
    "Shanon",
    "Drogheda",
    "Dublin",
    "Tullamore",
    "K3",
    "L3",
    "N7",
    "New",
    "Ross",
    "let's",
    "see",
    "or",
    "and",
    "nope",
    "out",
];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every nearest legal move, replayed as the move of the player to act in that position, is
    /// accepted.
    #[test]
    fn every_move_offered_is_legal(
        choices in proptest::collection::vec(any::<u8>(), 0..60),
        picks in proptest::collection::vec(0..WORDS.len(), 1..6),
    ) {
        let game = some_position(&choices);
        let Actor::Player { seat } = game.to_act() else {
            return Ok(());
        };
        let text: Vec<&str> = picks.iter().map(|&i| WORDS[i]).collect();
        let text = text.join(" ");
        if let Some(nearest) = nearest_legal(&game, seat, &text) {
            let mut replay = game.clone();
            prop_assert!(
                replay.play(seat, &nearest).is_ok(),
                "{text:?} offered {nearest}, refused in {:?}",
                game.phase()
            );
        }
        // A near miss's own correction is offered only when legal (the table's refusal checks it,
        // `irish_gauge::table::suggest::with_nearest`); here the reader's correction is at least
        // a move of the same kind as the nearest legal one, when both exist.
        if let (Reading::NearMiss { suggestion: Some(s), .. }, Some(n)) =
            (read_in(&game, &text), nearest_legal(&game, seat, &text))
        {
            prop_assert_eq!(
                std::mem::discriminant(&s),
                std::mem::discriminant(&n),
                "{:?}: {} vs {}", text, s, n
            );
        }
    }
}
