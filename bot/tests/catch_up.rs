//! Catching up (issue 23 §1, issue 33 §1): the turn ping of a player back after a while carries
//! what happened since they last posted, `!recap` says it on demand (privately on slash), and
//! `!recap 2d` tells anyone, spectators too, what happened over that time — in both games.

use gaugebot::table::{Response, Table, Verdict};

mod binary;
mod common;

struct At {
    table: Table,
    id: u64,
    /// Minutes after the start.
    minutes: i64,
}

impl At {
    async fn new(dir: &std::path::Path, name: &str) -> At {
        At {
            table: common::open_table(&dir.join(format!("{name}.db")), name, None).await,
            id: 0,
            minutes: 0,
        }
    }

    fn later(&mut self, minutes: i64) {
        self.minutes += minutes;
    }

    async fn send(&mut self, author: &str, text: &str) -> Response {
        self.id += 1;
        let mut message = common::message(self.id, author, text, author == "mod");
        let at = chrono::DateTime::parse_from_rfc3339("2026-11-22T10:00:00Z")
            .expect("a time")
            .with_timezone(&chrono::Utc)
            + chrono::Duration::minutes(self.minutes);
        message.at = at;
        let r = self.table.handle(&message).await;
        assert_ne!(
            r.verdict,
            Verdict::Refused,
            "{author}: {text}: {}",
            r.text()
        );
        r
    }

    /// What the table answers, as Discord shows it (the times as Discord's time stamps).
    async fn say(&mut self, author: &str, text: &str) -> String {
        let response = self.send(author, text).await;
        gaugebot::discord::present::joined(&response.replies)
    }
}

/// The recap block of a text (from its 📜 line on).
fn recap(text: &str) -> Vec<String> {
    text.lines()
        .skip_while(|l| !l.starts_with("📜"))
        .take_while(|l| l.starts_with("📜") || l.starts_with('·'))
        .map(str::to_string)
        .collect()
}

#[tokio::test]
async fn irish_gauge_the_ping_and_recap_tell_what_happened_since_the_players_last_move() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut at = At::new(dir.path(), "ig").await;
    at.say(
        "mod",
        "!setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12",
    )
    .await;
    // Five initial auctions passed out a minute apart: every ping comes a moment after the
    // player's last move, so none carries a recap.
    for _ in 0..15 {
        let who = at.table.player_to_act().expect("a player").name;
        at.later(1);
        let text = at.say(&who, "**pass**").await;
        assert!(recap(&text).is_empty(), "a recap a moment later: {text}");
    }
    // ann holds a share of every railway and builds; a day later bob calls dividends.
    let ann_moved = at.say("ann", "**build WLW Shannon**").await;
    assert!(recap(&ann_moved).is_empty(), "{ann_moved}");
    at.later(24 * 60);
    at.say("bob", "**dividends**").await;
    at.say("mod", "!draw white pink black").await;
    // A day later cat opens an auction: ann, asked to bid, is pinged with what she missed.
    at.later(24 * 60);
    let ping = at.say("cat", "**auction GSW 9**").await;
    let lines = recap(&ping);
    assert_eq!(
        lines,
        [
            "📜 ann, since you last posted <t:1795342500:R>:",
            "· dividends paid: WLW £6 a share",
            "· your cash: +£6 (now £26)",
        ],
        "{ping}"
    );
    assert!(ping.contains("@ann"), "{ping}");
    // `!recap` says the same on demand, and answers privately on slash; it also tells the
    // auction still running (the ping leaves it out: the ping itself asks for her bid on it).
    let asked = at.say("ann", "!recap").await;
    let mut with_open = lines.clone();
    with_open.insert(
        2,
        "· cat bid £9 on the GSW £9 share (not decided yet)".to_string(),
    );
    assert_eq!(recap(&asked), with_open, "{asked}");
    // A spectator asks for the last three days: everything, grouped, complete (the end is
    // not near: nothing said of it).
    let spectator = at.say("zed", "!recap 3d").await;
    let lines = recap(&spectator);
    assert_eq!(lines.len(), 9, "a heading and every line: {spectator}");
    assert_eq!(lines[0], "📜 Since <t:1795256100:R>:", "{spectator}");
    assert_eq!(lines[1], "· ann won the CBSC £7 share for £0");
    assert_eq!(lines[4], "· ann won the GSW £4 share for £0");
    assert_eq!(lines[6], "· WLW built to Shannon", "{spectator}");
    assert_eq!(lines[7], "· dividends paid: WLW £6 a share", "{spectator}");
    assert_eq!(
        lines[8], "· cat bid £9 on the GSW £9 share (not decided yet)",
        "{spectator}"
    );
    // A day and a half back from now: bob's dividends and cat's open bid.
    let day = at.say("zed", "!recap 1d12h").await;
    assert_eq!(
        recap(&day)[1..],
        [
            "· dividends paid: WLW £6 a share",
            "· cat bid £9 on the GSW £9 share (not decided yet)"
        ],
        "{day}"
    );
    // Once the share is won, the bid is history: the recap says who won it, not the bid.
    at.later(60);
    for who in ["ann", "bob"] {
        at.say(who, "**pass**").await;
    }
    let won = at.say("zed", "!recap 1d12h").await;
    assert_eq!(
        recap(&won)[1..],
        [
            "· dividends paid: WLW £6 a share",
            "· cat won the GSW £9 share for £9"
        ],
        "{won}"
    );
    // A bad duration is refused.
    at.id += 1;
    let bad = at
        .table
        .handle(&common::message(at.id, "zed", "!recap soon", false))
        .await;
    assert_eq!(bad.verdict, Verdict::Refused, "{}", bad.text());
}

