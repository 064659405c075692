//! The bot's one REST client, seen from outside: a recording proxy between the bot and the
//! fake Discord (the bot's `discord.api_base`) notes every request and its user agent. A whole
//! move's round trip (the reply, the ✅, the status edited), a slash command's (its deferral
//! and its follow-up), an autocomplete's answer and the pins go through the one client
//! (`discord/rest.rs`, whose user agent ends `gaugebot-rest/…`); serenity's own `Http` sends
//! only what serenity's gateway client asks (`GET /gateway`, the gateway's address). A reply
//! that gets a 429 is sent again after exactly the time Discord said.

mod fake_table;

use std::sync::{Arc, Mutex};
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::header::{CONTENT_LENGTH, HOST, TRANSFER_ENCODING, USER_AGENT};
use axum::response::Response;
use fakediscord::{within, FakeDiscord, RateLimitForm, RequestRecord, RouteKind};
use gaugebot::discord::BotHandle;

use fake_table::{accepted, ann, bob, cat, guild, moderator, CHANNEL, WAIT};

const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";
/// What the bot's one client says it is, after Discord's `DiscordBot (…)`.
const MARKER: &str = "gaugebot-rest/";

/// One request as the proxy saw it.
#[derive(Clone, Debug)]
struct Seen {
    method: String,
    path: String,
    user_agent: String,
}

impl Seen {
    fn by_the_one_client(&self) -> bool {
        self.user_agent.contains(MARKER)
    }
}

/// Where the proxy sends on, and what it saw.
struct Upstream {
    base: String,
    client: reqwest::Client,
    seen: Mutex<Vec<Seen>>,
}

/// A proxy on 127.0.0.1 that records every request and hands it on to `base` unchanged.
async fn proxy(base: String) -> (String, Arc<Upstream>) {
    let upstream = Arc::new(Upstream {
        base,
        client: reqwest::Client::new(),
        seen: Mutex::new(Vec::new()),
    });
    let app = axum::Router::new()
        .fallback(forward)
        .with_state(upstream.clone());
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("a port for the proxy");
    let address = listener.local_addr().expect("the proxy's address");
    tokio::spawn(async move { axum::serve(listener, app).await });
    (format!("http://{address}"), upstream)
}

