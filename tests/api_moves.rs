//! Submitting moves over HTTP, on SQLite and PostgreSQL: stale move numbers,
//! idempotent retries, real concurrent duplicates, and a move that meets
//! another write of its game. Signed moves are in `signed_moves.rs`.

use crate::common::moves::{a_legal_move, awaited, move_number, rows_after};
use crate::common::{self, Api, BACKENDS, TestServer, game};
use serde_json::{Value, json};
use std::sync::{Arc, Barrier};

#[test]
fn a_stale_move_gets_409_with_the_current_game() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let (p, q, view) = awaited([&a, &b], &id);
        let n = view["move_number"].as_i64().unwrap();
        let first = a_legal_move(&view);
        p.submit(&id, n, &first).ok();
        // The same move again, now stale; and a move number from the future.
        for (who, expected) in [(p, n), (p, n - 1), (p, n + 2), (q, n), (q, 0)] {
            let r = who.submit(&id, expected, &first);
            let body = r.problem(409, "stale_move").clone();
            assert_eq!(body["current_move_number"], n + 1, "{body}");
            // The current game, as the caller sees it.
            let current = game(who, &id);
            assert_eq!(body["game"], current, "{backend:?}");
            assert_eq!(body["game"]["move_number"], n + 1);
            assert_eq!(body["game"]["id"], id.as_str());
            assert_eq!(body["game"]["view"]["viewer"], current["your_seat"]);
        }
        assert_eq!(move_number(&a, &id), n + 1);
        assert_eq!(rows_after(&a, &id, n).len(), 1);
        // The stale check comes after the legality of the body, but before
        // the engine: an illegal action with a stale number is still stale.
        q.submit(&id, n, &json!({"type": "end_turn"}))
            .problem(409, "stale_move");
    }
}

#[test]
fn a_move_number_no_game_can_be_at_is_bad_input_not_a_stale_move() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let (p, _, view) = awaited([&a, &b], &id);
        let n = view["move_number"].as_i64().unwrap();
        let action = a_legal_move(&view);
        let path = format!("/api/v1/games/{id}/moves");
        for bad in [
            json!(-1),
            json!(-1.0),
            json!(i64::MIN),
            json!(1.5),
            json!(-0.5),
            json!(1e300),
            json!("one"),
            json!(true),
            json!([n]),
        ] {
            let body = json!({"expected_move_number": bad, "action": action});
            let problem = p
                .post(&path, &body)
                .problem(400, "invalid_move_number")
                .clone();
            let detail = problem["detail"].as_str().unwrap();
            assert!(detail.contains("whole number ≥ 0"), "{backend:?}: {detail}");
        }
        assert_eq!(
            move_number(&a, &id),
            n,
            "{backend:?}: a refused move moved the game"
        );
        assert!(rows_after(&a, &id, n).is_empty());
        // A whole number written as a float is still the move number.
        let body = json!({"expected_move_number": n as f64, "action": action});
        p.post(&path, &body).ok();
        assert_eq!(move_number(&a, &id), n + 1);
    }
}

#[test]
fn idempotent_retries_apply_once() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let (p, q, view) = awaited([&a, &b], &id);
        let n = view["move_number"].as_i64().unwrap();
        let path = format!("/api/v1/games/{id}/moves");
        let body = json!({"expected_move_number": n, "action": a_legal_move(&view)});
        let key = [("Idempotency-Key", "move-1.retry-safe")];

        let first = p.post_with(&path, &body, &key);
        let first_body = first.ok().clone();
        assert_eq!(first_body["move_number"], n + 1);
        let second = p.post_with(&path, &body, &key);
        assert_eq!(second.status, 200, "{}", second.body);
        assert_eq!(second.body, first_body, "{backend:?}: the retry differs");
        assert_eq!(move_number(&a, &id), n + 1, "applied twice");
        let rows = rows_after(&a, &id, n);
        assert_eq!(rows.len(), 1, "{rows:?}");
        assert_eq!(rows[0]["seq"], n + 1);
        assert_eq!(rows[0]["action"], body["action"]);

        // The same key with another body.
        let (_, _, now) = awaited([&a, &b], &id);
        let other = json!({"expected_move_number": n + 1, "action": a_legal_move(&now)});
        p.post_with(&path, &other, &key)
            .problem(422, "idempotency_key_reused");
        assert_eq!(move_number(&a, &id), n + 1);
        // Keys belong to their user: the opponent's use of it is a new request.
        q.post_with(&path, &body, &key).problem(409, "stale_move");
        // The retry still answers the original after the game moved on.
        p.submit(&id, n + 1, &other["action"]).ok();
        let late = p.post_with(&path, &body, &key);
        assert_eq!(late.status, 200);
        assert_eq!(late.body, first_body);
        assert_eq!(move_number(&a, &id), n + 2);
        assert_eq!(rows_after(&a, &id, n).len(), 2);
        // Bad keys.
        let long = "k".repeat(201);
        for bad in ["", long.as_str(), "with space"] {
            p.post_with(&path, &body, &[("Idempotency-Key", bad)])
                .problem(400, "invalid_idempotency_key");
        }
        // 200 characters is fine (and is a fresh key: this one is stale).
        p.post_with(&path, &body, &[("Idempotency-Key", &"k".repeat(200))])
            .problem(409, "stale_move");
    }
}

