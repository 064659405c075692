//! Test controls: acting as users through interactions (slash commands, autocomplete, clicks)
//! and inspecting what the bot answered, its commands and its pins.

use super::*;
use crate::server::FakeDiscord;
use crate::waiting::WaitTimeout;

/// A slash command, autocomplete request or click a test sent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FakeInteraction {
    /// Its snowflake.
    pub id: u64,
    /// Its token.
    pub token: String,
}

impl FakeDiscord {
    /// Sets the application's flags (`GET /oauth2/applications/@me`). Without
    /// [`APP_FLAG_MESSAGE_CONTENT`] or [`APP_FLAG_MESSAGE_CONTENT_LIMITED`] the gateway refuses
    /// an IDENTIFY asking for the MESSAGE_CONTENT intent (close code 4014), as Discord does.
    pub fn set_application_flags(&self, flags: u64) {
        self.shared.write(|s| s.native.app_flags = Some(flags));
    }

    /// The commands registered globally, as Discord stored them (with ids).
    pub fn global_commands(&self) -> Vec<Value> {
        self.shared.read().native.global_commands.clone()
    }

    /// The commands registered in a guild.
    pub fn guild_commands(&self, guild_id: u64) -> Vec<Value> {
        self.shared
            .read()
            .native
            .guild_commands
            .get(&guild_id)
            .cloned()
            .unwrap_or_default()
    }

    /// Waits until commands were registered (globally or in any guild) and returns how many
    /// registrations there were.
    pub async fn wait_for_commands(&self, timeout: Duration) -> Result<u32, WaitTimeout> {
        self.wait_for(timeout, |f| {
            let n = f.shared.read().native.registrations;
            if n > 0 {
                Ok(n)
            } else {
                Err("the bot to register its commands".into())
            }
        })
        .await
    }

    fn send_interaction(
        &self,
        channel_id: u64,
        user: &FakeUser,
        kind: InteractionKind,
        name: &str,
        build: impl FnOnce(&mut FakeState, u64, Option<u64>) -> Value,
    ) -> FakeInteraction {
        self.shared.write(|s| {
            s.remember_user(user);
            let guild = s.channels.get(&channel_id).and_then(|c| c.guild_id);
            if let Some(g) = guild {
                s.ensure_member(g, user);
            }
            let id = s.next_id();
            let payload = build(s, id, guild);
            let token = token_for(id);
            s.native.tokens.insert(token.clone(), id);
            s.native.interactions.insert(
                id,
                Pending {
                    record: InteractionRecord {
                        id,
                        token: token.clone(),
                        kind,
                        channel_id,
                        user: user.clone(),
                        name: name.to_owned(),
                        sent_at: Instant::now(),
                        callback: None,
                        callback_statuses: Vec::new(),
                        original: None,
                        followups: Vec::new(),
                        choices: Vec::new(),
                        clicked: None,
                    },
                    placeholder: false,
                    ephemeral: false,
                },
            );
            s.dispatch_interaction(payload);
            if let Some(p) = s.native.interactions.get_mut(&id) {
                p.record.sent_at = Instant::now();
            }
            FakeInteraction { id, token }
        })
    }

    #[allow(clippy::too_many_arguments)]
    pub(crate) fn command_payload(
        s: &mut FakeState,
        id: u64,
        guild: Option<u64>,
        channel_id: u64,
        user: &FakeUser,
        name: &str,
        options: &[(&str, &str)],
        focused: Option<&str>,
    ) -> Value {
        let definition = s
            .native
            .command(guild, name)
            .cloned()
            .unwrap_or_else(|| panic!("no command /{name} is registered"));
        let mut resolved = json!({"users": {}});
        let options: Vec<Value> = options
            .iter()
            .map(|(n, v)| option_json(s, &definition, n, v, focused == Some(*n), &mut resolved))
            .collect();
        let kind = if focused.is_some() { 4 } else { 2 };
        let mut v = interaction_base(s, id, kind, channel_id, guild, user);
        let mut data = json!({
            "id": definition["id"],
            "name": name,
            "type": 1,
            "options": options,
        });
        if resolved["users"].as_object().is_some_and(|u| !u.is_empty()) {
            if let Some(g) = guild {
                let mut members = json!({});
                for uid in resolved["users"]
                    .as_object()
                    .map(|u| u.keys().cloned().collect::<Vec<_>>())
                    .unwrap_or_default()
                {
                    let Ok(u) = uid.parse::<u64>() else { continue };
                    if let Some(mut m) = s.member_json(g, u) {
                        if let Some(obj) = m.as_object_mut() {
                            obj.remove("user");
                        }
                        m["permissions"] = json!(member_permissions(s, g, u).to_string());
                        members[uid] = m;
                    }
                }
                resolved["members"] = members;
            }
            data["resolved"] = resolved;
        }
        if let Some(g) = guild {
            if definition["guild_id"].is_string() {
                data["guild_id"] = json!(g.to_string());
            }
        }
        v["data"] = data;
        v
    }

