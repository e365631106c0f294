//! Writing one change of a game: the game row, the log rows it appends, the
//! mails it queues and, for a move sent with an Idempotency-Key, the
//! response a retry gets back, and for a signed move its jti. All of it is
//! written or none, and only while the game row is still the version the
//! change was computed from.
//!
//! On PostgreSQL the change is a single statement (a data-modifying CTE,
//! prepared once per connection): atomic on its own, so a move needs no
//! transaction and costs two round trips, its read and this write. On
//! SQLite, which has no round trips to save, it is the equivalent
//! statements inside the caller's transaction.

use super::games::{self, GameRow, IdempotencyRecord, MoveRow};
use super::outbox::{self, NewMail};
use super::schema::idempotency_keys;
use super::used_jtis::{self, UsedJti};
use super::users::{self, User};
use super::{DbConnection, StoreResult, write_tx};
use diesel::pg::Pg;
use diesel::prelude::*;
use diesel::query_builder::{AstPass, Query, QueryFragment, QueryId};
use diesel::result::{DatabaseErrorKind, Error as DieselError};
use diesel::sql_types::{Array, BigInt, Bool, Integer, Nullable, Text};

/// One change of a game. `game` carries its new values and the version it
/// was read at.
pub struct Change<'a> {
    pub game: &'a mut GameRow,
    pub moves: &'a [MoveRow],
    pub mails: &'a [NewMail],
    pub idempotency: Option<&'a IdempotencyRecord>,
    /// A signed move's jti, recorded so that it is refused a second time.
    pub used_jti: Option<&'a UsedJti>,
    /// The players' accounts, when the change used them as a copy kept
    /// in memory: then it is written only if neither has changed since.
    pub people: Option<&'a [User; 2]>,
    /// What to tell the other instances of the change (a JSON payload on
    /// `SIGNAL_CHANNEL`). On PostgreSQL it is sent by the write statement
    /// itself, so it travels exactly when the change commits and costs no
    /// round trip or transaction of its own; SQLite ignores it.
    pub signal: Option<&'a str>,
}

/// The PostgreSQL channel the signals of changed games travel on.
pub const SIGNAL_CHANNEL: &str = "hexpost_games";

/// Writes `change` inside the caller's transaction; `false` (and nothing
/// written) when the game row is no longer the version read.
pub fn write(conn: &mut DbConnection, change: Change) -> StoreResult<bool> {
    match conn {
        DbConnection::Pg(pg) => {
            let written: i64 = PgChange::new(&change).get_result(pg)?;
            if written == 1 {
                change.game.version += 1;
            }
            Ok(written == 1)
        }
        DbConnection::Sqlite(_) => {
            if let Some(people) = change.people
                && !users::unchanged(conn, people)?
            {
                return Ok(false);
            }
            if !games::save(conn, change.game)? {
                return Ok(false);
            }
            games::insert_moves(conn, change.moves)?;
            for mail in change.mails {
                outbox::insert_once(conn, mail)?;
            }
            if let Some(rec) = change.idempotency {
                diesel::insert_into(idempotency_keys::table)
                    .values(rec)
                    .execute(conn)?;
            }
            if let Some(used) = change.used_jti {
                used_jtis::insert(conn, used)?;
            }
            Ok(true)
        }
    }
}

/// `write` outside any transaction: atomic on its own. A unique violation
/// (an Idempotency-Key or a jti that another request stored meanwhile)
/// counts as a conflict too, so the caller reads again and finds it.
pub fn write_alone(conn: &mut DbConnection, change: Change) -> StoreResult<bool> {
    let written = match conn {
        DbConnection::Pg(_) => write(conn, change),
        DbConnection::Sqlite(_) => write_tx(conn, |conn| write(conn, change)),
    };
    match written {
        Err(super::StoreError::Query(DieselError::DatabaseError(
            DatabaseErrorKind::UniqueViolation,
            _,
        ))) => Ok(false),
        other => other,
    }
}

/// The PostgreSQL statement. Its text is the same whatever the number of
/// log rows and mails (they travel as arrays), so it is prepared once per
/// connection: diesel caches a statement by its type when it is marked
/// static, which its own UPDATE and multi-row INSERT never are.
struct PgChange<'a> {
    game: &'a GameRow,
    moves: MoveColumns<'a>,
    mails: MailColumns<'a>,
    keys: KeyColumns<'a>,
    jtis: JtiColumns<'a>,
    /// The accounts to check, as (id, version) by seat.
    people: [(Option<i64>, Option<i64>); 2],
    signal: Option<&'a str>,
}

#[derive(Default)]
struct MoveColumns<'a> {
    seq: Vec<i64>,
    actor: Vec<&'a str>,
    seat: Vec<Option<i32>>,
    user_id: Vec<Option<i64>>,
    action: Vec<&'a str>,
    jws: Vec<Option<&'a str>>,
    events: Vec<&'a str>,
    state_hash: Vec<&'a str>,
    prev_hash: Vec<&'a str>,
    hash: Vec<&'a str>,
    created_at: Vec<i64>,
    sealed: Vec<bool>,
}

