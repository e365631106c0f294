//! What the server holds about a person, given to them (`export`) or
//! erased (`delete`): GDPR Articles 15, 17 and 20. A deleted account's
//! row stays as "a deleted player", holding nothing of the person, so
//! that the finished games it played keep both seats; the log's hash
//! chain binds seats and moves, never names or addresses, so they still
//! verify (docs/security.md, "What is kept, and what deletion removes").

use super::Now;
use super::games;
use crate::error::Error;
use crate::store::schema::{
    account_codes, admin_log, game_players, games as games_table, idempotency_keys, inbound_mails,
    invitations, moves, outbox, sessions, sign_in_codes, used_jtis, user_keys, users,
};
use crate::store::users::User;
use crate::store::{DbConnection, write_tx};
use diesel::prelude::*;
use serde::Serialize;
use serde_json::{Value, json};
use utoipa::ToSchema;

/// What a deleted account is called wherever its seat is shown.
pub const DELETED_NAME: &str = "a deleted player";

/// The address a deleted account keeps: unique, and undeliverable (the
/// `.invalid` top-level domain is reserved for that, RFC 2606).
pub fn deleted_address(id: i64) -> String {
    format!("deleted-{id}@deleted.invalid")
}

/// Who deletes an account: its owner, or an admin on their request (None:
/// from the command line).
#[derive(Clone, Copy, Debug)]
pub enum DeletedBy {
    Owner,
    Admin(Option<i64>),
}

/// What deleting an account did to its games.
#[derive(Serialize, ToSchema, Debug, Default, PartialEq, Eq)]
#[schema(example = json!({"resigned": ["0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4"], "cancelled": [], "declined": []}))]
pub struct Deleted {
    /// Running games the account resigned.
    pub resigned: Vec<String>,
    /// Its games that had not started, cancelled.
    pub cancelled: Vec<String>,
    /// Invitations to its address it declined.
    pub declined: Vec<String>,
}

/// Deletes account `user_id` (by its owner, or an admin): its running
/// games are resigned, its open ones cancelled, the invitations to its
/// address declined (each through its use case, so the opponents are told
/// as for any resignation); then, in one transaction, everything personal
/// goes. Deleting again after a failure part-way finishes the job.
pub fn delete(
    conn: &mut DbConnection,
    user_id: i64,
    by: DeletedBy,
    now: Now,
) -> Result<Deleted, Error> {
    let user = crate::store::users::by_id(conn, user_id)?
        .filter(|u| u.deleted_at.is_none())
        .ok_or_else(|| Error::not_found("user"))?;
    // The name goes first, so that what the resignations below tell the
    // opponents names nobody.
    diesel::update(users::table.find(user.id))
        .set((
            users::display_name.eq(DELETED_NAME),
            users::version.eq(users::version + 1),
        ))
        .execute(conn)?;
    let mut done = Deleted::default();
    for (id, status) in games_of(conn, user.id)? {
        let ended = match status.as_str() {
            crate::store::games::status::ACTIVE => {
                games::resign(conn, user.id, &id, now).map(|_| done.resigned.push(id.clone()))
            }
            crate::store::games::status::OPEN => {
                games::cancel(conn, user.id, &id, now).map(|_| done.cancelled.push(id.clone()))
            }
            _ => Ok(()),
        };
        // A game that ended meanwhile needs nothing more.
        if let Err(e) = ended
            && !e.status.is_client_error()
        {
            return Err(e);
        }
    }
    let invited: Vec<String> = invitations::table
        .filter(invitations::email.eq(&user.email))
        .filter(invitations::status.eq("pending"))
        .select(invitations::id)
        .load(conn)?;
    for id in invited {
        match games::decline_by_id(conn, &id, now) {
            Ok(()) => done.declined.push(id),
            Err(e) if e.status.is_client_error() => {}
            Err(e) => return Err(e),
        }
    }
    write_tx(conn, |conn| erase(conn, &user, by, now.at))?;
    Ok(done)
}

