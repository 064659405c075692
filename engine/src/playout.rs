//! Random legal play, for property tests, fuzzing and benchmarks. The engine has no random
//! number generator: the caller passes a chooser `pick(n)` that returns a number below `n`.

use crate::action::Action;
use crate::game::{Game, LegalActions, Phase};
use crate::railway::{Colour, CubeCounts};

/// A legal action for the player to act, chosen with `pick`; `None` when a draw is pending or
/// the game is over.
pub fn random_action(game: &Game, pick: &mut impl FnMut(usize) -> usize) -> Option<Action> {
    let seat = match game.phase() {
        Phase::Turn { player } => *player,
        _ => return random_bid_or_other(game, pick),
    };
    // On a turn, the same choices as from `legal_actions()`, but each list is worked out only
    // when its kind of action is drawn (the draws of `pick` are the same).
    let (mut auctions, mut builds, mut interests) = (None, None, None);
    loop {
        match pick(4) {
            0 => {
                let auctions = auctions.get_or_insert_with(|| game.auction_options(seat));
                if !auctions.is_empty() {
                    let option = &auctions[pick(auctions.len())];
                    return Some(Action::Auction {
                        railway: option.railway,
                        opening_bid: None,
                    });
                }
            }
            1 => {
                let builds = builds.get_or_insert_with(|| game.build_options(seat));
                if !builds.is_empty() {
                    let option = &builds[pick(builds.len())];
                    let (hex, _) = option.hexes[pick(option.hexes.len())];
                    return Some(Action::Build {
                        railway: option.railway,
                        hexes: vec![hex],
                    });
                }
            }
            2 => {
                let interests = interests.get_or_insert_with(|| game.interest_options(seat));
                if !interests.is_empty() {
                    let option = &interests[pick(interests.len())];
                    return Some(Action::SpecialInterest {
                        town: option.town,
                        colour: option.colours[pick(option.colours.len())],
                    });
                }
            }
            3 => return Some(Action::CallDividends),
            _ => {}
        }
    }
}

/// `random_action` outside a turn: bids and passes in auctions.
fn random_bid_or_other(game: &Game, pick: &mut impl FnMut(usize) -> usize) -> Option<Action> {
    match game.legal_actions() {
        LegalActions::Bidding { min, max, .. } => {
            // Bid a little above the minimum half the time, otherwise pass.
            if pick(2) == 0 {
                let spread = (max - min).min(3) as usize;
                Some(Action::Bid {
                    amount: min + pick(spread + 1) as u32,
                })
            } else {
                Some(Action::Pass)
            }
        }
        LegalActions::Turn { .. } | LegalActions::Draw(_) | LegalActions::None => None,
    }
}

/// Draws `count` cubes from `supply` without replacement, with `pick`.
pub fn random_draw(
    supply: CubeCounts,
    count: u8,
    pick: &mut impl FnMut(usize) -> usize,
) -> Vec<Colour> {
    let mut supply = supply;
    let mut cubes = Vec::with_capacity(count as usize);
    for _ in 0..count {
        let mut index = pick(supply.total() as usize) as u8;
        for colour in Colour::ALL {
            let available = supply.get(colour);
            if index < available {
                *supply.get_mut(colour) -= 1;
                cubes.push(colour);
                break;
            }
            index -= available;
        }
    }
    cubes
}

/// Plays a game to its end with random legal actions and draws; returns the number of
/// actions played. Stops after `max_actions` (a game that has not ended by then is a bug).
pub fn play_out(
    game: &mut Game,
    pick: &mut impl FnMut(usize) -> usize,
    max_actions: usize,
) -> usize {
    let mut played = 0;
    while !game.is_finished() && played < max_actions {
        if let Some(request) = game.pending_draw() {
            let cubes = random_draw(request.supply, request.count, pick);
            if game.resolve_draw(&cubes).is_err() {
                break;
            }
        } else if let Some(action) = random_action(game, pick) {
            let seat = match game.to_act() {
                crate::game::Actor::Player { seat } => seat,
                _ => break,
            };
            if game.play(seat, &action).is_err() {
                break;
            }
        }
        played += 1;
    }
    played
}
