//! The players' notation: `bid 7`, `pass`, `auction GSW 6`, `build WLW K3 L3`,
//! `interest Sligo pink`, `dividends`. Parsing knows the board but not the position: whether an
//! action is legal is the game's business.
//!
//! Two readers share the vocabulary here:
//! - [`parse_action`] reads the strict notation, one form per move; it is what
//!   [`Action`]'s `Display` prints.
//! - [`read`] reads the way players really write (`I bid £8`, `no bid`, `build K3 and L3 for
//!   WLW`): a [`Reading`] is a move, chat, a near miss, an ambiguity or a malformed command
//!   (see [`reading`] and `docs/PHRASING.md`). [`check_named_share`] is the single check against
//!   the position that a reading needs (`bid 8 on WLW` while CBSC is up).

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::board::{Board, HexId};
use crate::railway::{Colour, Railway};

pub mod named;
pub mod nearest;
pub mod reading;
mod words;

pub use named::{check_named_share, read_in, share_under_auction, NamedShareError};
pub use nearest::nearest_legal;
pub use reading::{read, Ambiguity, Reading, HELP_PHRASING};
pub use words::{starts_as_move, LEADING_FILLER, TRAILING_FILLER};

/// Why a text is not an action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum NotationError {
    /// Nothing was written.
    Empty,
    /// The first word is no command.
    UnknownCommand {
        /// The word.
        word: String,
    },
    /// The command's words do not fit its form.
    Syntax {
        /// The command.
        command: &'static str,
        /// What is wrong.
        reason: String,
    },
    /// A hex that is not on the board.
    UnknownHex {
        /// As written.
        given: String,
        /// The closest id or name.
        suggestion: Option<String>,
    },
    /// A railway that does not exist.
    UnknownRailway {
        /// As written.
        given: String,
    },
    /// A colour that does not exist.
    UnknownColour {
        /// As written.
        given: String,
    },
}

/// The form of each command, for help texts and errors.
pub const FORMS: [(&str, &str); 6] = [
    ("bid", "bid 7  (or bid £7)"),
    ("pass", "pass"),
    (
        "auction",
        "auction GSW  (or auction GSW 6 to open above face value)",
    ),
    (
        "build",
        "build WLW K3 L3  (hex ids or town names; build WLW Shannon finds the cheapest path)",
    ),
    (
        "interest",
        "interest Sligo pink  (or special interest …, si …)",
    ),
    (
        "dividends",
        "dividends  (or call dividends, call for dividends)",
    ),
];

fn form(command: &str) -> &'static str {
    FORMS
        .iter()
        .find(|(c, _)| *c == command)
        .map(|(_, f)| *f)
        .unwrap_or("")
}

impl fmt::Display for NotationError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotationError::Empty => f.write_str("no command given"),
            NotationError::UnknownCommand { word } => write!(
                f,
                "'{word}' is not a command; commands are bid, pass, auction, build, interest, dividends"
            ),
            NotationError::Syntax { command, reason } => {
                write!(f, "{reason}; write it as: {}", form(command))
            }
            NotationError::UnknownHex {
                given,
                suggestion: Some(s),
            } => write!(f, "no hex '{given}'; did you mean {s}?"),
            NotationError::UnknownHex {
                given,
                suggestion: None,
            } => write!(
                f,
                "no hex '{given}'; name a hex by id (K3) or by town or city (Shannon)"
            ),
            NotationError::UnknownRailway { given } => write!(
                f,
                "no railway '{given}'; the railways are CBSC, WLW, BCD, GSW, MGW"
            ),
            NotationError::UnknownColour { given } => {
                write!(f, "no cube colour '{given}'; the colours are white, pink, black")
            }
        }
    }
}

impl std::error::Error for NotationError {}

/// Splits a command into words, treating commas and runs of spaces as one break.
fn words(text: &str) -> Vec<String> {
    text.split(|c: char| c.is_whitespace() || c == ',' || c == ';')
        .map(|w| w.trim_matches(|c: char| matches!(c, '.' | '!' | ':')))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect()
}

/// Reads a whole number of pounds: `7`, `£7`, `$7`, `7£`.
fn pounds(command: &'static str, word: &str) -> Result<u32, NotationError> {
    let digits = word
        .trim_start_matches(['£', '$'])
        .trim_end_matches(['£', '$']);
    if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
        return Err(NotationError::Syntax {
            command,
            reason: format!("'{word}' is not a whole number of pounds"),
        });
    }
    digits.parse().map_err(|_| NotationError::Syntax {
        command,
        reason: format!("£{digits} is more money than there is"),
    })
}

/// Joins `£` written apart from its number: `bid £ 7`.
fn join_currency(mut args: Vec<String>) -> Vec<String> {
    if args.len() >= 2 && (args[0] == "£" || args[0] == "$") {
        let number = args.remove(1);
        args[0] = number;
    }
    args
}

