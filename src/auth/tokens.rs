//! Short-lived access tokens (JWT, HS256). The algorithm is pinned on
//! decode, the audience checked, and the header's key id picks the key, so
//! keys rotate without logging everyone out.

use crate::error::Error;
use jsonwebtoken::{
    Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, decode_header, encode,
};
use serde::{Deserialize, Serialize};

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    /// The user id, as a string.
    pub sub: String,
    pub aud: String,
    pub iat: u64,
    pub exp: u64,
    /// Admin rights at the time of issue.
    #[serde(default)]
    pub adm: bool,
}

impl Claims {
    pub fn user_id(&self) -> Result<i64, Error> {
        self.sub
            .parse()
            .map_err(|_| Error::unauthorized("token subject is not a user"))
    }
}

pub struct TokenKeys {
    keys: Vec<(String, EncodingKey, DecodingKey)>,
    audience: String,
    ttl_secs: u64,
}

impl TokenKeys {
    pub fn new(keys: &[(String, Vec<u8>)], audience: &str, ttl_secs: u64) -> TokenKeys {
        TokenKeys {
            keys: keys
                .iter()
                .map(|(kid, secret)| {
                    (
                        kid.clone(),
                        EncodingKey::from_secret(secret),
                        DecodingKey::from_secret(secret),
                    )
                })
                .collect(),
            audience: audience.to_string(),
            ttl_secs,
        }
    }

    pub fn ttl_secs(&self) -> u64 {
        self.ttl_secs
    }

    pub fn issue(&self, user_id: i64, is_admin: bool) -> Result<String, Error> {
        let (kid, key, _) = &self.keys[0];
        let now = jsonwebtoken::get_current_timestamp();
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(kid.clone());
        let claims = Claims {
            sub: user_id.to_string(),
            aud: self.audience.clone(),
            iat: now,
            exp: now + self.ttl_secs,
            adm: is_admin,
        };
        encode(&header, &claims, key).map_err(Error::internal)
    }

    pub fn verify(&self, token: &str) -> Result<Claims, Error> {
        let header = decode_header(token)
            .map_err(|e| Error::unauthorized(format!("malformed token: {e}")))?;
        if header.alg != Algorithm::HS256 {
            return Err(Error::unauthorized(format!(
                "token algorithm {:?} is not accepted",
                header.alg
            )));
        }
        let key = match &header.kid {
            Some(kid) => self.keys.iter().find(|(k, _, _)| k == kid),
            None => None,
        }
        .ok_or_else(|| Error::unauthorized("token key id is unknown"))?;
        let mut validation = Validation::new(Algorithm::HS256);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "aud", "sub"]);
        validation.leeway = 5;
        decode::<Claims>(token, &key.2, &validation)
            .map(|d| d.claims)
            .map_err(|e| Error::unauthorized(format!("invalid token: {e}")))
    }
}
