//! Test controls: the guilds, channels, threads, forums, roles and members the fake serves.

use crate::identity::{bot_role_id, BOT_USER_NAME};
use crate::records::FakeUser;
use crate::server::FakeDiscord;
use crate::state::{self, ChannelInfo, RoleInfo};

impl FakeDiscord {
    /// Defines (or renames) a guild. It gets an @everyone role (id = guild id) with
    /// [`DEFAULT_EVERYONE_PERMISSIONS`](crate::DEFAULT_EVERYONE_PERMISSIONS), and the bot as a
    /// member. Connected sessions with the GUILDS intent get a fresh GUILD_CREATE.
    pub fn add_guild(&self, guild_id: u64, name: &str) {
        self.shared.write(|s| {
            s.ensure_guild(guild_id, Some(name));
            s.dispatch_guild_create(guild_id);
        });
    }

    /// Defines a text channel (type 0) in a guild (creating the guild if needed). Like every
    /// guild change, it re-sends GUILD_CREATE to connected sessions with the GUILDS intent.
    pub fn add_channel(&self, guild_id: u64, channel_id: u64, name: &str) {
        self.add_channel_of_kind(guild_id, channel_id, name, 0, None);
    }

    /// Defines a public thread (type 11) under `parent_id` in a guild.
    pub fn add_thread(&self, guild_id: u64, thread_id: u64, parent_id: u64, name: &str) {
        self.add_channel_of_kind(guild_id, thread_id, name, 11, Some(parent_id));
    }

    /// Defines a forum channel (type 15) in a guild: its posts are threads
    /// ([`create_forum_post`](Self::create_forum_post)).
    pub fn add_forum(&self, guild_id: u64, forum_id: u64, name: &str) {
        self.add_channel_of_kind(guild_id, forum_id, name, 15, None);
    }

    /// Opens a post in a forum as `author`: a public thread (type 11) named `title` under the
    /// forum, whose starter message (`content`) has the thread's id, as Discord makes them.
    /// Sessions get THREAD_CREATE, then MESSAGE_CREATE of the starter message.
    /// Returns the thread's id (that of its starter message too).
    pub fn create_forum_post(
        &self,
        guild_id: u64,
        forum_id: u64,
        title: &str,
        author: &FakeUser,
        content: &str,
    ) -> u64 {
        let thread_id = self.shared.write(|s| {
            s.ensure_guild(guild_id, None);
            let thread_id = s.next_id();
            s.channels.insert(
                thread_id,
                ChannelInfo {
                    guild_id: Some(guild_id),
                    name: title.to_owned(),
                    kind: 11,
                    parent_id: Some(forum_id),
                    recipient: None,
                },
            );
            s.dispatch_thread("THREAD_CREATE", thread_id);
            thread_id
        });
        self.post_user_message_inner(
            thread_id,
            Some(guild_id),
            author,
            content,
            None,
            Some(thread_id),
        );
        thread_id
    }

    /// Archives or unarchives a thread: sessions get THREAD_UPDATE; an archived thread leaves
    /// GUILD_CREATE's `threads` and is listed by `GET /channels/{parent}/threads/archived/public`.
    /// (A message posted in an archived thread unarchives it, as on Discord.)
    pub fn set_thread_archived(&self, thread_id: u64, archived: bool) {
        self.shared.write(|s| {
            let changed = if archived {
                s.archived.insert(thread_id)
            } else {
                s.archived.remove(&thread_id)
            };
            if changed {
                s.dispatch_thread("THREAD_UPDATE", thread_id);
            }
        });
    }

    /// Whether a thread is archived now.
    pub fn is_archived(&self, thread_id: u64) -> bool {
        self.shared.read().archived.contains(&thread_id)
    }

    /// Deletes a thread (and so its messages): sessions get THREAD_DELETE.
    pub fn delete_thread(&self, thread_id: u64) {
        self.shared.write(|s| {
            s.dispatch_thread("THREAD_DELETE", thread_id);
            s.channels.remove(&thread_id);
            s.archived.remove(&thread_id);
        });
    }

