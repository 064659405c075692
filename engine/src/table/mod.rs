//! Irish Gauge as a plug-in of the gaugebot table core (feature `table`): the rules stay in the
//! engine; this module gives the table the game's setup rolls, draws and audit records
//! ([`dice`]), its view model ([`view`]), texts ([`report`] and `templates/irish-gauge/`) and map
//! ([`map`]).

pub mod dice;
pub mod log;
pub mod map;
pub mod presets;
pub mod report;
pub mod suggest;
pub mod view;

use gaugebot_table::commands::registry::{arg, Access, ArgKind, CommandSpec, Form};
use gaugebot_table::dice::{DiceError, DrawRecord, DrawSource};
use gaugebot_table::game::{
    render_template, Ctx, Decision, Example, GameInfo, Marks, PictureError, Preset, PresetAnswer,
    Query, QuickMove, ReadMove, SetupDice, SetupOptions, Suggestion, Summary, TableGame, Text,
    ToAct, Worth,
};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::game::Phase;
use crate::notation::{check_named_share, parse_action, parse_cubes, read, read_in, Reading};
use crate::odds::{self, Ratio};
use crate::{
    Action, Actor, Colour, CubeCounts, Event, Game, PlayError, Railway, Reason, Rule, Setup,
};

pub use report::Refusal;
pub use view::View;

/// The stored kind of an Irish Gauge game.
pub const KIND: &str = "irish-gauge";

/// The cubes of one dividend draw and the supply they came from (a log entry's fields).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct CubeDraw {
    /// The cubes in drawn order.
    pub cubes: Vec<Colour>,
    /// The supply before the draw.
    pub supply: CubeCounts,
}

/// Irish Gauge, for the table.
#[derive(Debug, Clone, Copy, Default)]
pub struct IrishGauge;

const TEMPLATES: &[(&str, &str)] = &[
    (
        "automa.md.j2",
        include_str!("../../../templates/irish-gauge/automa.md.j2"),
    ),
    (
        "status.md.j2",
        include_str!("../../../templates/irish-gauge/status.md.j2"),
    ),
    (
        "picture_alt.md.j2",
        include_str!("../../../templates/irish-gauge/picture_alt.md.j2"),
    ),
    (
        "events.md.j2",
        include_str!("../../../templates/irish-gauge/events.md.j2"),
    ),
    (
        "moves.md.j2",
        include_str!("../../../templates/irish-gauge/moves.md.j2"),
    ),
    (
        "prompt.md.j2",
        include_str!("../../../templates/irish-gauge/prompt.md.j2"),
    ),
    (
        "refusal.md.j2",
        include_str!("../../../templates/irish-gauge/refusal.md.j2"),
    ),
    (
        "setup.md.j2",
        include_str!("../../../templates/irish-gauge/setup.md.j2"),
    ),
    (
        "help.md.j2",
        include_str!("../../../templates/irish-gauge/help.md.j2"),
    ),
    (
        "odds.md.j2",
        include_str!("../../../templates/irish-gauge/odds.md.j2"),
    ),
    (
        "preset.md.j2",
        include_str!("../../../templates/irish-gauge/preset.md.j2"),
    ),
];

const BID_ARGS: &[gaugebot_table::commands::registry::ArgSpec] =
    &[arg("amount", ArgKind::Integer, true, "pounds")];
const RAILWAYS: &[&str] = &["CBSC", "WLW", "BCD", "GSW", "MGW"];
const AUCTION_ARGS: &[gaugebot_table::commands::registry::ArgSpec] = &[
    arg("railway", ArgKind::Choice(RAILWAYS), true, "the railway"),
    arg(
        "amount",
        ArgKind::Integer,
        false,
        "the opening bid (face value if left out)",
    ),
];
const BUILD_ARGS: &[gaugebot_table::commands::registry::ArgSpec] = &[
    arg("railway", ArgKind::Choice(RAILWAYS), true, "the railway"),
    arg("hexes", ArgKind::Text, true, "hex ids or town names"),
];
const INTEREST_ARGS: &[gaugebot_table::commands::registry::ArgSpec] = &[
    arg("town", ArgKind::Text, true, "the town"),
    arg(
        "colour",
        ArgKind::Choice(&["white", "pink", "black"]),
        true,
        "the cube colour",
    ),
];
const DRAW_ARGS: &[gaugebot_table::commands::registry::ArgSpec] = &[arg(
    "cubes",
    ArgKind::Text,
    true,
    "the colours in drawn order",
)];

