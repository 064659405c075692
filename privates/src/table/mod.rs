//! Privates as a plug-in of the gaugebot table core (feature `table`): the rules stay in the
//! engine; this module gives the table the game's setup and draws on the audited dice
//! ([`dice`]), the moderator's manual deal, its texts ([`report`] and `templates/privates/`),
//! its refusals ([`refusal`]) and the dump ([`crate::GameView`]).
//!
//! `!setup privates @a @b @c` seats 2 to 6 players in the order given. With audited dice the
//! setup draws the first dealer (`privates-dealer`), the deck's shuffle (`privates-deck`) and
//! round 1's chips (`privates-chips`, index 1: round 1 begins with the setup); every later
//! round's chips are drawn when the move that ends the round before it is played, at index =
//! the round. With `dice:manual dealer:N` every round waits for the moderator's
//! `!deal 10 5 25 50 10 35 40 chips:red,blue,…`.

pub mod dice;
pub mod refusal;
pub mod report;

use gaugebot_table::commands::registry::{arg, Access, ArgKind, ArgSpec, CommandSpec, Form};
use gaugebot_table::dice::{DiceError, DrawRecord, DrawSource};
use gaugebot_table::game::{
    Ctx, Decision, Example, GameInfo, Marks, ReadMove, SetupDice, SetupOptions, Summary, TableGame,
    Text, ToAct, Worth,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::card::{Chip, ChipCounts, DEFAULT_COPIES};
use crate::draw::{dealer_seat, DrawRequest};
use crate::error::{DrawKind, PlayError, Ruling};
use crate::notation::{parse_action, parse_chips, parse_deal, NotationError};
use crate::phrasing::{self, Reading};
use crate::{Action, Actor, Event, Game, GameView, Phase, Setup};

pub use refusal::{OptionError, Refusal};

/// The stored kind of a Privates game.
pub const KIND: &str = "privates";

/// The setup as the table stores it: the engine's [`Setup`] and, with audited dice, round 1's
/// chips (drawn at setup, since round 1 begins with it).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct TableSetup {
    /// The players in seat order (= sign-up order), the deck size, the first dealer and, with
    /// audited dice, the shuffled deck.
    #[serde(flatten)]
    pub rules: Setup,
    /// Audited dice: round 1's chips in drawn order (`privates-chips`, index 1).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub chips: Option<Vec<Chip>>,
}

/// One round's draw as the log stores it: the chips (audited, or the moderator's) and, in a
/// manual game, the cards in dealt order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundDraw {
    /// The round it deals.
    pub round: u8,
    /// Manual play: the 7 cards' costs in dealt order; `None` when the deck was shuffled by
    /// audited draw.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cards: Option<Vec<u32>>,
    /// The chips, onto A, B, … in order.
    pub chips: Vec<Chip>,
    /// The bag they were drawn from (for the audit record).
    pub bag: ChipCounts,
}

/// Privates, for the table.
#[derive(Debug, Clone, Copy, Default)]
pub struct Privates;

const TEMPLATES: &[(&str, &str)] = &[
    (
        "automa.md.j2",
        include_str!("../../../templates/privates/automa.md.j2"),
    ),
    (
        "setup.md.j2",
        include_str!("../../../templates/privates/setup.md.j2"),
    ),
    (
        "status.md.j2",
        include_str!("../../../templates/privates/status.md.j2"),
    ),
    (
        "events.md.j2",
        include_str!("../../../templates/privates/events.md.j2"),
    ),
    (
        "prompt.md.j2",
        include_str!("../../../templates/privates/prompt.md.j2"),
    ),
    (
        "moves.md.j2",
        include_str!("../../../templates/privates/moves.md.j2"),
    ),
    (
        "refusal.md.j2",
        include_str!("../../../templates/privates/refusal.md.j2"),
    ),
    (
        "help.md.j2",
        include_str!("../../../templates/privates/help.md.j2"),
    ),
];

