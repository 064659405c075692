//! The exact odds of a dividend call, for `!odds`, and the luck of the draws so far.
//!
//! A call for dividends draws three cubes from the supply without replacement, or every cube
//! left when fewer than three remain (ruling 17). Which railways pay depends only on which
//! colours are among the cubes drawn (ruling 18), so the odds are a sum over the distinct
//! unordered multisets of colours that can be drawn, each with its hypergeometric weight.
//! Everything is an exact [`Ratio`]; nothing is sampled.
//!
//! ```
//! use irish_gauge::odds::{odds, Ratio};
//! use irish_gauge::{Colour, Game, Setup};
//!
//! let setup = Setup {
//!     players: vec!["ann".into(), "bob".into(), "cat".into()],
//!     order: vec![1, 2, 3],
//!     cities: [5, 2, 3, 11, 4, 7, 9, 12],
//! };
//! let game = Game::new(&setup).unwrap();
//! // 7 white, 8 pink and 7 black cubes in the supply: a white cube is among three drawn
//! // unless all three come from the 15 others.
//! let odds = odds(&game);
//! assert_eq!(odds.colour(Colour::White), Ratio::new(31, 44));
//! assert_eq!(odds.colour(Colour::White).to_string(), "31/44");
//! ```

use std::cmp::Ordering;
use std::fmt;
use std::iter::Sum;
use std::ops::{Add, AddAssign, Mul};

use crate::event::{Event, Seat};
use crate::game::Game;
use crate::railway::{Colour, CubeCounts, Railway};

// ============================================================================== Ratio

/// An exact non-negative rational number, always in lowest terms.
///
/// Displays as `7/12`, or as a whole number (`3`, `0`) when the denominator is 1.
/// Arithmetic panics on overflow of `u128`, which the sizes of this game never approach.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Ratio {
    numer: u128,
    denom: u128,
}

