//! The actix application: shared state, middleware, and the route table.
//! Routes and the OpenAPI document (`crate::openapi`) come from the same
//! handler list, so the spec cannot drift from what is served.

use crate::api;
use crate::api::problem;
use crate::api::ratelimit::RateLimiter;
use crate::auth::tokens::TokenKeys;
use crate::clock::Clock;
use crate::config::Config;
use crate::error::Error;
use crate::metrics::Metrics;
use crate::store::DbPool;
use actix_web::dev::{ServiceFactory, ServiceRequest};
use actix_web::web;
use utoipa_actix_web::UtoipaApp;

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
    /// Rings this instance's mail worker (`wake_mail`).
    pub mail_wake: std::sync::Arc<tokio::sync::Notify>,
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
            feed: std::sync::Arc::new(crate::service::feed::Feed::new(
                config.streams.per_user,
                config.streams.max_total,
            )),
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
            mail_wake: Default::default(),
        }
    }

    /// Has the mail worker look for due mail now: a person waits for the
    /// mail just queued (a code to confirm an address, to sign in).
    pub fn wake_mail(&self) {
        self.mail_wake.notify_one();
    }

    /// The current moment for a use case.
    pub fn now(&self) -> crate::service::Now {
        crate::service::Now {
            at: self.clock.now(),
            reminder_percent: self.config.deadlines.reminder_percent,
            turn_mail: self.config.deadlines.turn_mail,
            invitations_per_day: self.config.invitations_per_day,
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

/// Registers every route and its OpenAPI operation.
pub fn routes<T>(app: UtoipaApp<T>) -> UtoipaApp<T>
where
    T: ServiceFactory<ServiceRequest, Config = (), Error = actix_web::Error, InitError = ()>,
{
    app.service(api::health::healthz)
        .service(api::health::readyz)
        .service(utoipa_actix_web::scope("/api/v1").configure(api::configure))
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
