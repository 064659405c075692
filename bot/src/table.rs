//! A table: one channel's game. A message goes in, replies come out. The table enforces who
//! may do what, stores every accepted command before it answers, and posts the reports.

use std::sync::Arc;

use irish_gauge::notation::{parse_action, parse_cubes};
use irish_gauge::{Actor, Event, Game, HexId, Setup};

use crate::dice::{self, AuditExport, DrawRecord, Seed};
use crate::dump::StateDump;
use crate::extract::{extract, Commands};
use crate::history::{self, DiceMode, Effective, GameSetup, LogEntry, PlayerInfo};
use crate::report::{self, split_message, Templates, MESSAGE_LIMIT};
use crate::storage::{GameRow, LogRow, Store, StoreError};

/// The kind of game this table hosts, stored with each game.
pub const GAME_KIND: &str = "irish-gauge";

/// Who sent a message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Author {
    /// Transport id (Discord user id; the lower-case name in the console).
    pub id: String,
    /// Display name.
    pub name: String,
    /// Whether they may run moderator commands here.
    pub is_moderator: bool,
}

/// A user mentioned in a message (`<@id>` in the text).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mention {
    /// User id.
    pub id: String,
    /// Display name.
    pub name: String,
}

/// A message for the table.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Incoming {
    /// Message id, unique in the channel.
    pub message_id: String,
    /// Who sent it.
    pub author: Author,
    /// Its text.
    pub text: String,
    /// When it was sent (RFC 3339).
    pub at: String,
    /// Users mentioned in it.
    pub mentions: Vec<Mention>,
}

/// A file to post with a reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Attachment {
    /// File name.
    pub filename: String,
    /// Contents.
    pub bytes: Vec<u8>,
}

/// One message to post.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// Text, at most [`MESSAGE_LIMIT`] characters.
    pub text: String,
    /// An image or file.
    pub attachment: Option<Attachment>,
}

/// What the table made of a message.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Verdict {
    /// Chat: nothing for the bot.
    Ignored,
    /// A command was carried out and stored.
    Accepted,
    /// A command was refused; nothing changed.
    Refused,
    /// Only information was asked for.
    Answered,
    /// The message was processed before; nothing done again.
    Duplicate,
}

/// The table's answer to one message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// Messages to post, in order.
    pub replies: Vec<Reply>,
    /// What happened.
    pub verdict: Verdict,
}

impl Response {
    fn new(verdict: Verdict) -> Self {
        Response {
            replies: Vec::new(),
            verdict,
        }
    }

    fn say(mut self, text: impl AsRef<str>) -> Self {
        for part in split_message(text.as_ref(), MESSAGE_LIMIT) {
            self.replies.push(Reply {
                text: part,
                attachment: None,
            });
        }
        self
    }

    fn attach(mut self, attachment: Option<Attachment>) -> Self {
        if let Some(attachment) = attachment {
            match self.replies.last_mut() {
                Some(last) if last.attachment.is_none() => last.attachment = Some(attachment),
                _ => self.replies.push(Reply {
                    text: String::new(),
                    attachment: Some(attachment),
                }),
            }
        }
        self
    }

    /// All reply texts joined, for logs and tests.
    pub fn text(&self) -> String {
        self.replies
            .iter()
            .map(|r| r.text.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    }
}

/// Settings shared by all tables.
#[derive(Debug, Clone)]
pub struct TableSettings {
    /// The `!`-command prefix.
    pub prefix: String,
    /// Attach the map to the report after a build or special interest.
    pub map_after_build: bool,
    /// A fixed dice seed for every new game (tests and `--seed`); drawn from the OS otherwise.
    pub fixed_seed: Option<String>,
    /// Who is named as next actor while a manual draw is pending.
    pub moderator_name: String,
}

impl Default for TableSettings {
    fn default() -> Self {
        TableSettings {
            prefix: "!".to_string(),
            map_after_build: true,
            fixed_seed: None,
            moderator_name: "the moderator".to_string(),
        }
    }
}

/// A table failed to load.
#[derive(Debug, thiserror::Error)]
pub enum TableError {
    /// Storage failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A stored game does not replay.
    #[error("game {game}: {reason}")]
    Corrupt {
        /// Game id.
        game: String,
        /// What is wrong.
        reason: String,
    },
}

/// The loaded current game of a table.
#[derive(Debug, Clone)]
struct Current {
    row: GameRow,
    setup: GameSetup,
    seed: Option<Seed>,
    log: Vec<(LogEntry, LogRow)>,
    stack: Vec<Effective>,
    game: Game,
    /// Hexes placed in the last build, marked on the map.
    recent: Vec<HexId>,
}

impl Current {
    fn seated(&self) -> Vec<PlayerInfo> {
        self.setup.seated()
    }

