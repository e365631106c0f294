//! The rate limits (`ratelimit`) as extractors that come before a
//! handler's body. actix-web resolves a handler's arguments in order and
//! stops at the first that refuses, so a request over its limit is
//! answered 429 before its body is read (and its connection is closed
//! after the answer, since the body was left unread): a client over the
//! limit cannot make the server wait for, or buffer, the body it sends.

use crate::api::caller::AuthUser;
use crate::app::AppState;
use crate::error::Error;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use std::future::{Ready, ready};

/// A login or registration, counted by the client's address
/// (`RATE_LIMIT_LOGIN_PER_MINUTE`).
pub struct LoginAttempt;

impl FromRequest for LoginAttempt {
    type Error = Error;
    type Future = Ready<Result<LoginAttempt, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(state(req).and_then(|s| {
            s.login_limiter
                .check(&client_key(req))
                .map(|()| LoginAttempt)
        }))
    }
}

/// The caller of a move, authenticated and counted against their moves
/// (`RATE_LIMIT_MOVES_PER_MINUTE`).
pub struct Mover(pub AuthUser);

impl FromRequest for Mover {
    type Error = Error;
    type Future = Ready<Result<Mover, Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let counted = AuthUser::from_request(req, payload)
            .into_inner()
            .and_then(|user| {
                state(req)?
                    .move_limiter
                    .check(&format!("user:{}", user.id))
                    .map(|()| Mover(user))
            });
        ready(counted)
    }
}

fn state(req: &HttpRequest) -> Result<&web::Data<AppState>, Error> {
    req.app_data::<web::Data<AppState>>()
        .ok_or_else(|| Error::internal("app state missing"))
}

/// The key rate limits of anonymous endpoints are counted under.
pub fn client_key(req: &HttpRequest) -> String {
    req.peer_addr()
        .map(|a| a.ip().to_string())
        .unwrap_or_else(|| "unknown".into())
}
