//! Irish Gauge's texts, rendered from its templates (`templates/irish-gauge/`, filed under
//! `irish-gauge/`): the status report (from the [`View`]), the prompt, the narration of events,
//! the legal moves, refusals and the setup announcement. Rust gathers the data; the wording is in
//! the templates.

use gaugebot_table::game::Ctx;
use minijinja::{context, Value};
use serde::Serialize;

use super::view::View;
use crate::build::format_half_points;
use crate::error::{PlayError, Reason};
use crate::event::AutoPassReason;
use crate::game::{describe, LegalActions, Phase};
use crate::notation::NotationError;
use crate::{Colour, Event, Game, Railway, Setup};

/// Template names (without the `irish-gauge/` directory).
pub const STATUS: &str = "irish-gauge/status.md.j2";
const EVENTS: &str = "irish-gauge/events.md.j2";
const MOVES: &str = "irish-gauge/moves.md.j2";
const PROMPT: &str = "irish-gauge/prompt.md.j2";
const REFUSAL: &str = "irish-gauge/refusal.md.j2";
const SETUP: &str = "irish-gauge/setup.md.j2";
const ODDS: &str = "irish-gauge/odds.md.j2";
const PRESET: &str = "irish-gauge/preset.md.j2";
const PICTURE_ALT: &str = "irish-gauge/picture_alt.md.j2";

fn pounds(values: &[u32]) -> String {
    values
        .iter()
        .map(|v| format!("£{v}"))
        .collect::<Vec<_>>()
        .join(", ")
}

fn capital(colour: Colour) -> &'static str {
    match colour {
        Colour::White => "White",
        Colour::Pink => "Pink",
        Colour::Black => "Black",
    }
}

#[derive(Serialize)]
struct PlayerLine {
    name: String,
    cash: i64,
    shares: String,
    score: i64,
    /// The place in the final ranking: players with the same score share it (`1.`, `1.`, `3.`).
    rank: usize,
}

#[derive(Serialize)]
struct RailwayLine {
    code: &'static str,
    unplaced: u32,
    connections: Vec<String>,
    available: String,
    major_bonus_paid: bool,
}

/// A railway's connections as the forum writes them: `Cork (White City), Shannon (Town)`.
pub fn connections(view: &View, railway: Railway) -> Vec<String> {
    let Some(state) = view.railways.get(&railway) else {
        return vec!["none".to_string()];
    };
    let mut out: Vec<(String, String)> = state
        .track
        .iter()
        .filter(|h| h.hex().terrain.is_urban())
        .map(|h| {
            let name = h.display_name().to_string();
            let kind = match view.cities.get(&name) {
                Some(c) => format!("{name} ({} City)", capital(*c)),
                None => format!("{name} (Town)"),
            };
            (name, kind)
        })
        .collect();
    out.sort();
    if out.is_empty() {
        vec!["none".to_string()]
    } else {
        out.into_iter().map(|(_, k)| k).collect()
    }
}

/// The cities by colour: `3 White (Cork, Kilkenny, Limerick)`.
pub fn cities_by_colour(view: &View) -> Vec<String> {
    Colour::ALL
        .iter()
        .map(|&colour| {
            let names: Vec<&str> = view
                .cities
                .iter()
                .filter(|(_, c)| **c == colour)
                .map(|(n, _)| n.as_str())
                .collect();
            if names.is_empty() {
                format!("0 {}", capital(colour))
            } else {
                format!("{} {} ({})", names.len(), capital(colour), names.join(", "))
            }
        })
        .collect()
}

/// What the map shows, in words: the map's alt text (each railway's connections and the
/// locomotives it has placed, the cities' cubes, the highlighted hexes).
pub fn picture_alt(ctx: &Ctx<'_>, view: &View) -> String {
    let railways: Vec<_> = Railway::ALL
        .iter()
        .filter_map(|&r| {
            let state = view.railways.get(&r)?;
            Some(context! {
                code => r.code(),
                placed => state.track.len(),
                connections => connections(view, r),
            })
        })
        .collect();
    let recent: Vec<String> = view.recent.iter().map(|h| h.to_string()).collect();
    ctx.templates
        .text(
            PICTURE_ALT,
            context! {
                game_id => ctx.game_id, turn => view.turn, railways,
                cities => cities_by_colour(view), recent,
            },
        )
        .trim()
        .to_string()
}

