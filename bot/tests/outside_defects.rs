//! The defects found from the outside (issue 23 §3), each at the real table or through the
//! `gaugebot play` binary: a Privates substitute named in report and dump, every example the
//! bot and the docs show is legal, refusals quote what was given and cite their ruling, help
//! comes from the game played, the reminder's wording, README's sample transcripts are what
//! the bot says, and bold chat that contains a move word gets no answer.

use std::path::{Path, PathBuf};

use gaugebot::table::{Response, Table, Verdict};

mod binary;
mod common;
use common::message;

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("bot/ has a parent")
        .to_path_buf()
}

fn read(path: &str) -> String {
    std::fs::read_to_string(workspace().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

struct At {
    table: Table,
    id: u64,
}

impl At {
    async fn new(dir: &Path, name: &str) -> At {
        At {
            table: common::open_table(&dir.join(format!("{name}.db")), name, None).await,
            id: 0,
        }
    }

    async fn send(&mut self, author: &str, text: &str) -> Response {
        self.id += 1;
        self.table
            .handle(&message(self.id, author, text, author == "mod"))
            .await
    }

    async fn ok(&mut self, author: &str, text: &str) -> String {
        let r = self.send(author, text).await;
        assert_ne!(r.verdict, Verdict::Refused, "{text}: {}", r.text());
        r.text()
    }

    async fn refused(&mut self, author: &str, text: &str, wanted: &[&str]) {
        let before = self.table.dump();
        let r = self.send(author, text).await;
        assert_eq!(r.verdict, Verdict::Refused, "{text}: {}", r.text());
        for want in wanted {
            assert!(
                r.text().contains(want),
                "{text}: {want:?} not in {}",
                r.text()
            );
        }
        assert_eq!(self.table.dump(), before, "{text} changed the game");
    }

    async fn silent(&mut self, author: &str, text: &str) {
        let before = self.table.dump();
        let r = self.send(author, text).await;
        assert_eq!(
            r.verdict,
            Verdict::Ignored,
            "{author}: {text}: {}",
            r.text()
        );
        assert!(r.replies.is_empty(), "{author}: {text}: {}", r.text());
        assert_eq!(self.table.dump(), before, "{text} changed the game");
    }
}

const PRIVATES_DEAL: &str = "!deal 10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,blue";

#[tokio::test]
async fn a_privates_substitute_is_named_in_the_report_and_the_dump() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut at = At::new(dir.path(), "sub").await;
    at.ok("mod", "!setup privates ann bob cat dice:manual dealer:3")
        .await;
    at.ok("mod", PRIVATES_DEAL).await;
    let sub = at.ok("mod", "!sub @cat @dan").await;
    assert!(sub.contains("dan (dealer)"), "{sub}");
    assert!(!sub.contains("cat (dealer)"), "{sub}");
    let status = at.ok("ann", "!status").await;
    assert!(status.contains("dan (dealer): $120"), "{status}");
    assert!(!status.contains("cat"), "{status}");
    let dump = at.table.dump().expect("a game");
    assert_eq!(dump["players"][2]["name"], "dan");
    assert_eq!(dump["next"], "dan");
    assert_eq!(dump["dealer"], "dan");
    // dan's move is accepted; cat's is not.
    at.refused("cat", "**buy**", &["not seated", "P17"]).await;
    let bought = at.ok("dan", "**buy**").await;
    assert!(bought.contains("dan buys A"), "{bought}");
    // The rename survives a reload (the log replays the substitution).
    let mut reloaded = common::open_table(&dir.path().join("sub.db"), "sub", None).await;
    let r = reloaded.handle(&message(99, "ann", "!status", false)).await;
    assert!(r.text().contains("dan (dealer): $115"), "{}", r.text());
}

/// The `!deal …` examples of a text: every `deal` followed by card costs and `chips:`.
fn deal_examples(text: &str) -> Vec<String> {
    let mut found = Vec::new();
    for (i, _) in text.match_indices("deal ") {
        let rest = &text[i + "deal ".len()..];
        let example: String = rest
            .chars()
            .take_while(|c| !matches!(c, '`' | '\n' | '"' | '(' | '—'))
            .collect();
        let example = example.trim();
        if example.contains("chips:") && example.starts_with(|c: char| c.is_ascii_digit()) {
            found.push(example.to_string());
        }
    }
    found
}

#[tokio::test]
async fn every_deal_and_setup_example_the_bot_and_the_docs_show_is_legal() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut sources: Vec<(String, String)> = [
        "README.md",
        "docs/PRIVATES.md",
        "templates/privates/help.md.j2",
        "templates/privates/setup.md.j2",
        "templates/privates/refusal.md.j2",
        "templates/privates/prompt.md.j2",
    ]
    .iter()
    .map(|p| (p.to_string(), read(p)))
    .collect();
    sources.push((
        "DEAL_FORM".into(),
        format!("deal {}", privates::notation::DEAL_FORM),
    ));
    // What the bot itself shows: the setup announcement, the help, the refusal of a deal
    // without chips.
    let mut at = At::new(dir.path(), "shown").await;
    let setup = at
        .ok("mod", "!setup privates ann bob cat dice:manual dealer:1")
        .await;
    let help = at.ok("mod", "!help deal").await;
    let overview = at.ok("mod", "!help").await;
    let refusal = at.send("mod", "!deal 10 5 25 50 10 35 40").await.text();
    for (name, text) in [
        ("setup", setup),
        ("help deal", help),
        ("help", overview),
        ("refusal", refusal),
    ] {
        sources.push((format!("the bot's {name}"), text));
    }
    let mut checked = 0;
    for (source, text) in &sources {
        for example in deal_examples(text) {
            let mut at = At::new(dir.path(), &format!("deal{checked}")).await;
            at.ok("mod", "!setup privates ann bob cat dice:manual dealer:1")
                .await;
            let r = at.send("mod", &format!("!deal {example}")).await;
            assert_eq!(
                r.verdict,
                Verdict::Accepted,
                "{source}: `!deal {example}` is refused: {}",
                r.text()
            );
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} deal examples found");
    // Every `!setup` example of the docs and the help that seats ann, bob, cat starts a game.
    let mut setups = 0;
    for (source, text) in &sources {
        for (i, _) in text.match_indices("setup privates ann bob cat") {
            let line: String = text[i..]
                .chars()
                .take_while(|c| !matches!(c, '`' | '\n' | '#' | '('))
                .collect();
            let mut at = At::new(dir.path(), &format!("setup{setups}")).await;
            let r = at.send("mod", &format!("!{}", line.trim())).await;
            assert_eq!(
                r.verdict,
                Verdict::Accepted,
                "{source}: `!{line}` is refused: {}",
                r.text()
            );
            setups += 1;
        }
    }
    assert!(setups >= 3, "only {setups} setup examples found");
}

#[tokio::test]
async fn refusals_quote_what_was_given_and_cite_their_ruling() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut at = At::new(dir.path(), "privates").await;
    at.refused(
        "mod",
        "!setup privates ann bob cat dice:manual dealer:0",
        &["1 to 3, not 0 (P4)"],
    )
    .await;
    at.ok("mod", "!setup privates ann bob cat dice:manual dealer:1")
        .await;
    at.refused(
        "ann",
        PRIVATES_DEAL,
        &["only a moderator may `!deal` (P17)"],
    )
    .await;
    at.ok("mod", PRIVATES_DEAL).await;
    at.refused(
        "mod",
        PRIVATES_DEAL,
        &["No draw is pending", "waiting for (P17)"],
    )
    .await;
    at.refused(
        "ann",
        "**bid 4294967296 on C**",
        &["4294967296 is too large", "(P3)"],
    )
    .await;
    at.refused(
        "ann",
        "**bid 7 on H**",
        &["'H' is not a card letter", "(P5)"],
    )
    .await;
    at.refused(
        "dan",
        "**buy**",
        &["you are not seated in this game", "P17"],
    )
    .await;

    // Irish Gauge: the same table refusals cite ruling 27.
    let mut ig = At::new(dir.path(), "ig").await;
    ig.refused(
        "ann",
        "!setup ann bob cat",
        &["only a moderator may `!setup` ("],
    )
    .await;
    ig.ok(
        "mod",
        "!setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12",
    )
    .await;
    ig.refused(
        "mod",
        "!draw white pink black",
        &["No draw is pending", "(ruling 27)"],
    )
    .await;
    ig.refused(
        "ann",
        "!draw white",
        &["only a moderator may `!draw` (ruling 27)"],
    )
    .await;
    ig.refused("dan", "**bid 7**", &["not seated", "ruling 27"])
        .await;
}