fn game_move(
    name: &'static str,
    aliases: &'static [&'static str],
    args: &'static [gaugebot_table::commands::registry::ArgSpec],
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

/// Reads a roll like `3,1,2,4` or `{3, 1, 2, 4}`.
fn numbers(text: &str, what: &str) -> Result<Vec<u8>, Refusal> {
    text.trim_matches(|c| c == '{' || c == '}')
        .split(',')
        .map(|n| {
            n.trim().parse::<u8>().map_err(|_| {
                Refusal::Option(format!("'{}' in the {what} roll is not a number", n.trim()))
            })
        })
        .collect()
}

impl TableGame for IrishGauge {
    type Setup = Setup;
    type State = Game;
    type Move = Action;
    type Draw = CubeDraw;
    type Events = Vec<Event>;
    type Refusal = Refusal;
    type View = View;
    /// Each dividend call: the expected payout of every seat, and what each received.
    type Notes = Vec<(Vec<Ratio>, Vec<u32>)>;

    fn info(&self) -> GameInfo {
        GameInfo {
            kind: KIND,
            title: "Irish Gauge",
            aliases: &["ig", "irish", "irishgauge"],
            players: 3..=5,
            engine_version: crate::VERSION,
            templates: TEMPLATES,
        }
    }

    fn commands(&self) -> Vec<CommandSpec> {
        vec![
            game_move("bid", &[], BID_ARGS, "raise the high bid", "bid 7"),
            game_move("pass", &[], &[], "drop out of the auction", "pass"),
            game_move(
                "auction",
                &[],
                AUCTION_ARGS,
                "put a share up for auction",
                "auction GSW [6]",
            ),
            game_move(
                "build",
                &[],
                BUILD_ARGS,
                "place locomotives (up to 3 BP)",
                "build WLW K3 L3",
            ),
            game_move(
                "interest",
                &["special interest", "si"],
                INTEREST_ARGS,
                "turn a town into a city with a cube",
                "interest Sligo pink",
            ),
            game_move(
                "dividends",
                &["call dividends"],
                &[],
                "call for dividends",
                "dividends",
            ),
            CommandSpec {
                name: "odds",
                aliases: &["chances"],
                access: Access::Anyone,
                form: Form::Bang,
                args: &[],
                summary: "the exact odds of a dividend call now",
                example: "",
                game: Some(KIND),
            },
            CommandSpec {
                name: "draw",
                aliases: &[],
                access: Access::Moderator,
                form: Form::Bang,
                args: DRAW_ARGS,
                summary: "the cubes of a dividend call (manual dice)",
                example: "draw pink black black",
                game: Some(KIND),
            },
        ]
    }