    fn add_channel_of_kind(
        &self,
        guild_id: u64,
        channel_id: u64,
        name: &str,
        kind: u8,
        parent_id: Option<u64>,
    ) {
        self.shared.write(|s| {
            s.ensure_guild(guild_id, None);
            s.channels.insert(
                channel_id,
                ChannelInfo {
                    guild_id: Some(guild_id),
                    name: name.to_owned(),
                    kind,
                    parent_id,
                    recipient: None,
                },
            );
            s.dispatch_guild_create(guild_id);
        });
    }

    /// Defines a DM channel (type 1) between the bot and `user`.
    pub fn add_dm_channel(&self, channel_id: u64, user: &FakeUser) {
        self.shared.write(|s| {
            s.remember_user(user);
            s.channels.insert(
                channel_id,
                ChannelInfo {
                    guild_id: None,
                    name: String::new(),
                    kind: 1,
                    parent_id: None,
                    recipient: Some(user.id),
                },
            );
        });
    }

    /// Defines (or updates) a role with a permission bit set (see
    /// [`permissions`](crate::permissions)).
    pub fn add_role(&self, guild_id: u64, role_id: u64, name: &str, permissions: u64) {
        self.shared.write(|s| {
            s.ensure_guild(guild_id, None);
            if let Some(g) = s.guilds.get_mut(&guild_id) {
                let position = g
                    .roles
                    .get(&role_id)
                    .map(|r| r.position)
                    .unwrap_or(g.roles.len() as u16);
                g.roles.insert(
                    role_id,
                    RoleInfo {
                        name: name.to_owned(),
                        permissions,
                        position,
                    },
                );
            }
            s.dispatch_guild_create(guild_id);
        });
    }

    /// Sets what the bot's own role ([`bot_role_id`]) grants in a guild (default
    /// [`DEFAULT_BOT_PERMISSIONS`](crate::DEFAULT_BOT_PERMISSIONS)); `0` leaves the bot only what
    /// @everyone may.
    pub fn set_bot_permissions(&self, guild_id: u64, permissions: u64) {
        self.add_role(guild_id, bot_role_id(guild_id), BOT_USER_NAME, permissions);
    }

    /// Sets a channel's permission overwrite for a role (`is_role`) or a member: bits it allows
    /// and denies there (a thread uses its parent's). Visible over REST (`GET /channels/{c}`).
    pub fn set_overwrite(&self, channel_id: u64, id: u64, is_role: bool, allow: u64, deny: u64) {
        self.shared.write(|s| {
            let list = s.overwrites.entry(channel_id).or_default();
            list.retain(|o| o.id != id);
            list.push(state::Overwrite {
                id,
                is_role,
                allow,
                deny,
            });
        });
    }

    /// Whether the new pin routes (`/channels/{c}/messages/pins/{m}`) answer; off, they answer
    /// 404 as a Discord without them would (default on).
    pub fn set_new_pin_routes(&self, served: bool) {
        self.shared.write(|s| s.new_pin_routes = served);
    }

    /// Makes `user` a member of the guild with exactly these roles (replacing earlier ones).
    /// Visible at once over REST (`GET /guilds/{g}/members/{u}`) and in the `member` of the
    /// user's next messages; connected sessions with the GUILDS intent get a fresh
    /// GUILD_CREATE (a simplification: Discord would send GUILD_MEMBER_UPDATE).
    pub fn add_member(&self, guild_id: u64, user: &FakeUser, roles: &[u64]) {
        self.shared.write(|s| {
            s.ensure_member(guild_id, user);
            if let Some(g) = s.guilds.get_mut(&guild_id) {
                g.members.insert(user.id, roles.to_vec());
            }
            s.dispatch_guild_create(guild_id);
        });
    }

    /// The role ids of a guild member, if a member.
    pub fn member_roles(&self, guild_id: u64, user_id: u64) -> Option<Vec<u64>> {
        self.shared
            .read()
            .guilds
            .get(&guild_id)
            .and_then(|g| g.members.get(&user_id).cloned())
    }
}
