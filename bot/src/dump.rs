//! The state dump of `gaugebot play --dump-state` (ruling 26), also the input of the map.

use std::collections::BTreeMap;

use irish_gauge::{Actor, Colour, CubeCounts, Game, Railway};
use serde::{Deserialize, Serialize};

/// One player in the dump.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerDump {
    /// Name.
    pub name: String,
    /// Cash.
    pub cash: u32,
    /// Face values held, by railway (only railways held).
    pub shares: BTreeMap<Railway, Vec<u32>>,
    /// Cash plus face values.
    pub score: u32,
}

/// One railway in the dump.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RailwayDump {
    /// Hex ids with its locomotives, by row letter then column.
    pub track: Vec<String>,
    /// Locomotives not yet placed.
    pub unplaced: u8,
    /// Shares for sale, ascending.
    pub available: Vec<u32>,
    /// Whether the Major City Dividend was paid.
    pub major_bonus_paid: bool,
}

/// The whole dump.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StateDump {
    /// Players in seat order.
    pub players: Vec<PlayerDump>,
    /// All five railways.
    pub railways: BTreeMap<Railway, RailwayDump>,
    /// Every city (towns made cities included) by name, with its cube.
    pub cities: BTreeMap<String, Colour>,
    /// Cubes left.
    pub supply: CubeCounts,
    /// Dividend draws in order.
    pub draws: Vec<Vec<Colour>>,
    /// Who must act now: a player, or the moderator for a manual draw; null when over.
    pub next: Option<String>,
    /// Whether the game is over.
    pub finished: bool,
    /// The winners; empty until the end.
    pub winners: Vec<String>,
}

impl StateDump {
    /// The dump of a game; `moderator` names who must make a pending manual draw.
    pub fn of(game: &Game, moderator: &str) -> StateDump {
        let players = game
            .players()
            .iter()
            .enumerate()
            .map(|(seat, p)| PlayerDump {
                name: p.name.clone(),
                cash: p.cash,
                shares: game.shares_of(seat).into_iter().collect(),
                score: game.score(seat),
            })
            .collect();
        let railways = Railway::ALL
            .iter()
            .map(|&r| {
                let state = game.railway(r);
                let mut track: Vec<_> = state.track.iter().collect();
                track.sort_by_key(|h| (h.hex().row, h.hex().column));
                (
                    r,
                    RailwayDump {
                        track: track.iter().map(|h| h.label().to_string()).collect(),
                        unplaced: state.unplaced(),
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
        StateDump {
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
        }
    }
}
