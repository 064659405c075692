//! One live status message per game: posted and pinned once, then edited in place after every
//! accepted command. Its id is stored with the game, so a restart edits the same message.

use serenity::all::{CreateAllowedMentions, CreateMessage, EditMessage, MessageId};
use serenity::model::id::ChannelId;

use gaugebot_table::Store;
use gaugebot_table::Templates;

use crate::discord::present::MESSAGE_LIMIT;

use crate::discord::pins::{PinError, Pins};
use crate::discord::rest::{Rest, RestError};
use crate::discord::retry::deliver;
use crate::discord::text::Text;

/// The status message's text: a title, then the status report, cut to one message.
pub(crate) fn status_content(templates: &Templates, game_id: &str, status: &str) -> String {
    let text = Text::LiveStatus { game_id, status }.render(templates);
    if text.chars().count() <= MESSAGE_LIMIT {
        return text;
    }
    // Cut at the last line break that fits, and say so.
    let budget = MESSAGE_LIMIT - 2;
    let head: String = text.chars().take(budget).collect();
    let cut = head.rfind('\n').unwrap_or(head.len());
    format!("{}\n…", &head[..cut])
}

/// Whether an edit failed because the message is gone (deleted by someone).
fn is_gone(error: &RestError) -> bool {
    error.status() == Some(404)
}

/// Edits the game's status message to `content`, or posts and pins a new one if there is none
/// (or it was deleted); without the Pin Messages permission it is not pinned and the
/// moderators are told once. Failures are logged; the game is not affected.
pub(crate) async fn update_status(
    rest: &Rest,
    pins: &Pins,
    templates: &Templates,
    store: &dyn Store,
    channel: ChannelId,
    game_id: &str,
    content: String,
) {
    let known = match store.status_message(game_id).await {
        Ok(known) => known
            .and_then(|id| id.parse::<u64>().ok())
            .filter(|id| *id != 0),
        Err(error) => {
            tracing::warn!(%channel, %error, "cannot read the status message id");
            None
        }
    };
    if let Some(id) = known {
        let edit = EditMessage::new()
            .content(content.clone())
            .allowed_mentions(CreateAllowedMentions::new());
        match deliver("edit the status message", channel, || {
            rest.edit_message(channel, MessageId::new(id), &edit)
        })
        .await
        {
            Ok(_) => return,
            Err(error) if is_gone(&error) => {}
            Err(_) => return,
        }
    }
    let post = CreateMessage::new()
        .content(content)
        .allowed_mentions(CreateAllowedMentions::new())
        .nonce(rest.fresh_nonce())
        .enforce_nonce(true);
    let Ok(message) = deliver("post the status message", channel, || {
        rest.send_message(channel, &post, None)
    })
    .await
    else {
        return;
    };
    if let Err(error) = store
        .set_status_message(game_id, &message.id.to_string())
        .await
    {
        tracing::warn!(%channel, %error, "cannot store the status message id");
    }
    pin(rest, pins, templates, channel, message.id).await;
}

/// Pins the new status message if the bot holds Pin Messages in the channel (read from the raw
/// permission values: serenity 0.12 drops the bit). Without it no pin is attempted, and the
/// moderators are told once per channel (per process); the message is the live status anyway.
async fn pin(
    rest: &Rest,
    pins: &Pins,
    templates: &Templates,
    channel: ChannelId,
    message: MessageId,
) {
    let refused = match pins.may_pin(channel).await {
        Ok(false) => true,
        // When the permissions cannot be read, the pin itself tells.
        Ok(true) | Err(_) => match pins.pin(channel, message).await {
            Ok(()) => false,
            Err(PinError::Forbidden) => true,
            Err(error) => {
                tracing::warn!(%channel, %error, "cannot pin the status message");
                false
            }
        },
    };
    if refused && pins.first_notice(channel) {
        tracing::warn!(%channel, "no Pin Messages permission here: the status is not pinned; telling the moderators once");
        let notice = CreateMessage::new()
            .content(Text::PinMissing.render(templates))
            .allowed_mentions(CreateAllowedMentions::new())
            .nonce(rest.fresh_nonce())
            .enforce_nonce(true);
        let _ = deliver("post the pin notice", channel, || {
            rest.send_message(channel, &notice, None)
        })
        .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_status_is_cut_at_a_line_break() {
        let templates = Templates::load(None, &[])
            .and_then(|t| t.with(None, &crate::templates::DISCORD))
            .expect("templates");
        let status = (0..400)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let content = status_content(&templates, "g-1", &status);
        assert!(content.chars().count() <= MESSAGE_LIMIT);
        assert!(content.ends_with("\n…"));
        assert!(status_content(&templates, "g-1", "short").ends_with("\nshort"));
    }
}
