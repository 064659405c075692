//! Talking back: replies, reactions and notices, each Discord request retried with backoff.

use std::future::Future;
use std::time::Duration;

use serenity::all::{
    CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateMessage, Http, HttpError,
    MessageId, MessageReference, Nonce, ReactionType,
};
use serenity::model::id::ChannelId;

use gaugebot_table::input::{Reply, Response, Verdict};

/// Attempts per Discord request (the first try included).
pub(crate) const MAX_ATTEMPTS: u32 = 5;
/// The first retry's wait; each further retry waits twice as long.
const FIRST_BACKOFF: Duration = Duration::from_millis(100);
/// The least wait after a 429 (the fake and Discord say how long in a header serenity does not
/// expose when its ratelimiter is off).
const RATE_LIMIT_BACKOFF: Duration = Duration::from_millis(500);
/// The longest one request may take before it counts as failed.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(30);

/// How long to wait before retrying after `error`, or `None` if retrying cannot help
/// (400, 401, 403, 404, a refused builder...).
fn retry_delay(error: &serenity::Error, attempt: u32) -> Option<Duration> {
    let backoff = FIRST_BACKOFF * 2u32.saturating_pow(attempt.saturating_sub(1));
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(response)) => {
            let status = response.status_code.as_u16();
            if status == 429 {
                Some(backoff.max(RATE_LIMIT_BACKOFF))
            } else if status >= 500 {
                Some(backoff)
            } else {
                None
            }
        }
        serenity::Error::Http(HttpError::Request(_)) | serenity::Error::Io(_) => Some(backoff),
        serenity::Error::Other(why) if *why == TIMED_OUT => Some(backoff),
        _ => None,
    }
}

const TIMED_OUT: &str = "the request timed out";

/// Runs a Discord request up to [`MAX_ATTEMPTS`] times: rate limits, server errors, network
/// errors and timeouts are retried with exponential backoff; other errors are final. Every
/// failure is logged (with the channel and what was being done; never the token).
pub(crate) async fn retry<T, F, Fut>(
    what: &str,
    channel: ChannelId,
    mut request: F,
) -> serenity::Result<T>
where
    F: FnMut() -> Fut,
    Fut: Future<Output = serenity::Result<T>>,
{
    let mut attempt = 1;
    loop {
        let result = match tokio::time::timeout(REQUEST_TIMEOUT, request()).await {
            Ok(result) => result,
            Err(_) => Err(serenity::Error::Other(TIMED_OUT)),
        };
        let error = match result {
            Ok(value) => {
                if attempt > 1 {
                    tracing::info!(%channel, what, attempt, "Discord request succeeded after retrying");
                }
                return Ok(value);
            }
            Err(error) => error,
        };
        match retry_delay(&error, attempt) {
            Some(wait) if attempt < MAX_ATTEMPTS => {
                tracing::warn!(%channel, what, attempt, %error, ?wait, "Discord request failed; retrying");
                tokio::time::sleep(wait).await;
                attempt += 1;
            }
            _ => {
                tracing::error!(%channel, what, attempt, %error, "Discord request failed; giving up");
                return Err(error);
            }
        }
    }
}

/// Users may be pinged (the player to act), roles and @everyone never; the author of the
/// command is not pinged by the reply itself.
pub(crate) fn mentions() -> CreateAllowedMentions {
    CreateAllowedMentions::new()
        .all_users(true)
        .all_roles(false)
        .everyone(false)
        .replied_user(false)
}

/// Posts a table's replies (the first as a reply to the command, attachments uploaded, the
/// buttons on the last), then adds ✅ for an accepted command or ❌ for a refused one. The
/// action is already stored: a failed post is logged, never undone. Returns the message that
/// carries the buttons, if posted.
pub(crate) async fn respond(
    http: &Http,
    channel: ChannelId,
    command: MessageId,
    response: &Response,
    components: Vec<CreateActionRow>,
) -> Option<MessageId> {
    let posted = post(
        http,
        channel,
        Some(command),
        command.get(),
        &response.replies,
        components,
    )
    .await;
    react(http, channel, command, response).await;
    posted
}

