//! Admin endpoints: full logs and verification by replay.

use crate::api::caller::AdminUser;
use crate::api::problem::Problem;
use crate::app::{AppState, Db};
use crate::error::Error;
use crate::service::audit::{self, VerifyReport};
use crate::service::moves::{self, LogEntry};
use crate::store::games as db;
use actix_web::{HttpResponse, get, web};

/// The full, unredacted log of any game.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("game_id" = String, Path), crate::api::games::LogQuery), responses(
    (status = 200, body = Vec<LogEntry>),
    (status = 400, description = "`after` below 0 or `limit` not 1 to 500 (`invalid_query`)", body = Problem, content_type = "application/problem+json"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "Not an admin", body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
))]
#[get("/admin/games/{game_id}/log")]
pub async fn full_log(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<String>,
    q: web::Query<crate::api::games::LogQuery>,
) -> Result<HttpResponse, Error> {
    let (after, limit) = crate::api::games::log_bounds(&q)?;
    let id = path.into_inner();
    let rows = state
        .db(move |conn| {
            let game = db::get(conn, &id)?.ok_or_else(|| Error::not_found("game"))?;
            db::admin_log(conn, Some(admin.0.id), "read_log", &id, "")?;
            moves::log(conn, &game, None, after, limit)
        })
        .await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// Replays the game from its seed and checks every state hash and chain link.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("game_id" = String, Path)), responses(
    (status = 200, body = VerifyReport),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
))]
#[get("/admin/games/{game_id}/verify")]
pub async fn verify(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<String>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let report = state
        .db(move |conn| {
            let game = db::get(conn, &id)?.ok_or_else(|| Error::not_found("game"))?;
            let rows = moves::all_rows(conn, &id)?;
            let report = audit::verify(&game, &db::players(conn, &id)?, &rows);
            db::admin_log(
                conn,
                Some(admin.0.id),
                "verify",
                &id,
                if report.ok { "ok" } else { "diverged" },
            )?;
            Ok(report)
        })
        .await?;
    Ok(HttpResponse::Ok().json(report))
}