fn gcd(mut a: u128, mut b: u128) -> u128 {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

fn checked(value: Option<u128>) -> u128 {
    value.expect("Ratio arithmetic overflowed u128")
}

impl Ratio {
    /// Zero.
    pub const ZERO: Ratio = Ratio { numer: 0, denom: 1 };
    /// One.
    pub const ONE: Ratio = Ratio { numer: 1, denom: 1 };

    /// `numer / denom` in lowest terms. Panics if `denom` is zero.
    pub fn new(numer: u128, denom: u128) -> Ratio {
        assert!(denom != 0, "a Ratio's denominator may not be zero");
        let g = gcd(numer, denom);
        Ratio {
            numer: numer / g,
            denom: denom / g,
        }
    }

    /// A whole number.
    pub const fn integer(n: u128) -> Ratio {
        Ratio { numer: n, denom: 1 }
    }

    /// The numerator, in lowest terms.
    pub fn numer(self) -> u128 {
        self.numer
    }

    /// The denominator, in lowest terms (at least 1).
    pub fn denom(self) -> u128 {
        self.denom
    }

    /// Whether this is zero.
    pub fn is_zero(self) -> bool {
        self.numer == 0
    }

    /// The nearest `f64` (as near as dividing the two parts as `f64` gets).
    pub fn to_f64(self) -> f64 {
        self.numer as f64 / self.denom as f64
    }

    /// `self + other`, or `None` on overflow.
    pub fn checked_add(self, other: Ratio) -> Option<Ratio> {
        let g = gcd(self.denom, other.denom);
        let lcm = (self.denom / g).checked_mul(other.denom)?;
        let a = self.numer.checked_mul(lcm / self.denom)?;
        let b = other.numer.checked_mul(lcm / other.denom)?;
        Some(Ratio::new(a.checked_add(b)?, lcm))
    }

    /// `self × other`, or `None` on overflow.
    pub fn checked_mul(self, other: Ratio) -> Option<Ratio> {
        // Cross-reduce first so the products stay small.
        let g1 = gcd(self.numer, other.denom);
        let g2 = gcd(other.numer, self.denom);
        let numer = (self.numer / g1).checked_mul(other.numer / g2)?;
        let denom = (self.denom / g2).checked_mul(other.denom / g1)?;
        Some(Ratio::new(numer, denom))
    }
}

impl Default for Ratio {
    fn default() -> Ratio {
        Ratio::ZERO
    }
}

impl From<u32> for Ratio {
    fn from(n: u32) -> Ratio {
        Ratio::integer(n.into())
    }
}

impl From<u64> for Ratio {
    fn from(n: u64) -> Ratio {
        Ratio::integer(n.into())
    }
}

impl Add for Ratio {
    type Output = Ratio;
    fn add(self, other: Ratio) -> Ratio {
        self.checked_add(other)
            .expect("Ratio arithmetic overflowed u128")
    }
}

impl AddAssign for Ratio {
    fn add_assign(&mut self, other: Ratio) {
        *self = *self + other;
    }
}

impl Mul for Ratio {
    type Output = Ratio;
    fn mul(self, other: Ratio) -> Ratio {
        self.checked_mul(other)
            .expect("Ratio arithmetic overflowed u128")
    }
}

impl Sum for Ratio {
    fn sum<I: Iterator<Item = Ratio>>(iter: I) -> Ratio {
        iter.fold(Ratio::ZERO, Add::add)
    }
}

impl PartialOrd for Ratio {
    fn partial_cmp(&self, other: &Ratio) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ratio {
    fn cmp(&self, other: &Ratio) -> Ordering {
        let left = checked(self.numer.checked_mul(other.denom));
        let right = checked(other.numer.checked_mul(self.denom));
        left.cmp(&right)
    }
}

impl fmt::Display for Ratio {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.denom == 1 {
            write!(f, "{}", self.numer)
        } else {
            write!(f, "{}/{}", self.numer, self.denom)
        }
    }
}

// ============================================================================== Draws

/// The binomial coefficient `n choose k`.
fn choose(n: u8, k: u8) -> u128 {
    if k > n {
        return 0;
    }
    let k = k.min(n - k);
    let mut result: u128 = 1;
    for i in 0..k {
        // Exact at every step: the product of i + 1 consecutive numbers is divisible by (i + 1)!.
        result = result * u128::from(n - i) / u128::from(i + 1);
    }
    result
}

/// The cubes a dividend call draws: three, or every cube left if fewer remain (ruling 17).
pub fn draw_count(supply: CubeCounts) -> u8 {
    supply.total().min(3)
}

/// One possible draw, as an unordered multiset of colours, with its chance.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DrawOutcome {
    /// How many cubes of each colour are drawn.
    pub cubes: CubeCounts,
    /// The chance of drawing exactly these cubes (hypergeometric).
    pub chance: Ratio,
}

impl DrawOutcome {
    /// The distinct colours drawn, in [`Colour::ALL`] order: the colours whose cities pay.
    pub fn colours(&self) -> Vec<Colour> {
        Colour::ALL
            .into_iter()
            .filter(|&c| self.cubes.get(c) > 0)
            .collect()
    }
}

/// Every distinct multiset of `count` cubes that can be drawn from `supply` without
/// replacement, with its chance; the chances add up to 1. Panics if `count` exceeds the supply.
pub fn draw_outcomes(supply: CubeCounts, count: u8) -> Vec<DrawOutcome> {
    assert!(
        count <= supply.total(),
        "cannot draw {count} cubes from a supply of {supply}"
    );
    let all = choose(supply.total(), count);
    let mut outcomes = Vec::new();
    for white in 0..=count.min(supply.white) {
        for pink in 0..=(count - white).min(supply.pink) {
            let black = count - white - pink;
            if black > supply.black {
                continue;
            }
            let ways = choose(supply.white, white)
                * choose(supply.pink, pink)
                * choose(supply.black, black);
            outcomes.push(DrawOutcome {
                cubes: CubeCounts::from_array([white, pink, black]),
                chance: Ratio::new(ways, all),
            });
        }
    }
    outcomes
}

// ============================================================================== Dividends

