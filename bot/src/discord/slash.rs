//! Slash commands, derived at start-up from the command registry (the table's commands and
//! every game's), built as poise 0.6 `Command` values at run time: one generic action and one
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
//! Every invocation is deferred at once (Discord wants an answer within 3 s), then runs in the
//! channel's queue like a message (`invoke`); an accepted one is posted in the channel in the
//! forum's form, and the user gets a short private confirmation or the refusal.

use std::sync::Arc;
use std::time::Duration;

use poise::serenity_prelude as serenity;
use serenity::builder::Builder as _;
use serenity::{
    AutocompleteChoice, CommandInteraction, CommandOptionType, CreateAllowedMentions,
    CreateAttachment, CreateAutocompleteResponse, CreateCommandOption,
    CreateInteractionResponseFollowup, Http, Member, Permissions, ResolvedOption, ResolvedValue,
    User,
};
use tokio::sync::oneshot;

use gaugebot_table::commands::registry::{Access, ArgKind, CommandSpec, Form};
use gaugebot_table::game::Query;
use gaugebot_table::input::{Author, Incoming, Mention, Response, Verdict};
use gaugebot_table::Host;

use super::deliver::retry;
use super::invoke::{Echo, Invocation, Outcome};
use super::worker::{display_name, Job, Shared};
use crate::console::now_rfc3339;

/// poise's user data: the adapter.
pub(crate) struct Data {
    pub(crate) shared: Arc<Shared>,
}

/// The error type of the commands (they report failures themselves and never fail).
pub(crate) type Error = Box<dyn std::error::Error + Send + Sync>;

/// A command as poise holds it.
pub(crate) type SlashCommand = poise::Command<Data, Error>;

type Ctx<'a> = poise::ApplicationContext<'a, Data, Error>;

/// The longest Discord accepts for descriptions, choice names and values.
const DISCORD_TEXT: usize = 100;
/// The most autocomplete choices Discord shows.
const MAX_CHOICES: usize = 25;
/// How long an autocomplete waits for the table (Discord gives 3 s).
const AUTOCOMPLETE_WAIT: Duration = Duration::from_millis(2_000);
/// How long an invocation waits for its channel's queue (an interaction token lasts 15 min).
const INVOKE_WAIT: Duration = Duration::from_secs(600);
/// `!`-commands whose answers only the user sees.
const ALWAYS_PRIVATE: &[&str] = &["moves", "help"];
/// The option that asks for a private answer.
const PRIVATE: &str = "private";

/// Where a slash option's value goes.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Source {
    /// The registry argument of this name.
    Arg(&'static str),
    /// One of the numbered options of a list of users.
    Slot(&'static str),
    /// The `private` flag.
    Private,
}

/// One slash option.
#[derive(Debug, Clone)]
struct Opt {
    name: String,
    kind: ArgKind,
    source: Source,
    required: bool,
}

/// Who sees the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Privacy {
    /// Moves and moderator commands: the user gets a private confirmation or refusal; an
    /// accepted one is posted in the channel.
    Confirm,
    /// Information: in the channel, unless `private` is set.
    Optional,
    /// Information only for the user.
    Always,
}

/// What a slash command does, kept in its `custom_data`.
#[derive(Debug, Clone)]
pub(crate) struct Spec {
    name: &'static str,
    form: Form,
    access: Access,
    /// The registry's arguments, in order (they make the text).
    args: Vec<(&'static str, ArgKind)>,
    options: Vec<Opt>,
    privacy: Privacy,
}

/// A value given for an option.
#[derive(Debug, Clone)]
enum Given {
    Text(String),
    User { id: u64, name: String },
}

impl Given {
    fn as_text(&self) -> String {
        match self {
            Given::Text(t) => t.clone(),
            Given::User { id, .. } => format!("<@{id}>"),
        }
    }

