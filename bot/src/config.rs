//! Configuration from YAML (see `config.example.yaml`); the Discord token comes from the
//! environment only.

use std::path::{Path, PathBuf};

use gaugebot_table::game::automa::AutomaLevel;
use serde::Deserialize;

/// Discord settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct DiscordConfig {
    /// The environment variable holding the token.
    pub token_env: String,
    /// Override of the API base URL (`http://127.0.0.1:PORT` in tests).
    pub api_base: Option<String>,
    /// Role names whose members are moderators.
    pub moderator_roles: Vec<String>,
    /// Whether to ask for the privileged Message Content intent.
    pub message_content: MessageContent,
    /// Register the command registry as slash commands.
    pub slash_commands: bool,
    /// Servers to register the slash commands in; empty: global commands.
    pub command_guilds: Vec<u64>,
    /// Buttons on the turn prompt.
    pub buttons: bool,
    /// One pinned status message per game, edited after every turn.
    pub pinned_status: bool,
    /// The shards this process runs (`{start, end, total}`, `end` included); none: all of one.
    pub shards: Option<ShardRange>,
}

impl Default for DiscordConfig {
    fn default() -> Self {
        DiscordConfig {
            token_env: "DISCORD_TOKEN".to_string(),
            api_base: None,
            moderator_roles: vec!["Moderator".to_string(), "Game Master".to_string()],
            message_content: MessageContent::Auto,
            slash_commands: true,
            command_guilds: Vec::new(),
            buttons: true,
            pinned_status: true,
            shards: None,
        }
    }
}

/// The shards a process runs: `start` to `end`, both included, of `total`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ShardRange {
    /// The first shard this process runs.
    pub start: u32,
    /// The last shard this process runs (included).
    pub end: u32,
    /// How many shards the bot has in all (across every process).
    pub total: u32,
}

impl ShardRange {
    /// The one shard of a bot that is not sharded.
    pub const SINGLE: ShardRange = ShardRange {
        start: 0,
        end: 0,
        total: 1,
    };

    /// Refuses an empty or impossible range.
    pub fn check(&self) -> Result<(), String> {
        if self.total == 0 {
            return Err("discord.shards.total must be at least 1".to_string());
        }
        if self.start > self.end || self.end >= self.total {
            return Err(format!(
                "discord.shards: start {} to end {} (both included) must lie within 0..{} (total {})",
                self.start,
                self.end,
                self.total.saturating_sub(1),
                self.total
            ));
        }
        Ok(())
    }

    /// Whether this process gets the events of `guild` (`None`: direct messages, on shard 0).
    pub fn serves(&self, guild: Option<u64>) -> bool {
        let shard = guild.map_or(0, |g| shard_of(g, self.total));
        (self.start..=self.end).contains(&shard)
    }
}

/// The shard of a guild: `(guild_id >> 22) % total`, as Discord computes it.
pub fn shard_of(guild: u64, total: u32) -> u32 {
    let total = u64::from(total.max(1));
    // The remainder is below `total`, a u32.
    ((guild >> 22) % total) as u32
}

/// Whether the bot asks for the privileged Message Content intent.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MessageContent {
    /// Ask for it if the application has it (its flags, from the Developer Portal).
    #[default]
    Auto,
    /// Ask for it (Discord refuses the connection if the application lacks it).
    On,
    /// Never: only slash commands, buttons and messages that mention the bot are read.
    Off,
}

/// What is posted after each turn.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReportStyle {
    /// The narration and the whole status report.
    #[default]
    Full,
    /// The narration and who acts next (the pinned status has the rest).
    Compact,
}

impl From<ReportStyle> for gaugebot_table::Report {
    fn from(style: ReportStyle) -> Self {
        match style {
            ReportStyle::Full => gaugebot_table::Report::Full,
            ReportStyle::Compact => gaugebot_table::Report::Compact,
        }
    }
}

/// Map settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MapConfig {
    /// Attach the map to the setup's announcement and to the report after a build or special
    /// interest.
    pub after_build: bool,
}

impl Default for MapConfig {
    fn default() -> Self {
        MapConfig { after_build: true }
    }
}

