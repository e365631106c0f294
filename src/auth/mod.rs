//! Authentication: password hashing, access tokens, and the extractor that
//! turns a bearer token into the calling user.

pub mod password;
pub mod tokens;

use crate::api::problem::ApiError;
use crate::app::AppState;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use std::future::{Ready, ready};

/// The authenticated caller of a non-public endpoint.
#[derive(Clone, Copy, Debug)]
pub struct AuthUser {
    pub id: i64,
    pub is_admin: bool,
}

impl FromRequest for AuthUser {
    type Error = ApiError;
    type Future = Ready<Result<AuthUser, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(authenticate(req))
    }
}

fn authenticate(req: &HttpRequest) -> Result<AuthUser, ApiError> {
    let state = req
        .app_data::<web::Data<AppState>>()
        .ok_or_else(|| ApiError::internal("app state missing"))?;
    let header = req
        .headers()
        .get(actix_web::http::header::AUTHORIZATION)
        .ok_or_else(|| ApiError::unauthorized("missing Authorization: Bearer token"))?;
    let text = header
        .to_str()
        .map_err(|_| ApiError::unauthorized("Authorization header is not text"))?;
    let token = text
        .strip_prefix("Bearer ")
        .ok_or_else(|| ApiError::unauthorized("Authorization must be `Bearer <token>`"))?;
    let claims = state.tokens.verify(token.trim())?;
    Ok(AuthUser {
        id: claims.user_id()?,
        is_admin: claims.adm,
    })
}

/// The caller must be an admin.
#[derive(Clone, Copy, Debug)]
pub struct AdminUser(pub AuthUser);

impl FromRequest for AdminUser {
    type Error = ApiError;
    type Future = Ready<Result<AdminUser, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        ready(authenticate(req).and_then(|u| {
            if u.is_admin {
                Ok(AdminUser(u))
            } else {
                Err(ApiError::forbidden("this endpoint is for admins"))
            }
        }))
    }
}
