-- Each player's choice of how turn pings reach them (`!notify dm`, `!notify off`). The same
-- table as SQLite's migration 0006.
CREATE TABLE notify (
    player_id TEXT PRIMARY KEY,
    mode TEXT NOT NULL
);
