//! A table: one channel's game. A message goes in, replies come out. The table enforces who may
//! do what, stores every accepted command before it answers, and renders every text from the
//! templates. It knows no game: the game's plug-in (chosen by the stored `kind`) does the rules.
//!
//! A game whose stored log no longer replays does not stop anything else: its table is
//! *frozen* — it says why in its channel, refuses moves, and lets moderators export the record
//! or start a new game with `!setup force`.

pub(crate) mod automa;
pub mod chart;
pub(crate) mod clock;
pub mod extract;
pub(crate) mod forced_run;
pub mod history;
pub(crate) mod ledger;
pub(crate) mod mover;
pub(crate) mod pending;
pub mod play;
pub(crate) mod posts;
pub mod prompt;
pub mod recap;
pub(crate) mod setup_after_post;
pub(crate) mod signups;
pub(crate) mod standing;
pub mod standings;
pub(crate) mod start;
pub(crate) mod view;

pub use crate::record::StoredSetup;

use std::sync::Arc;

use serde_json::Value;

use crate::dice::{AuditExport, Seed, Spec};
use crate::game::log::{effective, Effective, Entry};
use crate::game::session::{Refusal as GameRefusal, Session, SharedPlugin};
use crate::game::spec::Catalogue;
use crate::game::DiceMode;
use crate::input::{Author, Incoming, Response, Verdict};
use crate::messages;
use crate::messages::Message;
use crate::record::{GameRecord, RunningHead};
use crate::store::{GameRow, LogRow, Outgoing, StoreError, Write};
use crate::templates::Templates;
use crate::weeks::meta::{DecisionClock, Meta};
use chrono::{DateTime, Utc};

/// Settings shared by all tables.
#[derive(Debug, Clone)]
pub struct TableSettings {
    /// The `!`-command prefix.
    pub prefix: String,
    /// Attach the picture to the setup's announcement and to the report after a move that
    /// changes it.
    pub map_after_build: bool,
    /// A fixed dice seed for every new game (tests and `--seed`); drawn from the OS otherwise.
    pub fixed_seed: Option<Seed>,
    /// Who is named as next actor while a manual draw is pending.
    pub moderator_name: String,
    /// What is posted after a turn ends: the full status report, or only who acts next (when
    /// a live status is pinned elsewhere).
    pub report: Report,
    /// How hard automa seats think (`Standard` by default; `Cheap` for tests).
    pub automa: crate::game::automa::AutomaLevel,
    /// The dice specification of new games: `gaugebot-dice-v3` (the default); an earlier one
    /// only to make records of that version (tests, `gaugebot play --dice-spec`).
    pub dice_spec: Spec,
    /// A new v3 game with audited dice is set up in two steps (docs/DICE.md §3.3): `!setup`
    /// commits to the seed in a post of its own, and the setup draws wait for that post's id,
    /// the game's client seed, which nobody knew when the seed was committed.
    pub setup_after_commitment: bool,
}

/// The post after a turn.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub enum Report {
    /// The narration and the full status report (the forum moderator's format).
    #[default]
    Full,
    /// The narration and who acts next.
    Compact,
}

impl Default for TableSettings {
    fn default() -> Self {
        TableSettings {
            prefix: "!".to_string(),
            map_after_build: true,
            fixed_seed: None,
            moderator_name: "the moderator".to_string(),
            report: Report::Full,
            automa: crate::game::automa::AutomaLevel::Standard,
            dice_spec: Spec::V3,
            setup_after_commitment: false,
        }
    }
}

/// What every table of a bot shares: the games, the templates, the command registry and the
/// settings. The first game is the one `!setup` starts when no game is named.
pub struct Host {
    /// The registered games.
    pub games: Vec<SharedPlugin>,
    /// All wording.
    pub templates: Templates,
    /// Every command's spec (the handlers are in the tables' [`crate::commands::registry`]).
    pub commands: Catalogue,
    /// Settings.
    pub settings: TableSettings,
    /// Where the games' web pages are served (`https://games.example.org`), if they are: every
    /// report then links its game's page ([`crate::answer::Span::Link`]).
    pub page_url: Option<String>,
}