/// The full status report, from the view model.
pub fn status(ctx: &Ctx<'_>, view: &View, prompt: &str) -> String {
    let mut players: Vec<PlayerLine> = view
        .players
        .iter()
        .map(|p| PlayerLine {
            name: p.name.clone(),
            cash: p.cash,
            shares: p
                .shares
                .iter()
                .map(|(r, values)| format!("{r} {}", pounds(values)))
                .collect::<Vec<_>>()
                .join("; "),
            score: p.score.unwrap_or(p.cash),
            rank: 0,
        })
        .collect();
    let scores: Vec<i64> = players.iter().map(|p| p.score).collect();
    for p in &mut players {
        p.rank = 1 + scores.iter().filter(|&&s| s > p.score).count();
    }
    let railways: Vec<RailwayLine> = Railway::ALL
        .iter()
        .filter_map(|&r| {
            let state = view.railways.get(&r)?;
            Some(RailwayLine {
                code: r.code(),
                unplaced: state.unplaced,
                connections: connections(view, r),
                available: pounds(&state.available),
                major_bonus_paid: state.major_bonus_paid,
            })
        })
        .collect();
    let drawn: Vec<String> = view
        .draws
        .iter()
        .map(|d| d.iter().map(|c| c.name()).collect::<Vec<_>>().join(" "))
        .collect();
    let supply = view.supply;
    let mut ranking: Vec<&PlayerLine> = players.iter().collect();
    ranking.sort_by_key(|p| std::cmp::Reverse(p.score));
    let best_score = ranking.first().map(|p| p.score).unwrap_or(0);
    ctx.templates.text(
        STATUS,
        context! {
            game_id => ctx.game_id, turn => view.turn, players, railways, drawn,
            cities => cities_by_colour(view),
            supply => context!{ white => supply.white, pink => supply.pink, black => supply.black, total => supply.total() },
            finished => view.finished, winners => view.winners, ranking, best_score, prompt, show_scores => false,
        },
    )
}

/// Who acts next and what they may do, with a mention when the context pings.
pub fn prompt(ctx: &Ctx<'_>, game: &Game) -> String {
    let names = &ctx.names;
    let p = ctx.prefix;
    let data = match game.phase() {
        Phase::InitialAuction {
            auction, opener, ..
        }
        | Phase::Auction {
            auction,
            auctioneer: opener,
            ..
        } => {
            let seat = auction.to_bid;
            context! {
                kind => "bid", who => names.call(seat), railway => auction.railway.code(),
                face => auction.face, cash => game.players()[seat].cash,
                high => auction.high.map(|(_, high)| high),
                high_bidder => auction.high.map(|(s, _)| names.name(s).to_string()),
                min => auction.high.map(|(_, high)| high + 1).unwrap_or(auction.face),
                free_to => matches!(game.phase(), Phase::InitialAuction { .. }).then(|| names.name(*opener).to_string()),
            }
        }
        Phase::Turn { player } => {
            let (mut auctions, mut builds, mut interests) = (Vec::new(), Vec::new(), false);
            if let LegalActions::Turn {
                auctions: a,
                builds: b,
                interests: i,
                ..
            } = game.legal_actions()
            {
                auctions = a.iter().map(|a| a.railway.code()).collect();
                builds = b.iter().map(|b| b.railway.code()).collect();
                interests = !i.is_empty();
            }
            context! { kind => "turn", who => names.call(*player), auctions, builds, interests }
        }
        Phase::AwaitingDraw { count, .. } => {
            context! { kind => "draw", count, supply => game.supply().to_string() }
        }
        Phase::Finished => context! { kind => "over" },
    };
    ctx.templates.text(PROMPT, context! { p, ..data })
}

