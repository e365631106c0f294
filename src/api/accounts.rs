//! Accounts: registration, login (access tokens), and the Ed25519 public
//! keys a player registers to sign moves.

use crate::api::caller::AuthUser;
use crate::api::json::Json;
use crate::api::limited::LoginAttempt;
use crate::api::problem::Problem;
use crate::api::sessions::{self, TokenResponse};
use crate::app::{AppState, Db};
use crate::auth::password;
use crate::auth::signing::{self, CompactJws};
use crate::error::Error;
use crate::service::accounts;
use crate::store::users::{self, User, UserKey};
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "ada@example.org", "display_name": "Ada", "password": "correct horse battery"}))]
pub struct RegisterRequest {
    #[schema(example = "ada@example.org", format = "email", max_length = 254)]
    pub email: String,
    /// 1 to 40 characters on one line, not starting or ending with a space,
    /// without control characters.
    #[schema(
        example = "Ada",
        min_length = 1,
        max_length = 40,
        pattern = r"^[^\s\x00-\x1F\x7F-\x9F]([^\x00-\x1F\x7F-\x9F]{0,38}[^\s\x00-\x1F\x7F-\x9F])?$"
    )]
    pub display_name: String,
    /// 8 to 128 characters.
    #[schema(example = "correct horse battery", min_length = 8, max_length = 128)]
    pub password: String,
    /// Keep the session's refresh token in an HttpOnly cookie instead of
    /// the body (browsers; see `TokenResponse::refresh_token`).
    #[serde(default)]
    pub refresh_cookie: bool,
    /// The token of an invitation mailed to `email` (the last part of its
    /// link): holding it proves the address, so the account is created at
    /// once and signed in (201). Without it, or with one that is not a
    /// pending invitation to `email`, a code is mailed to confirm the
    /// address (202).
    #[serde(default)]
    pub invitation_token: Option<String>,
}

/// A registration (or a request for a code) taken: if the address can
/// receive it, a mail with a code is on its way. The same answer whether
/// or not the address has an account.
#[derive(Serialize, ToSchema)]
#[schema(example = json!({"status": "code_sent", "email": "ada@example.org", "code_valid_for_secs": 259200}))]
pub struct CodeSent {
    #[schema(example = "code_sent")]
    pub status: &'static str,
    /// The address the mail goes to, as the server reads it.
    pub email: String,
    /// How long the mailed code works.
    pub code_valid_for_secs: i64,
}

impl CodeSent {
    pub fn reply(email: String, valid_ms: i64) -> HttpResponse {
        HttpResponse::Accepted().json(CodeSent {
            status: "code_sent",
            email,
            code_valid_for_secs: valid_ms / 1000,
        })
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "ada@example.org", "code": "K7QP2-MXD9H", "refresh_cookie": true}))]
pub struct CodeRequest {
    /// The address the code was mailed to.
    #[schema(example = "ada@example.org", format = "email", max_length = 254)]
    pub email: String,
    /// The code of the mail (`XXXXX-XXXXX`; case, dashes and spaces do not
    /// matter, nor O for 0 or I and L for 1).
    #[schema(example = "K7QP2-MXD9H", max_length = 32)]
    pub code: String,
    /// Keep the session's refresh token in an HttpOnly cookie instead of
    /// the body (browsers; see `TokenResponse::refresh_token`).
    #[serde(default)]
    pub refresh_cookie: bool,
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "ada@example.org", "password": "correct horse battery"}))]
pub struct LoginRequest {
    /// The account's address, without control characters.
    #[schema(pattern = r"^[^\x00-\x1F\x7F-\x9F]*$")]
    pub email: String,
    pub password: String,
    /// Keep the session's refresh token in an HttpOnly cookie instead of
    /// the body (browsers; see `TokenResponse::refresh_token`).
    #[serde(default)]
    pub refresh_cookie: bool,
}

#[derive(Serialize, ToSchema)]
#[schema(example = json!({"id": 1, "email": "ada@example.org", "display_name": "Ada", "is_admin": false}))]
pub struct UserInfo {
    pub id: i64,
    pub email: String,
    pub display_name: String,
    pub is_admin: bool,
}

impl From<&User> for UserInfo {
    fn from(u: &User) -> Self {
        UserInfo {
            id: u.id,
            email: u.email.clone(),
            display_name: u.display_name.clone(),
            is_admin: u.is_admin,
        }
    }
}

