//! A static estimate of the position, in pounds: what each railway is expected to pay per
//! dividend call now (its income) and may pay once its track grows (its worth), and how many
//! calls are left. The greedy player, the rollout policy and the reasons all read it.

use std::sync::LazyLock;

use irish_gauge::board::HEX_COUNT;
use irish_gauge::odds::{draw_count, draw_outcomes};
use irish_gauge::{Board, CubeCounts, Game, HexId, HexSet, Railway, Seat};

/// Seats at most (ruling 22).
pub(crate) const MAX_SEATS: usize = 5;
/// How much a hex's value shrinks per step of distance from a railway's track.
const DECAY: f64 = 0.5;
/// Distances beyond this count for nothing.
const HORIZON: u8 = 6;
/// What a town is worth per call when it is on track (its £2, most calls, plus the chance of a
/// special interest making it a city).
const TOWN_VALUE: f64 = 1.6;
/// The Major City Dividend, in pounds.
pub(crate) const MAJOR_BONUS: f64 = 12.0;

/// The urban hexes and every hex's distance (in steps) to each of them.
struct Geometry {
    urban: Vec<HexId>,
    /// `distance[hex][u]`: steps from `hex` to the urban hex `urban[u]`.
    distance: Vec<Vec<u8>>,
    majors: HexSet,
}

static GEOMETRY: LazyLock<Geometry> = LazyLock::new(|| {
    let board = Board::get();
    let urban: Vec<HexId> = board.urban.iter().collect();
    let mut distance = vec![vec![u8::MAX; urban.len()]; HEX_COUNT];
    for (u, &target) in urban.iter().enumerate() {
        let mut seen: HexSet = [target].into_iter().collect();
        let mut ring = seen;
        let mut step = 0u8;
        while !ring.is_empty() {
            for hex in ring.iter() {
                distance[hex.index()][u] = step;
            }
            ring = ring.neighbours().difference(&seen);
            seen = seen.union(&ring);
            step = step.saturating_add(1);
        }
    }
    let majors = irish_gauge::board::MAJOR_CITIES
        .iter()
        .map(|name| board.named(name))
        .collect();
    Geometry {
        urban,
        distance,
        majors,
    }
});

/// One railway's figures.
#[derive(Debug, Clone)]
pub(crate) struct Rail {
    /// Paying-city count on its track by colour.
    pub cities: [u8; 3],
    /// Towns on its track.
    pub towns: u8,
    /// Steps from its track to each urban hex (0 on the track).
    pub distance: Vec<u8>,
    /// Shares sold to players.
    pub sold: u32,
    /// Shares held, seat by seat.
    pub held: [u32; MAX_SEATS],
    /// Expected income per dividend call now, in pounds.
    pub income: f64,
    /// Income plus the discounted value of urban hexes within reach.
    pub worth: f64,
    /// Its track.
    pub track: HexSet,
    /// Whether the Major City Dividend is still to be earned.
    pub bonus_open: bool,
}

/// The estimate of a whole position.
#[derive(Debug, Clone)]
pub(crate) struct Outlook {
    /// The chance that the set of paying colours of the next call is each bit mask.
    pub paying: [f64; 8],
    /// The chance that each colour pays at the next call.
    pub colour_chance: [f64; 3],
    /// Dividend calls still to come (supply / 3).
    pub calls_left: f64,
    /// The railways in [`Railway::ALL`] order.
    pub rails: Vec<Rail>,
    /// Seats at the table.
    pub seats: usize,
}

/// A railway's income for a set of paying colours (ruling 18).
fn income_for(cities: [u8; 3], towns: u8, mask: usize) -> u32 {
    let p: u32 = (0..3)
        .filter(|c| mask & (1 << c) != 0)
        .map(|c| cities[c] as u32)
        .sum();
    let t = towns as u32;
    if (p >= 1 && t >= 1) || p >= 2 {
        4 * p + 2 * t
    } else {
        0
    }
}

/// The chance of each set of paying colours for a draw of min(3, supply) cubes (ruling 17),
/// for every supply of up to 10 cubes a colour, worked out once from the engine's exact odds.
static PAYING_CHANCES: LazyLock<Vec<[f64; 8]>> = LazyLock::new(|| {
    let mut table = vec![[0.0; 8]; 11 * 11 * 11];
    for (index, chances) in table.iter_mut().enumerate() {
        let supply = CubeCounts::from_array([
            (index / 121) as u8,
            (index / 11 % 11) as u8,
            (index % 11) as u8,
        ]);
        let count = draw_count(supply);
        if count == 0 {
            chances[0] = 1.0;
            continue;
        }
        for outcome in draw_outcomes(supply, count) {
            let mask = outcome
                .colours()
                .iter()
                .fold(0, |mask, c| mask | 1 << c.index());
            chances[mask] += outcome.chance.to_f64();
        }
    }
    table
});

/// The chance of each set of paying colours at the next call.
fn paying_chances(supply: CubeCounts) -> [f64; 8] {
    let index = |n: u8| n.min(10) as usize;
    PAYING_CHANCES[index(supply.white) * 121 + index(supply.pink) * 11 + index(supply.black)]
}

