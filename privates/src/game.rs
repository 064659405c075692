//! The game: a validated position that actions and draws move forward.

use serde::{Deserialize, Serialize};

use crate::action::Action;
use crate::card::{
    cost_index, rounds_for, Card, Chip, ChipCounts, CostCounts, Letter, CHIPS_ADDED_PER_ROUND,
    CHIPS_PER_COLOUR, ROW_SIZE,
};
use crate::draw::{chips_to_draw, DrawRequest};
use crate::error::{DrawKind, Drawn, LineError, PlayError, Ruling, SetupError};
use crate::event::{Dealt, Event, Income, Seat, SeatBid};
use crate::notation::parse_action;
use crate::scoring::{self, Score};
use crate::setup::{starting_cash, Setup};

/// What a price drop takes off the cheapest card (P9).
pub const PRICE_DROP: u32 = 5;
/// What each further card of the same cost in the row adds to the price (P6).
pub const SAME_COST_STEP: u32 = 2;
/// The least step of a bid above the price (P8).
pub const BID_OVER_PRICE: u32 = 2;
/// The least step of a bid above the high bid (P8, P11).
pub const BID_OVER_HIGH: u32 = 1;

/// One player.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerState {
    /// Name.
    pub name: String,
    /// Cash in dollars.
    pub cash: u32,
    /// Cards owned, in the order taken.
    pub cards: Vec<Card>,
}

/// A card in this round's row.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowCard {
    /// Its letter (P5).
    pub letter: Letter,
    /// The card and its chip.
    pub card: Card,
    /// Its price as dealt (P6).
    pub base_price: u32,
    /// Its price now: lowered by price drops (P9); once taken, what the owner paid.
    pub price: u32,
    /// Open bids on it, in seat order.
    pub bids: Vec<SeatBid>,
    /// Who took it, once taken.
    pub owner: Option<Seat>,
}

impl RowCard {
    /// The highest bid on the card, if any.
    pub fn high(&self) -> Option<SeatBid> {
        self.bids.iter().copied().max_by_key(|b| b.amount)
    }

    /// A player's bid on the card, if any.
    pub fn bid_of(&self, seat: Seat) -> Option<u32> {
        self.bids
            .iter()
            .find(|b| b.player == seat)
            .map(|b| b.amount)
    }
}

/// Where the game stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "phase", rename_all = "snake_case")]
pub enum Phase {
    /// The round's deal (or chip draw) is awaited (P16).
    AwaitingDraw {
        /// The round.
        round: u8,
    },
    /// A player's turn (P7).
    Turn {
        /// Whose turn.
        player: Seat,
    },
    /// A bid-off during a waterfall (P10, P11).
    BidOff {
        /// The card.
        letter: Letter,
        /// The bidder asked to raise or drop.
        to_bid: Seat,
        /// The player whose buy or pass started the waterfall; the turn goes to their left
        /// afterwards (P12).
        actor: Seat,
    },
    /// The game is over.
    Finished,
}

/// Who must act now.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "actor", rename_all = "snake_case")]
pub enum Actor {
    /// This player, on a turn or in a bid-off.
    Player {
        /// The seat.
        seat: Seat,
    },
    /// A draw: see [`Game::pending_draw`].
    Draw,
    /// Nobody: the game is over.
    Nobody,
}

/// The cheapest card, to buy.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BuyOption {
    /// The card.
    pub letter: Letter,
    /// Its price.
    pub price: u32,
    /// Whether it is at $0 and must be taken (P9).
    pub free: bool,
}

/// A card the player may bid on, and how much.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BidOption {
    /// The card.
    pub letter: Letter,
    /// Its price.
    pub price: u32,
    /// The high bid on it, if any.
    pub high: Option<u32>,
    /// The least bid (P8).
    pub minimum: u32,
    /// The most the player may bid: cash less their other open bids (P8).
    pub maximum: u32,
}

/// The range of a raise in a bid-off.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct RaiseOption {
    /// The least raise: high bid + $1.
    pub minimum: u32,
    /// The most: cash less the player's other open bids.
    pub maximum: u32,
}