impl Host {
    /// One of the table's messages ([`crate::messages`]), with the bot's prefix.
    pub fn say<M: Message>(&self, msg: M) -> String {
        self.templates.say(&msg, &self.settings.prefix)
    }

    /// The rule reference the table's own refusals cite: the game's of `kind`, or with no
    /// game every game's (`ruling 27, P17`).
    pub fn table_ruling(&self, kind: Option<&str>) -> String {
        match kind.and_then(|k| self.game(k)) {
            Some(game) => game.table_ruling().to_string(),
            None => self
                .games
                .iter()
                .map(|g| g.table_ruling())
                .filter(|r| !r.is_empty())
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// Replays a stored game: its setup, then every entry in force.
    pub(crate) fn replay(
        &self,
        row: &GameRow,
        rows: &[LogRow],
    ) -> Result<Current, (Option<i64>, String)> {
        let plugin = self
            .game(&row.kind)
            .cloned()
            .ok_or_else(|| (None, format!("this bot has no game of kind '{}'", row.kind)))?;
        let stored: StoredSetup = serde_json::from_str(&row.setup_json)
            .map_err(|e| (None, format!("the setup does not read: {e}")))?;
        let seed = row
            .seed_hex
            .as_deref()
            .map(Seed::from_hex)
            .transpose()
            .map_err(|e| (None, e.to_string()))?;
        let mut log = Vec::with_capacity(rows.len());
        for r in rows {
            let value: Value = serde_json::from_str(&r.entry_json)
                .map_err(|e| (Some(r.seq), format!("the entry does not read: {e}")))?;
            let entry = Entry::from_json(&value).map_err(|e| (Some(r.seq), e.to_string()))?;
            log.push((entry, r.clone()));
        }
        let stack = effective(log.iter().map(|(e, r)| (r.seq, e)));
        let mut session = plugin
            .load(&stored.setup, stored.players.clone())
            .map_err(|e| (None, format!("the setup is not valid: {e}")))?;
        for item in &stack {
            session
                .replay(&item.entry)
                .map_err(|e| (Some(item.seq), e.to_string()))?;
        }
        crate::weeks::meta::substitute_all(&mut *session, &log);
        let head = RunningHead::of(
            row,
            &stored,
            session.as_ref(),
            log.iter().map(|(e, r)| (e, r)),
        );
        Ok(Current {
            row: row.clone(),
            plugin,
            stored,
            seed,
            log,
            stack,
            session,
            head,
            report: std::sync::OnceLock::new(),
            page: None,
        })
    }

    /// The refusal when storage failed (the command is not applied).
    pub(crate) fn storage_refusal(&self, error: &StoreError) -> Response {
        tracing::error!(%error, "storage failed; command not applied");
        Response::new(Verdict::Refused).say(self.say(messages::Storage {
            error: error.to_string(),
        }))
    }

    /// The refusal when there is no game to play at a table with `loaded`: none, or a frozen
    /// one.
    pub(crate) fn no_game(&self, loaded: &Loaded) -> Response {
        match loaded {
            Loaded::Frozen(f) => Response::refused(self.frozen_text(f)),
            _ => Response::refused(self.say(messages::NoGame {})),
        }
    }

    /// The refusal when no game is being played at a table with `loaded` (none, frozen or
    /// over).
    pub(crate) fn not_playing(&self, loaded: &Loaded) -> Response {
        match loaded {
            Loaded::Running(_) => Response::refused(self.say(messages::NotPlaying {})),
            _ => self.no_game(loaded),
        }
    }

    /// What a frozen table says: which entry of its log failed, and why.
    pub(crate) fn frozen_text(&self, frozen: &Frozen) -> String {
        self.say(messages::Frozen {
            game_id: frozen.row.id.to_string(),
            title: frozen.title.to_string(),
            seq: frozen.seq,
            reason: frozen.reason.to_string(),
        })
    }

    /// The game of a stored kind, or named after `!setup`.
    pub fn game(&self, name: &str) -> Option<&SharedPlugin> {
        self.games.iter().find(|g| g.info().is_named(name))
    }
}

/// A table failed to load because storage failed (a log that does not replay freezes the
/// table instead).
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// Why a move (a player's, or one the table makes for a seat) was refused: typed until
/// [`Cx::refusal_text`] renders it.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// The game is over.
    GameOver,
    /// The author has no seat; the players are these.
    NotSeated { players: Vec<String> },
    /// The author is not to act and wrote no move that reads: it is this player's turn (their
    /// bid, in an auction).
    NotYourTurn { player: String, auction: bool },
    /// A v2 draw without a message id to key it.
    NoMessageKey,
    /// The game refused it: its typed refusal, rendered by the game's refusal template.
    Game(GameRefusal),
}

/// The loaded current game of a table.
pub(crate) struct Current {
    pub(crate) row: GameRow,
    pub(crate) plugin: SharedPlugin,
    pub(crate) stored: StoredSetup,
    pub(crate) seed: Option<Seed>,
    pub(crate) log: Vec<(Entry, LogRow)>,
    pub(crate) stack: Vec<Effective>,
    pub(crate) session: Box<dyn Session>,
    /// The record's chain head after the stored log.
    pub(crate) head: RunningHead,
    /// The status report as anyone sees it (no ping, nobody left out), rendered once per
    /// position: `!status` and the pinned status share it ([`Cx::report`]); every commit
    /// clears it.
    pub(crate) report: std::sync::OnceLock<String>,
    /// The address of the game's web page, once its token is stored (pages served only).
    pub(crate) page: Option<String>,
}

impl Current {
    pub(crate) fn seat_of(&self, author: &Author) -> Option<usize> {
        self.session.seated().iter().position(|p| p.id == author.id)
    }

