//! Secrets and isolation (issue #6.5).
//!
//! - The dice seed is never in any reply (text or attachment, e.g. the `!audit` export), nor in
//!   the state dump, before the end of the game or the moderator's `!reveal confirm`; not even
//!   a 12-hex-digit piece of it. After the reveal it is, and the audit record verifies.
//! - Tables are isolated: moves in one channel never change another channel's game, log or
//!   active game; the same message id in two channels is two messages (no deduplication
//!   across channels); a player's move in the wrong channel is judged by that channel's game.

mod common;

use common::{legal_message, message, Rng, SEED};
use gaugebot::dice;
use gaugebot::table::{Response, Table, Verdict};
use gaugebot::tables::Tables;
use gaugebot_store::SqliteStore;
use gaugebot_table::Store;
use irish_gauge::Game;

/// Every 12-hex-digit window of the seed, in both cases.
fn seed_pieces(seed: &str) -> Vec<String> {
    let mut pieces = Vec::new();
    for i in 0..=seed.len() - 12 {
        pieces.push(seed[i..i + 12].to_lowercase());
        pieces.push(seed[i..i + 12].to_uppercase());
    }
    pieces
}

/// Everything a response shows: texts and attachments (as text where they are text).
fn shown(response: &Response) -> String {
    let mut all = response.text();
    for reply in &response.replies {
        if let Some(a) = &reply.attachment {
            all.push('\n');
            all.push_str(&a.filename);
            all.push('\n');
            all.push_str(&String::from_utf8_lossy(&a.bytes));
        }
    }
    all
}

fn assert_secret(what: &str, text: &str, pieces: &[String]) {
    if let Some(p) = pieces.iter().find(|p| text.contains(p.as_str())) {
        panic!("the seed leaked (…{p}…) in {what}:\n{text}");
    }
}

/// Information commands anyone may send, and moderator commands that must not reveal.
const PROBES: [(&str, &str, bool); 11] = [
    ("ann", "!audit", false),
    ("zed", "!audit", false),
    ("bob", "!status", false),
    ("cat", "!log 50", false),
    ("dan", "!moves", false),
    ("ann", "!help", false),
    ("ann", "!help dice", false),
    ("ann", "!reveal confirm", false),
    ("mod", "!reveal", true),
    ("mod", "!draw pink pink pink", true),
    ("mod", "!undo", true),
];

/// Plays an audited game to its end with probes between moves; the number of texts checked.
async fn play_probing(table: &mut Table, rng: &mut Rng, pieces: &[String], id: &mut u64) -> usize {
    for checked in 0..5_000 {
        if table.state::<Game>().is_some_and(|g| g.is_finished()) {
            return checked;
        }
        let msg = if rng.chance(1, 4) {
            let (author, text, moderator) = *rng.choose(&PROBES);
            message(*id, author, text, moderator)
        } else {
            legal_message(table, rng, *id).expect("audited dice leave a player to act")
        };
        *id += 1;
        let response = table.handle(&msg).await;
        let finished = table.state::<Game>().is_some_and(|g| g.is_finished());
        if !finished {
            assert_secret(&msg.text, &shown(&response), pieces);
            assert_eq!(table.audit_export().and_then(|e| e.seed), None);
            let dump = serde_json::to_string(&table.dump()).expect("dump");
            assert_secret("the state dump", &dump, pieces);
        }
    }
    panic!("the game did not end in 5,000 messages");
}

