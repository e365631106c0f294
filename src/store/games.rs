//! Games, their players and invitations, the move log, idempotency records
//! and the admin log.

use super::schema::{admin_log, game_players, games, idempotency_keys, invitations, moves, users};
use super::{DbConnection, StoreResult, now_ms};
use diesel::prelude::*;

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = games)]
pub struct GameRow {
    pub id: String,
    pub variant: String,
    pub config: String,
    pub status: String,
    pub created_by: i64,
    pub seed: String,
    pub seed_hash: String,
    pub state: Option<String>,
    pub move_number: i64,
    pub chain_head: String,
    pub awaiting: String,
    pub winner_seat: Option<i32>,
    pub time_limit_secs: i64,
    pub creator_seat: Option<i32>,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
    /// `auto` or `forfeit` (see `timeout_policy`).
    pub timeout_policy: String,
    pub max_auto_decisions: i32,
    pub vacation_days: i32,
    /// The seats' clocks as JSON (`service::deadlines::Clocks`); empty
    /// before the game starts.
    pub clocks: String,
    /// The earliest reminder or deadline; None when none is set.
    pub wake_at: Option<i64>,
    /// Raised by every write of the row: a writer that did not lock the
    /// row writes only if it is still the version it read.
    pub version: i64,
    /// The first log row written under the committed scheme (every row
    /// from it on); None while every row is of the plain scheme of earlier
    /// releases (see `service::commitments`).
    pub committed_from: Option<i64>,
}

pub mod timeout_policy {
    /// The server takes a safe decision for a late player.
    pub const AUTO: &str = "auto";
    /// A late player loses.
    pub const FORFEIT: &str = "forfeit";
}

pub mod status {
    // `wake_due` spells this one out in its SQL.
    const _: () = assert!(matches!(ACTIVE.as_bytes(), b"active"));
    /// Created, waiting for the invited opponent.
    pub const OPEN: &str = "open";
    pub const ACTIVE: &str = "active";
    pub const FINISHED: &str = "finished";
    pub const CANCELLED: &str = "cancelled";
    pub const DECLINED: &str = "declined";
}

pub fn insert_game(conn: &mut DbConnection, row: &GameRow) -> StoreResult<()> {
    diesel::insert_into(games::table)
        .values(row)
        .execute(conn)?;
    Ok(())
}

pub fn get(conn: &mut DbConnection, id: &str) -> StoreResult<Option<GameRow>> {
    Ok(games::table
        .find(id)
        .select(GameRow::as_select())
        .first(conn)
        .optional()?)
}

/// Reads the game row inside a write transaction, locking it on PostgreSQL
/// (SQLite's `BEGIN IMMEDIATE` already holds the database's write lock), so
/// concurrent moves on one game run one after the other.
pub fn lock(conn: &mut DbConnection, id: &str) -> StoreResult<Option<GameRow>> {
    Ok(match conn {
        DbConnection::Pg(pg) => games::table
            .find(id)
            .for_update()
            .select(GameRow::as_select())
            .first(pg)
            .optional()?,
        DbConnection::Sqlite(lite) => games::table
            .find(id)
            .select(GameRow::as_select())
            .first(lite)
            .optional()?,
    })
}

/// Seat `seat` of game `id` in `game_players`, for a subquery.
macro_rules! seat_of {
    ($id:expr, $seat:expr) => {
        game_players::table
            .filter(game_players::game_id.eq($id))
            .filter(game_players::seat.eq($seat))
    };
}

/// The game with the users in seat 0 and 1 (None before the game starts),
/// read in one statement, and locked like `lock` when `lock` is set: a
/// move's first round trip is its only read.
pub fn with_seats(
    conn: &mut DbConnection,
    id: &str,
    lock: bool,
) -> StoreResult<Option<(GameRow, [Option<i64>; 2])>> {
    let in_seat = |seat: i32| {
        seat_of!(id, seat)
            .select(game_players::user_id)
            .single_value()
    };
    // A macro, not a variable: the selection's type depends on the backend.
    macro_rules! query {
        () => {
            games::table
                .find(id)
                .select((GameRow::as_select(), in_seat(0), in_seat(1)))
        };
    }
    let found: Option<(GameRow, Option<i64>, Option<i64>)> = match conn {
        DbConnection::Pg(pg) if lock => query!().for_update().first(pg).optional()?,
        _ => query!().first(conn).optional()?,
    };
    Ok(found.map(|(game, a, b)| (game, [a, b])))
}

