//! The one way into a channel's [`Table`]: a message and an interaction both come here as an
//! [`Incoming`], and share one after-path: the takeover check, logging, posting the answer
//! (with the new prompt's buttons), the old prompt's buttons removed, the pinned status edited.
//!
//! What differs is only how the answer is posted ([`Origin`]): to a message, as replies to it
//! with ✅ or ❌; to an interaction, once accepted, in the forum record's form (the mover's
//! name and the move in bold, then the table's replies), the user answered privately by the
//! interaction itself.
//!
//! The answer to a command that wrote anything is made into a [`Parcel`] and stored by the
//! table with the command, in one transaction ([`super::outbox`]); it is then delivered from
//! there, so a crash between the commit and the post loses nothing.

use serenity::all::{EditMessage, MessageId};

use gaugebot_table::input::{Incoming, Response, Verdict};
use gaugebot_table::{Kept, Prompt, Rich, Table};

use super::channel::ChannelState;
use super::job::Echo;
use super::outbox::{self, interaction_nonce, Address, Keeper, Parcel};
use super::posting::pin;
use super::present::{self, Post, MESSAGE_LIMIT};
use super::retry::retry;
use super::shared::Shared;

/// Where an input came from.
pub(crate) enum Origin {
    /// A message (its id): answered by replies to it and a reaction.
    Message(MessageId),
    /// A slash command or a click: checked against the position a button was made for
    /// (`expect`), echoed in the channel once accepted.
    Interaction {
        expect: Option<(String, usize)>,
        echo: Echo,
    },
}

/// What came of an input.
pub(crate) enum Played {
    /// The table's answer, posted; `active`: the channel has a game.
    Handled { response: Response, active: bool },
    /// Another process took the channel over meanwhile (the write was refused): it applies the
    /// input; this one said nothing.
    LeftToOwner(Response),
    /// A button of an earlier position: nothing was done.
    Stale,
    /// The table could not be loaded, or a transient storage fault refused the input (nothing
    /// was said: the channel is caught up when the store works again, [`super::behind`]).
    Failed,
}

/// What an accepted command leads to, gathered while the table is locked.
pub(crate) struct After {
    pub(crate) accepted: bool,
    pub(crate) prompt: Option<Prompt>,
    /// The game whose pinned status is to show its new position (rendered when it is edited,
    /// after the reply: see [`settle`]).
    pub(crate) pin: Option<String>,
}

impl After {
    pub(crate) fn of(shared: &Shared, table: &Table, response: &Response) -> After {
        let accepted = response.verdict == Verdict::Accepted;
        After {
            accepted,
            // No buttons for an automa's decision: it moves at once.
            prompt: (accepted && shared.settings.buttons && !table.automa_to_act())
                .then(|| table.prompt())
                .flatten(),
            pin: (accepted && shared.settings.pinned_status)
                .then(|| table.game_id().map(str::to_string))
                .flatten(),
        }
    }
}

/// Hands `incoming` to the channel's table, then runs the after-path.
pub(crate) async fn play(
    shared: &Shared,
    state: &mut ChannelState,
    incoming: &Incoming,
    origin: &Origin,
) -> Played {
    let mut table = match shared.tables.table(&state.key).await {
        Ok(table) => table,
        Err(error) => {
            tracing::error!(channel = %state.channel, %error, "the table does not load; input not processed");
            return Played::Failed;
        }
    };
    if let Origin::Interaction {
        expect: Some((game, position)),
        ..
    } = origin
    {
        if table.position() != Some((game.as_str(), *position)) {
            return Played::Stale;
        }
    }
    // What the command leads to in the channel: replies to a message; an accepted
    // interaction's echo and replies; nothing in the channel for a refused interaction.
    let parcel = |table: &Table, response: &Response| match origin {
        Origin::Message(id) => Some(Parcel::of(
            shared,
            table,
            response,
            &present::posts(&response.replies),
            Address::Answer(*id),
        )),
        Origin::Interaction { echo, .. } if response.verdict == Verdict::Accepted => {
            let posts = present::posts(&response.replies);
            let posts = with_header(&header(echo, incoming, response), &posts);
            let address = Address::Post(interaction_nonce(incoming));
            Some(Parcel::of(shared, table, response, &posts, address))
        }
        Origin::Interaction { .. } => None,
    };
    let keeper = Keeper::new(parcel);
    let keep =
        |table: &Table, response: &Response| -> Option<Kept> { keeper.keep(table, response) };
    let (handled, fault) =
        gaugebot_store::faults::watch(table.handle_keeping(incoming, &keep)).await;
    if let (Some(fault), Verdict::Refused, None) = (&fault, handled.response.verdict, &handled.kept)
    {
        // Refused for a transient storage fault: no ❌; the channel catches up once it clears.
        gaugebot_store::faults::note_any(fault);
        return Played::Failed;
    }
    let response = handled.response;
    if response.verdict == Verdict::Refused
        && shared.owners.shared()
        && !shared.owners.holds(&state.key).await.unwrap_or(false)
    {
        drop(table);
        tracing::warn!(channel = %state.channel, id = %incoming.message_id, "the channel was taken over; input left to its new owner");
        shared.tables.unload(&state.key).await;
        shared.session.restart.forget(state.channel.get());
        state.synced_epoch = 0;
        return Played::LeftToOwner(response);
    }
    let active = table.game_id().is_some();
    let parcel = keeper.parcel(&table, &response, handled.kept.is_some());
    drop(table);
    if response.verdict != Verdict::Ignored {
        tracing::info!(
            channel = %state.channel,
            id = %incoming.message_id,
            author = %incoming.author.id,
            verdict = ?response.verdict,
            from = if matches!(origin, Origin::Message(_)) { "message" } else { "interaction" },
            "command"
        );
    }
    outbox::send(shared, state, handled.kept.as_ref(), parcel).await;
    if response.verdict == Verdict::Accepted {
        automa_moves(shared, state).await;
    }
    Played::Handled { response, active }
}

