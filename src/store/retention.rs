//! Rows that matter only for a while: a game mail's sign-in codes, ended
//! sessions (their refresh tokens go with them, by the foreign key) and
//! the replies kept for `Idempotency-Key`s. Each is kept `KEPT_MS` after it
//! stopped mattering, so that a late request still gets its precise
//! refusal ("this sign-in link has expired", "this session was ended")
//! rather than "unknown", and then deleted by the deadline sweeper.

use super::schema::{idempotency_keys, sessions, sign_in_codes};
use super::{DbConnection, StoreResult};
use diesel::prelude::*;

/// How long a row is kept after its end: 30 days.
pub const KEPT_MS: i64 = 30 * 86_400_000;

/// How many rows of each kind one call deleted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Forgotten {
    pub sign_in_codes: usize,
    pub sessions: usize,
    pub idempotency_keys: usize,
}

impl Forgotten {
    pub fn any(&self) -> bool {
        *self != Forgotten::default()
    }
}

/// Deletes every row that ended more than `KEPT_MS` before `now`. A
/// session ends when revoked, at its lifetime's end, or `session_idle_ms`
/// after it was last used. Each kind is one statement, so several
/// instances may run this at once.
pub fn forget_ended(
    conn: &mut DbConnection,
    now: i64,
    session_idle_ms: i64,
) -> StoreResult<Forgotten> {
    let cutoff = now - KEPT_MS;
    let sign_in_codes =
        diesel::delete(sign_in_codes::table.filter(sign_in_codes::expires_at.lt(cutoff)))
            .execute(conn)?;
    let sessions = diesel::delete(
        sessions::table.filter(
            sessions::revoked_at.lt(cutoff).or(sessions::expires_at
                .lt(cutoff)
                .or(sessions::last_used_at.lt(cutoff.saturating_sub(session_idle_ms)))
                .nullable()),
        ),
    )
    .execute(conn)?;
    let idempotency_keys =
        diesel::delete(idempotency_keys::table.filter(idempotency_keys::created_at.lt(cutoff)))
            .execute(conn)?;
    Ok(Forgotten {
        sign_in_codes,
        sessions,
        idempotency_keys,
    })
}