async fn forward(State(upstream): State<Arc<Upstream>>, request: Request) -> Response {
    let (parts, body) = request.into_parts();
    let body = axum::body::to_bytes(body, usize::MAX)
        .await
        .unwrap_or_default();
    let user_agent = parts
        .headers
        .get(USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let path_and_query = parts.uri.path_and_query().map_or("/", |p| p.as_str());
    upstream.seen.lock().expect("the log").push(Seen {
        method: parts.method.to_string(),
        path: parts.uri.path().to_string(),
        user_agent,
    });
    let mut headers = parts.headers.clone();
    headers.remove(HOST);
    headers.remove(CONTENT_LENGTH);
    let sent = upstream
        .client
        .request(parts.method, format!("{}{path_and_query}", upstream.base))
        .headers(headers)
        .body(body)
        .send()
        .await;
    let mut response = Response::builder();
    let Ok(answer) = sent else {
        return response
            .status(502)
            .body(Body::empty())
            .expect("a response");
    };
    response = response.status(answer.status().as_u16());
    for (name, value) in answer.headers() {
        if name != TRANSFER_ENCODING && name != CONTENT_LENGTH {
            response = response.header(name, value);
        }
    }
    let bytes = answer.bytes().await.unwrap_or_default();
    response.body(Body::from(bytes)).expect("a response")
}

impl Upstream {
    fn seen(&self) -> Vec<Seen> {
        self.seen.lock().expect("the log").clone()
    }

    /// Waits until no request came for half a second: what a move leads to is done.
    async fn quiet(&self) {
        let mut count = self.seen().len();
        loop {
            tokio::time::sleep(Duration::from_millis(500)).await;
            let now = self.seen().len();
            if now == count {
                return;
            }
            count = now;
        }
    }
}

/// The requests of `seen` on `method` to paths that `path` accepts.
fn count(seen: &[Seen], method: &str, path: impl Fn(&str) -> bool) -> usize {
    seen.iter()
        .filter(|s| s.method == method && path(&s.path))
        .count()
}

/// The fake's records of the posts in the game channel after the first `skip`.
fn posts(fake: &FakeDiscord, skip: usize) -> Vec<RequestRecord> {
    fake.requests()
        .into_iter()
        .filter(|r| r.route == Some(RouteKind::CreateMessage))
        .skip(skip)
        .collect()
}

async fn start(fake: &FakeDiscord, proxy: &str, dir: &std::path::Path) -> BotHandle {
    let proxy = proxy.to_string();
    let bot = fake_table::start(fake, &dir.join("gaugebot.db"), move |config| {
        config.discord.api_base = Some(proxy);
    })
    .await;
    fake.wait_for_commands(WAIT)
        .await
        .expect("the slash commands are registered");
    bot
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_request_goes_through_the_one_client_and_a_429_waits_exactly() {
    let fake = FakeDiscord::start().await;
    guild(&fake, "Irish Gauge", &[ann(), bob(), cat()]);
    let dir = tempfile::tempdir().expect("temp dir");
    let (base, upstream) = proxy(fake.api_base()).await;
    let bot = start(&fake, &base, dir.path()).await;
    accepted(&fake, &moderator(), SETUP).await;
    fake.wait_for(WAIT, |f| {
        (!f.pins(CHANNEL).is_empty())
            .then_some(())
            .ok_or_else(|| "the status pinned".to_string())
    })
    .await
    .expect("the status is pinned");
    upstream.quiet().await;
    let set_up = upstream.seen();
    let messages = |p: &str| p.ends_with(&format!("/channels/{CHANNEL}/messages"));
    // The setup read the channel, the guild and the bot's roles, and pinned (new route).
    assert_eq!(count(&set_up, "PUT", |p| p.contains("/messages/pins/")), 1);
    assert!(count(&set_up, "GET", |p| p.contains("/members/")) >= 1);
    assert!(count(&set_up, "PUT", |p| p.ends_with("/commands")) >= 1);

    // A move's round trip: its reply, its ✅, the status edited.
    let bid = accepted(&fake, &ann(), "**bid 7**").await;
    upstream.quiet().await;
    let round_trip = upstream.seen()[set_up.len()..].to_vec();
    assert!(count(&round_trip, "POST", messages) >= 1, "{round_trip:#?}");
    assert_eq!(
        count(&round_trip, "PUT", |p| p
            .contains(&format!("/{bid}/reactions/"))),
        1
    );
    assert!(count(&round_trip, "PATCH", |p| p.contains("/messages/")) >= 1);
    let outside: Vec<&Seen> = round_trip
        .iter()
        .filter(|s| !s.by_the_one_client())
        .collect();
    assert!(
        outside.is_empty(),
        "requests outside the one client: {outside:#?}"
    );

    // A slash command's: its deferral and its follow-up.
    let before = upstream.seen().len();
    let slash = fake.slash_command(CHANNEL, &bob(), "bid", &[("amount", "8")]);
    // The follow-up fills the deferred answer (waiting for the deferral alone left the
    // follow-up, after the table's durable write, to a loaded machine's timing).
    fake.wait_for_interaction(slash.id, WAIT, "the follow-up", |f, r| {
        r.original
            .and_then(|m| f.message(m))
            .is_some_and(|m| m.edit_count > 0)
    })
    .await
    .expect("the slash command is answered");
    upstream.quiet().await;
    let slashed = upstream.seen()[before..].to_vec();
    assert_eq!(count(&slashed, "POST", |p| p.ends_with("/callback")), 1);
    assert!(count(&slashed, "POST", |p| p.starts_with("/api/v10/webhooks/")) >= 1);
    let outside: Vec<&Seen> = slashed.iter().filter(|s| !s.by_the_one_client()).collect();
    assert!(
        outside.is_empty(),
        "requests outside the one client: {outside:#?}"
    );

    // A reply that gets a 429 saying 1.2 s (in the body alone: no header rounds it) is sent
    // again once, 1.2 s after the 429 and not much later.
    let said = Duration::from_millis(1200);
    let skip = posts(&fake, 0).len();
    fake.fail_next_rate_limited_as(
        RouteKind::CreateMessage,
        said,
        false,
        RateLimitForm::BodyOnly,
        1,
    );
    accepted(&fake, &cat(), "**bid 9**").await;
    let retried = posts(&fake, skip);
    let statuses: Vec<u16> = retried.iter().map(|p| p.status).collect();
    assert_eq!(statuses[..2], [429, 200], "{statuses:?}");
    let waited = retried[1].at.duration_since(retried[0].at);
    assert!(
        waited >= said && waited < said + Duration::from_millis(500),
        "retried {waited:?} after a 429 that said {said:?}"
    );

    // An autocomplete's answer too (before poise, which would answer through serenity's
    // `Http`, sees it).
    let before = upstream.seen().len();
    let ask = fake.autocomplete(CHANNEL, &ann(), "bid", &[("amount", "")], "amount");
    let record = fake.wait_for_ack(ask.id, WAIT).await.expect("answered");
    assert_eq!(record.callback.as_ref().map(|c| c.kind), Some(8));
    assert!(!record.choices.is_empty(), "the legal bids: {record:?}");
    upstream.quiet().await;
    let asked = upstream.seen()[before..].to_vec();
    assert_eq!(count(&asked, "POST", |p| p.ends_with("/callback")), 1);
    assert!(asked.iter().all(Seen::by_the_one_client), "{asked:#?}");

    // Over the whole run, serenity's own `Http` asked only for the gateway's address (its
    // gateway client); everything else went through the one client.
    let outside: Vec<String> = upstream
        .seen()
        .iter()
        .filter(|s| !s.by_the_one_client())
        .map(|s| format!("{} {}", s.method, s.path))
        .collect();
    assert_eq!(outside, ["GET /api/v10/gateway"]);
    within(Duration::from_secs(20), "the bot stops", bot.shutdown()).await;
}
