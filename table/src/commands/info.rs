//! The table's informational commands: `!status`, `!moves`, `!map`, `!log`, `!help`.

use async_trait::async_trait;
use minijinja::context;
use serde::Serialize;

use crate::commands::registry::{arg, table_command, Access, ArgKind, ArgSpec, CommandSpec, Form};
use crate::commands::Command;
use crate::game::log::Entry;
use crate::game::ToAct;
use crate::input::{Incoming, Page, Response, Verdict};
use crate::messages;
use crate::table::history::{self, Asked};
use crate::table::{Current, Cx, Loaded};
use crate::weeks::duration::full;
use crate::weeks::meta::{Meta, ReminderKind, TableEvent};
use crate::weeks::pace::{clock_data, name_at};

#[derive(Serialize)]
struct HelpCommand {
    usage: String,
    summary: &'static str,
    access: &'static str,
    /// The game it belongs to, when help covers several.
    game: Option<&'static str>,
}

/// One game's moves in `!help`.
#[derive(Serialize)]
struct MoveGroup {
    /// The game's title, when help covers several.
    title: Option<&'static str>,
    moves: Vec<HelpCommand>,
}

/// `!status [N]`: the status report, now or after record entry N.
pub(crate) struct Status;

const ENTRY_ARGS: &[ArgSpec] = &[arg(
    "entry",
    ArgKind::Integer,
    false,
    "the position after this record entry (!log numbers them); now without it",
)];

#[async_trait]
impl Command for Status {
    fn spec(&self) -> CommandSpec {
        table_command(
            "status",
            &[],
            Access::Anyone,
            ENTRY_ARGS,
            "the status report (now or after a record entry), with the standing and the clock",
        )
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        match &cx.loaded {
            Loaded::Running(current) => match past_or_now(cx, current, args, "status") {
                Err(refusal) => *refusal,
                Ok(None) => {
                    let view = cx.host.view(current);
                    let mut text = view.report().to_string();
                    // With time banks, each player's bank under the report.
                    let now = crate::weeks::pace::time_of(msg);
                    let banks = crate::weeks::pace::bank_lines(
                        &current.meta(),
                        current.session.to_act(),
                        current.session.seated(),
                        now,
                    );
                    if !banks.is_empty() && !current.session.is_finished() {
                        let line = cx.say(messages::Banks { banks });
                        text = format!("{}\n{}", text.trim_end(), line.trim_end());
                    }
                    // The score and the clock: the standing, the end, the player to act, who is
                    // away (and, once over, who held the seats that changed hands).
                    for part in [
                        view.standing(now),
                        if current.session.is_finished() {
                            view.ending_notes()
                        } else {
                            String::new()
                        },
                    ] {
                        if !part.trim().is_empty() {
                            text.push('\n');
                            text.push_str(part.trim_end());
                        }
                    }
                    Response::new(Verdict::Answered)
                        .say(text)
                        .page(page(current, None))
                }
                Ok(Some((entry, past))) => Response::new(Verdict::Answered)
                    .say(format!(
                        "{}\n{}",
                        past_head(cx, current, entry, "status"),
                        cx.host.view(&past).report()
                    ))
                    .page(page(current, Some(entry))),
            },
            Loaded::Frozen(frozen) => {
                Response::new(Verdict::Answered).say(cx.host.frozen_text(frozen))
            }
            Loaded::Empty => cx.host.no_game(&cx.loaded),
        }
    }
}

/// Which position a command's `args` ask for: `None` for now, or the entry and the position
/// after it; a refusal for an entry the record does not have.
fn past_or_now(
    cx: &Cx,
    current: &Current,
    args: &str,
    command: &str,
) -> Result<Option<(i64, Current)>, Box<Response>> {
    let refuse = |asked: String| {
        let entries = history::entries(current);
        Box::new(Response::refused(cx.say(messages::NoSuchEntry {
            game_id: current.row.id.clone(),
            asked,
            first: entries.map(|e| e.0),
            last: entries.map(|e| e.1),
            command: command.to_string(),
        })))
    };
    match Asked::read(args) {
        Err(asked) => Err(refuse(asked.trim_start_matches('#').to_string())),
        Ok(Asked::Now) => Ok(None),
        Ok(Asked::After(entry)) => match cx.host.past(current, entry) {
            Some(past) => Ok(Some((entry, past))),
            None => Err(refuse(entry.to_string())),
        },
    }
}

/// Which position a status report shows, for the transport's ◀ ▶.
fn page(current: &Current, entry: Option<i64>) -> Page {
    Page {
        game_id: current.row.id.clone(),
        entry,
        entries: history::entries(current),
    }
}