/// The narration of events.
pub fn narrate(ctx: &Ctx<'_>, game: &Game, events: &[Event]) -> String {
    narrate_with(ctx, game, events, None)
}

/// A stored preset in words (`preset.md.j2`), for its owner.
pub fn preset(ctx: &Ctx<'_>, order: &serde_json::Value) -> String {
    ctx.templates
        .text(PRESET, context! { o => Value::from_serialize(order) })
}

/// The narration of events; `proxy` notes the first one when the table made the move for the
/// seat (`ann bids £8 (preset).`, `bob is passed automatically: the auction clock ran out.`).
pub fn narrate_with(
    ctx: &Ctx<'_>,
    game: &Game,
    events: &[Event],
    proxy: Option<&gaugebot_table::game::Proxy>,
) -> String {
    let name = |seat: usize| game.name(seat).to_string();
    let payouts = |list: &[crate::Payout]| -> Vec<String> {
        list.iter()
            .map(|p| format!("{} £{}", name(p.player), p.amount))
            .collect()
    };
    let views: Vec<Value> = events
        .iter()
        .filter_map(|event| {
            Some(match event {
                Event::AuctionOpened { by, railway, face, initial } => context! {
                    event => "auction_opened", by => name(*by), railway => railway.code(), face, initial
                },
                Event::Bid { player, amount } => context! { event => "bid", player => name(*player), amount },
                Event::Passed { player } => context! { event => "passed", player => name(*player) },
                Event::AutoPassed { player, reason } => {
                    let (kind, cash, limit) = match reason {
                        AutoPassReason::CannotAffordFaceValue { cash, face } => ("face", *cash, *face),
                        AutoPassReason::CannotRaise { cash, high } => ("raise", *cash, *high),
                    };
                    context! { event => "auto_passed", player => name(*player), kind, cash, limit }
                }
                Event::ShareWon { player, railway, face, price } => context! {
                    event => "share_won", player => name(*player), railway => railway.code(), face, price
                },
                Event::LocomotivesPlaced { railway, hexes, half_points, unplaced } => context! {
                    event => "locomotives_placed", railway => railway.code(), count => hexes.len(),
                    hexes => hexes.iter().map(|(h, c)| format!("{} {}", describe(*h), format_half_points(*c))).collect::<Vec<_>>(),
                    cost => format_half_points(*half_points), unplaced
                },
                Event::MajorCityDividend { railway, per_share, payouts: list } => context! {
                    event => "major_city_dividend", railway => railway.code(), per_share, payouts => payouts(list)
                },
                Event::SpecialInterestPlaced { player, town, colour } => context! {
                    event => "special_interest_placed", player => name(*player), town => describe(*town), colour => colour.name()
                },
                Event::DividendsCalled { player, count } => context! {
                    event => "dividends_called", player => name(*player), count
                },
                Event::CubesDrawn { cubes } => {
                    let mut paying: Vec<Colour> = cubes.clone();
                    paying.sort();
                    paying.dedup();
                    context! {
                        event => "cubes_drawn",
                        cubes => cubes.iter().map(|c| c.name()).collect::<Vec<_>>(),
                        paying => paying.iter().map(|c| c.name()).collect::<Vec<_>>(),
                        source => ctx.draw_source,
                    }
                }
                Event::Dividend { railway, paying_cities, towns, income, per_share, payouts: list } => context! {
                    event => "dividend", railway => railway.code(), income, per_share,
                    payouts => payouts(list),
                    cities => paying_cities.iter().map(|h| h.display_name()).collect::<Vec<_>>(),
                    towns => towns.iter().map(|h| h.display_name()).collect::<Vec<_>>(),
                },
                Event::GameOver { .. } => context! { event => "game_over" },
                Event::TurnBegan { .. } => return None,
            })
        })
        .collect();
    let views: Vec<Value> = views
        .into_iter()
        .enumerate()
        .map(|(i, view)| match proxy {
            Some(proxy) if i == 0 => context! {
                note => proxy.note, automatic => proxy.automatic, ..view
            },
            _ => view,
        })
        .collect();
    ctx.templates.text(EVENTS, context! { events => views })
}

