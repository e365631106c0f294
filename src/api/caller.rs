//! The caller of a non-public endpoint, from the request's bearer token
//! (checked by `auth::tokens`).

use crate::app::AppState;
use crate::error::Error;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use std::future::{Ready, ready};

/// The authenticated caller of a non-public endpoint.
#[derive(Clone, Copy, Debug)]
pub struct AuthUser {
    pub id: i64,
    pub is_admin: bool,
    /// The sign-in session of the token, if it was issued to one.
    pub session: Option<i64>,
}

impl FromRequest for AuthUser {
    type Error = Error;
    type Future = Ready<Result<AuthUser, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(authenticate(req))
    }
}

fn authenticate(req: &HttpRequest) -> Result<AuthUser, Error> {
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| Error::internal("app state missing"))?;
    let header = req
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)
        .ok_or_else(|| Error::unauthorized("missing Authorization: Bearer token"))?;
    let text = header
        .to_str()
        .map_err(|_| Error::unauthorized("Authorization header is not text"))?;
    let token = bearer_credentials(text)
        .ok_or_else(|| Error::unauthorized("Authorization must be `Bearer <token>`"))?;
    let claims = state.tokens.verify(token)?;
    Ok(AuthUser {
        id: claims.user_id()?,
        is_admin: claims.adm,
        session: claims.sid,
    })
}

/// The token of an `Authorization` header value in the Bearer scheme,
/// whose name is case-insensitive like every scheme's (RFC 7235: `bearer`
/// and `BEARER` too).
pub fn bearer_credentials(header: &str) -> Option<&str> {
    let (scheme, token) = header.split_once(' ')?;
    let token = token.trim();
    (scheme.eq_ignore_ascii_case("bearer") && !token.is_empty()).then_some(token)
}

/// The caller must be an admin.
#[derive(Clone, Copy, Debug)]
pub struct AdminUser(pub AuthUser);

impl FromRequest for AdminUser {
    type Error = Error;
    type Future = Ready<Result<AdminUser, Error>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(authenticate(req).and_then(|u| {
            if u.is_admin {
                Ok(AdminUser(u))
            } else {
                Err(Error::forbidden("this endpoint is for admins"))
            }
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::bearer_credentials;

    #[test]
    fn the_bearer_scheme_is_case_insensitive() {
        for header in ["Bearer abc", "bearer abc", "BEARER abc", "bEaReR   abc "] {
            assert_eq!(bearer_credentials(header), Some("abc"), "{header}");
        }
        for header in [
            "Basic abc",
            "Bearerabc",
            "Bearer",
            "Bearer  ",
            "Token abc",
            "",
        ] {
            assert_eq!(bearer_credentials(header), None, "{header}");
        }
    }
}