/// The head of a past position: which entry it follows, what that entry was and when.
fn past_head(cx: &Cx, current: &Current, entry: i64, command: &str) -> String {
    let (first, last) = history::entries(current).unwrap_or((entry, entry));
    let index = current.log.iter().position(|(_, row)| row.seq == entry);
    let (what, at) = match index.and_then(|i| current.log.get(i).map(|e| (i, e))) {
        Some((i, (logged, row))) => {
            let previous = i
                .checked_sub(1)
                .and_then(|p| current.log.get(p))
                .map(|(e, _)| e);
            let what = match logged {
                Entry::Action { .. } => {
                    describe_move(cx, current, &current.meta(), row.seq, logged, previous)
                }
                _ => describe_entry(cx, current, logged, &row.author_name),
            };
            (what, row.at.format("%Y-%m-%d %H:%M UTC").to_string())
        }
        None => (String::new(), String::new()),
    };
    cx.say(messages::PastPosition {
        game_id: current.row.id.clone(),
        entry,
        first,
        last,
        what,
        at,
        command: command.to_string(),
    })
}

/// `!moves`: the legal moves of the player to act.
pub(crate) struct Moves;

#[async_trait]
impl Command for Moves {
    fn spec(&self) -> CommandSpec {
        table_command(
            "moves",
            &[],
            Access::Anyone,
            &[],
            "the legal moves of the player to act",
        )
    }

    fn answers_privately(&self) -> bool {
        true
    }

    async fn run(&self, cx: &mut Cx, _args: &str, msg: &Incoming) -> Response {
        let Loaded::Running(current) = &cx.loaded else {
            return cx.host.no_game(&cx.loaded);
        };
        let render = cx.host.view(current).render(false, None);
        if let ToAct::Player { seat, .. } = current.session.to_act() {
            if current.seat_of(&msg.author) != Some(seat) {
                let player = current
                    .session
                    .seated()
                    .get(seat)
                    .map(|p| p.name.clone())
                    .unwrap_or_default();
                return Response::new(Verdict::Answered).say(cx.say(messages::NotYourMove {
                    player: player.to_string(),
                    prompt: current.session.prompt(&render).to_string(),
                }));
            }
        }
        Response::new(Verdict::Answered).say(current.session.moves(&render))
    }
}

/// `!map [N]`: the board as a picture, now or after record entry N.
pub(crate) struct Map;

#[async_trait]
impl Command for Map {
    fn spec(&self) -> CommandSpec {
        table_command(
            "map",
            &[],
            Access::Anyone,
            ENTRY_ARGS,
            "the board as a picture, now or after a record entry",
        )
    }

    async fn run(&self, cx: &mut Cx, args: &str, _msg: &Incoming) -> Response {
        let Loaded::Running(current) = &cx.loaded else {
            return cx.host.no_game(&cx.loaded);
        };
        let (said, picture) = match past_or_now(cx, current, args, "map") {
            Err(refusal) => return *refusal,
            Ok(None) => (
                cx.say(messages::Map {}),
                cx.host.view(current).picture_attachment(),
            ),
            Ok(Some((entry, past))) => (
                cx.say(messages::MapPast { entry }),
                cx.host.view(&past).picture_attachment_after(entry),
            ),
        };
        match picture {
            Some(Ok(picture)) => Response::new(Verdict::Answered)
                .say(said)
                .attach(Some(picture)),
            Some(Err(reason)) => Response::refused(cx.say(messages::NoMap {
                reason: reason.to_string(),
            })),
            None => Response::refused(cx.say(messages::NoPicture {
                title: current.session.info().title.to_string(),
            })),
        }
    }
}

const LOG_ARGS: &[ArgSpec] = &[arg(
    "n",
    ArgKind::Integer,
    false,
    "how many entries (10; at most 50)",
)];

/// `!log [n]`: the last log entries, undone ones struck through.
pub(crate) struct Log;

#[async_trait]
impl Command for Log {
    fn spec(&self) -> CommandSpec {
        table_command(
            "log",
            &[],
            Access::Anyone,
            LOG_ARGS,
            "the last log entries, undone ones struck through",
        )
    }

