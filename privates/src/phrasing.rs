//! Reading a move the way players write it: `I'll take A`, `purchase A`, `buy A please`,
//! `bid 17 on the blue 10`, `nope, pass`, `I'm out`, a bare `$19` in a bid-off.
//!
//! The rule is the Irish Gauge reader's (docs/PHRASING.md): a text is accepted only when it reads
//! one way; a text that reads several ways is refused with its readings; a close misspelling of a
//! command word is refused with the move it would be; bold with no move word in it is chat.
//!
//! How a text is read ([`read_in`]):
//! 1. Words: lower case, punctuation dropped, phones' apostrophes folded, a possessive `'s`
//!    dropped, `$ 17` joined.
//! 2. Phrases that stand for one word: `no bid`, `hard pass`, `I'll sit this one out` (pass);
//!    `I'm out`, `drop out`, `I fold` (drop); `go to`, `make it` (raise).
//! 3. Filler before and after the move goes (`I`, `I'll`, `let me`, `nope`, `please`, `thanks`).
//! 4. The first command word decides the move (`buy`, `take`, `purchase`, `grab`; `bid`;
//!    `pass`, `skip`; `raise`; `drop`, `fold`). Words before it that are not filler make the text
//!    no move (`should I pass`).
//! 5. After it: amounts (`17`, `$17`), and the card, by letter (`C`), by face value (`the 10`),
//!    by chip colour (`the blue one`) or both (`the blue 10`), found in the row of the position.
//!    A description that fits two cards is refused with both.
//! 6. A bare amount in a bid-off is a raise (`$19`); elsewhere an amount alone is chat.

use std::fmt;

use serde::Serialize;

use crate::action::Action;
use crate::card::{Chip, Letter};
use crate::game::{Game, Phase};
use crate::notation::{parse_action, NotationError};

/// How a text reads in a position.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "reading", rename_all = "snake_case")]
pub enum Reading {
    /// A move, read one way only; `canonical` when the text was the strict notation itself.
    Move {
        /// The move.
        action: Action,
        /// Whether the text was the strict notation (no "read as" echo needed).
        canonical: bool,
    },
    /// No move word in it, and no close misspelling of one.
    Chat,
    /// A close misspelling of a command word: the move it would be, if the rest reads.
    NearMiss {
        /// The word as written.
        written: String,
        /// The command word it is close to.
        meant: String,
        /// The move with the word corrected, if the text then reads as one.
        suggestion: Option<Action>,
    },
    /// A text that reads more than one way: the moves it could be.
    Ambiguous {
        /// The readings.
        options: Vec<Action>,
    },
    /// A move written as a question (`buy A?`): not a move.
    Question {
        /// The move the text asks about.
        action: Action,
    },
    /// A move word with something that does not fit.
    Malformed(NotationError),
}

impl Reading {
    /// Whether the text is chat, to be left without a reply.
    pub fn is_chat(&self) -> bool {
        matches!(self, Reading::Chat)
    }
}

impl fmt::Display for Reading {
    /// The move in the strict notation, or the reason of a refusal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reading::Move { action, .. } => write!(f, "{action}"),
            Reading::Chat => f.write_str("chat, not a move"),
            Reading::NearMiss {
                written,
                meant,
                suggestion: Some(action),
            } => write!(f, "'{written}' is close to {meant}; did you mean {action}?"),
            Reading::NearMiss { written, meant, .. } => {
                write!(f, "'{written}' is close to {meant}")
            }
            Reading::Ambiguous { options } => {
                let texts: Vec<String> = options.iter().map(Action::to_string).collect();
                write!(
                    f,
                    "that reads as {}; write the one you mean",
                    texts.join(" or ")
                )
            }
            Reading::Question { action } => write!(
                f,
                "'{action}?' is a question; to make the move, write {action} without the question mark"
            ),
            Reading::Malformed(error) => write!(f, "{error}"),
        }
    }
}

/// What a command word asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Command {
    Buy,
    Bid,
    Pass,
    Raise,
    Drop,
}

impl Command {
    fn word(self) -> &'static str {
        match self {
            Command::Buy => "buy",
            Command::Bid => "bid",
            Command::Pass => "pass",
            Command::Raise => "raise",
            Command::Drop => "drop",
        }
    }
}

