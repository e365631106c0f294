//! Persistence: one diesel code path over PostgreSQL (production) and
//! SQLite (the zero-setup default), a connection pool, and embedded
//! migrations run under an advisory lock on PostgreSQL so several instances
//! can start together.

pub mod account_codes;
pub mod change;
pub mod games;
pub mod inbound_mails;
pub mod outbox;
mod pool;
pub mod retention;
pub mod schema;
pub mod sessions;
pub mod used_jtis;
pub mod users;

use diesel::connection::SimpleConnection;
use diesel::prelude::*;
use diesel::r2d2::{CustomizeConnection, Pool, PooledConnection};
use diesel_migrations::{EmbeddedMigrations, MigrationHarness, embed_migrations};

#[derive(diesel::MultiConnection)]
pub enum DbConnection {
    Pg(PgConnection),
    Sqlite(SqliteConnection),
}

pub type DbPool = Pool<pool::Manager>;
pub type Conn = PooledConnection<pool::Manager>;

const PG_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/postgres");
const SQLITE_MIGRATIONS: EmbeddedMigrations = embed_migrations!("migrations/sqlite");

/// Arbitrary constant identifying hexpost's migration lock.
const MIGRATION_LOCK_KEY: i64 = 0x0068_6578_706f_7374;

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database: {0}")]
    Query(#[from] diesel::result::Error),
    #[error("database connection: {0}")]
    Pool(#[from] diesel::r2d2::PoolError),
    #[error("database connection: {0}")]
    Connect(String),
    #[error("migrations: {0}")]
    Migration(String),
    #[error("stored data is corrupt: {0}")]
    Corrupt(String),
}

pub type StoreResult<T> = Result<T, StoreError>;

/// A use case meets a database failure as a server-side failure, or, when
/// the database cannot be reached (down, restarting, the connection lost),
/// as `503 unavailable` with `Retry-After`: the request may be sent again.
impl From<StoreError> for crate::error::Error {
    fn from(e: StoreError) -> Self {
        let unreachable = match &e {
            StoreError::Query(q) => connection_lost(q),
            StoreError::Pool(_) | StoreError::Connect(_) => true,
            StoreError::Migration(_) | StoreError::Corrupt(_) => false,
        };
        if unreachable {
            unavailable(e)
        } else {
            crate::error::Error::internal(e)
        }
    }
}

impl From<diesel::result::Error> for crate::error::Error {
    fn from(e: diesel::result::Error) -> Self {
        if connection_lost(&e) {
            unavailable(e)
        } else {
            crate::error::Error::internal(e)
        }
    }
}

/// Whether a statement failed because the connection did, not the
/// statement: PostgreSQL closed it (a restart terminates every session),
/// it could not be sent, or the server reported a connection exception.
pub fn connection_lost(e: &diesel::result::Error) -> bool {
    use diesel::result::{DatabaseErrorKind as K, Error as E};
    matches!(
        e,
        E::DatabaseError(K::ClosedConnection | K::UnableToSendCommand, _)
    )
}

/// The database is out of reach: the client is told to retry, the log
/// gets the cause.
pub fn unavailable(cause: impl std::fmt::Display) -> crate::error::Error {
    tracing::warn!(error = %cause, "database unavailable");
    crate::error::Error::unavailable("the database is unavailable; retry later")
}

#[derive(Debug)]
struct SqlitePragmas;

impl CustomizeConnection<DbConnection, diesel::r2d2::Error> for SqlitePragmas {
    fn on_acquire(&self, conn: &mut DbConnection) -> Result<(), diesel::r2d2::Error> {
        if let DbConnection::Sqlite(c) = conn {
            // WAL lets readers run beside the writer; the busy timeout makes
            // writers queue instead of failing at once. It comes first: the
            // pool opens its connections together, and switching a new
            // file to WAL takes a lock the others must wait for.
            c.batch_execute("PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;")
                .map_err(diesel::r2d2::Error::QueryError)?;
        }
        Ok(())
    }
}

/// How long a request waits for a pooled connection unless told otherwise
/// (`DATABASE_CHECKOUT_TIMEOUT_MS`).
pub const DEFAULT_CHECKOUT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(2);

/// Opens a pool whose checkouts wait `DEFAULT_CHECKOUT_TIMEOUT` at most.
pub fn connect(database_url: &str, size: u32) -> StoreResult<DbPool> {
    connect_waiting(database_url, size, DEFAULT_CHECKOUT_TIMEOUT)
}

/// Opens a pool of `size` connections whose checkouts wait `checkout` at
/// most: when the database is down, a request fails after that long
/// (503) instead of r2d2's 30 s. For SQLite the file and its directory
/// are created if missing, private to the server's user (`private_files`).
pub fn connect_waiting(
    database_url: &str,
    size: u32,
    checkout: std::time::Duration,
) -> StoreResult<DbPool> {
    let target = if let Some(path) = database_url.strip_prefix("sqlite://") {
        let file = std::path::Path::new(path);
        if let Some(dir) = file.parent()
            && !dir.as_os_str().is_empty()
        {
            crate::private_files::create_dir(dir)
                .map_err(|e| StoreError::Connect(format!("{}: {e}", dir.display())))?;
        }
        // The database holds password hashes and invitation tokens' hashes:
        // the file is created private, and SQLite gives its write-ahead
        // files the same mode.
        crate::private_files::ensure(file)
            .map_err(|e| StoreError::Connect(format!("{}: {e}", file.display())))?;
        for suffix in ["-wal", "-shm"] {
            let mut side = file.as_os_str().to_owned();
            side.push(suffix);
            crate::private_files::narrow(std::path::Path::new(&side))
                .map_err(|e| StoreError::Connect(format!("{}: {e}", file.display())))?;
        }
        // WAL is a property of the file: switched once here, on a single
        // connection, the pool's connections find it set and need no
        // exclusive lock for it (which they would otherwise contend for
        // while the pool opens them all at once).
        SqliteConnection::establish(path)
            .map_err(|e| StoreError::Connect(e.to_string()))?
            .batch_execute("PRAGMA busy_timeout = 10000; PRAGMA journal_mode = WAL;")
            .map_err(|e| StoreError::Connect(e.to_string()))?;
        pool::Target::Sqlite(path.to_string())
    } else {
        pool::Target::Postgres(database_url.to_string())
    };
    Pool::builder()
        .max_size(size)
        .connection_timeout(checkout)
        .error_handler(Box::new(pool::LogConnectFailure))
        .connection_customizer(Box::new(SqlitePragmas))
        .build(pool::Manager::new(target))
        .map_err(|e| StoreError::Connect(e.to_string()))
}

/// Runs pending migrations; returns how many ran.
pub fn migrate(conn: &mut DbConnection) -> StoreResult<usize> {
    let mig = |e: Box<dyn std::error::Error + Send + Sync>| StoreError::Migration(e.to_string());
    match conn {
        DbConnection::Pg(pg) => {
            pg.batch_execute(&format!("SELECT pg_advisory_lock({MIGRATION_LOCK_KEY})"))?;
            let ran = pg
                .run_pending_migrations(PG_MIGRATIONS)
                .map(|v| v.len())
                .map_err(mig);
            pg.batch_execute(&format!("SELECT pg_advisory_unlock({MIGRATION_LOCK_KEY})"))?;
            ran
        }
        DbConnection::Sqlite(lite) => lite
            .run_pending_migrations(SQLITE_MIGRATIONS)
            .map(|v| v.len())
            .map_err(mig),
    }
}

/// Reverts every migration (tests check that each down.sql undoes its up.sql).
pub fn revert_all(conn: &mut DbConnection) -> StoreResult<()> {
    let mig = |e: Box<dyn std::error::Error + Send + Sync>| StoreError::Migration(e.to_string());
    match conn {
        DbConnection::Pg(pg) => pg
            .revert_all_migrations(PG_MIGRATIONS)
            .map(|_| ())
            .map_err(mig),
        DbConnection::Sqlite(lite) => lite
            .revert_all_migrations(SQLITE_MIGRATIONS)
            .map(|_| ())
            .map_err(mig),
    }
}

/// Runs `f` in a write transaction that holds the database's write lock
/// from its first statement: `BEGIN IMMEDIATE` on SQLite (a deferred
/// transaction could fail when upgrading to a writer); an ordinary
/// transaction on PostgreSQL, where callers lock the rows they change.
pub fn write_tx<T, E>(
    conn: &mut DbConnection,
    f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    match conn {
        DbConnection::Pg(_) => conn.transaction(f),
        DbConnection::Sqlite(_) => {
            conn.batch_execute("BEGIN IMMEDIATE")?;
            match f(conn) {
                Ok(v) => {
                    conn.batch_execute("COMMIT")?;
                    Ok(v)
                }
                Err(e) => {
                    conn.batch_execute("ROLLBACK")?;
                    Err(e)
                }
            }
        }
    }
}

/// Runs `f`'s reads in one snapshot, so what one statement reads agrees
/// with what the next reads (a game row and the log rows it decides the
/// redaction of): a read-only `REPEATABLE READ` transaction on
/// PostgreSQL; on SQLite a deferred transaction, whose first read fixes
/// what every later one sees.
pub fn read_snapshot<T, E>(
    conn: &mut DbConnection,
    f: impl FnOnce(&mut DbConnection) -> Result<T, E>,
) -> Result<T, E>
where
    E: From<diesel::result::Error>,
{
    let pg = matches!(conn, DbConnection::Pg(_));
    conn.transaction(|conn| {
        if pg {
            conn.batch_execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")?;
        }
        f(conn)
    })
}

pub fn now_ms() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_millis() as i64)
        .unwrap_or(0)
}

/// True when the database answers.
pub fn ping(conn: &mut DbConnection) -> bool {
    conn.batch_execute("SELECT 1").is_ok()
}
