//! The players' notation: `buy`, `buy A`, `bid 17 on C` (or `bid C 17`, `bid $17 on C`),
//! `pass`; in a bid-off `raise 19` (or `bid 19`) and `drop`. And the moderator's manual deal:
//! `10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,blue`.
//!
//! Parsing knows nothing of the position: whether an action is legal is the game's business.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::card::{cost_index, Chip, Letter, COSTS};

/// Why a text is not an action (or not a deal).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NotationError {
    /// Nothing was written.
    Empty,
    /// The first word is no command.
    UnknownCommand {
        /// The word.
        word: String,
        /// The closest command, if one is close.
        suggestion: Option<String>,
    },
    /// A command that needs an amount was given none.
    MissingAmount {
        /// The command.
        command: String,
    },
    /// A word that should be a whole number of dollars is not.
    BadAmount {
        /// The command.
        command: String,
        /// The word.
        given: String,
    },
    /// A whole number of dollars too large to be any amount of money in the game.
    TooLarge {
        /// The command.
        command: String,
        /// The word.
        given: String,
    },
    /// A bid that names no card.
    MissingCard {
        /// The command.
        command: String,
    },
    /// A card letter that is not A–G.
    UnknownCard {
        /// As written.
        given: String,
    },
    /// Words left over that the command does not take.
    Unexpected {
        /// The command.
        command: String,
        /// The words left over.
        extra: String,
    },
    /// In a deal: a number that is no card's cost.
    NotACard {
        /// As written.
        given: String,
        /// The closest cost.
        suggestion: Option<u32>,
    },
    /// A chip colour that does not exist.
    UnknownChip {
        /// As written.
        given: String,
        /// The closest colour, if one is close.
        suggestion: Option<Chip>,
    },
    /// A deal without its `chips:` part.
    MissingChips,
    /// No card left in the row fits a description by face value or chip colour
    /// (`the blue 10`).
    NoCardFits {
        /// The description as read: `the blue 10`.
        description: String,
    },
}

/// The form of each command, for help texts and errors.
pub const FORMS: [(&str, &str); 5] = [
    ("buy", "buy  (or buy A: the cheapest card left)"),
    ("bid", "bid 17 on C  (or bid C 17, bid $17 on C)"),
    ("pass", "pass"),
    ("raise", "raise 19  (or bid 19, in a bid-off)"),
    ("drop", "drop  (or pass, in a bid-off)"),
];

/// The form of the moderator's manual deal.
pub const DEAL_FORM: &str = "10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,blue";

/// The commands, as the parser knows them.
const COMMANDS: [&str; 5] = ["buy", "bid", "pass", "raise", "drop"];

fn form(command: &str) -> &'static str {
    FORMS
        .iter()
        .find(|(c, _)| *c == command)
        .map_or(DEAL_FORM, |(_, f)| *f)
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => f.write_str("no command given"),
            NotationError::UnknownCommand {
                word,
                suggestion: Some(s),
            } => write!(f, "'{word}' is not a command; did you mean {s}?"),
            NotationError::UnknownCommand {
                word,
                suggestion: None,
            } => write!(
                f,
                "'{word}' is not a command; commands are buy, bid, pass, raise, drop"
            ),
            NotationError::MissingAmount { command } => {
                write!(f, "say how much; write it as: {}", form(command))
            }
            NotationError::BadAmount { command, given } => write!(
                f,
                "'{given}' is not a whole number of dollars; write it as: {}",
                form(command)
            ),
            NotationError::TooLarge { given, .. } => write!(
                f,
                "{given} is too large: no player has that much money (P3)"
            ),
            NotationError::MissingCard { command } => {
                write!(f, "name the card; write it as: {}", form(command))
            }
            NotationError::UnknownCard { given } => {
                write!(
                    f,
                    "'{given}' is not a card letter; the row's cards are A to G"
                )
            }
            NotationError::Unexpected { command, extra } => write!(
                f,
                "'{extra}' is not understood; write it as: {}",
                form(command)
            ),
            NotationError::NotACard {
                given,
                suggestion: Some(s),
            } => write!(f, "no card costs {given}; did you mean {s}?"),
            NotationError::NotACard {
                given,
                suggestion: None,
            } => write!(
                f,
                "no card costs '{given}'; the costs are 5, 10, 15, 20, 25, 30, 35, 40, 50"
            ),
            NotationError::UnknownChip {
                given,
                suggestion: Some(s),
            } => write!(f, "no chip colour '{given}'; did you mean {s}?"),
            NotationError::UnknownChip {
                given,
                suggestion: None,
            } => write!(
                f,
                "no chip colour '{given}'; the colours are red, yellow, green, blue, black"
            ),
            NotationError::MissingChips => {
                write!(f, "the deal needs its chips; write it as: {DEAL_FORM}")
            }
            NotationError::NoCardFits { description } => {
                write!(f, "no card left in the row is {description}")
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// The edit distance between two short words.
fn distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut previous = row[0];
        row[0] = i + 1;
        for (j, &cb) in b.iter().enumerate() {
            let here = row[j + 1];
            row[j + 1] = if ca == cb {
                previous
            } else {
                1 + previous.min(row[j]).min(row[j + 1])
            };
            previous = here;
        }
    }
    row[b.len()]
}

