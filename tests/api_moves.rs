//! Submitting moves over HTTP, on SQLite and PostgreSQL: stale move numbers,
//! idempotent retries, real concurrent duplicates, a move that meets
//! another write of its game, and moves signed with a player's registered
//! Ed25519 key (compact JWS).

mod common;

use base64::Engine;
use common::{Api, BACKENDS, TestServer, game};
use hexpost_engine::{Action, LegalAction};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::{Value, json};
use std::sync::{Arc, Barrier};

/// (awaited player, the other, the awaited player's view).
fn awaited<'a>(players: [&'a Api; 2], id: &str) -> (&'a Api, &'a Api, Value) {
    let views = [game(players[0], id), game(players[1], id)];
    let who = (0..2)
        .find(|&i| views[i]["awaiting_you"] == true)
        .expect("someone is awaited");
    (players[who], players[1 - who], views[who].clone())
}

/// A legal move for the awaited player (the first set-up choice, or the roll).
fn a_legal_move(view: &Value) -> Value {
    let legal: Vec<LegalAction> = serde_json::from_value(view["legal_actions"].clone()).unwrap();
    let action = match &legal[..] {
        [LegalAction::BuildSettlement { nodes, .. }] => Action::BuildSettlement {
            node: nodes.iter().next().unwrap(),
        },
        [LegalAction::BuildRoad { edges, .. }] => Action::BuildRoad {
            edge: edges.iter().next().unwrap(),
        },
        l if l.contains(&LegalAction::RollDice) => Action::RollDice,
        other => panic!("unexpected choices {other:?}"),
    };
    serde_json::to_value(action).unwrap()
}

fn move_number(api: &Api, id: &str) -> i64 {
    game(api, id)["move_number"].as_i64().unwrap()
}

/// The log rows after `after`, as `api` may read them.
fn rows_after(api: &Api, id: &str, after: i64) -> Vec<Value> {
    api.get(&format!("/api/v1/games/{id}/log?after={after}"))
        .ok()
        .as_array()
        .unwrap()
        .clone()
}

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

/// An Ed25519 key pair as a client would hold it.
struct Ed25519 {
    /// PKCS#8 v1 DER of the private key, as jsonwebtoken takes it.
    der: Vec<u8>,
    /// The raw public key, base64url without padding, as the API takes it.
    public: String,
}

impl Ed25519 {
    fn generate(label: &str) -> Ed25519 {
        let mut rng = hexpost_engine::rng::GameRng::from_seed(
            hexpost::store::now_ms() as u64 ^ label.bytes().map(u64::from).sum::<u64>(),
        );
        let mut seed = [0u8; 32];
        for chunk in seed.chunks_mut(8) {
            chunk.copy_from_slice(&rng.next_u64().to_le_bytes());
        }
        let public = ed25519_dalek::SigningKey::from_bytes(&seed)
            .verifying_key()
            .to_bytes();
        // PrivateKeyInfo { version 0, AlgorithmIdentifier { 1.3.101.112 }, OCTET STRING { OCTET STRING seed } }
        let mut der = vec![
            0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22,
            0x04, 0x20,
        ];
        der.extend_from_slice(&seed);
        Ed25519 {
            der,
            public: base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(public),
        }
    }

    fn sign(&self, claims: &Value) -> String {
        encode(
            &Header::new(Algorithm::EdDSA),
            claims,
            &EncodingKey::from_ed_der(&self.der),
        )
        .unwrap()
    }
}

