//! The games' web pages in a real browser (headless Chromium driven from the command line):
//! `gaugebot play --web` serves a console game while it is played; the page shows the status
//! and the map, an earlier position is `gaugebot replay --until N`'s, the browser's dice
//! verifier passes a valid record and names the entry of a tampered draw, and nothing hidden
//! is ever sent during a game of Privates (a `gaugebot-record-v3`: the verifier says its deck
//! is sealed until the reveal); after the reveal it verifies the v3 record and rejects what
//! `gaugebot verify` and `tools/verify_draws.py` reject (a draw changed, the record stripped,
//! downgraded or relabelled).
//!
//! On PostgreSQL, a process that plays no game serves a game another process plays, and
//! follows it (every page is read from the store).
//!
//! Without Chromium (`chromium` or `chromium-browser` on the PATH) the tests are skipped,
//! saying so, except under CI (`CI` set), where that is a failure (`.ci/run` installs it).
//! Screenshots of both games' pages are saved in `$GAUGEBOT_SCREENS` (default
//! `target/screens`).

use std::collections::HashMap;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;

mod forged;
mod http;
mod pg;
use http::get;

const SEED: &str = "ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12";
const END: &str = "@@end-of-reply@@";

/// The browser, or `None` (the test is skipped, saying why; under CI it fails).
fn chromium() -> Option<PathBuf> {
    let found = ["chromium", "chromium-browser"].iter().find_map(|name| {
        std::env::var_os("PATH").and_then(|paths| {
            std::env::split_paths(&paths)
                .map(|dir| dir.join(name))
                .find(|p| p.is_file())
        })
    });
    if found.is_none() {
        let why = "web page tests skipped: no chromium on the PATH; install Debian's `chromium` \
                   package (.ci/run does)";
        if std::env::var_os("CI").is_some() {
            panic!("{why}, and CI must run them");
        }
        let _ = writeln!(std::io::stderr().lock(), "NOTE: {why}");
    }
    found
}

/// The browser's flags for a headless run in a container.
fn browser(chrome: &Path, profile: &Path) -> Command {
    let mut command = Command::new(chrome);
    command
        .arg("--headless")
        .arg("--no-sandbox")
        .arg("--disable-gpu")
        .arg("--disable-dev-shm-usage")
        .arg("--no-first-run")
        .arg("--hide-scrollbars")
        .arg(format!("--user-data-dir={}", profile.display()))
        .stdin(Stdio::null())
        .stderr(Stdio::null());
    command
}

/// The page's DOM after its scripts ran (the dice verifier included).
fn dump_dom(chrome: &Path, profile: &Path, url: &str) -> String {
    let out = browser(chrome, profile)
        .arg("--virtual-time-budget=15000")
        .arg("--dump-dom")
        .arg(url)
        .output()
        .expect("chromium runs");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// Saves a screenshot of the page.
fn screenshot(chrome: &Path, profile: &Path, url: &str, file: &Path) {
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).expect("the screenshots' folder");
    }
    let status = browser(chrome, profile)
        .arg("--window-size=1000,2600")
        .arg("--virtual-time-budget=8000")
        .arg(format!("--screenshot={}", file.display()))
        .arg(url)
        .status()
        .expect("chromium runs");
    assert!(status.success() && file.is_file(), "no screenshot {file:?}");
}

fn screens() -> PathBuf {
    std::env::var_os("GAUGEBOT_SCREENS")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("../target/screens"))
}

/// `gaugebot play --web` on a pipe: lines in, replies out.
struct Console {
    child: Child,
    stdin: ChildStdin,
    stdout: Receiver<String>,
    stderr: Receiver<String>,
    /// The pages' address (`127.0.0.1:port`).
    addr: String,
}

