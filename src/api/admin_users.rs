//! Admin endpoint for accounts: what `hexpost admin create-user` does, for
//! admins who integrate it.

use crate::api::accounts::{RegisterRequest, UserInfo, check_registration};
use crate::api::caller::AdminUser;
use crate::api::json::Json;
use crate::api::problem::Problem;
use crate::app::{AppState, Db};
use crate::auth::password;
use crate::error::Error;
use crate::service::housekeeping;
use actix_web::{HttpResponse, post, web};

use serde::Deserialize;
use utoipa::ToSchema;

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "grace@example.org", "display_name": "Grace",
    "password": "correct horse battery", "admin": true}))]
pub struct NewUser {
    #[schema(format = "email", max_length = 254)]
    pub email: String,
    /// 1 to 40 characters on one line, not starting or ending with a space.
    #[schema(min_length = 1, max_length = 40, pattern = r"^\S(.{0,38}\S)?$")]
    pub display_name: String,
    /// 8 to 128 characters.
    #[schema(min_length = 8, max_length = 128)]
    pub password: String,
    /// Give the account admin rights. Default false.
    #[serde(default)]
    pub admin: bool,
}

/// Creates an account, an admin's if `admin` is true, under the rules of
/// registration; the admin log records who made it.
#[utoipa::path(tag = "admin", security(("bearer" = [])), request_body = NewUser, responses(
    (status = 201, body = UserInfo),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
    (status = 409, description = "E-mail already registered (`email_taken`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Invalid e-mail, name or password", body = Problem, content_type = "application/problem+json"),
))]
#[post("/admin/users")]
pub async fn create_user(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: Json<NewUser>,
) -> Result<HttpResponse, Error> {
    let NewUser {
        email,
        display_name,
        password: secret,
        admin: is_admin,
    } = body.into_inner();
    let account = RegisterRequest {
        email,
        display_name,
        password: secret,
        refresh_cookie: false,
        invitation_token: None,
    };
    let (email, name) = check_registration(&account)?;
    let hash = state
        .hashing
        .run(move || password::hash(&account.password))
        .await?
        .map_err(Error::internal)?;
    let user = state
        .db(move |conn| {
            housekeeping::create_user(conn, Some(admin.0.id), &email, &name, &hash, is_admin)
        })
        .await?;
    Ok(HttpResponse::Created().json(UserInfo::from(&user)))
}

/// Disables an account: it can no longer sign in (`account_disabled`),
/// and every session of it ends at once; access tokens already issued
/// expire within `ACCESS_TOKEN_TTL_SECS`. The admin log records it.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("user_id" = i64, Path)), responses(
    (status = 204, description = "Disabled"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 404, description = "No such account (`not_found`)", body = Problem, content_type = "application/problem+json"),
))]
#[post("/admin/users/{user_id}/disable")]
pub async fn disable(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, Error> {
    set_disabled(&state, admin, path.into_inner(), true).await
}

/// Lets a disabled account sign in again (its old sessions stay ended).
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("user_id" = i64, Path)), responses(
    (status = 204, description = "Enabled"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 404, description = "No such account (`not_found`)", body = Problem, content_type = "application/problem+json"),
))]
#[post("/admin/users/{user_id}/enable")]
pub async fn enable(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, Error> {
    set_disabled(&state, admin, path.into_inner(), false).await
}

async fn set_disabled(
    state: &web::Data<AppState>,
    admin: AdminUser,
    user: i64,
    disabled: bool,
) -> Result<HttpResponse, Error> {
    let now = state.clock.now();
    let found = state
        .db(move |conn| housekeeping::set_disabled(conn, Some(admin.0.id), user, disabled, now))
        .await?;
    if found {
        Ok(HttpResponse::NoContent().finish())
    } else {
        Err(Error::not_found("user"))
    }
}
