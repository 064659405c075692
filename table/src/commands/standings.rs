//! `!standings`: the server's standings, every game the bot keeps, per kind
//! ([`crate::table::standings`]).

use async_trait::async_trait;

use crate::commands::registry::{table_command, Access, CommandSpec};
use crate::commands::Command;
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::table::standings::from_store;
use crate::table::Cx;

/// `!standings`.
pub(crate) struct Standings;

#[async_trait]
impl Command for Standings {
    fn spec(&self) -> CommandSpec {
        table_command(
            "standings",
            &["ranking"],
            Access::Anyone,
            &[],
            "every player's games, wins and rating, per game",
        )
    }

    async fn run(&self, cx: &mut Cx, _args: &str, _msg: &Incoming) -> Response {
        let store = cx.ledger.store.clone();
        match from_store(store.as_ref(), &cx.host.games).await {
            Ok(kinds) => {
                let kinds = kinds
                    .into_iter()
                    .map(|k| serde_json::to_value(k).unwrap_or_default())
                    .collect();
                Response::new(Verdict::Answered).say(cx.say(messages::Standings { kinds }))
            }
            Err(error) => cx.host.storage_refusal(&error),
        }
    }
}
