//! The plug-in's refusals as data: the engine's typed refusals, and what is wrong with the
//! options of `!setup privates …`. The wording is in `templates/refusal.md.j2`.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::card::{Chip, Letter};
use crate::error::{DrawKind, Drawn, PlayError, Ruling, SetupError};
use crate::notation::{parse_action, parse_deal, NotationError};

/// What is wrong with an option of `!setup privates …`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum OptionError {
    /// An option Privates does not take.
    Unknown {
        /// The key as written.
        key: String,
    },
    /// An option whose value is not a whole number.
    NotANumber {
        /// `dealer` or `copies`.
        key: String,
        /// The value as written.
        value: String,
        /// P4 for the dealer, P1 for the copies.
        ruling: Ruling,
    },
    /// Manual dice need the first dealer: `dealer:N` (P4).
    DealerNeeded {
        /// P4.
        ruling: Ruling,
    },
    /// With audited dice the first dealer is drawn, not given (P4, P16).
    DealerIsDrawn {
        /// P16.
        ruling: Ruling,
    },
}

/// The ruling a notation refusal cites: the moves of a turn (P7), bids (P8), money (P3), the
/// row's cards (P5), the deck (P1), the chips (P2), a deal (P5).
pub fn notation_ruling(error: &NotationError) -> Ruling {
    match error {
        NotationError::Empty
        | NotationError::UnknownCommand { .. }
        | NotationError::Unexpected { .. } => Ruling::P7,
        NotationError::MissingAmount { .. } | NotationError::BadAmount { .. } => Ruling::P8,
        NotationError::TooLarge { .. } => Ruling::P3,
        NotationError::MissingCard { .. }
        | NotationError::UnknownCard { .. }
        | NotationError::MissingChips
        | NotationError::NoCardFits { .. } => Ruling::P5,
        NotationError::NotACard { .. } => Ruling::P1,
        NotationError::UnknownChip { .. } => Ruling::P2,
    }
}

impl OptionError {
    /// The ruling the refusal applies, if any.
    pub fn ruling(&self) -> Option<Ruling> {
        match self {
            // The options are those of a setup: the deck (P1) and the dealer (P4).
            OptionError::Unknown { .. } => Some(Ruling::P4),
            OptionError::NotANumber { ruling, .. }
            | OptionError::DealerNeeded { ruling }
            | OptionError::DealerIsDrawn { ruling } => Some(*ruling),
        }
    }
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown { key } => write!(
                f,
                "unknown option '{key}:' (Privates takes dealer: with dice:manual, and copies:)"
            ),
            OptionError::NotANumber { key, value, ruling } => {
                write!(f, "{key}:{value} is not a number ({ruling})")
            }
            OptionError::DealerNeeded { ruling } => write!(
                f,
                "dice:manual needs the first dealer's sign-up number, as in dealer:2 ({ruling})"
            ),
            OptionError::DealerIsDrawn { ruling } => write!(
                f,
                "with audited dice the first dealer is drawn; dealer: goes with dice:manual ({ruling})"
            ),
        }
    }
}

/// A refusal of the Privates plug-in.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "refusal", content = "error", rename_all = "snake_case")]
pub enum Refusal {
    /// The engine refused the action or the draw.
    Play(PlayError),
    /// The text is not an action (or not a deal).
    Notation(NotationError),
    /// The setup cannot become a game.
    Setup(SetupError),
    /// An option of `!setup` is wrong.
    Option(OptionError),
    /// A close misspelling of a move word (`byu A`): the move it would be.
    NearMiss {
        /// The word as written.
        written: String,
        /// The move word it is close to.
        meant: String,
        /// The move with the word corrected, if the text then reads as one.
        suggestion: Option<Action>,
    },
    /// A text that reads more than one way (`buy the 10` with two 10s left): its readings.
    Unclear {
        /// The moves it could be.
        options: Vec<Action>,
    },
    /// A move written as a question (`buy A?`); the move, when it is legal now.
    Question {
        /// The move asked about, if legal.
        action: Option<Action>,
    },
    /// A text from the player to act that is no legal move as written, with the legal move
    /// nearest to it (`bid 5 on C` below the least bid: **bid 14 on C**).
    Closest {
        /// Why the text is not a move as written.
        why: Box<Refusal>,
        /// The legal move nearest to what was written.
        nearest: Action,
    },
}