/// The rules every new account follows, registered or made by an admin:
/// the normalised e-mail address and the display name.
pub fn check_registration(req: &RegisterRequest) -> Result<(String, String), Error> {
    let email = crate::service::email::normalize(&req.email)?;
    let name = req.display_name.clone();
    if name.is_empty()
        || name.chars().count() > 40
        || name.trim() != name
        || name.chars().any(char::is_control)
    {
        return Err(Error::unprocessable(
            "invalid_display_name",
            "display name must be 1 to 40 characters on one line, without surrounding spaces \
             or control characters",
        ));
    }
    check_password(&req.password)?;
    Ok((email, name))
}

/// The rule every new password follows.
pub fn check_password(password: &str) -> Result<(), Error> {
    if !(8..=128).contains(&password.chars().count()) {
        return Err(Error::unprocessable(
            "invalid_password",
            "password must be 8 to 128 characters",
        ));
    }
    Ok(())
}

/// Registers an account: mails the address a code that creates it
/// (`POST /api/v1/accounts/confirm`, or the link in the mail). Until then
/// nothing exists: the address can neither sign in nor be mailed game
/// mail, and a registration never confirmed is forgotten after three days,
/// so registering someone else's address locks nobody out. The answer is
/// the same, and as slow, whether or not the address has an account (one
/// that has gets a password reset code instead). With the token of an
/// invitation mailed to the address, the account is created at once.
#[utoipa::path(tag = "accounts", request_body = RegisterRequest, responses(
    (status = 201, description = "Created at once: `invitation_token` proved the address", body = TokenResponse),
    (status = 202, description = "A code is mailed to the address (`code_sent`)", body = CodeSent),
    (status = 422, description = "Not one plain e-mail address (`invalid_email`), an invalid name (`invalid_display_name`) or password (`invalid_password`)", body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "Too many attempts", body = Problem, content_type = "application/problem+json"),
))]
#[post("/accounts")]
pub async fn register(
    state: web::Data<AppState>,
    req: HttpRequest,
    _counted: LoginAttempt,
    body: Json<RegisterRequest>,
) -> Result<HttpResponse, Error> {
    let (email, name) = check_registration(&body)?;
    let pw = body.password.clone();
    let hash = state
        .hashing
        .run(move || password::hash(&pw))
        .await?
        .map_err(Error::internal)?;
    if let Some(token) = body.invitation_token.clone() {
        let (email, name, hash) = (email.clone(), name.clone(), hash.clone());
        let invited = state
            .db(move |conn| accounts::register_invited(conn, &token, &email, &name, &hash))
            .await?;
        if let Some(user) = invited {
            return start_session(
                &state,
                &req,
                user,
                body.refresh_cookie,
                HttpResponse::Created(),
            )
            .await;
        }
    }
    let now = state.clock.now();
    let to = email.clone();
    state
        .db(move |conn| accounts::register(conn, &to, &name, &hash, now))
        .await?;
    state.wake_mail();
    Ok(CodeSent::reply(email, accounts::REGISTRATION_MS))
}

/// Confirms a registration with the code mailed to its address: the
/// account is created and signed in. A code works once; five wrong codes
/// for an address end its codes (register again for a new one).
#[utoipa::path(tag = "accounts", operation_id = "confirm_registration", request_body = CodeRequest, responses(
    (status = 201, body = TokenResponse),
    (status = 400, description = "The code is wrong, used or expired (`invalid_code`)", body = Problem, content_type = "application/problem+json"),
    (status = 409, description = "The address got an account meanwhile (`email_taken`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Not one plain e-mail address (`invalid_email`)", body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "Too many attempts", body = Problem, content_type = "application/problem+json"),
))]
#[post("/accounts/confirm")]
pub async fn confirm(
    state: web::Data<AppState>,
    req: HttpRequest,
    _counted: LoginAttempt,
    body: Json<CodeRequest>,
) -> Result<HttpResponse, Error> {
    let reply = HttpResponse::Created();
    session_by_code(
        &state,
        &req,
        body.into_inner(),
        reply,
        accounts::confirm_registration,
    )
    .await
}

/// Signs in the account that `redeem` finds for a mailed code (its
/// address, the code, now), as a password login would.
pub async fn session_by_code(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    body: CodeRequest,
    reply: actix_web::HttpResponseBuilder,
    redeem: impl FnOnce(&mut crate::store::DbConnection, &str, &str, i64) -> Result<User, Error>
    + Send
    + 'static,
) -> Result<HttpResponse, Error> {
    let email = crate::service::email::normalize(&body.email)?;
    let code = body.code;
    let now = state.clock.now();
    let user = state
        .db(move |conn| redeem(conn, &email, &code, now))
        .await?;
    start_session(state, req, user, body.refresh_cookie, reply).await
}

