-- Deadlines: each game's timeout policy and vacation allowance, the clock
-- of each seat (JSON), and when the deadline sweeper next has work on it.
-- Each user's time zone, quiet hours and digest hour.

-- 'auto' (the server decides for a late player) or 'forfeit'.
ALTER TABLE games ADD COLUMN timeout_policy TEXT NOT NULL DEFAULT 'auto';
-- Automatic decisions in a row the server takes for one player before the
-- next timeout makes them forfeit.
ALTER TABLE games ADD COLUMN max_auto_decisions INTEGER NOT NULL DEFAULT 3;
ALTER TABLE games ADD COLUMN vacation_days INTEGER NOT NULL DEFAULT 7;
-- Per seat: deadline, reminder time, vacation and automatic decisions in a
-- row (see service::deadlines). Empty until the game starts.
ALTER TABLE games ADD COLUMN clocks TEXT NOT NULL DEFAULT '';
-- The earliest reminder or deadline of the game; NULL when none is set.
-- Not indexed: it changes with nearly every move, and an index on it would
-- cost every move its in-place (HOT) row update; the sweeper reads the
-- active games through games_status instead.
ALTER TABLE games ADD COLUMN wake_at BIGINT;

-- An IANA time zone name.
ALTER TABLE users ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';
-- Quiet hours as minutes after local midnight; both NULL for none.
ALTER TABLE users ADD COLUMN quiet_start INTEGER;
ALTER TABLE users ADD COLUMN quiet_end INTEGER;
-- The local hour the daily digest goes out.
ALTER TABLE users ADD COLUMN digest_hour INTEGER NOT NULL DEFAULT 8;
