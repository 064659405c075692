//! The console table: `gaugebot play`. Each input line is `name: message` (blank lines and
//! `#` lines are skipped), from a transcript file or standard input; replies go to stdout.
//! A line may start with `[ID]` to give its message id (ids otherwise come from the clock).

use std::path::{Path, PathBuf};

use anyhow::Context;
use tokio::io::{AsyncBufReadExt, AsyncWrite, AsyncWriteExt, BufReader};

use gaugebot_table::dice::Seed;
use gaugebot_table::input::{Author, Incoming, Response};
use gaugebot_table::{Table, TableSettings};

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
    /// Attach the map after builds.
    pub map_after_build: bool,
    /// A line printed after the replies to every input line, for programs that drive the
    /// console (the reply to a line is complete, and stored, when its marker is printed).
    pub end_marker: Option<String>,
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
}

/// Reads `[id] name: message`; `None` for blank and `#` lines; an error for other lines.
pub fn parse_line(line: &str) -> Option<Result<Line, String>> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return None;
    }
    let (id, rest) = match trimmed.strip_prefix('[').and_then(|r| r.split_once(']')) {
        Some((id, rest)) => (Some(id.trim().to_string()), rest.trim_start()),
        None => (None, trimmed),
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
    }))
}

/// Message ids from the clock, strictly increasing.
struct Clock {
    last: u128,
}

impl Clock {
    fn next(&mut self) -> String {
        let now = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0);
        self.last = now.max(self.last + 1);
        self.last.to_string()
    }
}

/// Now as RFC 3339.
pub fn now_rfc3339() -> String {
    time::OffsetDateTime::now_utc()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
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
    let store = crate::backend::open(&options.db).await.with_context(|| {
        format!(
            "opening the database {}",
            crate::backend::Database::parse(&options.db).display()
        )
    })?;
    let host = games::host(
        options.templates_dir.as_deref(),
        TableSettings {
            prefix: options.prefix.clone(),
            map_after_build: options.map_after_build,
            fixed_seed,
            moderator_name: options.moderator.clone(),
        },
    )?;
    let mut table = Table::load(CONSOLE_CHANNEL, store.clone(), host)
        .await
        .context("loading the console table")?;
    if let Some(frozen) = table.frozen() {
        // The table starts anyway: moderators can export the record or start a new game.
        eprintln!("{frozen}");
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
    let mut lines = BufReader::new(input).lines();
    let mut clock = Clock { last: 0 };
    while let Some(raw) = lines.next_line().await? {
        let line = match parse_line(&raw) {
            None => continue,
            Some(Err(e)) => {
                out.write_all(format!("(ignored: {e})\n\n").as_bytes())
                    .await?;
                continue;
            }
            Some(Ok(line)) => line,
        };
        let message = Incoming {
            message_id: line.id.clone().unwrap_or_else(|| clock.next()),
            author: Author {
                id: line.author.to_lowercase(),
                name: line.author.clone(),
                is_moderator: line.author.eq_ignore_ascii_case(&options.moderator),
            },
            text: line.text,
            at: now_rfc3339(),
            mentions: Vec::new(),
        };
        let now = message.time().unwrap_or_else(chrono::Utc::now);
        let response = table.handle(&message).await;
        print_response(&mut out, &response, options.attachments.as_deref()).await?;
        let due = table.tick(now).await;
        print_response(&mut out, &due, options.attachments.as_deref()).await?;
        if let Some(marker) = &options.end_marker {
            out.write_all(format!("{marker}\n").as_bytes()).await?;
            out.flush().await?;
        }
    }
    if let Some(path) = &options.dump_state {
        let dump = table.dump();
        let json = serde_json::to_string_pretty(&dump)?;
        tokio::fs::write(path, json)
            .await
            .with_context(|| format!("writing {}", path.display()))?;
    }
    store.close().await;
    Ok(())
}

/// Prints a response; attachments are written to `dir` (if given) and named in the output.
pub async fn print_response(
    out: &mut (impl AsyncWrite + Unpin),
    response: &Response,
    dir: Option<&Path>,
) -> anyhow::Result<()> {
    for reply in &response.replies {
        if !reply.text.is_empty() {
            out.write_all(reply.text.as_bytes()).await?;
            out.write_all(b"\n").await?;
        }
        if let Some(attachment) = &reply.attachment {
            let Some(dir) = dir else {
                out.write_all(
                    format!(
                        "[attachment: {} (not saved: give --attachments DIR)]\n",
                        attachment.filename
                    )
                    .as_bytes(),
                )
                .await?;
                continue;
            };
            let path = dir.join(&attachment.filename);
            match tokio::fs::write(&path, &attachment.bytes).await {
                Ok(()) => {
                    out.write_all(format!("[attachment: {}]\n", path.display()).as_bytes())
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
    fn transcript_lines_are_name_colon_message() {
        assert_eq!(parse_line("   "), None);
        assert_eq!(parse_line("# a comment"), None);
        assert_eq!(
            parse_line("alice: **bid 7**"),
            Some(Ok(Line {
                id: None,
                author: "alice".into(),
                text: "**bid 7**".into()
            }))
        );
        assert_eq!(
            parse_line("[42] mod: !status"),
            Some(Ok(Line {
                id: Some("42".into()),
                author: "mod".into(),
                text: "!status".into()
            }))
        );
        assert!(matches!(parse_line("no colon here"), Some(Err(_))));
    }
}
