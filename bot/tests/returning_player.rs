//! What a returning player, a spectator and a moderator see (issue 33 §1, §2, §4, §8), played
//! through `gaugebot play`: a recap since the player last posted, with the moves made for them;
//! a status with the score and the clock; an honest ending.

mod binary;

/// The seed of these games (the dice are manual: it keys nothing the tests read).
const SEED: &str = "7777777777777777777777777777777777777777777777777777777777777777";

/// The five initial auctions of `complete_manual.txt`, at 2026-03-01 12:00 UTC, the clocks set.
const OPENING: &str = "@2026-03-01T12:00:00Z
mod: !setup ann bob cat dice:manual order:1,2,3 cities:5,2,3,11,4,7,9,12
mod: !clock turn:48h auction:24h remind:50%
ann: **bid 7**
bob: **pass**
cat: **pass**
ann: **pass**
bob: **bid 5**
cat: **pass**
bob: **pass**
cat: **bid 9**
ann: **pass**
cat: **pass**
ann: **pass**
bob: **pass**
cat: **bid 6**
ann: **pass**
bob: **pass**
";

fn play(input: &str, extra: &[&str]) -> String {
    let dir = tempfile::tempdir().expect("temp dir");
    let mut args = vec!["--seed", SEED];
    args.extend_from_slice(extra);
    binary::play(&dir.path().join("game.db"), input, &args).0
}

/// The paragraph (lines up to a blank one) of the `nth` line of `out` starting with `start`.
fn block<'a>(out: &'a str, start: &str, nth: usize) -> Vec<&'a str> {
    let lines: Vec<&str> = out.lines().collect();
    let at = lines
        .iter()
        .enumerate()
        .filter(|(_, l)| l.starts_with(start))
        .nth(nth)
        .map(|(i, _)| i)
        .unwrap_or_else(|| panic!("{start:?} #{nth} not in:\n{out}"));
    lines[at..]
        .iter()
        .take_while(|l| !l.trim().is_empty())
        .copied()
        .collect()
}

#[test]
fn the_recap_starts_where_the_player_last_posted_and_tells_moves_made_for_them() {
    let out = play(
        &format!(
            "{OPENING}ann: !away 7d
@+1h
mod: !act @ann **build CBSC O3 N5**
bob: **build WLW Shannon**
@+1h
cat: **build GSW G11 Drogheda**
@+1d
mod: !act @ann **dividends**
mod: !draw white pink black
@+1d
bob: **call for dividends**
mod: !draw black black black
cat: **auction WLW**
@+1d
ann: !recap
bob: thanks, back later
zed: !recap 7d
ann: !recap 7d
bob: !recap
"
        ),
        &[],
    );
    // ann, whose moves the moderator made while she was away, hears about them and about
    // everything since she last posted (`!away`): two dividend calls on two lines.
    let asked = out.matches("📜 ann, since you last posted").count();
    let ann = block(&out, "📜 ann, since you last posted", asked - 1);
    assert_eq!(
        ann,
        [
            "📜 ann, since you last posted 3d2h ago:",
            "· mod made **build CBSC O3 N5** for you",
            "· WLW built to Shannon",
            "· GSW built to Drogheda",
            "· mod made **dividends** for you",
            "· dividends paid: WLW £6 a share; GSW £6 a share",
            "· dividends paid: GSW £6 a share",
            "· you passed automatically: you were away",
            "· cat won the WLW £10 share for £10",
        ],
        "{out}"
    );
    // A spectator's week is complete: the five auctions, the builds and both calls.
    let zed = block(&out, "📜 Since", 0);
    assert_eq!(zed.len(), 12, "{zed:#?}");
    assert!(
        zed.contains(&"· cat won the MGW £6 share for £6"),
        "{zed:#?}"
    );
    assert!(!zed.iter().any(|l| l.contains("more (")), "{zed:#?}");
    // The end is far (16 cubes): not said.
    assert!(!zed.iter().any(|l| l.contains("end in sight")), "{zed:#?}");
    // ann is told about herself as "you".
    let ann_week = block(&out, "📜 Since", 1);
    assert!(
        ann_week.contains(&"· you won the CBSC £7 share for £7"),
        "{ann_week:#?}"
    );
    assert!(
        !ann_week.iter().any(|l| l.contains("ann won")),
        "{ann_week:#?}"
    );
    // bob's chat counts as posting: nothing has happened since.
    assert!(
        out.contains("📜 bob: nothing has happened since you last posted now."),
        "{out}"
    );
}

