//! The components: card kinds (P1), chips (P2) and the row letters (P5).

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// The nine card costs, lowest first (P1).
pub const COSTS: [u32; 9] = [5, 10, 15, 20, 25, 30, 35, 40, 50];
/// The revenue of each cost in [`COSTS`] (P1).
pub const REVENUES: [u32; 9] = [3, 4, 5, 6, 7, 8, 9, 10, 15];
/// Copies of each kind in the standard deck (P1).
pub const DEFAULT_COPIES: u8 = 6;
/// Copies of each kind in the `copies:5` variant (P1).
pub const VARIANT_COPIES: u8 = 5;
/// Cards dealt each round (P5).
pub const ROW_SIZE: usize = 7;
/// Chips of each colour in the game (P2).
pub const CHIPS_PER_COLOUR: u8 = 11;
/// Chips of each colour moved from the reserve into the bag each round (P2).
pub const CHIPS_ADDED_PER_ROUND: u8 = 2;

/// The index of a cost in [`COSTS`], or `None` for a cost no card has.
pub fn cost_index(cost: u32) -> Option<usize> {
    COSTS.iter().position(|&c| c == cost)
}

/// The revenue of a card of this cost (P1), or `None` for a cost no card has.
pub fn revenue_of(cost: u32) -> Option<u32> {
    cost_index(cost).map(|i| REVENUES[i])
}

/// The number of rounds a deck of `copies` of each kind plays: floor(9 × copies / 7) (P1).
pub fn rounds_for(copies: u8) -> u8 {
    (COSTS.len() * copies as usize / ROW_SIZE) as u8
}

/// A chip colour, which is a card's suit (P2, P5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Chip {
    /// Red.
    Red,
    /// Yellow.
    Yellow,
    /// Green.
    Green,
    /// Blue.
    Blue,
    /// Black.
    Black,
}

impl Chip {
    /// Every colour in the order the bag's chips are listed for a draw (P16).
    pub const ALL: [Chip; 5] = [
        Chip::Red,
        Chip::Yellow,
        Chip::Green,
        Chip::Blue,
        Chip::Black,
    ];

    /// The colour's name as players write it.
    pub fn name(self) -> &'static str {
        match self {
            Chip::Red => "red",
            Chip::Yellow => "yellow",
            Chip::Green => "green",
            Chip::Blue => "blue",
            Chip::Black => "black",
        }
    }

    /// Position in [`Chip::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Chip {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Chip {
    type Err = ();

    /// Reads a colour name, case-insensitively.
    fn from_str(s: &str) -> Result<Chip, ()> {
        Chip::ALL
            .into_iter()
            .find(|c| c.name().eq_ignore_ascii_case(s.trim()))
            .ok_or(())
    }
}

/// How many chips of each colour (in the bag, the reserve, …).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct ChipCounts {
    /// Red chips.
    pub red: u8,
    /// Yellow chips.
    pub yellow: u8,
    /// Green chips.
    pub green: u8,
    /// Blue chips.
    pub blue: u8,
    /// Black chips.
    pub black: u8,
}

impl ChipCounts {
    /// The same count of every colour.
    pub fn uniform(count: u8) -> ChipCounts {
        ChipCounts {
            red: count,
            yellow: count,
            green: count,
            blue: count,
            black: count,
        }
    }

    /// The count of one colour.
    pub fn get(&self, chip: Chip) -> u8 {
        match chip {
            Chip::Red => self.red,
            Chip::Yellow => self.yellow,
            Chip::Green => self.green,
            Chip::Blue => self.blue,
            Chip::Black => self.black,
        }
    }

    /// The count of one colour, to change.
    pub fn get_mut(&mut self, chip: Chip) -> &mut u8 {
        match chip {
            Chip::Red => &mut self.red,
            Chip::Yellow => &mut self.yellow,
            Chip::Green => &mut self.green,
            Chip::Blue => &mut self.blue,
            Chip::Black => &mut self.black,
        }
    }