impl Refusal {
    /// The ruling the refusal applies, if any.
    pub fn ruling(&self) -> Option<Ruling> {
        match self {
            Refusal::Play(e) => Some(e.ruling()),
            Refusal::Setup(e) => Some(e.ruling()),
            Refusal::Option(e) => e.ruling(),
            Refusal::Notation(e) => Some(notation_ruling(e)),
            Refusal::Closest { why, .. } => why.ruling(),
            Refusal::NearMiss { .. } | Refusal::Unclear { .. } | Refusal::Question { .. } => {
                Some(Ruling::P7)
            }
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Play(e) => e.fmt(f),
            Refusal::Notation(e) => e.fmt(f),
            Refusal::Setup(e) => e.fmt(f),
            Refusal::Option(e) => e.fmt(f),
            Refusal::NearMiss {
                written,
                meant,
                suggestion,
            } => crate::phrasing::Reading::NearMiss {
                written: written.clone(),
                meant: meant.clone(),
                suggestion: *suggestion,
            }
            .fmt(f),
            Refusal::Unclear { options } => crate::phrasing::Reading::Ambiguous {
                options: options.clone(),
            }
            .fmt(f),
            Refusal::Question {
                action: Some(action),
            } => crate::phrasing::Reading::Question { action: *action }.fmt(f),
            Refusal::Question { action: None } => f.write_str("that is a question, not a move"),
            Refusal::Closest { why, nearest } => {
                write!(f, "{why} — the nearest legal move: {nearest}")
            }
        }
    }
}

impl From<PlayError> for Refusal {
    fn from(e: PlayError) -> Refusal {
        Refusal::Play(e)
    }
}

impl From<NotationError> for Refusal {
    fn from(e: NotationError) -> Refusal {
        Refusal::Notation(e)
    }
}

impl From<SetupError> for Refusal {
    fn from(e: SetupError) -> Refusal {
        Refusal::Setup(e)
    }
}

impl From<OptionError> for Refusal {
    fn from(e: OptionError) -> Refusal {
        Refusal::Option(e)
    }
}

