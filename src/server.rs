//! Starting the HTTP server: logging, database, migrations, app.

use crate::app::{self, AppState};
use crate::config::Config;
use crate::mail::worker::Worker;
use crate::store;
use actix_cors::Cors;
use actix_web::{App, HttpServer, web};
use std::sync::Arc;
use utoipa::OpenApi;
use utoipa_actix_web::AppExt;

pub fn init_logging(json: bool) {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_env("RUST_LOG").unwrap_or_else(|_| EnvFilter::new("info"));
    let builder = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr);
    let _ = if json {
        builder.json().try_init()
    } else {
        builder.try_init()
    };
}

/// Connects and migrates; the shared start of `serve` and `migrate`.
pub fn open_store(config: &Config) -> Result<store::DbPool, store::StoreError> {
    let pool = store::connect(&config.database_url, config.database_pool_size)?;
    let mut conn = pool.get()?;
    let ran = store::migrate(&mut conn)?;
    if ran > 0 {
        tracing::info!(migrations = ran, "database migrated");
    }
    Ok(pool)
}

fn cors(config: &Config) -> Cors {
    let mut cors = Cors::default()
        .allowed_methods(["GET", "POST", "PUT", "DELETE"])
        .allowed_headers([
            "authorization",
            "content-type",
            "idempotency-key",
            "x-request-id",
        ])
        .expose_headers(["retry-after", "etag", "x-request-id"])
        .max_age(3600);
    for origin in &config.cors_origins {
        cors = if origin == "*" {
            cors.allow_any_origin()
        } else {
            cors.allowed_origin(origin)
        };
    }
    cors
}

/// Builds the server bound to `listener` (tests pass a port-0 listener),
/// and starts the mail worker beside it; call it inside an actix system.
pub fn build(
    state: web::Data<AppState>,
    listener: std::net::TcpListener,
) -> std::io::Result<actix_web::dev::Server> {
    let body_limit = state.config.body_limit_bytes;
    let worker = Worker::new(&state.config, state.pool.clone()).map_err(std::io::Error::other)?;
    actix_web::rt::spawn(Arc::new(worker).run());
    let server = HttpServer::new(move || {
        let (app, doc) = app::routes(
            App::new()
                .app_data(state.clone())
                .configure(|cfg| app::extractor_config(cfg, body_limit))
                .wrap(cors(&state.config))
                .wrap(actix_web::middleware::Logger::new(
                    "%r %s %Dms request_id=%{x-request-id}i",
                ))
                .wrap(actix_web::middleware::from_fn(
                    crate::api::request_id::middleware,
                ))
                // Registered before the /api/v1 scope so the scope does not shadow it.
                .route(
                    "/api/v1/openapi.json",
                    web::get().to(crate::api::openapi_json),
                )
                .into_utoipa_app()
                .openapi(app::ApiDoc::openapi()),
        )
        .split_for_parts();
        let doc = app::complete(doc);
        let served = web::Data::new(crate::api::ServedDoc(app::to_document(&doc)));
        app.app_data(web::Data::new(doc))
            .app_data(served)
            .route(
                "/docs",
                web::get().to(|| async {
                    actix_web::HttpResponse::Found()
                        .insert_header(("location", "/docs/"))
                        .finish()
                }),
            )
            // The interactive page; its assets are vendored into the binary.
            .service(
                utoipa_swagger_ui::SwaggerUi::new("/docs/{_:.*}")
                    .config(utoipa_swagger_ui::Config::from("/api/v1/openapi.json")),
            )
            // The browser client; unknown paths still get the API's 404.
            .default_service(web::to(crate::web::serve))
    })
    .listen(listener)?
    .shutdown_timeout(30)
    .run();
    Ok(server)
}

/// `hexpost serve`.
pub fn serve(config: Config) -> std::io::Result<()> {
    init_logging(config.log_json);
    crate::mail::check_required(&config).map_err(std::io::Error::other)?;
    let pool = open_store(&config).map_err(std::io::Error::other)?;
    let listener = std::net::TcpListener::bind(config.bind)?;
    tracing::info!(address = %config.bind, database = %redact(&config.database_url), "hexpost listening");
    let state = web::Data::new(AppState::new(config, pool));
    actix_web::rt::System::new().block_on(async move { build(state, listener)?.await })
}

/// The database URL without its password, for logs.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let creds = &url[s + 3..at];
            match creds.split_once(':') {
                Some((user, _)) => format!("{}{}:***{}", &url[..s + 3], user, &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}
