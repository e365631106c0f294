//! A request id on every response (`X-Request-Id`) and on every log line of
//! that request, so that a player's report ("it failed at 10:42, request
//! id …") leads straight to the server's log. A well-formed id sent by a
//! proxy in front is kept, so one id follows the request through each hop.

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use tracing::Instrument;

pub const HEADER: HeaderName = HeaderName::from_static("x-request-id");

/// An incoming id is kept only if it is short and plain, so that it cannot
/// smuggle anything into a log line or a header.
fn acceptable(value: &HeaderValue) -> Option<HeaderValue> {
    let text = value.to_str().ok()?;
    let plain = (1..=128).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:".contains(&b));
    plain.then(|| value.clone())
}

pub async fn middleware(
    mut req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req
        .headers()
        .get(&HEADER)
        .and_then(acceptable)
        .unwrap_or_else(|| {
            HeaderValue::from_str(&uuid::Uuid::new_v4().to_string())
                .expect("a UUID is a valid header value")
        });
    // On the request too, where the access log reads it.
    req.headers_mut().insert(HEADER, id.clone());
    let span = tracing::info_span!("request", request_id = id.to_str().unwrap_or_default());
    let mut res = next.call(req).instrument(span).await?;
    res.headers_mut().insert(HEADER, id);
    Ok(res)
}
