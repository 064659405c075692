//! Kill campaign (issue #6.1): long audited games driven through the real `gaugebot play`
//! binary on one database file, killed with SIGKILL at random moments (while idle, right after a
//! line is written, at a random delay into its processing, with half a line written, during
//! start-up) and restarted on the same file, again and again.
//!
//! After every kill the database is opened in this process and checked against an independent
//! model (the engine plus the dice derivation):
//! - every command whose end marker was printed before the kill is in the log exactly once,
//!   with exactly the entries the model predicts (action, audited draw, reveal), in order;
//! - the command in flight is either wholly there (all its entries, marked seen) or wholly
//!   absent (no entry, not marked seen, so its re-delivery is applied);
//! - the game loaded from the file (`Table::load`) and a replay of the log through
//!   `irish_gauge::table::log::replay` both equal the model's game.
//!
//! After each restart the command in flight is delivered again with the same message id, as
//! Discord's catch-up would: stored before, it must be a silent duplicate; lost, it must now be
//! accepted. At the end the process's `--dump-state` must equal the model's state.
//!
//! `GAUGEBOT_KILLS` sets the number of kills (default 20, the CI form); the long form:
//! `GAUGEBOT_KILLS=150 cargo test --release -p gaugebot --test reliability_kill -- --nocapture`.
//! `GAUGEBOT_KILL_SEED` varies the random schedule (default 1).

mod common;

use irish_gauge::Game;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use common::{env_count, Model, Rng, SEED};
use gaugebot::table::StoredSetup;
use gaugebot_store::SqliteStore;
use gaugebot_table::Store;
use irish_gauge::table::log::{replay, LogEntry};
use irish_gauge::table::View;

const CHANNEL: &str = "console";
const MARKER: &str = "@@gaugebot-end-of-reply@@";
const PLAYERS: [&str; 4] = ["ann", "bob", "cat", "dan"];
/// The longest a single reply may take (debug build, fsync on a busy disk).
const REPLY_TIMEOUT: Duration = Duration::from_secs(60);

/// A command of the campaign: a move of the model, or a `!setup` starting the next game.
#[derive(Debug, Clone)]
struct Cmd {
    id: u64,
    author: String,
    text: String,
    kind: Kind,
}

#[derive(Debug, Clone)]
enum Kind {
    /// A move; the model after it and the entries it must add.
    Move {
        after: Box<Model>,
        entries: Vec<LogEntry>,
    },
    /// `!setup`: the new game's model.
    Setup { game: Box<Model> },
}

impl Cmd {
    fn line(&self) -> String {
        format!("[{}] {}: {}\n", self.id, self.author, self.text)
    }
}

/// What the bot has stored, as far as the test knows for sure.
struct Expected {
    /// The current game and the commands applied to it, in order.
    model: Option<Model>,
    applied: Vec<Cmd>,
    /// Finished games: id and their full expected log (entry, message id).
    finished: Vec<(String, Vec<(LogEntry, String)>)>,
}

impl Expected {
    fn log_of_current(&self) -> Vec<(LogEntry, String)> {
        self.applied
            .iter()
            .flat_map(|c| match &c.kind {
                Kind::Move { entries, .. } => entries
                    .iter()
                    .map(|e| (e.clone(), c.id.to_string()))
                    .collect(),
                Kind::Setup { .. } => Vec::new(),
            })
            .collect()
    }

    fn apply(&mut self, cmd: &Cmd) {
        match &cmd.kind {
            Kind::Move { after, .. } => {
                self.model = Some((**after).clone());
                self.applied.push(cmd.clone());
            }
            Kind::Setup { game } => {
                if let Some(old) = &self.model {
                    let log = self.log_of_current();
                    self.finished.push((old.game_id.clone(), log));
                }
                self.model = Some((**game).clone());
                self.applied = vec![cmd.clone()];
            }
        }
    }

