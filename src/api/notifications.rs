//! The caller's notification setting: the target of the settings link in
//! every mail.

use crate::api::json::Json;
use crate::api::problem::{ApiError, Problem};
use crate::app::{AppState, Db};
use crate::auth::AuthUser;
use crate::store::users::{self, notify};
use actix_web::{HttpResponse, get, put, web};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// `every_move`: a mail whenever a decision of yours is awaited; `digest`:
/// no mail per move (digests are not sent yet); `off`: no game mails.
#[derive(Serialize, Deserialize, ToSchema, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "snake_case")]
#[schema(example = "every_move")]
pub enum Notify {
    EveryMove,
    Digest,
    Off,
}

impl Notify {
    fn stored(self) -> &'static str {
        match self {
            Notify::EveryMove => notify::EVERY_MOVE,
            Notify::Digest => notify::DIGEST,
            Notify::Off => notify::OFF,
        }
    }

    fn from_stored(value: &str) -> Notify {
        match value {
            notify::DIGEST => Notify::Digest,
            notify::OFF => Notify::Off,
            _ => Notify::EveryMove,
        }
    }
}

#[derive(Serialize, Deserialize, ToSchema, Debug)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"notify": "every_move"}))]
pub struct NotificationSettings {
    pub notify: Notify,
}

/// My notification setting.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, body = NotificationSettings),
    (status = 401, body = Problem, content_type = "application/problem+json"),
))]
#[get("/account/notifications")]
pub async fn get_settings(
    state: web::Data<AppState>,
    user: AuthUser,
) -> Result<HttpResponse, ApiError> {
    let u = state
        .db(move |conn| users::by_id(conn, user.id).map_err(ApiError::from))
        .await?
        .ok_or_else(|| ApiError::unauthorized("the account no longer exists"))?;
    Ok(HttpResponse::Ok().json(NotificationSettings {
        notify: Notify::from_stored(&u.notify),
    }))
}

/// Changes my notification setting.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), request_body = NotificationSettings, responses(
    (status = 200, body = NotificationSettings),
    (status = 401, body = Problem, content_type = "application/problem+json"),
))]
#[put("/account/notifications")]
pub async fn put_settings(
    state: web::Data<AppState>,
    user: AuthUser,
    body: Json<NotificationSettings>,
) -> Result<HttpResponse, ApiError> {
    let wanted = body.notify;
    state
        .db(move |conn| users::set_notify(conn, user.id, wanted.stored()).map_err(ApiError::from))
        .await?;
    Ok(HttpResponse::Ok().json(NotificationSettings { notify: wanted }))
}