const LETTERS: &[&str] = &["A", "B", "C", "D", "E", "F", "G"];
const BUY_ARGS: &[ArgSpec] = &[arg(
    "card",
    ArgKind::Choice(LETTERS),
    false,
    "the cheapest card's letter (checked if given)",
)];
const BID_ARGS: &[ArgSpec] = &[
    arg("amount", ArgKind::Integer, true, "dollars"),
    arg(
        "card",
        ArgKind::Choice(LETTERS),
        false,
        "the card (left out in a bid-off)",
    ),
];
const RAISE_ARGS: &[ArgSpec] = &[arg("amount", ArgKind::Integer, true, "the new high bid")];
const DEAL_ARGS: &[ArgSpec] = &[
    arg(
        "cards",
        ArgKind::Text,
        true,
        "the 7 cards' costs in the order dealt",
    ),
    arg(
        "chips",
        ArgKind::Text,
        true,
        "chips:… the chips in letter order (A first)",
    ),
];

fn game_move(
    name: &'static str,
    aliases: &'static [&'static str],
    args: &'static [ArgSpec],
    summary: &'static str,
    example: &'static str,
) -> CommandSpec {
    CommandSpec {
        name,
        aliases,
        access: Access::Player,
        form: Form::Move,
        args,
        summary,
        example,
        game: Some(KIND),
    }
}

/// A setup option's value as a whole number.
fn number(key: &str, value: &str, ruling: Ruling) -> Result<u32, OptionError> {
    value.trim().parse().map_err(|_| OptionError::NotANumber {
        key: key.to_string(),
        value: value.to_string(),
        ruling,
    })
}