impl Outlook {
    /// The estimate of a position.
    pub fn of(game: &Game) -> Outlook {
        let paying = paying_chances(game.supply());
        let mut colour_chance = [0.0; 3];
        for (mask, chance) in paying.iter().enumerate() {
            for (c, slot) in colour_chance.iter_mut().enumerate() {
                if mask & (1 << c) != 0 {
                    *slot += chance;
                }
            }
        }
        let seats = game.players().len();
        let mut outlook = Outlook {
            paying,
            colour_chance,
            calls_left: game.supply().total() as f64 / 3.0,
            rails: Vec::with_capacity(5),
            seats,
        };
        let geometry = &*GEOMETRY;
        for railway in Railway::ALL {
            let state = game.railway(railway);
            let mut held = [0; MAX_SEATS];
            for owner in state.owners.iter().flatten() {
                held[*owner] += 1;
            }
            let mut distance = vec![u8::MAX; geometry.urban.len()];
            for hex in state.track.iter() {
                for (d, &from) in distance.iter_mut().zip(&geometry.distance[hex.index()]) {
                    *d = (*d).min(from);
                }
            }
            let mut rail = Rail {
                cities: [0; 3],
                towns: 0,
                distance,
                sold: state.sold(),
                held,
                income: 0.0,
                worth: 0.0,
                track: state.track,
                bonus_open: !state.major_bonus_paid,
            };
            let (cities, towns) = outlook.counts(game, &rail.distance);
            rail.cities = cities;
            rail.towns = towns;
            rail.income = outlook.income(cities, towns);
            rail.worth = outlook.worth(game, cities, towns, &rail.distance);
            outlook.rails.push(rail);
        }
        outlook
    }

    /// Cities by colour and towns on a track given by its distances.
    fn counts(&self, game: &Game, distance: &[u8]) -> ([u8; 3], u8) {
        let mut cities = [0u8; 3];
        let mut towns = 0u8;
        for (&hex, &d) in GEOMETRY.urban.iter().zip(distance) {
            if d == 0 {
                match game.cube(hex) {
                    Some(colour) => cities[colour.index()] += 1,
                    None => towns += 1,
                }
            }
        }
        (cities, towns)
    }

    /// Expected income per call.
    pub fn income(&self, cities: [u8; 3], towns: u8) -> f64 {
        self.paying
            .iter()
            .enumerate()
            .map(|(mask, chance)| chance * income_for(cities, towns, mask) as f64)
            .sum()
    }

    /// Income plus the discounted value of what the track may still reach.
    fn worth(&self, game: &Game, cities: [u8; 3], towns: u8, distance: &[u8]) -> f64 {
        let mut potential = 0.0;
        for (&hex, &d) in GEOMETRY.urban.iter().zip(distance) {
            if d == 0 || d > HORIZON {
                continue;
            }
            let value = match game.cube(hex) {
                Some(colour) => 4.0 * self.colour_chance[colour.index()],
                None => TOWN_VALUE,
            };
            potential += value * DECAY.powi(d as i32);
        }
        self.income(cities, towns) + potential
    }

    /// A railway's worth per call if these hexes were added to its track, and whether that
    /// earns the Major City Dividend.
    pub fn worth_with(&self, game: &Game, railway: Railway, added: &[HexId]) -> (f64, bool) {
        let rail = &self.rails[railway.index()];
        let mut distance = rail.distance.clone();
        let mut track = rail.track;
        for &hex in added {
            track.insert(hex);
            for (d, &from) in distance.iter_mut().zip(&GEOMETRY.distance[hex.index()]) {
                *d = (*d).min(from);
            }
        }
        let (cities, towns) = self.counts(game, &distance);
        let majors = GEOMETRY.majors;
        let bonus = rail.bonus_open && track.intersection(&majors) == majors;
        (self.worth(game, cities, towns, &distance), bonus)
    }

    /// The part of a railway's dividends that goes to a seat (0 when nobody holds a share).
    pub fn fraction(&self, railway: Railway, seat: Seat) -> f64 {
        let rail = &self.rails[railway.index()];
        if rail.sold == 0 {
            0.0
        } else {
            rail.held[seat] as f64 / rail.sold as f64
        }
    }

    /// How much a gain of one pound to a railway's holders is worth to `seat`, against the
    /// others: its own part less half the others' mean part.
    pub fn stake(&self, railway: Railway, seat: Seat) -> f64 {
        let others: f64 = (0..self.seats)
            .filter(|&s| s != seat)
            .map(|s| self.fraction(railway, s))
            .sum();
        self.fraction(railway, seat) - RIVALRY * others / (self.seats - 1).max(1) as f64
    }

    /// Expected worth of one more share of a railway to `seat` beyond its face value, in
    /// pounds: its part of the future dividends grows, the others' parts shrink.
    pub fn share_gain(&self, railway: Railway, seat: Seat) -> f64 {
        let rail = &self.rails[railway.index()];
        let future = rail.worth * self.calls_left.max(0.5);
        let sold = rail.sold as f64;
        let mine = rail.held[seat] as f64;
        let before = if sold > 0.0 { mine / sold } else { 0.0 };
        let after = (mine + 1.0) / (sold + 1.0);
        let others_loss: f64 = (0..self.seats)
            .filter(|&s| s != seat)
            .map(|s| {
                let theirs = rail.held[s] as f64;
                if sold > 0.0 {
                    theirs / sold - theirs / (sold + 1.0)
                } else {
                    0.0
                }
            })
            .sum();
        future * ((after - before) + RIVALRY * others_loss / (self.seats - 1).max(1) as f64)
    }
}

/// How much the greedy player minds the others' gains (0: not at all, 1: as much as its own).
pub(crate) const RIVALRY: f64 = 0.5;
