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
use crate::discord::posting::buttons::parse;
use crate::discord::shared::Shared;

/// A click on one of the bot's buttons: acknowledged at once (privately), then queued in the
/// channel as the move written in bold. Other components are not the bot's: ignored.
pub(crate) async fn on_click(shared: Arc<Shared>, click: ComponentInteraction) {
    let Some((game, position, notation)) = parse(&click.data.custom_id) else {
        return;
    };
    let defer =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    let rest = &*shared.discord.rest;
    if let Err(error) = rest
        .answer_interaction(click.id, &click.token, &defer)
        .await
    {
        tracing::warn!(channel = %click.channel_id, %error, "cannot acknowledge a click");
        return;
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
    let incoming = Incoming {
        message_id: click.id.to_string(),
        author,
        text: format!("**{notation}**"),
        at: interaction_time(click.id),
        mentions: Vec::new(),
    };
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
