-- The table core (version 2) finds a logged command by its message (edit and delete notices).
CREATE INDEX log_message ON log (game_id, message_id);
