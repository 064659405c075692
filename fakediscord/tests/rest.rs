//! Every REST route the fake serves, called through serenity's own `Http` client.

use std::time::Duration;

use fakediscord::{FakeDiscord, FakeUser, RateLimitForm, RouteKind, BOT_USER_ID};
use serenity::all::{
    Channel, ChannelId, CreateAttachment, CreateEmbed, CreateMessage, EditMessage, GetMessages,
    GuildId, Http, HttpBuilder, MessageId, Nonce, ReactionType, UserId,
};
use serenity::http::HttpError;

const GUILD: u64 = 600;
const CHANNEL: u64 = 601;
const MOD_ROLE: u64 = 602;
const SHORT: Duration = Duration::from_secs(5);

fn http(fake: &FakeDiscord, token: &str) -> Http {
    HttpBuilder::new(token)
        .proxy(fake.api_base())
        .ratelimiter_disabled(true)
        .build()
}

/// The HTTP status and Discord error code of a failed call.
fn status_of<T: std::fmt::Debug>(r: serenity::Result<T>) -> (u16, isize) {
    match r {
        Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(e))) => {
            (e.status_code.as_u16(), e.error.code)
        }
        other => panic!("expected an unsuccessful request, got {other:?}"),
    }
}

#[tokio::test]
async fn identity_guild_and_channel_routes() {
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(77, "alice");
    fake.add_guild(GUILD, "Irish Gauge");
    fake.add_channel(GUILD, CHANNEL, "game-1");
    fake.add_role(
        GUILD,
        MOD_ROLE,
        "Moderator",
        fakediscord::permissions::MANAGE_MESSAGES,
    );
    fake.add_member(GUILD, &alice, &[MOD_ROLE]);
    let http = http(&fake, fake.token());

    let gw = http.get_gateway().await.unwrap();
    assert_eq!(gw.url, fake.gateway_url());
    assert_eq!(http.get_bot_gateway().await.unwrap().shards, 1);
    let me = http.get_current_user().await.unwrap();
    assert_eq!(me.id.get(), BOT_USER_ID);
    assert!(me.bot);
    let app = http.get_current_application_info().await.unwrap();
    assert_eq!(app.id.get(), BOT_USER_ID);

    let guild = http.get_guild(GuildId::new(GUILD)).await.unwrap();
    assert_eq!(guild.name, "Irish Gauge");
    let roles = GuildId::new(GUILD).roles(&http).await.unwrap();
    // @everyone, the bot's own role (Pin Messages) and the moderators'.
    assert_eq!(roles.len(), 3);
    assert!(roles.contains_key(&serenity::all::RoleId::new(fakediscord::bot_role_id(GUILD))));
    assert!(roles[&serenity::all::RoleId::new(GUILD)]
        .permissions
        .send_messages());
    let member = http
        .get_member(GuildId::new(GUILD), UserId::new(77))
        .await
        .unwrap();
    assert_eq!(member.roles, vec![serenity::all::RoleId::new(MOD_ROLE)]);
    let (status, code) = status_of(http.get_member(GuildId::new(GUILD), UserId::new(5)).await);
    assert_eq!((status, code), (404, 10_007));
    let channels = http.get_channels(GuildId::new(GUILD)).await.unwrap();
    assert_eq!(channels.len(), 1);

    match ChannelId::new(CHANNEL).to_channel(&http).await.unwrap() {
        Channel::Guild(c) => {
            assert_eq!(c.guild_id.get(), GUILD);
            assert_eq!(c.name, "game-1");
        }
        other => panic!("not a guild channel: {other:?}"),
    }
    let dm = UserId::new(77).create_dm_channel(&http).await.unwrap();
    assert_eq!(dm.recipient.id.get(), 77);
    match dm.id.to_channel(&http).await.unwrap() {
        Channel::Private(p) => assert_eq!(p.recipient.name, "alice"),
        other => panic!("not a DM: {other:?}"),
    }
    let (status, code) = status_of(ChannelId::new(999).to_channel(&http).await);
    assert_eq!((status, code), (404, 10_003));

    // Wrong token: 401 everywhere.
    let bad = self::http(&fake, "not.the.token");
    assert_eq!(status_of(bad.get_current_user().await).0, 401);

    // Unknown routes are answered 404 and recorded.
    assert_eq!(
        status_of(http.get_guild_webhooks(GuildId::new(GUILD)).await).0,
        404
    );
    assert_eq!(
        fake.unhandled_requests(),
        vec![format!("GET /api/v10/guilds/{GUILD}/webhooks")]
    );
}