/// The command a word asks for, inflections and synonyms included.
fn command(word: &str) -> Option<Command> {
    Some(match word {
        "buy" | "buys" | "buying" | "take" | "takes" | "taking" | "purchase" | "purchases"
        | "purchasing" | "grab" | "grabs" | "grabbing" => Command::Buy,
        "bid" | "bids" | "bidding" => Command::Bid,
        "pass" | "passes" | "passing" | "skip" | "skips" | "skipping" => Command::Pass,
        "raise" | "raises" | "raising" => Command::Raise,
        "drop" | "drops" | "dropping" | "fold" | "folds" | "folding" => Command::Drop,
        _ => return None,
    })
}

/// The command words a misspelling is measured against.
const NEAR_MISS_TARGETS: [&str; 5] = ["buy", "bid", "pass", "raise", "drop"];

/// English words a typo away from a command word that are not misspellings of it.
const NOT_MISSPELLINGS: [&str; 24] = [
    "bad", "bed", "big", "bit", "did", "kid", "lid", "mid", "rid", "bud", "boy", "bus", "guy",
    "past", "mass", "pads", "pals", "pays", "raised", "praise", "rise", "prop", "crop", "drip",
];

/// Phrases that stand for one word (lower-case words; the word they stand for).
const PHRASES: [(&[&str], &str); 27] = [
    (&["sit", "this", "one", "out"], "pass"),
    (&["sitting", "this", "one", "out"], "pass"),
    (&["sit", "this", "out"], "pass"),
    (&["sit", "out"], "pass"),
    (&["not", "this", "time"], "pass"),
    (&["no", "bid"], "pass"),
    (&["no", "bids"], "pass"),
    (&["not", "bidding"], "pass"),
    (&["hard", "pass"], "pass"),
    (&["easy", "pass"], "pass"),
    (&["i'm", "out"], "drop"),
    (&["im", "out"], "drop"),
    (&["i", "am", "out"], "drop"),
    (&["count", "me", "out"], "drop"),
    (&["drop", "out"], "drop"),
    (&["dropping", "out"], "drop"),
    (&["drops", "out"], "drop"),
    (&["bow", "out"], "drop"),
    (&["too", "rich", "for", "me"], "drop"),
    (&["too", "much", "for", "me"], "drop"),
    (&["go", "up", "to"], "raise"),
    (&["go", "to"], "raise"),
    (&["going", "to"], "raise"),
    (&["make", "it"], "raise"),
    (&["i'll", "have"], "buy"),
    (&["ill", "have"], "buy"),
    (&["pick", "up"], "buy"),
];

/// Filler before a move (longest first).
const LEADING_FILLER: [&[&str]; 34] = [
    &["i", "would", "like", "to"],
    &["i'd", "like", "to"],
    &["id", "like", "to"],
    &["i'm", "going", "to"],
    &["i", "want", "to"],
    &["i'm", "gonna"],
    &["i", "think", "i'll"],
    &["i", "guess", "i'll"],
    &["i", "will"],
    &["i", "shall"],
    &["let", "me"],
    &["i'll"],
    &["ill"],
    &["i'd"],
    &["i'm"],
    &["im"],
    &["i"],
    &["please"],
    &["pls"],
    &["ok"],
    &["okay"],
    &["so"],
    &["and"],
    &["then"],
    &["now"],
    &["nope"],
    &["nah"],
    &["no"],
    &["hmm"],
    &["um"],
    &["well"],
    &["alright"],
    &["fine"],
    &["sure"],
];

/// Filler after a move (longest first).
const TRAILING_FILLER: [&[&str]; 17] = [
    &["thank", "you"],
    &["for", "me"],
    &["from", "me"],
    &["for", "now"],
    &["let", "see"],
    &["why", "not"],
    &["i", "guess"],
    &["please"],
    &["pls"],
    &["plz"],
    &["thanks"],
    &["thx"],
    &["ty"],
    &["then"],
    &["now"],
    &["sorry"],
    &["lol"],
];

/// Words after a command word that carry no meaning of their own.
const LINKING: [&str; 17] = [
    "on", "for", "to", "at", "the", "card", "cards", "one", "it", "that", "this", "private",
    "company", "dollars", "bucks", "of", "cheapest",
];

