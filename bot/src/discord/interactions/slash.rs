//! Slash commands, derived at start-up from the command registry (the table's commands and
//! every game's), built as poise 0.7 `Command` values at run time: one generic action and one
//! generic autocomplete read which command they serve from the command's `custom_data`.
//!
//! - A move (`Form::Move`) becomes `/bid amount`, `/build railway hexes`…: its options make the
//!   notation (`**bid 7**`), handed to the table as if written in bold; every option is
//!   autocompleted with the legal values the game suggests.
//! - A `!`-command (`Form::Bang`) becomes `/status`, `/setup players1…`: its options make the
//!   command text (`!setup <@1> <@2> <@3> dice:manual`). A list of users (`ArgKind::Users`)
//!   becomes numbered user options. Commands anyone may run answer in the channel unless the
//!   `private` option asks for an answer only the user sees (`/moves` and `/help` always);
//!   moderator commands declare Manage Messages as their default permission.
//!
//! Poise dispatches the invocations; autocomplete is answered by [`Commands`] before poise
//! sees it, so that every answer goes through the bot's one REST client.
//!
//! Every invocation is deferred at once (Discord wants an answer within 3 s), then runs in the
//! channel's queue like a message (`invoke`); an accepted one is posted in the channel in the
//! forum's form, and the user gets a short private confirmation or the refusal.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;

use poise::serenity_prelude as serenity;
use serenity::{
    CommandInteraction, CommandOptionType, CreateCommandOption, CreateInteractionResponse,
    CreateInteractionResponseMessage, Permissions,
};

use gaugebot_table::commands::registry::{Access, ArgKind, CommandSpec, Form};
use gaugebot_table::input::{Incoming, Mention};
use gaugebot_table::{Host, Templates};

use super::spec::{
    cut, given, Ctx, Data, Error, Given, Privacy, SlashCommand, Source, Spec, DISCORD_TEXT, PRIVATE,
};
use super::{answer, autocomplete, interaction_time, submit};
use crate::discord::author;
use crate::discord::job::Echo;
use crate::discord::rest::Rest;
use crate::discord::retry::retry;
use crate::discord::shared::Shared;

fn string_option(b: CreateCommandOption) -> CreateCommandOption {
    b.kind(CommandOptionType::String)
}

fn integer_option(b: CreateCommandOption) -> CreateCommandOption {
    b.kind(CommandOptionType::Integer)
}

fn user_option(b: CreateCommandOption) -> CreateCommandOption {
    b.kind(CommandOptionType::User)
}

fn boolean_option(b: CreateCommandOption) -> CreateCommandOption {
    b.kind(CommandOptionType::Boolean)
}

/// Every command of the registry as a slash command. Names used by several games make one
/// command; `players` is the fewest and the most players any game seats.
pub(crate) fn commands(host: &Host) -> Vec<SlashCommand> {
    let players = (
        host.games
            .iter()
            .map(|g| *g.info().players.start())
            .min()
            .unwrap_or(1),
        host.games
            .iter()
            .map(|g| *g.info().players.end())
            .max()
            .unwrap_or(5),
    );
    let mut names: Vec<&'static str> = Vec::new();
    for spec in host.commands.all() {
        if !names.contains(&spec.name) {
            names.push(spec.name);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let all: Vec<&CommandSpec> = host
                .commands
                .all()
                .iter()
                .filter(|c| c.name == name)
                .collect();
            let form = all[0].form;
            let alike: Vec<&CommandSpec> = all.into_iter().filter(|c| c.form == form).collect();
            let private = host.commands.answers_privately(alike[0]);
            command(&alike, players, private, &host.templates)
        })
        .collect()
}