/// What the player to act may do.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum LegalActions {
    /// On a turn (P7).
    Turn {
        /// Whose turn.
        player: Seat,
        /// The cheapest card, if they can buy it (must, if it is free).
        buy: Option<BuyOption>,
        /// The cards they may bid on, with the least and most bid.
        bids: Vec<BidOption>,
        /// Whether they may pass (not when a free card must be taken).
        pass: bool,
    },
    /// In a bid-off (P11).
    BidOff {
        /// Who is asked.
        player: Seat,
        /// The card.
        letter: Letter,
        /// The highest bidder.
        high_bidder: Seat,
        /// The high bid.
        high: u32,
        /// The raise they may make, if they can afford one.
        raise: Option<RaiseOption>,
        /// Whether they may drop (always).
        drop: bool,
    },
    /// A draw is awaited.
    Draw(DrawRequest),
    /// The game is over.
    None,
}

/// A game of Privates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Game {
    pub(crate) players: Vec<PlayerState>,
    pub(crate) copies: u8,
    pub(crate) rounds: u8,
    pub(crate) round: u8,
    pub(crate) first_dealer: Seat,
    /// The audited deck order, if any, and how many of it are dealt.
    pub(crate) deck: Option<Vec<u32>>,
    pub(crate) dealt: usize,
    pub(crate) deck_left: CostCounts,
    pub(crate) reserve: ChipCounts,
    pub(crate) bag: ChipCounts,
    pub(crate) row: Vec<RowCard>,
    pub(crate) phase: Phase,
    /// Passes in succession since the last buy, bid or price drop (P9).
    pub(crate) passes: u8,
}

impl Game {
    /// Validates a setup into a game awaiting the first round's deal.
    pub fn new(setup: &Setup) -> Result<Game, SetupError> {
        let names = setup.validate()?;
        let cash = starting_cash(names.len());
        let players = names
            .into_iter()
            .map(|name| PlayerState {
                name,
                cash,
                cards: Vec::new(),
            })
            .collect();
        let mut game = Game {
            players,
            copies: setup.copies,
            rounds: rounds_for(setup.copies),
            round: 0,
            first_dealer: setup.dealer,
            deck: setup.deck.clone(),
            dealt: 0,
            deck_left: CostCounts::full(setup.copies),
            reserve: ChipCounts::uniform(CHIPS_PER_COLOUR),
            bag: ChipCounts::default(),
            row: Vec::new(),
            phase: Phase::Finished,
            passes: 0,
        };
        game.begin_round(1, &mut Vec::new());
        Ok(game)
    }

    // ----- Reading the position -----

    /// The players in seat order.
    pub fn players(&self) -> &[PlayerState] {
        &self.players
    }

    /// A player's name.
    pub fn name(&self, seat: Seat) -> &str {
        self.players.get(seat).map_or("", |p| p.name.as_str())
    }

    /// Gives a seat's name to another player (a substitute, or an automa, takes the seat with
    /// its cash and cards).
    pub fn rename_player(&mut self, seat: Seat, name: &str) {
        if let Some(player) = self.players.get_mut(seat) {
            player.name = name.to_string();
        }
    }

    /// The seat of a player by name (case-insensitive).
    pub fn seat_of(&self, name: &str) -> Option<Seat> {
        self.players
            .iter()
            .position(|p| p.name.eq_ignore_ascii_case(name.trim()))
    }

    /// This round's row, A first: cards left and cards taken (with their owner).
    pub fn row(&self) -> &[RowCard] {
        &self.row
    }

    /// The chips in the bag.
    pub fn bag(&self) -> ChipCounts {
        self.bag
    }

    /// The chips in the reserve.
    pub fn reserve(&self) -> ChipCounts {
        self.reserve
    }

    /// The cards left in the deck, by cost.
    pub fn deck_left(&self) -> CostCounts {
        self.deck_left
    }

    /// Copies of each card kind: 6, or 5 in the variant (P1).
    pub fn copies(&self) -> u8 {
        self.copies
    }

    /// Whether the deck was shuffled by audited draw (otherwise cards are dealt by hand).
    pub fn is_audited(&self) -> bool {
        self.deck.is_some()
    }

    /// The current round, from 1.
    pub fn round(&self) -> u8 {
        self.round
    }

    /// Rounds in the game: 7, or 6 with 5 copies (P1).
    pub fn rounds(&self) -> u8 {
        self.rounds
    }