#[test]
fn a_finished_game_refuses_moves_citing_the_table_ruling() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut script = binary::transcript("privates_manual.txt");
    script.push_str("\nann: **pass**\n");
    let (out, _) = binary::play(&dir.path().join("over.db"), &script, &[]);
    assert!(
        out.contains("ann: **pass** — the game is over (P17)"),
        "{}",
        &out[out.len().saturating_sub(600)..]
    );
}

#[tokio::test]
async fn help_comes_from_the_game_played_or_covers_both() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut at = At::new(dir.path(), "help").await;
    // No game: both games' setup, and both games' moves.
    let setup = at.ok("ann", "!help setup").await;
    assert!(setup.contains("order:3,1,2,4"), "{setup}");
    assert!(setup.contains("setup privates"), "{setup}");
    let overview = at.ok("ann", "!help").await;
    assert!(overview.contains("**Moves** of Irish Gauge"), "{overview}");
    assert!(overview.contains("**Moves** of Privates"), "{overview}");
    assert!(overview.contains("`!odds`"), "{overview}");
    assert!(overview.contains("`!deal "), "{overview}");
    // A game named: its overview.
    let privates = at.ok("ann", "!help privates").await;
    assert!(privates.contains("`bid 17 on C`"), "{privates}");
    assert!(!privates.contains("No help on"), "{privates}");
    assert!(!privates.contains("dividends"), "{privates}");
    // Privates played: none of Irish Gauge's commands, nor the table's it has no use for.
    at.ok("mod", "!setup privates ann bob cat dice:manual dealer:1")
        .await;
    let help = at.ok("ann", "!help").await;
    for absent in ["`!map`", "max WLW", "dividends", "`!odds`", "`!draw"] {
        assert!(!help.contains(absent), "{absent} in {help}");
    }
    assert!(help.contains("`!deal "), "{help}");
    let setup = at.ok("ann", "!help setup").await;
    assert!(setup.contains("setup privates"), "{setup}");
    assert!(!setup.contains("order:3,1,2,4"), "{setup}");
}

