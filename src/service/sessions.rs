//! Sign-in sessions: rotating refresh tokens with theft detection, and the
//! single-use sign-in codes of mail links. docs/security.md explains the
//! rules; only hashes of tokens and codes are stored.
//!
//! A refresh token is exchanged once. Its successor is not random but an
//! HMAC of it under the server's first JWT key, so the server can hand the
//! same successor again without having stored it: a second exchange of
//! the same token within `REUSE_GRACE_MS` (two tabs refreshing at once, or
//! a reply lost on the network) gets that same successor, as long as the
//! successor has not been used itself. Any later reuse of a used token is
//! taken as theft and ends the whole session.

use crate::config::SessionConfig;
use crate::error::Error;
use crate::service::audit::sha256_hex;
use crate::store::sessions::{self as db, Origin, Session, SignInCode};
use crate::store::users::{self, User};
use crate::store::{DbConnection, write_tx};
use base64::Engine;
use hmac::{Hmac, KeyInit, Mac};
use rand::RngExt;
use sha2::Sha256;

/// How long after a refresh token's exchange a second exchange of it still
/// gets the same successor instead of ending the session.
pub const REUSE_GRACE_MS: i64 = 30_000;

/// A session's current refresh token, as handed to the client.
#[derive(Debug)]
pub struct Issued {
    pub user: User,
    pub session: Session,
    pub refresh_token: String,
}

/// What the sessions use: their settings, and the key successors are
/// derived with.
pub struct Rules<'a> {
    pub config: &'a SessionConfig,
    pub key: &'a [u8],
}