    /// The dealer of the current round (P4).
    pub fn dealer(&self) -> Seat {
        (self.first_dealer + self.round.max(1) as usize - 1) % self.players.len()
    }

    /// The phase.
    pub fn phase(&self) -> Phase {
        self.phase
    }

    /// Passes in succession since the last buy, bid or price drop (P9).
    pub fn passes(&self) -> u8 {
        self.passes
    }

    /// Whether the game is over.
    pub fn is_finished(&self) -> bool {
        self.phase == Phase::Finished
    }

    /// The cheapest card left: the lowest letter still in the row (P7).
    pub fn cheapest(&self) -> Option<Letter> {
        self.cheapest_index().map(|i| self.row[i].letter)
    }

    fn cheapest_index(&self) -> Option<usize> {
        self.row.iter().position(|c| c.owner.is_none())
    }

    /// The sum of a player's open bids (P8).
    pub fn open_bids(&self, seat: Seat) -> u32 {
        self.row.iter().filter_map(|c| c.bid_of(seat)).sum()
    }

    /// A player's open bids by card.
    pub fn bids_of(&self, seat: Seat) -> Vec<(Letter, u32)> {
        self.row
            .iter()
            .filter_map(|c| c.bid_of(seat).map(|b| (c.letter, b)))
            .collect()
    }

    /// Who must act now.
    pub fn to_act(&self) -> Actor {
        match self.phase {
            Phase::AwaitingDraw { .. } => Actor::Draw,
            Phase::Turn { player } => Actor::Player { seat: player },
            Phase::BidOff { to_bid, .. } => Actor::Player { seat: to_bid },
            Phase::Finished => Actor::Nobody,
        }
    }

    /// The draw the game waits for, if any (P16).
    pub fn pending_draw(&self) -> Option<DrawRequest> {
        let Phase::AwaitingDraw { round } = self.phase else {
            return None;
        };
        let count = chips_to_draw(&self.bag) as u8;
        Some(if self.is_audited() {
            DrawRequest::Chips {
                round,
                bag: self.bag,
                count,
            }
        } else {
            DrawRequest::Deal {
                round,
                deck: self.deck_left,
                cards: ROW_SIZE as u8,
                bag: self.bag,
                count,
            }
        })
    }

    /// Every player's score with its breakdown, in seat order (P14); final once the game is
    /// over.
    pub fn scores(&self) -> Vec<Score> {
        self.players
            .iter()
            .enumerate()
            .map(|(seat, p)| scoring::score(seat, p.cash, &p.cards))
            .collect()
    }

    /// The winners: every player with the top total (P15); empty until the game is over.
    pub fn winners(&self) -> Vec<Seat> {
        if !self.is_finished() {
            return Vec::new();
        }
        let totals: Vec<u32> = self.scores().iter().map(|s| s.total).collect();
        scoring::winners(&totals)
    }

    /// The position as the players see it: the audited deck's order, which nobody at the table
    /// knows, forgotten. The result plays on as a manually dealt game whose rounds come from
    /// the cards left ([`Game::deck_left`]), so a search can sample the unseen cards
    /// (determinization) but can never read them. Every other part of a position is public.
    pub fn without_hidden_deck(&self) -> Game {
        Game {
            deck: None,
            dealt: 0,
            ..self.clone()
        }
    }

    // ----- Legality -----

    /// What the player to act may do.
    pub fn legal_actions(&self) -> LegalActions {
        match self.phase {
            Phase::AwaitingDraw { .. } => match self.pending_draw() {
                Some(request) => LegalActions::Draw(request),
                None => LegalActions::None,
            },
            Phase::Finished => LegalActions::None,
            Phase::Turn { player } => self.turn_options(player),
            Phase::BidOff { letter, to_bid, .. } => {
                let card = &self.row[letter.index()];
                let high = card.high().unwrap_or(SeatBid {
                    player: to_bid,
                    amount: 0,
                });
                let minimum = high.amount + BID_OVER_HIGH;
                let maximum = self.committable(to_bid, card);
                LegalActions::BidOff {
                    player: to_bid,
                    letter,
                    high_bidder: high.player,
                    high: high.amount,
                    raise: (maximum >= minimum).then_some(RaiseOption { minimum, maximum }),
                    drop: true,
                }
            }
        }
    }

