//! The hop counter: the path of a `**bid 7**` (a message) and of a `/bid 7` (a slash command)
//! through the running bot, hop by hop, compared with docs/ARCHITECTURE.md.
//!
//! A hop is a function marked `#[tracing::instrument(target = "hop", level = "trace",
//! skip_all)]`: a span that costs a cached "not interested" check unless the target `hop` is
//! traced. A marker may name a milestone of the path with `fields(milestone = "stored")` (the
//! entry is stored) or `fields(milestone = "reply")` (the reply is posted in the channel). This
//! test records every hop span, in the order they are created, while the real bot plays one bid
//! of each kind against the fake Discord, and cuts each path at its milestones.
//!
//! Each path is rendered as the table between `<!-- hops:NAME -->` and `<!-- /hops:NAME -->` in
//! docs/ARCHITECTURE.md (hops, files, files re-entered: a file that appears again after another
//! file). When the recording and the document disagree the test fails with the difference;
//! `HOPS_UPDATE=1 cargo test -p gaugebot --test hops` rewrites the tables from the recording.

mod fake_table;

use std::sync::Mutex;
use std::time::Duration;

use fakediscord::{within, FakeDiscord, FakeUser};
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id};
use tracing::Subscriber;
use tracing_subscriber::filter::{LevelFilter, Targets};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::util::SubscriberInitExt;

use fake_table::{ann, bob, cat, moderator, CHANNEL, GUILD, WAIT};

/// A second game channel (the slash command's game).
const SLASH_CHANNEL: u64 = 502;
/// The setup of both games: ann bids first.
const SETUP: &str = "!setup <@1> <@2> <@3> dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";
/// The target of the hop markers.
const HOP_TARGET: &str = "hop";
/// The document the tables live in, from the crate's folder.
const DOC: &str = "../docs/ARCHITECTURE.md";

/// One hop: the marked function, its file and the milestone it marks, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Hop {
    function: String,
    file: String,
    milestone: Option<String>,
}

impl Hop {
    fn new(function: &str, file: &str, milestone: Option<&str>) -> Hop {
        Hop {
            function: function.to_string(),
            file: file.to_string(),
            milestone: milestone.map(str::to_string),
        }
    }
}

/// Every hop recorded since the last [`take_hops`].
static HOPS: Mutex<Vec<Hop>> = Mutex::new(Vec::new());

fn take_hops() -> Vec<Hop> {
    std::mem::take(&mut *HOPS.lock().unwrap_or_else(|e| e.into_inner()))
}

/// Records each new span of the target `hop`.
struct HopRecorder;

/// Reads the `milestone` field of a hop span.
#[derive(Default)]
struct Milestone(Option<String>);

impl Visit for Milestone {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "milestone" {
            self.0 = Some(value.to_string());
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "milestone" {
            self.0 = Some(format!("{value:?}").trim_matches('"').to_string());
        }
    }
}

impl<S: Subscriber> Layer<S> for HopRecorder {
    fn on_new_span(&self, attrs: &Attributes<'_>, _id: &Id, _ctx: Context<'_, S>) {
        let meta = attrs.metadata();
        if meta.target() != HOP_TARGET {
            return;
        }
        let mut milestone = Milestone::default();
        attrs.record(&mut milestone);
        let hop = Hop {
            function: meta.name().to_string(),
            file: workspace_path(meta.file().unwrap_or("?")),
            milestone: milestone.0,
        };
        HOPS.lock().unwrap_or_else(|e| e.into_inner()).push(hop);
    }
}

/// A source path relative to the workspace's root (`engine/src/table/mod.rs`), as `file!()`
/// gives it in the workspace, or made so if it is absolute.
fn workspace_path(file: &str) -> String {
    let root = concat!(env!("CARGO_MANIFEST_DIR"), "/../");
    let root = std::path::Path::new(root)
        .canonicalize()
        .map(|p| format!("{}/", p.display()))
        .unwrap_or_default();
    file.strip_prefix(&root).unwrap_or(file).replace('\\', "/")
}

