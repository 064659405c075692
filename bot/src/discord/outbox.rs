//! The Discord adapter's outbox: a [`Parcel`] (what a command leads to in its channel, made by
//! [`super::parcel`] and stored with the command by the table's commit) is delivered by the
//! channel's worker and then removed from the store. A parcel still in the store after a
//! crash or a restart is delivered before the channel's next job, with the same nonces, so
//! nothing is lost and nothing doubles.

use serenity::all::{EditMessage, MessageId};

use gaugebot_table::{Outgoing, Rich, Table};

use super::channel::ChannelState;
use super::parcel::{After, Parcel, StoredPost};
use super::posting::reply::Posted;
use super::posting::{buttons, commitment, pages, pin, reply};
use super::present::{self, Post};
use super::retry::retry;
use super::shared::Shared;

/// Delivers a kept parcel in its channel (replies, reaction, buttons, the pinned status), then
/// removes it from the outbox. Returns the message that carries the buttons, if posted.
pub(crate) async fn deliver(
    shared: &Shared,
    state: &mut ChannelState,
    item: &Outgoing,
) -> Option<MessageId> {
    let parcel: Parcel = match serde_json::from_str(&item.payload) {
        Ok(parcel) => parcel,
        Err(error) => {
            tracing::error!(channel = %state.channel, key = %item.key, %error, "a kept parcel does not read; dropped");
            forget(shared, item).await;
            return None;
        }
    };
    let status = match parcel.pinned_game() {
        Some(game) => status_of(shared, state, game).await,
        None => None,
    };
    let commitment_of = parcel.commitment_of.clone();
    let posted = send(shared, state, Some(item), Some(parcel), status).await;
    if let (Some(game), Some(post)) = (commitment_of, posted.first) {
        // A setup that waited for this commitment post (a crash came between the two).
        match shared.tables.table(&state.key).await {
            Ok(mut table) => finish_setup(shared, state, &mut table, &game, post, item).await,
            Err(error) => {
                tracing::warn!(channel = %state.channel, %error, "the table does not load; the setup is finished at the next delivery");
            }
        }
    }
    posted.with_buttons
}

/// Posts a command's parcel, then removes it from the outbox if the table kept it there — but
/// for a commitment post ([`Parcel::commitment_of`]), which stays until the setup that waits
/// for it is finished ([`commitment::finish`]). `status`: the pinned status's text, if the
/// parcel updates it ([`Parcel::pinned_game`]), read from the table by the caller.
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
pub(crate) async fn send(
    shared: &Shared,
    state: &mut ChannelState,
    kept: Option<&Outgoing>,
    parcel: Option<Parcel>,
    status: Option<String>,
) -> Posted {
    let posted = match &parcel {
        Some(parcel) => post(shared, state, parcel, status).await,
        None => Posted::default(),
    };
    let waits = parcel.as_ref().is_some_and(|p| p.commitment_of.is_some());
    if let (Some(item), false) = (kept, waits) {
        forget(shared, item).await;
    }
    posted
}

/// Posts a parcel and settles the prompt and the pinned status (`status`, its text).
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
async fn post(
    shared: &Shared,
    state: &mut ChannelState,
    parcel: &Parcel,
    status: Option<String>,
) -> Posted {
    let rest = &*shared.discord.rest;
    let after = parcel.after();
    let mut components = after.prompt.as_ref().map(buttons::rows).unwrap_or_default();
    components.extend(parcel.page.as_ref().map(pages::rows).unwrap_or_default());
    let posts: Vec<Post> = parcel.posts.iter().map(StoredPost::post).collect();
    let answers = parcel.answers.filter(|id| *id != 0).map(MessageId::new);
    let posted = reply::post(
        rest,
        state.channel,
        answers,
        parcel.nonce,
        &posts,
        components,
    )
    .await;
    if let Some(command) = answers {
        reply::react(rest, state.channel, command, parcel.verdict).await;
    }
    settle(shared, state, after, posted.with_buttons, status).await;
    posted
}

