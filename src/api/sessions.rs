//! Sign-in sessions over HTTP: refresh, logout, the caller's list of
//! sessions, password change, and mail sign-in links. The rules live in
//! `service::sessions`; docs/security.md explains the browser cookie.

use crate::api::accounts::UserInfo;
use crate::api::caller::AuthUser;
use crate::api::json::Json;
use crate::api::limited::LoginAttempt;
use crate::api::problem::Problem;
use crate::app::{AppState, Db};
use crate::auth::password;
use crate::error::Error;
use crate::service::sessions::{Issued, Rules, refusal};
use crate::store::sessions::{self as db, Origin, Session};
use crate::store::users;
use actix_web::cookie::{Cookie, SameSite};
use actix_web::{HttpRequest, HttpResponse, delete, get, post, put, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The cookie a browser keeps its refresh token in.
pub const REFRESH_COOKIE: &str = "hexpost_refresh";
/// The only path the cookie is sent to.
const COOKIE_PATH: &str = "/api/v1/auth";
/// The longest user agent kept with a session.
const MAX_USER_AGENT: usize = 200;

#[derive(Serialize, ToSchema)]
#[schema(example = json!({
    "access_token": "eyJ0eXAiOiJKV1QiLCJhbGciOiJIUzI1NiIsImtpZCI6IjIwMjYtMDEifQ.eyJzdWIiOiIxIiwiYXVkIjoiaGV4cG9zdCIsImlhdCI6MTc2NzIyNTYwMCwiZXhwIjoxNzY3MjI5MjAwLCJhZG0iOmZhbHNlfQ.5yu2XjtlNlXHpvGK__971Ttpdi3pVOn-0-2W24Di-yc",
    "token_type": "Bearer",
    "expires_in": 3600,
    "user": {"id": 1, "email": "ada@example.org", "display_name": "Ada", "is_admin": false},
    "session_id": 7,
    "refresh_token": "Jx0b2tlbi1vbmUtdGltZS11c2UtcmVmcmVzaC10b2tlbg",
    "session_expires_at": 1774915200000_i64
}))]
pub struct TokenResponse {
    pub access_token: String,
    #[schema(example = "Bearer")]
    pub token_type: &'static str,
    /// Seconds until the access token expires.
    pub expires_in: u64,
    pub user: UserInfo,
    /// The sign-in session the tokens belong to (see
    /// `GET /api/v1/account/sessions`).
    pub session_id: i64,
    /// Exchange it at `POST /api/v1/auth/refresh` for new tokens before or
    /// after the access token expires; each is good for one exchange.
    /// Absent when `refresh_cookie` was asked for: the `hexpost_refresh`
    /// cookie (HttpOnly, path `/api/v1/auth`) holds it instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refresh_token: Option<String>,
    /// Unix ms at which the session ends however often it is refreshed
    /// (it also ends when unused for `SESSION_IDLE_DAYS`).
    pub session_expires_at: i64,
}

/// The reply of a sign-in: tokens in the body, or the refresh token in the
/// browser's cookie when `in_cookie`.
pub fn signed_in(
    state: &AppState,
    issued: Issued,
    in_cookie: bool,
    mut reply: actix_web::HttpResponseBuilder,
) -> Result<HttpResponse, Error> {
    let body = TokenResponse {
        access_token: state.tokens.issue(
            issued.user.id,
            issued.user.is_admin,
            Some(issued.session.id),
        )?,
        token_type: "Bearer",
        expires_in: state.tokens.ttl_secs(),
        user: (&issued.user).into(),
        session_id: issued.session.id,
        refresh_token: (!in_cookie).then(|| issued.refresh_token.clone()),
        session_expires_at: issued.session.expires_at,
    };
    if in_cookie {
        let left_ms = issued.session.expires_at - state.clock.now();
        reply.cookie(
            refresh_cookie(state, issued.refresh_token)
                .max_age(actix_web::cookie::time::Duration::milliseconds(left_ms))
                .finish(),
        );
    }
    Ok(reply.json(body))
}

fn refresh_cookie(state: &AppState, value: String) -> actix_web::cookie::CookieBuilder<'static> {
    Cookie::build(REFRESH_COOKIE, value)
        .path(COOKIE_PATH)
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(state.config.public_base_url.starts_with("https://"))
}

/// A cookie that makes the browser forget its refresh token.
fn cleared_cookie(state: &AppState) -> Cookie<'static> {
    let mut c = refresh_cookie(state, String::new()).finish();
    c.make_removal();
    c
}

pub fn rules(state: &AppState) -> Rules<'_> {
    Rules {
        config: &state.config.sessions,
        key: state.tokens.signing_secret(),
    }
}

/// Where a request comes from, kept with the session it starts.
pub fn origin(req: &HttpRequest) -> Origin {
    let user_agent = req
        .headers()
        .get(actix_web::http::header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_USER_AGENT)
        .collect();
    Origin {
        user_agent,
        ip: crate::api::limited::client_key(req),
    }
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"refresh_token": "Jx0b2tlbi1vbmUtdGltZS11c2UtcmVmcmVzaC10b2tlbg"}))]
pub struct RefreshRequest {
    /// The refresh token last received. Leave it out in a browser that
    /// signed in with `refresh_cookie`: the cookie is used then.
    pub refresh_token: Option<String>,
}