#[tokio::test]
async fn a_reminder_point_is_announced_as_the_share_of_time_passed() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut at = At::new(dir.path(), "clock").await;
    at.ok("mod", "!setup ann bob cat").await;
    let clock = at.ok("mod", "!clock turn:48h remind:75%").await;
    assert!(
        clock.contains("a reminder once 75% of the time to the deadline has passed"),
        "{clock}"
    );
    assert!(!clock.contains("before the deadline;"), "{clock}");
}

#[tokio::test]
async fn a_missing_hex_is_answered_with_a_hex_nearby_or_none() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut at = At::new(dir.path(), "hex").await;
    at.ok(
        "mod",
        "!setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12",
    )
    .await;
    for _ in 0..15 {
        let who = at.table.player_to_act().expect("a player").name;
        at.ok(&who, "**pass**").await;
    }
    let r = at.send("ann", "**build WLW N7**").await;
    assert_eq!(r.verdict, Verdict::Refused, "{}", r.text());
    assert!(r.text().contains("no hex 'N7'"), "{}", r.text());
    assert!(!r.text().contains("A7"), "{}", r.text());
    assert!(r.text().contains("did you mean N6?"), "{}", r.text());
}

#[tokio::test]
async fn bold_chat_with_a_move_word_is_answered_for_the_player_to_act_only() {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut at = At::new(dir.path(), "chat").await;
    // No game: chat.
    at.silent("ann", "**Nice build!**").await;
    at.ok(
        "mod",
        "!setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12",
    )
    .await;
    // ann is asked to bid: she is answered, shortly (issue 32: the player to act never meets
    // silence); nobody else is answered for chat.
    at.refused(
        "ann",
        "**Nice build!**",
        &[
            "I could not read **Nice build!** as a move",
            "**bid 7** or more",
        ],
    )
    .await;
    at.refused(
        "ann",
        "I agree, **that was a good bid**",
        &[
            "I could not read **that was a good bid**",
            "did you mean **bid 7**?",
        ],
    )
    .await;
    for who in ["bob", "dan"] {
        at.silent(who, "**Nice build!**").await;
        at.silent(who, "**the opening bidder may pass**").await;
        at.silent(who, "I agree, **that was a good bid**").await;
    }
    // The player to act's near miss stays a refusal with its suggestion; another player's
    // near miss is chat; a whole move by someone else is refused as before, and so is an
    // attempt at one that does not read: whose bid it is comes first, not ann's nearest move.
    at.refused("ann", "**bdi 8**", &["did you mean **bid 8**"])
        .await;
    at.silent("bob", "**bdi 8**").await;
    at.refused("bob", "**bid 8**", &["ann"]).await;
    at.refused("bob", "**bid 5.5**", &["it is ann's bid, not yours"])
        .await;
    let r = at.send("bob", "**bid 5.5**").await;
    assert!(!r.text().contains("nearest"), "{}", r.text());
    at.refused("ann", "**bid x**", &["'x'"]).await;
    // A bold chat beside a move in the same message is not answered: the move is.
    let both = at.ok("ann", "**wow** **bid 7**").await;
    assert!(!both.contains("could not read"), "{both}");
    at.ok("mod", "!undo").await;

    // Privates: the same.
    let mut p = At::new(dir.path(), "chat-privates").await;
    p.ok("mod", "!setup privates ann bob cat dice:manual dealer:1")
        .await;
    p.ok("mod", PRIVATES_DEAL).await;
    p.refused("ann", "**Nice bid!**", &["I could not read **Nice bid!**"])
        .await;
    p.silent("bob", "**Nice bid!**").await;
    p.silent("bob", "**the opening bidder may pass**").await;
    p.refused("ann", "**byu**", &["did you mean **buy**"]).await;
    p.silent("bob", "**byu**").await;
    p.refused(
        "bob",
        "**bid 5.5 on C**",
        &["it is ann's turn, not yours (P17)"],
    )
    .await;
}

