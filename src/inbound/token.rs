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

use data_encoding::BASE32_NOPAD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// Bytes of the MAC kept: 80 bits, far beyond guessing by mail.
const MAC_BYTES: usize = 10;

/// Separates these MACs from anything else the same keys sign.
const DOMAIN: &[u8] = b"hexpost-reply-v1";

/// The local part's prefix before the token.
pub const PREFIX: &str = "move+";

/// What a reply token stands for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReplyClaims {
    pub game_id: String,
    pub user_id: i64,
    pub move_number: i64,
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
        let mac = mac(&self.keys[0], &bytes);
        bytes.extend_from_slice(&mac);
        Some(BASE32_NOPAD.encode(&bytes).to_ascii_lowercase())
    }

    /// The claims of `token` (any case) if one of the keys made it and it
    /// has not expired at `now_secs`.
    pub fn verify(&self, token: &str, now_secs: u64) -> Result<ReplyClaims, TokenError> {
        let bytes = BASE32_NOPAD
            .decode(token.to_ascii_uppercase().as_bytes())
            .map_err(|_| TokenError::Forged)?;
        let split = bytes
            .len()
            .checked_sub(MAC_BYTES)
            .ok_or(TokenError::Forged)?;
        let (body, tag) = bytes.split_at(split);
        if !self.keys.iter().any(|key| verifies(key, body, tag)) {
            return Err(TokenError::Forged);
        }
        let claims = decode(body).ok_or(TokenError::Forged)?;
        if u64::from(claims.expires_at) < now_secs {
            return Err(TokenError::Expired);
        }
        Ok(claims)
    }
}

/// The token of a reply address's local part (`move+<token>`), any case.
pub fn from_local_part(local: &str) -> Option<&str> {
    let prefix = local.get(..PREFIX.len())?;
    prefix
        .eq_ignore_ascii_case(PREFIX)
        .then(|| &local[PREFIX.len()..])
        .filter(|token| !token.is_empty())
}

fn keyed(key: &[u8]) -> Hmac<Sha256> {
    let mut mac = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
    mac.update(DOMAIN);
    mac
}

fn mac(key: &[u8], body: &[u8]) -> [u8; MAC_BYTES] {
    let mut mac = keyed(key);
    mac.update(body);
    let full = mac.finalize().into_bytes();
    let mut out = [0; MAC_BYTES];
    out.copy_from_slice(&full[..MAC_BYTES]);
    out
}

/// Compares in constant time (`verify_truncated_left`).
fn verifies(key: &[u8], body: &[u8], tag: &[u8]) -> bool {
    let mut mac = keyed(key);
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
}
