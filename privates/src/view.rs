//! The dump: the whole position as JSON for the bot and for logs, players in seat order.
//!
//! ```json
//! {"game":"privates","round":1,"dealer":"ann",
//!  "players":[{"name":"ann","cash":120,"cards":[{"cost":5,"revenue":3,"colour":"red"}],"bids":{"C":17}}],
//!  "row":[{"letter":"A","cost":5,"revenue":3,"colour":"red","price":5,"bids":{},"owner":"ann"}],
//!  "deck_left":47,"bag":{"red":1,"yellow":0,"green":1,"blue":1,"black":0},
//!  "reserve":{"red":9,"yellow":9,"green":9,"blue":9,"black":9},
//!  "next":"bob","finished":false,"scores":{"ann":123},"winners":[]}
//! ```

use std::fmt;
use std::marker::PhantomData;

use serde::de::{MapAccess, Visitor};
use serde::ser::SerializeMap;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use crate::card::{Card, Chip, ChipCounts};
use crate::game::{Actor, Game};

/// A map that keeps its keys in the order given (seat order, letter order) when serialized.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct OrderedMap<V>(pub Vec<(String, V)>);

impl<V> OrderedMap<V> {
    /// The value under a key.
    pub fn get(&self, key: &str) -> Option<&V> {
        self.0.iter().find(|(k, _)| k == key).map(|(_, v)| v)
    }

    /// Entries in order.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// Whether there are no entries.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<V: Serialize> Serialize for OrderedMap<V> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(Some(self.0.len()))?;
        for (k, v) in &self.0 {
            map.serialize_entry(k, v)?;
        }
        map.end()
    }
}

impl<'de, V: Deserialize<'de>> Deserialize<'de> for OrderedMap<V> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MapVisitor<V>(PhantomData<V>);
        impl<'de, V: Deserialize<'de>> Visitor<'de> for MapVisitor<V> {
            type Value = OrderedMap<V>;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a map")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut access: A) -> Result<Self::Value, A::Error> {
                let mut entries = Vec::new();
                while let Some(entry) = access.next_entry()? {
                    entries.push(entry);
                }
                Ok(OrderedMap(entries))
            }
        }
        deserializer.deserialize_map(MapVisitor(PhantomData))
    }
}

/// One player in the dump.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    /// Name.
    pub name: String,
    /// Cash.
    pub cash: u32,
    /// Cards owned, in the order taken.
    pub cards: Vec<Card>,
    /// Open bids by card letter.
    pub bids: OrderedMap<u32>,
}

/// One card of the row in the dump.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct RowView {
    /// Its letter.
    pub letter: String,
    /// Its cost.
    pub cost: u32,
    /// Its revenue.
    pub revenue: u32,
    /// Its chip.
    pub colour: Option<Chip>,
    /// Its price now; once taken, what its owner paid.
    pub price: u32,
    /// Open bids by player name, in seat order.
    pub bids: OrderedMap<u32>,
    /// Its owner's name once taken.
    pub owner: Option<String>,
}

/// The whole position (the dump's JSON schema).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameView {
    /// Always `privates`.
    pub game: String,
    /// The current round, from 1.
    pub round: u8,
    /// The current round's dealer.
    pub dealer: String,
    /// The players in seat order.
    pub players: Vec<PlayerView>,
    /// This round's row, A first (empty while its deal is awaited).
    pub row: Vec<RowView>,
    /// Cards left in the deck.
    pub deck_left: u32,
    /// Chips in the bag.
    pub bag: ChipCounts,
    /// Chips in the reserve.
    pub reserve: ChipCounts,
    /// The player to act, or `null` (a draw is awaited, or the game is over).
    pub next: Option<String>,
    /// Whether the game is over.
    pub finished: bool,
    /// Each player's total score by name, in seat order (final once finished).
    pub scores: OrderedMap<u32>,
    /// The winners' names; empty until the game is over.
    pub winners: Vec<String>,
}

impl GameView {
    /// The dump of a game.
    pub fn from_game(game: &Game) -> GameView {
        let name = |seat: usize| game.name(seat).to_string();
        let players = game
            .players()
            .iter()
            .enumerate()
            .map(|(seat, p)| PlayerView {
                name: p.name.clone(),
                cash: p.cash,
                cards: p.cards.clone(),
                bids: OrderedMap(
                    game.bids_of(seat)
                        .into_iter()
                        .map(|(letter, amount)| (letter.to_string(), amount))
                        .collect(),
                ),
            })
            .collect();
        let row = game
            .row()
            .iter()
            .map(|c| RowView {
                letter: c.letter.to_string(),
                cost: c.card.cost,
                revenue: c.card.revenue,
                colour: c.card.colour,
                price: c.price,
                bids: OrderedMap(c.bids.iter().map(|b| (name(b.player), b.amount)).collect()),
                owner: c.owner.map(name),
            })
            .collect();
        GameView {
            game: "privates".to_string(),
            round: game.round(),
            dealer: name(game.dealer()),
            players,
            row,
            deck_left: game.deck_left().total(),
            bag: game.bag(),
            reserve: game.reserve(),
            next: match game.to_act() {
                Actor::Player { seat } => Some(name(seat)),
                Actor::Draw | Actor::Nobody => None,
            },
            finished: game.is_finished(),
            scores: OrderedMap(
                game.scores()
                    .iter()
                    .map(|s| (name(s.player), s.total))
                    .collect(),
            ),
            winners: game.winners().into_iter().map(name).collect(),
        }
    }
}