#[tokio::test]
async fn messages_uploads_edits_reactions_and_history() {
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(77, "alice");
    let channel = ChannelId::new(CHANNEL);
    // Posted while no bot is connected: only stored.
    let cmd = fake.post_user_message(CHANNEL, Some(GUILD), &alice, "!new game");
    assert_eq!(fake.message(cmd).unwrap().dispatched_at, None);
    let http = http(&fake, fake.token());

    // Plain post, as a reply, with a mention.
    let text = format!("Game created, {}", alice.mention());
    let sent = channel
        .send_message(
            &http,
            CreateMessage::new()
                .content(&text)
                .reference_message((channel, MessageId::new(cmd))),
        )
        .await
        .unwrap();
    assert_eq!(sent.content, text);
    assert_eq!(sent.referenced_message.as_ref().unwrap().id.get(), cmd);
    let rec = &fake.bot_messages(CHANNEL)[0];
    assert_eq!(rec.id, sent.id.get());
    assert_eq!(rec.referenced_message, Some(cmd));
    assert_eq!(rec.mentions, vec![77]);

    // Upload: multipart with files[0] + payload_json, plus an embed.
    let png = vec![0x89, b'P', b'N', b'G', 0, 1, 2, 3];
    let up = channel
        .send_message(
            &http,
            CreateMessage::new()
                .content("board")
                .embed(
                    CreateEmbed::new()
                        .title("Turn 1")
                        .image("attachment://board.png"),
                )
                .add_file(CreateAttachment::bytes(png.clone(), "board.png")),
        )
        .await
        .unwrap();
    assert_eq!(up.attachments[0].filename, "board.png");
    assert_eq!(up.attachments[0].size as usize, png.len());
    let rec = fake.message(up.id.get()).unwrap();
    assert_eq!(rec.attachments[0].data, png);
    assert_eq!(
        rec.attachments[0].content_type.as_deref(),
        Some("image/png")
    );
    assert_eq!(rec.embeds[0]["title"], "Turn 1");
    // The attachment URL serves the bytes.
    let body = reqwest_get(&up.attachments[0].url).await;
    assert_eq!(body, png);

    // Edit, keeping the attachment.
    let edited = channel
        .edit_message(
            &http,
            up.id,
            EditMessage::new()
                .content("board (edited)")
                .keep_existing_attachment(up.attachments[0].id),
        )
        .await
        .unwrap();
    assert!(edited.edited_timestamp.is_some());
    let rec = fake.message(up.id.get()).unwrap();
    assert_eq!(
        (rec.content.as_str(), rec.edit_count),
        ("board (edited)", 1)
    );
    assert_eq!(rec.attachments.len(), 1);
    // The bot may not edit a user's message.
    let (status, _) = status_of(
        channel
            .edit_message(&http, MessageId::new(cmd), EditMessage::new().content("x"))
            .await,
    );
    assert_eq!(status, 403);

    // Reactions: unicode (percent-encoded on the wire) and custom.
    channel
        .create_reaction(
            &http,
            MessageId::new(cmd),
            ReactionType::Unicode("✅".into()),
        )
        .await
        .unwrap();
    let custom = ReactionType::Custom {
        animated: false,
        id: serenity::all::EmojiId::new(1234),
        name: Some("rail".into()),
    };
    channel
        .create_reaction(&http, MessageId::new(cmd), custom.clone())
        .await
        .unwrap();
    assert_eq!(
        fake.reactions(cmd),
        vec!["✅".to_owned(), "rail:1234".to_owned()]
    );
    http.delete_reaction_me(channel, MessageId::new(cmd), &custom)
        .await
        .unwrap();
    assert_eq!(fake.reactions(cmd), vec!["✅".to_owned()]);

    channel.broadcast_typing(&http).await.unwrap();
    assert_eq!(fake.typing_count(CHANNEL), 1);

    // History: newest first; `after` gives the messages closest after the anchor.
    let later: Vec<u64> = (0..4)
        .map(|i| fake.post_user_message(CHANNEL, Some(GUILD), &alice, &format!("m{i}")))
        .collect();
    let all = channel
        .messages(&http, GetMessages::new().limit(100))
        .await
        .unwrap();
    let ids: Vec<u64> = all.iter().map(|m| m.id.get()).collect();
    let mut sorted = ids.clone();
    sorted.sort_unstable_by(|a, b| b.cmp(a));
    assert_eq!(ids, sorted);
    assert_eq!(ids.len(), 7);
    let page = channel
        .messages(
            &http,
            GetMessages::new().after(MessageId::new(cmd)).limit(2),
        )
        .await
        .unwrap();
    assert_eq!(
        page.iter().map(|m| m.id.get()).collect::<Vec<_>>(),
        vec![up.id.get(), sent.id.get()]
    );
    let page = channel
        .messages(&http, GetMessages::new().after(MessageId::new(later[1])))
        .await
        .unwrap();
    assert_eq!(
        page.iter().map(|m| m.id.get()).collect::<Vec<_>>(),
        vec![later[3], later[2]]
    );
    let page = channel
        .messages(
            &http,
            GetMessages::new().before(MessageId::new(later[1])).limit(2),
        )
        .await
        .unwrap();
    assert_eq!(
        page.iter().map(|m| m.id.get()).collect::<Vec<_>>(),
        vec![later[0], up.id.get()]
    );
    let one = channel
        .message(&http, MessageId::new(later[0]))
        .await
        .unwrap();
    assert_eq!(one.content, "m0");

    // Delete: gone from history, kept (flagged) in the record; replies to it now fail.
    channel
        .delete_message(&http, MessageId::new(cmd))
        .await
        .unwrap();
    assert!(fake.message(cmd).unwrap().deleted);
    let (status, code) = status_of(channel.message(&http, MessageId::new(cmd)).await);
    assert_eq!((status, code), (404, 10_008));
    let (status, code) = status_of(
        channel
            .send_message(
                &http,
                CreateMessage::new()
                    .content("late reply")
                    .reference_message((channel, MessageId::new(cmd))),
            )
            .await,
    );
    assert_eq!((status, code), (400, 50_035));

    // Validation: too long (serenity refuses that itself, so it is sent raw), empty.
    assert!(matches!(
        channel.say(&http, "x".repeat(2001)).await,
        Err(serenity::Error::Model(_))
    ));
    let long = serde_json::json!({ "content": "x".repeat(2001) }).to_string();
    let (status, _, body) = raw_post(&fake, CHANNEL, &long).await;
    assert_eq!((status, body["code"].as_i64()), (400, Some(50_035)));
    assert!(channel.say(&http, "é".repeat(2000)).await.is_ok());
    let (status, code) = status_of(channel.say(&http, "").await);
    assert_eq!((status, code), (400, 50_006));
    let (status, code) = status_of(ChannelId::new(12345).say(&http, "lost").await);
    assert_eq!((status, code), (404, 10_003));
    assert!(fake.unhandled_requests().is_empty());
}

