//! Test controls: the gateway sessions (identifies, heartbeats, reconnects, own messages).

use std::time::Duration;

use serde_json::json;

use crate::server::FakeDiscord;
use crate::state::{IdentifyRecord, Outgoing};
use crate::waiting::WaitTimeout;

impl FakeDiscord {
    /// How many IDENTIFYs the gateway accepted (a reconnect that re-identifies adds one).
    pub fn identify_count(&self) -> usize {
        self.shared.read().identifies.len()
    }

    /// Every accepted IDENTIFY.
    pub fn identifies(&self) -> Vec<IdentifyRecord> {
        self.shared.read().identifies.clone()
    }

    /// The intents of the last accepted IDENTIFY.
    pub fn last_intents(&self) -> Option<u64> {
        self.shared.read().identifies.last().map(|i| i.intents)
    }

    /// How many RESUMEs arrived (each is answered with `{"op":9,"d":false}`).
    pub fn resume_count(&self) -> u32 {
        self.shared.read().resume_count
    }

    /// How many heartbeats (op 1) arrived.
    pub fn heartbeat_count(&self) -> u64 {
        self.shared.read().heartbeat_count
    }

    /// Gateway sessions that were sent READY and are still connected.
    pub fn connected_sessions(&self) -> usize {
        self.shared.read().sessions.len()
    }

    /// Waits until at least `count` IDENTIFYs were accepted.
    pub async fn wait_for_identify_count(
        &self,
        count: usize,
        timeout: Duration,
    ) -> Result<(), WaitTimeout> {
        self.wait_for(timeout, |f| {
            let n = f.identify_count();
            if n >= count {
                Ok(())
            } else {
                Err(format!("{count} IDENTIFY(s); got {n}"))
            }
        })
        .await
    }

    /// Waits until exactly `count` sessions are connected.
    pub async fn wait_for_sessions(
        &self,
        count: usize,
        timeout: Duration,
    ) -> Result<(), WaitTimeout> {
        self.wait_for(timeout, |f| {
            let n = f.connected_sessions();
            if n == count {
                Ok(())
            } else {
                Err(format!("{count} connected session(s); have {n}"))
            }
        })
        .await
    }

    /// The heartbeat interval announced in HELLO to connections made from now on (default
    /// 41.25 s, as Discord). Tests of missed heartbeat ACKs want a short one, e.g. 300 ms.
    pub fn set_heartbeat_interval(&self, interval: Duration) {
        self.shared
            .write(|s| s.heartbeat_interval_ms = (interval.as_millis() as u64).max(1));
    }

    /// While true, heartbeats are not acknowledged, so serenity drops the session and
    /// IDENTIFYs again (after its ~5 s shard-restart wait).
    pub fn drop_heartbeat_acks(&self, drop: bool) {
        self.shared.write(|s| s.drop_heartbeat_acks = drop);
    }

    /// Whether the bot's own created/edited messages are dispatched back to it, as Discord does
    /// (default true).
    pub fn set_dispatch_own_messages(&self, dispatch: bool) {
        self.shared.write(|s| s.dispatch_own_messages = dispatch);
    }

    /// Sends op 7 RECONNECT to every session: serenity reconnects and sends RESUME, which the
    /// fake refuses (`{"op":9,"d":false}`), so it IDENTIFYs anew.
    pub fn request_reconnect(&self) {
        self.shared.write(|s| {
            for sess in s.sessions.values() {
                let _ = sess.tx.send(Outgoing::Raw(json!({"op": 7, "d": null})));
            }
        });
    }
}
