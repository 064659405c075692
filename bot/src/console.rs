//! The console table: `gaugebot play`. Each input line is `name: message` (blank lines and
//! `#` lines are skipped), from a transcript file or standard input; replies go to stdout.
//! A line may start with `[ID]` to give its message id; ids otherwise come from the console's
//! clock and the line's number ([`MessageIds`]), so a transcript played again with the same
//! `--seed` draws the same. On a stored game the console's clock continues from its latest
//! entry.
//!
//! Play over weeks in a transcript:
//! - `dm:name: message` is a direct message to the bot (`dm:ann: !preset max WLW 12`); its
//!   reply is printed as `(to ann) …`.
//! - `@2025-03-01T12:00:00Z` sets the console's clock, `@+25h` (any duration: `30m`, `3d`)
//!   moves it on; from then on every line is sent at the console's clock instead of the wall
//!   clock, and the tables' time-driven work (reminders, deadlines, signups) runs at once.

use std::path::{Path, PathBuf};

use anyhow::Context;
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};

use chrono::{DateTime, SubsecRound, Utc};
use gaugebot_table::answer::utc;
use gaugebot_table::dice::Seed;
use gaugebot_table::input::{Author, Incoming, Response};
use gaugebot_table::weeks::duration::{format_duration, parse_duration, parse_time};
use gaugebot_table::{InstantStyle, Rich, Span, TableSettings, Tables};

use crate::games;

/// The channel name of the console table.
pub const CONSOLE_CHANNEL: &str = "console";

/// Options of `gaugebot play`.
#[derive(Debug, Clone)]
pub struct PlayOptions {
    /// Database path; `:memory:` keeps nothing.
    pub db: String,
    /// The moderator's name.
    pub moderator: String,
    /// A fixed dice seed (hex) for new games.
    pub seed: Option<String>,
    /// Where to write the state dump at the end of input.
    pub dump_state: Option<PathBuf>,
    /// Where to write attachments (map pictures, audit files); none are written without it.
    pub attachments: Option<PathBuf>,
    /// The transcript; standard input when absent.
    pub transcript: Option<PathBuf>,
    /// Command prefix.
    pub prefix: String,
    /// Template override directory.
    pub templates_dir: Option<PathBuf>,
    /// Attach the map to the setup and after builds.
    pub map_after_build: bool,
    /// A line printed after the replies to every input line, for programs that drive the
    /// console (the reply to a line is complete, and stored, when its marker is printed).
    pub end_marker: Option<String>,
    /// How hard automa seats think (`--automa cheap` for quick scripted games).
    pub automa: gaugebot_table::game::automa::AutomaLevel,
    /// The dice specification of new games (`gaugebot-dice-v3` unless a test asks for an
    /// earlier one, to make records of that version).
    pub dice_spec: gaugebot_table::dice::Spec,
    /// `--commit-first`: a new game's commitment is posted first and its setup draws use that
    /// post's id (the console's next id) as the game's client seed (docs/DICE.md §3.3).
    pub commit_first: bool,
    /// Serve the games' web pages there (`--web 127.0.0.1:8080`): each game's address is
    /// printed on standard error, and the pages are served until ctrl-c after the input ends.
    pub web: Option<std::net::SocketAddr>,
}

/// One parsed input line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Line {
    /// Explicit message id.
    pub id: Option<String>,
    /// The author's name.
    pub author: String,
    /// The message.
    pub text: String,
    /// Whether it is a direct message to the bot (`dm:name: …`).
    pub dm: bool,
}

/// A line that sets the console's clock.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ClockLine {
    /// `@2025-03-01T12:00:00Z`: this time.
    At(DateTime<Utc>),
    /// `@+25h`: this much later.
    Advance(chrono::Duration),
}

