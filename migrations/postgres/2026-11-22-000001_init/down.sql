DROP TABLE admin_log;
DROP TABLE idempotency_keys;
DROP TABLE moves;
DROP TABLE invitations;
DROP TABLE game_players;
DROP TABLE games;
DROP TABLE user_keys;
DROP TABLE users;
