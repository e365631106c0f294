-- Fills a hexpost PostgreSQL database with finished games, as a server that
-- has run for a long time would hold them, so the load benchmark can show
-- whether move latency depends on how much history the database carries.
--
-- psql variables: tag (unique per run), first and last (the range of game
-- numbers this call adds; bench/load.sh calls it in chunks to show
-- progress), rows (log rows per game). The users come first, once:
-- run with first = 1 to create them.

\set ON_ERROR_STOP on

-- 2,000 players share the games, so each user's game list is long but not
-- absurd (the list query's index is exercised, not bypassed).
INSERT INTO users (email, display_name, password_hash, created_at)
SELECT format('seed-%s-%s@seed.example', :'tag', i), format('seed %s', i), '!', 0
FROM generate_series(1, 2000) AS i
WHERE :first = 1;

CREATE TEMP TABLE seed_users AS
SELECT row_number() OVER (ORDER BY id) - 1 AS n, id
FROM users
WHERE email LIKE format('seed-%s-%%@seed.example', :'tag');

-- The stored state of a finished game is several kilobytes of JSON; md5
-- strings keep it about as incompressible as the real thing.
INSERT INTO games (id, variant, config, status, created_by, seed, seed_hash, state,
                   move_number, chain_head, awaiting, winner_seat, time_limit_secs,
                   creator_seat, created_at, updated_at, finished_at)
SELECT format('seed-%s-%s', :'tag', g), 'standard', '{"variant":"standard"}', 'finished',
       u.id, md5(g::text), encode(sha256(convert_to(g::text, 'UTF8')), 'hex'),
       (SELECT string_agg(md5(g::text || ':' || k), '') FROM generate_series(1, 120) AS k),
       :rows, encode(sha256(convert_to('head' || g, 'UTF8')), 'hex'), '', g % 2, 86400,
       0, 1700000000000 + g, 1700000000000 + g, 1700000000000 + g
FROM generate_series(:first, :last) AS g
JOIN seed_users AS u ON u.n = g % 2000;

INSERT INTO game_players (game_id, seat, user_id)
SELECT format('seed-%s-%s', :'tag', g), seat, u.id
FROM generate_series(:first, :last) AS g
CROSS JOIN (VALUES (0), (1)) AS s (seat)
JOIN seed_users AS u ON u.n = (g + seat) % 2000;

-- Log rows about the size of real ones: a small action, a few hundred
-- bytes of events, three SHA-256 hex digests.
INSERT INTO moves (game_id, seq, actor, seat, user_id, action, jws, events,
                   state_hash, prev_hash, hash, created_at)
SELECT format('seed-%s-%s', :'tag', g), s, 'seat:' || (s % 2), s % 2, NULL,
       '{"type":"end_turn"}', NULL,
       '[{"type":"rolled","dice":[3,4],"note":"' || repeat(md5(g || ':' || s), 6) || '"}]',
       encode(sha256(convert_to('s' || g || ':' || s, 'UTF8')), 'hex'),
       encode(sha256(convert_to('p' || g || ':' || s, 'UTF8')), 'hex'),
       encode(sha256(convert_to('h' || g || ':' || s, 'UTF8')), 'hex'),
       1700000000000 + g
FROM generate_series(:first, :last) AS g
CROSS JOIN generate_series(1, :rows) AS s;
