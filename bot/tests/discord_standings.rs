//! The standings are the server's (issue 35 point 5), through the real serenity client against
//! the fake Discord: two servers with a game each; `!standings` in each lists its own players
//! only, and so does the server's standings page it links; after a restart the channels'
//! servers are read back from the database, and a game whose channel's server was never stored
//! (a database from before the servers were kept, a channel quiet since) gets it from the
//! server's GUILD_CREATE; a moderator's `!tables` after a restart lists the server's games at
//! once.

use std::net::TcpListener;
use std::time::Duration;

use fakediscord::{within, FakeDiscord, FakeUser};
use gaugebot::config::WebConfig;
use sqlx::Connection;

mod fake_table;
use fake_table::{
    ann, answer_in, bob, cat, guild, moderator, slash_answer, start, CHANNEL, GUILD,
    MODERATOR_ROLE, WAIT,
};
mod http;

/// A channel of the first server without a game.
const CHAT_CHANNEL: u64 = 502;
/// The second server, its game channel and its players.
const OTHER_GUILD: u64 = 700;
const OTHER_CHANNEL: u64 = 701;
fn dan() -> FakeUser {
    FakeUser::new(4, "dan")
}
fn eve() -> FakeUser {
    FakeUser::new(5, "eve")
}
fn fay() -> FakeUser {
    FakeUser::new(6, "fay")
}

/// A free port on 127.0.0.1 for the web pages.
fn free_address() -> std::net::SocketAddr {
    let listener = TcpListener::bind("127.0.0.1:0").expect("a port");
    listener.local_addr().expect("its address")
}

/// The status and body of `GET url` (an `http://127.0.0.1:…/…` address).
fn get(url: &str) -> (u16, String) {
    let rest = url.strip_prefix("http://").expect("an http address");
    let (addr, path) = rest.split_at(rest.find('/').expect("a path"));
    let (status, _, body) = http::get(addr, path);
    (status, String::from_utf8_lossy(&body).into_owned())
}

/// The address inside `[standings page](<…>)`.
fn standings_link(text: &str) -> String {
    let start = text.find("[standings page](<").expect("a link to the page") + 18;
    let end = start + text[start..].find(">)").expect("the link's end");
    text[start..end].to_string()
}

/// The rows of `channel_servers` in the SQLite database at `db`.
async fn stored_servers(db: &std::path::Path) -> Vec<(String, String)> {
    let mut conn = connect(db).await;
    sqlx::query_as("SELECT channel, server FROM channel_servers ORDER BY channel")
        .fetch_all(&mut conn)
        .await
        .expect("rows")
}

