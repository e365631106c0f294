//! What a move request says: the action with the expected move number,
//! or the same signed as a JWS with one of the player's keys; and the
//! Idempotency-Key that makes a retry safe.

use crate::auth::signing::{self, CompactJws};
use crate::error::Error;
use crate::service::Now;
use crate::service::whole_numbers;
use crate::store::DbConnection;
use crate::store::used_jtis::{self, UsedJti};
use crate::store::users;
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
    /// `iat` (within a day of the server's clock) and `jti` (1 to 128
    /// characters, never used before by you: a second move with the same
    /// one is `409 jti_reused`). When present, the other two fields must be
    /// absent.
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

/// The longest `jti` accepted.
const JTI_MAX_CHARS: usize = 128;

/// The move a request carries, signed or not.
pub(super) struct ParsedMove {
    /// The move number the client expects the game to be at.
    pub expected: i64,
    pub action: Action,
    /// The signed move, verbatim, for the log.
    pub jws: Option<String>,
    /// The signed move's jti, to be recorded with the move.
    pub used_jti: Option<UsedJti>,
}

/// Refuses an `expected_move_number` that no game can be at: a negative
/// number, a fraction or not a number at all is bad input (400), never a
/// stale move (409), whatever the game's number.
pub fn check_move_number(body: &serde_json::Value) -> Result<(), Error> {
    match body.get("expected_move_number") {
        None | Some(serde_json::Value::Null) => Ok(()),
        Some(n) => {
            let whole = n.as_i64().or_else(|| {
                n.as_f64()
                    .filter(|f| f.fract() == 0.0 && f.abs() < 9.0e15)
                    .map(|f| f as i64)
            });
            match whole {
                Some(n) if n >= 0 => Ok(()),
                _ => Err(invalid_move_number(n)),
            }
        }
    }
}

fn invalid_move_number(n: impl std::fmt::Display) -> Error {
    Error::bad_request(
        "invalid_move_number",
        format!("the move number must be a whole number ≥ 0, not {n}"),
    )
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
            used_jti: None,
        }),
        (None, _, _) => Err(Error::unprocessable(
            "invalid_body",
            "send `expected_move_number` and `action`, or a signed `jws`",
        )),
        (Some(jws), None, None) => {
            let claims = verify_jws(conn, user, &jws)?;
            if claims.move_number < 0 {
                return Err(invalid_move_number(claims.move_number));
            }
            if claims.game_id != game_id {
                return Err(Error::forbidden("the signed move is for another game"));
            }
            if claims.iat.saturating_sub(now.at / 1000).unsigned_abs() > JWS_MAX_SKEW_SECS as u64 {
                return Err(Error::unprocessable(
                    "jws_expired",
                    "the signed move's iat is more than a day off",
                ));
            }
            let jti_chars = claims.jti.chars().count();
            if jti_chars == 0
                || jti_chars > JTI_MAX_CHARS
                || claims.jti.chars().any(char::is_control)
            {
                return Err(Error::unprocessable(
                    "invalid_jws",
                    format!(
                        "the jti claim must be 1 to {JTI_MAX_CHARS} characters without control characters"
                    ),
                ));
            }
            if used_jtis::seen(conn, user, &claims.jti, now.at)? {
                return Err(Error::conflict(
                    "jti_reused",
                    "you signed a move with this jti before; sign each move with a new one",
                ));
            }
            Ok(ParsedMove {
                expected: claims.move_number,
                action: parse_action(claims.action)?,
                jws: Some(jws),
                used_jti: Some(UsedJti {
                    user_id: user,
                    jti: claims.jti,
                    // Past this the iat is too old for the move to pass, so
                    // a replay is refused without the record.
                    expires_at: (claims.iat.saturating_add(JWS_MAX_SKEW_SECS + 1))
                        .saturating_mul(1000),
                }),
            })
        }
        (Some(_), _, _) => Err(Error::unprocessable(
            "invalid_body",
            "with `jws`, the move number and action travel inside the signature only",
        )),
    }
}

/// The claims of `jws` if one of `user`'s active keys signed it (strictly
/// verified; a key registered before keys were checked that is weak or
/// non-canonical signs nothing).
fn verify_jws(conn: &mut DbConnection, user: i64, jws: &str) -> Result<MoveClaims, Error> {
    let bad = |d: String| Error::unauthorized(d).with("reason", "invalid_signature");
    let signed = CompactJws::parse(jws).map_err(bad)?;
    let by_a_key = users::active_keys(conn, user)?
        .iter()
        .filter_map(|key| signing::public_key(&key.public_key).ok())
        .any(|key| signed.signed_by(&key));
    let claims = by_a_key
        .then(|| serde_json::from_slice::<MoveClaims>(signed.payload()).ok())
        .flatten();
    claims.ok_or_else(|| {
        bad(
            "the JWS is not signed by any of your registered keys, or its claims are incomplete"
                .into(),
        )
    })
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
