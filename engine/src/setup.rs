//! An unvalidated setup: the players in sign-up order and the two setup rolls.

use serde::{Deserialize, Serialize};

use crate::board::CITY_DRAW_ORDER;
use crate::error::SetupError;
use crate::railway::Colour;

/// Fewest players (ruling 22).
pub const MIN_PLAYERS: usize = 3;
/// Most players (ruling 22).
pub const MAX_PLAYERS: usize = 5;
/// Cash each player starts with.
pub const STARTING_CASH: u32 = 20;

/// The random results a setup needs, to be made by the caller's dice (rulings 23–24).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SetupRolls {
    /// Players: the order roll is "NpN", every sign-up number once.
    pub players: usize,
}

impl SetupRolls {
    /// The order roll, in forum notation (`4p4`).
    pub fn order_roll(&self) -> String {
        format!("{0}p{0}", self.players)
    }

    /// The city roll, in forum notation (`12p8`).
    pub fn city_roll(&self) -> &'static str {
        "12p8"
    }
}

/// A setup as given: not yet checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Player names in sign-up order (their position is their sign-up number, from 1).
    pub players: Vec<String>,
    /// The order roll: seat by seat, the sign-up number of the player in that seat (ruling 23).
    pub order: Vec<u8>,
    /// The city roll: 8 distinct numbers 1–12 for Galway, Limerick, Cork, Derry, Kilkenny,
    /// Waterford, Belfast, Dublin; 1–4 white, 5–8 pink, 9–12 black (ruling 24).
    pub cities: [u8; 8],
}

/// A checked setup: names in seat order and each starting city's cube.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidSetup {
    /// Names in seat (player) order.
    pub seats: Vec<String>,
    /// Cube colours in [`CITY_DRAW_ORDER`].
    pub city_cubes: [Colour; 8],
}

impl Setup {
    /// Checks the setup.
    pub fn validate(&self) -> Result<ValidSetup, SetupError> {
        let count = self.players.len();
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&count) {
            return Err(SetupError::PlayerCount { count });
        }
        for (i, name) in self.players.iter().enumerate() {
            if name.trim().is_empty() {
                return Err(SetupError::PlayerName {
                    name: String::new(),
                });
            }
            if self.players[..i]
                .iter()
                .any(|other| other.eq_ignore_ascii_case(name))
            {
                return Err(SetupError::PlayerName { name: name.clone() });
            }
        }
        if self.order.len() != count {
            return Err(SetupError::PlayerOrder {
                reason: format!("{} numbers given for {count} players", self.order.len()),
            });
        }
        let mut seen = [false; MAX_PLAYERS + 1];
        for &number in &self.order {
            let n = number as usize;
            if n == 0 || n > count {
                return Err(SetupError::PlayerOrder {
                    reason: format!("{number} is not a sign-up number 1 to {count}"),
                });
            }
            if seen[n] {
                return Err(SetupError::PlayerOrder {
                    reason: format!("{number} is given twice"),
                });
            }
            seen[n] = true;
        }
        let mut city_seen = [false; 13];
        let mut city_cubes = [Colour::White; 8];
        for (i, &number) in self.cities.iter().enumerate() {
            let colour = Colour::of_setup_number(number).ok_or_else(|| SetupError::CityCubes {
                reason: format!("{number} is not a cube number 1 to 12"),
            })?;
            if city_seen[number as usize] {
                return Err(SetupError::CityCubes {
                    reason: format!("cube {number} is drawn twice"),
                });
            }
            city_seen[number as usize] = true;
            city_cubes[i] = colour;
        }
        let seats = self
            .order
            .iter()
            .map(|&n| self.players[n as usize - 1].trim().to_string())
            .collect();
        Ok(ValidSetup { seats, city_cubes })
    }

    /// The cities in draw order with the colour the roll gives each.
    pub fn city_colours(&self) -> Result<Vec<(&'static str, Colour)>, SetupError> {
        let valid = self.validate()?;
        Ok(CITY_DRAW_ORDER
            .iter()
            .copied()
            .zip(valid.city_cubes)
            .collect())
    }
}
