//! `!takeback`: a player takes back their own last move, as Rally the Troops allows — until
//! the next player has acted, and only while no draw was made since (a take-back never
//! re-rolls, and no hidden card or die has been shown). The log keeps the move, marked undone,
//! after a [`TableEvent::TakeBack`] marker and an ordinary undo entry, so replays, exports and
//! the verifiers read it as any undo. A moderator's `!undo` is unchanged.

use async_trait::async_trait;

use crate::commands::moderation::rebuilt;
use crate::commands::registry::{table_command, Access, CommandSpec};
use crate::commands::seats::not_a_player;
use crate::commands::Command;
use crate::game::events::TableEvent;
use crate::game::log::{pop_unit, Entry, Undone};
use crate::game::DiceMode;
use crate::input::{Incoming, Response};
use crate::messages;
use crate::table::{Current, Cx, Draft};
use crate::weeks::meta::substitute_all;
use crate::weeks::pace::name_at;

/// `!takeback`: the author takes back their own last move.
pub(crate) struct Takeback;

/// Why a take-back is refused (the template's `why`, with what it names).
#[derive(Debug, Clone, PartialEq, Eq)]
enum Refusal {
    /// No move in force.
    Nothing,
    /// The game is over.
    Finished,
    /// The seed is revealed.
    Closed,
    /// The last move is another player's (named), and the author has none before it.
    NotYours(String),
    /// Another player (named) moved after the author's last move.
    MovedSince(String),
    /// A draw was made after (or by) the move.
    Draw,
    /// The move was made for the seat (why).
    MadeFor(String),
}

/// The unit the author of seat `seat` may take back, or why not.
fn takeable(current: &Current, seat: usize) -> Result<Undone, Refusal> {
    if current.session.is_finished() {
        return Err(Refusal::Finished);
    }
    if current.row.revealed && current.stored.dice == DiceMode::Audited {
        return Err(Refusal::Closed);
    }
    let mut stack = current.stack.clone();
    let unit = pop_unit(&mut stack).ok_or(Refusal::Nothing)?;
    let meta = current.meta();
    let seated = current.session.seated();
    let Some(Effective { seq, entry }) = unit
        .entries
        .iter()
        .find(|e| matches!(e.entry, Entry::Action { .. }))
        .map(|e| Effective {
            seq: e.seq,
            entry: &e.entry,
        })
    else {
        // A draw alone on top (a moderator's manual draw): nobody's move.
        return Err(Refusal::Draw);
    };
    let Entry::Action { seat: mover, .. } = entry else {
        return Err(Refusal::Nothing);
    };
    // Substituted since the move: it was the old player's, not the author's.
    let subbed_since = meta.subs.iter().any(|s| s.seat == seat && s.seq > seq);
    if *mover != seat || subbed_since {
        let last = name_at(&meta, seated, *mover, seq);
        let mine_before = stack.iter().any(|e| {
            matches!(e.entry, Entry::Action { seat: s, .. } if s == seat)
                && !meta
                    .subs
                    .iter()
                    .any(|sub| sub.seat == seat && sub.seq > e.seq)
        });
        return Err(if mine_before {
            Refusal::MovedSince(last)
        } else {
            Refusal::NotYours(last)
        });
    }
    if unit
        .entries
        .iter()
        .any(|e| matches!(e.entry, Entry::Draw { .. }))
    {
        return Err(Refusal::Draw);
    }
    let marker = current
        .log
        .iter()
        .position(|(_, row)| row.seq == seq)
        .and_then(|i| i.checked_sub(1))
        .and_then(|i| current.log.get(i));
    if let Some((Entry::Table(TableEvent::Proxy { why, .. }), _)) = marker {
        return Err(Refusal::MadeFor(why.name().to_string()));
    }
    Ok(unit)
}

/// A stack entry, borrowed.
struct Effective<'a> {
    seq: i64,
    entry: &'a Entry,
}

#[async_trait]
impl Command for Takeback {
    fn spec(&self) -> CommandSpec {
        table_command(
            "takeback",
            &["take-back"],
            Access::Anyone,
            &[],
            "take back your own last move, until the next player acts and unless a draw was made since",
        )
    }

    async fn run(&self, cx: &mut Cx, _args: &str, msg: &Incoming) -> Response {
        let Some(current) = cx.loaded.running() else {
            return cx.host.no_game(&cx.loaded);
        };
        let Some(seat) = current.seat_of(&msg.author) else {
            return Response::refused(not_a_player(cx, current, &msg.author.name));
        };
        let player = current.session.seated()[seat].clone();
        let refused = |why: &str| messages::TakebackRefused {
            player: player.name.clone(),
            why: why.to_string(),
            ..Default::default()
        };
        let unit = match takeable(current, seat) {
            Ok(unit) => unit,
            Err(refusal) => {
                let data = match refusal {
                    Refusal::Nothing => refused("nothing"),
                    Refusal::Finished => refused("finished"),
                    Refusal::Closed => refused("closed"),
                    Refusal::NotYours(last) => messages::TakebackRefused {
                        last,
                        ..refused("not_yours")
                    },
                    Refusal::MovedSince(last) => messages::TakebackRefused {
                        last,
                        ..refused("moved_since")
                    },
                    Refusal::Draw => refused("draw"),
                    Refusal::MadeFor(why) => messages::TakebackRefused {
                        made_for: why,
                        ..refused("made_for")
                    },
                };
                return Response::refused(cx.say(data));
            }
        };
        let mut stack = current.stack.clone();
        pop_unit(&mut stack);
        let mut session = match rebuilt(current, &stack) {
            Ok(session) => session,
            Err(reason) => {
                return Response::refused(cx.say(messages::TakebackRefused {
                    reason,
                    ..refused("replay")
                }))
            }
        };
        substitute_all(&mut *session, &current.log);
        let what: Vec<String> = unit
            .entries
            .iter()
            .map(|e| match &e.entry {
                Entry::Action { action, .. } => match current.session.canonical(action) {
                    Some(canonical) => format!("**{canonical}**"),
                    None => current.session.describe(&e.entry, false),
                },
                entry => current.session.describe(entry, false),
            })
            .collect();
        let mut draft = Draft::of(current);
        draft.session = session;
        draft.stack = stack;
        draft
            .entries
            .push(Entry::Table(TableEvent::TakeBack { seat, player }));
        draft.entries.push(Entry::Undo);
        let head = cx.say(messages::TakenBack {
            player: msg.author.name.clone(),
            what,
        });
        cx.commit_turn(draft, msg, head).await
    }
}
