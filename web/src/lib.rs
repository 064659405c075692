//! The web presenter: a read-only page per game, served by the bot itself (docs/DEPLOY.md,
//! "The web page").
//!
//! A game's page lives at an unguessable address, `/g/<token>` (a capability: whoever has the
//! link can read the game, nobody else can find it), linked from every status report. It shows
//! the status report, each player's worth and rank, the map as SVG (drawn by the same code as
//! the PNG), the net-worth chart and the whole history, any earlier position rebuilt by
//! replaying the record ([`gaugebot_table::record::replay`], what `gaugebot replay --until N`
//! does). The page downloads the game record (`record.json`) and checks its dice in the
//! visitor's browser (`assets/verify.js`, from docs/DICE.md alone). Everything is read from the
//! store, so any process of a PostgreSQL deployment serves any game.

pub mod assets;
pub mod game;
pub mod hidden;
pub mod page;
pub mod present;
pub mod routes;
pub mod token;

use std::net::SocketAddr;
use std::sync::Arc;

use gaugebot_table::{Host, Store};

pub use routes::router;
pub use token::{fresh_token, page_link};

/// The web presenter's templates (relative name, text), added to the host's templates by the
/// bot (`templates/web/`, overridable by a `templates_dir` like the others).
pub const TEMPLATES: [(&str, &str); 3] = [
    (
        "web/game.html.j2",
        include_str!("../../templates/web/game.html.j2"),
    ),
    (
        "web/verify.html.j2",
        include_str!("../../templates/web/verify.html.j2"),
    ),
    (
        "web/standings.html.j2",
        include_str!("../../templates/web/standings.html.j2"),
    ),
];

/// What the pages are made from: the store they read and the host (games, templates).
#[derive(Clone)]
pub struct Web {
    /// The store every page is read from.
    pub store: Arc<dyn Store>,
    /// The games and the templates.
    pub host: Arc<Host>,
    /// Whether `/standings` is served (every player's name and results across the games).
    pub standings: bool,
}

/// Serves the pages on `listen` until the task is dropped; the bound address is returned once
/// listening (port 0 picks a free one).
pub async fn serve(
    web: Web,
    listen: SocketAddr,
) -> std::io::Result<(SocketAddr, tokio::task::JoinHandle<()>)> {
    let listener = tokio::net::TcpListener::bind(listen).await?;
    let bound = listener.local_addr()?;
    Ok((bound, serve_on(web, listener)))
}

/// Serves the pages on a listener already bound (to know its address first).
pub fn serve_on(web: Web, listener: tokio::net::TcpListener) -> tokio::task::JoinHandle<()> {
    let app = router(web);
    tokio::spawn(async move {
        if let Err(error) = axum::serve(listener, app).await {
            tracing::error!(%error, "the web pages stopped");
        }
    })
}