    fn seat_of(&self, author: &Author) -> Option<usize> {
        // Seat order without cloning the players: seat i holds sign-up number order[i].
        self.setup.setup.order.iter().position(|&n| {
            self.setup
                .players
                .get(usize::from(n).saturating_sub(1))
                .is_some_and(|p| p.id == author.id)
        })
    }

    fn audited(&self) -> bool {
        self.setup.dice == DiceMode::Audited && !self.row.revealed
    }
}

/// One channel's table.
pub struct Table {
    channel: String,
    store: Store,
    templates: Arc<Templates>,
    settings: Arc<TableSettings>,
    current: Option<Current>,
}

/// Work in progress on a copy of the game, committed only when stored.
struct Draft {
    game: Game,
    stack: Vec<Effective>,
    entries: Vec<LogEntry>,
    next_seq: i64,
    revealed: bool,
}

impl Table {
    /// Loads the channel's active game, if any, by replaying its log.
    pub async fn load(
        channel: &str,
        store: Store,
        templates: Arc<Templates>,
        settings: Arc<TableSettings>,
    ) -> Result<Table, TableError> {
        let mut table = Table {
            channel: channel.to_string(),
            store,
            templates,
            settings,
            current: None,
        };
        table.reload().await?;
        Ok(table)
    }

    /// Rebuilds the table from the database.
    async fn reload(&mut self) -> Result<(), TableError> {
        let Some(row) = self.store.active_game(&self.channel).await? else {
            self.current = None;
            return Ok(());
        };
        let corrupt = |reason: String| TableError::Corrupt {
            game: row.id.clone(),
            reason,
        };
        let setup: GameSetup =
            serde_json::from_str(&row.setup_json).map_err(|e| corrupt(e.to_string()))?;
        let seed = row
            .seed_hex
            .as_deref()
            .map(Seed::from_hex)
            .transpose()
            .map_err(|e| corrupt(e.to_string()))?;
        let rows = self.store.log(&row.id).await?;
        let mut log = Vec::with_capacity(rows.len());
        for r in rows {
            let entry: LogEntry =
                serde_json::from_str(&r.entry_json).map_err(|e| corrupt(e.to_string()))?;
            log.push((entry, r));
        }
        let numbered: Vec<(i64, LogEntry)> = log.iter().map(|(e, r)| (r.seq, e.clone())).collect();
        let stack = history::effective(&numbered);
        let (game, events) =
            history::replay(&setup.setup, &stack).map_err(|e| corrupt(e.to_string()))?;
        let recent = events.last().map(|e| placed_hexes(e)).unwrap_or_default();
        self.current = Some(Current {
            row,
            setup,
            seed,
            log,
            stack,
            game,
            recent,
        });
        Ok(())
    }

    /// The channel.
    pub fn channel(&self) -> &str {
        &self.channel
    }

    /// The current game, if any.
    pub fn game(&self) -> Option<&Game> {
        self.current.as_ref().map(|c| &c.game)
    }

    /// The current game's id.
    pub fn game_id(&self) -> Option<&str> {
        self.current.as_ref().map(|c| c.row.id.as_str())
    }

    /// The state dump of the current game.
    pub fn dump(&self) -> Option<StateDump> {
        self.current
            .as_ref()
            .map(|c| StateDump::of(&c.game, &self.settings.moderator_name))
    }

    /// The mention of the player to act now, if a player is to act.
    pub fn player_to_act(&self) -> Option<PlayerInfo> {
        let current = self.current.as_ref()?;
        match current.game.to_act() {
            Actor::Player { seat } => current.seated().get(seat).cloned(),
            _ => None,
        }
    }

    /// Handles one message.
    pub async fn handle(&mut self, msg: &Incoming) -> Response {
        match self.store.seen(&self.channel, &msg.message_id).await {
            Ok(true) => return Response::new(Verdict::Duplicate),
            Ok(false) => {}
            Err(e) => return storage_refusal(&e),
        }
        match extract(&msg.text, &self.settings.prefix) {
            Commands::None => Response::new(Verdict::Ignored),
            Commands::Refused(reason) => {
                Response::new(Verdict::Refused).say(format!("{}: {reason}", msg.author.name))
            }
            Commands::Bang { name, args } => self.bang(&name, &args, msg).await,
            Commands::Bold(segments) => self.moves(&segments, msg).await,
        }
    }

    fn refuse(&self, text: impl AsRef<str>) -> Response {
        Response::new(Verdict::Refused).say(text)
    }

