//! Builds a railway can make this turn (rulings 12–14): every connected set of up to three new
//! hexes within 3 BP, or one good set grown hex by hex (for rollouts).

use irish_gauge::game::BUILD_BUDGET_HALF_POINTS;
use irish_gauge::{Game, HexId, HexSet, Railway, Terrain};

use crate::outlook::Outlook;
use crate::rng::Rng;

/// One possible build with its estimated worth per call afterwards.
#[derive(Debug, Clone)]
pub(crate) struct Build {
    /// The hexes, each next to the track or an earlier one.
    pub hexes: Vec<HexId>,
    /// The railway's worth per call after the build.
    pub worth: f64,
    /// Whether the build earns the Major City Dividend.
    pub bonus: bool,
}

/// Costs of placing for one railway now, in half build points (ruling 13).
struct Costs {
    own: HexSet,
    others: HexSet,
}

impl Costs {
    fn new(game: &Game, railway: Railway) -> Costs {
        let others = Railway::ALL
            .into_iter()
            .filter(|&r| r != railway)
            .fold(HexSet::EMPTY, |all, r| all.union(&game.railway(r).track));
        Costs {
            own: game.railway(railway).track,
            others,
        }
    }

    fn of(&self, hex: HexId) -> Option<u8> {
        match (hex.hex().terrain, self.others.contains(hex)) {
            (Terrain::Difficult, true) => None,
            (Terrain::Difficult, false) => Some(4),
            (_, true) => Some(3),
            (_, false) => Some(2),
        }
    }

    /// Hexes next to the track and `added`, not yet taken, with their costs.
    fn frontier(&self, added: &HexSet) -> impl Iterator<Item = (HexId, u8)> + '_ {
        let track = self.own.union(added);
        let open = track.neighbours().difference(&track);
        open.iter()
            .filter_map(move |hex| self.of(hex).map(|cost| (hex, cost)))
            .collect::<Vec<_>>()
            .into_iter()
    }
}

/// Every build of a railway: connected sets of 1 to 3 new hexes within the budget and the
/// locomotives left.
pub(crate) fn all_builds(game: &Game, outlook: &Outlook, railway: Railway) -> Vec<Build> {
    let unplaced = game.railway(railway).unplaced() as usize;
    let costs = Costs::new(game, railway);
    let mut seen: Vec<HexSet> = Vec::new();
    let mut builds = Vec::new();
    let mut stack: Vec<(Vec<HexId>, HexSet, u8)> = vec![(Vec::new(), HexSet::EMPTY, 0)];
    while let Some((hexes, set, spent)) = stack.pop() {
        if hexes.len() >= unplaced.min(3) {
            continue;
        }
        for (hex, cost) in costs.frontier(&set) {
            if spent + cost > BUILD_BUDGET_HALF_POINTS {
                continue;
            }
            let mut next_set = set;
            next_set.insert(hex);
            if seen.contains(&next_set) {
                continue;
            }
            seen.push(next_set);
            let mut next = hexes.clone();
            next.push(hex);
            let (worth, bonus) = outlook.worth_with(game, railway, &next);
            builds.push(Build {
                hexes: next.clone(),
                worth,
                bonus,
            });
            stack.push((next, next_set, spent + cost));
        }
    }
    builds
}

/// One build grown hex by hex, each time the hex with the most worth gained per build point
/// (with noise), stopping when no hex adds worth.
pub(crate) fn grown_build(
    game: &Game,
    outlook: &Outlook,
    railway: Railway,
    rng: &mut Rng,
    noise: f64,
) -> Option<Build> {
    let unplaced = game.railway(railway).unplaced() as usize;
    let costs = Costs::new(game, railway);
    let mut hexes: Vec<HexId> = Vec::new();
    let mut set = HexSet::EMPTY;
    let mut spent = 0u8;
    let mut current = (outlook.rails[railway.index()].worth, false);
    while hexes.len() < unplaced.min(3) {
        let mut best: Option<(f64, HexId, u8, (f64, bool))> = None;
        for (hex, cost) in costs.frontier(&set) {
            if spent + cost > BUILD_BUDGET_HALF_POINTS {
                continue;
            }
            hexes.push(hex);
            let after = outlook.worth_with(game, railway, &hexes);
            hexes.pop();
            let gain = (after.0 - current.0) / cost as f64 * (1.0 + noise * rng.signed())
                + if after.1 { 1.0 } else { 0.0 };
            if best.as_ref().is_none_or(|b| gain > b.0) {
                best = Some((gain, hex, cost, after));
            }
        }
        match best {
            Some((gain, hex, cost, after)) if gain > 0.0 => {
                hexes.push(hex);
                set.insert(hex);
                spent += cost;
                current = after;
            }
            _ => break,
        }
    }
    (!hexes.is_empty()).then_some(Build {
        hexes,
        worth: current.0,
        bonus: current.1,
    })
}