#[derive(Default)]
struct MailColumns<'a> {
    kind: Vec<&'a str>,
    game_id: Vec<Option<&'a str>>,
    user_id: Vec<Option<i64>>,
    recipient: Vec<&'a str>,
    context: Vec<&'a str>,
    message_id: Vec<&'a str>,
    game_seq: Vec<Option<i64>>,
    due_at: Vec<i64>,
    created_at: Vec<i64>,
}

#[derive(Default)]
struct JtiColumns<'a> {
    user_id: Vec<i64>,
    jti: Vec<&'a str>,
    expires_at: Vec<i64>,
}

#[derive(Default)]
struct KeyColumns<'a> {
    user_id: Vec<i64>,
    key: Vec<&'a str>,
    request_hash: Vec<&'a str>,
    status: Vec<i32>,
    response: Vec<&'a str>,
    created_at: Vec<i64>,
}

impl<'a> PgChange<'a> {
    fn new(change: &'a Change<'_>) -> Self {
        let mut moves = MoveColumns::default();
        for r in change.moves {
            debug_assert_eq!(r.game_id, change.game.id);
            moves.seq.push(r.seq);
            moves.actor.push(&r.actor);
            moves.seat.push(r.seat);
            moves.user_id.push(r.user_id);
            moves.action.push(&r.action);
            moves.jws.push(r.jws.as_deref());
            moves.events.push(&r.events);
            moves.state_hash.push(&r.state_hash);
            moves.prev_hash.push(&r.prev_hash);
            moves.hash.push(&r.hash);
            moves.created_at.push(r.created_at);
            moves.sealed.push(r.sealed);
        }
        let mut mails = MailColumns::default();
        for m in change.mails {
            mails.kind.push(&m.kind);
            mails.game_id.push(m.game_id.as_deref());
            mails.user_id.push(m.user_id);
            mails.recipient.push(&m.recipient);
            mails.context.push(&m.context);
            mails.message_id.push(&m.message_id);
            mails.game_seq.push(m.game_seq);
            mails.due_at.push(m.due_at);
            mails.created_at.push(m.created_at);
        }
        let mut keys = KeyColumns::default();
        if let Some(k) = change.idempotency {
            keys.user_id.push(k.user_id);
            keys.key.push(&k.key);
            keys.request_hash.push(&k.request_hash);
            keys.status.push(k.status);
            keys.response.push(&k.response);
            keys.created_at.push(k.created_at);
        }
        let mut jtis = JtiColumns::default();
        if let Some(j) = change.used_jti {
            jtis.user_id.push(j.user_id);
            jtis.jti.push(&j.jti);
            jtis.expires_at.push(j.expires_at);
        }
        let person = |seat: usize| match change.people {
            Some(p) => (Some(p[seat].id), Some(p[seat].version)),
            None => (None, None),
        };
        PgChange {
            game: change.game,
            moves,
            mails,
            keys,
            jtis,
            people: [person(0), person(1)],
            signal: change.signal,
        }
    }
}

impl QueryId for PgChange<'_> {
    type QueryId = PgChange<'static>;
    const HAS_STATIC_QUERY_ID: bool = true;
}

impl Query for PgChange<'_> {
    type SqlType = BigInt;
}

impl<C> RunQueryDsl<C> for PgChange<'_> {}

/// Pushes the bind parameters `$n, $n+1, …` for values of the given SQL
/// types, separated by commas.
macro_rules! binds {
    ($out:ident, $($value:expr => $ty:ty),+ $(,)?) => {{
        let mut first = true;
        $(
            if !std::mem::take(&mut first) {
                $out.push_sql(", ");
            }
            $out.push_bind_param::<$ty, _>($value)?;
        )+
    }};
}