/// Fires `n` copies of the same move at once from separate clients; returns
/// (status, body) of each.
fn fire(api: &Api, id: &str, body: &Value, keys: &[Option<String>]) -> Vec<(u16, Value)> {
    let barrier = Arc::new(Barrier::new(keys.len()));
    let handles: Vec<_> = keys
        .iter()
        .cloned()
        .map(|key| {
            let barrier = barrier.clone();
            let client = Api {
                http: reqwest::blocking::Client::builder()
                    .timeout(std::time::Duration::from_secs(60))
                    .build()
                    .unwrap(),
                ..api.clone()
            };
            let (id, body) = (id.to_string(), body.clone());
            std::thread::spawn(move || {
                let path = format!("/api/v1/games/{id}/moves");
                let headers: Vec<(&str, &str)> = key
                    .as_deref()
                    .map(|k| vec![("Idempotency-Key", k)])
                    .unwrap_or_default();
                // Connect first, so the requests leave together.
                client.get("/healthz");
                barrier.wait();
                let r = client.post_with(&path, &body, &headers);
                (r.status, r.body)
            })
        })
        .collect();
    handles.into_iter().map(|h| h.join().unwrap()).collect()
}

#[test]
fn concurrent_duplicate_moves_apply_once() {
    const N: usize = 8;
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));

        // Without keys: one wins, the others are stale.
        let (p, _, view) = awaited([&a, &b], &id);
        let n = view["move_number"].as_i64().unwrap();
        let body = json!({"expected_move_number": n, "action": a_legal_move(&view)});
        let results = fire(p, &id, &body, &vec![None; N]);
        let ok: Vec<_> = results.iter().filter(|(s, _)| *s == 200).collect();
        assert_eq!(ok.len(), 1, "{backend:?}: {results:?}");
        assert_eq!(ok[0].1["move_number"], n + 1);
        for (status, body) in results.iter().filter(|(s, _)| *s != 200) {
            assert_eq!(*status, 409, "{body}");
            assert_eq!(body["code"], "stale_move", "{body}");
            assert_eq!(body["current_move_number"], n + 1, "{body}");
        }
        assert_eq!(move_number(&a, &id), n + 1);
        assert_eq!(rows_after(&a, &id, n).len(), 1);

        // Distinct keys: still one move.
        let (p, _, view) = awaited([&a, &b], &id);
        let n = view["move_number"].as_i64().unwrap();
        let body = json!({"expected_move_number": n, "action": a_legal_move(&view)});
        let keys: Vec<_> = (0..N).map(|i| Some(format!("distinct-{i}"))).collect();
        let results = fire(p, &id, &body, &keys);
        assert_eq!(
            results.iter().filter(|(s, _)| *s == 200).count(),
            1,
            "{backend:?}: {results:?}"
        );
        assert!(
            results
                .iter()
                .all(|(s, b)| *s == 200 || b["code"] == "stale_move"),
            "{results:?}"
        );
        assert_eq!(move_number(&a, &id), n + 1);
        assert_eq!(rows_after(&a, &id, n).len(), 1);

        // One key for all: every request gets the one response.
        let (p, _, view) = awaited([&a, &b], &id);
        let n = view["move_number"].as_i64().unwrap();
        let body = json!({"expected_move_number": n, "action": a_legal_move(&view)});
        let results = fire(p, &id, &body, &vec![Some("the-one-key".into()); N]);
        assert!(
            results.iter().all(|(s, _)| *s == 200),
            "{backend:?}: {results:?}"
        );
        assert!(results.iter().all(|(_, b)| *b == results[0].1));
        assert_eq!(results[0].1["move_number"], n + 1);
        assert_eq!(move_number(&a, &id), n + 1);
        assert_eq!(rows_after(&a, &id, n).len(), 1);

        // The log is intact.
        let (root, _) = common::register_admin(&server, &format!("root{backend:?}").to_lowercase());
        let report = root.get(&format!("/api/v1/admin/games/{id}/verify"));
        assert_eq!(report.ok()["ok"], true, "{}", report.body);
        assert_eq!(report.body["rows_checked"], n + 1);
    }
}

