//! The table's `!`-commands: information (`status`, `moves`, `map`, `log`, `help`, `audit`) and
//! moderation (`undo`, `reveal`, and the games' manual draws). `!setup` is in [`crate::commands::setup`].

use minijinja::context;
use serde::Serialize;

use crate::commands::registry::{Access, Form};
use crate::dice::AuditExport;
use crate::game::{DiceMode, ToAct};
use crate::input::{Attachment, Incoming, Response, Verdict};
use crate::record::log::{pop_unit, Entry};
use crate::record::GameRecord;
use crate::store::{time_text, LogRow};
use crate::table::{Current, Draft, Loaded, Table};

#[derive(Serialize)]
struct LogLine {
    seq: i64,
    undone: bool,
    what: String,
    at: String,
}

#[derive(Serialize)]
struct HelpCommand {
    usage: String,
    summary: &'static str,
    access: &'static str,
}

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

impl Table {
    pub(crate) fn status(&self) -> Response {
        match &self.loaded {
            Loaded::Running(current) => Response::new(Verdict::Answered)
                .say(current.session.status(&self.render(current, false, None))),
            Loaded::Frozen(frozen) => {
                Response::new(Verdict::Answered).say(self.frozen_text(frozen))
            }
            Loaded::Empty => self.no_game(),
        }
    }

    pub(crate) fn legal_moves(&self, msg: &Incoming) -> Response {
        let Loaded::Running(current) = &self.loaded else {
            return self.no_game();
        };
        let render = self.render(current, false, None);
        if let ToAct::Player { seat, .. } = current.session.to_act() {
            if current.seat_of(&msg.author) != Some(seat) {
                let player = current
                    .session
                    .seated()
                    .get(seat)
                    .map(|p| p.name.clone())
                    .unwrap_or_default();
                return Response::new(Verdict::Answered).say(self.message(
                    "not_your_move",
                    context! { player, prompt => current.session.prompt(&render) },
                ));
            }
        }
        Response::new(Verdict::Answered).say(current.session.moves(&render))
    }

    /// The picture of the running game as an attachment; `None` if the game has none.
    pub(crate) fn picture_attachment(
        &self,
        current: &Current,
    ) -> Option<Result<Attachment, String>> {
        let picture = current.session.picture()?;
        Some(picture.map_err(|e| e.to_string()).map(|bytes| Attachment {
            filename: format!("{}-{}.png", current.row.id, current.log.len()),
            bytes,
        }))
    }

    pub(crate) fn map(&self) -> Response {
        let Loaded::Running(current) = &self.loaded else {
            return self.no_game();
        };
        match self.picture_attachment(current) {
            Some(Ok(picture)) => Response::new(Verdict::Answered)
                .say(self.message("map", context! {}))
                .attach(Some(picture)),
            Some(Err(reason)) => self.refuse(self.message("no_map", context! { reason })),
            None => self.refuse(self.message(
                "no_picture",
                context! { title => current.session.info().title },
            )),
        }
    }

    pub(crate) fn log(&self, args: &str) -> Response {
        let Loaded::Running(current) = &self.loaded else {
            return self.no_game();
        };
        let count: usize = args.trim().parse().unwrap_or(10).clamp(1, 50);
        let in_force: std::collections::HashSet<i64> =
            current.stack.iter().map(|e| e.seq).collect();
        let start = current.log.len().saturating_sub(count);
        let meta = Self::meta_of(current);
        let lines: Vec<LogLine> = current.log[start..]
            .iter()
            .enumerate()
            .filter_map(|(i, (entry, row))| {
                let previous = (start + i)
                    .checked_sub(1)
                    .and_then(|p| current.log.get(p))
                    .map(|(e, _)| e);
                let what = match entry {
                    Entry::Table(event) => self.describe_table_event(event, &row.author_name)?,
                    Entry::Action { .. } => {
                        self.describe_move(current, &meta, row.seq, entry, previous)
                    }
                    _ => self.describe_entry(current, entry, &row.author_name),
                };
                Some(LogLine {
                    seq: row.seq,
                    undone: entry.is_play() && !in_force.contains(&row.seq),
                    what,
                    at: time_text(row.at),
                })
            })
            .collect();
        Response::new(Verdict::Answered).say(self.message(
            "log",
            context! { game_id => current.row.id, total => current.log.len(), lines },
        ))
    }

    fn describe_entry(&self, current: &Current, entry: &Entry, author: &str) -> String {
        match entry {
            Entry::Action { .. } => current.session.describe(entry, false),
            Entry::Draw { manual, .. } => format!(
                "draw: {} ({})",
                current.session.describe(entry, false),
                if *manual { "moderator" } else { "audited dice" }
            ),
            Entry::Undo => self.message("log_undo", context! { author }),
            Entry::Reveal => "seed revealed".to_string(),
            Entry::Table(event) => self.describe_table_event(event, author).unwrap_or_default(),
        }
    }

