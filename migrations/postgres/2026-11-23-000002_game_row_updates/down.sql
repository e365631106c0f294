DROP INDEX games_created_by;
ALTER TABLE games RESET (fillfactor);
DROP INDEX games_status;
CREATE INDEX games_status ON games (status, updated_at);
