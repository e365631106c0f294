//! Authentication and authorisation over HTTP, on SQLite and PostgreSQL:
//! every way a bearer token can be wrong gets 401 problem+json with a
//! `WWW-Authenticate` challenge; a valid token for someone else's game or an
//! admin endpoint gets 403; login and registration refuse bad input with
//! their documented codes.

use crate::common::{self, Api, BACKENDS, Reply, TestServer};
use base64::Engine;
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde_json::{Value, json};

/// The test server's signing key (see `common::TestServer`).
const KID: &str = "test";
const SECRET: &[u8] = b"0123456789abcdef0123456789abcdef";

fn now() -> u64 {
    jsonwebtoken::get_current_timestamp()
}

fn claims(user_id: i64) -> Value {
    json!({"sub": user_id.to_string(), "iss": "hexpost", "aud": "hexpost", "iat": now(), "exp": now() + 600, "adm": false})
}

fn token(alg: Algorithm, kid: Option<&str>, secret: &[u8], claims: &Value) -> String {
    let mut header = Header::new(alg);
    header.kid = kid.map(str::to_string);
    encode(&header, claims, &EncodingKey::from_secret(secret)).unwrap()
}

fn b64(bytes: &[u8]) -> String {
    base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(bytes)
}

/// A 401 `code` problem with a Bearer challenge.
fn unauthorized(r: &Reply, code: &str) {
    r.problem(401, code);
    let challenge = r
        .headers
        .get("www-authenticate")
        .unwrap_or_else(|| panic!("401 without WWW-Authenticate: {}", r.body))
        .to_str()
        .unwrap();
    assert!(challenge.starts_with("Bearer"), "{challenge}");
}

/// GET with a raw `Authorization` header value (or none).
fn get_with_auth(api: &Api, path: &str, auth: Option<&str>) -> Reply {
    let anon = Api {
        token: None,
        ..api.clone()
    };
    match auth {
        Some(v) => anon.request("GET", path, &[("Authorization", v)]),
        None => anon.get(path),
    }
}