    /// The most a player may bid on a card: cash less their open bids on other cards.
    fn committable(&self, seat: Seat, card: &RowCard) -> u32 {
        let other = self.open_bids(seat) - card.bid_of(seat).unwrap_or(0);
        self.players[seat].cash.saturating_sub(other)
    }

    fn turn_options(&self, player: Seat) -> LegalActions {
        let Some(c) = self.cheapest_index() else {
            return LegalActions::None;
        };
        let cheapest = &self.row[c];
        if cheapest.price == 0 {
            return LegalActions::Turn {
                player,
                buy: Some(BuyOption {
                    letter: cheapest.letter,
                    price: 0,
                    free: true,
                }),
                bids: Vec::new(),
                pass: false,
            };
        }
        let cash = self.players[player].cash;
        let open = self.open_bids(player);
        let buy = (cheapest.price + open <= cash).then_some(BuyOption {
            letter: cheapest.letter,
            price: cheapest.price,
            free: false,
        });
        let bids = self.row[c + 1..]
            .iter()
            .filter(|card| card.owner.is_none())
            .filter_map(|card| {
                let high = card.high();
                if high.is_some_and(|h| h.player == player) {
                    return None;
                }
                let minimum = min_bid(card);
                let maximum = self.committable(player, card);
                (maximum >= minimum).then_some(BidOption {
                    letter: card.letter,
                    price: card.price,
                    high: high.map(|h| h.amount),
                    minimum,
                    maximum,
                })
            })
            .collect();
        LegalActions::Turn {
            player,
            buy,
            bids,
            pass: true,
        }
    }

    /// Checks an action without applying it.
    pub fn is_legal(&self, seat: Seat, action: &Action) -> bool {
        self.check(seat, action).is_ok()
    }

    // ----- Playing -----

    /// Plays a line of the players' notation for a player named `name`:
    /// `game.play_line("ann", "bid 17 on C")`. On error nothing changes.
    pub fn play_line(&mut self, name: &str, text: &str) -> Result<Vec<Event>, LineError> {
        let seat = self.seat_of(name).ok_or_else(|| LineError::UnknownPlayer {
            name: name.trim().to_string(),
        })?;
        let action = parse_action(text)?;
        Ok(self.play(seat, &action)?)
    }

