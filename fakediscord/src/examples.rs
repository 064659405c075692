//! One example of every payload and REST answer the fake emits, rendered by the same code the
//! gateway and the routes use; the tests check each parses as serenity expects.

use serde_json::{json, Value};

use crate::identity::{BOT_USER_ID, BOT_USER_NAME};
use crate::permissions;
use crate::records::{FakeUser, RecordedAttachment, RecordedMessage};
use crate::routes::RouteKind;
use crate::state::{self, ChannelInfo, Outgoing, RoleInfo, State};
use crate::{gateway, rest};

/// One example of every gateway payload the fake emits (HELLO, READY, GUILD_CREATE,
/// MESSAGE_CREATE for guild/DM/reply/upload/bot messages, MESSAGE_UPDATE, MESSAGE_DELETE,
/// heartbeat ACK, RECONNECT, INVALID_SESSION), rendered by the same code the gateway uses.
/// A test deserializes each into serenity's `GatewayEvent`.
pub fn all_emitted_payload_examples() -> Vec<Value> {
    gateway_examples()
}

/// One example of every REST response body the fake serves, named by [`RouteKind`] (with a
/// suffix where one route has several shapes), rendered by the same code the routes use.
pub fn all_rest_response_examples() -> Vec<(String, Value)> {
    rest_examples()
}

const G: u64 = 1_000;
const C: u64 = 1_001;
const T: u64 = 1_002;
const DM: u64 = 1_003;
const ROLE: u64 = 1_004;

fn sample_state() -> (State, u64, u64, u64) {
    let mut s = State::new(
        FakeUser::new(BOT_USER_ID, BOT_USER_NAME),
        "http://127.0.0.1:1".into(),
        "ws://127.0.0.1:2".into(),
    );
    let alice = FakeUser::new(77, "alice");
    s.ensure_guild(G, Some("Irish Gauge"));
    s.guilds.get_mut(&G).unwrap().roles.insert(
        ROLE,
        RoleInfo {
            name: "Moderator".into(),
            permissions: permissions::MANAGE_MESSAGES,
            position: 1,
        },
    );
    s.ensure_member(G, &alice);
    s.guilds
        .get_mut(&G)
        .unwrap()
        .members
        .insert(alice.id, vec![ROLE]);
    for (id, kind, parent) in [(C, 0u8, None), (T, 11, Some(C))] {
        s.channels.insert(
            id,
            ChannelInfo {
                guild_id: Some(G),
                name: format!("c{id}"),
                kind,
                parent_id: parent,
                recipient: None,
            },
        );
    }
    s.channels.insert(
        DM,
        ChannelInfo {
            guild_id: None,
            name: String::new(),
            kind: 1,
            parent_id: None,
            recipient: Some(alice.id),
        },
    );
    let mk = |s: &mut State, channel: u64, guild: Option<u64>, author: &FakeUser, text: &str| {
        let id = s.next_id();
        s.messages.insert(
            id,
            RecordedMessage::new(id, channel, guild, author.clone(), text),
        );
        id
    };
    let bot = s.bot.clone();
    let user_msg = mk(
        &mut s,
        C,
        Some(G),
        &alice,
        &format!("!join <@{BOT_USER_ID}> <@&{ROLE}>"),
    );
    let dm_msg = mk(&mut s, DM, None, &alice, "hello in DM");
    let bot_msg = mk(&mut s, C, Some(G), &bot, "**Board** <@77>");
    let att_id = s.next_id();
    let ts = state::snowflake_ms(s.next_id());
    {
        let m = s.messages.get_mut(&bot_msg).unwrap();
        m.referenced_message = Some(user_msg);
        m.attachments.push(RecordedAttachment {
            id: att_id,
            filename: "board.png".into(),
            content_type: Some("image/png".into()),
            data: vec![0x89, b'P', b'N', b'G'],
            description: None,
        });
        m.embeds.push(
            json!({"title": "Turn 3", "description": "x", "color": 3447003,
            "fields": [{"name": "a", "value": "b", "inline": false}],
            "image": {"url": "attachment://board.png"}}),
        );
        m.edited_timestamp_ms = Some(ts);
        m.edit_count = 1;
        // A turn prompt's buttons, as serenity's builders send them.
        m.components.push(json!({"type": 1, "components": [
            {"type": 2, "style": 1, "label": "Bid £8", "custom_id": "gb|1001-1|3|bid 8"},
            {"type": 2, "style": 2, "label": "Pass", "custom_id": "gb|1001-1|3|pass"},
        ]}));
    }
    mk(&mut s, T, Some(G), &alice, "in a thread");
    (s, user_msg, dm_msg, bot_msg)
}

