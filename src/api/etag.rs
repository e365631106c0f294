//! Conditional GETs: a client that sends the `ETag` of an earlier answer
//! in `If-None-Match` gets `304 Not Modified` without a body while nothing
//! changed. A game page left open for days polls cheaply this way.

use actix_web::HttpRequest;
use actix_web::http::header;

/// A strong ETag for a response body: its content, hashed.
pub fn of(body: &[u8]) -> String {
    format!("\"{}\"", &crate::service::audit::sha256_hex(body)[..32])
}

/// Whether the request's `If-None-Match` names `etag` (or `*`).
pub fn matches(req: &HttpRequest, etag: &str) -> bool {
    req.headers()
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag || t.trim() == "*"))
}