/// Finishes the setup of `game` whose commitment post `post` was delivered from the outbox
/// item `commitment` (docs/DICE.md §1): the setup drawn with the post's id and committed
/// ([`commitment::decide`]), its announcement posted, then `commitment` removed from the outbox
/// (kept if the setup was not stored: the next delivery finishes it).
pub(crate) async fn finish_setup(
    shared: &Shared,
    state: &mut ChannelState,
    table: &mut Table,
    game: &str,
    post: MessageId,
    commitment: &Outgoing,
) {
    match commitment::decide(shared, state, table, game, post).await {
        commitment::Finished::Stored(parcel, kept) => {
            let status = parcel.pinned_game().and_then(|g| status_at(table, g));
            send(shared, state, kept.as_ref(), Some(*parcel), status).await;
        }
        commitment::Finished::Before => {}
        commitment::Finished::NotStored => return,
    }
    forget(shared, commitment).await;
}

/// Removes a delivered parcel from the outbox (a failure is logged: the parcel is delivered
/// again after a restart, under the same nonces).
async fn forget(shared: &Shared, item: &Outgoing) {
    let store = shared.tables.store();
    if let Err(error) = store.delivered(&item.channel, &item.key).await {
        tracing::warn!(channel = %item.channel, key = %item.key, %error, "cannot mark a parcel delivered");
    }
}

/// Delivers what the outbox still holds for the channel (left by a crash, a restart, or the
/// process that owned the channel before), oldest first. Once per channel and process, before
/// its first job; again after the channel was taken back from another process.
pub(crate) async fn redeliver(shared: &Shared, state: &mut ChannelState) {
    if state.outbox_checked {
        return;
    }
    let pending = match shared.tables.store().pending(Some(&state.key)).await {
        Ok(pending) => pending,
        Err(error) => {
            tracing::warn!(channel = %state.channel, %error, "cannot read the outbox; retried before the next job");
            return;
        }
    };
    state.outbox_checked = true;
    if !pending.is_empty() {
        tracing::info!(channel = %state.channel, parcels = pending.len(), "delivering what the outbox kept");
    }
    for item in &pending {
        deliver(shared, state, item).await;
    }
}

/// After an accepted command is posted: the previous prompt loses its buttons, the new one
/// (`posted`) is remembered, the pinned status is edited (to `status`, the game's status as
/// its table has it now).
async fn settle(
    shared: &Shared,
    state: &mut ChannelState,
    after: After,
    posted: Option<MessageId>,
    status: Option<String>,
) {
    if !after.accepted {
        return;
    }
    let rest = &*shared.discord.rest;
    if let Some(old) = state.last_prompt.take().filter(|old| Some(*old) != posted) {
        let channel = state.channel;
        let edit = EditMessage::new().components(Vec::new());
        let _ = retry("remove old buttons", channel, || {
            rest.edit_message(channel, old, &edit)
        })
        .await;
    }
    state.last_prompt = posted;
    if let (Some(game), Some(status)) = (after.pin, status) {
        let templates = &shared.tables.host().templates;
        let content = pin::status_content(templates, &game, &status);
        let store = &**shared.tables.store();
        let pins = &shared.discord.pins;
        pin::update_status(rest, pins, templates, store, state.channel, &game, content).await;
    }
}

/// The status of `game` as `table` has it now (the table rendered it once for its position):
/// none if the table has another game by now (a parcel delivered after a restart; the newer
/// game's own parcels pin its status).
pub(crate) fn status_at(table: &Table, game: &str) -> Option<String> {
    (table.game_id() == Some(game))
        .then(|| table.status_text())
        .flatten()
        .map(|status| present::text(&Rich::parse(&status)))
}

/// The status of `game` at the channel's table, locked for it: for a parcel delivered from
/// the outbox (the table is not locked by a command then). None if the table does not load.
async fn status_of(shared: &Shared, state: &ChannelState, game: &str) -> Option<String> {
    match shared.tables.table(&state.key).await {
        Ok(table) => status_at(&table, game),
        Err(error) => {
            tracing::warn!(channel = %state.channel, %error, "the table does not load; the pinned status is not updated");
            None
        }
    }
}
