//! The mail outbox. Use cases insert rows in their own transactions, so a
//! mail exists exactly when what caused it was committed; the worker claims
//! due rows under a lease, sends them, and marks them sent or reschedules
//! them. Several workers (instances) can drain one outbox: PostgreSQL skips
//! rows another claim holds locked, SQLite has a single writer, and a lease
//! that runs out (a worker died mid-send) frees its rows again.

use super::schema::outbox;
use super::{DbConnection, StoreResult, write_tx};
use diesel::prelude::*;

pub mod status {
    pub const PENDING: &str = "pending";
    pub const SENT: &str = "sent";
    pub const FAILED: &str = "failed";
    /// Nothing to say by the time it was due (a digest with no game
    /// waiting); never sent.
    pub const SKIPPED: &str = "skipped";
}

pub mod kind {
    pub const INVITATION: &str = "invitation";
    pub const ACCEPTED: &str = "accepted";
    pub const DECLINED: &str = "declined";
    pub const YOUR_MOVE: &str = "your_move";
    pub const GAME_OVER: &str = "game_over";
    pub const REMINDER: &str = "reminder";
    pub const TIMEOUT: &str = "timeout";
    /// One a day per person, listing the games waiting for them; its
    /// content is gathered when it is sent.
    pub const DIGEST: &str = "digest";
    /// The server's answer to a reply mail (`inbound`): what it applied and
    /// where the game stands now.
    pub const ANSWER: &str = "answer";
    /// The answer to a mail the server could not read as a reply.
    pub const REFUSAL: &str = "refusal";
    /// The answer to a reply to an invitation that did not start the game
    /// (declined, or not taken).
    pub const INVITATION_ANSWER: &str = "invitation_answer";
    /// The account lifecycle's mails (`service::accounts`). Those that
    /// carry a code keep it in their context only until sent.
    pub const CONFIRM_REGISTRATION: &str = "confirm_registration";
    pub const ALREADY_REGISTERED: &str = "already_registered";
    pub const PASSWORD_RESET: &str = "password_reset";
    pub const SIGN_IN_CODE: &str = "sign_in_code";
    pub const CONFIRM_NEW_ADDRESS: &str = "confirm_new_address";
    pub const ADDRESS_TAKEN: &str = "address_taken";
    pub const ADDRESS_CHANGED: &str = "address_changed";
    /// The kinds whose context holds a secret until the mail is sent.
    pub const WITH_CODE: [&str; 5] = [
        CONFIRM_REGISTRATION,
        ALREADY_REGISTERED,
        PASSWORD_RESET,
        SIGN_IN_CODE,
        CONFIRM_NEW_ADDRESS,
    ];
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = outbox)]
pub struct NewMail {
    pub kind: String,
    pub game_id: Option<String>,
    pub user_id: Option<i64>,
    pub recipient: String,
    pub context: String,
    pub message_id: String,
    pub game_seq: Option<i64>,
    pub due_at: i64,
    pub created_at: i64,
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = outbox)]
pub struct MailRow {
    pub id: i64,
    pub kind: String,
    pub game_id: Option<String>,
    pub user_id: Option<i64>,
    pub recipient: String,
    pub context: String,
    pub message_id: String,
    pub game_seq: Option<i64>,
    pub status: String,
    pub attempts: i32,
    pub due_at: i64,
    pub claimed_until: Option<i64>,
    pub last_error: Option<String>,
    pub created_at: i64,
    pub sent_at: Option<i64>,
}

pub fn insert(conn: &mut DbConnection, mail: &NewMail) -> StoreResult<()> {
    diesel::insert_into(outbox::table)
        .values(mail)
        .execute(conn)?;
    Ok(())
}

/// Inserts `mail` unless one with its Message-ID is queued already;
/// returns whether it was inserted.
pub fn insert_once(conn: &mut DbConnection, mail: &NewMail) -> StoreResult<bool> {
    let n = match conn {
        DbConnection::Pg(pg) => diesel::insert_into(outbox::table)
            .values(mail)
            .on_conflict(outbox::message_id)
            .do_nothing()
            .execute(pg)?,
        DbConnection::Sqlite(lite) => diesel::insert_into(outbox::table)
            .values(mail)
            .on_conflict(outbox::message_id)
            .do_nothing()
            .execute(lite)?,
    };
    Ok(n == 1)
}

/// The move number the latest "your move" mail to `user` for `game_id`
/// announced, if any was queued.
pub fn last_turn_mail(
    conn: &mut DbConnection,
    game_id: &str,
    user: i64,
) -> StoreResult<Option<i64>> {
    Ok(outbox::table
        .filter(outbox::game_id.eq(game_id))
        .filter(outbox::user_id.eq(user))
        .filter(outbox::kind.eq(kind::YOUR_MOVE))
        .select(diesel::dsl::max(outbox::game_seq))
        .first::<Option<i64>>(conn)?)
}

