//! Deciding: what a table makes of a message, of the clock's work or of an automa's turn — the
//! answer and the writes that store it, applied to the table in memory ([`Decided`]). The
//! adapter makes its outbox item from it as plain data; committing is [`super::commit`]'s.

use chrono::{DateTime, Utc};

use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::store::Write;
use crate::table::extract::{extract, Commands};

use super::Table;

impl Table {
    /// Decides the time-driven work up to `now` ([`Table::commit`] stores it). Work that cannot
    /// be stored is logged and done again at the next tick.
    pub async fn decide_tick(&mut self, now: DateTime<Utc>) -> Decided {
        if let Err(error) = self.cx.refresh().await {
            tracing::error!(channel = %self.cx.ledger.channel, %error, "the table does not load for the tick");
            return Decided::answer(Cause::Tick, Response::new(Verdict::Ignored));
        }
        let response = self.cx.pace_tick(now).await;
        self.decided(Cause::Tick, response, now, None).await
    }

    /// Decides one move of the automa to act, if an automa is to act and may move (not held by
    /// an `!undo`): decided on tokio's blocking pool; [`Table::commit`] stores it. An adapter
    /// asks for it after posting the reply to an accepted command, and again while it gets a
    /// move, so that consecutive automa turns follow until a human is to act. A move that
    /// cannot be stored is logged and made again at the next tick.
    pub async fn decide_automa(&mut self, now: DateTime<Utc>) -> Option<Decided> {
        self.cx.refresh().await.ok()?;
        let response = self.cx.automa_step(now).await?;
        Some(self.decided(Cause::Automa, response, now, None).await)
    }

    /// Whether an automa is to act now and may move.
    pub fn automa_to_act(&self) -> bool {
        self.cx
            .loaded
            .playing()
            .and_then(|c| c.automa_to_act(Utc::now()))
            .is_some()
    }

    /// Decides the second step of a setup that waits for its commitment post (docs/DICE.md
    /// §3.3): the transport posted the answer whose [`Response::waiting_setup`] named game
    /// `game_id`, and the post got the id `post_id`, the game's client seed. The setup draws
    /// are made with it and the game starts; [`Table::commit`] stores it (marking `post_id`
    /// read, so a second report of the same post, after a re-delivery, is a duplicate). Nothing
    /// is decided if no setup of that game waits.
    pub async fn decide_commitment_posted(&mut self, game_id: &str, post_id: &str) -> Decided {
        let cause = Cause::Message(post_id.to_string());
        if let Err(error) = self.cx.refresh().await {
            let refusal = self.cx.host.storage_refusal(&error);
            return Decided::answer(cause, refusal);
        }
        let response = crate::table::setup_after_post::finish(&mut self.cx, game_id, post_id).await;
        self.decided(cause, response, Utc::now(), None).await
    }

    /// Decides on one message: its answer and its writes, applied to the table in memory and
    /// stored by [`Table::commit`] (with the adapter's outbox item, if it keeps one). A table
    /// stays locked from its decision to its commit; a decision that is dropped instead leaves
    /// the table to be rebuilt from the store before its next message.
    #[tracing::instrument(target = "hop", level = "trace", skip_all)]
    pub async fn decide(&mut self, msg: &Incoming) -> Decided {
        if let Err(error) = self.cx.refresh().await {
            let refusal = self.cx.host.storage_refusal(&error);
            return Decided::answer(Cause::Message(msg.message_id.clone()), refusal);
        }
        let response = self.dispatch(msg).await;
        // Chat, a move, a command that changed something: the author has posted in the game.
        // A question answered (`!status`, `/status`) is not a post (`!recap` notes its own).
        if response.verdict != Verdict::Answered {
            self.note_post(msg);
        }
        let author = Some(msg.author.id.as_str());
        self.decided(
            Cause::Message(msg.message_id.clone()),
            response,
            msg.at,
            author,
        )
        .await
    }

    /// Notes that the author posted in the running game, after their message was handled (a
    /// recap they ask for starts after their previous post).
    fn note_post(&mut self, msg: &Incoming) {
        self.cx.note_post(msg);
    }

    /// The decision of the command just handled: its answer (with the turn ping by direct
    /// message it calls for: [`super::notify`]) and what it staged.
    /// `author`: who sent the message decided on (never sent a direct message about it).
    async fn decided(
        &mut self,
        cause: Cause,
        response: Response,
        now: DateTime<Utc>,
        author: Option<&str>,
    ) -> Decided {
        let writes = self.cx.ledger.take_staged();
        let response = self.with_direct(response, &writes, now, author).await;
        Decided {
            response,
            cause,
            writes,
        }
    }

    /// Routes one message to its command.
    async fn dispatch(&mut self, msg: &Incoming) -> Response {
        let cx = &mut self.cx;
        match extract(&msg.text, &cx.host.settings.prefix) {
            Commands::None => Response::new(Verdict::Ignored),
            Commands::Refused(reason) => Response::refused(cx.say(messages::Unreadable {
                author: msg.author.name.to_string(),
                reason: reason.to_string(),
            })),
            Commands::Bang { name, args } => self.registry.run(cx, &name, &args, msg).await,
            Commands::Bold(segments) => cx.moves(&segments, msg).await,
        }
    }
}

/// What caused a decision: a message (its id, marked read by the commit), the clock, an automa.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Cause {
    Message(String),
    Tick,
    Automa,
}

/// What a table decided on a message, the clock or an automa's turn: the answer and the writes
/// that store it, already applied to the table in memory. The adapter reads it (and the locked
/// table) to make its outbox item, then hands both to [`Table::commit`].
#[derive(Debug)]
#[must_use = "a decision is stored by Table::commit"]
pub struct Decided {
    pub(super) response: Response,
    pub(super) cause: Cause,
    pub(super) writes: Vec<Write>,
}

impl Decided {
    fn answer(cause: Cause, response: Response) -> Decided {
        Decided {
            response,
            cause,
            writes: Vec::new(),
        }
    }

    /// The answer.
    pub fn response(&self) -> &Response {
        &self.response
    }

    /// The writes the commit stores (after marking the message read).
    pub fn writes(&self) -> &[Write] {
        &self.writes
    }

    /// Whether committing it stores anything (then an outbox item is stored with it).
    pub fn stores(&self) -> bool {
        !self.writes.is_empty()
    }
}
