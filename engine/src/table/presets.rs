//! Irish Gauge's secret auction presets and automatic pass, for play over weeks.
//!
//! - `pass`: pass every auction the player does not open (in an initial auction the opener
//!   is asked first and decides; in a regular one the auctioneer does).
//! - `max WLW 12`: bid the minimum needed, up to £12, for the WLW share being auctioned now or
//!   next up (its face value is fixed when the preset is set); pass once the bid goes past £12
//!   (or past the player's cash). Spent once that share is sold.
//!
//! The automatic pass (an auction clock that ran out, a player away) is `pass`.

use serde::{Deserialize, Serialize};
use serde_json::Value;

use gaugebot_table::game::{Preset, PresetAnswer};

use crate::{Action, Game, Railway};

/// One stored order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "preset", rename_all = "snake_case")]
pub enum Order {
    /// Pass every auction the player does not open.
    Pass,
    /// Bid the minimum needed, up to `limit`, for the `railway` share of face value `face`.
    Max {
        /// The railway.
        railway: Railway,
        /// The face value of the share aimed at.
        face: u32,
        /// The most to bid.
        limit: u32,
    },
}

/// Why a preset is refused (worded by `refusal.md.j2`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum PresetRefusal {
    /// Not a preset.
    Usage {
        /// What was written.
        text: String,
    },
    /// No such railway.
    UnknownRailway {
        /// What was written.
        given: String,
    },
    /// The limit is more than the player's cash.
    AboveCash {
        /// The limit.
        limit: u32,
        /// The player's cash.
        cash: u32,
    },
    /// The limit is below the share's face value: it could never bid.
    BelowFace {
        /// The railway.
        railway: Railway,
        /// The share's face value.
        face: u32,
        /// The limit.
        limit: u32,
    },
    /// The railway has no share left.
    NoSharesLeft {
        /// The railway.
        railway: Railway,
    },
}

impl std::fmt::Display for PresetRefusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PresetRefusal::Usage { text } => write!(f, "'{text}' is not a preset"),
            PresetRefusal::UnknownRailway { given } => write!(f, "no railway '{given}'"),
            PresetRefusal::AboveCash { limit, cash } => {
                write!(f, "a limit of £{limit} is more than the £{cash} in hand")
            }
            PresetRefusal::BelowFace {
                railway,
                face,
                limit,
            } => write!(f, "£{limit} is below the {railway} share's £{face}"),
            PresetRefusal::NoSharesLeft { railway } => write!(f, "{railway} has no shares left"),
        }
    }
}

/// The automatic move of `seat`: a pass, when it is asked to bid.
pub fn auto_move(game: &Game, seat: usize) -> Option<Action> {
    game.auction()
        .filter(|(a, _)| a.to_bid == seat)
        .map(|_| Action::Pass)
}

/// Reads `pass` or `max <railway> <limit>` (also `max <limit> <railway>`, `£12`).
pub fn read(game: &Game, seat: usize, text: &str) -> Result<Preset, PresetRefusal> {
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| w.trim_start_matches('£').to_ascii_lowercase())
        .collect();
    let usage = || PresetRefusal::Usage {
        text: text.trim().to_string(),
    };
    match words
        .iter()
        .map(String::as_str)
        .collect::<Vec<_>>()
        .as_slice()
    {
        ["pass"] => Ok(Preset {
            key: "pass".into(),
            order: serde_json::to_value(Order::Pass).unwrap_or(Value::Null),
        }),
        ["max", a, b] => {
            let (railway, limit) = match (a.parse::<u32>(), b.parse::<u32>()) {
                (Err(_), Ok(limit)) => (*a, limit),
                (Ok(limit), Err(_)) => (*b, limit),
                _ => return Err(usage()),
            };
            let railway: Railway = railway
                .parse()
                .map_err(|()| PresetRefusal::UnknownRailway {
                    given: railway.to_ascii_uppercase(),
                })?;
            let cash = game.players().get(seat).map(|p| p.cash).unwrap_or(0);
            if limit > cash {
                return Err(PresetRefusal::AboveCash { limit, cash });
            }
            let face = match game.auction() {
                Some((a, _)) if a.railway == railway => a.face,
                _ => *game
                    .available_shares(railway)
                    .first()
                    .ok_or(PresetRefusal::NoSharesLeft { railway })?,
            };
            if limit < face {
                return Err(PresetRefusal::BelowFace {
                    railway,
                    face,
                    limit,
                });
            }
            Ok(Preset {
                key: format!("max:{railway}"),
                order: serde_json::to_value(Order::Max {
                    railway,
                    face,
                    limit,
                })
                .unwrap_or(Value::Null),
            })
        }
        _ => Err(usage()),
    }
}

