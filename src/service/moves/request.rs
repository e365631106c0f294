//! What a move request says: the action with the expected move number,
//! or the same signed as a JWS with one of the player's keys; and the
//! Idempotency-Key that makes a retry safe.

use crate::error::Error;
use crate::service::Now;
use crate::service::whole_numbers;
use crate::store::DbConnection;
use crate::store::users;
use base64::Engine;
use hexpost_engine::Action;
use serde::Deserialize;
use utoipa::ToSchema;

/// A move: either the action with the expected move number (bearer token
/// authenticates), or a compact JWS signed with one of the player's
/// registered Ed25519 keys whose claims carry the same (non-repudiation).
#[derive(Deserialize, ToSchema, Debug, Clone)]
#[serde(deny_unknown_fields)]
pub struct MoveRequest {
    /// The game's current `move_number`; a stale one gets 409.
    #[serde(default, deserialize_with = "crate::service::whole_numbers::optional")]
    #[schema(minimum = 0)]
    pub expected_move_number: Option<i64>,
    /// The engine action, e.g. `{"type": "build_road", "edge": 12}`.
    #[schema(value_type = Option<hexpost_engine::Action>, example = json!({"type": "roll_dice"}))]
    pub action: Option<serde_json::Value>,
    /// Compact JWS (EdDSA) with claims `game_id`, `move_number`, `action`,
    /// `iat`, `jti`. When present, the other two fields must be absent.
    pub jws: Option<String>,
}

#[derive(Deserialize, Debug)]
struct MoveClaims {
    game_id: String,
    move_number: i64,
    action: serde_json::Value,
    iat: i64,
    jti: String,
}

/// How far a signed move's `iat` may be from the server's clock.
const JWS_MAX_SKEW_SECS: i64 = 24 * 3600;

/// The move a request carries, signed or not.
pub(super) struct ParsedMove {
    /// The move number the client expects the game to be at.
    pub expected: i64,
    pub action: Action,
    /// The signed move, verbatim, for the log.
    pub jws: Option<String>,
}

fn parse_action(mut value: serde_json::Value) -> Result<Action, Error> {
    whole_numbers::normalize(&mut value);
    serde_json::from_value(value).map_err(|e| {
        Error::unprocessable("invalid_action", format!("the action is not valid: {e}"))
    })
}

pub(super) fn parse_request(
    conn: &mut DbConnection,
    user: i64,
    game_id: &str,
    req: MoveRequest,
    now: Now,
) -> Result<ParsedMove, Error> {
    match (req.jws, req.expected_move_number, req.action) {
        (None, Some(expected), Some(action)) => Ok(ParsedMove {
            expected,
            action: parse_action(action)?,
            jws: None,
        }),
        (None, _, _) => Err(Error::unprocessable(
            "invalid_body",
            "send `expected_move_number` and `action`, or a signed `jws`",
        )),
        (Some(jws), None, None) => {
            let claims = verify_jws(conn, user, &jws)?;
            if claims.game_id != game_id {
                return Err(Error::forbidden("the signed move is for another game"));
            }
            if claims.iat.saturating_sub(now.at / 1000).unsigned_abs() > JWS_MAX_SKEW_SECS as u64 {
                return Err(Error::unprocessable(
                    "jws_expired",
                    "the signed move's iat is more than a day off",
                ));
            }
            if claims.jti.is_empty() {
                return Err(Error::unprocessable(
                    "invalid_jws",
                    "the jti claim is empty",
                ));
            }
            Ok(ParsedMove {
                expected: claims.move_number,
                action: parse_action(claims.action)?,
                jws: Some(jws),
            })
        }
        (Some(_), _, _) => Err(Error::unprocessable(
            "invalid_body",
            "with `jws`, the move number and action travel inside the signature only",
        )),
    }
}

fn verify_jws(conn: &mut DbConnection, user: i64, jws: &str) -> Result<MoveClaims, Error> {
    use jsonwebtoken::{Algorithm, DecodingKey, Validation, decode, decode_header};
    let bad = |d: String| Error::unauthorized(d).with("reason", "invalid_signature");
    let header = decode_header(jws).map_err(|e| bad(format!("malformed JWS: {e}")))?;
    if header.alg != Algorithm::EdDSA {
        return Err(bad(format!(
            "JWS algorithm {:?} is not accepted; use EdDSA",
            header.alg
        )));
    }
    let mut validation = Validation::new(Algorithm::EdDSA);
    validation.required_spec_claims.clear();
    validation.validate_exp = false;
    validation.validate_aud = false;
    for key in users::active_keys(conn, user)? {
        let Ok(raw) = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(&key.public_key)
        else {
            continue;
        };
        if raw.len() != 32 {
            continue;
        }
        let Ok(dk) = DecodingKey::from_ed_components(&key.public_key) else {
            continue;
        };
        if let Ok(data) = decode::<MoveClaims>(jws, &dk, &validation) {
            return Ok(data.claims);
        }
    }
    Err(bad(
        "the JWS is not signed by any of your registered keys, or its claims are incomplete".into(),
    ))
}

/// A move's Idempotency-Key and the hash of the request it came with.
#[derive(Clone, Debug)]
pub struct IdempotencyKey {
    pub key: String,
    pub request_hash: String,
}

impl IdempotencyKey {
    /// `key` sent with `body` to the moves of `game_id`. serde_json keeps
    /// an object's keys sorted, so equal JSON hashes equally.
    pub fn for_move(key: String, game_id: &str, body: &serde_json::Value) -> IdempotencyKey {
        IdempotencyKey {
            key,
            request_hash: crate::service::audit::sha256_hex(
                format!("{game_id}\n{body}").as_bytes(),
            ),
        }
    }
}