    pub(crate) fn help(&self, args: &str) -> Response {
        let topic = args.trim().trim_start_matches(&*self.host.settings.prefix);
        let topic = topic.to_ascii_lowercase();
        let prefix = &self.host.settings.prefix;
        let running = match &self.loaded {
            Loaded::Running(c) => Some(c.row.kind.clone()),
            _ => None,
        };
        // With no game running, the help describes the default game's moves.
        let game = running
            .as_deref()
            .and_then(|k| self.host.game(k))
            .or_else(|| self.host.games.first());
        let kind = game.map(|g| g.info().kind);
        let visible: Vec<_> = self.host.registry.for_game(kind).collect();
        let access = |a: Access| match a {
            Access::Anyone => "anyone",
            Access::Player => "player",
            Access::Moderator => "moderator",
        };
        let as_help = |c: &crate::commands::registry::CommandSpec| HelpCommand {
            usage: c.shown(prefix),
            summary: c.summary,
            access: access(c.access),
        };
        let moves: Vec<HelpCommand> = visible
            .iter()
            .filter(|c| c.form == Form::Move)
            .map(|c| as_help(c))
            .collect();
        let commands: Vec<HelpCommand> = visible
            .iter()
            .filter(|c| c.form == Form::Bang)
            .map(|c| as_help(c))
            .collect();
        let command = visible
            .iter()
            .find(|c| c.is_named(&topic))
            .map(|c| as_help(c));
        let game_template = kind.map(|k| format!("{k}/help.md.j2"));
        let game_help = match &game_template {
            Some(name) if !topic.is_empty() && self.host.templates.has(name) => self
                .host
                .templates
                .text(name, context! { topic, p => prefix }),
            _ => String::new(),
        };
        let mut topics = vec!["setup", "dice", "undo", "weeks"];
        topics.extend(
            visible
                .iter()
                .filter(|c| c.form == Form::Move)
                .map(|c| c.name),
        );
        let games: Vec<&str> = self.host.games.iter().map(|g| g.info().title).collect();
        let kinds: Vec<&str> = self.host.games.iter().map(|g| g.info().kind).collect();
        Response::new(Verdict::Answered).say(self.host.templates.text(
            "table/help.md.j2",
            context! { topic, p => prefix, moves, commands, command, game_help, topics, games, kinds },
        ))
    }

    /// The audit record of the current game: the seed only once revealed.
    pub fn audit_export(&self) -> Option<AuditExport> {
        // The record's draws, without the log numbering it adds to them.
        let record = self.record()?;
        let commitment = record.commitment?;
        let draws = record
            .draws
            .into_iter()
            .map(|mut d| {
                d.inputs.remove("seq");
                d.inputs.remove("undone");
                d
            })
            .collect();
        Some(AuditExport {
            version: record.version,
            game_id: record.game_id,
            commitment,
            seed: record.seed,
            draws,
        })
    }

    /// The complete record of the running game (the seed only once revealed).
    pub fn record(&self) -> Option<GameRecord> {
        let Loaded::Running(current) = &self.loaded else {
            return None;
        };
        let rows: Vec<LogRow> = current.log.iter().map(|(_, r)| r.clone()).collect();
        GameRecord::of(
            &current.row,
            &current.stored,
            &rows,
            current.session.as_ref(),
        )
        .ok()
    }

    fn record_attachment(&self, filename: String) -> Option<Attachment> {
        let record = self.record()?;
        Some(Attachment {
            filename,
            bytes: serde_json::to_vec_pretty(&record).ok()?,
        })
    }

    pub(crate) fn export(&self) -> Response {
        match &self.loaded {
            Loaded::Running(current) => {
                let file = format!("game-{}.json", current.row.id);
                Response::new(Verdict::Answered)
                    .say(self.message(
                        "export",
                        context! {
                            game_id => current.row.id, entries => current.log.len(), file,
                            sealed => current.seed.is_some() && !current.row.revealed,
                        },
                    ))
                    .attach(self.record_attachment(file))
            }
            // A frozen game's stored rows, as they are.
            Loaded::Frozen(_) => self.audit(),
            Loaded::Empty => self.no_game(),
        }
    }

