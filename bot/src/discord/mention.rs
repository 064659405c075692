//! Messages that mention the bot: "@gaugebot bid 7". Discord delivers their text without the
//! privileged Message Content intent, so they are how a bot without it reads moves written in
//! chat. The mention is stripped; the rest is read as a `!`-command if it names one ("status",
//! "!status"), as written if it has bold, and as one bold move otherwise.

use gaugebot_table::commands::spec::{Catalogue, Form};

/// The text to hand to the table for a message that starts with a mention of the bot, or
/// `None` for any other message.
pub(crate) fn rewrite(
    content: &str,
    bot_id: u64,
    prefix: &str,
    commands: &Catalogue,
) -> Option<String> {
    if bot_id == 0 {
        return None;
    }
    let trimmed = content.trim_start();
    let rest = [format!("<@{bot_id}>"), format!("<@!{bot_id}>")]
        .iter()
        .find_map(|m| trimmed.strip_prefix(m.as_str()))?;
    let rest = rest
        .trim_start_matches(|c: char| c.is_whitespace() || c == ':' || c == ',')
        .trim_end();
    if rest.is_empty() {
        return Some(format!("{prefix}help"));
    }
    if rest.starts_with(prefix) || rest.contains("**") {
        return Some(rest.to_string());
    }
    let first = rest
        .split_whitespace()
        .next()
        .unwrap_or_default()
        .to_ascii_lowercase();
    let is_command = commands
        .all()
        .iter()
        .any(|c| c.form == Form::Bang && c.is_named(&first));
    if is_command {
        Some(format!("{prefix}{rest}"))
    } else {
        Some(format!("**{rest}**"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_mention_becomes_a_move_or_a_command() {
        let registry = gaugebot_table::commands::registry::Registry::new(&[]);
        let registry = registry.catalogue();
        let r = |t: &str| rewrite(t, 42, "!", registry);
        assert_eq!(r("<@42> bid 7").as_deref(), Some("**bid 7**"));
        assert_eq!(r("<@!42>: pass").as_deref(), Some("**pass**"));
        assert_eq!(r("<@42> status").as_deref(), Some("!status"));
        assert_eq!(r("<@42> !log 5").as_deref(), Some("!log 5"));
        assert_eq!(r("<@42> I'll **bid 7**").as_deref(), Some("I'll **bid 7**"));
        assert_eq!(r("<@42>").as_deref(), Some("!help"));
        assert_eq!(r("hi <@42> bid 7"), None);
        assert_eq!(r("<@43> bid 7"), None);
        assert_eq!(rewrite("<@42> bid 7", 0, "!", registry), None);
    }
}
