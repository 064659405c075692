//! Bad-input campaign (issue #6.3): generated messages through the message parser
//! (`extract` + `parse_action`), random action sequences (legal and not) through the engine,
//! and generated messages through the whole table (in-memory store), with the nasty cases:
//! `***bid 7***`, bold in code and quotes, zero-width and look-alike characters, huge and
//! negative numbers, 8,000-character messages, hundreds of bold segments, unknown mentions.
//!
//! Checked: no panic; no hang (every call is timed, and a watchdog fails the test when the
//! campaign stops making progress); every refusal has a message; a refused engine action or
//! a refused single command leaves the game exactly as it was; printed actions parse back to
//! themselves; the table reloaded from its store equals the table.
//!
//! Counts (CI form / long form):
//! - `GAUGEBOT_FUZZ_MESSAGES` parser messages (100,000; the long form runs 1,000,000),
//! - `GAUGEBOT_FUZZ_ACTIONS` engine actions (100,000; long 1,000,000),
//! - `GAUGEBOT_FUZZ_TABLE` table messages (3,000; long 100,000).
//!
//! Long form: `GAUGEBOT_FUZZ_MESSAGES=1000000 GAUGEBOT_FUZZ_ACTIONS=1000000
//! GAUGEBOT_FUZZ_TABLE=100000 cargo test --release -p gaugebot --test reliability_fuzz -- --nocapture`

mod common;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{env_count, message, Rng, SEED};
use gaugebot::discord::present::{posts, MESSAGE_LIMIT};
use gaugebot::extract::{extract, Commands, MAX_COMMANDS_PER_MESSAGE, MAX_MESSAGE_CHARS};
use gaugebot::table::{Incoming, Mention, Table, Verdict};
use gaugebot_store::SqliteStore;
use irish_gauge::board::HEX_COUNT;
use irish_gauge::playout::{random_action, random_draw};
use irish_gauge::{parse_action, Action, Actor, Colour, Game, HexId, Railway, Setup};

/// The longest the campaign may go without progress before the watchdog fails it.
const STALL_LIMIT: Duration = Duration::from_secs(120);

/// Runs `work` on its own thread under a watchdog: `work` bumps the counter as it goes; the
/// test fails if the counter stops moving for [`STALL_LIMIT`] (a hang) or `work` panics.
fn with_watchdog<T: Send + 'static>(
    name: &str,
    work: impl FnOnce(Arc<AtomicU64>) -> T + Send + 'static,
) -> T {
    let progress = Arc::new(AtomicU64::new(0));
    let counter = progress.clone();
    let handle = std::thread::Builder::new()
        .name(name.to_string())
        .stack_size(16 << 20)
        .spawn(move || work(counter))
        .expect("thread");
    let mut last = (0, Instant::now());
    loop {
        if handle.is_finished() {
            return handle
                .join()
                .unwrap_or_else(|e| std::panic::resume_unwind(e));
        }
        std::thread::sleep(Duration::from_millis(50));
        let now = progress.load(Ordering::Relaxed);
        if now != last.0 {
            last = (now, Instant::now());
        }
        assert!(
            last.1.elapsed() < STALL_LIMIT,
            "{name}: no progress for {STALL_LIMIT:?} after {now} items: a hang"
        );
    }
}

/// The slowest call so far and what it was.
#[derive(Debug, Default)]
struct Slowest {
    took: Duration,
    what: String,
}

impl Slowest {
    fn note(&mut self, took: Duration, what: impl FnOnce() -> String) {
        if took > self.took {
            self.took = took;
            self.what = what().chars().take(90).collect();
        }
    }
}

impl std::fmt::Display for Slowest {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.2} ms ({})",
            self.took.as_secs_f64() * 1000.0,
            self.what
        )
    }
}

/// Times one call, for the campaign's report of its slowest call. No limit is asserted (a hang
/// is the watchdog's to catch; how fast reading is, `engine/benches/phrasing.rs` measures).
fn timed<T>(f: impl FnOnce() -> T) -> (T, Duration) {
    let start = Instant::now();
    let out = f();
    (out, start.elapsed())
}