    fn as_shown(&self) -> String {
        match self {
            Given::Text(t) => t.clone(),
            Given::User { name, .. } => format!("@{name}"),
        }
    }
}

fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

impl Spec {
    /// The spec of the commands named alike (several games may have a `bid`): the first's
    /// form and access, the union of their arguments.
    fn of(specs: &[&CommandSpec], players: (usize, usize)) -> Spec {
        let first = specs[0];
        let mut args: Vec<(&'static str, ArgKind, bool, &'static str)> = Vec::new();
        for spec in specs {
            for arg in spec.args {
                match args.iter_mut().find(|(n, ..)| *n == arg.name) {
                    Some(known) => known.2 &= arg.required,
                    None => {
                        args.push((arg.name, arg.kind, arg.required && spec == &first, arg.help))
                    }
                }
            }
        }
        let mut options = Vec::new();
        for (name, kind, required, _) in &args {
            match kind {
                ArgKind::Users => {
                    let stem = name.strip_suffix('s').unwrap_or(name);
                    for i in 1..=players.1.max(1) {
                        options.push(Opt {
                            name: format!("{stem}{i}"),
                            kind: ArgKind::User,
                            source: Source::Slot(name),
                            required: *required && i <= players.0,
                        });
                    }
                }
                _ => options.push(Opt {
                    name: name.to_string(),
                    kind: *kind,
                    source: Source::Arg(name),
                    required: *required,
                }),
            }
        }
        let privacy = match (first.form, first.access) {
            (Form::Bang, Access::Anyone) if ALWAYS_PRIVATE.contains(&first.name) => Privacy::Always,
            (Form::Bang, Access::Anyone) => Privacy::Optional,
            _ => Privacy::Confirm,
        };
        if privacy == Privacy::Optional {
            options.push(Opt {
                name: PRIVATE.to_string(),
                kind: ArgKind::Choice(&[]),
                source: Source::Private,
                required: false,
            });
        }
        // Discord wants the required options first.
        options.sort_by_key(|o| !o.required);
        Spec {
            name: first.name,
            form: first.form,
            access: first.access,
            args: args.iter().map(|(n, k, ..)| (*n, *k)).collect(),
            options,
            privacy,
        }
    }

    /// The help of an option.
    fn help(specs: &[&CommandSpec], option: &Opt) -> String {
        let help = match &option.source {
            Source::Private => "answer only to you",
            Source::Arg(name) | Source::Slot(name) => specs
                .iter()
                .flat_map(|s| s.args.iter())
                .find(|a| a.name == *name)
                .map(|a| a.help)
                .unwrap_or("a value"),
        };
        match &option.source {
            Source::Slot(_) => cut(&format!("{help} ({})", option.name), DISCORD_TEXT),
            _ => cut(help, DISCORD_TEXT),
        }
    }

    /// The text for the table and the text shown in the echo (names for mentions).
    fn text(&self, given: &[(String, Given)], prefix: &str) -> (String, String) {
        let mut text = Vec::new();
        let mut shown = Vec::new();
        for (name, kind) in &self.args {
            let values: Vec<&Given> = self
                .options
                .iter()
                .filter(|o| match (&o.source, kind) {
                    (Source::Slot(arg), ArgKind::Users) | (Source::Arg(arg), _) => arg == name,
                    _ => false,
                })
                .filter_map(|o| given.iter().find(|(n, _)| *n == o.name).map(|(_, v)| v))
                .collect();
            for value in values {
                text.push(value.as_text());
                shown.push(value.as_shown());
            }
        }
        let join = |words: &[String]| {
            let mut line = self.name.to_string();
            for w in words.iter().filter(|w| !w.trim().is_empty()) {
                line.push(' ');
                line.push_str(w.trim());
            }
            line
        };
        match self.form {
            Form::Move => (format!("**{}**", join(&text)), join(&shown)),
            Form::Bang => (
                format!("{prefix}{}", join(&text)),
                format!("{prefix}{}", join(&shown)),
            ),
        }
    }
}

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
    for spec in host.registry.all() {
        if !names.contains(&spec.name) {
            names.push(spec.name);
        }
    }
    names
        .into_iter()
        .map(|name| {
            let all: Vec<&CommandSpec> = host
                .registry
                .all()
                .iter()
                .filter(|c| c.name == name)
                .collect();
            let form = all[0].form;
            let alike: Vec<&CommandSpec> = all.into_iter().filter(|c| c.form == form).collect();
            command(&alike, players)
        })
        .collect()
}

fn command(specs: &[&CommandSpec], players: (usize, usize)) -> SlashCommand {
    let spec = Spec::of(specs, players);
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
                name: o.name.clone(),
                name_localizations: Default::default(),
                description: Some(Spec::help(specs, o)),
                description_localizations: Default::default(),
                required: o.required,
                channel_types: None,
                choices: Vec::new(),
                type_setter: Some(match (&o.source, o.kind) {
                    (Source::Private, _) => boolean_option,
                    (_, ArgKind::Integer) => integer_option,
                    (_, ArgKind::User | ArgKind::Users) => user_option,
                    _ => string_option,
                }),
                autocomplete_callback: if autocomplete {
                    Some(autocomplete_action)
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
        name: spec.name.to_string(),
        qualified_name: spec.name.to_string(),
        identifying_name: spec.name.to_string(),
        description: Some(cut(&summary, DISCORD_TEXT)),
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

fn autocomplete_action<'a>(
    ctx: Ctx<'a>,
    typed: &'a str,
) -> poise::BoxFuture<'a, Result<CreateAutocompleteResponse, poise::SlashArgError>> {
    Box::pin(async move { Ok(autocomplete(ctx, typed).await) })
}