/// Posts replies in order: the first as a reply to `reply_to` (if any), the buttons on the
/// last. `nonce` makes the posts' nonces (a retried post that did arrive is dropped). Returns
/// the message that carries the buttons, if posted.
pub(crate) async fn post(
    http: &Http,
    channel: ChannelId,
    reply_to: Option<MessageId>,
    nonce: u64,
    replies: &[Reply],
    components: Vec<CreateActionRow>,
) -> Option<MessageId> {
    let mut first = true;
    let shown: Vec<&Reply> = replies
        .iter()
        .filter(|r| !r.text.trim().is_empty() || r.attachment.is_some())
        .collect();
    let mut with_buttons = None;
    for (index, reply) in shown.iter().enumerate() {
        let mut builder = CreateMessage::new()
            .allowed_mentions(mentions())
            .nonce(Nonce::String(format!("{nonce}-{index}")))
            .enforce_nonce(true);
        if !reply.text.is_empty() {
            builder = builder.content(reply.text.clone());
        }
        if let (true, Some(command)) = (first, reply_to) {
            builder = builder.reference_message(
                MessageReference::from((channel, command)).fail_if_not_exists(false),
            );
        }
        first = false;
        if let Some(attachment) = &reply.attachment {
            builder = builder.add_file(CreateAttachment::bytes(
                attachment.bytes.clone(),
                attachment.filename.clone(),
            ));
        }
        let last = index + 1 == shown.len();
        if last && !components.is_empty() {
            builder = builder.components(components.clone());
        }
        let sent = retry("post a reply", channel, || {
            channel.send_message(http, builder.clone())
        })
        .await;
        if let (true, false, Ok(message)) = (last, components.is_empty(), sent) {
            with_buttons = Some(message.id);
        }
    }
    with_buttons
}

/// Adds ✅ to an accepted command, ❌ to a refused one.
async fn react(http: &Http, channel: ChannelId, command: MessageId, response: &Response) {
    let emoji = match response.verdict {
        Verdict::Accepted => "✅",
        Verdict::Refused => "❌",
        Verdict::Answered | Verdict::Ignored | Verdict::Duplicate => return,
    };
    let reaction = ReactionType::Unicode(emoji.to_string());
    let _ = retry("react", channel, || {
        http.create_reaction(channel, command, &reaction)
    })
    .await;
}

/// Posts what the tables' clock made (reminders, deadlines, moves made for a seat): users
/// may be pinged, roles and @everyone never; attachments are uploaded.
pub(crate) async fn announce(http: &Http, channel: ChannelId, response: &Response) {
    for reply in &response.replies {
        if reply.text.trim().is_empty() && reply.attachment.is_none() {
            continue;
        }
        let mut builder = CreateMessage::new().allowed_mentions(mentions());
        if !reply.text.is_empty() {
            builder = builder.content(reply.text.clone());
        }
        if let Some(attachment) = &reply.attachment {
            builder = builder.add_file(CreateAttachment::bytes(
                attachment.bytes.clone(),
                attachment.filename.clone(),
            ));
        }
        let _ = retry("post a clock notice", channel, || {
            channel.send_message(http, builder.clone())
        })
        .await;
    }
}

/// Posts a notice that pings nobody, as a reply to `reference` if given.
pub(crate) async fn notice(
    http: &Http,
    channel: ChannelId,
    reference: Option<MessageId>,
    text: &str,
) {
    let mut builder = CreateMessage::new()
        .content(text)
        .allowed_mentions(CreateAllowedMentions::new());
    if let Some(id) = reference {
        builder = builder
            .reference_message(MessageReference::from((channel, id)).fail_if_not_exists(false));
    }
    let _ = retry("post a notice", channel, || {
        channel.send_message(http, builder.clone())
    })
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_transient_errors_are_retried() {
        let timeout = serenity::Error::Other(TIMED_OUT);
        assert_eq!(retry_delay(&timeout, 1), Some(FIRST_BACKOFF));
        assert_eq!(retry_delay(&timeout, 3), Some(FIRST_BACKOFF * 4));
        let refused = serenity::Error::Other("something else");
        assert_eq!(retry_delay(&refused, 1), None);
    }
}
