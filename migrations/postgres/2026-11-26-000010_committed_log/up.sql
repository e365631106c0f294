-- The log's committed scheme (docs/architecture.md, "The log's hash
-- chain"). A game's rows from `committed_from` on hash what every reader
-- may see and commit to the rest; rows before it (written by earlier
-- releases, none in games created since) hash the stored row. `sealed`:
-- the row's action and signed move were hidden from the other seat when
-- the row was written (a sealed bid), so its hash commits to them too.
ALTER TABLE games ADD COLUMN committed_from BIGINT;
ALTER TABLE moves ADD COLUMN sealed BOOLEAN NOT NULL DEFAULT FALSE;
