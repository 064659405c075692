-- The outbox: what the bot is to post in a channel (replies, a reaction, the next turn's prompt,
-- the pinned status), stored in the same transaction as the command it answers and removed once
-- it is delivered. The same table as SQLite's migration 0005.
CREATE TABLE outbox (
    position BIGSERIAL PRIMARY KEY,
    channel TEXT NOT NULL,
    key TEXT NOT NULL,
    payload TEXT NOT NULL,
    at TEXT NOT NULL,
    UNIQUE (channel, key)
);
