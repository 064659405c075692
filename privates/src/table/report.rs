//! Privates' texts, rendered from its templates (`templates/privates/`, filed under
//! `privates/`): the setup announcement, the narration of events, the status report (from the
//! dump's [`GameView`]), the prompt, the legal moves and refusals. Rust gathers the data; the
//! wording is in the templates.

use gaugebot_table::game::Ctx;
use minijinja::{context, Value};
use serde::Serialize;

use super::refusal::Refusal;
use super::TableSetup;
use crate::card::{revenue_of, Card, ChipCounts, CostCounts};
use crate::error::PlayError;
use crate::event::Event;
use crate::game::LegalActions;
use crate::notation::{DEAL_FORM, FORMS};
use crate::scoring::Score;
use crate::{DrawRequest, Game, GameView};

/// Template names (with the `privates/` directory the table files them under).
const SETUP: &str = "privates/setup.md.j2";
const STATUS: &str = "privates/status.md.j2";
const EVENTS: &str = "privates/events.md.j2";
const PROMPT: &str = "privates/prompt.md.j2";
const MOVES: &str = "privates/moves.md.j2";
const REFUSAL: &str = "privates/refusal.md.j2";

/// A card kind as players write it: `10/$4`.
fn kind(cost: u32) -> String {
    match revenue_of(cost) {
        Some(revenue) => format!("{cost}/${revenue}"),
        None => cost.to_string(),
    }
}

/// A card just taken, as players write it: `10/$4 red` — from the row while it lies there, else
/// from the taker's cards (the row of a finished round is cleared), else `10/$4`.
fn taken(game: &Game, player: usize, letter: crate::Letter, cost: u32) -> String {
    let in_row = game
        .row()
        .get(letter.index())
        .filter(|c| c.card.cost == cost && c.owner == Some(player))
        .map(|c| c.card);
    let held = || {
        game.players()
            .get(player)
            .and_then(|p| p.cards.iter().rev().find(|c| c.cost == cost))
            .copied()
    };
    in_row
        .or_else(held)
        .map(|c| c.to_string())
        .unwrap_or_else(|| kind(cost))
}

/// Chip counts as a line: `2 red, 0 yellow, …`, and their total.
fn counts(chips: &ChipCounts) -> Value {
    context! { text => chips.to_string(), total => chips.total() }
}

