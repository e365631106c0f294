//! RFC 9457 problem details. Every failure the API returns is an
//! `error::Error`, with a stable machine-readable `code`, answered here as
//! a problem+json response; actix's own extractor errors (bad JSON, wrong
//! types, unknown fields, bad path or query) are mapped here too.

use crate::error::Error;
use actix_web::http::StatusCode;
use actix_web::http::header::{self, HeaderValue};
use actix_web::{HttpResponse, ResponseError};
use serde::Serialize;
use utoipa::ToSchema;

pub const PROBLEM_JSON: &str = "application/problem+json";

/// A problem+json body.
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct Problem {
    /// A URI reference naming the problem type: `/problems/{code}`.
    #[serde(rename = "type")]
    #[schema(example = "/problems/stale_move")]
    pub kind: String,
    #[schema(example = "Conflict")]
    pub title: String,
    #[schema(example = 409)]
    pub status: u16,
    #[schema(example = "expected move number 12, the game is at 14")]
    pub detail: String,
    /// Stable code to match on.
    #[schema(example = "stale_move")]
    pub code: String,
    /// Extra, problem-specific members (for `illegal_move`: the engine's
    /// reason under `reason`; for `stale_move`: the current game view).
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    #[schema(value_type = Option<Object>)]
    pub extra: Option<serde_json::Map<String, serde_json::Value>>,
}

/// A 409 from the moves endpoint. For `stale_move` it carries the move
/// number the game is at and the game as you see it, so a client can
/// choose again without another request; the other 409 codes
/// (`game_not_active`, `concurrent_update`, `jti_reused`) are plain problems.
#[derive(Debug, Serialize, ToSchema)]
pub struct StaleMoveProblem {
    #[serde(flatten)]
    pub problem: Problem,
    /// `stale_move` only: the game's move number now; send it as
    /// `expected_move_number`.
    #[schema(minimum = 0)]
    pub current_move_number: Option<i64>,
    /// `stale_move` only: the game as you see it now, with your legal actions.
    pub game: Option<crate::service::games::GameDetail>,
}

/// A 422 from the moves endpoint. For `illegal_move` the engine's reason
/// is under `reason`, with its own `code` (one of `ActionError`'s) and the
/// members that code lists; other 422 codes (`invalid_action`,
/// `invalid_body`, `idempotency_key_reused`, `invalid_jws`, `jws_expired`)
/// are plain problems.
#[derive(Debug, Serialize, ToSchema)]
pub struct IllegalMoveProblem {
    #[serde(flatten)]
    pub problem: Problem,
    /// `illegal_move` only: why the engine refused the action.
    pub reason: Option<hexpost_engine::ActionError>,
    /// `illegal_move` only: the game's move number, unchanged.
    #[schema(minimum = 0)]
    pub move_number: Option<i64>,
}

impl From<&Error> for Problem {
    fn from(e: &Error) -> Problem {
        Problem {
            kind: format!("/problems/{}", e.code),
            title: e.title.to_string(),
            status: e.status.as_u16(),
            detail: e.detail.clone(),
            code: e.code.to_string(),
            extra: e.extra.clone(),
        }
    }
}

impl ResponseError for Error {
    fn status_code(&self) -> StatusCode {
        self.status
    }

    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status);
        res.insert_header((header::CONTENT_TYPE, HeaderValue::from_static(PROBLEM_JSON)));
        if let Some(secs) = self.retry_after {
            res.insert_header((header::RETRY_AFTER, secs.to_string()));
        }
        if self.www_authenticate {
            res.insert_header((header::WWW_AUTHENTICATE, "Bearer realm=\"hexpost\""));
        }
        res.body(serde_json::to_string(&Problem::from(self)).unwrap_or_default())
    }
}

impl From<actix_web::error::BlockingError> for Error {
    fn from(e: actix_web::error::BlockingError) -> Self {
        Error::internal(e)
    }
}

/// Maps a JSON body extractor error.
pub fn json_error(
    err: actix_web::error::JsonPayloadError,
    _req: &actix_web::HttpRequest,
) -> actix_web::Error {
    payload_error(&err).into()
}

/// The problem a JSON body's extractor error becomes.
pub fn payload_error(err: &actix_web::error::JsonPayloadError) -> Error {
    use actix_web::error::JsonPayloadError as J;
    match err {
        J::OverflowKnownLength { length, limit } => Error::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            "Payload too large",
            format!("body of {length} bytes exceeds the limit of {limit}"),
        ),
        J::Overflow { limit } => Error::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            "payload_too_large",
            "Payload too large",
            format!("body exceeds the limit of {limit} bytes"),
        ),
        J::ContentType => Error::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "unsupported_media_type",
            "Unsupported media type",
            "send the body as application/json",
        ),
        J::Deserialize(de) if de.is_data() => Error::unprocessable("invalid_body", de.to_string()),
        J::Deserialize(de) => Error::bad_request("malformed_json", de.to_string()),
        other => Error::bad_request("malformed_json", other.to_string()),
    }
}

pub fn path_error(
    err: actix_web::error::PathError,
    _req: &actix_web::HttpRequest,
) -> actix_web::Error {
    Error::new(
        StatusCode::NOT_FOUND,
        "invalid_path",
        "Not found",
        err.to_string(),
    )
    .into()
}

pub fn query_error(
    err: actix_web::error::QueryPayloadError,
    _req: &actix_web::HttpRequest,
) -> actix_web::Error {
    Error::bad_request("invalid_query", err.to_string()).into()
}

/// Fallback for unknown routes: 405 with `Allow` when the path exists
/// with other methods (read from the OpenAPI document, so it cannot drift
/// from the routes), else 404.
pub async fn no_route(req: actix_web::HttpRequest) -> Result<HttpResponse, Error> {
    let allowed = req
        .app_data::<actix_web::web::Data<utoipa::openapi::OpenApi>>()
        .map(|doc| allowed_methods(doc, req.path()))
        .unwrap_or_default();
    if !allowed.is_empty() {
        let allow = allowed.join(", ");
        let e = Error::new(
            StatusCode::METHOD_NOT_ALLOWED,
            "method_not_allowed",
            "Method not allowed",
            format!(
                "{} is not allowed on {}; allowed: {allow}",
                req.method(),
                req.path()
            ),
        );
        let mut res = e.error_response();
        res.headers_mut().insert(
            header::ALLOW,
            HeaderValue::from_str(&allow).unwrap_or(HeaderValue::from_static("GET")),
        );
        return Ok(res);
    }
    Err(Error::new(
        StatusCode::NOT_FOUND,
        "not_found",
        "Not found",
        format!("no route for {} {}", req.method(), req.path()),
    ))
}

fn allowed_methods(doc: &utoipa::openapi::OpenApi, path: &str) -> Vec<&'static str> {
    let segments: Vec<&str> = path.split('/').collect();
    let mut out = Vec::new();
    for (template, item) in &doc.paths.paths {
        let t: Vec<&str> = template.split('/').collect();
        let matches = t.len() == segments.len()
            && t.iter()
                .zip(&segments)
                .all(|(a, b)| (a.starts_with('{') && !b.is_empty()) || a == b);
        if !matches {
            continue;
        }
        for (present, name) in [
            (item.get.is_some(), "GET"),
            (item.post.is_some(), "POST"),
            (item.put.is_some(), "PUT"),
            (item.delete.is_some(), "DELETE"),
            (item.patch.is_some(), "PATCH"),
        ] {
            if present && !out.contains(&name) {
                out.push(name);
            }
        }
    }
    if path == "/api/v1/openapi.json" || path == "/docs" || path == "/metrics" {
        out.push("GET");
    }
    out
}