    fn no_game(&self) -> Response {
        self.refuse(format!(
            "There is no game in this channel. A moderator starts one with `{}setup @a @b @c`.",
            self.settings.prefix
        ))
    }

    // ----- Player moves -----

    async fn moves(&mut self, segments: &[String], msg: &Incoming) -> Response {
        let Some(current) = &self.current else {
            return self.no_game();
        };
        let mut draft = Draft {
            game: current.game.clone(),
            stack: current.stack.clone(),
            entries: Vec::new(),
            next_seq: current.log.len() as i64,
            revealed: current.row.revealed,
        };
        let mut narration = Vec::new();
        let mut refusal = None;
        let mut events_all = Vec::new();
        for (i, segment) in segments.iter().enumerate() {
            match self.one_move(current, &mut draft, segment, &msg.author) {
                Ok(events) => {
                    narration.push(self.narrate(&draft.game, &events, current));
                    events_all.push(events);
                }
                Err(reason) => {
                    let mut text = format!("❌ {}: **{segment}** — {reason}", msg.author.name);
                    if i + 1 < segments.len() {
                        text.push_str(" (the commands after it in that message were not read)");
                    }
                    refusal = Some(text);
                    break;
                }
            }
        }
        if draft.entries.is_empty() {
            if let Err(e) = self.store.mark_seen(&self.channel, &msg.message_id).await {
                return storage_refusal(&e);
            }
            return self.refuse(refusal.unwrap_or_default());
        }
        if draft.game.is_finished() && current.setup.dice == DiceMode::Audited && !draft.revealed {
            draft.entries.push(LogEntry::Reveal);
            draft.revealed = true;
        }
        let before_actor = current.game.to_act();
        if let Err(e) = self.commit(draft, msg).await {
            return storage_refusal(&e);
        }
        let recent: Vec<HexId> = events_all.iter().flat_map(|e| placed_hexes(e)).collect();
        if !recent.is_empty() {
            if let Some(c) = self.current.as_mut() {
                c.recent = recent.clone();
            }
        }
        let Some(current) = &self.current else {
            return self.no_game();
        };
        let turn_ended = events_all
            .iter()
            .flatten()
            .any(|e| matches!(e, Event::TurnBegan { .. } | Event::GameOver { .. }));
        let mut text = narration.join("\n");
        if let Some(refusal) = &refusal {
            text.push('\n');
            text.push_str(refusal);
        }
        let author_seat = current.seat_of(&msg.author);
        let ping = current.game.to_act() != before_actor || turn_ended;
        let body = if turn_ended {
            self.status_text(current, ping.then_some(author_seat).flatten(), ping)
        } else {
            self.prompt_text(current, author_seat, ping)
        };
        text.push('\n');
        text.push_str(&body);
        if current.game.is_finished() {
            text.push('\n');
            text.push_str(&self.reveal_text(current));
        }
        let map = if !recent.is_empty() && self.settings.map_after_build {
            self.map_attachment(current)
        } else {
            None
        };
        // Something was stored, so the message counts as accepted; a later refused command in
        // it is explained in the text.
        Response::new(Verdict::Accepted).say(text).attach(map)
    }

    /// Applies one bold command to the draft; the error is the refusal's reason.
    fn one_move(
        &self,
        current: &Current,
        draft: &mut Draft,
        segment: &str,
        author: &Author,
    ) -> Result<Vec<Event>, String> {
        let action = parse_action(segment).map_err(|e| e.to_string())?;
        if draft.game.is_finished() {
            return Err("the game is over".to_string());
        }
        let Some(seat) = current.seat_of(author) else {
            let names: Vec<String> = current.seated().into_iter().map(|p| p.name).collect();
            return Err(format!(
                "you are not seated in this game (the players are {})",
                names.join(", ")
            ));
        };
        let mut events = draft.game.play(seat, &action).map_err(|e| e.to_string())?;
        draft.stack.push(Effective {
            seq: draft.next_seq + draft.entries.len() as i64,
            entry: LogEntry::Action {
                seat,
                action: action.clone(),
            },
        });
        draft.entries.push(LogEntry::Action { seat, action });
        if let (Some(request), true, Some(seed)) =
            (draft.game.pending_draw(), !draft.revealed, &current.seed)
        {
            // Audited dice answer at once; the index is the draw's position in the history.
            let index = draft.stack.len() as u64;
            let cubes = dice::dividend_draw(seed, &current.row.id, index, request.supply);
            let more = draft
                .game
                .resolve_draw(&cubes)
                .map_err(|e| format!("the dice made an impossible draw: {e}"))?;
            let entry = LogEntry::Draw {
                cubes,
                manual: false,
                index,
                supply: request.supply,
            };
            draft.stack.push(Effective {
                seq: draft.next_seq + draft.entries.len() as i64,
                entry: entry.clone(),
            });
            draft.entries.push(entry);
            events.extend(more);
        }
        Ok(events)
    }

