//! The `jti` of each signed move a player made, so that a second move with
//! the same one is refused. A jti is kept until its move's `iat` is too
//! old for the move to be accepted at all (`expires_at`); the deadline
//! sweeper then deletes it. It is written in the same change as its move
//! (`store::change`), so a refused move uses none up.

use super::schema::used_jtis;
use super::{DbConnection, StoreResult};
use diesel::prelude::*;

#[derive(Insertable, Clone, Debug, PartialEq, Eq)]
#[diesel(table_name = used_jtis)]
pub struct UsedJti {
    pub user_id: i64,
    pub jti: String,
    /// Unix ms after which the signed move is too old to be accepted.
    pub expires_at: i64,
}

/// Whether `user` made a signed move with `jti` that has not expired at
/// `now`. An expired row is deleted here, so that the jti can be used
/// again before the sweeper gets to it.
pub fn seen(conn: &mut DbConnection, user: i64, jti: &str, now: i64) -> StoreResult<bool> {
    let expires_at: Option<i64> = used_jtis::table
        .find((user, jti))
        .select(used_jtis::expires_at)
        .first(conn)
        .optional()?;
    match expires_at {
        Some(at) if at >= now => Ok(true),
        Some(_) => {
            diesel::delete(used_jtis::table.find((user, jti))).execute(conn)?;
            Ok(false)
        }
        None => Ok(false),
    }
}

/// Records a jti; a second record of the same fails with a unique
/// violation.
pub fn insert(conn: &mut DbConnection, used: &UsedJti) -> StoreResult<()> {
    diesel::insert_into(used_jtis::table)
        .values(used)
        .execute(conn)?;
    Ok(())
}

/// Deletes every jti expired at `now`; returns how many.
pub fn forget_expired(conn: &mut DbConnection, now: i64) -> StoreResult<usize> {
    Ok(diesel::delete(used_jtis::table.filter(used_jtis::expires_at.lt(now))).execute(conn)?)
}
