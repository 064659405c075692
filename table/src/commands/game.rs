//! The games' own `!`-commands, from their plug-ins' specs: an answer the game gives (`!odds`)
//! or a manual draw it waits for (`!draw …`, `!deal …`), through this one handler.

use async_trait::async_trait;

use crate::commands::registry::CommandSpec;
use crate::commands::Command;
use crate::game::log::Entry;
use crate::game::ToAct;
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
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
            return cx.no_game();
        };
        if current.audited() {
            return cx.refuse(cx.say(messages::DiceAreAudited {}));
        }
        if current.session.to_act() != ToAct::Draw {
            return cx.refuse(cx.say(messages::NoDrawPending {
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
                return cx.refuse(cx.say(messages::NoDrawPending {
                    command: self.0.name.to_string(),
                    ruling: cx.table_ruling(),
                }))
            }
            Err(refusal) => {
                return cx.refuse(cx.say(messages::Refused {
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
        cx.commit_turn(draft, msg, drawn.text).await
    }
}
