-- Play over weeks: a channel's state outside any game (open signups) and the players' secret
-- auction presets (never in the log, a channel or an export); and each game's live status
-- message (pinned in its channel). The same tables as SQLite's migrations 0003 and 0004.
CREATE TABLE channel_state (
    channel TEXT PRIMARY KEY NOT NULL,
    state_json TEXT NOT NULL
);

CREATE TABLE presets (
    game_id TEXT NOT NULL REFERENCES games (id),
    player_id TEXT NOT NULL,
    presets_json TEXT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);

CREATE TABLE status_message (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES games (id),
    message_id TEXT NOT NULL
);
