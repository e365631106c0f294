//! Starting the HTTP server: logging, database, migrations, app.

use crate::app::{self, AppState};
use crate::config::Config;
use crate::store;
use crate::workers::Background;
use crate::workers::outbox::Worker;
use crate::workers::sweeper::Sweeper;
use actix_cors::Cors;
use actix_web::http::KeepAlive;
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
    let pool = store::connect_waiting(
        &config.database_url,
        config.database_pool_size,
        config.database_checkout_timeout,
    )?;
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

/// The HTTP server and its background workers. Awaiting it runs both
/// until the server stops (SIGTERM, SIGINT or a handle's `stop`), then
/// stops the workers and waits for them.
pub struct Serving {
    server: actix_web::dev::Server,
    background: Background,
}

impl Serving {
    pub fn handle(&self) -> actix_web::dev::ServerHandle {
        self.server.handle()
    }
}

impl std::future::IntoFuture for Serving {
    type Output = std::io::Result<()>;
    type IntoFuture = std::pin::Pin<Box<dyn std::future::Future<Output = Self::Output>>>;

    fn into_future(self) -> Self::IntoFuture {
        Box::pin(async move {
            // Requests in flight have finished (or hit the shutdown timeout)
            // when the server's future resolves.
            let served = self.server.await;
            tracing::info!("HTTP server stopped; stopping background workers");
            self.background.stop().await;
            served
        })
    }
}

/// Builds the server bound to `listener` (tests pass a port-0 listener),
/// and starts the mail worker and the deadline sweeper beside it; call it
/// inside an actix system.
pub fn build(
    state: web::Data<AppState>,
    listener: std::net::TcpListener,
) -> std::io::Result<Serving> {
    let body_limit = state.config.body_limit_bytes;
    let read_timeout = state.config.request_read_timeout;
    let max_connections = state.config.max_connections;
    let keep_alive = state.config.keep_alive;
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    // A blocking task either waits for one of the pool's connections or
    // hashes a password (a few at a time), so more threads than that per
    // worker only wait, each with a stack and an allocator heap of its
    // own: actix's default of 512 in all made a server with 1,000 clients
    // hold about 900 MB (docs/performance.md).
    let blocking_threads = state.config.database_pool_size as usize + state.hashing.at_once();
    let mut background = Background::new();
    let worker = Worker::new(&state.config, state.pool.clone())
        .map_err(std::io::Error::other)?
        .with_clock(state.clock.clone())
        .with_metrics(state.metrics.clone())
        .with_wake(state.mail_wake.clone());
    background.spawn("mail", |shutdown| {
        Arc::new(worker.with_shutdown(shutdown)).run()
    });
    let sweeper = Sweeper::new(
        state.pool.clone(),
        state.clock.clone(),
        state.config.deadlines.clone(),
    )
    .with_session_idle(state.config.sessions.idle)
    .with_metrics(state.metrics.clone())
    .with_feed(state.feed.clone());
    background.spawn("deadlines", |shutdown| {
        Arc::new(sweeper.with_shutdown(shutdown)).run()
    });
    crate::inbound::transport::start(
        &mut background,
        &state.config.inbound,
        reply_sink(state.clone()),
        state.metrics.clone(),
    )?;
    // actix-web stops on these signals too; the streams, which would hold
    // a graceful stop for its whole timeout, end first.
    let feed = state.feed.clone();
    actix_web::rt::spawn(async move {
        stop_signal().await;
        feed.closing().cancel();
    });
    if state.config.database_url.starts_with("postgres") {
        let (url, feed) = (state.config.database_url.clone(), state.feed.clone());
        background.spawn("stream signals", |shutdown| {
            crate::workers::feed_listener::run(url, feed, shutdown)
        });
    }
    let server = HttpServer::new(move || {
        let (app, doc) = app::routes(
            App::new()
                .app_data(state.clone())
                .configure(|cfg| app::extractor_config(cfg, body_limit))
                .wrap(actix_web::middleware::from_fn(
                    crate::api::body_deadline::middleware,
                ))
                .wrap(actix_web::middleware::from_fn(
                    crate::api::clean_path::middleware,
                ))
                .wrap(cors(&state.config))
                .wrap(actix_web::middleware::Logger::new(
                    "%r %s %Dms request_id=%{x-request-id}i",
                ))
                .wrap(actix_web::middleware::from_fn(crate::metrics::middleware))
                .wrap(actix_web::middleware::from_fn(
                    crate::api::request_id::middleware,
                ))
                // Registered before the /api/v1 scope so the scope does not shadow it.
                .route(
                    "/api/v1/openapi.json",
                    web::get().to(crate::api::openapi_json),
                )
                // Prometheus' text format, not part of the JSON API.
                .route("/metrics", web::get().to(crate::metrics::endpoint))
                .into_utoipa_app()
                .openapi(crate::openapi::ApiDoc::openapi()),
        )
        .split_for_parts();
        let doc = crate::openapi::complete(doc);
        let served = web::Data::new(crate::api::ServedDoc(crate::openapi::to_document(&doc)));
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
            .default_service(web::to(crate::api::web_client::serve))
    })
    .workers(workers)
    // actix's cap is per worker; the setting is the instance's.
    .max_connections(max_connections.div_ceil(workers))
    // A head that is slow to come is cut off by actix, a body by
    // api::body_deadline, both after the same time.
    .client_request_timeout(read_timeout)
    .keep_alive(match keep_alive {
        Some(idle) => KeepAlive::Timeout(idle),
        None => KeepAlive::Disabled,
    })
    .worker_max_blocking_threads(blocking_threads)
    .listen(listener)?
    .shutdown_timeout(30)
    .run();
    Ok(Serving { server, background })
}