#[test]
fn every_bad_token_is_401_with_a_challenge() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (_, uid) = api.register(&format!("ada{backend:?}").to_lowercase());
        let me = "/api/v1/me";

        // The control: a token built here the way the server builds its own
        // is accepted, so each refusal below is about the one thing changed.
        let good = token(Algorithm::HS256, Some(KID), SECRET, &claims(uid));
        let r = get_with_auth(&api, me, Some(&format!("Bearer {good}")));
        assert_eq!(r.ok()["id"], uid, "{backend:?}");

        // Missing header.
        unauthorized(&get_with_auth(&api, me, None), "unauthorized");
        // Not Bearer.
        unauthorized(
            &get_with_auth(&api, me, Some("Basic YWRhOnNlY3JldA==")),
            "unauthorized",
        );
        unauthorized(
            &get_with_auth(&api, me, Some(&format!("Token {good}"))),
            "unauthorized",
        );
        // Malformed tokens.
        for bad in ["", "not-a-jwt", "a.b.c", "Zm9v.YmFy.YmF6"] {
            unauthorized(
                &get_with_auth(&api, me, Some(&format!("Bearer {bad}"))),
                "unauthorized",
            );
        }
        // Signed with another secret under the server's key id.
        let forged = token(
            Algorithm::HS256,
            Some(KID),
            b"another secret, 32 bytes or more!!",
            &claims(uid),
        );
        unauthorized(
            &get_with_auth(&api, me, Some(&format!("Bearer {forged}"))),
            "unauthorized",
        );
        // The right secret under an unknown key id, or none.
        for kid in [Some("other"), None] {
            let t = token(Algorithm::HS256, kid, SECRET, &claims(uid));
            unauthorized(
                &get_with_auth(&api, me, Some(&format!("Bearer {t}"))),
                "unauthorized",
            );
        }
        // alg=none, with and without a signature part.
        let header = b64(br#"{"alg":"none","typ":"JWT","kid":"test"}"#);
        let payload = b64(claims(uid).to_string().as_bytes());
        for t in [
            format!("{header}.{payload}."),
            format!("{header}.{payload}"),
            format!("{header}.{payload}.{}", good.rsplit('.').next().unwrap()),
        ] {
            unauthorized(
                &get_with_auth(&api, me, Some(&format!("Bearer {t}"))),
                "unauthorized",
            );
        }
        // HS512 with the right secret and key id: the algorithm is pinned.
        let t = token(Algorithm::HS512, Some(KID), SECRET, &claims(uid));
        unauthorized(
            &get_with_auth(&api, me, Some(&format!("Bearer {t}"))),
            "unauthorized",
        );
        // Expired beyond the leeway.
        let mut c = claims(uid);
        c["iat"] = json!(now() - 3600);
        c["exp"] = json!(now() - 120);
        let t = token(Algorithm::HS256, Some(KID), SECRET, &c);
        unauthorized(
            &get_with_auth(&api, me, Some(&format!("Bearer {t}"))),
            "unauthorized",
        );
        // Wrong audience, and no audience.
        let mut c = claims(uid);
        c["aud"] = json!("someone-else");
        let t = token(Algorithm::HS256, Some(KID), SECRET, &c);
        unauthorized(
            &get_with_auth(&api, me, Some(&format!("Bearer {t}"))),
            "unauthorized",
        );
        let mut c = claims(uid);
        c.as_object_mut().unwrap().remove("aud");
        let t = token(Algorithm::HS256, Some(KID), SECRET, &c);
        unauthorized(
            &get_with_auth(&api, me, Some(&format!("Bearer {t}"))),
            "unauthorized",
        );
        // A subject that is not a user id.
        let mut c = claims(uid);
        c["sub"] = json!("ada");
        let t = token(Algorithm::HS256, Some(KID), SECRET, &c);
        unauthorized(
            &get_with_auth(&api, me, Some(&format!("Bearer {t}"))),
            "unauthorized",
        );
        // A token signed for one user and altered to name another.
        let mut parts: Vec<String> = good.split('.').map(str::to_string).collect();
        parts[1] = b64(claims(uid + 1).to_string().as_bytes());
        unauthorized(
            &get_with_auth(&api, me, Some(&format!("Bearer {}", parts.join(".")))),
            "unauthorized",
        );

        // The same refusals guard the game and admin endpoints.
        let (a, _, id) = api.new_game("standard", json!({}));
        for path in [
            format!("/api/v1/games/{id}"),
            format!("/api/v1/games/{id}/log"),
            "/api/v1/games".to_string(),
            format!("/api/v1/admin/games/{id}/log"),
            format!("/api/v1/admin/games/{id}/verify"),
        ] {
            unauthorized(&get_with_auth(&api, &path, None), "unauthorized");
            unauthorized(
                &get_with_auth(&api, &path, Some(&format!("Bearer {forged}"))),
                "unauthorized",
            );
        }
        let anon = Api {
            token: None,
            ..a.clone()
        };
        unauthorized(
            &anon.submit(&id, 1, &json!({"type": "roll_dice"})),
            "unauthorized",
        );
        unauthorized(
            &anon.post("/api/v1/games", &json!({"variant": "standard"})),
            "unauthorized",
        );
        // Nothing was stored by the refused move.
        assert_eq!(common::game(&a, &id)["move_number"], 1);
    }
}

#[test]
fn issuer_times_and_scheme_of_a_token_are_checked() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (ada, uid) = api.register(&format!("ada{backend:?}").to_lowercase());
        let me = "/api/v1/me";
        let with = |c: &Value| {
            let t = token(Algorithm::HS256, Some(KID), SECRET, c);
            get_with_auth(&api, me, Some(&format!("Bearer {t}")))
        };

        // The server's own tokens name it as their issuer.
        let issued = ada.token.clone().unwrap();
        let payload = issued.split('.').nth(1).unwrap();
        let payload: Value = serde_json::from_slice(
            &base64::engine::general_purpose::URL_SAFE_NO_PAD
                .decode(payload)
                .unwrap(),
        )
        .unwrap();
        assert_eq!(payload["iss"], "hexpost");

        // Another issuer, even with the right key and audience.
        let mut c = claims(uid);
        c["iss"] = json!("someone-else");
        unauthorized(&with(&c), "unauthorized");
        // Not valid yet, beyond the leeway; valid since a moment ago.
        let mut c = claims(uid);
        c["nbf"] = json!(now() + 600);
        unauthorized(&with(&c), "unauthorized");
        c["nbf"] = json!(now() - 1);
        assert_eq!(with(&c).ok()["id"], uid);
        // Issued in the future: a year ahead, or a minute.
        for ahead in [365 * 24 * 3600, 60] {
            let mut c = claims(uid);
            c["iat"] = json!(now() + ahead);
            c["exp"] = json!(now() + ahead + 600);
            unauthorized(&with(&c), "unauthorized");
        }

        // The scheme's name in any case (RFC 7235).
        for scheme in ["bearer", "BEARER", "bEaReR"] {
            let r = get_with_auth(&api, me, Some(&format!("{scheme} {issued}")));
            assert_eq!(r.ok()["id"], uid, "{scheme}");
        }
    }
}

