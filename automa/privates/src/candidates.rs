//! The moves the search weighs: every kind of legal move, with a few bid and raise amounts
//! (the least, a little more, and about what the card is worth to the seat).

use privates::{Action, Game, LegalActions, Seat};

use crate::players::greedy_move;
use crate::value::card_worth;

/// The most cards a turn's bids are weighed on: those with the best surplus.
pub const BID_CARDS: usize = 3;
/// Steps over the least bid or raise weighed besides the least.
pub const STEPS: [u32; 2] = [3, 8];

/// The candidate moves for the seat to act, in a fixed order, without duplicates; empty when
/// the seat is not to act.
pub fn candidates(game: &Game, seat: Seat) -> Vec<Action> {
    let mut moves: Vec<Action> = Vec::new();
    let push = |moves: &mut Vec<Action>, action: Action| {
        if !moves.contains(&action) {
            moves.push(action);
        }
    };
    match game.legal_actions() {
        LegalActions::Turn {
            player,
            buy,
            bids,
            pass,
        } if player == seat => {
            if let Some(b) = buy {
                push(
                    &mut moves,
                    Action::Buy {
                        letter: Some(b.letter),
                    },
                );
            }
            if pass {
                push(&mut moves, Action::Pass);
            }
            let row = game.row();
            let mut ranked: Vec<(f64, usize)> = bids
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    let worth = card_worth(game, seat, &row[o.letter.index()].card);
                    (worth - o.minimum as f64, i)
                })
                .collect();
            ranked.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
            for &(_, i) in ranked.iter().take(BID_CARDS) {
                let o = bids[i];
                let worth = card_worth(game, seat, &row[o.letter.index()].card);
                for amount in amounts(o.minimum, o.maximum, worth) {
                    push(
                        &mut moves,
                        Action::Bid {
                            letter: o.letter,
                            amount,
                        },
                    );
                }
            }
        }
        LegalActions::BidOff {
            player,
            letter,
            raise,
            ..
        } if player == seat => {
            push(&mut moves, Action::Drop);
            if let Some(r) = raise {
                let worth = card_worth(game, seat, &game.row()[letter.index()].card);
                for amount in amounts(r.minimum, r.maximum, worth) {
                    push(&mut moves, Action::Raise { amount });
                }
            }
        }
        _ => return moves,
    }
    if let Some(greedy) = greedy_move(game) {
        push(&mut moves, greedy);
    }
    moves
}

/// Amounts from `minimum` to `maximum`: the least, a few steps over it, and about the worth.
fn amounts(minimum: u32, maximum: u32, worth: f64) -> Vec<u32> {
    let mut out = vec![minimum];
    let steps = STEPS.iter().map(|s| minimum + s);
    let near_worth = [(worth * 0.85).round(), worth.round()]
        .into_iter()
        .filter(|w| w.is_finite() && *w >= 0.0)
        .map(|w| w as u32);
    for amount in steps.chain(near_worth) {
        if amount > minimum && amount <= maximum && !out.contains(&amount) {
            out.push(amount);
        }
    }
    out.sort_unstable();
    out
}
