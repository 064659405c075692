//! The fake gateway: one task per WebSocket connection.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, LazyLock};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::mpsc::{self, UnboundedReceiver};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;
use tokio_tungstenite::tungstenite::protocol::CloseFrame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use crate::identity::BOT_TOKEN;
use crate::shared::Shared;
use crate::state::{IdentifyRecord, Outgoing, SessionEntry, INTENT_GUILDS, INTENT_MESSAGE_CONTENT};

/// `{"op":11}`
pub(crate) static HEARTBEAT_ACK: LazyLock<Value> = LazyLock::new(|| json!({"op": 11, "d": null}));
/// `{"op":9,"d":false}`: the session cannot be resumed.
pub(crate) static INVALID_SESSION: LazyLock<Value> = LazyLock::new(|| json!({"op": 9, "d": false}));

pub(crate) fn hello_json(interval_ms: u64) -> Value {
    json!({"op": 10, "d": {"heartbeat_interval": interval_ms}})
}

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// Accepts gateway connections until shutdown.
pub(crate) async fn serve(
    listener: TcpListener,
    shared: Arc<Shared>,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        tokio::select! {
            accepted = listener.accept() => {
                let Ok((stream, _)) = accepted else { continue };
                let _ = stream.set_nodelay(true);
                tokio::spawn(session(stream, shared.clone(), shutdown.clone()));
            }
            _ = shutdown.changed() => return,
        }
    }
}

type Ws = WebSocketStream<TcpStream>;

async fn send(ws: &mut Ws, v: &Value) -> bool {
    ws.send(Message::Text(v.to_string())).await.is_ok()
}

async fn close(ws: &mut Ws, code: u16, reason: &'static str) {
    let _ = ws
        .close(Some(CloseFrame {
            code: CloseCode::from(code),
            reason: reason.into(),
        }))
        .await;
}

async fn recv_outgoing(rx: &mut Option<UnboundedReceiver<Outgoing>>) -> Option<Outgoing> {
    match rx {
        Some(rx) => rx.recv().await,
        None => std::future::pending().await,
    }
}

/// One gateway connection: HELLO, then IDENTIFY → READY (+ GUILD_CREATEs), heartbeats, RESUME
/// refusals, and whatever the test dispatches.
async fn session(stream: TcpStream, shared: Arc<Shared>, mut shutdown: watch::Receiver<bool>) {
    let Ok(mut ws) = tokio_tungstenite::accept_async(stream).await else {
        return;
    };
    let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let interval = shared.read().heartbeat_interval_ms;
    if !send(&mut ws, &hello_json(interval)).await {
        return;
    }
    let mut seq: u64 = 0;
    let mut rx: Option<UnboundedReceiver<Outgoing>> = None;
    loop {
        tokio::select! {
            frame = ws.next() => {
                let text = match frame {
                    Some(Ok(Message::Text(t))) => t,
                    Some(Ok(Message::Close(_))) => {
                        // Flushes the close reply tungstenite queued, completing the handshake
                        // serenity waits for when it shuts a shard down.
                        let _ = tokio::time::timeout(Duration::from_secs(1), ws.close(None)).await;
                        break;
                    }
                    Some(Err(_)) | None => break,
                    Some(Ok(_)) => continue,
                };
                let Ok(v) = serde_json::from_str::<Value>(&text) else {
                    close(&mut ws, 4002, "Decode error").await;
                    break;
                };
                match v["op"].as_u64() {
                    Some(1) => {
                        let ack = shared.write(|s| {
                            s.heartbeat_count += 1;
                            !s.drop_heartbeat_acks
                        });
                        if ack && !send(&mut ws, &HEARTBEAT_ACK).await {
                            break;
                        }
                    }
                    Some(2) => {
                        if rx.is_some() {
                            close(&mut ws, 4005, "Already authenticated").await;
                            break;
                        }
                        let token = v["d"]["token"].as_str().unwrap_or_default().to_owned();
                        if token != format!("Bot {BOT_TOKEN}") && token != BOT_TOKEN {
                            close(&mut ws, 4004, "Authentication failed").await;
                            break;
                        }
                        let Some(intents) = v["d"]["intents"].as_u64() else {
                            close(&mut ws, 4013, "Invalid intent(s)").await;
                            break;
                        };
                        let allowed = shared.read().native.may_read_content();
                        if intents & INTENT_MESSAGE_CONTENT != 0 && !allowed {
                            close(&mut ws, 4014, "Disallowed intent(s)").await;
                            break;
                        }
                        let shard = match v["d"]["shard"].as_array().map(Vec::as_slice) {
                            Some([id, total]) => match (id.as_u64(), total.as_u64()) {
                                (Some(id), Some(total)) if id < total => Some([id, total]),
                                _ => {
                                    close(&mut ws, 4010, "Invalid shard").await;
                                    break;
                                }
                            },
                            Some(_) => {
                                close(&mut ws, 4010, "Invalid shard").await;
                                break;
                            }
                            None => None,
                        };
                        rx = Some(register(&shared, conn, token, intents, shard));
                    }
                    Some(6) => {
                        shared.write(|s| s.resume_count += 1);
                        if !send(&mut ws, &INVALID_SESSION).await {
                            break;
                        }
                    }
                    // Presence updates, member requests, voice: ignored.
                    Some(_) => {}
                    None => {
                        close(&mut ws, 4001, "Unknown opcode").await;
                        break;
                    }
                }
            }
            out = recv_outgoing(&mut rx) => {
                let payload = match out {
                    Some(Outgoing::Dispatch(t, d)) => {
                        seq += 1;
                        json!({"op": 0, "s": seq, "t": t, "d": d})
                    }
                    Some(Outgoing::Raw(v)) => v,
                    None => break,
                };
                if !send(&mut ws, &payload).await {
                    break;
                }
            }
            _ = shutdown.changed() => {
                close(&mut ws, 1001, "fake Discord shutting down").await;
                break;
            }
        }
    }
    shared.write(|s| {
        s.sessions.remove(&conn);
    });
}

/// Records the IDENTIFY and registers the session, queueing READY and the GUILD_CREATEs ahead
/// of any later dispatch (all under one lock, so nothing can slip in between).
fn register(
    shared: &Shared,
    conn: u64,
    token: String,
    intents: u64,
    shard: Option<[u64; 2]>,
) -> UnboundedReceiver<Outgoing> {
    let (tx, rx) = mpsc::unbounded_channel();
    shared.write(|s| {
        s.identifies.push(IdentifyRecord {
            token,
            intents,
            shard,
            at: Instant::now(),
        });
        let session_id = format!("fake-session-{conn}");
        let _ = tx.send(Outgoing::Dispatch(
            "READY",
            s.ready_json_for(&session_id, shard),
        ));
        if intents & INTENT_GUILDS != 0 {
            let guild_ids: Vec<u64> = s
                .guilds
                .keys()
                .copied()
                .filter(|g| crate::state::serves(shard, Some(*g)))
                .collect();
            for g in guild_ids {
                if let Some(v) = s.guild_json(g, true) {
                    let _ = tx.send(Outgoing::Dispatch("GUILD_CREATE", v));
                }
            }
        }
        s.sessions.insert(conn, SessionEntry { tx, intents, shard });
    });
    rx
}
