//! A small script helper for rule tests: a table of named players who act in their own notation.
//!
//! ```text
//! let mut t = Table::new(&["ann", "bob", "cat"]);   // seats 1, 2, 3; the forum city roll
//! t.play("ann: bid 7");
//! t.play_all("bob: pass\ncat: pass");
//! t.refused("bob: bid 3", Rule::Bid, "face value");
//! t.draw("pink black black");
//! ```
//!
//! Every refusal is checked to leave the game exactly as it was and to name the rule it applies.

#![allow(dead_code)]

use irish_gauge::game::Phase;
use irish_gauge::notation::parse_cubes;
use irish_gauge::{
    parse_action, Action, Actor, Board, Colour, Event, Game, HexId, PlayError, Railway, Rule, Seat,
    Setup,
};

/// The city roll of the forum game (ruling 19's example): Galway pink; Limerick, Cork and Kilkenny
/// white; Waterford pink; Derry, Belfast and Dublin black. Supply: 7 white, 8 pink, 7 black.
pub const FORUM_CITIES: [u8; 8] = [5, 2, 3, 11, 4, 7, 9, 12];

/// A hex by id or name.
pub fn hex(text: &str) -> HexId {
    Board::get()
        .find(text)
        .unwrap_or_else(|| panic!("no hex {text}"))
}

/// A setup with players seated in sign-up order.
pub fn setup(names: &[&str], cities: [u8; 8]) -> Setup {
    Setup {
        players: names.iter().map(|n| n.to_string()).collect(),
        order: (1..=names.len() as u8).collect(),
        cities,
    }
}

/// A game at a table, played by script.
pub struct Table {
    /// The game.
    pub game: Game,
    /// Every event so far, in order.
    pub log: Vec<Event>,
    /// The events of the last accepted command.
    pub last: Vec<Event>,
}

impl Table {
    /// Players seated in the order given (order roll 1, 2, 3, …) with the forum city roll.
    pub fn new(names: &[&str]) -> Table {
        Table::with_cities(names, FORUM_CITIES)
    }

    /// Players seated in the order given, with this city roll.
    pub fn with_cities(names: &[&str], cities: [u8; 8]) -> Table {
        let game = Game::new(&setup(names, cities)).expect("valid setup");
        Table {
            game,
            log: Vec::new(),
            last: Vec::new(),
        }
    }

    /// The usual three-player table after the five initial auctions, every share bought at face
    /// value: ann CBSC 7 and GSW 4 (£9 left), bob WLW 5 and MGW 6 (£9 left), cat BCD 8 (£12 left).
    /// It is ann's turn (she holds CBSC).
    pub fn standard() -> Table {
        Table::standard_with_cities(FORUM_CITIES)
    }

    /// As [`Table::standard`], with another city roll.
    pub fn standard_with_cities(cities: [u8; 8]) -> Table {
        let mut t = Table::with_cities(&["ann", "bob", "cat"], cities);
        t.initial_auctions(&[("ann", 7), ("bob", 5), ("cat", 8), ("ann", 4), ("bob", 6)]);
        t
    }

    /// A three-player table where everyone still has £20: ann opened every initial auction,
    /// nobody bid, and she took the first share of each railway free. It is ann's turn.
    pub fn rich() -> Table {
        let mut t = Table::new(&["ann", "bob", "cat"]);
        t.initial_auctions(&[("ann", 0); 5]);
        t
    }

    /// The seat of a player.
    pub fn seat(&self, name: &str) -> Seat {
        self.game
            .seat_of(name)
            .unwrap_or_else(|| panic!("nobody called {name} at the table"))
    }

