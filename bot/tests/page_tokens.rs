//! The web pages' tokens in both databases: one per game, kept once made (a second ask with
//! another fresh token returns the first), found back by the token, unknown tokens find nothing.
//! PostgreSQL's half is skipped without initdb, saying so (a failure under CI).

mod pg;

use std::sync::Arc;

use gaugebot_table::{GameRow, Store};

fn game(id: &str) -> GameRow {
    GameRow {
        id: id.to_string(),
        channel: format!("channel-{id}"),
        kind: "irish-gauge".to_string(),
        engine_version: "1.2.3".to_string(),
        created_at: "2026-01-02T03:04:05Z".parse().expect("a time"),
        setup_json: r#"{"players":[],"setup":{}}"#.to_string(),
        seed_hex: Some("ab".repeat(32)),
        commitment: Some("cd".repeat(32)),
        revealed: false,
        active: true,
    }
}

async fn check(store: Arc<dyn Store>) {
    store.create_game(&game("g1"), "m1").await.expect("a game");
    store.create_game(&game("g2"), "m2").await.expect("a game");
    let first = "0123456789abcdef0123456789abcdef";
    let other = "fedcba9876543210fedcba9876543210";
    assert_eq!(
        store
            .page_token("g1", first)
            .await
            .expect("a token")
            .as_deref(),
        Some(first)
    );
    assert_eq!(
        store
            .page_token("g1", other)
            .await
            .expect("a token")
            .as_deref(),
        Some(first),
        "a game keeps its first token"
    );
    assert_eq!(
        store
            .page_token("g2", other)
            .await
            .expect("a token")
            .as_deref(),
        Some(other)
    );
    let found = store.game_of_page(first).await.expect("a read");
    assert_eq!(found.map(|g| g.id), Some("g1".to_string()));
    assert!(store
        .game_of_page("00000000000000000000000000000000")
        .await
        .expect("a read")
        .is_none());
    assert_eq!(
        store.game("g2").await.expect("a read").map(|g| g.channel),
        Some("channel-g2".to_string())
    );
    let ids: Vec<String> = store
        .games()
        .await
        .expect("a read")
        .into_iter()
        .map(|g| g.id)
        .collect();
    assert_eq!(ids, ["g1", "g2"]);
}

#[tokio::test]
async fn sqlite_keeps_one_page_token_per_game() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let path = dir.path().join("g.db").to_string_lossy().into_owned();
    let store = gaugebot_store::backend::open(&path).await.expect("sqlite");
    check(store).await;
}

#[tokio::test]
async fn postgres_keeps_one_page_token_per_game() {
    let Some(server) = pg::TestPostgres::start() else {
        return;
    };
    let url = server.database().await;
    let store = gaugebot_store::backend::open(&url).await.expect("postgres");
    check(store).await;
}