/// Reads `@<RFC 3339 time>` or `@+<duration>`; `None` for a line that does not start with `@`.
pub fn parse_clock_line(line: &str) -> Option<Result<ClockLine, String>> {
    let rest = line.trim().strip_prefix('@')?;
    Some(match rest.strip_prefix('+') {
        Some(duration) => parse_duration(duration)
            .map(ClockLine::Advance)
            .map_err(|e| e.to_string()),
        None => parse_time(rest)
            .map(ClockLine::At)
            .ok_or_else(|| format!("'{rest}' is not an RFC 3339 time")),
    })
}

/// Reads `[id] name: message` (or `dm:name: message`); `None` for blank and `#` lines; an
/// error for other lines.
pub fn parse_line(line: &str) -> Option<Result<Line, String>> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    let (id, rest) = match trimmed.strip_prefix('[').and_then(|r| r.split_once(']')) {
        Some((id, rest)) => (Some(id.trim().to_string()), rest.trim_start()),
        None => (None, trimmed),
    };
    let (dm, rest) = match rest.strip_prefix("dm:") {
        Some(rest) => (true, rest.trim_start()),
        None => (false, rest),
    };
    let Some((author, text)) = rest.split_once(':') else {
        return Some(Err(format!(
            "'{trimmed}' is not a line of the form 'name: message'"
        )));
    };
    let author = author.trim();
    if author.is_empty() || author.contains(char::is_whitespace) {
        return Some(Err(format!("'{author}' is not a name")));
    }
    Some(Ok(Line {
        id,
        author: author.to_string(),
        text: text.trim().to_string(),
        dm,
    }))
}

/// The console's message ids: from the console's clock and the line's number, so that a
/// transcript played again (with the same `--seed`) gets the same ids, and with them the same
/// draws. An id is the clock's second (0 while no clock is set) times a million plus the
/// line's number, raised above every id given or stored before (strictly increasing).
struct MessageIds {
    /// The largest id used or stored so far.
    last: u64,
}

impl MessageIds {
    /// The id of input line `line` read at the console's clock `clock`.
    fn next(&mut self, clock: Option<DateTime<Utc>>, line: usize) -> String {
        let second = clock.map_or(0, |at| u64::try_from(at.timestamp()).unwrap_or(0));
        let candidate = second.saturating_mul(1_000_000).saturating_add(line as u64);
        self.last = candidate.max(self.last.saturating_add(1));
        self.last.to_string()
    }

    /// An id given in the transcript (`[ID] …`): later ids are made above it.
    fn given(&mut self, id: &str) {
        if let Ok(id) = id.parse::<u64>() {
            self.last = self.last.max(id);
        }
    }
}