const WORDS: &[&str] = &[
    "bid",
    "BID",
    "Bid",
    "pass",
    "PASS",
    "auction",
    "build",
    "interest",
    "special",
    "si",
    "dividends",
    "dividend",
    "call",
    "for",
    "bdi",
    "pas",
    "buidl",
    "CBSC",
    "WLW",
    "BCD",
    "GSW",
    "MGW",
    "gsw",
    "XYZ",
    "K3",
    "L3",
    "L9",
    "L10",
    "Shannon",
    "Shanon",
    "New",
    "Ross",
    "Sligo",
    "Cork",
    "Dublin",
    "Z99",
    "A0",
    "white",
    "pink",
    "black",
    "PINK",
    "purple",
    "7",
    "£7",
    "$7",
    "7£",
    "£",
    "-5",
    "0",
    "12",
    "4294967295",
    "4294967296",
    "99999999999999999999",
    "1e3",
    "0x10",
    "7.5",
    "٣",
    "７",
    "bid 7",
    "pass",
    "auction GSW 6",
    "build WLW K3 L3",
    "interest Sligo pink",
    "call for dividends",
];
const MARKUP: &[&str] = &[
    "**", "***", "*", "__", "_", "`", "```", "> ", ">>> ", "\n", "||", "~~", "\r\n", "\t", " ",
    "  ", "**\n**", "* *", "\\*\\*",
];
const NASTY: &[&str] = &[
    "\u{200B}",
    "\u{200C}",
    "\u{200D}",
    "\u{200E}",
    "\u{200F}",
    "\u{2060}",
    "\u{FEFF}",
    "\u{00AD}",
    "а",
    "е",
    "о",
    "р",
    "с",
    "ѕ",
    "і",
    "Β",
    "\u{0301}",
    "\u{202E}",
    "\u{00A0}",
    "＊",
    "∗",
    "🚂",
    "\0",
    "\u{FFFD}",
    "ß",
    "İ",
    "ﬁ",
    "\u{1F3F4}\u{E0067}",
];
const MENTIONS: &[&str] = &[
    "<@999>",
    "<@!998>",
    "<@>",
    "<@abc>",
    "@everyone",
    "<@12345678901234567890>",
    "<#1>",
];
const BANG: &[&str] = &[
    "!",
    "!!",
    "!setup",
    "!undo",
    "!draw",
    "!log",
    "!log 99999999999",
    "!log -1",
    "!help",
    "!help build",
    "!status",
    "!moves",
    "!audit",
    "!reveal",
    "!map",
    "!SETUP",
    "!setup force",
    "!draw pink black",
    "! status",
    "!ünïcode",
];

/// A generated message, from fragments, from random characters, or one of the big ones.
fn generate(rng: &mut Rng) -> String {
    match rng.below(100) {
        0 => {
            // Around 8,000 characters.
            let mut s = String::new();
            while s.chars().count() < 7_950 + rng.below(100) {
                s.push_str(rng.pick(WORDS));
                s.push(' ');
            }
            s
        }
        1 => {
            // Hundreds of bold segments.
            let n = 100 + rng.below(400);
            (0..n)
                .map(|_| format!("**{}** ", rng.pick(WORDS)))
                .collect()
        }
        2..=11 => {
            // Random characters from ASCII, Latin, Cyrillic, markup and invisible ranges.
            let len = rng.below(200);
            (0..len)
                .map(|_| {
                    let ranges: &[(u32, u32)] = &[
                        (0x20, 0x7E),
                        (0x2A, 0x2A),
                        (0xA0, 0x17F),
                        (0x400, 0x45F),
                        (0x200B, 0x200F),
                        (0x2060, 0x2064),
                        (0x1F680, 0x1F6FF),
                        (0, 0x1F),
                    ];
                    let (lo, hi) = *rng.choose(ranges);
                    char::from_u32(lo + rng.below((hi - lo + 1) as usize) as u32).unwrap_or('?')
                })
                .collect()
        }
        _ => {
            let mut s = String::new();
            if rng.chance(1, 8) {
                s.push_str(rng.pick(BANG));
                s.push(' ');
            }
            for _ in 0..rng.below(24) {
                match rng.below(12) {
                    0..=2 => s.push_str(rng.pick(WORDS)),
                    3..=4 => {
                        // A bold group of a few words, now and then with something nasty.
                        s.push_str("**");
                        for _ in 0..1 + rng.below(3) {
                            s.push_str(rng.pick(WORDS));
                            if rng.chance(1, 6) {
                                s.push_str(rng.pick(NASTY));
                            }
                            s.push(' ');
                        }
                        s.push_str("**");
                    }
                    5..=7 => s.push_str(rng.pick(MARKUP)),
                    8 => s.push_str(rng.pick(NASTY)),
                    9 => s.push_str(rng.pick(MENTIONS)),
                    _ => s.push(' '),
                }
                if rng.chance(1, 2) {
                    s.push(' ');
                }
            }
            s
        }
    }
}