/// Tokens of the release before issuers were set have none. Those issued
/// before the server started, with the lifetime it gives, still work
/// after a deploy; nothing else without an issuer does.
#[test]
fn tokens_without_an_issuer_work_until_they_expire_after_a_deploy() {
    let server = TestServer::start(common::Backend::Sqlite);
    let api = server.client();
    let (_, uid) = api.register("ada");
    let with = |c: &Value| {
        let t = token(Algorithm::HS256, Some(KID), SECRET, c);
        get_with_auth(&api, "/api/v1/me", Some(&format!("Bearer {t}")))
    };
    let legacy = |iat: u64, lifetime: u64| {
        let mut c = claims(uid);
        c.as_object_mut().unwrap().remove("iss");
        c["iat"] = json!(iat);
        c["exp"] = json!(iat + lifetime);
        c
    };
    // Issued a minute before the start, for the server's hour: accepted.
    assert_eq!(with(&legacy(now() - 60, 3600)).ok()["id"], uid);
    // The same, living longer than the server's tokens do: refused.
    unauthorized(&with(&legacy(now() - 60, 3601)), "unauthorized");
    // Issued after the server started: not a token of the old release.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    unauthorized(&with(&legacy(now(), 600)), "unauthorized");
}

#[test]
fn valid_tokens_for_other_games_and_admin_endpoints_are_403() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, _b, id) = api.new_game("standard", json!({}));
        let (eve, _) = api.register(&format!("eve{backend:?}").to_lowercase());

        // The players themselves may read.
        a.get(&format!("/api/v1/games/{id}")).ok();
        a.get(&format!("/api/v1/games/{id}/log")).ok();

        eve.get(&format!("/api/v1/games/{id}"))
            .problem(403, "forbidden");
        eve.get(&format!("/api/v1/games/{id}/log"))
            .problem(403, "forbidden");
        let before = common::game(&a, &id);
        let awaited = before["legal_actions"].clone();
        eve.submit(
            &id,
            before["move_number"].as_i64().unwrap(),
            &json!({"type": "build_settlement", "node": 0}),
        )
        .problem(403, "forbidden");
        eve.post(&format!("/api/v1/games/{id}/resign"), &json!({}))
            .problem(403, "forbidden");
        eve.post(
            &format!("/api/v1/games/{id}/invitations"),
            &json!({"email": "x@example.org"}),
        )
        .problem(403, "forbidden");
        let after = common::game(&a, &id);
        assert_eq!(after["move_number"], before["move_number"]);
        assert_eq!(after["status"], "active");
        assert_eq!(after["legal_actions"], awaited);
        // Eve's game list does not show it.
        assert_eq!(eve.get("/api/v1/games").ok(), &json!([]));

        // Admin endpoints: players and strangers are refused.
        for who in [&a, &eve] {
            who.get(&format!("/api/v1/admin/games/{id}/log"))
                .problem(403, "forbidden");
            who.get(&format!("/api/v1/admin/games/{id}/verify"))
                .problem(403, "forbidden");
        }
        // An admin may.
        let (root, _) = common::register_admin(&server, &format!("root{backend:?}").to_lowercase());
        root.get(&format!("/api/v1/admin/games/{id}/log")).ok();
        assert_eq!(
            root.get(&format!("/api/v1/admin/games/{id}/verify")).ok()["ok"],
            true
        );
    }
}

