//! Getting back in by mail: a password reset, and a sign-in without the
//! password. Each asks for a code mailed to the account's address and then
//! redeems it; the request is answered the same whether or not the address
//! has an account (`service::accounts`).

use crate::api::accounts::{CodeRequest, CodeSent, check_password, session_by_code};
use crate::api::json::Json;
use crate::api::limited::LoginAttempt;
use crate::api::problem::Problem;
use crate::api::sessions::TokenResponse;
use crate::app::{AppState, Db};
use crate::auth::password;
use crate::error::Error;
use crate::service::accounts;
use crate::store::account_codes::purpose;
use actix_web::{HttpRequest, HttpResponse, post, web};
use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "ada@example.org"}))]
pub struct AddressRequest {
    #[schema(example = "ada@example.org", format = "email", max_length = 254)]
    pub email: String,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "ada@example.org", "code": "K7QP2-MXD9H", "new_password": "staple battery horse"}))]
pub struct ResetRequest {
    #[schema(example = "ada@example.org", format = "email", max_length = 254)]
    pub email: String,
    #[schema(example = "K7QP2-MXD9H", max_length = 32)]
    pub code: String,
    /// 8 to 128 characters.
    #[schema(min_length = 8, max_length = 128)]
    pub new_password: String,
}

/// Asks for `purpose`'s code to be mailed to `email`.
async fn request(
    state: &web::Data<AppState>,
    purpose: &'static str,
    email: &str,
    valid_ms: i64,
) -> Result<HttpResponse, Error> {
    let email = crate::service::email::normalize(email)?;
    let now = state.clock.now();
    let to = email.clone();
    state
        .db(move |conn| accounts::request_code(conn, purpose, &to, now))
        .await?;
    state.wake_mail();
    Ok(CodeSent::reply(email, valid_ms))
}

/// Mails the address a code to choose a new password with, if it has an
/// account (the answer is the same if not). The code works for an hour;
/// at most three are mailed to an address in an hour.
#[utoipa::path(tag = "accounts", operation_id = "request_password_reset", request_body = AddressRequest, responses(
    (status = 202, body = CodeSent),
    (status = 422, description = "Not one plain e-mail address (`invalid_email`)", body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "Too many attempts from this client", body = Problem, content_type = "application/problem+json"),
))]
#[post("/auth/password-reset")]
pub async fn request_reset(
    state: web::Data<AppState>,
    _counted: LoginAttempt,
    body: Json<AddressRequest>,
) -> Result<HttpResponse, Error> {
    request(&state, purpose::RESET, &body.email, accounts::RESET_MS).await
}

/// Sets a new password with a mailed reset code. Every session of the
/// account ends, and every sign-in code mailed to it stops working; sign
/// in with the new password.
#[utoipa::path(tag = "accounts", operation_id = "reset_password", request_body = ResetRequest, responses(
    (status = 204, description = "The password is changed"),
    (status = 400, description = "The code is wrong, used or expired (`invalid_code`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "An invalid address (`invalid_email`) or password (`invalid_password`)", body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "Too many attempts from this client", body = Problem, content_type = "application/problem+json"),
))]
#[post("/auth/password-reset/confirm")]
pub async fn reset(
    state: web::Data<AppState>,
    _counted: LoginAttempt,
    body: Json<ResetRequest>,
) -> Result<HttpResponse, Error> {
    let ResetRequest {
        email,
        code,
        new_password,
    } = body.into_inner();
    let email = crate::service::email::normalize(&email)?;
    check_password(&new_password)?;
    let hash = state
        .hashing
        .run(move || password::hash(&new_password))
        .await?
        .map_err(Error::internal)?;
    let now = state.clock.now();
    state
        .db(move |conn| accounts::reset_password(conn, &email, &code, &hash, now))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// Mails the address a code that signs in without the password, if it
/// has an account (the answer is the same if not). The code works once,
/// for an hour.
#[utoipa::path(tag = "accounts", operation_id = "request_sign_in_code", request_body = AddressRequest, responses(
    (status = 202, body = CodeSent),
    (status = 422, description = "Not one plain e-mail address (`invalid_email`)", body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "Too many attempts from this client", body = Problem, content_type = "application/problem+json"),
))]
#[post("/auth/sign-in-code")]
pub async fn request_sign_in(
    state: web::Data<AppState>,
    _counted: LoginAttempt,
    body: Json<AddressRequest>,
) -> Result<HttpResponse, Error> {
    request(&state, purpose::SIGN_IN, &body.email, accounts::SIGN_IN_MS).await
}

/// Signs in with a mailed sign-in code: a new session, as a password
/// login starts.
#[utoipa::path(tag = "accounts", operation_id = "sign_in_with_code", request_body = CodeRequest, responses(
    (status = 200, body = TokenResponse),
    (status = 400, description = "The code is wrong, used or expired (`invalid_code`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Not one plain e-mail address (`invalid_email`)", body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "Too many attempts from this client", body = Problem, content_type = "application/problem+json"),
))]
#[post("/auth/sign-in-code/redeem")]
pub async fn sign_in(
    state: web::Data<AppState>,
    req: HttpRequest,
    _counted: LoginAttempt,
    body: Json<CodeRequest>,
) -> Result<HttpResponse, Error> {
    session_by_code(
        &state,
        &req,
        body.into_inner(),
        HttpResponse::Ok(),
        |conn, email, code, now| {
            accounts::redeem_for_account(conn, purpose::SIGN_IN, email, code, now)
        },
    )
    .await
}
