//! A slash command's data (kept in poise's `custom_data`): its options, where each option's
//! value goes, who sees the answer, and how the given options make the text for the table.

use std::sync::Arc;

use poise::serenity_prelude::{ResolvedOption, ResolvedValue};

use gaugebot_table::commands::registry::{Access, ArgKind, CommandSpec, Form};
use gaugebot_table::Templates;

use crate::discord::shared::Shared;
use crate::discord::text::Text;

/// poise's user data: the adapter.
pub(crate) struct Data {
    pub(crate) shared: Arc<Shared>,
}

/// The error type of the commands (they report failures themselves and never fail).
pub(crate) type Error = Box<dyn std::error::Error + Send + Sync>;

/// A command as poise holds it.
pub(crate) type SlashCommand = poise::Command<Data, Error>;

pub(crate) type Ctx<'a> = poise::ApplicationContext<'a, Data, Error>;

/// The longest Discord accepts for descriptions, choice names and values.
pub(crate) const DISCORD_TEXT: usize = 100;
/// The option that asks for a private answer.
pub(crate) const PRIVATE: &str = "private";

/// Where a slash option's value goes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Source {
    /// The registry argument of this name.
    Arg(&'static str),
    /// One of the numbered options of a list of users.
    Slot(&'static str),
    /// The `private` flag.
    Private,
}

/// One slash option.
#[derive(Debug, Clone)]
pub(crate) struct Opt {
    pub(crate) name: String,
    pub(crate) kind: ArgKind,
    pub(crate) source: Source,
    pub(crate) required: bool,
}

/// Who sees the answer.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Privacy {
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
    pub(crate) name: &'static str,
    pub(crate) form: Form,
    pub(crate) access: Access,
    /// The registry's arguments, in order (they make the text).
    pub(crate) args: Vec<(&'static str, ArgKind)>,
    pub(crate) options: Vec<Opt>,
    pub(crate) privacy: Privacy,
}

/// A value given for an option.
#[derive(Debug, Clone)]
pub(crate) enum Given {
    Text(String),
    User { id: u64, name: String },
}

impl Given {
    pub(crate) fn as_text(&self) -> String {
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

pub(crate) fn cut(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_string();
    }
    let mut out: String = text.chars().take(max.saturating_sub(1)).collect();
    out.push('…');
    out
}

impl Spec {
    /// The spec of the commands named alike (several games may have a `bid`): the first's
    /// form and access, the union of their arguments; `private`: the command answers the asker
    /// only (its handler says so in the registry).
    pub(crate) fn of(specs: &[&CommandSpec], players: (usize, usize), private: bool) -> Spec {
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
            (Form::Bang, Access::Anyone) if private => Privacy::Always,
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
    pub(crate) fn help(specs: &[&CommandSpec], option: &Opt, templates: &Templates) -> String {
        let registry_help = |name: &str| {
            specs
                .iter()
                .flat_map(|s| s.args.iter())
                .find(|a| a.name == name)
                .map(|a| a.help.to_string())
        };
        let help = match &option.source {
            Source::Private => Text::PrivateOption.render(templates),
            Source::Arg(name) | Source::Slot(name) => {
                registry_help(name).unwrap_or_else(|| Text::UnknownOption.render(templates))
            }
        };
        match &option.source {
            Source::Slot(_) => cut(&format!("{help} ({})", option.name), DISCORD_TEXT),
            _ => cut(&help, DISCORD_TEXT),
        }
    }

    /// The text for the table and the text shown in the echo (names for mentions).
    pub(crate) fn text(&self, given: &[(String, Given)], prefix: &str) -> (String, String) {
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

/// The options given, by name (the focused one of an autocomplete left out).
pub(crate) fn given(args: &[ResolvedOption<'_>]) -> Vec<(String, Given)> {
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
