//! How forum players write their Privates moves, as a table of cases in the positions where they
//! write them (issue 32): each phrasing is read by the player asked to act
//! ([`privates::phrasing::read_in`]) and is accepted as the canonical move, refused (with the
//! legal move nearest to it, when there is one: [`privates::phrasing::nearest_legal`]), reads
//! several ways, is a question, or is chat. docs/PHRASING.md lists the forms.
//!
//! And the property of suggestions: whatever a player to act writes, the nearest legal move
//! offered, replayed as that player's move in that position, is accepted.

mod support;

use proptest::prelude::*;

use privates::phrasing::{nearest_legal, read_in, starts_as_move, Reading};
use privates::{Actor, Game};
use support::Table;

/// Dealt 10 5 25 50 10 35 40: the row is A 5 red, B 10 blue, C 10 green (price 12), D 25 red,
/// E 35 black, F 40 yellow, G 50 green.
const DEAL: &str = "10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,green";

/// The positions of the cases.
#[derive(Debug, Clone, Copy)]
enum Position {
    /// ann's turn at the first row ($120 each).
    Turn,
    /// ann bid 14 on B, bob 15, cat bought A: the bid-off for B, ann to raise (at least $16).
    BidOff,
}

fn position(at: Position) -> Table {
    let mut t = Table::manual(&["ann", "bob", "cat"], 0);
    t.deal(DEAL);
    if let Position::BidOff = at {
        t.play("ann", "bid 14 on B");
        t.play("bob", "bid 15 on B");
        t.play("cat", "buy");
    }
    t
}