    pub(crate) fn audit(&self) -> Response {
        match &self.loaded {
            Loaded::Running(current) => {
                let Some(export) = self.audit_export() else {
                    return Response::new(Verdict::Answered)
                        .say(self.message("manual_dice", context! {}));
                };
                let file = format!("audit-{}.json", current.row.id);
                let draws: Vec<_> = export
                    .draws
                    .iter()
                    .map(|d| context! { index => d.index, purpose => d.purpose, result => d.result.to_string() })
                    .collect();
                let text = self.message(
                    "audit",
                    context! {
                        game_id => export.game_id, version => export.version,
                        commitment => export.commitment, seed => export.seed, file, draws,
                    },
                );
                // The attachment is the whole game record: a superset of the audit export that
                // lets the verifiers check it is complete.
                Response::new(Verdict::Answered)
                    .say(text)
                    .attach(self.record_attachment(file))
            }
            Loaded::Frozen(frozen) => {
                let record = FrozenRecord {
                    game_id: &frozen.row.id,
                    kind: &frozen.row.kind,
                    engine_version: &frozen.row.engine_version,
                    created_at: time_text(frozen.row.created_at),
                    setup: serde_json::from_str(&frozen.row.setup_json)
                        .unwrap_or(serde_json::Value::String(frozen.row.setup_json.clone())),
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
                    .say(self.frozen_text(frozen))
                    .attach(Some(Attachment {
                        filename: format!("record-{}.json", frozen.row.id),
                        bytes: serde_json::to_vec_pretty(&record).unwrap_or_default(),
                    }))
            }
            Loaded::Empty => self.no_game(),
        }
    }

    pub(crate) fn reveal_text(&self, current: &Current) -> String {
        match (&current.seed, current.row.revealed) {
            (Some(seed), true) => self.message(
                "revealed",
                context! {
                    seed => seed.to_hex(), commitment => seed.commitment(),
                    file => format!("audit-{}.json", current.row.id),
                },
            ),
            _ => String::new(),
        }
    }

    pub(crate) async fn reveal(&mut self, args: &str, msg: &Incoming) -> Response {
        let Loaded::Running(current) = &self.loaded else {
            return self.no_game();
        };
        if current.seed.is_none() {
            return self.refuse(self.message("no_seed", context! {}));
        }
        if current.row.revealed {
            return Response::new(Verdict::Answered).say(self.reveal_text(current));
        }
        if !current.session.is_finished() && args.trim() != "confirm" {
            return self.refuse(self.message("reveal_needs_confirm", context! {}));
        }
        let mut draft = Draft::of(current);
        draft.entries.push(Entry::Reveal);
        draft.revealed = true;
        if let Err(e) = self.commit(draft, msg).await {
            return self.storage_refusal(&e);
        }
        match &self.loaded {
            Loaded::Running(current) => {
                Response::new(Verdict::Accepted).say(self.reveal_text(current))
            }
            _ => self.no_game(),
        }
    }

    pub(crate) async fn undo(&mut self, msg: &Incoming) -> Response {
        let Loaded::Running(current) = &self.loaded else {
            return self.no_game();
        };
        if current.row.revealed && current.stored.dice == DiceMode::Audited {
            return self.refuse(self.message("undo_closed", context! {}));
        }
        let mut stack = current.stack.clone();
        let Some(undone) = pop_unit(&mut stack) else {
            return self.refuse(self.message("nothing_to_undo", context! {}));
        };
        let mut session = match current
            .plugin
            .load(&current.stored.setup, current.stored.players.clone())
        {
            Ok(session) => session,
            Err(reason) => {
                let reason = reason.to_string();
                return self.refuse(self.message("undo_does_not_replay", context! { reason }));
            }
        };
        for item in &stack {
            if let Err(reason) = session.replay(&item.entry) {
                let reason = reason.to_string();
                return self.refuse(self.message("undo_does_not_replay", context! { reason }));
            }
        }
        crate::weeks::pace::substitute_all(&mut *session, &current.log);
        let what: Vec<String> = undone
            .entries
            .iter()
            .map(|e| match &e.entry {
                Entry::Draw { .. } => {
                    format!("the draw {}", current.session.describe(&e.entry, true))
                }
                entry => current.session.describe(entry, true),
            })
            .collect();
        let mut draft = Draft::of(current);
        draft.session = session;
        draft.stack = stack;
        draft.entries.push(Entry::Undo);
        if let Err(e) = self.commit(draft, msg).await {
            return self.storage_refusal(&e);
        }
        let Loaded::Running(current) = &self.loaded else {
            return self.no_game();
        };
        let text = format!(
            "{}\n{}",
            self.message("undone", context! { what }),
            self.after_turn(current, &self.render(current, true, None))
        );
        Response::new(Verdict::Accepted).say(text)
    }

    /// A game's manual draw command (`!draw …`, `!deal …`).
    pub(crate) async fn manual_draw(
        &mut self,
        command: &str,
        args: &str,
        msg: &Incoming,
    ) -> Response {
        let Loaded::Running(current) = &self.loaded else {
            return self.no_game();
        };
        if current.audited() {
            return self.refuse(self.message("dice_are_audited", context! {}));
        }
        if current.session.to_act() != ToAct::Draw {
            return self.refuse(self.message("no_draw_pending", context! { command }));
        }
        let mut render = self.render(current, false, None);
        render.draw_source = Some("moderator");
        let mut draft = Draft::of(current);
        let index = draft.stack.len() as u64;
        let drawn = match draft.session.manual_draw(command, args, index, &render) {
            Ok(Some(drawn)) => drawn,
            Ok(None) => return self.refuse(self.message("no_draw_pending", context! { command })),
            Err(refusal) => {
                let reason = refusal.render(&render);
                return self.refuse(self.message("refused", context! { reason }));
            }
        };
        draft.push(Entry::Draw {
            manual: true,
            index: drawn.index,
            draw: drawn.draw,
            key: None,
        });
        if let Err(e) = self.commit(draft, msg).await {
            return self.storage_refusal(&e);
        }
        let Loaded::Running(current) = &self.loaded else {
            return self.no_game();
        };
        let text = format!(
            "{}\n{}",
            drawn.text,
            self.after_turn(current, &self.render(current, true, None))
        );
        Response::new(Verdict::Accepted).say(text)
    }
}