    async fn run(&self, cx: &mut Cx, args: &str, _msg: &Incoming) -> Response {
        let Loaded::Running(current) = &cx.loaded else {
            return cx.host.no_game(&cx.loaded);
        };
        let count: usize = args.trim().parse().unwrap_or(10).clamp(1, 50);
        let in_force: std::collections::HashSet<i64> =
            current.stack.iter().map(|e| e.seq).collect();
        // The last `count` entries shown: a proxy marker is shown with its move, not counted.
        let mut shown = 0;
        let mut start = current.log.len();
        while start > 0 && shown < count {
            start -= 1;
            if !matches!(current.log[start].0, Entry::Table(TableEvent::Proxy { .. })) {
                shown += 1;
            }
        }
        let meta = current.meta();
        let lines: Vec<messages::LogLine> = current.log[start..]
            .iter()
            .enumerate()
            .filter_map(|(i, (entry, row))| {
                let previous = (start + i)
                    .checked_sub(1)
                    .and_then(|p| current.log.get(p))
                    .map(|(e, _)| e);
                let what = match entry {
                    Entry::Table(event) => describe_table_event(cx, event, &row.author_name)?,
                    Entry::Action { .. } => {
                        describe_move(cx, current, &meta, row.seq, entry, previous)
                    }
                    Entry::Undo => cx.say(messages::LogUndo {
                        author: row.author_name.clone(),
                        takeback: matches!(
                            previous,
                            Some(Entry::Table(TableEvent::TakeBack { .. }))
                        ),
                    }),
                    _ => describe_entry(cx, current, entry, &row.author_name),
                };
                Some(messages::LogLine {
                    seq: row.seq,
                    undone: entry.is_play() && !in_force.contains(&row.seq),
                    what,
                    // To the second: the stored time has nanoseconds no reader needs.
                    at: row.at.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
                })
            })
            .collect();
        Response::new(Verdict::Answered).say(cx.say(messages::Log {
            game_id: current.row.id.to_string(),
            total: current.log.len(),
            lines,
        }))
    }
}

fn describe_entry(cx: &Cx, current: &Current, entry: &Entry, author: &str) -> String {
    match entry {
        Entry::Action { .. } => current.session.describe(entry, false),
        Entry::Draw { manual, .. } => format!(
            "draw: {} ({})",
            current.session.describe(entry, false),
            if *manual { "moderator" } else { "audited dice" }
        ),
        Entry::Undo => cx.say(messages::LogUndo {
            author: author.to_string(),
            takeback: false,
        }),
        Entry::Reveal => "seed revealed".to_string(),
        Entry::Table(event) => describe_table_event(cx, event, author).unwrap_or_default(),
    }
}

/// A log line for a table entry; `None` for a marker shown with its move.
fn describe_table_event(cx: &Cx, event: &TableEvent, author: &str) -> Option<String> {
    let data = match event {
        TableEvent::Proxy { .. } | TableEvent::TakeBack { .. } => return None,
        TableEvent::Clock { settings, by } => messages::LogEvent {
            event: "clock".into(),
            by: by.name.clone(),
            clock: clock_data(settings),
            ..Default::default()
        },
        TableEvent::Away {
            name,
            until,
            reason,
            cover,
            ..
        } => messages::LogEvent {
            event: "away".into(),
            player: Some(name.clone()),
            reason: reason.clone(),
            cover: *cover,
            until: crate::weeks::duration::parse_time(until)
                .map(full)
                .unwrap_or_else(|| until.clone()),
            ..Default::default()
        },
        TableEvent::Back { name, .. } => messages::LogEvent {
            event: "back".into(),
            player: Some(name.clone()),
            ..Default::default()
        },
        TableEvent::Sub { seat, old, new, by } => messages::LogEvent {
            event: "sub".into(),
            old: old.name.clone(),
            new: new.name.clone(),
            seat: seat + 1,
            by: by.name.clone(),
            ..Default::default()
        },
        TableEvent::HandOver {
            player, timeouts, ..
        } => messages::LogEvent {
            event: "hand_over".into(),
            player: Some(player.name.clone()),
            timeouts: *timeouts,
            ..Default::default()
        },
        TableEvent::Reclaim { player, .. } => messages::LogEvent {
            event: "reclaim".into(),
            player: Some(player.name.clone()),
            ..Default::default()
        },
        TableEvent::Reminded { seat, kind, .. } => messages::LogEvent {
            event: "reminded".into(),
            player: match &cx.loaded {
                Loaded::Running(c) => c.session.seated().get(*seat).map(|p| p.name.clone()),
                _ => None,
            },
            author: author.to_string(),
            deadline: *kind == ReminderKind::Deadline,
            ..Default::default()
        },
    };
    Some(cx.say(data))
}

/// A logged move in words, with the name the seat had then and, for a move made for the
/// seat, why (`previous` is the entry before it).
fn describe_move(
    cx: &Cx,
    current: &Current,
    meta: &Meta,
    seq: i64,
    entry: &Entry,
    previous: Option<&Entry>,
) -> String {
    let Entry::Action { seat, .. } = entry else {
        return current.session.describe(entry, false);
    };
    let player = name_at(meta, current.session.seated(), *seat, seq);
    history::logged_move(&cx.host, current.session.as_ref(), &player, entry, previous)
        .unwrap_or_else(|| current.session.describe(entry, false))
}

