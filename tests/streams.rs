//! The live event streams over HTTP, on SQLite and PostgreSQL: a game's
//! rows arrive in order, each as its reader's log shows it; a reconnect
//! with Last-Event-ID resumes without gaps or repeats; an account hears of
//! its games starting, awaiting it and ending; the cap on streams per
//! account; and on PostgreSQL a move applied through one instance reaches
//! a stream held by another.

use crate::common::moves::awaited;
use crate::common::process::ServeProcess;
use crate::common::sse::{SIGNALS_ONLY, WAIT, game_stream, open};
use crate::common::{self, Api, BACKENDS, Backend, TempDatabase, TestServer};
use hexpost_engine::rng::GameRng;
use hexpost_engine::{Action, LegalAction};
use serde_json::{Value, json};
use std::sync::mpsc::RecvTimeoutError;
use std::time::Duration;

/// The log as `api` reads it.
fn log_of(api: &Api, id: &str) -> Vec<Value> {
    api.full_log(id, false)
}

/// A standard game `a` creates with `request`'s fields and `b` accepts.
fn start(a: &Api, b: &Api, mut request: Value) -> String {
    request["variant"] = "standard".into();
    let created = a.post("/api/v1/games", &request).ok().clone();
    let token = created["invite_token"].as_str().unwrap();
    b.post(&format!("/api/v1/invitations/{token}/accept"), &json!({}))
        .ok();
    created["game"]["id"].as_str().unwrap().to_string()
}

/// Plays `n` random moves, whoever is awaited.
fn play(a: &Api, b: &Api, id: &str, n: usize) {
    let seed = common::moves::move_number(a, id) as u64;
    assert_eq!(common::play_moves([a, b], id, seed, n), n);
}

#[test]
fn a_game_stream_sends_each_row_as_its_reader_sees_it_and_resumes_by_last_event_id() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[SIGNALS_ONLY]);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let streams = [game_stream(&a, &id, None), game_stream(&b, &id, None)];
        play(&a, &b, &id, 12);
        for (reader, stream) in [&a, &b].into_iter().zip(&streams) {
            let log = log_of(reader, &id);
            let got = stream.moves(log.len());
            for (row, event) in log.iter().zip(&got) {
                assert_eq!(event.id, row["seq"].as_i64(), "{backend:?}: out of order");
                // The same redaction as the log: nothing more, nothing less.
                assert_eq!(&event.data, row, "{backend:?}");
            }
            stream.assert_quiet(Duration::from_millis(1500));
        }
        let last = log_of(&a, &id).last().unwrap()["seq"].as_i64().unwrap();
        drop(streams);

        // Moves while nobody listens, then a reconnect from the last id
        // seen: exactly the rows after it, then live ones.
        play(&a, &b, &id, 3);
        let resumed = game_stream(&a, &id, Some(last));
        let log = log_of(&a, &id);
        let missed: Vec<&Value> = log
            .iter()
            .filter(|r| r["seq"].as_i64() > Some(last))
            .collect();
        assert!(!missed.is_empty());
        let got = resumed.moves(missed.len());
        for (row, event) in missed.iter().zip(&got) {
            assert_eq!(&&event.data, row, "{backend:?}");
        }
        resumed.assert_quiet(Duration::from_millis(1500));
        play(&a, &b, &id, 1);
        let live = resumed.next();
        let log = log_of(&a, &id);
        let first_new = log
            .iter()
            .find(|r| r["seq"].as_i64() > got.last().unwrap().id)
            .unwrap();
        assert_eq!(&live.data, first_new, "{backend:?}");

        // A bad Last-Event-ID, another's game, an unknown game.
        let r = a.request(
            "GET",
            &format!("/api/v1/games/{id}/stream"),
            &[("Last-Event-ID", "-1")],
        );
        r.problem(400, "invalid_last_event_id");
        let (c, _) = api.register(&format!("carol{backend:?}"));
        let s = open(&c, &format!("/api/v1/games/{id}/stream"), None);
        assert_eq!(s.status, 403, "{}", s.body);
        let s = open(&c, "/api/v1/games/no-such-game/stream", None);
        assert_eq!(s.status, 404, "{}", s.body);
    }
}