fn move_claims(id: &str, n: i64, action: &Value) -> Value {
    json!({
        "game_id": id,
        "move_number": n,
        "action": action,
        "iat": jsonwebtoken::get_current_timestamp(),
        "jti": format!("jti-{}-{n}", hexpost::store::now_ms()),
    })
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

#[test]
fn signed_moves() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let (p, q, view) = awaited([&a, &b], &id);
        let n = view["move_number"].as_i64().unwrap();
        let action = a_legal_move(&view);
        let path = format!("/api/v1/games/{id}/moves");
        let signed = |jws: &str| p.post(&path, &json!({"jws": jws}));

        // Keys: bad ones are refused; good ones are listed.
        p.post("/api/v1/me/keys", &json!({"public_key": "not base64!"}))
            .problem(422, "invalid_key");
        p.post("/api/v1/me/keys", &json!({"public_key": b64(&[7; 31])}))
            .problem(422, "invalid_key");
        let mine = Ed25519::generate("mine");
        let added = p.post("/api/v1/me/keys", &json!({"public_key": mine.public}));
        assert_eq!(added.status, 201, "{}", added.body);
        let key_id = added.body["id"].as_i64().unwrap();
        assert_eq!(added.body["public_key"], mine.public.as_str());
        let listed = p.get("/api/v1/me/keys").ok().clone();
        assert_eq!(listed.as_array().unwrap().len(), 1);
        assert_eq!(listed[0]["id"], key_id);
        let theirs = Ed25519::generate("theirs");
        q.post("/api/v1/me/keys", &json!({"public_key": theirs.public}))
            .ok();
        let stranger = Ed25519::generate("stranger");

        let claims = move_claims(&id, n, &action);
        let good = mine.sign(&claims);
        // Not signed by one of the caller's keys: 401.
        for jws in [stranger.sign(&claims), theirs.sign(&claims)] {
            let r = signed(&jws);
            r.problem(401, "unauthorized");
            assert_eq!(r.body["reason"], "invalid_signature");
            assert!(r.headers.get("www-authenticate").is_some());
        }
        // HS256, even with the server's own token secret: 401.
        let mut h = Header::new(Algorithm::HS256);
        h.kid = Some("test".into());
        let hs = encode(
            &h,
            &claims,
            &EncodingKey::from_secret(b"0123456789abcdef0123456789abcdef"),
        )
        .unwrap();
        signed(&hs).problem(401, "unauthorized");
        // alg=none, and a good signature over other claims.
        let parts: Vec<&str> = good.split('.').collect();
        let none = format!("{}.{}.", b64(br#"{"alg":"none"}"#), parts[1]);
        signed(&none).problem(401, "unauthorized");
        let other_action = json!({"type": "build_settlement", "node": 53});
        let swapped = format!(
            "{}.{}.{}",
            parts[0],
            b64(move_claims(&id, n, &other_action).to_string().as_bytes()),
            parts[2]
        );
        signed(&swapped).problem(401, "unauthorized");
        signed("not.a.jws").problem(401, "unauthorized");
        // Signed for another game of the same player: 403.
        let created = p.post("/api/v1/games", &json!({"variant": "duel"}));
        let other_game = created.body["game"]["id"].as_str().unwrap().to_string();
        signed(&mine.sign(&move_claims(&other_game, n, &action))).problem(403, "forbidden");
        // A signature and a plain move in one body.
        p.post(&path, &json!({"jws": good, "action": action}))
            .problem(422, "invalid_body");
        p.post(&path, &json!({"jws": good, "expected_move_number": n}))
            .problem(422, "invalid_body");
        // Claims that are signed but wrong.
        let mut old = claims.clone();
        old["iat"] = json!(jsonwebtoken::get_current_timestamp() - 3 * 24 * 3600);
        signed(&mine.sign(&old)).problem(422, "jws_expired");
        let mut anon = claims.clone();
        anon["jti"] = json!("");
        signed(&mine.sign(&anon)).problem(422, "invalid_jws");
        signed(&mine.sign(&move_claims(&id, n - 1, &action))).problem(409, "stale_move");
        assert_eq!(move_number(&a, &id), n, "a refused signed move was stored");

        // The good one is applied and logged verbatim.
        let out = signed(&good);
        assert_eq!(out.ok()["move_number"], n + 1, "{backend:?}");
        let rows = rows_after(&a, &id, n);
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0]["jws"], good.as_str());
        assert_eq!(rows[0]["action"], action);
        // Both players, and the admin, read the signature.
        assert_eq!(rows_after(&b, &id, n)[0]["jws"], good.as_str());
        let (root, _) = common::register_admin(&server, &format!("root{backend:?}").to_lowercase());
        let full = root.full_log(&id, true);
        assert_eq!(full[n as usize]["jws"], good.as_str());
        assert!(full[..n as usize].iter().all(|r| r["jws"].is_null()));
        let report = root.get(&format!("/api/v1/admin/games/{id}/verify"));
        assert_eq!(report.ok()["ok"], true, "{}", report.body);
        // A replay of the same signed move is stale now.
        signed(&good).problem(409, "stale_move");

        // A revoked key no longer signs.
        let (p2, _, view2) = awaited([&a, &b], &id);
        assert!(std::ptr::eq(p2, p), "set-up: the same player places a road");
        let next = mine.sign(&move_claims(&id, n + 1, &a_legal_move(&view2)));
        let r = p.delete(&format!("/api/v1/me/keys/{key_id}"));
        assert_eq!(r.status, 204, "{}", r.body);
        p.delete(&format!("/api/v1/me/keys/{key_id}"))
            .problem(404, "not_found");
        assert_eq!(p.get("/api/v1/me/keys").ok(), &json!([]));
        signed(&next).problem(401, "unauthorized");
        assert_eq!(move_number(&a, &id), n + 1);
        // A key is revoked only by its owner.
        let qk = q.get("/api/v1/me/keys").ok()[0]["id"].as_i64().unwrap();
        p.delete(&format!("/api/v1/me/keys/{qk}"))
            .problem(404, "not_found");
        assert_eq!(q.get("/api/v1/me/keys").ok().as_array().unwrap().len(), 1);
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
