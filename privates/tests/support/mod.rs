//! A small script helper for rule tests: a table of named players who act in their own notation.
//!
//! ```text
//! let mut t = Table::manual(&["ann", "bob", "cat"], 0);   // ann deals first
//! t.deal("10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,blue");
//! t.play("ann", "bid 17 on C");
//! let refusal = t.refused("bob", "bid 17 on C");           // checked to change nothing
//! ```

#![allow(dead_code)]

use privates::draw::{chip_population, deck_population};
use privates::game::RowCard;
use privates::notation::parse_deal;
use privates::{Actor, Chip, Event, Game, LineError, PlayError, Setup};

/// A game at a table, played by script.
pub struct Table {
    /// The game.
    pub game: Game,
    /// Every event so far.
    pub log: Vec<Event>,
    /// The events of the last accepted command or draw.
    pub last: Vec<Event>,
}

impl Table {
    /// Manual play (the moderator deals), players seated in the order given.
    pub fn manual(names: &[&str], dealer: usize) -> Table {
        Table::from_setup(&Setup::manual(names, dealer))
    }

    /// Audited play with the deck in cost order (5 5 5 5 5 5 10 …): each round's row is the
    /// next 7 of it.
    pub fn audited_sorted(names: &[&str], dealer: usize) -> Table {
        Table::from_setup(&Setup::audited(names, dealer, deck_population(6)))
    }

    /// A table from any valid setup.
    pub fn from_setup(setup: &Setup) -> Table {
        Table {
            game: Game::new(setup).expect("a valid setup"),
            log: Vec::new(),
            last: Vec::new(),
        }
    }

    /// Plays a line for a player; panics if it is refused.
    pub fn play(&mut self, name: &str, text: &str) -> Vec<Event> {
        match self.game.play_line(name, text) {
            Ok(events) => {
                self.log.extend(events.iter().cloned());
                self.last = events.clone();
                events
            }
            Err(e) => panic!("{name}: {text} was refused: {e}"),
        }
    }

    /// Plays `name: action` lines, one a line.
    pub fn script(&mut self, lines: &str) {
        for line in lines.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let (name, text) = line
                .split_once(':')
                .unwrap_or_else(|| panic!("write `name: action`, not {line:?}"));
            self.play(name.trim(), text);
        }
    }

    /// Plays a line that must be refused by the rules; checks that nothing changed.
    pub fn refused(&mut self, name: &str, text: &str) -> PlayError {
        let before = self.game.clone();
        let result = self.game.play_line(name, text);
        assert_eq!(self.game, before, "a refusal changed the game");
        match result {
            Err(LineError::Play(e)) => e,
            Err(other) => panic!("{name}: {text} was not read: {other}"),
            Ok(events) => panic!("{name}: {text} was accepted: {events:?}"),
        }
    }

    /// The moderator's manual deal; panics if refused.
    pub fn deal(&mut self, text: &str) -> Vec<Event> {
        let deal = parse_deal(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let events = self
            .game
            .resolve_deal(&deal.cards, &deal.chips)
            .unwrap_or_else(|e| panic!("deal {text:?} refused: {e}"));
        self.log.extend(events.iter().cloned());
        self.last = events.clone();
        events
    }

    /// Audited play: draws the chips as the first ones of the bag's population (red first).
    pub fn chips_in_order(&mut self) -> Vec<Event> {
        let request = self.game.pending_draw().expect("a draw is pending");
        let chips: Vec<Chip> = chip_population(&request.bag())
            .into_iter()
            .take(request.chip_count())
            .collect();
        let events = self.game.resolve_chips(&chips).expect("chips from the bag");
        self.log.extend(events.iter().cloned());
        self.last = events.clone();
        events
    }

    /// The seat of a player.
    pub fn seat(&self, name: &str) -> usize {
        self.game
            .seat_of(name)
            .unwrap_or_else(|| panic!("nobody called {name}"))
    }

    /// A player's cash.
    pub fn cash(&self, name: &str) -> u32 {
        self.game.players()[self.seat(name)].cash
    }

    /// The costs of a player's cards, in the order taken.
    pub fn cards(&self, name: &str) -> Vec<u32> {
        self.game.players()[self.seat(name)]
            .cards
            .iter()
            .map(|c| c.cost)
            .collect()
    }

    /// A row card by letter.
    pub fn card(&self, letter: char) -> &RowCard {
        let i = (letter as u8 - b'A') as usize;
        &self.game.row()[i]
    }

    /// The name of the player to act, if a player is to act.
    pub fn to_act(&self) -> Option<String> {
        match self.game.to_act() {
            Actor::Player { seat } => Some(self.game.name(seat).to_string()),
            _ => None,
        }
    }

    /// Plays the round out: whoever is to act buys if they can, else passes (a bid-off is
    /// dropped out of). Stops when a draw is asked for or the game is over.
    pub fn finish_round(&mut self) {
        while let Some(name) = self.to_act() {
            let line = match self.game.legal_actions() {
                privates::LegalActions::Turn { buy: Some(_), .. } => "buy",
                privates::LegalActions::BidOff { .. } => "drop",
                _ => "pass",
            };
            self.play(&name, line);
        }
    }
}