/// The hand-picked nasty messages; every one goes through the parser and the table.
fn nasty_cases() -> Vec<String> {
    let mut cases: Vec<String> = [
        "***bid 7***",
        "** bid 7 **",
        "**bid 7",
        "bid 7**",
        "****",
        "** **",
        "`**bid 7**`",
        "```\n**bid 7**\n```",
        "```**bid 7**",
        "> **bid 7**",
        ">>> **bid 7**\n**pass**",
        "**bid\u{200B} 7**",
        "**\u{200B}**",
        "**bіd 7**",
        "**раss**",
        "**bid ７**",
        "**bid 99999999999999999999**",
        "**bid 4294967296**",
        "**bid -5**",
        "**bid -0**",
        "**bid 0**",
        "**auction GSW -1**",
        "**auction GSW 99999999999999999999**",
        "**build WLW**",
        "**build WLW Shanon**",
        "**build**",
        "**interest Sligo**",
        "**interest Atlantis pink**",
        "**call for**",
        "**dividends now**",
        "!setup <@999> <@998> x",
        "!setup <@999> <@998> <@997>",
        "!setup <@999> <@999> <@998>",
        "!setup <@abc> b c",
        "!setup a b c dice:manual",
        "!setup a b c dice:manual order:1,2 cities:1,2,3,4,5,6,7,8",
        "!setup a b c dice:manual order:1,2,3 cities:1,2,3,4,5,6,7,99",
        "!setup a b c dice:manual order:9,9,9 cities:1,1,1,1,1,1,1,1",
        "!setup a b c d e f",
        "!setup a b c force",
        "!setup a;b c d",
        "!draw",
        "!draw pink pink pink pink pink pink pink",
        "!draw purple",
        "!log 99999999999999999999",
        "!log -3",
        "!undo",
        "!reveal",
        "!reveal confirm",
        "!help \u{202E}",
        "!",
        "!!!",
        "\u{FEFF}!status",
        "",
        " ",
        "\n\n\n",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    cases.push(format!("**bid 7** {}", "x".repeat(8_000)));
    cases.push("**pass** ".repeat(300));
    cases.push("**bid 7**".repeat(MAX_COMMANDS_PER_MESSAGE));
    cases.push("*".repeat(5_000));
    cases.push("**".repeat(1_999));
    cases.push("`".repeat(3_999));
    cases.push(format!("**{}**", "bid ".repeat(900)));
    cases.push(format!("**build WLW {}**", "K3 ".repeat(1_000)));
    cases
}

/// Checks what `extract` made of a message; returns the bold segments.
fn check_extract(text: &str) -> Vec<String> {
    match extract(text, "!") {
        Commands::None => Vec::new(),
        Commands::Refused(reason) => {
            assert!(
                !reason.trim().is_empty(),
                "a refusal without a reason: {text:?}"
            );
            Vec::new()
        }
        Commands::Bang { name, .. } => {
            assert!(
                !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric()),
                "bang name {name:?} from {text:?}"
            );
            assert_eq!(name, name.to_ascii_lowercase());
            Vec::new()
        }
        Commands::Bold(segments) => {
            assert!(
                text.chars().count() <= MAX_MESSAGE_CHARS,
                "an over-long message was read: {} chars",
                text.chars().count()
            );
            assert!(
                (1..=MAX_COMMANDS_PER_MESSAGE).contains(&segments.len()),
                "{} segments from {text:?}",
                segments.len()
            );
            for s in &segments {
                assert!(!s.is_empty(), "an empty segment from {text:?}");
                assert_eq!(s.trim(), s, "untrimmed segment from {text:?}");
                assert!(
                    !s.chars()
                        .any(|c| matches!(c, '\u{200B}'..='\u{200F}' | '\u{2060}'..='\u{2064}' | '\u{FEFF}' | '\u{00AD}')),
                    "an invisible character survived in {s:?}"
                );
                assert!(!s.contains('\n'), "a segment spans lines: {s:?}");
            }
            segments
        }
    }
}