impl Rules<'_> {
    fn idle_ms(&self) -> i64 {
        self.config.idle.as_millis() as i64
    }

    fn successor(&self, token: &str) -> String {
        let mut mac = Hmac::<Sha256>::new_from_slice(self.key).expect("HMAC takes any key");
        mac.update(b"hexpost-refresh-successor:");
        mac.update(token.as_bytes());
        encode(&mac.finalize().into_bytes())
    }

    /// Whether `s` is still usable at `now` (not revoked, not idle too
    /// long, not past its end).
    pub fn is_live(&self, s: &Session, now: i64) -> bool {
        s.revoked_at.is_none() && s.expires_at > now && s.last_used_at + self.idle_ms() >= now
    }

    /// Starts a session for `user` and gives it its first refresh token.
    pub fn start(
        &self,
        conn: &mut DbConnection,
        user: User,
        origin: &Origin,
        now: i64,
    ) -> Result<Issued, Error> {
        let lifetime = self.config.lifetime.as_millis() as i64;
        let session = db::insert(conn, user.id, origin, now, now + lifetime)?;
        let refresh_token = random_secret();
        db::insert_token(conn, &sha256_hex(refresh_token.as_bytes()), session.id, now)?;
        Ok(Issued {
            user,
            session,
            refresh_token,
        })
    }

    /// Exchanges a refresh token for its successor (see the module's
    /// comment for reuse).
    pub fn refresh(&self, conn: &mut DbConnection, token: &str, now: i64) -> Result<Issued, Error> {
        let outcome = write_tx(conn, |conn| self.exchange(conn, token, now))?;
        match outcome {
            Some(issued) => Ok(issued),
            None => Err(refusal(
                "refresh_token_reused",
                "this refresh token was used already; its session has been ended in case it \
                 was stolen: sign in again",
            )),
        }
    }

    /// The successor of `token`, or None when its reuse ended the session
    /// (a change that must be committed, hence not an error here).
    fn exchange(
        &self,
        conn: &mut DbConnection,
        token: &str,
        now: i64,
    ) -> Result<Option<Issued>, Error> {
        let hash = sha256_hex(token.as_bytes());
        let unknown = || {
            refusal(
                "invalid_refresh_token",
                "this is not a refresh token of any session",
            )
        };
        let row = db::token(conn, &hash)?.ok_or_else(unknown)?;
        let session = db::by_id(conn, row.session_id)?.ok_or_else(unknown)?;
        let user = self.live_user(conn, &session, now)?;
        let successor = self.successor(token);
        let successor_hash = sha256_hex(successor.as_bytes());
        if db::use_token(conn, &hash, now)? {
            db::insert_token(conn, &successor_hash, session.id, now)?;
        } else {
            let used_at = db::token(conn, &hash)?.and_then(|t| t.used_at).unwrap_or(0);
            let successor_unused =
                db::token(conn, &successor_hash)?.is_some_and(|t| t.used_at.is_none());
            if now - used_at > REUSE_GRACE_MS || !successor_unused {
                db::revoke(conn, session.user_id, session.id, now)?;
                return Ok(None);
            }
        }
        db::touch(conn, session.id, now)?;
        Ok(Some(Issued {
            user,
            session: Session {
                last_used_at: now,
                ..session
            },
            refresh_token: successor,
        }))
    }

    /// The owner of `session` if the session is live and the account may
    /// still sign in.
    fn live_user(&self, conn: &mut DbConnection, s: &Session, now: i64) -> Result<User, Error> {
        if s.revoked_at.is_some() {
            return Err(refusal(
                "session_revoked",
                "this session was ended (signed out, revoked, or its password changed): sign in \
                 again",
            ));
        }
        if !self.is_live(s, now) {
            return Err(refusal(
                "session_expired",
                "this session has expired (unused for too long, or past its lifetime): sign in \
                 again",
            ));
        }
        users::by_id(conn, s.user_id)?
            .filter(|u| u.disabled_at.is_none())
            .ok_or_else(|| refusal("session_revoked", "this account can no longer sign in"))
    }

    /// Exchanges a mail link's code, once, for a new session of its user.
    pub fn redeem(
        &self,
        conn: &mut DbConnection,
        code: &str,
        game_id: &str,
        origin: &Origin,
        now: i64,
    ) -> Result<Issued, Error> {
        write_tx(conn, |conn| {
            let hash = sha256_hex(code.as_bytes());
            let invalid = || {
                refusal(
                    "invalid_sign_in_link",
                    "this sign-in link is not one the server sent for this game",
                )
            };
            let found = db::code(conn, &hash)?
                .filter(|c| c.game_id == game_id)
                .ok_or_else(invalid)?;
            if found.used_at.is_some() || !db::use_code(conn, &hash, now)? {
                return Err(refusal(
                    "sign_in_link_used",
                    "this sign-in link was used already, or ended when the account's password changed or all its sessions were ended; sign in with your password",
                ));
            }
            if found.expires_at <= now {
                return Err(refusal(
                    "sign_in_link_expired",
                    "this sign-in link has expired; sign in with your password",
                ));
            }
            let user = users::by_id(conn, found.user_id)?
                .filter(|u| u.disabled_at.is_none())
                .ok_or_else(invalid)?;
            self.start(conn, user, origin, now)
        })
    }
}

/// Fresh sign-in codes for mails' links, one for each (user, game) of
/// `targets`, in its order; written in one transaction, so a batch of
/// mails pays one commit for its codes rather than one each.
pub fn sign_in_codes(
    conn: &mut DbConnection,
    config: &SessionConfig,
    targets: &[(i64, &str)],
    now: i64,
) -> Result<Vec<String>, Error> {
    let expires_at = now + config.mail_link.as_millis() as i64;
    write_tx(conn, |conn| {
        let mut codes = Vec::with_capacity(targets.len());
        for &(user_id, game_id) in targets {
            let code = random_secret();
            db::insert_code(
                conn,
                &SignInCode {
                    code_hash: sha256_hex(code.as_bytes()),
                    user_id,
                    game_id: game_id.to_string(),
                    expires_at,
                    used_at: None,
                },
            )?;
            codes.push(code);
        }
        Ok(codes)
    })
}

/// A 401 refusal with its own code.
pub fn refusal(code: &'static str, detail: &str) -> Error {
    let mut e = Error::unauthorized(detail);
    e.code = code;
    e
}

/// 256 random bits, base64url.
fn random_secret() -> String {
    let bytes: [u8; 32] = rand::rng().random();
    encode(&bytes)
}

fn encode(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}