/// A seated player: seat, user id and display name.
pub type SeatedPlayer = (i32, i64, String);

/// The game with its seated players and their names, in seat order, read
/// in one statement: a game view's only read.
pub fn with_players(
    conn: &mut DbConnection,
    id: &str,
) -> StoreResult<Option<(GameRow, Vec<SeatedPlayer>)>> {
    let user_in = |seat: i32| {
        seat_of!(id, seat)
            .select(game_players::user_id)
            .single_value()
    };
    let name_in = |seat: i32| {
        seat_of!(id, seat)
            .inner_join(users::table)
            .select(users::display_name)
            .single_value()
    };
    type Seat = (Option<i64>, Option<String>);
    let found: Option<(GameRow, Seat, Seat)> = games::table
        .find(id)
        .select((
            GameRow::as_select(),
            (user_in(0), name_in(0)),
            (user_in(1), name_in(1)),
        ))
        .first(conn)
        .optional()?;
    Ok(found.map(|(game, first, second)| {
        let players = [first, second]
            .into_iter()
            .zip(0..)
            .filter_map(|((user, name), seat)| Some((seat, user?, name?)))
            .collect();
        (game, players)
    }))
}

/// Like `lock`, but on PostgreSQL `None` also when another transaction
/// holds the row: a background sweep passes a busy game by and comes back.
pub fn lock_unless_busy(conn: &mut DbConnection, id: &str) -> StoreResult<Option<GameRow>> {
    match conn {
        DbConnection::Pg(pg) => Ok(games::table
            .find(id)
            .for_update()
            .skip_locked()
            .select(GameRow::as_select())
            .first(pg)
            .optional()?),
        // SQLite has one writer: nothing to skip.
        DbConnection::Sqlite(_) => lock(conn, id),
    }
}

/// Active games whose reminder or deadline time is at or before `now`.
pub fn wake_due(conn: &mut DbConnection, now: i64, limit: i64) -> StoreResult<Vec<String>> {
    // The status is written into the SQL, not bound: PostgreSQL's generic
    // plan for a bound status has to guess how many games have it, and on
    // a database of 100,000 finished games it chose to scan the whole
    // table (128 ms, against 0.2 ms through the status index). With the
    // literal the planner uses the statistics of 'active' itself.
    Ok(games::table
        .filter(games::wake_at.le(now))
        .filter(games::status.eq(diesel::dsl::sql::<diesel::sql_types::Text>("'active'")))
        .order(games::wake_at.asc())
        .limit(limit)
        .select(games::id)
        .load(conn)?)
}

/// Writes the game row as changed in memory, only if its stored version is
/// still `row.version` (the version read), and raises both; `false` when
/// another writer came first. Under a row lock that cannot happen; a move,
/// which reads without one, reads again then.
pub fn save(conn: &mut DbConnection, row: &mut GameRow) -> StoreResult<bool> {
    let n = diesel::update(
        games::table
            .filter(games::id.eq(&row.id))
            .filter(games::version.eq(row.version)),
    )
    .set((
        games::status.eq(&row.status),
        games::state.eq(&row.state),
        games::move_number.eq(row.move_number),
        games::chain_head.eq(&row.chain_head),
        games::awaiting.eq(&row.awaiting),
        games::winner_seat.eq(row.winner_seat),
        games::updated_at.eq(row.updated_at),
        games::finished_at.eq(row.finished_at),
        games::clocks.eq(&row.clocks),
        games::wake_at.eq(row.wake_at),
        games::version.eq(row.version + 1),
        games::committed_from.eq(row.committed_from),
    ))
    .execute(conn)?;
    if n == 1 {
        row.version += 1;
    }
    Ok(n == 1)
}

/// How many games are in each status (one pass over the status index).
pub fn count_by_status(conn: &mut DbConnection) -> StoreResult<Vec<(String, i64)>> {
    Ok(games::table
        .group_by(games::status)
        .select((games::status, diesel::dsl::count_star()))
        .load(conn)?)
}

