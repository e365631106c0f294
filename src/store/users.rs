//! Accounts and the public keys players register for signed moves.

use super::schema::{user_keys, users};
use super::{DbConnection, StoreError, StoreResult, now_ms};
use diesel::prelude::*;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = users)]
pub struct User {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub password_hash: String,
    pub is_admin: bool,
    pub created_at: i64,
    /// `every_move`, `digest` or `off` (see `notify`).
    pub notify: String,
    /// An IANA time zone name: quiet hours, the digest hour and the times
    /// in mails are in it.
    pub time_zone: String,
    /// Quiet hours, in minutes after local midnight (both or neither).
    pub quiet_start: Option<i32>,
    pub quiet_end: Option<i32>,
    /// The local hour the daily digest goes out.
    pub digest_hour: i32,
    /// Raised by every change of the row (`set_*` below), so that a copy
    /// of it can be checked when a game's change is written.
    pub version: i64,
    /// When an admin disabled the account; it cannot sign in since.
    pub disabled_at: Option<i64>,
    /// When the account was deleted: the row stands for "a deleted
    /// player" in the games it played, and holds nothing of the person.
    pub deleted_at: Option<i64>,
}

#[derive(Insertable)]
#[diesel(table_name = users)]
struct NewUser<'a> {
    email: &'a str,
    display_name: &'a str,
    password_hash: &'a str,
    is_admin: bool,
    created_at: i64,
}

/// Inserts a user; `Ok(None)` when the e-mail address is already taken.
pub fn insert(
    conn: &mut DbConnection,
    email: &str,
    display_name: &str,
    password_hash: &str,
    is_admin: bool,
) -> StoreResult<Option<User>> {
    let inserted = diesel::insert_into(users::table)
        .values(NewUser {
            email,
            display_name,
            password_hash,
            is_admin,
            created_at: now_ms(),
        })
        .execute(conn);
    match inserted {
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => Ok(None),
        Err(e) => Err(e.into()),
        Ok(_) => by_email(conn, email),
    }
}

