//! Place Railway Track and Place a Special Interest: costs, connection, the build shorthand and
//! the Major City Dividend (rulings 12–16).

use std::sync::LazyLock;

use crate::action::Action;
use crate::board::{Board, HexId, MAJOR_CITIES};
use crate::error::{PlayError, Reason, Rule};
use crate::event::{Event, Seat};
use crate::game::{Game, BUILD_BUDGET_HALF_POINTS, MAJOR_CITY_DIVIDEND};
use crate::hexset::HexSet;
use crate::railway::{Colour, Railway};

/// Belfast, Dublin and Galway as a set (looked up by name once).
static MAJOR_HEXES: LazyLock<HexSet> = LazyLock::new(|| {
    MAJOR_CITIES
        .iter()
        .map(|name| Board::get().named(name))
        .collect()
});

pub use crate::board::format_half_points;

/// Whether every hex of `track` is joined to `start` through hexes of `track`.
pub fn is_connected(track: &HexSet, start: HexId) -> bool {
    reachable(track, start) == *track
}

/// The hexes of `track` joined to `start` through `track`.
fn reachable(track: &HexSet, start: HexId) -> HexSet {
    let mut seen: HexSet = [start].into_iter().collect();
    let mut frontier = seen;
    while !frontier.is_empty() {
        let next = frontier.neighbours().intersection(track).difference(&seen);
        seen = seen.union(&next);
        frontier = next;
    }
    seen
}

impl Game {
    /// Checks a build and returns the hexes to place: the listed ones, or with the shorthand
    /// the unique cheapest set that connects them (ruling 13, 14).
    pub(crate) fn resolve_build(
        &self,
        seat: Seat,
        railway: Railway,
        hexes: &[HexId],
    ) -> Result<Vec<HexId>, PlayError> {
        let state = &self.railways[railway.index()];
        if state.held_by(seat) == 0 {
            return Err(PlayError::illegal(
                Rule::ShareNeeded,
                Reason::NoShare {
                    player: self.name(seat).to_string(),
                    railway,
                },
            ));
        }
        if state.unplaced() == 0 {
            return Err(PlayError::illegal(
                Rule::Locomotives,
                Reason::AllPlaced { railway },
            ));
        }
        if hexes.is_empty() {
            return Err(PlayError::illegal(Rule::BuildPoints, Reason::EmptyBuild));
        }
        let mut listed = HexSet::EMPTY;
        for &hex in hexes {
            if !listed.insert(hex) {
                return Err(PlayError::illegal(
                    Rule::OneLocomotivePerHex,
                    Reason::ListedTwice { hex },
                ));
            }
        }
        let cost = self.cost_of(railway, hexes)?;
        if hexes.len() > state.unplaced() as usize {
            return Err(PlayError::illegal(
                Rule::Locomotives,
                Reason::TooFewLocomotives {
                    railway,
                    left: state.unplaced(),
                    wanted: hexes.len(),
                },
            ));
        }
        if cost > BUILD_BUDGET_HALF_POINTS {
            return Err(PlayError::illegal(
                Rule::BuildPoints,
                Reason::OverBudget {
                    cost_half_points: cost,
                },
            ));
        }
        let after = state.track.union(&listed);
        if is_connected(&after, railway.start()) {
            return Ok(hexes.to_vec());
        }
        self.shorthand(railway, hexes, listed, cost)
    }

    /// Sum of the costs of placing in these hexes now.
    fn cost_of(&self, railway: Railway, hexes: &[HexId]) -> Result<u8, PlayError> {
        hexes
            .iter()
            .try_fold(0u8, |sum, &h| Ok(sum + self.build_cost(railway, h)?))
    }

