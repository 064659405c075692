//! Replies, reactions and notices.

use serenity::all::{
    CreateActionRow, CreateAllowedMentions, CreateAttachment, CreateMessage, Http, MessageId,
    MessageReference, Nonce, ReactionType,
};
use serenity::model::id::ChannelId;

use gaugebot_table::input::{Reply, Response, Verdict};

use crate::discord::retry::deliver;

/// Users may be pinged (the player to act), roles and @everyone never; the author of the
/// command is not pinged by the reply itself.
pub(crate) fn mentions() -> CreateAllowedMentions {
    CreateAllowedMentions::new()
        .all_users(true)
        .all_roles(false)
        .everyone(false)
        .replied_user(false)
}

/// Whether a reply has anything to post.
fn shown(reply: &Reply) -> bool {
    !reply.text.trim().is_empty() || reply.attachment.is_some()
}

/// A reply as a message: its text and its attachment; users may be pinged.
fn message(reply: &Reply) -> CreateMessage {
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
    builder
}

/// Posts a table's replies to a message (the first as a reply to it, attachments uploaded, the
/// buttons on the last), then adds ✅ for an accepted command or ❌ for a refused one. Returns
/// the message that carries the buttons, if posted.
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
    react(http, channel, command, response.verdict).await;
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
    let shown: Vec<&Reply> = replies.iter().filter(|r| shown(r)).collect();
    let mut with_buttons = None;
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
        let sent = deliver("post a reply", channel, || {
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
pub(crate) async fn react(http: &Http, channel: ChannelId, command: MessageId, verdict: Verdict) {
    let emoji = match verdict {
        Verdict::Accepted => "✅",
        Verdict::Refused => "❌",
        Verdict::Answered | Verdict::Ignored | Verdict::Duplicate => return,
    };
    let reaction = ReactionType::Unicode(emoji.to_string());
    let _ = deliver("react", channel, || {
        http.create_reaction(channel, command, &reaction)
    })
    .await;
}

/// Posts what the tables' clock made (reminders, deadlines, moves made for a seat): users
/// may be pinged, roles and @everyone never; attachments are uploaded.
pub(crate) async fn announce(http: &Http, channel: ChannelId, response: &Response) {
    for reply in response.replies.iter().filter(|r| shown(r)) {
        let builder = message(reply);
        let _ = deliver("post a clock notice", channel, || {
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
    let _ = deliver("post a notice", channel, || {
        channel.send_message(http, builder.clone())
    })
    .await;
}