/// The legal moves of the player to act, for `!moves`.
pub fn moves(ctx: &Ctx<'_>, game: &Game) -> String {
    let prefix = ctx.prefix;
    let data = match game.legal_actions() {
        LegalActions::Bidding {
            player,
            railway,
            min,
            max,
        } => context! {
            kind => "bidding", player => game.name(player), railway => railway.code(), min, max, p => prefix
        },
        LegalActions::Turn {
            player,
            auctions,
            builds,
            interests,
        } => {
            let builds: Vec<Value> = builds
                .iter()
                .map(|b| {
                    context! {
                        railway => b.railway.code(), unplaced => b.unplaced,
                        // Each hex with what it costs, in build points (`N3 2 BP`).
                        hexes => b.hexes.iter().map(|(h, c)| format!("{} {} BP", describe(*h), format_half_points(*c))).collect::<Vec<_>>()
                    }
                })
                .collect();
            let colours: Vec<&str> = interests
                .first()
                .map(|i| i.colours.iter().map(|c| c.name()).collect())
                .unwrap_or_default();
            context! {
                kind => "turn", player => game.name(player), cash => game.players()[player].cash,
                auctions => auctions.iter().map(|a| format!("{} (£{})", a.railway, a.face)).collect::<Vec<_>>(),
                builds, interests => interests.iter().map(|i| describe(i.town)).collect::<Vec<_>>(), colours, p => prefix
            }
        }
        LegalActions::Draw(request) => context! {
            kind => "draw", count => request.count, supply => request.supply.to_string(), p => prefix
        },
        LegalActions::None => context! { kind => "none" },
    };
    ctx.templates.text(MOVES, data)
}

/// A refusal of the plug-in: a rule, an ambiguity, a notation error or a bad setup.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(tag = "refusal", content = "error", rename_all = "snake_case")]
pub enum Refusal {
    /// The engine refused the action.
    Play(PlayError),
    /// The text is not an action.
    Notation(NotationError),
    /// The setup is invalid.
    Setup(crate::SetupError),
    /// A setup option is wrong.
    Option(String),
    /// A close misspelling of a command word, railway or colour: the move it would be.
    NearMiss {
        /// The word as written.
        written: String,
        /// The word it is close to.
        meant: String,
        /// The move with that word corrected, if the text then reads as one.
        suggestion: Option<crate::Action>,
    },
    /// The text reads more than one way: the options, never a guess.
    Unclear {
        /// The moves it could be.
        options: Vec<crate::Action>,
        /// Why.
        why: crate::notation::Ambiguity,
    },
    /// The share named with a bid or pass is not the one up.
    NamedShare(crate::notation::NamedShareError),
    /// A secret preset is wrong.
    Preset(super::presets::PresetRefusal),
    /// A near miss whose corrected move the rules refuse now, when no move of its kind is
    /// legal for the player to act: the correction, and why it cannot be played (no move is
    /// offered).
    NotNow {
        /// The near miss, with its correction.
        why: Box<Refusal>,
        /// The rules' refusal of the corrected move.
        rule: Box<Refusal>,
    },
    /// A text from the player to act that is no legal move as written, with the legal move
    /// nearest to it (`bid 5.5` with the high bid at £5: **bid 6**).
    Closest {
        /// Why the text is not a move as written.
        why: Box<Refusal>,
        /// The legal move nearest to what was written.
        nearest: crate::Action,
    },
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refusal::Play(e) => e.fmt(f),
            Refusal::Notation(e) => e.fmt(f),
            Refusal::Setup(e) => e.fmt(f),
            Refusal::Option(e) => f.write_str(e),
            Refusal::NearMiss {
                written,
                meant,
                suggestion,
            } => crate::notation::Reading::NearMiss {
                written: written.clone(),
                meant: meant.clone(),
                suggestion: suggestion.clone(),
            }
            .fmt(f),
            Refusal::Unclear { options, why } => crate::notation::Reading::Ambiguous {
                options: options.clone(),
                why: why.clone(),
            }
            .fmt(f),
            Refusal::NamedShare(e) => e.fmt(f),
            Refusal::Preset(e) => e.fmt(f),
            Refusal::NotNow { why, rule } => {
                write!(f, "{} — not now: {rule}", closest_reason(why))
            }
            Refusal::Closest { why, nearest } => {
                write!(
                    f,
                    "{} — the nearest legal move: {nearest}",
                    closest_reason(why)
                )
            }
        }
    }
}