const HELP_ARGS: &[ArgSpec] = &[arg("topic", ArgKind::Text, false, "a command or topic")];

/// `!help [topic]`: the commands, or one command or topic.
pub(crate) struct Help;

#[async_trait]
impl Command for Help {
    fn spec(&self) -> CommandSpec {
        table_command("help", &[], Access::Anyone, HELP_ARGS, "this help")
    }

    fn answers_privately(&self) -> bool {
        true
    }

    async fn run(&self, cx: &mut Cx, args: &str, _msg: &Incoming) -> Response {
        let topic = args.trim().trim_start_matches(&*cx.host.settings.prefix);
        let mut topic = topic.to_ascii_lowercase();
        let prefix = &cx.host.settings.prefix;
        let running = match &cx.loaded {
            Loaded::Running(c) => Some(c.row.kind.clone()),
            _ => None,
        };
        // The help of the game being played; `!help privates` asks for one game's overview;
        // with no game running it covers every game.
        let named = cx.host.game(&topic).cloned();
        if named.is_some() {
            topic = String::new();
        }
        let games: Vec<&crate::game::session::SharedPlugin> = match named
            .as_ref()
            .or_else(|| running.as_deref().and_then(|k| cx.host.game(k)))
        {
            Some(game) => vec![game],
            None => cx.host.games.iter().collect(),
        };
        let one_game = games.len() == 1;
        let kinds_shown: Vec<&str> = games.iter().map(|g| g.info().kind).collect();
        let unused: Vec<&str> = if one_game {
            games[0].unused_table_commands().to_vec()
        } else {
            Vec::new()
        };
        let visible: Vec<&CommandSpec> = cx
            .host
            .commands
            .for_game(None)
            .chain(kinds_shown.iter().flat_map(|k| {
                cx.host
                    .commands
                    .for_game(Some(k))
                    .filter(|c| c.game.is_some())
            }))
            .filter(|c| !(c.game.is_none() && unused.contains(&c.name)))
            .collect();
        let access = |a: Access| match a {
            Access::Anyone => "anyone",
            Access::Player => "player",
            Access::Moderator => "moderator",
        };
        let title_of = |kind: Option<&str>| {
            kind.filter(|_| !one_game)
                .and_then(|k| cx.host.game(k))
                .map(|g| g.info().title)
        };
        let as_help = |c: &CommandSpec| HelpCommand {
            usage: c.shown(prefix),
            summary: c.summary,
            access: access(c.access),
            game: title_of(c.game),
        };
        let move_groups: Vec<MoveGroup> = games
            .iter()
            .map(|g| MoveGroup {
                title: (!one_game).then(|| g.info().title),
                moves: visible
                    .iter()
                    .filter(|c| c.form == Form::Move && c.game == Some(g.info().kind))
                    .map(|c| as_help(c))
                    .collect(),
            })
            .filter(|g| !g.moves.is_empty())
            .collect();
        let commands: Vec<HelpCommand> = visible
            .iter()
            .filter(|c| c.form == Form::Bang)
            .map(|c| as_help(c))
            .collect();
        let command = visible
            .iter()
            .find(|c| c.is_named(&topic))
            .map(|c| as_help(c));
        let mut game_help = Vec::new();
        if !topic.is_empty() {
            for game in &games {
                let name = format!("{}/help.md.j2", game.info().kind);
                if !cx.host.templates.has(&name) {
                    continue;
                }
                let text = cx
                    .host
                    .templates
                    .text(&name, context! { topic, p => prefix });
                if text.trim().is_empty() {
                    continue;
                }
                game_help.push(if one_game {
                    text
                } else {
                    format!("**{}**: {text}", game.info().title)
                });
            }
        }
        let game_help = game_help.join("\n");
        let mut topics = vec!["setup", "dice", "undo", "weeks", "clock", "away"];
        for c in visible.iter().filter(|c| c.form == Form::Move) {
            if !topics.contains(&c.name) {
                topics.push(c.name);
            }
        }
        let titles: Vec<&str> = cx.host.games.iter().map(|g| g.info().title).collect();
        let kinds: Vec<&str> = cx.host.games.iter().map(|g| g.info().kind).collect();
        let shown: Vec<&str> = games.iter().map(|g| g.info().title).collect();
        // Whether the games the help is about take secret presets (Privates does not).
        let presets = visible.iter().any(|c| c.is_named("preset"));
        Response::new(Verdict::Answered).say(cx.host.templates.text(
            "table/help.md.j2",
            context! {
                topic, p => prefix, move_groups, commands, command, game_help, topics,
                games => titles, kinds, shown, presets,
            },
        ))
    }
}
