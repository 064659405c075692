//! The games' web pages from a warm process: `gaugebot play --web` serves a finished game of
//! Irish Gauge (three automa seats, 180 entries) and one of Privates, and each page, the map's
//! SVG and the record are fetched over HTTP/1.1 on 127.0.0.1, one request at a time (a new
//! connection each, as a browser's first visit), after 10 warm-up requests.
//!
//! Run: `cargo bench -p gaugebot --bench web` (`WEB_ROUNDS=n` changes the 200 requests per
//! series). Prints the median and p99 of each series.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const SEED: &str = "ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12ab12";

fn get(addr: &str, path: &str) -> (u16, usize) {
    let mut stream = TcpStream::connect(addr).expect("the web server answers");
    write!(
        stream,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .expect("the request is sent");
    let mut raw = Vec::new();
    stream.read_to_end(&mut raw).expect("the answer is read");
    let status = String::from_utf8_lossy(&raw[..12.min(raw.len())])
        .split(' ')
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, raw.len())
}

fn quantile(samples: &[Duration], q: f64) -> Duration {
    let mut sorted = samples.to_vec();
    sorted.sort();
    sorted[((sorted.len() - 1) as f64 * q).round() as usize]
}

fn main() {
    let rounds: usize = std::env::var("WEB_ROUNDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(200);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut child = Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args([
            "play",
            "--automa",
            "cheap",
            "--seed",
            SEED,
            "--web",
            "127.0.0.1:0",
            "--db",
        ])
        .arg(dir.path().join("g.db"))
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("gaugebot play starts");
    let mut stdin = child.stdin.take().expect("stdin");
    // Two finished games: the console's channel holds one game at a time.
    writeln!(stdin, "mod: !setup automa automa automa").expect("a line");
    writeln!(stdin, "mod: !setup privates automa automa automa").expect("a line");
    drop(stdin);
    let mut addr = String::new();
    let mut pages = Vec::new();
    for line in BufReader::new(child.stderr.take().expect("stderr"))
        .lines()
        .map_while(Result::ok)
    {
        if let Some(rest) = line.strip_prefix("(web pages on http://") {
            addr = rest.trim_end_matches(')').to_string();
        } else if let Some(rest) = line.strip_prefix("(the page of ") {
            let url = rest.trim_end_matches(')');
            pages.push(url[url.find("/g/").expect("a page")..].to_string());
        } else if line.starts_with("(the input ended") {
            break;
        }
    }
    assert_eq!(pages.len(), 2, "two games' pages");
    let series = [
        (
            "Irish Gauge page (180 entries, inline map and chart)",
            pages[0].clone(),
        ),
        (
            "Irish Gauge page at entry 90 (?at=90)",
            format!("{}?at=90", pages[0]),
        ),
        ("Irish Gauge map.svg", format!("{}/map.svg", pages[0])),
        (
            "Irish Gauge record.json",
            format!("{}/record.json", pages[0]),
        ),
        ("Privates page (finished game)", pages[1].clone()),
    ];
    println!("{rounds} requests per series after 10 warm-up, one connection each");
    for (name, path) in series {
        for _ in 0..10 {
            get(&addr, &path);
        }
        let mut samples = Vec::with_capacity(rounds);
        let mut bytes = 0;
        for _ in 0..rounds {
            let start = Instant::now();
            let (status, size) = get(&addr, &path);
            samples.push(start.elapsed());
            assert_eq!(status, 200, "{path}");
            bytes = size;
        }
        println!(
            "{name:<54} {:>7} bytes  median {:>9.3?}  p99 {:>9.3?}",
            bytes,
            quantile(&samples, 0.5),
            quantile(&samples, 0.99)
        );
    }
    let _ = child.kill();
    let _ = child.wait();
}
