//! What the table says, typed: text as spans that each transport presents in its own way.
//!
//! The table and the games word everything in templates, which make strings. Three things in
//! those strings are not words but references a transport shows in its own form: a person
//! called to act (Discord pings `<@id>`, the console writes `@name`, a web page a name), an
//! instant (Discord shows `<t:…:R>` in each reader's time zone and language, the console
//! writes the time in UTC) and a channel (`<#id>` / `#name`). The core writes each as a
//! *token* ([`ping`], [`relative`], [`full`], [`channel`]): characters of Unicode's private
//! use area that no template and no player writes. [`Rich::parse`] reads a rendered text into
//! [`Span`]s once, where the table makes its answer, so transports never see a token: they
//! get typed spans, and everything else is the forum's markdown (`**bid 7**`), which every
//! transport shows as it is or renders.
//!
//! No transport's markup and no transport's length limit are written here: the Discord
//! presenter (`bot/src/discord/present.rs`) renders the spans and splits the text to fit
//! Discord's limit; the console presenter writes plain text with times in UTC.

use std::fmt;

use chrono::{DateTime, TimeZone, Utc};

/// Opens a token.
const OPEN: char = '\u{E000}';
/// Closes a token.
const CLOSE: char = '\u{E001}';
/// Separates a token's fields.
const SEP: char = '\u{E002}';

/// How an instant is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum InstantStyle {
    /// Relative to the reader's now (`in 3 hours`, `2 days ago`), where the transport can.
    Relative,
    /// The date and the time of day.
    Full,
}

/// One piece of a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Span {
    /// Words, in the forum's markdown (`**bid 7**`).
    Text(String),
    /// A person called on: pinged where the transport pings.
    Ping {
        /// The transport's id of the person (a Discord user id; the lower-case name at the
        /// console).
        id: String,
        /// Their display name.
        name: String,
    },
    /// A moment in time.
    Instant {
        /// When.
        at: DateTime<Utc>,
        /// How it is shown.
        style: InstantStyle,
    },
    /// A channel of the transport, by its id (a Discord channel id; the console's name).
    Channel {
        /// The channel's id.
        id: String,
    },
    /// The address of a web page: a game's, a server's standings (each transport shows it as a
    /// link).
    Link {
        /// The whole address.
        url: String,
        /// What the page is, as a link's words show it (`game page`).
        label: String,
    },
}

/// A text as spans.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Rich {
    spans: Vec<Span>,
}

/// The token of a person called on (see [`Span::Ping`]).
pub fn ping(id: &str, name: &str) -> String {
    format!("{OPEN}p{SEP}{}{SEP}{}{CLOSE}", clean(id), clean(name))
}

/// The token of an instant shown relative to the reader's now.
pub fn relative(at: DateTime<Utc>) -> String {
    format!("{OPEN}r{SEP}{}{CLOSE}", at.timestamp())
}

/// The token of an instant shown as a date and a time.
pub fn full(at: DateTime<Utc>) -> String {
    format!("{OPEN}f{SEP}{}{CLOSE}", at.timestamp())
}

/// The token of a channel (see [`Span::Channel`]).
pub fn channel(id: &str) -> String {
    format!("{OPEN}c{SEP}{}{CLOSE}", clean(id))
}

/// The token of the game's web page's address (see [`Span::Link`]).
pub fn link(url: &str) -> String {
    named_link(url, GAME_PAGE)
}

/// What a link to a game's page says ([`link`]).
pub const GAME_PAGE: &str = "game page";

/// The token of a web page's address, shown as `label` where a transport shows words.
pub fn named_link(url: &str, label: &str) -> String {
    format!("{OPEN}l{SEP}{}{SEP}{}{CLOSE}", clean(url), clean(label))
}

/// Text without the characters tokens are made of (a name can never open a token).
pub fn clean(text: &str) -> String {
    text.chars()
        .filter(|c| !matches!(*c, OPEN | CLOSE | SEP))
        .collect()
}

impl Rich {
    /// Plain words, no references.
    pub fn text(text: impl Into<String>) -> Rich {
        let text = text.into();
        let spans = if text.is_empty() {
            Vec::new()
        } else {
            vec![Span::Text(text)]
        };
        Rich { spans }
    }

    /// Reads a rendered text: its tokens become spans. A broken token (never written by the
    /// core) is dropped with its token characters, keeping the words around it.
    pub fn parse(rendered: &str) -> Rich {
        let mut rich = Rich::default();
        let mut rest = rendered;
        while let Some(open) = rest.find(OPEN) {
            rich.push_text(&rest[..open]);
            let after = &rest[open + OPEN.len_utf8()..];
            let Some(close) = after.find(CLOSE) else {
                rich.push_text(&clean(after));
                return rich;
            };
            if let Some(span) = token(&after[..close]) {
                rich.spans.push(span);
            }
            rest = &after[close + CLOSE.len_utf8()..];
        }
        rich.push_text(rest);
        rich
    }

    fn push_text(&mut self, text: &str) {
        let text = clean(text);
        if text.is_empty() {
            return;
        }
        match self.spans.last_mut() {
            Some(Span::Text(last)) => last.push_str(&text),
            _ => self.spans.push(Span::Text(text)),
        }
    }

