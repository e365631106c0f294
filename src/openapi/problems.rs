//! The failures every operation of a kind can produce, added to the
//! document once rather than listed by each handler.

use crate::api::{self, problem};
use crate::error::Error;

/// Documents the failures any operation of a kind can produce, so each
/// handler lists only its own: malformed or oversized bodies on operations
/// with a body, missing or bad tokens on secured ones, unparsable path
/// parameters, and the generic server error. Every problem response whose
/// code is known gets an example.
pub(super) struct CommonProblems;

impl utoipa::Modify for CommonProblems {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use actix_web::error::JsonPayloadError as J;
        use utoipa::openapi::{ContentBuilder, Ref, RefOr, ResponseBuilder};
        let example = |e: &Error| serde_json::to_value(problem::Problem::from(e)).ok();
        let problem = |description: &str, e: Option<&Error>| {
            ResponseBuilder::new()
                .description(description)
                .content(
                    problem::PROBLEM_JSON,
                    ContentBuilder::new()
                        .schema(Some(Ref::from_schema_name("Problem")))
                        .example(e.and_then(example))
                        .build(),
                )
                .build()
        };
        // The body failures added here have known codes, unlike 400 and 422
        // in general.
        let malformed = serde_json::from_str::<serde_json::Value>(r#"{"email": "#)
            .err()
            .map(|e| problem::payload_error(&J::Deserialize(e)));
        let wrong_shape = serde_json::from_str::<api::games::InviteRequest>("{}")
            .err()
            .map(|e| problem::payload_error(&J::Deserialize(e)));
        for (path, item) in openapi.paths.paths.iter_mut() {
            let has_path_params = item.parameters.is_some();
            for op in [
                &mut item.get,
                &mut item.post,
                &mut item.put,
                &mut item.delete,
                &mut item.patch,
            ]
            .into_iter()
            .flatten()
            {
                let path_params = has_path_params
                    || op
                        .parameters
                        .iter()
                        .flatten()
                        .any(|p| matches!(p, utoipa::openapi::RefOr::T(p) if p.parameter_in == utoipa::openapi::path::ParameterIn::Path));
                let mut add = |status: &str, description: &str, e: Option<&Error>| {
                    op.responses
                        .responses
                        .entry(status.to_string())
                        .or_insert_with(|| problem(description, e).into());
                };
                if op.request_body.is_some() {
                    add(
                        "400",
                        "Malformed JSON (`malformed_json`)",
                        malformed.as_ref(),
                    );
                    add(
                        "413",
                        "Body over the size limit (`payload_too_large`)",
                        None,
                    );
                    add(
                        "415",
                        "Body is not application/json (`unsupported_media_type`)",
                        None,
                    );
                    add(
                        "408",
                        "The body did not arrive within `REQUEST_READ_TIMEOUT_SECS` of the head (`body_timeout`)",
                        None,
                    );
                    add(
                        "422",
                        "Body of the wrong shape (`invalid_body`)",
                        wrong_shape.as_ref(),
                    );
                }
                if op.security.as_ref().is_some_and(|s| !s.is_empty()) {
                    add(
                        "401",
                        "Missing, expired or invalid token (`unauthorized`)",
                        None,
                    );
                }
                if path_params {
                    add(
                        "404",
                        "No such resource, or a malformed path parameter",
                        None,
                    );
                }
                add(
                    "500",
                    "Internal error (`internal`); details are in the server log",
                    None,
                );
                add("503", "Database unavailable (`unavailable`)", None);
                for (status, response) in op.responses.responses.iter_mut() {
                    // OpenAPI requires a description on every response; where
                    // a handler gave none, the status's reason phrase says it.
                    if let RefOr::T(response) = response
                        && response.description.is_empty()
                    {
                        response.description = status
                            .parse::<u16>()
                            .ok()
                            .and_then(|c| actix_web::http::StatusCode::from_u16(c).ok())
                            .and_then(|c| c.canonical_reason())
                            .unwrap_or("Response")
                            .to_string();
                    }
                    if let RefOr::T(response) = response
                        && let Some(RefOr::T(content)) =
                            response.content.get_mut(problem::PROBLEM_JSON)
                        && content.example.is_none()
                    {
                        content.example = common_problem(status, path).as_ref().and_then(example);
                    }
                }
            }
        }
    }
}

/// The problem a `status` response of the operation at `path` always
/// carries, made by the server's own constructors; `None` where the code
/// depends on what went wrong (400, 409, 422).
fn common_problem(status: &str, path: &str) -> Option<Error> {
    use actix_web::error::JsonPayloadError as J;
    match status {
        "401" => Some(Error::unauthorized("missing Authorization: Bearer token")),
        "403" if path.starts_with("/api/v1/admin/") => {
            Some(Error::forbidden("this endpoint is for admins"))
        }
        "403" => Some(Error::forbidden("you do not play in this game")),
        "404" => [
            ("{game_id}", "game"),
            ("{token}", "invitation"),
            ("{key_id}", "key"),
            ("{mail_id}", "failed mail"),
        ]
        .into_iter()
        .find(|(param, _)| path.contains(param))
        .map(|(_, what)| Error::not_found(what)),
        "413" => Some(problem::payload_error(&J::OverflowKnownLength {
            length: 70_000,
            limit: 65_536,
        })),
        "415" => Some(problem::payload_error(&J::ContentType)),
        "408" => Some(api::body_deadline::body_timed_out()),
        "429" if path.ends_with("/stream") => Some(Error::too_many_streams(8)),
        "429" => Some(Error::too_many(12)),
        "500" => Some(Error::server_failure()),
        "503" => Some(Error::unavailable(
            "the database is unavailable; retry later",
        )),
        _ => None,
    }
}
