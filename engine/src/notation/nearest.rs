//! The legal move nearest to what a player wrote: what a refusal offers instead of a fixed
//! example, so that "write it as: …" is always a move the game would accept now, from the player
//! it is offered to (docs/PHRASING.md, "Suggestions").
//!
//! The text is searched for what it names: a command word (or a close misspelling of one), an
//! amount (`5.5` too), a railway, a cube colour and hexes (a misspelt town by its closest name).
//! The legal moves of that command are then ranked by how close they come: an amount by its
//! difference (`bid 5.5` with the high bid at £5 is `bid 6`), a hex or a town by its distance on
//! the board, a railway or a colour by whether it is the one named. Every move returned has
//! passed [`Game::is_legal`] for the seat.

use super::reading::{close_colour, close_railway, find_command};
use super::words::{
    self, colour, command, looks_like_amount, near, number_word, railway, rewrite_phrases, Command,
    Word, NEAR_MISS_TARGETS,
};
use crate::action::Action;
use crate::board::{Board, HexId};
use crate::event::Seat;
use crate::game::{Game, LegalActions};
use crate::railway::{Colour, Railway};

/// What a text names, whether or not it reads as a move.
#[derive(Debug, Default)]
struct Named {
    /// The command, from its word or a close misspelling of it.
    command: Option<Command>,
    /// The first amount, as written (`5.5` is kept as a fraction).
    amount: Option<f64>,
    /// The first railway, by code, colour, full name or a close misspelling of its code.
    railway: Option<Railway>,
    /// The first cube colour, or a close misspelling of one.
    colour: Option<Colour>,
    /// The hexes, by id or name, or the closest name to a misspelt one.
    hexes: Vec<HexId>,
}

/// An amount as written: `8`, `£8`, `8£`, `5.5`, `-5`, `eight`.
fn amount_of(lower: &str) -> Option<f64> {
    if let Some(n) = number_word(lower) {
        return Some(f64::from(n));
    }
    lower
        .trim_start_matches(['£', '$'])
        .trim_end_matches(['£', '$'])
        .parse::<f64>()
        .ok()
        .filter(|n| n.is_finite())
}

/// Words that name nothing a move takes: filler, linking words and the like, never read as a
/// misspelt hex.
fn is_plain_word(lower: &str) -> bool {
    lower.chars().count() < 4
        || lower.contains('\'')
        || [
            Command::Bid,
            Command::Raise,
            Command::Pass,
            Command::Auction,
            Command::Build,
            Command::Interest,
            Command::Dividends,
        ]
        .iter()
        .any(|c| c.linking().contains(&lower) || c.leading().contains(&lower))
        || matches!(
            lower,
            "please" | "thanks" | "sorry" | "share" | "track" | "cube" | "cubes" | "towards"
        )
}

/// Reads what a text names (see [`Named`]).
fn named(text: &str) -> Named {
    let split = words::split(text);
    let words: Vec<Word> = rewrite_phrases(&split);
    let mut named = Named {
        command: find_command(&words).map(|(_, c)| c),
        ..Named::default()
    };
    let board = Board::get();
    let mut i = 0;
    while i < words.len() {
        let word = &words[i];
        let lower = word.lower.as_str();
        if i + 1 < words.len() {
            if let Some(hex) = board.by_name(&format!("{} {}", word.text, words[i + 1].text)) {
                named.hexes.push(hex);
                i += 2;
                continue;
            }
        }
        i += 1;
        if command(lower).is_some() {
            continue;
        }
        // A word that is something exactly (a railway's code, a colour, a hex) is that, never a
        // misspelt command: `BCD pas` names BCD and a pass, not a bid (`bcd` is one letter from
        // `bid`).
        if looks_like_amount(lower) {
            named.amount = named.amount.or(amount_of(lower));
            continue;
        }
        if let Some(r) = railway(lower) {
            named.railway = named.railway.or(Some(r));
            continue;
        }
        if let Some(c) = colour(lower) {
            named.colour = named.colour.or(Some(c));
            continue;
        }
        if let Some(hex) = board.find(&word.text) {
            named.hexes.push(hex);
            continue;
        }
        if let Some(target) = NEAR_MISS_TARGETS
            .iter()
            .find(|(target, limit)| near(lower, target, *limit))
        {
            named.command = named.command.or(command(target.0));
            continue;
        }
        if let Some(c) = close_colour(lower) {
            named.colour = named.colour.or(Some(c));
            continue;
        }
        let written_as_code = word.text.len() <= 4 && word.text.chars().all(|c| c.is_uppercase());
        if let Some(r) = close_railway(lower).filter(|_| written_as_code) {
            named.railway = named.railway.or(Some(r));
            continue;
        }
        if !is_plain_word(lower) {
            if let Some(hex) = board.suggest(&word.text).and_then(|s| board.find(s)) {
                named.hexes.push(hex);
            }
        }
    }
    named
}