#[tokio::test]
async fn injected_failures() {
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(77, "alice");
    fake.post_user_message(CHANNEL, Some(GUILD), &alice, "hi");
    let http = http(&fake, fake.token());
    let channel = ChannelId::new(CHANNEL);

    fake.fail_next(RouteKind::CreateMessage, 500, 2);
    assert_eq!(fake.pending_faults(RouteKind::CreateMessage), 2);
    assert_eq!(status_of(channel.say(&http, "a").await).0, 500);
    assert_eq!(status_of(channel.say(&http, "b").await).0, 500);
    channel.say(&http, "c").await.unwrap();
    let msgs = fake.bot_messages(CHANNEL);
    assert_eq!(msgs.len(), 1, "failed posts are not stored");
    assert_eq!(msgs[0].content, "c");

    fake.fail_next_rate_limited(
        RouteKind::CreateMessage,
        Duration::from_millis(250),
        false,
        1,
    );
    match channel.say(&http, "d").await {
        Err(serenity::Error::Http(HttpError::UnsuccessfulRequest(e))) => {
            assert_eq!(e.status_code.as_u16(), 429);
            assert!(e.error.message.contains("rate limited"));
        }
        other => panic!("expected 429, got {other:?}"),
    }
    // The raw 429 carries Discord's headers and body.
    fake.fail_next_rate_limited(
        RouteKind::CreateMessage,
        Duration::from_millis(1500),
        false,
        1,
    );
    let resp = raw_post(&fake, CHANNEL, r#"{"content":"x"}"#).await;
    assert_eq!(resp.0, 429);
    assert_eq!(resp.1.get("retry-after").unwrap(), "2");
    assert_eq!(resp.1.get("x-ratelimit-remaining").unwrap(), "0");
    assert_eq!(resp.2["retry_after"], 1.5);
    assert_eq!(resp.2["global"], false);

    fake.fail_next(RouteKind::CreateReaction, 503, 1);
    let id = MessageId::new(msgs[0].id);
    assert_eq!(
        status_of(channel.create_reaction(&http, id, '👍').await).0,
        503
    );
    channel.create_reaction(&http, id, '👍').await.unwrap();
    assert_eq!(fake.reactions(msgs[0].id), vec!["👍".to_owned()]);

    let statuses: Vec<u16> = fake
        .requests()
        .iter()
        .filter(|r| r.route == Some(RouteKind::CreateMessage))
        .map(|r| r.status)
        .collect();
    assert_eq!(statuses, vec![500, 500, 200, 429, 429]);
    fake.wait_for_bot_messages(CHANNEL, 1, SHORT).await.unwrap();
    let err = fake
        .wait_for_bot_messages(CHANNEL, 2, Duration::from_millis(100))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("got 1"), "{err}");
}

