//! Random legal play, for property tests, fuzzing and benchmarks. The engine has no random
//! number generator: the caller passes a chooser `pick(n)` that returns a number below `n`.

use crate::action::Action;
use crate::card::{Chip, COSTS};
use crate::draw::{chip_population, DrawRequest};
use crate::event::Event;
use crate::game::{Actor, Game, LegalActions};

/// A bid or raise a little above the least: up to $`spread` more, within the most allowed.
fn amount(minimum: u32, maximum: u32, pick: &mut impl FnMut(usize) -> usize) -> u32 {
    let spread = (maximum - minimum).min(4) as usize;
    minimum + pick(spread + 1) as u32
}

/// A legal action for the player to act, chosen with `pick`; `None` when a draw is pending or
/// the game is over.
pub fn random_action(game: &Game, pick: &mut impl FnMut(usize) -> usize) -> Option<Action> {
    match game.legal_actions() {
        LegalActions::Turn {
            buy, bids, pass, ..
        } => {
            // Choices: buy (if allowed), bid (if any card allows), pass (if allowed).
            let mut kinds: [u8; 3] = [0; 3];
            let mut n = 0;
            if buy.is_some() {
                kinds[n] = 0;
                n += 1;
            }
            if !bids.is_empty() {
                kinds[n] = 1;
                n += 1;
            }
            if pass {
                kinds[n] = 2;
                n += 1;
            }
            match kinds[pick(n.max(1))] {
                0 => buy.map(|b| Action::Buy {
                    letter: (pick(2) == 0).then_some(b.letter),
                }),
                1 => {
                    let option = bids[pick(bids.len())];
                    Some(Action::Bid {
                        letter: option.letter,
                        amount: amount(option.minimum, option.maximum, pick),
                    })
                }
                _ => Some(Action::Pass),
            }
        }
        LegalActions::BidOff { raise, .. } => match raise {
            Some(r) if pick(2) == 0 => Some(Action::Raise {
                amount: amount(r.minimum, r.maximum, pick),
            }),
            _ => Some(if pick(2) == 0 {
                Action::Drop
            } else {
                Action::Pass
            }),
        },
        LegalActions::Draw(_) | LegalActions::None => None,
    }
}

/// Draws `count` chips from a bag without replacement, with `pick`, over the population of P16.
pub fn random_chips(request: &DrawRequest, pick: &mut impl FnMut(usize) -> usize) -> Vec<Chip> {
    let mut population = chip_population(&request.bag());
    let count = request.chip_count().min(population.len());
    (0..count)
        .map(|_| population.remove(pick(population.len())))
        .collect()
}

/// Deals 7 cards from the deck counts of a manual deal request, without replacement.
pub fn random_cards(request: &DrawRequest, pick: &mut impl FnMut(usize) -> usize) -> Vec<u32> {
    let DrawRequest::Deal { deck, cards, .. } = request else {
        return Vec::new();
    };
    let mut population: Vec<u32> = COSTS
        .iter()
        .flat_map(|&cost| std::iter::repeat_n(cost, deck.get(cost) as usize))
        .collect();
    let count = (*cards as usize).min(population.len());
    (0..count)
        .map(|_| population.remove(pick(population.len())))
        .collect()
}

/// Answers the pending draw, if any, with `pick`; returns its events.
pub fn random_draw(game: &mut Game, pick: &mut impl FnMut(usize) -> usize) -> Option<Vec<Event>> {
    let request = game.pending_draw()?;
    let result = match request {
        DrawRequest::Chips { .. } => {
            let chips = random_chips(&request, pick);
            game.resolve_chips(&chips)
        }
        DrawRequest::Deal { .. } => {
            let cards = random_cards(&request, pick);
            let chips = random_chips(&request, pick);
            game.resolve_deal(&cards, &chips)
        }
    };
    result.ok()
}

/// Plays a game to its end with random legal actions and draws; returns the number of steps
/// (actions and draws) taken. Stops after `max_steps` (a game that has not ended by then is
/// a bug).
pub fn play_out(game: &mut Game, pick: &mut impl FnMut(usize) -> usize, max_steps: usize) -> usize {
    let mut steps = 0;
    while steps < max_steps {
        match game.to_act() {
            Actor::Nobody => break,
            Actor::Draw => {
                if random_draw(game, pick).is_none() {
                    break;
                }
            }
            Actor::Player { seat } => {
                let Some(action) = random_action(game, pick) else {
                    break;
                };
                if game.play(seat, &action).is_err() {
                    break;
                }
            }
        }
        steps += 1;
    }
    steps
}

/// Shuffles a list with `pick` (Fisher–Yates), e.g. [`crate::draw::deck_population`] into a
/// deck for an audited-style setup.
pub fn shuffle<T>(items: &mut [T], pick: &mut impl FnMut(usize) -> usize) {
    for i in (1..items.len()).rev() {
        items.swap(i, pick(i + 1));
    }
}