pub fn players(conn: &mut DbConnection, game_id: &str) -> StoreResult<Vec<(i32, i64)>> {
    Ok(game_players::table
        .filter(game_players::game_id.eq(game_id))
        .order(game_players::seat.asc())
        .select((game_players::seat, game_players::user_id))
        .load(conn)?)
}

/// The seated players with their display names, in seat order: one query
/// for what a game summary shows.
pub fn seated(conn: &mut DbConnection, game_id: &str) -> StoreResult<Vec<SeatedPlayer>> {
    Ok(game_players::table
        .inner_join(users::table)
        .filter(game_players::game_id.eq(game_id))
        .order(game_players::seat.asc())
        .select((
            game_players::seat,
            game_players::user_id,
            users::display_name,
        ))
        .load(conn)?)
}

pub fn add_player(
    conn: &mut DbConnection,
    game_id: &str,
    seat: i32,
    user_id: i64,
) -> StoreResult<()> {
    diesel::insert_into(game_players::table)
        .values((
            game_players::game_id.eq(game_id),
            game_players::seat.eq(seat),
            game_players::user_id.eq(user_id),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn set_seats(conn: &mut DbConnection, game_id: &str, seats: &[(i32, i64)]) -> StoreResult<()> {
    diesel::delete(game_players::table.filter(game_players::game_id.eq(game_id))).execute(conn)?;
    for &(seat, user) in seats {
        add_player(conn, game_id, seat, user)?;
    }
    Ok(())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListFilter {
    All,
    Active,
    Finished,
    AwaitingMe,
}

/// The user's games, most recently changed first.
pub fn list_for_user(
    conn: &mut DbConnection,
    user_id: i64,
    filter: ListFilter,
    offset: i64,
    limit: i64,
) -> StoreResult<Vec<GameRow>> {
    // A union rather than `seated OR created_by`: PostgreSQL can answer
    // `id IN (…)` through the primary key, but an OR across the two makes
    // it read every game.
    let created = diesel::alias!(games as created);
    let mine = game_players::table
        .filter(game_players::user_id.eq(user_id))
        .select(game_players::game_id)
        .union(
            created
                .filter(created.field(games::created_by).eq(user_id))
                .select(created.field(games::id)),
        );
    // One query shape for every filter (no boxing, which the multi-backend
    // connection does not support): a status list and an `awaiting` pattern.
    let (statuses, awaiting): (&[&str], String) = match filter {
        ListFilter::All => (
            &[
                status::OPEN,
                status::ACTIVE,
                status::FINISHED,
                status::CANCELLED,
                status::DECLINED,
            ],
            "%".into(),
        ),
        ListFilter::Active => (&[status::OPEN, status::ACTIVE], "%".into()),
        ListFilter::Finished => (
            &[status::FINISHED, status::CANCELLED, status::DECLINED],
            "%".into(),
        ),
        ListFilter::AwaitingMe => (&[status::ACTIVE], awaiting_pattern(user_id)),
    };
    Ok(games::table
        .filter(games::id.eq_any(mine))
        .filter(games::status.eq_any(statuses))
        .filter(games::awaiting.like(awaiting))
        .order((games::updated_at.desc(), games::id.asc()))
        .offset(offset)
        .limit(limit)
        .select(GameRow::as_select())
        .load(conn)?)
}

/// `games.awaiting` holds the awaited users as `,12,34,`.
pub fn awaiting_column(users: &[i64]) -> String {
    if users.is_empty() {
        String::new()
    } else {
        format!(
            ",{},",
            users
                .iter()
                .map(|u| u.to_string())
                .collect::<Vec<_>>()
                .join(",")
        )
    }
}

fn awaiting_pattern(user_id: i64) -> String {
    format!("%,{user_id},%")
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug, PartialEq, Eq)]
#[diesel(table_name = moves)]
pub struct MoveRow {
    pub game_id: String,
    pub seq: i64,
    pub actor: String,
    pub seat: Option<i32>,
    pub user_id: Option<i64>,
    pub action: String,
    pub jws: Option<String>,
    pub events: String,
    pub state_hash: String,
    pub prev_hash: String,
    pub hash: String,
    pub created_at: i64,
    /// The action and signed move were hidden from the other seat when
    /// the row was written (a sealed answer): the committed scheme's hash
    /// commits to them.
    pub sealed: bool,
}

/// Inserts a move's log rows (a move with automated steps after it has
/// several): one statement and round trip on PostgreSQL; SQLite runs in the
/// process, where a statement per row costs no round trip.
pub fn insert_moves(conn: &mut DbConnection, rows: &[MoveRow]) -> StoreResult<()> {
    match conn {
        DbConnection::Pg(pg) => {
            diesel::insert_into(moves::table).values(rows).execute(pg)?;
        }
        DbConnection::Sqlite(lite) => {
            for row in rows {
                diesel::insert_into(moves::table)
                    .values(row)
                    .execute(lite)?;
            }
        }
    }
    Ok(())
}

pub fn moves(
    conn: &mut DbConnection,
    game_id: &str,
    after_seq: i64,
    limit: i64,
) -> StoreResult<Vec<MoveRow>> {
    Ok(moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::seq.gt(after_seq))
        .order(moves::seq.asc())
        .limit(limit)
        .select(MoveRow::as_select())
        .load(conn)?)
}

/// The log sequence number of `user`'s last decision in the game.
pub fn last_decision(
    conn: &mut DbConnection,
    game_id: &str,
    user: i64,
) -> StoreResult<Option<i64>> {
    // Newest first through the primary key: the player's last decision is
    // usually a few rows back, so this stops early however long the game.
    Ok(moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::user_id.eq(user))
        .order(moves::seq.desc())
        .select(moves::seq)
        .first::<i64>(conn)
        .optional()?)
}

/// The log sequence number of the last decision made for `seat`: its
/// player's own or the server's at a timeout.
pub fn last_decision_of_seat(
    conn: &mut DbConnection,
    game_id: &str,
    seat: i32,
) -> StoreResult<Option<i64>> {
    let player = format!("seat:{seat}");
    Ok(moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::seat.eq(seat))
        .filter(moves::actor.eq(player).or(moves::actor.eq("timeout")))
        .order(moves::seq.desc())
        .select(moves::seq)
        .first::<i64>(conn)
        .optional()?)
}