fn dispatch(s: u64, t: &str, d: Value) -> Value {
    json!({"op": 0, "s": s, "t": t, "d": d})
}

fn gateway_examples() -> Vec<Value> {
    let (mut s, user_msg, dm_msg, bot_msg) = sample_state();
    let (tx, mut rx) = tokio::sync::mpsc::unbounded_channel();
    s.sessions.insert(
        1,
        state::SessionEntry {
            tx,
            intents: state::INTENT_GUILDS
                | state::INTENT_GUILD_MESSAGES
                | state::INTENT_DIRECT_MESSAGES,
            shard: None,
        },
    );
    let mut out = vec![
        gateway::hello_json(41_250),
        gateway::HEARTBEAT_ACK.clone(),
        json!({"op": 7, "d": null}),
        gateway::INVALID_SESSION.clone(),
        dispatch(1, "READY", s.ready_json("fake-session-1")),
    ];
    // Everything the dispatch helpers emit, through the same channel a session reads.
    s.dispatch_guild_create(G);
    for id in [user_msg, dm_msg, bot_msg] {
        s.dispatch_message("MESSAGE_CREATE", id);
    }
    let thread_msg = *s.messages.keys().last().unwrap();
    s.dispatch_message("MESSAGE_CREATE", thread_msg);
    s.dispatch_message("MESSAGE_UPDATE", bot_msg);
    // A thread's life: created, archived, deleted.
    s.dispatch_thread("THREAD_CREATE", T);
    s.archived.insert(T);
    s.dispatch_thread("THREAD_UPDATE", T);
    s.dispatch_thread("THREAD_DELETE", T);
    s.dispatch_delete(user_msg);
    s.dispatch_delete(dm_msg);
    // Reply whose target was deleted: referenced_message is null.
    s.messages.get_mut(&user_msg).unwrap().deleted = true;
    s.dispatch_message("MESSAGE_CREATE", bot_msg);
    let alice = FakeUser::new(77, "alice");
    let (interactions, _) = crate::interactions::examples::all(&mut s, C, G, &alice, bot_msg);
    for d in interactions {
        s.dispatch_interaction(d);
    }
    let mut seq = 2;
    while let Ok(o) = rx.try_recv() {
        match o {
            Outgoing::Dispatch(t, d) => out.push(dispatch(seq, t, d)),
            Outgoing::Raw(v) => out.push(v),
        }
        seq += 1;
    }
    out
}

fn rest_examples() -> Vec<(String, Value)> {
    let (mut s, user_msg, _, bot_msg) = sample_state();
    let alice = FakeUser::new(77, "alice");
    let (_, native) = crate::interactions::examples::all(&mut s, C, G, &alice, bot_msg);
    let name = |k: RouteKind, suffix: &str| format!("{k:?}{suffix}");
    let history: Vec<Value> = s
        .live_messages(C)
        .into_iter()
        .rev()
        .map(|m| s.message_json(m, false))
        .collect();
    s.archived.insert(T);
    let archived = s.archived_threads_json(C);
    s.archived.remove(&T);
    vec![
        (name(RouteKind::Gateway, ""), rest::gateway_json(&s)),
        (name(RouteKind::GatewayBot, ""), rest::gateway_bot_json(&s)),
        (name(RouteKind::CurrentUser, ""), s.current_user_json()),
        (name(RouteKind::ApplicationInfo, ""), s.application_json()),
        (name(RouteKind::CreateDm, ""), s.channel_json(DM).unwrap()),
        (name(RouteKind::GetChannel, ""), s.channel_json(C).unwrap()),
        (
            name(RouteKind::GetChannel, "/thread"),
            s.channel_json(T).unwrap(),
        ),
        (
            name(RouteKind::GetChannel, "/dm"),
            s.channel_json(DM).unwrap(),
        ),
        (name(RouteKind::ArchivedThreads, ""), archived),
        (name(RouteKind::GetMessages, ""), Value::Array(history)),
        (
            name(RouteKind::GetMessage, ""),
            s.message_json(&s.messages[&user_msg], false),
        ),
        (
            name(RouteKind::CreateMessage, ""),
            s.message_json(&s.messages[&bot_msg], false),
        ),
        (
            name(RouteKind::EditMessage, ""),
            s.message_json(&s.messages[&bot_msg], false),
        ),
        (
            name(RouteKind::GetGuild, ""),
            s.guild_json(G, false).unwrap(),
        ),
        (
            name(RouteKind::GetGuildRoles, ""),
            Value::Array(s.roles_json(G).unwrap()),
        ),
        (
            name(RouteKind::GetGuildMember, ""),
            s.member_json(G, 77).unwrap(),
        ),
        (
            name(RouteKind::GetGuildChannels, ""),
            rest::guild_channels_json(&s, G),
        ),
        ("Error".into(), rest::error_json(10_003, "Unknown Channel")),
        ("RateLimited".into(), rest::rate_limit_json(0.25, false)),
    ]
    .into_iter()
    .chain(native)
    .collect()
}