#[test]
fn the_stream_hides_what_the_reader_may_not_see() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[SIGNALS_ONLY]);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let streams = [game_stream(&a, &id, None), game_stream(&b, &id, None)];
        let mut seen = [Vec::new(), Vec::new()];
        // Until a development card is bought, whose card only its buyer
        // may see.
        let mut bought = None;
        let buyer_policy = |view: &Value, legal: &[LegalAction], rng: &mut GameRng| {
            if legal.contains(&LegalAction::BuyDevelopmentCard) {
                Action::BuyDevelopmentCard
            } else {
                common::choose(view, legal, rng)
            }
        };
        for seed in 0..2_000 {
            common::play_with_policy([&a, &b], &id, seed, 1, buyer_policy, |step| {
                if step.action == Action::BuyDevelopmentCard {
                    bought = Some((step.who, step.expected + 1));
                }
            });
            if bought.is_some() {
                break;
            }
        }
        let (buyer, seq) = bought.expect("a card was bought");
        for (i, reader) in [&a, &b].into_iter().enumerate() {
            let rows = log_of(reader, &id);
            seen[i] = streams[i].moves(rows.len());
            for (row, event) in rows.iter().zip(&seen[i]) {
                assert_eq!(&event.data, row, "{backend:?}");
            }
        }
        let row = |i: usize| {
            seen[i]
                .iter()
                .find(|e| e.id == Some(seq))
                .unwrap()
                .data
                .to_string()
        };
        let card_event = |i: usize| {
            let data: Value = serde_json::from_str(&row(i)).unwrap();
            data["events"]
                .as_array()
                .unwrap()
                .iter()
                .find(|e| e["type"] == "dev_card_bought")
                .cloned()
                .unwrap()
        };
        // The buyer sees the card; the other player's stream does not
        // carry it, in the event or anywhere else in the row.
        let own = card_event(buyer);
        let card = own["card"].as_str().expect("the buyer sees the card");
        let theirs = card_event(1 - buyer);
        assert!(theirs.get("card").is_none_or(Value::is_null), "{theirs}");
        let other_row = row(1 - buyer);
        assert!(
            !other_row.contains(&format!("\"card\":\"{card}\"")),
            "{backend:?}: the card leaked: {other_row}"
        );
    }
}

/// Streams cannot take every connection: past `STREAMS_MAX` (below
/// `HTTP_MAX_CONNECTIONS`) a new stream is `503 streams_full` with
/// `Retry-After`, while health checks and ordinary requests are answered.
/// (Before the cap, 25 accounts holding 199 streams at 200 connections
/// blocked every new client, `/readyz` included.)
#[test]
fn streams_past_the_instances_cap_are_refused_and_requests_still_answered() {
    for backend in BACKENDS {
        let server = TestServer::start_with(
            backend,
            // Heartbeats each second: a dropped client's reader notices
            // its stream is unwanted at the next one, and closes it.
            &[
                ("HTTP_MAX_CONNECTIONS", "40"),
                ("STREAMS_MAX", "20"),
                ("STREAM_HEARTBEAT_SECS", "1"),
            ],
        );
        let api = server.client();
        let accounts: Vec<Api> = (0..3).map(|i| api.register(&format!("s{i}")).0).collect();
        let held: Vec<_> = (0..20)
            .map(|n| {
                let s = open(&accounts[n % 3], "/api/v1/account/stream", None);
                assert_eq!(s.status, 200, "{backend:?}: stream {n}: {}", s.body);
                s
            })
            .collect();
        let (late, _) = api.register("late");
        let refused = open(&late, "/api/v1/account/stream", None);
        assert_eq!(refused.status, 503, "{backend:?}: {}", refused.body);
        assert_eq!(refused.body["code"], "streams_full");
        assert_eq!(refused.body["retry_after_seconds"], 30);
        for _ in 0..10 {
            let ready = late.request("GET", "/readyz", &[]);
            assert_eq!(ready.status, 200, "{backend:?}: /readyz: {}", ready.body);
            late.get("/api/v1/games").ok();
        }
        drop(held);
        // A closed stream frees its place once the server sees it close.
        let start = std::time::Instant::now();
        loop {
            let s = open(&late, "/api/v1/account/stream", None);
            if s.status == 200 {
                break;
            }
            assert_eq!(s.body["code"], "streams_full", "{backend:?}");
            assert!(start.elapsed() < WAIT, "{backend:?}: no place freed");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

#[test]
fn an_account_stream_tells_of_games_starting_awaiting_you_and_ending() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, _) = api.register("ann");
        let (b, _) = api.register("ben");
        let streams = [
            open(&a, "/api/v1/account/stream", None),
            open(&b, "/api/v1/account/stream", None),
        ];
        let id = start(&a, &b, json!({"opponent_email": "ben@example.org"}));
        let (first, second, _) = awaited([&a, &b], &id);
        let index = |p: &Api| if p.token == a.token { 0 } else { 1 };
        let (f, s) = (index(first), index(second));
        for stream in &streams {
            let e = stream.next();
            assert_eq!(e.event, "game_started", "{backend:?}");
            assert_eq!(e.data["game_id"], id.as_str());
        }
        let e = streams[f].next();
        assert_eq!(e.event, "your_turn");
        assert_eq!(e.data["type"], "your_turn");
        streams[s].assert_quiet(Duration::from_millis(300));
        // The awaited player's resignation ends it for both, and ends the
        // game's own stream after its last row.
        let game = game_stream(second, &id, Some(common::moves::move_number(&a, &id)));
        first
            .post(&format!("/api/v1/games/{id}/resign"), &json!({}))
            .ok();
        for stream in &streams {
            let e = stream.next();
            assert_eq!(e.event, "game_ended", "{backend:?}");
            assert_eq!(e.data["status"], "finished");
        }
        let resigned = game.next();
        assert_eq!(resigned.event, "move");
        let end = game.next();
        assert_eq!(
            (end.event.as_str(), &end.data),
            ("end", &json!({"status": "finished"}))
        );
        assert!(matches!(
            game.events.recv_timeout(WAIT),
            Err(RecvTimeoutError::Disconnected)
        ));
    }
}

