-- Games: one row per game; a channel has at most one active game.
CREATE TABLE games (
    id TEXT PRIMARY KEY NOT NULL,
    channel TEXT NOT NULL,
    kind TEXT NOT NULL,
    engine_version TEXT NOT NULL,
    created_at TEXT NOT NULL,
    -- JSON: players, setup rolls, dice mode, moderators at setup.
    setup_json TEXT NOT NULL,
    -- The secret seed (hex) of audited dice; NULL for manual dice.
    seed_hex TEXT,
    commitment TEXT,
    revealed INTEGER NOT NULL DEFAULT 0,
    active INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX games_channel ON games (channel, active);

-- The append-only log of each game: accepted actions, draws, undos, reveals.
CREATE TABLE log (
    game_id TEXT NOT NULL REFERENCES games (id),
    seq INTEGER NOT NULL,
    entry_json TEXT NOT NULL,
    message_id TEXT NOT NULL,
    author_id TEXT NOT NULL,
    author_name TEXT NOT NULL,
    text TEXT NOT NULL,
    at TEXT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

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
