//! `!standings`: the standings of the server asked in, per kind ([`crate::table::standings`]),
//! with the link to the server's standings page when pages are served.

use async_trait::async_trait;

use crate::commands::registry::{table_command, Access, CommandSpec};
use crate::commands::{Command, Directory};
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::store::Store;
use crate::table::standings::{from_store, Scope};
use crate::table::{Cx, Host};

/// `!standings`.
pub(crate) struct Standings;

/// The standings of `scope`, and the link to its page when it is a server's and pages are
/// served (the page's token made and stored the first time).
async fn answer(host: &Host, store: &dyn Store, scope: Scope<'_>) -> Response {
    let kinds = match from_store(store, &host.games, scope).await {
        Ok(kinds) => kinds,
        Err(error) => return host.storage_refusal(&error),
    };
    let kinds = kinds
        .into_iter()
        .map(|k| serde_json::to_value(k).unwrap_or_default())
        .collect();
    let page = match (scope, &host.page_url) {
        // One server (the console): every game's page, which its web pages serve.
        (Scope::All, Some(base)) => Some(crate::answer::named_link(
            &format!("{}/standings", base.trim_end_matches('/')),
            "standings page",
        )),
        (Scope::Server(server), Some(base)) => {
            match store
                .standings_token(server, &crate::dice::fresh_page_token())
                .await
            {
                Ok(token) => token.map(|t| {
                    crate::answer::named_link(
                        &format!("{}/s/{t}", base.trim_end_matches('/')),
                        "standings page",
                    )
                }),
                Err(error) => {
                    tracing::warn!(%server, %error, "no standings page link");
                    None
                }
            }
        }
        _ => None,
    };
    let server = !matches!(scope, Scope::Channel(_));
    Response::new(Verdict::Answered).say(host.say(messages::Standings {
        kinds,
        server,
        page,
    }))
}

#[async_trait]
impl Command for Standings {
    fn spec(&self) -> CommandSpec {
        table_command(
            "standings",
            &["ranking"],
            Access::Anyone,
            &[],
            "every player's games, wins and rating in this server, per game",
        )
    }

    async fn run(&self, cx: &mut Cx, _args: &str, _msg: &Incoming) -> Response {
        // Answered across the tables (`run_from`), knowing the server; here only where no
        // channel is known: this table's games alone.
        let store = cx.ledger.store.clone();
        let channel = cx.ledger.channel.clone();
        answer(&cx.host, store.as_ref(), Scope::Channel(&channel)).await
    }

    async fn run_from(
        &self,
        tables: &dyn Directory,
        channel: &str,
        _args: &str,
        _msg: &Incoming,
    ) -> Option<Response> {
        let host = tables.host().clone();
        let store = tables.store().clone();
        let server = tables.server_of(channel);
        let scope = match &server {
            _ if tables.one_server() => Scope::All,
            Some(server) => Scope::Server(server),
            None => Scope::Channel(channel),
        };
        Some(answer(&host, store.as_ref(), scope).await)
    }
}
