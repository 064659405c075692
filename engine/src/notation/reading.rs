//! Reading a move the way a human moderator would: `I bid £8`, `no bid`, `pass on CBSC`,
//! `auction the GSW share at 6`, `build K3 and L3 for WLW`, `place a pink cube in Sligo`.
//!
//! [`read`] accepts what reads one way only, says when a text reads two ways ([`Ambiguity`]),
//! suggests the move behind a close misspelling ([`Reading::NearMiss`]), and leaves alone bold text
//! with no move word in it ([`Reading::Chat`]). Like the strict notation it knows the board but not
//! the position: the one check that needs the position, whether a share named in `bid 8 on WLW`
//! is the share under auction, is [`super::check_named_share`].
//!
//! How it reads, step by step:
//! 1. `words::split` makes words (case folded, punctuation dropped, `£ 8` joined, `8/9` is
//!    `8 or 9`); a `?` anywhere is remembered.
//! 2. The text is cut at each `or`; a part without a command word borrows the first part's
//!    (`bid 8 or 9` is `bid 8` or `bid 9`). Two or more parts are [`Ambiguity::Alternatives`].
//! 3. In each part, phrases become the word they stand for (`no bid`, `I'm out`: `pass`; `go to 9`,
//!    `open the bidding at 9`: `bid 9`; `Great Southern and Western`: `GSW`); filler before and
//!    after the move goes (`I'd like to`, `please`, `thanks`, `from me`).
//! 4. The first command word decides the command. Words before it may only be a railway or the
//!    command's own leading words (`call for dividends`, `special interest`); words after it are
//!    sorted into railways, amounts, colours, linking words (`on`, `at`, `the`, `share`) and the
//!    rest, which for a build or a special interest are hexes. A build's cost note at the end
//!    (`(2 BP)`) goes; laying track (`place track for WLW in K3`) is a build, placing a cube a
//!    special interest, whose colour may come first (`pink special interest in Shannon`).
//! 5. Each command checks its slots: one value where one is wanted, two values are
//!    [`Ambiguity::TwoValues`], a missing one is [`NotationError::Syntax`] (or, for a build's
//!    hexes and railway, an ambiguity with guidance).
//! 6. No command word: a word within a typo or two of one (and not an English word) is a
//!    near miss; otherwise the text is chat. A railway or colour within a typo of a real one is
//!    a near miss too; a misspelt hex keeps the strict notation's "did you mean".

use std::collections::HashSet;
use std::fmt;
use std::hash::Hash;

use serde::{Deserialize, Serialize};

use super::words::{
    self, colour, command, looks_like_amount, move_bounds, near, number_word, railway,
    rewrite_phrases, strip_filler, typo_distance, Command, Word, COST_UNITS, COST_WORDS, CUBE,
    LAYING, NEAR_MISS_TARGETS, PLACING, TRACK,
};
use super::{form, hex_list, pounds, NotationError};
use crate::action::Action;
use crate::board::{Board, HexId};
use crate::railway::{Colour, Railway};

/// How a text reads. (Serializable for logs; not deserializable, as [`NotationError`] names its
/// command by a static string.)
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reading", rename_all = "snake_case")]
pub enum Reading {
    /// A move, read one way only.
    Move {
        /// The move.
        action: Action,
        /// Whether the text was the strict notation itself (`bid 8`, not `I bid £8`); when it was
        /// not, the caller should say how it read the text, so players learn the notation.
        canonical: bool,
        /// The share the player named with a bid or a pass (`bid 8 on WLW`, `pass on CBSC`):
        /// to be checked against the position with [`super::check_named_share`].
        named: Option<Railway>,
    },
    /// Not a move: no command word and no close misspelling of one. Emphasis in conversation.
    Chat,
    /// A close misspelling of a command word (`bdi 8`, `pas`), a railway (`auction GWS`) or a
    /// cube colour (`interest Sligo pnik`): refused, with the move it would have been.
    NearMiss {
        /// The word as written.
        written: String,
        /// The word it is close to.
        meant: String,
        /// The move the text reads as with that word corrected, if it reads as one.
        suggestion: Option<Action>,
    },
    /// A text that reads more than one way: refused, never guessed.
    Ambiguous {
        /// The moves it could be, where they can be listed.
        options: Vec<Action>,
        /// Why it reads more than one way.
        why: Ambiguity,
    },
    /// A command that does not fit its form: refused with the reason.
    Malformed(NotationError),
}

