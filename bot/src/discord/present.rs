//! The Discord presenter: the table's typed answers ([`Reply`]: [`Rich`] spans and files with
//! their alt text) as Discord messages. A person called on becomes a ping (`<@id>`), and only
//! those people may be pinged by the post (the allowed mentions list them: a user id quoted in
//! a player's text never pings); an instant becomes Discord's timestamp markup (`<t:…:R>`,
//! shown in each reader's time zone and language); a channel `<#id>`; a text longer than
//! Discord's limit is split at line breaks, the file riding on the last part.

use chrono::{DateTime, Utc};

use gaugebot_table::input::{Attachment, Reply};
use gaugebot_table::{InstantStyle, Rich, Span};

/// Discord's limit on one message's text, in characters.
pub const MESSAGE_LIMIT: usize = 2000;

/// One Discord message as presented: its text, its file and the users it may ping.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Post {
    /// The text, at most [`MESSAGE_LIMIT`] characters, in Discord's markup.
    pub text: String,
    /// A file uploaded with it (its alt text becomes the attachment's description).
    pub attachment: Option<Attachment>,
    /// The users the post may ping (`None`: any user, for a post kept by an earlier version).
    pub pings: Option<Vec<u64>>,
}

impl Post {
    /// Whether the post has anything to show.
    pub fn is_shown(&self) -> bool {
        !self.text.trim().is_empty() || self.attachment.is_some()
    }
}

/// A text in Discord's markup.
pub fn text(rich: &Rich) -> String {
    let mut out = String::new();
    for span in rich.spans() {
        match span {
            Span::Text(words) => out.push_str(words),
            Span::Ping { id, name } => match user_id(id) {
                Some(id) => out.push_str(&format!("<@{id}>")),
                None => out.push_str(&format!("@{name}")),
            },
            Span::Instant { at, style } => out.push_str(&timestamp(*at, *style)),
            Span::Channel { id } => match user_id(id) {
                Some(id) => out.push_str(&format!("<#{id}>")),
                None => out.push_str(&format!("#{id}")),
            },
            // A masked link, its address in <> so that Discord shows no preview of the page.
            Span::Link { url, label } => out.push_str(&format!("[{label}](<{url}>)")),
        }
    }
    out
}

/// Discord's timestamp markup.
fn timestamp(at: DateTime<Utc>, style: InstantStyle) -> String {
    let style = match style {
        InstantStyle::Relative => 'R',
        InstantStyle::Full => 'f',
    };
    format!("<t:{}:{style}>", at.timestamp())
}

/// A Discord snowflake id, if `id` is one (a console name is not).
fn user_id(id: &str) -> Option<u64> {
    if id.is_empty() || !id.chars().all(|c| c.is_ascii_digit()) {
        return None;
    }
    id.parse().ok()
}

/// The users a text pings, by id.
fn pings(rich: &Rich) -> Vec<u64> {
    rich.pinged().into_iter().filter_map(user_id).collect()
}

/// The table's replies as Discord messages: each reply's text presented and split to fit,
/// its file on the last part; replies with nothing to show are left out.
pub fn posts(replies: &[Reply]) -> Vec<Post> {
    let mut out = Vec::new();
    for reply in replies {
        let pinged = pings(&reply.text);
        let mut parts = split_message(&text(&reply.text), MESSAGE_LIMIT);
        if parts.is_empty() && reply.attachment.is_some() {
            parts.push(String::new());
        }
        let last = parts.len().saturating_sub(1);
        for (i, part) in parts.into_iter().enumerate() {
            let post = Post {
                pings: Some(pinged.clone()),
                attachment: if i == last {
                    reply.attachment.clone()
                } else {
                    None
                },
                text: part,
            };
            if post.is_shown() {
                out.push(post);
            }
        }
    }
    out
}

/// All replies as one Discord text (for logs, the pinned status and tests).
pub fn joined(replies: &[Reply]) -> String {
    replies
        .iter()
        .map(|r| text(&r.text))
        .collect::<Vec<_>>()
        .join("\n")
}

/// Splits a long text at line breaks into messages of at most `limit` characters; a single
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

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;
    use gaugebot_table::answer;
    use gaugebot_table::input::{Response, Verdict};

    #[test]
    fn spans_become_discord_markup_and_only_the_called_are_pinged() {
        let at = Utc.with_ymd_and_hms(2025, 3, 1, 12, 0, 0).unwrap();
        let said = format!(
            "⏰ {} and {}: since {} (deadline {}) in {}; ann wrote <@999>.",
            answer::ping("123", "ann"),
            answer::ping("bob", "bob"),
            answer::relative(at),
            answer::full(at),
            answer::channel("42")
        );
        let response = Response::new(Verdict::Answered).say(said);
        let posts = posts(&response.replies);
        assert_eq!(
            posts[0].text,
            "⏰ <@123> and @bob: since <t:1740830400:R> (deadline <t:1740830400:f>) in <#42>; ann wrote <@999>."
        );
        // The quoted <@999> is text, not a ping the bot means: it may not ping.
        assert_eq!(posts[0].pings, Some(vec![123]));
    }

    #[test]
    fn a_long_reply_is_split_under_the_limit_with_its_file_on_the_last_part() {
        let text = (0..600)
            .map(|i| format!("line {i}"))
            .collect::<Vec<_>>()
            .join("\n");
        let file = Attachment {
            filename: "map.png".into(),
            bytes: vec![1],
            alt: "a map".into(),
        };
        let response = Response::new(Verdict::Answered)
            .say(&text)
            .attach(Some(file.clone()));
        let posts = posts(&response.replies);
        assert!(posts.len() > 1);
        assert!(posts
            .iter()
            .all(|p| p.text.chars().count() <= MESSAGE_LIMIT));
        assert_eq!(posts.last().and_then(|p| p.attachment.clone()), Some(file));
        assert!(posts[..posts.len() - 1]
            .iter()
            .all(|p| p.attachment.is_none()));
        assert_eq!(
            posts
                .iter()
                .map(|p| p.text.as_str())
                .collect::<Vec<_>>()
                .join("\n"),
            text
        );
    }

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
}
