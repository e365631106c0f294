//! Submitting a move and reading the move log.

use super::chain::{Entry, NewRows, RecentEvents};
use super::engine_state;
use super::game_cache::{CachedGame, GameCache, Used};
use super::games::{self, Seated, finish_update};
use super::{Now, notify, timeouts};
use crate::error::Error;
use crate::store::games::{self as db, IdempotencyRecord, MoveRow, status};
use crate::store::{DbConnection, users};
use base64::Engine;
use hexpost_engine::{Action, Event, LegalAction, Redact, Seat};
use serde::{Deserialize, Serialize};
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

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct MoveOutcome {
    /// The game's move number after this move and the automated steps it
    /// triggered (each of them is a log row of its own).
    pub move_number: i64,
    /// What happened, as you may see it: your move's events, then those of
    /// every automated step that followed.
    pub events: Vec<Event>,
    /// Your view after the move.
    pub view: hexpost_engine::GameView,
    pub legal_actions: Vec<LegalAction>,
    pub status: String,
    pub chain_head: String,
}

/// How far a signed move's `iat` may be from the server's clock.
const JWS_MAX_SKEW_SECS: i64 = 24 * 3600;

struct Parsed {
    expected: i64,
    action: Action,
    jws: Option<String>,
}

fn parse_action(mut value: serde_json::Value) -> Result<Action, Error> {
    super::whole_numbers::normalize(&mut value);
    serde_json::from_value(value).map_err(|e| {
        Error::unprocessable("invalid_action", format!("the action is not valid: {e}"))
    })
}