fn railway(word: &str) -> Result<Railway, NotationError> {
    word.parse().map_err(|_| NotationError::UnknownRailway {
        given: word.to_uppercase(),
    })
}

fn colour(word: &str) -> Result<Colour, NotationError> {
    word.parse().map_err(|_| NotationError::UnknownColour {
        given: word.to_string(),
    })
}

fn unknown_hex(given: &str) -> NotationError {
    NotationError::UnknownHex {
        given: given.to_string(),
        suggestion: Board::get().suggest(given).map(str::to_string),
    }
}

/// Reads a hex by id or by name (one word or more, e.g. `New Ross`).
pub fn parse_hex(text: &str) -> Result<HexId, NotationError> {
    Board::get()
        .find(text)
        .ok_or_else(|| unknown_hex(text.trim()))
}

/// Reads a list of hexes, preferring the longest name at each position (`New Ross L10`).
fn hex_list(words: &[String]) -> Result<Vec<HexId>, NotationError> {
    let board = Board::get();
    let mut hexes = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if i + 1 < words.len() {
            if let Some(hex) = board.by_name(&format!("{} {}", words[i], words[i + 1])) {
                hexes.push(hex);
                i += 2;
                continue;
            }
        }
        hexes.push(
            board
                .find(&words[i])
                .ok_or_else(|| unknown_hex(&words[i]))?,
        );
        i += 1;
    }
    Ok(hexes)
}

/// Parses one command in the players' notation.
pub fn parse_action(text: &str) -> Result<Action, NotationError> {
    let words = words(text);
    let Some(first) = words.first() else {
        return Err(NotationError::Empty);
    };
    let rest = &words[1..];
    let lower: Vec<String> = rest.iter().map(|w| w.to_lowercase()).collect();
    match first.to_lowercase().as_str() {
        "bid" => {
            let args = join_currency(rest.to_vec());
            match args.as_slice() {
                [amount] => Ok(Action::Bid {
                    amount: pounds("bid", amount)?,
                }),
                [] => Err(NotationError::Syntax {
                    command: "bid",
                    reason: "a bid needs an amount".into(),
                }),
                _ => Err(NotationError::Syntax {
                    command: "bid",
                    reason: "a bid is one amount".into(),
                }),
            }
        }
        "pass" if rest.is_empty() => Ok(Action::Pass),
        "pass" => Err(NotationError::Syntax {
            command: "pass",
            reason: "pass takes nothing after it".into(),
        }),
        "auction" => match rest {
            [r] => Ok(Action::Auction {
                railway: railway(r)?,
                opening_bid: None,
            }),
            [r, more @ ..] if !more.is_empty() => {
                let args = join_currency(more.to_vec());
                match args.as_slice() {
                    [amount] => Ok(Action::Auction {
                        railway: railway(r)?,
                        opening_bid: Some(pounds("auction", amount)?),
                    }),
                    _ => Err(NotationError::Syntax {
                        command: "auction",
                        reason: "an auction names one railway and at most one opening bid".into(),
                    }),
                }
            }
            _ => Err(NotationError::Syntax {
                command: "auction",
                reason: "name the railway to auction".into(),
            }),
        },
        "build" => match rest {
            [r, hexes @ ..] if !hexes.is_empty() => Ok(Action::Build {
                railway: railway(r)?,
                hexes: hex_list(hexes)?,
            }),
            [r] => {
                railway(r)?;
                Err(NotationError::Syntax {
                    command: "build",
                    reason: "name at least one hex to build in".into(),
                })
            }
            _ => Err(NotationError::Syntax {
                command: "build",
                reason: "name the railway and the hexes".into(),
            }),
        },
        "interest" | "si" => interest(rest),
        "special" if lower.first().map(String::as_str) == Some("interest") => interest(&rest[1..]),
        "dividends" | "dividend" if rest.is_empty() => Ok(Action::CallDividends),
        "call" => match lower
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>()
            .as_slice()
        {
            ["dividends" | "dividend"] | ["for", "dividends" | "dividend"] => {
                Ok(Action::CallDividends)
            }
            _ => Err(NotationError::Syntax {
                command: "dividends",
                reason: "to call for dividends".into(),
            }),
        },
        "dividends" | "dividend" => Err(NotationError::Syntax {
            command: "dividends",
            reason: "dividends takes nothing after it".into(),
        }),
        _ => Err(NotationError::UnknownCommand {
            word: first.to_string(),
        }),
    }
}

fn interest(rest: &[String]) -> Result<Action, NotationError> {
    match rest {
        [town @ .., c] if !town.is_empty() => {
            let colour = colour(c)?;
            let town = parse_hex(&town.join(" "))?;
            Ok(Action::SpecialInterest { town, colour })
        }
        _ => Err(NotationError::Syntax {
            command: "interest",
            reason: "name the town and the cube colour".into(),
        }),
    }
}

