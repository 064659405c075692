//! Start-up: the running fake ([`FakeDiscord`]), its two listeners and its addresses.

use std::net::SocketAddr;
use std::sync::{Arc, Mutex};

use tokio::net::TcpListener;
use tokio::sync::watch;

use crate::identity::{BOT_TOKEN, BOT_USER_ID, BOT_USER_NAME};
use crate::records::FakeUser;
use crate::shared::Shared;
use crate::state::State;
use crate::{gateway, router};

/// A running fake Discord. Dropping it stops its listeners and closes its gateway sessions.
pub struct FakeDiscord {
    pub(crate) shared: Arc<Shared>,
    api_addr: SocketAddr,
    gateway_addr: SocketAddr,
    shutdown: watch::Sender<bool>,
}

impl Drop for FakeDiscord {
    fn drop(&mut self) {
        let _ = self.shutdown.send(true);
    }
}

impl FakeDiscord {
    /// Binds the REST and gateway listeners on 127.0.0.1 (random ports) and starts serving.
    /// Both are accepting connections when this returns. Must be called inside a tokio runtime.
    pub async fn start() -> FakeDiscord {
        let api = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind fake REST listener");
        let gw = TcpListener::bind("127.0.0.1:0")
            .await
            .expect("bind fake gateway listener");
        let api_addr = api.local_addr().expect("REST local addr");
        let gateway_addr = gw.local_addr().expect("gateway local addr");
        let bot = FakeUser::new(BOT_USER_ID, BOT_USER_NAME);
        let state = State::new(
            bot,
            format!("http://{api_addr}"),
            format!("ws://{gateway_addr}"),
        );
        let (shutdown, shutdown_rx) = watch::channel(false);
        let shared = Arc::new(Shared {
            state: Mutex::new(state),
            version: watch::channel(0).0,
            stopped: shutdown_rx.clone(),
        });
        tokio::spawn(router::serve(api, shared.clone(), shutdown_rx.clone()));
        tokio::spawn(gateway::serve(gw, shared.clone(), shutdown_rx));
        FakeDiscord {
            shared,
            api_addr,
            gateway_addr,
            shutdown,
        }
    }

    /// `http://127.0.0.1:PORT`: give it to `HttpBuilder::proxy`.
    pub fn api_base(&self) -> String {
        format!("http://{}", self.api_addr)
    }

    /// `ws://127.0.0.1:PORT`: what `GET /gateway` answers.
    pub fn gateway_url(&self) -> String {
        format!("ws://{}", self.gateway_addr)
    }

    /// The bot token the fake expects ([`BOT_TOKEN`]).
    pub fn token(&self) -> &'static str {
        BOT_TOKEN
    }

    /// The bot's user id ([`BOT_USER_ID`]).
    pub fn bot_user_id(&self) -> u64 {
        BOT_USER_ID
    }

    /// The bot as a [`FakeUser`].
    pub fn bot_user(&self) -> FakeUser {
        FakeUser::new(BOT_USER_ID, BOT_USER_NAME)
    }
}