/// The text as the canonical notation would write it: lower case, single spaces.
fn normalized(text: &str) -> String {
    text.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

impl TableGame for Privates {
    type Setup = TableSetup;
    type State = Game;
    type Move = Action;
    type Draw = RoundDraw;
    type Events = Vec<Event>;
    type Refusal = Refusal;
    type View = GameView;
    type Notes = ();

    fn info(&self) -> GameInfo {
        GameInfo {
            kind: KIND,
            title: "Privates",
            aliases: &[],
            players: crate::setup::MIN_PLAYERS..=crate::setup::MAX_PLAYERS,
            engine_version: crate::VERSION,
            templates: TEMPLATES,
        }
    }

    fn commands(&self) -> Vec<CommandSpec> {
        vec![
            game_move(
                "buy",
                &["take"],
                BUY_ARGS,
                "buy the cheapest card at its price (at $0: take it free)",
                "buy [A]",
            ),
            game_move(
                "bid",
                &[],
                BID_ARGS,
                "bid on a dearer card (in a bid-off: raise)",
                "bid 17 on C",
            ),
            game_move(
                "pass",
                &[],
                &[],
                "pass the turn (in a bid-off: drop out)",
                "pass",
            ),
            game_move(
                "raise",
                &[],
                RAISE_ARGS,
                "raise the high bid in a bid-off",
                "raise 19",
            ),
            game_move("drop", &[], &[], "drop out of a bid-off", "drop"),
            CommandSpec {
                name: "deal",
                aliases: &[],
                access: Access::Moderator,
                form: Form::Bang,
                args: DEAL_ARGS,
                summary:
                    "a round's 7 cards in dealt order and its chips in letter order (manual dice)",
                example: "deal 10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,blue",
                game: Some(KIND),
            },
        ]
    }

    fn setup(
        &self,
        names: Vec<String>,
        options: &SetupOptions,
        dice: SetupDice<'_>,
    ) -> Result<TableSetup, Refusal> {
        if let Some(key) = options.unknown(&["dealer", "copies"]) {
            return Err(OptionError::Unknown {
                key: key.to_string(),
            }
            .into());
        }
        let copies = match options.get("copies") {
            Some(value) => {
                let n = number("copies", value, Ruling::P1)?;
                // Out of range is the setup's refusal (P1), like any other wrong count.
                u8::try_from(n).unwrap_or(u8::MAX)
            }
            None => DEFAULT_COPIES,
        };
        let players = names.len();
        let mut rules = Setup {
            players: names,
            copies,
            dealer: 0,
            deck: None,
        };
        let chips = match dice {
            SetupDice::Manual => {
                let value = options
                    .get("dealer")
                    .ok_or(OptionError::DealerNeeded { ruling: Ruling::P4 })?;
                let n = number("dealer", value, Ruling::P4)?;
                rules.dealer = dealer_seat(n, players)?;
                rules.validate()?;
                None
            }
            SetupDice::Audited(source) => {
                if options.get("dealer").is_some() {
                    return Err(OptionError::DealerIsDrawn {
                        ruling: Ruling::P16,
                    }
                    .into());
                }
                // Check the names and the deck size before anything is drawn.
                rules.validate()?;
                rules.dealer = dealer_seat(dice::dealer(source, players), players)?;
                rules.deck = Some(dice::deck(source, copies));
                let game = Game::new(&rules)?;
                let request = game.pending_draw().ok_or(PlayError::NoDrawPending {
                    ruling: Ruling::P16,
                })?;
                Some(dice::chips(source, request.index(), &request.bag()))
            }
        };
        Ok(TableSetup { rules, chips })
    }

    fn start(&self, setup: &TableSetup) -> Result<Game, Refusal> {
        let mut game = Game::new(&setup.rules)?;
        if let Some(chips) = &setup.chips {
            game.resolve_chips(chips)?;
        }
        Ok(game)
    }

    fn setup_records(&self, setup: &TableSetup) -> Vec<DrawRecord> {
        let Some(deck) = &setup.rules.deck else {
            return Vec::new();
        };
        let players = setup.rules.players.len();
        let mut records = vec![
            dice::dealer_record(players, setup.rules.dealer as u32 + 1),
            dice::deck_record(setup.rules.copies, deck),
        ];
        if let (Some(chips), Ok(game)) = (&setup.chips, Game::new(&setup.rules)) {
            if let Some(request) = game.pending_draw() {
                records.push(dice::chips_record(request.index(), &request.bag(), chips));
            }
        }
        records
    }

    fn parse_move(&self, state: &Game, text: &str) -> Result<ReadMove<Action>, Refusal> {
        let refusal = match phrasing::read_in(state, text) {
            Reading::Move { action, canonical } => {
                return Ok(ReadMove {
                    canonical: canonical || normalized(text) == normalized(&action.to_string()),
                    action,
                })
            }
            Reading::Chat => Refusal::Notation(
                parse_action(text)
                    .err()
                    .unwrap_or(NotationError::UnknownCommand {
                        word: text
                            .split_whitespace()
                            .next()
                            .unwrap_or_default()
                            .to_string(),
                        suggestion: None,
                    }),
            ),
            Reading::NearMiss {
                written,
                meant,
                suggestion,
            } => Refusal::NearMiss {
                written,
                meant,
                suggestion,
            },
            Reading::Ambiguous { options } => Refusal::Unclear { options },
            Reading::Question { action } => Refusal::Question {
                action: Some(action),
            },
            Reading::Malformed(error) => Refusal::Notation(error),
        };
        // What the player to act is offered instead is a move the game accepts now.
        Err(refusal::with_nearest(state, text, refusal))
    }

    fn is_chat(&self, text: &str) -> bool {
        // Bold with no move word in it, and not close to one, is chat: no reply.
        phrasing::read(text).is_chat() && !self.starts_as_move(text)
    }

    fn is_chat_in(&self, state: &Game, text: &str) -> bool {
        Privates::is_chat_in(self, state, text)
    }

    fn is_attempt(&self, text: &str) -> bool {
        // A near miss (`byu`) or a text that reads as a move is an attempt; otherwise only what
        // starts as a move (`bid x`).
        !matches!(phrasing::read(text), Reading::Chat | Reading::Malformed(_))
            || self.starts_as_move(text)
    }

    fn starts_as_move(&self, text: &str) -> bool {
        phrasing::starts_as_move(text)
            || gaugebot_table::game::starts_with_move_word(&self.commands(), text)
    }

    fn apply(&self, state: &mut Game, seat: usize, action: &Action) -> Result<Vec<Event>, Refusal> {
        state
            .play(seat, action)
            .map_err(|error| refusal::with_nearest_amount(state, seat, action, error))
    }

    fn to_act(&self, state: &Game) -> ToAct {
        match state.to_act() {
            Actor::Player { seat } => ToAct::Player {
                seat,
                decision: if matches!(state.phase(), Phase::BidOff { .. }) {
                    Decision::Auction
                } else {
                    Decision::Turn
                },
            },
            Actor::Draw => ToAct::Draw,
            Actor::Nobody => ToAct::Nobody,
        }
    }

    fn audited_draw(
        &self,
        state: &Game,
        source: DrawSource<'_>,
        _history_index: u64,
    ) -> Option<(u64, RoundDraw)> {
        // The chips of round r are drawn at index r (docs/DICE.md §7), wherever in the history
        // the round begins; a manual game's deal is the moderator's.
        let DrawRequest::Chips { round, bag, .. } = state.pending_draw()? else {
            return None;
        };
        let index = u64::from(round);
        Some((
            index,
            RoundDraw {
                round,
                cards: None,
                chips: dice::chips(source, index, &bag),
                bag,
            },
        ))
    }

    fn manual_draw(&self, state: &Game, _command: &str, args: &str) -> Result<RoundDraw, Refusal> {
        let request = state.pending_draw().ok_or(PlayError::NoDrawPending {
            ruling: Ruling::P16,
        })?;
        let (round, bag) = (request.round(), request.bag());
        match request {
            DrawRequest::Deal { .. } => {
                let deal = parse_deal(args)?;
                Ok(RoundDraw {
                    round,
                    cards: Some(deal.cards),
                    chips: deal.chips,
                    bag,
                })
            }
            DrawRequest::Chips { .. } => {
                // The deck was shuffled by audited draw (the seed was revealed before the end):
                // only the chips are given, as `!deal chips:red,blue,…`.
                let lower = args.to_lowercase();
                let chips = match lower.trim().split_once("chips") {
                    Some(("", chips)) => chips.trim_start().trim_start_matches([':', '=']),
                    _ => {
                        return Err(PlayError::WrongDraw {
                            expected: DrawKind::Chips,
                            given: DrawKind::Deal,
                            ruling: Ruling::P16,
                        }
                        .into())
                    }
                };
                Ok(RoundDraw {
                    round,
                    cards: None,
                    chips: parse_chips(chips)?,
                    bag,
                })
            }
        }
    }

    fn apply_draw(&self, state: &mut Game, draw: &RoundDraw) -> Result<Vec<Event>, Refusal> {
        Ok(match &draw.cards {
            Some(cards) => state.resolve_deal(cards, &draw.chips)?,
            None => state.resolve_chips(&draw.chips)?,
        })
    }

    fn draw_record(&self, index: u64, draw: &RoundDraw) -> DrawRecord {
        dice::chips_record(index, &draw.bag, &draw.chips)
    }

    fn recompute(
        &self,
        record: &DrawRecord,
        source: DrawSource<'_>,
    ) -> Option<Result<Value, DiceError>> {
        dice::recompute(record, source)
    }

    fn view(&self, state: &Game, _recent: &[Vec<Event>], _moderator: &str) -> GameView {
        GameView::from_game(state)
    }

    fn marks(&self, events: &Vec<Event>) -> Marks {
        // A report after every turn; inside a bid-off a raise or drop that leaves it running
        // only asks the next bidder.
        let ends_turn = !events
            .iter()
            .all(|e| matches!(e, Event::BidOffRaised { .. } | Event::BidOffDropped { .. }));
        Marks {
            ends_turn,
            changes_picture: false,
        }
    }

    fn render(&self, ctx: &Ctx<'_>, text: Text<'_, Self>) -> String {
        match text {
            Text::Setup { setup, state } => report::setup(ctx, setup, state),
            Text::Events {
                state,
                events,
                proxy: None,
            } => report::narrate(ctx, state, events),
            // A move the seat had no choice in, played for it: marked as automatic.
            Text::Events {
                state,
                events,
                proxy: Some(proxy),
            } if proxy.automatic => report::narrate_with(ctx, state, events, Some(proxy)),
            Text::Status { state, view } => report::status(ctx, state, view),
            Text::Prompt { state } => report::prompt(ctx, state),
            Text::Moves { state } => report::moves(ctx, state),
            Text::Refusal(refusal) => report::refusal(ctx, refusal),
            other => gaugebot_table::game::render_template(self, ctx, other),
        }
    }

    fn example_refusals(&self) -> Vec<Example<Refusal>> {
        refusal::examples()
    }

    fn rename(&self, state: &mut Game, seat: usize, name: &str) {
        state.rename_player(seat, name);
    }

    fn table_ruling(&self) -> &'static str {
        "P17"
    }

    fn summarize(&self, state: &Game, events: &Vec<Event>) -> Vec<Summary> {
        let taken = |player: &usize, letter: &crate::card::Letter, price: &u32| Summary {
            kind: "card_taken".into(),
            seat: Some(*player),
            detail: vec![format!("{letter} for ${price}")],
            key: letter.to_string(),
            ..Summary::default()
        };
        // A bid stands until the card is taken (or the bidder bids again on it).
        let bid = |player: &usize, letter: &crate::card::Letter, amount: &u32| Summary {
            kind: "bid".into(),
            seat: Some(*player),
            subject: letter.to_string(),
            amounts: vec![format!("${amount}")],
            open: true,
            key: letter.to_string(),
            ..Summary::default()
        };
        events
            .iter()
            .filter_map(|event| match event {
                Event::CardBought {
                    player,
                    letter,
                    price,
                    ..
                }
                | Event::WonByBid {
                    player,
                    letter,
                    price,
                    ..
                }
                | Event::BidOffWon {
                    player,
                    letter,
                    price,
                    ..
                } => Some(taken(player, letter, price)),
                Event::TakenFree { player, letter, .. } => Some(taken(player, letter, &0)),
                Event::BidPlaced {
                    player,
                    letter,
                    amount,
                    ..
                }
                | Event::BidOffRaised {
                    player,
                    letter,
                    amount,
                } => Some(bid(player, letter, amount)),
                Event::PriceDropped { letter, to, .. } => Some(Summary {
                    kind: "price_drop".into(),
                    detail: vec![format!("{letter} to ${to}")],
                    ..Summary::default()
                }),
                Event::RoundEnded { round, income, .. } => Some(Summary {
                    kind: "revenue".into(),
                    detail: vec![format!(
                        "round {round}: {}",
                        income
                            .iter()
                            .map(|i| format!("{} ${}", state.name(i.player), i.amount))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )],
                    ..Summary::default()
                }),
                _ => None,
            })
            .collect()
    }

    fn worth(&self, state: &Game, seat: usize) -> Option<Worth> {
        let score = crate::scoring::score(
            seat,
            state.players().get(seat)?.cash,
            &state.players().get(seat)?.cards,
        );
        state.players().get(seat).map(|p| Worth {
            cash: i64::from(p.cash),
            total: i64::from(score.cash + score.set_points + score.sequence_points),
            currency: "$",
        })
    }

    fn pressure(&self, state: &Game) -> Option<Summary> {
        if state.is_finished() {
            return None;
        }
        // The rounds still to play, this one included.
        let left = state.rounds().saturating_sub(state.round()) + 1;
        Some(Summary {
            kind: "round".into(),
            subject: format!("{} of {}", state.round(), state.rounds()),
            amounts: vec![left.to_string()],
            near: left < 3,
            ..Summary::default()
        })
    }

    /// The one move the player to act can make, when they have no choice (the table plays it for
    /// them): a pass when they can neither buy nor afford
    /// any bid (P7, P8), taking a free card at $0 (P9), dropping out of a bid-off they cannot
    /// raise in (P11). `None` when there is a choice or nobody is to act.
    fn forced_move(&self, state: &Game) -> Option<Action> {
        let forced = match state.legal_actions() {
            crate::LegalActions::Turn {
                buy, bids, pass, ..
            } => {
                let can_bid = bids.iter().any(|b| b.minimum <= b.maximum);
                match (buy, can_bid, pass) {
                    (None, false, true) => Action::Pass,
                    (Some(b), false, false) => Action::Buy {
                        letter: Some(b.letter),
                    },
                    _ => return None,
                }
            }
            crate::LegalActions::BidOff { raise: None, .. } => Action::Drop,
            _ => return None,
        };
        let Actor::Player { seat } = state.to_act() else {
            return None;
        };
        state.is_legal(seat, &forced).then_some(forced)
    }

    fn offered_moves(&self, refusal: &Refusal) -> Vec<Action> {
        refusal::offered_moves(refusal)
    }

    fn passes_every_decision(&self) -> bool {
        true
    }

    fn timeout_pass(&self, state: &Game, seat: usize) -> Option<Action> {
        // A pass in a turn, a drop in a bid-off; a free card that must be taken is taken.
        match state.legal_actions() {
            crate::LegalActions::Turn {
                player, pass: true, ..
            } if player == seat => Some(Action::Pass),
            crate::LegalActions::Turn {
                player,
                buy: Some(buy),
                ..
            } if player == seat => Some(Action::Buy {
                letter: Some(buy.letter),
            }),
            crate::LegalActions::BidOff { player, .. } if player == seat => Some(Action::Drop),
            _ => None,
        }
    }

    fn unused_table_commands(&self) -> &'static [&'static str] {
        // No board to draw, no secret auction orders.
        &["map", "preset"]
    }

    fn describe_draw(&self, draw: &RoundDraw) -> String {
        let chips: Vec<&str> = draw.chips.iter().map(|c| c.name()).collect();
        match &draw.cards {
            Some(cards) => format!(
                "round {}: {} chips:{}",
                draw.round,
                cards
                    .iter()
                    .map(u32::to_string)
                    .collect::<Vec<_>>()
                    .join(" "),
                chips.join(",")
            ),
            None => format!("round {} chips: {}", draw.round, chips.join(" ")),
        }
    }
}