    fn setup(
        &self,
        names: Vec<String>,
        options: &SetupOptions,
        dice: SetupDice<'_>,
    ) -> Result<Setup, Refusal> {
        if let Some(key) = options.unknown(&["order", "cities"]) {
            return Err(Refusal::Option(format!(
                "unknown option '{key}:' (Irish Gauge takes order: and cities: with dice:manual)"
            )));
        }
        let order = options
            .get("order")
            .map(|o| numbers(o, "order"))
            .transpose()?;
        let cities = options
            .get("cities")
            .map(|c| numbers(c, "city"))
            .transpose()?;
        let (order, cities) = match (dice, order, cities) {
            (SetupDice::Manual, Some(order), Some(cities)) => {
                let cities: [u8; 8] = cities.as_slice().try_into().map_err(|_| {
                    Refusal::Option(format!(
                        "the city roll needs 8 numbers, not {}",
                        cities.len()
                    ))
                })?;
                (order, cities)
            }
            (SetupDice::Manual, _, _) => {
                return Err(Refusal::Option(
                    "dice:manual needs both rolls: order:3,1,2,4 and cities:5,2,3,11,4,7,9,12"
                        .into(),
                ))
            }
            (SetupDice::Audited(source), None, None) => (
                dice::player_order(source, names.len()),
                dice::city_cubes(source),
            ),
            (SetupDice::Audited(_), _, _) => {
                return Err(Refusal::Option(
                    "order: and cities: go with dice:manual".into(),
                ))
            }
        };
        let setup = Setup {
            players: names,
            order,
            cities,
        };
        setup.validate().map_err(Refusal::Setup)?;
        Ok(setup)
    }

    fn start(&self, setup: &Setup) -> Result<Game, Refusal> {
        Game::new(setup).map_err(Refusal::Setup)
    }

    fn seats(&self, setup: &Setup, _players: usize) -> Vec<usize> {
        setup
            .order
            .iter()
            .map(|&n| usize::from(n).saturating_sub(1))
            .collect()
    }

    fn setup_records(&self, setup: &Setup) -> Vec<DrawRecord> {
        vec![
            dice::player_order_record(&setup.order),
            dice::city_cubes_record(&setup.cities),
        ]
    }

    // A hop of the path of a move (docs/ARCHITECTURE.md, bot/tests/hops.rs).
    #[tracing::instrument(target = "hop", level = "trace", skip_all)]
    fn parse_move(&self, state: &Game, text: &str) -> Result<ReadMove<Action>, Refusal> {
        let reading = read_in(state, text);
        let refused = match reading {
            Reading::Move {
                ref action,
                canonical,
                ..
            } => {
                check_named_share(state, &reading).map_err(Refusal::NamedShare)?;
                Ok(ReadMove {
                    action: action.clone(),
                    canonical,
                })
            }
            Reading::Chat => Err(Refusal::Notation(
                parse_action(text)
                    .err()
                    .unwrap_or(crate::notation::NotationError::Empty),
            )),
            Reading::NearMiss {
                written,
                meant,
                suggestion,
            } => Err(Refusal::NearMiss {
                written,
                meant,
                suggestion,
            }),
            Reading::Ambiguous { options, why } => Err(Refusal::Unclear { options, why }),
            Reading::Malformed(error) => Err(Refusal::Notation(error)),
        };
        // What the player to act is offered instead is a move the game accepts now.
        refused.map_err(|refusal| suggest::with_nearest(state, text, refusal))
    }

    fn is_chat(&self, text: &str) -> bool {
        read(text).is_chat()
    }

    fn is_chat_in(&self, state: &Game, text: &str) -> bool {
        read_in(state, text).is_chat()
    }

    fn is_attempt(&self, text: &str) -> bool {
        // A near miss (`bdi 8`) or a text that reads several ways is an attempt; a malformed
        // command only when it starts as a move (`build WLW N7`, `place track`, not `Nice
        // build!`).
        match read(text) {
            Reading::Move { .. } | Reading::NearMiss { .. } | Reading::Ambiguous { .. } => true,
            Reading::Chat => false,
            Reading::Malformed(_) => self.starts_as_move(text),
        }
    }

    fn starts_as_move(&self, text: &str) -> bool {
        crate::notation::starts_as_move(text)
    }

    #[tracing::instrument(target = "hop", level = "trace", skip_all)]
    fn apply(&self, state: &mut Game, seat: usize, action: &Action) -> Result<Vec<Event>, Refusal> {
        state
            .play(seat, action)
            .map_err(|error| suggest::with_nearest_amount(state, seat, action, error))
    }

