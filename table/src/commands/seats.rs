//! The seats of a game over weeks: `!away` and `!back` (absences), `!sub` (a seat to another
//! player) and `!act` (a moderator's move for a seat). Their entries are stored like moves.

use async_trait::async_trait;

use crate::commands::registry::{arg, table_command, Access, ArgKind, ArgSpec, CommandSpec};
use crate::commands::Command;
use crate::game::automa::{automa_word, next_automa, AUTOMA_ID_PREFIX};
use crate::game::log::Entry;
use crate::game::session::ProxySource;
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::store::Write;
use crate::table::extract::{extract, Commands};
use crate::table::mover::{Mover, Proxied};
use crate::table::{Current, Cx, Draft, Loaded};
use crate::weeks::duration::{format_duration, full, parse_duration, relative, store_time};
use crate::weeks::meta::{ProxyWhy, TableEvent};
use crate::weeks::pace::{
    decision_data, duration_error, person, seat_by_token, time_of, user_by_token, MAX_REASON_CHARS,
};

const ACT_ARGS: &[ArgSpec] = &[
    arg("player", ArgKind::User, true, "the seat's player"),
    arg("move", ArgKind::Text, true, "the move in bold"),
];
const SUB_ARGS: &[ArgSpec] = &[
    arg("old", ArgKind::User, false, "the player leaving"),
    arg("new", ArgKind::User, false, "the player taking the seat"),
    arg(
        "automa",
        ArgKind::Choice(&["automa", "automa1", "automa2", "automa3", "automa4"]),
        false,
        "an automa takes the seat, or gives its seat back",
    ),
];
const AWAY_ARGS: &[ArgSpec] = &[
    arg("for", ArgKind::Text, true, "how long: 3d, 36h, 1w"),
    arg("reason", ArgKind::Text, false, "why, for the others"),
];

/// `!act @player **move**`: a moderator's move for a seat.
pub(crate) struct Act;

#[async_trait]
impl Command for Act {
    fn spec(&self) -> CommandSpec {
        CommandSpec {
            example: "act @player **move**",
            ..table_command(
                "act",
                &["actfor"],
                Access::Moderator,
                ACT_ARGS,
                "make a move for a seat, logged with both names",
            )
        }
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        let Some(current) = cx.loaded.playing() else {
            return cx.host.not_playing(&cx.loaded);
        };
        let args = args.trim();
        let Some((who, rest)) = args.split_once(char::is_whitespace) else {
            return Response::refused(cx.say(messages::ActUsage {}));
        };
        let Some(seat) = seat_by_token(current.session.seated(), who, &msg.mentions) else {
            return Response::refused(not_a_player(cx, current, who));
        };
        let Commands::Bold(segments) = extract(rest, &cx.host.settings.prefix) else {
            return Response::refused(cx.say(messages::ActUsage {}));
        };
        let now = time_of(msg);
        let meta = current.meta();
        let before = current.session.to_act();
        let mut draft = Draft::of(current);
        let mut done = Proxied::default();
        let mut refusal = None;
        let by = person(&msg.author);
        for (i, segment) in segments.iter().enumerate() {
            match Mover::of(cx, current).proxy_move(
                &mut draft,
                seat,
                ProxySource::Text(segment),
                ProxyWhy::Moderator,
                Some(by.clone()),
                &msg.message_id,
            ) {
                Ok((Some(made), _)) => done.add(made),
                Ok((None, _)) => break,
                Err(reason) => {
                    refusal = Some(Mover::of(cx, current).move_refused(
                        msg,
                        segment,
                        &reason,
                        i + 1 < segments.len(),
                    ));
                    break;
                }
            }
        }
        if draft.entries.is_empty() {
            return Response::refused(refusal.unwrap_or_default());
        }
        let mut meta = meta;
        for (i, entry) in draft.entries.iter().enumerate() {
            meta.add(draft.next_seq + i as i64, entry, Some(now));
        }
        Mover::of(cx, current)
            .auto_proxies(&mut draft, &meta, now, &mut done)
            .await;
        if draft.session.is_finished() && current.audited() && !draft.revealed {
            draft.entries.push(Entry::Reveal);
            draft.revealed = true;
        }
        let game_id = current.row.id.clone();
        cx.commit(draft, msg);
        done.stage_spent(&mut cx.ledger, &game_id);
        let turn_ended = done.ends_turn;
        let mut text = crate::table::view::after_moves(
            &cx.host,
            &cx.loaded,
            std::mem::take(&mut done.texts),
            before,
            turn_ended,
        );
        if let Some(refusal) = refusal {
            text.push('\n');
            text.push_str(&refusal);
        }
        let picture = match (&cx.loaded, done.changes_picture) {
            (Loaded::Running(current), true) if cx.host.settings.map_after_build => cx
                .host
                .view(current)
                .picture_attachment()
                .and_then(Result::ok),
            _ => None,
        };
        Response::new(Verdict::Accepted).say(text).attach(picture)
    }
}

