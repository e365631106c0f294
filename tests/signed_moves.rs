//! Moves signed with a player's registered Ed25519 key (compact JWS), on
//! SQLite and PostgreSQL, and the attacks on them: keys that are weak,
//! non-canonical, someone else's, or registered without proof that the
//! registrant holds them; forged signatures that a lenient check accepts;
//! and a signed move's jti used twice.

use crate::common::ed25519::{Ed25519, b64, move_claims};
use crate::common::moves::{a_legal_move, awaited, move_number, rows_after};
use crate::common::{self, Api, BACKENDS, TestServer};
use diesel::{QueryDsl, RunQueryDsl};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::{Value, json};

fn user_id(api: &Api) -> i64 {
    api.get("/api/v1/me").ok()["id"].as_i64().unwrap()
}

fn active_keys(api: &Api) -> usize {
    api.get("/api/v1/me/keys").ok().as_array().unwrap().len()
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

        let (p_id, q_id) = (user_id(p), user_id(q));

        // Keys: bad ones are refused; good ones are listed.
        let mine = Ed25519::generate();
        for bad in ["not base64!", &b64(&[7; 31])] {
            p.post(
                "/api/v1/me/keys",
                &json!({"public_key": bad, "proof": mine.proof(p_id)}),
            )
            .problem(422, "invalid_key");
        }
        let added = mine.register(p, p_id);
        assert_eq!(added.status, 201, "{}", added.body);
        let key_id = added.body["id"].as_i64().unwrap();
        assert_eq!(added.body["public_key"], mine.public.as_str());
        let listed = p.get("/api/v1/me/keys").ok().clone();
        assert_eq!(listed.as_array().unwrap().len(), 1);
        assert_eq!(listed[0]["id"], key_id);
        let theirs = Ed25519::generate();
        theirs.register(q, q_id).ok();
        let stranger = Ed25519::generate();

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
        // A replay of the same signed move: its jti is used.
        signed(&good).problem(409, "jti_reused");

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

/// 32 bytes that decode to a point of large order, in a non-canonical
/// encoding: y + p for a small y (2^255 - 19 + y, little-endian; the top
/// bit is the sign of x).
fn noncanonical_key() -> String {
    let bytes = (2u8..19)
        .flat_map(|y| {
            [0x7f, 0xff].map(|top| {
                let mut bytes = [0xff; 32];
                bytes[0] = 0xed + y;
                bytes[31] = top;
                bytes
            })
        })
        .find(|b| ed25519_dalek::VerifyingKey::from_bytes(b).is_ok_and(|k| !k.is_weak()))
        .expect("a non-canonical encoding of a point of large order");
    b64(&bytes)
}

/// The all-zero key: a point of order 4, for which `R` = identity and
/// `S` = 0 passes the lenient check on one message in four.
fn zero_key() -> String {
    b64(&[0; 32])
}

#[test]
fn a_key_is_registered_strong_with_proof_and_on_one_account() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (ada, ada_id) = api.register("ada");
        let (bob, bob_id) = api.register("bob");
        let add = |who: &Api, body: Value| who.post("/api/v1/me/keys", &body);

        // Weak or non-canonical keys, whatever the proof.
        let mut identity = [0u8; 32];
        identity[0] = 1;
        for weak in [zero_key(), b64(&identity), noncanonical_key()] {
            add(&ada, json!({"public_key": weak, "proof": "a.b.c"})).problem(422, "invalid_key");
        }
        // (The last is of large order: only its encoding is refused.)
        let r = add(
            &ada,
            json!({"public_key": noncanonical_key(), "proof": "a.b.c"}),
        );
        assert!(
            r.problem(422, "invalid_key")["detail"]
                .as_str()
                .unwrap()
                .contains("canonical")
        );

        let key = Ed25519::generate();
        let other = Ed25519::generate();
        let claims = |purpose: &str, sub: i64, public: &str| json!({"purpose": purpose, "sub": sub.to_string(), "public_key": public});
        // No proof, and proofs that prove something else.
        add(&ada, json!({"public_key": key.public})).problem(422, "invalid_body");
        let mut hs = Header::new(Algorithm::HS256);
        hs.kid = Some("test".into());
        for proof in [
            other.sign(&claims("register_key", ada_id, &key.public)),
            key.sign(&claims("register_key", bob_id, &key.public)),
            key.sign(&claims("register_key", ada_id, &other.public)),
            key.sign(&claims("sign_in", ada_id, &key.public)),
            key.sign(&json!({"sub": ada_id.to_string(), "public_key": key.public})),
            encode(
                &hs,
                &claims("register_key", ada_id, &key.public),
                &EncodingKey::from_secret(b"0123456789abcdef0123456789abcdef"),
            )
            .unwrap(),
            "not a jws".to_string(),
        ] {
            add(&ada, json!({"public_key": key.public, "proof": proof}))
                .problem(422, "invalid_proof");
        }
        assert_eq!(
            active_keys(&ada),
            0,
            "{backend:?}: a refused key was stored"
        );

        // The proof made with the key, for this account: registered, once.
        let added = key.register(&ada, ada_id);
        assert_eq!(added.status, 201, "{}", added.body);
        key.register(&ada, ada_id).problem(409, "key_taken");

        // Bob cannot register Ada's key: he cannot prove he holds it...
        let bobs_claim = bob_key_claim(&other, bob_id, &key.public);
        add(&bob, json!({"public_key": key.public, "proof": bobs_claim}))
            .problem(422, "invalid_proof");
        // ...and holding it too, it is still hers while it is active.
        key.register(&bob, bob_id).problem(409, "key_taken");
        assert_eq!((active_keys(&ada), active_keys(&bob)), (1, 0));

        // Once she revokes it, a holder may register it again.
        let id = added.body["id"].as_i64().unwrap();
        assert_eq!(ada.delete(&format!("/api/v1/me/keys/{id}")).status, 204);
        assert_eq!(key.register(&bob, bob_id).status, 201);
    }
}