/// Checks `parse_action` on a text: errors explain themselves, actions print back.
fn check_parse(text: &str) -> bool {
    match parse_action(text) {
        Ok(action) => {
            let printed = action.to_string();
            assert_eq!(
                parse_action(&printed).as_ref(),
                Ok(&action),
                "{text:?} parsed as {action:?}, printed {printed:?}, which reads differently"
            );
            if let Action::Bid { amount } = action {
                assert!(
                    !text.contains('-'),
                    "a negative bid {text:?} read as {amount}"
                );
            }
            true
        }
        Err(e) => {
            assert!(
                !e.to_string().trim().is_empty(),
                "an empty error for {text:?}"
            );
            false
        }
    }
}

#[test]
fn the_message_parser_survives_generated_messages() {
    let count = env_count("GAUGEBOT_FUZZ_MESSAGES", 100_000);
    let seed = env_count("GAUGEBOT_FUZZ_SEED", 1);
    let (parsed, segments, slowest, took) = with_watchdog("parser fuzz", move |progress| {
        let started = Instant::now();
        let mut rng = Rng::new(seed);
        let (mut parsed, mut segments, mut slowest) = (0u64, 0u64, Slowest::default());
        // The board is built on first use; that one-time cost is not a parse.
        assert!(parse_action("build WLW K3").is_ok());
        let nasty = nasty_cases();
        for i in 0..count {
            let text = if (i as usize) < nasty.len() {
                nasty[i as usize].clone()
            } else {
                generate(&mut rng)
            };
            let (found, t) = timed(|| check_extract(&text));
            slowest.note(t, || {
                format!("extract of {} chars: {text:?}", text.chars().count())
            });
            for s in &found {
                segments += 1;
                let (ok, t) = timed(|| check_parse(s));
                slowest.note(t, || {
                    format!("parse of a {}-char segment: {s:?}", s.chars().count())
                });
                parsed += u64::from(ok);
            }
            // The raw text as one command, too (no bold needed to reach the parser here).
            let (_, t) = timed(|| check_parse(&text));
            slowest.note(t, || {
                format!("parse of {} raw chars: {text:?}", text.chars().count())
            });
            progress.fetch_add(1, Ordering::Relaxed);
        }
        (parsed, segments, slowest, started.elapsed())
    });
    println!(
        "parser fuzz: {count} messages ({:.0}/s), {segments} bold segments, {parsed} of them actions; slowest call {slowest}; no panic, every refusal explained",
        count as f64 / took.as_secs_f64(),
    );
    assert!(segments > count / 10, "the generator makes too little bold");
    assert!(parsed > 0, "the generator never makes a valid action");
}

#[test]
fn the_parser_reads_the_nasty_cases_as_documented() {
    let bold = |t: &str| match extract(t, "!") {
        Commands::Bold(s) => s,
        _ => Vec::new(),
    };
    assert_eq!(bold("***bid 7***"), ["bid 7"]);
    assert_eq!(bold("** bid 7 **"), ["bid 7"]);
    assert_eq!(bold("**bid\u{200B} 7**"), ["bid 7"]);
    assert!(bold("`**bid 7**`").is_empty());
    assert!(bold("```\n**bid 7**\n```").is_empty());
    assert!(bold("> **bid 7**").is_empty());
    assert!(bold(">>> **bid 7**\n**pass**").is_empty());
    // Look-alikes are not commands: Cyrillic і and а are refused with a reason.
    assert!(parse_action("bіd 7").is_err());
    assert!(parse_action("раss").is_err());
    assert!(parse_action("bid ７").is_err());
    let huge = parse_action("bid 99999999999999999999").expect_err("too big");
    assert!(huge.to_string().contains("more money"), "{huge}");
    assert!(parse_action("bid -5").is_err());
    assert!(matches!(
        extract(&"**pass** ".repeat(300), "!"),
        Commands::Refused(_)
    ));
    assert!(matches!(
        extract(&format!("**pass** {}", "x".repeat(8_000)), "!"),
        Commands::Refused(_)
    ));
}

