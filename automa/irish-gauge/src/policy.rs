//! The heuristic policy: every option scored in pounds from the [`Outlook`] (the greedy player
//! plays the best score; rollouts play a noisy best score; the search takes the best few as its
//! candidates). A score is this seat's expected gain less half the others' mean gain
//! ([`crate::outlook::RIVALRY`]).

use irish_gauge::{Action, Game, LegalActions, Railway, Seat};

use crate::builds::{all_builds, grown_build, Build};
use crate::outlook::{Outlook, MAJOR_BONUS};
use crate::reason::Reason;
use crate::rng::Rng;

/// An option with its score in pounds and the reason it would be played.
#[derive(Debug, Clone)]
pub(crate) struct Scored {
    /// The move.
    pub action: Action,
    /// Its heuristic score.
    pub score: f64,
    /// Why, if played.
    pub reason: Reason,
}

/// How builds are listed.
pub(crate) enum BuildSearch<'a> {
    /// Every build (the greedy player, the search's candidates).
    All,
    /// One grown build per railway, with noise (rollouts).
    Grown(&'a mut Rng, f64),
}

/// Rounds pounds for a reason.
fn pounds(value: f64) -> u32 {
    value.max(0.0).round() as u32
}

/// A share's worth to `seat` (face value plus its estimated gain).
fn share_value(outlook: &Outlook, railway: Railway, seat: Seat, face: u32) -> f64 {
    face as f64 + outlook.share_gain(railway, seat)
}

/// The options in an auction: pass, or bid from the least bid upwards (at most `extra` higher
/// bids up to the share's worth), best first.
pub(crate) fn bid_options(game: &Game, seat: Seat, outlook: &Outlook, extra: usize) -> Vec<Scored> {
    let LegalActions::Bidding {
        railway, min, max, ..
    } = game.legal_actions()
    else {
        return Vec::new();
    };
    let face = game
        .available_shares(railway)
        .first()
        .copied()
        .unwrap_or(min);
    let value = share_value(outlook, railway, seat, face);
    // A pass says the share is worth less than the least bid only when it is.
    let pass_reason = if pounds(value) < min {
        Reason::PriceAboveValue {
            railway,
            price: min,
            value: pounds(value),
        }
    } else {
        Reason::Simulated {
            railway,
            price: min,
            value: pounds(value),
            pass: true,
        }
    };
    let mut options = vec![Scored {
        action: Action::Pass,
        score: 0.0,
        reason: pass_reason,
    }];
    let top = (value.floor().max(0.0) as u32).min(max);
    let mut amounts = vec![min];
    if top > min && extra > 0 {
        for step in 1..=extra as u32 {
            amounts.push(min + (top - min) * step / extra as u32);
        }
    }
    amounts.dedup();
    for amount in amounts {
        options.push(Scored {
            action: Action::Bid { amount },
            score: value - amount as f64,
            reason: bid_reason(railway, amount, value),
        });
    }
    options.sort_by(|a, b| b.score.total_cmp(&a.score));
    options
}

/// Why a bid (or an auction opened) at `price` for a share worth `value`: worth more than the
/// price only when it is.
fn bid_reason(railway: Railway, price: u32, value: f64) -> Reason {
    if pounds(value) >= price {
        Reason::ValueAbovePrice {
            railway,
            price,
            value: pounds(value),
        }
    } else {
        Reason::Simulated {
            railway,
            price,
            value: pounds(value),
            pass: false,
        }
    }
}

/// Why a build: the railway's expected income per call, counting the cities its track nears,
/// grows from `before` to `after` (a gain of at least a pound), or the track only approaches.
fn build_reason(railway: Railway, locomotives: u8, before: f64, after: f64) -> Reason {
    if pounds(after) > pounds(before) {
        Reason::Extends {
            railway,
            locomotives,
            income_before: pounds(before),
            income_after: pounds(after),
        }
    } else {
        Reason::Approaches {
            railway,
            locomotives,
            gains: after > before,
        }
    }
}

