//! The caller's account itself: moving it to another address, deleting
//! it, and downloading everything the server holds about it. Changing the
//! address and deleting need the password, or a sign-in of the last ten
//! minutes (one by a mailed code among them, for who forgot it).

use crate::api::accounts::UserInfo;
use crate::api::caller::{AdminUser, AuthUser};
use crate::api::json::Json;
use crate::api::limited::LoginAttempt;
use crate::api::problem::Problem;
use crate::app::{AppState, Db};
use crate::auth::password;
use crate::error::Error;
use crate::service::account_data::{self, Deleted, DeletedBy};
use crate::service::accounts;
use crate::store::users::{self, User};
use actix_web::{HttpResponse, get, post, put, web};
use serde::Deserialize;
use utoipa::ToSchema;

/// How recent a sign-in must be to stand in for the password.
pub const FRESH_SIGN_IN_MS: i64 = 10 * 60 * 1000;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"new_email": "ada@example.net", "password": "correct horse battery"}))]
pub struct EmailChange {
    #[schema(example = "ada@example.net", format = "email", max_length = 254)]
    pub new_email: String,
    /// The account's password; may be left out within ten minutes of
    /// signing in.
    pub password: Option<String>,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "ada@example.net", "code": "K7QP2-MXD9H"}))]
pub struct AddressCode {
    /// The new address, which the code was mailed to.
    #[schema(example = "ada@example.net", format = "email", max_length = 254)]
    pub email: String,
    #[schema(example = "K7QP2-MXD9H", max_length = 32)]
    pub code: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"password": "correct horse battery"}))]
pub struct Confirmation {
    /// The account's password; may be left out within ten minutes of
    /// signing in.
    pub password: Option<String>,
}

/// The caller's account, once they proved it is them: by `password`, or
/// by a session that began in the last ten minutes.
async fn proven(
    state: &web::Data<AppState>,
    user: &AuthUser,
    password: Option<String>,
) -> Result<User, Error> {
    let (id, session) = (user.id, user.session);
    let now = state.clock.now();
    let (account, fresh) = state
        .db(move |conn| {
            let account = users::by_id(conn, id)?.filter(|u| u.deleted_at.is_none());
            let fresh = match session {
                Some(s) => crate::store::sessions::by_id(conn, s)?.is_some_and(|s| {
                    s.revoked_at.is_none() && now - s.created_at < FRESH_SIGN_IN_MS
                }),
                None => false,
            };
            Ok((account, fresh))
        })
        .await?;
    let account = account.ok_or_else(|| Error::unauthorized("the account no longer exists"))?;
    let Some(password) = password else {
        return if fresh {
            Ok(account)
        } else {
            Err(refused(
                "password_required",
                "give the account's password, or sign in again first (a sign-in of the last ten minutes stands in for it)",
            ))
        };
    };
    let stored = account.password_hash.clone();
    let right = state
        .hashing
        .run(move || password::check(&password, Some(&stored)))
        .await?;
    if right {
        Ok(account)
    } else {
        Err(refused("wrong_password", "the password is not right"))
    }
}

fn refused(code: &'static str, detail: &str) -> Error {
    Error::new(
        actix_web::http::StatusCode::FORBIDDEN,
        code,
        "Forbidden",
        detail,
    )
}

/// Moves the account to another address: a code is mailed to the new
/// address, and the move happens when it is confirmed
/// (`POST /api/v1/account/email/confirm`); the old address is told then.
/// Until then the account keeps its address and its mail.
#[utoipa::path(tag = "accounts", operation_id = "change_email", security(("bearer" = [])), request_body = EmailChange, responses(
    (status = 202, body = crate::api::accounts::CodeSent),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "Wrong password (`wrong_password`), or none given long after signing in (`password_required`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Not one plain e-mail address (`invalid_email`), or the account's own (`same_email`)", body = Problem, content_type = "application/problem+json"),
))]
#[put("/account/email")]
pub async fn change_email(
    state: web::Data<AppState>,
    user: AuthUser,
    body: Json<EmailChange>,
) -> Result<HttpResponse, Error> {
    let EmailChange {
        new_email,
        password,
    } = body.into_inner();
    let new_email = crate::service::email::normalize(&new_email)?;
    let account = proven(&state, &user, password).await?;
    let now = state.clock.now();
    let to = new_email.clone();
    state
        .db(move |conn| accounts::request_email_change(conn, &account, &to, now))
        .await?;
    state.wake_mail();
    Ok(crate::api::accounts::CodeSent::reply(
        new_email,
        accounts::CHANGE_EMAIL_MS,
    ))
}

