-- The live status message of each game (pinned in its channel and edited after every turn).
CREATE TABLE status_message (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES games (id),
    message_id TEXT NOT NULL
);
