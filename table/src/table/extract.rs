//! Finding the commands in a chat message: bold segments outside code, quotes and struck-out
//! text (`~~**bid 7**~~`: withdrawn, by forum convention), or a `!`-command (ruling 26: a
//! message starting with `!` is read as a `!`-command only).

/// The most bold commands read from one message.
pub const MAX_COMMANDS_PER_MESSAGE: usize = 10;
/// The longest message read, in characters (Discord's own limit with Nitro).
pub const MAX_MESSAGE_CHARS: usize = 4000;

/// What a message asks of the bot.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Commands {
    /// Plain chat: nothing to do.
    None,
    /// A `!`-command: the name (lower case, without `!`) and the rest of the text.
    Bang {
        /// Name without the prefix, lower case.
        name: String,
        /// The arguments as written.
        args: String,
    },
    /// Bold segments, in order.
    Bold(Vec<String>),
    /// A message the bot will not read, with the reason.
    Refused(String),
}

/// Characters that render as nothing and are dropped from commands.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}'
    )
}

/// Reads the commands of a message.
pub fn extract(text: &str, prefix: &str) -> Commands {
    if text.chars().count() > MAX_MESSAGE_CHARS {
        return Commands::Refused(format!(
            "that message is over {MAX_MESSAGE_CHARS} characters; nothing in it was read"
        ));
    }
    let trimmed: String = text
        .trim_start()
        .chars()
        .filter(|c| !is_invisible(*c))
        .collect();
    if let Some(rest) = trimmed.strip_prefix(prefix) {
        let rest = rest.trim();
        let (name, args) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
        if name.is_empty() || !name.chars().all(|c| c.is_ascii_alphanumeric()) {
            return Commands::None;
        }
        return Commands::Bang {
            name: name.to_ascii_lowercase(),
            args: args.trim().to_string(),
        };
    }
    let segments = bold_segments(&strip_code_and_quotes(text));
    match segments.len() {
        0 => Commands::None,
        n if n > MAX_COMMANDS_PER_MESSAGE => Commands::Refused(format!(
            "that message has {n} bold commands; at most {MAX_COMMANDS_PER_MESSAGE} are read from one message, so none was"
        )),
        _ => Commands::Bold(segments),
    }
}

/// Removes fenced and inline code, and quoted lines (`> …`, and everything after `>>> `).
fn strip_code_and_quotes(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    // Fenced code blocks.
    while let Some(start) = rest.find("```") {
        out.push_str(&rest[..start]);
        match rest[start + 3..].find("```") {
            Some(end) => rest = &rest[start + 3 + end + 3..],
            None => {
                rest = "";
                break;
            }
        }
    }
    out.push_str(rest);
    // Inline code.
    let mut no_inline = String::with_capacity(out.len());
    let mut in_code = false;
    for c in out.chars() {
        if c == '`' {
            in_code = !in_code;
        } else if !in_code {
            no_inline.push(c);
        }
    }
    let no_inline = strip_struck(&no_inline);
    // Quotes.
    let mut kept = String::with_capacity(no_inline.len());
    for line in no_inline.lines() {
        let start = line.trim_start();
        if start.starts_with(">>> ") || start == ">>>" {
            break;
        }
        if start.starts_with("> ") || start == ">" {
            continue;
        }
        kept.push_str(line);
        kept.push('\n');
    }
    kept
}

/// Removes struck-out text (between a pair of `~~`): a move struck out is withdrawn. A `~~`
/// without its pair is kept as written.
fn strip_struck(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(start) = rest.find("~~") {
        match rest[start + 2..].find("~~") {
            Some(end) => {
                out.push_str(&rest[..start]);
                rest = &rest[start + 2 + end + 2..];
            }
            None => break,
        }
    }
    out.push_str(rest);
    out
}

/// The text between pairs of `**` markers, trimmed of stray markup.
fn bold_segments(text: &str) -> Vec<String> {
    let chars: Vec<char> = text.chars().collect();
    // Runs of two or more asterisks are markers.
    let mut markers = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if chars[i] == '*' {
            let start = i;
            while i < chars.len() && chars[i] == '*' {
                i += 1;
            }
            if i - start >= 2 {
                markers.push((start, i));
            }
        } else {
            i += 1;
        }
    }
    let mut segments = Vec::new();
    for pair in markers.chunks(2) {
        let [(_, open_end), (close_start, _)] = pair else {
            break;
        };
        let inner: String = chars[*open_end..*close_start]
            .iter()
            .filter(|c| !is_invisible(**c))
            .collect();
        let inner = inner
            .trim_matches(|c: char| c.is_whitespace() || c == '*' || c == '_')
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        if !inner.is_empty() {
            segments.push(inner);
        }
    }
    segments
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bold(text: &str) -> Vec<String> {
        match extract(text, "!") {
            Commands::Bold(segments) => segments,
            Commands::None => Vec::new(),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn bold_segments_are_commands_and_the_rest_is_chat() {
        assert_eq!(bold("I'll go **bid 7** then"), ["bid 7"]);
        assert_eq!(
            bold("**auction GSW** and **pass**"),
            ["auction GSW", "pass"]
        );
        assert_eq!(bold("no commands here"), Vec::<String>::new());
        assert_eq!(bold("***bid 7***"), ["bid 7"]);
        assert_eq!(bold("** bid 7 **"), ["bid 7"]);
        assert_eq!(bold("**bid\u{200B} 7**"), ["bid 7"]);
        assert_eq!(bold("an unclosed **bid 7"), Vec::<String>::new());
    }

    #[test]
    fn struck_out_moves_are_withdrawn() {
        assert_eq!(extract("~~**bid 7**~~", "!"), Commands::None);
        assert_eq!(
            extract("~~**bid 7**~~ sorry, **bid 8**", "!"),
            Commands::Bold(vec!["bid 8".into()])
        );
        // A lone ~~ strikes nothing.
        assert_eq!(
            extract("~~ **pass**", "!"),
            Commands::Bold(vec!["pass".into()])
        );
    }

    #[test]
    fn bold_in_code_and_quotes_is_ignored() {
        assert_eq!(bold("`**bid 7**`"), Vec::<String>::new());
        assert_eq!(bold("```\n**bid 7**\n```\n**pass**"), ["pass"]);
        assert_eq!(bold("> **bid 7**\nI agree"), Vec::<String>::new());
        assert_eq!(bold("ok\n>>> **bid 7**\n**pass**"), Vec::<String>::new());
    }

    #[test]
    fn bang_commands_are_read_without_bold() {
        assert_eq!(
            extract("!setup a b **c**", "!"),
            Commands::Bang {
                name: "setup".into(),
                args: "a b **c**".into()
            }
        );
        assert_eq!(extract("!!!", "!"), Commands::None);
    }

    #[test]
    fn floods_are_refused_whole() {
        let many = "**pass** ".repeat(MAX_COMMANDS_PER_MESSAGE + 1);
        assert!(matches!(extract(&many, "!"), Commands::Refused(_)));
        let long = "a".repeat(MAX_MESSAGE_CHARS + 1);
        assert!(matches!(extract(&long, "!"), Commands::Refused(_)));
    }
}