/// The path up to and including the first hop marking `milestone`, if one does.
fn until<'a>(hops: &'a [Hop], milestone: &str) -> Option<&'a [Hop]> {
    hops.iter()
        .position(|h| h.milestone.as_deref() == Some(milestone))
        .map(|i| &hops[..=i])
}

/// The files of a path entered again after another file, in the order they are re-entered.
fn reentered(hops: &[Hop]) -> Vec<String> {
    let mut seen: Vec<&str> = Vec::new();
    let mut again: Vec<String> = Vec::new();
    let mut previous: Option<&str> = None;
    for hop in hops {
        let file = hop.file.as_str();
        if previous != Some(file) {
            if seen.contains(&file) {
                if !again.iter().any(|f| f == file) {
                    again.push(file.to_string());
                }
            } else {
                seen.push(file);
            }
        }
        previous = Some(file);
    }
    again
}

/// How many distinct files a path goes through.
fn files(hops: &[Hop]) -> usize {
    let mut all: Vec<&str> = hops.iter().map(|h| h.file.as_str()).collect();
    all.sort_unstable();
    all.dedup();
    all.len()
}

/// One sentence on a part of a path: hops, files, files re-entered.
fn summary(part: &str, hops: Option<&[Hop]>, milestone: &str) -> String {
    let Some(hops) = hops else {
        return format!("To {part}: no hop is marked `milestone = \"{milestone}\"` yet.");
    };
    let again = reentered(hops);
    let named = if again.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = again.iter().map(|f| format!("`{f}`")).collect();
        format!(" ({})", list.join(", "))
    };
    format!(
        "To {part}: {}, in {}, {} re-entered{named}.",
        counted(hops.len(), "hop"),
        counted(files(hops), "file"),
        counted(again.len(), "file")
    )
}

/// `1 hop`, `2 hops`.
fn counted(n: usize, what: &str) -> String {
    if n == 1 {
        format!("1 {what}")
    } else {
        format!("{n} {what}s")
    }
}

/// The table of a recorded path, as docs/ARCHITECTURE.md keeps it between its markers. The
/// path shown runs to the reply's milestone, or to where the bot went quiet after the reply if
/// no hop marks it.
fn render(hops: &[Hop]) -> String {
    let to_reply = until(hops, "reply").unwrap_or(hops);
    let mut out = String::from("| # | hop | file |\n|---|---|---|\n");
    for (i, hop) in to_reply.iter().enumerate() {
        let mark = match hop.milestone.as_deref() {
            Some("stored") => " — **stored**",
            Some("reply") => " — **reply posted**",
            Some(_) | None => "",
        };
        out.push_str(&format!(
            "| {} | `{}`{mark} | `{}` |\n",
            i + 1,
            hop.function,
            hop.file
        ));
    }
    out.push('\n');
    out.push_str(&summary(
        "the stored entry",
        until(hops, "stored"),
        "stored",
    ));
    out.push('\n');
    let reply = until(hops, "reply");
    out.push_str(&match reply {
        Some(_) => summary("the reply", reply, "reply"),
        None => summary(
            "the reply (no hop marks it: every hop until the bot went quiet)",
            Some(hops),
            "reply",
        ),
    });
    out.push('\n');
    out
}

fn open_marker(name: &str) -> String {
    format!("<!-- hops:{name} -->")
}

fn close_marker(name: &str) -> String {
    format!("<!-- /hops:{name} -->")
}

/// The text between the markers of `name` in `doc` (without the line breaks that follow and
/// precede the markers), and its byte range.
fn block(doc: &str, name: &str) -> Option<(String, std::ops::Range<usize>)> {
    let open = open_marker(name);
    let start = doc.find(&open)? + open.len();
    let end = start + doc[start..].find(&close_marker(name))?;
    Some((doc[start..end].trim().to_string(), start..end))
}

/// `doc` with the block of `name` replaced by `table`.
fn replace_block(doc: &str, name: &str, table: &str) -> Option<String> {
    let (_, range) = block(doc, name)?;
    Some(format!(
        "{}\n{}\n{}",
        &doc[..range.start],
        table.trim(),
        &doc[range.end..]
    ))
}

