//! The games' own `!`-commands, from their plug-ins' specs: an answer the game gives (`!odds`)
//! or a manual draw it waits for (`!draw …`, `!deal …`), through this one handler.

use async_trait::async_trait;

use crate::commands::registry::CommandSpec;
use crate::commands::Command;
use crate::game::log::Entry;
use crate::game::ToAct;
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::table::mover::{Mover, Proxied};
use crate::table::{Cx, Draft, Loaded};

/// A game's `!`-command: the game answers it, or it is a manual draw.
pub(crate) struct GameCommand(pub(crate) CommandSpec);

#[async_trait]
impl Command for GameCommand {
    fn spec(&self) -> CommandSpec {
        self.0.clone()
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        if let Loaded::Running(current) = &cx.loaded {
            let render = cx.host.view(current).render(false, None);
            if let Some(answer) = current.session.answer(self.0.name, args, &render) {
                return Response::new(Verdict::Answered).say(answer);
            }
        }
        let Loaded::Running(current) = &cx.loaded else {
            return cx.host.no_game(&cx.loaded);
        };
        if current.audited() {
            return Response::refused(cx.say(messages::DiceAreAudited {}));
        }
        if current.session.to_act() != ToAct::Draw {
            return Response::refused(cx.say(messages::NoDrawPending {
                command: self.0.name.to_string(),
                ruling: cx.table_ruling(),
            }));
        }
        let mut render = cx.host.view(current).render(false, None);
        render.draw_source = Some("moderator");
        let mut draft = Draft::of(current);
        let index = draft.stack.len() as u64;
        let drawn = match draft.session.manual_draw(self.0.name, args, index, &render) {
            Ok(Some(drawn)) => drawn,
            Ok(None) => {
                return Response::refused(cx.say(messages::NoDrawPending {
                    command: self.0.name.to_string(),
                    ruling: cx.table_ruling(),
                }))
            }
            Err(refusal) => {
                return Response::refused(cx.say(messages::Refused {
                    reason: refusal.render(&render),
                }))
            }
        };
        draft.push(Entry::Draw {
            manual: true,
            index: drawn.index,
            draw: drawn.draw,
            key: None,
        });
        // The first player of a new round may have no choice: played for them at once.
        let now = crate::weeks::pace::time_of(msg);
        let mut meta = current.meta();
        for (i, entry) in draft.entries.iter().enumerate() {
            meta.add(draft.next_seq + i as i64, entry, Some(now));
        }
        let mut proxied = Proxied::default();
        Mover::of(cx, current)
            .auto_proxies(&mut draft, &meta, now, &mut proxied)
            .await;
        let game_id = current.row.id.clone();
        let mut text = drawn.text;
        for made in &proxied.texts {
            text.push('\n');
            text.push_str(made);
        }
        let response = cx.commit_turn(draft, msg, text).await;
        proxied.stage_spent(&mut cx.ledger, &game_id);
        response
    }
}