/// `!sub @old @new`: gives a seat to another player; `!sub @old automa` to an automa,
/// `!sub automa @new` (`automa2` when there are two) an automa's seat to a person.
pub(crate) struct Sub;

#[async_trait]
impl Command for Sub {
    fn spec(&self) -> CommandSpec {
        CommandSpec {
            example: "sub @old @new (or: sub @old automa, sub automa @new)",
            ..table_command(
                "sub",
                &["substitute"],
                Access::Moderator,
                SUB_ARGS,
                "give a seat, with its cash and shares, to another player or an automa",
            )
        }
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        let Some(current) = cx.loaded.playing() else {
            return cx.host.not_playing(&cx.loaded);
        };
        let tokens = automa_tokens(args);
        let [old, new] = tokens.as_slice() else {
            return Response::refused(cx.say(messages::SubUsage {}));
        };
        let seated = current.session.seated();
        let (seat, new) = match (automa_word(old), automa_word(new)) {
            (None, None) => {
                let Some(seat) = seat_by_token(seated, old, &msg.mentions) else {
                    return Response::refused(not_a_player(cx, current, old));
                };
                let Some(new) = user_by_token(new, &msg.mentions) else {
                    return Response::refused(cx.say(messages::SubUsage {}));
                };
                (seat, new)
            }
            (Some(_), Some(_)) => return Response::refused(cx.say(messages::SubUsage {})),
            (Some(number), None) | (None, Some(number)) => {
                // One side is an automa, in either order (a slash command gives the user
                // first): a seated player gives their seat to an automa, or an automa's seat
                // goes to a person.
                let person = if automa_word(old).is_some() { new } else { old };
                match seat_by_token(seated, person, &msg.mentions) {
                    Some(seat) if !seated[seat].is_automa() => {
                        if !current.session.has_automa() {
                            return Response::refused(cx.say(messages::NoAutoma {
                                title: current.session.info().title.to_string(),
                            }));
                        }
                        (seat, next_automa(seated))
                    }
                    _ => {
                        let seat = match automa_seat(seated, number) {
                            Ok(seat) => seat,
                            Err(names) if names.len() > 1 => {
                                return Response::refused(cx.say(messages::AutomaWhich { names }))
                            }
                            Err(_) => {
                                let who = old.to_string();
                                return Response::refused(not_a_player(cx, current, &who));
                            }
                        };
                        let Some(new) = user_by_token(person, &msg.mentions) else {
                            return Response::refused(cx.say(messages::SubUsage {}));
                        };
                        (seat, new)
                    }
                }
            }
        };
        if seated.iter().any(|p| p.id == new.id) {
            return Response::refused(cx.say(messages::SubSeated {
                player: new.name.to_string(),
            }));
        }
        let old = seated[seat].clone();
        let mut draft = Draft::of(current);
        draft.session.substitute(seat, new.clone());
        draft.entries.push(Entry::Table(TableEvent::Sub {
            seat,
            old: old.clone(),
            new: new.clone(),
            by: person(&msg.author),
        }));
        let game_id = current.row.id.clone();
        cx.commit(draft, msg);
        // The old player's secret orders are theirs, not the seat's.
        cx.ledger.stage(Write::Presets {
            game_id: game_id.clone(),
            player_id: old.id.clone(),
            presets: None,
        });
        let Some(current) = cx.loaded.playing() else {
            return cx.host.not_playing(&cx.loaded);
        };
        let render = cx.host.view(current).render(true, None);
        Response::new(Verdict::Accepted).say(cx.say(messages::SubDone {
            old: old.name.to_string(),
            new: new.name.to_string(),
            seat: seat + 1,
            by: msg.author.name.to_string(),
            status: current.session.status(&render).to_string(),
        }))
    }
}

