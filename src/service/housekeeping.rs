//! Admin chores: creating accounts (admins among them), listing games,
//! and clearing invitations nobody answered.

use super::games::{self as svc, GameSummary};
use crate::error::Error;
use crate::store::games::{self as db, status};
use crate::store::{DbConnection, write_tx};
use serde::Serialize;
use utoipa::ToSchema;

/// Creates an account on an admin's behalf (`admin` None: the CLI), with
/// admin rights if `is_admin`, and logs it. `email` and `name` are checked
/// and the password already hashed.
pub fn create_user(
    conn: &mut DbConnection,
    admin: Option<i64>,
    email: &str,
    name: &str,
    password_hash: &str,
    is_admin: bool,
) -> Result<crate::store::users::User, Error> {
    write_tx(conn, |conn| {
        let user = crate::store::users::insert(conn, email, name, password_hash, is_admin)?
            .ok_or_else(|| {
                Error::conflict("email_taken", format!("{email} is already registered"))
            })?;
        db::admin_log(
            conn,
            admin,
            "create_user",
            &user.id.to_string(),
            &format!("admin={is_admin}"),
        )?;
        Ok(user)
    })
}

/// Disables an account (it can no longer sign in, and every session of it
/// ends) or enables it again; false when there is no such account.
pub fn set_disabled(
    conn: &mut DbConnection,
    admin: Option<i64>,
    user: i64,
    disabled: bool,
    now: i64,
) -> Result<bool, Error> {
    write_tx(conn, |conn| {
        if !crate::store::users::set_disabled(conn, user, disabled.then_some(now))? {
            return Ok(false);
        }
        if disabled {
            crate::store::sessions::revoke_all(conn, user, now)?;
        }
        let action = if disabled {
            "disable_user"
        } else {
            "enable_user"
        };
        db::admin_log(conn, admin, action, &user.to_string(), "")?;
        Ok(true)
    })
}

pub const ALL_STATUSES: [&str; 5] = [
    status::OPEN,
    status::ACTIVE,
    status::FINISHED,
    status::CANCELLED,
    status::DECLINED,
];

/// Games in `statuses` (all when empty), newest first, as no player sees
/// them (`your_seat` null, `awaiting_you` false).
pub fn list_games(
    conn: &mut DbConnection,
    statuses: &[&str],
    page: i64,
    per_page: i64,
) -> Result<Vec<GameSummary>, Error> {
    let statuses = if statuses.is_empty() {
        &ALL_STATUSES[..]
    } else {
        statuses
    };
    let offset = page.saturating_sub(1).saturating_mul(per_page);
    let rows = db::list_all(conn, statuses, offset, per_page)?;
    rows.iter().map(|g| svc::summary(conn, g, 0)).collect()
}

#[derive(Serialize, ToSchema, Debug)]
#[schema(example = json!({
    "invitations_expired": 3,
    "games_cancelled": ["0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4"]
}))]
pub struct Purged {
    /// Pending invitations older than the cut-off, now `expired`.
    pub invitations_expired: usize,
    /// Open games older than the cut-off that no pending invitation can
    /// start any more, now `cancelled`.
    pub games_cancelled: Vec<String>,
}

/// Expires every pending invitation created more than `older_than_days`
/// days before `now`, then cancels each open game created before then
/// that no pending invitation is left to start. One transaction; each
/// cancelled game gets an admin log entry.
pub fn purge_invitations(
    conn: &mut DbConnection,
    admin: Option<i64>,
    older_than_days: i64,
    now: i64,
) -> Result<Purged, Error> {
    if !(1..=36_500).contains(&older_than_days) {
        return Err(Error::unprocessable(
            "invalid_age",
            "older_than_days must be 1 to 36500",
        ));
    }
    let cutoff = now - older_than_days * 86_400_000;
    write_tx(conn, |conn| {
        let invitations_expired = db::expire_invitations(conn, cutoff, now)?;
        let mut games_cancelled = Vec::new();
        for id in db::abandoned_open_games(conn, cutoff)? {
            if db::cancel_if_open(conn, &id, now)? {
                db::admin_log(
                    conn,
                    admin,
                    "purge_invitations",
                    &id,
                    &format!("cancelled; older than {older_than_days} days"),
                )?;
                games_cancelled.push(id);
            }
        }
        db::admin_log(
            conn,
            admin,
            "purge_invitations",
            "",
            &format!(
                "older_than_days={older_than_days} expired={invitations_expired} cancelled={}",
                games_cancelled.len()
            ),
        )?;
        Ok(Purged {
            invitations_expired,
            games_cancelled,
        })
    })
}