/// The web pages (`web:`): off unless configured.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WebConfig {
    /// Where the pages are served (`127.0.0.1:8080`; behind a reverse proxy, docs/DEPLOY.md).
    pub listen: std::net::SocketAddr,
    /// The address players reach them at (`https://games.example.org`); links in the status
    /// reports start with it (default: `http://` and `listen`).
    #[serde(default)]
    pub public_url: Option<String>,
    /// Whether the standings page (`/standings`: every player's name and results across the
    /// games) is served; off by default.
    #[serde(default)]
    pub standings: bool,
}

impl WebConfig {
    /// The address the links start with, without a trailing `/`.
    pub fn public_url(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => format!("http://{}", self.listen),
        }
    }
}

/// The whole configuration.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Discord settings.
    pub discord: DiscordConfig,
    /// The database: a SQLite path (`sqlite:PATH` too) or a PostgreSQL URL (`postgres://…`).
    pub database: PathBuf,
    /// Command prefix (never empty: every message that starts with a command word would be a
    /// command).
    #[serde(deserialize_with = "prefix")]
    pub prefix: String,
    /// Template override directory.
    pub templates_dir: Option<PathBuf>,
    /// Map settings.
    pub map: MapConfig,
    /// What is posted after each turn.
    pub report: ReportStyle,
    /// How hard automa seats think: `standard` (the default), `cheap` or a number of
    /// simulations.
    #[serde(deserialize_with = "automa_level")]
    pub automa: AutomaLevel,
    /// The web pages of the games (none unless configured).
    pub web: Option<WebConfig>,
}

fn automa_level<'de, D: serde::Deserializer<'de>>(d: D) -> Result<AutomaLevel, D::Error> {
    #[derive(Deserialize)]
    #[serde(untagged)]
    enum Written {
        Number(u32),
        Word(String),
    }
    let text = match Written::deserialize(d)? {
        Written::Number(n) => n.to_string(),
        Written::Word(word) => word,
    };
    text.parse()
        .map_err(|e| serde::de::Error::custom(format!("automa: {e}")))
}

fn prefix<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let prefix = String::deserialize(d)?;
    if prefix.trim().is_empty() {
        return Err(serde::de::Error::custom(
            "prefix: must not be empty (every message that starts with a command word would \
             be a command); write prefix: \"!\"",
        ));
    }
    Ok(prefix)
}

impl Default for Config {
    fn default() -> Self {
        Config {
            discord: DiscordConfig::default(),
            database: PathBuf::from("gaugebot.db"),
            prefix: "!".to_string(),
            templates_dir: None,
            map: MapConfig::default(),
            report: ReportStyle::Full,
            automa: AutomaLevel::Standard,
            web: None,
        }
    }
}

/// The configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {path}: {reason}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        reason: std::io::Error,
    },
    /// The token in the environment cannot be a Discord bot token by its shape: refused before
    /// anything is created (no database, no connection). The token itself is never shown.
    #[error("the environment variable {env} does not hold a Discord bot token: a bot token is three parts of letters, digits, '-' and '_' joined by dots (copy it from the Developer Portal: Applications → your application → Bot → Reset Token){hint}")]
    TokenShape {
        /// The environment variable.
        env: String,
        /// What looks wrong, when something is recognisable (`; leave out the "Bot " prefix`).
        hint: String,
    },
    /// The YAML is invalid. (Its reason is part of this message and not a `source`, so that a
    /// report of the error chain says it once.)
    #[error("invalid configuration {path}: {reason}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// Why, at the line and column of the key it is about, with the fix when there is one
        /// ([`explain`]).
        reason: String,
    },
}

/// Keys people put in the file for the Discord token, which belongs in the environment.
const TOKEN_KEYS: [&str; 5] = ["token", "discord_token", "bot_token", "api_token", "secret"];

/// Where a key is written in a YAML text: its line and column, both from 1 (the first
/// occurrence, at any depth).
fn key_position(text: &str, key: &str) -> Option<(usize, usize)> {
    text.lines().enumerate().find_map(|(number, line)| {
        let trimmed = line.trim_start();
        let trimmed_list = trimmed.strip_prefix("- ").unwrap_or(trimmed);
        let rest = trimmed_list.strip_prefix(key)?;
        rest.trim_start().starts_with(':').then(|| {
            let column = line.len() - trimmed_list.len() + 1;
            (number + 1, column)
        })
    })
}