#[test]
fn a_player_who_has_not_posted_yet_is_told_what_happened_since_the_game_began() {
    let out = play(
        "@2026-03-01T12:00:00Z
mod: !setup privates ann bob cat dice:manual dealer:1
mod: !deal 10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,blue
ann: **buy**
@+1d
bob: **buy**
@+1d
cat: !recap
",
        &[],
    );
    // The ping that asks cat to move, and cat's own `!recap` a day later.
    let ping = block(&out, "📜 cat,", 0);
    assert_eq!(
        ping,
        [
            "📜 cat, since the game began 1d ago:",
            "· ann took A for $5",
            "· bob took B for $10",
        ],
        "{out}"
    );
    assert_eq!(
        block(&out, "📜 cat,", 1)[0],
        "📜 cat, since the game began 2d ago:"
    );
    assert!(!out.contains("since you last posted"), "{out}");
}

#[test]
fn the_end_is_in_sight_only_when_near_and_never_after_the_game() {
    let manual = binary::transcript("complete_manual.txt");
    // Before the last two calls: 6 cubes, two calls to go.
    let cut = manual
        .find("bob: **dividends**\nmod: !draw pink pink black")
        .expect("turn 11");
    let out = play(&format!("{}zed: !recap 1d\n", &manual[..cut]), &[]);
    assert!(
        out.contains("· end in sight: 6 cubes left in the supply (about 2 dividend calls)"),
        "{}",
        &out[out.len().saturating_sub(600)..]
    );
    let out = play(&format!("{manual}zed: !recap 1d\n"), &[]);
    let over = out.rfind("zed: !recap").unwrap_or(0);
    assert!(!out[over..].contains("end in sight"), "{}", &out[over..]);
}

#[test]
fn the_status_has_the_score_and_the_clock_and_anyone_reads_the_clock() {
    let out = play(
        &format!(
            "{OPENING}ann: !away 7d
@+1h
mod: !act @ann **build CBSC O3 N5**
bob: **build WLW Shannon**
@+1h
zed: !status
cat: !clock
"
        ),
        &[],
    );
    let status = block(&out, "📊", 0);
    assert_eq!(
        status,
        [
            "📊 **Standing** (net worth): 1. cat £23 · 2. ann £20 · 2. bob £20",
            "⏳ The end: 22 cubes left in the supply, about 8 dividend calls to go.",
            "⏱️ To act: cat's turn, waiting since 1h ago; the clock runs out in 1d23h (2026-03-03 13:00 UTC), a reminder in 23h (2026-03-02 13:00 UTC).",
            "🏖️ Away: ann until 2026-03-08 12:00 UTC.",
        ],
        "{out}"
    );
    assert!(!out.contains("only a moderator may `!clock`"), "{out}");
    assert!(
        out.contains("⏱️ Clock of console-1: turns 2d, auctions 1d"),
        "{out}"
    );
    // Changing it stays with moderators.
    let out = play(&format!("{OPENING}cat: !clock turn:1h\n"), &[]);
    assert!(
        out.contains("❌ cat: only a moderator may `!clock turn:1h`"),
        "{out}"
    );
    // Privates: the running score and the round.
    let out = play(
        "mod: !setup privates ann bob cat dice:manual dealer:1
mod: !deal 10 5 25 50 10 35 40 chips:red,blue,green,red,black,yellow,blue
ann: **buy**
zed: !status
",
        &[],
    );
    let status = block(&out, "📊", 0);
    assert_eq!(
        status[0], "📊 **Standing** (net worth): 1. bob $120 · 1. cat $120 · 3. ann $115",
        "{out}"
    );
    assert_eq!(
        status[1],
        "⏳ The end: round 1 of 7, 7 rounds to play, this one included."
    );
}