async fn connect(db: &std::path::Path) -> sqlx::SqliteConnection {
    sqlx::SqliteConnection::connect(&format!("sqlite://{}", db.display()))
        .await
        .expect("the database")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_server_sees_its_own_standings_across_a_restart() {
    let fake = FakeDiscord::start().await;
    guild(&fake, "Irish Gauge", &[ann(), bob(), cat()]);
    fake.add_channel(GUILD, CHAT_CHANNEL, "chat");
    fake.add_guild(OTHER_GUILD, "Other club");
    fake.add_channel(OTHER_GUILD, OTHER_CHANNEL, "game");
    fake.add_role(OTHER_GUILD, MODERATOR_ROLE + 1, "Moderator", 0);
    fake.add_member(OTHER_GUILD, &moderator(), &[MODERATOR_ROLE + 1]);
    for user in [dan(), eve(), fay()] {
        fake.add_member(OTHER_GUILD, &user, &[]);
    }
    let dir = tempfile::tempdir().expect("temp dir");
    let db = dir.path().join("gaugebot.db");
    let listen = free_address();
    let web = move |config: &mut gaugebot::config::Config| {
        config.web = Some(WebConfig {
            listen,
            public_url: None,
            standings: false,
        });
    };
    let bot = start(&fake, &db, web).await;

    let setup = "dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";
    let first = answer_in(
        &fake,
        GUILD,
        CHANNEL,
        &moderator(),
        &format!("!setup <@1> <@2> <@3> {setup}"),
    )
    .await;
    assert!(first.contains("Irish Gauge"), "{first}");
    let second = answer_in(
        &fake,
        OTHER_GUILD,
        OTHER_CHANNEL,
        &moderator(),
        &format!("!setup <@4> <@5> <@6> {setup}"),
    )
    .await;
    assert!(second.contains("Irish Gauge"), "{second}");

    let here = answer_in(&fake, GUILD, CHANNEL, &bob(), "!standings").await;
    assert!(here.contains("**Standings** of this server"), "{here}");
    assert!(here.contains("**Irish Gauge** — 1 game"), "{here}");
    for name in ["ann", "bob", "cat"] {
        assert!(
            here.contains(&format!(". {name} · rating")),
            "{name}: {here}"
        );
    }
    for name in ["dan", "eve", "fay"] {
        assert!(!here.contains(name), "another server's {name}: {here}");
    }
    // `/standings` in another channel of the server, without a game: the server's standings,
    // privately.
    let private = slash_answer(&fake, CHAT_CHANNEL, &cat(), "standings", &[])
        .await
        .content;
    assert!(private.contains(". bob · rating"), "{private}");
    assert!(!private.contains("eve"), "{private}");
    let there = answer_in(&fake, OTHER_GUILD, OTHER_CHANNEL, &eve(), "!standings").await;
    assert!(there.contains("**Irish Gauge** — 1 game"), "{there}");
    assert!(there.contains(". dan · rating"), "{there}");
    assert!(!there.contains("ann"), "{there}");

    // Each server's page lists its own players; the two addresses differ.
    let page_here = standings_link(&here);
    let page_there = standings_link(&there);
    assert_ne!(page_here, page_there);
    let (status, body) = get(&page_here);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("<th scope=\"row\">ann</th>"), "{body}");
    assert!(!body.contains("dan"), "{body}");
    let (status, body) = get(&page_there);
    assert_eq!(status, 200, "{body}");
    assert!(body.contains("<th scope=\"row\">fay</th>"), "{body}");
    assert!(!body.contains("bob"), "{body}");
    let unknown = format!("http://{listen}/s/{}", "0".repeat(32));
    assert_eq!(get(&unknown).0, 404);
    assert_eq!(
        get(&format!("http://{listen}/standings")).0,
        404,
        "off by default"
    );
    within(WAIT, "the bot stops", bot.shutdown()).await;

    // A database from before the servers were kept: the other channel's server is forgotten,
    // and nothing is posted there again. The restarted bot learns it from the server's
    // GUILD_CREATE and stores it.
    let stored = stored_servers(&db).await;
    assert_eq!(
        stored,
        [
            (CHANNEL.to_string(), GUILD.to_string()),
            (CHAT_CHANNEL.to_string(), GUILD.to_string()),
            (OTHER_CHANNEL.to_string(), OTHER_GUILD.to_string())
        ]
    );
    sqlx::query("DELETE FROM channel_servers WHERE channel = ?1")
        .bind(OTHER_CHANNEL.to_string())
        .execute(&mut connect(&db).await)
        .await
        .expect("forgotten");
    let bot = start(&fake, &db, web).await;
    let again = tokio::time::Instant::now();
    while stored_servers(&db).await != stored {
        assert!(again.elapsed() < WAIT, "the server is stored again");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    // A moderator's `!tables` in the chat channel lists the server's game at once: the
    // channels' servers are read back, not learned again message by message.
    let tables = answer_in(&fake, GUILD, CHAT_CHANNEL, &moderator(), "!tables").await;
    assert!(tables.contains(&format!("<#{CHANNEL}>")), "{tables}");
    assert!(!tables.contains(&format!("<#{OTHER_CHANNEL}>")), "{tables}");
    let here = answer_in(&fake, GUILD, CHANNEL, &cat(), "!standings").await;
    assert!(here.contains(". ann · rating"), "{here}");
    assert!(!here.contains("dan"), "{here}");
    assert_eq!(
        standings_link(&here),
        page_here,
        "the page keeps its address"
    );
    let (_, body) = get(&page_there);
    assert!(body.contains("<th scope=\"row\">dan</th>"), "{body}");
    within(WAIT, "the bot stops", bot.shutdown()).await;
}
