-- Play over weeks (version 3). Clocks, absences, substitutions and reminders are entries of
-- each game's log; what lives outside any game's log is here.

-- A channel's table-level state outside any game: open signups (JSON), one row per channel.
CREATE TABLE channel_state (
    channel TEXT PRIMARY KEY NOT NULL,
    state_json TEXT NOT NULL
);

-- Secret auction presets, set by direct message: never in the log, the channel or an export.
CREATE TABLE presets (
    game_id TEXT NOT NULL REFERENCES games (id),
    player_id TEXT NOT NULL,
    -- JSON: the player's orders, oldest first, as the game reads them.
    presets_json TEXT NOT NULL,
    PRIMARY KEY (game_id, player_id)
);
