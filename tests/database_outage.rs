//! While PostgreSQL is down or restarting, requests get `503 unavailable`
//! with `Retry-After` within the pool's checkout time (never 500, never a
//! 30 s wait), `/readyz` says not ready, and once the database is back the
//! server serves again with every acknowledged move kept. The outage is
//! real at the socket: the server reaches PostgreSQL through a forwarder
//! that closes its connections and refuses new ones.

use crate::common::outage::Forwarder;
use crate::common::{self, Backend, Reply, TestServer, game};
use serde_json::{Value, json};
use std::time::{Duration, Instant};

/// `host:port` of the PostgreSQL the tests use.
fn pg_address() -> String {
    let url = common::pg_admin_url();
    let rest = url.split_once("://").unwrap().1;
    let authority = rest.split('/').next().unwrap();
    authority.rsplit('@').next().unwrap().to_string()
}

fn assert_unavailable(r: &Reply, what: &str) {
    assert_eq!(r.status, 503, "{what}: {} {}", r.status, r.body);
    r.problem(503, "unavailable");
    let retry = r.headers.get("retry-after").map(|v| v.to_str().unwrap());
    assert_eq!(retry, Some("5"), "{what}");
}

/// A legal action for whoever is awaited: (their client, the action).
fn a_move<'a>(players: [&'a common::Api; 2], id: &str) -> (&'a common::Api, i64, Value) {
    for p in players {
        let view = game(p, id);
        if view["awaiting_you"] == true {
            let legal: Vec<hexpost_engine::LegalAction> =
                serde_json::from_value(view["legal_actions"].clone()).unwrap();
            let mut rng = hexpost_engine::rng::GameRng::from_seed(7);
            let action = common::choose(&view["view"], &legal, &mut rng);
            return (
                p,
                view["move_number"].as_i64().unwrap(),
                serde_json::to_value(action).unwrap(),
            );
        }
    }
    panic!("nobody is awaited");
}

#[test]
fn while_the_database_is_down_requests_get_503_and_it_is_not_ready() {
    let proxy = Forwarder::start(&pg_address());
    let server = TestServer::start_through(
        Backend::Postgres,
        &[("DATABASE_CHECKOUT_TIMEOUT_MS", "500")],
        |url| proxy.route(url),
    );
    let api = server.client();
    let (a, b, id) = api.new_game("standard", json!({}));
    let (p, n, action) = a_move([&a, &b], &id);
    assert_eq!(p.submit(&id, n, &action).ok()["move_number"], n + 1);
    let path = format!("/api/v1/games/{id}");
    // The pool's connections have just worked: it hands them out unchecked.
    a.get(&path).ok();
    api.get("/readyz").ok();

    proxy.cut();
    let down = Instant::now();
    let (p, n, action) = (p, n + 1, action);
    assert_unavailable(&a.get(&path), "a read on a connection the database closed");
    assert_unavailable(&p.submit(&id, n, &action), "a move");
    assert_unavailable(&a.get(&format!("{path}/log")), "the log");
    assert_unavailable(&api.get("/readyz"), "readiness");
    assert_eq!(api.get("/healthz").status, 200, "the process itself is up");
    // Four requests, each waiting 0.5 s at most for a connection (r2d2's
    // default would be 30 s each).
    let took = down.elapsed();
    assert!(took < Duration::from_secs(10), "the answers took {took:?}");

    proxy.restore();
    let back = Instant::now();
    while api.get("/readyz").status != 200 {
        assert!(
            back.elapsed() < Duration::from_secs(30),
            "not ready 30 s after the database came back"
        );
        std::thread::sleep(Duration::from_millis(100));
    }
    // The acknowledged move is there, and the game goes on.
    assert_eq!(game(&a, &id)["move_number"], n);
    let (p, n, action) = a_move([&a, &b], &id);
    assert_eq!(p.submit(&id, n, &action).ok()["move_number"], n + 1);
}

/// A pool that cannot reach PostgreSQL says why, not that the URL suits no
/// backend (diesel's MultiConnection tried SQLite on it too).
#[test]
fn a_database_that_refuses_connections_is_named_as_the_cause() {
    let port = common::smtp::free_port();
    let url = format!("postgres://postgres@127.0.0.1:{port}/nothing");
    let error = hexpost::store::connect_waiting(&url, 1, Duration::from_millis(300))
        .expect_err("nothing listens there")
        .to_string();
    assert!(!error.contains("multiconnection"), "{error}");
    assert!(error.contains("refused"), "{error}");
}
