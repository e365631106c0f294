//! The JSON body extractor every endpoint uses. It checks the syntax of the
//! whole body before mapping it onto the request type, so a body that is
//! not JSON at all is always `400 malformed_json`, and only well-formed JSON
//! of the wrong shape is `422 invalid_body` (serde reads as it goes and
//! would otherwise report whichever problem it met first).

use crate::app::AppState;
use crate::error::Error;
use actix_web::error::PayloadError;
use actix_web::http::StatusCode;
use actix_web::{FromRequest, HttpRequest, dev::Payload, web};
use futures_util::future::LocalBoxFuture;
use serde::de::DeserializeOwned;

pub struct Json<T>(pub T);

impl<T> Json<T> {
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Json<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// Parses a complete body: syntax first, then shape. Every request body of
/// the API is an object; serde would also read a struct from an array of
/// its fields in order, which no client means and the spec does not allow.
pub fn parse<T: DeserializeOwned>(body: &[u8]) -> Result<T, Error> {
    serde_json::from_slice::<serde::de::IgnoredAny>(body)
        .map_err(|e| Error::bad_request("malformed_json", e.to_string()))?;
    if body.trim_ascii_start().first() != Some(&b'{') {
        return Err(Error::unprocessable(
            "invalid_body",
            "the body must be a JSON object",
        ));
    }
    serde_json::from_slice(body).map_err(|e| Error::unprocessable("invalid_body", e.to_string()))
}

/// True when the request's Content-Type is JSON (`application/json` or
/// any `+json` type).
pub fn declares_json(req: &HttpRequest) -> bool {
    req.headers()
        .get(actix_web::http::header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<mime::Mime>().ok())
        .is_some_and(|m| m.subtype() == mime::JSON || m.suffix() == Some(mime::JSON))
}

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = Error;
    type Future = LocalBoxFuture<'static, Result<Json<T>, Error>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let is_json = declares_json(req);
        let limit = req
            .app_data::<web::Data<AppState>>()
            .map(|s| s.config.body_limit_bytes)
            .unwrap_or(64 * 1024);
        let bytes = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            if !is_json {
                return Err(Error::new(
                    StatusCode::UNSUPPORTED_MEDIA_TYPE,
                    "unsupported_media_type",
                    "Unsupported media type",
                    "send the body as application/json",
                ));
            }
            let body = bytes
                .await
                .map_err(|e| match e.as_error::<PayloadError>() {
                    Some(e) if crate::api::body_deadline::is_timeout(e) => {
                        crate::api::body_deadline::body_timed_out()
                    }
                    _ => too_large(limit),
                })?;
            if body.len() > limit {
                return Err(too_large(limit));
            }
            parse(&body).map(Json)
        })
    }
}

pub fn too_large(limit: usize) -> Error {
    Error::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        "payload_too_large",
        "Payload too large",
        format!("body exceeds the limit of {limit} bytes"),
    )
}