    /// Stores the draft's entries in one transaction, then makes it the current game.
    async fn commit(&mut self, draft: Draft, msg: &Incoming) -> Result<(), StoreError> {
        let Some(current) = self.current.as_mut() else {
            return Ok(());
        };
        let rows: Vec<LogRow> = draft
            .entries
            .iter()
            .enumerate()
            .map(|(i, entry)| LogRow {
                seq: draft.next_seq + i as i64,
                entry_json: serde_json::to_string(entry).unwrap_or_default(),
                message_id: msg.message_id.clone(),
                author_id: msg.author.id.clone(),
                author_name: msg.author.name.clone(),
                text: msg.text.clone(),
                at: msg.at.clone(),
            })
            .collect();
        let newly_revealed = draft.revealed && !current.row.revealed;
        self.store
            .append(
                &current.row.id,
                &self.channel,
                &rows,
                &msg.message_id,
                newly_revealed,
            )
            .await?;
        for (entry, row) in draft.entries.into_iter().zip(rows) {
            current.log.push((entry, row));
        }
        current.game = draft.game;
        current.stack = draft.stack;
        current.row.revealed = draft.revealed;
        Ok(())
    }

    fn narrate(&self, game: &Game, events: &[Event], current: &Current) -> String {
        let source = if current.audited() {
            Some("audited dice")
        } else {
            None
        };
        report::narrate(&self.templates, game, events, source)
            .unwrap_or_else(|e| format!("(report failed: {e})"))
    }

