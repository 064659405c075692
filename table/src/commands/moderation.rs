//! Moderation of a game's course: `!undo` (the last move, with the draw it called for) and
//! `!reveal` (the dice seed).

use async_trait::async_trait;

use crate::commands::registry::{arg, table_command, Access, ArgKind, ArgSpec, CommandSpec};
use crate::commands::Command;
use crate::game::log::{pop_unit, Effective, Entry};
use crate::game::session::Session;
use crate::game::DiceMode;
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::table::{Current, Cx, Draft, Loaded};

const REVEAL_ARGS: &[ArgSpec] = &[arg(
    "confirm",
    ArgKind::Choice(&["confirm"]),
    false,
    "reveal before the end",
)];

/// `!undo`: takes back the last move, with the draw it called for; the last human move goes
/// back with every automa move after it, and the automa waits until someone moves again.
pub(crate) struct Undo;

#[async_trait]
impl Command for Undo {
    fn spec(&self) -> CommandSpec {
        table_command(
            "undo",
            &[],
            Access::Moderator,
            &[],
            "take back the last move, with its draw (and the automa's and forced moves after it)",
        )
    }

    async fn run(&self, cx: &mut Cx, _args: &str, msg: &Incoming) -> Response {
        let Loaded::Running(current) = &cx.loaded else {
            return cx.host.no_game(&cx.loaded);
        };
        if current.row.revealed && current.stored.dice == DiceMode::Audited {
            return Response::refused(cx.say(messages::UndoClosed {}));
        }
        let mut stack = current.stack.clone();
        // The last human move goes back together with every automa move after it, and every
        // move the table played for a seat that had no other.
        let mut units = Vec::new();
        while let Some(unit) = pop_unit(&mut stack) {
            let automa = unit.entries.first().is_some_and(|e| {
                matches!(e.entry, Entry::Action { .. })
                    && (crate::weeks::automa::made_by_automa(&current.log, e.seq)
                        || crate::weeks::automa::made_as(
                            &current.log,
                            e.seq,
                            crate::game::events::ProxyWhy::Forced,
                        ))
            });
            units.push(unit);
            if !automa {
                break;
            }
        }
        if units.is_empty() {
            return Response::refused(cx.say(messages::NothingToUndo {}));
        }
        let mut session = match rebuilt(current, &stack) {
            Ok(session) => session,
            Err(reason) => {
                return Response::refused(cx.say(messages::UndoDoesNotReplay { reason }))
            }
        };
        crate::weeks::meta::substitute_all(&mut *session, &current.log);
        // Each entry said, in the order played; a run of moves made for players without a
        // choice is said in a few words (its draws still each said).
        let mut what: Vec<String> = Vec::new();
        let mut forced = Vec::new();
        let mut forced_draws = Vec::new();
        for unit in units.iter().rev() {
            let is_forced = unit.entries.first().is_some_and(|e| {
                matches!(e.entry, Entry::Action { .. })
                    && crate::weeks::automa::made_as(
                        &current.log,
                        e.seq,
                        crate::game::events::ProxyWhy::Forced,
                    )
            });
            for e in &unit.entries {
                let said = match &e.entry {
                    Entry::Draw { .. } => {
                        format!("the draw {}", current.session.describe(&e.entry, true))
                    }
                    entry => current.session.describe(entry, true),
                };
                match (is_forced, &e.entry) {
                    (true, Entry::Draw { .. }) => forced_draws.push(said),
                    (true, _) => forced.push(said),
                    (false, _) => {
                        what.extend(forced_run(cx, &mut forced, &mut forced_draws));
                        what.push(said);
                    }
                }
            }
        }
        what.extend(forced_run(cx, &mut forced, &mut forced_draws));
        let mut draft = Draft::of(current);
        draft.session = session;
        draft.stack = stack;
        draft.entries.extend(units.iter().map(|_| Entry::Undo));
        // Only audited dice give the same draw again; a moderator's draw is theirs to make.
        let audited = current.audited();
        let undone = cx.say(messages::Undone { what, audited });
        cx.commit_turn(draft, msg, undone).await
    }
}

/// What an undo says of a run of moves made for players without a choice (`moves`, each
/// said) and the draws among them, then both are emptied: three moves or more in a few words.
fn forced_run(cx: &Cx, moves: &mut Vec<String>, draws: &mut Vec<String>) -> Vec<String> {
    let mut said = if moves.len() >= 3 {
        let count = moves.len();
        vec![cx.say(messages::UndoneForced { count }).trim().to_string()]
    } else {
        std::mem::take(moves)
    };
    moves.clear();
    said.append(draws);
    said
}

/// The game replayed from its setup through `stack` (the entries left in force), or why it
/// does not replay.
pub(crate) fn rebuilt(current: &Current, stack: &[Effective]) -> Result<Box<dyn Session>, String> {
    let mut session = current
        .plugin
        .load(&current.stored.setup, current.stored.players.clone())
        .map_err(|reason| reason.to_string())?;
    for item in stack {
        session
            .replay(&item.entry)
            .map_err(|reason| reason.to_string())?;
    }
    Ok(session)
}

/// `!reveal [confirm]`: reveals the dice seed.
pub(crate) struct Reveal;

#[async_trait]
impl Command for Reveal {
    fn spec(&self) -> CommandSpec {
        table_command(
            "reveal",
            &[],
            Access::Moderator,
            REVEAL_ARGS,
            "reveal the dice seed",
        )
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        let Loaded::Running(current) = &cx.loaded else {
            return cx.host.no_game(&cx.loaded);
        };
        if current.seed.is_none() {
            return Response::refused(cx.say(messages::NoSeed {}));
        }
        if current.row.revealed {
            return Response::new(Verdict::Answered).say(cx.host.view(current).reveal_text());
        }
        if !current.session.is_finished() && args.trim() != "confirm" {
            return Response::refused(cx.say(messages::RevealNeedsConfirm {}));
        }
        let mut draft = Draft::of(current);
        draft.entries.push(Entry::Reveal);
        draft.revealed = true;
        cx.commit(draft, msg);
        match &cx.loaded {
            Loaded::Running(current) => {
                Response::new(Verdict::Accepted).say(cx.host.view(current).reveal_text())
            }
            _ => cx.host.no_game(&cx.loaded),
        }
    }
}
