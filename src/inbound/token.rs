//! The reply token in a mail's reply address (`move+<token>@REPLY_DOMAIN`):
//! the game, the user and the move number the mail was written for, and
//! when it expires, authenticated with HMAC-SHA256 under the server's
//! token keys (`JWT_KEYS`), so the keys rotate together: the first key
//! signs, every listed key verifies.
//!
//! Base32 without padding, so a mail system that lowercases the local part
//! does not break it, and short enough for a local part (64 characters):
//! 16 bytes of game UUID, two varints, a 4-byte expiry and a MAC truncated
//! to 80 bits make 55 characters.
//!
//! An invitation mail's address (`invite+<token>@REPLY_DOMAIN`) has a token
//! of its own kind: the invitation's id and the expiry, under a MAC of
//! another domain, so that neither kind of token is ever read as the other.

use data_encoding::BASE32_NOPAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// Bytes of the MAC kept: 80 bits, far beyond guessing by mail.
const MAC_BYTES: usize = 10;

/// Separates these MACs from anything else the same keys sign.
const DOMAIN: &[u8] = b"hexpost-reply-v1";
const INVITATION_DOMAIN: &[u8] = b"hexpost-invitation-v1";

/// The local part's prefix before the token.
pub const PREFIX: &str = "move+";
/// The prefix of an invitation's reply address.
pub const INVITATION_PREFIX: &str = "invite+";

/// What a reply token stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyClaims {
    pub game_id: String,
    pub user_id: i64,
    pub move_number: i64,
    /// Unix seconds after which the token is refused.
    pub expires_at: u32,
}

/// What an invitation's reply token stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvitationClaims {
    pub invitation_id: String,
    /// Unix seconds after which the token is refused.
    pub expires_at: u32,
}

/// Why a token is refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenError {
    /// Not a token this server made, or altered.
    Forged,
    Expired,
}

pub struct ReplyKeys {
    keys: Vec<Vec<u8>>,
}

impl ReplyKeys {
    /// `keys` as `JWT_KEYS` lists them, the signing key first.
    pub fn new(keys: &[(String, Vec<u8>)]) -> ReplyKeys {
        ReplyKeys {
            keys: keys.iter().map(|(_, secret)| secret.clone()).collect(),
        }
    }

    /// The token for `claims`; None when the game's id is not a UUID
    /// (games of every release have one, but the token has room for no
    /// other).
    pub fn issue(&self, claims: &ReplyClaims) -> Option<String> {
        let game = uuid::Uuid::parse_str(&claims.game_id).ok()?;
        let mut bytes = game.as_bytes().to_vec();
        push_varint(&mut bytes, u64::try_from(claims.user_id).ok()?);
        push_varint(&mut bytes, u64::try_from(claims.move_number).ok()?);
        bytes.extend_from_slice(&claims.expires_at.to_be_bytes());
        Some(self.seal(DOMAIN, bytes))
    }

    /// The claims of `token` (any case) if one of the keys made it and it
    /// has not expired at `now_secs`.
    pub fn verify(&self, token: &str, now_secs: u64) -> Result<ReplyClaims, TokenError> {
        let body = self.open(DOMAIN, token)?;
        let claims = decode(&body).ok_or(TokenError::Forged)?;
        unexpired(claims.expires_at, now_secs)?;
        Ok(claims)
    }

    /// The token of an invitation's reply address; None when its id is not
    /// a UUID.
    pub fn issue_invitation(&self, claims: &InvitationClaims) -> Option<String> {
        let id = uuid::Uuid::parse_str(&claims.invitation_id).ok()?;
        let mut bytes = id.as_bytes().to_vec();
        bytes.extend_from_slice(&claims.expires_at.to_be_bytes());
        Some(self.seal(INVITATION_DOMAIN, bytes))
    }

