//! The view model of a position, shared by the report, the state dump and the map.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::event::Event;
use crate::{Actor, Colour, CubeCounts, Game, HexId, Railway};

/// The one view model of an Irish Gauge position: the `--dump-state` JSON is this struct
/// serialized, the map draws it, and the status report is rendered from it. Reading a dump
/// ignores extra fields.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct View {
    /// The players in seating order.
    #[serde(default)]
    pub players: Vec<PlayerView>,
    /// Every railway's track and stock.
    #[serde(default)]
    pub railways: BTreeMap<Railway, RailwayView>,
    /// The cube colour of every city, by city name (towns made cities included).
    #[serde(default)]
    pub cities: BTreeMap<String, Colour>,
    /// The cubes left in the supply.
    #[serde(default)]
    pub supply: CubeCounts,
    /// The dividend draws so far, in order.
    #[serde(default)]
    pub draws: Vec<Vec<Colour>>,
    /// The name of the player to act next, if any.
    #[serde(default)]
    pub next: Option<String>,
    /// Whether the game is over.
    #[serde(default)]
    pub finished: bool,
    /// The winners' names, once the game is over.
    #[serde(default)]
    pub winners: Vec<String>,
    /// Hexes placed in the last build or special interest, highlighted on the map (read from
    /// a dump when present; never written to one).
    #[serde(default, skip_serializing)]
    pub recent: Vec<HexId>,
    /// The turn number (0 during the initial auctions); not part of the dump.
    #[serde(default, skip_serializing)]
    pub turn: u32,
}

/// One player as the picture shows them.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Display name.
    pub name: String,
    /// Cash in hand.
    #[serde(default)]
    pub cash: i64,
    /// Share certificates held: face values by railway.
    #[serde(default)]
    pub shares: BTreeMap<Railway, Vec<u32>>,
    /// Score (cash plus share values), if known.
    #[serde(default)]
    pub score: Option<i64>,
}

/// One railway as the picture shows it.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct RailwayView {
    /// Hexes holding one of its locomotives.
    #[serde(default)]
    pub track: Vec<HexId>,
    /// Locomotives not yet on the board.
    #[serde(default)]
    pub unplaced: u32,
    /// Face values of its shares still for sale.
    #[serde(default)]
    pub available: Vec<u32>,
    /// Whether its Major City Dividend bonus has been paid.
    #[serde(default)]
    pub major_bonus_paid: bool,
}

impl View {
    /// The view of a game; `moderator` names who must make a pending manual draw, `recent`
    /// are the hexes to highlight.
    pub fn of(game: &Game, moderator: &str, recent: Vec<HexId>) -> View {
        let players = game
            .players()
            .iter()
            .enumerate()
            .map(|(seat, p)| PlayerView {
                name: p.name.clone(),
                cash: i64::from(p.cash),
                shares: game.shares_of(seat).into_iter().collect(),
                score: Some(i64::from(game.score(seat))),
            })
            .collect();
        let railways = Railway::ALL
            .iter()
            .map(|&r| {
                let state = game.railway(r);
                let mut track: Vec<HexId> = state.track.iter().collect();
                track.sort_by_key(|h| (h.hex().row, h.hex().column));
                (
                    r,
                    RailwayView {
                        track,
                        unplaced: u32::from(state.unplaced()),
                        available: game.available_shares(r),
                        major_bonus_paid: state.major_bonus_paid,
                    },
                )
            })
            .collect();
        let next = match game.to_act() {
            Actor::Player { seat } => Some(game.name(seat).to_string()),
            Actor::Dice => Some(moderator.to_string()),
            Actor::Nobody => None,
        };
        View {
            players,
            railways,
            cities: game
                .cities()
                .map(|(h, c)| (h.display_name().to_string(), c))
                .collect(),
            supply: game.supply(),
            draws: game.draws().to_vec(),
            next,
            finished: game.is_finished(),
            winners: game
                .winners()
                .iter()
                .map(|&s| game.name(s).to_string())
                .collect(),
            recent,
            turn: game.turn(),
        }
    }
}

/// Hexes placed by events: the locomotives of a build and the town of a special interest.
pub fn placed_hexes(events: &[Event]) -> Vec<HexId> {
    events
        .iter()
        .flat_map(|e| match e {
            Event::LocomotivesPlaced { hexes, .. } => hexes.iter().map(|(h, _)| *h).collect(),
            Event::SpecialInterestPlaced { town, .. } => vec![*town],
            _ => Vec::new(),
        })
        .collect()
}