/// The deck left as a line: `5 ×6, 10 ×4, …` (costs with none left are skipped).
fn deck_line(deck: &CostCounts) -> String {
    deck.iter()
        .filter(|(_, n)| *n > 0)
        .map(|(cost, n)| format!("{cost} ×{n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

#[derive(Serialize)]
struct PlayerLine {
    name: String,
    cash: u32,
    open_bids: u32,
    bids: Vec<String>,
    cards: Vec<String>,
    revenue: u32,
    dealer: bool,
}

#[derive(Serialize)]
struct RowLine {
    letter: String,
    card: String,
    price: u32,
    base_price: u32,
    bids: Vec<String>,
    owner: Option<String>,
    cheapest: bool,
}

#[derive(Serialize)]
struct ScoreLine {
    /// The place in the final ranking: equal totals share it (`1.`, `1.`, `3.`).
    rank: usize,
    name: String,
    total: u32,
    cash: u32,
    set_points: u32,
    sequence_points: u32,
    sets: Vec<String>,
    sequences: Vec<String>,
    winner: bool,
}

fn score_lines(game: &Game, scores: &[Score], winners: &[usize]) -> Vec<ScoreLine> {
    let mut lines: Vec<ScoreLine> = scores
        .iter()
        .map(|s| ScoreLine {
            rank: 1 + scores.iter().filter(|o| o.total > s.total).count(),
            name: game.name(s.player).to_string(),
            total: s.total,
            cash: s.cash,
            set_points: s.set_points,
            sequence_points: s.sequence_points,
            sets: s
                .sets
                .iter()
                .map(|set| {
                    format!(
                        "{}× {}/${} = {}",
                        set.count, set.cost, set.revenue, set.points
                    )
                })
                .collect(),
            sequences: s
                .sequences
                .iter()
                .map(|q| {
                    format!(
                        "{} ${}–${}: {} × ${} = {}",
                        q.colour, q.low, q.high, q.length, q.high, q.points
                    )
                })
                .collect(),
            winner: winners.contains(&s.player),
        })
        .collect();
    lines.sort_by_key(|l| std::cmp::Reverse(l.total));
    lines
}

/// The full status report: players (cash, open bids, cards), the row (prices, chips, bids,
/// owners), bag, reserve, deck, round and dealer, then who acts.
pub fn status(ctx: &Ctx<'_>, game: &Game, view: &GameView) -> String {
    let dealer = game.dealer();
    let players: Vec<PlayerLine> = view
        .players
        .iter()
        .enumerate()
        .map(|(seat, p)| PlayerLine {
            name: p.name.clone(),
            cash: p.cash,
            open_bids: p.bids.0.iter().map(|(_, amount)| amount).sum(),
            bids: p
                .bids
                .0
                .iter()
                .map(|(letter, amount)| format!("{letter} ${amount}"))
                .collect(),
            cards: {
                let mut cards = p.cards.clone();
                cards.sort_by_key(|c| (c.cost, c.colour));
                cards.iter().map(Card::to_string).collect()
            },
            revenue: p.cards.iter().map(|c| c.revenue).sum(),
            dealer: seat == dealer,
        })
        .collect();
    let cheapest = game.cheapest().map(|l| l.to_string());
    let row: Vec<RowLine> = view
        .row
        .iter()
        .zip(game.row())
        .map(|(r, card)| RowLine {
            letter: r.letter.clone(),
            card: card.card.to_string(),
            price: r.price,
            base_price: card.base_price,
            bids: r
                .bids
                .0
                .iter()
                .map(|(name, amount)| format!("{name} ${amount}"))
                .collect(),
            owner: r.owner.clone(),
            cheapest: cheapest.as_deref() == Some(r.letter.as_str()),
        })
        .collect();
    let scores = if view.finished {
        score_lines(game, &game.scores(), &game.winners())
    } else {
        Vec::new()
    };
    ctx.templates.text(
        STATUS,
        context! {
            game_id => ctx.game_id, round => view.round, rounds => game.rounds(),
            dealer => view.dealer, players, row,
            bag => counts(&view.bag), reserve => counts(&view.reserve),
            deck_left => view.deck_left, finished => view.finished,
            winners => view.winners, scores, prompt => prompt(ctx, game),
        },
    )
}

/// The data of what the player to act may do, for the prompt and `!moves`.
fn options(ctx: &Ctx<'_>, game: &Game) -> Value {
    let names = &ctx.names;
    let p = ctx.prefix;
    let card_of = |letter: crate::Letter| {
        game.row()
            .get(letter.index())
            .map(|c| c.card.to_string())
            .unwrap_or_default()
    };
    match game.legal_actions() {
        LegalActions::Turn {
            player,
            buy,
            bids,
            pass,
        } => {
            let cash = game.players()[player].cash;
            let open = game.open_bids(player);
            let cheapest = game
                .cheapest()
                .and_then(|l| game.row().get(l.index()))
                .map(|c| context! { letter => c.letter.to_string(), card => c.card.to_string(), price => c.price });
            let bids: Vec<Value> = bids
                .iter()
                .map(|b| {
                    context! {
                        letter => b.letter.to_string(), card => card_of(b.letter), price => b.price,
                        high => b.high, minimum => b.minimum, maximum => b.maximum,
                    }
                })
                .collect();
            let must_take = buy.is_some_and(|b| b.free);
            context! {
                kind => if must_take { "free" } else { "turn" }, p,
                who => names.call(player), player => names.name(player),
                cash, open, free => cash.saturating_sub(open),
                buy => buy.map(|b| context! { letter => b.letter.to_string(), price => b.price }),
                cheapest, bids, pass,
            }
        }
        LegalActions::BidOff {
            player,
            letter,
            high_bidder,
            high,
            raise,
            ..
        } => context! {
            kind => "bid_off", p,
            who => names.call(player), player => names.name(player),
            letter => letter.to_string(), card => card_of(letter),
            high, high_bidder => names.name(high_bidder),
            raise => raise.map(|r| context! { minimum => r.minimum, maximum => r.maximum }),
            bidders => game.row().get(letter.index()).map(|c| {
                c.bids.iter().map(|b| format!("{} ${}", names.name(b.player), b.amount)).collect::<Vec<_>>()
            }).unwrap_or_default(),
        },
        LegalActions::Draw(request) => {
            let (round, bag, count) = (request.round(), request.bag(), request.chip_count());
            match request {
                DrawRequest::Deal { deck, cards, .. } => context! {
                    kind => "deal", p, round, rounds => game.rounds(), cards, count,
                    deck_left => deck.total(), deck => deck_line(&deck),
                    bag => counts(&bag), moderator => ctx.moderator, form => DEAL_FORM,
                },
                DrawRequest::Chips { .. } => context! {
                    kind => "chips", p, round, rounds => game.rounds(), count,
                    bag => counts(&bag), moderator => ctx.moderator,
                    audited => ctx.draw_source == Some("audited dice"),
                },
            }
        }
        LegalActions::None => context! { kind => "over" },
    }
}

/// Who acts next and what they may do, with a mention when the context pings.
pub fn prompt(ctx: &Ctx<'_>, game: &Game) -> String {
    ctx.templates.text(PROMPT, options(ctx, game))
}

/// The legal moves of the player to act, for `!moves`.
pub fn moves(ctx: &Ctx<'_>, game: &Game) -> String {
    ctx.templates.text(MOVES, options(ctx, game))
}

/// The announcement of a new game: seats, money, deck, first dealer, and how the cards come.
pub fn setup(ctx: &Ctx<'_>, setup: &TableSetup, game: &Game) -> String {
    let rules = &setup.rules;
    ctx.templates.text(
        SETUP,
        context! {
            p => ctx.prefix,
            players => game.players().iter().map(|p| p.name.clone()).collect::<Vec<_>>(),
            cash => game.players().first().map(|p| p.cash).unwrap_or(0),
            copies => rules.copies, cards => rules.copies as u32 * 9, rounds => game.rounds(),
            dealer => game.name(rules.dealer), dealer_number => rules.dealer + 1,
            audited => rules.deck.is_some(),
            chips => setup.chips.as_ref().map(|c| c.iter().map(|c| c.name()).collect::<Vec<_>>()),
            moderator => ctx.moderator,
        },
    )
}

/// The narration of events.
pub fn narrate(ctx: &Ctx<'_>, game: &Game, events: &[Event]) -> String {
    narrate_with(ctx, game, events, None)
}

/// The narration of events; `proxy` notes the first one when the table made the move for the
/// seat (`automatic`: the seat had no other move).
pub fn narrate_with(
    ctx: &Ctx<'_>,
    game: &Game,
    events: &[Event],
    proxy: Option<&gaugebot_table::game::Proxy>,
) -> String {
    let name = |seat: usize| ctx.names.name(seat).to_string();
    let players = game.players().len();
    let views: Vec<Value> = events
        .iter()
        .map(|event| match event {
            Event::ChipsToBag { round, chips } => context! {
                event => "chips_to_bag", round, chips => chips.to_string(), moved => chips.total(),
                bag => counts(&game.bag()),
            },
            Event::RoundStarted {
                round,
                rounds,
                dealer,
                row,
            } => context! {
                event => "round_started", round, rounds, dealer => name(*dealer),
                row => row.iter().map(|d| {
                    let card = Card { cost: d.cost, revenue: d.revenue, colour: d.colour };
                    context! { letter => d.letter.to_string(), card => card.to_string(), price => d.price }
                }).collect::<Vec<_>>(),
                source => ctx.draw_source,
            },
            Event::CardBought {
                player,
                letter,
                cost,
                price,
            } => context! {
                event => "card_bought", player => name(*player), letter => letter.to_string(),
                card => taken(game, *player, *letter, *cost), price,
            },
            Event::TakenFree {
                player,
                letter,
                cost,
            } => context! {
                event => "taken_free", player => name(*player), letter => letter.to_string(),
                card => taken(game, *player, *letter, *cost),
            },
            Event::BidPlaced {
                player,
                letter,
                amount,
                replaced,
            } => context! {
                event => "bid_placed", player => name(*player), letter => letter.to_string(),
                amount, replaced,
            },
            Event::Passed { player, in_a_row } => context! {
                event => "passed", player => name(*player), in_a_row, players,
            },
            Event::PriceDropped { letter, from, to } => context! {
                event => "price_dropped", letter => letter.to_string(), from, to,
            },
            Event::WonByBid {
                player,
                letter,
                cost,
                price,
            } => context! {
                event => "won_by_bid", player => name(*player), letter => letter.to_string(),
                card => taken(game, *player, *letter, *cost), price,
            },
            Event::BidOffStarted {
                letter,
                cost,
                bids,
                high_bidder,
                high,
                first,
            } => context! {
                event => "bid_off_started", letter => letter.to_string(),
                card => game.row().get(letter.index()).filter(|c| c.card.cost == *cost)
                    .map(|c| c.card.to_string()).unwrap_or_else(|| kind(*cost)),
                bids => bids.iter().map(|b| format!("{} ${}", name(b.player), b.amount)).collect::<Vec<_>>(),
                high_bidder => name(*high_bidder), high, first => name(*first),
            },
            Event::BidOffRaised {
                player,
                letter,
                amount,
            } => context! {
                event => "bid_off_raised", player => name(*player), letter => letter.to_string(), amount,
            },
            Event::BidOffDropped {
                player,
                letter,
                released,
            } => context! {
                event => "bid_off_dropped", player => name(*player), letter => letter.to_string(), released,
            },
            Event::BidOffWon {
                player,
                letter,
                cost,
                price,
            } => context! {
                event => "bid_off_won", player => name(*player), letter => letter.to_string(),
                card => taken(game, *player, *letter, *cost), price,
            },
            Event::RoundEnded {
                round,
                double,
                income,
            } => context! {
                event => "round_ended", round, double,
                income => income.iter().map(|i| format!("{} ${}", name(i.player), i.amount)).collect::<Vec<_>>(),
            },
            Event::GameOver { scores, winners } => {
                let lines = score_lines(game, scores, winners);
                let best = lines.first().map(|l| l.total).unwrap_or(0);
                context! {
                    event => "game_over",
                    winners => winners.iter().map(|&s| name(s)).collect::<Vec<_>>(), best,
                }
            }
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

/// A refusal's words without the fixed example it shows (`; write it as: bid 17 on C …`), which
/// the nearest legal move replaces; the ruling at the end stays.
fn without_form(text: &str) -> String {
    let Some(at) = text.find("; write it as:") else {
        return text.to_string();
    };
    let ruling = text
        .rfind(" (P")
        .filter(|&r| r > at)
        .map_or("", |r| &text[r..]);
    format!("{}{ruling}", &text[..at])
}

/// A refusal, in words from the template; the data is the engine's, with seats named.
pub fn refusal(ctx: &Ctx<'_>, refusal: &Refusal) -> String {
    let names = &ctx.names;
    let data = match refusal {
        Refusal::Play(error) => {
            let mut value = serde_json::to_value(error).unwrap_or_default();
            if let Some(object) = value.as_object_mut() {
                let mut name = |key: &str, seat: usize| {
                    object.insert(
                        key.to_string(),
                        serde_json::Value::from(names.name(seat).to_string()),
                    );
                };
                match error {
                    PlayError::NotYourTurn { player, to_act, .. } => {
                        name("player", *player);
                        name("to_act", *to_act);
                    }
                    PlayError::CardTaken { owner, .. } => name("owner", *owner),
                    _ => {}
                }
                object.insert(
                    "title".into(),
                    serde_json::Value::from(error.ruling().title()),
                );
            }
            context! { refusal => "play", error => Value::from_serialize(&value), p => ctx.prefix }
        }
        Refusal::Notation(error) => {
            let command = match error {
                crate::NotationError::MissingAmount { command }
                | crate::NotationError::BadAmount { command, .. }
                | crate::NotationError::TooLarge { command, .. }
                | crate::NotationError::MissingCard { command }
                | crate::NotationError::Unexpected { command, .. } => Some(command.as_str()),
                _ => None,
            };
            let form = command
                .and_then(|c| FORMS.iter().find(|(name, _)| *name == c))
                .map(|(_, form)| *form);
            let ruling = super::refusal::notation_ruling(error).to_string();
            context! {
                refusal => "notation", error => Value::from_serialize(error), form, ruling,
                deal => DEAL_FORM, p => ctx.prefix,
            }
        }
        Refusal::Setup(error) => context! {
            refusal => "setup", error => Value::from_serialize(error),
        },
        Refusal::Option(error) => context! {
            refusal => "option", error => Value::from_serialize(error),
        },
        Refusal::NearMiss {
            written,
            meant,
            suggestion,
        } => context! {
            refusal => "near_miss", written, meant,
            suggestion => suggestion.map(|a| a.to_string()),
            form => FORMS.iter().find(|(name, _)| name == meant).map(|(_, form)| *form),
        },
        Refusal::Unclear { options } => context! {
            refusal => "unclear",
            options => options.iter().map(|a| a.to_string()).collect::<Vec<_>>(),
        },
        Refusal::Question { action } => context! {
            refusal => "question", action => action.map(|a| a.to_string()),
        },
        Refusal::Closest { why, nearest } => context! {
            refusal => "closest", reason => without_form(self::refusal(ctx, why).trim()),
            nearest => nearest.to_string(),
        },
    };
    ctx.templates.text(REFUSAL, data)
}