/// Reads cube colours: `pink black black` (for a moderator's manual draw, ruling 25).
pub fn parse_cubes(text: &str) -> Result<Vec<Colour>, NotationError> {
    words(text).iter().map(|w| colour(w)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_starts_as_a_move_and_what_is_chat_at_the_table() {
        for text in [
            "bid x",
            "I'll bid 7.5",
            "raise 2",
            "place track",
            "pass the salt",
            "build WLW N7",
            "special interest",
            "no bid",
        ] {
            assert!(starts_as_move(text), "{text}");
        }
        for text in [
            "Nice build!",
            "the opening bidder may pass",
            "great bid, bob",
            "should I pass?",
            "I won't bid",
            "",
        ] {
            assert!(!starts_as_move(text), "{text}");
        }
    }

    fn hex(label: &str) -> HexId {
        Board::get().find(label).expect("hex exists")
    }

    #[test]
    fn reads_every_form_of_the_notation() {
        assert_eq!(parse_action("bid 7"), Ok(Action::Bid { amount: 7 }));
        assert_eq!(parse_action("Bid £7"), Ok(Action::Bid { amount: 7 }));
        assert_eq!(parse_action("bid $7"), Ok(Action::Bid { amount: 7 }));
        assert_eq!(
            parse_action("  BID   £ 12 "),
            Ok(Action::Bid { amount: 12 })
        );
        assert_eq!(parse_action("pass"), Ok(Action::Pass));
        assert_eq!(
            parse_action("auction gsw"),
            Ok(Action::Auction {
                railway: Railway::Gsw,
                opening_bid: None
            })
        );
        assert_eq!(
            parse_action("auction GSW 6"),
            Ok(Action::Auction {
                railway: Railway::Gsw,
                opening_bid: Some(6)
            })
        );
        assert_eq!(
            parse_action("build WLW K3, L3"),
            Ok(Action::Build {
                railway: Railway::Wlw,
                hexes: vec![hex("K3"), hex("L3")]
            })
        );
        assert_eq!(
            parse_action("build wlw new ross l10"),
            Ok(Action::Build {
                railway: Railway::Wlw,
                hexes: vec![hex("L9"), hex("L10")]
            })
        );
        for text in [
            "interest Sligo pink",
            "special interest sligo PINK",
            "si Sligo pink",
        ] {
            assert_eq!(
                parse_action(text),
                Ok(Action::SpecialInterest {
                    town: hex("D4"),
                    colour: Colour::Pink
                }),
                "{text}"
            );
        }
        assert_eq!(
            parse_action("interest New Ross black"),
            Ok(Action::SpecialInterest {
                town: hex("L9"),
                colour: Colour::Black
            })
        );
        for text in ["dividends", "call dividends", "Call for Dividends"] {
            assert_eq!(parse_action(text), Ok(Action::CallDividends), "{text}");
        }
    }

    #[test]
    fn printed_actions_read_back_the_same() {
        for text in [
            "bid 7",
            "pass",
            "auction GSW",
            "auction MGW 9",
            "build WLW K3 L3",
            "interest New Ross black",
            "dividends",
        ] {
            let action = parse_action(text).expect("parses");
            assert_eq!(action.to_string(), text);
            assert_eq!(parse_action(&action.to_string()), Ok(action));
        }
    }

    #[test]
    fn syntax_errors_say_what_is_wrong() {
        assert_eq!(parse_action("   "), Err(NotationError::Empty));
        assert!(matches!(
            parse_action("bid seven"),
            Err(NotationError::Syntax { command: "bid", .. })
        ));
        assert!(matches!(
            parse_action("bid -5"),
            Err(NotationError::Syntax { command: "bid", .. })
        ));
        let overflow = parse_action("bid 99999999999999999999").expect_err("too big");
        assert!(overflow.to_string().contains("more money"), "{overflow}");
        assert!(matches!(
            parse_action("fly to Cork"),
            Err(NotationError::UnknownCommand { .. })
        ));
        assert_eq!(
            parse_action("build XYZ K3"),
            Err(NotationError::UnknownRailway {
                given: "XYZ".into()
            })
        );
        let misspelt = parse_action("build WLW Shanon").expect_err("misspelt");
        assert_eq!(
            misspelt.to_string(),
            "no hex 'Shanon'; did you mean Shannon?"
        );
        assert!(matches!(
            parse_action("interest Sligo purple"),
            Err(NotationError::UnknownColour { .. })
        ));
    }

    #[test]
    fn reads_a_manual_draw() {
        assert_eq!(
            parse_cubes("pink, black black"),
            Ok(vec![Colour::Pink, Colour::Black, Colour::Black])
        );
        assert!(parse_cubes("pink blue").is_err());
    }
}