fn command(
    specs: &[&CommandSpec],
    players: (usize, usize),
    private: bool,
    templates: &Templates,
) -> SlashCommand {
    let spec = Spec::of(specs, players, private);
    let parameters = spec
        .options
        .iter()
        .map(|o| {
            let autocomplete = match (&o.source, o.kind) {
                (Source::Private, _) | (_, ArgKind::User) | (_, ArgKind::Users) => false,
                (_, ArgKind::Choice(_)) => true,
                _ => spec.form == Form::Move,
            };
            // Built at run time: the macro is not needed, the hidden field says "no other
            // fields".
            poise::CommandParameter {
                name: o.name.clone().into(),
                name_localizations: Default::default(),
                description: Some(Spec::help(specs, o, templates).into()),
                description_localizations: Default::default(),
                required: o.required,
                channel_types: None,
                choices: Vec::new().into(),
                type_setter: Some(match (&o.source, o.kind) {
                    (Source::Private, _) => boolean_option,
                    (_, ArgKind::Integer) => integer_option,
                    (_, ArgKind::User | ArgKind::Users) => user_option,
                    _ => string_option,
                }),
                autocomplete_callback: if autocomplete {
                    Some(autocomplete::action)
                } else {
                    None
                },
                __non_exhaustive: (),
            }
        })
        .collect();
    let summary = specs
        .iter()
        .map(|s| s.summary)
        .collect::<Vec<_>>()
        .join("; ");
    SlashCommand {
        name: spec.name.to_string().into(),
        qualified_name: spec.name.to_string().into(),
        identifying_name: spec.name.to_string().into(),
        description: Some(cut(&summary, DISCORD_TEXT).into()),
        default_member_permissions: if spec.access == Access::Moderator {
            Permissions::MANAGE_MESSAGES
        } else {
            Permissions::empty()
        },
        ephemeral: spec.privacy != Privacy::Optional,
        slash_action: Some(slash_action),
        parameters,
        custom_data: Box::new(spec),
        ..Default::default()
    }
}

fn slash_action(
    ctx: Ctx<'_>,
) -> poise::BoxFuture<'_, Result<(), poise::FrameworkError<'_, Data, Error>>> {
    Box::pin(async move {
        run(ctx).await;
        Ok(())
    })
}

/// The slash commands' framework: poise's, but for autocomplete, which is answered here
/// through the bot's one REST client before poise sees it (poise would answer through
/// serenity's own `Http`).
pub(crate) struct Commands {
    poise: poise::Framework<Data, Error>,
    shared: Arc<Shared>,
    /// Each command's spec, by name.
    specs: HashMap<String, Spec>,
}

#[async_trait::async_trait]
impl serenity::Framework for Commands {
    async fn init(&mut self, client: &serenity::Client) {
        self.poise.init(client).await;
    }

    async fn dispatch(&self, ctx: serenity::Context, event: serenity::FullEvent) {
        if let serenity::FullEvent::InteractionCreate {
            interaction: serenity::Interaction::Autocomplete(asked),
        } = &event
        {
            autocomplete::on_autocomplete(&self.shared, &self.specs, asked).await;
            return;
        }
        self.poise.dispatch(ctx, event).await;
    }
}

/// The framework serving the registry's slash commands: they are registered on the first
/// READY (globally, or in `guilds`), and every invocation and autocomplete is dispatched here.
pub(crate) fn framework(shared: Arc<Shared>, guilds: Vec<u64>) -> Commands {
    let commands = commands(shared.tables.host());
    let specs = commands
        .iter()
        .filter_map(|c| {
            let spec = c.custom_data.downcast_ref::<Spec>()?;
            Some((c.name.to_string(), spec.clone()))
        })
        .collect();
    let options = poise::FrameworkOptions {
        commands,
        // No prefix commands: messages are the adapter's.
        prefix_options: poise::PrefixFrameworkOptions::default(),
        initialize_owners: false,
        on_error,
        ..Default::default()
    };
    let data = shared.clone();
    let poise = poise::Framework::builder()
        .options(options)
        // The builder's own setting wins over the options': without it poise would read the
        // application's owners through serenity's `Http` (the bot has no owner-only command).
        .initialize_owners(false)
        .setup(move |_ctx, ready, framework| {
            Box::pin(async move {
                // Before any READY handler may have run: the commands are the application's.
                data.discord.rest.set_application_id(ready.application.id);
                register(&data.discord.rest, &framework.options().commands, &guilds).await;
                Ok(Data { shared: data })
            })
        })
        .build();
    Commands {
        poise,
        shared,
        specs,
    }
}