/// The options given, by name (the focused one of an autocomplete left out).
fn given(args: &[ResolvedOption<'_>]) -> Vec<(String, Given)> {
    args.iter()
        .filter_map(|o| {
            let value = match &o.value {
                ResolvedValue::String(s) => Given::Text(s.to_string()),
                ResolvedValue::Integer(i) => Given::Text(i.to_string()),
                ResolvedValue::Number(n) => Given::Text(n.to_string()),
                ResolvedValue::Boolean(b) => Given::Text(b.to_string()),
                ResolvedValue::User(user, member) => Given::User {
                    id: user.id.get(),
                    name: member
                        .and_then(|m| m.nick.clone())
                        .or_else(|| user.global_name.clone())
                        .filter(|n| !n.trim().is_empty())
                        .unwrap_or_else(|| user.name.clone()),
                },
                _ => return None,
            };
            Some((o.name.to_string(), value))
        })
        .collect()
}

/// The user who invoked an interaction.
pub(crate) async fn author(
    shared: &Shared,
    channel: serenity::ChannelId,
    guild: Option<serenity::GuildId>,
    member: Option<&Member>,
    user: &User,
    check_moderator: bool,
) -> Author {
    let user = member.map(|m| &m.user).unwrap_or(user);
    let name = member
        .and_then(|m| m.nick.clone())
        .filter(|n| !n.trim().is_empty())
        .unwrap_or_else(|| display_name(user, None));
    let is_moderator = check_moderator
        && shared
            .perms
            .is_moderator_member(
                channel,
                guild,
                user.id,
                member.map(|m| m.roles.as_slice()).unwrap_or(&[]),
                member.and_then(|m| m.permissions),
            )
            .await;
    Author {
        id: user.id.to_string(),
        name,
        is_moderator,
    }
}

/// When an interaction was made (its snowflake's time), in RFC 3339.
pub(crate) fn interaction_time(id: serenity::InteractionId) -> String {
    id.created_at().to_rfc3339().unwrap_or_else(now_rfc3339)
}

/// The poise framework serving the registry's slash commands: they are registered on the first
/// READY (globally, or in `guilds`), and every invocation and autocomplete is dispatched here.
pub(crate) fn framework(shared: Arc<Shared>, guilds: Vec<u64>) -> poise::Framework<Data, Error> {
    let commands = commands(shared.tables.host());
    let options = poise::FrameworkOptions {
        commands,
        // No prefix commands: messages are the adapter's.
        prefix_options: poise::PrefixFrameworkOptions::default(),
        initialize_owners: false,
        on_error: |error| {
            Box::pin(async move {
                tracing::warn!(error = %error, "slash command error");
            })
        },
        ..Default::default()
    };
    poise::Framework::builder()
        .options(options)
        .setup(move |ctx, _ready, framework| {
            Box::pin(async move {
                register(&ctx.http, &framework.options().commands, &guilds).await;
                Ok(Data { shared })
            })
        })
        .build()
}

/// Registers the commands (a bulk overwrite: commands no longer in the registry disappear).
/// A failure is logged: the bot still reads messages.
async fn register(http: &Arc<Http>, commands: &[SlashCommand], guilds: &[u64]) {
    let built = poise::builtins::create_application_commands(commands);
    let count = built.len();
    let channel = serenity::ChannelId::new(1);
    if guilds.is_empty() {
        let done = retry("register the slash commands", channel, || {
            serenity::Command::set_global_commands(&**http, built.clone())
        })
        .await;
        if done.is_ok() {
            tracing::info!(count, "slash commands registered");
        }
    } else {
        for guild in guilds.iter().filter(|g| **g != 0) {
            let guild = serenity::GuildId::new(*guild);
            let done = retry("register the slash commands", channel, || {
                guild.set_commands(&**http, built.clone())
            })
            .await;
            if done.is_ok() {
                tracing::info!(count, %guild, "slash commands registered in a server");
            }
        }
    }
}

/// Queues an interaction in its channel and waits for the outcome.
pub(crate) async fn submit(
    shared: &Arc<Shared>,
    channel: serenity::ChannelId,
    incoming: Incoming,
    expect: Option<(String, usize)>,
    echo: Echo,
) -> Outcome {
    let (done, outcome) = oneshot::channel();
    shared.enqueue(
        channel,
        Job::Interaction(Box::new(Invocation {
            incoming,
            expect,
            echo,
            done,
        })),
    );
    match tokio::time::timeout(INVOKE_WAIT, outcome).await {
        Ok(Ok(outcome)) => outcome,
        _ => Outcome::Failed,
    }
}

async fn run(ctx: Ctx<'_>) {
    let Some(spec) = ctx.command.custom_data.downcast_ref::<Spec>() else {
        return;
    };
    let shared = &ctx.data.shared;
    let interaction: &CommandInteraction = ctx.interaction;
    let values = given(ctx.args);
    let private = match spec.privacy {
        Privacy::Always | Privacy::Confirm => true,
        Privacy::Optional => values
            .iter()
            .any(|(n, v)| n == PRIVATE && matches!(v, Given::Text(t) if t == "true")),
    };
    // First of all: Discord wants an answer within 3 s.
    if let Err(error) = ctx.defer_response(private).await {
        tracing::warn!(channel = %interaction.channel_id, %error, "cannot acknowledge a slash command");
        return;
    }
    let (text, shown) = spec.text(&values, &shared.prefix);
    let author = author(
        shared,
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
            }),
            Given::Text(_) => None,
        })
        .collect();
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
        &ctx.serenity_context.http,
        interaction.channel_id,
        &interaction.token,
        outcome,
        private,
    )
    .await;
}

