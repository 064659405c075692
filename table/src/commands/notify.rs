//! `!notify dm` / `!notify off` / `!notify`: how turn pings reach a player — also by direct
//! message, or in the channel only. One choice per player (their transport id), for every
//! server and game, stored apart from any game ([`crate::Store::set_notify_mode`]); asked in a
//! direct message to the bot or in any channel. The direct messages themselves are added where
//! a table's answer pings the player to act (`tables/notify.rs`).

use async_trait::async_trait;

use crate::commands::registry::{arg, table_command, Access, ArgKind, ArgSpec, CommandSpec};
use crate::commands::{Command, Directory};
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::table::Cx;

/// The mode of a player who asked for direct messages (`!notify dm`).
pub(crate) const NOTIFY_DM: &str = "dm";

const NOTIFY_ARGS: &[ArgSpec] = &[arg(
    "how",
    ArgKind::Choice(&["dm", "off"]),
    false,
    "dm: also by direct message; off: in the channel only",
)];

/// `!notify [dm|off]`.
pub(crate) struct Notify;

#[async_trait]
impl Command for Notify {
    fn spec(&self) -> CommandSpec {
        table_command(
            "notify",
            &[],
            Access::Anyone,
            NOTIFY_ARGS,
            "your turn pings and reminders also by direct message (dm), or not (off)",
        )
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        // Always answered across the tables; here only if a transport asked one table.
        let host = cx.host.clone();
        let store = cx.ledger.store.clone();
        notify(&host, &*store, args, msg).await
    }

    async fn run_across(
        &self,
        tables: &dyn Directory,
        _dm: bool,
        args: &str,
        msg: &Incoming,
    ) -> Option<Response> {
        let host = tables.host().clone();
        Some(notify(&host, &**tables.store(), args, msg).await)
    }
}

/// Reads, or sets and confirms, the author's choice.
async fn notify(
    host: &crate::table::Host,
    store: &dyn crate::store::Store,
    args: &str,
    msg: &Incoming,
) -> Response {
    let player = msg.author.name.clone();
    let wanted = match args.trim().to_ascii_lowercase().as_str() {
        "" => None,
        "dm" | "dms" | "direct" | "on" => Some(Some(NOTIFY_DM)),
        "off" | "channel" | "none" => Some(None),
        other => {
            return Response::new(Verdict::Refused).say(host.say(messages::NotifyUsage {
                text: other.to_string(),
            }))
        }
    };
    let storage = |error: crate::store::StoreError| {
        Response::new(Verdict::Refused).say(host.say(messages::Storage {
            error: error.to_string(),
        }))
    };
    match wanted {
        None => match store.notify_mode(&msg.author.id).await {
            Ok(mode) => Response::new(Verdict::Answered).say(host.say(messages::Notify {
                player,
                mode,
                changed: false,
            })),
            Err(error) => storage(error),
        },
        Some(mode) => match store.set_notify_mode(&msg.author.id, mode).await {
            Ok(()) => Response::new(Verdict::Accepted).say(host.say(messages::Notify {
                player,
                mode: mode.map(str::to_string),
                changed: true,
            })),
            Err(error) => storage(error),
        },
    }
}
