-- Every move rewrites its game row. With no index on a column a move
-- changes (updated_at was one), and room left on each page, PostgreSQL can
-- update the row in place (a HOT update) instead of adding index entries on
-- every move.
DROP INDEX games_status;
CREATE INDEX games_status ON games (status);
ALTER TABLE games SET (fillfactor = 75);

-- Listing a user's games also looks for the games they created and nobody
-- has joined yet.
CREATE INDEX games_created_by ON games (created_by);
