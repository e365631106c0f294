//! Rows that matter only for a while: a game mail's sign-in codes, ended
//! sessions (their refresh tokens go with them, by the foreign key) and
//! the replies kept for `Idempotency-Key`s. Each is kept `KEPT_MS` after it
//! stopped mattering, so that a late request still gets its precise
//! refusal ("this sign-in link has expired", "this session was ended")
//! rather than "unknown", and then deleted by the deadline sweeper.
//!
//! A sent mail's row stays, since the next turn mail reads its game,
//! recipient and move number, and its Message-ID keeps the mail from
//! being queued twice; only the context its templates rendered (the
//! board's scene and the words, 2 to 3 kB) is emptied `KEPT_MS` after it
//! was sent. Until then an admin can see what a player was sent.

use super::outbox::status;
use super::schema::{idempotency_keys, outbox, sessions, sign_in_codes};
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
    /// Sent mails whose stored context was emptied.
    pub mail_contexts: usize,
    /// Account codes expired or used (a registration never confirmed
    /// goes with its name and password hash): these are kept no longer
    /// than they work, as the person never got an account.
    pub account_codes: usize,
}

impl Forgotten {
    pub fn any(&self) -> bool {
        *self != Forgotten::default()
    }
}

/// Deletes every row that ended more than `KEPT_MS` before `now`, and
/// empties the context of every mail sent before then. A session ends
/// when revoked, at its lifetime's end, or `session_idle_ms` after it was
/// last used. Each kind is one statement, so several instances may run
/// this at once.
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
    // A mail is sent once due, so `due_at` is below the cutoff too: that
    // bound lets the planner take the outbox's (status, due_at) index
    // while few rows are that old (with most of them old, PostgreSQL
    // scans the table: docs/performance.md, "Housekeeping").
    let mail_contexts = diesel::update(
        outbox::table
            .filter(outbox::status.eq(status::SENT))
            .filter(outbox::due_at.lt(cutoff))
            .filter(outbox::sent_at.lt(cutoff))
            .filter(outbox::context.ne("")),
    )
    .set(outbox::context.eq(""))
    .execute(conn)?;
    let account_codes = super::account_codes::forget_ended(conn, now)?;
    Ok(Forgotten {
        sign_in_codes,
        sessions,
        idempotency_keys,
        mail_contexts,
        account_codes,
    })
}
