//! The second step of a setup made with the commitment first (docs/DICE.md §1): once the
//! commitment post is in the channel, its id is the game's client seed; the table makes the
//! setup draws with it ([`Table::decide_commitment_posted`]) and commits the setup's
//! announcement with its own parcel; [`super::super::outbox::finish_setup`] posts it and only
//! then removes the commitment's parcel from the outbox. A crash in between leaves the
//! commitment's parcel there: it is delivered again with the same nonce, Discord gives back the
//! same message, and the setup is finished with the same id (a second report of it is a
//! duplicate, and a setup already finished is not made again).

use serenity::all::MessageId;

use gaugebot_table::input::Verdict;
use gaugebot_table::{Committed, NotStored, Outgoing, Table};

use super::super::channel::ChannelState;
use super::super::parcel::{Address, Parcel};
use super::super::present;
use super::super::shared::Shared;

/// What finishing a setup came to.
pub(crate) enum Finished {
    /// Stored: the announcement's parcel to post, and its outbox item.
    Stored(Box<Parcel>, Option<Outgoing>),
    /// The setup was finished before (the commitment post delivered again): nothing to post.
    Before,
    /// Not stored: the commitment's parcel stays in the outbox, and the setup is finished when
    /// it is delivered again.
    NotStored,
}

/// Makes and commits the setup of `game`, whose commitment post got the id `post`: the setup
/// draws keyed by it, the announcement a post of its own (nonce `post`).
pub(crate) async fn decide(
    shared: &Shared,
    state: &ChannelState,
    table: &mut Table,
    game: &str,
    post: MessageId,
) -> Finished {
    let decided = table
        .decide_commitment_posted(game, &post.to_string())
        .await;
    let parcel = Parcel::of(
        shared,
        table,
        decided.response(),
        &present::posts(&decided.response().replies),
        Address::Post(post.get()),
    );
    let outgoing = parcel
        .outgoing(table.channel())
        .filter(|_| decided.stores());
    match table.commit(decided, outgoing).await {
        Ok(Committed { kept, .. }) => {
            tracing::info!(channel = %state.channel, game, client_seed = %post, "setup drawn after its commitment post");
            Finished::Stored(Box::new(parcel), kept)
        }
        Err(NotStored { response, .. }) if response.verdict == Verdict::Duplicate => {
            Finished::Before
        }
        Err(NotStored { error, .. }) => {
            tracing::warn!(channel = %state.channel, game, %error, "the setup after the commitment post was not stored; it is finished when the post is delivered again");
            Finished::NotStored
        }
    }
}
