//! Admin endpoints for mails that failed every attempt: list them, and put
//! one or all back in the queue.

use crate::api::caller::AdminUser;
use crate::api::problem::Problem;
use crate::app::{AppState, Db};
use crate::error::Error;
use crate::service::notify;
use crate::store::outbox::{self, MailRow};
use actix_web::{HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

#[derive(Serialize, ToSchema, Debug)]
#[schema(example = json!({
    "id": 42, "kind": "your_move", "recipient": "grace@example.org",
    "game_id": "0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4", "attempts": 8,
    "last_error": "Connection error: Connection refused (os error 111)",
    "created_at": 1767229200000_i64
}))]
pub struct FailedMail {
    pub id: i64,
    /// `invitation`, `accepted`, `declined`, `your_move` or `game_over`.
    pub kind: String,
    pub recipient: String,
    pub game_id: Option<String>,
    pub attempts: i32,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    pub created_at: i64,
}

impl From<MailRow> for FailedMail {
    fn from(r: MailRow) -> Self {
        FailedMail {
            id: r.id,
            kind: r.kind,
            recipient: r.recipient,
            game_id: r.game_id,
            attempts: r.attempts,
            last_error: r.last_error,
            created_at: r.created_at,
        }
    }
}

#[derive(Serialize, ToSchema, Debug)]
#[schema(example = json!({"retried": 3}))]
pub struct Retried {
    /// How many failed mails are queued again.
    pub retried: usize,
}

#[derive(Deserialize, IntoParams, Debug)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FailedQuery {
    /// 1-based page number.
    #[param(minimum = 1)]
    pub page: Option<i64>,
    /// 1 to 100; default 50.
    #[param(minimum = 1, maximum = 100)]
    pub per_page: Option<i64>,
}

/// The page and page size of an admin list: pages from 1, 1 to 100 a
/// page, 50 unless asked.
pub fn paging(page: Option<i64>, per_page: Option<i64>) -> Result<(i64, i64), Error> {
    let page = page.unwrap_or(1);
    let per_page = per_page.unwrap_or(50);
    if page < 1 || !(1..=100).contains(&per_page) {
        return Err(Error::bad_request(
            "invalid_query",
            "page must be ≥ 1 and per_page 1 to 100",
        ));
    }
    Ok((page, per_page))
}

/// Mails that failed every attempt, oldest first.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(FailedQuery), responses(
    (status = 200, body = Vec<FailedMail>),
    (status = 400, description = "Bad paging (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
))]
#[get("/admin/mail/failed")]
pub async fn failed(
    state: web::Data<AppState>,
    _admin: AdminUser,
    q: web::Query<FailedQuery>,
) -> Result<HttpResponse, Error> {
    let (page, per_page) = paging(q.page, q.per_page)?;
    let offset = (page - 1).saturating_mul(per_page);
    let rows = state
        .db(move |conn| outbox::failed(conn, offset, per_page).map_err(Error::from))
        .await?;
    Ok(HttpResponse::Ok().json(rows.into_iter().map(FailedMail::from).collect::<Vec<_>>()))
}

/// Queues one failed mail again, with a fresh set of attempts.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("mail_id" = i64, Path)), responses(
    (status = 200, body = Retried),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 404, description = "No failed mail with this id", body = Problem, content_type = "application/problem+json"),
))]
#[post("/admin/mail/{mail_id}/retry")]
pub async fn retry_one(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let retried = state
        .db(move |conn| notify::retry_failed(conn, Some(admin.0.id), Some(id)))
        .await?;
    if retried == 0 {
        return Err(Error::not_found("failed mail"));
    }
    Ok(HttpResponse::Ok().json(Retried { retried }))
}

/// Queues every failed mail again.
#[utoipa::path(tag = "admin", security(("bearer" = [])), responses(
    (status = 200, body = Retried),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
))]
#[post("/admin/mail/retry")]
pub async fn retry_all(
    state: web::Data<AppState>,
    admin: AdminUser,
) -> Result<HttpResponse, Error> {
    let retried = state
        .db(move |conn| notify::retry_failed(conn, Some(admin.0.id), None))
        .await?;
    Ok(HttpResponse::Ok().json(Retried { retried }))
}
