-- The keys revoked by up.sql stay revoked.
DROP INDEX user_keys_active_public_key;
