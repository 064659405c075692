//! Words as players write them: splitting a text into words, the filler around a move, and the
//! vocabulary of the phrasing reader (command words, railways, colours, amounts, linking words).
//!
//! Nothing here knows what a move means; [`super::reading`] puts the words together.

use crate::railway::{Colour, Railway};

/// One word of a text: as written, and folded to lower case for matching.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Word {
    /// As written (an apostrophe folded to `'`).
    pub text: String,
    /// Lower case, for matching.
    pub lower: String,
}

impl Word {
    /// A word as written.
    pub fn new(text: &str) -> Word {
        Word {
            text: text.to_string(),
            lower: text.to_lowercase(),
        }
    }

    /// A word standing for other words: `no bid` read as `pass`.
    fn standing_for(text: String, lower: &str) -> Word {
        Word {
            text,
            lower: lower.to_string(),
        }
    }
}

/// Folds the look-alike apostrophes of phones and word processors to `'`.
fn fold(c: char) -> char {
    match c {
        '\u{2019}' | '\u{2018}' | '\u{02BC}' | '`' | '\u{00B4}' => '\'',
        c => c,
    }
}

/// Where a chat reference that starts at `start` ends (its `>`): `<@…>`, `<@!…>`, `<#…>`,
/// `<@&…>`, `<:name:…>`, `<a:name:…>`, `<t:…>` with no space inside; `None` if none starts there.
fn reference_end(chars: &[char], start: usize) -> Option<usize> {
    if chars.get(start) != Some(&'<') {
        return None;
    }
    let opener = chars.get(start + 1)?;
    let (is_reference, body) = match opener {
        '@' | '#' => (true, start + 2),
        ':' | 't' | 'a' => (
            chars.get(start + 2) == Some(&':') || *opener == ':',
            start + 2,
        ),
        _ => (false, start),
    };
    if !is_reference {
        return None;
    }
    let end = (body..chars.len().min(start + 100)).find(|&i| chars[i] == '>')?;
    let inside = &chars[start + 1..end];
    (!inside.is_empty() && inside.iter().all(|c| !c.is_whitespace())).then_some(end)
}

/// Splits a text into words.
///
/// Letters, digits, `£` and `$` make words; an apostrophe inside a word stays (`I'm`), a
/// possessive `'s` goes (`WLW's`); a full stop stays only between digits (`7.5`, so that a
/// fraction is refused rather than misread); a minus sign before a number stays (`-5`, refused).
/// `/` and a dash between numbers (`8/9`, `8-9`) become the word `or`; `&` and `+` become `and`.
/// A lone `£` joins the number after it (`£ 8`). A mention, channel link or custom emoji as
/// chat writes them (`<@123…>`, `<#123…>`, `<:name:123…>`) is one word of its own, never an
/// amount. Everything else separates words.
pub(super) fn split(text: &str) -> Vec<Word> {
    let chars: Vec<char> = text.chars().map(fold).collect();
    let digit = |i: Option<usize>| {
        i.and_then(|i| chars.get(i))
            .is_some_and(|c: &char| c.is_ascii_digit())
    };
    let alphanumeric = |i: usize| chars.get(i).is_some_and(|c| c.is_alphanumeric());
    let mut words: Vec<String> = Vec::new();
    let mut current = String::new();
    let flush = |current: &mut String, words: &mut Vec<String>| {
        if !current.is_empty() {
            words.push(std::mem::take(current));
        }
    };
    let mut skip_to = 0;
    for (i, &c) in chars.iter().enumerate() {
        if i < skip_to {
            continue;
        }
        if let Some(end) = reference_end(&chars, i) {
            flush(&mut current, &mut words);
            words.push(chars[i..=end].iter().collect());
            skip_to = end + 1;
            continue;
        }
        let (before, after) = (i.checked_sub(1), Some(i + 1));
        match c {
            c if c.is_alphanumeric() || c == '£' || c == '$' => current.push(c),
            '\'' if !current.is_empty() && alphanumeric(i + 1) => current.push(c),
            '.' if digit(before) && digit(after) => current.push(c),
            '-' if digit(before) && digit(after) => {
                flush(&mut current, &mut words);
                words.push("or".into());
            }
            '-' if current.is_empty() && digit(after) => current.push(c),
            '/' => {
                flush(&mut current, &mut words);
                words.push("or".into());
            }
            '&' | '+' => {
                flush(&mut current, &mut words);
                words.push("and".into());
            }
            _ => flush(&mut current, &mut words),
        }
    }
    flush(&mut current, &mut words);
    let mut joined: Vec<Word> = Vec::with_capacity(words.len());
    let mut pending_currency: Option<String> = None;
    for mut word in words {
        for suffix in ["'s", "'S"] {
            if word.len() > suffix.len() && word.ends_with(suffix) {
                word.truncate(word.len() - suffix.len());
            }
        }
        if word == "£" || word == "$" {
            pending_currency = Some(word);
            continue;
        }
        if let Some(sign) = pending_currency.take() {
            if word.starts_with(|c: char| c.is_ascii_digit()) {
                word = format!("{sign}{word}");
            } else {
                joined.push(Word::new(&sign));
            }
        }
        joined.push(Word::new(&word));
    }
    if let Some(sign) = pending_currency {
        joined.push(Word::new(&sign));
    }
    joined
}