/// Exchanges a refresh token for a new access token and a new refresh
/// token (the old one is used up). Presenting a used refresh token again
/// ends its whole session (`refresh_token_reused`), except within 30
/// seconds of its first exchange while its successor is unused: then the
/// same successor is returned again, so two tabs refreshing at once both
/// stay signed in. The body must be JSON (`{}` with the cookie).
#[utoipa::path(tag = "accounts", request_body = RefreshRequest, responses(
    (status = 200, body = TokenResponse),
    (status = 401, description = "No such refresh token (`invalid_refresh_token`), one used before (`refresh_token_reused`: the session is ended), or its session revoked (`session_revoked`) or expired (`session_expired`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Body of the wrong shape (`invalid_body`)", body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "Too many attempts", body = Problem, content_type = "application/problem+json"),
))]
#[post("/auth/refresh")]
pub async fn refresh(
    state: web::Data<AppState>,
    req: HttpRequest,
    _counted: LoginAttempt,
    body: Json<RefreshRequest>,
) -> Result<HttpResponse, Error> {
    let from_cookie = body.refresh_token.is_none();
    let token = match body.into_inner().refresh_token {
        Some(t) => t,
        None => req
            .cookie(REFRESH_COOKIE)
            .map(|c| c.value().to_string())
            .ok_or_else(|| {
                refusal(
                    "invalid_refresh_token",
                    "send refresh_token, or sign in with refresh_cookie so the browser keeps one",
                )
            })?,
    };
    let now = state.clock.now();
    let st = state.clone();
    let issued = state
        .db(move |conn| rules(&st).refresh(conn, &token, now))
        .await;
    match issued {
        Ok(issued) => signed_in(&state, issued, from_cookie, HttpResponse::Ok()),
        Err(e) if from_cookie && e.status.as_u16() == 401 => {
            // The browser must not keep sending a dead token.
            let mut reply = actix_web::ResponseError::error_response(&e);
            reply.add_cookie(&cleared_cookie(&state)).ok();
            Ok(reply)
        }
        Err(e) => Err(e),
    }
}

/// Ends the caller's session: its refresh token no longer works, and the
/// browser's cookie is cleared. The access token itself stays valid until
/// it expires (`expires_in`); a client forgets it.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), responses(
    (status = 204, description = "Signed out"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
))]
#[post("/auth/logout")]
pub async fn logout(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, Error> {
    if let Some(session) = user.session {
        let now = state.clock.now();
        state
            .db(move |conn| db::revoke(conn, user.id, session, now).map_err(Error::from))
            .await?;
    }
    Ok(HttpResponse::NoContent()
        .cookie(cleared_cookie(&state))
        .finish())
}

#[derive(Serialize, ToSchema)]
#[schema(example = json!({"id": 7, "created_at": 1767225600000_i64, "last_used_at": 1767229200000_i64,
    "expires_at": 1774915200000_i64, "user_agent": "Mozilla/5.0 (X11; Linux x86_64)", "ip": "203.0.113.9", "current": true}))]
pub struct SessionInfo {
    pub id: i64,
    /// Unix ms of the sign-in.
    pub created_at: i64,
    /// Unix ms of the last refresh.
    pub last_used_at: i64,
    /// Unix ms of the session's absolute end.
    pub expires_at: i64,
    /// The `User-Agent` of the sign-in (at most 200 characters).
    pub user_agent: String,
    /// The address the sign-in came from, as the server saw it (behind a
    /// proxy, the proxy's).
    pub ip: String,
    /// Whether the caller's access token belongs to this session.
    pub current: bool,
}

impl SessionInfo {
    fn of(s: Session, current: Option<i64>) -> SessionInfo {
        SessionInfo {
            current: current == Some(s.id),
            id: s.id,
            created_at: s.created_at,
            last_used_at: s.last_used_at,
            expires_at: s.expires_at,
            user_agent: s.user_agent,
            ip: s.ip,
        }
    }
}

/// The caller's live sessions, newest first.
#[utoipa::path(tag = "accounts", operation_id = "list_sessions", security(("bearer" = [])), responses(
    (status = 200, body = Vec<SessionInfo>),
    (status = 401, body = Problem, content_type = "application/problem+json"),
))]
#[get("/account/sessions")]
pub async fn list(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, Error> {
    let now = state.clock.now();
    let idle_since = now - state.config.sessions.idle.as_millis() as i64;
    let found = state
        .db(move |conn| db::live(conn, user.id, idle_since, now).map_err(Error::from))
        .await?;
    let out: Vec<SessionInfo> = found
        .into_iter()
        .map(|s| SessionInfo::of(s, user.session))
        .collect();
    Ok(HttpResponse::Ok().json(out))
}

/// Ends one of the caller's sessions: the browser or client holding it
/// can no longer refresh, and is signed out when its access token expires.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), params(("session_id" = i64, Path)), responses(
    (status = 204, description = "Revoked"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 404, description = "No live session of yours with this id (`not_found`)", body = Problem, content_type = "application/problem+json"),
))]
#[delete("/account/sessions/{session_id}")]
pub async fn revoke(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let now = state.clock.now();
    let done = state
        .db(move |conn| db::revoke(conn, user.id, id, now).map_err(Error::from))
        .await?;
    if done {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(Error::not_found("session"))
    }
}

