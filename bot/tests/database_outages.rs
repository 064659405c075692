//! The database's own outages (issue 36), as a host meets them: one `gaugebot run` (a child
//! process, `children/`) on a real PostgreSQL server (`pg/`) and the fake Discord, moves posted
//! while the server is away:
//!
//! - `pg_ctl stop -m immediate`, a few seconds, then start (over the unix socket and over TCP);
//! - `pg_ctl restart -m fast`, moves posted while it restarts;
//! - a hung server (every server process SIGSTOP'd for a few seconds, then SIGCONT);
//! - SQLite's equivalent: the database's file system remounted read-only for a while.
//!
//! In every case each move posted meanwhile is answered by itself (no one posts again), once,
//! with its ✅ and its replies, in posting order, within 5 s of the database's return; nothing
//! is lost or doubled; the channel is told once that its moves wait (never a ❌); the process
//! keeps its channels (same owner token, alive) and logs the outage once. Each case prints
//! "answered N s after the database returned" (median, max): RELIABILITY.md's figures.
//!
//! The long form (outages of 30 s and 5 minutes, both transports) runs when
//! `GAUGEBOT_LONG_OUTAGES` is set: `GAUGEBOT_LONG_OUTAGES=1 cargo test -p gaugebot --test
//! database_outages -- --nocapture long` (or `GAUGEBOT_LONG_OUTAGES=300:tcp,30:socket`).

mod children;
mod fake_table;
mod pg;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use fakediscord::{within, FakeDiscord};
use gaugebot::config::Config;
use gaugebot::discord;
use gaugebot_store::postgres::PostgresStore;
use gaugebot_table::store::Store;

use children::{spawn_bot, Bots};
use fake_table::{ann, bob, cat, moderator, moves, user};

const GUILD: u64 = 700;
const CHANNEL: u64 = 701;
const MODERATOR_ROLE: u64 = 600;
/// Any wait for the bot (a long outage waits longer).
const WAIT: Duration = Duration::from_secs(30);
/// The longest a move posted during an outage may wait after the database is back.
const ANSWERED_WITHIN: Duration = Duration::from_secs(5);
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";
/// The channel notice while the storage is away (templates/discord/storage_unavailable.md.j2).
const NOTICE: &str = "The game's storage is unavailable";
/// The log line of an outage's start (bot/src/discord/behind.rs).
const OUTAGE_LOGGED: &str = "the game's database is unavailable";

async fn world() -> FakeDiscord {
    let fake = FakeDiscord::start().await;
    fake.add_guild(GUILD, "Irish Gauge");
    fake.add_channel(GUILD, CHANNEL, "game");
    fake.add_role(GUILD, MODERATOR_ROLE, "Moderator", 0);
    fake.add_member(GUILD, &moderator(), &[MODERATOR_ROLE]);
    for u in [ann(), bob(), cat()] {
        fake.add_member(GUILD, &u, &[]);
    }
    fake
}

/// Posts a move and waits for its ✅.
async fn answered(fake: &FakeDiscord, who: &str, text: &str) -> u64 {
    let id = fake.post_user_message(CHANNEL, Some(GUILD), &user(who), text);
    let reactions = fake
        .wait_for_reactions(id, 1, WAIT)
        .await
        .unwrap_or_else(|e| panic!("{text}: {e}"));
    assert_eq!(reactions, ["✅"], "{text}");
    id
}

/// Sends a signal (`STOP`, `CONT`) to a process the test started (one that has ended since is
/// left alone).
fn signal(pid: u32, name: &str) {
    let _ = Command::new("kill")
        .args([&format!("-{name}"), &pid.to_string()])
        .stderr(std::process::Stdio::null())
        .status();
}

/// Processes stopped (SIGSTOP), woken (SIGCONT, children first) when dropped: also when the
/// test fails, so that the server can be stopped.
struct Hung(Vec<u32>);

impl Hung {
    fn stop(pids: Vec<u32>) -> Hung {
        for pid in &pids {
            signal(*pid, "STOP");
        }
        Hung(pids)
    }
}

