//! Buttons on the turn prompt for moves a click suffices for (pass, the least bid, calling
//! dividends). A button's custom id names the game, its position (the number of log entries
//! when the prompt was posted) and the move: `gb|501-1|12|bid 8`. A click is queued in its
//! channel like any command and checked like any move by the table; a click on an older prompt
//! is refused as stale, privately.

use std::sync::Arc;

use serenity::all::{
    ButtonStyle, ComponentInteraction, CreateActionRow, CreateButton, CreateInteractionResponse,
    CreateInteractionResponseMessage, Http,
};

use gaugebot_table::input::Incoming;
use gaugebot_table::Prompt;

use super::invoke::Echo;
use super::slash::{answer, author, interaction_time, submit};
use super::worker::Shared;

/// The start of every custom id the bot makes.
const TAG: &str = "gb";
/// Discord's limits: custom ids of 100 characters, 5 buttons a row.
const MAX_ID: usize = 100;
const PER_ROW: usize = 5;

/// The custom id of a button.
pub(crate) fn custom_id(game: &str, position: usize, notation: &str) -> String {
    format!("{TAG}|{game}|{position}|{notation}")
}

/// Reads a custom id made by [`custom_id`]: (game, position, move).
pub(crate) fn parse(id: &str) -> Option<(String, usize, String)> {
    let mut parts = id.splitn(4, '|');
    if parts.next()? != TAG {
        return None;
    }
    let game = parts.next()?.to_string();
    let position = parts.next()?.parse().ok()?;
    let notation = parts.next()?.to_string();
    (!game.is_empty() && !notation.is_empty()).then_some((game, position, notation))
}

/// The buttons of a turn prompt.
pub(crate) fn rows(prompt: &Prompt) -> Vec<CreateActionRow> {
    let buttons: Vec<CreateButton> = prompt
        .moves
        .iter()
        .map(|m| (custom_id(&prompt.game_id, prompt.position, &m.notation), m))
        .filter(|(id, _)| id.chars().count() <= MAX_ID)
        .map(|(id, m)| {
            let style = if m.notation == "pass" {
                ButtonStyle::Secondary
            } else {
                ButtonStyle::Primary
            };
            CreateButton::new(id).label(m.label.clone()).style(style)
        })
        .collect();
    buttons
        .chunks(PER_ROW)
        .map(|row| CreateActionRow::Buttons(row.to_vec()))
        .collect()
}

/// A click on one of the bot's buttons: acknowledged at once (privately), then queued in the
/// channel as the move written in bold. Other components are not the bot's: ignored.
pub(crate) async fn on_click(shared: Arc<Shared>, http: Arc<Http>, click: ComponentInteraction) {
    let Some((game, position, notation)) = parse(&click.data.custom_id) else {
        return;
    };
    let defer =
        CreateInteractionResponse::Defer(CreateInteractionResponseMessage::new().ephemeral(true));
    if let Err(error) = click.create_response(&*http, defer).await {
        tracing::warn!(channel = %click.channel_id, %error, "cannot acknowledge a click");
        return;
    }
    let author = author(
        &shared,
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
    let outcome = submit(
        &shared,
        click.channel_id,
        incoming,
        Some((game, position)),
        Echo::Move,
    )
    .await;
    answer(&http, click.channel_id, &click.token, outcome, true).await;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn custom_ids_round_trip() {
        let id = custom_id("501-1", 12, "bid 8");
        assert_eq!(id, "gb|501-1|12|bid 8");
        assert_eq!(parse(&id), Some(("501-1".into(), 12, "bid 8".into())));
        assert_eq!(parse("other|x"), None);
        assert_eq!(parse("gb|x|notanumber|pass"), None);
        assert_eq!(parse("gb|x|3|"), None);
    }
}
