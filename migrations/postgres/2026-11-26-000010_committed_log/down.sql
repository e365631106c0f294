ALTER TABLE moves DROP COLUMN sealed;
ALTER TABLE games DROP COLUMN committed_from;
