//! A throwaway PostgreSQL server for a test: Debian's `postgresql` binaries (`initdb`,
//! `pg_ctl`), a cluster in a temporary folder, listening only on a unix socket in that folder
//! (no TCP port, so nothing can clash), stopped and removed when dropped.
//!
//! PostgreSQL refuses to run as root: as root the cluster belongs to the `postgres` user (made
//! by Debian's package), or `nobody`, and the commands run through `runuser`. The cluster runs
//! with `fsync=off` (a test's data need not survive a power cut), so it starts in a second or
//! two.
//!
//! Without `initdb` (not installed: `apt-get install postgresql`, which `.ci/run` does) the
//! server cannot start: [`TestPostgres::start`] prints why (past the harness's capture, so the
//! note shows in `cargo test`'s output) and returns `None` so the test can skip, except under
//! CI (`CI` set), where that is a failure.

#![allow(dead_code)]

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A running PostgreSQL cluster (by default with `synchronous_commit` off: a test's commits
/// need not survive a crash of the server; [`TestPostgres::start_durable`] for one whose do).
pub struct TestPostgres {
    dir: tempfile::TempDir,
    bin: PathBuf,
    user: Option<String>,
    next_db: std::sync::atomic::AtomicU32,
    /// The server's options (`pg_ctl start -o`), for a start after a stop.
    options: String,
    /// The TCP port it listens on too, if it does ([`TestPostgres::start_tcp`]).
    port: Option<u16>,
}

/// Where `initdb` is: on the PATH, or Debian's /usr/lib/postgresql/<version>/bin (newest).
pub fn find_bin() -> Option<PathBuf> {
    if let Ok(path) = std::env::var("PATH") {
        for dir in std::env::split_paths(&path) {
            if dir.join("initdb").is_file() && dir.join("pg_ctl").is_file() {
                return Some(dir);
            }
        }
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .ok()?
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let version = e.file_name().to_str()?.parse::<u32>().ok()?;
            let bin = e.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .collect();
    versions.sort();
    versions.pop().map(|(_, bin)| bin)
}

fn is_root() -> bool {
    // SAFETY-free: the effective uid is read from /proc.
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Uid:"))
                .and_then(|l| l.split_whitespace().nth(2).map(|u| u == "0"))
        })
        .unwrap_or(false)
}

/// The uid and gid of a user, from /etc/passwd.
fn user_ids(name: &str) -> Option<(u32, u32)> {
    let passwd = std::fs::read_to_string("/etc/passwd").ok()?;
    passwd.lines().find_map(|line| {
        let fields: Vec<&str> = line.split(':').collect();
        (fields.first() == Some(&name) && fields.len() > 3)
            .then(|| Some((fields[2].parse().ok()?, fields[3].parse().ok()?)))
            .flatten()
    })
}

impl TestPostgres {
    /// Starts a fresh cluster, or says why it cannot and returns `None` (a failure under CI).
    pub fn start() -> Option<TestPostgres> {
        TestPostgres::start_with(None, false)
    }

    /// A cluster whose commits survive the server's crash (`pg_ctl stop -m immediate`): with
    /// `synchronous_commit` on (a commit is in the WAL before it is acknowledged), over TCP on
    /// a free port of 127.0.0.1 (its [`url_of`](Self::url_of) goes over TCP) when `tcp`, else
    /// only over its unix socket.
    pub fn start_durable(tcp: bool) -> Option<TestPostgres> {
        let port = tcp.then(|| {
            std::net::TcpListener::bind("127.0.0.1:0")
                .and_then(|l| l.local_addr())
                .map(|a| a.port())
                .expect("a free port")
        });
        TestPostgres::start_with(port, true)
    }

    fn start_with(port: Option<u16>, durable: bool) -> Option<TestPostgres> {
        let Some(bin) = find_bin() else {
            let why = "PostgreSQL tests skipped: initdb not found (on the PATH or under \
                       /usr/lib/postgresql/*/bin); install Debian's `postgresql` package \
                       (.ci/run does)";
            if std::env::var_os("CI").is_some() {
                panic!("{why}, and CI must run them");
            }
            // Straight to stderr, not through `eprintln!`, which the test harness captures and
            // hides for a passing test: the skip shows in `cargo test`'s output.
            use std::io::Write as _;
            let _ = writeln!(std::io::stderr().lock(), "NOTE: {why}");
            return None;
        };
        let dir = tempfile::Builder::new()
            .prefix("gaugebot-pg-")
            .tempdir_in("/tmp")
            .expect("a temporary folder");
        let user = if is_root() {
            let name = ["postgres", "nobody"]
                .into_iter()
                .find(|n| user_ids(n).is_some())
                .expect("a user to run PostgreSQL as (postgres or nobody)");
            let (uid, gid) = user_ids(name).expect("the user's ids");
            std::os::unix::fs::chown(dir.path(), Some(uid), Some(gid)).expect("chown");
            std::fs::set_permissions(dir.path(), std::fs::Permissions::from_mode(0o700))
                .expect("chmod");
            Some(name.to_string())
        } else {
            None
        };
        let mut pg = TestPostgres {
            dir,
            bin,
            user,
            next_db: std::sync::atomic::AtomicU32::new(1),
            options: String::new(),
            port,
        };
        let data = pg.data();
        pg.run(
            "initdb",
            &[
                "-D",
                &data,
                "-A",
                "trust",
                "-U",
                "gaugebot",
                "--locale=C",
                "-E",
                "UTF8",
                "--no-sync",
            ],
        );
        let socket_dir = pg.socket_dir();
        let listen = match port {
            Some(port) => format!("-c listen_addresses='127.0.0.1' -p {port}"),
            None => "-c listen_addresses=''".to_string(),
        };
        // fsync off is safe from a server crash (the written WAL is in the page cache);
        // synchronous_commit off is not (a commit acknowledged may not be written yet).
        let commits = if durable { "on" } else { "off" };
        pg.options = format!(
            "{listen} -k {socket_dir} -c fsync=off -c synchronous_commit={commits} \
             -c full_page_writes=off -c max_connections=100"
        );
        pg.start_again();
        Some(pg)
    }

