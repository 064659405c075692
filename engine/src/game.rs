//! The game: a validated position that actions move forward.

use std::fmt;
use std::sync::LazyLock;

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::board::{Board, HexId, Terrain, CITY_DRAW_ORDER, HEX_COUNT};
use crate::error::{Decision, PlayError, Reason, Rule, SetupError};
use crate::event::{AutoPassReason, Event, Payout, Seat};
use crate::hexset::HexSet;
use crate::railway::{Colour, CubeCounts, Railway, LOCOMOTIVES_PER_RAILWAY};
use crate::setup::{Setup, MAX_PLAYERS, STARTING_CASH};

/// Cubes of each colour in the game (ruling 19).
pub const CUBES_PER_COLOUR: u8 = 10;
/// Build points per build, in half points (ruling 13).
pub const BUILD_BUDGET_HALF_POINTS: u8 = 6;
/// The Major City Dividend in pounds (ruling 15).
pub const MAJOR_CITY_DIVIDEND: u32 = 12;

/// The hexes of the starting cities, in [`CITY_DRAW_ORDER`] (looked up by name once).
static CITY_HEXES: LazyLock<[HexId; 8]> =
    LazyLock::new(|| CITY_DRAW_ORDER.map(|name| Board::get().named(name)));

/// A running auction.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuctionState {
    /// The railway whose lowest share is up.
    pub railway: Railway,
    /// Its face value.
    pub face: u32,
    /// The high bidder and bid, if anyone has bid.
    pub high: Option<(Seat, u32)>,
    /// Who has passed (by seat).
    pub passed: Vec<bool>,
    /// Who is asked to bid or pass now.
    pub to_bid: Seat,
}

/// Where the game stands.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// One of the five initial auctions (rulings 4–7).
    InitialAuction {
        /// 0..5: CBSC, WLW, BCD, GSW, MGW.
        lot: usize,
        /// The opening bidder, who takes the share free if nobody bids.
        opener: Seat,
        /// The bidding.
        auction: AuctionState,
    },
    /// A player is to choose an action.
    Turn {
        /// Whose turn.
        player: Seat,
    },
    /// A regular auction started by the player whose turn it is.
    Auction {
        /// Whose turn it is.
        auctioneer: Seat,
        /// The bidding.
        auction: AuctionState,
    },
    /// Dividends were called; the cubes must be drawn.
    AwaitingDraw {
        /// Whose turn it is.
        caller: Seat,
        /// Cubes to draw.
        count: u8,
    },
    /// The game is over.
    Finished,
}

/// Who must act now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "actor", rename_all = "snake_case")]
pub enum Actor {
    /// This player, to take a turn or to bid.
    Player {
        /// The seat.
        seat: Seat,
    },
    /// The dice: cubes must be drawn (see [`Game::pending_draw`]).
    Dice,
    /// Nobody: the game is over.
    Nobody,
}

/// A request for random cubes: the engine asks, the caller draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct DrawRequest {
    /// How many cubes to draw without replacement.
    pub count: u8,
    /// The supply to draw them from.
    pub supply: CubeCounts,
}

impl fmt::Display for DrawRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "draw {} cubes from a supply of {}",
            self.count, self.supply
        )
    }
}

/// One player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// Name.
    pub name: String,
    /// Cash in pounds.
    pub cash: u32,
}

/// One railway's board state.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RailwayState {
    /// Hexes with its locomotives.
    pub track: HexSet,
    /// Owner of each share certificate, lowest face value first.
    pub owners: Vec<Option<Seat>>,
    /// Whether the Major City Dividend has been paid.
    pub major_bonus_paid: bool,
}

impl RailwayState {
    /// Locomotives not yet on the board.
    pub fn unplaced(&self) -> u8 {
        LOCOMOTIVES_PER_RAILWAY - self.track.len() as u8
    }

    /// Shares owned by players.
    pub fn sold(&self) -> u32 {
        self.owners.iter().filter(|o| o.is_some()).count() as u32
    }