/// Phrases that stand for `pass` in an auction: `no bid`, `not bidding`, `I'm out`, `hard pass`,
/// `I'll sit this one out`, `drop out`.
const PASS_PHRASES: [&[&str]; 19] = [
    &["no", "bid"],
    &["no", "bids"],
    &["not", "bidding"],
    &["i'm", "out"],
    &["im", "out"],
    &["i", "am", "out"],
    &["hard", "pass"],
    &["easy", "pass"],
    &["sit", "this", "one", "out"],
    &["sitting", "this", "one", "out"],
    &["sit", "this", "out"],
    &["sitting", "this", "out"],
    &["sit", "out"],
    &["sitting", "out"],
    &["drop", "out"],
    &["dropping", "out"],
    &["drops", "out"],
    &["count", "me", "out"],
    &["not", "for", "me"],
];

/// Phrases that stand for `bid` when an amount follows: `I'll go to 9`, `open the bidding at £7`,
/// `I'll open at 8`, `make it 9`, `go up to 9`.
const BID_PHRASES: [&[&str]; 14] = [
    &["open", "the", "bidding", "at"],
    &["open", "the", "bidding", "with"],
    &["open", "bidding", "at"],
    &["open", "bidding", "with"],
    &["open", "the", "auction", "at"],
    &["open", "at"],
    &["open", "with"],
    &["opening", "at"],
    &["opening", "with"],
    &["start", "at"],
    &["go", "up", "to"],
    &["going", "to"],
    &["go", "to"],
    &["make", "it"],
];

/// The railways by their full names (`&` is already `and`), each optionally followed by
/// `railway`: `the Great Southern and Western share` is `the GSW share`.
const RAILWAY_NAMES: [(Railway, &[&str]); 5] = [
    (Railway::Cbsc, &["cork", "bandon", "and", "south", "coast"]),
    (Railway::Wlw, &["waterford", "limerick", "and", "western"]),
    (Railway::Bcd, &["belfast", "and", "county", "down"]),
    (Railway::Gsw, &["great", "southern", "and", "western"]),
    (Railway::Mgw, &["midland", "great", "western"]),
];

