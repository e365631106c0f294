//! Refuses, before anything reads it, a request whose path holds a control
//! character or is not UTF-8 once percent-decoded (`/api/v1/games/%00`):
//! no id, token or route has one, and PostgreSQL cannot even compare such
//! text (it answered 500). The answer is the one a malformed path
//! parameter gets: `404 invalid_path`.

use crate::error::Error;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::StatusCode;
use actix_web::middleware::Next;

pub async fn middleware<B: MessageBody>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<EitherBody<B>>, actix_web::Error> {
    if is_clean(req.path()) {
        return next.call(req).await.map(|res| res.map_into_left_body());
    }
    let refusal = Error::new(
        StatusCode::NOT_FOUND,
        "invalid_path",
        "Not found",
        "the path has a control character, or is not UTF-8",
    );
    Ok(req.error_response(refusal).map_into_right_body())
}

/// Whether the percent-decoded path is UTF-8 without control characters.
pub fn is_clean(path: &str) -> bool {
    percent_encoding::percent_decode_str(path)
        .decode_utf8()
        .is_ok_and(|text| !text.chars().any(char::is_control))
}

#[cfg(test)]
mod tests {
    use super::is_clean;

    #[test]
    fn control_characters_and_broken_utf8_are_not_clean() {
        for path in ["/api/v1/games/3f2a", "/games/%C3%A9t%C3%A9", "/a%2Fb", "/"] {
            assert!(is_clean(path), "{path}");
        }
        for path in [
            "/api/v1/games/%00",
            "/api/v1/games/a%00b/log",
            "/api/v1/invitations/%0a",
            "/api/v1/games/%1F",
            "/api/v1/games/%7f",
            "/api/v1/games/%C2%85",
            "/api/v1/games/%FF",
            "/api/v1/games/%C3",
        ] {
            assert!(!is_clean(path), "{path}");
        }
    }
}
