//! The pool skips its check for a connection that just worked, so it must
//! still notice connections the database closed: those left idle are
//! checked before they are handed out, and one that failed a request is
//! checked before the next.

use crate::common::{Backend, TempDatabase};
use diesel::prelude::*;
use hexpost::store::{self, DbPool};
use std::time::Duration;

fn answers(pool: &DbPool) -> QueryResult<i32> {
    let mut conn = pool.get().expect("a connection");
    diesel::select(1.into_sql::<diesel::sql_types::Integer>()).get_result(&mut conn)
}

/// Closes every connection to `url`'s database but the caller's own, as a
/// restart or an idle-connection reaper would.
fn close_all(url: &str) {
    let mut admin = PgConnection::establish(url).unwrap();
    let closed: Vec<bool> = diesel::sql_query(
        "SELECT pg_terminate_backend(pid) AS closed FROM pg_stat_activity \
         WHERE datname = current_database() AND pid <> pg_backend_pid()",
    )
    .load::<Closed>(&mut admin)
    .unwrap()
    .into_iter()
    .map(|c| c.closed)
    .collect();
    assert!(
        !closed.is_empty() && closed.iter().all(|c| *c),
        "{closed:?}"
    );
    // Terminating only signals the backends: wait until they are gone.
    let start = std::time::Instant::now();
    loop {
        let left: Vec<Closed> = diesel::sql_query(
            "SELECT true AS closed FROM pg_stat_activity \
             WHERE datname = current_database() AND pid <> pg_backend_pid()",
        )
        .load(&mut admin)
        .unwrap();
        if left.is_empty() {
            return;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "{} backends still open",
            left.len()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[derive(QueryableByName)]
struct Closed {
    #[diesel(sql_type = diesel::sql_types::Bool)]
    closed: bool,
}

fn pool(db: &TempDatabase) -> DbPool {
    let pool = store::connect(&db.url, 3).unwrap();
    // Every connection in use once, so each one is known to have worked.
    let held: Vec<_> = (0..3).map(|_| pool.get().unwrap()).collect();
    drop(held);
    for _ in 0..3 {
        assert_eq!(answers(&pool).unwrap(), 1);
    }
    pool
}

#[test]
fn idle_connections_closed_by_the_database_are_replaced_unseen() {
    let db = TempDatabase::new(Backend::Postgres);
    let pool = pool(&db);
    close_all(&db.url);
    // Past the second a connection that just worked is trusted for
    // (`store::pool`'s TRUSTED_FOR): they are idle, and checked.
    std::thread::sleep(Duration::from_millis(1500));
    for round in 0..10 {
        assert_eq!(answers(&pool).unwrap(), 1, "request {round}");
    }
}

#[test]
fn a_connection_that_failed_is_checked_before_it_is_used_again() {
    let db = TempDatabase::new(Backend::Postgres);
    let pool = pool(&db);
    close_all(&db.url);
    // Within the trusted second, a closed connection may fail one request;
    // after that failure it is checked, found closed and replaced.
    let failures = (0..10).filter(|_| answers(&pool).is_err()).count();
    assert!(failures <= 3, "{failures} of 10 requests failed");
    for round in 0..10 {
        assert_eq!(
            answers(&pool).unwrap(),
            1,
            "request {round} after the failures"
        );
    }
}