/// One refusal of every kind (and of every wording a kind has), with the ruling its text cites:
/// the plug-in's tests and the suite over every registered game render each.
pub fn examples() -> Vec<(Refusal, String)> {
    let (a, c) = (Letter::ALL[0], Letter::ALL[2]);
    let plays = [
        PlayError::GameOver {
            ruling: Ruling::P14,
        },
        PlayError::DrawPending {
            draw: DrawKind::Deal,
            round: 2,
            ruling: Ruling::P16,
        },
        PlayError::DrawPending {
            draw: DrawKind::Chips,
            round: 2,
            ruling: Ruling::P16,
        },
        PlayError::NotSeated {
            seat: 7,
            players: 3,
            ruling: Ruling::P3,
        },
        PlayError::NotYourTurn {
            player: 1,
            to_act: 0,
            ruling: Ruling::P7,
        },
        PlayError::NotYourTurn {
            player: 1,
            to_act: 2,
            ruling: Ruling::P11,
        },
        PlayError::MustTakeFree {
            letter: a,
            ruling: Ruling::P9,
        },
        PlayError::NoSuchCard {
            letter: c,
            row: 2,
            ruling: Ruling::P5,
        },
        PlayError::CardTaken {
            letter: c,
            owner: 2,
            ruling: Ruling::P5,
        },
        PlayError::NotCheapest {
            letter: c,
            cheapest: a,
            ruling: Ruling::P7,
        },
        PlayError::CannotAfford {
            letter: a,
            price: 30,
            cash: 40,
            open_bids: 20,
            ruling: Ruling::P8,
        },
        PlayError::CannotAfford {
            letter: a,
            price: 30,
            cash: 20,
            open_bids: 0,
            ruling: Ruling::P7,
        },
        PlayError::BidOnCheapest {
            letter: a,
            price: 5,
            ruling: Ruling::P7,
        },
        PlayError::BidTooLow {
            letter: c,
            bid: 13,
            minimum: 14,
            ruling: Ruling::P8,
        },
        PlayError::AlreadyHighBidder {
            letter: c,
            bid: 14,
            ruling: Ruling::P8,
        },
        PlayError::OverCommitted {
            letter: c,
            bid: 90,
            cash: 80,
            other_bids: 10,
            maximum: 70,
            ruling: Ruling::P8,
        },
        PlayError::NoBidOff {
            ruling: Ruling::P11,
        },
        PlayError::BidOffRunning {
            letter: c,
            high: 15,
            ruling: Ruling::P11,
        },
        PlayError::RaiseTooLow {
            letter: c,
            bid: 15,
            minimum: 16,
            ruling: Ruling::P11,
        },
        PlayError::RaiseOverCommitted {
            letter: c,
            bid: 30,
            cash: 28,
            other_bids: 0,
            maximum: 28,
            ruling: Ruling::P11,
        },
        PlayError::NoDrawPending {
            ruling: Ruling::P16,
        },
        PlayError::WrongDraw {
            expected: DrawKind::Chips,
            given: DrawKind::Deal,
            ruling: Ruling::P16,
        },
        PlayError::WrongDraw {
            expected: DrawKind::Deal,
            given: DrawKind::Chips,
            ruling: Ruling::P16,
        },
        PlayError::WrongCount {
            what: Drawn::Cards,
            expected: 7,
            given: 6,
            ruling: Ruling::P5,
        },
        PlayError::NotACard {
            cost: 45,
            ruling: Ruling::P1,
        },
        PlayError::CardNotInDeck {
            cost: 10,
            left: 0,
            wanted: 1,
            ruling: Ruling::P1,
        },
        PlayError::CardNotInDeck {
            cost: 10,
            left: 6,
            wanted: 7,
            ruling: Ruling::P1,
        },
        PlayError::ChipNotInBag {
            chip: Chip::Red,
            in_bag: 0,
            wanted: 1,
            ruling: Ruling::P2,
        },
        PlayError::ChipNotInBag {
            chip: Chip::Red,
            in_bag: 2,
            wanted: 3,
            ruling: Ruling::P2,
        },
    ];
    let setups = [
        SetupError::PlayerCount {
            count: 7,
            ruling: Ruling::P3,
        },
        SetupError::PlayerName {
            name: String::new(),
            ruling: Ruling::P3,
        },
        SetupError::PlayerName {
            name: "ann".into(),
            ruling: Ruling::P3,
        },
        SetupError::Copies {
            copies: 7,
            ruling: Ruling::P1,
        },
        SetupError::Dealer {
            number: 0,
            players: 3,
            ruling: Ruling::P4,
        },
        SetupError::DeckSize {
            given: 3,
            expected: 54,
            ruling: Ruling::P16,
        },
        SetupError::DeckCard {
            cost: 45,
            ruling: Ruling::P1,
        },
        SetupError::DeckCopies {
            cost: 10,
            given: 5,
            expected: 6,
            ruling: Ruling::P1,
        },
    ];
    let notation = [
        "",
        "by",
        "bid",
        "bid C",
        "bid x on C",
        "bid 4294967296 on C",
        "bid 17 on H",
        "pass now",
        "raise",
    ]
    .into_iter()
    .filter_map(|text| parse_action(text).err())
    .chain(
        ["10 5 26 chips:red", "10 chips: bleu", "10 5 25"]
            .into_iter()
            .filter_map(|text| parse_deal(text).err()),
    );
    let options = [
        OptionError::Unknown {
            key: "colour".into(),
        },
        OptionError::NotANumber {
            key: "dealer".into(),
            value: "x".into(),
            ruling: Ruling::P4,
        },
        OptionError::DealerNeeded { ruling: Ruling::P4 },
        OptionError::DealerIsDrawn {
            ruling: Ruling::P16,
        },
    ];
    let with_ruling = |refusal: Refusal| {
        let ruling = refusal.ruling().map(|r| r.to_string()).unwrap_or_default();
        (refusal, ruling)
    };
    plays
        .into_iter()
        .map(Refusal::Play)
        .chain(setups.into_iter().map(Refusal::Setup))
        .chain(notation.map(Refusal::Notation))
        .chain(options.into_iter().map(Refusal::Option))
        .chain(phrasing_examples(a, c))
        .map(with_ruling)
        .collect()
}

/// The refusals of the phrasing reader: a near miss (with and without its move), a text that
/// reads two ways, a question (about a legal move and not), a card no description fits, and
/// the nearest legal move.
fn phrasing_examples(a: Letter, c: Letter) -> Vec<Refusal> {
    vec![
        Refusal::NearMiss {
            written: "byu".into(),
            meant: "buy".into(),
            suggestion: Some(Action::Buy { letter: Some(a) }),
        },
        Refusal::NearMiss {
            written: "byu".into(),
            meant: "buy".into(),
            suggestion: None,
        },
        Refusal::Unclear {
            options: vec![
                Action::Buy { letter: Some(a) },
                Action::Buy { letter: Some(c) },
            ],
        },
        Refusal::Question {
            action: Some(Action::Pass),
        },
        Refusal::Question { action: None },
        Refusal::Notation(NotationError::NoCardFits {
            description: "the blue 10".into(),
        }),
        Refusal::Closest {
            why: Box::new(Refusal::Notation(NotationError::BadAmount {
                command: "bid".into(),
                given: "17.5".into(),
            })),
            nearest: Action::Bid {
                letter: c,
                amount: 18,
            },
        },
    ]
}