#[test]
fn an_honest_ending_names_every_holder_and_carries_the_chart_when_the_automa_ends_it() {
    let dir = tempfile::tempdir().expect("temp dir");
    let files = dir.path().join("files");
    std::fs::create_dir_all(&files).expect("a folder");
    let folder = files.to_string_lossy().to_string();
    let (out, _) = binary::play(
        &dir.path().join("automa.db"),
        "mod: !setup dan automa automa automa\nmod: !sub @dan automa\nzed: !status\n",
        &[
            "--seed",
            &"1".repeat(64),
            "--automa",
            "cheap",
            "--attachments",
            &folder,
        ],
    );
    let over = out
        .find("**Game over.**")
        .expect("the automa plays to the end");
    let ending = &out[over..];
    // dan is named with the seat the automa took over from him.
    assert!(
        ending.contains(") was held by dan and Automa 4 from #"),
        "{ending}"
    );
    // The automa made the last move: the chart comes with the final report all the same.
    assert!(ending.contains("chart-console-1.png"), "{ending}");
    assert!(files.join("chart-console-1.png").exists());
    // The seat notice lists the automa in order, under the status; the automa's own posts,
    // which name their seat, carry none.
    assert!(
        out.contains("): Automa 1, Automa 2, Automa 3, Automa 4."),
        "{ending}"
    );
    let mut automa_posts = 0;
    for post in out.split("\n\n").filter(|p| p.starts_with("🤖 **Automa")) {
        automa_posts += 1;
        assert!(!post.contains("🤖 Automa seats"), "{post}");
    }
    assert!(automa_posts > 20, "{automa_posts} automa posts");
    // Privates says "Game over" once.
    let (out, _) = binary::play(
        &dir.path().join("privates.db"),
        &binary::transcript("privates_manual.txt"),
        &[],
    );
    assert_eq!(out.matches("**Game over.**").count(), 1, "{out}");
    assert!(out.contains("**Game over.** bob wins with 435 (P14, P15)."));
}

#[test]
fn a_shared_win_shares_the_rank_and_names_who_held_the_automa_seat() {
    let out = play(
        &format!("{}zed: !status\n", binary::transcript("tie_automa.txt")),
        &["--automa", "cheap"],
    );
    let over = out.find("**Game over.**").expect("the game ends");
    let report: Vec<&str> = out[over..].lines().take(4).collect();
    assert_eq!(
        report,
        [
            "**Game over.** Shared win: ann, cat with £20.",
            "1. ann £20 (cash £13 + shares £7)",
            "1. cat £20 (cash £2 + shares £18)",
            "3. Automa 1 £19 (cash £14 + shares £5)",
        ],
        "{}",
        &out[over..]
    );
    assert!(
        out[over..].contains("👥 Seat 2 (Automa 1) was held by bob and Automa 1 from #23."),
        "{}",
        &out[over..]
    );
    // The status after the end: the final standing, nothing about an end in sight.
    let status = block(&out, "📊", 0);
    assert_eq!(
        status[0],
        "📊 **Final standing** (net worth): 1. ann £20 · 1. cat £20 · 3. Automa 1 £19"
    );
    assert!(!status.iter().any(|l| l.starts_with("⏳")), "{status:#?}");
}

#[test]
fn smaller_items_away_cap_log_count_moves_units_and_undo() {
    let out = play(
        &format!(
            "{OPENING}ann: !away 7d
zed: !log 12
mod: !undo
"
        ),
        &[],
    );
    // The away cap is spent only as time passes: all of it is left now.
    assert!(
        out.contains("meanwhile: up to 7d of the away cap, spent only as the time passes (7d of it left now)"),
        "{out}"
    );
    // `!log 12` shows twelve entries.
    let log = block(&out, "**Log of console-1**", 0);
    assert_eq!(log.len(), 13, "a heading and twelve entries: {log:#?}");
    // Manual dice: no promise of the same dice after an undo.
    let undone = block(&out, "↩️", 0);
    assert!(!undone[0].contains("same dice"), "{undone:#?}");
    // `!moves` gives each hex's cost with its unit.
    let out = play(&format!("{OPENING}ann: !moves\n"), &[]);
    assert!(out.contains("next to its track: N3 2 BP, N4 2 BP"), "{out}");
}

/// A player whose time ran out hears why the automa moved for them (found playing at the
/// console: the recap said only "**pass** was made for you").
#[test]
fn the_recap_tells_a_move_made_because_time_ran_out() {
    let out = play(
        "@2026-11-01T18:00:00Z
mod: !setup privates ann bob cat
mod: !clock turn:48h timeout:automa
@+49h
ann: !recap
bob: !recap
cat: !recap
",
        &["--automa", "cheap"],
    );
    let late = ["ann", "bob", "cat"]
        .into_iter()
        .find(|p| out.contains(&format!("⌛ {p}'s time ran out")))
        .unwrap_or_else(|| panic!("a timeout in:\n{out}"));
    let recap = block(&out, &format!("📜 {late}, since"), 0).join("\n");
    assert!(
        recap.contains("your time ran out: the automa made **"),
        "{recap}\n---\n{out}"
    );
}