    /// The seated players' names, in seat order.
    pub(crate) fn seat_names(&self) -> Vec<String> {
        self.session
            .seated()
            .iter()
            .map(|p| p.name.clone())
            .collect()
    }

    /// The table-level state of the game (clocks, absences, substitutes), from its log.
    pub(crate) fn meta(&self) -> Meta {
        Meta::of(
            self.row.created_at,
            self.log.iter().map(|(entry, row)| (row.seq, entry, row.at)),
        )
    }

    /// The complete record of the game (the seed only once revealed).
    pub(crate) fn record(&self) -> Option<GameRecord> {
        let rows: Vec<LogRow> = self.log.iter().map(|(_, r)| r.clone()).collect();
        GameRecord::of(&self.row, &self.stored, &rows, self.session.as_ref()).ok()
    }

    /// The audit record of the game: the record's draws, without the log numbering it adds.
    pub(crate) fn audit_export(&self) -> Option<AuditExport> {
        let record = self.record()?;
        let commitment = record.commitment?;
        let draws = record
            .draws
            .into_iter()
            .map(|mut d| {
                for field in ["seq", "undone", "prev", "trigger", "bot_made"] {
                    d.inputs.remove(field);
                }
                d
            })
            .collect();
        Some(AuditExport {
            format: Some(record.format),
            client_seed: record.client_seed,
            version: record.version,
            game_id: record.game_id,
            commitment,
            seed: record.seed,
            draws,
        })
    }

    /// Whether draws are made by the audited dice now (a game imported without its seed
    /// continues with manual draws).
    pub(crate) fn audited(&self) -> bool {
        self.stored.dice == DiceMode::Audited && !self.row.revealed && self.seed.is_some()
    }
}

/// A game whose log no longer replays.
pub(crate) struct Frozen {
    pub(crate) row: GameRow,
    pub(crate) title: String,
    /// The entry that failed, if one did.
    pub(crate) seq: Option<i64>,
    pub(crate) reason: String,
    pub(crate) rows: Vec<LogRow>,
}

/// What a table holds.
pub(crate) enum Loaded {
    /// No game.
    Empty,
    /// A game that plays.
    Running(Box<Current>),
    /// A game that cannot be played.
    Frozen(Box<Frozen>),
}

/// What a command works with: the channel, the store, the host and the loaded game.
///
/// A command changes the loaded game in memory and stages its writes ([`Cx::stage`]); the
/// table hands them out in its decision and stores them at its commit, in one transaction with
/// the adapter's outbox item ([`Cx::flush`]). If that fails, the table is rebuilt from the store: nothing of the
/// command stays.
pub(crate) struct Cx {
    /// What every table shares: the games, the templates, the settings.
    pub(crate) host: Arc<Host>,
    /// The game loaded.
    pub(crate) loaded: Loaded,
    /// The channel, its store and what the command being handled writes.
    pub(crate) ledger: ledger::Ledger,
    /// Who last posted in the channel, for recaps "since you last posted".
    pub(crate) posts: posts::Posts,
}

impl Loaded {
    /// The running game (over or not).
    pub(crate) fn running(&self) -> Option<&Current> {
        match self {
            Loaded::Running(c) => Some(c),
            _ => None,
        }
    }

