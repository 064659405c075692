//! Committing: a table's decision stored in one transaction with the adapter's outbox item
//! ([`Table::commit`]), or refused with no trace of it.

use chrono::{DateTime, Utc};

use crate::input::{Incoming, Response, Verdict};
use crate::store::{Outgoing, StoreError};

use super::decide::{Cause, Decided};
use super::Table;

impl Table {
    /// Handles one message and commits it with no outbox item: its answer.
    pub async fn handle(&mut self, msg: &Incoming) -> Response {
        let decision = self.decide(msg).await;
        self.commit(decision, None).await.response()
    }

    /// Finishes a setup that waited for its commitment post, which got the id `post_id`, and
    /// commits it with no outbox item ([`Table::decide_commitment_posted`]): the setup's
    /// announcement.
    pub async fn commitment_posted(&mut self, game_id: &str, post_id: &str) -> Response {
        let decision = self.decide_commitment_posted(game_id, post_id).await;
        self.commit(decision, None).await.response()
    }

    /// Time-driven work (deadlines, reminders, presets, signups) up to `now`, committed with no
    /// outbox item: the replies to post ([`crate::weeks::pace`]).
    pub async fn tick(&mut self, now: DateTime<Utc>) -> Response {
        let decision = self.decide_tick(now).await;
        self.commit(decision, None).await.response()
    }

    /// Makes and commits (with no outbox item) one move of the automa to act, if an automa is
    /// to act and may move: its post ([`Table::decide_automa`]).
    pub async fn automa_step(&mut self, now: DateTime<Utc>) -> Option<Response> {
        let decision = self.decide_automa(now).await?;
        self.commit(decision, None).await.ok().map(|c| c.response)
    }

    /// Stores a decision of this table: its message marked `read` first (if it has one), its
    /// writes, and `outgoing` with them, in one transaction (`outgoing` is dropped if the
    /// decision writes nothing: an answer that changed nothing is not kept). A failed write
    /// refuses the command and leaves no trace of it: the table is rebuilt from the store.
    ///
    /// A message delivered twice is applied once: the transaction that stores what it did
    /// first marks it read, and is refused if it was read before (the table is then rebuilt
    /// and the answer is [`Verdict::Duplicate`]). So a command costs no read of its own before
    /// it is handled; an answer that writes nothing (`!status`) is given again, as it is.
    #[tracing::instrument(target = "hop", level = "trace", skip_all)]
    pub async fn commit(
        &mut self,
        decision: Decided,
        outgoing: Option<Outgoing>,
    ) -> Result<Committed, NotStored> {
        let Decided {
            response,
            cause,
            writes,
        } = decision;
        if writes.is_empty() {
            return Ok(Committed {
                response,
                kept: None,
            });
        }
        let read = match &cause {
            Cause::Message(id) => Some(id.as_str()),
            Cause::Tick | Cause::Automa => None,
        };
        match self.cx.flush(writes, read, outgoing.clone()).await {
            Ok(()) => Ok(Committed {
                response,
                kept: outgoing,
            }),
            Err(error) => {
                let response = match (&cause, &error) {
                    (Cause::Message(_), StoreError::AlreadyRead { .. }) => {
                        Response::new(Verdict::Duplicate)
                    }
                    (Cause::Message(_), _) => self.cx.host.storage_refusal(&error),
                    (Cause::Tick, _) => {
                        tracing::error!(channel = %self.cx.ledger.channel, %error, "the clock's work was not stored; it is retried at the next tick");
                        Response::new(Verdict::Ignored)
                    }
                    (Cause::Automa, _) => {
                        tracing::error!(channel = %self.cx.ledger.channel, %error, "the automa's move was not stored; it is made again at the next tick");
                        Response::new(Verdict::Ignored)
                    }
                };
                Err(NotStored { response, error })
            }
        }
    }
}

/// A committed decision: its answer, and the outbox item stored with it, if one was.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Committed {
    /// The answer.
    pub response: Response,
    /// The outbox item stored with the command: the adapter posts it, then says it was
    /// delivered ([`Store::delivered`]).
    pub kept: Option<Outgoing>,
}

/// A decision whose write failed: nothing of it stays (the table was rebuilt from the store).
#[derive(Debug)]
pub struct NotStored {
    /// What to answer instead: [`Verdict::Duplicate`] for a message read before, a refusal
    /// that names the storage failure for another message, nothing for the clock's work or an
    /// automa's move (done again at the next tick).
    pub response: Response,
    /// Why.
    pub error: StoreError,
}

/// The answer of a commit, stored or not.
pub trait Answer {
    /// The answer to give.
    fn response(self) -> Response;
}

impl Answer for Result<Committed, NotStored> {
    fn response(self) -> Response {
        match self {
            Ok(committed) => committed.response,
            Err(not_stored) => not_stored.response,
        }
    }
}
