//! A game's page: what it shows, gathered as data, worded by `templates/web/game.html.j2`.

use gaugebot_table::answer::utc;
use gaugebot_table::game::events::TableEvent;
use gaugebot_table::game::log::Entry;
use gaugebot_table::game::session::{Render, Session};
use gaugebot_table::messages::Alt;
use gaugebot_table::record::RecordError;
use gaugebot_table::store::read_time;
use gaugebot_table::table::chart::chart_svg;
use gaugebot_table::table::history::logged_move;
use gaugebot_table::templates::TemplateError;
use gaugebot_table::Rich;
use serde::Serialize;

use crate::game::Loaded;
use crate::present;
use crate::Web;

/// A player's line in the table of worth.
#[derive(Debug, Serialize)]
pub struct PlayerLine {
    /// 1 for the richest; players with the same worth share a rank.
    pub rank: usize,
    /// Their name.
    pub name: String,
    /// Net worth, with the currency (`£40`).
    pub worth: String,
    /// Cash in hand, with the currency.
    pub cash: String,
}

/// One entry of the history.
#[derive(Debug, Serialize)]
pub struct HistoryLine {
    /// Its number (as `!log` shows it).
    pub seq: i64,
    /// Who sent it.
    pub author: String,
    /// The move in notation, a draw in words, or the message as written.
    pub what: String,
    /// Whether an undo took it back.
    pub undone: bool,
    /// When, as people read it (`2026-03-04 12:00 UTC`).
    pub at: String,
    /// When, as stored (RFC 3339, for the `<time>` element's `datetime`).
    pub datetime: String,
}

