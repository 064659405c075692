//! Configuration from YAML (see `config.example.yaml`); the Discord token comes from the
//! environment only.

use std::path::{Path, PathBuf};

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
    /// The shards this process runs (`{start, end, total}`, `end` included); none: all of one.
    pub shards: Option<crate::discord::shards::ShardRange>,
}

impl Default for DiscordConfig {
    fn default() -> Self {
        DiscordConfig {
            token_env: "DISCORD_TOKEN".to_string(),
            api_base: None,
            moderator_roles: vec!["Moderator".to_string(), "Game Master".to_string()],
            shards: None,
        }
    }
}

/// Map settings.
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct MapConfig {
    /// Attach the map to the report after a build or special interest.
    pub after_build: bool,
}

impl Default for MapConfig {
    fn default() -> Self {
        MapConfig { after_build: true }
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
    /// Command prefix.
    pub prefix: String,
    /// Template override directory.
    pub templates_dir: Option<PathBuf>,
    /// Map settings.
    pub map: MapConfig,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            discord: DiscordConfig::default(),
            database: PathBuf::from("gaugebot.db"),
            prefix: "!".to_string(),
            templates_dir: None,
            map: MapConfig::default(),
        }
    }
}

/// The configuration could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ConfigError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    Read {
        /// The file.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The YAML is invalid.
    #[error("invalid configuration {path}: {source}")]
    Parse {
        /// The file.
        path: PathBuf,
        /// Why.
        source: serde_yaml_ng::Error,
    },
}

impl Config {
    /// Reads a configuration file.
    pub fn from_file(path: &Path) -> Result<Config, ConfigError> {
        let text = std::fs::read_to_string(path).map_err(|source| ConfigError::Read {
            path: path.to_path_buf(),
            source,
        })?;
        Config::from_yaml(&text).map_err(|source| ConfigError::Parse {
            path: path.to_path_buf(),
            source,
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

    /// The Discord token from the environment, if set and not empty.
    pub fn token(&self) -> Option<String> {
        std::env::var(&self.discord.token_env)
            .ok()
            .map(|t| t.trim().to_string())
            .filter(|t| !t.is_empty())
    }
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
    }

    #[test]
    fn unknown_keys_are_errors_not_silence() {
        assert!(Config::from_yaml("databse: x.db").is_err());
        assert!(Config::from_yaml("discord: {token: abc}").is_err());
    }
}