/// A random action, legal or not: any variant, railway, hex, colour and amount.
fn arbitrary_action(rng: &mut Rng) -> Action {
    let railway = *rng.choose(&Railway::ALL);
    let amounts = [0, 1, 5, 7, 12, 20, 21, 40, 100, u32::MAX / 2, u32::MAX];
    let amount = if rng.chance(1, 2) {
        *rng.choose(&amounts)
    } else {
        rng.below(30) as u32
    };
    match rng.below(6) {
        0 => Action::Bid { amount },
        1 => Action::Pass,
        2 => Action::Auction {
            railway,
            opening_bid: rng.chance(1, 2).then_some(amount),
        },
        3 => Action::Build {
            railway,
            hexes: (0..rng.below(8))
                .map(|_| HexId(rng.below(HEX_COUNT) as u8))
                .collect(),
        },
        4 => Action::SpecialInterest {
            town: HexId(rng.below(HEX_COUNT) as u8),
            colour: *rng.choose(&Colour::ALL),
        },
        _ => Action::CallDividends,
    }
}

fn random_setup(rng: &mut Rng) -> Setup {
    let n = 3 + rng.below(3);
    let mut order: Vec<u8> = (1..=n as u8).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.below(i + 1));
    }
    let mut pool: Vec<u8> = (1..=12).collect();
    let mut cities = [0u8; 8];
    for c in &mut cities {
        *c = pool.remove(rng.below(pool.len()));
    }
    Setup {
        players: (0..n).map(|i| format!("p{i}")).collect(),
        order,
        cities,
    }
}

#[test]
fn the_engine_survives_random_action_sequences() {
    let count = env_count("GAUGEBOT_FUZZ_ACTIONS", 100_000);
    let seed = env_count("GAUGEBOT_FUZZ_SEED", 1);
    let (games, legal, refused, draws, slowest, took) =
        with_watchdog("engine fuzz", move |progress| {
            let started = Instant::now();
            let mut rng = Rng::new(seed);
            let (mut games, mut legal, mut refused, mut draws) = (0u64, 0u64, 0u64, 0u64);
            let mut slowest = Slowest::default();
            let mut game = Game::new(&random_setup(&mut rng)).expect("valid setup");
            let mut tried = 0;
            while tried < count {
                if game.is_finished() {
                    games += 1;
                    game = Game::new(&random_setup(&mut rng)).expect("valid setup");
                }
                tried += 1;
                progress.fetch_add(1, Ordering::Relaxed);
                let before = game.clone();
                if let Some(request) = game.pending_draw() {
                    // A legal draw, or cubes that may not be in the supply or be too many.
                    let cubes = if rng.chance(2, 3) {
                        random_draw(request.supply, request.count, &mut rng.picker())
                    } else {
                        (0..rng.below(6))
                            .map(|_| *rng.choose(&Colour::ALL))
                            .collect()
                    };
                    let (result, t) = timed(|| game.resolve_draw(&cubes));
                    slowest.note(t, || format!("resolve_draw({cubes:?})"));
                    match result {
                        Ok(_) => draws += 1,
                        Err(e) => {
                            assert!(!e.to_string().is_empty());
                            assert_eq!(game, before, "a refused draw changed the game");
                            refused += 1;
                        }
                    }
                    continue;
                }
                let Actor::Player { seat } = game.to_act() else {
                    panic!("no draw pending and nobody to act in an unfinished game");
                };
                let players = game.players().len();
                let (who, action) = if rng.chance(1, 2) {
                    let action = random_action(&game, &mut rng.picker()).expect("a legal action");
                    (seat, action)
                } else {
                    (rng.below(players), arbitrary_action(&mut rng))
                };
                let expect_ok = game.is_legal(who, &action);
                let (result, t) = timed(|| game.play(who, &action));
                slowest.note(t, || format!("play({who}, {action})"));
                match result {
                    Ok(events) => {
                        assert!(expect_ok, "is_legal said no to {action:?}, play said yes");
                        assert!(!events.is_empty(), "{action:?} was accepted without events");
                        legal += 1;
                    }
                    Err(e) => {
                        assert!(!expect_ok, "is_legal said yes to {action:?}, play said {e}");
                        assert!(
                            !e.to_string().trim().is_empty(),
                            "empty error for {action:?}"
                        );
                        assert_eq!(game, before, "a refused {action:?} changed the game");
                        refused += 1;
                    }
                }
            }
            (games, legal, refused, draws, slowest, started.elapsed())
        });
    println!(
        "engine fuzz: {count} actions and draws ({:.0}/s): {legal} legal actions, {draws} draws, {refused} refused (each with a message and no change), {games} games finished; slowest call {slowest}",
        count as f64 / took.as_secs_f64(),
    );
    assert!(games > 0 || count < 10_000, "random play finishes games");
    assert!(legal > 0 && refused > 0);
}