/// The games `user` plays or created, with their status.
fn games_of(conn: &mut DbConnection, user: i64) -> Result<Vec<(String, String)>, Error> {
    let seated = game_players::table
        .filter(game_players::user_id.eq(user))
        .select(game_players::game_id);
    Ok(games_table::table
        .filter(
            games_table::id
                .eq_any(seated)
                .or(games_table::created_by.eq(user)),
        )
        .select((games_table::id, games_table::status))
        .load(conn)?)
}

/// Everything personal of `user`, gone: its sign-ins, keys, codes, the
/// mails to it and from it, its retried replies, its name in what the
/// other players of its games were sent, its address wherever it was
/// written; its row keeps only its id.
fn erase(conn: &mut DbConnection, user: &User, by: DeletedBy, at: i64) -> Result<(), Error> {
    let id = user.id;
    // Its games, and the games it was invited to.
    let mut game_ids: Vec<String> = games_of(conn, id)?.into_iter().map(|(g, _)| g).collect();
    game_ids.extend(
        invitations::table
            .filter(invitations::email.eq(&user.email))
            .select(invitations::game_id)
            .load::<String>(conn)?,
    );
    game_ids.sort();
    game_ids.dedup();
    diesel::delete(sessions::table.filter(sessions::user_id.eq(id))).execute(conn)?;
    diesel::delete(sign_in_codes::table.filter(sign_in_codes::user_id.eq(id))).execute(conn)?;
    diesel::delete(user_keys::table.filter(user_keys::user_id.eq(id))).execute(conn)?;
    diesel::delete(used_jtis::table.filter(used_jtis::user_id.eq(id))).execute(conn)?;
    diesel::delete(idempotency_keys::table.filter(idempotency_keys::user_id.eq(id)))
        .execute(conn)?;
    crate::store::account_codes::forget_person(conn, &user.email, id)?;
    diesel::delete(
        outbox::table.filter(outbox::user_id.eq(id).or(outbox::recipient.eq(&user.email))),
    )
    .execute(conn)?;
    diesel::delete(
        inbound_mails::table.filter(
            inbound_mails::user_id
                .eq(id)
                .or(inbound_mails::sender.eq(&user.email)),
        ),
    )
    .execute(conn)?;
    let placeholder = deleted_address(id);
    diesel::update(invitations::table.filter(invitations::email.eq(&user.email)))
        .set(invitations::email.eq(&placeholder))
        .execute(conn)?;
    // What the other players of its games were sent is kept only to show
    // an admin what went out: emptied now, as it would be a month on.
    diesel::update(
        outbox::table
            .filter(outbox::game_id.eq_any(&game_ids))
            .filter(outbox::status.ne(crate::store::outbox::status::PENDING)),
    )
    .set(outbox::context.eq(""))
    .execute(conn)?;
    // Its name where it is written into text: the other players' mails
    // still waiting to go, their retried replies and their reply records
    // (JSON strings escape it), and its address in the admin log.
    let name = &user.display_name;
    let escaped = serde_json::to_string(name).map_err(Error::internal)?;
    let escaped = &escaped[1..escaped.len() - 1];
    let replace = |table: &str, column: &str, scope: &str| {
        format!(
            "UPDATE {table} SET {column} = REPLACE({column}, ?, ?) \
             WHERE {column} <> REPLACE({column}, ?, ?){scope}"
        )
    };
    let in_games = " AND game_id = ?";
    for (sql, from, to, games) in [
        (
            replace("outbox", "context", in_games),
            escaped,
            DELETED_NAME,
            true,
        ),
        (
            replace("outbox", "context", in_games),
            user.email.as_str(),
            placeholder.as_str(),
            true,
        ),
        (
            replace("idempotency_keys", "response", ""),
            escaped,
            DELETED_NAME,
            false,
        ),
        (
            replace("inbound_mails", "detail", in_games),
            name.as_str(),
            DELETED_NAME,
            true,
        ),
        (
            replace("admin_log", "detail", ""),
            user.email.as_str(),
            placeholder.as_str(),
            false,
        ),
        (
            replace("admin_log", "target", ""),
            user.email.as_str(),
            placeholder.as_str(),
            false,
        ),
    ] {
        let sql = match conn {
            DbConnection::Pg(_) => numbered(&sql),
            DbConnection::Sqlite(_) => sql,
        };
        if games {
            for game in &game_ids {
                replace_text(conn, &sql, from, to, Some(game))?;
            }
        } else {
            replace_text(conn, &sql, from, to, None)?;
        }
    }
    diesel::update(users::table.find(id))
        .set((
            users::email.eq(&placeholder),
            users::display_name.eq(DELETED_NAME),
            users::password_hash.eq(""),
            users::is_admin.eq(false),
            users::notify.eq(crate::store::users::notify::OFF),
            users::time_zone.eq("UTC"),
            users::quiet_start.eq(None::<i32>),
            users::quiet_end.eq(None::<i32>),
            users::disabled_at.eq(Some(at)),
            users::deleted_at.eq(Some(at)),
            users::version.eq(users::version + 1),
        ))
        .execute(conn)?;
    let (actor, detail) = match by {
        DeletedBy::Owner => (Some(id), "by its owner"),
        DeletedBy::Admin(admin) => (admin, "by an admin, on its owner's request"),
    };
    crate::store::games::admin_log(conn, actor, "delete_user", &id.to_string(), detail)?;
    Ok(())
}