impl Drop for Hung {
    fn drop(&mut self) {
        for pid in self.0.iter().rev() {
            signal(*pid, "CONT");
        }
    }
}

/// The server's processes: the postmaster and its children.
fn server_processes(postmaster: u32) -> Vec<u32> {
    let children =
        std::fs::read_to_string(format!("/proc/{postmaster}/task/{postmaster}/children"))
            .unwrap_or_default();
    let mut pids = vec![postmaster];
    pids.extend(
        children
            .split_whitespace()
            .filter_map(|p| p.parse::<u32>().ok()),
    );
    pids
}

/// How the database goes away.
#[derive(Debug, Clone, Copy)]
enum Fault {
    /// `pg_ctl stop -m immediate`, this long, then start.
    Stop(Duration),
    /// `pg_ctl restart -m fast`.
    FastRestart,
    /// Every server process SIGSTOP'd this long.
    Hang(Duration),
}

/// The median and the maximum, in seconds.
fn figures(delays: &[f64]) -> (f64, f64) {
    let mut sorted = delays.to_vec();
    sorted.sort_by(f64::total_cmp);
    let median = sorted.get(sorted.len() / 2).copied().unwrap_or(0.0);
    (median, sorted.last().copied().unwrap_or(0.0))
}

/// Waits for the ✅ of each message, in order; how long after `back` each came.
async fn delays_after(fake: &FakeDiscord, ids: &[u64], back: Instant, wait: Duration) -> Vec<f64> {
    let mut delays = Vec::new();
    for id in ids {
        let reactions = fake
            .wait_for_reactions(*id, 1, wait)
            .await
            .unwrap_or_else(|e| panic!("move {id} never answered: {e}"));
        delays.push(back.elapsed().as_secs_f64());
        assert_eq!(reactions, ["✅"], "move {id}");
    }
    delays
}

/// The message ids of the channel's active game's log, one per command.
async fn stored_commands(store: &PostgresStore) -> Vec<u64> {
    let Some(game) = store
        .active_game(&CHANNEL.to_string())
        .await
        .expect("read the game")
    else {
        return Vec::new();
    };
    let mut ids: Vec<u64> = Vec::new();
    for row in store.log(&game.id).await.expect("read the log") {
        let id = row.message_id.parse().expect("an id");
        if ids.last() != Some(&id) {
            ids.push(id);
        }
    }
    ids
}

async fn owner_of_channel(store: &PostgresStore) -> Option<String> {
    store
        .channel_owners()
        .await
        .expect("owners")
        .into_iter()
        .find(|(c, _)| *c == CHANNEL.to_string())
        .map(|(_, token)| token)
}

/// Every message's reactions and answers: each sent move has exactly one reaction, a ✅, and
/// at most one reply of the bot refers to it; no ❌ anywhere.
fn answered_once(fake: &FakeDiscord, sent: &[u64]) {
    for id in sent {
        assert_eq!(fake.reactions(*id), ["✅"], "move {id}");
        let replies = fake
            .bot_messages(CHANNEL)
            .iter()
            .filter(|m| m.referenced_message == Some(*id))
            .count();
        assert!(replies <= 1, "move {id} answered {replies} times");
    }
}

fn notices(fake: &FakeDiscord) -> usize {
    fake.bot_messages(CHANNEL)
        .iter()
        .filter(|m| m.content.contains(NOTICE))
        .count()
}

