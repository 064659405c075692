//! Refusals and replay errors of the erased layer: typed data that the table renders at its
//! edge with the game's refusal template, never strings made inside the session.

use std::fmt;
use std::sync::Arc;

use serde_json::Value;

use super::Render;
use crate::game::erased::erased;
use crate::game::{PlayerInfo, TableGame, Text};

/// A game's refusal, erased: the game's typed refusal with the names it speaks of, rendered by
/// the game's refusal template when the table answers ([`Refusal::render`]).
pub struct Refusal(Inner);

enum Inner {
    /// The game refused.
    Game(Box<dyn GameRefusal>),
    /// What the game made does not store as JSON (a bug in the game's types).
    Unstorable(serde_json::Error),
}

struct Typed<G: TableGame> {
    game: Arc<G>,
    refusal: G::Refusal,
    /// The seated players the refusal's seats name.
    seated: Vec<PlayerInfo>,
}

erased! {
    /// A typed refusal with its game, erased: derived from `Typed<G>`'s methods.
    trait GameRefusal for Typed<G: TableGame> {
        /// The kind of the game that refused.
        fn kind(&self) -> &'static str {
            self.game.info().kind
        }

        /// The refusal as data.
        fn data(&self) -> Value {
            serde_json::to_value(&self.refusal).unwrap_or(Value::Null)
        }

        /// The refusal in words, by the game's refusal template.
        fn render(&self, render: &Render<'_>) -> String {
            let ctx = render.ctx(&self.seated);
            self.game.render(&ctx, Text::Refusal(&self.refusal))
        }

        /// The moves it offers the player to act instead, in notation.
        fn offered(&self) -> Vec<String> {
            self.game
                .offered_moves(&self.refusal)
                .iter()
                .map(ToString::to_string)
                .collect()
        }

        /// The refusal in plain words (its `Display`).
        fn plain(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            fmt::Display::fmt(&self.refusal, f)
        }

        /// The refusal for logs.
        fn debug(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            write!(f, "{}: {:?}", self.kind(), self.refusal)
        }
    }
}

impl Refusal {
    /// A game's refusal; its seats name `seated`.
    pub fn of<G: TableGame>(game: Arc<G>, refusal: G::Refusal, seated: Vec<PlayerInfo>) -> Self {
        Refusal(Inner::Game(Box::new(Typed {
            game,
            refusal,
            seated,
        })))
    }

    /// What a game made does not store as JSON.
    pub fn unstorable(error: serde_json::Error) -> Self {
        Refusal(Inner::Unstorable(error))
    }

    /// The kind of the game that refused (`None` for a value that does not store).
    pub fn kind(&self) -> Option<&'static str> {
        match &self.0 {
            Inner::Game(r) => Some(r.kind()),
            Inner::Unstorable(_) => None,
        }
    }

    /// The refusal's data as the refusal template gets it.
    pub fn data(&self) -> Value {
        match &self.0 {
            Inner::Game(r) => r.data(),
            Inner::Unstorable(e) => Value::from(e.to_string()),
        }
    }

    /// The moves it offers the player to act instead, in notation
    /// ([`TableGame::offered_moves`]).
    pub fn offered(&self) -> Vec<String> {
        match &self.0 {
            Inner::Game(r) => r.offered(),
            Inner::Unstorable(_) => Vec::new(),
        }
    }

    /// The refusal in the players' words, from the game's refusal template.
    pub fn render(&self, render: &Render<'_>) -> String {
        match &self.0 {
            Inner::Game(r) => r.render(render),
            Inner::Unstorable(e) => e.to_string(),
        }
    }
}

/// The plain wording, for moderators' diagnostics.
impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Inner::Game(r) => r.plain(f),
            Inner::Unstorable(e) => e.fmt(f),
        }
    }
}

impl fmt::Debug for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.0 {
            Inner::Game(r) => r.debug(f),
            Inner::Unstorable(e) => write!(f, "unstorable: {e:?}"),
        }
    }
}

impl std::error::Error for Refusal {}

/// What a stored value is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// The game's setup.
    Setup,
    /// A move.
    Move,
    /// A draw.
    Draw,
}

/// Why a stored setup or entry does not replay.
#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    /// It does not read as the game's.
    #[error("{error}")]
    Unreadable {
        /// What it is.
        what: Stored,
        /// Why it does not read.
        error: serde_json::Error,
    },
    /// The game refuses it.
    #[error("{0}")]
    Refused(Refusal),
}

impl ReplayError {
    /// A stored value that does not read.
    pub fn unreadable(what: Stored, error: serde_json::Error) -> Self {
        ReplayError::Unreadable { what, error }
    }
}
