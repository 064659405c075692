//! A game read from the store: its row, its record (as `!export` makes it: the seed only once
//! revealed) and any position of it, rebuilt by replaying the record's log on the stored setup
//! (the record's own setup lacks what a v3 record seals until the reveal, Privates' deck:
//! docs/DICE.md §7.2; the page shows only what the game shows of a position).

use gaugebot_table::game::session::Session;
use gaugebot_table::record::{self, GameRecord, RecordError, StoredSetup};
use gaugebot_table::table::chart::{net_worth_series, Series};
use gaugebot_table::{GameRow, SharedPlugin, StoreError};

use crate::Web;

/// A game as its page shows it.
pub struct Loaded {
    /// The stored game.
    pub row: GameRow,
    /// Its plug-in.
    pub plugin: SharedPlugin,
    /// Its complete record.
    pub record: GameRecord,
    /// Its stored setup, hidden fields included: for rebuilding positions, never served.
    stored: StoredSetup,
}

/// Why a page cannot be shown.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// No game has this page.
    #[error("no such page")]
    NotFound,
    /// The store failed.
    #[error("the database: {0}")]
    Store(#[from] StoreError),
    /// The stored game does not read or replay.
    #[error("the game record: {0}")]
    Record(#[from] RecordError),
}

/// The game whose page has `token`, with its record.
pub async fn load(web: &Web, token: &str) -> Result<Loaded, LoadError> {
    if !crate::token::is_token(token) {
        return Err(LoadError::NotFound);
    }
    let row = web
        .store
        .game_of_page(token)
        .await?
        .ok_or(LoadError::NotFound)?;
    let rows = web.store.log(&row.id).await?;
    let stored: StoredSetup = serde_json::from_str(&row.setup_json)
        .map_err(|e| RecordError(format!("the setup does not read: {e}")))?;
    let plugin = web
        .host
        .games
        .iter()
        .find(|g| g.info().kind == row.kind)
        .cloned()
        .ok_or_else(|| RecordError(format!("this bot has no game of kind '{}'", row.kind)))?;
    let session = plugin
        .load(&stored.setup, stored.players.clone())
        .map_err(|e| RecordError(format!("the setup is not valid: {e}")))?;
    let record = GameRecord::of(&row, &stored, &rows, session.as_ref())?;
    Ok(Loaded {
        row,
        plugin,
        record,
        stored,
    })
}

impl Loaded {
    /// The number of the last entry, if there is one.
    pub fn last_seq(&self) -> Option<i64> {
        self.record.log.last().map(|e| e.seq)
    }

    /// The position after entry `at` (after every entry when `None`): the record's log
    /// replayed, exactly as `gaugebot replay --until` does, on the stored setup (so a v3 game
    /// whose record seals its deck until the reveal still has its positions).
    pub fn position(&self, at: Option<i64>) -> Result<Box<dyn Session>, RecordError> {
        let mut session = self
            .plugin
            .load(&self.stored.setup, self.stored.players.clone())
            .map_err(|e| RecordError(format!("the setup is not valid: {e}")))?;
        for (seq, entry) in record::in_force(&self.record.log, at)? {
            session
                .replay(&entry)
                .map_err(|e| RecordError(format!("entry #{seq} does not replay: {e}")))?;
        }
        Ok(session)
    }

    /// Every player's net worth from the start and after each move in force up to `at`, with
    /// the currency; `None` when the game does not say what its players are worth. A draw
    /// belongs to the move that called for it (as `!chart` counts them).
    pub fn net_worth(&self, at: Option<i64>) -> Option<(Vec<Series>, &'static str)> {
        let mut session = self
            .plugin
            .load(&self.stored.setup, self.stored.players.clone())
            .ok()?;
        // Seat order (the setup may have drawn it), as `worth` counts seats.
        let names: Vec<String> = session.seated().iter().map(|p| p.name.clone()).collect();
        let entries = record::in_force(&self.record.log, at).ok()?;
        net_worth_series(&mut *session, names, entries.iter().map(|(_, entry)| entry))
    }
}
