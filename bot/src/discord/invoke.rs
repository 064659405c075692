//! Interactions (slash commands, button clicks) as input for a table, in the channel's queue
//! like any message; and what follows an accepted command whatever its source: buttons on the
//! new turn prompt, the old prompt's buttons removed, the pinned status edited.
//!
//! An interaction enters the table as an [`Incoming`] whose id is the interaction id (so a
//! duplicate is refused and the log records who did it and when) and whose text is what a
//! player would have written (`**bid 7**`, `!undo`). An accepted one is posted in the channel
//! as the forum record reads: the mover's name and the move in bold, then the table's replies.

use serenity::all::{CreateActionRow, EditMessage, MessageId};
use tokio::sync::oneshot;

use gaugebot_table::input::{Incoming, Reply, Response, Verdict};
use gaugebot_table::{Prompt, Table, MESSAGE_LIMIT};

use super::buttons;
use super::deliver::{self, retry};
use super::worker::{ChannelState, Shared};

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

/// What an accepted command leads to, gathered while the table is locked.
pub(crate) struct After {
    accepted: bool,
    prompt: Option<Prompt>,
    status: Option<(String, String)>,
}

impl After {
    /// The buttons of the new turn prompt, if any.
    pub(crate) fn components(&self) -> Vec<CreateActionRow> {
        self.prompt.as_ref().map(buttons::rows).unwrap_or_default()
    }
}

impl Shared {
    /// What follows a response: the new prompt's buttons and the live status (accepted
    /// commands only).
    pub(crate) fn after(&self, table: &Table, response: &Response) -> After {
        let accepted = response.verdict == Verdict::Accepted;
        After {
            accepted,
            prompt: (accepted && self.buttons).then(|| table.prompt()).flatten(),
            status: (accepted && self.pinned_status)
                .then(|| {
                    let game = table.game_id()?.to_string();
                    Some((game, table.status_text()?))
                })
                .flatten(),
        }
    }

    /// After an accepted command is posted: the previous prompt loses its buttons, the new one
    /// (`posted`) is remembered, the pinned status is edited.
    pub(crate) async fn settle(
        &self,
        state: &mut ChannelState,
        after: After,
        posted: Option<MessageId>,
    ) {
        if !after.accepted {
            return;
        }
        if let Some(old) = state.last_prompt.take().filter(|old| Some(*old) != posted) {
            let channel = state.channel;
            let _ = retry("remove old buttons", channel, || {
                channel.edit_message(&*self.http, old, EditMessage::new().components(Vec::new()))
            })
            .await;
        }
        state.last_prompt = posted;
        if let Some((game, text)) = after.status {
            self.update_status(state.channel, &game, &text).await;
        }
    }

    /// Runs an interaction in its channel's table, in order with the channel's messages.
    pub(crate) async fn invoke(&self, state: &mut ChannelState, invocation: Invocation) {
        let Invocation {
            incoming,
            expect,
            echo,
            done,
        } = invocation;
        let mut table = match self.tables.table(&state.key).await {
            Ok(table) => table,
            Err(error) => {
                tracing::error!(channel = %state.channel, %error, "the table does not load; interaction not processed");
                let _ = done.send(Outcome::Failed);
                return;
            }
        };
        if let Some((game, position)) = &expect {
            if table.position() != Some((game.as_str(), *position)) {
                let _ = done.send(Outcome::Stale);
                return;
            }
        }
        let response = table.handle(&incoming).await;
        let after = self.after(&table, &response);
        drop(table);
        if response.verdict != Verdict::Ignored {
            tracing::info!(
                channel = %state.channel,
                interaction = %incoming.message_id,
                author = %incoming.author.id,
                verdict = ?response.verdict,
                "interaction"
            );
        }
        if response.verdict == Verdict::Accepted {
            let header = match &echo {
                Echo::Move if !response.moves.is_empty() => format!(
                    "{}: {}",
                    incoming.author.name,
                    response
                        .moves
                        .iter()
                        .map(|m| format!("**{m}**"))
                        .collect::<Vec<_>>()
                        .join(" ")
                ),
                Echo::Move => format!("{}: {}", incoming.author.name, incoming.text),
                Echo::Command(text) => format!("{}: `{text}`", incoming.author.name),
            };
            let replies = with_header(&header, &response.replies);
            let nonce = incoming.message_id.parse().unwrap_or(0);
            let components = after.components();
            let posted =
                deliver::post(&self.http, state.channel, None, nonce, &replies, components).await;
            self.settle(state, after, posted).await;
        }
        let _ = done.send(Outcome::Handled(response));
    }
}

/// The replies with a header line first (in the first reply when it fits).
fn with_header(header: &str, replies: &[Reply]) -> Vec<Reply> {
    let mut out = replies.to_vec();
    match out.first_mut() {
        Some(first)
            if first.text.chars().count() + header.chars().count() < MESSAGE_LIMIT
                && !first.text.is_empty() =>
        {
            first.text = format!("{header}\n{}", first.text);
        }
        _ => out.insert(
            0,
            Reply {
                text: header.to_string(),
                attachment: None,
            },
        ),
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_header_goes_on_the_first_reply_when_it_fits() {
        let reply = |t: &str| Reply {
            text: t.to_string(),
            attachment: None,
        };
        let out = with_header("ann: **bid 7**", &[reply("ann bids £7."), reply("more")]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].text, "ann: **bid 7**\nann bids £7.");
        let long = "x".repeat(MESSAGE_LIMIT - 3);
        let out = with_header("ann: **pass**", &[reply(&long)]);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].text, "ann: **pass**");
    }
}