/// The words of `words[i..i + len]` as written, joined.
fn written(words: &[Word], i: usize, len: usize) -> String {
    words[i..i + len]
        .iter()
        .map(|w| w.text.as_str())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The phrase at the start of `words` that stands for one word, if any: its length and the word.
fn phrase_at(words: &[Word]) -> Option<(usize, &'static str)> {
    if let Some(phrase) = PASS_PHRASES.iter().find(|p| starts_with(words, p)) {
        return Some((phrase.len(), "pass"));
    }
    if let Some(phrase) = BID_PHRASES.iter().find(|p| starts_with(words, p)) {
        let amount_follows = words
            .get(phrase.len())
            .is_some_and(|w| looks_like_amount(&w.lower));
        if amount_follows {
            return Some((phrase.len(), "bid"));
        }
    }
    RAILWAY_NAMES
        .iter()
        .find(|(_, name)| starts_with(words, name))
        .map(|(railway, name)| {
            let named_railway = words.get(name.len()).is_some_and(|w| w.lower == "railway");
            (name.len() + usize::from(named_railway), railway.code())
        })
}

/// Replaces the phrases that stand for one word by that word, keeping the words as written:
/// `no bid` and `I'm out` are `pass`, `go to 9` is `bid 9`, `the Great Southern and Western
/// share` is `the GSW share`.
pub(super) fn rewrite_phrases(words: &[Word]) -> Vec<Word> {
    let mut out = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        match phrase_at(&words[i..]) {
            Some((len, word)) => {
                out.push(Word::standing_for(
                    written(words, i, len),
                    &word.to_lowercase(),
                ));
                i += len;
            }
            None => {
                out.push(words[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// Whether `words` start with `phrase` (lower-case words).
fn starts_with(words: &[Word], phrase: &[&str]) -> bool {
    words.len() >= phrase.len() && words.iter().zip(phrase).all(|(w, p)| w.lower == *p)
}

/// Whether `words` end with `phrase` (lower-case words).
fn ends_with(words: &[Word], phrase: &[&str]) -> bool {
    words.len() >= phrase.len()
        && words[words.len() - phrase.len()..]
            .iter()
            .zip(phrase)
            .all(|(w, p)| w.lower == *p)
}

/// Filler before a move: `I`, `I'll`, `I will`, `I'd like to`, `please`, `nope`, `no thanks`,
/// `hmm`, …
/// (longest first).
pub const LEADING_FILLER: [&[&str]; 49] = [
    &["no", "thank", "you"],
    &["i", "think", "i'll"],
    &["i", "think", "ill"],
    &["i", "guess", "i'll"],
    &["i", "guess", "ill"],
    &["i", "would", "like", "to"],
    &["i", "am", "going", "to"],
    &["i'd", "like", "to"],
    &["id", "like", "to"],
    &["i'm", "going", "to"],
    &["im", "going", "to"],
    &["i", "want", "to"],
    &["i'm", "gonna"],
    &["im", "gonna"],
    &["i", "wanna"],
    &["i", "will"],
    &["i", "shall"],
    &["no", "thanks"],
    &["let", "me"],
    &["let"],
    &["either"],
    &["i", "am"],
    &["i'll"],
    &["ill"],
    &["i'd"],
    &["i'm"],
    &["im"],
    &["i"],
    &["please"],
    &["pls"],
    &["plz"],
    &["ok"],
    &["okay"],
    &["so"],
    &["and"],
    &["then"],
    &["now"],
    &["nope"],
    &["nah"],
    &["hmm"],
    &["hm"],
    &["um"],
    &["umm"],
    &["well"],
    &["alright"],
    &["right"],
    &["fine"],
    &["sure"],
    &["yes"],
];

/// Filler after a move: `please`, `thanks`, `for me`, `from me`, `now`, `then`, `sorry`
/// (longest first).
pub const TRAILING_FILLER: [&[&str]; 21] = [
    &["let", "see"],
    &["lets", "see"],
    &["we'll", "see"],
    &["why", "not"],
    &["i", "guess"],
    &["i", "think"],
    &["thank", "you"],
    &["for", "now"],
    &["lol"],
    &["haha"],
    &["for", "me"],
    &["from", "me"],
    &["then"],
    &["sorry"],
    &["please"],
    &["pls"],
    &["plz"],
    &["thanks"],
    &["thx"],
    &["ty"],
    &["now"],
];

/// Where the move lies in `words`: the range left without the filler before and after it.
pub(super) fn move_bounds(words: &[Word]) -> std::ops::Range<usize> {
    let (mut start, mut end) = (0, words.len());
    'front: loop {
        for phrase in LEADING_FILLER {
            if starts_with(&words[start..end], phrase) {
                start += phrase.len();
                continue 'front;
            }
        }
        break;
    }
    'back: loop {
        for phrase in TRAILING_FILLER {
            if ends_with(&words[start..end], phrase) {
                end -= phrase.len();
                continue 'back;
            }
        }
        break;
    }
    start..end
}

/// The words of a text without the filler before and after the move.
pub(super) fn strip_filler(words: &[Word]) -> &[Word] {
    &words[move_bounds(words)]
}

/// What a command word asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Command {
    /// `bid 8`.
    Bid,
    /// `raise to 8`: a bid written as a raise.
    Raise,
    /// `pass`.
    Pass,
    /// `auction GSW`.
    Auction,
    /// `build WLW K3`.
    Build,
    /// `interest Sligo pink`.
    Interest,
    /// `dividends`.
    Dividends,
}

impl Command {
    /// The word of the strict notation (a key of [`super::FORMS`]).
    pub fn word(self) -> &'static str {
        match self {
            Command::Bid | Command::Raise => "bid",
            Command::Pass => "pass",
            Command::Auction => "auction",
            Command::Build => "build",
            Command::Interest => "interest",
            Command::Dividends => "dividends",
        }
    }

    /// Words allowed before the command word besides a railway: `call for dividends`,
    /// `special interest`, `put GSW up for auction`.
    pub fn leading(self) -> &'static [&'static str] {
        match self {
            Command::Bid => &["opening", "my"],
            Command::Raise | Command::Pass | Command::Build => &[],
            Command::Auction => &[
                "put", "the", "a", "an", "share", "up", "for", "start", "starting", "open",
                "opening",
            ],
            Command::Interest => &[
                "special", "place", "put", "placing", "putting", "a", "an", "the", "my",
            ],
            Command::Dividends => &[
                "call", "calling", "calls", "for", "a", "the", "pay", "paying", "pays",
            ],
        }
    }

    /// Linking words after the command word, which carry no meaning of their own.
    pub fn linking(self) -> &'static [&'static str] {
        const BID: &[&str] = &[
            "on", "for", "of", "the", "a", "in", "share", "this", "it", "that", "one", "auction",
            "pounds", "pound", "quid", "is", "at",
        ];
        const RAISE: &[&str] = &[
            "to", "on", "for", "of", "the", "a", "in", "share", "this", "it", "that", "one",
            "auction", "pounds", "pound", "quid",
        ];
        match self {
            Command::Bid => BID,
            Command::Raise => RAISE,
            Command::Pass => &[
                "on", "for", "of", "the", "a", "in", "share", "this", "it", "that", "one",
                "auction", "time", "round",
            ],
            Command::Auction => &[
                "the", "a", "an", "share", "shares", "off", "up", "at", "for", "from", "starting",
                "start", "starts", "opening", "open", "opens", "with", "of", "bid", "price",
                "pounds", "pound", "quid", "face", "value",
            ],
            Command::Build => &[
                "to", "towards", "toward", "in", "into", "at", "through", "via", "and", "then",
                "for", "with", "on", "the", "a", "hex", "hexes", "track",
            ],
            Command::Interest => &[
                "in", "on", "at", "to", "into", "a", "an", "the", "my", "cube", "cubes", "special",
                "for", "city", "of", "and",
            ],
            Command::Dividends => &["for"],
        }
    }
}

