-- The jti of every signed move a player made, kept while the move's iat
-- is within the accepted skew (expires_at), so that the same jti is
-- refused a second time; the deadline sweeper deletes expired rows.
CREATE TABLE used_jtis (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    jti TEXT NOT NULL,
    expires_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, jti)
);
CREATE INDEX used_jtis_expiry ON used_jtis (expires_at);
