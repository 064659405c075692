//! A message as input: the bot's mention rewritten, the moderator check for `!`-commands,
//! direct messages and `!waiting` answered across the tables; every other message goes to its
//! channel's table ([`play`]), and the channel's catch-up cursor moves past it.

use std::sync::Arc;

use serenity::all::Message;

use gaugebot_table::input::{Author, Incoming, Mention, Verdict};
use gaugebot_table::table::extract::{extract, Commands};

use super::author::display_name;
use super::channel::ChannelState;
use super::mention;
use super::play::{play, Origin, Played};
use super::posting::reply;
use super::shared::Shared;
use super::ticker;
use crate::clock::time_or_now;

/// The message as the table reads it.
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
async fn incoming(shared: &Shared, message: &Message) -> Incoming {
    let prefix = &shared.settings.prefix;
    let text = mention::rewrite(
        &message.content,
        shared.session.me(),
        prefix,
        &shared.tables.host().commands,
    )
    .unwrap_or_else(|| message.content.clone());
    let is_moderator = match extract(&text, prefix) {
        Commands::Bang { .. } => shared.discord.perms.is_moderator(message).await,
        _ => false,
    };
    Incoming {
        message_id: message.id.to_string(),
        author: Author {
            id: message.author.id.to_string(),
            name: display_name(&message.author, message.member.as_deref()),
            is_moderator,
            mention: format!("<@{}>", message.author.id),
        },
        text,
        at: time_or_now(message.timestamp.to_rfc3339()),
        mentions: message
            .mentions
            .iter()
            .map(|user| Mention {
                id: user.id.to_string(),
                name: display_name(user, user.member.as_deref()),
                written: mention_forms(user.id.get()),
            })
            .collect(),
    }
}

/// How a Discord message writes a mention of user `id`: `<@id>`, and the older `<@!id>`.
pub(crate) fn mention_forms(id: u64) -> Vec<String> {
    vec![format!("<@{id}>"), format!("<@!{id}>")]
}

/// Keeps the server of a channel (a message or command of it named its guild): `!tables` and
/// `!standings` count a server's games. A store failure only logs: it is learned again.
pub(crate) async fn learn_server(shared: &Shared, channel: &str, guild: u64) {
    if let Err(error) = shared.servers.learn(channel, &guild.to_string()).await {
        tracing::warn!(%channel, %error, "cannot store the channel's server");
    }
}

/// Hands one message to its table, posts the replies, reacts, and moves the cursor.
/// Returns whether the message was handed to the table.
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
pub(crate) async fn process(
    shared: &Arc<Shared>,
    state: &mut ChannelState,
    message: &Message,
) -> bool {
    if message.author.bot || state.done.contains(message.id.get()) {
        return false;
    }
    let incoming = incoming(shared, message).await;
    let store = shared.tables.store();
    // Direct messages (`!preset`, `!waiting`) and `!waiting` anywhere are answered across
    // the tables, never by this channel's own table.
    let dm = shared.discord.perms.is_direct(message).await;
    if let Some(guild) = message.guild_id {
        learn_server(shared, &state.key, guild.get()).await;
    }
    let asked_in = (!dm).then_some(state.key.as_str());
    if let Some(response) = shared.tables.across_from(asked_in, &incoming).await {
        state.done.insert(message.id.get());
        let rest = &*shared.discord.rest;
        reply::respond(rest, state.channel, message.id, &response, Vec::new()).await;
        if !dm && has_game(shared, &state.key).await {
            // `!waiting` in a game channel: not answered again by a catch-up.
            let _ = store.advance_cursor(&state.key, &incoming.message_id).await;
        }
        if dm && response.verdict == Verdict::Accepted {
            // A new preset may answer an auction at once.
            ticker::tick(shared, chrono::Utc::now()).await;
        }
        return true;
    }
    let (response, active) =
        match play(shared, state, &incoming, &Origin::Message(message.id)).await {
            Played::Handled { response, active } => (response, active),
            Played::LeftToOwner(_) | Played::Stale | Played::Failed => return false,
        };
    state.done.insert(message.id.get());
    if matches!(response.verdict, Verdict::Accepted | Verdict::Refused) {
        state.remember(message.id.get(), &incoming.text, response.verdict);
    }
    state.cursor_kept = active;
    if active {
        if let Err(error) = store.advance_cursor(&state.key, &incoming.message_id).await {
            tracing::warn!(channel = %state.channel, %error, "cannot move the cursor");
        }
    }
    true
}

/// Whether the channel has an active game (its table loaded).
pub(crate) async fn has_game(shared: &Shared, key: &str) -> bool {
    match shared.tables.table(key).await {
        Ok(table) => table.game_id().is_some(),
        Err(error) => {
            tracing::error!(channel = key, %error, "the table does not load");
            false
        }
    }
}
