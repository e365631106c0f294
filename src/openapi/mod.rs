//! The OpenAPI document: derived from the route table and the types
//! (`crate::app::routes`), finished with the problems every operation
//! shares (`problems`) and examples played in real games (`examples`,
//! `action_pairs`, `ck_examples`, `ck_shortage`), and rewritten into the
//! shapes client generators accept (`for_generators`). It is served at
//! `/api/v1/openapi.json` and checked in as `openapi/openapi.json`.

pub mod action_pairs;
pub mod ck_examples;
pub mod ck_shortage;
pub mod examples;
pub mod for_generators;
mod problems;

use crate::api::problem;
use actix_web::App;
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;

#[derive(OpenApi)]
#[openapi(
    info(
        title = "hexpost",
        description = "Asynchronous play-by-email turn server for two-player Catan variants. \
            Every failure is an RFC 9457 problem+json body with a stable `code`.",
        license(name = "AGPL-3.0-or-later")
    ),
    modifiers(&BearerAuth),
    components(schemas(
        problem::Problem,
        problem::StaleMoveProblem,
        problem::IllegalMoveProblem,
        hexpost_engine::ActionError
    ))
)]
pub struct ApiDoc;

struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, openapi: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let components = openapi.components.get_or_insert_with(Default::default);
        components.add_security_scheme(
            "bearer",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .bearer_format("JWT")
                    .build(),
            ),
        );
    }
}

/// The OpenAPI document, as served and as checked in under openapi/.
pub fn openapi() -> utoipa::openapi::OpenApi {
    complete(derived_openapi())
}

/// The document as the routes and types derive it, before `complete` adds
/// the shared problems and the examples played in games.
pub fn derived_openapi() -> utoipa::openapi::OpenApi {
    let (_, doc) = crate::app::routes(App::new().into_utoipa_app().openapi(ApiDoc::openapi()))
        .split_for_parts();
    doc
}

/// The published JSON document: the OpenAPI model plus what utoipa's model
/// cannot hold — the rule that a variant's own options may not be given to
/// another variant, as JSON Schema `if`/`then` on `CreateGame` — in the
/// shapes client generators accept. (The time zone names the server knows
/// are served at `GET /api/v1/time-zones`, not listed as an enum: several
/// of them, `GMT0`, `GMT-0` and `GMT+0` among them, collide as the
/// identifiers generators make of enum members.)
pub fn to_document(doc: &utoipa::openapi::OpenApi) -> serde_json::Value {
    let mut v = serde_json::to_value(doc).expect("the document serializes");
    let rules: Vec<serde_json::Value> = hexpost_engine::options::VARIANT_OPTIONS
        .iter()
        .map(|(option, variants)| {
            let ids: Vec<&str> = variants.iter().map(|v| v.id()).collect();
            let owners = match ids.as_slice() {
                [one] => serde_json::json!({"const": one}),
                many => serde_json::json!({"enum": many}),
            };
            serde_json::json!({
                "if": {"required": ["variant"], "properties": {"variant": {"not": owners}}},
                "then": {"properties": {"options": {"properties": {*option: {"type": "null"}}}}}
            })
        })
        .collect();
    if let Some(schema) = v.pointer_mut("/components/schemas/CreateGame") {
        schema["allOf"] = serde_json::Value::Array(rules);
    }
    for_generators::simplify(&mut v);
    v
}

/// The document as served and as checked in under openapi/.
pub fn document() -> serde_json::Value {
    to_document(&openapi())
}

/// Finishes the document once the route table has added every path.
pub fn complete(mut doc: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    use utoipa::Modify;
    problems::CommonProblems.modify(&mut doc);
    examples::Examples.modify(&mut doc);
    action_pairs::ActionPairs.modify(&mut doc);
    ck_examples::CkMembers.modify(&mut doc);
    doc
}
