//! Railways and cube colours.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// One of the five railways, in the printed order (the dividend order).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Railway {
    /// Cork, Bandon & South Coast Railway (yellow, Cork).
    #[serde(rename = "CBSC")]
    Cbsc,
    /// Waterford, Limerick & Western Railway (purple, Limerick).
    #[serde(rename = "WLW")]
    Wlw,
    /// Belfast & County Down Railway (orange, Belfast).
    #[serde(rename = "BCD")]
    Bcd,
    /// Great Southern & Western Railway (blue, Dublin).
    #[serde(rename = "GSW")]
    Gsw,
    /// Midland Great Western Railway (red, Dublin).
    #[serde(rename = "MGW")]
    Mgw,
}

/// Locomotives per railway, the one in the starting city included (ruling 12).
pub const LOCOMOTIVES_PER_RAILWAY: u8 = 19;

impl Railway {
    /// All railways in dividend order.
    pub const ALL: [Railway; 5] = [
        Railway::Cbsc,
        Railway::Wlw,
        Railway::Bcd,
        Railway::Gsw,
        Railway::Mgw,
    ];

    /// The printed abbreviation.
    pub fn code(self) -> &'static str {
        match self {
            Railway::Cbsc => "CBSC",
            Railway::Wlw => "WLW",
            Railway::Bcd => "BCD",
            Railway::Gsw => "GSW",
            Railway::Mgw => "MGW",
        }
    }

    /// Position in [`Railway::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Locomotive colour name.
    pub fn colour_name(self) -> &'static str {
        match self {
            Railway::Cbsc => "yellow",
            Railway::Wlw => "purple",
            Railway::Bcd => "orange",
            Railway::Gsw => "blue",
            Railway::Mgw => "red",
        }
    }
}

impl fmt::Display for Railway {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

impl FromStr for Railway {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Railway::ALL
            .into_iter()
            .find(|r| r.code().eq_ignore_ascii_case(s.trim()))
            .ok_or(())
    }
}

/// A dividend cube colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Colour {
    /// White cubes (forum numbers 1–4 in the setup roll).
    White,
    /// Pink cubes (forum numbers 5–8).
    Pink,
    /// Black cubes (forum numbers 9–12).
    Black,
}

impl Colour {
    /// All colours in supply order.
    pub const ALL: [Colour; 3] = [Colour::White, Colour::Pink, Colour::Black];

    /// Position in [`Colour::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// Lower-case name.
    pub fn name(self) -> &'static str {
        match self {
            Colour::White => "white",
            Colour::Pink => "pink",
            Colour::Black => "black",
        }
    }

    /// The colour of a forum setup-cube number 1..=12 (ruling 24).
    pub fn of_setup_number(number: u8) -> Option<Colour> {
        match number {
            1..=4 => Some(Colour::White),
            5..=8 => Some(Colour::Pink),
            9..=12 => Some(Colour::Black),
            _ => None,
        }
    }
}

impl fmt::Display for Colour {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Colour {
    type Err = ();
    fn from_str(s: &str) -> Result<Self, ()> {
        Colour::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s.trim()))
            .ok_or(())
    }
}

/// Cube counts by colour (the supply, or the cubes drawn).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub struct CubeCounts {
    /// White cubes.
    pub white: u8,
    /// Pink cubes.
    pub pink: u8,
    /// Black cubes.
    pub black: u8,
}

impl CubeCounts {
    /// Counts from an array in [`Colour::ALL`] order.
    pub fn from_array([white, pink, black]: [u8; 3]) -> Self {
        CubeCounts { white, pink, black }
    }

    /// The count of one colour.
    pub fn get(&self, colour: Colour) -> u8 {
        match colour {
            Colour::White => self.white,
            Colour::Pink => self.pink,
            Colour::Black => self.black,
        }
    }

    /// Mutable count of one colour.
    pub fn get_mut(&mut self, colour: Colour) -> &mut u8 {
        match colour {
            Colour::White => &mut self.white,
            Colour::Pink => &mut self.pink,
            Colour::Black => &mut self.black,
        }
    }

    /// All cubes.
    pub fn total(&self) -> u8 {
        self.white + self.pink + self.black
    }

    /// Whether these cubes can be taken out of `self`.
    pub fn contains(&self, cubes: &[Colour]) -> bool {
        let mut needed = CubeCounts::default();
        for &c in cubes {
            *needed.get_mut(c) += 1;
        }
        Colour::ALL.iter().all(|&c| needed.get(c) <= self.get(c))
    }
}

impl fmt::Display for CubeCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} white, {} pink, {} black",
            self.white, self.pink, self.black
        )
    }
}
