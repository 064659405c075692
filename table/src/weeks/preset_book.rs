//! Players' secret presets as the store keeps them ([`StoredPreset`], by player: a
//! [`PresetBook`]), and a table's cache of its game's presets, so that a move whose next
//! decision is an auction reads nothing from the store (BENCHMARKS.md, the Discord round trip).
//!
//! The cache holds the presets as stored: filled by the first read, changed by every write of
//! this table that stores presets (after it is committed), emptied when the table is rebuilt.
//! It is used only when the store says this process is its sole writer
//! ([`crate::store::Store::sole_writer`]); on a database that several processes share, a
//! player's direct message may be read by another process, which stores the preset there, so
//! the presets are read from the store at every decision.

use std::collections::HashMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use serde_json::Value;

use crate::store::Write;

/// One stored preset of a player.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct StoredPreset {
    /// Replaces a preset of the same key.
    pub(crate) key: String,
    /// The game's order.
    pub(crate) order: Value,
}

/// Players' presets in one game, by player id.
pub(crate) type PresetBook = HashMap<String, Vec<StoredPreset>>;

/// Reads the stored presets of a player.
pub(crate) fn read_presets(json: &str) -> Vec<StoredPreset> {
    serde_json::from_str(json).unwrap_or_default()
}

/// The presets of one game, as stored, once read.
#[derive(Debug, Default)]
pub(crate) struct PresetCache {
    book: Mutex<Option<(String, PresetBook)>>,
}

impl PresetCache {
    /// The presets of `game_id`, if they are kept.
    pub(crate) fn get(&self, game_id: &str) -> Option<PresetBook> {
        let book = self.book.lock().unwrap_or_else(|e| e.into_inner());
        book.as_ref()
            .filter(|(game, _)| game == game_id)
            .map(|(_, book)| book.clone())
    }

    /// Keeps `book` as the stored presets of `game_id`.
    pub(crate) fn put(&self, game_id: &str, book: PresetBook) {
        *self.book.lock().unwrap_or_else(|e| e.into_inner()) = Some((game_id.to_string(), book));
    }

    /// Follows committed writes: a player's presets replaced or removed. A game whose presets
    /// are not kept stays unknown (read at its next decision).
    pub(crate) fn committed(&self, writes: &[Write]) {
        let mut book = self.book.lock().unwrap_or_else(|e| e.into_inner());
        for write in writes {
            let Write::Presets {
                game_id,
                player_id,
                presets,
            } = write
            else {
                continue;
            };
            let Some((game, players)) = book.as_mut() else {
                continue;
            };
            if game != game_id {
                continue;
            }
            match presets {
                Some(json) => players.insert(player_id.clone(), read_presets(json)),
                None => players.remove(player_id),
            };
        }
    }

    /// Forgets what is kept (the table is rebuilt from the store).
    pub(crate) fn clear(&self) {
        *self.book.lock().unwrap_or_else(|e| e.into_inner()) = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn presets(game: &str, player: &str, json: Option<&str>) -> Write {
        Write::Presets {
            game_id: game.into(),
            player_id: player.into(),
            presets: json.map(str::to_string),
        }
    }

    const ONE: &str = r#"[{"key":"CBSC","order":{"max":10}}]"#;

    #[test]
    fn committed_presets_change_the_kept_book_of_their_game_only() {
        let cache = PresetCache::default();
        cache.committed(&[presets("g1", "ann", Some(ONE))]);
        assert_eq!(cache.get("g1"), None, "nothing kept before the first read");
        cache.put("g1", PresetBook::new());
        cache.committed(&[
            presets("g1", "ann", Some(ONE)),
            presets("g2", "bob", Some(ONE)),
        ]);
        let book = cache.get("g1").expect("kept");
        assert_eq!(
            book.get("ann"),
            Some(&vec![StoredPreset {
                key: "CBSC".into(),
                order: serde_json::json!({"max": 10}),
            }])
        );
        assert!(!book.contains_key("bob"), "another game's preset");
        assert_eq!(cache.get("g2"), None);
        cache.committed(&[presets("g1", "ann", None)]);
        assert!(cache.get("g1").expect("kept").is_empty());
        cache.clear();
        assert_eq!(cache.get("g1"), None);
    }
}