/// The lines where two texts differ: `- doc` / `+ recorded`.
fn difference(doc: &str, recorded: &str) -> String {
    let a: Vec<&str> = doc.lines().collect();
    let b: Vec<&str> = recorded.lines().collect();
    let mut out = String::new();
    for i in 0..a.len().max(b.len()) {
        let (x, y) = (a.get(i), b.get(i));
        if x != y {
            if let Some(x) = x {
                out.push_str(&format!("- {x}\n"));
            }
            if let Some(y) = y {
                out.push_str(&format!("+ {y}\n"));
            }
        }
    }
    out
}

/// Compares each recorded path with its table in the document; with `HOPS_UPDATE=1`, rewrites
/// the tables instead. Panics with the differences.
fn check_against_doc(paths: &[(&str, String)]) {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(DOC);
    let mut doc = std::fs::read_to_string(&path).expect("read docs/ARCHITECTURE.md");
    let update = std::env::var_os("HOPS_UPDATE").is_some_and(|v| v == "1");
    let mut differences = String::new();
    for (name, table) in paths {
        let Some((written, _)) = block(&doc, name) else {
            differences.push_str(&format!(
                "docs/ARCHITECTURE.md has no `{}` … `{}` block\n",
                open_marker(name),
                close_marker(name)
            ));
            continue;
        };
        if written == table.trim() {
            continue;
        }
        if update {
            doc = replace_block(&doc, name, table).expect("the block is there");
        } else {
            differences.push_str(&format!(
                "the path `{name}` differs from docs/ARCHITECTURE.md (- doc, + recorded):\n{}",
                difference(&written, table.trim())
            ));
        }
    }
    if update {
        std::fs::write(&path, doc).expect("write docs/ARCHITECTURE.md");
    }
    assert!(
        differences.is_empty(),
        "{differences}\nregenerate with: HOPS_UPDATE=1 cargo test -p gaugebot --test hops"
    );
}

/// Waits until the bot has sent no request for a while: everything a previous input set off
/// (replies, pins, buttons) is done before the next path is recorded.
async fn quiet(fake: &FakeDiscord) {
    within(WAIT, "the bot goes quiet", async {
        let mut seen = fake.requests().len();
        loop {
            tokio::time::sleep(Duration::from_millis(400)).await;
            let now = fake.requests().len();
            if now == seen {
                return;
            }
            seen = now;
        }
    })
    .await;
}

/// Posts a message in `channel` and waits for its ✅; returns its id.
async fn accepted(fake: &FakeDiscord, channel: u64, user: &FakeUser, text: &str) -> u64 {
    let id = fake.post_user_message(channel, Some(GUILD), user, text);
    let reactions = fake.wait_for_reactions(id, 1, WAIT).await.expect(text);
    assert_eq!(reactions, ["✅"], "{text}");
    id
}

/// The game channel set up and waiting for ann's bid.
async fn game(fake: &FakeDiscord, channel: u64) {
    accepted(fake, channel, &moderator(), SETUP).await;
}

