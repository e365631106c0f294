//! The actix application: shared state, middleware, and the route table.
//! Routes and the OpenAPI document come from the same handler list, so the
//! spec cannot drift from what is served.

use crate::api;
use crate::api::problem;
use crate::auth::tokens::TokenKeys;
use crate::clock::Clock;
use crate::config::Config;
use crate::error::Error;
use crate::metrics::Metrics;
use crate::ratelimit::RateLimiter;
use crate::store::DbPool;
use actix_web::dev::{ServiceFactory, ServiceRequest};
use actix_web::{App, web};
use utoipa::OpenApi;
use utoipa_actix_web::{AppExt, UtoipaApp};

pub struct AppState {
    pub config: Config,
    pub pool: DbPool,
    pub tokens: TokenKeys,
    pub login_limiter: RateLimiter,
    pub move_limiter: RateLimiter,
    /// What "now" is for every use case and background worker.
    pub clock: Clock,
    /// Shared with the background workers, which report through it.
    pub metrics: std::sync::Arc<Metrics>,
    /// The games this instance wrote last (`service::game_cache`).
    pub games: std::sync::Arc<crate::service::game_cache::GameCache>,
    /// Password hashes and checks, a few at a time.
    pub hashing: std::sync::Arc<crate::auth::password::Hashing>,
    /// The live event streams this instance holds, and their signals.
    pub feed: std::sync::Arc<crate::service::feed::Feed>,
    /// Whether a reply mail comes from whom its `From:` names.
    pub sender_check: std::sync::Arc<crate::inbound::authenticity::Authenticity>,
}

impl AppState {
    pub fn new(config: Config, pool: DbPool) -> AppState {
        crate::auth::password::prepare();
        AppState {
            tokens: TokenKeys::new(
                &config.jwt_keys,
                &config.jwt_issuer,
                &config.jwt_audience,
                config.access_token_ttl_secs,
            ),
            login_limiter: RateLimiter::per_minute(config.login_rate_per_minute),
            move_limiter: RateLimiter::per_minute(config.move_rate_per_minute),
            metrics: Default::default(),
            games: std::sync::Arc::new(crate::service::game_cache::GameCache::new(
                config.game_cache_size,
            )),
            hashing: std::sync::Arc::new(crate::auth::password::Hashing::per_core()),
            feed: std::sync::Arc::new(crate::service::feed::Feed::new(config.streams.per_user)),
            sender_check: std::sync::Arc::new(
                crate::inbound::authenticity::Authenticity::from_settings(
                    config.inbound.verify,
                    config.inbound.trusted_authserv_id.clone(),
                    &config.inbound.dns_servers,
                ),
            ),
            config,
            pool,
            clock: Clock::system(),
        }
    }

    /// The current moment for a use case.
    pub fn now(&self) -> crate::service::Now {
        crate::service::Now {
            at: self.clock.now(),
            reminder_percent: self.config.deadlines.reminder_percent,
        }
    }

    /// The same state reading time from `clock` (tests move it forward).
    pub fn with_clock(mut self, clock: Clock) -> AppState {
        self.clock = clock;
        self
    }
}

/// Runs blocking database work on the blocking thread pool, never on an
/// actix worker; both the pool checkout and the queries happen there.
pub trait Db {
    fn db<T, F>(&self, f: F) -> impl std::future::Future<Output = Result<T, Error>>
    where
        F: FnOnce(&mut crate::store::DbConnection) -> Result<T, Error> + Send + 'static,
        T: Send + 'static;
}

impl Db for web::Data<AppState> {
    async fn db<T, F>(&self, f: F) -> Result<T, Error>
    where
        F: FnOnce(&mut crate::store::DbConnection) -> Result<T, Error> + Send + 'static,
        T: Send + 'static,
    {
        let state = self.clone();
        web::block(move || {
            let mut conn = state.pool.get().map_err(crate::store::unavailable)?;
            f(&mut conn)
        })
        .await?
    }
}

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

/// Documents the failures any operation of a kind can produce, so each
/// handler lists only its own: malformed or oversized bodies on operations
/// with a body, missing or bad tokens on secured ones, unparsable path
/// parameters, and the generic server error. Every problem response whose
/// code is known gets an example.
struct CommonProblems;

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

/// Registers every route and its OpenAPI operation.
pub fn routes<T>(app: UtoipaApp<T>) -> UtoipaApp<T>
where
    T: ServiceFactory<ServiceRequest, Config = (), Error = actix_web::Error, InitError = ()>,
{
    app.service(api::health::healthz)
        .service(api::health::readyz)
        .service(utoipa_actix_web::scope("/api/v1").configure(api::configure))
}

/// The OpenAPI document, as served and as checked in under openapi/.
pub fn openapi() -> utoipa::openapi::OpenApi {
    complete(derived_openapi())
}

/// The document as the routes and types derive it, before `complete` adds
/// the shared problems and the examples played in games.
pub fn derived_openapi() -> utoipa::openapi::OpenApi {
    let (_, doc) =
        routes(App::new().into_utoipa_app().openapi(ApiDoc::openapi())).split_for_parts();
    doc
}

/// The published JSON document: the OpenAPI model plus what utoipa's model
/// cannot hold — the rule that a variant's own options may not be given to
/// another variant, as JSON Schema `if`/`then` on `CreateGame`, and the
/// time zone names the server knows — in the shapes client generators
/// accept.
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
    // The time zones the server accepts, from the database it checks them
    // against (null too where the field may be null).
    let zones: Vec<serde_json::Value> = crate::mail::schedule::zone_names()
        .iter()
        .map(|n| n.as_str().into())
        .collect();
    for (schema, nullable) in [("SettingsChange", true), ("NotificationSettings", false)] {
        let pointer = format!("/components/schemas/{schema}/properties/time_zone");
        if let Some(field) = v.pointer_mut(&pointer) {
            let mut allowed = zones.clone();
            if nullable {
                allowed.push(serde_json::Value::Null);
            }
            field["enum"] = serde_json::Value::Array(allowed);
        }
    }
    crate::openapi_for_generators::simplify(&mut v);
    v
}

/// The document as served and as checked in under openapi/.
pub fn document() -> serde_json::Value {
    to_document(&openapi())
}

/// Finishes the document once the route table has added every path.
pub fn complete(mut doc: utoipa::openapi::OpenApi) -> utoipa::openapi::OpenApi {
    use utoipa::Modify;
    CommonProblems.modify(&mut doc);
    crate::openapi_examples::Examples.modify(&mut doc);
    crate::openapi_action_pairs::ActionPairs.modify(&mut doc);
    crate::openapi_ck_examples::CkMembers.modify(&mut doc);
    doc
}

/// Extractor configuration shared by every scope: all errors as problem+json.
pub fn extractor_config(cfg: &mut web::ServiceConfig, body_limit: usize) {
    cfg.app_data(web::PayloadConfig::new(body_limit))
        .app_data(
            web::JsonConfig::default()
                .limit(body_limit)
                .error_handler(problem::json_error),
        )
        .app_data(web::PathConfig::default().error_handler(problem::path_error))
        .app_data(web::QueryConfig::default().error_handler(problem::query_error));
}