fn parse_request(
    conn: &mut DbConnection,
    user: i64,
    game_id: &str,
    req: MoveRequest,
    now: Now,
) -> Result<Parsed, Error> {
    match (req.jws, req.expected_move_number, req.action) {
        (None, Some(expected), Some(action)) => Ok(Parsed {
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
            Ok(Parsed {
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

/// How often a move is read and checked again when the game changed
/// between its read and its write. A concurrent move makes the next
/// attempt stale at once; a reminder or a vacation does not, and two of
/// them within one move's few milliseconds are unheard of.
const ATTEMPTS: usize = 3;

/// Applies one move with every automated step it triggers, its log rows,
/// the game row update and the mails it causes, written as one change.
///
/// The game is read without a lock, and the change is written only if the
/// game row is still the version read (see `store::change`). When another
/// change came first, the move is read and checked again: a concurrent
/// duplicate then finds itself stale, or, sent with the same
/// Idempotency-Key, gets the first one's response.
///
/// When this instance wrote the game last, the move starts from that copy
/// instead of reading it (`game_cache`); if the copy turns out stale, or
/// the move is refused, it starts again from the database, which alone
/// decides a refusal.
pub fn submit(
    conn: &mut DbConnection,
    cache: &GameCache,
    user: i64,
    game_id: &str,
    req: MoveRequest,
    idempotency: Option<(String, String)>,
    now: Now,
) -> Result<(u16, String), Error> {
    match cache.get(game_id) {
        None => cache.count(Used::Miss),
        Some(copy) => {
            let from_copy = attempt(
                conn,
                Some(&copy),
                user,
                game_id,
                req.clone(),
                idempotency.as_ref(),
                now,
            );
            if let Ok(Some(done)) = from_copy {
                cache.count(Used::Hit);
                return Ok(done.keep_in(cache));
            }
            cache.count(Used::ReadAgain);
            cache.forget(game_id);
        }
    }
    for _ in 0..ATTEMPTS {
        let attempt = attempt(
            conn,
            None,
            user,
            game_id,
            req.clone(),
            idempotency.as_ref(),
            now,
        )?;
        if let Some(done) = attempt {
            return Ok(done.keep_in(cache));
        }
    }
    Err(Error::conflict(
        "concurrent_update",
        "the game kept changing while this move was applied; send it again",
    ))
}

/// What a move answers, and the game as it wrote it (none when the answer
/// is a stored Idempotency-Key response).
struct Done {
    response: (u16, String),
    written: Option<CachedGame>,
}

impl Done {
    fn keep_in(self, cache: &GameCache) -> (u16, String) {
        if let Some(game) = self.written {
            cache.keep(game);
        }
        self.response
    }
}

/// One read-check-write of `submit`; None when the game changed before the
/// write. Started from `copy`, None also when the move is not written for
/// any other reason, so that the database decides it.
fn attempt(
    conn: &mut DbConnection,
    copy: Option<&CachedGame>,
    user: i64,
    game_id: &str,
    req: MoveRequest,
    idempotency: Option<&(String, String)>,
    now: Now,
) -> Result<Option<Done>, Error> {
    let (mut game, seat_users, seat, copied) = match copy {
        Some(copy) => {
            let Some(seat) = copy.seat_users.iter().position(|u| *u == user) else {
                return Ok(None);
            };
            let known = (copy.state.clone(), copy.recent.clone(), copy.people.clone());
            (copy.game.clone(), copy.seat_users, seat as u8, Some(known))
        }
        None => {
            let Seated {
                game,
                seat_users,
                seat,
            } = games::read_seated(conn, game_id, user)?;
            (game, seat_users, seat, None)
        }
    };
    if let Some((key, hash)) = idempotency
        && let Some(rec) = db::idempotency_get(conn, user, key)?
    {
        if &rec.request_hash != hash {
            return Err(Error::unprocessable(
                "idempotency_key_reused",
                "this Idempotency-Key was used with a different request",
            ));
        }
        return Ok(Some(Done {
            response: (rec.status as u16, rec.response),
            written: None,
        }));
    }
    let parsed = parse_request(conn, user, game_id, req, now)?;
    games::require_active(&game)?;
    if parsed.expected != game.move_number {
        if copy.is_some() {
            // The copy may be the stale one, not the client: the database
            // decides, so the 409 is not worth building here.
            return Ok(None);
        }
        let current = games::detail(conn, &game, user)?;
        return Err(Error::conflict(
            "stale_move",
            format!(
                "expected move number {}, the game is at {}",
                parsed.expected, game.move_number
            ),
        )
        .with("current_move_number", game.move_number)
        .with("game", current));
    }
    let (mut state, recent, people) = match copied {
        Some(known) => known,
        None => (engine_state(&game)?, RecentEvents::default(), None),
    };
    let was_awaited = timeouts::awaited(&state);
    let mut events = state
        .apply_decision(Seat(seat), &parsed.action)
        .map_err(|e| {
            Error::unprocessable("illegal_move", format!("illegal move: {e}"))
                .with("reason", &e)
                .with("move_number", game.move_number)
        })?;
    let mut rows = NewRows::after_known(&game, now.at, recent, people);
    let entry = Entry::player(seat, user, &parsed.action, parsed.jws)?;
    rows.push(entry, &events, &state)?;
    let decision = (seat as usize, rows.seq());
    events.extend(rows.automated_steps(&mut state)?);
    finish_update(&mut game, &state, &seat_users, &rows);
    timeouts::after_decision(&mut game, was_awaited, &state, Some(decision), now)?;
    notify::after_move(conn, &mut game, &state, &seat_users, Some(user), &mut rows)?;
    let viewer = Some(Seat(seat));
    let outcome = MoveOutcome {
        move_number: game.move_number,
        events: events.iter().map(|e| e.redacted_for(viewer)).collect(),
        view: state.view(viewer),
        legal_actions: if game.status == status::ACTIVE {
            state.legal_actions(Seat(seat))
        } else {
            Vec::new()
        },
        status: game.status.clone(),
        chain_head: game.chain_head.clone(),
    };
    // Serialized once: the same text is the response and, with an
    // Idempotency-Key, what a retry gets back.
    let body = serde_json::to_string(&outcome).map_err(Error::internal)?;
    let record = idempotency.map(|(key, hash)| IdempotencyRecord {
        user_id: user,
        key: key.clone(),
        request_hash: hash.clone(),
        status: 200,
        response: body.clone(),
        created_at: now.at,
    });
    let (recent, people) = (rows.recent_after(), rows.people_known());
    let written = rows.write_alone(conn, &mut game, record.as_ref())?;
    Ok(written.then(|| Done {
        response: (200, body),
        written: Some(CachedGame {
            game,
            state,
            seat_users,
            recent,
            people,
        }),
    }))
}

#[derive(Serialize, ToSchema, Debug)]
pub struct LogEntry {
    pub seq: i64,
    /// `seat:N` for a player's move, `server` for what the server did.
    pub actor: String,
    /// The seat that acted: the player's, or for an automated step the
    /// neutral or fictional seat (or the real seat whose automatic roll it
    /// made). None for the start row.
    pub seat: Option<u8>,
    /// A player's engine action, or a server entry: `start`, `resign`, or
    /// `automated_step` (a neutral or fictional seat's action, or an
    /// automatic roll, that the server resolved after the row before).
    #[schema(value_type = Object)]
    pub action: serde_json::Value,
    /// The signed move, verbatim, when the move was signed.
    pub jws: Option<String>,
    /// The events, redacted for the reader.
    #[schema(value_type = Vec<hexpost_engine::Event>)]
    pub events: Vec<serde_json::Value>,
    pub state_hash: String,
    pub prev_hash: String,
    pub hash: String,
    pub created_at: i64,
}

/// Log rows after `after`, with events redacted for `viewer` (None: the
/// full log, for admins).
pub fn log(
    conn: &mut DbConnection,
    game_id: &str,
    viewer: Option<Option<Seat>>,
    after: i64,
    limit: i64,
) -> Result<Vec<LogEntry>, Error> {
    let rows = db::moves(conn, game_id, after, limit)?;
    rows.into_iter().map(|r| entry(r, viewer)).collect()
}

fn entry(row: MoveRow, viewer: Option<Option<Seat>>) -> Result<LogEntry, Error> {
    let events: Vec<Event> = serde_json::from_str(&row.events).map_err(Error::internal)?;
    let events = events
        .iter()
        .map(|e| {
            let shown = match viewer {
                Some(v) => e.redacted_for(v),
                None => e.clone(),
            };
            serde_json::to_value(shown).unwrap_or_default()
        })
        .collect();
    Ok(LogEntry {
        seq: row.seq,
        actor: row.actor,
        seat: row.seat.map(|s| s as u8),
        action: serde_json::from_str(&row.action).unwrap_or_default(),
        jws: row.jws,
        events,
        state_hash: row.state_hash,
        prev_hash: row.prev_hash,
        hash: row.hash,
        created_at: row.created_at,
    })
}

/// Every row of a game, for verification and export.
pub fn all_rows(conn: &mut DbConnection, game_id: &str) -> Result<Vec<MoveRow>, Error> {
    let mut out = Vec::new();
    loop {
        let after = out.last().map(|r: &MoveRow| r.seq).unwrap_or(0);
        let batch = db::moves(conn, game_id, after, 1000)?;
        if batch.is_empty() {
            return Ok(out);
        }
        out.extend(batch);
    }
}
