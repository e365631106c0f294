ALTER TABLE users DROP COLUMN deleted_at;
DROP TABLE account_codes;
