//! The web presenter of the table's typed texts: a [`Rich`] text as HTML.

use gaugebot_table::answer::utc;
use gaugebot_table::{Rich, Span};

/// Escapes text for HTML (element content and quoted attributes).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// Pairs of `mark` in `text` as the element `tag` (an unpaired one is closed at the end).
fn pairs(text: &str, mark: &str, tag: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut open = false;
    let mut parts = text.split(mark).peekable();
    while let Some(part) = parts.next() {
        out.push_str(part);
        if parts.peek().is_some() {
            out.push_str(&if open {
                format!("</{tag}>")
            } else {
                format!("<{tag}>")
            });
            open = !open;
        }
    }
    if open {
        out.push_str(&format!("</{tag}>"));
    }
    out
}

/// The forum's markdown of a text, escaped, with `**bold**` as `<strong>` and `~~struck~~`
/// as `<del>`.
fn markdown(words: &str) -> String {
    let lines: Vec<String> = escape(words)
        .lines()
        .map(|line| pairs(&pairs(line, "**", "strong"), "~~", "del"))
        .collect();
    lines.join("\n")
}

/// A text as HTML: a person called on as `@name` (nobody is pinged on a page), an instant in
/// UTC, a channel as `#id`, bold as bold; lines are kept by the page's style.
pub fn html(text: &Rich) -> String {
    // Bold may span several spans (`**@ann bids**`): mark the spans' text first, then render.
    let mut plain = String::new();
    for span in text.spans() {
        match span {
            Span::Text(words) => plain.push_str(words),
            Span::Ping { name, .. } => plain.push_str(&format!("@{name}")),
            Span::Instant { at, .. } => plain.push_str(&utc(*at)),
            Span::Channel { id } => plain.push_str(&format!("#{id}")),
            Span::Link { url, .. } => plain.push_str(url),
        }
    }
    markdown(&plain)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn markup_is_escaped_and_bold_is_bold() {
        let text = Rich::text("**ann** bids <script>&");
        assert_eq!(html(&text), "<strong>ann</strong> bids &lt;script&gt;&amp;");
        let row = Rich::text("~~A 5/$3~~ — bob\n**E** 35/$9");
        assert_eq!(
            html(&row),
            "<del>A 5/$3</del> — bob\n<strong>E</strong> 35/$9"
        );
    }
}