/// `!away 3d [reason]`: the author is away.
pub(crate) struct Away;

#[async_trait]
impl Command for Away {
    fn spec(&self) -> CommandSpec {
        CommandSpec {
            example: "away 3d [reason]",
            ..table_command(
                "away",
                &["vacation"],
                Access::Anyone,
                AWAY_ARGS,
                "you are away: no reminders, auctions pass, your turn clock pauses",
            )
        }
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        let Some(current) = cx.loaded.playing() else {
            return cx.host.not_playing(&cx.loaded);
        };
        let Some(seat) = current.seat_of(&msg.author) else {
            return Response::refused(not_a_player(cx, current, &msg.author.name));
        };
        let args = args.trim();
        let (length, rest) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
        // `cover:automa` right after the length: the automa plays the seat meanwhile.
        let rest = rest.trim_start();
        let (cover, reason) = match rest.split_once(char::is_whitespace).unwrap_or((rest, "")) {
            (word, reason) if word.eq_ignore_ascii_case("cover:automa") => (true, reason),
            _ => (false, rest),
        };
        if length.is_empty() {
            return Response::refused(cx.say(messages::AwayUsage {}));
        }
        let length = match parse_duration(length) {
            Ok(d) => d,
            Err(error) => {
                return Response::refused(cx.say(messages::BadDuration {
                    error: duration_error(&error),
                }))
            }
        };
        let reason: String = reason.trim().chars().take(MAX_REASON_CHARS).collect();
        let now = time_of(msg);
        let mut meta = current.meta();
        let player = current.session.seated()[seat].clone();
        let cap = meta.clock.away_cap();
        let left = (cap - meta.pause_used(&player.id, now)).max(chrono::Duration::zero());
        let until = now + length;
        let pause_until = now + length.min(left);
        let mut draft = Draft::of(current);
        let entry = Entry::Table(TableEvent::Away {
            player: player.id.clone(),
            name: player.name.clone(),
            until: store_time(until),
            pause_until: store_time(pause_until),
            reason: (!reason.is_empty()).then(|| reason.clone()),
            cover,
        });
        meta.add(draft.next_seq, &entry, Some(now));
        draft.entries.push(entry);
        let before = current.session.to_act();
        let mut done = Proxied::default();
        Mover::of(cx, current)
            .auto_proxies(&mut draft, &meta, now, &mut done)
            .await;
        let game_id = current.row.id.clone();
        let notice = cx.say(messages::AwaySet {
            player: player.name.to_string(),
            until: full(until).to_string(),
            until_rel: relative(until).to_string(),
            reason: (!reason.is_empty()).then_some(reason),
            paused_until: full(pause_until).to_string(),
            capped: pause_until < until,
            left: format_duration(left).to_string(),
            uses: format_duration(length.min(left)).to_string(),
            cover,
        });
        cx.commit(draft, msg);
        done.stage_spent(&mut cx.ledger, &game_id);
        let mut text = notice;
        if done.moved() {
            text.push('\n');
            let turn_ended = done.ends_turn;
            text.push_str(&crate::table::view::after_moves(
                &cx.host,
                &cx.loaded,
                std::mem::take(&mut done.texts),
                before,
                turn_ended,
            ));
        }
        Response::new(Verdict::Accepted).say(text)
    }
}