/// A refusal of `text` as the player to act reads it, with the legal move nearest to what was
/// written in place of a fixed example or an illegal correction: a near miss whose corrected
/// move is legal stays as it is (`byu A`: did you mean **buy A**?); a near miss or a notation
/// error gets [`Refusal::Closest`] when a legal move of that kind exists; a question names its
/// move only when the move is legal. Other refusals are returned unchanged.
pub fn with_nearest(game: &crate::Game, text: &str, refusal: Refusal) -> Refusal {
    let crate::Actor::Player { seat } = game.to_act() else {
        return refusal;
    };
    match refusal {
        Refusal::NearMiss {
            suggestion: Some(action),
            ..
        } if game.is_legal(seat, &action) => refusal,
        Refusal::NearMiss { .. } | Refusal::Notation(_) => {
            match crate::phrasing::nearest_legal(game, seat, text) {
                Some(nearest) => Refusal::Closest {
                    why: Box::new(refusal),
                    nearest,
                },
                // No move of that kind is legal now: the rules say why, rather than offer one.
                None => match &refusal {
                    Refusal::NearMiss {
                        suggestion: Some(action),
                        ..
                    } => match game.clone().play(seat, action) {
                        Err(error) => Refusal::Play(error),
                        Ok(_) => refusal,
                    },
                    _ => refusal,
                },
            }
        }
        Refusal::Question {
            action: Some(action),
        } if !game.is_legal(seat, &action) => Refusal::Question { action: None },
        other => other,
    }
}

