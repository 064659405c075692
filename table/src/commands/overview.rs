//! Overviews of play over weeks: `!tables` (moderators: every game of the server, who is to
//! act, since when, the deadline, who is away, who the automa covers) and `!pace` (anyone: each
//! player's median time to move, missed deadlines and the time the automa covered them, read
//! from the log: [`crate::weeks::figures`]).

use std::collections::HashSet;

use async_trait::async_trait;
use chrono::{DateTime, Utc};

use crate::commands::registry::{table_command, Access, CommandSpec};
use crate::commands::{Command, Directory};
use crate::game::PlayerInfo;
use crate::input::{channel_ref, Incoming, Response, Verdict};
use crate::messages;
use crate::table::{Current, Cx, Loaded};
use crate::weeks::duration::{format_duration, full};
use crate::weeks::figures::pace;
use crate::weeks::meta::Meta;
use crate::weeks::pace::{decision_data, time_of};

/// `!tables`: every running game of the caller's server, for its moderators.
pub(crate) struct TablesCommand;

/// An automa's name, with the person whose seat it took (`Automa 1 (for cat)`); anyone
/// else's name as it is.
fn with_covered(meta: &Meta, seat: usize, player: &PlayerInfo) -> String {
    let covered = player.is_automa().then(|| {
        meta.subs
            .iter()
            .rev()
            .find(|s| s.seat == seat && s.new.id == player.id && !s.old.is_automa())
    });
    match covered.flatten() {
        Some(sub) => format!("{} (for {})", player.name, sub.old.name),
        None => player.name.clone(),
    }
}

/// One game as `!tables` shows it.
fn overview_of(current: &Current, channel: &str, now: DateTime<Utc>) -> messages::TableLine {
    let meta = current.meta();
    let seated = current.session.seated();
    let away = seated
        .iter()
        .filter_map(|p| {
            let absence = meta.away(&p.id, now)?;
            Some(format!("{} (until {})", p.name, full(absence.until)))
        })
        .collect();
    let covered = seated
        .iter()
        .enumerate()
        .filter(|(_, p)| p.is_automa())
        .map(|(seat, p)| with_covered(&meta, seat, p))
        .collect();
    messages::TableLine {
        channel: channel_ref(channel),
        game_id: current.row.id.clone(),
        title: current.session.info().title.to_string(),
        finished: current.session.is_finished(),
        c: meta
            .clock_of(current.session.to_act(), seated, now)
            .map(|c| decision_data(&c, now)),
        away,
        automa: covered,
    }
}

#[async_trait]
impl Command for TablesCommand {
    fn spec(&self) -> CommandSpec {
        table_command(
            "tables",
            &["games"],
            Access::Moderator,
            &[],
            "every game of this server: who is to act, since when, the deadline, who is away, the automa's seats",
        )
    }

    async fn run(&self, cx: &mut Cx, _args: &str, msg: &Incoming) -> Response {
        // Answered across the tables (`run_from`); here only when asked where no channel is
        // known: this table alone.
        let now = time_of(msg);
        let games = match &cx.loaded {
            Loaded::Running(current) => vec![overview_of(current, &cx.ledger.channel, now)],
            _ => Vec::new(),
        };
        Response::new(Verdict::Answered).say(cx.say(messages::Tables { games }))
    }

    async fn run_from(
        &self,
        tables: &dyn Directory,
        channel: &str,
        _args: &str,
        msg: &Incoming,
    ) -> Option<Response> {
        let host = tables.host().clone();
        if !msg.author.is_moderator {
            return None; // the channel's table refuses it, saying why
        }
        let now = time_of(msg);
        let server = tables.server_of(channel)?;
        let channels = match tables.channels().await {
            Ok(channels) => channels,
            Err(error) => {
                return Some(
                    Response::new(Verdict::Refused).say(host.say(messages::Storage {
                        error: error.to_string(),
                    })),
                )
            }
        };
        let mut games = Vec::new();
        for other in channels {
            if tables.server_of(&other).as_deref() != Some(server.as_str()) {
                continue;
            }
            let Ok(cx) = tables.cx(&other).await else {
                continue;
            };
            if let Loaded::Running(current) = &cx.loaded {
                games.push(overview_of(current, &other, now));
            }
        }
        Some(Response::new(Verdict::Answered).say(host.say(messages::Tables { games })))
    }
}

/// `!pace`: each player's pace, from the log.
pub(crate) struct Pace;

#[async_trait]
impl Command for Pace {
    fn spec(&self) -> CommandSpec {
        table_command(
            "pace",
            &[],
            Access::Anyone,
            &[],
            "each player's median time to move, missed deadlines and time covered by the automa",
        )
    }

    async fn run(&self, cx: &mut Cx, _args: &str, msg: &Incoming) -> Response {
        let Loaded::Running(current) = &cx.loaded else {
            return cx.host.no_game(&cx.loaded);
        };
        let now = time_of(msg);
        let until = if current.session.is_finished() {
            current.log.last().map(|(_, row)| row.at).unwrap_or(now)
        } else {
            now
        };
        let in_force: HashSet<i64> = current.stack.iter().map(|e| e.seq).collect();
        let figures = pace(
            current.row.created_at,
            current
                .log
                .iter()
                .map(|(entry, row)| (row.seq, entry, row.at)),
            &in_force,
            current.session.seated(),
            until,
        );
        let meta = current.meta();
        let seats = figures
            .iter()
            .map(|f| messages::PaceLine {
                player: with_covered(&meta, f.seat, &f.player),
                automa_seat: f.player.is_automa(),
                moves: f.times.len(),
                median: f.median().map(format_duration),
                missed: f.missed,
                automa_moves: f.automa_moves,
                automa_time: (f.automa_time > chrono::Duration::zero())
                    .then(|| format_duration(f.automa_time)),
            })
            .collect();
        Response::new(Verdict::Answered).say(cx.say(messages::PaceFigures {
            game_id: current.row.id.clone(),
            seats,
        }))
    }
}