/// A 429 that says its wait in the body only or in the header only; a post with a nonce and
/// `enforce_nonce` made twice is one message; a request left hanging is applied (or not) and
/// recorded unanswered.
#[tokio::test]
async fn rate_limit_forms_nonces_and_hangs() {
    let fake = FakeDiscord::start().await;
    let alice = FakeUser::new(77, "alice");
    fake.post_user_message(CHANNEL, Some(GUILD), &alice, "hi");
    let http = http(&fake, fake.token());
    let channel = ChannelId::new(CHANNEL);

    let wait = Duration::from_millis(2500);
    fake.fail_next_rate_limited_as(
        RouteKind::CreateMessage,
        wait,
        false,
        RateLimitForm::BodyOnly,
        1,
    );
    let (status, headers, body) = raw_post(&fake, CHANNEL, r#"{"content":"x"}"#).await;
    assert_eq!(status, 429);
    assert_eq!(body["retry_after"], 2.5);
    assert!(!headers.contains_key("retry-after"));
    assert!(!headers.contains_key("x-ratelimit-reset-after"));
    fake.fail_next_rate_limited_as(
        RouteKind::CreateMessage,
        wait,
        true,
        RateLimitForm::HeaderOnly,
        1,
    );
    let (status, headers, body) = raw_post_text(&fake, CHANNEL, r#"{"content":"x"}"#).await;
    assert_eq!(status, 429);
    assert_eq!(headers.get("retry-after").map(String::as_str), Some("3"));
    assert_eq!(
        headers.get("x-ratelimit-global").map(String::as_str),
        Some("true")
    );
    assert!(serde_json::from_slice::<serde_json::Value>(&body).is_err());

    let post = |nonce: &str, enforce: bool| {
        CreateMessage::new()
            .content(format!("nonce {nonce}"))
            .nonce(Nonce::String(nonce.to_string()))
            .enforce_nonce(enforce)
    };
    let first = channel.send_message(&http, post("n1", true)).await.unwrap();
    let again = channel.send_message(&http, post("n1", true)).await.unwrap();
    assert_eq!(
        first.id, again.id,
        "the same nonce, enforced: the same message"
    );
    // An edit (the buttons removed, the text changed) does not make the nonce new.
    channel
        .edit_message(
            &http,
            first.id,
            EditMessage::new().content("edited").components(Vec::new()),
        )
        .await
        .unwrap();
    let after_edit = channel.send_message(&http, post("n1", true)).await.unwrap();
    assert_eq!(
        after_edit.id, first.id,
        "the nonce of an edited message: still that message"
    );
    let other = channel.send_message(&http, post("n2", true)).await.unwrap();
    assert_ne!(other.id, first.id);
    let loose = channel
        .send_message(&http, post("n1", false))
        .await
        .unwrap();
    assert_ne!(loose.id, first.id, "not enforced: a new message");
    assert_eq!(fake.bot_messages(CHANNEL).len(), 3);

    // Applied but never answered: the message is there; its retry with the nonce gets it.
    fake.hang_next(RouteKind::CreateMessage, true, 1);
    let hung = tokio::time::timeout(
        Duration::from_millis(300),
        channel.send_message(&http, post("n3", true)),
    )
    .await;
    assert!(hung.is_err(), "never answered");
    let retried = channel.send_message(&http, post("n3", true)).await.unwrap();
    let n3: Vec<_> = fake
        .bot_messages(CHANNEL)
        .into_iter()
        .filter(|m| m.content == "nonce n3")
        .collect();
    assert_eq!(n3.len(), 1);
    assert_eq!(n3[0].id, retried.id.get());
    // Neither applied nor answered.
    fake.hang_next(RouteKind::CreateMessage, false, 1);
    let hung = tokio::time::timeout(
        Duration::from_millis(300),
        channel.send_message(&http, post("n4", true)),
    )
    .await;
    assert!(hung.is_err(), "never answered");
    assert!(fake
        .bot_messages(CHANNEL)
        .iter()
        .all(|m| m.content != "nonce n4"));
    let unanswered: Vec<u16> = fake
        .requests()
        .iter()
        .filter(|r| !r.answered)
        .map(|r| r.status)
        .collect();
    assert_eq!(unanswered, [200, 0]);
}

/// A GET with a plain HTTP/1.1 client over TCP (the fake is on loopback).
async fn reqwest_get(url: &str) -> Vec<u8> {
    let rest = url.strip_prefix("http://").unwrap();
    let (host, path) = rest.split_at(rest.find('/').unwrap());
    let raw = http1(
        host,
        &format!("GET {path} HTTP/1.1\r\nHost: {host}\r\nConnection: close\r\n\r\n"),
    )
    .await;
    raw.2
}

/// POSTs a raw JSON message body, returning status, headers and JSON body.
async fn raw_post(
    fake: &FakeDiscord,
    channel: u64,
    body: &str,
) -> (
    u16,
    std::collections::HashMap<String, String>,
    serde_json::Value,
) {
    let (status, headers, body) = raw_post_text(fake, channel, body).await;
    (status, headers, serde_json::from_slice(&body).unwrap())
}

/// As [`raw_post`], the body as bytes.
async fn raw_post_text(
    fake: &FakeDiscord,
    channel: u64,
    body: &str,
) -> (u16, std::collections::HashMap<String, String>, Vec<u8>) {
    let host = fake.api_base().trim_start_matches("http://").to_owned();
    let req = format!(
        "POST /api/v10/channels/{channel}/messages HTTP/1.1\r\nHost: {host}\r\nAuthorization: Bot {}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        fake.token(),
        body.len()
    );
    http1(&host, &req).await
}

async fn http1(
    host: &str,
    request: &str,
) -> (u16, std::collections::HashMap<String, String>, Vec<u8>) {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut s = tokio::net::TcpStream::connect(host).await.unwrap();
    s.write_all(request.as_bytes()).await.unwrap();
    let mut buf = Vec::new();
    tokio::time::timeout(SHORT, s.read_to_end(&mut buf))
        .await
        .unwrap()
        .unwrap();
    let split = buf.windows(4).position(|w| w == b"\r\n\r\n").unwrap();
    let head = String::from_utf8_lossy(&buf[..split]).to_string();
    let mut lines = head.lines();
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers = lines
        .filter_map(|l| l.split_once(": "))
        .map(|(k, v)| (k.to_ascii_lowercase(), v.to_owned()))
        .collect::<std::collections::HashMap<_, _>>();
    let mut body = buf[split + 4..].to_vec();
    if headers.get("transfer-encoding").map(String::as_str) == Some("chunked") {
        body = dechunk(&body);
    }
    (status, headers, body)
}

fn dechunk(mut b: &[u8]) -> Vec<u8> {
    let mut out = Vec::new();
    loop {
        let eol = b.windows(2).position(|w| w == b"\r\n").unwrap();
        let n = usize::from_str_radix(std::str::from_utf8(&b[..eol]).unwrap().trim(), 16).unwrap();
        if n == 0 {
            return out;
        }
        out.extend_from_slice(&b[eol + 2..eol + 2 + n]);
        b = &b[eol + 4 + n..];
    }
}
