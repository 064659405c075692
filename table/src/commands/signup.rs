//! Signups for the next game: `!signup open|close|cancel|status`, `!join` (or **sign up**),
//! `!leave`. How they open, extend, close and start a game is in [`crate::weeks::signup`].

use async_trait::async_trait;

use crate::commands::registry::{arg, table_command, Access, ArgKind, ArgSpec, CommandSpec};
use crate::commands::Command;
use crate::input::{Incoming, Response, Verdict};
use crate::messages;
use crate::table::Cx;
use crate::weeks::pace::time_of;

const SIGNUP_ARGS: &[ArgSpec] = &[
    arg(
        "action",
        ArgKind::Choice(&["open", "close", "cancel", "status"]),
        false,
        "open, close or cancel (moderators); status (anyone)",
    ),
    arg(
        "options",
        ArgKind::Text,
        false,
        "[game] players:3-4 closes:24h extend:24h start-after:72h",
    ),
];

/// `!signup …`: opens, closes, cancels or shows the signups.
pub(crate) struct Signup;

#[async_trait]
impl Command for Signup {
    fn spec(&self) -> CommandSpec {
        CommandSpec {
            example: "signup open [players:3-4] [closes:24h] [extend:24h] [start-after:72h]",
            ..table_command(
                "signup",
                &["signups"],
                Access::Anyone,
                SIGNUP_ARGS,
                "signups for the next game: moderators open, close or cancel them; status for anyone",
            )
        }
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        let args = args.trim();
        let (sub, rest) = args.split_once(char::is_whitespace).unwrap_or((args, ""));
        let sub = sub.to_ascii_lowercase();
        if matches!(sub.as_str(), "open" | "close" | "cancel") && !msg.author.is_moderator {
            return Response::refused(cx.say(messages::ModeratorOnly {
                author: msg.author.name.to_string(),
                command: format!("signup {sub}"),
                ruling: cx.table_ruling(),
            }));
        }
        let state = match cx.ledger.signups().await {
            Ok(state) => state,
            Err(e) => return cx.host.storage_refusal(&e),
        };
        match (sub.as_str(), state) {
            ("open", None) => crate::table::signups::open_signups(cx, rest, msg).await,
            ("open", Some(_)) => Response::refused(cx.say(messages::SignupAlreadyOpen {})),
            ("close", Some(state)) => {
                crate::table::signups::close_signups(cx, state, time_of(msg), true, &msg.message_id)
                    .await
            }
            ("cancel", Some(_)) => {
                cx.ledger.save_signups(None, &msg.message_id);
                Response::new(Verdict::Accepted).say(cx.say(messages::SignupCancelled {
                    by: msg.author.name.to_string(),
                }))
            }
            ("" | "status" | "list", Some(state)) => {
                Response::new(Verdict::Answered).say(cx.say(messages::SignupStatus {
                    change: String::new(),
                    player: String::new(),
                    signup: crate::table::signups::signup_data(cx, &state),
                }))
            }
            ("" | "status" | "list" | "close" | "cancel", None) => {
                Response::refused(cx.say(messages::SignupNone {}))
            }
            _ => Response::refused(cx.say(messages::SignupUsage { token: None })),
        }
    }
}

/// `!join`: signs the author up.
pub(crate) struct Join;

#[async_trait]
impl Command for Join {
    fn spec(&self) -> CommandSpec {
        table_command(
            "join",
            &["signmeup"],
            Access::Anyone,
            &[],
            "sign up for the next game; or post **sign up**",
        )
    }

    async fn run(&self, cx: &mut Cx, _args: &str, msg: &Incoming) -> Response {
        crate::table::signups::join(cx, msg).await
    }
}

/// `!leave`: withdraws the author's signup.
pub(crate) struct Leave;

#[async_trait]
impl Command for Leave {
    fn spec(&self) -> CommandSpec {
        table_command("leave", &[], Access::Anyone, &[], "withdraw your signup")
    }

    async fn run(&self, cx: &mut Cx, _args: &str, msg: &Incoming) -> Response {
        let mut state = match crate::table::signups::open_signups_state(cx).await {
            Ok(state) => state,
            Err(refusal) => return refusal,
        };
        let player = msg.author.name.clone();
        let before = state.players.len();
        state.players.retain(|p| p.id != msg.author.id);
        if state.players.len() == before {
            return Response::refused(cx.say(messages::SignupNotSigned {
                player: player.to_string(),
            }));
        }
        cx.ledger.save_signups(Some(&state), &msg.message_id);
        Response::new(Verdict::Accepted).say(cx.say(messages::SignupStatus {
            change: "left".into(),
            player,
            signup: crate::table::signups::signup_data(cx, &state),
        }))
    }
}
