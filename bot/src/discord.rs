//! The Discord adapter (serenity).

use crate::config::Config;

/// Connects to Discord and serves every channel as a table.
pub async fn run(_config: Config, _token: String) -> anyhow::Result<()> {
    anyhow::bail!("the Discord adapter is being built")
}