    /// The spans, in order.
    pub fn spans(&self) -> &[Span] {
        &self.spans
    }

    /// Whether there is nothing to show (no span, or only blank words).
    pub fn is_blank(&self) -> bool {
        self.spans
            .iter()
            .all(|s| matches!(s, Span::Text(t) if t.trim().is_empty()))
    }

    /// This text with `other` after it on a new line.
    pub fn then(mut self, other: Rich) -> Rich {
        if other.spans.is_empty() {
            return self;
        }
        if !self.spans.is_empty() {
            self.push_text("\n");
        }
        self.joined(other)
    }

    /// This text with `other` right after it.
    pub fn joined(mut self, other: Rich) -> Rich {
        for span in other.spans {
            match span {
                Span::Text(text) => self.push_text(&text),
                span => self.spans.push(span),
            }
        }
        self
    }

    /// The people pinged in this text (their ids), in order, each once.
    pub fn pinged(&self) -> Vec<&str> {
        let mut ids: Vec<&str> = Vec::new();
        for span in &self.spans {
            if let Span::Ping { id, .. } = span {
                if !ids.contains(&id.as_str()) {
                    ids.push(id);
                }
            }
        }
        ids
    }
}

/// The span of a token's contents (between its open and close characters).
fn token(inner: &str) -> Option<Span> {
    let fields: Vec<&str> = inner.split(SEP).collect();
    let instant = |style| {
        let seconds: i64 = fields.get(1)?.parse().ok()?;
        let at = Utc.timestamp_opt(seconds, 0).single()?;
        Some(Span::Instant { at, style })
    };
    match fields.first().copied()? {
        "p" if fields.len() == 3 => Some(Span::Ping {
            id: fields[1].to_string(),
            name: fields[2].to_string(),
        }),
        "r" => instant(InstantStyle::Relative),
        "f" => instant(InstantStyle::Full),
        "c" if fields.len() == 2 => Some(Span::Channel {
            id: fields[1].to_string(),
        }),
        "l" if fields.len() == 2 => Some(Span::Link {
            url: fields[1].to_string(),
            label: GAME_PAGE.to_string(),
        }),
        "l" if fields.len() == 3 => Some(Span::Link {
            url: fields[1].to_string(),
            label: fields[2].to_string(),
        }),
        _ => None,
    }
}

/// An instant in UTC, as plain text shows it: `2026-03-04 12:00 UTC`.
pub fn utc(at: DateTime<Utc>) -> String {
    at.format("%Y-%m-%d %H:%M UTC").to_string()
}

/// Plain text, for logs and diagnostics: a person by `@name`, an instant in UTC, a channel by
/// `#id`. Transports present spans themselves.
impl fmt::Display for Rich {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for span in &self.spans {
            match span {
                Span::Text(text) => f.write_str(text)?,
                Span::Ping { name, .. } => write!(f, "@{name}")?,
                Span::Instant { at, .. } => f.write_str(&utc(*at))?,
                Span::Channel { id } => write!(f, "#{id}")?,
                Span::Link { url, .. } => f.write_str(url)?,
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at() -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap()
    }

    #[test]
    fn tokens_read_back_as_spans_between_words() {
        let text = format!(
            "⏰ {}: your turn has waited since {} (deadline {}) in {}.",
            ping("123", "ann"),
            relative(at()),
            full(at()),
            channel("42")
        );
        let rich = Rich::parse(&text);
        assert_eq!(
            rich.spans(),
            [
                Span::Text("⏰ ".into()),
                Span::Ping {
                    id: "123".into(),
                    name: "ann".into()
                },
                Span::Text(": your turn has waited since ".into()),
                Span::Instant {
                    at: at(),
                    style: InstantStyle::Relative
                },
                Span::Text(" (deadline ".into()),
                Span::Instant {
                    at: at(),
                    style: InstantStyle::Full
                },
                Span::Text(") in ".into()),
                Span::Channel { id: "42".into() },
                Span::Text(".".into()),
            ]
        );
        assert_eq!(
            rich.to_string(),
            "⏰ @ann: your turn has waited since 2025-03-01 12:00 UTC (deadline 2025-03-01 12:00 UTC) in #42."
        );
        assert_eq!(rich.pinged(), ["123"]);
    }

    #[test]
    fn a_name_cannot_forge_or_break_a_token() {
        let forged = format!("{OPEN}p{SEP}999{SEP}boss{CLOSE}");
        let text = ping("1", &format!("eve{forged}"));
        let rich = Rich::parse(&text);
        assert_eq!(rich.pinged(), ["1"]);
        assert_eq!(rich.to_string(), "@evep999boss");
        // A token cut short keeps the words and drops its marks.
        let broken = format!("before {OPEN}p{SEP}1 after");
        assert_eq!(Rich::parse(&broken).to_string(), "before p1 after");
        assert_eq!(Rich::parse(&format!("x{OPEN}zz{CLOSE}y")).to_string(), "xy");
    }

    #[test]
    fn texts_join_on_new_lines() {
        let joined = Rich::text("a")
            .then(Rich::parse(&ping("1", "bob")))
            .then(Rich::default());
        assert_eq!(joined.to_string(), "a\n@bob");
        assert!(Rich::text("  \n").is_blank());
        assert!(!Rich::parse(&ping("1", "bob")).is_blank());
    }
}