/// `?` placeholders as PostgreSQL's `$1, $2, …`.
fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len());
    let mut n = 0;
    for c in sql.chars() {
        if c == '?' {
            n += 1;
            out.push_str(&format!("${n}"));
        } else {
            out.push(c);
        }
    }
    out
}

/// Runs one of `erase`'s replacements: `from` becomes `to`, in the rows of
/// `game` when given. Each `?` of the statement is bound in order.
fn replace_text(
    conn: &mut DbConnection,
    sql: &str,
    from: &str,
    to: &str,
    game: Option<&str>,
) -> Result<(), Error> {
    use diesel::sql_types::Text;
    let query = diesel::sql_query(sql)
        .bind::<Text, _>(from)
        .bind::<Text, _>(to)
        .bind::<Text, _>(from)
        .bind::<Text, _>(to);
    match game {
        Some(game) => query.bind::<Text, _>(game).execute(conn)?,
        None => query.execute(conn)?,
    };
    Ok(())
}

/// A sign-in session as the export shows it.
#[derive(Queryable, Selectable, Serialize)]
#[diesel(table_name = sessions)]
struct SessionRecord {
    id: i64,
    created_at: i64,
    last_used_at: i64,
    expires_at: i64,
    user_agent: String,
    ip: String,
    revoked_at: Option<i64>,
}

/// A mail sent to the person, with what it said while that is kept.
#[derive(Queryable, Selectable)]
#[diesel(table_name = outbox)]
struct MailRecord {
    kind: String,
    game_id: Option<String>,
    status: String,
    created_at: i64,
    sent_at: Option<i64>,
    context: String,
}

/// A reply mail the person sent, as it was recorded.
#[derive(Queryable, Selectable, Serialize)]
#[diesel(table_name = inbound_mails)]
struct ReplyRecord {
    received_at: i64,
    via: String,
    message_id: String,
    game_id: Option<String>,
    outcome: String,
    applied: i32,
    detail: Option<String>,
}