/// Claims up to `limit` due rows until `lease_until`, committing the claim
/// at once so the send happens outside any transaction.
pub fn claim(
    conn: &mut DbConnection,
    now: i64,
    lease_until: i64,
    limit: i64,
) -> StoreResult<Vec<MailRow>> {
    write_tx(conn, |conn| {
        let free = outbox::claimed_until
            .is_null()
            .or(outbox::claimed_until.lt(now));
        let ids: Vec<i64> = match conn {
            DbConnection::Pg(pg) => outbox::table
                .filter(outbox::status.eq(status::PENDING))
                .filter(outbox::due_at.le(now))
                .filter(free)
                .order((outbox::due_at.asc(), outbox::id.asc()))
                .limit(limit)
                .select(outbox::id)
                .for_update()
                .skip_locked()
                .load(pg)?,
            // BEGIN IMMEDIATE holds the only write lock, so no other claim
            // runs between this read and the update below.
            DbConnection::Sqlite(lite) => outbox::table
                .filter(outbox::status.eq(status::PENDING))
                .filter(outbox::due_at.le(now))
                .filter(free)
                .order((outbox::due_at.asc(), outbox::id.asc()))
                .limit(limit)
                .select(outbox::id)
                .load(lite)?,
        };
        if ids.is_empty() {
            return Ok(Vec::new());
        }
        diesel::update(outbox::table.filter(outbox::id.eq_any(&ids)))
            .set(outbox::claimed_until.eq(Some(lease_until)))
            .execute(conn)?;
        let rows: Vec<MailRow> = outbox::table
            .filter(outbox::id.eq_any(&ids))
            .order((outbox::due_at.asc(), outbox::id.asc()))
            .select(MailRow::as_select())
            .load(conn)?;
        skip_superseded(conn, rows, now)
    })
}

/// Of claimed `rows`, those still worth sending: a "your move" mail that
/// was held (paced, or in quiet hours) is skipped when a newer one of the
/// same game to the same player is due by `now` too: the newer one tells
/// everything it would have, and a burst of decisions asked and withdrawn
/// reaches the player as one mail. (One that waits to go out later does
/// not hold back news that is due now, and mails sent as they come are
/// never held back.)
fn skip_superseded(
    conn: &mut DbConnection,
    rows: Vec<MailRow>,
    now: i64,
) -> StoreResult<Vec<MailRow>> {
    let games: Vec<&str> = rows
        .iter()
        .filter(|r| r.kind == kind::YOUR_MOVE && r.due_at > r.created_at)
        .filter_map(|r| r.game_id.as_deref())
        .collect();
    if games.is_empty() {
        return Ok(rows);
    }
    let newest: Vec<(Option<String>, Option<i64>, Option<i64>)> = outbox::table
        .filter(outbox::kind.eq(kind::YOUR_MOVE))
        .filter(outbox::game_id.eq_any(&games))
        .filter(outbox::status.ne(status::SKIPPED))
        .filter(outbox::due_at.le(now))
        .group_by((outbox::game_id, outbox::user_id))
        .select((
            outbox::game_id,
            outbox::user_id,
            diesel::dsl::max(outbox::id),
        ))
        .load(conn)?;
    let superseded = |r: &MailRow| {
        r.kind == kind::YOUR_MOVE
            && r.due_at > r.created_at
            && newest.iter().any(|(g, u, max)| {
                *g == r.game_id && *u == r.user_id && max.is_some_and(|m| m > r.id)
            })
    };
    let (stale, live): (Vec<MailRow>, Vec<MailRow>) = rows.into_iter().partition(superseded);
    if !stale.is_empty() {
        let ids: Vec<i64> = stale.iter().map(|r| r.id).collect();
        diesel::update(outbox::table.filter(outbox::id.eq_any(&ids)))
            .set((
                outbox::status.eq(status::SKIPPED),
                outbox::claimed_until.eq(None::<i64>),
            ))
            .execute(conn)?;
    }
    Ok(live)
}

/// The claimed row, if this worker's lease on it still holds.
macro_rules! leased {
    ($id:expr, $lease_until:expr) => {
        outbox::table
            .filter(outbox::id.eq($id))
            .filter(outbox::status.eq(status::PENDING))
            .filter(outbox::claimed_until.eq(Some($lease_until)))
    };
}