#[test]
fn an_unchanged_game_answers_304_to_its_etag() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (a, b, id) = server.client().new_game("standard", json!({}));
        let path = format!("/api/v1/games/{id}");
        let first = a.get(&path);
        assert_eq!(first.status, 200);
        let tag = first.headers["etag"].to_str().unwrap().to_string();
        assert!(tag.starts_with('"') && tag.ends_with('"'), "{tag}");

        // Unchanged: 304, no body, the same tag; a list of tags works too.
        for header in [tag.clone(), format!("\"other\", {tag}")] {
            let again = a.request("GET", &path, &[("if-none-match", &header)]);
            assert_eq!(again.status, 304, "{backend:?}");
            assert_eq!(again.body, Value::String(String::new()));
            assert_eq!(again.headers["etag"].to_str().unwrap(), tag);
        }
        // The other player's answer is another (their own view).
        let theirs = b.request("GET", &path, &[("if-none-match", &tag)]);
        assert_eq!(
            theirs.status, 200,
            "a tag never serves another player's view"
        );

        // A move changes the game: 200 with a new tag.
        let (mover, _, view) = awaited([&a, &b], &id);
        mover
            .submit(
                &id,
                view["move_number"].as_i64().unwrap(),
                &a_legal_move(&view),
            )
            .ok();
        let after = a.request("GET", &path, &[("if-none-match", &tag)]);
        assert_eq!(after.status, 200, "{backend:?}");
        assert_ne!(after.headers["etag"].to_str().unwrap(), tag);
        // A problem is never a 304, whatever the tag.
        server
            .client()
            .request("GET", &path, &[("if-none-match", "*")])
            .problem(401, "unauthorized");
    }
}

