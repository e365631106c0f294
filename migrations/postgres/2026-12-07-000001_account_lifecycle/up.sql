-- Codes mailed to prove an address (docs/security.md, "Accounts and
-- addresses"): a registration waiting for its confirmation (with the name
-- and password hash it was made with), a password reset, a sign-in by
-- mail, or an address change waiting for the new address. Only the code's
-- SHA-256 is kept; each code works once, until expires_at, and after
-- five wrong codes for its address and purpose no more. Expired and used
-- rows are deleted by the deadline sweeper.
CREATE TABLE account_codes (
    id BIGSERIAL PRIMARY KEY,
    purpose TEXT NOT NULL,
    email TEXT NOT NULL,
    user_id BIGINT REFERENCES users (id) ON DELETE CASCADE,
    display_name TEXT,
    password_hash TEXT,
    code_hash TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    expires_at BIGINT NOT NULL,
    used_at BIGINT
);
CREATE INDEX account_codes_address ON account_codes (email, purpose);
CREATE INDEX account_codes_expiry ON account_codes (expires_at);

-- When the account was deleted: its row stays, as "a deleted player", so
-- that the finished games it played keep their seats and still verify;
-- everything personal in it is gone.
ALTER TABLE users ADD COLUMN deleted_at BIGINT;
