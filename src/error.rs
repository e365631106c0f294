//! The error every use case returns: a problem in the shape of RFC 9457
//! (status, stable `code`, title, detail, extra members), independent of
//! the web layer. `api::problem` turns it into a problem+json response.
//! Server-side failures carry a generic message; their cause is logged.

// The status is the `http` crate's type, as actix re-exports it; nothing
// else of the web layer is named here.
use actix_web::http::StatusCode;
use serde::Serialize;

/// The `Retry-After` of `503 streams_full`: a stream is long-lived, so a
/// place frees up seldom; a client polls meanwhile.
const STREAMS_FULL_RETRY_SECS: u64 = 30;

/// The `Retry-After` of `503 unavailable`: about as long as PostgreSQL
/// takes to restart.
pub const RETRY_UNAVAILABLE_SECS: u64 = 5;

#[derive(Debug)]
pub struct Error {
    pub status: StatusCode,
    pub code: &'static str,
    pub title: &'static str,
    pub detail: String,
    pub extra: Option<serde_json::Map<String, serde_json::Value>>,
    pub retry_after: Option<u64>,
    pub www_authenticate: bool,
}

impl Error {
    pub fn new(
        status: StatusCode,
        code: &'static str,
        title: &'static str,
        detail: impl Into<String>,
    ) -> Self {
        Error {
            status,
            code,
            title,
            detail: detail.into(),
            extra: None,
            retry_after: None,
            www_authenticate: false,
        }
    }

    pub fn with(mut self, key: &str, value: impl Serialize) -> Self {
        let v = serde_json::to_value(value).unwrap_or(serde_json::Value::Null);
        self.extra
            .get_or_insert_with(Default::default)
            .insert(key.to_string(), v);
        self
    }

    pub fn bad_request(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::BAD_REQUEST, code, "Bad request", detail)
    }

    pub fn unauthorized(detail: impl Into<String>) -> Self {
        let mut e = Self::new(
            StatusCode::UNAUTHORIZED,
            "unauthorized",
            "Authentication required",
            detail,
        );
        e.www_authenticate = true;
        e
    }

    pub fn forbidden(detail: impl Into<String>) -> Self {
        Self::new(StatusCode::FORBIDDEN, "forbidden", "Not allowed", detail)
    }

    pub fn not_found(what: &str) -> Self {
        Self::new(
            StatusCode::NOT_FOUND,
            "not_found",
            "Not found",
            format!("no such {what}"),
        )
    }

    pub fn conflict(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(StatusCode::CONFLICT, code, "Conflict", detail)
    }

    pub fn unprocessable(code: &'static str, detail: impl Into<String>) -> Self {
        Self::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            code,
            "Unprocessable request",
            detail,
        )
    }

    pub fn too_many(retry_after: u64) -> Self {
        let mut e = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate_limited",
            "Too many requests",
            format!("slow down: retry after {retry_after} s"),
        );
        e.retry_after = Some(retry_after);
        e.with("retry_after_seconds", retry_after)
    }

    /// An account already holds `cap` live streams on this instance.
    pub fn too_many_streams(cap: usize) -> Self {
        Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_streams",
            "Too many requests",
            format!("you hold {cap} open event streams, the most allowed; close one first"),
        )
        .with("max_streams", cap)
    }

    /// The account invited as many addresses without an account in the
    /// last day as it may (`INVITATIONS_PER_DAY`).
    pub fn invitations_limited(limit: i64, retry_after: u64) -> Self {
        let mut e = Self::new(
            StatusCode::TOO_MANY_REQUESTS,
            "invitation_limit",
            "Too many requests",
            format!(
                "you invited {limit} addresses that have no account in the last day, the most allowed; invite again in {retry_after} s, or invite players who have an account"
            ),
        );
        e.retry_after = Some(retry_after);
        e.with("retry_after_seconds", retry_after)
            .with("limit", limit)
    }

    /// This instance holds as many event streams as it allows in all
    /// (`STREAMS_MAX`), so that streams cannot take every connection:
    /// ordinary requests and health checks still get through.
    pub fn streams_full(cap: usize) -> Self {
        let mut e = Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "streams_full",
            "Service unavailable",
            format!(
                "this server holds {cap} open event streams, the most it allows; poll the game, or connect again later"
            ),
        );
        e.retry_after = Some(STREAMS_FULL_RETRY_SECS);
        e.with("retry_after_seconds", STREAMS_FULL_RETRY_SECS)
            .with("max_streams", cap)
    }

    /// A server-side failure: the client sees a generic message, the log
    /// gets the cause.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(error = %cause, "internal error");
        Self::server_failure()
    }

    /// All a client learns of any server-side failure.
    pub fn server_failure() -> Self {
        Self::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal",
            "Internal server error",
            "the server failed; the incident is logged",
        )
    }

    /// The server cannot serve now (its database is out of reach); the
    /// client may retry after `RETRY_UNAVAILABLE_SECS`.
    pub fn unavailable(detail: impl Into<String>) -> Self {
        let mut e = Self::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "Service unavailable",
            detail,
        );
        e.retry_after = Some(RETRY_UNAVAILABLE_SECS);
        e
    }
}

impl std::fmt::Display for Error {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{} {}: {}", self.status.as_u16(), self.code, self.detail)
    }
}