    fn mention_fn<'a>(
        &self,
        current: &'a Current,
        skip: Option<usize>,
        ping: bool,
    ) -> impl Fn(usize) -> String + 'a {
        let seated = current.seated();
        move |seat: usize| {
            let Some(player) = seated.get(seat) else {
                return String::new();
            };
            if ping && Some(seat) != skip {
                player.mention.clone()
            } else {
                player.name.clone()
            }
        }
    }

    fn prompt_text(&self, current: &Current, author_seat: Option<usize>, ping: bool) -> String {
        let mention = self.mention_fn(current, author_seat, ping);
        report::prompt(&current.game, &mention, &self.settings.prefix)
    }

    fn status_text(&self, current: &Current, author_seat: Option<usize>, ping: bool) -> String {
        let prompt = self.prompt_text(current, author_seat, ping);
        report::status(&self.templates, &current.row.id, &current.game, &prompt)
            .unwrap_or_else(|e| format!("(report failed: {e})"))
    }

    fn reveal_text(&self, current: &Current) -> String {
        match (&current.seed, current.row.revealed) {
            (Some(seed), true) => format!(
                "Dice seed revealed: `{}` (commitment `{}`). Check every draw: `{}audit`, then `python3 tools/verify_draws.py audit.json`.",
                seed.to_hex(),
                seed.commitment(),
                self.settings.prefix
            ),
            _ => String::new(),
        }
    }

    fn map_attachment(&self, current: &Current) -> Option<Attachment> {
        let dump = StateDump::of(&current.game, &self.settings.moderator_name);
        let mut value = serde_json::to_value(&dump).ok()?;
        if let Some(object) = value.as_object_mut() {
            object.insert(
                "recent".to_string(),
                serde_json::to_value(current.recent.iter().map(|h| h.label()).collect::<Vec<_>>())
                    .ok()?,
            );
        }
        let view: crate::map::MapView = serde_json::from_value(value).ok()?;
        let bytes = crate::map::render_png(&view).ok()?;
        Some(Attachment {
            filename: format!("{}-turn-{}.png", current.row.id, current.game.turn()),
            bytes,
        })
    }

    // ----- `!`-commands -----

    async fn bang(&mut self, name: &str, args: &str, msg: &Incoming) -> Response {
        let moderator_only = ["setup", "undo", "reveal", "draw"];
        if moderator_only.contains(&name) && !msg.author.is_moderator {
            return self.refuse(format!(
                "❌ {}: only a moderator may `{}{name}`.",
                msg.author.name, self.settings.prefix
            ));
        }
        match name {
            "setup" => self.setup(args, msg).await,
            "status" => match &self.current {
                Some(current) => {
                    Response::new(Verdict::Answered).say(self.status_text(current, None, false))
                }
                None => self.no_game(),
            },
            "moves" => self.legal_moves(msg),
            "undo" => self.undo(msg).await,
            "log" => self.log(args),
            "help" => Response::new(Verdict::Answered).say(
                self.templates
                    .help(args.trim(), &self.settings.prefix)
                    .unwrap_or_else(|e| e.to_string()),
            ),
            "audit" => self.audit(),
            "reveal" => self.reveal(args, msg).await,
            "draw" => self.manual_draw(args, msg).await,
            "map" => match &self.current {
                Some(current) => match self.map_attachment(current) {
                    Some(map) => Response::new(Verdict::Answered)
                        .say(format!("The board after turn {}.", current.game.turn()))
                        .attach(Some(map)),
                    None => self.refuse("The map could not be drawn."),
                },
                None => self.no_game(),
            },
            _ => self.refuse(format!(
                "Unknown command `{}{name}`; `{}help` lists the commands.",
                self.settings.prefix, self.settings.prefix
            )),
        }
    }

    async fn setup(&mut self, args: &str, msg: &Incoming) -> Response {
        let options = match SetupOptions::parse(args, &msg.mentions) {
            Ok(o) => o,
            Err(reason) => {
                return self.refuse(format!(
                "❌ {reason}. Write `{}setup @a @b @c [@d] [@e]`; `{}help setup` has the options.",
                self.settings.prefix, self.settings.prefix
            ))
            }
        };
        if let Some(current) = &self.current {
            if !current.game.is_finished() && !options.force {
                return self.refuse(format!(
                    "❌ A game is running in this channel ({}). Finish it, or add `force` to replace it.",
                    current.row.id
                ));
            }
        }
        let game_id = match self.store.game_count(&self.channel).await {
            Ok(n) => format!("{}-{}", self.channel, n + 1),
            Err(e) => return storage_refusal(&e),
        };
        let names: Vec<String> = options.players.iter().map(|p| p.name.clone()).collect();
        let (seed, order, cities) = match options.manual {
            Some((order, cities)) => (None, order, cities),
            None => {
                let seed = match &self.settings.fixed_seed {
                    Some(hex) => Seed::from_hex(hex),
                    None => Seed::generate(),
                };
                let seed = match seed {
                    Ok(s) => s,
                    Err(e) => return self.refuse(format!("❌ The dice failed: {e}")),
                };
                let order = dice::player_order(&seed, &game_id, names.len());
                let cities = dice::city_cubes(&seed, &game_id);
                (Some(seed), order, cities)
            }
        };
        let engine_setup = Setup {
            players: names,
            order: order.clone(),
            cities,
        };
        let game = match Game::new(&engine_setup) {
            Ok(g) => g,
            Err(e) => return self.refuse(format!("❌ {e}")),
        };
        let game_setup = GameSetup {
            players: options.players.clone(),
            setup: engine_setup,
            dice: if seed.is_some() {
                DiceMode::Audited
            } else {
                DiceMode::Manual
            },
        };
        let row = GameRow {
            id: game_id.clone(),
            channel: self.channel.clone(),
            kind: GAME_KIND.to_string(),
            engine_version: irish_gauge::VERSION.to_string(),
            created_at: msg.at.clone(),
            setup_json: serde_json::to_string(&game_setup).unwrap_or_default(),
            seed_hex: seed.as_ref().map(|s| s.to_hex()),
            commitment: seed.as_ref().map(|s| s.commitment()),
            revealed: false,
            active: true,
        };
        if let Err(e) = self.store.create_game(&row, &msg.message_id).await {
            return storage_refusal(&e);
        }
        let current = Current {
            row,
            setup: game_setup,
            seed,
            log: Vec::new(),
            stack: Vec::new(),
            game,
            recent: Vec::new(),
        };
        let mut text = format!(
            "**New game {game_id}** — Irish Gauge for {} players.\n",
            order.len()
        );
        match &current.seed {
            Some(seed) => text.push_str(&format!(
                "Dice commitment: `{}` (SHA-256 of the secret seed, revealed at the end).\n",
                seed.commitment()
            )),
            None => text.push_str(&format!(
                "Manual dice: every dividend call waits for the moderator's `{}draw`.\n",
                self.settings.prefix
            )),
        }
        let numbers = |v: &[u8]| v.iter().map(u8::to_string).collect::<Vec<_>>().join(", ");
        text.push_str(&format!(
            "Player order ({0}p{0}): {{{1}}} — {2}.\n",
            order.len(),
            numbers(&order),
            current
                .game
                .players()
                .iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        text.push_str(&format!(
            "City cubes (12p8): {{{}}} — {}.\n",
            numbers(&cities),
            report::cities_by_colour(&current.game).join(", ")
        ));
        text.push_str(&self.status_text(&current, None, true));
        self.current = Some(current);
        Response::new(Verdict::Accepted).say(text)
    }

    fn legal_moves(&self, msg: &Incoming) -> Response {
        let Some(current) = &self.current else {
            return self.no_game();
        };
        if let Actor::Player { seat } = current.game.to_act() {
            if current.seat_of(&msg.author) != Some(seat) {
                return Response::new(Verdict::Answered).say(format!(
                    "It is {}'s move, not yours. {}",
                    current.game.name(seat),
                    self.prompt_text(current, None, false)
                ));
            }
        }
        Response::new(Verdict::Answered).say(
            report::moves(&self.templates, &current.game, &self.settings.prefix)
                .unwrap_or_else(|e| e.to_string()),
        )
    }

    async fn undo(&mut self, msg: &Incoming) -> Response {
        let Some(current) = &self.current else {
            return self.no_game();
        };
        if current.row.revealed && current.setup.dice == DiceMode::Audited {
            return self.refuse(
                "❌ The dice seed has been revealed, so an undo could be used to choose draws; undo is closed for this game.",
            );
        }
        let mut stack = current.stack.clone();
        let Some(undone) = history::pop_unit(&mut stack) else {
            return self.refuse("❌ Nothing to undo: no action has been taken yet.");
        };
        let (game, events) = match history::replay(&current.setup.setup, &stack) {
            Ok(r) => r,
            Err(e) => return self.refuse(format!("❌ The undo does not replay: {e}")),
        };
        let draft = Draft {
            game,
            stack,
            entries: vec![LogEntry::Undo],
            next_seq: current.log.len() as i64,
            revealed: current.row.revealed,
        };
        let description = describe_undone(current, &undone);
        if let Err(e) = self.commit(draft, msg).await {
            return storage_refusal(&e);
        }
        if let Some(current) = self.current.as_mut() {
            current.recent = events.last().map(|e| placed_hexes(e)).unwrap_or_default();
        }
        let Some(current) = &self.current else {
            return self.no_game();
        };
        let text = format!(
            "↩️ Undone: {description}. It stays in `{}log`; redoing it from here gives the same dice.\n{}",
            self.settings.prefix,
            self.status_text(current, None, true)
        );
        Response::new(Verdict::Accepted).say(text)
    }

    fn log(&self, args: &str) -> Response {
        let Some(current) = &self.current else {
            return self.no_game();
        };
        let count: usize = args.trim().parse().unwrap_or(10).clamp(1, 50);
        let in_force: std::collections::HashSet<i64> =
            current.stack.iter().map(|e| e.seq).collect();
        let seated = current.seated();
        let start = current.log.len().saturating_sub(count);
        let mut lines = vec![format!(
            "**Log of {}** ({} entries, last {}):",
            current.row.id,
            current.log.len(),
            current.log.len() - start
        )];
        for (entry, row) in &current.log[start..] {
            let what = match entry {
                LogEntry::Action { seat, action } => format!(
                    "{}: **{action}**",
                    seated.get(*seat).map(|p| p.name.as_str()).unwrap_or("?")
                ),
                LogEntry::Draw { cubes, manual, .. } => format!(
                    "draw: {} ({})",
                    cubes.iter().map(|c| c.name()).collect::<Vec<_>>().join(" "),
                    if *manual { "moderator" } else { "audited dice" }
                ),
                LogEntry::Undo => format!("{}: undo", row.author_name),
                LogEntry::Reveal => "seed revealed".to_string(),
            };
            let undone = matches!(entry, LogEntry::Action { .. } | LogEntry::Draw { .. })
                && !in_force.contains(&row.seq);
            lines.push(
                format!(
                    "#{} {}{} — {}",
                    row.seq,
                    if undone { "~~" } else { "" },
                    what,
                    row.at
                ) + if undone { "~~ (undone)" } else { "" },
            );
        }
        Response::new(Verdict::Answered).say(lines.join("\n"))
    }

    /// The audit record of the current game: the seed only once revealed.
    pub fn audit_export(&self) -> Option<AuditExport> {
        let current = self.current.as_ref()?;
        let commitment = current.row.commitment.clone()?;
        let setup = &current.setup.setup;
        let mut draws = vec![
            DrawRecord {
                index: 0,
                purpose: dice::PURPOSE_PLAYER_ORDER.to_string(),
                supply: None,
                players: Some(setup.players.len()),
                result: serde_json::json!(setup.order),
            },
            DrawRecord {
                index: 0,
                purpose: dice::PURPOSE_CITY_CUBES.to_string(),
                supply: None,
                players: None,
                result: serde_json::json!(setup.cities),
            },
        ];
        for (entry, _) in &current.log {
            if let LogEntry::Draw {
                cubes,
                manual: false,
                index,
                supply,
            } = entry
            {
                draws.push(DrawRecord {
                    index: *index,
                    purpose: dice::PURPOSE_DIVIDEND_DRAW.to_string(),
                    supply: Some(*supply),
                    players: None,
                    result: serde_json::json!(cubes),
                });
            }
        }
        Some(AuditExport {
            version: dice::VERSION.to_string(),
            game_id: current.row.id.clone(),
            commitment,
            seed: if current.row.revealed {
                current.seed.as_ref().map(|s| s.to_hex())
            } else {
                None
            },
            draws,
        })
    }

    fn audit(&self) -> Response {
        let Some(current) = &self.current else {
            return self.no_game();
        };
        let Some(export) = self.audit_export() else {
            return Response::new(Verdict::Answered)
                .say("This game uses manual dice: every roll was made elsewhere and entered by the moderator.");
        };
        let mut lines = vec![
            format!("**Dice audit of {}** ({})", export.game_id, export.version),
            format!("Commitment: `{}`", export.commitment),
            match &export.seed {
                Some(seed) => format!(
                    "Seed: `{seed}` — check: `python3 tools/verify_draws.py` on the attached file"
                ),
                None => "Seed: secret until the end of the game (or the moderator's reveal)."
                    .to_string(),
            },
        ];
        for draw in &export.draws {
            lines.push(format!("#{} {}: {}", draw.index, draw.purpose, draw.result));
        }
        let bytes = serde_json::to_vec_pretty(&export).unwrap_or_default();
        Response::new(Verdict::Answered)
            .say(lines.join("\n"))
            .attach(Some(Attachment {
                filename: format!("audit-{}.json", current.row.id),
                bytes,
            }))
    }

    async fn reveal(&mut self, args: &str, msg: &Incoming) -> Response {
        let Some(current) = &self.current else {
            return self.no_game();
        };
        if current.seed.is_none() {
            return self.refuse("❌ This game uses manual dice: there is no seed to reveal.");
        }
        if current.row.revealed {
            return Response::new(Verdict::Answered).say(self.reveal_text(current));
        }
        if !current.game.is_finished() && args.trim() != "confirm" {
            return self.refuse(format!(
                "❌ The game is not over: once the seed is public every later draw is predictable, so the rest of the game would use manual draws (`{0}draw`). Write `{0}reveal confirm` to do it anyway.",
                self.settings.prefix
            ));
        }
        let draft = Draft {
            game: current.game.clone(),
            stack: current.stack.clone(),
            entries: vec![LogEntry::Reveal],
            next_seq: current.log.len() as i64,
            revealed: true,
        };
        if let Err(e) = self.commit(draft, msg).await {
            return storage_refusal(&e);
        }
        match &self.current {
            Some(current) => Response::new(Verdict::Accepted).say(self.reveal_text(current)),
            None => self.no_game(),
        }
    }

    async fn manual_draw(&mut self, args: &str, msg: &Incoming) -> Response {
        let Some(current) = &self.current else {
            return self.no_game();
        };
        if current.audited() {
            return self.refuse("❌ This game's dice are audited: the bot draws the cubes itself.");
        }
        let Some(request) = current.game.pending_draw() else {
            return self.refuse("❌ No draw is pending: `!draw` answers a dividend call.");
        };
        let cubes = match parse_cubes(args) {
            Ok(c) => c,
            Err(e) => return self.refuse(format!("❌ {e}")),
        };
        let mut game = current.game.clone();
        let events = match game.resolve_draw(&cubes) {
            Ok(e) => e,
            Err(e) => return self.refuse(format!("❌ {e}")),
        };
        let entry = LogEntry::Draw {
            cubes,
            manual: true,
            index: current.stack.len() as u64,
            supply: request.supply,
        };
        let mut stack = current.stack.clone();
        stack.push(Effective {
            seq: current.log.len() as i64,
            entry: entry.clone(),
        });
        let draft = Draft {
            game,
            stack,
            entries: vec![entry],
            next_seq: current.log.len() as i64,
            revealed: current.row.revealed,
        };
        if let Err(e) = self.commit(draft, msg).await {
            return storage_refusal(&e);
        }
        let Some(current) = &self.current else {
            return self.no_game();
        };
        let mut text = report::narrate(&self.templates, &current.game, &events, Some("moderator"))
            .unwrap_or_else(|e| e.to_string());
        text.push('\n');
        text.push_str(&self.status_text(current, None, true));
        Response::new(Verdict::Accepted).say(text)
    }
}

/// Hexes placed by an action's events.
fn placed_hexes(events: &[Event]) -> Vec<HexId> {
    events
        .iter()
        .flat_map(|e| match e {
            Event::LocomotivesPlaced { hexes, .. } => hexes.iter().map(|(h, _)| *h).collect(),
            Event::SpecialInterestPlaced { town, .. } => vec![*town],
            _ => Vec::new(),
        })
        .collect()
}

fn describe_undone(current: &Current, undone: &history::Undone) -> String {
    let seated = current.seated();
    undone
        .entries
        .iter()
        .map(|e| match &e.entry {
            LogEntry::Action { seat, action } => format!(
                "{}'s **{action}**",
                seated.get(*seat).map(|p| p.name.as_str()).unwrap_or("?")
            ),
            LogEntry::Draw { cubes, .. } => format!(
                "the draw {}",
                cubes.iter().map(|c| c.name()).collect::<Vec<_>>().join(" ")
            ),
            _ => String::new(),
        })
        .collect::<Vec<_>>()
        .join(" and ")
}

fn storage_refusal(error: &StoreError) -> Response {
    tracing::error!(%error, "storage failed; command not applied");
    Response::new(Verdict::Refused).say(format!(
        "⚠️ The game could not be saved ({error}). Nothing changed; please try again later."
    ))
}

/// Parsed `!setup` arguments.
#[derive(Debug, Clone, PartialEq, Eq)]
struct SetupOptions {
    players: Vec<PlayerInfo>,
    manual: Option<(Vec<u8>, [u8; 8])>,
    force: bool,
}

fn numbers(text: &str, what: &str) -> Result<Vec<u8>, String> {
    text.trim_matches(|c| c == '{' || c == '}')
        .split(',')
        .map(|n| {
            n.trim()
                .parse::<u8>()
                .map_err(|_| format!("'{}' in the {what} roll is not a number", n.trim()))
        })
        .collect()
}

impl SetupOptions {
    fn parse(args: &str, mentions: &[crate::table::Mention]) -> Result<SetupOptions, String> {
        let mut players = Vec::new();
        let mut dice_manual = false;
        let mut order = None;
        let mut cities = None;
        let mut force = false;
        for token in args.split_whitespace() {
            let lower = token.to_ascii_lowercase();
            if let Some(mode) = lower.strip_prefix("dice:") {
                match mode {
                    "manual" => dice_manual = true,
                    "audited" => dice_manual = false,
                    other => {
                        return Err(format!("unknown dice mode '{other}' (manual or audited)"))
                    }
                }
            } else if let Some(list) = lower.strip_prefix("order:") {
                order = Some(numbers(list, "order")?);
            } else if let Some(list) = lower.strip_prefix("cities:") {
                let list = numbers(list, "city")?;
                let array: [u8; 8] = list
                    .as_slice()
                    .try_into()
                    .map_err(|_| format!("the city roll needs 8 numbers, not {}", list.len()))?;
                cities = Some(array);
            } else if lower == "force" {
                force = true;
            } else if let Some(id) = token
                .strip_prefix("<@")
                .and_then(|t| t.strip_suffix('>'))
                .map(|t| t.trim_start_matches('!'))
            {
                if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
                    return Err(format!("'{token}' is not a user mention"));
                }
                let name = mentions
                    .iter()
                    .find(|m| m.id == id)
                    .map(|m| m.name.clone())
                    .unwrap_or_else(|| format!("user{id}"));
                players.push(PlayerInfo {
                    name,
                    id: id.to_string(),
                    mention: format!("<@{id}>"),
                });
            } else {
                let name = token.trim_start_matches('@').trim_matches(',');
                if name.is_empty() {
                    continue;
                }
                if !name
                    .chars()
                    .all(|c| c.is_alphanumeric() || "_-.".contains(c))
                {
                    return Err(format!(
                        "'{name}' is not a player name (letters, digits, _ - .)"
                    ));
                }
                players.push(PlayerInfo {
                    name: name.to_string(),
                    id: name.to_lowercase(),
                    mention: format!("@{name}"),
                });
            }
        }
        for (i, p) in players.iter().enumerate() {
            if players[..i].iter().any(|q| q.id == p.id) {
                return Err(format!("{} is listed twice", p.name));
            }
        }
        if !(3..=5).contains(&players.len()) {
            return Err(format!(
                "Irish Gauge is for 3 to 5 players; {} named",
                players.len()
            ));
        }
        let manual = match (dice_manual, order, cities) {
            (true, Some(order), Some(cities)) => Some((order, cities)),
            (true, _, _) => {
                return Err(
                    "dice:manual needs both rolls: order:3,1,2,4 and cities:5,2,3,11,4,7,9,12"
                        .into(),
                )
            }
            (false, None, None) => None,
            (false, _, _) => return Err("order: and cities: go with dice:manual".into()),
        };
        Ok(SetupOptions {
            players,
            manual,
            force,
        })
    }
}
