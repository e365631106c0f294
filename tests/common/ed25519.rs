//! Ed25519 key pairs as a client holds them: it signs moves and the proof
//! that registers its key with jsonwebtoken, as a client library would.

use super::{Api, Reply};
use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::{Value, json};
use std::sync::atomic::{AtomicU64, Ordering};

static COUNTER: AtomicU64 = AtomicU64::new(0);

pub fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

pub struct Ed25519 {
    pub signing: ed25519_dalek::SigningKey,
    /// The raw public key, base64url without padding, as the API takes it.
    pub public: String,
}

impl Ed25519 {
    /// A new key pair, different from every other this process made.
    pub fn generate() -> Ed25519 {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let mut rng = hexpost_engine::rng::GameRng::from_seed(
            hexpost::store::now_ms() as u64 ^ (n << 40) ^ u64::from(std::process::id()),
        );
        let mut seed = [0u8; 32];
        for chunk in seed.chunks_mut(8) {
            chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
        }
        Ed25519::from_seed(seed)
    }

    pub fn from_seed(seed: [u8; 32]) -> Ed25519 {
        let signing = ed25519_dalek::SigningKey::from_bytes(&seed);
        let public = b64(signing.verifying_key().as_bytes());
        Ed25519 { signing, public }
    }

    /// A compact JWS of `claims` (EdDSA).
    pub fn sign(&self, claims: &Value) -> String {
        // PrivateKeyInfo { version 0, AlgorithmIdentifier { 1.3.101.112 },
        // OCTET STRING { OCTET STRING seed } }, as jsonwebtoken takes it.
        let mut der = vec![
            0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22,
            0x04, 0x20,
        ];
        der.extend_from_slice(self.signing.as_bytes());
        encode(
            &Header::new(Algorithm::EdDSA),
            claims,
            &EncodingKey::from_ed_der(&der),
        )
        .unwrap()
    }

    /// The proof that `user` holds this key, as the API asks for it.
    pub fn proof(&self, user: i64) -> String {
        self.sign(
            &json!({"purpose": "register_key", "sub": user.to_string(), "public_key": self.public}),
        )
    }

    /// Registers the key for `api`'s user, `user`.
    pub fn register(&self, api: &Api, user: i64) -> Reply {
        api.post(
            "/api/v1/me/keys",
            &json!({"public_key": self.public, "proof": self.proof(user)}),
        )
    }
}

/// The claims of a signed move, with a jti no other call gives.
pub fn move_claims(id: &str, n: i64, action: &Value) -> Value {
    json!({
        "game_id": id,
        "move_number": n,
        "action": action,
        "iat": jsonwebtoken::get_current_timestamp(),
        "jti": format!("jti-{}-{}", hexpost::store::now_ms(), COUNTER.fetch_add(1, Ordering::SeqCst)),
    })
}