/// The whole amount in `min..=max` nearest to `target` (a half rounds up).
fn nearest_amount(target: f64, min: u32, max: u32) -> u32 {
    let clamped = target.clamp(f64::from(min), f64::from(max)).round();
    // In range by the clamp: the cast cannot wrap.
    (clamped as u32).clamp(min, max)
}

/// How far apart two hexes are on the printed board, in millimetres.
fn distance(a: HexId, b: HexId) -> f64 {
    let (a, b) = (a.hex(), b.hex());
    (a.x - b.x).hypot(a.y - b.y)
}

/// Sorts moves by a key that is a float, nearest first.
fn by_distance<T>(items: &mut [(f64, T)]) {
    items.sort_by(|a, b| a.0.total_cmp(&b.0));
}

/// The legal moves of one command for `seat`, nearest to what was named first. Moves that the
/// legal-action lists cannot rule out (a build's cost) are checked by the caller.
fn candidates(game: &Game, seat: Seat, command: Command, named: &Named) -> Vec<Action> {
    match (command, game.legal_actions()) {
        (
            Command::Bid | Command::Raise,
            LegalActions::Bidding {
                player, min, max, ..
            },
        ) if player == seat => {
            if min > max {
                return vec![Action::Pass];
            }
            let target = named.amount.unwrap_or(f64::from(min));
            vec![Action::Bid {
                amount: nearest_amount(target, min, max),
            }]
        }
        (Command::Pass, LegalActions::Bidding { player, .. }) if player == seat => {
            vec![Action::Pass]
        }
        (
            Command::Auction,
            LegalActions::Turn {
                player, auctions, ..
            },
        ) if player == seat => {
            let mut options = auctions;
            options.sort_by_key(|o| Some(o.railway) != named.railway);
            options
                .into_iter()
                .map(|o| Action::Auction {
                    railway: o.railway,
                    opening_bid: named
                        .amount
                        .map(|a| nearest_amount(a, o.face, o.max_bid.max(o.face)))
                        .filter(|&a| a > o.face),
                })
                .collect()
        }
        (Command::Build, LegalActions::Turn { player, builds, .. }) if player == seat => {
            let mut builds = builds;
            builds.sort_by_key(|b| Some(b.railway) != named.railway);
            let mut out = Vec::new();
            for build in builds {
                let mut hexes: Vec<(f64, HexId)> = build
                    .hexes
                    .iter()
                    .map(|&(hex, cost)| {
                        let away = named
                            .hexes
                            .first()
                            .map_or(f64::from(cost), |&target| distance(hex, target));
                        (away, hex)
                    })
                    .collect();
                by_distance(&mut hexes);
                out.extend(hexes.into_iter().map(|(_, hex)| Action::Build {
                    railway: build.railway,
                    hexes: vec![hex],
                }));
            }
            out
        }
        (
            Command::Interest,
            LegalActions::Turn {
                player, interests, ..
            },
        ) if player == seat => {
            let mut options: Vec<(f64, Action)> = Vec::new();
            for interest in interests {
                let away = named
                    .hexes
                    .first()
                    .map_or(0.0, |&target| distance(interest.town, target));
                for colour in interest.colours {
                    // Another colour weighs as much as a town about two hexes away.
                    let other_colour = if named.colour.is_some_and(|c| c != colour) {
                        60.0
                    } else {
                        0.0
                    };
                    options.push((
                        away + other_colour,
                        Action::SpecialInterest {
                            town: interest.town,
                            colour,
                        },
                    ));
                }
            }
            by_distance(&mut options);
            options.into_iter().map(|(_, action)| action).collect()
        }
        (Command::Dividends, LegalActions::Turn { player, .. }) if player == seat => {
            vec![Action::CallDividends]
        }
        _ => Vec::new(),
    }
}