/// A message for the table: a legal move, a nasty case, generated junk, or a `!`-command, from
/// a player, the moderator or a stranger.
fn table_message(table: &Table, rng: &mut Rng, id: u64, nasty: &[String]) -> Incoming {
    let authors = ["ann", "bob", "cat", "dan", "mod", "zed"];
    if let Some(request) = table
        .state::<irish_gauge::Game>()
        .and_then(|g| g.pending_draw())
    {
        // Manual dice (or dice after `!reveal confirm`): the moderator draws.
        if rng.chance(2, 3) {
            let cubes = random_draw(request.supply, request.count, &mut rng.picker());
            let names: Vec<&str> = cubes.iter().map(|c| c.name()).collect();
            return message(id, "mod", &format!("!draw {}", names.join(" ")), true);
        }
    }
    if rng.chance(2, 5) {
        if let Some(msg) = common::legal_message(table, rng, id) {
            return msg;
        }
    }
    let author = *rng.choose(&authors);
    let mut text = match rng.below(10) {
        0..=2 => rng.choose(nasty).clone(),
        3 => rng.choose(BANG).to_string(),
        _ => generate(rng),
    };
    // `!map` renders a picture, seconds in a debug build: it is left out here.
    if matches!(extract(&text, "!"), Commands::Bang { ref name, .. } if name == "map") {
        text = "!status".to_string();
    }
    let mut msg = message(id, author, &text, author == "mod");
    if text.contains("<@") {
        msg.mentions = vec![Mention {
            id: "999".into(),
            name: "nine".into(),
            written: vec!["<@999>".into(), "<@!999>".into()],
        }];
    }
    msg
}