    /// The build shorthand: the unique cheapest set of extra hexes within the budget that
    /// joins the listed hexes to the railway's track.
    fn shorthand(
        &self,
        railway: Railway,
        hexes: &[HexId],
        listed: HexSet,
        listed_cost: u8,
    ) -> Result<Vec<HexId>, PlayError> {
        let state = &self.railways[railway.index()];
        let after = state.track.union(&listed);
        let unreached = after.difference(&reachable(&after, railway.start()));
        let no_connection = || {
            let first = unreached.iter().next().unwrap_or(hexes[0]);
            let adjacent = !first.hex().neighbour_set.intersection(&after).is_empty();
            if adjacent || unreached.len() > 1 {
                PlayError::illegal(
                    Rule::Connection,
                    Reason::WouldNotConnect {
                        hex: first,
                        railway,
                        start: railway.start(),
                    },
                )
            } else {
                PlayError::illegal(
                    Rule::Connection,
                    Reason::NoPathReaches {
                        railway,
                        hex: first,
                    },
                )
            }
        };
        let budget = BUILD_BUDGET_HALF_POINTS - listed_cost;
        let spare = (state.unplaced() as usize).saturating_sub(hexes.len());
        let max_extra = (budget / 2) as usize;
        if max_extra == 0 || spare == 0 {
            return Err(no_connection());
        }
        // Candidates: buildable hexes within two steps of the track or the listed hexes.
        let near = after.neighbours();
        let near = near.union(&near.neighbours()).difference(&after);
        let candidates: Vec<(HexId, u8)> = near
            .iter()
            .filter_map(|h| self.build_cost(railway, h).ok().map(|c| (h, c)))
            .filter(|(_, c)| *c <= budget)
            .collect();
        let mut best: Option<u8> = None;
        let mut options: Vec<Vec<HexId>> = Vec::new();
        let mut consider = |extra: &[HexId], cost: u8| {
            let mut track = after;
            for &h in extra {
                track.insert(h);
            }
            if !is_connected(&track, railway.start()) {
                return;
            }
            match best {
                Some(b) if cost > b => {}
                Some(b) if cost == b => options.push(extra.to_vec()),
                _ => {
                    best = Some(cost);
                    options = vec![extra.to_vec()];
                }
            }
        };
        for (i, &(a, ca)) in candidates.iter().enumerate() {
            consider(&[a], ca);
            if max_extra < 2 || spare < 2 {
                continue;
            }
            for (j, &(b, cb)) in candidates.iter().enumerate().skip(i + 1) {
                if ca + cb <= budget {
                    consider(&[a, b], ca + cb);
                }
                if max_extra < 3 || spare < 3 {
                    continue;
                }
                for &(c, cc) in candidates.iter().skip(j + 1) {
                    if ca + cb + cc <= budget {
                        consider(&[a, b, c], ca + cb + cc);
                    }
                }
            }
        }
        let with_extra = |extra: &Vec<HexId>| {
            let mut all = extra.clone();
            all.sort_by_key(|h| distance_order(state.track, *h));
            all.extend_from_slice(hexes);
            all
        };
        match options.len() {
            0 => Err(no_connection()),
            1 => Ok(with_extra(&options[0])),
            _ => {
                let cost = best.unwrap_or(0) + listed_cost;
                Err(PlayError::Ambiguous {
                    count: options.len(),
                    cost_half_points: cost,
                    targets: hexes.to_vec(),
                    options: options
                        .iter()
                        .map(|extra| Action::Build {
                            railway,
                            hexes: with_extra(extra),
                        })
                        .collect(),
                })
            }
        }
    }

    /// Places checked locomotives and pays the Major City Dividend if earned (ruling 15).
    pub(crate) fn apply_build(
        &mut self,
        railway: Railway,
        hexes: &[HexId],
        events: &mut Vec<Event>,
    ) {
        let costs: Vec<(HexId, u8)> = hexes
            .iter()
            .map(|&h| (h, self.build_cost(railway, h).unwrap_or(0)))
            .collect();
        let state = &mut self.railways[railway.index()];
        for &hex in hexes {
            state.track.insert(hex);
        }
        events.push(Event::LocomotivesPlaced {
            railway,
            half_points: costs.iter().map(|(_, c)| c).sum(),
            hexes: costs,
            unplaced: state.unplaced(),
        });
        let all_majors = state.track.intersection(&MAJOR_HEXES) == *MAJOR_HEXES;
        if all_majors && !state.major_bonus_paid {
            state.major_bonus_paid = true;
            let (per_share, payouts) = self.pay(railway, MAJOR_CITY_DIVIDEND);
            events.push(Event::MajorCityDividend {
                railway,
                per_share,
                payouts,
            });
        }
    }

    /// Ruling 16.
    pub(crate) fn check_interest(
        &self,
        seat: Seat,
        town: HexId,
        colour: Colour,
    ) -> Result<(), PlayError> {
        if !town.hex().terrain.is_urban() {
            return Err(PlayError::illegal(
                Rule::SpecialInterest,
                Reason::NotATown { hex: town },
            ));
        }
        if let Some(cube) = self.cube(town) {
            return Err(PlayError::illegal(
                Rule::SpecialInterest,
                Reason::AlreadyACity { hex: town, cube },
            ));
        }
        let connected = Railway::ALL.into_iter().any(|r| {
            let state = &self.railways[r.index()];
            state.held_by(seat) > 0 && state.track.contains(town)
        });
        if !connected {
            return Err(PlayError::illegal(
                Rule::SpecialInterest,
                Reason::NoTrackThere {
                    player: self.name(seat).to_string(),
                    hex: town,
                },
            ));
        }
        if self.supply.get(colour) == 0 {
            return Err(PlayError::illegal(
                Rule::SpecialInterest,
                Reason::NoCubeLeft {
                    colour,
                    supply: self.supply,
                },
            ));
        }
        Ok(())
    }
}

/// Orders shorthand hexes so that those next to the existing track come first.
fn distance_order(track: HexSet, hex: HexId) -> (bool, u8) {
    (!track.neighbours().contains(hex), hex.0)
}