    /// The next command: a random legal move, or a new game once this one is over.
    fn next(&self, rng: &mut Rng, id: u64) -> Cmd {
        let chat = ["", "ok then ", "hmm, ", "I'll go "];
        match &self.model {
            Some(model) if !model.game.is_finished() => {
                let (author, action) = model.next_move(rng).expect("a player is to act");
                let mut after = model.clone();
                let entries = after
                    .apply(&author, &action, &id.to_string())
                    .expect("a legal move");
                Cmd {
                    id,
                    author,
                    text: format!("{}**{action}**", rng.choose(&chat)),
                    kind: Kind::Move {
                        after: Box::new(after),
                        entries,
                    },
                }
            }
            _ => {
                let games = self.finished.len() + usize::from(self.model.is_some());
                let game_id = format!("{CHANNEL}-{}", games + 1);
                Cmd {
                    id,
                    author: "mod".to_string(),
                    text: format!("!setup {}", PLAYERS.join(" ")),
                    kind: Kind::Setup {
                        game: Box::new(Model::new(SEED, &game_id, &PLAYERS, &id.to_string())),
                    },
                }
            }
        }
    }
}

/// A running `gaugebot play`.
struct Bot {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Bot {
    fn start(db: &Path, dir: &Path, dump: Option<&Path>) -> Bot {
        let stderr = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(dir.join("stderr.log"))
            .expect("stderr log");
        let mut command = Command::new(env!("CARGO_BIN_EXE_gaugebot"));
        command
            .arg("play")
            .arg("--db")
            .arg(db)
            .args(["--seed", SEED, "--end-marker", MARKER, "--no-map"])
            .arg("--attachments")
            .arg(dir)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::from(stderr));
        if let Some(dump) = dump {
            command.arg("--dump-state").arg(dump);
        }
        let mut child = command.spawn().expect("gaugebot starts");
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match reader.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).trim_end().to_string();
                        if tx.send(line).is_err() {
                            break;
                        }
                    }
                }
            }
        });
        Bot {
            stdin: child.stdin.take(),
            child,
            lines: rx,
        }
    }

    fn write(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("line written");
        stdin.flush().expect("line flushed");
    }

    /// The reply lines up to the next end marker.
    fn reply(&mut self) -> Vec<String> {
        let deadline = Instant::now() + REPLY_TIMEOUT;
        let mut lines = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line == MARKER => return lines,
                Ok(line) => lines.push(line),
                Err(RecvTimeoutError::Timeout) => {
                    panic!("no end marker within {REPLY_TIMEOUT:?}; so far: {lines:?}")
                }
                Err(RecvTimeoutError::Disconnected) => {
                    let _ = self.child.wait();
                    panic!("gaugebot exited before its end marker; so far: {lines:?}")
                }
            }
        }
    }

    /// SIGKILL; returns how many end markers were printed but not yet read.
    fn kill(mut self) -> usize {
        self.child.kill().expect("SIGKILL sent");
        self.child.wait().expect("the killed process is reaped");
        drop(self.stdin.take());
        let deadline = Instant::now() + Duration::from_secs(10);
        let mut markers = 0;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) if line == MARKER => markers += 1,
                Ok(_) => {}
                Err(RecvTimeoutError::Disconnected) => return markers,
                Err(RecvTimeoutError::Timeout) => panic!("stdout not closed after the kill"),
            }
        }
    }

    /// Closes the input and waits for a clean exit.
    fn finish(mut self) {
        drop(self.stdin.take());
        let deadline = Instant::now() + REPLY_TIMEOUT;
        loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                assert!(status.success(), "gaugebot exited with {status}");
                return;
            }
            if Instant::now() > deadline {
                let _ = self.child.kill();
                panic!("gaugebot did not exit after the end of its input");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// Whether a reply is an acceptance (not a refusal, not a storage failure).
fn assert_accepted(cmd: &Cmd, reply: &[String]) {
    let text = reply.join("\n");
    assert!(!reply.is_empty(), "no reply to {cmd:?}");
    assert!(
        !text.contains('❌') && !text.contains("could not be saved"),
        "the bot refused a move the model accepts: {}\n{text}",
        cmd.line()
    );
}

#[derive(Debug, Default)]
struct Figures {
    kills: usize,
    acked: usize,
    in_flight_present: usize,
    in_flight_absent: usize,
    markers_after_kill: usize,
    duplicates: usize,
    redelivered: usize,
    rows_checked: usize,
    modes: [usize; 5],
}

const MODE_NAMES: [&str; 5] = [
    "idle",
    "right after a line",
    "random delay into a command",
    "half a line written",
    "during start-up",
];

/// Opens the file in this process and checks it against what is known; returns whether the
/// command in flight is stored.
fn check(
    rt: &tokio::runtime::Runtime,
    db: &Path,
    expected: &Expected,
    in_flight: Option<&Cmd>,
    figures: &mut Figures,
) -> bool {
    rt.block_on(async {
        let store = SqliteStore::open(&db.to_string_lossy())
            .await
            .expect("the database opens after a kill");
        let active = store.active_game(CHANNEL).await.expect("games readable");
        let active_id = active.as_ref().map(|r| r.id.clone());
        let known_id = expected.model.as_ref().map(|m| m.game_id.clone());
        // Is the command in flight stored?
        let present = match in_flight.map(|c| &c.kind) {
            None => false,
            Some(Kind::Setup { game }) => {
                assert!(
                    active_id == known_id || active_id.as_deref() == Some(game.game_id.as_str()),
                    "active game {active_id:?}, expected {known_id:?} or {}",
                    game.game_id
                );
                active_id.as_deref() == Some(game.game_id.as_str())
            }
            Some(Kind::Move { .. }) => {
                assert_eq!(active_id, known_id, "the active game changed");
                let id = in_flight.map(|c| c.id.to_string()).unwrap_or_default();
                let rows = store.log(known_id.as_deref().unwrap_or("")).await.expect("log");
                rows.iter().any(|r| r.message_id == id)
            }
        };
        let mut view = Expected {
            model: expected.model.clone(),
            applied: expected.applied.clone(),
            finished: expected.finished.clone(),
        };
        if present {
            view.apply(in_flight.expect("in flight"));
        }
        if let Some(cmd) = in_flight {
            let seen = store
                .seen(CHANNEL, &cmd.id.to_string())
                .await
                .expect("seen");
            assert_eq!(
                seen, present,
                "message {} marked seen = {seen} but stored = {present}",
                cmd.id
            );
        }
        // Finished games keep their whole log.
        for (game_id, log) in &view.finished {
            let rows = store.log(game_id).await.expect("log");
            let got: Vec<(LogEntry, String)> = rows
                .iter()
                .map(|r| {
                    (
                        serde_json::from_str(&r.entry_json).expect("entry json"),
                        r.message_id.clone(),
                    )
                })
                .collect();
            assert_eq!(&got, log, "finished game {game_id} changed");
            figures.rows_checked += rows.len();
        }
        let Some(model) = &view.model else {
            assert_eq!(active_id, None, "a game nobody set up");
            store.close().await;
            return present;
        };
        let row = active.filter(|r| r.id == model.game_id).expect("the game is active");
        let rows = store.log(&row.id).await.expect("log");
        figures.rows_checked += rows.len();
        // The log is exactly the acknowledged commands' entries, in order, once each.
        let seqs: Vec<i64> = rows.iter().map(|r| r.seq).collect();
        assert_eq!(seqs, (0..rows.len() as i64).collect::<Vec<_>>(), "log seqs");
        let got: Vec<(LogEntry, String)> = rows
            .iter()
            .map(|r| {
                (
                    serde_json::from_str(&r.entry_json).expect("entry json"),
                    r.message_id.clone(),
                )
            })
            .collect();
        let want = view.log_of_current();
        if got != want {
            let first = got.iter().zip(&want).position(|(a, b)| a != b);
            panic!(
                "log of {} differs from the acknowledged commands: {} rows stored, {} expected, first difference at {first:?}\nstored: {:?}\nexpected: {:?}",
                row.id,
                got.len(),
                want.len(),
                first.and_then(|i| got.get(i)),
                first.and_then(|i| want.get(i)),
            );
        }
        for cmd in &view.applied {
            assert!(
                store.seen(CHANNEL, &cmd.id.to_string()).await.expect("seen"),
                "stored message {} is not marked seen",
                cmd.id
            );
        }
        assert_eq!(row.revealed, model.revealed, "revealed flag");
        // The state equals a replay of the log, and the model.
        let stored: StoredSetup = serde_json::from_str(&row.setup_json).expect("setup json");
        let setup: irish_gauge::Setup = serde_json::from_value(stored.setup).expect("setup");
        let entries: Vec<LogEntry> = got.iter().map(|(e, _)| e.clone()).collect();
        let replayed = replay(&setup, &entries).expect("the log replays");
        assert_eq!(replayed, model.game, "replay of the log differs from the model");
        let table = common::table_on(store.clone(), CHANNEL, Some(SEED)).await;
        assert_eq!(table.state::<Game>(), Some(&model.game), "the loaded table differs");
        drop(table);
        store.close().await;
        present
    })
}

#[test]
fn sigkill_at_random_moments_loses_nothing_and_duplicates_nothing() {
    let kills = env_count("GAUGEBOT_KILLS", 20) as usize;
    let schedule_seed = env_count("GAUGEBOT_KILL_SEED", 1);
    let started = Instant::now();
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("kill.db");
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let mut rng = Rng::new(schedule_seed);
    let mut expected = Expected {
        model: None,
        applied: Vec::new(),
        finished: Vec::new(),
    };
    let mut figures = Figures::default();
    let mut next_id: u64 = 1000;
    let mut pending: Option<(Cmd, bool)> = None;
    // Running mean of the time from writing a line to its end marker, and of start-up.
    let mut latency = Duration::from_millis(20);
    let mut startup = Duration::from_millis(50);

    while figures.kills < kills {
        let spawned = Instant::now();
        let mut bot = Bot::start(&db, dir.path(), None);
        let mode = rng.below(MODE_NAMES.len());
        if mode == 4 {
            // Killed while opening the database and replaying the log.
            std::thread::sleep(startup.mul_f64(rng.below(1500) as f64 / 1000.0));
            figures.markers_after_kill += bot.kill();
            figures.modes[4] += 1;
            figures.kills += 1;
            check(&rt, &db, &expected, None, &mut figures);
            continue;
        }
        let mut first_reply = true;
        let mut note_startup = |startup: &mut Duration| {
            if std::mem::take(&mut first_reply) {
                *startup = (*startup * 3 + spawned.elapsed()) / 4;
            }
        };
        // Deliver again the command in flight at the last kill, as a catch-up would.
        if let Some((cmd, stored)) = pending.take() {
            bot.write(cmd.line().as_bytes());
            let reply = bot.reply();
            note_startup(&mut startup);
            if stored {
                assert!(
                    reply.is_empty(),
                    "a stored command was applied again: {reply:?}"
                );
                figures.duplicates += 1;
            } else {
                assert_accepted(&cmd, &reply);
                expected.apply(&cmd);
                figures.redelivered += 1;
            }
        }
        for _ in 0..rng.below(9) {
            let cmd = expected.next(&mut rng, next_id);
            next_id += 1;
            let sent = Instant::now();
            bot.write(cmd.line().as_bytes());
            let reply = bot.reply();
            note_startup(&mut startup);
            latency = (latency * 7 + sent.elapsed()) / 8;
            assert_accepted(&cmd, &reply);
            expected.apply(&cmd);
            figures.acked += 1;
        }
        // A stored message delivered again is a silent duplicate.
        if rng.chance(1, 4) {
            if let Some(cmd) = expected.applied.last().cloned() {
                bot.write(cmd.line().as_bytes());
                let reply = bot.reply();
                assert!(reply.is_empty(), "a duplicate was answered: {reply:?}");
                figures.duplicates += 1;
            }
        }
        let mut in_flight = None;
        match mode {
            0 => std::thread::sleep(latency.mul_f64(rng.below(2000) as f64 / 1000.0)),
            1 | 2 => {
                let cmd = expected.next(&mut rng, next_id);
                next_id += 1;
                bot.write(cmd.line().as_bytes());
                if mode == 2 {
                    std::thread::sleep(latency.mul_f64(rng.below(1500) as f64 / 1000.0));
                }
                in_flight = Some(cmd);
            }
            _ => {
                let cmd = expected.next(&mut rng, next_id);
                next_id += 1;
                let line = cmd.line();
                let cut = 1 + rng.below(line.len() - 2);
                bot.write(&line.as_bytes()[..cut]);
                std::thread::sleep(Duration::from_millis(rng.below(5) as u64));
                in_flight = Some(cmd);
            }
        }
        let late_markers = bot.kill();
        figures.markers_after_kill += late_markers;
        figures.modes[mode] += 1;
        figures.kills += 1;
        let present = check(&rt, &db, &expected, in_flight.as_ref(), &mut figures);
        assert!(
            late_markers <= usize::from(in_flight.is_some()),
            "{late_markers} end markers after the kill"
        );
        if late_markers > 0 {
            assert!(
                present,
                "a command whose end marker was printed is not stored"
            );
        }
        if mode == 3 {
            assert!(!present, "half a line was read as a command");
        }
        if let Some(cmd) = in_flight {
            if present {
                figures.in_flight_present += 1;
                expected.apply(&cmd);
            } else {
                figures.in_flight_absent += 1;
            }
            pending = Some((cmd, present));
        }
        assert!(
            started.elapsed() < Duration::from_secs(60 * 60),
            "the campaign is taking too long"
        );
    }

    // A clean run to the end of input: its state dump equals the model.
    let dump_path: PathBuf = dir.path().join("final.json");
    let mut bot = Bot::start(&db, dir.path(), Some(&dump_path));
    if let Some((cmd, stored)) = pending.take() {
        bot.write(cmd.line().as_bytes());
        let reply = bot.reply();
        if stored {
            assert!(
                reply.is_empty(),
                "a stored command was applied again: {reply:?}"
            );
        } else {
            assert_accepted(&cmd, &reply);
            expected.apply(&cmd);
        }
    }
    for _ in 0..3 {
        let cmd = expected.next(&mut rng, next_id);
        next_id += 1;
        bot.write(cmd.line().as_bytes());
        assert_accepted(&cmd, &bot.reply());
        expected.apply(&cmd);
        figures.acked += 1;
    }
    bot.finish();
    let dumped: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&dump_path).expect("dump written"))
            .expect("dump json");
    let model = expected.model.as_ref().expect("a game");
    assert_eq!(
        dumped,
        serde_json::to_value(View::of(&model.game, "mod", Vec::new())).expect("json"),
        "the final state dump differs from the model"
    );
    check(&rt, &db, &expected, None, &mut figures);

    let commands: usize = expected
        .finished
        .iter()
        .map(|(_, l)| l.len())
        .sum::<usize>()
        + expected.log_of_current().len();
    println!(
        "kill campaign: {} kills ({}) in {:.1} s; {} commands acknowledged, {} in flight at a kill ({} stored, {} lost and re-delivered), {} end markers read after a kill, {} duplicate deliveries ignored, {} games finished, {} log entries now stored, {} log rows checked; mean reply latency {:.1} ms, start-up {:.1} ms",
        figures.kills,
        MODE_NAMES
            .iter()
            .zip(figures.modes)
            .map(|(n, c)| format!("{c} {n}"))
            .collect::<Vec<_>>()
            .join(", "),
        started.elapsed().as_secs_f64(),
        figures.acked + figures.redelivered,
        figures.in_flight_present + figures.in_flight_absent,
        figures.in_flight_present,
        figures.in_flight_absent,
        figures.markers_after_kill,
        figures.duplicates,
        expected.finished.len(),
        commands,
        figures.rows_checked,
        latency.as_secs_f64() * 1000.0,
        startup.as_secs_f64() * 1000.0,
    );
}
