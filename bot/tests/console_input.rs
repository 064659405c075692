//! The console reads every line it can (issue 31, finding 8): a line that is not UTF-8 is
//! refused with its number and the lines after it are played; `--attachments DIR` creates its
//! folder and writes there, and only there.

mod binary;

use binary::play_bytes as play;

#[test]
fn a_line_that_is_not_utf8_is_refused_and_the_game_goes_on() {
    let mut input =
        b"mod: !setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12\n".to_vec();
    input.extend_from_slice(b"ann: **bid \xff 7**\n");
    input.extend_from_slice(b"ann: **bid 7**\n");
    let out = play(&input, &["--no-map"]);
    assert!(out.contains("(ignored: line 2 is not UTF-8 text"), "{out}");
    assert!(
        out.contains("ann bids £7."),
        "the next line is played: {out}"
    );
}

#[test]
fn attachments_go_to_a_folder_made_for_them() {
    let dir = tempfile::tempdir().expect("temp dir");
    let folder = dir.path().join("not/yet/there");
    let input =
        b"mod: !setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12\nann: !map\n";
    let out = play(input, &["--attachments", &folder.to_string_lossy()]);
    let written: Vec<_> = std::fs::read_dir(&folder)
        .expect("the folder was made")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    assert!(
        written.iter().any(|name| name.ends_with(".png")),
        "the map is written there: {written:?}\n{out}"
    );
    assert!(
        out.contains(&format!("[attachment: {}", folder.display())),
        "{out}"
    );
}

#[test]
fn signups_stop_at_the_cap_with_a_clear_refusal() {
    let mut input = String::from("mod: !signup open players:3-4 closes:24h\n");
    for n in 1..=101 {
        input.push_str(&format!("p{n}: !join\n"));
    }
    input.push_str("zed: !signup status\n");
    let out = play(input.as_bytes(), &["--no-map"]);
    assert!(out.contains("✍️ p100 signs up. 100 signed up"), "{out}");
    assert!(
        out.contains("❌ p101: the signups are full (100 signed up"),
        "{out}"
    );
    assert!(!out.contains("p101 signs up"), "{out}");
}

#[test]
fn a_struck_out_move_is_withdrawn_and_a_mention_is_not_an_amount() {
    let input = b"mod: !setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12\nann: ~~**bid 7**~~\nann: **bid <@123456789012345678>**\nann: **bid 8**\n";
    let out = play(input, &["--no-map"]);
    assert!(
        !out.contains("ann bids £7"),
        "a struck-out bid was applied: {out}"
    );
    assert!(
        !out.contains("£123456789012345678"),
        "a mention read as an amount: {out}"
    );
    assert!(out.contains("ann bids £8."), "{out}");
}

#[test]
fn a_misspelt_command_is_answered_with_the_one_meant() {
    let out = play(
        b"mod: !stup ann bob cat\nzed: !staus\nzed: !xyzzy\n",
        &["--no-map"],
    );
    assert!(
        out.contains("Unknown command `!stup`; did you mean `!setup`?"),
        "{out}"
    );
    assert!(
        out.contains("Unknown command `!staus`; did you mean `!status`?"),
        "{out}"
    );
    assert!(
        out.contains("Unknown command `!xyzzy`; `!help` lists the commands."),
        "{out}"
    );
}

#[test]
fn a_game_s_name_is_not_taken_for_a_player_unless_quoted() {
    let out = play(
        b"mod: !setup gauge ann bob cat\nmod: !setup \"Gauge\" ann bob dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12\n",
        &["--no-map"],
    );
    assert!(
        out.contains("'gauge' names the game Irish Gauge, not a player"),
        "{out}"
    );
    assert!(
        out.contains("Irish Gauge for 3 players"),
        "quoted, it is a player: {out}"
    );
    assert!(out.contains("Gauge, ann, bob"), "{out}");
}

#[test]
fn an_amount_alone_from_the_bidder_to_act_is_a_bid_and_chat_from_anyone_else() {
    let out = play(
        b"mod: !setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12\nann: **bid 7**\ncat: **\xc2\xa310**\nbob: **\xc2\xa39**\n",
        &["--no-map"],
    );
    assert!(out.contains("bob bids £9 — read as **bid 9**"), "{out}");
    assert!(
        !out.contains("cat bids"),
        "not cat's turn: chat, no reply: {out}"
    );
    assert!(!out.contains("❌ cat"), "{out}");
}

/// The console's answer to each input line, split by the end marker `@@`.
fn answers(input: &str) -> Vec<String> {
    let out = play(input.as_bytes(), &["--no-map", "--end-marker", "@@"]);
    out.split("@@\n").map(str::to_string).collect()
}

