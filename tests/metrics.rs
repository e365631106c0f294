//! `GET /metrics`: request counts by matched route, the move latency
//! histogram, games and mails by state from the database, the pool, and
//! the optional bearer token.

use crate::common::{self, BACKENDS, Backend, TestServer, metric_sample};
use serde_json::json;

const MOVES: &str = "/api/v1/games/{game_id}/moves";

#[test]
fn requests_moves_games_and_the_pool_show_in_the_metrics() {
    for backend in BACKENDS {
        // Mails stay queued: the worker first looks in an hour.
        let server = TestServer::start_with(backend, &[("MAIL_POLL_INTERVAL_MS", "3600000")]);
        let before = server.metrics();
        let posted = |text: &str, status: &str| {
            metric_sample(
                text,
                "hexpost_http_requests_total",
                &[("method", "POST"), ("route", MOVES), ("status", status)],
            )
            .unwrap_or(0.0)
        };
        assert_eq!(posted(&before, "200"), 0.0, "{backend:?}");
        assert_eq!(
            metric_sample(&before, "hexpost_games", &[("state", "active")]),
            Some(0.0)
        );

        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let made = common::play_moves([&a, &b], &id, 3, 2);
        assert_eq!(made, 2);
        a.submit(&id, 0, &json!({"type": "end_turn"}))
            .problem(409, "stale_move");
        api.get("/api/v1/no/such/route").problem(404, "not_found");

        let after = server.metrics();
        assert_eq!(posted(&after, "200"), 2.0, "{backend:?}\n{after}");
        assert_eq!(posted(&after, "409"), 1.0, "{backend:?}");
        assert_eq!(
            metric_sample(
                &after,
                "hexpost_move_duration_seconds_count",
                &[("status", "200")]
            ),
            Some(2.0)
        );
        assert!(
            metric_sample(
                &after,
                "hexpost_http_requests_total",
                &[("route", "/api/v1/games/{game_id}"), ("method", "GET")]
            )
            .is_some_and(|n| n >= 4.0),
            "{after}"
        );
        // Raw paths never become labels: no game id, no unknown path.
        assert!(!after.contains(&id), "{after}");
        assert!(!after.contains("/api/v1/no/such/route"));
        assert_eq!(
            metric_sample(
                &after,
                "hexpost_http_requests_total",
                &[("route", "unmatched"), ("status", "404")]
            ),
            Some(1.0)
        );
        assert_eq!(
            metric_sample(&after, "hexpost_games", &[("state", "active")]),
            Some(1.0)
        );
        assert_eq!(
            metric_sample(&after, "hexpost_games", &[("state", "open")]),
            Some(0.0)
        );
        // The invitation and acceptance mails (and maybe a turn mail).
        assert!(
            metric_sample(&after, "hexpost_outbox_mails", &[("state", "pending")])
                .is_some_and(|n| n >= 2.0),
            "{after}"
        );
        assert_eq!(
            metric_sample(&after, "hexpost_outbox_mails", &[("state", "failed")]),
            Some(0.0)
        );
        assert_eq!(metric_sample(&after, "hexpost_database_up", &[]), Some(1.0));
        assert_eq!(
            metric_sample(&after, "hexpost_db_pool_max_connections", &[]),
            Some(8.0)
        );
        let open = metric_sample(&after, "hexpost_db_pool_connections", &[]).unwrap();
        let idle = metric_sample(&after, "hexpost_db_pool_idle_connections", &[]).unwrap();
        assert!((1.0..=8.0).contains(&open) && idle <= open, "{after}");
        // Registered for the deadline sweeper, and zero until it runs.
        assert_eq!(
            metric_sample(&after, "hexpost_deadline_sweeps_total", &[]),
            Some(0.0)
        );

        // A resignation finishes the game.
        a.post(&format!("/api/v1/games/{id}/resign"), &json!({}))
            .ok();
        let last = server.metrics();
        assert_eq!(
            metric_sample(&last, "hexpost_games", &[("state", "finished")]),
            Some(1.0)
        );
        assert_eq!(
            metric_sample(&last, "hexpost_games", &[("state", "active")]),
            Some(0.0)
        );
    }
}

#[test]
fn a_metrics_token_is_required_once_set() {
    let server = TestServer::start_with(
        Backend::Sqlite,
        &[("METRICS_TOKEN", "scrape-secret-0123456789")],
    );
    let api = server.client();
    api.get("/metrics").problem(401, "unauthorized");
    api.with_token("wrong-secret-0123456789ab")
        .get("/metrics")
        .problem(401, "unauthorized");
    let ok = api.with_token("scrape-secret-0123456789").get("/metrics");
    assert_eq!(ok.status, 200);
    assert!(
        ok.body
            .as_str()
            .is_some_and(|t| t.contains("hexpost_http_requests_total")),
        "{}",
        ok.body
    );
    // The scheme's name is case-insensitive (RFC 7235).
    let lower = api.request(
        "GET",
        "/metrics",
        &[("authorization", "bearer scrape-secret-0123456789")],
    );
    assert_eq!(lower.status, 200, "{}", lower.body);
}

#[test]
fn the_sweeper_api_counts_sweeps_and_actions_by_kind() {
    let metrics = hexpost::metrics::Metrics::new();
    metrics.sweep_done([("reminder", 2), ("timeout", 1)]);
    metrics.sweep_done([("reminder", 1)]);
    let text = metrics.encode().unwrap();
    assert_eq!(
        metric_sample(&text, "hexpost_deadline_sweeps_total", &[]),
        Some(2.0)
    );
    assert_eq!(
        metric_sample(
            &text,
            "hexpost_deadline_actions_total",
            &[("kind", "reminder")]
        ),
        Some(3.0)
    );
    assert_eq!(
        metric_sample(
            &text,
            "hexpost_deadline_actions_total",
            &[("kind", "timeout")]
        ),
        Some(1.0)
    );
}
