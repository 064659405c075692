//! The record of a game: `!audit` (the dice record) and `!export` (the complete record), both
//! with the whole game record as a file; a frozen game's stored rows as they are.

use async_trait::async_trait;
use serde::Serialize;

use crate::commands::registry::{table_command, Access, CommandSpec};
use crate::commands::Command;
use crate::input::{Attachment, Incoming, Response, Verdict};
use crate::messages;
use crate::store::time_text;
use crate::table::{Current, Cx, Loaded};

/// The record of a frozen game: what is stored, for moderators to keep or move elsewhere.
#[derive(Serialize)]
struct FrozenRecord<'a> {
    game_id: &'a str,
    kind: &'a str,
    engine_version: &'a str,
    created_at: String,
    setup: serde_json::Value,
    commitment: Option<&'a str>,
    failed_entry: Option<i64>,
    reason: &'a str,
    log: Vec<serde_json::Value>,
}

/// A frozen game's stored setup, as shown. Under dice v3 with the seed still secret the game's
/// own setup is left out: it may hold hidden draws (a deck's order), and a frozen game cannot
/// be loaded to say which fields are hidden (docs/DICE.md §7.2).
fn frozen_setup(row: &crate::store::GameRow) -> serde_json::Value {
    let Ok(mut setup) = serde_json::from_str::<serde_json::Value>(&row.setup_json) else {
        return serde_json::Value::String(row.setup_json.clone());
    };
    let v3 = setup.get("spec").and_then(serde_json::Value::as_str) == Some(crate::dice::VERSION_V3);
    if v3 && row.commitment.is_some() && !row.revealed {
        if let Some(map) = setup.as_object_mut() {
            map.insert(
                "setup".into(),
                serde_json::Value::from("(sealed until the seed is revealed)"),
            );
        }
    }
    setup
}

/// The whole game record as a file.
fn record_attachment(
    cx: &Cx,
    current: &Current,
    kind: &str,
    filename: String,
) -> Option<Attachment> {
    let record = current.record()?;
    Some(Attachment {
        filename,
        bytes: serde_json::to_vec_pretty(&record).ok()?,
        alt: cx.say(messages::Alt {
            kind: kind.into(),
            title: current.session.info().title.to_string(),
            game_id: current.row.id.clone(),
            entry: None,
            detail: Vec::new(),
        }),
    })
}

/// `!audit`: the dice record.
pub(crate) struct Audit;

#[async_trait]
impl Command for Audit {
    fn spec(&self) -> CommandSpec {
        table_command(
            "audit",
            &[],
            Access::Anyone,
            &[],
            "the dice record (the whole game record, as a file)",
        )
    }

    async fn run(&self, cx: &mut Cx, _args: &str, _msg: &Incoming) -> Response {
        match &cx.loaded {
            Loaded::Running(current) => {
                let Some(export) = current.audit_export() else {
                    return Response::new(Verdict::Answered).say(cx.say(messages::ManualDice {}));
                };
                let file = format!("audit-{}.json", current.row.id);
                let draws: Vec<_> = export
                    .draws
                    .iter()
                    .map(|d| messages::AuditLine {
                        index: d.index,
                        purpose: d.purpose.clone(),
                        result: d.result.to_string(),
                        sealed: d
                            .input("sealed")
                            .and_then(serde_json::Value::as_str)
                            .filter(|_| d.is_hidden() && d.result.is_null())
                            .map(|s| s[..s.len().min(12)].to_string()),
                    })
                    .collect();
                let text = cx.say(messages::Audit {
                    game_id: export.game_id.to_string(),
                    version: export.version.to_string(),
                    commitment: export.commitment.to_string(),
                    seed: export.seed,
                    file: file.to_string(),
                    draws,
                });
                // The attachment is the whole game record: a superset of the audit export that
                // lets the verifiers check it is complete.
                Response::new(Verdict::Answered)
                    .say(text)
                    .attach(record_attachment(cx, current, "audit", file))
            }
            Loaded::Frozen(frozen) => {
                let record = FrozenRecord {
                    game_id: &frozen.row.id,
                    kind: &frozen.row.kind,
                    engine_version: &frozen.row.engine_version,
                    created_at: time_text(frozen.row.created_at),
                    setup: frozen_setup(&frozen.row),
                    commitment: frozen.row.commitment.as_deref(),
                    failed_entry: frozen.seq,
                    reason: &frozen.reason,
                    log: frozen
                        .rows
                        .iter()
                        .map(|r| {
                            serde_json::json!({
                                "seq": r.seq, "entry": serde_json::from_str::<serde_json::Value>(&r.entry_json)
                                    .unwrap_or(serde_json::Value::String(r.entry_json.clone())),
                                "message_id": r.message_id, "author_id": r.author_id,
                                "author_name": r.author_name, "text": r.text, "at": time_text(r.at),
                            })
                        })
                        .collect(),
                };
                Response::new(Verdict::Answered)
                    .say(cx.host.frozen_text(frozen))
                    .attach(Some(Attachment {
                        filename: format!("record-{}.json", frozen.row.id),
                        bytes: serde_json::to_vec_pretty(&record).unwrap_or_default(),
                        alt: cx.say(messages::Alt {
                            kind: "record".into(),
                            title: frozen.title.clone(),
                            game_id: frozen.row.id.clone(),
                            entry: None,
                            detail: Vec::new(),
                        }),
                    }))
            }
            Loaded::Empty => cx.host.no_game(&cx.loaded),
        }
    }
}

/// `!export`: the complete game record, as a file.
pub(crate) struct Export;

#[async_trait]
impl Command for Export {
    fn spec(&self) -> CommandSpec {
        table_command(
            "export",
            &["record"],
            Access::Anyone,
            &[],
            "the complete game record, as a file",
        )
    }

    async fn run(&self, cx: &mut Cx, args: &str, msg: &Incoming) -> Response {
        match &cx.loaded {
            Loaded::Running(current) => {
                let file = format!("game-{}.json", current.row.id);
                Response::new(Verdict::Answered)
                    .say(cx.say(messages::Export {
                        game_id: current.row.id.to_string(),
                        entries: current.log.len(),
                        file: file.to_string(),
                        sealed: current.seed.is_some() && !current.row.revealed,
                    }))
                    .attach(record_attachment(cx, current, "record", file))
            }
            // A frozen game's stored rows, as they are.
            Loaded::Frozen(_) => Audit.run(cx, args, msg).await,
            Loaded::Empty => cx.host.no_game(&cx.loaded),
        }
    }
}