/// Runs the console table until the input ends.
pub async fn play(options: PlayOptions) -> anyhow::Result<()> {
    // A bad seed is refused before anything starts, not at the first `!setup`.
    let fixed_seed = options
        .seed
        .as_deref()
        .map(Seed::from_hex)
        .transpose()
        .context("--seed must be 64 hexadecimal digits")?;
    let store = gaugebot_store::backend::open(&options.db)
        .await
        .with_context(|| {
            format!(
                "opening the database {}",
                gaugebot_store::backend::Database::parse(&options.db).display()
            )
        })?;
    // The pages' listener first: the reports link the pages at its address.
    let listener = match options.web {
        Some(listen) => Some(
            tokio::net::TcpListener::bind(listen)
                .await
                .with_context(|| format!("serving the web pages on {listen}"))?,
        ),
        None => None,
    };
    let page_url = match &listener {
        Some(listener) => Some(format!("http://{}", listener.local_addr()?)),
        None => None,
    };
    let host = games::host_with_pages(
        options.templates_dir.as_deref(),
        TableSettings {
            prefix: options.prefix.clone(),
            map_after_build: options.map_after_build,
            fixed_seed,
            moderator_name: options.moderator.clone(),
            automa: options.automa,
            dice_spec: options.dice_spec,
            setup_after_commitment: options.commit_first,
            ..TableSettings::default()
        },
        page_url.clone(),
    )?;
    let tables = Tables::new(store.clone(), host.clone());
    let web = match (listener, page_url) {
        (Some(listener), Some(url)) => {
            // The console's own games: the standings page too.
            let pages = gaugebot_web::Web {
                store: store.clone(),
                host,
                standings: true,
            };
            let task = gaugebot_web::serve_on(pages, listener);
            eprintln!("(web pages on {url})");
            Some((url, task))
        }
        _ => None,
    };
    // A stored game goes on at its own time: the console's clock continues from its latest
    // entry (`@+25h` is a day after it, not after today), and new ids follow its ids.
    let mut ids = MessageIds {
        last: store
            .cursor(CONSOLE_CHANNEL)
            .await
            .context("reading the console's last message id")?
            .and_then(|id| id.parse().ok())
            .unwrap_or(0),
    };
    // The console's clock, once a transcript sets it or a stored game gives it; the wall
    // clock until then.
    let mut virtual_now: Option<DateTime<Utc>> = None;
    let mut announced: Option<String> = None;
    {
        let table = tables
            .table(CONSOLE_CHANNEL)
            .await
            .context("loading the console table")?;
        if let Some(frozen) = table.frozen() {
            // The table starts anyway: moderators can export the record or start a new game.
            eprintln!("{frozen}");
        }
        if let Some((at, id)) = table.latest() {
            virtual_now = Some(at.trunc_subsecs(0));
            ids.last = ids.last.max(id.unwrap_or(0));
        }
    }
    let mut out = tokio::io::stdout();
    let input: Box<dyn tokio::io::AsyncRead + Unpin> = match &options.transcript {
        Some(path) => Box::new(
            tokio::fs::File::open(path)
                .await
                .with_context(|| format!("opening {}", path.display()))?,
        ),
        None => Box::new(tokio::io::stdin()),
    };
    let mut input = BufReader::new(input);
    let dir = options.attachments.as_deref();
    if let Some(dir) = dir {
        tokio::fs::create_dir_all(dir)
            .await
            .with_context(|| format!("creating the attachments folder {}", dir.display()))?;
    }
    let mut number = 0usize;
    // Whether a command of this run was accepted (stored): only then are its ids kept.
    let mut accepted = false;
    while let Some(read) = next_line(&mut input).await? {
        number += 1;
        let raw = match read {
            Ok(raw) => raw,
            Err(bytes) => {
                out.write_all(
                    format!("(ignored: line {number} is not UTF-8 text ({bytes} bytes))\n\n")
                        .as_bytes(),
                )
                .await?;
                continue;
            }
        };
        if let Some(set) = parse_clock_line(&raw) {
            match set {
                Ok(ClockLine::At(at)) => virtual_now = Some(at),
                Ok(ClockLine::Advance(by)) => {
                    virtual_now = Some(virtual_now.unwrap_or_else(Utc::now) + by)
                }
                Err(e) => {
                    out.write_all(format!("(ignored: {e})\n\n").as_bytes())
                        .await?;
                    continue;
                }
            }
            let now = virtual_now.unwrap_or_else(Utc::now);
            for (_, due) in tables.tick(now).await {
                print_response(&mut out, &due, dir, now).await?;
                let post = due.waiting_setup().map(|_| ids.next(virtual_now, number));
                setup_after_post(&tables, &due, post, &mut out, dir, now).await?;
            }
            end_marker(&mut out, &options).await?;
            continue;
        }
        let line = match parse_line(&raw) {
            None => continue,
            Some(Err(e)) => {
                out.write_all(format!("(ignored: {e})\n\n").as_bytes())
                    .await?;
                continue;
            }
            Some(Ok(line)) => line,
        };
        let message_id = match &line.id {
            Some(id) => {
                ids.given(id);
                id.clone()
            }
            None => ids.next(virtual_now, number),
        };
        let message = Incoming {
            message_id,
            author: Author {
                id: line.author.to_lowercase(),
                name: line.author.clone(),
                // Nobody is a moderator in a direct message (as on Discord).
                is_moderator: !line.dm && line.author.eq_ignore_ascii_case(&options.moderator),
                mention: format!("@{}", line.author),
            },
            text: line.text,
            at: virtual_now
                .map(|at| at.trunc_subsecs(0))
                .unwrap_or_else(Utc::now),
            mentions: Vec::new(),
        };
        let now = message.at;
        if line.dm {
            let response = tables
                .across(true, &message)
                .await
                .unwrap_or_else(|| Response::new(gaugebot_table::Verdict::Ignored));
            accepted |= response.verdict == gaugebot_table::Verdict::Accepted;
            let mut private = response.clone();
            for reply in &mut private.replies {
                let to = Rich::text(format!("(to {}) ", line.author));
                reply.text = to.joined(std::mem::take(&mut reply.text));
            }
            print_response(&mut out, &private, dir, now).await?;
        } else {
            let response = tables
                .handle(CONSOLE_CHANNEL, &message)
                .await
                .context("loading the console table")?;
            accepted |= response.verdict == gaugebot_table::Verdict::Accepted;
            print_response(&mut out, &response, dir, now).await?;
            let post = response
                .waiting_setup()
                .map(|_| ids.next(virtual_now, number));
            setup_after_post(&tables, &response, post, &mut out, dir, now).await?;
        }
        for (_, due) in tables.tick(now).await {
            print_response(&mut out, &due, dir, now).await?;
            let post = due.waiting_setup().map(|_| ids.next(virtual_now, number));
            setup_after_post(&tables, &due, post, &mut out, dir, now).await?;
        }
        if let Some((url, _)) = &web {
            announce_page(&*store, url, &mut announced).await;
        }
        end_marker(&mut out, &options).await?;
    }
    if let Some(path) = &options.dump_state {
        let dump = tables
            .table(CONSOLE_CHANNEL)
            .await
            .context("loading the console table")?
            .dump();
        let json = serde_json::to_string_pretty(&dump)?;
        tokio::fs::write(path, json)
            .await
            .with_context(|| format!("writing {}", path.display()))?;
    }
    // The next run on this database makes its ids above this run's. A run that stored nothing
    // leaves the database as it was (a refused or read-only run changes nothing), and a cursor
    // that cannot be stored is said, not fatal: the next run's ids still follow the game's.
    if accepted && ids.last > 0 {
        if let Err(error) = store
            .advance_cursor(CONSOLE_CHANNEL, &ids.last.to_string())
            .await
        {
            eprintln!("gaugebot: the console's last message id was not stored: {error}");
        }
    }
    if let Some((url, task)) = web {
        eprintln!("(the input ended; serving the pages on {url} until ctrl-c)");
        tokio::select! {
            _ = tokio::signal::ctrl_c() => {}
            _ = task => {}
        }
    }
    store.close().await;
    Ok(())
}

