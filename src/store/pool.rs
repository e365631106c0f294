//! The connection pool's manager. r2d2 checks every connection with a
//! round trip (`SELECT 1`) before it hands it out; on a busy server that is
//! one more round trip per request, to learn what the last statement on
//! that connection already showed. So each connection records, through
//! diesel's instrumentation hook, when a statement last succeeded on it and
//! whether one failed since: a connection that worked less than a second
//! ago and has seen no error is handed out as it is; any other is checked
//! first, and one that fails the check is replaced.

use super::DbConnection;
use diesel::connection::{Connection, Instrumentation, InstrumentationEvent};
use diesel::pg::PgConnection;
use diesel::r2d2::{ManageConnection, R2D2Connection};
use diesel::sqlite::SqliteConnection;
use std::time::{Duration, Instant};

/// How long after a successful statement a connection is trusted without
/// a check: long enough to cover back-to-back requests, short enough that
/// the connections left idle when the database restarts are all checked.
const TRUSTED_FOR: Duration = Duration::from_secs(1);

#[derive(Default)]
struct Health {
    last_ok: Option<Instant>,
    failed: bool,
}

impl Health {
    fn trusted(&self) -> bool {
        !self.failed && self.last_ok.is_some_and(|t| t.elapsed() < TRUSTED_FOR)
    }
}

impl Instrumentation for Health {
    fn on_connection_event(&mut self, event: InstrumentationEvent<'_>) {
        if let InstrumentationEvent::FinishQuery { error, .. } = event {
            // Any error counts, a constraint violation too: the check it
            // costs is rare, and telling a lost connection from a refused
            // statement by the error's kind is what we want to avoid.
            match error {
                None => self.last_ok = Some(Instant::now()),
                Some(_) => self.failed = true,
            }
        }
    }
}

fn health(conn: &mut DbConnection) -> Option<&mut Health> {
    conn.instrumentation().downcast_mut::<Health>()
}

/// The database a pool connects to.
#[derive(Debug)]
pub enum Target {
    /// A `postgres://` URL.
    Postgres(String),
    /// An SQLite file's path.
    Sqlite(String),
}

/// Opens connections to the target's own backend. diesel's
/// `MultiConnection` would try each backend in turn and, when PostgreSQL
/// is down, report only that the URL suited none ("Invalid connection url
/// for multiconnection"), hiding the refusal that says what is wrong.
#[derive(Debug)]
pub struct Manager(Target);

impl Manager {
    pub fn new(target: Target) -> Manager {
        Manager(target)
    }
}

impl ManageConnection for Manager {
    type Connection = DbConnection;
    type Error = diesel::r2d2::Error;

    fn connect(&self) -> Result<DbConnection, Self::Error> {
        let mut conn = match &self.0 {
            Target::Postgres(url) => PgConnection::establish(url).map(DbConnection::Pg),
            Target::Sqlite(path) => SqliteConnection::establish(path).map(DbConnection::Sqlite),
        }
        .map_err(diesel::r2d2::Error::ConnectionError)?;
        conn.set_instrumentation(Health::default());
        Ok(conn)
    }

    fn is_valid(&self, conn: &mut DbConnection) -> Result<(), Self::Error> {
        if health(conn).is_some_and(|h| h.trusted()) {
            return Ok(());
        }
        conn.ping().map_err(diesel::r2d2::Error::QueryError)?;
        if let Some(h) = health(conn) {
            h.failed = false;
        }
        Ok(())
    }

    fn has_broken(&self, conn: &mut DbConnection) -> bool {
        std::thread::panicking() || conn.is_broken()
    }
}

/// Logs a failed attempt to open a connection once, as a warning with its
/// cause (r2d2 would log it as an error through the `log` crate): while
/// the database restarts the pool keeps trying, and requests meanwhile
/// get 503.
#[derive(Debug)]
pub struct LogConnectFailure;

impl diesel::r2d2::HandleError<diesel::r2d2::Error> for LogConnectFailure {
    fn handle_error(&self, error: diesel::r2d2::Error) {
        tracing::warn!(error = %error, "opening a database connection failed");
    }
}
