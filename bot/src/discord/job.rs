//! The work a channel's queue carries, and what an interaction's submitter gets back.

use serenity::all::{Message, MessageId};
use tokio::sync::oneshot;

use gaugebot_table::input::{Incoming, Response};
use gaugebot_table::Outgoing;

/// Work for a channel's worker.
pub(crate) enum Job {
    /// A message from the gateway. `epoch` is the session whose collector queued it, `None`
    /// when it came through the fallback event handler.
    Live {
        /// The message.
        message: Box<Message>,
        /// The collector's session epoch.
        epoch: Option<u64>,
    },
    /// Catch up on the channel's history; signal when done.
    CatchUp(oneshot::Sender<()>),
    /// A slash command or a button click, as input for the table.
    Interaction(Box<Invocation>),
    /// The bot's own message (a reply it posted): once every message before it was
    /// processed, the cursor may move past it, so that a restart finds the channel up to date.
    Own(MessageId),
    /// Deliver a parcel the table kept in the outbox (the clock's posts, an automa's move
    /// made at a tick), in the channel's order.
    Deliver(Box<Outgoing>),
    /// Deliver what the outbox kept for the channel from before (a crash, a restart).
    Outbox,
    /// A message was edited (`Some(new text)`) or deleted (`None`).
    Changed {
        /// The message.
        id: MessageId,
        /// The new text of an edit.
        edited: Option<String>,
    },
}

/// How an accepted interaction is echoed in the channel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Echo {
    /// A move: `ann: **bid 7**` (its canonical notation, from the table).
    Move,
    /// A `!`-command: `mona: `!undo`` (as it would have been written, names for mentions).
    Command(String),
}

/// What came of an interaction.
#[derive(Debug)]
pub(crate) enum Outcome {
    /// The table's answer (an accepted one is already posted in the channel).
    Handled(Response),
    /// A button of an earlier position: nothing was done.
    Stale,
    /// The table could not be loaded.
    Failed,
}

/// An interaction for a channel's worker.
pub(crate) struct Invocation {
    /// The input: the interaction id, the user, the text as written.
    pub(crate) incoming: Incoming,
    /// For a button: the game and position it was made for.
    pub(crate) expect: Option<(String, usize)>,
    /// How an accepted one is echoed.
    pub(crate) echo: Echo,
    /// Where the outcome goes.
    pub(crate) done: oneshot::Sender<Outcome>,
}