/// The key an error is about: an unknown field (`unknown field `token``) or a key our own
/// checks name first (`automa: …`, `prefix: …`).
fn key_of(message: &str) -> Option<String> {
    if let Some(after) = message.split("unknown field `").nth(1) {
        return after.split('`').next().map(str::to_string);
    }
    let (key, _) = message.split_once(": ")?;
    let key = key.rsplit(": ").next().unwrap_or(key);
    (!key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_lowercase() || c == '_' || c == '.'))
    .then(|| key.rsplit('.').next().unwrap_or(key).to_string())
}

/// A YAML error as the host reads it: at the line and column of the key it is about (serde's
/// position is where the enclosing mapping starts for a value our checks refuse), with the fix
/// for the mistakes people make: the token in the file, an empty prefix.
pub fn explain(text: &str, error: &serde_yaml_ng::Error) -> String {
    let message = error.to_string();
    // serde_yaml_ng ends its message with " at line L column C"; the key's own line is better.
    let bare = match message.rfind(" at line ") {
        Some(at) => message[..at].to_string(),
        None => message.clone(),
    };
    let key = key_of(&bare);
    let located = match key.as_deref().and_then(|k| key_position(text, k)) {
        Some((line, column)) => format!("{bare} at line {line} column {column}"),
        None => message.clone(),
    };
    match key.as_deref() {
        Some(k) if TOKEN_KEYS.contains(&k) => format!(
            "{located}: the token goes in the environment variable DISCORD_TOKEN (or the one \
             discord.token_env names), never in the configuration file"
        ),
        _ => located,
    }
}

impl Config {
    /// Reads a configuration file.
    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|reason| ConfigError::Read {
            path: path.to_path_buf(),
            reason,
        })?;
        Config::from_yaml(&text).map_err(|error| ConfigError::Parse {
            path: path.to_path_buf(),
            reason: explain(&text, &error),
        })
    }

    /// Parses YAML text.
    pub fn from_yaml(text: &str) -> Result<Config, serde_yaml_ng::Error> {
        if text.trim().is_empty() {
            return Ok(Config::default());
        }
        serde_yaml_ng::from_str(text)
    }

    /// Reads `path` if given, else `config.yaml` if it exists, else the defaults.
    pub fn load(path: Option<&Path>) -> Result<Config, ConfigError> {
        match path {
            Some(p) => Config::from_file(p),
            None if Path::new("config.yaml").exists() => {
                Config::from_file(Path::new("config.yaml"))
            }
            None => Ok(Config::default()),
        }
    }

    /// The Discord token from the environment, if set and not empty, refused when it cannot be
    /// a Discord bot token by its shape ([`token_shape`]).
    pub fn checked_token(&self) -> Result<Option<String>, ConfigError> {
        let Some(token) = self.token() else {
            return Ok(None);
        };
        match token_shape(&token) {
            Ok(()) => Ok(Some(token)),
            Err(hint) => Err(ConfigError::TokenShape {
                env: self.discord.token_env.clone(),
                hint,
            }),
        }
    }

    /// The Discord token from the environment, if set and not empty.
    pub fn token(&self) -> Option<String> {
        std::env::var(&self.discord.token_env)
            .ok()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    }
}

