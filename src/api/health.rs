//! Liveness and readiness probes.

use crate::app::{AppState, Db};
use crate::error::Error;
use actix_web::{HttpResponse, get, web};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema)]
#[schema(example = json!({"status": "ok"}))]
pub struct Health {
    #[schema(example = "ok")]
    pub status: &'static str,
}

/// The process is up.
#[utoipa::path(tag = "health", responses((status = 200, body = Health)))]
#[get("/healthz")]
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().json(Health { status: "ok" })
}

/// The process can serve: the database answers.
#[utoipa::path(tag = "health", responses(
    (status = 200, body = Health),
    (status = 503, description = "Database unreachable", body = crate::api::problem::Problem, content_type = "application/problem+json"),
))]
#[get("/readyz")]
pub async fn readyz(state: web::Data<AppState>) -> Result<HttpResponse, Error> {
    let ok = state
        .db(|conn| Ok(crate::store::ping(conn)))
        .await
        .unwrap_or(false);
    if ok {
        Ok(HttpResponse::Ok().json(Health { status: "ok" }))
    } else {
        Err(Error::unavailable("the database does not answer"))
    }
}
