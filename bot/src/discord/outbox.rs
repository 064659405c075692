//! The Discord adapter's outbox: a [`Parcel`] (what a command leads to in its channel, made by
//! [`super::parcel`] and stored with the command by the table's commit) is delivered by the
//! channel's worker and then removed from the store. A parcel still in the store after a
//! crash or a restart is delivered before the channel's next job, with the same nonces, so
//! nothing is lost and nothing doubles.

use serenity::all::{ChannelId, EditMessage, MessageId};

use gaugebot_table::{Outgoing, Rich, Table};

use super::channel::ChannelState;
use super::parcel::{After, Parcel, StoredPost};
use super::posting::{buttons, commitment, pages, pin, reply};
use super::present::{self, Post};
use super::rest::{Rest, RestError};
use super::retry::retry;
use super::shared::Shared;

/// What became of a parcel handed to [`send`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[must_use]
pub(crate) enum Delivery {
    /// Posted, and removed from the outbox if it was kept there (or there was nothing to post).
    Done,
    /// Another process owns the channel now: it delivers the kept parcel from the outbox (or
    /// has already); this process posted nothing and leaves the channel to it.
    LeftToOwner,
    /// Whether the channel is still this process's could not be told (a transient storage
    /// fault, noted): nothing was posted, the parcel stays in the outbox and is delivered
    /// before the channel's next job.
    Kept,
}

/// Delivers a kept parcel in its channel (replies, reaction, buttons, the pinned status), then
/// removes it from the outbox.
pub(crate) async fn deliver(
    shared: &Shared,
    state: &mut ChannelState,
    item: &Outgoing,
) -> Delivery {
    let parcel: Parcel = match serde_json::from_str(&item.payload) {
        Ok(parcel) => parcel,
        Err(error) => {
            tracing::error!(channel = %state.channel, key = %item.key, %error, "a kept parcel does not read; dropped");
            forget(shared, item).await;
            return Delivery::Done;
        }
    };
    let status = match parcel.pinned_game() {
        Some(game) => status_of(shared, state, game).await,
        None => None,
    };
    let commitment_of = parcel.commitment_of.clone();
    let (delivery, first) = send(shared, state, Some(item), Some(parcel), status).await;
    if let (Delivery::Done, Some(game), Some(post)) = (delivery, commitment_of, first) {
        // A setup that waited for this commitment post (a crash came between the two).
        match shared.tables.table(&state.key).await {
            Ok(mut table) => finish_setup(shared, state, &mut table, &game, post, item).await,
            Err(error) => {
                tracing::warn!(channel = %state.channel, %error, "the table does not load; the setup is finished at the next delivery");
            }
        }
    }
    delivery
}

/// Posts a command's parcel, then removes it from the outbox if the table kept it there — but
/// for a commitment post ([`Parcel::commitment_of`]), which stays until the setup that waits
/// for it is finished ([`commitment::finish`]). `status`: the pinned status's text, if the
/// parcel updates it ([`Parcel::pinned_game`]), read from the table by the caller. Returns what
/// became of it and the id of its first post, if posted.
///
/// A kept parcel is posted only while this process owns the channel ([`still_owner`]): a
/// process that hung between storing a command and posting its answer may have lost the
/// channel meanwhile, and the new owner delivers the parcel from the outbox.
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
pub(crate) async fn send(
    shared: &Shared,
    state: &mut ChannelState,
    kept: Option<&Outgoing>,
    parcel: Option<Parcel>,
    status: Option<String>,
) -> (Delivery, Option<MessageId>) {
    if let Some(item) = kept {
        let delivery = still_owner(shared, state, item).await;
        if delivery != Delivery::Done {
            return (delivery, None);
        }
    }
    let mut first = None;
    if let Some(parcel) = &parcel {
        let key = state.key.clone();
        let gate = kept
            .filter(|_| shared.owners.shared())
            .map(|_| (&*shared.owners, key.as_str()));
        match post(shared, state, parcel, status, gate).await {
            Ok(posted) => first = posted,
            // Taken over between two attempts: the rest is the new owner's.
            Err(_) => return (left_to_owner(shared, state, kept), None),
        }
    }
    let waits = parcel.as_ref().is_some_and(|p| p.commitment_of.is_some());
    if let (Some(item), false) = (kept, waits) {
        forget(shared, item).await;
    }
    (Delivery::Done, first)
}

