-- E-mail: each user's notification setting, and the outbox that the
-- use cases write in their own transactions and the mail worker drains.

-- 'every_move', 'digest' or 'off'.
ALTER TABLE users ADD COLUMN notify TEXT NOT NULL DEFAULT 'every_move';

CREATE TABLE outbox (
    id BIGSERIAL PRIMARY KEY,
    -- invitation, accepted, declined, your_move, game_over
    kind TEXT NOT NULL,
    game_id TEXT REFERENCES games (id) ON DELETE CASCADE,
    -- The recipient's account; NULL for an invitation to an address.
    user_id BIGINT REFERENCES users (id) ON DELETE CASCADE,
    recipient TEXT NOT NULL,
    -- What the templates render (JSON), computed in the transaction that
    -- queued the mail; links are added when it is sent.
    context TEXT NOT NULL,
    -- The Message-ID's local part: stable across retries, so a resend is
    -- recognisable as the same mail.
    message_id TEXT NOT NULL UNIQUE,
    -- The game's move number when queued: a "your move" mail is unanswered
    -- until its recipient logs a decision after it.
    game_seq BIGINT,
    -- pending, sent or failed
    status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0,
    -- Not sent before this time (retry backoff; later, digests and quiet hours).
    due_at BIGINT NOT NULL,
    -- A worker's lease on the row; an expired lease frees it again.
    claimed_until BIGINT,
    last_error TEXT,
    created_at BIGINT NOT NULL,
    sent_at BIGINT
);
CREATE INDEX outbox_due ON outbox (status, due_at);
CREATE INDEX outbox_game_user ON outbox (game_id, user_id, kind);