/// The closest of `options` to `word` within two edits.
fn closest<'a>(word: &str, options: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    options
        .into_iter()
        .map(|o| (distance(word, o), o))
        .filter(|(d, _)| *d <= 2)
        .min_by_key(|(d, _)| *d)
        .map(|(_, o)| o)
}

/// Splits a command into lowercase words, treating commas, semicolons and runs of spaces as
/// one break; a currency sign written apart (`bid $ 17`) is joined to its number.
fn words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | '!' | '?')))
        .filter(|w| !w.is_empty())
        .map(str::to_lowercase)
        .collect();
    let mut i = 0;
    while i + 1 < words.len() {
        if words[i] == "$" || words[i] == "£" {
            let number = words.remove(i + 1);
            words[i].push_str(&number);
        }
        i += 1;
    }
    words
}

/// Whether a word looks like an amount: digits with an optional `$`/`£` before or after.
fn is_amount(word: &str) -> bool {
    word.chars().any(|c| c.is_ascii_digit())
        || word.starts_with(['$', '£'])
        || word.ends_with(['$', '£'])
}

/// Reads a whole number of dollars: `17`, `$17`, `£17`, `17$`.
fn amount(command: &str, word: &str) -> Result<u32, NotationError> {
    let digits = word
        .trim_start_matches(['£', '$'])
        .trim_end_matches(['£', '$']);
    let bad = || NotationError::BadAmount {
        command: command.to_string(),
        given: word.to_string(),
    };
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(bad());
    }
    // All digits: a number that does not fit is too large, not malformed.
    digits.parse().map_err(|_| NotationError::TooLarge {
        command: command.to_string(),
        given: word.to_string(),
    })
}

/// Reads a card letter, `A`…`G` in either case.
pub fn parse_letter(word: &str) -> Result<Letter, NotationError> {
    let mut chars = word.trim().chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) => Letter::from_char(c),
        _ => None,
    }
    .ok_or_else(|| NotationError::UnknownCard {
        given: word.trim().to_uppercase(),
    })
}

/// Drops the filler words `on`, `for`, `to`, `at`.
fn without_filler(rest: &[String]) -> Vec<&str> {
    rest.iter()
        .map(String::as_str)
        .filter(|w| !matches!(*w, "on" | "for" | "to" | "at"))
        .collect()
}

fn unexpected(command: &str, extra: &[&str]) -> NotationError {
    NotationError::Unexpected {
        command: command.to_string(),
        extra: extra.join(" "),
    }
}