/// Every game in one of `statuses`, newest first (the admin's list).
pub fn list_all(
    conn: &mut DbConnection,
    statuses: &[&str],
    offset: i64,
    limit: i64,
) -> StoreResult<Vec<GameRow>> {
    Ok(games::table
        .filter(games::status.eq_any(statuses))
        .order((games::created_at.desc(), games::id.asc()))
        .offset(offset)
        .limit(limit)
        .select(GameRow::as_select())
        .load(conn)?)
}

pub fn exists(conn: &mut DbConnection, id: &str) -> StoreResult<bool> {
    Ok(diesel::select(diesel::dsl::exists(games::table.find(id))).get_result(conn)?)
}

/// Marks every pending invitation created before `cutoff` expired;
/// returns how many.
pub fn expire_invitations(conn: &mut DbConnection, cutoff: i64, now: i64) -> StoreResult<usize> {
    Ok(diesel::update(
        invitations::table
            .filter(invitations::status.eq("pending"))
            .filter(invitations::created_at.lt(cutoff)),
    )
    .set((
        invitations::status.eq("expired"),
        invitations::responded_at.eq(Some(now)),
    ))
    .execute(conn)?)
}

/// When each invitation was made, since `since`, that `user`'s games sent
/// to an address no account has now, oldest first.
pub fn invitations_to_strangers(
    conn: &mut DbConnection,
    user: i64,
    since: i64,
) -> StoreResult<Vec<i64>> {
    let theirs = games::table
        .filter(games::created_by.eq(user))
        .select(games::id);
    use super::schema::users;
    let known = users::table.filter(users::email.eq(invitations::email));
    Ok(invitations::table
        .filter(invitations::created_at.ge(since))
        .filter(invitations::game_id.eq_any(theirs))
        .filter(diesel::dsl::not(diesel::dsl::exists(known)))
        .order(invitations::created_at.asc())
        .select(invitations::created_at)
        .load(conn)?)
}