    /// Starts the (stopped) server again, as it was started.
    pub fn start_again(&self) {
        let data = self.data();
        let log = format!("{}/server.log", self.socket_dir());
        self.run(
            "pg_ctl",
            &[
                "-D",
                &data,
                "-o",
                &self.options,
                "-w",
                "-t",
                "60",
                "-l",
                &log,
                "start",
            ],
        );
    }

    /// Stops the server (`pg_ctl stop -m <mode>`: `immediate`, `fast`, `smart`) and waits
    /// until it is down.
    pub fn stop(&self, mode: &str) {
        let data = self.data();
        self.run("pg_ctl", &["-D", &data, "-m", mode, "-w", "stop"]);
    }

    /// Restarts the server (`pg_ctl restart -m <mode>`), waiting until it is up again.
    pub fn restart(&self, mode: &str) {
        let data = self.data();
        let log = format!("{}/server.log", self.socket_dir());
        self.run(
            "pg_ctl",
            &[
                "-D",
                &data,
                "-o",
                &self.options,
                "-m",
                mode,
                "-w",
                "-t",
                "60",
                "-l",
                &log,
                "restart",
            ],
        );
    }

    /// The postmaster's process id (to SIGSTOP the whole server).
    pub fn postmaster_pid(&self) -> u32 {
        let pid = std::fs::read_to_string(format!("{}/postmaster.pid", self.data()))
            .expect("postmaster.pid");
        pid.lines()
            .next()
            .and_then(|l| l.trim().parse().ok())
            .expect("a pid")
    }

    fn data(&self) -> String {
        format!("{}/data", self.dir.path().display())
    }

    fn socket_dir(&self) -> String {
        self.dir.path().display().to_string()
    }

    /// The folder of the server's socket and log.
    pub fn path(&self) -> &Path {
        self.dir.path()
    }

    fn command(&self, program: &str) -> Command {
        let program = self.bin.join(program);
        match &self.user {
            Some(user) => {
                let mut c = Command::new("runuser");
                c.arg("-u").arg(user).arg("--").arg(program);
                c
            }
            None => Command::new(program),
        }
    }

    fn run(&self, program: &str, args: &[&str]) {
        let output = self
            .command(program)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap_or_else(|e| panic!("cannot run {program}: {e}"));
        if !output.status.success() {
            let log =
                std::fs::read_to_string(self.dir.path().join("server.log")).unwrap_or_default();
            panic!(
                "{program} failed: {}\n{}\n{log}",
                String::from_utf8_lossy(&output.stdout),
                String::from_utf8_lossy(&output.stderr)
            );
        }
    }

    /// The URL of the cluster's `postgres` database.
    pub fn admin_url(&self) -> String {
        self.url_of("postgres")
    }

    /// The URL of a database of the cluster: over TCP if the server listens on a port, over
    /// its unix socket otherwise.
    pub fn url_of(&self, db: &str) -> String {
        match self.port {
            Some(port) => format!("postgres://gaugebot@127.0.0.1:{port}/{db}"),
            None => format!(
                "postgres://gaugebot@localhost/{db}?host={}",
                self.socket_dir()
            ),
        }
    }

    /// A new, empty database; its URL.
    pub async fn database(&self) -> String {
        use sqlx::Connection;
        let n = self
            .next_db
            .fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let name = format!("test{n}");
        let mut conn = sqlx::PgConnection::connect(&self.admin_url())
            .await
            .expect("connect to the test cluster");
        sqlx::query(&format!("CREATE DATABASE {name}"))
            .execute(&mut conn)
            .await
            .expect("create a database");
        let _ = conn.close().await;
        self.url_of(&name)
    }
}

impl Drop for TestPostgres {
    fn drop(&mut self) {
        let data = self.data();
        let _ = self
            .command("pg_ctl")
            .args(["-D", &data, "-m", "immediate", "-w", "stop"])
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
    }
}
