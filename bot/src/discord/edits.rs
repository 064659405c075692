//! Edited and deleted messages: if one was read as a command, say that nothing changes.

use serenity::all::MessageId;

use super::channel::{ChannelState, Original};
use super::posting::reply;
use super::shared::Shared;
use super::text::Text;

/// How much of an original command an edit notice quotes.
const QUOTE_CHARS: usize = 300;

/// The original text and verdict of a processed command, if the message was read.
async fn original(shared: &Shared, state: &ChannelState, id: MessageId) -> Option<Original> {
    let key = &state.key;
    let id_text = id.to_string();
    let store = shared.tables.store();
    match store.seen(key, &id_text).await {
        Ok(true) => {}
        Ok(false) => return None,
        Err(error) => {
            tracing::warn!(channel = key, %error, "cannot tell whether a message was read");
            return None;
        }
    }
    if let Some(known) = state.command(id.get()) {
        return Some(known);
    }
    let game = match shared.tables.table(key).await {
        Ok(table) => table.game_id().map(str::to_string),
        Err(_) => None,
    };
    let logged = match game {
        Some(game) => store
            .log(&game)
            .await
            .ok()
            .and_then(|rows| rows.into_iter().find(|r| r.message_id == id_text))
            .map(|row| Original {
                text: Some(row.text),
                verdict: Some(gaugebot_table::input::Verdict::Accepted),
            }),
        None => None,
    };
    Some(logged.unwrap_or(Original {
        text: None,
        verdict: None,
    }))
}

/// An edited (`Some(new text)`) or deleted message: if it was read as a command, say that
/// nothing changes (once per message; a deleted refused command needs no word).
pub(crate) async fn changed(
    shared: &Shared,
    state: &mut ChannelState,
    id: MessageId,
    edited: Option<String>,
) {
    if state.commented.contains(id.get()) {
        return;
    }
    let Some(original) = original(shared, state, id).await else {
        return;
    };
    if let (Some(new), Some(old)) = (&edited, &original.text) {
        if new == old {
            return;
        }
    }
    let refused = original.verdict == Some(gaugebot_table::input::Verdict::Refused);
    if refused && edited.is_none() {
        return;
    }
    let quoted = original.text.as_deref().map(quote);
    let notice = Text::EditNotice {
        edited: edited.is_some(),
        refused,
        quote: quoted.as_deref(),
    }
    .render(&shared.tables.host().templates);
    state.commented.insert(id.get());
    tracing::info!(channel = %state.channel, msg = %id, edited = edited.is_some(), "edit of a read command");
    let reference = edited.is_some().then_some(id);
    reply::notice(&shared.discord.rest, state.channel, reference, &notice).await;
}

/// A command quoted in a notice, shortened.
fn quote(text: &str) -> String {
    let text = text.trim();
    if text.chars().count() <= QUOTE_CHARS {
        return text.to_string();
    }
    let short: String = text.chars().take(QUOTE_CHARS).collect();
    format!("{short}…")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_commands_are_shortened_in_notices() {
        assert_eq!(quote(" **bid 7** "), "**bid 7**");
        let long = "x".repeat(QUOTE_CHARS + 10);
        assert_eq!(quote(&long).chars().count(), QUOTE_CHARS + 1);
    }
}