impl QueryFragment<Pg> for PgChange<'_> {
    fn walk_ast<'b>(&'b self, mut out: AstPass<'_, 'b, Pg>) -> QueryResult<()> {
        let g = self.game;
        // Only if the row is still the version read: a concurrent writer
        // holds the row lock until it commits, and PostgreSQL then checks
        // this condition against the row it wrote.
        out.push_sql("WITH g AS (UPDATE games SET status = ");
        out.push_bind_param::<Text, _>(&g.status)?;
        out.push_sql(", state = ");
        out.push_bind_param::<Nullable<Text>, _>(&g.state)?;
        out.push_sql(", move_number = ");
        out.push_bind_param::<BigInt, _>(&g.move_number)?;
        out.push_sql(", chain_head = ");
        out.push_bind_param::<Text, _>(&g.chain_head)?;
        out.push_sql(", awaiting = ");
        out.push_bind_param::<Text, _>(&g.awaiting)?;
        out.push_sql(", winner_seat = ");
        out.push_bind_param::<Nullable<Integer>, _>(&g.winner_seat)?;
        out.push_sql(", updated_at = ");
        out.push_bind_param::<BigInt, _>(&g.updated_at)?;
        out.push_sql(", finished_at = ");
        out.push_bind_param::<Nullable<BigInt>, _>(&g.finished_at)?;
        out.push_sql(", clocks = ");
        out.push_bind_param::<Text, _>(&g.clocks)?;
        out.push_sql(", wake_at = ");
        out.push_bind_param::<Nullable<BigInt>, _>(&g.wake_at)?;
        out.push_sql(", committed_from = ");
        out.push_bind_param::<Nullable<BigInt>, _>(&g.committed_from)?;
        out.push_sql(", version = version + 1 WHERE id = ");
        out.push_bind_param::<Text, _>(&g.id)?;
        out.push_sql(" AND version = ");
        out.push_bind_param::<BigInt, _>(&g.version)?;
        // And each account the change used from a copy is still the
        // version copied: a lookup by primary key each, whatever the plan
        // (scalars, not arrays, so the generic plan cannot pick a scan).
        for (id, version) in &self.people {
            out.push_sql(" AND (");
            out.push_bind_param::<Nullable<BigInt>, _>(id)?;
            out.push_sql("::bigint IS NULL OR EXISTS (SELECT 1 FROM users WHERE id = ");
            out.push_bind_param::<Nullable<BigInt>, _>(id)?;
            out.push_sql(" AND version = ");
            out.push_bind_param::<Nullable<BigInt>, _>(version)?;
            out.push_sql("))");
        }
        // Every insert reads from `g`: without the update there is no row
        // to insert.
        out.push_sql(
            " RETURNING id), m AS (INSERT INTO moves (game_id, seq, actor, seat, user_id, \
             action, jws, events, state_hash, prev_hash, hash, created_at, sealed) \
             SELECT g.id, r.* FROM g, unnest(",
        );
        let m = &self.moves;
        binds!(
            out,
            &m.seq => Array<BigInt>,
            &m.actor => Array<Text>,
            &m.seat => Array<Nullable<Integer>>,
            &m.user_id => Array<Nullable<BigInt>>,
            &m.action => Array<Text>,
            &m.jws => Array<Nullable<Text>>,
            &m.events => Array<Text>,
            &m.state_hash => Array<Text>,
            &m.prev_hash => Array<Text>,
            &m.hash => Array<Text>,
            &m.created_at => Array<BigInt>,
            &m.sealed => Array<Bool>,
        );
        // A digest is queued once a day per person: its Message-ID is
        // fixed, and a second one for the same day is dropped.
        out.push_sql(
            ") AS r), o AS (INSERT INTO outbox (kind, game_id, user_id, recipient, context, \
             message_id, game_seq, due_at, created_at) SELECT r.* FROM g, unnest(",
        );
        let o = &self.mails;
        binds!(
            out,
            &o.kind => Array<Text>,
            &o.game_id => Array<Nullable<Text>>,
            &o.user_id => Array<Nullable<BigInt>>,
            &o.recipient => Array<Text>,
            &o.context => Array<Text>,
            &o.message_id => Array<Text>,
            &o.game_seq => Array<Nullable<BigInt>>,
            &o.due_at => Array<BigInt>,
            &o.created_at => Array<BigInt>,
        );
        out.push_sql(
            ") AS r ON CONFLICT (message_id) DO NOTHING), k AS (INSERT INTO idempotency_keys \
             (user_id, key, request_hash, status, response, created_at) \
             SELECT r.* FROM g, unnest(",
        );
        let k = &self.keys;
        binds!(
            out,
            &k.user_id => Array<BigInt>,
            &k.key => Array<Text>,
            &k.request_hash => Array<Text>,
            &k.status => Array<Integer>,
            &k.response => Array<Text>,
            &k.created_at => Array<BigInt>,
        );
        out.push_sql(
            ") AS r), j AS (INSERT INTO used_jtis (user_id, jti, expires_at) \
             SELECT r.* FROM g, unnest(",
        );
        let j = &self.jtis;
        binds!(
            out,
            &j.user_id => Array<BigInt>,
            &j.jti => Array<Text>,
            &j.expires_at => Array<BigInt>,
        );
        // A CTE that only reads runs when it is used: the final join uses
        // it, and it has a row only when the update had one.
        out.push_sql(") AS r), n AS (SELECT pg_notify(");
        binds!(
            out,
            SIGNAL_CHANNEL => Text,
            &self.signal => Nullable<Text>,
        );
        out.push_sql(") FROM g WHERE ");
        out.push_bind_param::<Nullable<Text>, _>(&self.signal)?;
        out.push_sql("::text IS NOT NULL) SELECT count(*) FROM g LEFT JOIN n ON true");
        Ok(())
    }
}
