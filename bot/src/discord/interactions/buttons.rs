//! A click on one of the turn prompt's buttons ([`crate::discord::posting::buttons`]): queued
//! in its channel like any command and checked like any move by the table; a click on an
//! older prompt is refused as stale, privately.

use std::sync::Arc;

use serenity::all::{
    ComponentInteraction, CreateInteractionResponse, CreateInteractionResponseMessage,
};

use gaugebot_table::input::Incoming;

use super::{answer, interaction_time, submit};
use crate::discord::author;
use crate::discord::job::Echo;
use crate::discord::job::Outcome;
use crate::discord::posting::buttons::parse;
use crate::discord::posting::pages;
use crate::discord::shared::Shared;

/// A click on one of the bot's buttons: acknowledged at once (privately), then queued in the
/// channel as the move written in bold. Other components are not the bot's: ignored.
pub(crate) async fn on_click(shared: Arc<Shared>, click: ComponentInteraction) {
    if let Some((game, entry)) = pages::parse(&click.data.custom_id) {
        return on_page(shared, click, game, entry).await;
    }
    let Some((game, position, notation)) = parse(&click.data.custom_id) else {
        return;
    };
    let Some(incoming) = acknowledge(&shared, &click, format!("**{notation}**")).await else {
        return;
    };
    let rest = &*shared.discord.rest;
    let expect = Some((game, position));
    let outcome = submit(&shared, click.channel_id, incoming, expect, Echo::Move).await;
    let templates = &shared.tables.host().templates;
    answer(
        rest,
        templates,
        click.channel_id,
        &click.token,
        outcome,
        true,
    )
    .await;
}

/// Acknowledges a click at once (privately: the answer follows as a private message) and makes
/// it the message `text` by the person who clicked; `None` if it cannot be acknowledged.
async fn acknowledge(
    shared: &Shared,
    click: &ComponentInteraction,
    text: String,
) -> Option<Incoming> {
    let defer =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    let rest = &*shared.discord.rest;
    if let Err(error) = rest
        .answer_interaction(click.id, &click.token, &defer)
        .await
    {
        tracing::warn!(channel = %click.channel_id, %error, "cannot acknowledge a click");
        return None;
    }
    let author = author::of_interaction(
        &shared.discord.perms,
        click.channel_id,
        click.guild_id,
        click.member.as_ref(),
        &click.user,
        false,
    )
    .await;
    if let Some(guild) = click.guild_id {
        crate::discord::messages::learn_server(shared, &click.channel_id.to_string(), guild.get())
            .await;
    }
    Some(Incoming {
        message_id: click.id.to_string(),
        author,
        text,
        at: interaction_time(click.id),
        mentions: Vec::new(),
    })
}

/// A click on a status report's ◀ or ▶: answered to the person who clicked only, with the
/// report of the position after record entry `entry` (`!status N`, run in the channel's queue
/// like any command) and its own ◀ ▶. A click for a game the channel no longer plays is stale.
async fn on_page(shared: Arc<Shared>, click: ComponentInteraction, game: String, entry: i64) {
    let prefix = &shared.tables.host().settings.prefix;
    let Some(incoming) = acknowledge(&shared, &click, format!("{prefix}status {entry}")).await
    else {
        return;
    };
    let rest = &*shared.discord.rest;
    let text = incoming.text.clone();
    let outcome = match submit(
        &shared,
        click.channel_id,
        incoming,
        None,
        Echo::Command(text),
    )
    .await
    {
        Outcome::Handled(response) if response.page.as_ref().is_some_and(|p| p.game_id != game) => {
            Outcome::Stale
        }
        outcome => outcome,
    };
    let templates = &shared.tables.host().templates;
    answer(
        rest,
        templates,
        click.channel_id,
        &click.token,
        outcome,
        true,
    )
    .await;
}