/// What a case expects.
#[derive(Debug, Clone, Copy)]
enum Expect {
    /// Read as this move (strict notation).
    Move(&'static str),
    /// Refused; the nearest legal move offered, if any.
    Refused(Option<&'static str>),
    /// Reads several ways: refused with these readings.
    Ambiguous(&'static [&'static str]),
    /// A question about a move.
    Question,
    /// A move word inside chat: the reader refuses it, but it does not start as a move, so the
    /// table takes it as chat.
    Aside,
    /// Chat: no reply.
    Chat,
}

use Expect::{Ambiguous, Aside, Chat, Move, Question, Refused};
use Position::{BidOff, Turn};

/// The cases: how players write, in the position where they write it.
const CASES: &[(Position, &str, Expect)] = &[
    // Buying.
    (Turn, "I'll take A", Move("buy A")),
    (Turn, "purchase A", Move("buy A")),
    (Turn, "Buy A please", Move("buy A")),
    (Turn, "grab A", Move("buy A")),
    (Turn, "I'll have A", Move("buy A")),
    (Turn, "buy the cheapest", Move("buy")),
    (Turn, "buy a card", Move("buy")),
    (Turn, "I'll take it, thanks", Move("buy")),
    (Turn, "buy the 5", Move("buy A")),
    (Turn, "buy the red 5", Move("buy A")),
    (Turn, "take the red one", Ambiguous(&["buy A", "buy D"])),
    (Turn, "byu A", Refused(Some("buy A"))),
    (Turn, "buy A?", Question),
    // Bidding, cards by letter, face value or chip colour.
    (Turn, "bid 14 on the blue 10", Move("bid 14 on B")),
    (Turn, "bid 14 on the blue one", Move("bid 14 on B")),
    (Turn, "bid 20 on the green 10", Move("bid 20 on C")),
    (
        Turn,
        "bid 20 on the 10",
        Ambiguous(&["bid 20 on B", "bid 20 on C"]),
    ),
    (Turn, "I bid $30 on D", Move("bid 30 on D")),
    (Turn, "bid 30 on D please", Move("bid 30 on D")),
    (Turn, "bid 30 on D's card", Move("bid 30 on D")),
    (Turn, "bid 17.5 on C", Refused(Some("bid 18 on C"))),
    (Turn, "bid 20 on the black 10", Refused(Some("bid 20 on B"))),
    (
        Turn,
        "bid 14 on the purple 10",
        Refused(Some("bid 14 on B")),
    ),
    (Turn, "bid on C", Refused(Some("bid 14 on C"))),
    // Passing with words around it.
    (Turn, "I pass", Move("pass")),
    (Turn, "nope, pass", Move("pass")),
    (Turn, "hard pass", Move("pass")),
    (Turn, "skip", Move("pass")),
    (Turn, "I'll sit this one out", Move("pass")),
    (Turn, "no bid", Move("pass")),
    (Turn, "I'm out", Move("pass")),
    (Turn, "pass for now", Move("pass")),
    (Turn, "pas", Refused(Some("pass"))),
    (Turn, "pass?", Question),
    // The bid-off: raises and drop-outs in words, a bare amount.
    (BidOff, "$19", Move("raise 19")),
    (BidOff, "19", Move("raise 19")),
    (BidOff, "ok, 20", Move("raise 20")),
    (BidOff, "raise to 19", Move("raise 19")),
    (BidOff, "make it 19", Move("raise 19")),
    (BidOff, "I'll go to 20", Move("raise 20")),
    (BidOff, "bid 19", Move("raise 19")),
    (BidOff, "raise 16.5", Refused(Some("raise 17"))),
    (BidOff, "raise", Refused(Some("raise 16"))),
    (BidOff, "I'm out", Move("drop")),
    (BidOff, "drop out", Move("drop")),
    (BidOff, "I fold", Move("drop")),
    (BidOff, "too rich for me", Move("drop")),
    (BidOff, "pass", Move("pass")),
    (BidOff, "19?", Chat),
    // Chat.
    (Turn, "Nice bid!", Aside),
    (Turn, "should I pass?", Aside),
    (Turn, "good luck everyone", Chat),
    (Turn, "really", Chat),
    (Turn, "nope", Chat),
    (Turn, "19", Chat),
];

fn seat_to_act(game: &Game) -> usize {
    match game.to_act() {
        Actor::Player { seat } => seat,
        other => panic!("no player to act: {other:?}"),
    }
}

#[test]
fn forum_phrasings_read_as_the_players_mean_them() {
    assert!(CASES.len() >= 40, "{} cases", CASES.len());
    let mut failures = Vec::new();
    for &(at, text, expect) in CASES {
        let t = position(at);
        let seat = seat_to_act(&t.game);
        let reading = read_in(&t.game, text);
        let nearest = nearest_legal(&t.game, seat, text).map(|a| a.to_string());
        let fits = match (expect, &reading) {
            (Move(move_text), Reading::Move { action, .. }) => action.to_string() == move_text,
            (
                Refused(Some(offered)),
                Reading::NearMiss {
                    suggestion: Some(s),
                    ..
                },
            ) => s.to_string() == offered,
            (Refused(offered), Reading::NearMiss { .. } | Reading::Malformed(_)) => {
                nearest.as_deref() == offered
            }
            (Ambiguous(options), Reading::Ambiguous { options: read }) => {
                read.iter().map(ToString::to_string).collect::<Vec<_>>() == options
            }
            (Question, Reading::Question { .. }) => true,
            (Aside, Reading::Malformed(_)) => !starts_as_move(text),
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

/// Words players write, right and wrong, to build texts from.
const WORDS: &[&str] = &[
    "buy", "byu", "take", "bid", "bdi", "pass", "pas", "raise", "riase", "drop", "I'm", "out",
    "on", "the", "A", "B", "C", "D", "G", "H", "5", "10", "14", "17.5", "$20", "500", "-3", "red",
    "blue", "green", "black", "purple", "one", "please", "?",
];

/// A position reached by the legal moves `choices` pick, from the first row.
fn some_position(choices: &[u8]) -> Game {
    let mut t = position(Turn);
    for &choice in choices {
        let Actor::Player { seat } = t.game.to_act() else {
            break;
        };
        let action = match t.game.legal_actions() {
            privates::LegalActions::Turn { buy, bids, .. } => {
                match (
                    choice % 3,
                    buy,
                    bids.get(usize::from(choice) % bids.len().max(1)),
                ) {
                    (0, Some(_), _) => privates::Action::Buy { letter: None },
                    (1, _, Some(bid)) if bid.minimum <= bid.maximum => privates::Action::Bid {
                        letter: bid.letter,
                        amount: bid.minimum,
                    },
                    _ => privates::Action::Pass,
                }
            }
            privates::LegalActions::BidOff { raise, .. } => match raise {
                Some(r) if choice % 2 == 0 => privates::Action::Raise { amount: r.minimum },
                _ => privates::Action::Drop,
            },
            _ => break,
        };
        if t.game.play(seat, &action).is_err() {
            break;
        }
    }
    t.game
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Every nearest legal move, replayed as the move of the player to act, is accepted.
    #[test]
    fn every_move_offered_is_legal(
        choices in proptest::collection::vec(any::<u8>(), 0..40),
        picks in proptest::collection::vec(0..WORDS.len(), 1..5),
    ) {
        let game = some_position(&choices);
        let Actor::Player { seat } = game.to_act() else {
            return Ok(());
        };
        let text = picks.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" ");
        if let Some(nearest) = nearest_legal(&game, seat, &text) {
            let mut replay = game.clone();
            let played = replay.play(seat, &nearest);
            prop_assert!(played.is_ok(), "{text:?} offered {nearest}: {played:?}");
        }
    }
}
