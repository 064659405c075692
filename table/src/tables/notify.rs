//! Turn pings by direct message (`!notify dm`): when a stored decision of a table pings the
//! player to act — their turn, a reminder, a deadline notice — and that player chose direct
//! messages, the answer carries a [`Direct`] for them, pointing to the reply that pings them.
//! None while they are away, nor for the message they sent themselves; at most one per decision and kind (the turn, its reminder, its
//! deadline), even when a later answer pings them again for the same decision.

use chrono::{DateTime, Utc};

use crate::commands::notify::NOTIFY_DM;
use crate::game::events::{ReminderKind, TableEvent};
use crate::game::log::Entry;
use crate::input::{channel_ref, Direct, Response, Verdict};
use crate::messages;
use crate::store::Write;
use crate::table::Loaded;
use crate::weeks::pace::decision_data;

use super::Table;

/// Which ping of a decision.
fn kind_of(writes: &[Write]) -> &'static str {
    let mut kind = "turn";
    for write in writes {
        let Write::Append { rows, .. } = write else {
            continue;
        };
        for row in rows {
            let Ok(value) = serde_json::from_str(&row.entry_json) else {
                continue;
            };
            if let Ok(Entry::Table(TableEvent::Reminded { kind: k, .. })) = Entry::from_json(&value)
            {
                kind = match k {
                    ReminderKind::Remind => "remind",
                    ReminderKind::Deadline => "deadline",
                };
            }
        }
    }
    kind
}

impl Table {
    /// Adds the direct message of the player to act, if this stored answer pings them and
    /// they asked for one — unless they sent the message answered (they are here: a
    /// `!takeback`, a second move of their own).
    pub(super) async fn with_direct(
        &mut self,
        mut response: Response,
        writes: &[Write],
        now: DateTime<Utc>,
        author: Option<&str>,
    ) -> Response {
        if response.verdict != Verdict::Accepted || writes.is_empty() {
            return response;
        }
        let Loaded::Running(current) = &self.cx.loaded else {
            return response;
        };
        let Some(clock) = self.cx.loaded.decision_clock(now) else {
            return response;
        };
        if clock.away || author == Some(clock.player.id.as_str()) {
            return response;
        }
        let Some(reply) = response
            .replies
            .iter()
            .rposition(|r| r.text.pinged().contains(&clock.player.id.as_str()))
        else {
            return response;
        };
        let kind = kind_of(writes);
        let key = (current.row.id.clone(), clock.since_seq, kind);
        if self.notified.contains(&key) {
            return response;
        }
        let store = self.cx.ledger.store.clone();
        match store.notify_mode(&clock.player.id).await {
            Ok(Some(mode)) if mode == NOTIFY_DM => {}
            Ok(_) => return response,
            Err(error) => {
                tracing::warn!(%error, "the notify choice does not read: no direct message");
                return response;
            }
        }
        let Loaded::Running(current) = &self.cx.loaded else {
            return response;
        };
        let text = self.cx.host.say(messages::NotifyDm {
            kind: kind.to_string(),
            game_id: current.row.id.clone(),
            title: current.session.info().title.to_string(),
            channel: channel_ref(&self.cx.ledger.channel),
            c: decision_data(&clock, now),
        });
        self.notified.insert(key);
        response.direct.push(Direct {
            to: clock.player.id.clone(),
            name: clock.player.name.clone(),
            text: crate::answer::Rich::parse(&text),
            reply,
        });
        response
    }
}
