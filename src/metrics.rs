//! Prometheus metrics, served at `GET /metrics` in the OpenMetrics text
//! format. Counters and histograms are this instance's since it started;
//! the gauges of games and mails are read from the database when scraped,
//! so every instance reports the same totals for them.
//!
//! Request series are labelled by the matched route pattern (e.g.
//! `/api/v1/games/{game_id}/moves`), never the raw path, whose game ids and
//! tokens would make the number of series unbounded.

use crate::app::{AppState, Db};
use crate::error::Error;
use crate::service::game_cache::{GameCache, Used};
use crate::store::{DbConnection, StoreResult, games, outbox};
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::{HttpRequest, HttpResponse, web};
use prometheus_client::encoding::EncodeLabelSet;
use prometheus_client::metrics::counter::Counter;
use prometheus_client::metrics::family::Family;
use prometheus_client::metrics::gauge::Gauge;
use prometheus_client::metrics::histogram::{Histogram, exponential_buckets};
use prometheus_client::registry::Registry;
use std::time::Instant;

/// The route whose latency the move histogram records.
pub const MOVE_ROUTE: &str = "/api/v1/games/{game_id}/moves";
/// The route label of requests that matched no route.
pub const UNMATCHED: &str = "unmatched";

pub const CONTENT_TYPE: &str = "application/openmetrics-text; version=1.0.0; charset=utf-8";

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct RequestLabels {
    method: String,
    route: String,
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StatusLabel {
    status: u16,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct StateLabel {
    state: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct KindLabel {
    kind: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct InboundLabels {
    via: String,
    outcome: String,
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct UsedLabel {
    used: String,
}

type HistogramFamily<L> = Family<L, Histogram, fn() -> Histogram>;

/// Every metric of one instance. Shared (in an `Arc`) by the HTTP workers
/// and the background workers, which report through its methods.
pub struct Metrics {
    registry: Registry,
    requests: Family<RequestLabels, Counter>,
    move_seconds: HistogramFamily<StatusLabel>,
    games: Family<StateLabel, Gauge>,
    outbox: Family<StateLabel, Gauge>,
    mail_sent: Counter,
    mail_attempts_failed: Counter,
    deadline_sweeps: Counter,
    deadline_actions: Family<KindLabel, Counter>,
    inbound: Family<InboundLabels, Counter>,
    game_cache: Family<UsedLabel, Counter>,
    game_cache_games: Gauge,
    /// Two scrapes at once must not both add the same difference.
    game_cache_catch_up: std::sync::Mutex<()>,
    pool_connections: Gauge,
    pool_idle: Gauge,
    pool_max: Gauge,
    database_up: Gauge,
}

fn move_histogram() -> Histogram {
    // 1 ms to about 16 s: a move is a few milliseconds, a slow database
    // or a busy SQLite writer lock makes it seconds.
    Histogram::new(exponential_buckets(0.001, 2.0, 15))
}

impl Metrics {
    pub fn new() -> Metrics {
        let mut registry = Registry::with_prefix("hexpost");
        let requests = Family::<RequestLabels, Counter>::default();
        registry.register(
            "http_requests",
            "HTTP requests by method, matched route pattern and status",
            requests.clone(),
        );
        let move_seconds: HistogramFamily<StatusLabel> =
            Family::new_with_constructor(move_histogram);
        registry.register(
            "move_duration_seconds",
            "Time to answer POST /api/v1/games/{game_id}/moves, by status",
            move_seconds.clone(),
        );
        let games = Family::<StateLabel, Gauge>::default();
        registry.register(
            "games",
            "Games by state (read from the database when scraped)",
            games.clone(),
        );
        let outbox = Family::<StateLabel, Gauge>::default();
        registry.register(
            "outbox_mails",
            "Mails in the outbox by state: pending is the backlog, failed awaits an admin (read from the database when scraped)",
            outbox.clone(),
        );
        let mail_sent = Counter::default();
        registry.register("mail_sent", "Mails this instance sent", mail_sent.clone());
        let mail_attempts_failed = Counter::default();
        registry.register(
            "mail_attempts_failed",
            "Send attempts of this instance that failed (each is retried or ends failed)",
            mail_attempts_failed.clone(),
        );
        let deadline_sweeps = Counter::default();
        registry.register(
            "deadline_sweeps",
            "Sweeps for games past their decision deadline",
            deadline_sweeps.clone(),
        );
        let deadline_actions = Family::<KindLabel, Counter>::default();
        registry.register(
            "deadline_actions",
            "What deadline sweeps did, by kind",
            deadline_actions.clone(),
        );
        let inbound = Family::<InboundLabels, Counter>::default();
        registry.register(
            "inbound_messages",
            "Reply mails at the inbound transports, by transport and what became of them",
            inbound.clone(),
        );
        let game_cache = Family::<UsedLabel, Counter>::default();
        registry.register(
            "game_cache_moves",
            "Moves by how the copy of their game this instance wrote last served them: hit (no read), read_again (stale or refused), miss (none)",
            game_cache.clone(),
        );
        let game_cache_games = Gauge::default();
        registry.register(
            "game_cache_games",
            "Games whose copy this instance keeps (at most GAME_CACHE_SIZE)",
            game_cache_games.clone(),
        );
        let pool_connections = Gauge::default();
        registry.register(
            "db_pool_connections",
            "Open database connections of this instance's pool",
            pool_connections.clone(),
        );
        let pool_idle = Gauge::default();
        registry.register(
            "db_pool_idle_connections",
            "Open connections no request is using",
            pool_idle.clone(),
        );
        let pool_max = Gauge::default();
        registry.register(
            "db_pool_max_connections",
            "The pool's size (DATABASE_POOL_SIZE)",
            pool_max.clone(),
        );
        let database_up = Gauge::default();
        registry.register(
            "database_up",
            "1 when the scrape's database queries succeeded, else 0 (the database gauges then keep their last values)",
            database_up.clone(),
        );
        Metrics {
            registry,
            requests,
            move_seconds,
            games,
            outbox,
            mail_sent,
            mail_attempts_failed,
            deadline_sweeps,
            deadline_actions,
            inbound,
            game_cache,
            game_cache_games,
            game_cache_catch_up: Default::default(),
            pool_connections,
            pool_idle,
            pool_max,
            database_up,
        }
    }

    fn request_done(&self, method: &str, route: &str, status: u16, started: Instant) {
        self.requests
            .get_or_create(&RequestLabels {
                method: method.to_string(),
                route: route.to_string(),
                status,
            })
            .inc();
        if route == MOVE_ROUTE && method == "POST" {
            self.move_seconds
                .get_or_create(&StatusLabel { status })
                .observe(started.elapsed().as_secs_f64());
        }
    }

    /// The mail worker reports each send attempt.
    pub fn mail_attempt(&self, sent: bool) {
        if sent {
            self.mail_sent.inc();
        } else {
            self.mail_attempts_failed.inc();
        }
    }

    /// A deadline sweep finished; `actions` are what it did, by kind (e.g.
    /// `("reminder", 3)`), zero counts included or not.
    pub fn sweep_done<'a>(&self, actions: impl IntoIterator<Item = (&'a str, u64)>) {
        self.deadline_sweeps.inc();
        for (kind, n) in actions {
            self.deadline_actions
                .get_or_create(&KindLabel {
                    kind: kind.to_string(),
                })
                .inc_by(n);
        }
    }

    /// An inbound transport reports each message it dealt with: `outcome`
    /// is `taken`, `deferred`, `refused`, `too_large` or `relay_denied`.
    pub fn inbound_message(&self, via: crate::inbound::Via, outcome: &str) {
        self.inbound
            .get_or_create(&InboundLabels {
                via: format!("{via:?}").to_lowercase(),
                outcome: outcome.to_string(),
            })
            .inc();
    }

    /// Brings the cache's counters up to the counts the cache keeps.
    fn set_game_cache(&self, cache: &GameCache) {
        self.game_cache_games
            .set(i64::try_from(cache.kept()).unwrap_or(i64::MAX));
        let _one_at_a_time = self
            .game_cache_catch_up
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        for used in Used::ALL {
            let counter = self.game_cache.get_or_create(&UsedLabel {
                used: used.label().to_string(),
            });
            counter.inc_by(cache.counted(used).saturating_sub(counter.get()));
        }
    }

    fn set_pool(&self, state: diesel::r2d2::State, max: u32) {
        self.pool_connections.set(state.connections.into());
        self.pool_idle.set(state.idle_connections.into());
        self.pool_max.set(max.into());
    }

    fn set_counts(&self, counts: Option<DbCounts>) {
        let Some(counts) = counts else {
            self.database_up.set(0);
            return;
        };
        self.database_up.set(1);
        set_family(&self.games, &GAME_STATES, &counts.games);
        set_family(&self.outbox, &MAIL_STATES, &counts.outbox);
    }

    /// The text exposition of every metric.
    pub fn encode(&self) -> Result<String, std::fmt::Error> {
        let mut out = String::new();
        prometheus_client::encoding::text::encode(&mut out, &self.registry)?;
        Ok(out)
    }
}

impl Default for Metrics {
    fn default() -> Self {
        Metrics::new()
    }
}

const GAME_STATES: [&str; 5] = [
    games::status::OPEN,
    games::status::ACTIVE,
    games::status::FINISHED,
    games::status::CANCELLED,
    games::status::DECLINED,
];
const MAIL_STATES: [&str; 3] = [
    outbox::status::PENDING,
    outbox::status::SENT,
    outbox::status::FAILED,
];

/// Sets each known state's gauge (0 when the database has none, so a
/// state that empties does not keep its old value) and any other the
/// database holds.
fn set_family(family: &Family<StateLabel, Gauge>, known: &[&str], counts: &[(String, i64)]) {
    let count_of = |state: &str| {
        counts
            .iter()
            .find(|(s, _)| s == state)
            .map_or(0, |(_, n)| *n)
    };
    let states = known
        .iter()
        .map(|s| s.to_string())
        .chain(counts.iter().map(|(s, _)| s.clone()));
    for state in states {
        let n = count_of(&state);
        family.get_or_create(&StateLabel { state }).set(n);
    }
}

struct DbCounts {
    games: Vec<(String, i64)>,
    outbox: Vec<(String, i64)>,
}

fn db_counts(conn: &mut DbConnection) -> StoreResult<DbCounts> {
    Ok(DbCounts {
        games: games::count_by_status(conn)?,
        outbox: outbox::count_by_status(conn)?,
    })
}

/// Counts every request by method, matched route and status, and times moves.
pub async fn middleware(
    req: ServiceRequest,
    next: Next<impl MessageBody>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let started = Instant::now();
    let route = req.match_pattern();
    let method = req.method().to_string();
    let metrics = req
        .app_data::<web::Data<AppState>>()
        .map(|s| s.metrics.clone());
    let result = next.call(req).await;
    if let Some(metrics) = metrics {
        let status = match &result {
            Ok(res) => res.status(),
            Err(e) => e.as_response_error().status_code(),
        };
        let route = route.as_deref().unwrap_or(UNMATCHED);
        metrics.request_done(&method, route, status.as_u16(), started);
    }
    result
}

/// `GET /metrics`. Open unless `METRICS_TOKEN` is set; then it needs
/// `Authorization: Bearer <METRICS_TOKEN>`.
pub async fn endpoint(state: web::Data<AppState>, req: HttpRequest) -> Result<HttpResponse, Error> {
    if let Some(token) = &state.config.metrics_token {
        let given = req
            .headers()
            .get(actix_web::http::header::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .and_then(crate::api::caller::bearer_credentials);
        if !given.is_some_and(|g| same_secret(g.as_bytes(), token.as_bytes())) {
            return Err(Error::unauthorized(
                "/metrics needs Authorization: Bearer <METRICS_TOKEN>",
            ));
        }
    }
    let counts = state
        .db(|conn| db_counts(conn).map_err(Error::from))
        .await
        .inspect_err(|e| tracing::warn!(error = %e, "metrics: database counts unavailable"))
        .ok();
    let metrics = &state.metrics;
    metrics.set_counts(counts);
    metrics.set_pool(state.pool.state(), state.pool.max_size());
    metrics.set_game_cache(&state.games);
    let text = metrics.encode().map_err(Error::internal)?;
    Ok(HttpResponse::Ok().content_type(CONTENT_TYPE).body(text))
}

/// Compares without stopping at the first difference, so the time taken
/// does not tell how much of a guessed token was right.
fn same_secret(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
