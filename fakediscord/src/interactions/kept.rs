//! What the fake keeps of interactions: the records a test reads, the application's flags and
//! commands, the pending interactions and the pins (one field of the fake's state).

use std::collections::{BTreeMap, HashMap};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::records::FakeUser;

/// How long Discord waits for an interaction's first answer.
pub const INTERACTION_DEADLINE: Duration = Duration::from_secs(3);

/// Message flag: only the invoking user sees it.
pub const EPHEMERAL: u64 = 1 << 6;

/// Application flag GATEWAY_MESSAGE_CONTENT (a verified bot granted the intent).
pub const APP_FLAG_MESSAGE_CONTENT: u64 = 1 << 18;
/// Application flag GATEWAY_MESSAGE_CONTENT_LIMITED (a bot in under 100 servers with the
/// intent switched on in the Developer Portal).
pub const APP_FLAG_MESSAGE_CONTENT_LIMITED: u64 = 1 << 19;

/// What kind of interaction a test sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InteractionKind {
    /// A slash command (type 2).
    Command,
    /// A click on a message component (type 3).
    Component,
    /// An autocomplete request (type 4).
    Autocomplete,
}

/// The bot's first answer to an interaction (`POST /interactions/{id}/{token}/callback`).
#[derive(Clone, Debug)]
pub struct Callback {
    /// The callback type: 4 message, 5 deferred message, 6 deferred update, 7 update,
    /// 8 autocomplete result.
    pub kind: u64,
    /// The callback's `data`, as sent.
    pub data: Value,
    /// When it arrived.
    pub at: Instant,
}

/// One interaction a test sent, with everything the bot answered.
#[derive(Clone, Debug)]
pub struct InteractionRecord {
    /// Its snowflake.
    pub id: u64,
    /// Its token.
    pub token: String,
    /// Its kind.
    pub kind: InteractionKind,
    /// The channel.
    pub channel_id: u64,
    /// Who invoked it.
    pub user: FakeUser,
    /// The command name, or the button's custom id.
    pub name: String,
    /// When INTERACTION_CREATE was handed to the session(s).
    pub sent_at: Instant,
    /// The first answer, if any.
    pub callback: Option<Callback>,
    /// Every callback attempt's HTTP status, in order.
    pub callback_statuses: Vec<u16>,
    /// The original response message (type 4, or the placeholder of type 5), if any.
    pub original: Option<u64>,
    /// Follow-up messages (the first follow-up after a defer fills `original` instead).
    pub followups: Vec<u64>,
    /// The autocomplete choices answered (type 8).
    pub choices: Vec<Value>,
    /// For a click: the message whose button was clicked.
    pub clicked: Option<u64>,
}

impl InteractionRecord {
    /// How long the bot took to answer, if it did.
    pub fn ack_latency(&self) -> Option<Duration> {
        self.callback
            .as_ref()
            .map(|c| c.at.saturating_duration_since(self.sent_at))
    }

    /// Whether the first answer was deferred (type 5 or 6).
    pub fn deferred(&self) -> bool {
        self.callback
            .as_ref()
            .is_some_and(|c| c.kind == 5 || c.kind == 6)
    }
}

/// A pending or answered interaction, as the fake keeps it.
pub(crate) struct Pending {
    pub record: InteractionRecord,
    /// Whether the original response is a "thinking…" placeholder no follow-up filled yet.
    pub placeholder: bool,
    /// Whether the defer (or first answer) was ephemeral.
    pub ephemeral: bool,
}

/// The fake's interaction state (one field of [`FakeState`]).
#[derive(Default)]
pub(crate) struct Native {
    /// The application's flags (`GET /oauth2/applications/@me`); `None`: the default
    /// (GATEWAY_MESSAGE_CONTENT_LIMITED).
    pub app_flags: Option<u64>,
    /// Global commands as registered, with ids.
    pub global_commands: Vec<Value>,
    /// Guild commands as registered, by guild.
    pub guild_commands: BTreeMap<u64, Vec<Value>>,
    /// How many times commands were registered (PUT).
    pub registrations: u32,
    /// Interactions by id.
    pub interactions: BTreeMap<u64, Pending>,
    /// Interaction ids by token.
    pub tokens: HashMap<String, u64>,
    /// Pinned message ids by channel, in pinning order.
    pub pins: BTreeMap<u64, Vec<u64>>,
}

impl Native {
    /// The application flags announced.
    pub(crate) fn flags(&self) -> u64 {
        self.app_flags.unwrap_or(APP_FLAG_MESSAGE_CONTENT_LIMITED)
    }

    /// Whether the application may ask for the MESSAGE_CONTENT intent.
    pub(crate) fn may_read_content(&self) -> bool {
        self.flags() & (APP_FLAG_MESSAGE_CONTENT | APP_FLAG_MESSAGE_CONTENT_LIMITED) != 0
    }

    /// The registered command called `name` that a user in `guild` sees (guild commands first).
    pub(crate) fn command(&self, guild: Option<u64>, name: &str) -> Option<&Value> {
        guild
            .and_then(|g| self.guild_commands.get(&g))
            .into_iter()
            .flatten()
            .chain(self.global_commands.iter())
            .find(|c| c["name"] == name)
    }
}