/// Open games created before `cutoff` that no pending invitation can
/// start any more.
pub fn abandoned_open_games(conn: &mut DbConnection, cutoff: i64) -> StoreResult<Vec<String>> {
    let pending = invitations::table
        .filter(invitations::game_id.eq(games::id))
        .filter(invitations::status.eq("pending"));
    Ok(games::table
        .filter(games::status.eq(status::OPEN))
        .filter(games::created_at.lt(cutoff))
        .filter(diesel::dsl::not(diesel::dsl::exists(pending)))
        .order(games::id.asc())
        .select(games::id)
        .load(conn)?)
}

/// Cancels the game if it is still open; `false` when it no longer was.
pub fn cancel_if_open(conn: &mut DbConnection, id: &str, now: i64) -> StoreResult<bool> {
    let n = diesel::update(
        games::table
            .filter(games::id.eq(id))
            .filter(games::status.eq(status::OPEN)),
    )
    .set((
        games::status.eq(status::CANCELLED),
        games::updated_at.eq(now),
    ))
    .execute(conn)?;
    Ok(n == 1)
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = invitations)]
pub struct Invitation {
    pub id: String,
    pub game_id: String,
    pub email: String,
    pub token_hash: String,
    pub status: String,
    pub created_at: i64,
    pub responded_at: Option<i64>,
}

pub fn insert_invitation(
    conn: &mut DbConnection,
    id: &str,
    game_id: &str,
    email: &str,
    token_hash: &str,
) -> StoreResult<()> {
    diesel::insert_into(invitations::table)
        .values((
            invitations::id.eq(id),
            invitations::game_id.eq(game_id),
            invitations::email.eq(email),
            invitations::token_hash.eq(token_hash),
            invitations::status.eq("pending"),
            invitations::created_at.eq(now_ms()),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn invitation_by_token_hash(
    conn: &mut DbConnection,
    token_hash: &str,
) -> StoreResult<Option<Invitation>> {
    Ok(invitations::table
        .filter(invitations::token_hash.eq(token_hash))
        .select(Invitation::as_select())
        .first(conn)
        .optional()?)
}

pub fn invitation_by_id(conn: &mut DbConnection, id: &str) -> StoreResult<Option<Invitation>> {
    Ok(invitations::table
        .find(id)
        .select(Invitation::as_select())
        .first(conn)
        .optional()?)
}

pub fn invitations_of_game(conn: &mut DbConnection, game_id: &str) -> StoreResult<Vec<Invitation>> {
    Ok(invitations::table
        .filter(invitations::game_id.eq(game_id))
        .select(Invitation::as_select())
        .load(conn)?)
}

pub fn set_invitation_status(conn: &mut DbConnection, id: &str, status: &str) -> StoreResult<()> {
    diesel::update(invitations::table.find(id))
        .set((
            invitations::status.eq(status),
            invitations::responded_at.eq(Some(now_ms())),
        ))
        .execute(conn)?;
    Ok(())
}

#[derive(Queryable, Selectable, Insertable, Clone, Debug)]
#[diesel(table_name = idempotency_keys)]
pub struct IdempotencyRecord {
    pub user_id: i64,
    pub key: String,
    pub request_hash: String,
    pub status: i32,
    pub response: String,
    pub created_at: i64,
}

pub fn idempotency_get(
    conn: &mut DbConnection,
    user_id: i64,
    key: &str,
) -> StoreResult<Option<IdempotencyRecord>> {
    Ok(idempotency_keys::table
        .find((user_id, key))
        .select(IdempotencyRecord::as_select())
        .first(conn)
        .optional()?)
}

pub fn admin_log(
    conn: &mut DbConnection,
    admin: Option<i64>,
    action: &str,
    target: &str,
    detail: &str,
) -> StoreResult<()> {
    diesel::insert_into(admin_log::table)
        .values((
            admin_log::admin_user_id.eq(admin),
            admin_log::action.eq(action),
            admin_log::target.eq(target),
            admin_log::detail.eq(detail),
            admin_log::created_at.eq(now_ms()),
        ))
        .execute(conn)?;
    Ok(())
}