/// What one railway would pay if the cities of the given colours paid.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RailwayDividend {
    /// The railway.
    pub railway: Railway,
    /// Its income: £4 a paying city and £2 a town, if it has two paying cities or a paying
    /// city and a town; else £0 (ruling 18).
    pub income: u32,
    /// The income over the shares owned by players, rounded up (rulings 1, 18).
    pub per_share: u32,
    /// The pounds each seat receives, by seat.
    pub payouts: Vec<u32>,
}

impl RailwayDividend {
    /// Whether anybody is paid.
    pub fn pays(&self) -> bool {
        self.per_share > 0
    }
}

/// What each railway, in dividend order, would pay in this position if the cubes drawn were
/// of the colours `paying` (repeats make no difference). The same arithmetic as the engine's
/// dividend: [`Game::connections`] for the cities and towns, then income and per-share
/// payout rounded up.
pub fn dividends(game: &Game, paying: &[Colour]) -> Vec<RailwayDividend> {
    let seats = game.players().len();
    Railway::ALL
        .into_iter()
        .map(|railway| {
            let (cities, towns) = game.connections(railway, paying);
            let (p, t) = (cities.len() as u32, towns.len() as u32);
            let earns = (p >= 1 && t >= 1) || p >= 2;
            let income = if earns { 4 * p + 2 * t } else { 0 };
            let state = game.railway(railway);
            let sold = state.sold();
            let per_share = if income == 0 || sold == 0 {
                0
            } else {
                income.div_ceil(sold)
            };
            let payouts = (0..seats)
                .map(|seat| per_share * state.held_by(seat))
                .collect();
            RailwayDividend {
                railway,
                income,
                per_share,
                payouts,
            }
        })
        .collect()
}

// ============================================================================== Odds

/// The exact odds of a dividend call in a position.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Odds {
    /// The supply the cubes come from.
    pub supply: CubeCounts,
    /// How many cubes are drawn.
    pub count: u8,
    /// The chance of each colour being among the cubes drawn, in [`Colour::ALL`] order.
    pub colours: [Ratio; 3],
    /// The chance of each railway paying anything, in [`Railway::ALL`] order.
    pub railways: [Ratio; 5],
    /// Each player's expected payout in pounds from the call, by seat.
    pub expected: Vec<Ratio>,
}

impl Odds {
    /// The chance of a colour being among the cubes drawn.
    pub fn colour(&self, colour: Colour) -> Ratio {
        self.colours[colour.index()]
    }

    /// The chance of a railway paying anything.
    pub fn railway(&self, railway: Railway) -> Ratio {
        self.railways[railway.index()]
    }

    /// A player's expected payout in pounds.
    pub fn expected(&self, seat: Seat) -> Ratio {
        self.expected[seat]
    }
}

/// The odds of a dividend call from this position: for a pending draw, that draw; otherwise a
/// call made now (the supply and the railways as they stand). With an empty supply nothing is
/// drawn and every chance is 0.
pub fn odds(game: &Game) -> Odds {
    let supply = game.supply();
    let count = game
        .pending_draw()
        .map_or_else(|| draw_count(supply), |request| request.count);
    let seats = game.players().len();
    // The dividends depend only on the set of colours drawn: work each set out once.
    let mut by_set: [Option<Vec<RailwayDividend>>; 8] = Default::default();
    let mut colours = [Ratio::ZERO; 3];
    let mut railways = [Ratio::ZERO; 5];
    let mut expected = vec![Ratio::ZERO; seats];
    for outcome in draw_outcomes(supply, count) {
        let drawn = outcome.colours();
        for &c in &drawn {
            colours[c.index()] += outcome.chance;
        }
        let set: usize = drawn.iter().map(|c| 1 << c.index()).sum();
        let paid = by_set[set].get_or_insert_with(|| dividends(game, &drawn));
        for dividend in paid.iter() {
            if dividend.pays() {
                railways[dividend.railway.index()] += outcome.chance;
            }
            for (seat, &amount) in dividend.payouts.iter().enumerate() {
                if amount > 0 {
                    expected[seat] += outcome.chance * Ratio::from(amount);
                }
            }
        }
    }
    Odds {
        supply,
        count,
        colours,
        railways,
        expected,
    }
}