/// Marks a claimed row sent, keeping `context` as what it was sent with;
/// `false` when the lease was lost meanwhile (another worker may have sent
/// it too).
pub fn mark_sent(
    conn: &mut DbConnection,
    id: i64,
    lease_until: i64,
    now: i64,
    context: &str,
) -> StoreResult<bool> {
    let n = diesel::update(leased!(id, lease_until))
        .set((
            outbox::status.eq(status::SENT),
            outbox::context.eq(context),
            outbox::sent_at.eq(Some(now)),
            outbox::claimed_until.eq(None::<i64>),
            outbox::attempts.eq(outbox::attempts + 1),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

/// Marks claimed rows sent whose stored context stays as queued, in one
/// statement; returns how many were still leased to this worker.
pub fn mark_all_sent(
    conn: &mut DbConnection,
    ids: &[i64],
    lease_until: i64,
    now: i64,
) -> StoreResult<usize> {
    if ids.is_empty() {
        return Ok(0);
    }
    Ok(diesel::update(
        outbox::table
            .filter(outbox::id.eq_any(ids))
            .filter(outbox::status.eq(status::PENDING))
            .filter(outbox::claimed_until.eq(Some(lease_until))),
    )
    .set((
        outbox::status.eq(status::SENT),
        outbox::sent_at.eq(Some(now)),
        outbox::claimed_until.eq(None::<i64>),
        outbox::attempts.eq(outbox::attempts + 1),
    ))
    .execute(conn)?)
}

/// Marks a claimed row skipped: by the time it was due there was nothing
/// to send.
pub fn mark_skipped(conn: &mut DbConnection, id: i64, lease_until: i64) -> StoreResult<bool> {
    let n = diesel::update(leased!(id, lease_until))
        .set((
            outbox::status.eq(status::SKIPPED),
            outbox::claimed_until.eq(None::<i64>),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

/// Records a failed attempt: the row is due again at `retry_at`, or, with
/// no attempts left (`retry_at` None), it is failed for an admin to retry.
pub fn mark_attempt_failed(
    conn: &mut DbConnection,
    id: i64,
    lease_until: i64,
    error: &str,
    retry_at: Option<i64>,
) -> StoreResult<bool> {
    let (new_status, due) = match retry_at {
        Some(t) => (status::PENDING, t),
        None => (status::FAILED, lease_until),
    };
    let n = diesel::update(leased!(id, lease_until))
        .set((
            outbox::status.eq(new_status),
            outbox::due_at.eq(due),
            outbox::claimed_until.eq(None::<i64>),
            outbox::attempts.eq(outbox::attempts + 1),
            outbox::last_error.eq(Some(error)),
        ))
        .execute(conn)?;
    Ok(n == 1)
}

/// Gives up this worker's claim on rows it has not sent (it is stopping),
/// so any worker may take them at once.
pub fn release(conn: &mut DbConnection, ids: &[i64], lease_until: i64) -> StoreResult<usize> {
    Ok(diesel::update(
        outbox::table
            .filter(outbox::id.eq_any(ids))
            .filter(outbox::status.eq(status::PENDING))
            .filter(outbox::claimed_until.eq(Some(lease_until))),
    )
    .set(outbox::claimed_until.eq(None::<i64>))
    .execute(conn)?)
}

/// Moves this worker's lease on `ids` from `lease_until` to `renewed`;
/// returns how many it still held (the rest another worker may have taken
/// after the lease ran out).
pub fn renew(
    conn: &mut DbConnection,
    ids: &[i64],
    lease_until: i64,
    renewed: i64,
) -> StoreResult<usize> {
    if ids.is_empty() {
        return Ok(0);
    }
    Ok(diesel::update(
        outbox::table
            .filter(outbox::id.eq_any(ids))
            .filter(outbox::status.eq(status::PENDING))
            .filter(outbox::claimed_until.eq(Some(lease_until))),
    )
    .set(outbox::claimed_until.eq(Some(renewed)))
    .execute(conn)?)
}

/// Mails still waiting to go to `user` follow the address they changed
/// to.
pub fn readdress_pending(conn: &mut DbConnection, user: i64, email: &str) -> StoreResult<usize> {
    Ok(diesel::update(
        outbox::table
            .filter(outbox::user_id.eq(user))
            .filter(outbox::status.eq(status::PENDING)),
    )
    .set(outbox::recipient.eq(email))
    .execute(conn)?)
}

/// How many rows are in each status, for the metrics.
pub fn count_by_status(conn: &mut DbConnection) -> StoreResult<Vec<(String, i64)>> {
    Ok(outbox::table
        .group_by(outbox::status)
        .select((outbox::status, diesel::dsl::count_star()))
        .load(conn)?)
}

/// Failed rows, oldest first.
pub fn failed(conn: &mut DbConnection, offset: i64, limit: i64) -> StoreResult<Vec<MailRow>> {
    Ok(outbox::table
        .filter(outbox::status.eq(status::FAILED))
        .order(outbox::id.asc())
        .offset(offset)
        .limit(limit)
        .select(MailRow::as_select())
        .load(conn)?)
}

pub fn get(conn: &mut DbConnection, id: i64) -> StoreResult<Option<MailRow>> {
    Ok(outbox::table
        .find(id)
        .select(MailRow::as_select())
        .first(conn)
        .optional()?)
}

/// Puts failed rows (one, or all with `id` None) back in the queue, due
/// now, with a fresh set of attempts. Returns how many.
pub fn retry_failed(conn: &mut DbConnection, id: Option<i64>, now: i64) -> StoreResult<usize> {
    let reset = (
        outbox::status.eq(status::PENDING),
        outbox::attempts.eq(0),
        outbox::due_at.eq(now),
        outbox::claimed_until.eq(None::<i64>),
    );
    let failed = outbox::table.filter(outbox::status.eq(status::FAILED));
    Ok(match id {
        Some(id) => diesel::update(failed.filter(outbox::id.eq(id)))
            .set(reset)
            .execute(conn)?,
        None => diesel::update(failed).set(reset).execute(conn)?,
    })
}
