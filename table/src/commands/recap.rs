//! `!recap [2d]`: what happened since the caller last posted in the game, or over the time
//! given (for spectators too), complete; answered privately on slash.

use async_trait::async_trait;

use crate::commands::registry::{arg, table_command, Access, ArgKind, ArgSpec, CommandSpec};
use crate::commands::Command;
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::table::recap::{Length, Since};
use crate::table::{Cx, Loaded};
use crate::weeks::duration::parse_duration;
use crate::weeks::pace::{duration_error, time_of};

const RECAP_ARGS: &[ArgSpec] = &[arg(
    "since",
    ArgKind::Text,
    false,
    "how far back, e.g. 2d (default: since you last posted here, or a day)",
)];

/// `!recap [2d]`.
pub(crate) struct RecapCommand;

#[async_trait]
impl Command for RecapCommand {
    fn spec(&self) -> CommandSpec {
        table_command(
            "recap",
            &["catchup"],
            Access::Anyone,
            RECAP_ARGS,
            "what happened since you last posted here, or over the time given",
        )
    }

    fn answers_privately(&self) -> bool {
        true
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        let Loaded::Running(current) = &cx.loaded else {
            return cx.host.no_game(&cx.loaded);
        };
        let seat = current.seat_of(&msg.author);
        let now = time_of(msg);
        let since = match (args.trim(), seat) {
            ("", Some(seat)) => {
                Since::LastPostOf(seat, current.last_post(&cx.posts, &msg.author.id))
            }
            ("", None) => Since::Time(now - chrono::Duration::days(1)),
            (text, _) => match parse_duration(text) {
                Ok(back) => Since::Time(now - back),
                Err(error) => {
                    return Response::refused(cx.say(messages::BadDuration {
                        error: duration_error(&error),
                    }))
                }
            },
        };
        match current.recap(seat, since, Length::Complete) {
            Some(recap) => {
                let text = cx.say(recap);
                // The player has caught up: their next recap starts here.
                cx.note_post(msg);
                Response::new(Verdict::Answered).say(text)
            }
            None => cx.host.no_game(&cx.loaded),
        }
    }
}

/// `!chart`: every player's net worth move by move, as a picture.
pub(crate) struct Chart;

#[async_trait]
impl Command for Chart {
    fn spec(&self) -> CommandSpec {
        table_command(
            "chart",
            &["graph"],
            Access::Anyone,
            &[],
            "every player's net worth move by move, as a picture",
        )
    }

    async fn run(&self, cx: &mut Cx, _args: &str, _msg: &Incoming) -> Response {
        let Loaded::Running(current) = &cx.loaded else {
            return cx.host.no_game(&cx.loaded);
        };
        match current.chart_attachment(&cx.host) {
            Some(chart) => Response::new(Verdict::Answered)
                .say(cx.say(messages::ChartPosted {
                    title: current.plugin.info().title.to_string(),
                    game_id: current.row.id.clone(),
                    now: current.net_worth_now(),
                }))
                .attach(Some(chart)),
            None => Response::refused(cx.say(messages::NoChart {
                title: current.plugin.info().title.to_string(),
            })),
        }
    }
}
