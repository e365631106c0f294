-- An account's version, raised by every change of the row. A game's copy
-- in an instance's memory keeps its players' accounts for the next "your
-- move" mail; a move that uses them is written only if neither account
-- changed since.
ALTER TABLE users ADD COLUMN version BIGINT NOT NULL DEFAULT 0;
