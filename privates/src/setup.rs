//! An unvalidated setup: the players in seat order, the deck size, the first dealer and, for
//! audited play, the shuffled deck.

use serde::{Deserialize, Serialize};

use crate::card::{cost_index, CostCounts, COSTS, DEFAULT_COPIES, VARIANT_COPIES};
use crate::error::{Ruling, SetupError};
use crate::event::Seat;

/// Fewest players (P3).
pub const MIN_PLAYERS: usize = 2;
/// Most players (P3).
pub const MAX_PLAYERS: usize = 6;
/// The money shared out at the start (P3).
pub const TOTAL_MONEY: u32 = 360;

/// Each player's starting cash for a number of players: $360 / players (P3).
pub fn starting_cash(players: usize) -> u32 {
    TOTAL_MONEY / players.max(1) as u32
}

fn default_copies() -> u8 {
    DEFAULT_COPIES
}

/// A setup as given: not yet checked.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Setup {
    /// Player names in seat order; each player's left neighbour is the next seat (the last
    /// seat's is the first).
    pub players: Vec<String>,
    /// Copies of each card kind: 6 (54 cards, 7 rounds) or 5 for the variant (45 cards,
    /// 6 rounds) (P1).
    #[serde(default = "default_copies")]
    pub copies: u8,
    /// The first round's dealer, a seat (P4). The `privates-dealer` draw's result k gives seat
    /// k − 1 (see [`crate::draw::dealer_seat`]).
    pub dealer: Seat,
    /// Audited play: the shuffled deck as card costs, top card first (the `privates-deck`
    /// draw, P16). Manual play: `None`, and each round's cards are dealt by the moderator.
    #[serde(default)]
    pub deck: Option<Vec<u32>>,
}

impl Setup {
    /// A manual-play setup with the standard deck.
    pub fn manual(players: &[&str], dealer: Seat) -> Setup {
        Setup {
            players: players.iter().map(|p| p.to_string()).collect(),
            copies: DEFAULT_COPIES,
            dealer,
            deck: None,
        }
    }

    /// An audited-play setup with the standard deck, shuffled as given.
    pub fn audited(players: &[&str], dealer: Seat, deck: Vec<u32>) -> Setup {
        Setup {
            deck: Some(deck),
            ..Setup::manual(players, dealer)
        }
    }

    /// Checks the setup: the trimmed names in seat order on success.
    pub fn validate(&self) -> Result<Vec<String>, SetupError> {
        let count = self.players.len();
        if !(MIN_PLAYERS..=MAX_PLAYERS).contains(&count) {
            return Err(SetupError::PlayerCount {
                count,
                ruling: Ruling::P3,
            });
        }
        let mut names: Vec<String> = Vec::with_capacity(count);
        for name in &self.players {
            let name = name.trim();
            if name.is_empty() {
                return Err(SetupError::PlayerName {
                    name: String::new(),
                    ruling: Ruling::P3,
                });
            }
            if names.iter().any(|other| other.eq_ignore_ascii_case(name)) {
                return Err(SetupError::PlayerName {
                    name: name.to_string(),
                    ruling: Ruling::P3,
                });
            }
            names.push(name.to_string());
        }
        if self.copies != DEFAULT_COPIES && self.copies != VARIANT_COPIES {
            return Err(SetupError::Copies {
                copies: self.copies,
                ruling: Ruling::P1,
            });
        }
        if self.dealer >= count {
            return Err(SetupError::Dealer {
                number: self.dealer as u64 + 1,
                players: count,
                ruling: Ruling::P4,
            });
        }
        if let Some(deck) = &self.deck {
            check_deck(deck, self.copies)?;
        }
        Ok(names)
    }
}

/// Checks a shuffled deck: `copies` cards of each of the nine costs (P1, P16).
pub(crate) fn check_deck(deck: &[u32], copies: u8) -> Result<(), SetupError> {
    let expected = COSTS.len() * copies as usize;
    if deck.len() != expected {
        return Err(SetupError::DeckSize {
            given: deck.len(),
            expected,
            ruling: Ruling::P16,
        });
    }
    let mut counts = CostCounts::default();
    for &cost in deck {
        let i = cost_index(cost).ok_or(SetupError::DeckCard {
            cost,
            ruling: Ruling::P1,
        })?;
        counts.0[i] = counts.0[i].saturating_add(1);
    }
    for (cost, n) in counts.iter() {
        if n != copies {
            return Err(SetupError::DeckCopies {
                cost,
                given: deck.iter().filter(|&&c| c == cost).count(),
                expected: copies,
                ruling: Ruling::P1,
            });
        }
    }
    Ok(())
}