    /// The running game, if it is not over.
    pub(crate) fn playing(&self) -> Option<&Current> {
        self.running().filter(|c| !c.session.is_finished())
    }

    /// The clock of the decision the running game waits for, at `now`.
    pub(crate) fn decision_clock(&self, now: DateTime<Utc>) -> Option<DecisionClock> {
        let current = self.playing()?;
        current
            .meta()
            .clock_of(current.session.to_act(), current.session.seated(), now)
    }

    /// The current game's row (running or frozen).
    pub(crate) fn row(&self) -> Option<&GameRow> {
        match self {
            Loaded::Empty => None,
            Loaded::Running(c) => Some(&c.row),
            Loaded::Frozen(f) => Some(&f.row),
        }
    }
}

/// Moves and draws tried on a copy of the game, committed only when stored.
pub(crate) struct Draft {
    pub(crate) session: Box<dyn Session>,
    pub(crate) stack: Vec<Effective>,
    pub(crate) entries: Vec<Entry>,
    pub(crate) next_seq: i64,
    pub(crate) revealed: bool,
}

impl Draft {
    pub(crate) fn of(current: &Current) -> Draft {
        Draft {
            session: current.session.box_clone(),
            stack: current.stack.clone(),
            entries: Vec::new(),
            next_seq: current.log.len() as i64,
            revealed: current.row.revealed,
        }
    }

    /// Adds an entry in force.
    pub(crate) fn push(&mut self, entry: Entry) {
        self.stack.push(Effective {
            seq: self.next_seq + self.entries.len() as i64,
            entry: entry.clone(),
        });
        self.entries.push(entry);
    }
}

impl Cx {
    /// Stores a command's writes ([`ledger::Ledger::take_staged`]), and `outgoing` with them, in one
    /// transaction, the first write marking the command's message `read` (the store refuses
    /// the whole write if it was read before: [`StoreError::AlreadyRead`]). On failure nothing
    /// is stored and the table is rebuilt from the store (or, if that fails too, rebuilt before
    /// the next command), so the command leaves no trace.
    pub(crate) async fn flush(
        &mut self,
        staged: Vec<Write>,
        read: Option<&str>,
        outgoing: Option<Outgoing>,
    ) -> Result<(), StoreError> {
        if staged.is_empty() {
            return Ok(());
        }
        let read = read.map(|message_id| Write::Read {
            channel: self.ledger.channel.clone(),
            message_id: message_id.to_string(),
        });
        let writes: Vec<Write> = read
            .into_iter()
            .chain(staged)
            .chain(outgoing.map(Write::Outbox))
            .collect();
        let Err(error) = self.ledger.store.write(&writes).await else {
            self.ledger.presets.committed(&writes);
            self.ledger.stale = false;
            // A game set up by this write gets its page now that its row is stored.
            self.attach_page().await;
            return Ok(());
        };
        match self.reload().await {
            Ok(()) => self.ledger.stale = false,
            Err(reload) => {
                tracing::error!(channel = %self.ledger.channel, error = %reload, "the table cannot be rebuilt after a failed write; retried before its next command");
                self.ledger.stale = true;
            }
        }
        Err(error)
    }