/// The rules' refusal of a move with an amount by the player to act (a bid below the least bid
/// or over their cash, a raise too small in a bid-off), with the legal amount nearest to it
/// offered ([`Refusal::Closest`]): `bid 34 on F` when the least bid on F is $44 offers
/// **bid 44 on F**. The nearest move is of the same kind (a bid on the same card; a raise); when
/// there is none, or the move has no amount, the rules' refusal stands alone.
pub fn with_nearest_amount(
    game: &crate::Game,
    seat: usize,
    action: &Action,
    error: PlayError,
) -> Refusal {
    let to_act = matches!(game.to_act(), crate::Actor::Player { seat: s } if s == seat);
    let same_kind = |nearest: &Action| match (action, nearest) {
        (Action::Bid { letter: a, .. }, Action::Bid { letter: b, .. }) => a == b,
        (Action::Raise { .. }, Action::Raise { .. }) => true,
        _ => false,
    };
    if !to_act || !matches!(action, Action::Bid { .. } | Action::Raise { .. }) {
        return Refusal::Play(error);
    }
    match crate::phrasing::nearest_legal(game, seat, &action.to_string())
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
/// suggestion, the nearest legal move, a question's move. (The readings listed when a text reads
/// two ways are what was written, not suggestions.)
pub fn offered_moves(refusal: &Refusal) -> Vec<Action> {
    match refusal {
        Refusal::NearMiss {
            suggestion: Some(action),
            ..
        }
        | Refusal::Question {
            action: Some(action),
        } => vec![*action],
        Refusal::Closest { nearest, .. } => vec![*nearest],
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_deal;
    use crate::{Actor, Game, LegalActions, Setup};
    use gaugebot_table::game::TableGame;

    /// Words players write, right and wrong, to build texts from.
    const WORDS: &[&str] = &[
        "buy", "byu", "take", "bid", "bdi", "pass", "pas", "raise", "riase", "drop", "I'm", "out",
        "on", "the", "A", "B", "C", "G", "H", "5", "10", "14", "17.5", "$20", "500", "red", "blue",
        "purple", "one", "?",
    ];

    /// The first row (A 5 red … G 50 green) and the moves `choices` pick from there.
    fn walked(choices: &[u8]) -> Game {
        let mut game = Game::new(&Setup::manual(&["ann", "bob", "cat"], 0)).expect("a game");
        let deal = parse_deal("10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,green")
            .expect("a deal");
        game.resolve_deal(&deal.cards, &deal.chips).expect("dealt");
        for &choice in choices {
            let Actor::Player { seat } = game.to_act() else {
                break;
            };
            let action = match game.legal_actions() {
                LegalActions::Turn { buy, bids, .. } => {
                    match (
                        choice % 3,
                        buy,
                        bids.get(usize::from(choice) % bids.len().max(1)),
                    ) {
                        (0, Some(_), _) => Action::Buy { letter: None },
                        (1, _, Some(bid)) if bid.minimum <= bid.maximum => Action::Bid {
                            letter: bid.letter,
                            amount: bid.minimum,
                        },
                        _ => Action::Pass,
                    }
                }
                LegalActions::BidOff { raise, .. } => match raise {
                    Some(r) if choice % 2 == 0 => Action::Raise { amount: r.minimum },
                    _ => Action::Drop,
                },
                _ => break,
            };
            if game.play(seat, &action).is_err() {
                break;
            }
        }
        game
    }

    /// The rules' refusal of `action` as `seat`'s move in `game`, through the plug-in; the
    /// state is left as it was.
    fn refused(game: &Game, seat: usize, action: Action) -> Refusal {
        let mut state = game.clone();
        let refusal = crate::table::Privates
            .apply(&mut state, seat, &action)
            .expect_err("refused");
        assert_eq!(&state, game, "a refused move changes nothing");
        refusal
    }

    #[test]
    fn a_bid_the_rules_refuse_offers_the_nearest_legal_amount_on_the_same_card() {
        let game = walked(&[]);
        let Actor::Player { seat } = game.to_act() else {
            panic!("a player to act");
        };
        let LegalActions::Turn { bids, .. } = game.legal_actions() else {
            panic!("a turn");
        };
        let option = bids.last().expect("a card to bid on");
        let bid = |amount| Action::Bid {
            letter: option.letter,
            amount,
        };
        let low = refused(&game, seat, bid(option.minimum - 1));
        assert_eq!(offered_moves(&low), [bid(option.minimum)], "{low}");
        assert!(matches!(&low, Refusal::Closest { why, .. } if matches!(**why, Refusal::Play(_))));
        let high = refused(&game, seat, bid(500));
        assert_eq!(offered_moves(&high), [bid(option.maximum)], "{high}");
        // Not the player to act: the rule alone.
        let not_yours = refused(&game, (seat + 1) % 3, bid(option.minimum - 1));
        assert!(offered_moves(&not_yours).is_empty(), "{not_yours}");
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(256))]

        /// Every amount the rules' refusal of a bid or a raise offers the player to act,
        /// replayed as their move in that position, is accepted; the refused move changed
        /// nothing.
        #[test]
        fn every_amount_a_rule_refusal_offers_is_accepted(
            choices in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40),
            amount in 0u32..600,
            letter in 0usize..7,
            raise in proptest::prelude::any::<bool>(),
        ) {
            let game = walked(&choices);
            let Actor::Player { seat } = game.to_act() else {
                return Ok(());
            };
            let letters = ["A", "B", "C", "D", "E", "F", "G"];
            let action = if raise {
                Action::Raise { amount }
            } else {
                Action::Bid {
                    letter: crate::notation::parse_letter(letters[letter]).expect("a letter"),
                    amount,
                }
            };
            let mut state = game.clone();
            if let Err(refusal) = crate::table::Privates.apply(&mut state, seat, &action) {
                proptest::prop_assert_eq!(&state, &game, "a refused move changes nothing");
                for offered in offered_moves(&refusal) {
                    let played = game.clone().play(seat, &offered);
                    proptest::prop_assert!(
                        played.is_ok(),
                        "{action}: {refusal:?} offered {offered}: {played:?}"
                    );
                }
            }
        }

        /// Every move a refusal offers the player to act (a near miss's correction, the nearest
        /// legal move, a question's move), replayed as their move in that position, is accepted.
        #[test]
        fn every_move_a_refusal_offers_is_accepted(
            choices in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..40),
            picks in proptest::collection::vec(0..WORDS.len(), 1..5),
        ) {
            let game = walked(&choices);
            let Actor::Player { seat } = game.to_act() else {
                return Ok(());
            };
            let text = picks.iter().map(|&i| WORDS[i]).collect::<Vec<_>>().join(" ");
            if let Err(refusal) = crate::table::Privates.parse_move(&game, &text) {
                for offered in offered_moves(&refusal) {
                    let played = game.clone().play(seat, &offered);
                    proptest::prop_assert!(
                        played.is_ok(),
                        "{text:?}: {refusal:?} offered {offered}: {played:?}"
                    );
                }
            }
        }
    }
}