/// After an answer whose first post is a commitment post (`--commit-first`): that post took
/// the console's next id, `post`, and the setup that waited for it (a `!setup`, or signups that
/// closed) is drawn with it as the game's client seed and printed (docs/DICE.md §1).
async fn setup_after_post(
    tables: &Tables,
    response: &Response,
    post: Option<String>,
    out: &mut (impl AsyncWrite + Unpin),
    dir: Option<&Path>,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    let (Some(game_id), Some(post)) = (response.waiting_setup(), post) else {
        return Ok(());
    };
    let setup = tables
        .table(CONSOLE_CHANNEL)
        .await
        .context("loading the console table")?
        .commitment_posted(game_id, &post)
        .await;
    print_response(out, &setup, dir, now).await
}

/// The next line of the input without its line break: its text, or its length in bytes when
/// it is not UTF-8 (the line is skipped, the lines after it are read); `None` at the end.
async fn next_line(
    input: &mut (impl tokio::io::AsyncBufRead + Unpin),
) -> std::io::Result<Option<Result<String, usize>>> {
    let mut bytes = Vec::new();
    if input.read_until(b'\n', &mut bytes).await? == 0 {
        return Ok(None);
    }
    while matches!(bytes.last(), Some(b'\n' | b'\r')) {
        bytes.pop();
    }
    let length = bytes.len();
    Ok(Some(String::from_utf8(bytes).map_err(|_| length)))
}