    /// Invokes the registered slash command `/name` in a channel as `user`, with options as
    /// `(name, value)` text (a user option takes the user id; types come from the registered
    /// command). Panics if no such command is registered. Returns the interaction.
    pub fn slash_command(
        &self,
        channel_id: u64,
        user: &FakeUser,
        name: &str,
        options: &[(&str, &str)],
    ) -> FakeInteraction {
        let invoker = user.clone();
        self.send_interaction(
            channel_id,
            user,
            InteractionKind::Command,
            name,
            |s, id, guild| {
                Self::command_payload(s, id, guild, channel_id, &invoker, name, options, None)
            },
        )
    }

    /// Asks for the autocomplete of option `focused` of `/name`, with the options typed so
    /// far (the focused one's value is the text being typed).
    pub fn autocomplete(
        &self,
        channel_id: u64,
        user: &FakeUser,
        name: &str,
        options: &[(&str, &str)],
        focused: &str,
    ) -> FakeInteraction {
        let invoker = user.clone();
        self.send_interaction(
            channel_id,
            user,
            InteractionKind::Autocomplete,
            name,
            |s, id, guild| {
                Self::command_payload(
                    s,
                    id,
                    guild,
                    channel_id,
                    &invoker,
                    name,
                    options,
                    Some(focused),
                )
            },
        )
    }

    /// Clicks the button `custom_id` of message `message_id` as `user`. Panics if the message
    /// has no such button and was never edited (a client may still show buttons the bot has
    /// just removed: a click on them is allowed).
    pub fn click_button(
        &self,
        message_id: u64,
        user: &FakeUser,
        custom_id: &str,
    ) -> FakeInteraction {
        let (channel_id, found) = {
            let s = self.shared.read();
            let m = s
                .messages
                .get(&message_id)
                .unwrap_or_else(|| panic!("no message {message_id}"));
            let found = m.components.iter().any(|row| {
                json_list(&row["components"])
                    .iter()
                    .any(|c| c["custom_id"] == custom_id)
            });
            (m.channel_id, found || m.edit_count > 0)
        };
        assert!(found, "message {message_id} has no button {custom_id}");
        let interaction = self.send_interaction(
            channel_id,
            user,
            InteractionKind::Component,
            custom_id,
            |s, id, guild| {
                let mut v = interaction_base(s, id, 3, channel_id, guild, user);
                let mut message = s.message_json(&s.messages[&message_id], false);
                if let Some(g) = guild {
                    message["guild_id"] = json!(g.to_string());
                }
                v["message"] = message;
                v["data"] = json!({"custom_id": custom_id, "component_type": 2});
                v
            },
        );
        self.shared.write(|s| {
            if let Some(p) = s.native.interactions.get_mut(&interaction.id) {
                p.record.clicked = Some(message_id);
            }
        });
        interaction
    }

    /// An interaction and what the bot answered so far.
    pub fn interaction(&self, id: u64) -> Option<InteractionRecord> {
        self.shared
            .read()
            .native
            .interactions
            .get(&id)
            .map(|p| p.record.clone())
    }

    /// Waits until `check` accepts the interaction's record.
    pub async fn wait_for_interaction(
        &self,
        id: u64,
        timeout: Duration,
        what: &str,
        mut check: impl FnMut(&FakeDiscord, &InteractionRecord) -> bool,
    ) -> Result<InteractionRecord, WaitTimeout> {
        self.wait_for(timeout, |f| match f.interaction(id) {
            Some(r) if check(f, &r) => Ok(r),
            Some(r) => Err(format!("{what} (interaction {id}: {r:?})")),
            None => Err(format!("{what} (no interaction {id})")),
        })
        .await
    }

    /// Waits until the bot answered the interaction (its callback).
    pub async fn wait_for_ack(
        &self,
        id: u64,
        timeout: Duration,
    ) -> Result<InteractionRecord, WaitTimeout> {
        self.wait_for_interaction(id, timeout, "the interaction's answer", |_, r| {
            r.callback.is_some()
        })
        .await
    }

    /// The messages pinned in a channel, oldest pin first.
    pub fn pins(&self, channel_id: u64) -> Vec<u64> {
        self.shared
            .read()
            .native
            .pins
            .get(&channel_id)
            .cloned()
            .unwrap_or_default()
    }
}