/// Inserts a user under a given id (an imported game names its players by
/// id). On PostgreSQL the id sequence is first moved past it, so later
/// registrations do not draw it.
pub fn insert_with_id(
    conn: &mut DbConnection,
    id: i64,
    email: &str,
    display_name: &str,
    password_hash: &str,
) -> StoreResult<()> {
    if let DbConnection::Pg(pg) = conn {
        diesel::sql_query(
            "SELECT setval(pg_get_serial_sequence('users', 'id'), \
             GREATEST($1, (SELECT COALESCE(MAX(id), 1) FROM users)))",
        )
        .bind::<diesel::sql_types::BigInt, _>(id)
        .execute(pg)?;
    }
    diesel::insert_into(users::table)
        .values((
            users::id.eq(id),
            users::email.eq(email),
            users::display_name.eq(display_name),
            users::password_hash.eq(password_hash),
            users::is_admin.eq(false),
            users::created_at.eq(now_ms()),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn by_email(conn: &mut DbConnection, email: &str) -> StoreResult<Option<User>> {
    Ok(users::table
        .filter(users::email.eq(email))
        .select(User::as_select())
        .first(conn)
        .optional()?)
}

/// The two players of a game, in the order given, in one query.
pub fn pair(conn: &mut DbConnection, ids: [i64; 2]) -> StoreResult<[User; 2]> {
    let found: Vec<User> = users::table
        .filter(users::id.eq_any(ids))
        .select(User::as_select())
        .load(conn)?;
    let take = |id: i64| {
        found
            .iter()
            .find(|u| u.id == id)
            .cloned()
            .ok_or_else(|| StoreError::Corrupt(format!("user {id} is missing")))
    };
    Ok([take(ids[0])?, take(ids[1])?])
}

pub fn by_id(conn: &mut DbConnection, id: i64) -> StoreResult<Option<User>> {
    Ok(users::table
        .find(id)
        .select(User::as_select())
        .first(conn)
        .optional()?)
}

/// The values of `users.notify`.
pub mod notify {
    pub const EVERY_MOVE: &str = "every_move";
    pub const DIGEST: &str = "digest";
    pub const OFF: &str = "off";
    pub const ALL: [&str; 3] = [EVERY_MOVE, DIGEST, OFF];
}

/// What a person chose for their mails.
#[derive(AsChangeset, Clone, Debug, PartialEq, Eq)]
#[diesel(table_name = users, treat_none_as_null = true)]
pub struct MailSettings {
    pub notify: String,
    pub time_zone: String,
    pub quiet_start: Option<i32>,
    pub quiet_end: Option<i32>,
    pub digest_hour: i32,
}

impl User {
    pub fn mail_settings(&self) -> MailSettings {
        MailSettings {
            notify: self.notify.clone(),
            time_zone: self.time_zone.clone(),
            quiet_start: self.quiet_start,
            quiet_end: self.quiet_end,
            digest_hour: self.digest_hour,
        }
    }
}

pub fn set_mail_settings(
    conn: &mut DbConnection,
    id: i64,
    settings: &MailSettings,
) -> StoreResult<()> {
    diesel::update(users::table.find(id))
        .set((settings, users::version.eq(users::version + 1)))
        .execute(conn)?;
    Ok(())
}

/// Whether both accounts are still the versions in `people`.
pub fn unchanged(conn: &mut DbConnection, people: &[User; 2]) -> StoreResult<bool> {
    for person in people {
        let version: Option<i64> = users::table
            .find(person.id)
            .select(users::version)
            .first(conn)
            .optional()?;
        if version != Some(person.version) {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Disables (`Some(at)`) or re-enables (`None`) an account; false when
/// there is no such account.
pub fn set_disabled(conn: &mut DbConnection, id: i64, at: Option<i64>) -> StoreResult<bool> {
    Ok(diesel::update(users::table.find(id))
        .set((
            users::disabled_at.eq(at),
            users::version.eq(users::version + 1),
        ))
        .execute(conn)?
        == 1)
}

/// Moves the account to `email`; false when another account has it.
pub fn set_email(conn: &mut DbConnection, id: i64, email: &str) -> StoreResult<bool> {
    let updated = diesel::update(users::table.find(id))
        .set((
            users::email.eq(email),
            users::version.eq(users::version + 1),
        ))
        .execute(conn);
    match updated {
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => Ok(false),
        Err(e) => Err(e.into()),
        Ok(n) => Ok(n == 1),
    }
}

pub fn set_password_hash(conn: &mut DbConnection, id: i64, hash: &str) -> StoreResult<()> {
    diesel::update(users::table.find(id))
        .set((
            users::password_hash.eq(hash),
            users::version.eq(users::version + 1),
        ))
        .execute(conn)?;
    Ok(())
}

pub fn set_admin(conn: &mut DbConnection, id: i64, admin: bool) -> StoreResult<()> {
    diesel::update(users::table.find(id))
        .set((
            users::is_admin.eq(admin),
            users::version.eq(users::version + 1),
        ))
        .execute(conn)?;
    Ok(())
}

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = user_keys)]
pub struct UserKey {
    pub id: i64,
    pub user_id: i64,
    pub public_key: String,
    pub created_at: i64,
    pub revoked_at: Option<i64>,
}

/// Registers a key; `Ok(None)` when it is active already, on this account
/// or another (a key is active on one account at most).
pub fn add_key(
    conn: &mut DbConnection,
    user_id: i64,
    public_key: &str,
) -> StoreResult<Option<UserKey>> {
    let now = now_ms();
    let inserted = diesel::insert_into(user_keys::table)
        .values((
            user_keys::user_id.eq(user_id),
            user_keys::public_key.eq(public_key),
            user_keys::created_at.eq(now),
        ))
        .execute(conn);
    match inserted {
        Err(diesel::result::Error::DatabaseError(
            diesel::result::DatabaseErrorKind::UniqueViolation,
            _,
        )) => return Ok(None),
        other => other?,
    };
    Ok(Some(
        user_keys::table
            .filter(user_keys::user_id.eq(user_id))
            .order(user_keys::id.desc())
            .select(UserKey::as_select())
            .first(conn)?,
    ))
}

pub fn active_keys(conn: &mut DbConnection, user_id: i64) -> StoreResult<Vec<UserKey>> {
    Ok(user_keys::table
        .filter(user_keys::user_id.eq(user_id))
        .filter(user_keys::revoked_at.is_null())
        .order(user_keys::id.asc())
        .select(UserKey::as_select())
        .load(conn)?)
}

pub fn revoke_key(conn: &mut DbConnection, user_id: i64, key_id: i64) -> StoreResult<bool> {
    let n = diesel::update(
        user_keys::table
            .filter(user_keys::id.eq(key_id))
            .filter(user_keys::user_id.eq(user_id))
            .filter(user_keys::revoked_at.is_null()),
    )
    .set(user_keys::revoked_at.eq(Some(now_ms())))
    .execute(conn)?;
    Ok(n == 1)
}