/// A file name that stays in the attachments folder: letters, digits, `.`, `-` and `_`,
/// anything else (a path separator) replaced by `_`, never starting with a dot.
fn safe_file_name(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = safe.trim_start_matches('.');
    if safe.is_empty() {
        "attachment".to_string()
    } else {
        safe.to_string()
    }
}

async fn end_marker(
    out: &mut (impl AsyncWrite + Unpin),
    options: &PlayOptions,
) -> anyhow::Result<()> {
    if let Some(marker) = &options.end_marker {
        out.write_all(format!("{marker}\n").as_bytes()).await?;
        out.flush().await?;
    }
    Ok(())
}

/// Prints the address of the console game's page on standard error once per game.
async fn announce_page(
    store: &dyn gaugebot_table::Store,
    url: &str,
    announced: &mut Option<String>,
) {
    let Ok(Some(game)) = store.active_game(CONSOLE_CHANNEL).await else {
        return;
    };
    if announced.as_deref() == Some(game.id.as_str()) {
        return;
    }
    match gaugebot_web::page_link(store, url, &game.id).await {
        Ok(Some(link)) => {
            eprintln!("(the page of {}: {link})", game.id);
            *announced = Some(game.id);
        }
        Ok(None) => {}
        Err(e) => eprintln!("(no page for {}: {e})", game.id),
    }
}

/// The console presenter: a text as plain text — a person called on as `@name`, an instant
/// in UTC (`2025-03-01 12:00 UTC`) or, when shown relative, from the console's clock `now`
/// (`in 1d`, `2h30m ago`), a channel as `#name`; the forum's markdown as written.
pub fn present(text: &Rich, now: DateTime<Utc>) -> String {
    let mut out = String::new();
    for span in text.spans() {
        match span {
            Span::Text(words) => out.push_str(words),
            Span::Ping { name, .. } => out.push_str(&format!("@{name}")),
            Span::Instant {
                at,
                style: InstantStyle::Relative,
            } => out.push_str(&relative(*at, now)),
            Span::Instant { at, .. } => out.push_str(&utc(*at)),
            Span::Channel { id } => out.push_str(&format!("#{id}")),
            Span::Link { url, .. } => out.push_str(url),
        }
    }
    out
}

/// An instant relative to `now`, in the forum's durations: `in 1d`, `2h30m ago`, `now`.
fn relative(at: DateTime<Utc>, now: DateTime<Utc>) -> String {
    let minute = chrono::Duration::minutes(1);
    if at - now >= minute {
        format!("in {}", format_duration(at - now))
    } else if now - at >= minute {
        format!("{} ago", format_duration(now - at))
    } else {
        "now".to_string()
    }
}

