-- A public key is active on one account at most, so that a signed move's
-- key names one signer. Before this, an account could register a key of
-- another's (without proving it held it). A key active on several
-- accounts is revoked on all of them, since nobody can tell whose it is:
-- its owner registers it again, now with proof of possession. A key an
-- account registered twice keeps its first registration.
UPDATE user_keys SET revoked_at = CAST(strftime('%s', 'now') AS INTEGER) * 1000
WHERE revoked_at IS NULL
  AND (public_key IN (SELECT public_key FROM user_keys WHERE revoked_at IS NULL
                      GROUP BY public_key HAVING COUNT(DISTINCT user_id) > 1)
       OR id NOT IN (SELECT MIN(id) FROM user_keys WHERE revoked_at IS NULL
                     GROUP BY public_key));
CREATE UNIQUE INDEX user_keys_active_public_key ON user_keys (public_key)
    WHERE revoked_at IS NULL;
