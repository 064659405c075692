//! Autocomplete of slash options: the legal values the game suggests for the position, else
//! the option's fixed choices, within Discord's 3 s. Answered through the bot's one REST
//! client ([`on_autocomplete`], called by [`super::slash::Commands`] before poise sees the
//! interaction); poise's callback ([`action`]) only marks the options as autocompleted when
//! the commands are registered.

use std::collections::HashMap;
use std::time::Duration;

use poise::serenity_prelude::{
    AutocompleteChoice, CommandInteraction, CreateAutocompleteResponse, CreateInteractionResponse,
    ResolvedOption, ResolvedValue,
};

use gaugebot_table::commands::registry::ArgKind;
use gaugebot_table::game::Query;

use super::spec::{cut, given, Ctx, Source, Spec, DISCORD_TEXT};
use crate::discord::shared::Shared;

/// The most autocomplete choices Discord shows.
const MAX_CHOICES: usize = 25;
/// How long an autocomplete waits for the table (Discord gives 3 s).
const AUTOCOMPLETE_WAIT: Duration = Duration::from_millis(2_000);

/// poise's autocomplete callback of every option that has one: what makes poise register the
/// option as autocompleted (the interactions themselves are answered by [`on_autocomplete`]).
pub(crate) fn action<'a>(
    ctx: Ctx<'a>,
    typed: &'a str,
) -> poise::BoxFuture<'a, CreateAutocompleteResponse> {
    Box::pin(async move {
        let Some(spec) = ctx.command().custom_data.downcast_ref::<Spec>() else {
            return CreateAutocompleteResponse::new();
        };
        let interaction = ctx.interaction;
        let (channel, user) = (interaction.channel_id, interaction.user.id);
        let shared = &ctx.data().shared;
        response_for(
            shared,
            spec,
            ctx.args,
            &channel.to_string(),
            &user.to_string(),
            typed,
        )
        .await
    })
}

/// Answers an autocomplete interaction of one of `specs`' commands through the bot's one REST
/// client (once: a choice list is stale a second later anyway).
pub(crate) async fn on_autocomplete(
    shared: &Shared,
    specs: &HashMap<String, Spec>,
    interaction: &CommandInteraction,
) {
    let Some(spec) = specs.get(&interaction.data.name) else {
        return;
    };
    let args = interaction.data.options();
    let typed = args
        .iter()
        .find_map(|o| match &o.value {
            ResolvedValue::Autocomplete { value, .. } => Some(*value),
            _ => None,
        })
        .unwrap_or_default();
    let channel = interaction.channel_id.to_string();
    let user = interaction.user.id.to_string();
    let response = response_for(shared, spec, &args, &channel, &user, typed).await;
    let answer = CreateInteractionResponse::Autocomplete(response);
    let rest = &*shared.discord.rest;
    if let Err(error) = rest
        .answer_interaction(interaction.id, &interaction.token, &answer)
        .await
    {
        tracing::warn!(channel = %interaction.channel_id, %error, "cannot answer an autocomplete");
    }
}

/// The choices for the focused option of `spec` in `channel`, for `user`, who typed `typed`.
async fn response_for(
    shared: &Shared,
    spec: &Spec,
    args: &[ResolvedOption<'_>],
    channel: &str,
    user: &str,
    typed: &str,
) -> CreateAutocompleteResponse {
    let mut response = CreateAutocompleteResponse::new();
    let focused = args.iter().find_map(|o| match &o.value {
        ResolvedValue::Autocomplete { .. } => Some(o.name),
        _ => None,
    });
    let Some(option) = focused.and_then(|f| spec.options.iter().find(|o| o.name == f)) else {
        return response;
    };
    let arg = match &option.source {
        Source::Arg(name) => *name,
        _ => return response,
    };
    let given: Vec<(String, String)> = given(args)
        .into_iter()
        .map(|(n, v)| (n, v.as_text()))
        .collect();
    let query = Query {
        command: spec.name,
        arg,
        typed,
        given: &given,
    };
    let suggestions = tokio::time::timeout(AUTOCOMPLETE_WAIT, async {
        match shared.tables.table(channel).await {
            Ok(table) => table.suggest(user, &query),
            Err(_) => Vec::new(),
        }
    })
    .await
    .unwrap_or_default();
    let mut choices: Vec<(String, String)> = suggestions
        .into_iter()
        .map(|s| (s.label, s.value))
        .collect();
    if choices.is_empty() {
        if let ArgKind::Choice(words) = option.kind {
            let typed = typed.trim().to_lowercase();
            choices = words
                .iter()
                .filter(|w| w.to_lowercase().starts_with(&typed))
                .map(|w| (w.to_string(), w.to_string()))
                .collect();
        }
    }
    let choices: Vec<AutocompleteChoice> = choices
        .into_iter()
        .take(MAX_CHOICES)
        .filter_map(|(label, value)| {
            let label = cut(&label, DISCORD_TEXT);
            match option.kind {
                ArgKind::Integer => value
                    .parse::<i64>()
                    .ok()
                    .map(|v| AutocompleteChoice::new(label, v)),
                _ => Some(AutocompleteChoice::new(label, cut(&value, DISCORD_TEXT))),
            }
        })
        .collect();
    response = response.set_choices(choices);
    response
}