/// Parses one command in the players' notation.
pub fn parse_action(text: &str) -> Result<Action, NotationError> {
    let words = words(text);
    let Some(first) = words.first() else {
        return Err(NotationError::Empty);
    };
    let rest = without_filler(&words[1..]);
    match first.as_str() {
        "buy" | "take" => match rest.as_slice() {
            [] => Ok(Action::Buy { letter: None }),
            [letter] => Ok(Action::Buy {
                letter: Some(parse_letter(letter)?),
            }),
            [_, more @ ..] => Err(unexpected("buy", more)),
        },
        "bid" => match rest.as_slice() {
            [] => Err(NotationError::MissingAmount {
                command: "bid".into(),
            }),
            [only] if is_amount(only) => Ok(Action::Raise {
                amount: amount("bid", only)?,
            }),
            [only] => {
                parse_letter(only)?;
                Err(NotationError::MissingAmount {
                    command: "bid".into(),
                })
            }
            [a, b] => {
                let (money, letter) = if is_amount(a) {
                    (a, b)
                } else if is_amount(b) || parse_letter(a).is_ok() {
                    (b, a)
                } else {
                    (a, b)
                };
                let letter = parse_letter(letter)?;
                Ok(Action::Bid {
                    letter,
                    amount: amount("bid", money)?,
                })
            }
            [_, _, more @ ..] => Err(unexpected("bid", more)),
        },
        "raise" => match rest.as_slice() {
            [] => Err(NotationError::MissingAmount {
                command: "raise".into(),
            }),
            [money] => Ok(Action::Raise {
                amount: amount("raise", money)?,
            }),
            [_, more @ ..] => Err(unexpected("raise", more)),
        },
        "pass" => match rest.as_slice() {
            [] => Ok(Action::Pass),
            more => Err(unexpected("pass", more)),
        },
        "drop" => match rest.as_slice() {
            [] | ["out"] => Ok(Action::Drop),
            more => Err(unexpected("drop", more)),
        },
        word => Err(NotationError::UnknownCommand {
            word: word.to_string(),
            suggestion: closest(word, COMMANDS).map(str::to_string),
        }),
    }
}

/// A moderator's manual deal: the cards in dealt order and the chips in letter order (A, B, …).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Deal {
    /// Card costs in the order dealt.
    pub cards: Vec<u32>,
    /// Chips in letter order.
    pub chips: Vec<Chip>,
}

/// Reads a chip colour by name, case-insensitively.
pub fn parse_chip(word: &str) -> Result<Chip, NotationError> {
    let word = word.trim();
    word.parse().map_err(|()| {
        let lower = word.to_lowercase();
        NotationError::UnknownChip {
            given: word.to_string(),
            suggestion: closest(&lower, Chip::ALL.iter().map(|c| c.name()))
                .and_then(|name| name.parse().ok()),
        }
    })
}

/// Reads chip colours: `red blue, green` (a manual chip draw in letter order).
pub fn parse_chips(text: &str) -> Result<Vec<Chip>, NotationError> {
    words(text).iter().map(|w| parse_chip(w)).collect()
}

/// Reads a card cost in a deal: `25` (or `$25`).
pub fn parse_cost(word: &str) -> Result<u32, NotationError> {
    let not_a_card = |suggestion| NotationError::NotACard {
        given: word.to_string(),
        suggestion,
    };
    let digits = word.trim().trim_start_matches(['$', '£']);
    let n: u32 = digits.parse().map_err(|_| not_a_card(None))?;
    if cost_index(n).is_some() {
        return Ok(n);
    }
    let nearest = COSTS.iter().copied().min_by_key(|c| c.abs_diff(n));
    Err(not_a_card(nearest))
}

/// Reads the moderator's manual deal: `10 5 25 50 10 35 40 chips:red,blue,…`. Counts are
/// checked when the deal is given to the game.
pub fn parse_deal(text: &str) -> Result<Deal, NotationError> {
    let lower = text.to_lowercase();
    let Some((cards, chips)) = lower.split_once("chips") else {
        return Err(NotationError::MissingChips);
    };
    let chips = chips.trim_start().trim_start_matches([':', '=']);
    let cards = words(cards)
        .iter()
        .map(|w| parse_cost(w))
        .collect::<Result<Vec<u32>, _>>()?;
    let chips = parse_chips(chips)?;
    Ok(Deal { cards, chips })
}