/// A proof Bob can make for someone else's key: signed with his own.
fn bob_key_claim(bobs: &Ed25519, bob: i64, public: &str) -> String {
    bobs.sign(&json!({"purpose": "register_key", "sub": bob.to_string(), "public_key": public}))
}

/// A weak key registered before keys were checked signs nothing, not even
/// the signature a lenient check accepts for it.
#[test]
fn a_forged_signature_for_a_weak_key_is_refused() {
    use ed25519_dalek::Verifier;
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let (p, _, view) = awaited([&a, &b], &id);
        let n = view["move_number"].as_i64().unwrap();
        {
            let pool = server.db();
            let mut conn = pool.get().unwrap();
            hexpost::store::users::add_key(&mut conn, user_id(p), &zero_key())
                .unwrap()
                .unwrap();
        }
        let zero = ed25519_dalek::VerifyingKey::from_bytes(&[0; 32]).unwrap();
        let mut identity_and_zero = [0u8; 64];
        identity_and_zero[0] = 1;
        let signature = ed25519_dalek::Signature::from_bytes(&identity_and_zero);
        let header = b64(br#"{"alg":"EdDSA"}"#);
        let forged = (0..64)
            .map(|_| {
                let claims = move_claims(&id, n, &a_legal_move(&view));
                format!("{header}.{}", b64(claims.to_string().as_bytes()))
            })
            .find(|input| zero.verify(input.as_bytes(), &signature).is_ok())
            .map(|input| format!("{input}.{}", b64(&identity_and_zero)))
            .expect("a move the lenient check accepts");
        let r = p.post(
            &format!("/api/v1/games/{id}/moves"),
            &json!({"jws": forged}),
        );
        r.problem(401, "unauthorized");
        assert_eq!(r.body["reason"], "invalid_signature");
        assert_eq!(
            move_number(&a, &id),
            n,
            "{backend:?}: the forged move was applied"
        );
    }
}

/// The jtis recorded on the server's database.
fn used_jtis(server: &TestServer) -> i64 {
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    hexpost::store::schema::used_jtis::table
        .count()
        .get_result(&mut conn)
        .unwrap()
}

#[test]
fn a_jti_signs_one_move_until_it_expires() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("DEADLINE_SWEEP_INTERVAL_MS", "50")]);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let (p, q, view) = awaited([&a, &b], &id);
        let key = Ed25519::generate();
        key.register(p, user_id(p)).ok();
        let path = format!("/api/v1/games/{id}/moves");
        let signed = |n: i64, action: &Value, jti: &str| {
            let mut claims = move_claims(&id, n, action);
            claims["jti"] = json!(jti);
            p.post(&path, &json!({"jws": key.sign(&claims)}))
        };
        let n = view["move_number"].as_i64().unwrap();
        signed(n, &a_legal_move(&view), "once").ok();

        // The same jti on the next move, signed anew: refused.
        let (p2, _, view) = awaited([&a, &b], &id);
        assert!(std::ptr::eq(p2, p), "set-up: the same player places a road");
        signed(n + 1, &a_legal_move(&view), "once").problem(409, "jti_reused");
        assert_eq!(move_number(&a, &id), n + 1, "{backend:?}");
        // A refused move uses its jti up: not at all.
        signed(n + 1, &json!({"type": "end_turn"}), "spare").problem(422, "illegal_move");
        signed(n + 1, &a_legal_move(&view), "spare").ok();
        // The jti is the account's, whatever the game.
        let q_email = q.get("/api/v1/me").ok()["email"]
            .as_str()
            .unwrap()
            .to_string();
        let created = p.post(
            "/api/v1/games",
            &json!({"variant": "standard", "opponent_email": q_email, "creator_seat": 0}),
        );
        let other = created.ok()["game"]["id"].as_str().unwrap().to_string();
        let token = created.body["invite_token"].as_str().unwrap();
        q.post(&format!("/api/v1/invitations/{token}/accept"), &json!({}))
            .ok();
        let (mover, _, view) = awaited([p, q], &other);
        assert!(std::ptr::eq(mover, p), "seat 0 places first");
        let mut claims = move_claims(&other, 1, &a_legal_move(&view));
        claims["jti"] = json!("once");
        p.post(
            &format!("/api/v1/games/{other}/moves"),
            &json!({"jws": key.sign(&claims)}),
        )
        .problem(409, "jti_reused");
        assert_eq!(used_jtis(&server), 2);

        // A day later the moves' iat is too old to pass anyway: the
        // sweeper forgets their jtis.
        server.advance((24 * 3600 + 5) * 1000);
        let start = std::time::Instant::now();
        while used_jtis(&server) > 0 {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "{backend:?}: expired jtis are kept"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
}