    /// [`ReplyKeys::verify`] for an invitation's token.
    pub fn verify_invitation(
        &self,
        token: &str,
        now_secs: u64,
    ) -> Result<InvitationClaims, TokenError> {
        let body = self.open(INVITATION_DOMAIN, token)?;
        let (id, expiry) = body.split_at_checked(16).ok_or(TokenError::Forged)?;
        let claims = InvitationClaims {
            invitation_id: uuid::Uuid::from_slice(id)
                .map_err(|_| TokenError::Forged)?
                .to_string(),
            expires_at: u32::from_be_bytes(expiry.try_into().map_err(|_| TokenError::Forged)?),
        };
        unexpired(claims.expires_at, now_secs)?;
        Ok(claims)
    }

    /// `body` with its MAC under the signing key, in lowercase base32.
    fn seal(&self, domain: &[u8], mut body: Vec<u8>) -> String {
        let mac = mac(&self.keys[0], domain, &body);
        body.extend_from_slice(&mac);
        BASE32_NOPAD.encode(&body).to_ascii_lowercase()
    }

    /// The body of `token` if one of the keys made its MAC.
    fn open(&self, domain: &[u8], token: &str) -> Result<Vec<u8>, TokenError> {
        let mut bytes = BASE32_NOPAD
            .decode(token.to_ascii_uppercase().as_bytes())
            .map_err(|_| TokenError::Forged)?;
        let split = bytes
            .len()
            .checked_sub(MAC_BYTES)
            .ok_or(TokenError::Forged)?;
        let tag = bytes.split_off(split);
        if !self
            .keys
            .iter()
            .any(|key| verifies(key, domain, &bytes, &tag))
        {
            return Err(TokenError::Forged);
        }
        Ok(bytes)
    }
}

fn unexpired(expires_at: u32, now_secs: u64) -> Result<(), TokenError> {
    if u64::from(expires_at) < now_secs {
        return Err(TokenError::Expired);
    }
    Ok(())
}

/// The token of a reply address's local part (`move+<token>`), any case.
pub fn from_local_part(local: &str) -> Option<&str> {
    after_prefix(local, PREFIX)
}

/// The token after `prefix` (`move+`, `invite+`) in a local part, any case.
pub fn after_prefix<'a>(local: &'a str, prefix: &str) -> Option<&'a str> {
    let head = local.get(..prefix.len())?;
    head.eq_ignore_ascii_case(prefix)
        .then(|| &local[prefix.len()..])
        .filter(|token| !token.is_empty())
}

fn keyed(key: &[u8], domain: &[u8]) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(domain);
    mac
}

fn mac(key: &[u8], domain: &[u8], body: &[u8]) -> [u8; MAC_BYTES] {
    let mut mac = keyed(key, domain);
    mac.update(body);
    let full = mac.finalize().into_bytes();
    let mut out = [0; MAC_BYTES];
    out.copy_from_slice(&full[..MAC_BYTES]);
    out
}

/// Compares in constant time (`verify_truncated_left`).
fn verifies(key: &[u8], domain: &[u8], body: &[u8], tag: &[u8]) -> bool {
    let mut mac = keyed(key, domain);
    mac.update(body);
    mac.verify_truncated_left(tag).is_ok()
}

fn decode(body: &[u8]) -> Option<ReplyClaims> {
    let game = uuid::Uuid::from_slice(body.get(..16)?).ok()?;
    let mut rest = &body[16..];
    let user_id = i64::try_from(take_varint(&mut rest)?).ok()?;
    let move_number = i64::try_from(take_varint(&mut rest)?).ok()?;
    let expires_at = u32::from_be_bytes(rest.try_into().ok()?);
    Some(ReplyClaims {
        game_id: game.to_string(),
        user_id,
        move_number,
        expires_at,
    })
}

/// LEB128: seven bits a byte, the high bit set on all but the last.
fn push_varint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

