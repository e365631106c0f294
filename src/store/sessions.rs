//! Sign-in sessions, the hashes of their refresh tokens, and the
//! single-use sign-in codes of mail links (see `service::sessions`).

use super::schema::{refresh_tokens, sessions, sign_in_codes};
use super::{DbConnection, StoreResult};
use diesel::prelude::*;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = sessions)]
pub struct Session {
    pub id: i64,
    pub user_id: i64,
    pub created_at: i64,
    pub last_used_at: i64,
    /// The absolute end, however often the session is used.
    pub expires_at: i64,
    pub user_agent: String,
    pub ip: String,
    pub revoked_at: Option<i64>,
}

/// Where a new session comes from, as the server saw it.
#[derive(Clone, Debug, Default)]
pub struct Origin {
    pub user_agent: String,
    pub ip: String,
}

pub fn insert(
    conn: &mut DbConnection,
    user_id: i64,
    origin: &Origin,
    at: i64,
    expires_at: i64,
) -> StoreResult<Session> {
    diesel::insert_into(sessions::table)
        .values((
            sessions::user_id.eq(user_id),
            sessions::created_at.eq(at),
            sessions::last_used_at.eq(at),
            sessions::expires_at.eq(expires_at),
            sessions::user_agent.eq(&origin.user_agent),
            sessions::ip.eq(&origin.ip),
        ))
        .execute(conn)?;
    Ok(sessions::table
        .filter(sessions::user_id.eq(user_id))
        .order(sessions::id.desc())
        .select(Session::as_select())
        .first(conn)?)
}

pub fn by_id(conn: &mut DbConnection, id: i64) -> StoreResult<Option<Session>> {
    Ok(sessions::table
        .find(id)
        .select(Session::as_select())
        .first(conn)
        .optional()?)
}

/// The sessions of `user` not revoked, used since `idle_since` and not
/// past their absolute end at `now`, newest first.
pub fn live(
    conn: &mut DbConnection,
    user_id: i64,
    idle_since: i64,
    now: i64,
) -> StoreResult<Vec<Session>> {
    Ok(sessions::table
        .filter(sessions::user_id.eq(user_id))
        .filter(sessions::revoked_at.is_null())
        .filter(sessions::last_used_at.ge(idle_since))
        .filter(sessions::expires_at.gt(now))
        .order(sessions::id.desc())
        .select(Session::as_select())
        .load(conn)?)
}

pub fn touch(conn: &mut DbConnection, id: i64, at: i64) -> StoreResult<()> {
    diesel::update(sessions::table.find(id))
        .set(sessions::last_used_at.eq(at))
        .execute(conn)?;
    Ok(())
}

/// Revokes one session of `user`; false when it is not theirs or ended
/// already.
pub fn revoke(conn: &mut DbConnection, user_id: i64, id: i64, at: i64) -> StoreResult<bool> {
    Ok(diesel::update(
        sessions::table
            .filter(sessions::id.eq(id))
            .filter(sessions::user_id.eq(user_id))
            .filter(sessions::revoked_at.is_null()),
    )
    .set(sessions::revoked_at.eq(Some(at)))
    .execute(conn)?
        == 1)
}

/// Revokes every session of `user`, and voids the sign-in codes mailed to
/// them that are still unused (a code is a way in as good as a session:
/// a password changed because it leaked must close them too); returns how
/// many sessions were still open.
pub fn revoke_all(conn: &mut DbConnection, user_id: i64, at: i64) -> StoreResult<usize> {
    void_codes(conn, user_id, at)?;
    Ok(diesel::update(
        sessions::table
            .filter(sessions::user_id.eq(user_id))
            .filter(sessions::revoked_at.is_null()),
    )
    .set(sessions::revoked_at.eq(Some(at)))
    .execute(conn)?)
}

/// Marks the sign-in codes mailed to `user` that are still unused used.
pub fn void_codes(conn: &mut DbConnection, user_id: i64, at: i64) -> StoreResult<usize> {
    Ok(diesel::update(
        sign_in_codes::table
            .filter(sign_in_codes::user_id.eq(user_id))
            .filter(sign_in_codes::used_at.is_null()),
    )
    .set(sign_in_codes::used_at.eq(Some(at)))
    .execute(conn)?)
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = refresh_tokens)]
pub struct RefreshToken {
    pub token_hash: String,
    pub session_id: i64,
    pub issued_at: i64,
    /// When it was exchanged for its successor.
    pub used_at: Option<i64>,
}

pub fn insert_token(
    conn: &mut DbConnection,
    token_hash: &str,
    session_id: i64,
    at: i64,
) -> StoreResult<()> {
    diesel::insert_into(refresh_tokens::table)
        .values((
            refresh_tokens::token_hash.eq(token_hash),
            refresh_tokens::session_id.eq(session_id),
            refresh_tokens::issued_at.eq(at),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn token(conn: &mut DbConnection, token_hash: &str) -> StoreResult<Option<RefreshToken>> {
    Ok(refresh_tokens::table
        .find(token_hash)
        .select(RefreshToken::as_select())
        .first(conn)
        .optional()?)
}

/// Marks an unused token used; false when it was used already (by a
/// concurrent exchange too: on PostgreSQL the second update waits for the
/// first's transaction and then finds the row used).
pub fn use_token(conn: &mut DbConnection, token_hash: &str, at: i64) -> StoreResult<bool> {
    Ok(diesel::update(
        refresh_tokens::table
            .filter(refresh_tokens::token_hash.eq(token_hash))
            .filter(refresh_tokens::used_at.is_null()),
    )
    .set(refresh_tokens::used_at.eq(Some(at)))
    .execute(conn)?
        == 1)
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = sign_in_codes)]
pub struct SignInCode {
    pub code_hash: String,
    pub user_id: i64,
    pub game_id: String,
    pub expires_at: i64,
    pub used_at: Option<i64>,
}

pub fn insert_code(conn: &mut DbConnection, code: &SignInCode) -> StoreResult<()> {
    diesel::insert_into(sign_in_codes::table)
        .values((
            sign_in_codes::code_hash.eq(&code.code_hash),
            sign_in_codes::user_id.eq(code.user_id),
            sign_in_codes::game_id.eq(&code.game_id),
            sign_in_codes::expires_at.eq(code.expires_at),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn code(conn: &mut DbConnection, code_hash: &str) -> StoreResult<Option<SignInCode>> {
    Ok(sign_in_codes::table
        .find(code_hash)
        .select(SignInCode::as_select())
        .first(conn)
        .optional()?)
}

/// Marks an unused code used; false when it was used already.
pub fn use_code(conn: &mut DbConnection, code_hash: &str, at: i64) -> StoreResult<bool> {
    Ok(diesel::update(
        sign_in_codes::table
            .filter(sign_in_codes::code_hash.eq(code_hash))
            .filter(sign_in_codes::used_at.is_null()),
    )
    .set(sign_in_codes::used_at.eq(Some(at)))
    .execute(conn)?
        == 1)
}