impl Privates {
    /// Whether bold text is chat in this position: [`TableGame::is_chat`], except that what only
    /// the position makes a move is one (an amount alone, `$19`, in a bid-off). For the table
    /// core to ask about the player to act (issue 32, point 1).
    pub fn is_chat_in(&self, state: &Game, text: &str) -> bool {
        phrasing::read_in(state, text).is_chat() && !self.starts_as_move(text)
    }
}

#[cfg(test)]
mod forced {
    use super::*;
    use crate::playout::{random_action, random_draw};

    /// Over random games: a forced move is legal, and when there is one the game offers no
    /// other kind of move (buying, bidding or raising).
    #[test]
    fn a_forced_move_is_the_only_move() {
        let mut forced_seen = 0;
        for seed in 0..40u64 {
            let mut game =
                Game::new(&crate::Setup::manual(&["ann", "bob", "cat"], 0)).expect("a game");
            let mut state = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            let mut pick = move |n: usize| {
                state = state
                    .wrapping_mul(6_364_136_223_846_793_005)
                    .wrapping_add(1_442_695_040_888_963_407);
                usize::try_from(state >> 33).unwrap_or(0) % n.max(1)
            };
            for _ in 0..400 {
                if random_draw(&mut game, &mut pick).is_some() {
                    continue;
                }
                let Actor::Player { seat } = game.to_act() else {
                    break;
                };
                if let Some(only) = Privates.forced_move(&game) {
                    forced_seen += 1;
                    assert!(game.is_legal(seat, &only), "{only}");
                    let others = match game.legal_actions() {
                        crate::LegalActions::Turn {
                            buy, bids, pass, ..
                        } => {
                            usize::from(buy.is_some())
                                + bids.iter().filter(|b| b.minimum <= b.maximum).count()
                                + usize::from(pass)
                        }
                        crate::LegalActions::BidOff { raise, .. } => {
                            1 + usize::from(raise.is_some())
                        }
                        _ => 0,
                    };
                    assert_eq!(others, 1, "{only} is forced but there are other moves");
                }
                let Some(action) = random_action(&game, &mut pick) else {
                    break;
                };
                if game.play(seat, &action).is_err() {
                    break;
                }
            }
        }
        assert!(forced_seen > 0, "no forced move in 40 random games");
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::playout::{random_action, random_draw};
    use gaugebot_table::game::{Names, PlayerInfo};
    use gaugebot_table::{plugin, Templates};

    fn seated(names: &[&str]) -> Vec<PlayerInfo> {
        names
            .iter()
            .map(|n| PlayerInfo {
                name: n.to_string(),
                id: n.to_string(),
                mention: format!("@{n}"),
            })
            .collect()
    }

    fn templates() -> Templates {
        Templates::load(None, &gaugebot_table::texts_of(&[plugin(Privates)]))
            .expect("the templates load")
    }

    fn ctx<'a>(templates: &'a Templates, players: &'a [PlayerInfo]) -> Ctx<'a> {
        Ctx {
            templates,
            prefix: "!",
            game_id: "t-1",
            moderator: "the moderator",
            draw_source: None,
            names: Names::new(players, true, None),
        }
    }

    /// A text rendered without a template error or an unworded case.
    fn clean(text: &str) {
        assert!(!text.contains("text failed"), "{text}");
        assert!(!text.contains("refused ("), "{text}");
        assert!(!text.trim().is_empty());
    }

    fn chooser(mut state: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n.max(1) as u64) as usize
        }
    }

    #[test]
    fn every_text_of_random_games_renders() {
        let templates = templates();
        for (players, seed) in [(2, 1), (3, 2), (5, 3), (6, 4)] {
            let names: Vec<String> = (0..players).map(|i| format!("p{i}")).collect();
            let refs: Vec<&str> = names.iter().map(String::as_str).collect();
            let seated = seated(&refs);
            let ctx = ctx(&templates, &seated);
            let setup = TableSetup {
                rules: Setup::manual(&refs, players - 1),
                chips: None,
            };
            let mut game = Privates.start(&setup).expect("a game");
            clean(&report::setup(&ctx, &setup, &game));
            let mut pick = chooser(seed);
            let mut kinds = std::collections::BTreeSet::new();
            for _ in 0..5_000 {
                let events = match game.to_act() {
                    Actor::Nobody => break,
                    Actor::Draw => random_draw(&mut game, &mut pick).expect("a deal"),
                    Actor::Player { seat } => {
                        let action = random_action(&game, &mut pick).expect("a move");
                        game.play(seat, &action).expect("legal")
                    }
                };
                for e in &events {
                    kinds.insert(
                        format!("{e:?}")
                            .split([' ', '{'])
                            .next()
                            .map(str::to_string),
                    );
                }
                clean(&report::narrate(&ctx, &game, &events));
                let view = GameView::from_game(&game);
                clean(&report::status(&ctx, &game, &view));
                clean(&report::prompt(&ctx, &game));
                clean(&report::moves(&ctx, &game));
            }
            assert!(game.is_finished());
            let status = report::status(&ctx, &game, &GameView::from_game(&game));
            assert!(status.contains("**Game over.**"), "{status}");
            assert!(kinds.len() >= 10, "{kinds:?}");
        }
    }

    #[test]
    fn every_refusal_is_worded_and_names_its_ruling() {
        let templates = templates();
        let seated = seated(&["ann", "bob", "cat"]);
        let ctx = ctx(&templates, &seated);
        let examples = Privates.example_refusals();
        assert!(examples.len() > 40, "{}", examples.len());
        for (refusal, _) in &examples {
            let text = report::refusal(&ctx, refusal);
            clean(&text);
            let cited = match refusal {
                Refusal::Play(error) => format!("({}, {})", error.ruling(), error.ruling().title()),
                Refusal::Setup(error) => format!("({})", error.ruling()),
                _ => continue,
            };
            assert!(text.ends_with(&cited), "{refusal:?}: {text}");
        }
        let names = report::refusal(
            &ctx,
            &Refusal::Play(PlayError::NotYourTurn {
                player: 1,
                to_act: 0,
                ruling: Ruling::P7,
            }),
        );
        assert_eq!(names, "it is ann's turn, not bob's (P7, a turn)");
        for values in [
            vec![("colour".to_string(), "red".to_string())],
            vec![("dealer".to_string(), "x".to_string())],
            Vec::new(),
        ] {
            let refusal = Privates
                .setup(
                    vec!["ann".into(), "bob".into()],
                    &SetupOptions { values },
                    SetupDice::Manual,
                )
                .expect_err("refused");
            clean(&report::refusal(&ctx, &refusal));
        }
    }

    #[test]
    fn setups_store_their_draws_and_read_back() {
        let seed = gaugebot_table::dice::Seed::from_hex(&"ab".repeat(32)).expect("seed");
        let source = DrawSource {
            spec: gaugebot_table::dice::Spec::V1,
            message_id: "",
            seed: &seed,
            game_id: "g-1",
        };
        let names = || vec!["ann".to_string(), "bob".to_string(), "cat".to_string()];
        let options = SetupOptions {
            values: vec![("copies".into(), "5".into())],
        };
        let setup = Privates
            .setup(names(), &options, SetupDice::Audited(source))
            .expect("an audited setup");
        let json = serde_json::to_value(&setup).expect("json");
        assert_eq!(json["copies"], 5);
        assert_eq!(json["deck"].as_array().map(Vec::len), Some(45));
        assert_eq!(json["chips"].as_array().map(Vec::len), Some(7));
        let back: TableSetup = serde_json::from_value(json).expect("reads back");
        assert_eq!(back, setup);
        let game = Privates.start(&setup).expect("starts");
        assert_eq!(game.rounds(), 6);
        assert!(matches!(Privates.to_act(&game), ToAct::Player { .. }));
        let records = Privates.setup_records(&setup);
        assert_eq!(records.len(), 3);
        for record in &records {
            let expected = Privates
                .recompute(record, DrawSource::v1(&seed, "g-1"))
                .expect("a Privates purpose")
                .expect("valid");
            assert_eq!(expected, record.result, "{record:?}");
        }
        let manual = SetupOptions {
            values: vec![("dealer".into(), "3".into())],
        };
        let setup = Privates
            .setup(names(), &manual, SetupDice::Manual)
            .expect("a manual setup");
        assert_eq!(setup.rules.dealer, 2);
        assert!(Privates.setup_records(&setup).is_empty());
        let json = serde_json::to_value(&setup).expect("json");
        assert!(json.get("chips").is_none() && json["deck"].is_null());
    }
}
