//! Short-lived access tokens (JWT, HS256). The algorithm is pinned on
//! decode, the issuer and audience checked, and the header's key id picks
//! the key, so keys rotate without logging everyone out.

use crate::error::Error;
use jsonwebtoken::{
    Algorithm, DecodingKey, EncodingKey, Header, Validation, decode, decode_header, encode,
};
use serde::{Deserialize, Serialize};

/// Clock difference tolerated between the instance that issued a token and
/// the one that checks it, for `exp`, `nbf` and `iat`.
const LEEWAY_SECS: u64 = 5;

#[derive(Debug, Serialize, Deserialize)]
pub struct Claims {
    /// The user id, as a string.
    pub sub: String,
    /// Who issued the token (`JWT_ISSUER`). Tokens of releases before it
    /// was set have none; see `TokenKeys::verify`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub iss: Option<String>,
    pub aud: String,
    pub iat: u64,
    pub exp: u64,
    /// Not before; the server issues none, and checks one it is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub nbf: Option<u64>,
    /// Admin rights at the time of issue.
    #[serde(default)]
    pub adm: bool,
    /// The sign-in session the token was issued to (`service::sessions`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sid: Option<i64>,
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
    secrets: Vec<Vec<u8>>,
    issuer: String,
    audience: String,
    ttl_secs: u64,
    /// Tokens without an issuer are accepted only if issued before this
    /// moment (see `verify`).
    started_at: u64,
}

impl TokenKeys {
    pub fn new(
        keys: &[(String, Vec<u8>)],
        issuer: &str,
        audience: &str,
        ttl_secs: u64,
    ) -> TokenKeys {
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
            secrets: keys.iter().map(|(_, secret)| secret.clone()).collect(),
            issuer: issuer.to_string(),
            audience: audience.to_string(),
            ttl_secs,
            started_at: jsonwebtoken::get_current_timestamp(),
        }
    }

    /// The key refresh-token successors are derived with
    /// (`service::sessions`): the signing key.
    pub fn signing_secret(&self) -> &[u8] {
        &self.secrets[0]
    }

    pub fn ttl_secs(&self) -> u64 {
        self.ttl_secs
    }

    pub fn issue(
        &self,
        user_id: i64,
        is_admin: bool,
        session: Option<i64>,
    ) -> Result<String, Error> {
        let (kid, key, _) = &self.keys[0];
        let now = jsonwebtoken::get_current_timestamp();
        let mut header = Header::new(Algorithm::HS256);
        header.kid = Some(kid.clone());
        let claims = Claims {
            sub: user_id.to_string(),
            iss: Some(self.issuer.clone()),
            aud: self.audience.clone(),
            iat: now,
            exp: now + self.ttl_secs,
            nbf: None,
            adm: is_admin,
            sid: session,
        };
        encode(&header, &claims, key).map_err(Error::internal)
    }

    /// The claims of a token this server issued and that is valid now: the
    /// right algorithm, key, signature, issuer and audience, not expired,
    /// not before its `nbf`, not issued in the future.
    ///
    /// A token without an issuer is one of the releases before the issuer
    /// was set, still in a browser after a deploy: it is accepted if it was
    /// issued before this process started and lives no longer than
    /// `ACCESS_TOKEN_TTL_SECS`, so none passes once one token lifetime
    /// after the start has gone by, and nobody is logged out by the deploy.
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
        validation.set_issuer(&[&self.issuer]);
        validation.set_audience(&[&self.audience]);
        validation.set_required_spec_claims(&["exp", "aud", "sub"]);
        validation.validate_nbf = true;
        validation.leeway = LEEWAY_SECS;
        let claims = decode::<Claims>(token, &key.2, &validation)
            .map(|d| d.claims)
            .map_err(|e| Error::unauthorized(format!("invalid token: {e}")))?;
        if claims.iat > jsonwebtoken::get_current_timestamp() + LEEWAY_SECS {
            return Err(Error::unauthorized("invalid token: issued in the future"));
        }
        if claims.iss.is_none()
            && (claims.iat > self.started_at
                || claims.exp.saturating_sub(claims.iat) > self.ttl_secs)
        {
            return Err(Error::unauthorized("invalid token: no issuer"));
        }
        Ok(claims)
    }
}