/// Splits a text into lower-case words: letters, digits, `$` and `£` make words; an apostrophe
/// inside a word stays (`i'm`), a possessive `'s` goes; a full stop stays between digits
/// (`17.5`, refused, not misread); `$ 17` is joined.
fn split(text: &str) -> Vec<String> {
    let chars: Vec<char> = text
        .chars()
        .map(|c| match c {
            '\u{2019}' | '\u{2018}' | '\u{02BC}' | '`' => '\'',
            c => c.to_lowercase().next().unwrap_or(c),
        })
        .collect();
    let mut words = Vec::new();
    let mut current = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let digit = |j: Option<usize>| {
            j.and_then(|j| chars.get(j))
                .is_some_and(char::is_ascii_digit)
        };
        let keep = c.is_alphanumeric()
            || c == '$'
            || c == '£'
            || (c == '\''
                && !current.is_empty()
                && chars.get(i + 1).is_some_and(|n| n.is_alphanumeric()))
            || (c == '.' && digit(i.checked_sub(1)) && digit(Some(i + 1)));
        if keep {
            current.push(c);
        } else if !current.is_empty() {
            words.push(std::mem::take(&mut current));
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    let mut joined: Vec<String> = Vec::with_capacity(words.len());
    for mut word in words {
        if word.len() > 2 && word.ends_with("'s") {
            word.truncate(word.len() - 2);
        }
        match joined.last_mut() {
            Some(last)
                if (last == "$" || last == "£")
                    && word.starts_with(|c: char| c.is_ascii_digit()) =>
            {
                last.push_str(&word);
            }
            _ => joined.push(word),
        }
    }
    joined
}

fn starts_with(words: &[String], phrase: &[&str]) -> bool {
    words.len() >= phrase.len() && words.iter().zip(phrase).all(|(w, p)| w == p)
}

fn ends_with(words: &[String], phrase: &[&str]) -> bool {
    words.len() >= phrase.len()
        && words[words.len() - phrase.len()..]
            .iter()
            .zip(phrase)
            .all(|(w, p)| w == p)
}

/// Replaces each phrase that stands for one word by that word.
fn rewrite(words: &[String]) -> Vec<String> {
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        match PHRASES.iter().find(|(p, _)| starts_with(&words[i..], p)) {
            Some((phrase, word)) => {
                out.push((*word).to_string());
                i += phrase.len();
            }
            None => {
                out.push(words[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// The words without filler before and after the move.
fn strip_filler(words: &[String]) -> &[String] {
    let (mut start, mut end) = (0, words.len());
    'front: loop {
        for phrase in LEADING_FILLER {
            // Filler never eats the move itself: `I'm out` was already `drop`.
            if end - start > phrase.len() && starts_with(&words[start..end], phrase) {
                start += phrase.len();
                continue 'front;
            }
        }
        break;
    }
    'back: loop {
        for phrase in TRAILING_FILLER {
            if end - start > phrase.len() && ends_with(&words[start..end], phrase) {
                end -= phrase.len();
                continue 'back;
            }
        }
        break;
    }
    &words[start..end]
}

/// Whether a word is written as an amount: digits, with `$` or `£` before or after.
fn is_amount(word: &str) -> bool {
    let bare = word
        .trim_start_matches(['$', '£'])
        .trim_end_matches(['$', '£']);
    bare.starts_with(|c: char| c.is_ascii_digit() || c == '-')
        && bare.chars().skip(1).all(|c| c.is_ascii_digit() || c == '.')
}

/// The edit distance between two short words (a swapped pair counts as one).
fn typo_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut rows = vec![vec![0usize; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

/// The command word a misspelt word is close to, if any.
fn near_command(word: &str) -> Option<&'static str> {
    if word.chars().count() < 3 || NOT_MISSPELLINGS.contains(&word) || command(word).is_some() {
        return None;
    }
    NEAR_MISS_TARGETS
        .into_iter()
        .find(|target| typo_distance(word, target) <= 1)
}

/// The cards a description fits, among the cards left in the row: by letter, face value and
/// chip colour (whichever were given).
fn cards_fitting(
    game: Option<&Game>,
    letter: Option<Letter>,
    value: Option<u32>,
    chip: Option<Chip>,
) -> Vec<Letter> {
    let Some(game) = game else {
        return Vec::new();
    };
    game.row()
        .iter()
        .filter(|card| card.owner.is_none())
        .filter(|card| letter.is_none_or(|l| l == card.letter))
        .filter(|card| value.is_none_or(|v| v == card.card.cost))
        .filter(|card| chip.is_none_or(|c| card.card.colour == Some(c)))
        .map(|card| card.letter)
        .collect()
}

/// The words of a move after its command word, sorted.
#[derive(Default)]
struct Slots {
    amounts: Vec<String>,
    letter: Option<Letter>,
    value: Option<u32>,
    chip: Option<Chip>,
    /// A single letter that is no card of a row (`H`), as written.
    unknown_card: Option<String>,
    rest: Vec<String>,
}

fn sort_words(command: Command, after: &[String]) -> Slots {
    let mut slots = Slots::default();
    for (i, word) in after.iter().enumerate() {
        let next = after.get(i + 1).map(String::as_str);
        let previous = i.checked_sub(1).map(|p| after[p].as_str());
        if let Ok(chip) = word.parse::<Chip>() {
            slots.chip = Some(chip);
            continue;
        }
        if is_amount(word) {
            // A number after `the` or a colour, or before `card`/`one`, names a card by its face
            // value; with `buy`, every number does (a buy takes no amount).
            let names_card = command == Command::Buy
                || matches!(previous, Some("the"))
                || previous.is_some_and(|p| p.parse::<Chip>().is_ok())
                || matches!(next, Some("card" | "one"));
            if names_card {
                let digits = word
                    .trim_start_matches(['$', '£'])
                    .trim_end_matches(['$', '£']);
                match digits.parse() {
                    Ok(value) => slots.value = Some(value),
                    Err(_) => slots.rest.push(word.clone()),
                }
            } else {
                slots.amounts.push(word.clone());
            }
            continue;
        }
        let single_letter = word.chars().count() == 1;
        if single_letter {
            if let Ok(letter) = crate::notation::parse_letter(word) {
                // `a` before `card` or `one` is the article: `buy a card`.
                let article = word == "a" && matches!(next, Some("card" | "one" | "private"));
                if !article {
                    slots.letter = Some(letter);
                }
                continue;
            }
            if word.chars().all(char::is_alphabetic) {
                slots.unknown_card = Some(word.to_uppercase());
                continue;
            }
        }
        if LINKING.contains(&word.as_str()) || word == "a" || word == "an" {
            continue;
        }
        slots.rest.push(word.clone());
    }
    slots
}

/// One move from its command and the words after it, in a position.
fn build_move(game: Option<&Game>, command: Command, after: &[String]) -> Reading {
    let slots = sort_words(command, after);
    if let Some(given) = &slots.unknown_card {
        return Reading::Malformed(NotationError::UnknownCard {
            given: given.clone(),
        });
    }
    if let Some(word) = slots.rest.first() {
        return Reading::Malformed(NotationError::Unexpected {
            command: command.word().to_string(),
            extra: word.clone(),
        });
    }
    let describes = slots.value.is_some() || slots.chip.is_some();
    let card = if describes {
        match cards_fitting(game, slots.letter, slots.value, slots.chip).as_slice() {
            [one] => Some(*one),
            [] => {
                return Reading::Malformed(NotationError::NoCardFits {
                    description: describe(slots.letter, slots.value, slots.chip),
                })
            }
            several => {
                let options = several
                    .iter()
                    .map(|&letter| with_card(command, letter, &slots))
                    .collect::<Result<Vec<Action>, NotationError>>();
                return match options {
                    Ok(options) => Reading::Ambiguous { options },
                    Err(e) => Reading::Malformed(e),
                };
            }
        }
    } else {
        slots.letter
    };
    let strict = match card {
        Some(letter) => with_card(command, letter, &slots),
        None => without_card(command, &slots),
    };
    match strict {
        Ok(action) => Reading::Move {
            action,
            canonical: false,
        },
        Err(e) => Reading::Malformed(e),
    }
}

/// A description of a card as the player gave it, for a refusal: `the blue 10`.
fn describe(letter: Option<Letter>, value: Option<u32>, chip: Option<Chip>) -> String {
    let mut parts = vec!["the".to_string()];
    if let Some(letter) = letter {
        parts.push(letter.to_string());
    }
    if let Some(chip) = chip {
        parts.push(chip.name().to_string());
    }
    if let Some(value) = value {
        parts.push(value.to_string());
    }
    parts.join(" ")
}

/// The strict notation of a move on a card, read back by [`parse_action`].
fn with_card(command: Command, letter: Letter, slots: &Slots) -> Result<Action, NotationError> {
    let amounts = slots.amounts.join(" ");
    let text = match command {
        Command::Buy if amounts.is_empty() => format!("buy {letter}"),
        Command::Bid | Command::Raise => format!("bid {amounts} on {letter}"),
        _ => format!("{} {letter} {amounts}", command.word()),
    };
    parse_action(&text).map_err(|e| match (command, e) {
        (Command::Raise, NotationError::MissingAmount { .. }) => NotationError::MissingAmount {
            command: "bid".into(),
        },
        (_, e) => e,
    })
}

/// The strict notation of a move that names no card.
fn without_card(command: Command, slots: &Slots) -> Result<Action, NotationError> {
    let amounts = slots.amounts.join(" ");
    parse_action(&format!("{} {amounts}", command.word()))
}

/// Reads a text without a position: what [`read_in`] reads, except that a card described by
/// face value or chip colour cannot be found (refused) and an amount alone is chat. For telling
/// chat from an attempt at a move.
pub fn read(text: &str) -> Reading {
    match read_words(None, &split(text)) {
        Reading::Move { action, .. } if text.contains('?') => Reading::Question { action },
        Reading::Move { action, .. } => Reading::Move {
            canonical: normalized(text) == action.to_string().to_lowercase(),
            action,
        },
        other => other,
    }
}

/// Reads a text in a position (see the [module documentation](self)).
pub fn read_in(game: &Game, text: &str) -> Reading {
    let words = split(text);
    let rewritten = rewrite(&words);
    if text.contains('?') && matches!(strip_filler(&rewritten), [word] if is_amount(word)) {
        // `19?`: asking, not raising.
        return Reading::Chat;
    }
    let reading = read_words(Some(game), &words);
    match reading {
        Reading::Move { action, .. } if text.contains('?') => Reading::Question { action },
        // `I'm out` on a turn is a pass; in a bid-off a pass is a drop (P11).
        Reading::Move {
            action: Action::Drop,
            ..
        } if matches!(game.phase(), Phase::Turn { .. }) => Reading::Move {
            action: Action::Pass,
            canonical: false,
        },
        Reading::Move { action, .. } => Reading::Move {
            canonical: normalized(text) == action.to_string().to_lowercase(),
            action,
        },
        other => other,
    }
}

fn normalized(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

fn read_words(game: Option<&Game>, words: &[String]) -> Reading {
    let rewritten = rewrite(words);
    let words = strip_filler(&rewritten);
    let found = words
        .iter()
        .enumerate()
        .find_map(|(i, w)| command(w).map(|c| (i, c)));
    let Some((at, command)) = found else {
        return without_command(game, words);
    };
    if at > 0 {
        return Reading::Malformed(NotationError::Unexpected {
            command: command.word().to_string(),
            extra: words[..at].join(" "),
        });
    }
    build_move(game, command, &words[at + 1..])
}

/// A text without a command word: a raise in a bid-off if it is an amount alone, a near miss if
/// a word is close to a command word, chat otherwise.
fn without_command(game: Option<&Game>, words: &[String]) -> Reading {
    if let ([amount], Some(Phase::BidOff { .. })) = (words, game.map(Game::phase)) {
        if is_amount(amount) {
            return match parse_action(&format!("raise {amount}")) {
                Ok(action) => Reading::Move {
                    action,
                    canonical: false,
                },
                Err(e) => Reading::Malformed(e),
            };
        }
    }
    if words.len() > 8 {
        return Reading::Chat;
    }
    let mut fallback = None;
    for (i, word) in words.iter().enumerate() {
        let Some(meant) = near_command(word) else {
            continue;
        };
        let mut fixed = words.to_vec();
        fixed[i] = meant.to_string();
        let near_miss = |suggestion| Reading::NearMiss {
            written: word.clone(),
            meant: meant.to_string(),
            suggestion,
        };
        match read_words(game, &fixed) {
            Reading::Move { action, .. } => return near_miss(Some(action)),
            _ if i == 0 && fallback.is_none() => fallback = Some(near_miss(None)),
            _ => {}
        }
    }
    fallback.unwrap_or(Reading::Chat)
}

/// The legal move for `seat` nearest to what `text` names, if the text names a move (a command
/// word or a close misspelling of one; in a bid-off, an amount) and that kind of move is legal
/// now: `bid 5 on C` below the least bid is `bid <least> on C`; `raise 500` is the largest raise
/// the bidder can afford; a card named that is no longer left, or cannot be bid on, gives the
/// card nearest to it that can. `None` when the seat may make no such move. Every move returned
/// has passed [`Game::is_legal`].
pub fn nearest_legal(game: &Game, seat: crate::event::Seat, text: &str) -> Option<Action> {
    let rewritten = rewrite(&split(text));
    let words = strip_filler(&rewritten);
    let mut command_named = None;
    let mut amount: Option<f64> = None;
    let mut letter: Option<Letter> = None;
    for word in words {
        if let Some(c) = command(word).or_else(|| near_command(word).and_then(command)) {
            command_named = command_named.or(Some(c));
        } else if is_amount(word) {
            let digits = word
                .trim_start_matches(['$', '£'])
                .trim_end_matches(['$', '£']);
            amount = amount.or(digits.parse::<f64>().ok().filter(|n| n.is_finite()));
        } else if word.chars().count() == 1 {
            letter = letter.or(crate::notation::parse_letter(word).ok());
        }
    }
    let legal = game.legal_actions();
    let bid_off = matches!(legal, crate::game::LegalActions::BidOff { .. });
    let command = match command_named {
        Some(c) => c,
        None if bid_off && amount.is_some() => Command::Raise,
        None => return None,
    };
    let nearest = |target: Option<f64>, min: u32, max: u32| -> u32 {
        let target = target.unwrap_or(f64::from(min));
        // In range by the clamp: the cast cannot wrap.
        (target.clamp(f64::from(min), f64::from(max)).round() as u32).clamp(min, max)
    };
    let candidates: Vec<Action> = match legal {
        crate::game::LegalActions::Turn {
            player,
            buy,
            bids,
            pass,
        } if player == seat => match command {
            Command::Buy => buy
                .map(|b| Action::Buy {
                    letter: letter.map(|_| b.letter),
                })
                .into_iter()
                .collect(),
            Command::Bid | Command::Raise => {
                let mut options: Vec<_> = bids.iter().filter(|b| b.minimum <= b.maximum).collect();
                // The card named first, then the cards nearest to it in the row.
                let from = letter.map_or(0, Letter::index);
                options.sort_by_key(|b| b.letter.index().abs_diff(from));
                options
                    .into_iter()
                    .map(|b| Action::Bid {
                        letter: b.letter,
                        amount: nearest(amount, b.minimum, b.maximum),
                    })
                    .collect()
            }
            Command::Pass | Command::Drop if pass => vec![Action::Pass],
            Command::Pass | Command::Drop => buy
                .map(|b| Action::Buy {
                    letter: Some(b.letter),
                })
                .into_iter()
                .collect(),
        },
        crate::game::LegalActions::BidOff { player, raise, .. } if player == seat => {
            match (command, raise) {
                (Command::Raise | Command::Bid, Some(r)) => vec![Action::Raise {
                    amount: nearest(amount, r.minimum, r.maximum),
                }],
                (Command::Raise | Command::Bid | Command::Pass | Command::Drop, _) => {
                    vec![Action::Drop]
                }
                (Command::Buy, _) => Vec::new(),
            }
        }
        _ => Vec::new(),
    };
    candidates
        .into_iter()
        .find(|action| game.is_legal(seat, action))
}

/// Whether a text starts as a move: after filler, its first word is a command word or a phrase
/// standing for one (`I'm out`, `no bid`). `Nice bid!` does not.
pub fn starts_as_move(text: &str) -> bool {
    let rewritten = rewrite(&split(text));
    let words = strip_filler(&rewritten);
    words.first().is_some_and(|w| command(w).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_as_players_write() {
        assert_eq!(split("I\u{2019}ll take A!"), ["i'll", "take", "a"]);
        assert_eq!(
            split("bid $ 17 on C's card"),
            ["bid", "$17", "on", "c", "card"]
        );
        assert_eq!(split("bid 17.5"), ["bid", "17.5"]);
    }

    #[test]
    fn misspellings_are_near_and_english_words_are_not() {
        assert_eq!(near_command("byu"), Some("buy"));
        assert_eq!(near_command("pas"), Some("pass"));
        assert_eq!(near_command("bad"), None);
        assert_eq!(near_command("by"), None);
    }
}