/// The reason of a refusal offered with the nearest legal move, without the fixed example it
/// would show (`write it as: bid 7`), which the nearest move replaces; `None` when the refusal
/// has no such example and is shown whole.
fn short_reason(why: &Refusal) -> Option<String> {
    match why {
        Refusal::Notation(NotationError::Syntax { reason, .. }) => Some(reason.clone()),
        Refusal::NearMiss {
            written,
            meant,
            suggestion: None,
        } => Some(format!("'{written}' is close to {meant}")),
        _ => None,
    }
}

fn closest_reason(why: &Refusal) -> String {
    short_reason(why).unwrap_or_else(|| why.to_string())
}

/// One refusal of every kind, with the ruling its text cites (the suite over every registered
/// game renders each).
pub fn example_refusals() -> Vec<(Refusal, String)> {
    use crate::error::{Decision, Rule};
    use crate::notation::{parse_action, Ambiguity, NamedShareError};
    use crate::Action;
    let illegal = |rule: Rule, reason| {
        let ruling = rule.reference();
        (Refusal::Play(PlayError::illegal(rule, reason)), ruling)
    };
    let setup = |error, ruling| (Refusal::Setup(error), ruling);
    let notation = |text: &str| parse_action(text).err().map(|e| (Refusal::Notation(e), ""));
    let not_your_turn = Reason::NotYourTurn {
        expected: "ann".into(),
        decision: Decision::Turn,
        player: "bob".into(),
    };
    let mut examples = vec![
        illegal(Rule::TurnOrder, not_your_turn),
        illegal(Rule::Phase, Reason::NoAuctionRunning),
        illegal(Rule::Bid, Reason::BelowFaceValue { face: 6 }),
        illegal(Rule::Bid, Reason::NotAboveHighBid { high: 7 }),
        illegal(
            Rule::Auction,
            Reason::NoSharesLeft {
                railway: Railway::Wlw,
            },
        ),
        illegal(Rule::GameOver, Reason::GameOver),
        setup(crate::SetupError::PlayerCount { count: 7 }, "ruling 22"),
        setup(
            crate::SetupError::PlayerOrder {
                reason: "4 is given twice".into(),
            },
            "ruling 23",
        ),
        setup(
            crate::SetupError::CityCubes {
                reason: "13 is not 1-12".into(),
            },
            "ruling 24",
        ),
        (Refusal::Option("unknown option 'colour:'".into()), ""),
        (
            Refusal::NearMiss {
                written: "bdi".into(),
                meant: "bid".into(),
                suggestion: Some(Action::Bid { amount: 7 }),
            },
            "",
        ),
        (
            Refusal::Unclear {
                options: vec![Action::Bid { amount: 8 }, Action::Bid { amount: 9 }],
                why: Ambiguity::Alternatives,
            },
            "",
        ),
        (
            Refusal::NamedShare(NamedShareError::NoAuction {
                named: Railway::Gsw,
            }),
            "",
        ),
        (
            Refusal::Preset(super::presets::PresetRefusal::Usage { text: "max".into() }),
            "",
        ),
        (
            Refusal::NotNow {
                why: Box::new(Refusal::NearMiss {
                    written: "bdi".into(),
                    meant: "bid".into(),
                    suggestion: Some(Action::Bid { amount: 7 }),
                }),
                rule: Box::new(Refusal::Play(PlayError::illegal(
                    Rule::Phase,
                    Reason::NoAuctionRunning,
                ))),
            },
            "ruling 8",
        ),
        (
            Refusal::Closest {
                why: Box::new(Refusal::Notation(NotationError::Syntax {
                    command: "bid",
                    reason: "'5.5' is not a whole number of pounds".into(),
                })),
                nearest: Action::Bid { amount: 6 },
            },
            "",
        ),
    ];
    examples.extend(
        ["frobnicate 3", "bid lots"]
            .into_iter()
            .filter_map(notation),
    );
    examples
        .into_iter()
        .map(|(refusal, ruling)| (refusal, ruling.to_string()))
        .collect()
}