impl Console {
    fn start(db: &Path) -> Console {
        let mut child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
            .args([
                "play",
                "--automa",
                "cheap",
                "--seed",
                SEED,
                "--end-marker",
                END,
            ])
            .args(["--web", "127.0.0.1:0", "--db"])
            .arg(db)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("gaugebot play starts");
        let lines = |from: Box<dyn Read + Send>| {
            let (tx, rx) = channel();
            std::thread::spawn(move || {
                for line in BufReader::new(from).lines().map_while(Result::ok) {
                    if tx.send(line).is_err() {
                        break;
                    }
                }
            });
            rx
        };
        let stdout = lines(Box::new(child.stdout.take().expect("stdout")));
        let stderr = lines(Box::new(child.stderr.take().expect("stderr")));
        let stdin = child.stdin.take().expect("stdin");
        let first = stderr
            .recv_timeout(Duration::from_secs(60))
            .expect("the console says where the pages are");
        let addr = first
            .strip_prefix("(web pages on http://")
            .and_then(|rest| rest.strip_suffix(')'))
            .unwrap_or_else(|| panic!("not the pages' address: {first}"))
            .to_string();
        Console {
            child,
            stdin,
            stdout,
            stderr,
            addr,
        }
    }

    /// Sends a line and returns the reply, up to the end marker.
    fn say(&mut self, line: &str) -> String {
        writeln!(self.stdin, "{line}").expect("the console reads");
        let mut reply = String::new();
        loop {
            let out = self
                .stdout
                .recv_timeout(Duration::from_secs(120))
                .unwrap_or_else(|_| panic!("no reply to {line:?}; so far: {reply}"));
            if out == END {
                return reply;
            }
            reply.push_str(&out);
            reply.push('\n');
        }
    }

    /// The path of a game's page, as the console printed it (`/g/<token>`).
    fn page_of(&self, game: &str) -> String {
        loop {
            let line = self
                .stderr
                .recv_timeout(Duration::from_secs(30))
                .unwrap_or_else(|_| panic!("no page announced for {game}"));
            if let Some(rest) = line.strip_prefix(&format!("(the page of {game}: http://")) {
                let url = rest.trim_end_matches(')');
                let path = &url[url.find('/').expect("a path")..];
                return path.to_string();
            }
        }
    }
}

impl Drop for Console {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// An element's inner HTML by id, from a dumped DOM.
fn inner<'a>(dom: &'a str, open: &str, close: &str) -> &'a str {
    let start = dom
        .find(open)
        .unwrap_or_else(|| panic!("no {open} in the page"))
        + open.len();
    let end = dom[start..].find(close).expect("its end") + start;
    &dom[start..end]
}

