-- Which server (community) each channel belongs to, as the transport said (Discord: the guild
-- of a message, a command or the channel): `!standings` and `!tables` count a server's games
-- only. A channel never moves to another server.
CREATE TABLE channel_servers (
    channel TEXT PRIMARY KEY NOT NULL,
    server TEXT NOT NULL
);
-- The secret address of each server's standings page (docs/DEPLOY.md, "The web page"): a
-- random token, made the first time `!standings` links it.
CREATE TABLE standings_pages (
    server TEXT PRIMARY KEY NOT NULL,
    token TEXT NOT NULL UNIQUE
);