    /// Shares held by one player.
    pub fn held_by(&self, seat: Seat) -> u32 {
        self.owners.iter().filter(|o| **o == Some(seat)).count() as u32
    }
}

/// The buildable hexes of one railway, with their costs (for `!moves`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuildOption {
    /// The railway.
    pub railway: Railway,
    /// Locomotives left.
    pub unplaced: u8,
    /// Hexes adjacent to its track where it may place now, with cost in half build points.
    pub hexes: Vec<(HexId, u8)>,
}

/// An auction the player to act may open.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuctionOption {
    /// The railway.
    pub railway: Railway,
    /// The lowest share's face value, the least opening bid.
    pub face: u32,
    /// The most the player can bid.
    pub max_bid: u32,
}

/// A special interest the player to act may place.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct InterestOption {
    /// The town.
    pub town: HexId,
    /// Colours still in the supply.
    pub colours: Vec<Colour>,
}

/// What the player to act may do (Rally the Troops style prompts).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LegalActions {
    /// In an auction: bid from `min` to `max`, or pass.
    Bidding {
        /// Who is asked.
        player: Seat,
        /// The railway.
        railway: Railway,
        /// The least legal bid.
        min: u32,
        /// The most they can bid.
        max: u32,
    },
    /// On a turn: any of these.
    Turn {
        /// Whose turn.
        player: Seat,
        /// Auctions they may open.
        auctions: Vec<AuctionOption>,
        /// Railways they may build for.
        builds: Vec<BuildOption>,
        /// Special interests they may place.
        interests: Vec<InterestOption>,
    },
    /// Cubes must be drawn.
    Draw(DrawRequest),
    /// The game is over.
    None,
}

/// A game of Irish Gauge.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub(crate) players: Vec<PlayerState>,
    pub(crate) railways: Vec<RailwayState>,
    /// The cube on each hex (cities and towns made cities), by hex index.
    pub(crate) cubes: Vec<Option<Colour>>,
    pub(crate) supply: CubeCounts,
    pub(crate) draws: Vec<Vec<Colour>>,
    pub(crate) phase: Phase,
    pub(crate) turn: u32,
}

impl Game {
    /// Validates a setup into a game at the start of the first initial auction.
    pub fn new(setup: &Setup) -> Result<Game, SetupError> {
        let valid = setup.validate()?;
        let mut cubes = vec![None; HEX_COUNT];
        let mut supply = CubeCounts::from_array([CUBES_PER_COLOUR; 3]);
        for (hex, colour) in CITY_HEXES.iter().zip(valid.city_cubes) {
            cubes[hex.index()] = Some(colour);
            *supply.get_mut(colour) -= 1;
        }
        let railways = Railway::ALL
            .iter()
            .map(|r| RailwayState {
                track: [r.start()].into_iter().collect(),
                owners: vec![None; r.share_values().len()],
                major_bonus_paid: false,
            })
            .collect();
        let players: Vec<PlayerState> = valid
            .seats
            .into_iter()
            .map(|name| PlayerState {
                name,
                cash: STARTING_CASH,
            })
            .collect();
        let mut game = Game {
            cubes,
            supply,
            railways,
            draws: Vec::new(),
            phase: Phase::Finished,
            turn: 0,
            players,
        };
        let mut events = Vec::new();
        game.open_initial_auction(0, 0, &mut events);
        Ok(game)
    }

    // ----- Reading the position -----

