//! The automa capability: a computer player that fills a seat no human fills.
//!
//! A game opts in by registering an automa beside its plug-in
//! ([`crate::game::session::plugin_with_automa`]): a [`TableAutoma`] chooses a move for a seat
//! from the position, at a [`AutomaLevel`], with its own random stream seeded from public data
//! ([`automa_seed`]: the game id and the log position, never the dice seed). A game without one
//! has no automa seats (`!setup … automa` is refused). The table makes the automa's moves as
//! moves made for a seat (a `proxy` marker with [`crate::game::events::ProxyWhy::Automa`]), so
//! replay, export, verify and import never run the automa.

use std::fmt;
use std::str::FromStr;

use serde_json::Value;
use sha2::{Digest, Sha256};

use crate::game::{PlayerInfo, TableGame};

/// The id prefix of automa seats (`automa:1`): no Discord id (digits) or console name (no `:`)
/// can take it.
pub const AUTOMA_ID_PREFIX: &str = "automa:";

/// How hard an automa thinks: a count of simulations, never wall-clock time, so that the same
/// position always gives the same move on any machine.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum AutomaLevel {
    /// A few simulations: tests, and the console when asked (`--automa cheap`).
    Cheap,
    /// The default: calibrated to <= 2 s a decision on one core (docs/AUTOMA.md).
    #[default]
    Standard,
    /// Exactly this many simulations a decision.
    Simulations(u32),
}

/// A level that does not read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("'{0}' is not an automa level (cheap, standard or a number of simulations)")]
pub struct AutomaLevelError(pub String);

impl FromStr for AutomaLevel {
    type Err = AutomaLevelError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        match s.trim().to_ascii_lowercase().as_str() {
            "cheap" => Ok(AutomaLevel::Cheap),
            "standard" => Ok(AutomaLevel::Standard),
            other => match other.parse::<u32>() {
                Ok(n) if n > 0 => Ok(AutomaLevel::Simulations(n)),
                _ => Err(AutomaLevelError(s.to_string())),
            },
        }
    }
}

impl fmt::Display for AutomaLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AutomaLevel::Cheap => f.write_str("cheap"),
            AutomaLevel::Standard => f.write_str("standard"),
            AutomaLevel::Simulations(n) => write!(f, "{n}"),
        }
    }
}

/// The automa's move and why.
#[derive(Debug, Clone, PartialEq)]
pub struct AutomaChoice<M> {
    /// The move, legal for the seat in the position given.
    pub action: M,
    /// Why, as data: the game's `automa.md.j2` template words it in one short line
    /// ([`crate::game::Text::Reason`]).
    pub reason: Value,
}

/// A game's computer player. Pure: no I/O, no clock, no randomness but `seed`.
pub trait TableAutoma<G: TableGame>: Send + Sync + 'static {
    /// The move for `seat`, or `None` when `seat` is not the one to act. Must use only what a
    /// player at the table can see (a hidden deck order is forgotten, never read), and give
    /// the same move for the same position, level and seed.
    fn choose(
        &self,
        game: &G,
        state: &G::State,
        seat: usize,
        level: AutomaLevel,
        seed: u64,
    ) -> Option<AutomaChoice<G::Move>>;
}

/// The seed of an automa's decision from public data: the first 8 bytes (little-endian) of
/// SHA-256 of `automa:<game id>:<log position>`. Never the dice seed.
pub fn automa_seed(game_id: &str, position: u64) -> u64 {
    let digest = Sha256::digest(format!("automa:{game_id}:{position}").as_bytes());
    let mut bytes = [0u8; 8];
    bytes.copy_from_slice(&digest[..8]);
    u64::from_le_bytes(bytes)
}

impl PlayerInfo {
    /// The automa of number `n` (`Automa 1`, id `automa:1`); it is never pinged: its
    /// mention is its name.
    pub fn automa(n: usize) -> PlayerInfo {
        let name = format!("Automa {n}");
        PlayerInfo {
            id: format!("{AUTOMA_ID_PREFIX}{n}"),
            mention: name.clone(),
            name,
        }
    }

    /// Whether an automa holds this seat.
    pub fn is_automa(&self) -> bool {
        self.id.starts_with(AUTOMA_ID_PREFIX)
    }
}

/// The smallest automa number not taken by any of `taken`.
pub fn next_automa(taken: &[PlayerInfo]) -> PlayerInfo {
    let mut n = 1;
    while taken
        .iter()
        .any(|p| p.id == format!("{AUTOMA_ID_PREFIX}{n}"))
    {
        n += 1;
    }
    PlayerInfo::automa(n)
}

/// Whether a word names an automa (`automa`, `automa2`, `automa-2`, `automa:2`, `@automa`);
/// the number, if one is given.
pub fn automa_word(token: &str) -> Option<Option<usize>> {
    let lower = token.trim_start_matches('@').to_ascii_lowercase();
    let rest = lower.strip_prefix("automa")?;
    let rest = rest.trim_start_matches([':', '-', '_', ' ']);
    if rest.is_empty() {
        return Some(None);
    }
    rest.parse::<usize>().ok().filter(|n| *n > 0).map(Some)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_read_and_print() {
        assert_eq!("cheap".parse(), Ok(AutomaLevel::Cheap));
        assert_eq!("Standard".parse(), Ok(AutomaLevel::Standard));
        assert_eq!("400".parse(), Ok(AutomaLevel::Simulations(400)));
        assert!("0".parse::<AutomaLevel>().is_err());
        assert!("fast".parse::<AutomaLevel>().is_err());
        assert_eq!(AutomaLevel::Simulations(7).to_string(), "7");
    }

    #[test]
    fn the_seed_depends_on_the_game_and_the_position_only() {
        assert_eq!(automa_seed("c-1", 5), automa_seed("c-1", 5));
        assert_ne!(automa_seed("c-1", 5), automa_seed("c-1", 6));
        assert_ne!(automa_seed("c-1", 5), automa_seed("c-2", 5));
    }

    #[test]
    fn automa_names_and_words() {
        let one = PlayerInfo::automa(1);
        assert!(one.is_automa() && one.name == "Automa 1" && one.mention == "Automa 1");
        assert_eq!(
            next_automa(std::slice::from_ref(&one)),
            PlayerInfo::automa(2)
        );
        assert_eq!(automa_word("automa"), Some(None));
        assert_eq!(automa_word("@Automa2"), Some(Some(2)));
        assert_eq!(automa_word("automa:3"), Some(Some(3)));
        assert_eq!(automa_word("automatic"), None);
        assert_eq!(automa_word("ann"), None);
    }
}