/// Why a page could not be made.
#[derive(Debug, thiserror::Error)]
pub enum PageError {
    /// The record does not replay.
    #[error(transparent)]
    Record(#[from] RecordError),
    /// A template failed.
    #[error(transparent)]
    Template(#[from] TemplateError),
}

/// The map of the position after `at` as an SVG document, if the game has a picture.
pub fn map_svg(loaded: &Loaded, at: Option<i64>) -> Result<Option<String>, PageError> {
    Ok(loaded.position(at)?.picture_svg())
}

/// The net-worth chart up to `at` as an SVG document, if the game says what players are worth.
pub fn chart(loaded: &Loaded, at: Option<i64>) -> Option<String> {
    let (series, currency) = loaded.net_worth(at)?;
    let title = format!(
        "{} {} — net worth",
        loaded.plugin.info().title,
        loaded.row.id
    );
    Some(chart_svg(&title, currency, &series))
}

/// An SVG document to inline in HTML: without an XML declaration.
fn inline(svg: &str) -> String {
    match svg.strip_prefix("<?xml") {
        Some(rest) => rest
            .split_once("?>")
            .map_or(svg, |(_, body)| body)
            .trim_start()
            .to_string(),
        None => svg.to_string(),
    }
}

/// Players by worth, highest first, ranked.
fn players(session: &dyn Session) -> Vec<PlayerLine> {
    let mut lines: Vec<(i64, PlayerLine)> = session
        .seated()
        .iter()
        .enumerate()
        .filter_map(|(seat, player)| {
            let worth = session.worth(seat)?;
            Some((
                worth.total,
                PlayerLine {
                    rank: 0,
                    name: player.name.clone(),
                    worth: worth.money(worth.total),
                    cash: worth.money(worth.cash),
                },
            ))
        })
        .collect();
    lines.sort_by_key(|(total, _)| std::cmp::Reverse(*total));
    let totals: Vec<i64> = lines.iter().map(|(t, _)| *t).collect();
    lines
        .into_iter()
        .map(|(total, mut line)| {
            line.rank = 1 + totals.iter().filter(|t| **t > total).count();
            line
        })
        .collect()
}

/// The history, every entry of the record, undone ones marked: a move as `!log` writes it
/// (the seat's player, and why it was made for them), as HTML. The marker the table stores
/// before a move it made for a seat is not a line of its own: the move after it says why
/// (`Automa 1 **buy A** (automa)`).
fn history(web: &Web, loaded: &Loaded, session: &dyn Session) -> Vec<HistoryLine> {
    let entries: Vec<Option<Entry>> = loaded
        .record
        .log
        .iter()
        .map(|item| Entry::from_json(&item.entry).ok())
        .collect();
    loaded
        .record
        .log
        .iter()
        .zip(&entries)
        .enumerate()
        .filter(|(_, (_, entry))| !matches!(entry, Some(Entry::Table(TableEvent::Proxy { .. }))))
        .map(|(index, (item, entry))| {
            let previous = index
                .checked_sub(1)
                .and_then(|i| entries.get(i))
                .and_then(Option::as_ref);
            let mut author = item.author_name.clone();
            let what = match entry {
                Some(entry @ Entry::Action { seat, .. }) => {
                    let player = session.seated().get(*seat).map(|p| p.name.clone());
                    let said = player.as_deref().and_then(|player| {
                        logged_move(&web.host, session, player, entry, previous)
                    });
                    match (said, player) {
                        // `ann: **bid 7** (preset)`: the player, then the move.
                        (Some(said), Some(player)) => {
                            author = player.clone();
                            let prefix = format!("{player}: ");
                            present::html(&Rich::parse(said.strip_prefix(&prefix).unwrap_or(&said)))
                        }
                        _ => escaped(&session.notation(entry).unwrap_or_else(|| item.text.clone())),
                    }
                }
                Some(entry @ Entry::Draw { .. }) => {
                    escaped(&session.notation(entry).unwrap_or_else(|| item.text.clone()))
                }
                Some(Entry::Undo) => "undo".to_string(),
                Some(Entry::Reveal) => "the seed revealed".to_string(),
                _ => escaped(&item.text),
            };
            let at = read_time(&item.at).map_or_else(|_| item.at.clone(), utc);
            HistoryLine {
                seq: item.seq,
                author,
                what,
                undone: item.undone,
                at,
                datetime: item.at.clone(),
            }
        })
        .collect()
}

/// Plain text as HTML.
fn escaped(text: &str) -> String {
    present::html(&Rich::text(text))
}

/// A game's page (HTML) showing the position after entry `at` (now, when `None`); `base` is
/// the page's own path (`/g/<token>`).
pub fn game_page(
    web: &Web,
    loaded: &Loaded,
    at: Option<i64>,
    base: &str,
) -> Result<String, PageError> {
    let last = loaded.last_seq();
    // An entry past the end is the position now.
    let at = at.filter(|n| last.is_some_and(|last| *n < last) && *n >= 0);
    let session = loaded.position(at)?;
    let info = loaded.plugin.info();
    let templates = &web.host.templates;
    let prefix = web.host.settings.prefix.as_str();
    let render = Render {
        templates,
        prefix,
        game_id: &loaded.row.id,
        moderator: "the moderator",
        draw_source: None,
        ping: false,
        skip: None,
        head: None,
        page: None,
    };
    let status = present::html(&Rich::parse(&session.status(&render)));
    let alt = |kind: &str, detail: Vec<String>| {
        templates.say(
            &Alt {
                kind: kind.into(),
                title: info.title.to_string(),
                game_id: loaded.row.id.clone(),
                entry: at.or(last),
                detail,
            },
            prefix,
        )
    };
    let map = session.picture_svg().map(|svg| inline(&svg));
    let players = players(session.as_ref());
    let chart = chart(loaded, at).map(|svg| inline(&svg));
    let chart_alt = alt(
        "chart",
        players
            .iter()
            .map(|p| format!("{} {}", p.name, p.worth))
            .collect(),
    );
    let history = history(web, loaded, session.as_ref());
    let shown = at.or(last);
    let ctx = minijinja::context! {
        base,
        title => info.title,
        kind => loaded.row.kind,
        game_id => loaded.row.id,
        channel => loaded.row.channel,
        at,
        last,
        shown,
        previous => shown.and_then(|n| n.checked_sub(1)).filter(|n| *n >= 0),
        next => shown.map(|n| n + 1).filter(|n| last.is_some_and(|last| *n <= last)),
        entries => loaded.record.log.len(),
        finished => session.is_finished(),
        active => loaded.row.active,
        status => minijinja::Value::from_safe_string(status),
        players,
        map => map.map(minijinja::Value::from_safe_string),
        map_alt => alt("map", Vec::new()),
        chart => chart.map(minijinja::Value::from_safe_string),
        chart_alt,
        history,
        commitment => loaded.record.commitment,
        revealed => loaded.record.seed.is_some(),
        head => loaded.record.chain.as_ref().map(|c| c.head.clone()),
        dice => loaded.record.version,
    };
    Ok(templates.render("web/game.html.j2", ctx)?)
}
