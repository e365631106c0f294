//! Codes mailed to prove an address: a registration waiting for its
//! confirmation, a password reset, a sign-in by mail, an address change
//! waiting for the new address (`service::accounts`). Only a code's hash
//! is stored; a code is looked up by its address and purpose, never by
//! itself, so that a wrong guess can be counted against that address.

use super::schema::account_codes;
use super::{DbConnection, StoreResult};
use diesel::prelude::*;

/// What a code proves, when used.
pub mod purpose {
    /// Creates the account it carries the name and password hash of.
    pub const REGISTER: &str = "register";
    /// Sets a new password for `user_id`.
    pub const RESET: &str = "reset";
    /// Signs `user_id` in.
    pub const SIGN_IN: &str = "sign_in";
    /// Moves `user_id` to the code's address.
    pub const CHANGE_EMAIL: &str = "change_email";
}

/// Wrong codes for one address and purpose after which its live codes no
/// longer work (the next one asked for does).
pub const MAX_ATTEMPTS: i32 = 5;

#[derive(Queryable, Selectable, Clone, Debug)]
#[diesel(table_name = account_codes)]
pub struct AccountCode {
    pub id: i64,
    pub purpose: String,
    pub email: String,
    pub user_id: Option<i64>,
    pub display_name: Option<String>,
    pub password_hash: Option<String>,
    pub code_hash: String,
    pub attempts: i32,
    pub created_at: i64,
    pub expires_at: i64,
    pub used_at: Option<i64>,
}

#[derive(Insertable, Clone, Debug)]
#[diesel(table_name = account_codes)]
pub struct NewAccountCode<'a> {
    pub purpose: &'a str,
    pub email: &'a str,
    pub user_id: Option<i64>,
    pub display_name: Option<&'a str>,
    pub password_hash: Option<&'a str>,
    pub code_hash: &'a str,
    pub created_at: i64,
    pub expires_at: i64,
}

pub fn insert(conn: &mut DbConnection, code: &NewAccountCode) -> StoreResult<()> {
    diesel::insert_into(account_codes::table)
        .values(code)
        .execute(conn)?;
    Ok(())
}

/// The codes of `purpose` for `email` that may still be used at `now`.
pub fn live(
    conn: &mut DbConnection,
    purpose: &str,
    email: &str,
    now: i64,
) -> StoreResult<Vec<AccountCode>> {
    Ok(account_codes::table
        .filter(account_codes::purpose.eq(purpose))
        .filter(account_codes::email.eq(email))
        .filter(account_codes::used_at.is_null())
        .filter(account_codes::expires_at.gt(now))
        .filter(account_codes::attempts.lt(MAX_ATTEMPTS))
        .order(account_codes::id.asc())
        .select(AccountCode::as_select())
        .load(conn)?)
}

/// How many codes of `purpose` were made for `email` since `since`.
pub fn made_since(
    conn: &mut DbConnection,
    purpose: &str,
    email: &str,
    since: i64,
) -> StoreResult<i64> {
    Ok(account_codes::table
        .filter(account_codes::purpose.eq(purpose))
        .filter(account_codes::email.eq(email))
        .filter(account_codes::created_at.ge(since))
        .count()
        .get_result(conn)?)
}

/// How many codes of `purpose` were made for account `user_id` since
/// `since`, whatever their address.
pub fn made_by_since(
    conn: &mut DbConnection,
    purpose: &str,
    user_id: i64,
    since: i64,
) -> StoreResult<i64> {
    Ok(account_codes::table
        .filter(account_codes::purpose.eq(purpose))
        .filter(account_codes::user_id.eq(Some(user_id)))
        .filter(account_codes::created_at.ge(since))
        .count()
        .get_result(conn)?)
}

/// Counts a wrong code against every live code of `purpose` for `email`.
pub fn count_miss(
    conn: &mut DbConnection,
    purpose: &str,
    email: &str,
    now: i64,
) -> StoreResult<()> {
    diesel::update(
        account_codes::table
            .filter(account_codes::purpose.eq(purpose))
            .filter(account_codes::email.eq(email))
            .filter(account_codes::used_at.is_null())
            .filter(account_codes::expires_at.gt(now)),
    )
    .set(account_codes::attempts.eq(account_codes::attempts + 1))
    .execute(conn)?;
    Ok(())
}

/// Marks code `id` used; false when it was used already (a race).
pub fn use_code(conn: &mut DbConnection, id: i64, now: i64) -> StoreResult<bool> {
    Ok(diesel::update(
        account_codes::table
            .filter(account_codes::id.eq(id))
            .filter(account_codes::used_at.is_null()),
    )
    .set(account_codes::used_at.eq(Some(now)))
    .execute(conn)?
        == 1)
}

/// Ends every other live code of `purpose` for `email` (a registration
/// confirmed ends the others of its address; a password reset ends the
/// other resets).
pub fn end_others(
    conn: &mut DbConnection,
    purpose: &str,
    email: &str,
    now: i64,
) -> StoreResult<usize> {
    Ok(diesel::update(
        account_codes::table
            .filter(account_codes::purpose.eq(purpose))
            .filter(account_codes::email.eq(email))
            .filter(account_codes::used_at.is_null()),
    )
    .set(account_codes::used_at.eq(Some(now)))
    .execute(conn)?)
}

/// Every code made for `email` or for account `user_id` (its deletion
/// forgets them).
pub fn forget_person(conn: &mut DbConnection, email: &str, user_id: i64) -> StoreResult<usize> {
    Ok(diesel::delete(
        account_codes::table.filter(
            account_codes::email
                .eq(email)
                .or(account_codes::user_id.eq(Some(user_id))),
        ),
    )
    .execute(conn)?)
}

/// Deletes the codes that expired, or were used, before `cutoff`: a
/// registration never confirmed is forgotten with its name and password
/// hash.
pub fn forget_ended(conn: &mut DbConnection, cutoff: i64) -> StoreResult<usize> {
    Ok(diesel::delete(
        account_codes::table.filter(
            account_codes::expires_at
                .lt(cutoff)
                .or(account_codes::used_at.lt(cutoff)),
        ),
    )
    .execute(conn)?)
}