    /// Splits `ann: bid 7` into the seat and the action.
    fn command(&self, line: &str) -> (Seat, Action) {
        let (name, text) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("write a command as `name: action`, not {line:?}"));
        let action = parse_action(text).unwrap_or_else(|e| panic!("{line:?} does not parse: {e}"));
        (self.seat(name), action)
    }

    /// Plays a command, returning the result; nothing is checked.
    pub fn try_play(&mut self, line: &str) -> Result<Vec<Event>, PlayError> {
        let (seat, action) = self.command(line);
        self.try_action(seat, &action)
    }

    /// Plays an action for a seat, returning the result; a refusal must change nothing.
    pub fn try_action(&mut self, seat: Seat, action: &Action) -> Result<Vec<Event>, PlayError> {
        let before = self.game.clone();
        match self.game.play(seat, action) {
            Ok(events) => {
                self.log.extend(events.iter().cloned());
                self.last = events.clone();
                Ok(events)
            }
            Err(e) => {
                assert_eq!(self.game, before, "the refused {action} changed the game");
                Err(e)
            }
        }
    }

    /// Plays a command that must be accepted; returns its events.
    pub fn play(&mut self, line: &str) -> Vec<Event> {
        self.try_play(line)
            .unwrap_or_else(|e| panic!("{line:?} was refused: {e}"))
    }

    /// Plays several commands, one a line; `draw: white pink black` is the moderator's draw.
    /// Blank lines and lines starting with `#` are skipped.
    pub fn play_all(&mut self, script: &str) {
        for line in script.lines().map(str::trim) {
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            match line.strip_prefix("draw:") {
                Some(cubes) => {
                    self.draw(cubes);
                }
                None => {
                    self.play(line);
                }
            }
        }
    }

    /// Checks that a command is refused for `rule`, with `needle` in its reason, and that the
    /// game is unchanged; returns the error.
    pub fn refused(&mut self, line: &str, rule: Rule, needle: &str) -> PlayError {
        let (seat, action) = self.command(line);
        self.refused_action(seat, &action, rule, needle)
    }

    /// As [`Table::refused`], for an action given in the engine's terms.
    pub fn refused_action(
        &mut self,
        seat: Seat,
        action: &Action,
        rule: Rule,
        needle: &str,
    ) -> PlayError {
        let before = self.game.clone();
        let error = match self.game.play(seat, action) {
            Ok(events) => panic!("{action} was accepted: {events:?}"),
            Err(e) => e,
        };
        assert_eq!(self.game, before, "the refused {action} changed the game");
        assert_eq!(error.rule(), Some(rule), "{action} refused as: {error}");
        let text = error.to_string();
        assert!(
            text.contains(needle),
            "the refusal of {action} should say {needle:?}: {text}"
        );
        assert!(
            text.contains(rule.reference()),
            "the refusal of {action} should cite {}: {text}",
            rule.reference()
        );
        error
    }

    /// Checks that a build is ambiguous and unchanged; returns the options offered.
    pub fn ambiguous(&mut self, line: &str) -> Vec<Action> {
        let (seat, action) = self.command(line);
        let before = self.game.clone();
        let error = self.game.play(seat, &action).expect_err("ambiguous");
        assert_eq!(self.game, before, "the ambiguous {action} changed the game");
        match error {
            PlayError::Ambiguous { options, .. } => options,
            other => panic!("{action} should be ambiguous, was: {other}"),
        }
    }

    /// The moderator's draw (`pink black black`); must be accepted.
    pub fn draw(&mut self, cubes: &str) -> Vec<Event> {
        let cubes = parse_cubes(cubes).unwrap_or_else(|e| panic!("{cubes:?}: {e}"));
        let events = self
            .game
            .resolve_draw(&cubes)
            .unwrap_or_else(|e| panic!("draw {cubes:?} refused: {e}"));
        self.log.extend(events.iter().cloned());
        self.last = events.clone();
        events
    }

    /// Checks that a draw is refused (ruling 25) and changes nothing.
    pub fn refused_draw(&mut self, cubes: &str, needle: &str) -> PlayError {
        let cubes = parse_cubes(cubes).unwrap_or_else(|e| panic!("{cubes:?}: {e}"));
        let before = self.game.clone();
        let error = self
            .game
            .resolve_draw(&cubes)
            .expect_err("the draw should be refused");
        assert_eq!(self.game, before, "the refused draw changed the game");
        assert_eq!(error.rule(), Some(Rule::Draw), "{error}");
        let text = error.to_string();
        assert!(text.contains(needle), "should say {needle:?}: {text}");
        error
    }

    /// Draws whatever the pending draw asks for, white first, then pink, then black.
    pub fn draw_any(&mut self) -> Vec<Event> {
        let request = self.game.pending_draw().expect("a draw is pending");
        let mut supply = request.supply;
        let mut cubes = Vec::new();
        while cubes.len() < request.count as usize {
            let colour = Colour::ALL
                .into_iter()
                .find(|&c| supply.get(c) > 0)
                .expect("the supply has enough cubes");
            *supply.get_mut(colour) -= 1;
            cubes.push(colour);
        }
        let text: Vec<&str> = cubes.iter().map(|c| c.name()).collect();
        self.draw(&text.join(" "))
    }

    /// Plays the five initial auctions: each `(winner, price)`; the winner bids the price when
    /// first asked and everyone else passes. Price 0 means nobody bids and the opening bidder
    /// (who must then be the winner) takes the share free.
    pub fn initial_auctions(&mut self, lots: &[(&str, u32); 5]) {
        for (lot, &(winner, price)) in lots.iter().enumerate() {
            let railway = Railway::ALL[lot];
            let winner_seat = self.seat(winner);
            loop {
                match self.game.phase() {
                    Phase::InitialAuction { lot: now, .. } if *now == lot => {}
                    _ => break,
                }
                let seat = self.asked().expect("someone is asked to bid");
                let name = self.game.name(seat).to_string();
                let bid_made = match self.game.phase() {
                    Phase::InitialAuction { auction, .. } => auction.high.is_some(),
                    _ => unreachable!(),
                };
                if seat == winner_seat && price > 0 && !bid_made {
                    self.play(&format!("{name}: bid {price}"));
                } else {
                    self.play(&format!("{name}: pass"));
                }
            }
            let won = self
                .last
                .iter()
                .find_map(|e| match e {
                    Event::ShareWon {
                        player,
                        railway: r,
                        price,
                        ..
                    } if *r == railway => Some((*player, *price)),
                    _ => None,
                })
                .expect("the lot was won");
            assert_eq!(won, (winner_seat, price), "{railway} lot");
        }
    }

    /// The seat asked to act, if a player is.
    pub fn asked(&self) -> Option<Seat> {
        match self.game.to_act() {
            Actor::Player { seat } => Some(seat),
            _ => None,
        }
    }

    /// The name of the player to act, if a player is.
    pub fn to_act(&self) -> Option<&str> {
        self.asked().map(|s| self.game.name(s))
    }

    /// A player's cash.
    pub fn cash(&self, name: &str) -> u32 {
        self.game.players()[self.seat(name)].cash
    }

    /// A player's shares, railway by railway, face values lowest first.
    pub fn shares(&self, name: &str) -> Vec<(Railway, Vec<u32>)> {
        self.game.shares_of(self.seat(name))
    }

    /// A railway's track as hex ids, in board order.
    pub fn track(&self, railway: Railway) -> Vec<&'static str> {
        self.game
            .railway(railway)
            .track
            .iter()
            .map(|h| h.label())
            .collect()
    }

    /// Locomotives a railway has left.
    pub fn unplaced(&self, railway: Railway) -> u8 {
        self.game.railway(railway).unplaced()
    }

    /// The events of the last accepted command that match.
    pub fn last_matching(&self, f: impl Fn(&Event) -> bool) -> Vec<Event> {
        self.last.iter().filter(|e| f(e)).cloned().collect()
    }

    /// The one `Dividend` event of the last command for a railway: (income, per share, payouts
    /// as (name, amount)).
    pub fn dividend(&self, railway: Railway) -> (u32, u32, Vec<(String, u32)>) {
        self.last
            .iter()
            .find_map(|e| match e {
                Event::Dividend {
                    railway: r,
                    income,
                    per_share,
                    payouts,
                    ..
                } if *r == railway => Some((
                    *income,
                    *per_share,
                    payouts
                        .iter()
                        .map(|p| (self.game.name(p.player).to_string(), p.amount))
                        .collect(),
                )),
                _ => None,
            })
            .unwrap_or_else(|| panic!("no dividend for {railway} in {:?}", self.last))
    }

    /// The cost in half build points of each hex of the last build.
    pub fn last_build_costs(&self) -> Vec<(&'static str, u8)> {
        self.last
            .iter()
            .find_map(|e| match e {
                Event::LocomotivesPlaced { hexes, .. } => {
                    Some(hexes.iter().map(|(h, c)| (h.label(), *c)).collect())
                }
                _ => None,
            })
            .expect("the last command placed locomotives")
    }
}
