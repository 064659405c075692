//! Autocomplete of slash options: the legal values the game suggests for the position, else
//! the option's fixed choices, within Discord's 3 s.

use std::time::Duration;

use poise::serenity_prelude::{AutocompleteChoice, CreateAutocompleteResponse, ResolvedValue};

use gaugebot_table::commands::registry::ArgKind;
use gaugebot_table::game::Query;

use super::spec::{cut, given, Ctx, Source, Spec, DISCORD_TEXT};

/// The most autocomplete choices Discord shows.
const MAX_CHOICES: usize = 25;
/// How long an autocomplete waits for the table (Discord gives 3 s).
const AUTOCOMPLETE_WAIT: Duration = Duration::from_millis(2_000);

/// poise's autocomplete callback of every option that has one.
pub(crate) fn action<'a>(
    ctx: Ctx<'a>,
    typed: &'a str,
) -> poise::BoxFuture<'a, CreateAutocompleteResponse> {
    Box::pin(autocomplete(ctx, typed))
}

async fn autocomplete(ctx: Ctx<'_>, typed: &str) -> CreateAutocompleteResponse {
    let mut response = CreateAutocompleteResponse::new();
    let Some(spec) = ctx.command().custom_data.downcast_ref::<Spec>() else {
        return response;
    };
    let focused = ctx.args.iter().find_map(|o| match &o.value {
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
    let given: Vec<(String, String)> = given(ctx.args)
        .into_iter()
        .map(|(n, v)| (n, v.as_text()))
        .collect();
    let shared = &ctx.data().shared;
    let key = ctx.interaction.channel_id.to_string();
    let user = ctx.interaction.user.id.to_string();
    let query = Query {
        command: spec.name,
        arg,
        typed,
        given: &given,
    };
    let suggestions = tokio::time::timeout(AUTOCOMPLETE_WAIT, async {
        match shared.tables.table(&key).await {
            Ok(table) => table.suggest(&user, &query),
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