/// The command a word asks for, inflections included (`bids`, `passing`, `divs`).
pub(super) fn command(lower: &str) -> Option<Command> {
    Some(match lower {
        "bid" | "bids" | "bidding" => Command::Bid,
        "raise" | "raises" | "raising" => Command::Raise,
        "pass" | "passes" | "passing" | "skip" | "skips" | "skipping" => Command::Pass,
        "auction" | "auctions" | "auctioning" => Command::Auction,
        "build" | "builds" | "building" | "extend" | "extends" | "extending" => Command::Build,
        "interest" | "si" => Command::Interest,
        "dividends" | "dividend" | "divs" | "divvies" => Command::Dividends,
        _ => return None,
    })
}

/// Whether a text starts as a move: after leading filler (`I'll`, `please`), its first word is
/// a command word (`bid`, `raises`, `si`), a placing or laying word (`place track …`, `put a
/// cube …`), `special`, `call` or `no` (`no bid`). `Nice build!` and `the opening bidder may
/// pass` do not: at the table they are chat.
pub fn starts_as_move(text: &str) -> bool {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric() && c != '\'')
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    let skip = LEADING_FILLER
        .iter()
        .find(|filler| words.len() > filler.len() && filler.iter().zip(&words).all(|(f, w)| f == w))
        .map_or(0, |filler| filler.len());
    words.get(skip).is_some_and(|first| {
        command(first).is_some()
            || PLACING.contains(&first.as_str())
            || LAYING.contains(&first.as_str())
            || matches!(first.as_str(), "special" | "call" | "no")
    })
}