    /// Applies an action by the player in `seat`. On error nothing changes.
    pub fn play(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, PlayError> {
        let checked = self.check(seat, action)?;
        let mut events = Vec::with_capacity(4);
        match checked {
            Checked::Buy(i) => self.buy(seat, i, &mut events),
            Checked::Bid(i, amount) => {
                let replaced = set_bid(&mut self.row[i], seat, amount);
                events.push(Event::BidPlaced {
                    player: seat,
                    letter: self.row[i].letter,
                    amount,
                    replaced,
                });
                self.passes = 0;
                self.begin_turn(self.left_of(seat));
            }
            Checked::Pass => self.pass(seat, &mut events),
            Checked::Raise(i, amount) => {
                set_bid(&mut self.row[i], seat, amount);
                events.push(Event::BidOffRaised {
                    player: seat,
                    letter: self.row[i].letter,
                    amount,
                });
                self.advance_bid_off(seat, &mut events);
            }
            Checked::Drop(i) => {
                let released = self.row[i].bid_of(seat).unwrap_or(0);
                self.row[i].bids.retain(|b| b.player != seat);
                events.push(Event::BidOffDropped {
                    player: seat,
                    letter: self.row[i].letter,
                    released,
                });
                self.advance_bid_off(seat, &mut events);
            }
        }
        Ok(events)
    }

    /// Checks an action against the position, without changing anything.
    fn check(&self, seat: Seat, action: &Action) -> Result<Checked, PlayError> {
        if seat >= self.players.len() {
            return Err(PlayError::NotSeated {
                seat,
                players: self.players.len(),
                ruling: Ruling::P3,
            });
        }
        match self.phase {
            Phase::Finished => Err(PlayError::GameOver {
                ruling: Ruling::P14,
            }),
            Phase::AwaitingDraw { round } => Err(PlayError::DrawPending {
                draw: if self.is_audited() {
                    DrawKind::Chips
                } else {
                    DrawKind::Deal
                },
                round,
                ruling: Ruling::P16,
            }),
            Phase::Turn { player } if player != seat => Err(PlayError::NotYourTurn {
                player: seat,
                to_act: player,
                ruling: Ruling::P7,
            }),
            Phase::BidOff { to_bid, .. } if to_bid != seat => Err(PlayError::NotYourTurn {
                player: seat,
                to_act: to_bid,
                ruling: Ruling::P11,
            }),
            Phase::Turn { .. } => self.check_turn(seat, action),
            Phase::BidOff { letter, .. } => self.check_bid_off(seat, letter, action),
        }
    }

    fn check_turn(&self, seat: Seat, action: &Action) -> Result<Checked, PlayError> {
        let Some(c) = self.cheapest_index() else {
            // A turn always has a card left: the round ends when the row empties.
            return Err(PlayError::GameOver {
                ruling: Ruling::P13,
            });
        };
        let cheapest = &self.row[c];
        let free = cheapest.price == 0;
        match *action {
            Action::Buy { letter } => {
                if let Some(letter) = letter {
                    self.card_left(letter)?;
                    if letter != cheapest.letter {
                        return Err(PlayError::NotCheapest {
                            letter,
                            cheapest: cheapest.letter,
                            ruling: Ruling::P7,
                        });
                    }
                }
                let cash = self.players[seat].cash;
                let open_bids = self.open_bids(seat);
                if cheapest.price + open_bids > cash {
                    return Err(PlayError::CannotAfford {
                        letter: cheapest.letter,
                        price: cheapest.price,
                        cash,
                        open_bids,
                        ruling: if cheapest.price <= cash {
                            Ruling::P8
                        } else {
                            Ruling::P7
                        },
                    });
                }
                Ok(Checked::Buy(c))
            }
            Action::Bid { .. } | Action::Pass if free => Err(PlayError::MustTakeFree {
                letter: cheapest.letter,
                ruling: Ruling::P9,
            }),
            Action::Bid { letter, amount } => {
                let card = self.card_left(letter)?;
                if letter == cheapest.letter {
                    return Err(PlayError::BidOnCheapest {
                        letter,
                        price: cheapest.price,
                        ruling: Ruling::P7,
                    });
                }
                if let Some(high) = card.high().filter(|h| h.player == seat) {
                    return Err(PlayError::AlreadyHighBidder {
                        letter,
                        bid: high.amount,
                        ruling: Ruling::P8,
                    });
                }
                let minimum = min_bid(card);
                if amount < minimum {
                    return Err(PlayError::BidTooLow {
                        letter,
                        bid: amount,
                        minimum,
                        ruling: Ruling::P8,
                    });
                }
                let maximum = self.committable(seat, card);
                if amount > maximum {
                    let cash = self.players[seat].cash;
                    return Err(PlayError::OverCommitted {
                        letter,
                        bid: amount,
                        cash,
                        other_bids: cash - maximum,
                        maximum,
                        ruling: Ruling::P8,
                    });
                }
                Ok(Checked::Bid(letter.index(), amount))
            }
            Action::Pass => Ok(Checked::Pass),
            Action::Raise { .. } | Action::Drop => Err(PlayError::NoBidOff {
                ruling: Ruling::P11,
            }),
        }
    }

    fn check_bid_off(
        &self,
        seat: Seat,
        letter: Letter,
        action: &Action,
    ) -> Result<Checked, PlayError> {
        let i = letter.index();
        let card = &self.row[i];
        let high = card.high().map_or(0, |h| h.amount);
        let amount = match *action {
            Action::Raise { amount } => amount,
            Action::Bid { letter: l, amount } if l == letter => amount,
            Action::Drop | Action::Pass => return Ok(Checked::Drop(i)),
            Action::Buy { .. } | Action::Bid { .. } => {
                return Err(PlayError::BidOffRunning {
                    letter,
                    high,
                    ruling: Ruling::P11,
                })
            }
        };
        let minimum = high + BID_OVER_HIGH;
        if amount < minimum {
            return Err(PlayError::RaiseTooLow {
                letter,
                bid: amount,
                minimum,
                ruling: Ruling::P11,
            });
        }
        let maximum = self.committable(seat, card);
        if amount > maximum {
            let cash = self.players[seat].cash;
            return Err(PlayError::RaiseOverCommitted {
                letter,
                bid: amount,
                cash,
                other_bids: cash - maximum,
                maximum,
                ruling: Ruling::P11,
            });
        }
        Ok(Checked::Raise(i, amount))
    }

    /// The row card with a letter, if it is still in the row (P5).
    fn card_left(&self, letter: Letter) -> Result<&RowCard, PlayError> {
        let card = self.row.get(letter.index()).ok_or(PlayError::NoSuchCard {
            letter,
            row: self.row.len(),
            ruling: Ruling::P5,
        })?;
        match card.owner {
            Some(owner) => Err(PlayError::CardTaken {
                letter,
                owner,
                ruling: Ruling::P5,
            }),
            None => Ok(card),
        }
    }

    fn left_of(&self, seat: Seat) -> Seat {
        (seat + 1) % self.players.len()
    }

    fn begin_turn(&mut self, player: Seat) {
        self.phase = Phase::Turn { player };
    }

    fn buy(&mut self, seat: Seat, i: usize, events: &mut Vec<Event>) {
        let card = &self.row[i];
        let (letter, cost, price) = (card.letter, card.card.cost, card.price);
        self.take(seat, i, price);
        events.push(if price == 0 {
            Event::TakenFree {
                player: seat,
                letter,
                cost,
            }
        } else {
            Event::CardBought {
                player: seat,
                letter,
                cost,
                price,
            }
        });
        self.passes = 0;
        self.waterfall(seat, events);
    }

    /// Gives a row card to a player for a price; their bid on it, if any, is paid.
    fn take(&mut self, seat: Seat, i: usize, price: u32) {
        let card = &mut self.row[i];
        card.owner = Some(seat);
        card.price = price;
        card.bids.clear();
        let player = &mut self.players[seat];
        player.cash -= price;
        player.cards.push(card.card);
    }

    fn pass(&mut self, seat: Seat, events: &mut Vec<Event>) {
        self.passes += 1;
        events.push(Event::Passed {
            player: seat,
            in_a_row: self.passes,
        });
        if self.passes as usize >= self.players.len() {
            self.passes = 0;
            if let Some(c) = self.cheapest_index() {
                let card = &mut self.row[c];
                let from = card.price;
                card.price = from.saturating_sub(PRICE_DROP);
                events.push(Event::PriceDropped {
                    letter: card.letter,
                    from,
                    to: card.price,
                });
            }
            self.waterfall(seat, events);
        } else {
            self.begin_turn(self.left_of(seat));
        }
    }

    /// Resolves the cheapest card while it has bids (P10), then gives the turn to the left of
    /// `actor` (P12); ends the round when the row is empty (P13).
    fn waterfall(&mut self, actor: Seat, events: &mut Vec<Event>) {
        loop {
            let Some(c) = self.cheapest_index() else {
                self.end_round(events);
                return;
            };
            let card = &self.row[c];
            match card.bids.as_slice() {
                [] => {
                    self.begin_turn(self.left_of(actor));
                    return;
                }
                [only] => {
                    let (player, price) = (only.player, only.amount);
                    let (letter, cost) = (card.letter, card.card.cost);
                    self.take(player, c, price);
                    events.push(Event::WonByBid {
                        player,
                        letter,
                        cost,
                        price,
                    });
                }
                bids => {
                    let high = card.high().unwrap_or(bids[0]);
                    let first = self.next_bidder(c, high.player);
                    events.push(Event::BidOffStarted {
                        letter: card.letter,
                        cost: card.card.cost,
                        bids: bids.to_vec(),
                        high_bidder: high.player,
                        high: high.amount,
                        first,
                    });
                    self.phase = Phase::BidOff {
                        letter: card.letter,
                        to_bid: first,
                        actor,
                    };
                    return;
                }
            }
        }
    }

    /// The next bidder on row card `i` to the left of `from` who is not the high bidder;
    /// the high bidder if nobody else is left.
    fn next_bidder(&self, i: usize, from: Seat) -> Seat {
        let card = &self.row[i];
        let high = card.high().map(|h| h.player);
        let n = self.players.len();
        (1..=n)
            .map(|k| (from + k) % n)
            .find(|&s| Some(s) != high && card.bid_of(s).is_some())
            .or(high)
            .unwrap_or(from)
    }

    /// After a raise or a drop: the next bidder is asked, or the last one in wins (P11).
    fn advance_bid_off(&mut self, from: Seat, events: &mut Vec<Event>) {
        let Phase::BidOff { letter, actor, .. } = self.phase else {
            return;
        };
        let i = letter.index();
        let card = &self.row[i];
        if let [last] = card.bids.as_slice() {
            let (player, price, cost) = (last.player, last.amount, card.card.cost);
            self.take(player, i, price);
            events.push(Event::BidOffWon {
                player,
                letter,
                cost,
                price,
            });
            self.waterfall(actor, events);
        } else {
            let to_bid = self.next_bidder(i, from);
            self.phase = Phase::BidOff {
                letter,
                to_bid,
                actor,
            };
        }
    }

    /// Pays revenue (P13), then starts the next round or ends the game (P14, P15).
    fn end_round(&mut self, events: &mut Vec<Event>) {
        let double = self.round >= self.rounds;
        let income = self
            .players
            .iter_mut()
            .enumerate()
            .map(|(player, p)| {
                let revenue: u32 = p.cards.iter().map(|c| c.revenue).sum();
                let amount = if double { 2 * revenue } else { revenue };
                p.cash += amount;
                Income {
                    player,
                    cards: p.cards.len() as u32,
                    revenue,
                    amount,
                }
            })
            .collect();
        events.push(Event::RoundEnded {
            round: self.round,
            double,
            income,
        });
        if double {
            self.phase = Phase::Finished;
            events.push(Event::GameOver {
                scores: self.scores(),
                winners: self.winners(),
            });
        } else {
            self.begin_round(self.round + 1, events);
        }
    }

    /// Moves this round's chips into the bag (P2) and waits for the deal.
    fn begin_round(&mut self, round: u8, events: &mut Vec<Event>) {
        self.round = round;
        self.row.clear();
        self.passes = 0;
        let mut moved = ChipCounts::default();
        for chip in Chip::ALL {
            let n = self.reserve.get(chip).min(CHIPS_ADDED_PER_ROUND);
            *self.reserve.get_mut(chip) -= n;
            *self.bag.get_mut(chip) += n;
            *moved.get_mut(chip) = n;
        }
        events.push(Event::ChipsToBag {
            round,
            chips: moved,
        });
        self.phase = Phase::AwaitingDraw { round };
    }

    // ----- Draws -----

    fn awaiting(&self, given: DrawKind) -> Result<(), PlayError> {
        let Phase::AwaitingDraw { .. } = self.phase else {
            return Err(PlayError::NoDrawPending {
                ruling: Ruling::P16,
            });
        };
        let expected = if self.is_audited() {
            DrawKind::Chips
        } else {
            DrawKind::Deal
        };
        if given != expected {
            return Err(PlayError::WrongDraw {
                expected,
                given,
                ruling: Ruling::P16,
            });
        }
        Ok(())
    }

    fn check_chips(&self, chips: &[Chip]) -> Result<(), PlayError> {
        let expected = chips_to_draw(&self.bag);
        if chips.len() != expected {
            return Err(PlayError::WrongCount {
                what: Drawn::Chips,
                expected,
                given: chips.len(),
                ruling: Ruling::P16,
            });
        }
        for chip in Chip::ALL {
            let wanted = chips.iter().filter(|&&c| c == chip).count();
            if wanted > self.bag.get(chip) as usize {
                return Err(PlayError::ChipNotInBag {
                    chip,
                    in_bag: self.bag.get(chip),
                    wanted: wanted as u8,
                    ruling: Ruling::P2,
                });
            }
        }
        Ok(())
    }

    /// Audited play: supplies the round's chips in drawn order (onto A, B, …); the cards are
    /// the next 7 of the shuffled deck (P5, P16). On error nothing changes.
    pub fn resolve_chips(&mut self, chips: &[Chip]) -> Result<Vec<Event>, PlayError> {
        self.awaiting(DrawKind::Chips)?;
        self.check_chips(chips)?;
        let deck = self.deck.as_deref().unwrap_or_default();
        let end = (self.dealt + ROW_SIZE).min(deck.len());
        let cards = deck[self.dealt..end].to_vec();
        self.dealt = end;
        let mut events = Vec::with_capacity(1);
        self.deal(&cards, chips, &mut events);
        Ok(events)
    }

    /// Manual play: supplies the round's 7 cards in dealt order and its chips in letter order
    /// (P5, P16). On error nothing changes.
    pub fn resolve_deal(&mut self, cards: &[u32], chips: &[Chip]) -> Result<Vec<Event>, PlayError> {
        self.awaiting(DrawKind::Deal)?;
        if cards.len() != ROW_SIZE {
            return Err(PlayError::WrongCount {
                what: Drawn::Cards,
                expected: ROW_SIZE,
                given: cards.len(),
                ruling: Ruling::P5,
            });
        }
        for &cost in cards {
            let Some(i) = cost_index(cost) else {
                return Err(PlayError::NotACard {
                    cost,
                    ruling: Ruling::P1,
                });
            };
            let wanted = cards.iter().filter(|&&c| c == cost).count();
            if wanted > self.deck_left.0[i] as usize {
                return Err(PlayError::CardNotInDeck {
                    cost,
                    left: self.deck_left.0[i],
                    wanted: wanted as u8,
                    ruling: Ruling::P1,
                });
            }
        }
        self.check_chips(chips)?;
        let mut events = Vec::with_capacity(1);
        self.deal(cards, chips, &mut events);
        Ok(events)
    }

    /// Lays out the row (P5, P6) and gives the dealer the first turn (P7).
    fn deal(&mut self, cards: &[u32], chips: &[Chip], events: &mut Vec<Event>) {
        let mut order: Vec<u32> = Vec::with_capacity(cards.len());
        for &cost in cards {
            if let Some(i) = cost_index(cost) {
                self.deck_left.0[i] = self.deck_left.0[i].saturating_sub(1);
                order.push(cost);
            }
        }
        // A stable sort keeps equal costs in dealt order (P5).
        order.sort();
        self.row.clear();
        for (i, &cost) in order.iter().enumerate() {
            let colour = chips.get(i).copied();
            if let Some(chip) = colour {
                *self.bag.get_mut(chip) -= 1;
            }
            let same_before = order[..i].iter().filter(|&&c| c == cost).count() as u32;
            let price = cost + SAME_COST_STEP * same_before;
            let (Some(letter), Some(card)) = (Letter::from_index(i), Card::new(cost, colour))
            else {
                continue;
            };
            self.row.push(RowCard {
                letter,
                card,
                base_price: price,
                price,
                bids: Vec::new(),
                owner: None,
            });
        }
        self.passes = 0;
        let dealer = self.dealer();
        events.push(Event::RoundStarted {
            round: self.round,
            rounds: self.rounds,
            dealer,
            row: self
                .row
                .iter()
                .map(|c| Dealt {
                    letter: c.letter,
                    cost: c.card.cost,
                    revenue: c.card.revenue,
                    colour: c.card.colour,
                    price: c.price,
                })
                .collect(),
        });
        self.begin_turn(dealer);
    }
}

/// A checked action, ready to apply.
enum Checked {
    Buy(usize),
    Bid(usize, u32),
    Pass,
    Raise(usize, u32),
    Drop(usize),
}

/// The least bid on a card: the larger of price + $2 and high bid + $1 (P8).
fn min_bid(card: &RowCard) -> u32 {
    let over_price = card.price + BID_OVER_PRICE;
    match card.high() {
        Some(high) => over_price.max(high.amount + BID_OVER_HIGH),
        None => over_price,
    }
}

/// Sets a player's bid on a card, replacing their earlier one; returns the earlier one.
fn set_bid(card: &mut RowCard, seat: Seat, amount: u32) -> Option<u32> {
    match card.bids.iter_mut().find(|b| b.player == seat) {
        Some(bid) => Some(std::mem::replace(&mut bid.amount, amount)),
        None => {
            let at = card.bids.partition_point(|b| b.player < seat);
            card.bids.insert(
                at,
                SeatBid {
                    player: seat,
                    amount,
                },
            );
            None
        }
    }
}