    /// Rebuilds the table from the store if a failed write left it stale.
    pub(crate) async fn refresh(&mut self) -> Result<(), StoreError> {
        self.ledger.staged.clear();
        if self.ledger.stale {
            self.reload().await.map_err(|e| match e {
                TableError::Store(e) => e,
            })?;
            self.ledger.stale = false;
        }
        Ok(())
    }

    /// Rebuilds the table from the database.
    /// Gives the running game the address of its web page, its token made and stored the first
    /// time (pages served only; a store failure leaves the reports without the link).
    pub(crate) async fn attach_page(&mut self) {
        let Some(base) = self.host.page_url.clone() else {
            return;
        };
        let Loaded::Running(current) = &mut self.loaded else {
            return;
        };
        if current.page.is_some() {
            return;
        }
        match self
            .ledger
            .store
            .page_token(&current.row.id, &crate::dice::fresh_page_token())
            .await
        {
            Ok(Some(token)) => {
                current.page = Some(format!("{}/g/{token}", base.trim_end_matches('/')));
                current.report = std::sync::OnceLock::new();
            }
            Ok(None) => {}
            Err(error) => {
                tracing::warn!(game = %current.row.id, %error, "no web page for the game's reports")
            }
        }
    }

    pub(crate) async fn reload(&mut self) -> Result<(), TableError> {
        self.ledger.presets.clear();
        let Some(row) = self.ledger.store.active_game(&self.ledger.channel).await? else {
            self.loaded = Loaded::Empty;
            return Ok(());
        };
        let rows = self.ledger.store.log(&row.id).await?;
        self.loaded = match self.host.replay(&row, &rows) {
            Ok(current) => Loaded::Running(Box::new(current)),
            Err((seq, reason)) => {
                tracing::error!(channel = %self.ledger.channel, game = %row.id, ?seq, %reason, "a stored game does not replay; the table is frozen");
                let title = self
                    .host
                    .game(&row.kind)
                    .map(|g| g.info().title.to_string())
                    .unwrap_or_else(|| row.kind.clone());
                Loaded::Frozen(Box::new(Frozen {
                    row,
                    title,
                    seq,
                    reason,
                    rows,
                }))
            }
        };
        self.attach_page().await;
        Ok(())
    }

    // ----- shared helpers -----

    /// One of the table's messages ([`crate::messages`]).
    pub(crate) fn say<M: Message>(&self, msg: M) -> String {
        self.host.templates.say(&msg, &self.host.settings.prefix)
    }

    /// The rule reference the table's own refusals cite here ([`Host::table_ruling`]).
    pub(crate) fn table_ruling(&self) -> String {
        self.host
            .table_ruling(self.loaded.row().map(|r| r.kind.as_str()))
    }

    /// Stages the draft's entries (stored with the command's other writes), then makes it the
    /// current game.
    pub(crate) fn commit(&mut self, draft: Draft, msg: &Incoming) {
        let Loaded::Running(current) = &mut self.loaded else {
            return;
        };
        let rows: Vec<LogRow> = draft
            .entries
            .iter()
            .enumerate()
            .map(|(i, entry)| LogRow {
                seq: draft.next_seq + i as i64,
                entry_json: entry.to_json().to_string(),
                message_id: msg.message_id.clone(),
                author_id: msg.author.id.clone(),
                author_name: msg.author.name.clone(),
                text: msg.text.clone(),
                at: msg.stored_time(),
            })
            .collect();
        let newly_revealed = draft.revealed && !current.row.revealed;
        self.ledger.staged.push(Write::Append {
            game_id: current.row.id.clone(),
            channel: self.ledger.channel.clone(),
            rows: rows.clone(),
            message_id: msg.message_id.clone(),
            revealed: newly_revealed,
        });
        let start = current.log.len();
        for (entry, row) in draft.entries.into_iter().zip(rows) {
            current.log.push((entry, row));
        }
        current.head.extend(
            &current.row,
            &current.stored,
            draft.session.as_ref(),
            current.log[start..].iter().map(|(e, r)| (e, r)),
        );
        current.session = draft.session;
        current.report = std::sync::OnceLock::new();
        current.stack = draft.stack;
        current.row.revealed = draft.revealed;
    }
}