impl fmt::Display for Deal {
    /// Prints the deal in the notation [`parse_deal`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for cost in &self.cards {
            write!(f, "{cost} ")?;
        }
        f.write_str("chips:")?;
        for (i, chip) in self.chips.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            f.write_str(chip.name())?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn letter(c: char) -> Letter {
        Letter::from_char(c).expect("a row letter")
    }

    #[test]
    fn reads_every_form_of_the_notation() {
        let bid_c = Ok(Action::Bid {
            letter: letter('C'),
            amount: 17,
        });
        for text in [
            "bid 17 on C",
            "bid C 17",
            "Bid £17 on c",
            "bid $17 on C",
            "bid $ 17 on C",
            "bid 17$ C",
            "bid c for 17",
        ] {
            assert_eq!(parse_action(text), bid_c, "{text}");
        }
        assert_eq!(parse_action("buy"), Ok(Action::Buy { letter: None }));
        assert_eq!(
            parse_action("BUY a"),
            Ok(Action::Buy {
                letter: Some(letter('A'))
            })
        );
        assert_eq!(parse_action("take"), Ok(Action::Buy { letter: None }));
        assert_eq!(parse_action("pass"), Ok(Action::Pass));
        for text in ["bid 19", "raise 19", "raise to $19", "bid £19"] {
            assert_eq!(
                parse_action(text),
                Ok(Action::Raise { amount: 19 }),
                "{text}"
            );
        }
        assert_eq!(parse_action("drop"), Ok(Action::Drop));
        assert_eq!(parse_action("drop out"), Ok(Action::Drop));
    }

    #[test]
    fn printed_actions_read_back_the_same() {
        for text in ["buy", "buy A", "bid 17 on C", "pass", "raise 19", "drop"] {
            let action = parse_action(text).expect("parses");
            assert_eq!(action.to_string(), text);
        }
    }

    #[test]
    fn mistakes_are_typed_with_suggestions() {
        assert_eq!(parse_action("  "), Err(NotationError::Empty));
        assert_eq!(
            parse_action("by A"),
            Err(NotationError::UnknownCommand {
                word: "by".into(),
                suggestion: Some("buy".into())
            })
        );
        assert_eq!(
            parse_action("bid 17 on H"),
            Err(NotationError::UnknownCard { given: "H".into() })
        );
        assert_eq!(
            parse_action("bid C"),
            Err(NotationError::MissingAmount {
                command: "bid".into()
            })
        );
        assert!(matches!(
            parse_action("bid seventeen on C"),
            Err(NotationError::BadAmount { .. })
        ));
        assert!(matches!(
            parse_action("bid 99999999999999 on C"),
            Err(NotationError::TooLarge { .. })
        ));
        assert!(matches!(
            parse_action("pass now"),
            Err(NotationError::Unexpected { .. })
        ));
    }

    #[test]
    fn reads_a_manual_deal() {
        let deal = parse_deal("10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,blue")
            .expect("a deal");
        assert_eq!(deal.cards, vec![10, 5, 25, 50, 10, 35, 40]);
        assert_eq!(
            deal.chips,
            vec![
                Chip::Red,
                Chip::Blue,
                Chip::Green,
                Chip::Red,
                Chip::Black,
                Chip::Yellow,
                Chip::Blue
            ]
        );
        assert_eq!(parse_deal(&deal.to_string()), Ok(deal));
        assert_eq!(
            parse_deal("10 5 26 chips:red"),
            Err(NotationError::NotACard {
                given: "26".into(),
                suggestion: Some(25)
            })
        );
        assert_eq!(
            parse_deal("10 5 25 chips: red, bleu"),
            Err(NotationError::UnknownChip {
                given: "bleu".into(),
                suggestion: Some(Chip::Blue)
            })
        );
        assert_eq!(parse_deal("10 5 25"), Err(NotationError::MissingChips));
    }
}