#[test]
fn the_table_answers_every_generated_message_sanely() {
    let count = env_count("GAUGEBOT_FUZZ_TABLE", 3_000);
    let seed = env_count("GAUGEBOT_FUZZ_SEED", 1);
    let summary = with_watchdog("table fuzz", move |progress| {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async move {
            let started = Instant::now();
            let store = SqliteStore::open(":memory:").await.expect("memory store");
            let mut table = common::table_on(store.clone(), "fuzz", Some(SEED)).await;
            let mut rng = Rng::new(seed);
            let nasty = nasty_cases();
            let mut verdicts = std::collections::BTreeMap::<String, u64>::new();
            let mut slowest = Slowest::default();
            let mut games = 0;
            for id in 0..count {
                let msg = if id == 0 {
                    message(0, "mod", "!setup ann bob cat dan", true)
                } else if (id as usize) <= nasty.len() {
                    let text = &nasty[id as usize - 1];
                    let author = if text.starts_with('!') { "mod" } else { "ann" };
                    message(id, author, text, author == "mod")
                } else if table
                    .state::<irish_gauge::Game>()
                    .is_none_or(|g| g.is_finished())
                {
                    games += 1;
                    message(id, "mod", "!setup ann bob cat dan", true)
                } else {
                    table_message(&table, &mut rng, id, &nasty)
                };
                let before = table.state::<irish_gauge::Game>().cloned();
                let start = Instant::now();
                let response = table.handle(&msg).await;
                let took = start.elapsed();
                slowest.note(took, || format!("{:?}", msg.text));
                *verdicts
                    .entry(format!("{:?}", response.verdict))
                    .or_default() += 1;
                for post in posts(&response.replies) {
                    assert!(
                        post.text.chars().count() <= MESSAGE_LIMIT,
                        "a reply over {MESSAGE_LIMIT} characters"
                    );
                }
                let single = !matches!(extract(&msg.text, "!"), Commands::Bold(s) if s.len() > 1);
                match response.verdict {
                    Verdict::Refused => {
                        assert!(
                            !response.text().trim().is_empty(),
                            "a refusal without a reason: {:?}",
                            msg.text
                        );
                        if single {
                            assert_eq!(
                                table.state::<irish_gauge::Game>(),
                                before.as_ref(),
                                "refused but changed: {:?}",
                                msg.text
                            );
                        }
                    }
                    Verdict::Ignored | Verdict::Answered | Verdict::Duplicate => {
                        assert_eq!(
                            table.state::<irish_gauge::Game>(),
                            before.as_ref(),
                            "{:?} changed the game",
                            msg.text
                        );
                    }
                    Verdict::Accepted => {
                        assert!(!response.text().trim().is_empty(), "a silent acceptance");
                    }
                }
                if rng.chance(1, 50) {
                    // A re-delivery is a duplicate (or, for what was never stored, the same).
                    let again = table.handle(&msg).await;
                    if response.verdict == Verdict::Accepted {
                        assert_eq!(again.verdict, Verdict::Duplicate, "{:?}", msg.text);
                    }
                }
                progress.fetch_add(1, Ordering::Relaxed);
            }
            // The table reloaded from its log is the same table.
            let reloaded = common::table_on(store.clone(), "fuzz", Some(SEED)).await;
            assert_eq!(
                reloaded.state::<irish_gauge::Game>(),
                table.state::<irish_gauge::Game>(),
                "the log does not replay to the table"
            );
            (verdicts, games, slowest, started.elapsed())
        })
    });
    let (verdicts, games, slowest, took) = summary;
    println!(
        "table fuzz: {count} messages ({:.0}/s) through one table: {verdicts:?}; {games} new games; slowest {slowest}",
        count as f64 / took.as_secs_f64(),
    );
    assert!(verdicts.get("Accepted").copied().unwrap_or(0) > count / 20);
    assert!(verdicts.get("Refused").copied().unwrap_or(0) > count / 20);
}

#[tokio::test]
async fn the_table_ignores_bold_in_code_and_quotes_and_refuses_look_alikes() {
    let store = SqliteStore::open(":memory:").await.expect("memory store");
    let mut table = common::table_on(store, "nasty", Some(SEED)).await;
    common::setup_game(&mut table, 1).await;
    let game = table.state::<irish_gauge::Game>().cloned().expect("game");
    let Actor::Player { seat } = game.to_act() else {
        panic!("a player bids first");
    };
    let player = game.name(seat).to_string();
    let mut id = 10;
    let mut send = |text: &str| {
        id += 1;
        message(id, &player, text, false)
    };
    for text in [
        "`**pass**`",
        "```\n**pass**\n```",
        "> **pass**",
        ">>> **pass**",
        "pass",
        "*pass*",
    ] {
        let response = table.handle(&send(text)).await;
        assert_eq!(
            response.verdict,
            Verdict::Ignored,
            "{text:?}: {}",
            response.text()
        );
    }
    for text in [
        "**p\u{0430}ss**",
        "**bid \u{FF17}**",
        "**bid -7**",
        "**bid 99999999999999999999**",
    ] {
        let response = table.handle(&send(text)).await;
        assert_eq!(
            response.verdict,
            Verdict::Refused,
            "{text:?}: {}",
            response.text()
        );
        assert!(
            response.text().contains('❌'),
            "{text:?}: {}",
            response.text()
        );
    }
    assert_eq!(
        table.state::<irish_gauge::Game>(),
        Some(&game),
        "nothing above changed the game"
    );
    let response = table.handle(&send("***pass\u{200B}***")).await;
    assert_eq!(response.verdict, Verdict::Accepted, "{}", response.text());
    assert_ne!(table.state::<irish_gauge::Game>(), Some(&game));
}
