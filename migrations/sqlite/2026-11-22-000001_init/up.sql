-- Times are Unix milliseconds (BIGINT) and JSON is TEXT so that one query
-- code path serves PostgreSQL and SQLite alike.

CREATE TABLE users (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    email TEXT NOT NULL UNIQUE,
    display_name TEXT NOT NULL,
    password_hash TEXT NOT NULL,
    is_admin BOOLEAN NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL
);

CREATE TABLE user_keys (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    public_key TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    revoked_at BIGINT
);
CREATE INDEX user_keys_user ON user_keys (user_id);

CREATE TABLE games (
    id TEXT NOT NULL PRIMARY KEY,
    variant TEXT NOT NULL,
    config TEXT NOT NULL,
    status TEXT NOT NULL,
    created_by BIGINT NOT NULL REFERENCES users (id),
    seed TEXT NOT NULL,
    seed_hash TEXT NOT NULL,
    state TEXT,
    move_number BIGINT NOT NULL DEFAULT 0,
    chain_head TEXT NOT NULL,
    awaiting TEXT NOT NULL DEFAULT '',
    winner_seat INTEGER,
    time_limit_secs BIGINT NOT NULL,
    creator_seat INTEGER,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL,
    finished_at BIGINT
);
CREATE INDEX games_status ON games (status, updated_at);

CREATE TABLE game_players (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seat INTEGER NOT NULL,
    user_id BIGINT NOT NULL REFERENCES users (id),
    PRIMARY KEY (game_id, seat),
    UNIQUE (game_id, user_id)
);
CREATE INDEX game_players_user ON game_players (user_id);

CREATE TABLE invitations (
    id TEXT NOT NULL PRIMARY KEY,
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    email TEXT NOT NULL,
    token_hash TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    responded_at BIGINT
);
CREATE INDEX invitations_game ON invitations (game_id);

CREATE TABLE moves (
    game_id TEXT NOT NULL REFERENCES games (id) ON DELETE CASCADE,
    seq BIGINT NOT NULL,
    actor TEXT NOT NULL,
    seat INTEGER,
    user_id BIGINT,
    action TEXT NOT NULL,
    jws TEXT,
    events TEXT NOT NULL,
    state_hash TEXT NOT NULL,
    prev_hash TEXT NOT NULL,
    hash TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE idempotency_keys (
    user_id BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
    key TEXT NOT NULL,
    request_hash TEXT NOT NULL,
    status INTEGER NOT NULL,
    response TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, key)
);

CREATE TABLE admin_log (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    admin_user_id BIGINT,
    action TEXT NOT NULL,
    target TEXT NOT NULL,
    detail TEXT NOT NULL,
    created_at BIGINT NOT NULL
);