/// The first of SIGTERM, SIGINT and SIGQUIT.
async fn stop_signal() {
    use tokio::signal::unix::{SignalKind, signal};
    let kinds = [
        SignalKind::terminate(),
        SignalKind::interrupt(),
        SignalKind::quit(),
    ];
    let mut streams: Vec<_> = kinds.into_iter().filter_map(|k| signal(k).ok()).collect();
    if streams.is_empty() {
        return std::future::pending().await;
    }
    let waits = streams.iter_mut().map(|s| Box::pin(s.recv()));
    futures_util::future::select_all(waits).await;
}

/// `hexpost serve`.
pub fn serve(config: Config) -> std::io::Result<()> {
    init_logging(config.log_json);
    crate::mail::check_required(&config).map_err(std::io::Error::other)?;
    let pool = open_store(&config).map_err(std::io::Error::other)?;
    let listener = std::net::TcpListener::bind(config.bind)?;
    tracing::info!(address = %config.bind, database = %redact(&config.database_url), "hexpost listening");
    welcome(&config, &pool);
    let state = web::Data::new(AppState::new(config, pool));
    actix_web::rt::System::new().block_on(async move { build(state, listener)?.await })?;
    tracing::info!("hexpost stopped");
    Ok(())
}

/// On a server without accounts yet (a fresh data directory), says how to
/// make the first one: to a newcomer the log is the first thing to read.
fn welcome(config: &Config, pool: &store::DbPool) {
    use diesel::prelude::*;
    let Ok(mut conn) = pool.get() else { return };
    let accounts: i64 = match store::schema::users::table.count().get_result(&mut conn) {
        Ok(n) => n,
        Err(_) => return,
    };
    if accounts > 0 {
        return;
    }
    let base = &config.public_base_url;
    let mail = match &config.mail.smtp_url {
        Some(_) => "the code is mailed to the address".to_string(),
        None => format!(
            "without SMTP_URL the mail with its code is a file under {} (this log names it)",
            config.data_dir.join("mail").display()
        ),
    };
    tracing::info!(
        "no account yet: sign up at {base}/signup ({mail}), or make one at once with \
         `hexpost admin create-user --email you@example.org --name You --password 'a long password'` \
         (add --admin for an admin); then start a game at {base}/new and invite your opponent by address"
    );
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

/// The inbound transports hand each message to the reply pipeline; a
/// failure of ours (the database away, say) asks the sender's MTA or the
/// mailbox to try again later rather than losing the reply.
fn reply_sink(state: web::Data<AppState>) -> Arc<dyn crate::inbound::transport::MessageSink> {
    use crate::inbound::transport::{SinkError, SinkFuture};
    Arc::new(move |raw: Vec<u8>, via| -> SinkFuture {
        let state = state.clone();
        Box::pin(async move {
            match crate::inbound::receive(&state, &raw, via).await {
                Ok(_) => Ok(()),
                Err(e) if e.status.is_client_error() => Err(SinkError::Refused(e.detail)),
                Err(e) => Err(SinkError::Temporary(e.detail)),
            }
        })
    })
}