/// Whether this process may post a kept parcel of the channel now ([`Delivery::Done`]): always
/// with one process per database; with several, only while the channel's owner row names
/// this process. The new owner of a channel delivers what the outbox kept before its first
/// job, so a process that lost the channel while it hung (its lease ran out) and posted its
/// parcel on waking would answer the command twice: Discord drops a post whose nonce it has
/// seen only for a few minutes. Asked once per parcel, just before its first post.
async fn still_owner(shared: &Shared, state: &mut ChannelState, item: &Outgoing) -> Delivery {
    if !shared.owners.shared() {
        return Delivery::Done;
    }
    match shared.owners.holds(&state.key).await {
        Ok(true) => Delivery::Done,
        Ok(false) => left_to_owner(shared, state, Some(item)),
        Err(error) => {
            gaugebot_store::faults::note_any(&error);
            tracing::debug!(channel = %state.channel, %error, "cannot tell who owns the channel; the answer stays in the outbox");
            state.outbox_checked = false;
            Delivery::Kept
        }
    }
}

/// A kept parcel not posted (or not all of it) because another process owns the channel now:
/// the channel is left to it.
fn left_to_owner(shared: &Shared, state: &mut ChannelState, item: Option<&Outgoing>) -> Delivery {
    let key = item.map(|item| item.key.as_str()).unwrap_or_default();
    tracing::warn!(channel = %state.channel, key, "the channel was taken over; its answer is left to its new owner");
    // Taken back later, the channel is caught up and its outbox read again.
    state.synced_epoch = 0;
    state.outbox_checked = false;
    shared.session.restart.forget(state.channel.get());
    Delivery::LeftToOwner
}

/// Posts a parcel and settles the prompt and the pinned status (`status`, its text); the
/// `gate` is asked before each attempt of a post but the first ([`reply::Gate`]). Nothing more
/// (no reaction, no settling) once it closed.
#[tracing::instrument(target = "hop", level = "trace", skip_all)]
async fn post(
    shared: &Shared,
    state: &mut ChannelState,
    parcel: &Parcel,
    status: Option<String>,
    gate: reply::Gate<'_>,
) -> Result<Option<MessageId>, RestError> {
    let rest = &*shared.discord.rest;
    let after = parcel.after();
    let mut components = after.prompt.as_ref().map(buttons::rows).unwrap_or_default();
    components.extend(parcel.page.as_ref().map(pages::rows).unwrap_or_default());
    let posts: Vec<Post> = parcel.posts.iter().map(StoredPost::post).collect();
    let answers = parcel.answers.filter(|id| *id != 0).map(MessageId::new);
    let (posted, ids) = reply::post_each(
        rest,
        state.channel,
        answers,
        parcel.nonce,
        &posts,
        components,
        gate,
    )
    .await?;
    if let Some(command) = answers {
        reply::react(rest, state.channel, command, parcel.verdict).await;
    }
    send_dms(shared, state, parcel, &ids).await;
    settle(shared, state, after, posted, status).await;
    Ok(ids.first().copied().flatten())
}

/// Sends a parcel's turn pings by direct message, each linked to the post it repeats.
async fn send_dms(
    shared: &Shared,
    state: &mut ChannelState,
    parcel: &Parcel,
    ids: &[Option<MessageId>],
) {
    if parcel.dms.is_empty() {
        return;
    }
    let rest = &*shared.discord.rest;
    if state.guild.is_none() {
        // Learned from the channel itself when no message of it was read in this run.
        if let Ok(channel) = rest.channel(state.channel).await {
            state.guild = channel
                .get("guild_id")
                .and_then(serde_json::Value::as_str)
                .map(str::to_string);
        }
    }
    let server = state.guild.clone().unwrap_or_else(|| "@me".to_string());
    for (index, dm) in parcel.dms.iter().enumerate() {
        let link = ids.get(dm.post).copied().flatten().map(|id| {
            format!(
                "https://discord.com/channels/{server}/{}/{id}",
                state.channel
            )
        });
        let nonce = format!("{}-dm{index}", parcel.nonce);
        reply::direct(rest, dm.to, &dm.text, link, nonce).await;
    }
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
            let (delivery, _) = send(shared, state, kept.as_ref(), Some(*parcel), status).await;
            if delivery != Delivery::Done {
                // Left to the channel's new owner, or kept: the commitment stays for it too.
                return;
            }
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
        if deliver(shared, state, item).await != Delivery::Done {
            // The rest wait for the channel's owner (this process again, or the new one).
            return;
        }
    }
}

/// Removes the buttons of an earlier message (its moves are stale).
async fn strip_buttons(rest: &Rest, channel: ChannelId, message: MessageId) {
    let edit = EditMessage::new().components(Vec::new());
    let _ = retry("remove old buttons", channel, || {
        rest.edit_message(channel, message, &edit)
    })
    .await;
}