/// Why a text reads more than one way.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Ambiguity {
    /// Alternatives joined by `or`, `/` or a range: `bid 8 or 9`, `auction GSW/MGW`.
    Alternatives,
    /// Two values where the move takes one: `bid 8 9`, `auction GSW MGW`.
    TwoValues,
    /// A build that names no hex: `build WLW`. The hexes to place in, or a target to build
    /// towards, are needed; the options are empty.
    NoHex {
        /// The railway named.
        railway: Railway,
    },
    /// A build that names no railway: `build K3 L3`. The options are the build for each railway.
    NoRailway,
    /// A move written as a question: `bid 8?`. The option is the move without the question.
    Question,
}

impl Reading {
    /// The move, if the text reads as one.
    pub fn action(&self) -> Option<&Action> {
        match self {
            Reading::Move { action, .. } => Some(action),
            _ => None,
        }
    }

    /// Whether the text is chat, to be left without a reply.
    pub fn is_chat(&self) -> bool {
        matches!(self, Reading::Chat)
    }
}

/// Options listed in a refusal; more are counted, not listed.
const OPTIONS_LISTED: usize = 6;

/// Lists moves as `bid 8 or bid 9`, or `bid 8, bid 9 or bid 10`.
fn list(options: &[Action]) -> String {
    let mut texts: Vec<String> = options
        .iter()
        .take(OPTIONS_LISTED)
        .map(Action::to_string)
        .collect();
    if options.len() > OPTIONS_LISTED {
        texts.push(format!("{} more", options.len() - OPTIONS_LISTED));
    }
    match texts.split_last() {
        None => String::new(),
        Some((last, [])) => last.clone(),
        Some((last, rest)) => format!("{} or {last}", rest.join(", ")),
    }
}

impl fmt::Display for Reading {
    /// The move in the strict notation; for a refusal, the reason, ready to show the player.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reading::Move { action, .. } => write!(f, "{action}"),
            Reading::Chat => f.write_str("chat, not a move"),
            Reading::NearMiss {
                written,
                meant,
                suggestion: Some(action),
            } => write!(f, "'{written}' is close to {meant}; did you mean {action}?"),
            Reading::NearMiss {
                written,
                meant,
                suggestion: None,
            } => write!(
                f,
                "'{written}' is close to {meant}; write it as: {}",
                form(meant)
            ),
            Reading::Ambiguous { options, why } => match why {
                Ambiguity::Alternatives | Ambiguity::TwoValues if options.len() >= 2 => write!(
                    f,
                    "that reads as {}; write the one you mean",
                    list(options)
                ),
                Ambiguity::Alternatives | Ambiguity::TwoValues => match options.first() {
                    Some(action) => write!(
                        f,
                        "that reads as {action} or as something else; write one move"
                    ),
                    None => f.write_str("that reads more than one way; write one move"),
                },
                Ambiguity::NoHex { railway } => write!(
                    f,
                    "build {railway} where? name the hexes (build {railway} K3 L3) or a town to build towards (build {railway} Shannon)"
                ),
                Ambiguity::NoRailway => match options.first() {
                    Some(action) => write!(f, "which railway? name it: {action}"),
                    None => f.write_str("which railway? name it: build WLW K3 L3"),
                },
                Ambiguity::Question => match options.first() {
                    Some(action) => write!(
                        f,
                        "'{action}?' is a question; to make the move, write {action} without the question mark"
                    ),
                    None => f.write_str("that is a question, not a move"),
                },
            },
            Reading::Malformed(error) => write!(f, "{error}"),
        }
    }
}

/// How one part of a text (between `or`s) reads, before near misses and the question mark.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    Move {
        action: Action,
        named: Option<Railway>,
    },
    /// No command word.
    NoIntent,
    Ambiguous {
        options: Vec<Action>,
        why: Ambiguity,
    },
    Malformed(NotationError),
}

/// Texts of more words than this are never searched for misspelt command words: a move is short,
/// and a long bold sentence without a command word is chat.
const NEAR_MISS_MAX_WORDS: usize = 12;

