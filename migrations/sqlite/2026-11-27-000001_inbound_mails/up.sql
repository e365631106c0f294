-- Every mail that reached the reply pipeline (a player's reply, or what
-- only looked like one), for admins: who sent it, when and how, for which
-- game and move, and what came of it. A log, not a relation: its rows
-- outlive the accounts and games they name.
CREATE TABLE inbound_mails (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    received_at BIGINT NOT NULL,
    -- smtp, lmtp, imap or stdin
    via TEXT NOT NULL,
    -- The From address, normalised (lowercase); NULL when there is none.
    sender TEXT,
    -- The Message-ID (or a hash of the message without one). Unique: the
    -- same message delivered twice, to one instance or two, is taken once.
    message_id TEXT NOT NULL UNIQUE,
    -- What the reply token names, once it verified.
    user_id BIGINT,
    game_id TEXT,
    move_number BIGINT,
    -- received (while it is handled), applied, command_failed, stale_move,
    -- a refusal (forged_token, wrong_sender, oversized, ...) or ignored_*.
    outcome TEXT NOT NULL,
    -- Commands applied, in order, before the reply stopped.
    applied INTEGER NOT NULL DEFAULT 0,
    -- The game's move number after the last command applied: the log
    -- rows after move_number up to it are the moves the reply made.
    moves_to BIGINT,
    -- Why a command or the reply was refused.
    detail TEXT
);
CREATE INDEX inbound_mails_received ON inbound_mails (received_at);