/// Confirms an address change with the code mailed to the new address
/// (no sign-in needed: the code proves the address, the request the
/// password). Game mail goes to the new address from now on, mails still
/// queued included.
#[utoipa::path(tag = "accounts", operation_id = "confirm_email_change", request_body = AddressCode, responses(
    (status = 200, body = UserInfo),
    (status = 400, description = "The code is wrong, used or expired (`invalid_code`)", body = Problem, content_type = "application/problem+json"),
    (status = 409, description = "The address got an account meanwhile (`email_taken`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Not one plain e-mail address (`invalid_email`)", body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "Too many attempts from this client", body = Problem, content_type = "application/problem+json"),
))]
#[post("/account/email/confirm")]
pub async fn confirm_email(
    state: web::Data<AppState>,
    _counted: LoginAttempt,
    body: Json<AddressCode>,
) -> Result<HttpResponse, Error> {
    let email = crate::service::email::normalize(&body.email)?;
    let code = body.code.clone();
    let now = state.clock.now();
    let moved = state
        .db(move |conn| accounts::confirm_email_change(conn, &email, &code, now))
        .await?;
    state.wake_mail();
    Ok(HttpResponse::Ok().json(UserInfo::from(&moved)))
}

/// Deletes the account. Its running games are resigned and its games not
/// yet started cancelled (their opponents are told as for any
/// resignation), invitations to its address declined; then its address,
/// name, password, sessions, keys, settings, codes, the mails to it and
/// the replies from it are deleted. Finished games stay for their
/// opponents, with its seat shown as "a deleted player", and still
/// verify. There is no undo; download your data first
/// (`GET /api/v1/account/export`).
#[utoipa::path(tag = "accounts", operation_id = "delete_account", security(("bearer" = [])), request_body = Confirmation, responses(
    (status = 200, body = Deleted),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "Wrong password (`wrong_password`), or none given long after signing in (`password_required`)", body = Problem, content_type = "application/problem+json"),
))]
#[post("/account/delete")]
pub async fn delete(
    state: web::Data<AppState>,
    user: AuthUser,
    body: Json<Confirmation>,
) -> Result<HttpResponse, Error> {
    let account = proven(&state, &user, body.into_inner().password).await?;
    let now = state.now();
    let deleted = state
        .db(move |conn| account_data::delete(conn, account.id, DeletedBy::Owner, now))
        .await?;
    Ok(HttpResponse::Ok().json(deleted))
}

/// Everything the server holds about you, as one JSON document (GDPR
/// Articles 15 and 20): your account and mail settings, your sign-in
/// sessions and keys, your games with your own moves, the mails sent to
/// you with what they said (kept 30 days after sending), and the replies
/// you sent.
#[utoipa::path(tag = "accounts", operation_id = "export_account", security(("bearer" = [])), responses(
    (status = 200, description = "The document (`format`: `hexpost-account-export`, `version` 1)", body = Object, content_type = "application/json"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
))]
#[get("/account/export")]
pub async fn export(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, Error> {
    let now = state.clock.now();
    let document = state
        .db(move |conn| account_data::export(conn, user.id, now))
        .await?;
    Ok(HttpResponse::Ok()
        .insert_header((
            actix_web::http::header::CONTENT_DISPOSITION,
            "attachment; filename=\"hexpost-account.json\"",
        ))
        .json(document))
}

/// Deletes an account on its owner's request, as its owner would
/// (`POST /api/v1/account/delete`); the admin log records who did it.
#[utoipa::path(tag = "admin", operation_id = "delete_user", security(("bearer" = [])), params(("user_id" = i64, Path)), responses(
    (status = 200, body = Deleted),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
    (status = 404, description = "No such account, or deleted already", body = Problem, content_type = "application/problem+json"),
))]
#[post("/admin/users/{user_id}/delete")]
pub async fn admin_delete(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let now = state.now();
    let by = admin.0.id;
    let deleted = state
        .db(move |conn| account_data::delete(conn, id, DeletedBy::Admin(Some(by)), now))
        .await?;
    Ok(HttpResponse::Ok().json(deleted))
}