/// A hex as a refusal names it.
fn hex_value(hex: crate::HexId) -> String {
    describe(hex)
}

/// A refusal, in words from the template; the data is the engine's.
pub fn refusal(ctx: &Ctx<'_>, refusal: &Refusal) -> String {
    let data = match refusal {
        Refusal::Play(PlayError::Illegal { rule, reason }) => {
            let reference = rule.reference();
            let mut value = serde_json::to_value(reason).unwrap_or_default();
            // Hexes by name and id, cost in build points, the rule's reference.
            if let Some(object) = value.as_object_mut() {
                let hexes: Vec<(String, crate::HexId)> = match reason {
                    Reason::ListedTwice { hex }
                    | Reason::AlreadyThere { hex, .. }
                    | Reason::DifficultHexTaken { hex, .. }
                    | Reason::NoPathReaches { hex, .. }
                    | Reason::NotATown { hex }
                    | Reason::AlreadyACity { hex, .. }
                    | Reason::NoTrackThere { hex, .. } => vec![("hex".into(), *hex)],
                    Reason::WouldNotConnect { hex, start, .. } => {
                        vec![("hex".into(), *hex), ("start".into(), *start)]
                    }
                    _ => Vec::new(),
                };
                for (key, hex) in hexes {
                    object.insert(key, serde_json::Value::String(hex_value(hex)));
                }
                if let Reason::WouldNotConnect { start, .. } = reason {
                    object.insert(
                        "start".into(),
                        serde_json::Value::String(start.display_name().to_string()),
                    );
                }
                if let Reason::OverBudget { cost_half_points } = reason {
                    object.insert(
                        "cost".into(),
                        serde_json::Value::String(format_half_points(*cost_half_points)),
                    );
                }
                if let Reason::NotInSupply { supply, .. } | Reason::NoCubeLeft { supply, .. } =
                    reason
                {
                    object.insert(
                        "supply".into(),
                        serde_json::Value::String(supply.to_string()),
                    );
                }
                if let Reason::NotInSupply { cubes, .. } = reason {
                    object.insert(
                        "cubes".into(),
                        serde_json::Value::String(
                            cubes.iter().map(|c| c.name()).collect::<Vec<_>>().join(" "),
                        ),
                    );
                }
                object.insert("rule".into(), serde_json::Value::String(reference.into()));
            }
            context! { refusal => "illegal", reason => Value::from_serialize(&value) }
        }
        Refusal::Play(PlayError::Ambiguous {
            count,
            cost_half_points,
            targets,
            options,
        }) => context! {
            refusal => "ambiguous", count, cost => format_half_points(*cost_half_points),
            targets => targets.iter().map(|h| describe(*h)).collect::<Vec<_>>(),
            options => options.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
        },
        Refusal::Notation(error) => context! {
            refusal => "notation", error => Value::from_serialize(error),
            form => error_form(error),
        },
        Refusal::Setup(error) => {
            context! { refusal => "setup", error => Value::from_serialize(error) }
        }
        Refusal::Option(text) => context! { refusal => "option", text },
        Refusal::NearMiss {
            written,
            meant,
            suggestion,
        } => context! {
            refusal => "near_miss", written, meant,
            suggestion => suggestion.as_ref().map(|a| a.to_string()),
            form => crate::notation::FORMS.iter().find(|(c, _)| c == meant).map(|(_, f)| *f),
        },
        Refusal::Unclear { options, why } => context! {
            refusal => "unclear", why => Value::from_serialize(why),
            options => options.iter().map(|o| o.to_string()).collect::<Vec<_>>(),
        },
        Refusal::NamedShare(error) => context! {
            refusal => "named_share", error => Value::from_serialize(error),
        },
        Refusal::Preset(error) => {
            context! { refusal => "preset", error => Value::from_serialize(error) }
        }
        Refusal::NotNow { why, rule } => context! {
            refusal => "not_now",
            reason => short_reason(why).unwrap_or_else(|| self::refusal(ctx, why).trim().to_string()),
            rule => self::refusal(ctx, rule).trim().to_string(),
        },
        Refusal::Closest { why, nearest } => {
            let reason =
                short_reason(why).unwrap_or_else(|| self::refusal(ctx, why).trim().to_string());
            context! { refusal => "closest", reason, nearest => nearest.to_string() }
        }
    };
    ctx.templates.text(REFUSAL, data)
}

