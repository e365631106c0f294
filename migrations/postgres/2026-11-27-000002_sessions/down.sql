ALTER TABLE users DROP COLUMN disabled_at;
DROP TABLE sign_in_codes;
DROP TABLE refresh_tokens;
DROP TABLE sessions;