/// Whether a text has the shape of a Discord bot token: three non-empty parts of base64url
/// characters (letters, digits, `-`, `_`) joined by dots, the first (the bot's id) at least 17
/// long. On error, a hint for the host (may be empty); the token is never part of it.
pub fn token_shape(token: &str) -> Result<(), String> {
    if let Some(rest) = token.strip_prefix("Bot ") {
        return match token_shape(rest) {
            Ok(()) => Err("; leave out the \"Bot \" prefix".to_string()),
            Err(hint) => Err(hint),
        };
    }
    let parts: Vec<&str> = token.split('.').collect();
    let base64url = |part: &str| {
        !part.is_empty()
            && part
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
    };
    if parts.len() != 3 {
        return Err(format!("; it has {} part(s)", parts.len()));
    }
    if !parts.iter().all(|p| base64url(p)) {
        return Err("; it holds other characters (spaces, quotes?)".to_string());
    }
    if parts[0].len() < 17 {
        return Err("; its first part is too short for a bot's id".to_string());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_example_configuration_parses_to_the_defaults() {
        let example = include_str!("../../config.example.yaml");
        let config = Config::from_yaml(example).expect("example parses");
        let defaults = Config::default();
        assert_eq!(config.database, defaults.database);
        assert_eq!(config.prefix, defaults.prefix);
        assert_eq!(config.discord.token_env, "DISCORD_TOKEN");
        assert_eq!(
            config.discord.moderator_roles,
            defaults.discord.moderator_roles
        );
        assert!(config.map.after_build);
        assert_eq!(config.discord.message_content, MessageContent::Auto);
        assert_eq!(config.report, ReportStyle::Full);
        assert!(config.discord.slash_commands && config.discord.buttons);
        assert!(config.discord.pinned_status && config.discord.command_guilds.is_empty());
    }

    #[test]
    fn the_intent_and_the_report_are_words() {
        let config =
            Config::from_yaml("discord: {message_content: off}\nreport: compact").expect("parses");
        assert_eq!(config.discord.message_content, MessageContent::Off);
        assert_eq!(config.report, ReportStyle::Compact);
        assert!(Config::from_yaml("report: short").is_err());
    }

    #[test]
    fn a_configuration_error_is_said_once() {
        let dir = tempfile::tempdir().expect("tempdir");
        let path = dir.path().join("unk.yaml");
        std::fs::write(&path, "databse: x.db\n").expect("write");
        let error = anyhow::Error::from(Config::from_file(&path).expect_err("refused"));
        let shown = format!("{error:#}");
        assert_eq!(
            shown.matches("unknown field `databse`").count(),
            1,
            "{shown}"
        );
        assert!(shown.starts_with("invalid configuration "), "{shown}");
        let missing = anyhow::Error::from(
            Config::from_file(&dir.path().join("none.yaml")).expect_err("refused"),
        );
        let shown = format!("{missing:#}");
        assert_eq!(shown.matches("No such file").count(), 1, "{shown}");
    }

    fn refusal(yaml: &str) -> String {
        let error = Config::from_yaml(yaml).expect_err("refused");
        explain(yaml, &error)
    }

    #[test]
    fn an_error_points_at_its_key_with_the_fix() {
        let mut yaml = String::from("database: gaugebot.db\nmap:\n  after_build: true\n");
        for n in 0..40 {
            yaml.push_str(&format!("# comment {n}\n"));
        }
        yaml.push_str("report: full\nautoma: hard\n");
        let said = refusal(&yaml);
        assert!(said.contains("automa:"), "{said}");
        assert!(said.contains("at line 45 column 1"), "{said}");
        let said = refusal("database: x.db\ntoken: abc.def.ghi\n");
        assert!(said.contains("unknown field `token`"), "{said}");
        assert!(said.contains("at line 2 column 1"), "{said}");
        assert!(
            said.contains("the token goes in the environment variable DISCORD_TOKEN"),
            "{said}"
        );
        let said = refusal("discord:\n  moderator_roles: [Mod]\n  token: abc\n");
        assert!(said.contains("at line 3 column 3"), "{said}");
        assert!(said.contains("DISCORD_TOKEN"), "{said}");
    }

    #[test]
    fn a_token_must_have_the_shape_of_one() {
        assert_eq!(
            token_shape("OTAwMDAwMDAwMDAwMDAwMDAx.ZmFrZQ.ZmFrZWRpc2NvcmQtYm90LXRva2Vu"),
            Ok(())
        );
        for wrong in [
            "abc",
            "a.b",
            "OTAwMDAwMDAwMDAwMDAwMDAx.Zm Fr.ZmFr",
            "x.y.z",
            "a..b",
        ] {
            assert!(token_shape(wrong).is_err(), "{wrong}");
        }
        let hint = token_shape("Bot OTAwMDAwMDAwMDAwMDAwMDAx.ZmFrZQ.ZmFrZWRpc2NvcmQ")
            .expect_err("prefixed");
        assert!(hint.contains("Bot "), "{hint}");
        assert!(!hint.contains("OTAw"), "the token is never shown: {hint}");
    }

    #[test]
    fn an_empty_prefix_is_refused() {
        for yaml in [
            "prefix: \"\"",
            "prefix: \" \"",
            "database: x.db\nprefix: ''",
        ] {
            let said = refusal(yaml);
            assert!(said.contains("prefix: must not be empty"), "{said}");
        }
        assert_eq!(
            Config::from_yaml("prefix: \"?\"").expect("parses").prefix,
            "?"
        );
        assert!(refusal("database: x.db\nprefix: ''").contains("at line 2 column 1"));
    }

    #[test]
    fn unknown_keys_are_errors_not_silence() {
        assert!(Config::from_yaml("databse: x.db").is_err());
        assert!(Config::from_yaml("discord: {token: abc}").is_err());
    }
}
