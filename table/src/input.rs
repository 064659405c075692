//! What comes into a table and what goes out: messages and command invocations in, replies
//! (text and files) out. Transport-neutral: the Discord adapter and the console both speak it.

use chrono::{DateTime, Utc};

/// Discord's limit on one message; replies are split to fit.
pub const MESSAGE_LIMIT: usize = 2000;

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

impl Incoming {
    /// When it was sent, if the time parses.
    pub fn time(&self) -> Option<DateTime<Utc>> {
        DateTime::parse_from_rfc3339(&self.at)
            .ok()
            .map(|t| t.with_timezone(&Utc))
    }

    /// When it was sent, as stored with what it caused: its time, or the time it is read when
    /// its time does not parse.
    pub fn stored_time(&self) -> DateTime<Utc> {
        self.time().unwrap_or_else(Utc::now)
    }
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
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
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
    /// The moves applied, in canonical notation (`bid 7`), for transports that echo them.
    pub moves: Vec<String>,
}

impl Response {
    /// An answer with nothing to say yet.
    pub fn new(verdict: Verdict) -> Self {
        Response {
            replies: Vec::new(),
            verdict,
            moves: Vec::new(),
        }
    }

    /// Adds text, split into messages under [`MESSAGE_LIMIT`].
    pub fn say(mut self, text: impl AsRef<str>) -> Self {
        for part in split_message(text.as_ref(), MESSAGE_LIMIT) {
            self.replies.push(Reply {
                text: part,
                attachment: None,
            });
        }
        self
    }

    /// Attaches a file to the last message (or a message of its own).
    pub fn attach(mut self, attachment: Option<Attachment>) -> Self {
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

/// Splits a long reply at line breaks into messages of at most `limit` characters; a single
/// line longer than that is cut between words (inside a word only when one word is longer
/// than the limit).
pub fn split_message(text: &str, limit: usize) -> Vec<String> {
    let mut parts = Vec::new();
    let mut current = String::new();
    for line in text.split('\n') {
        let mut line = line.to_string();
        while line.chars().count() > limit {
            if !current.is_empty() {
                parts.push(std::mem::take(&mut current));
            }
            let chars: Vec<char> = line.chars().collect();
            // The last space within the limit (a space at `limit` itself ends a full part).
            let cut = (1..=limit.min(chars.len() - 1))
                .rev()
                .find(|&i| chars[i].is_whitespace())
                .unwrap_or(limit)
                .max(1);
            parts.push(
                chars[..cut]
                    .iter()
                    .collect::<String>()
                    .trim_end()
                    .to_string(),
            );
            line = chars[cut..]
                .iter()
                .collect::<String>()
                .trim_start()
                .to_string();
        }
        let needed =
            current.chars().count() + line.chars().count() + usize::from(!current.is_empty());
        if needed > limit {
            parts.push(std::mem::take(&mut current));
        }
        if !current.is_empty() {
            current.push('\n');
        }
        current.push_str(&line);
    }
    if !current.trim().is_empty() {
        parts.push(current);
    }
    parts
}

/// How a channel is named in a text: `<#id>` on Discord (a numeric id), `#name` otherwise.
pub fn channel_ref(channel: &str) -> String {
    if !channel.is_empty() && channel.chars().all(|c| c.is_ascii_digit()) {
        format!("<#{channel}>")
    } else {
        format!("#{channel}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn long_replies_split_at_line_breaks_under_the_limit() {
        let text = (0..300)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let parts = split_message(&text, 100);
        assert!(parts.len() > 1);
        for part in &parts {
            assert!(part.chars().count() <= 100, "{}", part.len());
            assert!(!part.starts_with('\n'));
        }
        assert_eq!(parts.join("\n"), text);
        // A long line is cut between words, never inside one.
        let words = "word ".repeat(60) + "ends.";
        let parts = split_message(&words, 100);
        assert!(parts.len() > 1);
        for part in &parts {
            assert!(part.chars().count() <= 100);
            for word in part.split(' ') {
                assert!(word == "word" || word == "ends.", "{word:?} in {part:?}");
            }
        }
        assert_eq!(parts.join(" "), words);
        let one_long_line = "x".repeat(250);
        let parts = split_message(&one_long_line, 100);
        assert_eq!(
            parts.iter().map(|p| p.len()).collect::<Vec<_>>(),
            [100, 100, 50]
        );
    }

    #[test]
    fn attachments_ride_on_the_last_message() {
        let file = Attachment {
            filename: "a.png".into(),
            bytes: vec![1],
        };
        let response = Response::new(Verdict::Answered)
            .say("hello")
            .attach(Some(file.clone()))
            .attach(Some(file.clone()));
        assert_eq!(response.replies.len(), 2);
        assert_eq!(response.replies[0].attachment.as_ref(), Some(&file));
        assert_eq!(response.replies[1].text, "");
    }
}