/// Texts of more words than this are read as one part, without looking for alternatives: no move
/// is that long, and reading stays linear in the length of the text.
const ALTERNATIVES_MAX_WORDS: usize = 40;

/// An alternative after `or` stands for at most this many words of the first part (`bid 8 or 9`:
/// one word; `build WLW K3 or K4 L4`: two).
const ALTERNATIVE_MAX_WORDS: usize = 6;

/// Reads a text as a human moderator would; see the [module documentation](self) and
/// `docs/PHRASING.md` for the rules.
pub fn read(text: &str) -> Reading {
    let words = words::split(text);
    let question = text.contains('?');
    match read_words(&words) {
        Outcome::Move { action, .. } if question => Reading::Ambiguous {
            options: vec![action],
            why: Ambiguity::Question,
        },
        Outcome::Move { action, named } => Reading::Move {
            canonical: named.is_none() && is_canonical(text, &action),
            action,
            named,
        },
        Outcome::NoIntent => near_command(&words).unwrap_or(Reading::Chat),
        Outcome::Ambiguous { options, why } => Reading::Ambiguous { options, why },
        Outcome::Malformed(error) => {
            near_value(&words, &error).unwrap_or(Reading::Malformed(error))
        }
    }
}

/// Reads words, cutting them at each `or`.
fn read_words(words: &[Word]) -> Outcome {
    if words.len() > ALTERNATIVES_MAX_WORDS {
        return read_part(words);
    }
    let parts: Vec<&[Word]> = words
        .split(|w| w.lower == "or")
        .filter(|p| !p.is_empty())
        .collect();
    let [first, others @ ..] = parts.as_slice() else {
        return Outcome::NoIntent;
    };
    if others.is_empty() {
        return read_part(first);
    }
    let first_has_command = has_command(first);
    let mut outcomes = vec![read_part(first)];
    for part in others {
        if has_command(part) {
            outcomes.push(read_part(part));
            continue;
        }
        if !first_has_command {
            outcomes.push(Outcome::NoIntent);
            continue;
        }
        // `bid 8 or 9`: the part stands for the last words of the first part.
        let most = part
            .len()
            .min(first.len().saturating_sub(1))
            .min(ALTERNATIVE_MAX_WORDS);
        let mut chosen = Outcome::NoIntent;
        for k in (1..=most).rev() {
            let mut joined = first[..first.len() - k].to_vec();
            joined.extend_from_slice(part);
            let outcome = read_part(&joined);
            if matches!(outcome, Outcome::Move { .. }) {
                chosen = outcome;
                break;
            }
            if k == most {
                chosen = outcome;
            }
        }
        outcomes.push(chosen);
    }
    if outcomes.iter().all(|o| *o == Outcome::NoIntent) {
        return Outcome::NoIntent;
    }
    let mut options: Vec<Action> = Vec::new();
    let mut named = Vec::new();
    for outcome in &outcomes {
        if let Outcome::Move { action, named: n } = outcome {
            if !options.contains(action) {
                options.push(action.clone());
            }
            named.push(*n);
        }
    }
    let every_part_a_move = named.len() == outcomes.len();
    if every_part_a_move && options.len() == 1 && named.windows(2).all(|w| w[0] == w[1]) {
        // `pass or no bid`: every way of reading it is the same move.
        return outcomes.swap_remove(0);
    }
    Outcome::Ambiguous {
        options,
        why: Ambiguity::Alternatives,
    }
}

/// The command word of some words, if any: its position and what it asks for.
pub(super) fn find_command(words: &[Word]) -> Option<(usize, Command)> {
    if let Some(found) = words
        .iter()
        .enumerate()
        .find_map(|(i, w)| command(&w.lower).map(|c| (i, c)))
    {
        return Some(found);
    }
    // `place a pink cube in Sligo`: placing a cube is a special interest.
    let mentions = |nouns: &[&str]| words.iter().any(|w| nouns.contains(&w.lower.as_str()));
    let first_of = |verbs: &[&str]| words.iter().position(|w| verbs.contains(&w.lower.as_str()));
    if mentions(&CUBE) {
        if let Some(i) = first_of(&PLACING) {
            return Some((i, Command::Interest));
        }
    }
    // `place track for WLW in K3 and L3`: laying track is a build.
    if mentions(&TRACK) {
        return first_of(&LAYING).map(|i| (i, Command::Build));
    }
    None
}