#[tokio::test]
async fn privates_the_ping_and_recap_tell_cards_taken_and_prices() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut at = At::new(dir.path(), "privates").await;
    at.say("mod", "!setup privates ann bob cat dice:manual dealer:1")
        .await;
    at.say(
        "mod",
        "!deal 10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,blue",
    )
    .await;
    at.say("ann", "**buy**").await;
    at.later(6 * 60);
    at.say("bob", "**buy**").await;
    at.later(6 * 60);
    let ping = at.say("cat", "**bid 30 on D**").await;
    assert_eq!(
        recap(&ping),
        [
            "📜 ann, since you last posted <t:1795341600:R>:",
            "· bob took B for $10",
        ],
        "{ping}"
    );
    // bob, pinged seven hours after his move, missed no card taken: no recap.
    at.later(60);
    let ann = at.say("ann", "**pass**").await;
    assert!(ann.contains("@bob"), "{ann}");
    assert!(recap(&ann).is_empty(), "{ann}");
    let all = at.say("zed", "!recap 1d").await;
    assert_eq!(
        recap(&all)[1..],
        [
            "· ann took A for $5",
            "· bob took B for $10",
            "· cat bid $30 on D (not decided yet)"
        ],
        "{all}"
    );
}

/// The attachments of a response.
fn pngs(response: &Response) -> Vec<(String, Vec<u8>)> {
    response
        .replies
        .iter()
        .filter_map(|r| r.attachment.as_ref())
        .map(|a| (a.filename.clone(), a.bytes.clone()))
        .collect()
}

#[tokio::test]
async fn the_net_worth_chart_is_a_png_anytime_and_with_the_final_report() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut at = At::new(dir.path(), "chart").await;
    at.say("mod", "!setup privates ann bob cat dice:manual dealer:1")
        .await;
    at.say(
        "mod",
        "!deal 10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,blue",
    )
    .await;
    at.say("ann", "**buy**").await;
    let chart = at.send("zed", "!chart").await;
    assert!(
        chart.text().contains(
            "net worth in Privates chart-1, move by move; now bob $120, cat $120, ann $115"
        ),
        "{}",
        chart.text()
    );
    let files = pngs(&chart);
    assert_eq!(files.len(), 1);
    assert_eq!(files[0].0, "chart-chart-1.png");
    assert_eq!(&files[0].1[1..4], b"PNG");
    // The final report carries the chart: the hand-scored game through the binary.
    let attachments = dir.path().join("files");
    std::fs::create_dir_all(&attachments).expect("a folder");
    let folder = attachments.to_string_lossy().to_string();
    let (out, _) = binary::play(
        &dir.path().join("whole.db"),
        &binary::transcript("privates_manual.txt"),
        &["--attachments", &folder],
    );
    let over = out.find("**Game over.** bob wins").expect("the game ends");
    assert!(
        out[over..].contains("chart-console-1.png"),
        "{}",
        &out[over..]
    );
    let png = std::fs::read(attachments.join("chart-console-1.png")).expect("the chart");
    assert_eq!(&png[1..4], b"PNG");
    let (out, _) = binary::play(
        &dir.path().join("ig.db"),
        &format!(
            "{}\nzed: !chart\n",
            binary::transcript("complete_manual.txt")
        ),
        &[],
    );
    // The chart ends where the final scores are (the last dividend draw included).
    assert!(
        out.contains("move by move; now cat £59, bob £35, ann £27."),
        "{}",
        &out[out.len().saturating_sub(800)..]
    );
}
