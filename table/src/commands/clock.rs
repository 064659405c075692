//! `!clock`: the turn and auction clocks of a game and its reminders (driven by the tick,
//! [`crate::weeks::pace`]): anyone may read them, only a moderator may change them.

use async_trait::async_trait;

use crate::commands::registry::{arg, table_command, Access, ArgKind, ArgSpec, CommandSpec};
use crate::commands::Command;
use crate::game::log::Entry;
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::table::{Cx, Draft};
use crate::weeks::meta::{TableEvent, TimeoutPolicy};
use crate::weeks::pace::{
    bank_lines, clock_data, clock_token, decision_data, duration_error, person, time_of,
};

const CLOCK_ARGS: &[ArgSpec] = &[arg(
    "settings",
    ArgKind::Text,
    false,
    "turn:48h auction:24h timeout:automa hand-over:2 bank:72h add:12h max:120h (off clears); none: show",
)];

/// `!clock [settings]`: shows the clocks (anyone) or sets them (moderators).
pub(crate) struct Clock;

#[async_trait]
impl Command for Clock {
    fn spec(&self) -> CommandSpec {
        CommandSpec {
            example: "clock turn:48h auction:24h remind:50% [away-cap:7d] [timeout:automa] [hand-over:2] [bank:72h add:12h max:120h]",
            ..table_command(
                "clock",
                &["clocks"],
                Access::Anyone,
                CLOCK_ARGS,
                "show the turn and auction clocks and reminders (moderators set them)",
            )
        }
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        let Some(current) = cx.loaded.playing() else {
            return cx.host.not_playing(&cx.loaded);
        };
        let meta = current.meta();
        let now = time_of(msg);
        if args.trim().is_empty() {
            let decision = meta
                .clock_of(current.session.to_act(), current.session.seated(), now)
                .map(|c| decision_data(&c, now));
            return Response::new(Verdict::Answered).say(cx.say(messages::Clock {
                set: false,
                clock: clock_data(&meta.clock),
                decision,
                game_id: current.row.id.clone(),
                banks: bank_lines(
                    &meta,
                    current.session.to_act(),
                    current.session.seated(),
                    now,
                ),
            }));
        }
        if !msg.author.is_moderator {
            return Response::refused(cx.say(messages::ModeratorOnly {
                author: msg.author.name.to_string(),
                command: format!("clock {}", args.trim()),
                ruling: cx.table_ruling(),
            }));
        }
        let mut settings = meta.clock;
        // A bank is set before its increment and cap, wherever they are written.
        let mut tokens: Vec<&str> = args.split_whitespace().collect();
        tokens.sort_by_key(|t| !t.to_ascii_lowercase().starts_with("bank"));
        for token in tokens {
            let Some((key, value)) = token.split_once(':') else {
                return Response::refused(cx.say(messages::ClockUsage {
                    token: token.to_string(),
                }));
            };
            match clock_token(&mut settings, key, value) {
                Ok(true) => {}
                Ok(false) => {
                    return Response::refused(cx.say(messages::ClockUsage {
                        token: token.to_string(),
                    }))
                }
                Err(error) => {
                    return Response::refused(cx.say(messages::BadDuration {
                        error: duration_error(&error),
                    }))
                }
            }
        }
        if settings.timeout == TimeoutPolicy::Pass && !current.plugin.passes_every_decision() {
            return Response::refused(cx.say(messages::ClockNoPass {
                title: current.session.info().title.to_string(),
            }));
        }
        let mut draft = Draft::of(current);
        draft.entries.push(Entry::Table(TableEvent::Clock {
            settings,
            by: person(&msg.author),
        }));
        cx.commit(draft, msg);
        let Some(current) = cx.loaded.playing() else {
            return cx.host.not_playing(&cx.loaded);
        };
        let meta = current.meta();
        let decision = meta
            .clock_of(current.session.to_act(), current.session.seated(), now)
            .map(|c| decision_data(&c, now));
        Response::new(Verdict::Accepted).say(cx.say(messages::Clock {
            set: true,
            clock: clock_data(&settings),
            decision,
            game_id: current.row.id.clone(),
            banks: bank_lines(
                &meta,
                current.session.to_act(),
                current.session.seated(),
                now,
            ),
        }))
    }
}