/// Text of HTML: tags dropped, entities read, `**` of the forum's markdown dropped.
fn text_of(html: &str) -> String {
    let mut out = String::new();
    let mut in_tag = false;
    for c in html.chars() {
        match c {
            '<' => in_tag = true,
            '>' => in_tag = false,
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out.replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
        .replace("**", "")
        .trim()
        .to_string()
}

fn json(body: &[u8]) -> serde_json::Value {
    serde_json::from_slice(body).expect("JSON")
}

/// A little site of the test's own, for records the bot does not serve (forgeries): the
/// verifier as the bot serves it (`/verify.js`) and, per record, `/NAME.json` and a page that
/// checks it at once, `/NAME.html`.
struct Site {
    addr: String,
    files: Files,
}

/// The site's files by path: their content type and bytes.
type Files = Arc<Mutex<HashMap<String, (&'static str, Vec<u8>)>>>;

impl Site {
    fn start(verifier: Vec<u8>) -> Site {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
        let addr = listener.local_addr().expect("its address").to_string();
        let files: Files = Arc::default();
        files.lock().expect("the files").insert(
            "/verify.js".into(),
            ("text/javascript; charset=utf-8", verifier),
        );
        let served = files.clone();
        std::thread::spawn(move || {
            for stream in listener.incoming() {
                let Ok(mut stream) = stream else { continue };
                let mut request = String::new();
                let mut reader = BufReader::new(stream.try_clone().expect("the stream"));
                if reader.read_line(&mut request).is_err() {
                    continue;
                }
                let path = request.split(' ').nth(1).unwrap_or("/").to_string();
                let mut line = String::new();
                while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                    line.clear();
                }
                let found = served.lock().expect("the files").get(&path).cloned();
                let (status, kind, body) = match found {
                    Some((kind, body)) => ("200 OK", kind, body),
                    None => ("404 Not Found", "text/plain", b"not found".to_vec()),
                };
                let _ = write!(
                    stream,
                    "HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
                    body.len()
                );
                let _ = stream.write_all(&body);
            }
        });
        Site { addr, files }
    }

    /// Serves `record` as `/NAME.json`; returns the address of the page that checks it.
    fn checker(&self, name: &str, record: &Value) -> String {
        let page = format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{name}</title>\
             <script src=\"/verify.js\" defer></script></head><body>\
             <div id=\"verify\" data-record=\"/{name}.json\"></div></body></html>"
        );
        let mut files = self.files.lock().expect("the files");
        files.insert(
            format!("/{name}.json"),
            (
                "application/json",
                serde_json::to_vec(record).expect("JSON"),
            ),
        );
        files.insert(
            format!("/{name}.html"),
            ("text/html; charset=utf-8", page.into_bytes()),
        );
        format!("http://{}/{name}.html", self.addr)
    }
}

#[test]
fn an_irish_gauge_page_shows_the_game_its_history_and_checks_its_dice() {
    let Some(chrome) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let profile = dir.path().join("profile");
    let mut console = Console::start(&dir.path().join("g.db"));
    // A game in progress: ann against two automa seats, who move at once until it is her turn.
    let reply = console.say("mod: !setup ann automa automa");
    assert!(reply.contains("Irish Gauge"), "{reply}");
    let page = console.page_of("console-1");
    let addr = console.addr.clone();
    let url = format!("http://{addr}{page}");
    // ann plays a few moves: a pass where she may, else the least bid or a dividend call.
    for _ in 0..8 {
        for attempt in ["pass", "bid 10", "bid 15", "bid 20", "dividends"] {
            if !console.say(&format!("ann: **{attempt}**")).contains('❌') {
                break;
            }
        }
    }

    // Every status report links the page, under the record's head.
    let report = console.say("bob: !status");
    assert!(
        report.contains(&format!("` · {url}")),
        "the report links {url}: {report}"
    );

    let dom = dump_dom(&chrome, &profile, &url);
    let status = text_of(inner(&dom, "<div class=\"report\">", "</div>"));
    assert!(status.contains("Irish Gauge — console-1"), "{status}");
    let map = inner(&dom, "<section id=\"map\"", "</section>");
    assert!(
        map.contains("<svg") && map.contains("Galway"),
        "the map is drawn"
    );
    assert!(dom.contains("id=\"players\""), "worth and rank");
    // The chart's lines end at each player's worth in the table of players.
    let players = inner(&dom, "<section id=\"players\"", "</section>");
    let chart = inner(&dom, "<section id=\"chart\"", "</section>");
    for row in players.split("<th scope=\"row\">").skip(1) {
        let name = &row[..row.find('<').expect("a name")];
        let worth = row.split("<td>").nth(1).and_then(|c| c.split('<').next());
        let label = format!(">{name} {}</text>", worth.expect("a worth"));
        assert!(chart.contains(&label), "the chart ends at {label}");
    }
    // The history: the automa's moves say so; the marker stored before each is no line.
    let history = inner(&dom, "<section id=\"history\"", "</section>");
    assert!(
        history.contains("<span class=\"who\">Automa 1</span>") && history.contains("(automa)"),
        "{history}"
    );
    assert!(
        !history.contains("<span class=\"who\">gaugebot</span>"),
        "no marker lines: {history}"
    );
    // Before the reveal the verifier checks the chain and waits for the seed.
    assert!(
        dom.contains("data-verdict=\"pending\""),
        "{}",
        inner(&dom, "<div id=\"verify\"", "</div>")
    );
    screenshot(
        &chrome,
        &profile,
        &url,
        &screens().join("irish-gauge-page.png"),
    );

    // The slider: the position after entry N is `gaugebot replay --until N`'s.
    let (code, _, record) = get(&addr, &format!("{page}/record.json"));
    assert_eq!(code, 200);
    let entries = json(&record)["log"].as_array().expect("a log").len() as i64;
    assert!(entries > 4, "the automa moved: {entries} entries");
    let until = entries / 2;
    let file = dir.path().join("record.json");
    std::fs::write(&file, &record).expect("the record is saved");
    let replay = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .arg("replay")
        .arg(&file)
        .args(["--until", &until.to_string()])
        .output()
        .expect("gaugebot replay runs");
    assert!(replay.status.success());
    let replayed = String::from_utf8_lossy(&replay.stdout);
    let replayed = replayed
        .split_once(":\n\n")
        .map_or(replayed.as_ref(), |(_, status)| status);
    let earlier = dump_dom(&chrome, &profile, &format!("{url}?at={until}"));
    assert!(earlier.contains(&format!("after entry #{until} of")));
    let shown = text_of(inner(&earlier, "<div class=\"report\">", "</div>"));
    assert_eq!(shown, text_of(replayed.trim()), "entry #{until}");
    assert_ne!(shown, status, "an earlier position differs from now");
}

#[test]
fn the_browser_verifies_a_finished_game_and_names_a_tampered_draw() {
    let Some(chrome) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let profile = dir.path().join("profile");
    let db = dir.path().join("g.db");
    let mut console = Console::start(&db);
    // Three automa seats play the whole game; the seed is revealed at the end.
    let reply = console.say("mod: !setup automa automa automa");
    assert!(reply.contains("Game over"), "{reply}");
    let page = console.page_of("console-1");
    let addr = console.addr.clone();
    let dom = dump_dom(&chrome, &profile, &format!("http://{addr}{page}"));
    let verdict = inner(&dom, "<div id=\"verify\"", "</div>");
    assert!(verdict.contains("data-verdict=\"verified\""), "{verdict}");
    assert!(verdict.contains("test vectors of DICE.md §9"), "{verdict}");
    assert!(
        verdict.contains("draws recomputed from the seed"),
        "{verdict}"
    );

    // One draw changed in the database: the record the bot serves is consistent with itself
    // (its chain is recomputed), but the draw is not what the seed gives.
    let (_, _, record) = get(&addr, &format!("{page}/record.json"));
    let record = json(&record);
    let tampered = record["log"]
        .as_array()
        .expect("a log")
        .iter()
        .find(|e| e["entry"]["entry"] == "draw")
        .expect("a dividend draw")
        .clone();
    let seq = tampered["seq"].as_i64().expect("a seq");
    let mut entry = tampered["entry"].clone();
    let first = entry["cubes"][0].as_str().expect("a cube").to_string();
    entry["cubes"][0] = serde_json::Value::from(if first == "white" { "black" } else { "white" });
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(async {
            use sqlx::ConnectOptions as _;
            let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
                .filename(&db)
                .connect()
                .await
                .expect("the database opens");
            sqlx::query("UPDATE log SET entry_json = $1 WHERE game_id = 'console-1' AND seq = $2")
                .bind(entry.to_string())
                .bind(seq)
                .execute(&mut conn)
                .await
                .expect("the draw is changed");
        });
    let dom = dump_dom(
        &chrome,
        &profile,
        &format!("http://{addr}/verify?record={page}/record.json"),
    );
    let verdict = inner(&dom, "<div id=\"verify\"", "</div>");
    assert!(verdict.contains("data-verdict=\"failed\""), "{verdict}");
    assert!(
        verdict.contains(&format!("data-failed-at=\"{seq}\"")),
        "{verdict}"
    );
    assert!(
        verdict.contains(&format!("The draw of entry #{seq} (dividend-draw")),
        "{verdict}"
    );
    assert!(verdict.contains("does not match"), "{verdict}");
}

#[test]
fn the_browser_verifies_a_v3_game_and_rejects_what_the_other_verifiers_reject() {
    let Some(chrome) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let profile = dir.path().join("profile");
    let mut console = Console::start(&dir.path().join("g.db"));
    // ann and two automa seats play a whole game of Privates; the move that ends the first
    // round is undone and taken again (its chips drawn again); the seed is revealed at the end.
    let reply = console.say("mod: !setup privates ann automa automa");
    assert!(reply.contains("Privates"), "{reply}");
    let page = console.page_of("console-1");
    let mut undone = false;
    for _ in 0..100 {
        let mut reply = console.say("ann: **pass**");
        if reply.contains('❌') {
            reply = console.say("ann: **bid 5**");
        }
        if !undone && (reply.contains("Round 2 of") || reply.contains("round 2 of")) {
            console.say("mod: !undo");
            if console.say("ann: **pass**").contains('❌') {
                console.say("ann: **bid 5**");
            }
            undone = true;
        }
        if reply.contains("Game over") {
            break;
        }
    }
    assert!(undone, "a round-ending move was undone and taken again");
    let addr = console.addr.clone();
    let (_, _, body) = get(&addr, &format!("{page}/record.json"));
    let record = json(&body);
    assert_eq!(record["format"], "gaugebot-record-v3");
    assert_eq!(record["version"], "gaugebot-dice-v3");
    assert!(record["seed"].is_string(), "revealed");
    assert!(
        record.get("withheld").is_none(),
        "a v3 record withholds nothing"
    );
    let dom = dump_dom(&chrome, &profile, &format!("http://{addr}{page}"));
    let verdict = inner(&dom, "<div id=\"verify\"", "</div>");
    assert!(verdict.contains("data-verdict=\"verified\""), "{verdict}");
    assert!(verdict.contains("test vectors of DICE.md §9"), "{verdict}");
    assert!(
        verdict.contains("(gaugebot-chain-v2) is whole"),
        "{verdict}"
    );
    assert!(
        verdict.contains("rules of a gaugebot-record-v3 record hold"),
        "{verdict}"
    );
    assert!(
        verdict.contains("draws recomputed from the seed: each matches. The 1 hidden draw matches its sealed hash."),
        "{verdict}"
    );

    // The same record, served by a site of the test's own, verifies there too; then each forgery.
    let (_, _, verifier) = get(&addr, "/assets/verify.js");
    let site = Site::start(verifier);
    let check = |name: &str, record: &Value| -> String {
        let dom = dump_dom(&chrome, &profile, &site.checker(name, record));
        inner(&dom, "<div id=\"verify\"", "</div>").to_string()
    };
    let honest = check("honest", &record);
    assert!(honest.contains("data-verdict=\"verified\""), "{honest}");

    // One draw changed, in its draw record and its log entry alike, the chain recomputed: the
    // record is consistent with itself but the draw is not what the seed gives.
    let mut changed = record.clone();
    let position = changed["draws"]
        .as_array()
        .expect("draws")
        .iter()
        .position(|d| d["seq"].is_u64() && d["purpose"] == "privates-chips")
        .expect("a round's chips drawn in play");
    let seq = changed["draws"][position]["seq"].as_u64().expect("a seq");
    let first = changed["draws"][position]["result"][0].clone();
    let other = Value::from(if first == "red" { "blue" } else { "red" });
    changed["draws"][position]["result"][0] = other.clone();
    changed["log"][seq as usize]["entry"]["chips"][0] = other;
    forged::rechain_v3(&mut changed);
    let mut cases = vec![("one draw changed", changed)];
    cases.extend(forged::forgeries(&record));
    assert_eq!(
        cases.len(),
        8,
        "a changed draw and every forgery of finding 7"
    );
    let mut failed_at = None;
    for (what, forgery) in cases {
        let path = dir.path().join(format!("{}.json", what.replace(' ', "-")));
        std::fs::write(&path, serde_json::to_vec_pretty(&forgery).expect("JSON")).expect("written");
        let (rust, python) = forged::verdicts(&path);
        assert_ne!(rust.0, 0, "gaugebot verify accepts '{what}':\n{}", rust.1);
        if let Some(python) = &python {
            assert_ne!(
                python.0, 0,
                "verify_draws.py accepts '{what}':\n{}",
                python.1
            );
        }
        let verdict = check(&what.replace(' ', "-"), &forgery);
        let first_failure = text_of(
            verdict
                .split("<li class=\"fail\"")
                .nth(1)
                .and_then(|li| li.split_once('>'))
                .map_or("", |(_, rest)| rest.split("</li>").next().unwrap_or("")),
        );
        println!("{what}: the browser: {first_failure}");
        assert!(
            verdict.contains("data-verdict=\"failed\""),
            "the browser accepts '{what}': {verdict}"
        );
        match what {
            "one draw changed" => {
                assert!(
                    verdict.contains(&format!("data-failed-at=\"{seq}\"")),
                    "{verdict}"
                );
                assert!(
                    verdict.contains(&format!(
                        "The draw of entry #{seq} (privates-chips, index {}) does not match",
                        forgery["draws"][position]["index"]
                    )),
                    "{verdict}"
                );
                failed_at = Some(seq);
            }
            "format and chain stripped" | "rewritten as gaugebot-record-v1" => {
                assert!(verdict.contains("Stripped or downgraded"), "{verdict}");
            }
            "dice relabelled gaugebot-dice-v2" => {
                assert!(verdict.contains("Downgraded or relabelled"), "{verdict}");
            }
            "audited draws relabelled manual" => {
                assert!(
                    verdict.contains("audited draws cannot be relabelled as manual"),
                    "{verdict}"
                );
            }
            "a draw moved to another index" | "redone draw re-keyed" => {
                assert!(verdict.contains("a moved draw is a re-roll"), "{verdict}");
            }
            "client seed changed" => {
                assert!(
                    verdict.contains("client seed is not its setup's"),
                    "{verdict}"
                );
            }
            _ => {}
        }
    }
    assert!(failed_at.is_some());
}

#[test]
fn nothing_hidden_is_sent_during_a_game_of_privates() {
    let Some(chrome) = chromium() else { return };
    let dir = tempfile::tempdir().expect("a temporary folder");
    let profile = dir.path().join("profile");
    let db = dir.path().join("g.db");
    let mut console = Console::start(&db);
    let reply = console.say("mod: !setup privates ann automa automa");
    assert!(reply.contains("Privates"), "{reply}");
    let page = console.page_of("console-1");
    let addr = console.addr.clone();
    let (seed, deck) = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("a runtime")
        .block_on(async {
            use sqlx::ConnectOptions as _;
            let mut conn = sqlx::sqlite::SqliteConnectOptions::new()
                .filename(&db)
                .connect()
                .await
                .expect("the database opens");
            let (seed, setup): (String, String) =
                sqlx::query_as("SELECT seed_hex, setup_json FROM games WHERE id = 'console-1'")
                    .fetch_one(&mut conn)
                    .await
                    .expect("the game");
            let setup: serde_json::Value = serde_json::from_str(&setup).expect("JSON");
            let deck: Vec<u64> =
                serde_json::from_value(setup["setup"]["deck"].clone()).expect("a deck");
            (seed, deck)
        });
    assert_eq!(seed.len(), 64);
    let mut sent: Vec<u8> = Vec::new();
    let fetch_all = |sent: &mut Vec<u8>, entries: i64| {
        let mut paths = vec![
            page.clone(),
            format!("{page}/record.json"),
            format!("{page}/head"),
            format!("{page}/chart.svg"),
            format!("{page}/map.svg"),
            "/verify".to_string(),
            "/assets/page.js".to_string(),
            "/assets/verify.js".to_string(),
            "/assets/style.css".to_string(),
        ];
        for at in 0..entries {
            paths.push(format!("{page}?at={at}"));
            paths.push(format!("{page}/chart.svg?at={at}"));
        }
        for path in paths {
            let (_, head, body) = get(&addr, &path);
            sent.extend_from_slice(head.as_bytes());
            sent.extend_from_slice(&body);
        }
    };
    let mut moves = 0;
    for _ in 0..12 {
        let (_, _, head) = get(&addr, &format!("{page}/head"));
        let head = json(&head);
        if head["revealed"] == true {
            break;
        }
        fetch_all(&mut sent, head["entries"].as_i64().expect("entries"));
        // ann passes when she can, else bids the least she may.
        let reply = console.say("ann: **pass**");
        if reply.contains('❌') {
            console.say("ann: **bid 5**");
        }
        moves += 1;
    }
    assert!(moves > 3, "the game went on");
    // The running game counts in the standings (replayed on the stored setup, its deck sealed
    // in the record), and they show nothing hidden either.
    let standings = console.say("ann: !standings");
    assert!(
        standings.contains("**Privates** — 1 game") && standings.contains(". ann · rating"),
        "{standings}"
    );
    assert!(standings.contains("played 1, finished 0"), "{standings}");
    let (_, head, body) = get(&addr, "/standings");
    sent.extend_from_slice(head.as_bytes());
    sent.extend_from_slice(&body);
    // The page's verifier, before the reveal: the chain checked, the deck sealed.
    let dom = dump_dom(&chrome, &profile, &format!("http://{addr}{page}"));
    sent.extend_from_slice(dom.as_bytes());
    let verdict = inner(&dom, "<div id=\"verify\"", "</div>");
    assert!(verdict.contains("data-verdict=\"pending\""), "{verdict}");
    assert!(
        verdict.contains(
            "The hidden draws (privates-deck) are sealed: they will be checkable after the reveal."
        ),
        "{verdict}"
    );
    assert!(
        verdict.contains("(gaugebot-chain-v2) is whole"),
        "{verdict}"
    );
    assert!(
        verdict.contains("the hidden draw privates-deck (sealed "),
        "{verdict}"
    );
    assert!(
        verdict.contains("is sealed until the reveal: not shown, and bound by the chain to its sealed hash; checkable after the reveal."),
        "{verdict}"
    );
    let screens = screens();
    screenshot(
        &chrome,
        &profile,
        &format!("http://{addr}{page}"),
        &screens.join("privates-page.png"),
    );
    let text: String = String::from_utf8_lossy(&sent)
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect();
    assert!(!text.contains(&seed), "the seed was sent before the reveal");
    assert!(!text.contains(&seed.to_uppercase()));
    // No run of ten cards of the deck in its order, as JSON or as text.
    for window in deck.windows(10) {
        let run: Vec<String> = window.iter().map(u64::to_string).collect();
        for sep in [",", "/", "·"] {
            assert!(
                !text.contains(&run.join(sep)),
                "the deck's order was sent: {}",
                run.join(sep)
            );
        }
    }
    // A v3 record seals what it hides (docs/DICE.md §7.2): the deck's draw record holds its
    // sealed hash and no result, the setup no deck; nothing needs withholding (§8.7 is for v1
    // and v2 records).
    let (_, _, body) = get(&addr, &format!("{page}/record.json"));
    let record = json(&body);
    assert_eq!(record["format"], "gaugebot-record-v3");
    assert!(record.get("withheld").is_none(), "nothing withheld");
    assert!(
        record["setup"]["setup"]["deck"].is_null(),
        "no deck in the setup"
    );
    let deck_draw = record["draws"]
        .as_array()
        .expect("draws")
        .iter()
        .find(|d| d["purpose"] == "privates-deck")
        .expect("the deck's draw record");
    assert!(deck_draw["result"].is_null(), "no deck in its draw record");
    assert_eq!(deck_draw["sealed"].as_str().map(str::len), Some(64));
}

#[test]
fn standings_count_games_wins_and_ratings_per_kind() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut console = Console::start(&dir.path().join("g.db"));
    let games = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/games");
    // Two complete games with manual dice: cat wins the Irish Gauge one, bob the Privates one.
    for file in ["complete_manual.txt", "privates_manual.txt"] {
        let text = std::fs::read_to_string(games.join(file)).expect("a game");
        for line in text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        {
            console.say(line);
        }
    }
    let answer = console.say("ann: !standings");
    let irish = &answer[answer
        .find("**Irish Gauge** — 1 game")
        .expect("Irish Gauge")..];
    let privates = &answer[answer.find("**Privates** — 1 game").expect("Privates")..];
    let first = |text: &str| text.lines().nth(1).unwrap_or_default().to_string();
    assert!(
        first(irish).starts_with("1. cat · rating 30.3 ± 7.8 · played 1, finished 1, wins 1"),
        "{answer}"
    );
    assert!(
        first(privates).starts_with("1. bob · rating 30.3 ± 7.8 · played 1, finished 1, wins 1"),
        "{answer}"
    );
    assert!(irish.contains("3. ann · rating 19.7 ± 7.8 · played 1, finished 1, wins 0"));
    // The same on the page it links (the console is one server: every game of its database).
    assert!(
        answer.contains(&format!(
            "The standings page: http://{}/standings",
            console.addr
        )),
        "{answer}"
    );
    let (code, _, page) = get(&console.addr, "/standings");
    assert_eq!(code, 200);
    if let Some(chrome) = chromium() {
        screenshot(
            &chrome,
            &dir.path().join("profile"),
            &format!("http://{}/standings", console.addr),
            &screens().join("standings-page.png"),
        );
    }
    let page = String::from_utf8_lossy(&page);
    assert!(
        page.contains(
            "<th scope=\"row\">cat</th><td>30.3 ± 7.8</td><td>1</td><td>1</td><td>1</td>"
        ),
        "{page}"
    );
}