/// After an accepted command is posted: the previous prompt (and a refusal's offer) loses its
/// buttons, the new one (`posted`) is remembered, the pinned status is edited (to `status`, the
/// game's status as its table has it now). After a refusal that offers moves, the earlier
/// refusal's offer loses its buttons.
async fn settle(
    shared: &Shared,
    state: &mut ChannelState,
    after: After,
    posted: Option<MessageId>,
    status: Option<String>,
) {
    let rest = &*shared.discord.rest;
    if !after.accepted {
        // A refusal offering moves: an earlier refusal's buttons go (the prompt's stay, still
        // good).
        if after.prompt.is_some() && posted.is_some() {
            if let Some(old) = std::mem::replace(&mut state.last_offer, posted) {
                strip_buttons(rest, state.channel, old).await;
            }
        }
        return;
    }
    let old = [state.last_prompt.take(), state.last_offer.take()];
    for old in old.into_iter().flatten().filter(|old| Some(*old) != posted) {
        strip_buttons(rest, state.channel, old).await;
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

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicU32, AtomicU8, Ordering};
    use std::sync::Arc;

    use async_trait::async_trait;
    use fakediscord::{FakeDiscord, FakeUser, RouteKind};
    use gaugebot_store::backend::{Claim, Owners};
    use gaugebot_table::store::{StoreError, Write};
    use gaugebot_table::Tables;
    use serenity::model::id::ChannelId;

    use super::*;
    use crate::config::Config;
    use crate::discord::rest::Rest;
    use crate::discord::worker;

    const GUILD: u64 = 8 << 22;
    const CHANNEL: u64 = 701;

    /// The channel's owner row as this process reads it: its own ([`HELD`]), another's
    /// ([`TAKEN`]), or not readable ([`DOWN`]); taken over by another process after it was
    /// read `hands_over_after` times, if set.
    struct OwnerRow {
        row: AtomicU8,
        reads: AtomicU32,
        hands_over_after: u32,
    }
    const HELD: u8 = 0;
    const TAKEN: u8 = 1;
    const DOWN: u8 = 2;

    impl OwnerRow {
        fn new(row: u8, hands_over_after: u32) -> Arc<OwnerRow> {
            Arc::new(OwnerRow {
                row: AtomicU8::new(row),
                reads: AtomicU32::new(0),
                hands_over_after,
            })
        }

        fn set(&self, row: u8) {
            self.row.store(row, Ordering::SeqCst);
        }
    }

    #[async_trait]
    impl Owners for OwnerRow {
        async fn claim(&self, _channel: &str, _guild: Option<&str>) -> Result<Claim, StoreError> {
            unreachable!("the outbox never claims")
        }

        async fn holds(&self, _channel: &str) -> Result<bool, StoreError> {
            if self.reads.fetch_add(1, Ordering::SeqCst) + 1 > self.hands_over_after {
                self.set(TAKEN);
            }
            match self.row.load(Ordering::SeqCst) {
                HELD => Ok(true),
                TAKEN => Ok(false),
                _ => Err(StoreError::Unavailable(Arc::new(std::io::Error::other(
                    "the database is away",
                )))),
            }
        }

        async fn orphans(&self) -> Result<Vec<(String, Option<String>)>, StoreError> {
            Ok(Vec::new())
        }
    }

    /// A process's adapter on a throwaway store, talking to `fake`, its channel's owner row
    /// as `owners` says.
    async fn process(fake: &FakeDiscord, owners: Arc<OwnerRow>) -> Arc<Shared> {
        let store = gaugebot_store::SqliteStore::open(":memory:")
            .await
            .expect("store");
        let host =
            crate::games::host(None, gaugebot_table::TableSettings::default()).expect("templates");
        let store: Arc<dyn gaugebot_table::Store> = Arc::new(store);
        let servers = Arc::new(gaugebot_table::KnownServers::load(store.clone()).await);
        let tables = Tables::new(store, host);
        let rest = Arc::new(Rest::new(fakediscord::BOT_TOKEN, Some(&fake.api_base())));
        Shared::new(
            tables,
            servers,
            rest,
            &Config::default(),
            true,
            owners,
            worker::run,
        )
    }

    /// The fake Discord with the game's guild and channel, and ann in it.
    async fn world() -> (FakeDiscord, FakeUser) {
        let fake = FakeDiscord::start().await;
        fake.add_guild(GUILD, "Irish Gauge");
        fake.add_channel(GUILD, CHANNEL, "game");
        let ann = FakeUser::new(1, "ann");
        fake.add_member(GUILD, &ann, &[]);
        (fake, ann)
    }

    /// The answer to `command` as a command's commit keeps it in the outbox: stored there.
    async fn kept_answer(shared: &Shared, command: u64) -> Outgoing {
        let payload = serde_json::json!({
            "answers": command,
            "nonce": command,
            "verdict": "Accepted",
            "posts": [{"text": "ann passes."}],
        });
        let item = Outgoing {
            channel: CHANNEL.to_string(),
            key: command.to_string(),
            payload: payload.to_string(),
            at: chrono::Utc::now(),
        };
        shared
            .tables
            .store()
            .write(&[Write::Outbox(item.clone())])
            .await
            .expect("kept");
        item
    }

    fn parcel_of(item: &Outgoing) -> Parcel {
        serde_json::from_str(&item.payload).expect("a parcel")
    }

    /// A process that stored a command and its answer, then hung and lost the channel to
    /// another process (which delivers the kept answer from the outbox), posts nothing on
    /// waking: not the reply, not the reaction; the parcel stays for the new owner. Before, it
    /// posted the reply again, and only Discord's memory of the nonce (a few minutes, and in
    /// the fake Discord not across an edit) kept the command from being answered twice.
    #[tokio::test]
    async fn a_process_that_lost_the_channel_posts_nothing_of_its_kept_answer() {
        let (fake, ann) = world().await;
        let owners = OwnerRow::new(TAKEN, u32::MAX);
        let shared = process(&fake, owners.clone()).await;
        let mut state = ChannelState::new(ChannelId::new(CHANNEL));
        state.outbox_checked = true;
        let command = fake.post_user_message(CHANNEL, Some(GUILD), &ann, "**pass**");
        let item = kept_answer(&shared, command).await;

        let delivery = send(
            &shared,
            &mut state,
            Some(&item),
            Some(parcel_of(&item)),
            None,
        )
        .await;
        assert_eq!(delivery.0, Delivery::LeftToOwner);
        assert!(fake.bot_messages(CHANNEL).is_empty(), "nothing posted");
        assert!(fake.reactions(command).is_empty(), "no reaction");
        let store = shared.tables.store();
        assert_eq!(
            store.pending(Some(&state.key)).await.expect("outbox"),
            vec![item.clone()]
        );
        assert!(
            !state.outbox_checked,
            "read again if the channel is taken back"
        );

        // The owner cannot be told: nothing posted either, the parcel kept, the fault noted.
        owners.set(DOWN);
        state.outbox_checked = true;
        let (delivery, fault) = gaugebot_store::faults::watch(send(
            &shared,
            &mut state,
            Some(&item),
            Some(parcel_of(&item)),
            None,
        ))
        .await;
        assert_eq!(delivery.0, Delivery::Kept);
        assert!(fault.is_some(), "the fault is noted");
        assert!(fake.bot_messages(CHANNEL).is_empty(), "nothing posted");
        assert!(!state.outbox_checked);

        // Its owner again (taken back): the kept answer is delivered from the outbox, once.
        owners.set(HELD);
        redeliver(&shared, &mut state).await;
        let posted = fake.bot_messages(CHANNEL);
        assert_eq!(posted.len(), 1, "{posted:?}");
        assert_eq!(posted[0].referenced_message, Some(command));
        assert_eq!(posted[0].content, "ann passes.");
        assert_eq!(fake.reactions(command), vec!["✅".to_string()]);
        assert!(store
            .pending(Some(&state.key))
            .await
            .expect("outbox")
            .is_empty());
    }

    /// A process that hung in the middle of a kept answer's post (the attempt failed, here a
    /// 503; in the failover test it timed out while the process was stopped) and lost the
    /// channel meanwhile does not retry it: the new owner posts it from the outbox.
    #[tokio::test]
    async fn a_post_is_not_retried_once_the_channel_was_taken_over() {
        let (fake, ann) = world().await;
        // Read once as its own (just before the first attempt), then another process's.
        let owners = OwnerRow::new(HELD, 1);
        let shared = process(&fake, owners.clone()).await;
        let mut state = ChannelState::new(ChannelId::new(CHANNEL));
        state.outbox_checked = true;
        let command = fake.post_user_message(CHANNEL, Some(GUILD), &ann, "**pass**");
        let item = kept_answer(&shared, command).await;
        fake.fail_next(RouteKind::CreateMessage, 503, 1);

        let delivery = send(
            &shared,
            &mut state,
            Some(&item),
            Some(parcel_of(&item)),
            None,
        )
        .await;
        assert_eq!(delivery.0, Delivery::LeftToOwner);
        let posts = fake
            .requests()
            .iter()
            .filter(|r| r.route == Some(RouteKind::CreateMessage))
            .count();
        assert_eq!(posts, 1, "the failed attempt only");
        assert!(fake.bot_messages(CHANNEL).is_empty(), "nothing posted");
        assert!(fake.reactions(command).is_empty(), "no reaction");
        let store = shared.tables.store();
        assert_eq!(
            store.pending(Some(&state.key)).await.expect("outbox"),
            vec![item]
        );
        assert!(!state.outbox_checked);
    }
}
