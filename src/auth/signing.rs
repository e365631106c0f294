//! The Ed25519 keys players register and the compact JWS (EdDSA) they sign
//! with: moves, and the proof that they hold a key they register.
//!
//! Verification is strict (`verify_strict`): besides the equation of RFC
//! 8032 it refuses a key or an `R` of small order and a non-canonical `S`
//! or `R`. The lenient check accepted `R` = identity, `S` = 0 for the
//! all-zero key on one message in four, a signature anybody can make. A
//! key is accepted only if it is canonical (its 32 bytes are the encoding
//! of its point) and not of small order, so that one key has one text and
//! no weak key is registered.

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use ed25519_dalek::{Signature, VerifyingKey};
use serde::Deserialize;

/// A registered key's text (base64url, no padding, of 32 bytes) as a key
/// that signatures can be checked with, or why it is not one.
pub fn public_key(text: &str) -> Result<VerifyingKey, String> {
    let raw = URL_SAFE_NO_PAD
        .decode(text)
        .map_err(|_| "the key must be base64url without padding".to_string())?;
    let bytes: [u8; 32] = raw
        .as_slice()
        .try_into()
        .map_err(|_| format!("an Ed25519 public key has 32 bytes, not {}", raw.len()))?;
    let key = VerifyingKey::from_bytes(&bytes)
        .map_err(|_| "the 32 bytes are not a point of Ed25519".to_string())?;
    if key.to_edwards().compress().to_bytes() != bytes {
        return Err("the key is not in its canonical encoding".into());
    }
    if key.is_weak() {
        return Err("the key is of small order: anybody can sign for it".into());
    }
    Ok(key)
}

/// A compact JWS whose header asks for EdDSA, taken apart; `signed_by`
/// checks its signature with a key.
pub struct CompactJws<'a> {
    signing_input: &'a str,
    payload: Vec<u8>,
    signature: Signature,
}

#[derive(Deserialize)]
struct Header {
    alg: String,
}

impl<'a> CompactJws<'a> {
    /// Splits `jws` (`header.payload.signature`, each base64url without
    /// padding); refuses another algorithm than EdDSA.
    pub fn parse(jws: &'a str) -> Result<CompactJws<'a>, String> {
        let (signing_input, signature) = jws
            .rsplit_once('.')
            .ok_or_else(|| "malformed JWS: expected header.payload.signature".to_string())?;
        let (header, payload) = signing_input
            .split_once('.')
            .filter(|(_, payload)| !payload.contains('.'))
            .ok_or_else(|| "malformed JWS: expected header.payload.signature".to_string())?;
        let part = |text: &str, what: &str| {
            URL_SAFE_NO_PAD
                .decode(text)
                .map_err(|_| format!("malformed JWS: the {what} is not base64url"))
        };
        let header: Header = serde_json::from_slice(&part(header, "header")?)
            .map_err(|e| format!("malformed JWS header: {e}"))?;
        if header.alg != "EdDSA" {
            return Err(format!(
                "JWS algorithm {} is not accepted; use EdDSA",
                header.alg
            ));
        }
        let signature = Signature::from_slice(&part(signature, "signature")?)
            .map_err(|_| "malformed JWS: an Ed25519 signature has 64 bytes".to_string())?;
        Ok(CompactJws {
            signing_input,
            payload: part(payload, "payload")?,
            signature,
        })
    }

    /// Whether `key` made the signature (strictly verified).
    pub fn signed_by(&self, key: &VerifyingKey) -> bool {
        key.verify_strict(self.signing_input.as_bytes(), &self.signature)
            .is_ok()
    }

    /// The payload, as signed.
    pub fn payload(&self) -> &[u8] {
        &self.payload
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use ed25519_dalek::{Signer, SigningKey};

    fn b64(bytes: &[u8]) -> String {
        URL_SAFE_NO_PAD.encode(bytes)
    }

    fn signed(key: &SigningKey, header: &str, payload: &str) -> String {
        let input = format!("{}.{}", b64(header.as_bytes()), b64(payload.as_bytes()));
        let signature = key.sign(input.as_bytes());
        format!("{input}.{}", b64(&signature.to_bytes()))
    }

    #[test]
    fn good_keys_and_signatures_pass() {
        let key = SigningKey::from_bytes(&[7; 32]);
        let public = public_key(&b64(key.verifying_key().as_bytes())).unwrap();
        let jws = signed(&key, r#"{"alg":"EdDSA"}"#, r#"{"a":1}"#);
        let parsed = CompactJws::parse(&jws).unwrap();
        assert!(parsed.signed_by(&public));
        assert_eq!(parsed.payload(), br#"{"a":1}"#);
        let other = SigningKey::from_bytes(&[8; 32]).verifying_key();
        assert!(!parsed.signed_by(&other));
    }

    #[test]
    fn weak_and_malformed_keys_are_refused() {
        // The all-zero key (a point of order 4) and the identity.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        for weak in [[0u8; 32], identity] {
            assert!(public_key(&b64(&weak)).is_err());
        }
        for bad in ["", "not base64!", &b64(&[7; 31]), &b64(&[7; 33])] {
            assert!(public_key(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn malformed_and_other_algorithms_are_refused() {
        let key = SigningKey::from_bytes(&[7; 32]);
        let good = signed(&key, r#"{"alg":"EdDSA"}"#, "{}");
        let parts: Vec<&str> = good.split('.').collect();
        for jws in [
            signed(&key, r#"{"alg":"HS256"}"#, "{}"),
            signed(&key, r#"{"alg":"none"}"#, "{}"),
            signed(&key, r#"{}"#, "{}"),
            format!("{}.{}", parts[0], parts[1]),
            format!("{good}.x"),
            format!("{}.{}.{}", parts[0], parts[1], b64(&[0; 63])),
            format!("{}.{}.{}=", parts[0], parts[1], parts[2]),
            "not a jws".to_string(),
        ] {
            assert!(CompactJws::parse(&jws).is_err(), "{jws}");
        }
    }

    /// R = identity, S = 0 satisfies the lenient equation for a key of
    /// small order whenever the hash is a multiple of its order.
    #[test]
    fn the_identity_signature_of_a_weak_key_is_refused() {
        let zero = VerifyingKey::from_bytes(&[0; 32]).unwrap();
        let mut forged = [0u8; 64];
        forged[0] = 1;
        let signature = Signature::from_bytes(&forged);
        let lenient_accepts = (0..64)
            .map(|i| format!("message {i}"))
            .find(|m| {
                zero.verify_strict(m.as_bytes(), &signature).is_err()
                    && ed25519_dalek::Verifier::verify(&zero, m.as_bytes(), &signature).is_ok()
            })
            .expect("a message the lenient check accepts");
        let jws = CompactJws {
            signing_input: &lenient_accepts,
            payload: Vec::new(),
            signature,
        };
        assert!(!jws.signed_by(&zero));
    }
}
