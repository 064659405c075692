//! Who last posted in a table's channel: the point a player's recap starts from ("since you
//! last posted in this game"). Any message of the player's counts, chat included; a move made
//! *for* their seat (a moderator's `!act`, an automatic pass, the automa) does not, since they
//! did not post it.
//!
//! What a player posted that the log stores carries their id ([`crate::store::LogRow`]), so it
//! survives a restart; a message that stored nothing (chat, a refused move) is remembered here,
//! in memory, from the time the table was loaded. A question the table only answered
//! (`!status`, `/status`) is no post; `!recap` is one once it has answered (the next recap
//! starts there).

use std::collections::HashMap;

use chrono::{DateTime, Utc};

/// Where the game stood when a player last posted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct LastPost {
    /// The first log entry after the post (the log's length once it was handled).
    pub(crate) next_seq: i64,
    /// When it was posted.
    pub(crate) at: DateTime<Utc>,
}

/// The last post of each player in each game of a channel, as this process saw them.
#[derive(Debug, Default)]
pub(crate) struct Posts {
    /// (game id, player id) → their last post.
    last: HashMap<(String, String), LastPost>,
}

impl Posts {
    /// Notes that `player` posted in `game` at `at`, the log then `next_seq` entries long.
    pub(crate) fn note(&mut self, game: &str, player: &str, next_seq: i64, at: DateTime<Utc>) {
        let post = LastPost { next_seq, at };
        self.last
            .entry((game.to_string(), player.to_string()))
            .and_modify(|last| {
                if post.next_seq >= last.next_seq {
                    *last = post;
                }
            })
            .or_insert(post);
    }

    /// The last post of `player` in `game` that this process saw.
    pub(crate) fn last(&self, game: &str, player: &str) -> Option<LastPost> {
        self.last
            .get(&(game.to_string(), player.to_string()))
            .copied()
    }
}

impl crate::table::Cx {
    /// Notes that the author of `msg` posted in the running game, once it was handled.
    pub(crate) fn note_post(&mut self, msg: &crate::input::Incoming) {
        if let Some(current) = self.loaded.running() {
            let next_seq = current.log.len() as i64;
            self.posts
                .note(&current.row.id, &msg.author.id, next_seq, msg.stored_time());
        }
    }
}
