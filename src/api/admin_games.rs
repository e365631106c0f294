//! Admin endpoints over games: list every game, export one as a JSON
//! document, import such a document, and purge invitations nobody answered.
//! The CLI's `hexpost admin` runs the same use cases.

use crate::api::caller::AdminUser;
use crate::api::problem::Problem;
use crate::app::{AppState, Db};
use crate::error::Error;
use crate::service::archive::{self, GameExport, Imported};
use crate::service::games::GameSummary;
use crate::service::housekeeping::{self, ALL_STATUSES, Purged};
use crate::store::now_ms;
use actix_web::{HttpRequest, HttpResponse, get, post, web};
use futures_util::StreamExt;
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

/// An exported game is far larger than an ordinary request: a long game's
/// log runs to a few megabytes.
pub const IMPORT_LIMIT_BYTES: usize = 32 * 1024 * 1024;

#[derive(Deserialize, IntoParams, Debug)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct AdminListQuery {
    /// Only games in this state: `open`, `active`, `finished`,
    /// `cancelled` or `declined`; default all.
    pub status: Option<String>,
    /// 1-based page number; a page past the last is `400
    /// page_out_of_range`.
    #[param(minimum = 1)]
    pub page: Option<i64>,
    /// 1 to 100; default 50.
    #[param(minimum = 1, maximum = 100)]
    pub per_page: Option<i64>,
}

/// Checks the list's paging and filter; the same rules for the CLI.
pub fn list_args(
    status: Option<&str>,
    page: Option<i64>,
    per_page: Option<i64>,
) -> Result<(Vec<&'static str>, i64, i64), Error> {
    let (page, per_page) = crate::api::admin_mail::paging(page, per_page)?;
    let statuses = match status {
        None => Vec::new(),
        Some(s) => vec![*ALL_STATUSES.iter().find(|k| **k == s).ok_or_else(|| {
            Error::bad_request(
                "invalid_query",
                format!("status must be one of {}", ALL_STATUSES.join(", ")),
            )
        })?],
    };
    Ok((statuses, page, per_page))
}

/// Every game (or those in one state), newest first.
#[utoipa::path(tag = "admin", operation_id = "list_all_games", security(("bearer" = [])), params(AdminListQuery), responses(
    (status = 200, body = Vec<GameSummary>),
    (status = 400, description = "Bad paging or status (`invalid_query`), or a page past the last (`page_out_of_range`)", body = Problem, content_type = "application/problem+json"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
))]
#[get("/admin/games")]
pub async fn list(
    state: web::Data<AppState>,
    _admin: AdminUser,
    q: web::Query<AdminListQuery>,
) -> Result<HttpResponse, Error> {
    let (statuses, page, per_page) = list_args(q.status.as_deref(), q.page, q.per_page)?;
    let games = state
        .db(move |conn| housekeeping::list_games(conn, &statuses, page, per_page))
        .await?;
    Ok(HttpResponse::Ok().json(crate::api::admin_mail::within_list(page, games)?))
}

/// The game as a JSON document: its row, players, and every log row as
/// stored. The seed and the engine state are in it only once the game is
/// finished; only such a document can be imported.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("game_id" = String, Path)), responses(
    (status = 200, body = GameExport),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
))]
#[get("/admin/games/{game_id}/export")]
pub async fn export(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<String>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let doc = state
        .db(move |conn| archive::export(conn, Some(admin.0.id), &id))
        .await?;
    Ok(HttpResponse::Ok().json(doc))
}

/// Imports an exported finished game, keeping its id and its players' user
/// ids (creating missing accounts, which get no usable password). Nothing
/// is written unless the imported game replays and every hash verifies.
/// The body may be up to 32 MiB.
#[utoipa::path(tag = "admin", security(("bearer" = [])), request_body = GameExport, responses(
    (status = 201, body = Imported),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 409, description = "The game exists already (`game_exists`), or a user id or address belongs to another account here (`user_conflict`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Not a finished game's document (`not_importable`), inconsistent (`invalid_export`, `invalid_email`), or it does not verify (`verification_failed`, with the report under `verification`)", body = Problem, content_type = "application/problem+json"),
))]
#[post("/admin/games/import")]
pub async fn import(
    state: web::Data<AppState>,
    admin: AdminUser,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, Error> {
    let body = read_json_body(&req, payload, IMPORT_LIMIT_BYTES).await?;
    let doc: GameExport = crate::api::json::parse(&body)?;
    let imported = state
        .db(move |conn| archive::import(conn, Some(admin.0.id), doc))
        .await?;
    Ok(HttpResponse::Created().json(imported))
}

/// A JSON body of up to `limit` bytes, with the same errors as the
/// ordinary JSON extractor.
async fn read_json_body(
    req: &HttpRequest,
    mut payload: web::Payload,
    limit: usize,
) -> Result<web::BytesMut, Error> {
    if !crate::api::json::declares_json(req) {
        return Err(crate::api::problem::payload_error(
            &actix_web::error::JsonPayloadError::ContentType,
        ));
    }
    let mut body = web::BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| {
            if crate::api::body_deadline::is_timeout(&e) {
                crate::api::body_deadline::body_timed_out()
            } else {
                Error::bad_request("malformed_json", e.to_string())
            }
        })?;
        if body.len() + chunk.len() > limit {
            return Err(crate::api::json::too_large(limit));
        }
        body.extend_from_slice(&chunk);
    }
    Ok(body)
}

#[derive(Deserialize, ToSchema, Debug)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"older_than_days": 30}))]
pub struct PurgeRequest {
    /// Invitations pending for longer than this many days (1 to 36500).
    #[serde(deserialize_with = "crate::service::whole_numbers::optional")]
    #[schema(value_type = i64, minimum = 1, maximum = 36500)]
    pub older_than_days: Option<i64>,
}

/// Expires every invitation pending for longer than `older_than_days`, and
/// cancels each open game that old which no pending invitation can start
/// any more (nobody is mailed about it).
#[utoipa::path(tag = "admin", security(("bearer" = [])), request_body = PurgeRequest, responses(
    (status = 200, body = Purged),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Age out of range (`invalid_age`) or a body of the wrong shape (`invalid_body`)", body = Problem, content_type = "application/problem+json"),
))]
#[post("/admin/invitations/purge")]
pub async fn purge_invitations(
    state: web::Data<AppState>,
    admin: AdminUser,
    body: crate::api::json::Json<PurgeRequest>,
) -> Result<HttpResponse, Error> {
    // Null is refused as out of range.
    let days = body.older_than_days.unwrap_or(0);
    let purged = state
        .db(move |conn| housekeeping::purge_invitations(conn, Some(admin.0.id), days, now_ms()))
        .await?;
    Ok(HttpResponse::Ok().json(purged))
}
