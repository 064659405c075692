//! The one way into a channel's [`Table`]: a message and an interaction both come here as an
//! [`Incoming`], and share one after-path: the takeover check, logging, posting the answer
//! (with the new prompt's buttons), the old prompt's buttons removed, the pinned status edited.
//!
//! What differs is only how the answer is posted ([`Origin`]): to a message, as replies to it
//! with ✅ or ❌; to an interaction, once accepted, in the forum record's form (the mover's
//! name and the move in bold, then the table's replies), the user answered privately by the
//! interaction itself.
//!
//! The table decides on the input; the answer is made into a [`Parcel`] (plain data) and, if
//! the decision writes anything, committed with it in one transaction ([`super::outbox`]); it
//! is then delivered from there, so a crash between the commit and the post loses nothing.
//! The table is locked once per input, from the decision to the last automa move after it.

use serenity::all::MessageId;

use gaugebot_table::input::{Incoming, Response, Verdict};
use gaugebot_table::tables::TableGuard;
use gaugebot_table::{Committed, NotStored, Table};

use super::channel::ChannelState;
use super::job::{Echo, Invocation, Outcome};
use super::outbox::{self, status_at, Delivery};
use super::parcel::{interaction_nonce, Address, Parcel};
use super::present::{self, Post, MESSAGE_LIMIT};
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

/// Hands `incoming` to the channel's table, then runs the after-path. The table is locked
/// once, from its decision through the posts to the automa's moves that follow.
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
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
    let ((response, kept, parcel), fault) = gaugebot_store::faults::watch(async {
        let decided = table.decide(incoming).await;
        let parcel = parcel_of(shared, &table, incoming, origin, decided.response());
        let outgoing = parcel
            .as_ref()
            .filter(|_| decided.stores())
            .and_then(|parcel| parcel.outgoing(table.channel()));
        match table.commit(decided, outgoing).await {
            Ok(Committed { response, kept }) => (response, kept, parcel),
            // Nothing was stored: the parcel of the answer given instead, at the rebuilt table.
            Err(NotStored { response, .. }) => {
                let parcel = parcel_of(shared, &table, incoming, origin, &response);
                (response, None, parcel)
            }
        }
    })
    .await;
    if let (Some(fault), Verdict::Refused, None) = (&fault, response.verdict, &kept) {
        // Refused for a transient storage fault: no ❌; the channel catches up once it clears.
        gaugebot_store::faults::note_any(fault);
        return Played::Failed;
    }
    if response.verdict == Verdict::Refused
        && shared.owners.shared()
        && !shared.owners.holds(&state.key).await.unwrap_or(false)
    {
        drop(table);
        tracing::warn!(channel = %state.channel, id = %incoming.message_id, "the channel was taken over; input left to its new owner");
        let_go(shared, state).await;
        return Played::LeftToOwner(response);
    }
    let active = table.game_id().is_some();
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
    let status = pinned_status(&table, parcel.as_ref());
    let (mut delivery, first) = outbox::send(shared, state, kept.as_ref(), parcel, status).await;
    if let (Delivery::Done, Some(game), Some(post), Some(item)) =
        (delivery, response.waiting_setup(), first, &kept)
    {
        // The commitment is posted: the setup draws use its id (docs/DICE.md §1).
        outbox::finish_setup(shared, state, &mut table, game, post, item).await;
    }
    if delivery == Delivery::Done && response.verdict == Verdict::Accepted {
        delivery = automa_moves(shared, state, &mut table).await;
    }
    if delivery == Delivery::LeftToOwner {
        // Stored, then the channel was taken over before its answer was posted (this process
        // hung meanwhile): the new owner posts it from the outbox.
        drop(table);
        let_go(shared, state).await;
        return Played::LeftToOwner(response);
    }
    Played::Handled { response, active }
}

/// After the channel was taken over by another process: its table is dropped (loaded afresh
/// if the channel is taken back), and it is caught up first then.
async fn let_go(shared: &Shared, state: &mut ChannelState) {
    shared.tables.unload(&state.key).await;
    shared.session.restart.forget(state.channel.get());
    state.synced_epoch = 0;
}

/// Runs an interaction in its channel's table and sends its outcome to the submitter.
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
pub(crate) async fn invoke(
    shared: &std::sync::Arc<Shared>,
    state: &mut ChannelState,
    invocation: Invocation,
) {
    let Invocation {
        incoming,
        expect,
        echo,
        done,
    } = invocation;
    // `/tables`, `/standings`, `/waiting`: answered across the tables, knowing the channel
    // asked in, as their messages are.
    if let Some(response) = shared.tables.across_from(Some(&state.key), &incoming).await {
        let _ = done.send(Outcome::Handled(response));
        return;
    }
    let origin = Origin::Interaction { expect, echo };
    let outcome = match play(shared, state, &incoming, &origin).await {
        Played::Handled { response, .. } | Played::LeftToOwner(response) => {
            Outcome::Handled(response)
        }
        Played::Stale => Outcome::Stale,
        Played::Failed => Outcome::Failed,
    };
    let _ = done.send(outcome);
}

/// What the answer leads to in the channel: replies to a message; an accepted interaction's
/// echo and replies; nothing in the channel for a refused interaction.
fn parcel_of(
    shared: &Shared,
    table: &Table,
    incoming: &Incoming,
    origin: &Origin,
    response: &Response,
) -> Option<Parcel> {
    match origin {
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
    }
}

/// The pinned status's text for `parcel`, read from the table that made it.
fn pinned_status(table: &Table, parcel: Option<&Parcel>) -> Option<String> {
    status_at(table, parcel?.pinned_game()?)
}

/// The automa's moves after an accepted command, each posted after the one before, as the
/// forum record reads, until a human is to act (the decisions run on the blocking pool, one
/// per table at a time: the table stays locked while its automa thinks). Stops at a parcel
/// not posted (the channel taken over, or its owner not known): what it says.
async fn automa_moves(
    shared: &Shared,
    state: &mut ChannelState,
    table: &mut TableGuard,
) -> Delivery {
    for _ in 0..gaugebot_table::tables::MAX_AUTOMA_MOVES {
        let Some(decided) = table.decide_automa(chrono::Utc::now()).await else {
            break;
        };
        let parcel = automa_parcel(shared, table, decided.response());
        let outgoing = parcel
            .outgoing(table.channel())
            .filter(|_| decided.stores());
        let Ok(committed) = table.commit(decided, outgoing).await else {
            break;
        };
        let status = pinned_status(table, Some(&parcel));
        let (delivery, _) =
            outbox::send(shared, state, committed.kept.as_ref(), Some(parcel), status).await;
        if delivery != Delivery::Done {
            return delivery;
        }
    }
    Delivery::Done
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