/// The one error handler of the framework: the commands report failures themselves, so what
/// reaches here (an interaction poise could not read) is logged.
fn on_error(error: poise::FrameworkError<'_, Data, Error>) -> poise::BoxFuture<'_, ()> {
    Box::pin(async move {
        tracing::warn!(error = %error, "slash command error");
    })
}

/// Registers the commands (a bulk overwrite: commands no longer in the registry disappear).
/// A failure is logged: the bot still reads messages.
async fn register(rest: &Rest, commands: &[SlashCommand], guilds: &[u64]) {
    let built = poise::builtins::create_application_commands(commands);
    let count = built.len();
    let channel = serenity::ChannelId::new(1);
    if guilds.is_empty() {
        let done = retry("register the slash commands", channel, || {
            rest.set_commands(None, &built)
        })
        .await;
        if done.is_ok() {
            tracing::info!(count, "slash commands registered");
        }
    } else {
        for guild in guilds.iter().filter(|g| **g != 0) {
            let guild = serenity::GuildId::new(*guild);
            let done = retry("register the slash commands", channel, || {
                rest.set_commands(Some(guild), &built)
            })
            .await;
            if done.is_ok() {
                tracing::info!(count, %guild, "slash commands registered in a server");
            }
        }
    }
}

#[tracing::instrument(target = "hop", level = "trace", skip_all)]
async fn run(ctx: Ctx<'_>) {
    let Some(spec) = ctx.command().custom_data.downcast_ref::<Spec>() else {
        return;
    };
    let shared = &ctx.data().shared;
    let interaction: &CommandInteraction = ctx.interaction;
    let values = given(ctx.args);
    let private = match spec.privacy {
        Privacy::Always | Privacy::Confirm => true,
        Privacy::Optional => values
            .iter()
            .any(|(n, v)| n == PRIVATE && matches!(v, Given::Text(t) if t == "true")),
    };
    // First of all: Discord wants an answer within 3 s.
    let defer = CreateInteractionResponse::Defer(
        CreateInteractionResponseMessage::new().ephemeral(private),
    );
    let rest = &*shared.discord.rest;
    if let Err(error) = rest
        .answer_interaction(interaction.id, &interaction.token, &defer)
        .await
    {
        tracing::warn!(channel = %interaction.channel_id, %error, "cannot acknowledge a slash command");
        return;
    }
    // poise answers no more: its own deferral would be a second answer.
    ctx.has_sent_initial_response.store(true, Ordering::SeqCst);
    let (text, shown) = spec.text(&values, &shared.settings.prefix);
    let author = author::of_interaction(
        &shared.discord.perms,
        interaction.channel_id,
        interaction.guild_id,
        interaction.member.as_deref(),
        &interaction.user,
        spec.access == Access::Moderator,
    )
    .await;
    let mentions = values
        .iter()
        .filter_map(|(_, v)| match v {
            Given::User { id, name } => Some(Mention {
                id: id.to_string(),
                name: name.clone(),
                written: crate::discord::messages::mention_forms(*id),
            }),
            Given::Text(_) => None,
        })
        .collect();
    if let Some(guild) = interaction.guild_id {
        crate::discord::messages::learn_server(
            shared,
            &interaction.channel_id.to_string(),
            guild.get(),
        )
        .await;
    }
    let incoming = Incoming {
        message_id: interaction.id.to_string(),
        author,
        text,
        at: interaction_time(interaction.id),
        mentions,
    };
    let echo = match spec.form {
        Form::Move => Echo::Move,
        Form::Bang => Echo::Command(shown),
    };
    let outcome = submit(shared, interaction.channel_id, incoming, None, echo).await;
    answer(
        rest,
        &shared.tables.host().templates,
        interaction.channel_id,
        &interaction.token,
        outcome,
        private,
    )
    .await;
}

#[cfg(test)]
mod tests {
    use super::*;
    use gaugebot_table::TableSettings;

    fn host() -> Host {
        let games = crate::games::registry();
        let templates = Templates::load(None, &gaugebot_table::texts_of(&games))
            .and_then(|t| t.with(None, &crate::templates::DISCORD))
            .expect("templates");
        Host::new(games, templates, TableSettings::default())
    }

    fn spec<'a>(commands: &'a [SlashCommand], name: &str) -> &'a Spec {
        commands
            .iter()
            .find(|c| c.name == name)
            .and_then(|c| c.custom_data.downcast_ref::<Spec>())
            .unwrap_or_else(|| panic!("no /{name}"))
    }

    #[test]
    fn every_registry_command_is_a_slash_command() {
        let host = host();
        let commands = commands(&host);
        for c in host.commands.all() {
            assert!(
                commands.iter().any(|s| s.name == c.name),
                "{} missing",
                c.name
            );
        }
        for c in &commands {
            let built = c.create_as_slash_command();
            assert!(built.is_some(), "/{} does not build", c.name);
            assert!(c.name.len() <= 32 && c.name == c.name.to_lowercase());
        }
        let setup = commands.iter().find(|c| c.name == "setup").expect("setup");
        assert_eq!(
            setup.default_member_permissions,
            Permissions::MANAGE_MESSAGES
        );
        let names: Vec<_> = setup
            .parameters
            .iter()
            .map(|p| (p.name.as_ref(), p.required))
            .collect();
        // As many players required as the smallest game seats (Privates: 2), up to the largest.
        let fewest = host
            .games
            .iter()
            .map(|g| *g.info().players.start())
            .min()
            .expect("games");
        for n in 1..=6 {
            let name = format!("player{n}");
            let required = names.iter().find(|(p, _)| *p == name).map(|(_, r)| *r);
            assert_eq!(required, Some(n <= fewest), "{name}: {names:?}");
        }
        let status = spec(&commands, "status");
        assert_eq!(status.privacy, Privacy::Optional);
        assert_eq!(spec(&commands, "moves").privacy, Privacy::Always);
        assert_eq!(spec(&commands, "bid").privacy, Privacy::Confirm);
    }

    #[test]
    fn options_make_the_notation_and_the_command_text() {
        let host = host();
        let commands = commands(&host);
        let t = |v: &str| Given::Text(v.to_string());
        let build = spec(&commands, "build");
        let (text, shown) = build.text(
            &[("hexes".into(), t("K3 L3")), ("railway".into(), t("WLW"))],
            "!",
        );
        assert_eq!(text, "**build WLW K3 L3**");
        assert_eq!(shown, "build WLW K3 L3");
        let auction = spec(&commands, "auction");
        assert_eq!(
            auction.text(&[("railway".into(), t("GSW"))], "!").0,
            "**auction GSW**"
        );
        let setup = spec(&commands, "setup");
        let user = |id: u64, name: &str| Given::User {
            id,
            name: name.to_string(),
        };
        let (text, shown) = setup.text(
            &[
                ("player2".into(), user(2, "bob")),
                ("player1".into(), user(1, "ann")),
                ("player3".into(), user(3, "cat")),
                ("options".into(), t("dice:manual")),
            ],
            "!",
        );
        assert_eq!(text, "!setup <@1> <@2> <@3> dice:manual");
        assert_eq!(shown, "!setup @ann @bob @cat dice:manual");
        assert_eq!(spec(&commands, "undo").text(&[], "!").0, "!undo");
    }
}