#[test]
fn any_process_of_a_postgresql_deployment_serves_any_game() {
    let Some(chrome) = chromium() else { return };
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let url = runtime.block_on(server.database());
    let dir = tempfile::tempdir().expect("a temporary folder");
    let profile = dir.path().join("profile");
    // One process plays (the console, on PostgreSQL) and serves its game's page.
    let mut console = Console::start(Path::new(&url));
    let reply = console.say("mod: !setup ann automa automa");
    assert!(reply.contains("Irish Gauge"), "{reply}");
    let page = console.page_of("console-1");
    // Another, which plays nothing and owns no channel, serves the same pages from the store.
    let other = runtime.block_on(async {
        let store = gaugebot_store::backend::open(&url).await.expect("postgres");
        let host =
            gaugebot::games::host_with_pages(None, gaugebot_table::TableSettings::default(), None)
                .expect("the host");
        let web = gaugebot_web::Web {
            store,
            host,
            standings: false,
        };
        // Detached: the task runs on the runtime, which the test keeps.
        let (bound, _detached) =
            gaugebot_web::serve(web, "127.0.0.1:0".parse().expect("an address"))
                .await
                .expect("serving");
        bound.to_string()
    });
    let status_on = |addr: &str| {
        let dom = dump_dom(&chrome, &profile, &format!("http://{addr}{page}"));
        text_of(inner(&dom, "<div class=\"report\">", "</div>"))
    };
    let mine = status_on(&console.addr);
    assert!(mine.contains("Irish Gauge — console-1"), "{mine}");
    assert_eq!(status_on(&other), mine, "the same page from either process");
    // The game goes on in the first process; the second follows it.
    let (_, _, before) = get(&other, &format!("{page}/record.json"));
    let before = json(&before)["log"].as_array().expect("a log").len();
    let mut moved = false;
    for attempt in ["pass", "bid 10", "bid 15", "dividends"] {
        if !console.say(&format!("ann: **{attempt}**")).contains('❌') {
            moved = true;
            break;
        }
    }
    assert!(moved, "ann moved");
    let (code, _, after) = get(&other, &format!("{page}/record.json"));
    assert_eq!(code, 200);
    let after = json(&after)["log"].as_array().expect("a log").len();
    assert!(after > before, "{before} entries, then {after}");
    assert_eq!(status_on(&other), status_on(&console.addr));
    // A verifier in the browser checks the record the second process serves.
    let dom = dump_dom(&chrome, &profile, &format!("http://{other}{page}"));
    assert!(
        dom.contains("data-verdict=\"pending\""),
        "{}",
        inner(&dom, "<div id=\"verify\"", "</div>")
    );
    drop(runtime);
}