/// One outage of `fault` with `during` moves posted meanwhile (spread over it): the campaign's
/// case. Returns how long after the database's return each move was answered (s), or `None`
/// where PostgreSQL is not installed.
async fn outage(name: &str, tcp: bool, fault: Fault, during: usize) -> Option<Vec<f64>> {
    let server = pg::TestPostgres::start_durable(tcp)?;
    let url = server.database().await;
    let fake = world().await;
    let dir = tempfile::tempdir().expect("temp dir");
    let config = dir.path().join("config.yaml");
    std::fs::write(
        &config,
        format!(
            "database: \"{url}\"\ndiscord:\n  api_base: \"{}\"\n  moderator_roles: [\"Moderator\"]\nmap:\n  after_build: false\n",
            fake.api_base()
        ),
    )
    .expect("config");
    let log = dir.path().join("bot.log");
    let bots = Bots(vec![spawn_bot(&config, &log)]);
    fake.wait_for_identify_count(1, WAIT)
        .await
        .expect("the bot connects");
    let read_log = || std::fs::read_to_string(&log).unwrap_or_default();

    let setup = fake.post_user_message(CHANNEL, Some(GUILD), &moderator(), SETUP);
    fake.wait_for_reactions(setup, 1, WAIT)
        .await
        .expect("the setup is answered");
    let moves = moves();
    let mut next = moves.iter();
    let mut sent = Vec::new();
    for (who, text) in next.by_ref().take(2) {
        sent.push(answered(&fake, who, text).await);
    }
    let store = PostgresStore::open(&url).await.expect("postgres");
    let owner = owner_of_channel(&store).await.expect("an owner");
    store.close().await;

    // The database goes away; moves arrive meanwhile.
    let played: Vec<&(String, String)> = next.by_ref().take(during).collect();
    let post = |(who, text): &(String, String)| {
        fake.post_user_message(CHANNEL, Some(GUILD), &user(who), text)
    };
    let gap = |away: Duration| away / u32::try_from(during).unwrap_or(1).max(1);
    let mut posted = Vec::new();
    let back = match fault {
        Fault::Stop(away) => {
            server.stop("immediate");
            for one in &played {
                posted.push(post(one));
                tokio::time::sleep(gap(away)).await;
            }
            server.start_again();
            Instant::now()
        }
        Fault::FastRestart => {
            // The first just before, the others while the server restarts.
            let (first, others) = played.split_first().expect("moves");
            posted.push(post(first));
            let ids = std::thread::scope(|scope| {
                let restart = scope.spawn(|| server.restart("fast"));
                let mut ids = Vec::new();
                for one in others {
                    std::thread::sleep(Duration::from_millis(100));
                    ids.push(post(one));
                }
                restart.join().expect("pg_ctl restart");
                ids
            });
            posted.extend(ids);
            Instant::now()
        }
        Fault::Hang(away) => {
            let hung = Hung::stop(server_processes(server.postmaster_pid()));
            for one in &played {
                posted.push(post(one));
                tokio::time::sleep(gap(away)).await;
            }
            drop(hung);
            Instant::now()
        }
    };
    let delays = delays_after(&fake, &posted, back, WAIT).await;
    sent.extend(&posted);
    // The game goes on live.
    for (who, text) in next.by_ref().take(2) {
        sent.push(answered(&fake, who, text).await);
    }

    let store = PostgresStore::open(&url).await.expect("postgres");
    assert_eq!(
        stored_commands(&store).await,
        sent,
        "each move once, in order"
    );
    answered_once(&fake, &sent);
    let told = notices(&fake);
    match fault {
        Fault::Stop(_) => assert_eq!(told, 1, "one notice per outage"),
        Fault::FastRestart | Fault::Hang(_) => assert!(told <= 1, "{told} notices"),
    }
    // The process kept its channel, alive, without a restart; the outage logged once.
    assert_eq!(owner_of_channel(&store).await, Some(owner.clone()));
    assert!(store.process_alive(&owner).await.expect("alive?"));
    let logged = read_log();
    let outages = logged.matches(OUTAGE_LOGGED).count();
    assert!(outages <= 1, "the outage logged {outages} times:\n{logged}");
    if matches!(fault, Fault::Stop(_)) {
        assert_eq!(outages, 1, "the outage is logged:\n{logged}");
    }
    assert!(
        !logged.contains("message left"),
        "a message was left:\n{logged}"
    );
    store.close().await;
    drop(bots);

    let (median, max) = figures(&delays);
    eprintln!(
        "database outage, {name} ({}): {} moves posted meanwhile, answered {median:.2} s (median), {max:.2} s (max) after the database returned; {told} notice(s)",
        if tcp { "TCP" } else { "unix socket" },
        delays.len()
    );
    assert!(
        max <= ANSWERED_WITHIN.as_secs_f64(),
        "{name}: a move answered {max:.2} s after the database returned"
    );
    Some(delays)
}