// ============================================================================== Luck

/// What a player received from dividend draws against what they could expect.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Luck {
    /// Pounds received.
    pub received: u64,
    /// Pounds expected (the sum of the expected payouts before each call).
    pub expected: Ratio,
}

impl Luck {
    /// Received minus expected, in pounds: positive for a lucky player.
    pub fn difference(&self) -> f64 {
        self.received as f64 - self.expected.to_f64()
    }
}

/// Totals, by seat, of the dividend calls given as (expected payout of each seat before the
/// call, as from [`odds`], payout each seat received from it, as from [`received`]). A seat
/// missing from a list counts as 0; the result is as long as the longest list.
pub fn luck(calls: &[(Vec<Ratio>, Vec<u32>)]) -> Vec<Luck> {
    let mut totals: Vec<Luck> = Vec::new();
    for (expected, received) in calls {
        let seats = expected.len().max(received.len());
        if totals.len() < seats {
            totals.resize(seats, Luck::default());
        }
        for (total, &e) in totals.iter_mut().zip(expected) {
            total.expected += e;
        }
        for (total, &r) in totals.iter_mut().zip(received) {
            total.received += u64::from(r);
        }
    }
    totals
}

/// The pounds each seat received from the dividends in these events (the events of one
/// [`Game::resolve_draw`]); Major City Dividends are not counted.
pub fn received(events: &[Event], seats: usize) -> Vec<u32> {
    let mut paid = vec![0; seats];
    for event in events {
        if let Event::Dividend { payouts, .. } = event {
            for payout in payouts {
                if let Some(p) = paid.get_mut(payout.player) {
                    *p += payout.amount;
                }
            }
        }
    }
    paid
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_are_kept_in_lowest_terms() {
        assert_eq!(Ratio::new(14, 24), Ratio::new(7, 12));
        assert_eq!(Ratio::new(14, 24).to_string(), "7/12");
        assert_eq!(Ratio::new(6, 2).to_string(), "3");
        assert_eq!(Ratio::new(0, 5).to_string(), "0");
        assert_eq!(Ratio::new(0, 5).denom(), 1);
    }

    #[test]
    fn ratio_arithmetic_is_exact() {
        assert_eq!(Ratio::new(1, 3) + Ratio::new(1, 6), Ratio::new(1, 2));
        assert_eq!(Ratio::new(2, 3) * Ratio::new(9, 4), Ratio::new(3, 2));
        assert_eq!([Ratio::new(1, 4); 4].into_iter().sum::<Ratio>(), Ratio::ONE);
        assert!(Ratio::new(1, 3) < Ratio::new(1, 2));
        assert_eq!(Ratio::new(3, 4).to_f64(), 0.75);
    }

    #[test]
    #[should_panic(expected = "zero")]
    fn a_zero_denominator_is_refused() {
        let _ = Ratio::new(1, 0);
    }

    #[test]
    fn binomials() {
        assert_eq!(choose(22, 3), 1540);
        assert_eq!(choose(3, 3), 1);
        assert_eq!(choose(2, 3), 0);
        assert_eq!(choose(0, 0), 1);
        assert_eq!(choose(30, 15), 155_117_520);
    }

    #[test]
    fn draw_outcome_chances_add_up_to_one() {
        for supply in [
            [7, 8, 7],
            [0, 0, 1],
            [2, 0, 0],
            [1, 1, 1],
            [0, 5, 0],
            [10, 10, 10],
        ] {
            let supply = CubeCounts::from_array(supply);
            let outcomes = draw_outcomes(supply, draw_count(supply));
            let total: Ratio = outcomes.iter().map(|o| o.chance).sum();
            assert_eq!(total, Ratio::ONE, "{supply}");
        }
    }

    #[test]
    fn nothing_is_drawn_from_an_empty_supply() {
        let outcomes = draw_outcomes(CubeCounts::default(), 0);
        assert_eq!(outcomes.len(), 1);
        assert_eq!(outcomes[0].chance, Ratio::ONE);
        assert!(outcomes[0].colours().is_empty());
    }
}
