//! `gaugebot run` as child processes of a test (killed when dropped, also when the test
//! fails), and a bounded wait that prints their logs when it times out: what the tests that
//! kill or replace processes share (`multiprocess.rs`, `discord_outbox.rs`).
// Each test binary that includes this module uses only part of it.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long [`eventually`] waits.
pub const WAIT: Duration = Duration::from_secs(30);

/// The bot processes of a test, killed when dropped (also when the test fails).
pub struct Bots(pub Vec<Child>);

impl Drop for Bots {
    fn drop(&mut self) {
        for bot in &mut self.0 {
            let _ = bot.kill();
            let _ = bot.wait();
        }
    }
}

impl Bots {
    /// SIGKILL to bot `index`: no shutdown, no flush, nothing more posted.
    pub fn crash(&mut self, index: usize) {
        self.0[index].kill().expect("kill");
        self.0[index].wait().expect("wait");
    }
}

/// A `gaugebot run` child process on the configuration file; its log goes to `log`.
pub fn spawn_bot(config: &Path, log: &Path) -> Child {
    let log = std::fs::File::create(log).expect("log file");
    Command::new(env!("CARGO_BIN_EXE_gaugebot"))
        .args(["--config", &config.to_string_lossy(), "run"])
        .env("DISCORD_TOKEN", fakediscord::BOT_TOKEN)
        .env("RUST_LOG", "warn,gaugebot=info")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(log)
        .spawn()
        .expect("gaugebot starts")
}

/// Prints the bots' `logs` (to keep what a failed assertion needs to be understood).
pub fn print_logs(logs: &[PathBuf]) {
    for log in logs {
        eprintln!(
            "--- {}\n{}",
            log.display(),
            std::fs::read_to_string(log).unwrap_or_default()
        );
    }
}

/// Polls (bounded by [`WAIT`]) until `check` holds; prints the bots' `logs` if it never does.
pub async fn eventually<T>(
    what: &str,
    logs: &[PathBuf],
    mut check: impl AsyncFnMut() -> Option<T>,
) -> T {
    let start = Instant::now();
    loop {
        if let Some(v) = check().await {
            return v;
        }
        if start.elapsed() > WAIT {
            print_logs(logs);
            panic!("timed out waiting for {what}");
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