    /// The players in seat order.
    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }

    /// The seat of a player by name (case-insensitive).
    pub fn seat_of(&self, name: &str) -> Option<Seat> {
        self.players
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name.trim()))
    }

    /// A player's name.
    pub fn name(&self, seat: Seat) -> &str {
        &self.players[seat].name
    }

    /// Gives a seat to another player (a substitute): the seat keeps its cash and shares, only
    /// the name changes. A seat out of range changes nothing.
    pub fn rename_player(&mut self, seat: Seat, name: &str) {
        if let Some(player) = self.players.get_mut(seat) {
            player.name = name.to_string();
        }
    }

    /// A railway's state.
    pub fn railway(&self, railway: Railway) -> &RailwayState {
        &self.railways[railway.index()]
    }

    /// The cube on a hex, if it is a city.
    pub fn cube(&self, hex: HexId) -> Option<Colour> {
        self.cubes[hex.index()]
    }

    /// Whether a hex is a town: urban with no cube.
    pub fn is_town(&self, hex: HexId) -> bool {
        hex.hex().terrain.is_urban() && self.cubes[hex.index()].is_none()
    }

    /// Every city (urban hex with a cube) with its colour, in board order.
    pub fn cities(&self) -> impl Iterator<Item = (HexId, Colour)> + '_ {
        self.cubes
            .iter()
            .enumerate()
            .filter_map(|(i, c)| c.map(|c| (HexId(i as u8), c)))
    }

    /// Cubes still in the supply.
    pub fn supply(&self) -> CubeCounts {
        self.supply
    }

    /// Every dividend draw so far, in order.
    pub fn draws(&self) -> &[Vec<Colour>] {
        &self.draws
    }

    /// The phase.
    pub fn phase(&self) -> &Phase {
        &self.phase
    }

    /// The running auction and the seat that opened it, if one is running.
    pub fn auction(&self) -> Option<(&AuctionState, Seat)> {
        match &self.phase {
            Phase::InitialAuction {
                auction, opener, ..
            } => Some((auction, *opener)),
            Phase::Auction {
                auction,
                auctioneer,
            } => Some((auction, *auctioneer)),
            _ => None,
        }
    }

    /// The turn number (0 during the initial auctions).
    pub fn turn(&self) -> u32 {
        self.turn
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.phase == Phase::Finished
    }

    /// Who must act now.
    pub fn to_act(&self) -> Actor {
        match &self.phase {
            Phase::InitialAuction { auction, .. } | Phase::Auction { auction, .. } => {
                Actor::Player {
                    seat: auction.to_bid,
                }
            }
            Phase::Turn { player } => Actor::Player { seat: *player },
            Phase::AwaitingDraw { .. } => Actor::Dice,
            Phase::Finished => Actor::Nobody,
        }
    }

    /// The draw the game waits for, if any.
    pub fn pending_draw(&self) -> Option<DrawRequest> {
        match self.phase {
            Phase::AwaitingDraw { count, .. } => Some(DrawRequest {
                count,
                supply: self.supply,
            }),
            _ => None,
        }
    }

    /// The face values of the shares a player holds, railway by railway.
    pub fn shares_of(&self, seat: Seat) -> Vec<(Railway, Vec<u32>)> {
        Railway::ALL
            .iter()
            .filter_map(|&r| {
                let values: Vec<u32> = self.railways[r.index()]
                    .owners
                    .iter()
                    .zip(r.share_values())
                    .filter(|(o, _)| **o == Some(seat))
                    .map(|(_, v)| *v)
                    .collect();
                (!values.is_empty()).then_some((r, values))
            })
            .collect()
    }

    /// Shares of a railway still for sale, lowest first.
    pub fn available_shares(&self, railway: Railway) -> Vec<u32> {
        self.railways[railway.index()]
            .owners
            .iter()
            .zip(railway.share_values())
            .filter(|(o, _)| o.is_none())
            .map(|(_, v)| *v)
            .collect()
    }

    /// Cash plus the face values of shares held (ruling 21).
    pub fn score(&self, seat: Seat) -> u32 {
        let faces: u32 = Railway::ALL
            .iter()
            .map(|&r| {
                self.railways[r.index()]
                    .owners
                    .iter()
                    .zip(r.share_values())
                    .filter(|(o, _)| **o == Some(seat))
                    .map(|(_, v)| *v)
                    .sum::<u32>()
            })
            .sum();
        self.players[seat].cash + faces
    }

    /// The face value of a railway's lowest unsold share (ruling 3), if any is left.
    fn next_face(&self, railway: Railway) -> Option<u32> {
        self.railways[railway.index()]
            .owners
            .iter()
            .zip(railway.share_values())
            .find(|(o, _)| o.is_none())
            .map(|(_, v)| *v)
    }

    /// The hexes where railways other than this one have track.
    fn others_track(&self, railway: Railway) -> HexSet {
        Railway::ALL
            .iter()
            .filter(|&&r| r != railway)
            .fold(HexSet::EMPTY, |all, &r| {
                all.union(&self.railways[r.index()].track)
            })
    }

    /// The winners: every player with the top score; empty until the game is over.
    pub fn winners(&self) -> Vec<Seat> {
        if !self.is_finished() {
            return Vec::new();
        }
        let scores: Vec<u32> = (0..self.players.len()).map(|s| self.score(s)).collect();
        let best = scores.iter().copied().max().unwrap_or(0);
        (0..self.players.len())
            .filter(|&s| scores[s] == best)
            .collect()
    }

    /// Cities (with cube) and towns where a railway has track: (paying cities, towns) for a set
    /// of paying colours.
    pub fn connections(&self, railway: Railway, paying: &[Colour]) -> (Vec<HexId>, Vec<HexId>) {
        let track = self.railways[railway.index()]
            .track
            .intersection(&Board::get().urban);
        let mut cities = Vec::new();
        let mut towns = Vec::new();
        for hex in track.iter() {
            match self.cubes[hex.index()] {
                Some(c) if paying.contains(&c) => cities.push(hex),
                Some(_) => {}
                None => towns.push(hex),
            }
        }
        (cities, towns)
    }

    // ----- Legality -----

    /// What the player to act may do.
    pub fn legal_actions(&self) -> LegalActions {
        match &self.phase {
            Phase::InitialAuction { auction, .. } | Phase::Auction { auction, .. } => {
                let seat = auction.to_bid;
                LegalActions::Bidding {
                    player: seat,
                    railway: auction.railway,
                    min: min_bid(auction),
                    max: self.players[seat].cash,
                }
            }
            Phase::Turn { player } => {
                let seat = *player;
                LegalActions::Turn {
                    player: seat,
                    auctions: self.auction_options(seat),
                    builds: self.build_options(seat),
                    interests: self.interest_options(seat),
                }
            }
            Phase::AwaitingDraw { .. } => match self.pending_draw() {
                Some(request) => LegalActions::Draw(request),
                None => LegalActions::None,
            },
            Phase::Finished => LegalActions::None,
        }
    }

    pub(crate) fn auction_options(&self, seat: Seat) -> Vec<AuctionOption> {
        let cash = self.players[seat].cash;
        Railway::ALL
            .iter()
            .filter_map(|&r| {
                let face = self.next_face(r)?;
                (face <= cash).then_some(AuctionOption {
                    railway: r,
                    face,
                    max_bid: cash,
                })
            })
            .collect()
    }

    pub(crate) fn build_options(&self, seat: Seat) -> Vec<BuildOption> {
        Railway::ALL
            .iter()
            .filter(|&&r| {
                let state = &self.railways[r.index()];
                state.held_by(seat) > 0 && state.unplaced() > 0
            })
            .map(|&r| {
                let track = self.railways[r.index()].track;
                let others = self.others_track(r);
                let hexes = track
                    .neighbours()
                    .difference(&track)
                    .iter()
                    .filter_map(|h| cost_beside(h, &others).map(|c| (h, c)))
                    .collect();
                BuildOption {
                    railway: r,
                    unplaced: self.railways[r.index()].unplaced(),
                    hexes,
                }
            })
            .filter(|b| !b.hexes.is_empty())
            .collect()
    }

    pub(crate) fn interest_options(&self, seat: Seat) -> Vec<InterestOption> {
        let colours: Vec<Colour> = Colour::ALL
            .into_iter()
            .filter(|&c| self.supply.get(c) > 0)
            .collect();
        if colours.is_empty() {
            return Vec::new();
        }
        let mut reachable = HexSet::EMPTY;
        for r in Railway::ALL {
            let state = &self.railways[r.index()];
            if state.held_by(seat) > 0 {
                reachable = reachable.union(&state.track);
            }
        }
        reachable
            .intersection(&Board::get().urban)
            .iter()
            .filter(|&h| self.cubes[h.index()].is_none())
            .map(|town| InterestOption {
                town,
                colours: colours.clone(),
            })
            .collect()
    }

    /// The cost in half build points for a railway to place a locomotive in a hex now
    /// (ruling 13), or why it may not.
    pub fn build_cost(&self, railway: Railway, hex: HexId) -> Result<u8, PlayError> {
        let own = &self.railways[railway.index()].track;
        if own.contains(hex) {
            return Err(PlayError::illegal(
                Rule::OneLocomotivePerHex,
                Reason::AlreadyThere { railway, hex },
            ));
        }
        if let Some(cost) = cost_beside(hex, &self.others_track(railway)) {
            return Ok(cost);
        }
        let other = Railway::ALL
            .into_iter()
            .find(|&r| r != railway && self.railways[r.index()].track.contains(hex))
            .unwrap_or(railway);
        Err(PlayError::illegal(
            Rule::DifficultHex,
            Reason::DifficultHexTaken { other, hex },
        ))
    }

    /// Checks an action without applying it.
    pub fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.clone().play(seat, action).is_ok()
    }

    // ----- Playing -----

    /// Applies an action by the player in `seat`. On error nothing changes.
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, PlayError> {
        self.check_actor(seat)?;
        let mut events = Vec::with_capacity(4);
        match (&self.phase, action) {
            (Phase::InitialAuction { .. } | Phase::Auction { .. }, Action::Bid { amount }) => {
                self.bid(seat, *amount, &mut events)?
            }
            (Phase::InitialAuction { .. } | Phase::Auction { .. }, Action::Pass) => {
                self.pass(seat, &mut events)
            }
            (Phase::InitialAuction { auction, .. } | Phase::Auction { auction, .. }, _) => {
                return Err(PlayError::illegal(
                    Rule::Phase,
                    Reason::AuctionRunning {
                        railway: auction.railway,
                        player: self.name(seat).to_string(),
                        min: min_bid(auction),
                    },
                ))
            }
            (Phase::Turn { .. }, Action::Bid { .. } | Action::Pass) => {
                return Err(PlayError::illegal(Rule::Phase, Reason::NoAuctionRunning))
            }
            (
                Phase::Turn { .. },
                Action::Auction {
                    railway,
                    opening_bid,
                },
            ) => self.open_auction(seat, *railway, *opening_bid, &mut events)?,
            (Phase::Turn { .. }, Action::Build { railway, hexes }) => {
                let hexes = self.resolve_build(seat, *railway, hexes)?;
                self.apply_build(*railway, &hexes, &mut events);
                self.end_turn(seat, &mut events);
            }
            (Phase::Turn { .. }, Action::SpecialInterest { town, colour }) => {
                self.check_interest(seat, *town, *colour)?;
                self.cubes[town.index()] = Some(*colour);
                *self.supply.get_mut(*colour) -= 1;
                events.push(Event::SpecialInterestPlaced {
                    player: seat,
                    town: *town,
                    colour: *colour,
                });
                self.end_turn(seat, &mut events);
            }
            (Phase::Turn { .. }, Action::CallDividends) => {
                let count = self.supply.total().min(3);
                events.push(Event::DividendsCalled {
                    player: seat,
                    count,
                });
                self.phase = Phase::AwaitingDraw {
                    caller: seat,
                    count,
                };
            }
            (Phase::AwaitingDraw { .. } | Phase::Finished, _) => {
                unreachable!("check_actor refuses players here")
            }
        }
        Ok(events)
    }

    /// Supplies the cubes of a pending dividend draw (ruling 17; ruling 25 for manual draws).
    /// On error nothing changes.
    pub fn resolve_draw(&mut self, cubes: &[Colour]) -> Result<Vec<Event>, PlayError> {
        let Phase::AwaitingDraw { caller, count } = self.phase else {
            return Err(PlayError::illegal(Rule::Draw, Reason::NoDrawPending));
        };
        if cubes.len() != count as usize {
            return Err(PlayError::illegal(
                Rule::Draw,
                Reason::WrongCubeCount {
                    expected: count,
                    given: cubes.len(),
                },
            ));
        }
        if !self.supply.contains(cubes) {
            return Err(PlayError::illegal(
                Rule::Draw,
                Reason::NotInSupply {
                    cubes: cubes.to_vec(),
                    supply: self.supply,
                },
            ));
        }
        let mut events = Vec::with_capacity(8);
        events.push(Event::CubesDrawn {
            cubes: cubes.to_vec(),
        });
        for &c in cubes {
            *self.supply.get_mut(c) -= 1;
        }
        self.draws.push(cubes.to_vec());
        let mut paying: Vec<Colour> = cubes.to_vec();
        paying.sort();
        paying.dedup();
        for railway in Railway::ALL {
            let (paying_cities, towns) = self.connections(railway, &paying);
            let (p, t) = (paying_cities.len() as u32, towns.len() as u32);
            let pays = (p >= 1 && t >= 1) || p >= 2;
            let income = if pays { 4 * p + 2 * t } else { 0 };
            let (per_share, payouts) = self.pay(railway, income);
            events.push(Event::Dividend {
                railway,
                paying_cities,
                towns,
                income,
                per_share,
                payouts,
            });
        }
        self.end_turn(caller, &mut events);
        Ok(events)
    }

    fn check_actor(&self, seat: Seat) -> Result<(), PlayError> {
        if seat >= self.players.len() {
            return Err(PlayError::illegal(Rule::TurnOrder, Reason::NotSeated));
        }
        match self.to_act() {
            Actor::Player { seat: expected } if expected == seat => Ok(()),
            Actor::Player { seat: expected } => Err(PlayError::illegal(
                Rule::TurnOrder,
                Reason::NotYourTurn {
                    expected: self.name(expected).to_string(),
                    decision: if matches!(self.phase, Phase::Turn { .. }) {
                        Decision::Turn
                    } else {
                        Decision::Bid
                    },
                    player: self.name(seat).to_string(),
                },
            )),
            Actor::Dice => Err(PlayError::illegal(Rule::Draw, Reason::DrawPending)),
            Actor::Nobody => Err(PlayError::illegal(Rule::GameOver, Reason::GameOver)),
        }
    }

    /// Splits income among a railway's holders, rounding up per share (rulings 15, 18).
    pub(crate) fn pay(&mut self, railway: Railway, income: u32) -> (u32, Vec<Payout>) {
        let sold = self.railways[railway.index()].sold();
        if income == 0 || sold == 0 {
            return (0, Vec::new());
        }
        let per_share = income.div_ceil(sold);
        let mut payouts = Vec::new();
        for seat in 0..self.players.len() {
            let shares = self.railways[railway.index()].held_by(seat);
            if shares > 0 {
                let amount = per_share * shares;
                self.players[seat].cash += amount;
                payouts.push(Payout {
                    player: seat,
                    shares,
                    amount,
                });
            }
        }
        (per_share, payouts)
    }

    fn end_turn(&mut self, seat: Seat, events: &mut Vec<Event>) {
        if self.supply.total() == 0 {
            self.phase = Phase::Finished;
            let scores: Vec<u32> = (0..self.players.len()).map(|s| self.score(s)).collect();
            events.push(Event::GameOver {
                scores,
                winners: self.winners(),
            });
        } else {
            self.begin_turn((seat + 1) % self.players.len(), events);
        }
    }

    fn begin_turn(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.turn += 1;
        self.phase = Phase::Turn { player: seat };
        events.push(Event::TurnBegan {
            player: seat,
            turn: self.turn,
        });
    }

    // ----- Auctions -----

    fn open_initial_auction(&mut self, lot: usize, opener: Seat, events: &mut Vec<Event>) {
        let railway = Railway::ALL[lot];
        let face = railway.share_values()[0];
        events.push(Event::AuctionOpened {
            by: opener,
            railway,
            face,
            initial: true,
        });
        let auction = AuctionState {
            railway,
            face,
            high: None,
            passed: vec![false; self.players.len()],
            to_bid: opener,
        };
        self.phase = Phase::InitialAuction {
            lot,
            opener,
            auction,
        };
        // The opener is asked first; if they cannot bid they are passed automatically.
        self.advance_bidding(opener, 0, events);
    }

    fn open_auction(
        &mut self,
        seat: Seat,
        railway: Railway,
        opening_bid: Option<u32>,
        events: &mut Vec<Event>,
    ) -> Result<(), PlayError> {
        let Some(face) = self.next_face(railway) else {
            return Err(PlayError::illegal(
                Rule::Auction,
                Reason::NoSharesLeft { railway },
            ));
        };
        let cash = self.players[seat].cash;
        if face > cash {
            return Err(PlayError::illegal(
                Rule::Auction,
                Reason::CannotAffordShare {
                    railway,
                    face,
                    player: self.name(seat).to_string(),
                    cash,
                },
            ));
        }
        let bid = opening_bid.unwrap_or(face);
        check_bid_amount(bid, face, None, cash, self.name(seat))?;
        events.push(Event::AuctionOpened {
            by: seat,
            railway,
            face,
            initial: false,
        });
        events.push(Event::Bid {
            player: seat,
            amount: bid,
        });
        self.phase = Phase::Auction {
            auctioneer: seat,
            auction: AuctionState {
                railway,
                face,
                high: Some((seat, bid)),
                passed: vec![false; self.players.len()],
                to_bid: seat,
            },
        };
        self.advance_bidding(seat, 1, events);
        Ok(())
    }

    fn auction_mut(&mut self) -> &mut AuctionState {
        match &mut self.phase {
            Phase::InitialAuction { auction, .. } | Phase::Auction { auction, .. } => auction,
            _ => unreachable!("only called during auctions"),
        }
    }

    fn bid(&mut self, seat: Seat, amount: u32, events: &mut Vec<Event>) -> Result<(), PlayError> {
        let cash = self.players[seat].cash;
        let name = self.players[seat].name.clone();
        let auction = self.auction_mut();
        check_bid_amount(amount, auction.face, auction.high, cash, &name)?;
        auction.high = Some((seat, amount));
        events.push(Event::Bid {
            player: seat,
            amount,
        });
        self.advance_bidding(seat, 1, events);
        Ok(())
    }

    fn pass(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.auction_mut().passed[seat] = true;
        events.push(Event::Passed { player: seat });
        self.advance_bidding(seat, 1, events);
    }

    /// Finds the next player asked to bid, clockwise from `from + first_offset`, passing
    /// automatically those who cannot bid (ruling 11); ends the auction when nobody is left.
    fn advance_bidding(&mut self, from: Seat, first_offset: usize, events: &mut Vec<Event>) {
        let n = self.players.len();
        let mut cash = [0u32; MAX_PLAYERS];
        for (c, p) in cash.iter_mut().zip(&self.players) {
            *c = p.cash;
        }
        let auction = self.auction_mut();
        let mut next = None;
        for offset in first_offset..first_offset + n {
            let seat = (from + offset) % n;
            if auction.passed[seat] || auction.high.is_some_and(|(h, _)| h == seat) {
                continue;
            }
            let reason = match auction.high {
                None if cash[seat] < auction.face => Some(AutoPassReason::CannotAffordFaceValue {
                    cash: cash[seat],
                    face: auction.face,
                }),
                Some((_, high)) if cash[seat] <= high => Some(AutoPassReason::CannotRaise {
                    cash: cash[seat],
                    high,
                }),
                _ => None,
            };
            match reason {
                Some(reason) => {
                    auction.passed[seat] = true;
                    events.push(Event::AutoPassed {
                        player: seat,
                        reason,
                    });
                }
                None => {
                    next = Some(seat);
                    break;
                }
            }
        }
        match next {
            Some(seat) => auction.to_bid = seat,
            None => self.close_auction(events),
        }
    }

    fn close_auction(&mut self, events: &mut Vec<Event>) {
        let phase = std::mem::replace(&mut self.phase, Phase::Finished);
        let (auction, kind) = match phase {
            Phase::InitialAuction {
                lot,
                opener,
                auction,
            } => (auction, AuctionKind::Initial { lot, opener }),
            Phase::Auction {
                auction,
                auctioneer,
            } => (auction, AuctionKind::Regular { auctioneer }),
            other => unreachable!("close_auction in {other:?}"),
        };
        let (winner, price) = match (auction.high, kind) {
            (Some((seat, price)), _) => (seat, price),
            (None, AuctionKind::Initial { opener, .. }) => (opener, 0),
            (None, AuctionKind::Regular { .. }) => {
                unreachable!("a regular auction always has an opening bid")
            }
        };
        let railway = auction.railway;
        self.players[winner].cash -= price;
        let owners = &mut self.railways[railway.index()].owners;
        if let Some(slot) = owners.iter_mut().find(|o| o.is_none()) {
            *slot = Some(winner);
        }
        events.push(Event::ShareWon {
            player: winner,
            railway,
            face: auction.face,
            price,
        });
        match kind {
            AuctionKind::Initial { lot, .. } if lot + 1 < Railway::ALL.len() => {
                // The winner opens the next initial auction (ruling 6).
                self.open_initial_auction(lot + 1, winner, events)
            }
            AuctionKind::Initial { .. } => {
                // The owner of the CBSC share takes the first turn (ruling 7).
                let first = self.railways[Railway::Cbsc.index()].owners[0].unwrap_or(0);
                self.begin_turn(first, events);
            }
            // The auctioneer's turn ends, whoever won (ruling 9).
            AuctionKind::Regular { auctioneer } => self.end_turn(auctioneer, events),
        }
    }
}