/// The automa's moves after an accepted command, each posted after the one before, as the
/// forum record reads, until a human is to act (the decisions run on the blocking pool, one
/// per table at a time: the table is locked while its automa thinks).
async fn automa_moves(shared: &Shared, state: &mut ChannelState) {
    for _ in 0..gaugebot_table::table::tables::MAX_AUTOMA_MOVES {
        let Ok(mut table) = shared.tables.table(&state.key).await else {
            return;
        };
        let keeper = Keeper::new(|table: &Table, response: &Response| {
            Some(automa_parcel(shared, table, response))
        });
        let keep = |table: &Table, response: &Response| keeper.keep(table, response);
        let Some(handled) = table.automa_step_keeping(chrono::Utc::now(), &keep).await else {
            return;
        };
        let parcel = keeper.parcel(&table, &handled.response, handled.kept.is_some());
        drop(table);
        outbox::send(shared, state, handled.kept.as_ref(), parcel).await;
    }
}

/// The parcel of an automa's move: its post, keyed by the decision's seed (the same position,
/// the same nonce: a move made again after a restart is not posted twice).
fn automa_parcel(shared: &Shared, table: &Table, response: &Response) -> Parcel {
    let nonce = table
        .position()
        .map(|(game, at)| gaugebot_table::game::automa::automa_seed(game, at as u64))
        .unwrap_or(0);
    Parcel::of(
        shared,
        table,
        response,
        &present::posts(&response.replies),
        Address::Post(nonce),
    )
}

/// After an accepted command is posted: the previous prompt loses its buttons, the new one
/// (`posted`) is remembered, the pinned status is edited.
pub(crate) async fn settle(
    shared: &Shared,
    state: &mut ChannelState,
    after: After,
    posted: Option<MessageId>,
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
    if let Some(game) = after.pin {
        let Some(status) = status_of(shared, state, &game).await else {
            return;
        };
        let templates = &shared.tables.host().templates;
        let content = pin::status_content(templates, &game, &status);
        let store = &**shared.tables.store();
        let pins = &shared.discord.pins;
        pin::update_status(rest, pins, templates, store, state.channel, &game, content).await;
    }
}

/// The status of `game` as the channel's table has it now (the table rendered it once for
/// its position): none if the table does not load or has another game by now (a parcel
/// delivered after a restart; the newer game's own parcels pin its status).
async fn status_of(shared: &Shared, state: &ChannelState, game: &str) -> Option<String> {
    let table = match shared.tables.table(&state.key).await {
        Ok(table) => table,
        Err(error) => {
            tracing::warn!(channel = %state.channel, %error, "the table does not load; the pinned status is not updated");
            return None;
        }
    };
    (table.game_id() == Some(game))
        .then(|| table.status_text())
        .flatten()
        .map(|status| present::text(&Rich::parse(&status)))
}

/// The echo of an accepted interaction: `ann: **bid 7**`, or `mona: `!undo``.
fn header(echo: &Echo, incoming: &Incoming, response: &Response) -> String {
    let who = &incoming.author.name;
    match echo {
        Echo::Move if !response.moves.is_empty() => {
            let moves: Vec<String> = response.moves.iter().map(|m| format!("**{m}**")).collect();
            format!("{who}: {}", moves.join(" "))
        }
        Echo::Move => format!("{who}: {}", incoming.text),
        Echo::Command(text) => format!("{who}: `{text}`"),
    }
}

/// The posts with a header line first (in the first post when it fits).
fn with_header(header: &str, posts: &[Post]) -> Vec<Post> {
    let mut out = posts.to_vec();
    match out.first_mut() {
        Some(first)
            if first.text.chars().count() + header.chars().count() < MESSAGE_LIMIT
                && !first.text.is_empty() =>
        {
            first.text = format!("{header}\n{}", first.text);
        }
        _ => out.insert(
            0,
            Post {
                text: header.to_string(),
                attachment: None,
                pings: Some(Vec::new()),
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
        let reply = |t: &str| Post {
            text: t.to_string(),
            attachment: None,
            pings: Some(Vec::new()),
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