/// Answers a deferred interaction with its outcome: a confirmation of an accepted command (it
/// is posted in the channel already), or the table's replies (files attached).
pub(crate) async fn answer(
    http: &Arc<Http>,
    channel: serenity::ChannelId,
    token: &str,
    outcome: Outcome,
    private: bool,
) {
    let texts: Vec<(String, Option<CreateAttachment>)> = match outcome {
        Outcome::Handled(response) => replies(&response),
        Outcome::Stale => vec![(
            "That button belongs to an earlier prompt and the game has moved on; nothing was done. Use the latest prompt or a slash command."
                .to_string(),
            None,
        )],
        Outcome::Failed => vec![(
            "The game could not be loaded; nothing was done. A moderator can look at the bot's log."
                .to_string(),
            None,
        )],
    };
    for (text, file) in texts {
        let mut followup = CreateInteractionResponseFollowup::new()
            .ephemeral(private)
            .allowed_mentions(CreateAllowedMentions::new());
        if !text.is_empty() {
            followup = followup.content(text);
        }
        if let Some(file) = file {
            followup = followup.add_file(file);
        }
        let _ = retry("answer an interaction", channel, || {
            followup.clone().execute(&**http, (None, token))
        })
        .await;
    }
}

/// What the user is told, message by message.
fn replies(response: &Response) -> Vec<(String, Option<CreateAttachment>)> {
    match response.verdict {
        Verdict::Accepted => {
            let done = if response.moves.is_empty() {
                "✅ Done; posted in the channel.".to_string()
            } else {
                let moves: Vec<String> =
                    response.moves.iter().map(|m| format!("**{m}**")).collect();
                format!("✅ {}: posted in the channel.", moves.join(" "))
            };
            vec![(done, None)]
        }
        Verdict::Duplicate => vec![("That was handled already.".to_string(), None)],
        Verdict::Ignored if response.replies.is_empty() => {
            vec![("Nothing to do.".to_string(), None)]
        }
        _ => response
            .replies
            .iter()
            .filter(|r| !r.text.trim().is_empty() || r.attachment.is_some())
            .map(|r| {
                (
                    r.text.clone(),
                    r.attachment
                        .as_ref()
                        .map(|a| CreateAttachment::bytes(a.bytes.clone(), a.filename.clone())),
                )
            })
            .collect(),
    }
}

async fn autocomplete(ctx: Ctx<'_>, typed: &str) -> CreateAutocompleteResponse {
    let mut response = CreateAutocompleteResponse::new();
    let Some(spec) = ctx.command.custom_data.downcast_ref::<Spec>() else {
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
    let shared = &ctx.data.shared;
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

#[cfg(test)]
mod tests {
    use super::*;
    use gaugebot_table::{TableSettings, Templates};

    fn host() -> Host {
        let games = crate::games::registry();
        let templates = Templates::load(None, &games).expect("templates");
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
        for c in host.registry.all() {
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
            .map(|p| (p.name.as_str(), p.required))
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