#[tokio::test]
async fn the_seed_stays_secret_until_the_end_or_the_reveal() {
    let store = SqliteStore::open(":memory:").await.expect("store");
    let mut table = common::table_on(store, "secret", Some(SEED)).await;
    let pieces = seed_pieces(SEED);
    let setup = table
        .handle(&message(1, "mod", "!setup ann bob cat dan", true))
        .await;
    assert_eq!(setup.verdict, Verdict::Accepted);
    assert_secret("!setup", &shown(&setup), &pieces);
    assert!(shown(&setup).contains(&dice::Seed::from_hex(SEED).expect("seed").commitment()));
    let mut rng = Rng::new(5);
    let mut id = 2;
    let checked = play_probing(&mut table, &mut rng, &pieces, &mut id).await;
    // The game is over: the seed is public, in `!audit` too, and the record verifies.
    let audit = table.handle(&message(id, "zed", "!audit", false)).await;
    assert!(shown(&audit).contains(SEED), "the seed is shown at the end");
    let export = table.audit_export().expect("export");
    assert_eq!(export.seed.as_deref(), Some(SEED));
    assert!(gaugebot::games::verify(&export).expect("verifies").is_ok());

    // A second game, revealed by the moderator mid-game: secret before, public after.
    let setup = table
        .handle(&message(id + 1, "mod", "!setup ann bob cat", true))
        .await;
    assert_eq!(setup.verdict, Verdict::Accepted, "{}", setup.text());
    id += 2;
    for _ in 0..30 {
        let msg = legal_message(&table, &mut rng, id).expect("a move");
        id += 1;
        let response = table.handle(&msg).await;
        assert_secret(&msg.text, &shown(&response), &pieces);
    }
    let refused = table.handle(&message(id, "mod", "!reveal", true)).await;
    assert_eq!(refused.verdict, Verdict::Refused);
    assert_secret("!reveal without confirm", &shown(&refused), &pieces);
    let revealed = table
        .handle(&message(id + 1, "mod", "!reveal confirm", true))
        .await;
    assert_eq!(revealed.verdict, Verdict::Accepted, "{}", revealed.text());
    assert!(shown(&revealed).contains(SEED));
    // After the reveal, draws are the moderator's; undo is closed.
    let undo = table.handle(&message(id + 2, "mod", "!undo", true)).await;
    assert_eq!(undo.verdict, Verdict::Refused);
    println!(
        "secrets: {checked} replies, attachments and state dumps of a whole audited game checked for every 12-digit piece of the seed; none before the end; a moderator's reveal shows it"
    );
}

#[tokio::test]
async fn a_table_never_touches_another() {
    let store = SqliteStore::open(":memory:").await.expect("store");
    let tables = Tables::new(store.shared(), common::host(Some(SEED)));
    // The same message id starts a game in both channels.
    for channel in ["alpha", "beta"] {
        let response = tables
            .handle(channel, &message(1, "mod", "!setup ann bob cat dan", true))
            .await
            .expect("table");
        assert_eq!(
            response.verdict,
            Verdict::Accepted,
            "{channel}: {}",
            response.text()
        );
    }
    let alpha_id = store
        .active_game("alpha")
        .await
        .expect("db")
        .expect("game")
        .id;
    let beta_id = store
        .active_game("beta")
        .await
        .expect("db")
        .expect("game")
        .id;
    assert_ne!(alpha_id, beta_id);
    let game_of = |channel: &'static str| {
        let tables = &tables;
        async move {
            let table = tables.table(channel).await.expect("table");
            let table = table;
            table.state::<Game>().cloned().expect("game")
        }
    };
    let beta_before = game_of("beta").await;
    let beta_log = store.log(&beta_id).await.expect("log");
    let mut rng = Rng::new(8);
    let mut moved = 0;
    for id in 2..60u64 {
        let msg = {
            let table = tables.table("alpha").await.expect("table");
            let table = table;
            legal_message(&table, &mut rng, id)
        };
        let Some(msg) = msg else { break };
        let response = tables.handle("alpha", &msg).await.expect("table");
        assert_eq!(response.verdict, Verdict::Accepted, "{}", response.text());
        moved += 1;
        assert_eq!(
            game_of("beta").await,
            beta_before,
            "a move in alpha changed beta"
        );
    }
    assert!(moved > 10);
    assert_eq!(store.log(&beta_id).await.expect("log"), beta_log);
    // alpha's ids, used in beta, are new messages there: beta's next move with id 2 is taken.
    let msg = {
        let table = tables.table("beta").await.expect("table");
        let table = table;
        legal_message(&table, &mut rng, 2).expect("a move")
    };
    let alpha_before = game_of("alpha").await;
    let response = tables.handle("beta", &msg).await.expect("table");
    assert_eq!(response.verdict, Verdict::Accepted, "{}", response.text());
    assert_ne!(game_of("beta").await, beta_before);
    assert_eq!(game_of("alpha").await, alpha_before);
    // An undo, a manual draw and a forced new game in beta leave alpha alone.
    for (id, text) in [
        (3, "!undo"),
        (4, "!draw pink pink pink"),
        (5, "!setup ann bob cat force"),
    ] {
        tables
            .handle("beta", &message(id, "mod", text, true))
            .await
            .expect("table");
        assert_eq!(
            game_of("alpha").await,
            alpha_before,
            "{text} in beta changed alpha"
        );
    }
    assert_eq!(
        store.active_game("alpha").await.expect("db").map(|r| r.id),
        Some(alpha_id.clone())
    );
    assert_ne!(
        store.active_game("beta").await.expect("db").map(|r| r.id),
        Some(beta_id)
    );
    // Both reload from the store as they are.
    for channel in ["alpha", "beta"] {
        let fresh = common::table_on(store.clone(), channel, Some(SEED)).await;
        assert_eq!(
            fresh.state::<Game>().cloned(),
            Some(game_of(channel).await),
            "{channel}"
        );
    }
}