fn has_command(words: &[Word]) -> bool {
    find_command(&rewrite_phrases(words)).is_some()
}

/// The words of one command, sorted.
#[derive(Default)]
struct Slots<'a> {
    railways: Vec<Railway>,
    amounts: Vec<Result<u32, NotationError>>,
    colours: Vec<Colour>,
    rest: Vec<&'a Word>,
}

fn syntax(command: Command, reason: impl Into<String>) -> Outcome {
    Outcome::Malformed(NotationError::Syntax {
        command: command.word(),
        reason: reason.into(),
    })
}

fn joined(words: &[&Word]) -> String {
    words
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads one part of a text: one move, or nothing.
fn read_part(words: &[Word]) -> Outcome {
    let rewritten = rewrite_phrases(words);
    let words = strip_filler(&rewritten);
    let Some((at, command)) = find_command(words) else {
        return Outcome::NoIntent;
    };
    let mut slots = Slots::default();
    let mut stray = Vec::new();
    for word in &words[..at] {
        if command.leading().contains(&word.lower.as_str()) {
            continue;
        }
        match (railway(&word.lower), colour(&word.lower)) {
            (Some(r), _) if command != Command::Interest => slots.railways.push(r),
            // `pink special interest in Shannon`: the colour first.
            (_, Some(c)) if command == Command::Interest => slots.colours.push(c),
            _ => stray.push(word),
        }
    }
    if !stray.is_empty() {
        return syntax(
            command,
            format!(
                "'{}' before {} is not part of a move",
                joined(&stray),
                words[at].text
            ),
        );
    }
    let after = match command {
        Command::Build => without_cost_note(&words[at + 1..]),
        _ => &words[at + 1..],
    };
    for word in after {
        let lower = word.lower.as_str();
        if command.linking().contains(&lower)
            || (command == Command::Interest && PLACING.contains(&lower))
        {
            continue;
        }
        if words::command(lower).is_some() {
            return syntax(
                command,
                format!(
                    "'{}' and '{}' are two moves, one bold text each",
                    words[at].text, word.text
                ),
            );
        }
        match command {
            Command::Interest => match colour(lower) {
                Some(c) => slots.colours.push(c),
                None => slots.rest.push(word),
            },
            Command::Build => match railway(lower) {
                Some(r) => slots.railways.push(r),
                None => slots.rest.push(word),
            },
            Command::Bid | Command::Raise | Command::Pass | Command::Auction => {
                if let Some(r) = railway(lower) {
                    slots.railways.push(r);
                } else if looks_like_amount(lower) {
                    slots.amounts.push(amount(command, word));
                } else {
                    slots.rest.push(word);
                }
            }
            Command::Dividends => slots.rest.push(word),
        }
    }
    match command {
        Command::Bid => bid(slots),
        Command::Raise if !words[at + 1..].iter().any(|w| w.lower == "to") => syntax(
            command,
            "a bid is the new total, not the raise; write bid and the total",
        ),
        Command::Raise => bid(slots),
        Command::Pass => pass(slots),
        Command::Auction => auction(slots),
        Command::Build => build(slots),
        Command::Interest => interest(slots),
        Command::Dividends => dividends(slots),
    }
}

/// A bare amount, `9`, `£9` or `9 quid, please`: the words of a bid without its command word.
/// It is a bid only where a bid is the one move an amount can be, in an auction
/// ([`super::read_in`]); [`read`] takes it as chat. A question (`9?`) is never one.
pub(super) fn bare_bid(text: &str) -> Option<Reading> {
    if text.contains('?') {
        return None;
    }
    let split = words::split(text);
    let rewritten = rewrite_phrases(&split);
    let kept: Vec<&Word> = strip_filler(&rewritten)
        .iter()
        .filter(|w| !matches!(w.lower.as_str(), "pounds" | "pound" | "quid"))
        .collect();
    let [word] = kept.as_slice() else {
        return None;
    };
    if !looks_like_amount(&word.lower) {
        return None;
    }
    Some(match amount(Command::Bid, word) {
        Ok(amount) => Reading::Move {
            action: Action::Bid { amount },
            canonical: false,
            named: None,
        },
        Err(error) => Reading::Malformed(error),
    })
}

/// An amount of pounds: `8`, `£8`, `8£`, `eight`.
fn amount(command: Command, word: &Word) -> Result<u32, NotationError> {
    match number_word(&word.lower) {
        Some(n) => Ok(n),
        None => pounds(command.word(), &word.text),
    }
}

/// A word with no place in the move: a misspelt railway if it is close to one, else a stray word.
fn stray_word(command: Command, word: &Word, noun: &str) -> NotationError {
    if close_railway(&word.lower).is_some() {
        return NotationError::UnknownRailway {
            given: word.text.to_uppercase(),
        };
    }
    NotationError::Syntax {
        command: command.word(),
        reason: format!("'{}' does not belong in {noun}", word.text),
    }
}

/// The one railway within a typo of a word, if exactly one is.
pub(super) fn close_railway(lower: &str) -> Option<Railway> {
    let mut close = Railway::ALL
        .into_iter()
        .filter(|r| lower.len() >= 2 && typo_distance(lower, &r.code().to_lowercase()) <= 1);
    match (close.next(), close.next()) {
        (Some(r), None) => Some(r),
        _ => None,
    }
}

/// The one cube colour within a typo of a word, if exactly one is.
pub(super) fn close_colour(lower: &str) -> Option<Colour> {
    let mut close = Colour::ALL
        .into_iter()
        .filter(|c| lower.len() >= 3 && typo_distance(lower, c.name()) <= 1);
    match (close.next(), close.next()) {
        (Some(c), None) => Some(c),
        _ => None,
    }
}

/// The share named with a bid or a pass: at most one.
fn named(command: Command, railways: &[Railway]) -> Result<Option<Railway>, NotationError> {
    match railways {
        [] => Ok(None),
        [r] => Ok(Some(*r)),
        [first, rest @ ..] if rest.iter().all(|r| r == first) => Ok(Some(*first)),
        _ => Err(NotationError::Syntax {
            command: command.word(),
            reason: "name one share, the one under auction".into(),
        }),
    }
}

/// Keeps the first of each value, in order.
fn distinct<T: Eq + Hash + Clone>(values: &[T]) -> Vec<T> {
    let mut seen = HashSet::new();
    values
        .iter()
        .filter(|v| seen.insert((*v).clone()))
        .cloned()
        .collect()
}

/// One move, or the moves it could be.
fn one_of(options: Vec<Action>, named: Option<Railway>) -> Outcome {
    match <[Action; 1]>::try_from(options) {
        Ok([action]) => Outcome::Move { action, named },
        Err(options) => Outcome::Ambiguous {
            options,
            why: Ambiguity::TwoValues,
        },
    }
}

fn bid(slots: Slots) -> Outcome {
    if let Some(word) = slots.rest.first() {
        return Outcome::Malformed(stray_word(Command::Bid, word, "a bid"));
    }
    let named = match named(Command::Bid, &slots.railways) {
        Ok(named) => named,
        Err(e) => return Outcome::Malformed(e),
    };
    let amounts = match slots.amounts.into_iter().collect::<Result<Vec<_>, _>>() {
        Ok(amounts) => distinct(&amounts),
        Err(e) => return Outcome::Malformed(e),
    };
    if amounts.is_empty() {
        return syntax(Command::Bid, "a bid needs an amount");
    }
    one_of(
        amounts
            .into_iter()
            .map(|amount| Action::Bid { amount })
            .collect(),
        named,
    )
}

fn pass(slots: Slots) -> Outcome {
    if let Some(word) = slots.rest.first() {
        return Outcome::Malformed(stray_word(Command::Pass, word, "a pass"));
    }
    if !slots.amounts.is_empty() {
        return syntax(Command::Pass, "a pass takes no amount");
    }
    match named(Command::Pass, &slots.railways) {
        Ok(named) => Outcome::Move {
            action: Action::Pass,
            named,
        },
        Err(e) => Outcome::Malformed(e),
    }
}

fn auction(slots: Slots) -> Outcome {
    if let Some(word) = slots.rest.first() {
        if slots.railways.is_empty() {
            return Outcome::Malformed(NotationError::UnknownRailway {
                given: word.text.to_uppercase(),
            });
        }
        return Outcome::Malformed(stray_word(Command::Auction, word, "an auction"));
    }
    let railways = distinct(&slots.railways);
    if railways.is_empty() {
        return syntax(Command::Auction, "name the railway to auction");
    }
    let amounts = match slots.amounts.into_iter().collect::<Result<Vec<_>, _>>() {
        Ok(amounts) if amounts.is_empty() => vec![None],
        Ok(amounts) => distinct(&amounts).into_iter().map(Some).collect(),
        Err(e) => return Outcome::Malformed(e),
    };
    let mut options = Vec::new();
    for &railway in &railways {
        for &opening_bid in &amounts {
            options.push(Action::Auction {
                railway,
                opening_bid,
            });
        }
    }
    one_of(options, None)
}

fn texts(words: &[&Word]) -> Vec<String> {
    words.iter().map(|w| w.text.clone()).collect()
}

/// The words of a build without a cost note at their end: `(2 BP)`, `for 1.5 build points`,
/// `costing 2 BP` (the cost is the game's to work out; the note is not checked).
fn without_cost_note(rest: &[Word]) -> &[Word] {
    let lower = |i: usize| rest[i].lower.as_str();
    let mut end = rest.len();
    let Some(unit) = end
        .checked_sub(1)
        .filter(|&i| COST_UNITS.contains(&lower(i)))
    else {
        return rest;
    };
    end = unit;
    if end > 0 && lower(end - 1) == "build" && lower(unit) != "bp" && lower(unit) != "bps" {
        end -= 1;
    }
    let is_points = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.');
    let Some(number) = end.checked_sub(1).filter(|&i| is_points(lower(i))) else {
        return rest;
    };
    end = number;
    if end > 0 && COST_WORDS.contains(&lower(end - 1)) {
        end -= 1;
    }
    &rest[..end]
}

fn build(slots: Slots) -> Outcome {
    let railways = distinct(&slots.railways);
    if railways.len() > 1 {
        return syntax(Command::Build, "a build is for one railway");
    }
    if slots.rest.is_empty() {
        return match railways.first() {
            Some(&railway) => Outcome::Ambiguous {
                options: Vec::new(),
                why: Ambiguity::NoHex { railway },
            },
            None => syntax(Command::Build, "name the railway and the hexes"),
        };
    }
    if railways.is_empty() {
        // `build WLV K3`: a misspelt railway, not a hex.
        if let Some(first) = slots.rest.first() {
            let is_hex = Board::get().find(&first.text).is_some();
            if !is_hex && close_railway(&first.lower).is_some() {
                return Outcome::Malformed(NotationError::UnknownRailway {
                    given: first.text.to_uppercase(),
                });
            }
        }
    }
    let hexes = match hex_list(&texts(&slots.rest)) {
        Ok(hexes) => hexes,
        Err(e) => return Outcome::Malformed(e),
    };
    match railways.first() {
        Some(&railway) => Outcome::Move {
            action: Action::Build { railway, hexes },
            named: None,
        },
        None => Outcome::Ambiguous {
            options: Railway::ALL
                .into_iter()
                .map(|railway| Action::Build {
                    railway,
                    hexes: hexes.clone(),
                })
                .collect(),
            why: Ambiguity::NoRailway,
        },
    }
}

fn interest(slots: Slots) -> Outcome {
    let colours = distinct(&slots.colours);
    let rest = &slots.rest;
    if colours.is_empty() {
        if rest.is_empty() {
            return syntax(Command::Interest, "name the town and the cube colour");
        }
        if hex_list(&texts(rest)).is_ok() {
            return syntax(Command::Interest, "name the cube colour too");
        }
        // `interest Sligo pnik`, `interest pnik Sligo`: the word that is no hex is the colour.
        let last = rest.len() - 1;
        for (colour_at, town) in [(last, &rest[..last]), (0, &rest[1..])] {
            if !town.is_empty() && hex_list(&texts(town)).is_ok() {
                return Outcome::Malformed(NotationError::UnknownColour {
                    given: rest[colour_at].text.clone(),
                });
            }
        }
    }
    if rest.is_empty() {
        return syntax(Command::Interest, "name the town to place the cube in");
    }
    let towns = match hex_list(&texts(rest)) {
        Ok(towns) => distinct(&towns),
        Err(e) => return Outcome::Malformed(e),
    };
    let mut options = Vec::new();
    for &town in &towns {
        for &colour in &colours {
            options.push(Action::SpecialInterest { town, colour });
        }
    }
    one_of(options, None)
}

fn dividends(slots: Slots) -> Outcome {
    if let Some(word) = slots.rest.first() {
        return syntax(
            Command::Dividends,
            format!("'{}' does not belong in a dividend call", word.text),
        );
    }
    if !slots.railways.is_empty() || !slots.amounts.is_empty() {
        return syntax(Command::Dividends, "dividends takes nothing after it");
    }
    Outcome::Move {
        action: Action::CallDividends,
        named: None,
    }
}

/// A text without a command word: a near miss if a word is a close misspelling of one.
///
/// The correction that reads as a move wins; failing that, a misspelling as the first word of the
/// move (`**bdi**`) is still a near miss, without a suggested move.
fn near_command(words: &[Word]) -> Option<Reading> {
    let bounds = move_bounds(words);
    if bounds.len() > NEAR_MISS_MAX_WORDS {
        return None;
    }
    let mut fallback = None;
    for i in bounds.clone() {
        let word = &words[i];
        let lower = word.lower.as_str();
        if railway(lower).is_some()
            || colour(lower).is_some()
            || looks_like_amount(lower)
            || Board::get().find(lower).is_some()
        {
            continue;
        }
        for (target, limit) in NEAR_MISS_TARGETS {
            if !near(lower, target, limit) {
                continue;
            }
            let mut fixed = words.to_vec();
            fixed[i] = Word::new(target);
            let near_miss = |suggestion| Reading::NearMiss {
                written: word.text.clone(),
                meant: target.to_string(),
                suggestion,
            };
            match read_words(&fixed) {
                Outcome::Move { action, .. } => return Some(near_miss(Some(action))),
                _ if i == bounds.start && fallback.is_none() => fallback = Some(near_miss(None)),
                _ => {}
            }
        }
    }
    fallback
}

/// A misspelt railway or colour: a near miss if correcting it makes a move.
fn near_value(words: &[Word], error: &NotationError) -> Option<Reading> {
    let (given, meant) = match error {
        NotationError::UnknownRailway { given } => {
            let lower = given.to_lowercase();
            (lower.clone(), close_railway(&lower)?.code().to_string())
        }
        NotationError::UnknownColour { given } => {
            let lower = given.to_lowercase();
            (lower.clone(), close_colour(&lower)?.name().to_string())
        }
        _ => return None,
    };
    let at = words.iter().position(|w| w.lower == given)?;
    let mut fixed = words.to_vec();
    fixed[at] = Word::new(&meant);
    match read_words(&fixed) {
        Outcome::Move { action, .. } => Some(Reading::NearMiss {
            written: words[at].text.clone(),
            meant,
            suggestion: Some(action),
        }),
        _ => None,
    }
}

/// Whether a text is the strict notation of the move: what [`Action`]'s `Display` prints, up to
/// runs of spaces, and with a hex written by its id or by its name as printed (`build WLW
/// Shannon`, `interest D4 pink`).
fn is_canonical(text: &str, action: &Action) -> bool {
    let written: Vec<&str> = text.split_whitespace().collect();
    if written.join(" ") == action.to_string() {
        return true;
    }
    match (action, written.as_slice()) {
        (Action::Build { railway, hexes }, ["build", code, listed @ ..]) => {
            *code == railway.code() && hexes_as_written(listed, hexes)
        }
        (Action::SpecialInterest { town, colour }, ["interest", listed @ .., last]) => {
            *last == colour.name() && hexes_as_written(listed, &[*town])
        }
        _ => false,
    }
}

/// Whether `words` are exactly these hexes, each by id or by printed name.
fn hexes_as_written(mut words: &[&str], hexes: &[HexId]) -> bool {
    for hex in hexes {
        if words.first() == Some(&hex.label()) {
            words = &words[1..];
            continue;
        }
        let name: Vec<&str> = hex.display_name().split(' ').collect();
        if words.starts_with(&name) {
            words = &words[name.len()..];
            continue;
        }
        return false;
    }
    words.is_empty()
}

/// A `!help phrasing` text: the phrasing rules for players, in the bot's own words.
pub const HELP_PHRASING: &str = "\
Write your move in **bold**, the way you would write it to a moderator:
- Filler, case and punctuation don't matter: `I bid £8`, `I'll pass, thanks`, `Please call for dividends!`
- Pass: also `no bid` or `I'm out`. You may name the share: `pass on CBSC`, `bid 8 on WLW` (refused if that is not the share up).
- Auction: `auction GSW`, `auction the GSW share`, `auction GSW at 6`, `auction GSW for £6`.
- Build: `build WLW K3 L3`, `build WLW: K3, L3`, `build K3 and L3 for WLW`, `build WLW to Shannon` (the cheapest path there).
- Special interest: `interest Sligo pink`, `special interest in Sligo (pink)`, `place a pink cube in Sligo`.
- Dividends: `dividends`, `call dividends`, `I call for dividends`.
When you write a move another way, the bot says how it read it (read as `bid 8`), so you can learn the short form.
Bold that does not read as a whole move is chat: from the player to act it gets a short answer (what could not be read, the nearest legal moves, what you may do), from anyone else no reply: **really**, **Nice build!**, and also a bare **8** on a turn (write `bid 8`).
Bold that starts as a move (`bid x`, `build WLW N7`) is refused with the reason, and so is a near miss (`bdi 8`, `pas`) or a text that reads two ways (`bid 8 or 9`, `build WLW` with no hex, `bid 8?`) from the player to act, with a suggestion or the options: the bot never guesses.";

#[cfg(test)]
mod tests {
    use super::*;

    fn accepts(text: &str, expected: &str) {
        match read(text) {
            Reading::Move { action, .. } => assert_eq!(action.to_string(), expected, "{text}"),
            other => panic!("{text:?} read as {other:?}"),
        }
    }

    #[test]
    fn reads_the_issue_phrasings() {
        accepts("I bid 8", "bid 8");
        accepts("no bid", "pass");
        accepts("I'm out", "pass");
        accepts("auction the GSW share", "auction GSW");
        accepts("auction GSW at 6", "auction GSW 6");
        accepts("auction GSW for £6", "auction GSW 6");
        accepts("build WLW to Shannon", "build WLW K3");
        accepts("build WLW: K3, L3", "build WLW K3 L3");
        accepts("build K3 and L3 for WLW", "build WLW K3 L3");
        accepts("call dividends", "dividends");
        accepts("I call for dividends", "dividends");
        accepts("special interest in Sligo (pink)", "interest Sligo pink");
        accepts("place a pink cube in Sligo", "interest Sligo pink");
        assert_eq!(
            read("bid 8 on WLW"),
            Reading::Move {
                action: Action::Bid { amount: 8 },
                canonical: false,
                named: Some(Railway::Wlw)
            }
        );
        assert_eq!(read("really"), Reading::Chat);
    }

    #[test]
    fn refusals_say_why() {
        assert_eq!(
            read("bdi 8").to_string(),
            "'bdi' is close to bid; did you mean bid 8?"
        );
        assert_eq!(
            read("bid 8 or 9").to_string(),
            "that reads as bid 8 or bid 9; write the one you mean"
        );
        assert!(read("build WLW").to_string().contains("build WLW where?"));
        assert_eq!(
            read("bid 8?").to_string(),
            "'bid 8?' is a question; to make the move, write bid 8 without the question mark"
        );
    }

    #[test]
    fn every_kind_of_reading_serializes() {
        for text in [
            "bid 8 on WLW",
            "really",
            "bdi 8",
            "bid 8 or 9",
            "build WLW",
            "bid 7.5",
        ] {
            let json = serde_json::to_string(&read(text)).expect("serializes");
            assert!(json.contains("\"reading\""), "{json}");
        }
    }

    #[test]
    fn the_canonical_flag_allows_hexes_by_id_or_name() {
        for text in [
            "build WLW K3",
            "build WLW Shannon",
            "interest New Ross black",
        ] {
            assert!(
                matches!(
                    read(text),
                    Reading::Move {
                        canonical: true,
                        ..
                    }
                ),
                "{text}"
            );
        }
        assert!(matches!(
            read("build wlw shannon"),
            Reading::Move {
                canonical: false,
                ..
            }
        ));
    }
}