    fn to_act(&self, state: &Game) -> ToAct {
        match state.to_act() {
            Actor::Player { seat } => ToAct::Player {
                seat,
                decision: if matches!(state.phase(), Phase::Turn { .. }) {
                    Decision::Turn
                } else {
                    Decision::Auction
                },
            },
            Actor::Dice => ToAct::Draw,
            Actor::Nobody => ToAct::Nobody,
        }
    }

    fn audited_draw(
        &self,
        state: &Game,
        source: DrawSource<'_>,
        history_index: u64,
    ) -> Option<(u64, CubeDraw)> {
        let request = state.pending_draw()?;
        let cubes = dice::dividend_draw(source, history_index, request.supply);
        Some((
            history_index,
            CubeDraw {
                cubes,
                supply: request.supply,
            },
        ))
    }

    fn manual_draw(&self, state: &Game, _command: &str, args: &str) -> Result<CubeDraw, Refusal> {
        let request = state
            .pending_draw()
            .ok_or(Refusal::Play(PlayError::illegal(
                Rule::Draw,
                Reason::NoDrawPending,
            )))?;
        let cubes = parse_cubes(args).map_err(Refusal::Notation)?;
        Ok(CubeDraw {
            cubes,
            supply: request.supply,
        })
    }

    fn apply_draw(&self, state: &mut Game, draw: &CubeDraw) -> Result<Vec<Event>, Refusal> {
        state.resolve_draw(&draw.cubes).map_err(Refusal::Play)
    }

    fn draw_record(&self, index: u64, draw: &CubeDraw) -> DrawRecord {
        dice::dividend_record(index, draw.supply, &draw.cubes)
    }

    fn recompute(
        &self,
        record: &DrawRecord,
        source: DrawSource<'_>,
    ) -> Option<Result<Value, DiceError>> {
        dice::recompute(record, source)
    }

    fn view(&self, state: &Game, recent: &[Vec<Event>], moderator: &str) -> View {
        let recent = recent.iter().flat_map(|e| view::placed_hexes(e)).collect();
        View::of(state, moderator, recent)
    }

    fn picture(&self, view: &View) -> Option<Result<Vec<u8>, PictureError>> {
        Some(map::render_png(view).map_err(|e| PictureError(e.to_string())))
    }

    fn picture_svg(&self, view: &View) -> Option<String> {
        Some(map::render_svg(view))
    }

    fn marks(&self, events: &Vec<Event>) -> Marks {
        Marks {
            ends_turn: events
                .iter()
                .any(|e| matches!(e, Event::TurnBegan { .. } | Event::GameOver { .. })),
            changes_picture: !view::placed_hexes(events).is_empty(),
        }
    }

    fn render(&self, ctx: &Ctx<'_>, text: Text<'_, Self>) -> String {
        match text {
            Text::Setup { setup, state } => report::setup(ctx, setup, state),
            Text::Events {
                state,
                events,
                proxy,
            } => report::narrate_with(ctx, state, events, proxy),
            Text::Status { state, view } => report::status(ctx, view, &report::prompt(ctx, state)),
            // The luck line at the end, from each dividend call's odds.
            Text::Notes { state, notes } if state.is_finished() && !notes.is_empty() => {
                report::luck(ctx, state, notes)
            }
            Text::Prompt { state } => report::prompt(ctx, state),
            Text::Moves { state } => report::moves(ctx, state),
            Text::Refusal(refusal) => report::refusal(ctx, refusal),
            Text::Preset(order) => report::preset(ctx, order),
            Text::PictureAlt { view } => report::picture_alt(ctx, view),
            other => render_template(self, ctx, other),
        }
    }

    fn example_refusals(&self) -> Vec<Example<Refusal>> {
        report::example_refusals()
    }

    fn note(&self, notes: &mut Self::Notes, after: &Game, events: &Vec<Event>) {
        if events
            .iter()
            .any(|e| matches!(e, Event::DividendsCalled { .. }))
        {
            // The odds of the pending draw, from the position the call left.
            notes.push((odds::odds(after).expected, Vec::new()));
        }
        if events.iter().any(|e| matches!(e, Event::CubesDrawn { .. })) {
            let received = odds::received(events, after.players().len());
            match notes.last_mut() {
                Some((_, paid)) if paid.is_empty() => *paid = received,
                _ => {}
            }
        }
    }

