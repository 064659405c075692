-- Each player's choice of how turn pings reach them (`!notify dm`, `!notify off`): one row per
-- player (the transport's user id), for every server and game; no row means pings in the
-- channel only.
CREATE TABLE notify (
    player_id TEXT PRIMARY KEY,
    mode TEXT NOT NULL
);