fn error_form(error: &NotationError) -> &'static str {
    match error {
        NotationError::Syntax { command, .. } => crate::notation::FORMS
            .iter()
            .find(|(c, _)| c == command)
            .map(|(_, f)| *f)
            .unwrap_or(""),
        _ => "",
    }
}

/// The announcement of a new game: the two setup rolls.
pub fn setup(ctx: &Ctx<'_>, setup: &Setup, game: &Game) -> String {
    let view = View::of(game, ctx.moderator, Vec::new());
    ctx.templates.text(
        SETUP,
        context! {
            players => setup.players.len(),
            order => setup.order.iter().map(u8::to_string).collect::<Vec<_>>(),
            seated => game.players().iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            cities => setup.cities.iter().map(u8::to_string).collect::<Vec<_>>(),
            by_colour => cities_by_colour(&view),
        },
    )
}

fn percent(ratio: crate::odds::Ratio) -> String {
    format!("{:.0}%", ratio.to_f64() * 100.0)
}

/// The exact odds of a dividend call now (`!odds`).
pub fn odds(ctx: &Ctx<'_>, game: &Game) -> String {
    let odds = crate::odds::odds(game);
    let colours: Vec<Value> = Colour::ALL
        .iter()
        .map(|&c| context! { name => c.name(), ratio => odds.colour(c).to_string(), percent => percent(odds.colour(c)) })
        .collect();
    let railways: Vec<Value> = Railway::ALL
        .iter()
        .map(|&r| context! { code => r.code(), ratio => odds.railway(r).to_string(), percent => percent(odds.railway(r)) })
        .collect();
    let players: Vec<Value> = game
        .players()
        .iter()
        .enumerate()
        .map(|(seat, p)| {
            let e = odds.expected(seat);
            context! { name => p.name, ratio => e.to_string(), pounds => format!("{:.2}", e.to_f64()) }
        })
        .collect();
    ctx.templates.text(
        ODDS,
        context! {
            kind => "odds", count => odds.count, supply => odds.supply.to_string(),
            pending => game.pending_draw().is_some(), colours, railways, players,
        },
    )
}

/// The luck line at the end: each player's dividends received against expected, the luckiest
/// first (equal luck in seat order).
pub fn luck(ctx: &Ctx<'_>, game: &Game, calls: &[(Vec<crate::odds::Ratio>, Vec<u32>)]) -> String {
    let totals = crate::odds::luck(calls);
    let mut seats: Vec<(usize, crate::odds::Luck)> = game
        .players()
        .iter()
        .enumerate()
        .map(|(seat, _)| (seat, totals.get(seat).copied().unwrap_or_default()))
        .collect();
    seats.sort_by(|(a, la), (b, lb)| lb.difference().total_cmp(&la.difference()).then(a.cmp(b)));
    let players: Vec<Value> = seats
        .into_iter()
        .filter_map(|(seat, luck)| Some((game.players().get(seat)?, luck)))
        .map(|(p, luck)| {
            context! {
                name => p.name, received => luck.received,
                expected => format!("{:.2}", luck.expected.to_f64()),
                difference => format!("{:+.2}", luck.difference()),
            }
        })
        .collect();
    ctx.templates.text(
        ODDS,
        context! { kind => "luck", players, calls => calls.len() },
    )
}