/// `!back`: the author is back.
pub(crate) struct Back;

#[async_trait]
impl Command for Back {
    fn spec(&self) -> CommandSpec {
        table_command("back", &[], Access::Anyone, &[], "you are back")
    }

    async fn run(&self, cx: &mut Cx, _args: &str, msg: &Incoming) -> Response {
        let Some(current) = cx.loaded.playing() else {
            return cx.host.not_playing(&cx.loaded);
        };
        let Some(seat) = current.seat_of(&msg.author) else {
            return Response::refused(not_a_player(cx, current, &msg.author.name));
        };
        let now = time_of(msg);
        let meta = current.meta();
        let player = current.session.seated()[seat].clone();
        let away = meta.away(&player.id, now).is_some();
        let handed_over = meta.handed_over.contains(&seat);
        if !away && !handed_over {
            return Response::refused(cx.say(messages::NotAway {
                player: player.name.to_string(),
            }));
        }
        let covered = meta.covered(seat, &player.id, now).is_some();
        let mut draft = Draft::of(current);
        if away {
            draft.entries.push(Entry::Table(TableEvent::Back {
                player: player.id.clone(),
                name: player.name.clone(),
            }));
        }
        if handed_over {
            draft.entries.push(Entry::Table(TableEvent::Reclaim {
                seat,
                player: player.clone(),
            }));
        }
        cx.commit(draft, msg);
        let Some(current) = cx.loaded.playing() else {
            return cx.host.not_playing(&cx.loaded);
        };
        let decision = cx
            .loaded
            .decision_clock(now)
            .filter(|c| c.seat == seat)
            .map(|c| decision_data(&c, now));
        let render = cx.host.view(current).render(false, None);
        let back = cx.say(messages::Back {
            player: player.name.to_string(),
            decision,
            prompt: current.session.prompt(&render).to_string(),
        });
        let text = if covered {
            let reclaim = cx.say(messages::Reclaim {
                player: player.name.to_string(),
            });
            format!("{}\n{back}", reclaim.trim_end())
        } else {
            back
        };
        Response::new(Verdict::Accepted).say(text)
    }
}

/// The words of `!sub`, with `automa 2` read as one word (`automa2`).
fn automa_tokens(args: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for token in args.split_whitespace() {
        let joins = token.parse::<usize>().is_ok()
            && out
                .last()
                .is_some_and(|last| automa_word(last) == Some(None));
        match out.last_mut() {
            Some(last) if joins => last.push_str(token),
            _ => out.push(token.to_string()),
        }
    }
    out
}

/// The seat of the automa named (`automa2`), or of the only automa (`automa`); the automa
/// names when it is not clear which.
fn automa_seat(
    seated: &[crate::game::PlayerInfo],
    number: Option<usize>,
) -> Result<usize, Vec<String>> {
    let automa: Vec<usize> = (0..seated.len())
        .filter(|&i| seated[i].is_automa())
        .collect();
    let names = || automa.iter().map(|&i| seated[i].name.clone()).collect();
    match number {
        Some(n) => automa
            .iter()
            .copied()
            .find(|&i| seated[i].id == format!("{AUTOMA_ID_PREFIX}{n}"))
            .ok_or_else(names),
        None if automa.len() == 1 => Ok(automa[0]),
        None => Err(names()),
    }
}

/// The refusal of someone who is not a player of the game.
pub(crate) fn not_a_player(cx: &Cx, current: &Current, who: &str) -> String {
    let players = current.seat_names();
    cx.say(messages::NotAPlayer {
        who: who.to_string(),
        players,
    })
}
