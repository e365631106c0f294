-- The game row's version, raised by every write of the row. A move reads
-- the row without locking it and writes only if the version is still the
-- one it read; any other change in between makes it read again.
ALTER TABLE games ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
