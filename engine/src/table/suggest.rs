//! What Discord's slash commands and buttons ask of Irish Gauge: the legal values of an argument
//! being typed (autocomplete), from [`Game::legal_actions`] and trial moves on a copy, and the
//! moves the player to act can make with one click.

use gaugebot_table::game::{Query, QuickMove, Suggestion};

use crate::build::format_half_points;
use crate::game::LegalActions;
use crate::{Action, Board, Event, Game, HexId, Railway};

/// The most suggestions Discord shows.
const MAX: usize = 25;

/// Whether `candidate` starts with what is typed (case and spaces ignored).
fn matches(candidate: &str, typed: &str) -> bool {
    let typed = typed.trim().to_lowercase();
    typed.is_empty() || candidate.to_lowercase().starts_with(&typed)
}

/// A hex as players read it: `K3 Shannon`, or `K3` for a hex without a name.
fn hex_label(hex: HexId) -> String {
    match &hex.hex().name {
        Some(name) => format!("{} {name}", hex.label()),
        None => hex.label().to_string(),
    }
}

/// Keeps the suggestions whose label or value starts with what is typed, at most [`MAX`].
fn filtered(all: Vec<Suggestion>, typed: &str) -> Vec<Suggestion> {
    let mut out: Vec<Suggestion> = all
        .iter()
        .filter(|s| matches(&s.value, typed) || matches(&s.label, typed))
        .cloned()
        .collect();
    if out.is_empty() {
        // Typed something else (a town's name in the middle, a typo): show everything.
        out = all;
    }
    out.truncate(MAX);
    out
}

/// Legal values of an argument being typed by `seat` (only the player to act gets any).
pub fn suggest(game: &Game, seat: Option<usize>, query: &Query<'_>) -> Vec<Suggestion> {
    let legal = game.legal_actions();
    let mine = match &legal {
        LegalActions::Bidding { player, .. } | LegalActions::Turn { player, .. } => {
            seat == Some(*player)
        }
        _ => false,
    };
    if !mine {
        return Vec::new();
    }
    let all = match (query.command, query.arg, &legal) {
        ("bid", "amount", LegalActions::Bidding { min, max, .. }) => {
            let mut amounts = vec![Suggestion::new(
                format!("£{min} (the least bid)"),
                min.to_string(),
            )];
            amounts.extend(
                (min + 1..=*max)
                    .take(MAX - 1)
                    .map(|a| Suggestion::new(format!("£{a}"), a.to_string())),
            );
            amounts
        }
        ("auction", "railway", LegalActions::Turn { auctions, .. }) => auctions
            .iter()
            .map(|a| {
                Suggestion::new(
                    format!("{} — share £{}", a.railway.code(), a.face),
                    a.railway.code(),
                )
            })
            .collect(),
        ("auction", "amount", LegalActions::Turn { auctions, .. }) => {
            let railway = query
                .given("railway")
                .and_then(|r| r.parse::<Railway>().ok());
            auctions
                .iter()
                .filter(|a| railway.is_none_or(|r| r == a.railway))
                .take(1)
                .flat_map(|a| {
                    (a.face..=a.max_bid).take(MAX).map(move |v| {
                        let label = if v == a.face {
                            format!("£{v} (face value)")
                        } else {
                            format!("£{v}")
                        };
                        Suggestion::new(label, v.to_string())
                    })
                })
                .collect()
        }
        ("build", "railway", LegalActions::Turn { builds, .. }) => builds
            .iter()
            .map(|b| {
                Suggestion::new(
                    format!(
                        "{} — {} locomotives left, {} hexes next to its track",
                        b.railway.code(),
                        b.unplaced,
                        b.hexes.len()
                    ),
                    b.railway.code(),
                )
            })
            .collect(),
        ("build", "hexes", LegalActions::Turn { player, .. }) => {
            return build_targets(game, *player, query);
        }
        ("interest", "town", LegalActions::Turn { interests, .. }) => interests
            .iter()
            .map(|i| Suggestion::new(hex_label(i.town), i.town.display_name()))
            .collect(),
        ("interest", "colour", LegalActions::Turn { interests, .. }) => interests
            .first()
            .map(|i| {
                i.colours
                    .iter()
                    .map(|c| {
                        Suggestion::new(
                            format!("{} ({} in the supply)", c.name(), game.supply().get(*c)),
                            c.name(),
                        )
                    })
                    .collect()
            })
            .unwrap_or_default(),
        _ => Vec::new(),
    };
    filtered(all, query.typed)
}

/// The hexes a build can go on next: the hexes already typed, then one more, each checked by
/// playing the build on a copy; labelled with the hex's cost and the build's total.
fn build_targets(game: &Game, seat: usize, query: &Query<'_>) -> Vec<Suggestion> {
    let Some(railway) = query
        .given("railway")
        .and_then(|r| r.parse::<Railway>().ok())
    else {
        return Vec::new();
    };
    let board = Board::get();
    // Everything before the last space is settled; the last word is being typed.
    let typed = query.typed.trim_start();
    let (settled, partial) = match typed.rsplit_once(char::is_whitespace) {
        Some((before, last)) => (before, last),
        None => ("", typed),
    };
    let mut before = Vec::new();
    for word in settled.split_whitespace() {
        match board.find(word) {
            Some(hex) => before.push(hex),
            None => return Vec::new(),
        }
    }
    let prefix: String = before.iter().map(|h| format!("{} ", h.label())).collect();
    let mut out = Vec::new();
    for hex in board.ids() {
        if before.contains(&hex) {
            continue;
        }
        let label = hex_label(hex);
        if !matches(&label, partial) && !matches(hex.display_name(), partial) {
            continue;
        }
        let mut hexes = before.clone();
        hexes.push(hex);
        let mut trial = game.clone();
        let Ok(events) = trial.play(seat, &Action::Build { railway, hexes }) else {
            continue;
        };
        let cost = events.iter().find_map(|e| match e {
            Event::LocomotivesPlaced {
                hexes, half_points, ..
            } => Some((
                hexes.iter().find(|(h, _)| *h == hex).map(|(_, c)| *c),
                *half_points,
            )),
            _ => None,
        });
        let text = match cost {
            Some((Some(own), total)) if !before.is_empty() => format!(
                "{prefix}{label} — {} BP, {} BP in all",
                format_half_points(own),
                format_half_points(total)
            ),
            Some((_, total)) => format!("{prefix}{label} — {} BP", format_half_points(total)),
            None => format!("{prefix}{label}"),
        };
        out.push(Suggestion::new(text, format!("{prefix}{}", hex.label())));
        if out.len() == MAX {
            break;
        }
    }
    out
}

/// The one-click moves of the player to act: pass and the least bid in an auction; calling
/// dividends on a turn.
pub fn quick_moves(game: &Game) -> Vec<QuickMove> {
    match game.legal_actions() {
        LegalActions::Bidding { min, max, .. } => {
            let mut moves = Vec::new();
            if min <= max {
                moves.push(QuickMove {
                    label: format!("Bid £{min}"),
                    notation: format!("bid {min}"),
                });
            }
            moves.push(QuickMove {
                label: "Pass".to_string(),
                notation: "pass".to_string(),
            });
            moves
        }
        LegalActions::Turn { player, .. } if game.is_legal(player, &Action::CallDividends) => {
            vec![QuickMove {
                label: "Call dividends".to_string(),
                notation: "dividends".to_string(),
            }]
        }
        _ => Vec::new(),
    }
}