/// Exchanges e-mail and password for a new session: a short-lived access
/// token, and a refresh token that keeps the session going
/// (`POST /api/v1/auth/refresh`).
#[utoipa::path(tag = "accounts", request_body = LoginRequest, responses(
    (status = 200, body = TokenResponse),
    (status = 401, description = "Wrong e-mail or password (`bad_credentials`)", body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "The password is right but an admin disabled the account (`account_disabled`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Body of the wrong shape (`invalid_body`), or a control character in the e-mail address (`invalid_email`)", body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "Too many attempts", body = Problem, content_type = "application/problem+json"),
))]
#[post("/auth/token")]
pub async fn login(
    state: web::Data<AppState>,
    req: HttpRequest,
    _counted: LoginAttempt,
    body: Json<LoginRequest>,
) -> Result<HttpResponse, Error> {
    let email = body.email.trim().to_lowercase();
    // No address has one; PostgreSQL cannot even compare text with a NUL.
    // (The address is not checked further: accounts made under older
    // rules must still log in.)
    if email.chars().any(char::is_control) {
        return Err(Error::unprocessable(
            "invalid_email",
            "an e-mail address has no control characters",
        ));
    }
    let user = state
        .db(move |conn| users::by_email(conn, &email).map_err(Error::from))
        .await?;
    let password = body.password.clone();
    let checked = state
        .hashing
        .run(move || {
            let stored = user.as_ref().map(|u| u.password_hash.as_str());
            password::check(&password, stored).then_some(user).flatten()
        })
        .await?;
    let user = checked.ok_or_else(|| {
        let mut e = Error::unauthorized("wrong e-mail or password");
        e.code = "bad_credentials";
        e
    })?;
    if user.disabled_at.is_some() {
        return Err(Error::new(
            actix_web::http::StatusCode::FORBIDDEN,
            "account_disabled",
            "Account disabled",
            "an admin disabled this account",
        ));
    }
    start_session(&state, &req, user, body.refresh_cookie, HttpResponse::Ok()).await
}

pub async fn start_session(
    state: &web::Data<AppState>,
    req: &HttpRequest,
    user: User,
    in_cookie: bool,
    reply: actix_web::HttpResponseBuilder,
) -> Result<HttpResponse, Error> {
    let origin = sessions::origin(req);
    let now = state.clock.now();
    let st = state.clone();
    let issued = state
        .db(move |conn| sessions::rules(&st).start(conn, user, &origin, now))
        .await?;
    sessions::signed_in(state, issued, in_cookie, reply)
}

/// The calling user.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = UserInfo),
    (status = 401, body = Problem, content_type = "application/problem+json"),
))]
#[get("/me")]
pub async fn me(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, Error> {
    let u = state
        .db(move |conn| users::by_id(conn, user.id).map_err(Error::from))
        .await?
        .filter(|u| u.deleted_at.is_none())
        .ok_or_else(|| Error::unauthorized("the account no longer exists"))?;
    Ok(HttpResponse::Ok().json(UserInfo::from(&u)))
}

/// The public key of RFC 8032's first test vector, and the proof for it
/// made for user 1 with its secret key: the OpenAPI document's example
/// (a unit test checks that it verifies).
const EXAMPLE_KEY: &str = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo";
const EXAMPLE_PROOF: &str = "eyJhbGciOiJFZERTQSJ9.eyJwdWJsaWNfa2V5IjoiMTFxWUFZS3hDcmZWU183VHlXUUhPZzdoY3ZQYXBpTWxyd0lhYVBjSFVSbyIsInB1cnBvc2UiOiJyZWdpc3Rlcl9rZXkiLCJzdWIiOiIxIn0.ZnjSfmWdRvpCMMrKYzuEEJFDD25UU72PXyJKUNZe5_HmF7qF43R-7mV8OVuM9PjWilYIyOKOOZv5W6v3y6dKBQ";

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"public_key": EXAMPLE_KEY, "proof": EXAMPLE_PROOF}))]
pub struct AddKeyRequest {
    /// The raw 32-byte Ed25519 public key, base64url without padding: in
    /// its canonical encoding, not of small order, and not active on any
    /// account.
    #[schema(
        example = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo",
        pattern = r"^[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]$"
    )]
    pub public_key: String,
    /// Proof that you hold the key: a compact JWS (header
    /// `{"alg":"EdDSA"}`) signed with the key's private half, whose claims
    /// are `{"purpose": "register_key", "sub": "<your user id>",
    /// "public_key": "<the key, as above>"}`. Other claims are ignored.
    #[schema(pattern = r"^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]{86}$")]
    pub proof: String,
}