#[cfg(test)]
mod tests {
    use serenity::model::application::{Command, CurrentApplicationInfo, Interaction};
    use serenity::model::channel::MessageFlags;
    use serenity::model::channel::{Channel, GuildChannel, Message, PrivateChannel};
    use serenity::model::event::{Event, GatewayEvent};
    use serenity::model::gateway::{BotGateway, Gateway};
    use serenity::model::guild::{Member, PartialGuild, Role};
    use serenity::model::user::CurrentUser;

    use super::*;

    #[test]
    fn every_gateway_payload_parses_as_a_known_serenity_event() {
        let examples = all_emitted_payload_examples();
        let mut kinds = std::collections::BTreeSet::new();
        for v in &examples {
            let ev: GatewayEvent = serde_json::from_value(v.clone())
                .unwrap_or_else(|e| panic!("serenity rejects {v}: {e}"));
            match ev {
                GatewayEvent::Dispatch(_, Event::Unknown(u)) => {
                    panic!("serenity parses {} as Unknown: {}", u.kind, v)
                }
                GatewayEvent::Dispatch(_, Event::InteractionCreate(e)) => {
                    let kind = match e.interaction {
                        Interaction::Command(c) => {
                            assert_eq!(c.data.name, "bid");
                            if c.guild_id.is_some() {
                                let member = c.member.expect("a member");
                                assert!(member.permissions.is_some());
                                if c.data.options.len() == 3 {
                                    assert_eq!(c.data.resolved.users.len(), 1);
                                    assert_eq!(c.data.resolved.members.len(), 1);
                                }
                            } else {
                                assert_eq!(c.user.id.get(), 77);
                            }
                            "command"
                        }
                        Interaction::Autocomplete(a) => {
                            let focused = a.data.autocomplete().expect("a focused option");
                            assert_eq!((focused.name, focused.value), ("amount", "1"));
                            "autocomplete"
                        }
                        Interaction::Component(c) => {
                            assert_eq!(c.data.custom_id, "gb|x|1|pass");
                            assert_eq!(c.message.components.len(), 1);
                            "component"
                        }
                        other => panic!("unexpected interaction {other:?}"),
                    };
                    kinds.insert(format!("INTERACTION_CREATE/{kind}"));
                }
                GatewayEvent::Dispatch(_, e) => {
                    kinds.insert(e.name().expect("named event"));
                }
                GatewayEvent::Hello(ms) => {
                    assert_eq!(ms, 41_250);
                    kinds.insert("HELLO".into());
                }
                GatewayEvent::HeartbeatAck => {
                    kinds.insert("HEARTBEAT_ACK".into());
                }
                GatewayEvent::Reconnect => {
                    kinds.insert("RECONNECT".into());
                }
                GatewayEvent::InvalidateSession(resumable) => {
                    assert!(!resumable);
                    kinds.insert("INVALID_SESSION".into());
                }
                other => panic!("unexpected {other:?}"),
            }
        }
        for k in [
            "HELLO",
            "HEARTBEAT_ACK",
            "RECONNECT",
            "INVALID_SESSION",
            "READY",
            "GUILD_CREATE",
            "MESSAGE_CREATE",
            "MESSAGE_UPDATE",
            "MESSAGE_DELETE",
            "INTERACTION_CREATE/command",
            "INTERACTION_CREATE/autocomplete",
            "INTERACTION_CREATE/component",
        ] {
            assert!(kinds.contains(k), "no example of {k}: {kinds:?}");
        }
    }