/// The legal move for `seat` nearest to what `text` names, if the text names a command (or,
/// in an auction, an amount) and that command has a legal move now: `bid 5.5` with the high bid
/// at £5 is `bid 6`; `intrest Drogheda blak` is the legal special interest nearest Drogheda,
/// black if black is in the supply. `None` when the seat may make no move of that kind.
pub fn nearest_legal(game: &Game, seat: Seat, text: &str) -> Option<Action> {
    let named = named(text);
    let bidding = matches!(game.legal_actions(), LegalActions::Bidding { .. });
    let command = match named.command {
        Some(command) => command,
        None if bidding && named.amount.is_some() => Command::Bid,
        None => return None,
    };
    candidates(game, seat, command, &named)
        .into_iter()
        .find(|action| game.is_legal(seat, action))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::setup::Setup;

    fn new_game() -> Game {
        let setup = Setup {
            players: vec!["ann".into(), "bob".into(), "cat".into()],
            order: vec![1, 2, 3],
            cities: [5, 2, 3, 11, 4, 7, 9, 12],
        };
        Game::new(&setup).expect("valid setup")
    }

    #[test]
    fn an_amount_is_the_nearest_legal_one() {
        let mut game = new_game();
        // CBSC is up at face £7: ann bids 5, the least legal bid then is 7.
        assert_eq!(
            nearest_legal(&game, 0, "bid 5.5"),
            Some(Action::Bid { amount: 7 })
        );
        game.play(0, &Action::Bid { amount: 7 }).expect("legal");
        assert_eq!(
            nearest_legal(&game, 1, "bid 8.5"),
            Some(Action::Bid { amount: 9 })
        );
        assert_eq!(
            nearest_legal(&game, 1, "bdi 500"),
            Some(Action::Bid { amount: 20 })
        );
        assert_eq!(nearest_legal(&game, 1, "pas"), Some(Action::Pass));
        // A railway's code is that railway, not a misspelt command (`bcd` is one letter from
        // `bid`): a pass with a share named.
        assert_eq!(nearest_legal(&game, 1, "BCD pas"), Some(Action::Pass));
        // Not bob's auction move for ann.
        assert_eq!(nearest_legal(&game, 0, "bid 9"), None);
        assert_eq!(nearest_legal(&game, 1, "really"), None);
    }

    #[test]
    fn a_place_is_a_legal_one_near_it() {
        let mut game = new_game();
        for _ in 0..15 {
            let crate::game::Actor::Player { seat } = game.to_act() else {
                panic!("a player to act");
            };
            game.play(seat, &Action::Pass).expect("a pass is legal");
        }
        let crate::game::Actor::Player { seat } = game.to_act() else {
            panic!("a player to act");
        };
        let build = nearest_legal(&game, seat, "build WLW Shanon").expect("one");
        assert_eq!(build.to_string(), "build WLW K3");
        // No town is on ann's track yet: no special interest to offer.
        assert_eq!(nearest_legal(&game, seat, "intrest Drogheda blak"), None);
        game.play(seat, &build).expect("legal");
        // The others open auctions that nobody contests, until ann's turn comes again.
        while let LegalActions::Bidding { player, .. } | LegalActions::Turn { player, .. } =
            game.legal_actions()
        {
            if player == seat && matches!(game.legal_actions(), LegalActions::Turn { .. }) {
                break;
            }
            let action = match game.legal_actions() {
                LegalActions::Turn { auctions, .. } => Action::Auction {
                    railway: auctions[0].railway,
                    opening_bid: None,
                },
                _ => Action::Pass,
            };
            game.play(player, &action).expect("legal");
        }
        let interest = nearest_legal(&game, seat, "intrest Drogheda blak").expect("one");
        assert!(game.is_legal(seat, &interest), "{interest}");
        assert!(
            matches!(
                interest,
                Action::SpecialInterest {
                    colour: Colour::Black,
                    ..
                }
            ),
            "{interest}"
        );
    }
}