/// What a key registration's proof says (`AddKeyRequest::proof`).
#[derive(Deserialize)]
struct KeyProof {
    purpose: String,
    sub: String,
    public_key: String,
}

/// The `purpose` claim of a key registration's proof.
const REGISTER_KEY: &str = "register_key";

/// Checks that `proof` is signed by `key` and says that `user` registers
/// `key_text`.
fn check_proof(
    proof: &str,
    key: &ed25519_dalek::VerifyingKey,
    key_text: &str,
    user: i64,
) -> Result<(), Error> {
    let bad = |detail: String| Error::unprocessable("invalid_proof", detail);
    let signed = CompactJws::parse(proof).map_err(bad)?;
    if !signed.signed_by(key) {
        return Err(bad("the proof is not signed with the key registered".into()));
    }
    let claims: KeyProof = serde_json::from_slice(signed.payload())
        .map_err(|e| bad(format!("the proof's claims: {e}")))?;
    if claims.purpose != REGISTER_KEY
        || claims.sub != user.to_string()
        || claims.public_key != key_text
    {
        return Err(bad(format!(
            "the proof must say purpose \"{REGISTER_KEY}\", sub \"{user}\" and this public_key"
        )));
    }
    Ok(())
}

#[derive(Serialize, ToSchema)]
#[schema(example = json!({"id": 3, "public_key": "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo", "created_at": 1767229200000_i64}))]
pub struct KeyInfo {
    pub id: i64,
    pub public_key: String,
    pub created_at: i64,
}

impl From<UserKey> for KeyInfo {
    fn from(k: UserKey) -> Self {
        KeyInfo {
            id: k.id,
            public_key: k.public_key,
            created_at: k.created_at,
        }
    }
}

/// Registers an Ed25519 public key for signing moves (compact JWS, EdDSA),
/// with proof that you hold its private key.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), request_body = AddKeyRequest, responses(
    (status = 201, body = KeyInfo),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 409, description = "The key is active already, on your account or another (`key_taken`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Not a 32-byte base64url key, not canonical, or of small order (`invalid_key`); a missing or wrong proof (`invalid_body`, `invalid_proof`)", body = Problem, content_type = "application/problem+json"),
))]
#[post("/me/keys")]
pub async fn add_key(
    state: web::Data<AppState>,
    user: AuthUser,
    body: Json<AddKeyRequest>,
) -> Result<HttpResponse, Error> {
    let key_text = body.public_key.trim().to_string();
    let key = signing::public_key(&key_text).map_err(|e| Error::unprocessable("invalid_key", e))?;
    check_proof(&body.proof, &key, &key_text, user.id)?;
    let k = state
        .db(move |conn| users::add_key(conn, user.id, &key_text).map_err(Error::from))
        .await?
        .ok_or_else(|| {
            Error::conflict(
                "key_taken",
                "this key is registered already; a key belongs to one account",
            )
        })?;
    Ok(HttpResponse::Created().json(KeyInfo::from(k)))
}

/// The caller's active signing keys.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = Vec<KeyInfo>),
    (status = 401, body = Problem, content_type = "application/problem+json"),
))]
#[get("/me/keys")]
pub async fn list_keys(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, Error> {
    let keys = state
        .db(move |conn| users::active_keys(conn, user.id).map_err(Error::from))
        .await?;
    Ok(HttpResponse::Ok().json(keys.into_iter().map(KeyInfo::from).collect::<Vec<_>>()))
}

/// Revokes one of the caller's signing keys.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), params(("key_id" = i64, Path)), responses(
    (status = 204),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
))]
#[delete("/me/keys/{key_id}")]
pub async fn revoke_key(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, Error> {
    let key_id = path.into_inner();
    let done = state
        .db(move |conn| users::revoke_key(conn, user.id, key_id).map_err(Error::from))
        .await?;
    if done {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(Error::not_found("key"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_documented_proof_is_a_real_one() {
        let key = signing::public_key(EXAMPLE_KEY).unwrap();
        check_proof(EXAMPLE_PROOF, &key, EXAMPLE_KEY, 1).unwrap();
        // And it proves nothing for another account.
        assert_eq!(
            check_proof(EXAMPLE_PROOF, &key, EXAMPLE_KEY, 2)
                .unwrap_err()
                .code,
            "invalid_proof"
        );
    }
}