/// The lines of README's fenced block after `marker`, without abridged ones (`...`, `…`).
fn readme_sample(readme: &str, marker: &str) -> Vec<String> {
    let start = readme.find(marker).expect("the marker is in README");
    let rest = &readme[start..];
    let open = rest.find("```text\n").expect("a text block") + "```text\n".len();
    let block = &rest[open..];
    let close = block.find("```").expect("the block ends");
    block[..close]
        .lines()
        .map(|l| l.trim_end_matches('…').trim_end().to_string())
        .filter(|l| !l.is_empty() && l != "...")
        .collect()
}

#[test]
fn readmes_sample_transcripts_are_what_the_bot_says() {
    let readme = read("README.md");
    let dir = tempfile::tempdir().expect("temp dir");
    let seed = "0000000000000000000000000000000000000000000000000000000000000001";
    assert!(readme.contains(&format!(
        "play --no-map --seed {seed} bot/tests/games/weeks.txt"
    )));
    for (marker, script, extra) in [
        (
            "and what the bot answers (abridged)",
            "complete_manual.txt",
            vec![],
        ),
        (
            "bot/tests/games/weeks.txt\n```",
            "weeks.txt",
            vec!["--seed", seed],
        ),
    ] {
        let (out, _) = binary::run(
            &dir.path().join(format!("{script}.db")),
            &binary::transcript(script),
            &extra,
        );
        let lines = readme_sample(&readme, marker);
        assert!(lines.len() >= 5, "{marker}: {lines:?}");
        for line in lines {
            assert!(
                out.contains(&line),
                "README's {line:?} is not in the output of {script}"
            );
        }
    }
    assert!(readme.contains("it ends `cat wins with £59`"));
    let (out, _) = binary::run(
        &dir.path().join("privates.db"),
        &binary::transcript("privates_manual.txt"),
        &[],
    );
    for claim in [
        "**Game over.** bob wins with 435 (P14, P15).",
        "1. bob 435 — cash $306 + sets 57",
        "2. ann 383",
        "3. cat 316",
    ] {
        assert!(
            readme.contains(claim.split(" —").next().unwrap_or(claim)),
            "{claim}"
        );
        assert!(out.contains(claim), "{claim} is not in the output");
    }
}

#[test]
fn the_privates_dump_example_is_what_the_dump_says() {
    let doc = read("docs/PRIVATES.md");
    // A $14 bid is not taken from cash (P3, P8): the dump shows the whole $120.
    assert!(
        doc.contains(r#""cash":120,"cards":[],"bids":{"C":14}"#),
        "docs/PRIVATES.md"
    );
    assert!(!doc.contains(r#""cash":106"#));
    let dir = tempfile::tempdir().expect("temp dir");
    let script = format!(
        "mod: !setup privates ann bob cat dice:manual dealer:1\nmod: {PRIVATES_DEAL}\nann: **bid 14 on C**\n"
    );
    let (_, dump) = binary::play(&dir.path().join("dump.db"), &script, &[]);
    assert_eq!(dump["players"][0]["cash"], 120);
    assert_eq!(dump["players"][0]["bids"]["C"], 14);
}