#[test]
fn an_account_holds_a_limited_number_of_streams() {
    for backend in BACKENDS {
        let server = TestServer::start_with(
            backend,
            &[("STREAMS_PER_USER", "2"), ("STREAM_HEARTBEAT_SECS", "1")],
        );
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let first = game_stream(&a, &id, None);
        let second = open(&a, "/api/v1/account/stream", None);
        // An idle stream gets its heartbeat comment.
        let beat = second.events.recv_timeout(WAIT).expect("a heartbeat");
        assert_eq!(beat.event, ":", "{beat:?}");
        let third = open(&a, &format!("/api/v1/games/{id}/stream"), None);
        assert_eq!(third.status, 429, "{backend:?}: {}", third.body);
        assert_eq!(third.body["code"], "too_many_streams");
        assert_eq!(third.body["max_streams"], 2);
        // Another account is not affected.
        let _theirs = game_stream(&b, &id, None);
        // A closed stream gives its place back once the server notices
        // (at its next write, a heartbeat at the latest).
        drop(first);
        let deadline = std::time::Instant::now() + WAIT;
        loop {
            let s = open(&a, &format!("/api/v1/games/{id}/stream"), None);
            if s.status == 200 {
                break;
            }
            assert_eq!(s.status, 429);
            assert!(
                std::time::Instant::now() < deadline,
                "the place never came back"
            );
            std::thread::sleep(Duration::from_millis(200));
        }
    }
}

#[test]
fn a_move_through_one_instance_reaches_a_stream_held_by_another() {
    let db = TempDatabase::new(Backend::Postgres);
    let vars = [("DATABASE_URL", db.url.as_str()), SIGNALS_ONLY];
    let root = std::env::temp_dir().join(format!(
        "hexpost-streams-{}-{}",
        std::process::id(),
        hexpost::store::now_ms()
    ));
    let instances = [
        ServeProcess::start(&root.join("a"), &vars),
        ServeProcess::start(&root.join("b"), &vars),
    ];
    let via = |i: usize, token: Option<String>| Api {
        token,
        ..instances[i].client()
    };
    let (a0, b0, id) = via(0, None).new_game("standard", json!({}));
    let (a1, b1) = (via(1, a0.token.clone()), via(1, b0.token.clone()));
    let streams = [game_stream(&a1, &id, None), game_stream(&b1, &id, None)];
    let account = open(&b1, "/api/v1/account/stream", None);
    let before = log_of(&a0, &id).len();
    for (reader, stream) in [&a0, &b0].into_iter().zip(&streams) {
        stream.moves(log_of(reader, &id).len());
    }
    // Moves through instance 0 only.
    play(&a0, &b0, &id, 6);
    for (reader, stream) in [&a0, &b0].into_iter().zip(&streams) {
        let log = log_of(reader, &id);
        let got = stream.moves(log.len() - before);
        for (row, event) in log[before..].iter().zip(&got) {
            assert_eq!(&event.data, row);
        }
    }
    // And the account stream on instance 1 heard of the turns.
    let mut turns = 0;
    while let Ok(e) = account.events.recv_timeout(Duration::from_millis(500)) {
        if e.event == "your_turn" {
            assert_eq!(e.data["game_id"], id.as_str());
            turns += 1;
        }
    }
    assert!(turns > 0, "no your_turn reached the other instance");
    let _ = std::fs::remove_dir_all(&root);
}

#[test]
fn a_decision_the_server_takes_at_a_timeout_reaches_the_stream() {
    const MINUTE: i64 = 60_000;
    for backend in BACKENDS {
        let server = TestServer::start_with(
            backend,
            &[("DEADLINE_SWEEP_INTERVAL_MS", "50"), SIGNALS_ONLY],
        );
        let api = server.client();
        let (a, _) = api.register(&format!("tia{backend:?}"));
        let (b, _) = api.register(&format!("tom{backend:?}"));
        let request = json!({"opponent_email": format!("tom{backend:?}@example.org"),
                             "time_limit_hours": 1, "creator_seat": 0});
        let id = start(&a, &b, request);
        let at = common::moves::move_number(&b, &id);
        let stream = game_stream(&b, &id, Some(at));
        stream.assert_quiet(Duration::from_millis(300));
        // Ada lets her set-up decision time out: the server decides for her.
        server.advance(61 * MINUTE);
        let row = stream.next();
        assert_eq!(row.id, Some(at + 1), "{backend:?}");
        let log = log_of(&b, &id);
        let expected = log.iter().find(|r| r["seq"] == at + 1).unwrap();
        assert_eq!(&row.data, expected);
        assert_eq!(row.data["actor"], "timeout", "{}", row.data);
    }
}
