//! The record of each mail the reply pipeline received (`inbound`). A
//! message is claimed by inserting its row, whose Message-ID is unique:
//! whichever instance inserts it first handles it, every later delivery
//! of the same message finds it taken. A row still `received` long after
//! it was claimed belongs to a handler that was cut off (the process
//! died); the next delivery of the message takes it over.

use super::schema::inbound_mails;
use super::{DbConnection, StoreResult};
use diesel::prelude::*;

/// Outcome of a row still being handled.
pub const RECEIVED: &str = "received";

/// How long a row may stay `received` before a new delivery of its message
/// takes it over: far longer than handling a message takes (well under a
/// second), and shorter than an MTA's first retry (Postfix waits five
/// minutes), so the retry of a message whose handler died is played. Were
/// a handler still at work overtaken, the game's move number would keep
/// its reply from applying twice.
pub const ABANDONED_AFTER_MS: i64 = 2 * 60 * 1000;

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = inbound_mails)]
pub struct NewInboundMail {
    pub received_at: i64,
    pub via: String,
    pub sender: Option<String>,
    pub message_id: String,
    pub outcome: String,
}

/// What handling a message found, written over its claim.
#[derive(AsChangeset, Clone, Debug, Default)]
#[diesel(table_name = inbound_mails, treat_none_as_null = true)]
pub struct Handled {
    pub user_id: Option<i64>,
    pub game_id: Option<String>,
    pub move_number: Option<i64>,
    pub outcome: String,
    pub applied: i32,
    pub moves_to: Option<i64>,
    pub detail: Option<String>,
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = inbound_mails)]
pub struct InboundMailRow {
    pub id: i64,
    pub received_at: i64,
    pub via: String,
    pub sender: Option<String>,
    pub message_id: String,
    pub user_id: Option<i64>,
    pub game_id: Option<String>,
    pub move_number: Option<i64>,
    pub outcome: String,
    pub applied: i32,
    pub moves_to: Option<i64>,
    pub detail: Option<String>,
}

/// Inserts the row unless its Message-ID is recorded already, or takes
/// over a row whose handling was abandoned; returns whether the message
/// is this caller's to handle. Of several deliveries at once, one wins
/// either way: the insert by the unique Message-ID, the takeover because
/// its update renews the very time it is conditioned on.
pub fn claim(conn: &mut DbConnection, mail: &NewInboundMail) -> StoreResult<bool> {
    if insert(conn, mail)? {
        return Ok(true);
    }
    let taken_over = diesel::update(
        inbound_mails::table
            .filter(inbound_mails::message_id.eq(&mail.message_id))
            .filter(inbound_mails::outcome.eq(RECEIVED))
            .filter(inbound_mails::received_at.lt(mail.received_at - ABANDONED_AFTER_MS)),
    )
    .set((
        inbound_mails::received_at.eq(mail.received_at),
        inbound_mails::via.eq(&mail.via),
        inbound_mails::sender.eq(&mail.sender),
    ))
    .execute(conn)?;
    Ok(taken_over == 1)
}

fn insert(conn: &mut DbConnection, mail: &NewInboundMail) -> StoreResult<bool> {
    let n = match conn {
        DbConnection::Pg(pg) => diesel::insert_into(inbound_mails::table)
            .values(mail)
            .on_conflict(inbound_mails::message_id)
            .do_nothing()
            .execute(pg)?,
        DbConnection::Sqlite(lite) => diesel::insert_into(inbound_mails::table)
            .values(mail)
            .on_conflict(inbound_mails::message_id)
            .do_nothing()
            .execute(lite)?,
    };
    Ok(n == 1)
}

/// Records what came of the message claimed under `message_id`.
pub fn finish(conn: &mut DbConnection, message_id: &str, handled: &Handled) -> StoreResult<()> {
    diesel::update(inbound_mails::table.filter(inbound_mails::message_id.eq(message_id)))
        .set(handled)
        .execute(conn)?;
    Ok(())
}

/// How many mails from `sender` about `game_id` (None: about no game)
/// received since `since` were not played (refused, failed, stale …),
/// apart from the robots' mail and the mail whose sender was not proven,
/// which are never answered (so a forger cannot use up a player's
/// answers).
pub fn unplayed_since(
    conn: &mut DbConnection,
    sender: &str,
    game_id: Option<&str>,
    since: i64,
) -> StoreResult<i64> {
    let played = [
        RECEIVED,
        "applied",
        "accepted",
        "declined",
        "duplicate",
        "sender_not_authentic",
        "malformed_header",
        "unreadable",
    ];
    let mails = inbound_mails::table
        .filter(inbound_mails::received_at.ge(since))
        .filter(inbound_mails::sender.eq(sender))
        .filter(inbound_mails::outcome.ne_all(played))
        .filter(inbound_mails::outcome.not_like("ignored%"));
    Ok(match game_id {
        Some(game) => mails
            .filter(inbound_mails::game_id.eq(game))
            .count()
            .get_result(conn)?,
        None => mails
            .filter(inbound_mails::game_id.is_null())
            .count()
            .get_result(conn)?,
    })
}

/// A page of the records, newest first.
pub fn page(conn: &mut DbConnection, offset: i64, limit: i64) -> StoreResult<Vec<InboundMailRow>> {
    Ok(inbound_mails::table
        .order(inbound_mails::id.desc())
        .offset(offset)
        .limit(limit)
        .select(InboundMailRow::as_select())
        .load(conn)?)
}