    fn answer(&self, ctx: &Ctx<'_>, state: &Game, command: &str, _args: &str) -> Option<String> {
        (command == "odds").then(|| report::odds(ctx, state))
    }

    fn describe_draw(&self, draw: &CubeDraw) -> String {
        draw.cubes
            .iter()
            .map(|c| c.name())
            .collect::<Vec<_>>()
            .join(" ")
    }

    fn suggest(&self, state: &Game, seat: Option<usize>, query: &Query<'_>) -> Vec<Suggestion> {
        suggest::suggest(state, seat, query)
    }

    fn quick_moves(&self, state: &Game) -> Vec<QuickMove> {
        suggest::quick_moves(state)
    }

    fn offered_moves(&self, refusal: &Refusal) -> Vec<Action> {
        suggest::offered_moves(refusal)
    }

    fn auto_move(&self, state: &Game, seat: usize) -> Option<Action> {
        presets::auto_move(state, seat)
    }

    /// A pass in an auction whose least bid is more than the bidder's cash (ruling 2). The
    /// engine already passes for such a bidder itself (an automatic pass, ruling 11), so this
    /// is `None` in every position it leaves; it is the hook's answer should that change.
    fn forced_move(&self, state: &Game) -> Option<Action> {
        match state.legal_actions() {
            crate::game::LegalActions::Bidding {
                player, min, max, ..
            } if min > max && state.is_legal(player, &Action::Pass) => Some(Action::Pass),
            _ => None,
        }
    }

    fn read_preset(
        &self,
        state: &Game,
        seat: usize,
        text: &str,
    ) -> Option<Result<Preset, Refusal>> {
        Some(presets::read(state, seat, text).map_err(Refusal::Preset))
    }

    fn preset_answer(&self, state: &Game, seat: usize, orders: &[Value]) -> PresetAnswer<Action> {
        presets::answer(state, seat, orders)
    }

    fn rename(&self, state: &mut Game, seat: usize, name: &str) {
        state.rename_player(seat, name);
    }

    fn table_ruling(&self) -> &'static str {
        "ruling 27"
    }

    fn summarize(&self, state: &Game, events: &Vec<Event>) -> Vec<Summary> {
        let money = |amount: u32| format!("£{amount}");
        let share = |railway: &Railway, face: u32| format!("the {railway} {} share", money(face));
        // The share a bid is for: the auction still running, or the one the bid ended.
        let auctioned = state
            .auction()
            .map(|(auction, _)| share(&auction.railway, auction.face))
            .or_else(|| {
                events.iter().find_map(|e| match e {
                    Event::ShareWon { railway, face, .. } => Some(share(railway, *face)),
                    _ => None,
                })
            })
            .unwrap_or_default();
        events
            .iter()
            .filter_map(|event| match event {
                Event::ShareWon {
                    player,
                    railway,
                    face,
                    price,
                } => Some(Summary {
                    kind: "share_won".into(),
                    seat: Some(*player),
                    subject: share(railway, *face),
                    amounts: vec![money(*price)],
                    key: share(railway, *face),
                    ..Summary::default()
                }),
                // A bid stands until the share is won (or the bidder bids again).
                Event::Bid { player, amount } => Some(Summary {
                    kind: "bid".into(),
                    seat: Some(*player),
                    subject: auctioned.clone(),
                    amounts: vec![money(*amount)],
                    open: true,
                    key: auctioned.clone(),
                    ..Summary::default()
                }),
                Event::LocomotivesPlaced { railway, hexes, .. } => Some(Summary {
                    kind: "build".into(),
                    subject: railway.to_string(),
                    // The towns and cities reached, by name.
                    detail: hexes
                        .iter()
                        .filter_map(|(hex, _)| hex.hex().name.clone())
                        .collect(),
                    ..Summary::default()
                }),
                Event::SpecialInterestPlaced {
                    player,
                    town,
                    colour,
                } => Some(Summary {
                    kind: "interest".into(),
                    seat: Some(*player),
                    detail: vec![format!(
                        "{} ({colour})",
                        town.hex()
                            .name
                            .clone()
                            .unwrap_or_else(|| town.label().to_string())
                    )],
                    ..Summary::default()
                }),
                Event::Dividend {
                    railway, per_share, ..
                } if *per_share > 0 => Some(Summary {
                    kind: "dividends".into(),
                    detail: vec![format!("{railway} {} a share", money(*per_share))],
                    ..Summary::default()
                }),
                _ => None,
            })
            .collect()
    }

    fn worth(&self, state: &Game, seat: usize) -> Option<Worth> {
        state.players().get(seat).map(|p| Worth {
            cash: i64::from(p.cash),
            total: i64::from(state.score(seat)),
            currency: "£",
        })
    }

    fn pressure(&self, state: &Game) -> Option<Summary> {
        if state.is_finished() {
            return None;
        }
        // A dividend call draws three cubes (the last one what is left); the game ends when
        // the supply is empty.
        let cubes = state.supply().total();
        let calls = cubes.div_ceil(3);
        Some(Summary {
            kind: "cubes_left".into(),
            amounts: vec![cubes.to_string(), calls.to_string()],
            near: calls < 3,
            ..Summary::default()
        })
    }
}