#[derive(Clone, Copy)]
enum AuctionKind {
    Initial { lot: usize, opener: Seat },
    Regular { auctioneer: Seat },
}

/// The cost in half build points of a hex that is not the railway's own, given where the other
/// railways have track (ruling 13); `None` for a difficult hex another railway occupies.
fn cost_beside(hex: HexId, others: &HexSet) -> Option<u8> {
    match (hex.hex().terrain, others.contains(hex)) {
        (Terrain::Difficult, true) => None,
        (Terrain::Difficult, false) => Some(4),
        (_, true) => Some(3),
        (_, false) => Some(2),
    }
}

/// The least legal bid in an auction.
fn min_bid(auction: &AuctionState) -> u32 {
    match auction.high {
        Some((_, high)) => high + 1,
        None => auction.face,
    }
}

/// Ruling 2.
fn check_bid_amount(
    amount: u32,
    face: u32,
    high: Option<(Seat, u32)>,
    cash: u32,
    name: &str,
) -> Result<(), PlayError> {
    if amount < face {
        return Err(PlayError::illegal(
            Rule::Bid,
            Reason::BelowFaceValue { face },
        ));
    }
    if let Some((_, high)) = high {
        if amount <= high {
            return Err(PlayError::illegal(
                Rule::Bid,
                Reason::NotAboveHighBid { high },
            ));
        }
    }
    if amount > cash {
        return Err(PlayError::illegal(
            Rule::Bid,
            Reason::MoreThanCash {
                player: name.to_string(),
                cash,
            },
        ));
    }
    Ok(())
}

pub use crate::board::describe;