/// Words that introduce a special interest when a cube is mentioned: `place a pink cube in Sligo`.
pub(super) const PLACING: [&str; 4] = ["place", "put", "placing", "putting"];

/// Words that name a cube in a placing phrase.
pub(super) const CUBE: [&str; 2] = ["cube", "cubes"];

/// Words that introduce a build when track is mentioned: `place track for WLW in K3 and L3`.
pub(super) const LAYING: [&str; 7] = [
    "place", "put", "placing", "putting", "lay", "lays", "laying",
];

/// Words that name track in a laying phrase.
pub(super) const TRACK: [&str; 1] = ["track"];

/// Units of a cost note after a build: `(2 BP)`, `1.5 build points`.
pub(super) const COST_UNITS: [&str; 4] = ["bp", "bps", "points", "point"];

/// Words that may introduce a cost note: `cost 2 BP`, `costing 1.5 BP`.
pub(super) const COST_WORDS: [&str; 3] = ["cost", "costs", "costing"];

/// The command words a misspelling is measured against, with the distance allowed.
pub(super) const NEAR_MISS_TARGETS: [(&str, usize); 6] = [
    ("bid", 1),
    ("pass", 1),
    ("build", 1),
    ("auction", 1),
    ("interest", 1),
    ("dividends", 2),
];

/// English words within reach of a command word that are not misspellings of it: emphasis such
/// as `**bad**`, `**past**` or `**action**` is chat.
pub(super) const NOT_MISSPELLINGS: [&str; 52] = [
    // bid
    "aid",
    "bad",
    "bed",
    "bib",
    "bide",
    "big",
    "bin",
    "bind",
    "bird",
    "bit",
    "bud",
    "did",
    "hid",
    "ibid",
    "kid",
    "lid",
    "mid",
    "rid",
    "sid",
    "bio", // pass
    "ass",
    "bass",
    "lass",
    "mass",
    "pads",
    "pals",
    "pans",
    "paps",
    "pars",
    "past",
    "pats",
    "paws",
    "pays",
    "piss",
    "poss",
    "puss",
    "sass",
    "passed",
    "passé", // build
    "built",
    "guild",
    "builder", // auction
    "action",
    "actions",
    "acton",
    "suction", // interest
    "interests",
    "intrust", // dividends
    "divided",
    "dividers",
    "divides",
    "divide",
];

/// A railway by code (`GSW`, any case) or by its locomotive colour (`blue`).
pub(super) fn railway(lower: &str) -> Option<Railway> {
    Railway::ALL
        .into_iter()
        .find(|r| r.code().eq_ignore_ascii_case(lower) || r.colour_name() == lower)
}

/// A cube colour.
pub(super) fn colour(lower: &str) -> Option<Colour> {
    lower.parse().ok()
}

/// Numbers written as words, for `bid eight`.
const NUMBER_WORDS: [&str; 21] = [
    "zero",
    "one",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
    "twenty",
];