/// Prints a response (instants relative to the console's clock `now`); attachments are
/// written to `dir` (if given) and named in the output, each with its alt text (`[alt: …]`).
pub async fn print_response(
    out: &mut (impl AsyncWrite + Unpin),
    response: &Response,
    dir: Option<&Path>,
    now: DateTime<Utc>,
) -> anyhow::Result<()> {
    for reply in &response.replies {
        let text = present(&reply.text, now);
        if !text.is_empty() {
            out.write_all(text.as_bytes()).await?;
            out.write_all(b"\n").await?;
        }
        if let Some(attachment) = &reply.attachment {
            // What the file shows, in words (its alt text), under its name.
            let alt = if attachment.alt.is_empty() {
                String::new()
            } else {
                format!("[alt: {}]\n", attachment.alt)
            };
            let Some(dir) = dir else {
                out.write_all(
                    format!(
                        "[attachment: {} (not saved: give --attachments DIR)]\n",
                        attachment.filename
                    )
                    .as_bytes(),
                )
                .await?;
                out.write_all(alt.as_bytes()).await?;
                continue;
            };
            let path = dir.join(safe_file_name(&attachment.filename));
            match tokio::fs::write(&path, &attachment.bytes).await {
                Ok(()) => {
                    out.write_all(format!("[attachment: {}]\n{alt}", path.display()).as_bytes())
                        .await?
                }
                Err(e) => {
                    out.write_all(
                        format!("[attachment {} not written: {e}]\n", path.display()).as_bytes(),
                    )
                    .await?
                }
            }
        }
    }
    // Turn pings by direct message: on Discord they link to the channel's message.
    for direct in &response.direct {
        let text = present(&direct.text, now);
        out.write_all(format!("(dm to {}) {text}\n", direct.name).as_bytes())
            .await?;
    }
    if !response.replies.is_empty() {
        out.write_all(b"\n").await?;
    }
    out.flush().await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn attachment_names_stay_in_their_folder() {
        assert_eq!(safe_file_name("console-1-12.png"), "console-1-12.png");
        assert_eq!(safe_file_name("../../evil-1.png"), "_.._evil-1.png");
        assert_eq!(safe_file_name("/etc/passwd"), "_etc_passwd");
        assert_eq!(safe_file_name(".."), "attachment");
        let dir = std::path::Path::new("/tmp/out");
        for name in ["../x.png", "a/../../b", "..\\c", "/abs"] {
            let path = dir.join(safe_file_name(name));
            assert_eq!(path.parent(), Some(dir), "{name}");
        }
    }

    #[tokio::test]
    async fn a_line_that_is_not_utf8_is_skipped_and_the_next_is_read() {
        let input: &[u8] = b"ann: **bid 7**\r\nbob: \xff\xfe pass\ncat: **pass**";
        let mut reader = BufReader::new(input);
        let mut lines = Vec::new();
        while let Some(line) = next_line(&mut reader).await.expect("reads") {
            lines.push(line);
        }
        assert_eq!(
            lines,
            [
                Ok("ann: **bid 7**".to_string()),
                Err(12),
                Ok("cat: **pass**".to_string())
            ]
        );
    }

    #[test]
    fn transcript_lines_are_name_colon_message() {
        assert_eq!(parse_line("   "), None);
        assert_eq!(parse_line("# a comment"), None);
        assert_eq!(
            parse_line("alice: **bid 7**"),
            Some(Ok(Line {
                id: None,
                author: "alice".into(),
                text: "**bid 7**".into(),
                dm: false,
            }))
        );
        assert_eq!(
            parse_line("[42] mod: !status"),
            Some(Ok(Line {
                id: Some("42".into()),
                author: "mod".into(),
                text: "!status".into(),
                dm: false,
            }))
        );
        assert_eq!(
            parse_line("dm:ann: !preset max WLW 12"),
            Some(Ok(Line {
                id: None,
                author: "ann".into(),
                text: "!preset max WLW 12".into(),
                dm: true,
            }))
        );
        assert!(matches!(parse_line("no colon here"), Some(Err(_))));
    }

    #[test]
    fn clock_lines_set_or_advance_the_console_clock() {
        assert_eq!(parse_clock_line("ann: hi"), None);
        assert_eq!(
            parse_clock_line("@+25h"),
            Some(Ok(ClockLine::Advance(chrono::Duration::hours(25))))
        );
        assert_eq!(
            parse_clock_line(" @2025-03-01T12:00:00Z"),
            Some(Ok(ClockLine::At(
                parse_time("2025-03-01T12:00:00Z").expect("time")
            )))
        );
        assert!(matches!(parse_clock_line("@+forever"), Some(Err(_))));
        assert!(matches!(parse_clock_line("@tomorrow"), Some(Err(_))));
    }
}
