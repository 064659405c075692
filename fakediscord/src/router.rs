//! The fake's HTTP server: the REST and interaction routes behind one gatekeeper (the request
//! log, the bot token, injected faults).

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::Router;
use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::shared::Shared;
use crate::{interactions, rest};

/// Serves the fake's REST API on `listener` until `shutdown` changes.
pub(crate) async fn serve(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut shutdown: watch::Receiver<bool>,
) {
    use axum::serve::ListenerExt;
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    let _ = axum::serve(listener, router(shared))
        .with_graceful_shutdown(async move {
            let _ = shutdown.changed().await;
        })
        .await;
}

/// Every route of the fake, behind the gatekeeper; unknown routes answer as Discord does.
fn router(shared: Arc<Shared>) -> Router {
    interactions::routes(rest::routes(Router::new()))
        .route_layer(middleware::from_fn_with_state(
            shared.clone(),
            rest::gatekeeper,
        ))
        .fallback(rest::fallback)
        .layer(DefaultBodyLimit::max(26 * 1024 * 1024))
        .with_state(shared)
}
