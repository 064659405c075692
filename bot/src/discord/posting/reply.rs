//! Replies, reactions and notices.

use serenity::all::{
    CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateMessage, MessageId,
    MessageReference, Nonce, ReactionType,
};
use serenity::model::id::ChannelId;

use gaugebot_table::input::{Response, Verdict};

use crate::discord::present::{self, Post};
use crate::discord::rest::Rest;
use crate::discord::retry::deliver;

/// The users a post may ping: exactly those the table called on (a user id quoted from a
/// player's text never pings), or any user for a post kept by an earlier version; roles and
/// @everyone never; the author of the command is not pinged by the reply itself.
pub(crate) fn mentions(post: &Post) -> CreateAllowedMentions {
    let allowed = CreateAllowedMentions::new()
        .all_roles(false)
        .everyone(false)
        .replied_user(false);
    match &post.pings {
        Some(users) => allowed
            .all_users(false)
            .users(users.iter().map(|id| serenity::all::UserId::new(*id))),
        None => allowed.all_users(true),
    }
}

/// A post as a message: its text, the users it may ping. Its attachment is uploaded with it
/// ([`file`]).
fn message(post: &Post) -> CreateMessage {
    let mut builder = CreateMessage::new().allowed_mentions(mentions(post));
    if !post.text.is_empty() {
        builder = builder.content(post.text.clone());
    }
    builder
}

/// A post's attachment, as uploaded, its alt text as the attachment's description.
pub(crate) fn file(post: &Post) -> Option<CreateAttachment> {
    post.attachment.as_ref().map(|a| {
        let mut file = CreateAttachment::bytes(a.bytes.clone(), a.filename.clone());
        if !a.alt.is_empty() {
            file = file.description(description(&a.alt));
        }
        file
    })
}

/// Discord's limit on an attachment's description.
const DESCRIPTION_LIMIT: usize = 1024;

/// An alt text as an attachment's description: cut to Discord's limit, with `…`.
fn description(alt: &str) -> String {
    if alt.chars().count() <= DESCRIPTION_LIMIT {
        return alt.to_string();
    }
    let mut cut: String = alt.chars().take(DESCRIPTION_LIMIT - 1).collect();
    cut.push('…');
    cut
}

/// Posts a table's replies to a message (the first as a reply to it, attachments uploaded, the
/// buttons on the last), then adds ✅ for an accepted command or ❌ for a refused one. Returns
/// the message that carries the buttons, if posted.
pub(crate) async fn respond(
    rest: &Rest,
    channel: ChannelId,
    command: MessageId,
    response: &Response,
    components: Vec<CreateActionRow>,
) -> Option<MessageId> {
    let posted = post(
        rest,
        channel,
        Some(command),
        command.get(),
        &present::posts(&response.replies),
        components,
    )
    .await;
    react(rest, channel, command, response.verdict).await;
    posted.with_buttons
}

/// Posts presented replies in order: the first as a reply to `reply_to` (if any), the buttons on the
/// last. `nonce` makes the posts' nonces (a retried post that did arrive is dropped). Returns
/// the first message and the one that carries the buttons, if posted.
#[tracing::instrument(target = "hop", level = "trace", skip_all, fields(milestone = "reply"))]
pub(crate) async fn post(
    rest: &Rest,
    channel: ChannelId,
    reply_to: Option<MessageId>,
    nonce: u64,
    posts: &[Post],
    components: Vec<CreateActionRow>,
) -> Posted {
    let shown: Vec<&Post> = posts.iter().filter(|p| p.is_shown()).collect();
    let mut with_buttons = None;
    let mut first = None;
    for (index, reply) in shown.iter().enumerate() {
        let mut builder = message(reply)
            .nonce(Nonce::String(format!("{nonce}-{index}")))
            .enforce_nonce(true);
        if let (0, Some(command)) = (index, reply_to) {
            builder = builder.reference_message(
                MessageReference::from((channel, command)).fail_if_not_exists(false),
            );
        }
        let last = index + 1 == shown.len();
        if last && !components.is_empty() {
            builder = builder.components(components.clone());
        }
        let file = file(reply);
        let sent = deliver("post a reply", channel, || {
            rest.send_message(channel, &builder, file.as_ref())
        })
        .await;
        if let Ok(message) = &sent {
            if index == 0 {
                first = Some(message.id);
            }
            if last && !components.is_empty() {
                with_buttons = Some(message.id);
            }
        }
    }
    Posted {
        first,
        with_buttons,
    }
}

/// What [`post`] posted: its first message and the one that carries the buttons.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Posted {
    /// The first message, if it was posted.
    pub(crate) first: Option<MessageId>,
    /// The message with the buttons, if there are buttons and it was posted.
    pub(crate) with_buttons: Option<MessageId>,
}

/// Adds ✅ to an accepted command, ❌ to a refused one.
pub(crate) async fn react(rest: &Rest, channel: ChannelId, command: MessageId, verdict: Verdict) {
    let emoji = match verdict {
        Verdict::Accepted => "✅",
        Verdict::Refused => "❌",
        Verdict::Answered | Verdict::Ignored | Verdict::Duplicate => return,
    };
    let reaction = ReactionType::Unicode(emoji.to_string());
    let _ = deliver("react", channel, || rest.react(channel, command, &reaction)).await;
}

/// Posts what the tables' clock made (reminders, deadlines, moves made for a seat): users
/// may be pinged, roles and @everyone never; attachments are uploaded. Each post has a fresh
/// nonce, the same on every retry.
pub(crate) async fn announce(rest: &Rest, channel: ChannelId, response: &Response) {
    for post in present::posts(&response.replies) {
        let builder = message(&post).nonce(rest.fresh_nonce()).enforce_nonce(true);
        let file = file(&post);
        let _ = deliver("post a clock notice", channel, || {
            rest.send_message(channel, &builder, file.as_ref())
        })
        .await;
    }
}

/// Posts a notice that pings nobody, as a reply to `reference` if given.
pub(crate) async fn notice(
    rest: &Rest,
    channel: ChannelId,
    reference: Option<MessageId>,
    text: &str,
) {
    let mut builder = CreateMessage::new()
        .content(text)
        .allowed_mentions(CreateAllowedMentions::new())
        .nonce(rest.fresh_nonce())
        .enforce_nonce(true);
    if let Some(id) = reference {
        builder = builder
            .reference_message(MessageReference::from((channel, id)).fail_if_not_exists(false));
    }
    let _ = deliver("post a notice", channel, || {
        rest.send_message(channel, &builder, None)
    })
    .await;
}
