-- A person's sign-ins: one row per login (a family of refresh tokens),
-- kept in the database so that every instance sees the same ones. A
-- session ends when revoked, when idle for longer than SESSION_IDLE_DAYS
-- after last_used_at, or at expires_at (SESSION_LIFETIME_DAYS after login).
CREATE TABLE sessions (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    created_at BIGINT NOT NULL,
    last_used_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    user_agent TEXT NOT NULL,
    ip TEXT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX sessions_user ON sessions (user_id);

-- Every refresh token a session was given, by the SHA-256 of the token
-- (never the token). used_at is set when it is exchanged for its
-- successor; presenting a used one later is a theft signal.
CREATE TABLE refresh_tokens (
    token_hash TEXT NOT NULL PRIMARY KEY,
    session_id BIGINT NOT NULL REFERENCES sessions (id) ON DELETE CASCADE,
    issued_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX refresh_tokens_session ON refresh_tokens (session_id);

-- Single-use sign-in codes carried by the links of game mails, by hash.
CREATE TABLE sign_in_codes (
    code_hash TEXT NOT NULL PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX sign_in_codes_expiry ON sign_in_codes (expires_at);

-- Set by an admin: the account can no longer sign in.
ALTER TABLE users ADD COLUMN disabled_at BIGINT;
