//! Which server each channel belongs to, as this process has seen it: `!tables` lists the
//! games of the caller's server. A channel is known once a message of it was read in this run
//! (a restart forgets; a channel's next message, or its catch-up, teaches it again).

use std::collections::HashMap;
use std::sync::Mutex;

use gaugebot_table::commands::Servers;

/// Channels and their servers (guild ids), learned from the messages read.
#[derive(Default)]
pub(crate) struct SeenServers {
    guilds: Mutex<HashMap<String, String>>,
}

impl SeenServers {
    /// Notes that `channel` is in the server `guild`.
    pub(crate) fn saw(&self, channel: &str, guild: u64) {
        let mut guilds = self.guilds.lock().unwrap_or_else(|e| e.into_inner());
        guilds.insert(channel.to_string(), guild.to_string());
    }
}

impl Servers for SeenServers {
    fn server_of(&self, channel: &str) -> Option<String> {
        let guilds = self.guilds.lock().unwrap_or_else(|e| e.into_inner());
        guilds.get(channel).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_channel_is_in_the_server_a_message_of_it_named() {
        let seen = SeenServers::default();
        assert_eq!(seen.server_of("10"), None);
        seen.saw("10", 7);
        seen.saw("11", 8);
        assert_eq!(seen.server_of("10").as_deref(), Some("7"));
        assert_eq!(seen.server_of("11").as_deref(), Some("8"));
    }
}