/// Ends every session of the caller's, the current one included.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), responses(
    (status = 204, description = "All revoked"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
))]
#[delete("/account/sessions")]
pub async fn revoke_all(state: web::Data<AppState>, user: AuthUser) -> Result<HttpResponse, Error> {
    let now = state.clock.now();
    state
        .db(move |conn| db::revoke_all(conn, user.id, now).map_err(Error::from))
        .await?;
    Ok(HttpResponse::NoContent()
        .cookie(cleared_cookie(&state))
        .finish())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"current_password": "correct horse battery", "new_password": "staple battery horse", "refresh_cookie": false}))]
pub struct PasswordChange {
    pub current_password: String,
    /// 8 to 128 characters.
    #[schema(min_length = 8, max_length = 128)]
    pub new_password: String,
    /// Keep the new session's refresh token in a cookie (browsers).
    #[serde(default)]
    pub refresh_cookie: bool,
}

/// Changes the caller's password. Every session of the account ends (a
/// thief's too); the reply is a new session for the caller.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), request_body = PasswordChange, responses(
    (status = 200, body = TokenResponse),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "The current password is wrong (`wrong_password`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Body of the wrong shape (`invalid_body`), or a new password of the wrong length (`invalid_password`)", body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "Too many attempts", body = Problem, content_type = "application/problem+json"),
))]
#[put("/account/password")]
pub async fn change_password(
    state: web::Data<AppState>,
    req: HttpRequest,
    user: AuthUser,
    _counted: LoginAttempt,
    body: Json<PasswordChange>,
) -> Result<HttpResponse, Error> {
    let change = body.into_inner();
    crate::api::accounts::check_password(&change.new_password)?;
    let account = state
        .db(move |conn| users::by_id(conn, user.id).map_err(Error::from))
        .await?
        .ok_or_else(|| Error::unauthorized("the account no longer exists"))?;
    let stored = account.password_hash.clone();
    let (current, new) = (change.current_password, change.new_password);
    let hash = state
        .hashing
        .run(move || password::check(&current, Some(&stored)).then(|| password::hash(&new)))
        .await?
        .ok_or_else(|| {
            Error::new(
                actix_web::http::StatusCode::FORBIDDEN,
                "wrong_password",
                "Wrong password",
                "the current password is not right",
            )
        })?
        .map_err(Error::internal)?;
    let now = state.clock.now();
    let origin = origin(&req);
    let st = state.clone();
    let issued = state
        .db(move |conn| {
            crate::store::write_tx(conn, |conn| {
                users::set_password_hash(conn, account.id, &hash)?;
                db::revoke_all(conn, account.id, now)?;
                rules(&st).start(conn, account, &origin, now)
            })
        })
        .await?;
    signed_in(&state, issued, change.refresh_cookie, HttpResponse::Ok())
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"code": "c2lnbi1pbi1jb2RlLWZyb20tYS1nYW1lLW1haWwtbGluaw", "game_id": "0b1c6f0e-8a4e-4f2b-9a57-2f0c5d1e7a11", "refresh_cookie": true}))]
pub struct MailSignIn {
    /// The `code` of the link (its `#sign-in=` part).
    pub code: String,
    /// The game the link leads to.
    pub game_id: String,
    /// Keep the session's refresh token in a cookie (browsers).
    #[serde(default)]
    pub refresh_cookie: bool,
}

/// Exchanges the sign-in code of a game mail's link for a new session of
/// the player it was sent to. A code works once, for its game only, and
/// for `MAIL_SIGN_IN_HOURS` after the mail was written.
#[utoipa::path(tag = "accounts", request_body = MailSignIn, responses(
    (status = 200, body = TokenResponse),
    (status = 401, description = "Not a code sent for this game (`invalid_sign_in_link`), used before (`sign_in_link_used`) or expired (`sign_in_link_expired`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Body of the wrong shape (`invalid_body`)", body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "Too many attempts", body = Problem, content_type = "application/problem+json"),
))]
#[post("/auth/mail-link")]
pub async fn mail_link(
    state: web::Data<AppState>,
    req: HttpRequest,
    _counted: LoginAttempt,
    body: Json<MailSignIn>,
) -> Result<HttpResponse, Error> {
    let link = body.into_inner();
    let now = state.clock.now();
    let origin = origin(&req);
    let st = state.clone();
    let (code, game) = (link.code, link.game_id);
    let issued = state
        .db(move |conn| rules(&st).redeem(conn, &code, &game, &origin, now))
        .await?;
    signed_in(&state, issued, link.refresh_cookie, HttpResponse::Ok())
}