/// What `seat`'s orders answer now: a `max` order aimed at the share being auctioned bids the
/// minimum needed (or passes past its limit); otherwise `pass` passes, unless the seat opened
/// the auction. A `max` order whose share is sold is spent, as is an unreadable one.
pub fn answer(game: &Game, seat: usize, orders: &[Value]) -> PresetAnswer<Action> {
    let mut spent = Vec::new();
    let orders: Vec<Option<Order>> = orders
        .iter()
        .map(|o| serde_json::from_value(o.clone()).ok())
        .collect();
    for (i, order) in orders.iter().enumerate() {
        match order {
            None => spent.push(i),
            Some(Order::Max { railway, face, .. })
                if !game.available_shares(*railway).contains(face) =>
            {
                spent.push(i)
            }
            Some(_) => {}
        }
    }
    let action = game
        .auction()
        .filter(|(a, _)| a.to_bid == seat)
        .and_then(|(a, opener)| {
            let min = a.high.map(|(_, high)| high + 1).unwrap_or(a.face);
            let cash = game.players().get(seat).map(|p| p.cash).unwrap_or(0);
            let aimed = orders.iter().flatten().find_map(|o| match o {
                Order::Max {
                    railway,
                    face,
                    limit,
                } if *railway == a.railway && *face == a.face => Some(*limit),
                _ => None,
            });
            match aimed {
                Some(limit) if min <= limit && min <= cash => Some(Action::Bid { amount: min }),
                Some(_) => Some(Action::Pass),
                None if seat != opener && orders.iter().flatten().any(|o| *o == Order::Pass) => {
                    Some(Action::Pass)
                }
                None => None,
            }
        });
    PresetAnswer { action, spent }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Setup;

    /// ann, bob, cat in seats 0, 1, 2; the CBSC initial auction, ann to bid first.
    fn game() -> Game {
        let setup = Setup {
            players: vec!["ann".into(), "bob".into(), "cat".into()],
            order: vec![1, 2, 3],
            cities: [5, 2, 3, 11, 4, 7, 9, 12],
        };
        Game::new(&setup).expect("a valid setup")
    }

    fn order(game: &Game, seat: usize, text: &str) -> Value {
        read(game, seat, text).expect("a preset").order
    }

    #[test]
    fn presets_read_and_bad_ones_are_refused() {
        let g = game();
        assert_eq!(read(&g, 0, "pass").expect("pass").key, "pass");
        let max = read(&g, 1, "max WLW 12").expect("max");
        assert_eq!(max.key, "max:WLW");
        assert_eq!(
            max.order,
            serde_json::json!({"preset": "max", "railway": "WLW", "face": 5, "limit": 12})
        );
        assert_eq!(read(&g, 1, "max £12 wlw").expect("max").order, max.order);
        // CBSC is being auctioned: its £7 share is the one aimed at.
        assert_eq!(order(&g, 1, "max CBSC 9")["face"], 7);
        assert_eq!(
            read(&g, 1, "max WLW 21"),
            Err(PresetRefusal::AboveCash {
                limit: 21,
                cash: 20
            })
        );
        assert_eq!(
            read(&g, 1, "max CBSC 6"),
            Err(PresetRefusal::BelowFace {
                railway: Railway::Cbsc,
                face: 7,
                limit: 6
            })
        );
        assert!(matches!(
            read(&g, 1, "max XYZ 6"),
            Err(PresetRefusal::UnknownRailway { .. })
        ));
        for bad in [
            "",
            "bid 7",
            "max WLW",
            "max 3 4",
            "max WLW -3",
            "pass please",
        ] {
            assert!(
                matches!(read(&g, 1, bad), Err(PresetRefusal::Usage { .. })),
                "{bad}"
            );
        }
    }

    #[test]
    fn presets_resolve_a_whole_auction() {
        let mut g = game();
        let ann = [order(&g, 0, "max CBSC 10")];
        let bob = [order(&g, 1, "pass")];
        let cat = [order(&g, 2, "max CBSC 9")];
        let books = [&ann[..], &bob[..], &cat[..]];
        let mut moves = Vec::new();
        while let Some((a, _)) = g.auction() {
            if a.railway != Railway::Cbsc {
                break;
            }
            let seat = a.to_bid;
            let action = answer(&g, seat, books[seat])
                .action
                .expect("every seat has a preset that answers");
            moves.push((seat, action.to_string()));
            g.play(seat, &action).expect("a legal move");
        }
        assert_eq!(
            moves,
            [
                (0, "bid 7".to_string()),
                (1, "pass".to_string()),
                (2, "bid 8".to_string()),
                (0, "bid 9".to_string()),
                (2, "pass".to_string()),
            ]
        );
        assert_eq!(g.players()[0].cash, 11);
        assert_eq!(g.railway(Railway::Cbsc).owners[0], Some(0));
        // The CBSC £7 share is sold: cat's order on it is spent.
        assert_eq!(answer(&g, 2, &cat).spent, [0]);
    }

    #[test]
    fn pass_does_not_answer_for_the_opener_and_nothing_answers_out_of_turn() {
        let g = game();
        let pass = [order(&g, 0, "pass")];
        // ann opens the initial CBSC auction: she decides herself.
        assert_eq!(answer(&g, 0, &pass).action, None);
        // bob is not asked yet.
        assert_eq!(answer(&g, 1, &pass).action, None);
        assert_eq!(auto_move(&g, 0), Some(Action::Pass));
        assert_eq!(auto_move(&g, 1), None);
        // An order aimed at another share does not answer this auction.
        let wlw = [order(&g, 0, "max WLW 12")];
        assert_eq!(answer(&g, 0, &wlw).action, None);
        assert!(answer(&g, 0, &wlw).spent.is_empty());
        assert_eq!(answer(&g, 0, &[Value::from("junk")]).spent, [0]);
    }
}
