-- The same indexes as on PostgreSQL (where dropping updated_at from the
-- status index lets moves update game rows in place).
DROP INDEX games_status;
CREATE INDEX games_status ON games (status);

-- Listing a user's games also looks for the games they created and nobody
-- has joined yet.
CREATE INDEX games_created_by ON games (created_by);