    /// All chips together.
    pub fn total(&self) -> u32 {
        Chip::ALL.iter().map(|&c| self.get(c) as u32).sum()
    }

    /// Whether these chips can all be taken from these counts at once.
    pub fn contains(&self, chips: &[Chip]) -> bool {
        Chip::ALL.iter().all(|&c| {
            let wanted = chips.iter().filter(|&&x| x == c).count();
            wanted <= self.get(c) as usize
        })
    }
}

impl fmt::Display for ChipCounts {
    /// `2 red, 2 yellow, 2 green, 2 blue, 2 black`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, chip) in Chip::ALL.into_iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{} {chip}", self.get(chip))?;
        }
        Ok(())
    }
}

/// A card's letter in the row, A to G (P5).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub struct Letter(u8);

impl Letter {
    /// Every letter a row can have, A to G.
    pub const ALL: [Letter; ROW_SIZE] = [
        Letter(0),
        Letter(1),
        Letter(2),
        Letter(3),
        Letter(4),
        Letter(5),
        Letter(6),
    ];

    /// The letter at a row position (0 = A), if the row has one there.
    pub fn from_index(index: usize) -> Option<Letter> {
        (index < ROW_SIZE).then_some(Letter(index as u8))
    }

    /// Reads `A`…`G` (or `a`…`g`).
    pub fn from_char(c: char) -> Option<Letter> {
        let upper = c.to_ascii_uppercase();
        ('A'..='G')
            .contains(&upper)
            .then(|| Letter(upper as u8 - b'A'))
    }

    /// The row position, 0 for A.
    pub fn index(self) -> usize {
        self.0 as usize
    }

    /// The letter as a character.
    pub fn as_char(self) -> char {
        (b'A' + self.0) as char
    }
}

impl fmt::Display for Letter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.as_char())
    }
}

impl TryFrom<String> for Letter {
    type Error = String;

    fn try_from(s: String) -> Result<Letter, String> {
        let mut chars = s.chars();
        match (chars.next(), chars.next()) {
            (Some(c), None) => Letter::from_char(c).ok_or_else(|| format!("no row letter {s}")),
            _ => Err(format!("no row letter {s}")),
        }
    }
}

impl From<Letter> for String {
    fn from(letter: Letter) -> String {
        letter.to_string()
    }
}

/// A card as held: its kind and the chip that suits it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Card {
    /// The cost printed on it (P1).
    pub cost: u32,
    /// The revenue printed on it (P1).
    pub revenue: u32,
    /// Its chip, the suit (P5); `None` only if the bag ran short of chips.
    pub colour: Option<Chip>,
}

impl Card {
    /// A card of a cost, with its revenue; `None` for a cost no card has.
    pub fn new(cost: u32, colour: Option<Chip>) -> Option<Card> {
        Some(Card {
            cost,
            revenue: revenue_of(cost)?,
            colour,
        })
    }
}

impl fmt::Display for Card {
    /// `20/$6 red`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/${}", self.cost, self.revenue)?;
        if let Some(colour) = self.colour {
            write!(f, " {colour}")?;
        }
        Ok(())
    }
}

/// How many cards of each cost (in the deck, …), in [`COSTS`] order.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CostCounts(pub [u8; 9]);

impl CostCounts {
    /// `copies` of every cost: a full deck (P1).
    pub fn full(copies: u8) -> CostCounts {
        CostCounts([copies; 9])
    }

    /// Cards of one cost; 0 for a cost no card has.
    pub fn get(&self, cost: u32) -> u8 {
        cost_index(cost).map_or(0, |i| self.0[i])
    }

    /// All cards together.
    pub fn total(&self) -> u32 {
        self.0.iter().map(|&n| n as u32).sum()
    }

    /// `(cost, count)` for every cost, lowest first.
    pub fn iter(&self) -> impl Iterator<Item = (u32, u8)> + '_ {
        COSTS.iter().copied().zip(self.0.iter().copied())
    }
}
