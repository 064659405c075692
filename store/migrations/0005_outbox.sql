-- The outbox: what the bot is to post in a channel (replies, a reaction, the next turn's prompt,
-- the pinned status), stored in the same transaction as the command it answers and removed once
-- it is delivered. After a crash or a restart the undelivered items are posted again, with the
-- same nonce (`key`), so nothing is lost and nothing doubles.
CREATE TABLE outbox (
    position INTEGER PRIMARY KEY,
    channel TEXT NOT NULL,
    key TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    UNIQUE (channel, key)
);