/// Points 1, 2 and 4: the server stopped (`-m immediate`) while moves arrive: each is answered
/// once it is back, without anyone posting again; the channel was told once; the process
/// reconnected by itself and kept its channel. (Before: each move was dropped with "cannot
/// tell who owns the channel; message left" until someone posted again.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn moves_posted_while_postgres_is_stopped_are_answered_when_it_returns() {
    outage(
        "stop -m immediate, 3 s",
        false,
        Fault::Stop(Duration::from_secs(3)),
        3,
    )
    .await;
}

/// The same over TCP, 8 s: sqlx retries refused connections there for the pool's acquire
/// timeout (5 s), then the channel is behind like over the socket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_tcp_moves_posted_while_postgres_is_stopped_are_answered_when_it_returns() {
    outage(
        "stop -m immediate, 8 s",
        true,
        Fault::Stop(Duration::from_secs(8)),
        3,
    )
    .await;
}

/// `pg_ctl restart -m fast` while moves arrive (before: lost twice out of three times).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_fast_restart_loses_no_move() {
    outage("restart -m fast", false, Fault::FastRestart, 3).await;
}

/// Every server process stopped (SIGSTOP) for 4 s while moves arrive.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hung_server_loses_no_move() {
    outage(
        "hung (SIGSTOP) 4 s",
        false,
        Fault::Hang(Duration::from_secs(4)),
        3,
    )
    .await;
}

/// The long form, by hand: outages of 30 s and 5 minutes over both transports
/// (`GAUGEBOT_LONG_OUTAGES=1`), or the ones listed (`GAUGEBOT_LONG_OUTAGES=300:tcp,30:socket`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn long_outages() {
    let Ok(chosen) = std::env::var("GAUGEBOT_LONG_OUTAGES") else {
        eprintln!("NOTE: the long database outages run with GAUGEBOT_LONG_OUTAGES=1");
        return;
    };
    let cases: Vec<(u64, bool)> = match chosen.trim() {
        "1" => vec![(30, false), (30, true), (300, false), (300, true)],
        list => list
            .split(',')
            .filter_map(|case| {
                let (away, transport) = case.trim().split_once(':')?;
                Some((away.parse().ok()?, transport == "tcp"))
            })
            .collect(),
    };
    assert!(!cases.is_empty(), "GAUGEBOT_LONG_OUTAGES={chosen}: no case");
    for (away, tcp) in cases {
        let name = format!("stop -m immediate, {away} s");
        outage(&name, tcp, Fault::Stop(Duration::from_secs(away)), 5).await;
    }
}

/// A tmpfs mounted for a test, unmounted when dropped.
struct Mount {
    dir: PathBuf,
}

impl Mount {
    /// Mounts a small tmpfs at `dir`; `None` (with a note) where that is not permitted.
    fn tmpfs(dir: &Path) -> Option<Mount> {
        std::fs::create_dir_all(dir).expect("mount point");
        let output = Command::new("mount")
            .args(["-t", "tmpfs", "-o", "size=4m,mode=0755", "tmpfs"])
            .arg(dir)
            .output();
        match output {
            Ok(o) if o.status.success() => Some(Mount {
                dir: dir.to_path_buf(),
            }),
            _ => {
                println!("NOTE: the full-disk SQLite test skipped: cannot mount a tmpfs");
                None
            }
        }
    }

    /// Fills the file system to its last byte with `filler`.
    fn fill(&self) -> PathBuf {
        use std::io::Write;
        let filler = self.dir.join("filler");
        let mut file = std::fs::File::create(&filler).expect("filler");
        for chunk in [65536, 4096, 512, 1] {
            let block = vec![0xA5u8; chunk];
            while file.write_all(&block).is_ok() {}
        }
        let _ = file.sync_all();
        filler
    }
}

impl Drop for Mount {
    fn drop(&mut self) {
        let ok = Command::new("umount")
            .arg(&self.dir)
            .status()
            .is_ok_and(|s| s.success());
        if !ok {
            let _ = Command::new("umount").arg("-l").arg(&self.dir).status();
        }
    }
}