/// Everything the server holds about account `user_id`, as one JSON
/// document: the account and its settings, its sign-in sessions and
/// keys, its games with its own moves, the mails sent to it (with what
/// they said, while that is kept) and the replies it sent.
pub fn export(conn: &mut DbConnection, user_id: i64, now: i64) -> Result<Value, Error> {
    let user = crate::store::users::by_id(conn, user_id)?
        .filter(|u| u.deleted_at.is_none())
        .ok_or_else(|| Error::unauthorized("the account no longer exists"))?;
    let sessions: Vec<SessionRecord> = sessions::table
        .filter(sessions::user_id.eq(user.id))
        .order(sessions::id.asc())
        .select(SessionRecord::as_select())
        .load(conn)?;
    let keys: Vec<(i64, String, i64, Option<i64>)> = user_keys::table
        .filter(user_keys::user_id.eq(user.id))
        .order(user_keys::id.asc())
        .select((
            user_keys::id,
            user_keys::public_key,
            user_keys::created_at,
            user_keys::revoked_at,
        ))
        .load(conn)?;
    let mut games_out = Vec::new();
    for (game_id, _) in games_of(conn, user.id)? {
        let Some(game) = crate::store::games::get(conn, &game_id)? else {
            continue;
        };
        let seat = game_players::table
            .filter(game_players::game_id.eq(&game_id))
            .filter(game_players::user_id.eq(user.id))
            .select(game_players::seat)
            .first::<i32>(conn)
            .optional()?;
        let own: Vec<(i64, String, Option<String>, i64)> = moves::table
            .filter(moves::game_id.eq(&game_id))
            .filter(moves::user_id.eq(user.id))
            .order(moves::seq.asc())
            .select((moves::seq, moves::action, moves::jws, moves::created_at))
            .load(conn)?;
        games_out.push(json!({
            "id": game.id,
            "variant": game.variant,
            "status": game.status,
            "created_by_you": game.created_by == user.id,
            "your_seat": seat,
            "created_at": game.created_at,
            "finished_at": game.finished_at,
            "your_moves": own.into_iter().map(|(seq, action, jws, at)| json!({
                "seq": seq,
                "action": serde_json::from_str::<Value>(&action).unwrap_or(Value::String(action)),
                "jws": jws,
                "created_at": at,
            })).collect::<Vec<_>>(),
        }));
    }
    let mails: Vec<MailRecord> = outbox::table
        .filter(
            outbox::user_id
                .eq(user.id)
                .or(outbox::recipient.eq(&user.email)),
        )
        .order(outbox::id.asc())
        .select(MailRecord::as_select())
        .load(conn)?;
    let replies: Vec<ReplyRecord> = inbound_mails::table
        .filter(
            inbound_mails::user_id
                .eq(user.id)
                .or(inbound_mails::sender.eq(&user.email)),
        )
        .order(inbound_mails::id.asc())
        .select(ReplyRecord::as_select())
        .load(conn)?;
    let waiting_codes: i64 = account_codes::table
        .filter(account_codes::user_id.eq(user.id))
        .filter(account_codes::used_at.is_null())
        .filter(account_codes::expires_at.gt(now))
        .count()
        .get_result(conn)?;
    let admin_actions: Vec<(String, String, i64)> = admin_log::table
        .filter(admin_log::target.eq(user.id.to_string()))
        .order(admin_log::id.asc())
        .select((admin_log::action, admin_log::detail, admin_log::created_at))
        .load(conn)?;
    Ok(json!({
        "format": "hexpost-account-export",
        "version": 1,
        "exported_at": now,
        "account": {
            "id": user.id,
            "email": user.email,
            "display_name": user.display_name,
            "is_admin": user.is_admin,
            "created_at": user.created_at,
            "disabled_at": user.disabled_at,
            "mail_settings": {
                "notify": user.notify,
                "time_zone": user.time_zone,
                "quiet_start": user.quiet_start,
                "quiet_end": user.quiet_end,
                "digest_hour": user.digest_hour,
            },
        },
        "sessions": sessions,
        "keys": keys.into_iter().map(|(id, key, created, revoked)| json!({
            "id": id, "public_key": key, "created_at": created, "revoked_at": revoked,
        })).collect::<Vec<_>>(),
        "games": games_out,
        "mails": mails.into_iter().map(|m| json!({
            "kind": m.kind, "game_id": m.game_id, "status": m.status,
            "created_at": m.created_at, "sent_at": m.sent_at,
            "context": serde_json::from_str::<Value>(&m.context).unwrap_or(Value::Null),
        })).collect::<Vec<_>>(),
        "replies": replies,
        "codes_waiting": waiting_codes,
        "admin_actions": admin_actions.into_iter().map(|(action, detail, at)| json!({
            "action": action, "detail": detail, "created_at": at,
        })).collect::<Vec<_>>(),
    }))
}