/// Whether a word is written as an amount of money: digits with or without `£`/`$`, a negative
/// or fractional number (to be refused), or a number word.
pub(super) fn looks_like_amount(lower: &str) -> bool {
    let bare = lower
        .trim_start_matches(['£', '$'])
        .trim_end_matches(['£', '$']);
    let bare = bare.strip_prefix('-').unwrap_or(bare);
    bare.starts_with(|c: char| c.is_ascii_digit()) || number_word(lower).is_some()
}

/// A number written as a word (`eight`), except `one`, which is also "this one".
pub(super) fn number_word(lower: &str) -> Option<u32> {
    if lower == "one" {
        return None;
    }
    NUMBER_WORDS
        .iter()
        .position(|w| *w == lower)
        .and_then(|n| u32::try_from(n).ok())
}

/// Damerau–Levenshtein distance (optimal string alignment): a swapped pair of letters counts
/// as one edit, as in `bdi` for `bid`.
pub(super) fn typo_distance(a: &str, b: &str) -> usize {
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

/// Whether `word` is a close misspelling of `target`: within `limit` typos, at least three
/// letters, and not an English word of its own.
pub(super) fn near(word: &str, target: &str, limit: usize) -> bool {
    let length = word.chars().count();
    length >= 3
        && length.abs_diff(target.chars().count()) <= limit
        && word != target
        && !NOT_MISSPELLINGS.contains(&word)
        && typo_distance(word, target) <= limit
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lower(text: &str) -> Vec<String> {
        split(text).into_iter().map(|w| w.lower).collect()
    }

    #[test]
    fn splits_as_players_write() {
        assert_eq!(lower("I bid £8!"), ["i", "bid", "£8"]);
        assert_eq!(lower("bid £ 8"), ["bid", "£8"]);
        assert_eq!(lower("bid 8 or 9"), ["bid", "8", "or", "9"]);
        assert_eq!(lower("bid 8/9"), ["bid", "8", "or", "9"]);
        assert_eq!(lower("bid 8-9"), ["bid", "8", "or", "9"]);
        assert_eq!(lower("bid -5"), ["bid", "-5"]);
        assert_eq!(lower("bid 7.5."), ["bid", "7.5"]);
        assert_eq!(lower("build WLW: K3, L3"), ["build", "wlw", "k3", "l3"]);
        assert_eq!(lower("build WLW K3-L3"), ["build", "wlw", "k3", "l3"]);
        assert_eq!(lower("I\u{2019}m out"), ["i'm", "out"]);
        assert_eq!(
            lower("bid 8 on WLW's share"),
            ["bid", "8", "on", "wlw", "share"]
        );
        assert_eq!(lower("'pass'"), ["pass"]);
        assert_eq!(lower("K3 & L3"), ["k3", "and", "l3"]);
        assert_eq!(
            lower("special interest in Sligo (pink)"),
            ["special", "interest", "in", "sligo", "pink"]
        );
        // Chat references are one word each, never an amount.
        assert_eq!(
            lower("bid <@123456789012345678>"),
            ["bid", "<@123456789012345678>"]
        );
        assert_eq!(
            lower("bid 8 <@!12>, <#9> <:gg:77>"),
            ["bid", "8", "<@!12>", "<#9>", "<:gg:77>"]
        );
        assert_eq!(lower("bid <8> <a b>"), ["bid", "8", "a", "b"]);
    }

    #[test]
    fn filler_goes_from_both_ends() {
        let words = split("OK I'd like to bid 8 please, thank you");
        let kept: Vec<&str> = strip_filler(&words)
            .iter()
            .map(|w| w.lower.as_str())
            .collect();
        assert_eq!(kept, ["bid", "8"]);
    }

    #[test]
    fn misspellings_are_near_and_english_words_are_not() {
        assert!(near("bdi", "bid", 1));
        assert!(near("pas", "pass", 1));
        assert!(near("divdends", "dividends", 2));
        assert!(!near("bad", "bid", 1));
        assert!(!near("past", "pass", 1));
        assert!(!near("action", "auction", 1));
        assert!(!near("bd", "bid", 1));
    }
}
