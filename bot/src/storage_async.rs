//! The SQLite queries of play over weeks (migration `0003_async_play.sql`): a channel's state
//! outside any game (open signups) and the players' secret presets. `storage.rs` wraps the
//! writes in its transactions.

use gaugebot_table::store::StoreError;
use sqlx::{Row, SqliteConnection, SqlitePool};

fn failed(error: sqlx::Error) -> StoreError {
    StoreError::from_error(error)
}

pub(crate) async fn channel_state(
    pool: &SqlitePool,
    channel: &str,
) -> Result<Option<String>, StoreError> {
    Ok(
        sqlx::query("SELECT state_json FROM channel_state WHERE channel = ?")
            .bind(channel)
            .fetch_optional(pool)
            .await
            .map_err(failed)?
            .map(|r| r.get(0)),
    )
}

pub(crate) async fn set_channel_state(
    conn: &mut SqliteConnection,
    channel: &str,
    state: Option<&str>,
) -> Result<(), StoreError> {
    match state {
        Some(state) => sqlx::query(
            "INSERT INTO channel_state (channel, state_json) VALUES (?, ?)
             ON CONFLICT (channel) DO UPDATE SET state_json = excluded.state_json",
        )
        .bind(channel)
        .bind(state),
        None => sqlx::query("DELETE FROM channel_state WHERE channel = ?").bind(channel),
    }
    .execute(&mut *conn)
    .await
    .map_err(failed)?;
    Ok(())
}

pub(crate) async fn state_channels(pool: &SqlitePool) -> Result<Vec<String>, StoreError> {
    Ok(
        sqlx::query("SELECT channel FROM channel_state ORDER BY channel")
            .fetch_all(pool)
            .await
            .map_err(failed)?
            .iter()
            .map(|r| r.get(0))
            .collect(),
    )
}

pub(crate) async fn presets(
    pool: &SqlitePool,
    game_id: &str,
) -> Result<Vec<(String, String)>, StoreError> {
    Ok(sqlx::query(
        "SELECT player_id, presets_json FROM presets WHERE game_id = ? ORDER BY player_id",
    )
    .bind(game_id)
    .fetch_all(pool)
    .await
    .map_err(failed)?
    .iter()
    .map(|r| (r.get(0), r.get(1)))
    .collect())
}

pub(crate) async fn set_presets(
    conn: &mut SqliteConnection,
    game_id: &str,
    player_id: &str,
    presets: Option<&str>,
) -> Result<(), StoreError> {
    match presets {
        Some(presets) => sqlx::query(
            "INSERT INTO presets (game_id, player_id, presets_json) VALUES (?, ?, ?)
             ON CONFLICT (game_id, player_id) DO UPDATE SET presets_json = excluded.presets_json",
        )
        .bind(game_id)
        .bind(player_id)
        .bind(presets),
        None => sqlx::query("DELETE FROM presets WHERE game_id = ? AND player_id = ?")
            .bind(game_id)
            .bind(player_id),
    }
    .execute(&mut *conn)
    .await
    .map_err(failed)?;
    Ok(())
}