/// Point 3: SQLite's database on a disk that fills up for a while: the moves refused meanwhile
/// get no ❌ (one notice), and are answered once writes work again, without anyone posting.
/// (Before: each was refused with ❌ "could not be saved" and never applied.)
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sqlite_moves_refused_by_a_full_disk_are_answered_when_it_has_room() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mnt = dir.path().join("db");
    let Some(mount) = Mount::tmpfs(&mnt) else {
        return;
    };
    let fake = world().await;
    let mut config = Config::default();
    config.discord.api_base = Some(fake.api_base());
    config.discord.moderator_roles = vec!["Moderator".to_string()];
    config.database = mnt.join("gaugebot.db");
    config.map.after_build = false;
    let bot = within(
        Duration::from_secs(60),
        "the bot starts",
        discord::start(config, fake.token().to_string()),
    )
    .await
    .expect("the bot starts");
    let setup = fake.post_user_message(CHANNEL, Some(GUILD), &moderator(), SETUP);
    fake.wait_for_reactions(setup, 1, WAIT)
        .await
        .expect("the setup is answered");
    let moves = moves();
    let mut next = moves.iter();
    let mut sent = Vec::new();
    for (who, text) in next.by_ref().take(2) {
        sent.push(answered(&fake, who, text).await);
    }

    // The disk fills: moves go on while the WAL has room; the first that needs more is left.
    let filler = mount.fill();
    let told = |f: &FakeDiscord| {
        f.bot_messages(CHANNEL)
            .iter()
            .any(|m| m.content.contains(NOTICE))
    };
    let mut posted = Vec::new();
    for (who, text) in next.by_ref() {
        let id = fake.post_user_message(CHANNEL, Some(GUILD), &user(who), text);
        let outcome = fake
            .wait_for(WAIT, |f| {
                if told(f) {
                    Ok(false)
                } else if !f.reactions(id).is_empty() {
                    Ok(true)
                } else {
                    Err(format!("an answer or the notice for {text}"))
                }
            })
            .await
            .expect("an answer or the notice");
        if outcome {
            assert_eq!(fake.reactions(id), ["✅"], "{text}");
            sent.push(id);
        } else {
            posted.push(id);
            break;
        }
    }
    assert!(!posted.is_empty(), "the full disk refused no move");
    // Two more moves while the disk is full: they wait too, unanswered.
    for (who, text) in next.by_ref().take(2) {
        posted.push(fake.post_user_message(CHANNEL, Some(GUILD), &user(who), text));
        tokio::time::sleep(Duration::from_millis(700)).await;
    }
    for id in &posted {
        assert!(
            fake.reactions(*id).is_empty(),
            "move {id} answered while the disk is full"
        );
    }
    std::fs::remove_file(&filler).expect("filler removed");
    let back = Instant::now();
    let delays = delays_after(&fake, &posted, back, WAIT).await;
    sent.extend(&posted);
    for (who, text) in next.by_ref().take(2) {
        sent.push(answered(&fake, who, text).await);
    }
    answered_once(&fake, &sent);
    assert_eq!(notices(&fake), 1, "one notice per outage");
    let store = bot.tables().store();
    let game = store
        .active_game(&CHANNEL.to_string())
        .await
        .expect("read")
        .expect("a game");
    let mut stored: Vec<u64> = Vec::new();
    for row in store.log(&game.id).await.expect("log") {
        let id = row.message_id.parse().expect("an id");
        if stored.last() != Some(&id) {
            stored.push(id);
        }
    }
    assert_eq!(stored, sent, "each move once, in order");
    within(Duration::from_secs(20), "the bot stops", bot.shutdown()).await;
    drop(mount);
    let (median, max) = figures(&delays);
    eprintln!(
        "SQLite full disk: {} moves refused meanwhile, answered {median:.2} s (median), {max:.2} s (max) after it had room again",
        delays.len()
    );
    assert!(max <= ANSWERED_WITHIN.as_secs_f64(), "{max:.2} s");
}