fn take_varint(input: &mut &[u8]) -> Option<u64> {
    let mut n = 0u64;
    for (i, byte) in input.iter().enumerate().take(10) {
        n |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            *input = &input[i + 1..];
            return Some(n);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(names: &[(&str, &[u8])]) -> ReplyKeys {
        ReplyKeys::new(
            &names
                .iter()
                .map(|(k, s)| (k.to_string(), s.to_vec()))
                .collect::<Vec<_>>(),
        )
    }

    fn claims() -> ReplyClaims {
        ReplyClaims {
            game_id: "0b5c2a4e-6f1d-4c3b-9a8e-7d6c5b4a3f21".into(),
            user_id: 123_456,
            move_number: 70_000,
            expires_at: 2_000_000_000,
        }
    }

    #[test]
    fn a_token_round_trips_in_any_case_and_fits_a_local_part() {
        let k = keys(&[("a", b"first secret key of thirty-two b")]);
        let token = k.issue(&claims()).unwrap();
        assert!(PREFIX.len() + token.len() <= 64, "{token}");
        assert_eq!(k.verify(&token, 1_000).unwrap(), claims());
        assert_eq!(
            k.verify(&token.to_ascii_uppercase(), 1_000).unwrap(),
            claims()
        );
        let local = format!("MOVE+{}", token.to_ascii_uppercase());
        assert_eq!(
            from_local_part(&local).map(str::to_ascii_lowercase),
            Some(token)
        );
        assert_eq!(from_local_part("move+"), None);
        assert_eq!(from_local_part("hexpost"), None);
    }

    #[test]
    fn rotated_keys_verify_and_unknown_keys_or_changes_do_not() {
        let old = keys(&[("old", b"the old key")]);
        let token = old.issue(&claims()).unwrap();
        let rotated = keys(&[("new", b"the new key"), ("old", b"the old key")]);
        assert!(rotated.verify(&token, 0).is_ok());
        let other = keys(&[("new", b"the new key")]);
        assert_eq!(other.verify(&token, 0), Err(TokenError::Forged));
        // Every single changed character is refused.
        for i in 0..token.len() {
            let mut changed = token.clone().into_bytes();
            changed[i] = if changed[i] == b'a' { b'b' } else { b'a' };
            let changed = String::from_utf8(changed).unwrap();
            assert!(old.verify(&changed, 0).is_err(), "{changed}");
        }
        for bad in ["", "not base32!", "aaaa", &token[..20]] {
            assert_eq!(old.verify(bad, 0), Err(TokenError::Forged), "{bad}");
        }
    }

    #[test]
    fn an_expired_token_is_refused() {
        let k = keys(&[("a", b"key")]);
        let token = k.issue(&claims()).unwrap();
        assert!(k.verify(&token, 2_000_000_000).is_ok());
        assert_eq!(k.verify(&token, 2_000_000_001), Err(TokenError::Expired));
    }

    #[test]
    fn an_invitation_token_is_never_read_as_a_move_token_nor_the_reverse() {
        let k = keys(&[("a", b"key")]);
        let invitation = InvitationClaims {
            invitation_id: "7d6c5b4a-3f21-4c3b-9a8e-0b5c2a4e6f1d".into(),
            expires_at: 2_000_000_000,
        };
        let token = k.issue_invitation(&invitation).unwrap();
        assert!(INVITATION_PREFIX.len() + token.len() <= 64, "{token}");
        assert_eq!(
            k.verify_invitation(&token.to_ascii_uppercase(), 0).unwrap(),
            invitation
        );
        assert_eq!(
            k.verify_invitation(&token, 2_000_000_001),
            Err(TokenError::Expired)
        );
        assert_eq!(k.verify(&token, 0), Err(TokenError::Forged));
        let move_token = k.issue(&claims()).unwrap();
        assert_eq!(k.verify_invitation(&move_token, 0), Err(TokenError::Forged));
        let other = keys(&[("b", b"another key")]);
        assert_eq!(other.verify_invitation(&token, 0), Err(TokenError::Forged));
        assert_eq!(after_prefix("INVITE+abc", INVITATION_PREFIX), Some("abc"));
        assert_eq!(after_prefix("move+abc", INVITATION_PREFIX), None);
    }
}
