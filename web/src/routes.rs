//! The routes: a game's page, its map and chart, its record and head (for live updates), and
//! the assets.

use axum::extract::{Path, Query, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use axum::Router;
use serde::Deserialize;

use gaugebot_table::table::standings::{from_store, Scope};

use crate::game::{load, LoadError, Loaded};
use crate::{assets, page, Web};

/// The pages' router.
pub fn router(web: Web) -> Router {
    Router::new()
        .route("/g/{token}", get(game_page))
        .route("/g/{token}/map.svg", get(map))
        .route("/g/{token}/chart.svg", get(chart))
        .route("/g/{token}/record.json", get(record))
        .route("/g/{token}/head", get(head))
        .route("/verify", get(verify_page))
        .route("/standings", get(standings_page))
        .route("/s/{token}", get(server_standings_page))
        .route("/assets/{name}", get(asset))
        .with_state(web)
}

/// `?at=N`: the entry a position is shown after. What does not read is ignored (now).
#[derive(Debug, Deserialize)]
pub struct At {
    at: Option<String>,
}

impl At {
    fn entry(&self) -> Option<i64> {
        self.at.as_deref().and_then(|n| n.trim().parse().ok())
    }
}

/// The headers every answer carries: nothing is fetched from elsewhere, the address is never
/// sent on as a referrer, and the pages are not indexed.
fn secured(mut response: Response, content_type: &'static str) -> Response {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(
            "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
             connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
        ),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("no-referrer"),
    );
    headers.insert(
        header::HeaderName::from_static("x-robots-tag"),
        HeaderValue::from_static("noindex, nofollow"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    response
}

fn failed(error: &dyn std::fmt::Display, status: StatusCode) -> Response {
    secured(
        (status, format!("{error}\n")).into_response(),
        "text/plain; charset=utf-8",
    )
}

async fn loaded(web: &Web, token: &str) -> Result<Loaded, Response> {
    load(web, token).await.map_err(|error| match error {
        LoadError::NotFound => failed(&"No such page.", StatusCode::NOT_FOUND),
        LoadError::Store(e) => {
            tracing::warn!(error = %e, "a page could not be read");
            failed(
                &"The database is not available; try again.",
                StatusCode::SERVICE_UNAVAILABLE,
            )
        }
        LoadError::Record(e) => failed(&e, StatusCode::INTERNAL_SERVER_ERROR),
    })
}

async fn game_page(
    State(web): State<Web>,
    Path(token): Path<String>,
    Query(at): Query<At>,
) -> Response {
    let loaded = match loaded(&web, &token).await {
        Ok(loaded) => loaded,
        Err(response) => return response,
    };
    let base = format!("/g/{token}");
    match page::game_page(&web, &loaded, at.entry(), &base) {
        Ok(html) => secured(html.into_response(), "text/html; charset=utf-8"),
        Err(e) => failed(&e, StatusCode::INTERNAL_SERVER_ERROR),
    }
}

async fn map(State(web): State<Web>, Path(token): Path<String>, Query(at): Query<At>) -> Response {
    let loaded = match loaded(&web, &token).await {
        Ok(loaded) => loaded,
        Err(response) => return response,
    };
    match page::map_svg(&loaded, at.entry()) {
        Ok(Some(svg)) => secured(svg.into_response(), "image/svg+xml"),
        Ok(None) => failed(&"This game has no map.", StatusCode::NOT_FOUND),
        Err(e) => failed(&e, StatusCode::INTERNAL_SERVER_ERROR),
    }
}

async fn chart(
    State(web): State<Web>,
    Path(token): Path<String>,
    Query(at): Query<At>,
) -> Response {
    let loaded = match loaded(&web, &token).await {
        Ok(loaded) => loaded,
        Err(response) => return response,
    };
    match page::chart(&loaded, at.entry()) {
        Some(svg) => secured(svg.into_response(), "image/svg+xml"),
        None => failed(&"This game has no chart.", StatusCode::NOT_FOUND),
    }
}

async fn record(State(web): State<Web>, Path(token): Path<String>) -> Response {
    let loaded = match loaded(&web, &token).await {
        Ok(loaded) => loaded,
        Err(response) => return response,
    };
    match serde_json::to_string_pretty(&crate::hidden::public_record(&loaded.record)) {
        Ok(json) => secured(json.into_response(), "application/json"),
        Err(e) => failed(&e, StatusCode::INTERNAL_SERVER_ERROR),
    }
}

/// How far the game is: its number of entries and its chain's head (the page polls it).
async fn head(State(web): State<Web>, Path(token): Path<String>) -> Response {
    let loaded = match loaded(&web, &token).await {
        Ok(loaded) => loaded,
        Err(response) => return response,
    };
    let head = serde_json::json!({
        "entries": loaded.record.log.len(),
        "head": loaded.record.chain.as_ref().map(|c| c.head.clone()),
        "revealed": loaded.record.seed.is_some(),
    });
    let mut response = secured(head.to_string().into_response(), "application/json");
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

/// `?record=/path`: a record of this site for `/verify` to check at once.
#[derive(Debug, Deserialize)]
pub struct RecordAt {
    record: Option<String>,
}

async fn verify_page(State(web): State<Web>, Query(at): Query<RecordAt>) -> Response {
    // Only a path of this site (the page fetches nothing from elsewhere).
    let record = at
        .record
        .filter(|r| r.starts_with('/') && !r.starts_with("//") && !r.contains('\\'));
    match web
        .host
        .templates
        .render("web/verify.html.j2", minijinja::context! { record })
    {
        Ok(html) => secured(html.into_response(), "text/html; charset=utf-8"),
        Err(e) => failed(&e, StatusCode::INTERNAL_SERVER_ERROR),
    }
}

async fn standings_page(State(web): State<Web>) -> Response {
    if !web.standings {
        return failed(&"No such page.", StatusCode::NOT_FOUND);
    }
    standings(&web, Scope::All).await
}

/// A server's standings page, at the address `!standings` links (`/s/<token>`).
async fn server_standings_page(State(web): State<Web>, Path(token): Path<String>) -> Response {
    if !crate::token::is_token(&token) {
        return failed(&"No such page.", StatusCode::NOT_FOUND);
    }
    match web.store.server_of_standings(&token).await {
        Ok(Some(server)) => standings(&web, Scope::Server(&server)).await,
        Ok(None) => failed(&"No such page.", StatusCode::NOT_FOUND),
        Err(e) => {
            tracing::warn!(error = %e, "a standings page could not be read");
            failed(
                &"The database is not available; try again.",
                StatusCode::SERVICE_UNAVAILABLE,
            )
        }
    }
}

/// The standings of `scope`, as a page.
async fn standings(web: &Web, scope: Scope<'_>) -> Response {
    let kinds = match from_store(web.store.as_ref(), &web.host.games, scope).await {
        Ok(kinds) => kinds,
        Err(e) => {
            tracing::warn!(error = %e, "the standings could not be read");
            return failed(
                &"The database is not available; try again.",
                StatusCode::SERVICE_UNAVAILABLE,
            );
        }
    };
    let server = matches!(scope, Scope::Server(_));
    match web.host.templates.render(
        "web/standings.html.j2",
        minijinja::context! { kinds, server },
    ) {
        Ok(html) => secured(html.into_response(), "text/html; charset=utf-8"),
        Err(e) => failed(&e, StatusCode::INTERNAL_SERVER_ERROR),
    }
}

async fn asset(Path(name): Path<String>) -> Response {
    match assets::find(&name) {
        Some(asset) => {
            let mut response = secured(asset.body.into_response(), asset.content_type);
            response.headers_mut().insert(
                header::CACHE_CONTROL,
                HeaderValue::from_static("public, max-age=3600"),
            );
            response
        }
        None => failed(&"No such file.", StatusCode::NOT_FOUND),
    }
}