    #[test]
    fn message_examples_keep_their_details() {
        let examples = all_emitted_payload_examples();
        let creates: Vec<Message> = examples
            .iter()
            .filter(|v| v["t"] == "MESSAGE_CREATE")
            .map(|v| serde_json::from_value(v["d"].clone()).unwrap())
            .collect();
        let guild = &creates[0];
        assert!(guild.guild_id.is_some());
        let member = guild
            .member
            .as_ref()
            .expect("guild messages carry a member");
        assert_eq!(member.roles.len(), 1);
        assert_eq!(guild.mentions[0].id.get(), BOT_USER_ID);
        assert_eq!(guild.mention_roles.len(), 1);
        // No MESSAGE_CONTENT intent, but the bot is mentioned: content is kept.
        assert!(guild.content.starts_with("!join"));
        let dm = &creates[1];
        assert!(dm.guild_id.is_none());
        assert_eq!(dm.content, "hello in DM");
        let bot = &creates[2];
        assert!(bot.author.bot);
        assert_eq!(bot.attachments[0].filename, "board.png");
        assert_eq!(bot.embeds[0].title.as_deref(), Some("Turn 3"));
        assert!(bot.edited_timestamp.is_some());
        let reply = bot.referenced_message.as_ref().expect("reply target");
        assert_eq!(
            Some(reply.id),
            bot.message_reference.as_ref().unwrap().message_id
        );
        // A plain user message without MESSAGE_CONTENT: stripped.
        assert_eq!(creates[3].content, "");
        let last = creates.last().unwrap();
        assert!(last.referenced_message.is_none() && last.message_reference.is_some());
    }

    #[test]
    fn every_rest_response_parses_as_serenity_expects() {
        for (name, v) in all_rest_response_examples() {
            let r: Result<(), serde_json::Error> = (|| {
                let v = v.clone();
                match name.as_str() {
                    "Gateway" => drop(serde_json::from_value::<Gateway>(v)?),
                    "GatewayBot" => drop(serde_json::from_value::<BotGateway>(v)?),
                    "CurrentUser" => drop(serde_json::from_value::<CurrentUser>(v)?),
                    "ApplicationInfo" => drop(serde_json::from_value::<CurrentApplicationInfo>(v)?),
                    "CreateDm" | "GetChannel/dm" => {
                        drop(serde_json::from_value::<PrivateChannel>(v.clone())?);
                        assert!(matches!(
                            serde_json::from_value::<Channel>(v)?,
                            Channel::Private(_)
                        ));
                    }
                    "GetChannel" | "GetChannel/thread" => {
                        drop(serde_json::from_value::<GuildChannel>(v.clone())?);
                        assert!(matches!(
                            serde_json::from_value::<Channel>(v)?,
                            Channel::Guild(_)
                        ));
                    }
                    "ArchivedThreads" => {
                        let data = serde_json::from_value::<serenity::all::ThreadsData>(v)?;
                        assert_eq!(data.threads.len(), 1);
                        assert!(data.threads[0].thread_metadata.is_some_and(|m| m.archived));
                    }
                    "GetMessages" => {
                        let msgs = serde_json::from_value::<Vec<Message>>(v)?;
                        assert!(msgs.windows(2).all(|w| w[0].id > w[1].id));
                    }
                    "GetMessage" | "CreateMessage" | "EditMessage" => {
                        drop(serde_json::from_value::<Message>(v)?)
                    }
                    "GetGuild" => drop(serde_json::from_value::<PartialGuild>(v)?),
                    "GetGuildRoles" => drop(serde_json::from_value::<Vec<Role>>(v)?),
                    "GetGuildMember" => drop(serde_json::from_value::<Member>(v)?),
                    "GetGuildChannels" => drop(serde_json::from_value::<Vec<GuildChannel>>(v)?),
                    "Commands" => {
                        let commands = serde_json::from_value::<Vec<Command>>(v)?;
                        assert_eq!(commands[0].options.len(), 3);
                        assert!(commands[0].default_member_permissions.is_some());
                    }
                    "Followup" => {
                        let m = serde_json::from_value::<Message>(v)?;
                        assert!(m.flags.is_some_and(|f| f.contains(MessageFlags::EPHEMERAL)));
                    }
                    "Pins" => {
                        let pins = serde_json::from_value::<Vec<Message>>(v)?;
                        assert!(pins[0].pinned || pins.len() == 1);
                    }
                    "Error" | "RateLimited" => drop(serde_json::from_value::<
                        serenity::http::DiscordJsonError,
                    >(v)?),
                    other => panic!("no serenity type known for example {other}"),
                }
                Ok(())
            })();
            if let Err(e) = r {
                panic!("serenity rejects the {name} response {v}: {e}");
            }
        }
    }
}