#[test]
fn login_checks_the_password() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (_, uid) = api.register("grace");
        let login = |email: &str, password: &str| {
            api.post(
                "/api/v1/auth/token",
                &json!({"email": email, "password": password}),
            )
        };
        unauthorized(
            &login("grace@example.org", "correct horse battery!"),
            "bad_credentials",
        );
        unauthorized(&login("grace@example.org", ""), "bad_credentials");
        unauthorized(
            &login("nobody@example.org", "correct horse battery"),
            "bad_credentials",
        );
        // The right password, with the e-mail in any case and padded.
        let ok = login("  Grace@Example.ORG ", "correct horse battery");
        let body = ok.ok();
        assert_eq!(body["user"]["id"], uid, "{backend:?}");
        assert_eq!(body["token_type"], "Bearer");
        let t = body["access_token"].as_str().unwrap();
        assert_eq!(api.with_token(t).get("/api/v1/me").ok()["id"], uid);
        // Unknown fields in the login body are refused, not ignored.
        api.post(
            "/api/v1/auth/token",
            &json!({"email": "grace@example.org", "password": "correct horse battery", "otp": 1}),
        )
        .problem(422, "invalid_body");
    }
}

#[test]
fn registration_validates_and_refuses_duplicates() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let register = |email: &str, name: &str, password: &str| {
            api.post(
                "/api/v1/accounts",
                &json!({"email": email, "display_name": name, "password": password}),
            )
        };
        let pw = "correct horse battery";
        for email in [
            "",
            "no-at-sign",
            "@example.org",
            "ada@",
            "ada@localhost",
            "ada@.example.org",
            "ada@example.org.",
            "a da@example.org",
            "ada@exa\tmple.org",
            // One plain address: no name, no list, nothing for the mailer
            // to read as another recipient.
            "x<attacker@evil.example>",
            "Ada <ada@example.org>",
            "a@x.org,b@y.org",
            "a@x.org;b@y.org",
        ] {
            register(email, "Ada", pw).problem(422, "invalid_email");
        }
        let long_email = format!("{}@example.org", "a".repeat(250));
        register(&long_email, "Ada", pw).problem(422, "invalid_email");
        for name in [
            "",
            "   ",
            &"n".repeat(41),
            " Ada",
            "Ada ",
            "two\nlines",
            "car\rriage",
        ] {
            register("ada@example.org", name, pw).problem(422, "invalid_display_name");
        }
        for password in ["", "short", "7chars!", &"p".repeat(129)] {
            register("ada@example.org", "Ada", password).problem(422, "invalid_password");
        }
        // Nothing was created by the refusals.
        api.post(
            "/api/v1/auth/token",
            &json!({"email": "ada@example.org", "password": pw}),
        )
        .problem(401, "bad_credentials");

        // The limits themselves are allowed: 40-character names (counted
        // in characters, not bytes), 8- and 128-character passwords.
        let pending = register("Ada@Example.org", &"é".repeat(40), "12345678");
        assert_eq!(pending.status, 202, "{}", pending.body);
        assert_eq!(pending.body["email"], "ada@example.org");
        let created = api.confirm("ada@example.org");
        assert_eq!(created["user"]["email"], "ada@example.org");
        assert_eq!(created["user"]["display_name"], "é".repeat(40));
        assert_eq!(created["user"]["is_admin"], false);
        assert_eq!(
            register("grace@example.org", "Grace", &"p".repeat(128)).status,
            202
        );
        api.confirm("grace@example.org");

        // Duplicates, whatever the case: answered as any registration, and
        // nothing is created (the owner is mailed a reset code instead).
        for email in ["ada@example.org", "ADA@EXAMPLE.ORG", " ada@example.ORG "] {
            let again = register(email, "Another Ada", pw);
            assert_eq!(again.status, 202, "{}", again.body);
            assert_eq!(
                again.body, pending.body,
                "nothing tells a known address apart"
            );
        }
        // The first account is unchanged: its password still works.
        api.post(
            "/api/v1/auth/token",
            &json!({"email": "ada@example.org", "password": "12345678"}),
        )
        .ok();
    }
}