/// The options on a turn, best first.
pub(crate) fn turn_options(
    game: &Game,
    seat: Seat,
    outlook: &Outlook,
    mut builds: BuildSearch<'_>,
) -> Vec<Scored> {
    let LegalActions::Turn {
        auctions,
        builds: build_options,
        interests,
        ..
    } = game.legal_actions()
    else {
        return Vec::new();
    };
    let mut options = Vec::new();
    let calls = outlook.calls_left;

    let (mut now, mut mine) = (0.0, 0.0);
    for railway in Railway::ALL {
        let income = outlook.rails[railway.index()].income;
        now += income * outlook.stake(railway, seat);
        mine += income * outlook.fraction(railway, seat);
    }
    options.push(Scored {
        action: Action::CallDividends,
        score: now,
        reason: Reason::Dividends {
            expected: pounds(mine),
        },
    });

    for option in &build_options {
        let railway = option.railway;
        let rail = &outlook.rails[railway.index()];
        let stake = outlook.stake(railway, seat);
        let score_of = |build: &Build| {
            (build.worth - rail.worth) * calls * stake
                + if build.bonus {
                    MAJOR_BONUS * stake
                } else {
                    0.0
                }
        };
        let found: Vec<Build> = match &mut builds {
            BuildSearch::All => all_builds(game, outlook, railway),
            BuildSearch::Grown(rng, noise) => grown_build(game, outlook, railway, rng, *noise)
                .into_iter()
                .collect(),
        };
        for build in found {
            options.push(Scored {
                score: score_of(&build),
                reason: build_reason(railway, build.hexes.len() as u8, rail.worth, build.worth),
                action: Action::Build {
                    railway,
                    hexes: build.hexes,
                },
            });
        }
    }

    for interest in &interests {
        for &colour in &interest.colours {
            let mut score = 0.0;
            for railway in Railway::ALL {
                let rail = &outlook.rails[railway.index()];
                if !rail.track.contains(interest.town) {
                    continue;
                }
                let mut cities = rail.cities;
                cities[colour.index()] += 1;
                let gain = outlook.income(cities, rail.towns.saturating_sub(1)) - rail.income;
                score += gain * calls * outlook.stake(railway, seat);
            }
            options.push(Scored {
                action: Action::SpecialInterest {
                    town: interest.town,
                    colour,
                },
                score,
                reason: Reason::NewCity {
                    town: interest.town,
                    colour,
                },
            });
        }
    }

    for auction in &auctions {
        let value = share_value(outlook, auction.railway, seat, auction.face);
        options.push(Scored {
            action: Action::Auction {
                railway: auction.railway,
                opening_bid: None,
            },
            score: value - auction.face as f64,
            reason: bid_reason(auction.railway, auction.face, value),
        });
    }
    options.sort_by(|a, b| b.score.total_cmp(&a.score));
    options
}

/// The greedy player's move: the best-scored option (builds: every one considered).
pub(crate) fn greedy(game: &Game, seat: Seat) -> Option<Scored> {
    let outlook = Outlook::of(game);
    let options = match game.legal_actions() {
        LegalActions::Bidding { .. } => bid_options(game, seat, &outlook, 0),
        LegalActions::Turn { .. } => turn_options(game, seat, &outlook, BuildSearch::All),
        _ => return None,
    };
    options.into_iter().next()
}

/// How much the rollout policy's scores are shaken, as a fraction.
const ROLLOUT_NOISE: f64 = 0.3;
/// The chance that the rollout policy plays a random legal move.
const ROLLOUT_RANDOM: f64 = 0.05;

/// The rollout policy's move: a noisy best score, sometimes a random move.
pub(crate) fn rollout(game: &Game, seat: Seat, rng: &mut Rng) -> Option<Action> {
    if rng.unit() < ROLLOUT_RANDOM {
        return irish_gauge::playout::random_action(game, &mut |n| rng.below(n));
    }
    let outlook = Outlook::of(game);
    match game.legal_actions() {
        LegalActions::Bidding {
            railway, min, max, ..
        } => {
            let face = game
                .available_shares(railway)
                .first()
                .copied()
                .unwrap_or(min);
            let value = share_value(&outlook, railway, seat, face);
            let value = value * (1.0 + ROLLOUT_NOISE * rng.signed());
            Some(if (min as f64) <= value && min <= max {
                Action::Bid { amount: min }
            } else {
                Action::Pass
            })
        }
        LegalActions::Turn { .. } => {
            let mut noise_rng = Rng::new(rng.next_u64());
            let options = turn_options(
                game,
                seat,
                &outlook,
                BuildSearch::Grown(&mut noise_rng, ROLLOUT_NOISE),
            );
            options
                .into_iter()
                .map(|o| {
                    let shaken = o.score + o.score.abs() * ROLLOUT_NOISE * rng.signed();
                    (shaken, o.action)
                })
                .max_by(|a, b| a.0.total_cmp(&b.0))
                .map(|(_, action)| action)
        }
        _ => None,
    }
}