impl IrishGauge {
    /// Whether bold text is chat in this position: [`TableGame::is_chat`], except that what only
    /// the position makes a move is one (an amount alone, `£9`, while an auction runs). For the
    /// table core to ask about the player to act (issue 32, point 1).
    pub fn is_chat_in(&self, state: &Game, text: &str) -> bool {
        read_in(state, text).is_chat()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_amount_alone_is_chat_except_in_an_auction() {
        let setup = Setup {
            players: vec!["ann".into(), "bob".into(), "cat".into()],
            order: vec![1, 2, 3],
            cities: [5, 2, 3, 11, 4, 7, 9, 12],
        };
        let mut game = Game::new(&setup).expect("a game");
        assert!(IrishGauge.is_chat("£9"));
        assert!(!IrishGauge.is_chat_in(&game, "£9"));
        assert!(IrishGauge.is_chat_in(&game, "good luck"));
        for _ in 0..15 {
            let Actor::Player { seat } = game.to_act() else {
                panic!("a player to act");
            };
            game.play(seat, &Action::Pass).expect("a pass");
        }
        assert!(IrishGauge.is_chat_in(&game, "£9"));
        assert_eq!(IrishGauge.forced_move(&game), None);
    }

    #[test]
    fn nobody_is_asked_for_a_bid_they_cannot_afford() {
        let setup = Setup {
            players: vec!["ann".into(), "bob".into(), "cat".into()],
            order: vec![1, 2, 3],
            cities: [5, 2, 3, 11, 4, 7, 9, 12],
        };
        let mut game = Game::new(&setup).expect("a game");
        assert_eq!(IrishGauge.forced_move(&game), None);
        // ann bids all her £20 on CBSC: bob and cat cannot bid £21. The engine passes for them
        // itself (an automatic pass), so the next player asked always has a choice.
        game.play(0, &Action::Bid { amount: 20 }).expect("legal");
        assert_eq!(IrishGauge.forced_move(&game), None);
        if let crate::game::LegalActions::Bidding { min, max, .. } = game.legal_actions() {
            assert!(min <= max, "asked for a bid they cannot afford");
        }
    }

    #[test]
    fn the_phrasing_help_is_the_readers_own_text() {
        let help = TEMPLATES
            .iter()
            .find(|(name, _)| *name == "help.md.j2")
            .map(|(_, text)| *text)
            .unwrap_or_default();
        assert!(
            help.contains(crate::notation::HELP_PHRASING),
            "templates/irish-gauge/help.md.j2 must quote notation::HELP_PHRASING word for word"
        );
    }
}
