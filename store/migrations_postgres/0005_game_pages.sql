-- The secret address of each game's web page (docs/DEPLOY.md, "The web page"): a random token,
-- made the first time the page is linked; whoever knows it can read the game's page.
CREATE TABLE game_pages (
    game_id TEXT PRIMARY KEY NOT NULL REFERENCES games (id),
    token TEXT NOT NULL UNIQUE
);