const SETUP_IG: &str = "mod: !setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12";

#[test]
fn the_player_to_act_is_always_answered_and_anyone_else_s_chat_is_not() {
    let lines = [
        SETUP_IG,
        "ann: **nice track**",
        "bob: **nice track**",
        "ann: I'll **go 8** then",
        "ann: ~~**bid 7**~~",
        "bob: **bid 5.5**",
        "ann: **wow** **bid 7**",
    ];
    let out = answers(&lines.join("\n"));
    // ann is asked to bid: her chat in bold is answered shortly, with her prompt.
    assert!(
        out[1].contains("🤔 ann: I could not read **nice track** as a move."),
        "{}",
        out[1]
    );
    assert!(
        out[1].contains("**bid 7** or more (you have £20), or **pass**"),
        "{}",
        out[1]
    );
    assert!(
        !out[1].contains("commands are"),
        "short, not a wall: {}",
        out[1]
    );
    // bob's is chat: no reply at all.
    assert_eq!(out[2].trim(), "", "bob is not to act: {}", out[2]);
    // The nearest legal move when the game finds one.
    assert!(out[3].contains("did you mean **bid 8**?"), "{}", out[3]);
    // Struck out: withdrawn, silent.
    assert_eq!(out[4].trim(), "", "{}", out[4]);
    // bob's attempt that does not read: whose bid it is, not ann's nearest move.
    assert!(
        out[5].contains("❌ bob: **bid 5.5** — it is ann's bid, not yours"),
        "{}",
        out[5]
    );
    assert!(!out[5].contains("nearest"), "{}", out[5]);
    // A move beside the chat: the move is the answer.
    assert!(out[6].contains("ann bids £7."), "{}", out[6]);
    assert!(!out[6].contains("could not read"), "{}", out[6]);
}

#[test]
fn irish_gauge_never_asks_for_a_bid_nobody_can_afford_and_forced_ask_is_an_option() {
    let lines = [
        &format!("{SETUP_IG} forced:maybe"),
        &format!("{SETUP_IG} forced:ask"),
        "ann: **bid 20**",
    ];
    let out = answers(&lines.join("\n"));
    assert!(
        out[0].contains("❌ unknown choice forced:maybe (forced:ask asks every move"),
        "{}",
        out[0]
    );
    assert!(out[1].contains("Irish Gauge for 3 players"), "{}", out[1]);
    // ann bids all her money: bob and cat cannot beat it and are not asked (ruling 11); ann,
    // now with £0, is not asked to open the WLW auction either.
    let after = &out[2];
    assert!(
        after.contains("bob is passed automatically: £20 cannot beat the high bid of £20."),
        "{after}"
    );
    assert!(after.contains("cat is passed automatically"), "{after}");
    assert!(
        after.contains("ann is passed automatically: £0 is less than the £5 face value."),
        "{after}"
    );
    assert!(!after.contains("@cat: the CBSC"), "{after}");
    assert!(after.contains("@bob: the WLW £5 share"), "{after}");
}

#[test]
fn a_bid_the_rules_refuse_names_the_nearest_legal_bid_and_changes_nothing() {
    let lines = [
        SETUP_IG,
        "ann: I open **bid 5**",
        "ann: **bid 25**",
        "bob: **bid 9**",
        "ann: **bid 7**",
        "mod: !setup privates ann bob cat dice:manual dealer:1 force",
        "mod: !deal 10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,blue",
        "ann: **bid 20 on D**",
        "ann: **bid 27 on D**",
    ];
    let out = answers(&lines.join("\n"));
    assert!(
        out[1].contains(
            "❌ ann: **bid 5** — a bid must be at least the share's face value of £7 (ruling 2) — the nearest legal move: **bid 7**"
        ),
        "{}",
        out[1]
    );
    assert!(
        out[2].contains("— the nearest legal move: **bid 20**"),
        "all of ann's £20: {}",
        out[2]
    );
    // Not bob's bid: the rule, and no move offered to him.
    assert!(out[3].contains("it is ann's bid, not bob's"), "{}", out[3]);
    assert!(!out[3].contains("nearest"), "{}", out[3]);
    // The refusals changed nothing: ann's bid of 7 opens the auction.
    assert!(out[4].contains("ann bids £7."), "{}", out[4]);
    // Privates: the least bid on D is its price and $2 (P8), $27.
    assert!(
        out[7].contains("— the nearest legal move: **bid 27 on D**"),
        "{}",
        out[7]
    );
    assert!(out[8].contains("ann bids $27 on D."), "{}", out[8]);
}