/// Waits for the bot's reply in `channel` to the message `id`.
async fn reply_in(fake: &FakeDiscord, channel: u64, id: u64) {
    fake.wait_for(WAIT, |f| {
        f.bot_messages(channel)
            .iter()
            .any(|m| m.referenced_message == Some(id))
            .then_some(())
            .ok_or_else(|| "the reply".to_string())
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_paths_of_a_bid_match_the_architecture_document() {
    tracing_subscriber::registry()
        .with(HopRecorder.with_filter(Targets::new().with_target(HOP_TARGET, LevelFilter::TRACE)))
        .try_init()
        .expect("the only subscriber of this test binary");
    let fake = FakeDiscord::start().await;
    fake_table::guild(&fake, "Irish Gauge", &[ann(), bob(), cat()]);
    fake.add_channel(GUILD, SLASH_CHANNEL, "game-2");
    let dir = tempfile::tempdir().expect("temp dir");
    let bot = fake_table::start(&fake, &dir.path().join("gaugebot.db"), |_| {}).await;
    fake.wait_for_commands(WAIT)
        .await
        .expect("the slash commands are registered");
    game(&fake, CHANNEL).await;
    game(&fake, SLASH_CHANNEL).await;

    // `**bid 7**` as a message.
    quiet(&fake).await;
    take_hops();
    let id = accepted(&fake, CHANNEL, &ann(), "**bid 7**").await;
    reply_in(&fake, CHANNEL, id).await;
    quiet(&fake).await;
    let message = take_hops();

    // `/bid 7` as a slash command.
    let interaction = fake.slash_command(SLASH_CHANNEL, &ann(), "bid", &[("amount", "7")]);
    fake.wait_for_interaction(interaction.id, WAIT, "the answer", |f, r| {
        r.original
            .and_then(|m| f.message(m))
            .is_some_and(|m| m.edit_count > 0)
    })
    .await
    .unwrap_or_else(|e| panic!("{e}"));
    quiet(&fake).await;
    let slash = take_hops();
    within(WAIT, "the bot stops", bot.shutdown()).await;

    assert!(!message.is_empty(), "the message's path has hops");
    assert!(!slash.is_empty(), "the slash command's path has hops");
    let tables = [
        ("bid-message", render(&message)),
        ("bid-slash", render(&slash)),
    ];
    for (name, table) in &tables {
        println!("{}\n{}{}\n", open_marker(name), table, close_marker(name));
    }
    check_against_doc(&tables);
}

#[test]
fn a_file_entered_again_after_another_is_counted_once() {
    let hops = [
        Hop::new("collect", "bot/src/discord/events/message.rs", None),
        Hop::new("play", "bot/src/discord/play.rs", None),
        Hop::new("kept", "bot/src/discord/play.rs", None),
        Hop::new("of", "bot/src/discord/outbox.rs", None),
        Hop::new("after", "bot/src/discord/play.rs", None),
        Hop::new("send", "bot/src/discord/outbox.rs", None),
        Hop::new("settle", "bot/src/discord/play.rs", None),
    ];
    assert_eq!(
        reentered(&hops),
        ["bot/src/discord/play.rs", "bot/src/discord/outbox.rs"]
    );
    assert_eq!(files(&hops), 3);
    assert!(
        reentered(&hops[..3]).is_empty(),
        "consecutive hops in one file"
    );
}

#[test]
fn a_path_is_cut_at_its_milestones() {
    let hops = [
        Hop::new("parse", "a.rs", None),
        Hop::new("write", "b.rs", Some("stored")),
        Hop::new("post", "c.rs", Some("reply")),
        Hop::new("settle", "a.rs", None),
    ];
    assert_eq!(until(&hops, "stored").map(<[Hop]>::len), Some(2));
    assert_eq!(until(&hops, "reply").map(<[Hop]>::len), Some(3));
    let table = render(&hops);
    assert!(
        table.contains("| 2 | `write` — **stored** | `b.rs` |"),
        "{table}"
    );
    assert!(
        !table.contains("settle"),
        "the table stops at the reply: {table}"
    );
    assert!(
        table.contains("To the stored entry: 2 hops, in 2 files, 0 files re-entered."),
        "{table}"
    );
    assert!(
        table.contains("To the reply: 3 hops, in 3 files, 0 files re-entered."),
        "{table}"
    );
    let unmarked = render(&hops[..1]);
    assert!(
        unmarked.contains("no hop is marked `milestone = \"stored\"` yet"),
        "{unmarked}"
    );
}

#[test]
fn a_table_is_read_and_replaced_between_its_markers() {
    let doc = "intro\n<!-- hops:x -->\n| old |\n<!-- /hops:x -->\nafter\n";
    assert_eq!(block(doc, "x").map(|b| b.0), Some("| old |".to_string()));
    assert_eq!(block(doc, "y"), None);
    let new = replace_block(doc, "x", "| new |\n").expect("the block");
    assert_eq!(
        new,
        "intro\n<!-- hops:x -->\n| new |\n<!-- /hops:x -->\nafter\n"
    );
    assert_eq!(difference("a\nb", "a\nc"), "- b\n+ c\n");
}