/// A move that meets another write of the game row between its read and
/// its write (here a change of both clocks, as a vacation makes, holding
/// the row lock meanwhile) reads the game again: the move applies, and
/// the other change is kept rather than overwritten with what the move
/// first read. PostgreSQL only: there the test can see the move wait.
#[test]
fn a_move_that_meets_another_write_reads_again_and_keeps_it() {
    use diesel::connection::SimpleConnection;
    use diesel::prelude::*;
    use hexpost::store::games as db;
    use hexpost::store::schema::games;

    let server = TestServer::start(common::Backend::Postgres);
    let api = server.client();
    let (a, b, id) = api.new_game("standard", json!({}));
    let (p, _, view) = awaited([&a, &b], &id);
    let n = view["move_number"].as_i64().unwrap();
    let action = a_legal_move(&view);
    let pool = server.db();
    let mut holder = pool.get().unwrap();
    let mut watcher = pool.get().unwrap();
    let before = db::get(&mut holder, &id).unwrap().unwrap();
    let mut clocks: Value = serde_json::from_str(&before.clocks).unwrap();
    for seat in 0..2 {
        clocks["seats"][seat]["vacation_left_ms"] = 4242.into();
    }

    holder.batch_execute("BEGIN").unwrap();
    diesel::update(games::table.find(&id))
        .set((
            games::clocks.eq(clocks.to_string()),
            games::version.eq(games::version + 1),
        ))
        .execute(&mut *holder)
        .unwrap();
    let reply = std::thread::scope(|s| {
        let mover = s.spawn(|| p.submit(&id, n, &action));
        // The move read the committed row; its write now waits for ours.
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(20);
        loop {
            let waiting: i64 = diesel::dsl::sql::<diesel::sql_types::BigInt>(
                "SELECT count(*) FROM pg_stat_activity \
                 WHERE datname = current_database() AND wait_event_type = 'Lock'",
            )
            .get_result(&mut *watcher)
            .unwrap();
            if waiting > 0 {
                break;
            }
            assert!(
                std::time::Instant::now() < deadline,
                "the move never waited for the row lock"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
        holder.batch_execute("COMMIT").unwrap();
        mover.join().unwrap()
    });

    assert_eq!(reply.ok()["move_number"], n + 1, "{}", reply.body);
    let after = db::get(&mut watcher, &id).unwrap().unwrap();
    assert_eq!(after.move_number, n + 1);
    assert_eq!(after.version, before.version + 2);
    let kept: Value = serde_json::from_str(&after.clocks).unwrap();
    for seat in 0..2 {
        assert_eq!(kept["seats"][seat]["vacation_left_ms"], 4242, "{kept}");
    }
}

/// On PostgreSQL a game's state stays in its row through a game: a move
/// rewrites one row, not also a TOAST row and its index entry.
#[test]
fn the_game_state_stays_in_the_game_row() {
    use diesel::prelude::*;
    use diesel::sql_types::{BigInt, Text};

    let server = TestServer::start(common::Backend::Postgres);
    let api = server.client();
    let (a, b, id) = api.new_game("standard", json!({}));
    common::play_moves([&a, &b], &id, 7, 80);
    let mut conn = server.db().get().unwrap();
    let hexpost::store::DbConnection::Pg(pg) = &mut *conn else {
        unreachable!("a PostgreSQL server")
    };
    // Big enough that PostgreSQL's default would have moved it out.
    let state_bytes: i64 = diesel::dsl::sql::<BigInt>(&format!(
        "SELECT octet_length(state)::bigint FROM games WHERE id = '{id}'"
    ))
    .get_result(pg)
    .unwrap();
    assert!(state_bytes > 2500, "a state of {state_bytes} bytes");
    let toast: String = diesel::dsl::sql::<Text>(
        "SELECT reltoastrelid::regclass::text FROM pg_class WHERE relname = 'games'",
    )
    .get_result(pg)
    .unwrap();
    let moved_out: i64 = diesel::dsl::sql::<BigInt>(&format!("SELECT count(*) FROM {toast}"))
        .get_result(pg)
        .unwrap();
    assert_eq!(moved_out, 0, "game rows with a state in {toast}");
}

/// This instance's count of moves that its game cache served as `used`.
fn cache_count(server: &TestServer, used: &str) -> u64 {
    common::metric_sample(
        &server.metrics(),
        "hexpost_game_cache_moves_total",
        &[("used", used)],
    )
    .map_or(0, |n| n as u64)
}

/// How many games this instance keeps a copy of.
fn games_kept(server: &TestServer) -> u64 {
    common::metric_sample(&server.metrics(), "hexpost_game_cache_games", &[])
        .expect("the gauge is always served") as u64
}

/// The moves after the first start from the copy the instance wrote; a
/// copy made stale behind its back (another instance, a reminder) costs
/// the move a read, and the other write is kept.
#[test]
fn moves_start_from_the_copy_written_last_and_a_stale_copy_is_read_again() {
    use diesel::prelude::*;
    use hexpost::store::games as db;
    use hexpost::store::schema::games;

    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        for _ in 0..3 {
            let (p, _, view) = awaited([&a, &b], &id);
            let n = view["move_number"].as_i64().unwrap();
            p.submit(&id, n, &a_legal_move(&view)).ok();
        }
        assert_eq!(cache_count(&server, "miss"), 1, "{backend:?}");
        assert_eq!(cache_count(&server, "hit"), 2, "{backend:?}");
        assert_eq!(cache_count(&server, "read_again"), 0, "{backend:?}");
        assert_eq!(games_kept(&server), 1, "{backend:?}");

        // Another writer changes the game behind the instance's back.
        let mut conn = server.db().get().unwrap();
        let before = db::get(&mut conn, &id).unwrap().unwrap();
        let mut clocks: Value = serde_json::from_str(&before.clocks).unwrap();
        clocks["seats"][0]["vacation_left_ms"] = 4242.into();
        diesel::update(games::table.find(&id))
            .set((
                games::clocks.eq(clocks.to_string()),
                games::version.eq(games::version + 1),
            ))
            .execute(&mut *conn)
            .unwrap();

        let (p, _, view) = awaited([&a, &b], &id);
        let n = view["move_number"].as_i64().unwrap();
        p.submit(&id, n, &a_legal_move(&view)).ok();
        assert_eq!(cache_count(&server, "read_again"), 1, "{backend:?}");
        let after = db::get(&mut conn, &id).unwrap().unwrap();
        assert_eq!(after.move_number, n + 1);
        assert_eq!(after.version, before.version + 2, "{backend:?}");
        let kept: Value = serde_json::from_str(&after.clocks).unwrap();
        assert_eq!(
            kept["seats"][0]["vacation_left_ms"], 4242,
            "{backend:?}: {kept}"
        );
        // And the copy written by that move serves the next one again.
        let (p, _, view) = awaited([&a, &b], &id);
        p.submit(&id, n + 1, &a_legal_move(&view)).ok();
        assert_eq!(cache_count(&server, "hit"), 3, "{backend:?}");
        assert_eq!(games_kept(&server), 1, "{backend:?}");

        // A game that ends keeps no copy.
        a.post(&format!("/api/v1/games/{id}/resign"), &json!({}))
            .ok();
        assert_eq!(games_kept(&server), 0, "{backend:?}");
    }
}

/// Two instances on one PostgreSQL database: a move the first instance's
/// copy would accept, after the second instance applied it already, is
/// stale, not applied twice; and a refused move is refused by the database's
/// game, not the copy's.
#[test]
fn a_copy_made_stale_by_another_instance_does_not_apply_or_refuse_a_move() {
    let one = TestServer::start(common::Backend::Postgres);
    let two = TestServer::start_with(
        common::Backend::Postgres,
        &[("DATABASE_URL", one.database_url.as_str())],
    );
    let api = one.client();
    let (a, b, id) = api.new_game("standard", json!({}));
    let via_two = |api: &Api| Api {
        base: two.base.clone(),
        ..api.clone()
    };
    let (p, _, view) = awaited([&a, &b], &id);
    let n = view["move_number"].as_i64().unwrap();
    p.submit(&id, n, &a_legal_move(&view)).ok();

    // The next move through the other instance; the first keeps its copy.
    let (p, _, view) = awaited([&a, &b], &id);
    let next = a_legal_move(&view);
    via_two(p).submit(&id, n + 1, &next).ok();

    // The same move again through the first instance matches its copy.
    let body = p
        .submit(&id, n + 1, &next)
        .problem(409, "stale_move")
        .clone();
    assert_eq!(body["current_move_number"], n + 2, "{body}");
    assert_eq!(cache_count(&one, "read_again"), 1);
    assert_eq!(move_number(&a, &id), n + 2);
    assert_eq!(rows_after(&a, &id, n).len(), 2);

    // The copy is gone; the next move reads, applies and is copied again.
    let (p, _, view) = awaited([&a, &b], &id);
    p.submit(&id, n + 2, &a_legal_move(&view)).ok();
    let (p, _, view) = awaited([&a, &b], &id);
    via_two(p).submit(&id, n + 3, &a_legal_move(&view)).ok();
    // A client ahead of the copy is not stale: the database decides.
    let (p, _, view) = awaited([&a, &b], &id);
    p.submit(&id, n + 4, &a_legal_move(&view)).ok();
    assert_eq!(cache_count(&one, "read_again"), 2);
    let (p, _, view) = awaited([&a, &b], &id);
    via_two(p).submit(&id, n + 5, &a_legal_move(&view)).ok();
    // A move the stale copy would refuse as illegal (no turn to end in the
    // set-up) is stale in the database's game, and that is the answer.
    p.submit(&id, n + 5, &json!({"type": "end_turn"}))
        .problem(409, "stale_move");
    assert_eq!(cache_count(&one, "read_again"), 3);
    assert_eq!(move_number(&a, &id), n + 6);
}
