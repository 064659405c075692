-- The PostgreSQL schema: the same rows as the SQLite schema (bot/migrations/), every text column
-- verbatim, so that `gaugebot migrate` copies a SQLite database without changing a byte.

-- Games: one row per game; a channel has at most one active game.
CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    channel TEXT NOT NULL,
    kind TEXT NOT NULL,
    engine_version TEXT NOT NULL,
    created_at TEXT NOT NULL,
    setup_json TEXT NOT NULL,
    seed_hex TEXT,
    commitment TEXT,
    revealed BOOLEAN NOT NULL DEFAULT FALSE,
    active BOOLEAN NOT NULL DEFAULT TRUE,
    -- Insertion order (SQLite's rowid), kept by `gaugebot migrate`.
    position BIGSERIAL NOT NULL
);
CREATE INDEX games_channel ON games (channel, active);
CREATE UNIQUE INDEX games_one_active ON games (channel) WHERE active;

-- The append-only log of each game.
CREATE TABLE log (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq BIGINT NOT NULL,
    entry_json TEXT NOT NULL,
    message_id TEXT NOT NULL,
    author_id TEXT NOT NULL,
    author_name TEXT NOT NULL,
    text TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);
CREATE INDEX log_message ON log (game_id, message_id);

-- Every message that carried a command, so that none is applied twice.
CREATE TABLE seen_messages (
    channel TEXT NOT NULL,
    message_id TEXT NOT NULL,
    PRIMARY KEY (channel, message_id)
);

-- The last message processed per channel, for catching up after downtime.
CREATE TABLE channel_cursor (
    channel TEXT PRIMARY KEY NOT NULL,
    message_id TEXT NOT NULL
);

-- Which process owns each channel's table (several processes share one database). `owner` is
-- the owning process's token, which is also the `application_name` of its liveness session: an
-- owner is alive while that session is connected (pg_stat_activity). Every write of an owning
-- process checks this row in its own transaction (FOR SHARE), so a process that lost a channel
-- cannot write to it, and a takeover waits for the last write of the old owner to commit.
CREATE TABLE channel_owners (
    channel TEXT PRIMARY KEY NOT NULL,
    guild TEXT,
    owner TEXT NOT NULL,
    since TIMESTAMPTZ NOT NULL DEFAULT now()
);
