//! Interactions: slash commands and their autocomplete ([`slash`], [`autocomplete`]), clicks on
//! the turn prompt's buttons ([`buttons`]). Each is acknowledged at once (Discord wants an
//! answer within 3 s), then queued in its channel like a message and handed to the table
//! ([`super::play`]); the user is answered privately with the outcome.
//!
//! An interaction enters the table as an [`Incoming`] whose id is the interaction id (so a
//! duplicate is refused and the log records who did it and when) and whose text is what a
//! player would have written (`**bid 7**`, `!undo`).

pub(crate) mod autocomplete;
pub(crate) mod buttons;
pub(crate) mod slash;
mod spec;

use std::sync::Arc;
use std::time::Duration;

use serenity::all::{
    ChannelId, CreateAllowedMentions, CreateAttachment, CreateInteractionResponseFollowup,
    InteractionId,
};
use tokio::sync::oneshot;

use gaugebot_table::input::{Incoming, Response, Verdict};
use gaugebot_table::Templates;

use super::job::{Echo, Invocation, Job, Outcome};
use super::posting::{pages, reply};
use super::rest::Rest;
use super::retry::retry;
use super::shared::Shared;
use super::text::Text;
use crate::clock::time_or_now;

/// How long an invocation waits for its channel's queue (an interaction token lasts 15 min).
const INVOKE_WAIT: Duration = Duration::from_secs(600);

/// When an interaction was made (its snowflake's time), in RFC 3339.
pub(crate) fn interaction_time(id: InteractionId) -> chrono::DateTime<chrono::Utc> {
    time_or_now(id.created_at().to_rfc3339())
}

/// Queues an interaction in its channel and waits for the outcome.
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
pub(crate) async fn submit(
    shared: &Arc<Shared>,
    channel: ChannelId,
    incoming: Incoming,
    expect: Option<(String, usize)>,
    echo: Echo,
) -> Outcome {
    let (done, outcome) = oneshot::channel();
    shared.enqueue(
        channel,
        Job::Interaction(Box::new(Invocation {
            incoming,
            expect,
            echo,
            done,
        })),
    );
    match tokio::time::timeout(INVOKE_WAIT, outcome).await {
        Ok(Ok(outcome)) => outcome,
        _ => Outcome::Failed,
    }
}

/// Answers a deferred interaction with its outcome: a confirmation of an accepted command (it
/// is posted in the channel already), or the table's replies (files attached).
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
pub(crate) async fn answer(
    rest: &Rest,
    templates: &Templates,
    channel: ChannelId,
    token: &str,
    outcome: Outcome,
    private: bool,
) {
    let (texts, page): (Vec<(String, Option<CreateAttachment>)>, _) = match outcome {
        Outcome::Handled(response) => (replies(templates, &response), response.page),
        Outcome::Stale => (vec![(Text::StaleButton.render(templates), None)], None),
        Outcome::Failed => (vec![(Text::NotLoaded.render(templates), None)], None),
    };
    let count = texts.len();
    for (index, (text, file)) in texts.into_iter().enumerate() {
        let mut followup = CreateInteractionResponseFollowup::new()
            .ephemeral(private)
            .allowed_mentions(CreateAllowedMentions::new());
        if !text.is_empty() {
            followup = followup.content(text);
        }
        // A status report's ◀ ▶ go on its last message.
        if let (true, Some(page)) = (index + 1 == count, &page) {
            followup = followup.components(pages::rows(page));
        }
        let _ = retry("answer an interaction", channel, || {
            rest.follow_up(token, &followup, file.as_ref())
        })
        .await;
    }
}

/// What the user is told, message by message.
fn replies(templates: &Templates, response: &Response) -> Vec<(String, Option<CreateAttachment>)> {
    let said = |text: Text<'_>| vec![(text.render(templates), None)];
    match response.verdict {
        Verdict::Accepted => said(Text::Accepted {
            moves: &response.moves,
        }),
        Verdict::Duplicate => said(Text::Duplicate),
        Verdict::Ignored if response.replies.is_empty() => said(Text::NothingToDo),
        _ => crate::discord::present::posts(&response.replies)
            .iter()
            .map(|post| (post.text.clone(), reply::file(post)))
            .collect(),
    }
}
