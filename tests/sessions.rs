//! Sign-in sessions over HTTP, on SQLite and PostgreSQL: refresh tokens
//! rotate, a reused one ends its whole session (theft), two tabs refreshing
//! at once both stay signed in, sessions end when idle or at their
//! lifetime (the server's clock is moved ahead), are listed and revoked,
//! and end with a logout, a password change or an admin's disable; the
//! browser keeps its refresh token in a strict cookie; a game mail's link
//! signs in once, for its game, for a while; no refusal tells whether
//! an account exists; and what ended is deleted a month later.

use crate::common::moves::{a_legal_move, awaited};
use crate::common::{self, Api, BACKENDS, Reply, TestServer, register_admin};
use diesel::prelude::*;
use hexpost::store::schema::{idempotency_keys, outbox, sessions, sign_in_codes};
use serde_json::{Value, json};

const PASSWORD: &str = "correct horse battery";
const DAY_MS: i64 = 86_400_000;

fn login(api: &Api, name: &str) -> Value {
    api.post(
        "/api/v1/auth/token",
        &json!({"email": format!("{name}@example.org"), "password": PASSWORD}),
    )
    .ok()
    .clone()
}

fn refresh(api: &Api, token: &str) -> Reply {
    api.post("/api/v1/auth/refresh", &json!({"refresh_token": token}))
}

fn text<'a>(body: &'a Value, field: &str) -> &'a str {
    body[field]
        .as_str()
        .unwrap_or_else(|| panic!("no {field} in {body}"))
}

/// A client holding the access token of `body` (a `TokenResponse`).
fn holding(api: &Api, body: &Value) -> Api {
    api.with_token(text(body, "access_token"))
}

#[test]
fn refresh_tokens_rotate_and_a_reused_one_ends_its_session() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (_, uid) = api.register("ada");
        let first = login(&api, "ada");
        let other = login(&api, "ada");
        let r1 = text(&first, "refresh_token");

        let second = refresh(&api, r1).ok().clone();
        let r2 = text(&second, "refresh_token");
        assert_ne!(r1, r2, "{backend:?}: the refresh token must rotate");
        assert_eq!(second["session_id"], first["session_id"]);
        assert_eq!(holding(&api, &second).get("/api/v1/me").ok()["id"], uid);
        let third = refresh(&api, r2).ok().clone();
        let r3 = text(&third, "refresh_token");

        // Past the grace window, the used first token is a thief's copy:
        // the whole session ends, the newest token with it.
        server.advance(31_000);
        refresh(&api, r1).problem(401, "refresh_token_reused");
        refresh(&api, r3).problem(401, "session_revoked");
        // Another session of the same account is not touched.
        refresh(&api, text(&other, "refresh_token")).ok();
        // A token the server never issued.
        refresh(&api, "bm90LWEtdG9rZW4").problem(401, "invalid_refresh_token");
        api.post("/api/v1/auth/refresh", &json!({}))
            .problem(401, "invalid_refresh_token");
    }
}

#[test]
fn two_tabs_refreshing_at_once_both_stay_signed_in() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        api.register("ada");
        let r1 = text(&login(&api, "ada"), "refresh_token").to_string();

        // Truly at once: each gets the same successor.
        let replies: Vec<Value> = std::thread::scope(|s| {
            let tabs: Vec<_> = (0..4)
                .map(|_| s.spawn(|| refresh(&api, &r1).ok().clone()))
                .collect();
            tabs.into_iter().map(|t| t.join().unwrap()).collect()
        });
        let successor = text(&replies[0], "refresh_token").to_string();
        for reply in &replies {
            assert_eq!(text(reply, "refresh_token"), successor, "{backend:?}");
            holding(&api, reply).get("/api/v1/me").ok();
        }
        // A late duplicate within the window gets it too, until the
        // successor itself is used: then the old token is a reuse.
        server.advance(20_000);
        assert_eq!(
            text(refresh(&api, &r1).ok(), "refresh_token"),
            successor,
            "{backend:?}"
        );
        let next = text(refresh(&api, &successor).ok(), "refresh_token").to_string();
        refresh(&api, &r1).problem(401, "refresh_token_reused");
        refresh(&api, &next).problem(401, "session_revoked");
    }
}

#[test]
fn sessions_end_when_idle_and_at_their_lifetime() {
    for backend in BACKENDS {
        let server = TestServer::start_with(
            backend,
            &[("SESSION_IDLE_DAYS", "10"), ("SESSION_LIFETIME_DAYS", "25")],
        );
        let api = server.client();
        api.register("ada");

        let idle = text(&login(&api, "ada"), "refresh_token").to_string();
        server.advance(10 * DAY_MS + 60_000);
        refresh(&api, &idle).problem(401, "session_expired");

        // Used every 9 days it outlives the idle time, but not its lifetime.
        let mut token = text(&login(&api, "ada"), "refresh_token").to_string();
        for _ in 0..2 {
            server.advance(9 * DAY_MS);
            token = text(refresh(&api, &token).ok(), "refresh_token").to_string();
        }
        server.advance(8 * DAY_MS);
        refresh(&api, &token).problem(401, "session_expired");
        let listed = holding(&api, &login(&api, "ada"))
            .get("/api/v1/account/sessions")
            .ok()
            .clone();
        assert_eq!(listed.as_array().unwrap().len(), 1, "{backend:?}: {listed}");
    }
}

#[test]
fn sessions_are_listed_and_revoked_one_or_all_and_logout_ends_the_current() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        api.register("ada");
        let (bob, _) = api.register("bob");
        let phone = api.post_with(
            "/api/v1/auth/token",
            &json!({"email": "ada@example.org", "password": PASSWORD}),
            &[("User-Agent", "Phone/1.0")],
        );
        let phone = phone.ok().clone();
        let laptop = login(&api, "ada");
        let tablet = login(&api, "ada");
        let me = holding(&api, &laptop);

        let listed = me.get("/api/v1/account/sessions").ok().clone();
        let listed = listed.as_array().unwrap();
        // The registration's session, and three logins.
        assert_eq!(listed.len(), 4, "{backend:?}: {listed:?}");
        let current: Vec<_> = listed.iter().filter(|s| s["current"] == true).collect();
        assert_eq!(current.len(), 1);
        assert_eq!(current[0]["id"], laptop["session_id"]);
        let on_phone = listed
            .iter()
            .find(|s| s["id"] == phone["session_id"])
            .unwrap();
        assert_eq!(on_phone["user_agent"], "Phone/1.0");
        assert_eq!(on_phone["ip"], "127.0.0.1");

        // Another account cannot see or end them.
        let phone_path = format!("/api/v1/account/sessions/{}", phone["session_id"]);
        bob.delete(&phone_path).problem(404, "not_found");
        me.delete(&phone_path).ok();
        me.delete(&phone_path).problem(404, "not_found");
        refresh(&api, text(&phone, "refresh_token")).problem(401, "session_revoked");
        refresh(&api, text(&tablet, "refresh_token")).ok();

        // Logout ends the caller's own session only.
        me.post("/api/v1/auth/logout", &json!({})).ok();
        refresh(&api, text(&laptop, "refresh_token")).problem(401, "session_revoked");
        let left = holding(&api, &login(&api, "ada"));
        assert_eq!(
            left.get("/api/v1/account/sessions")
                .ok()
                .as_array()
                .unwrap()
                .len(),
            3
        );

        // All at once.
        left.delete("/api/v1/account/sessions").ok();
        assert_eq!(
            left.get("/api/v1/account/sessions").ok(),
            &json!([]),
            "{backend:?}"
        );
        refresh(&api, text(&tablet, "refresh_token")).problem(401, "session_revoked");
    }
}

#[test]
fn a_password_change_or_an_admin_disable_ends_every_session() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (_, uid) = api.register("ada");
        let elsewhere = login(&api, "ada");
        let here = login(&api, "ada");
        let me = holding(&api, &here);

        let change = |current: &str| {
            me.put(
                "/api/v1/account/password",
                &json!({"current_password": current, "new_password": "staple battery horse"}),
            )
        };
        change("not the password").problem(403, "wrong_password");
        me.put(
            "/api/v1/account/password",
            &json!({"current_password": PASSWORD, "new_password": "short"}),
        )
        .problem(422, "invalid_password");
        refresh(&api, text(&elsewhere, "refresh_token")).ok();
        let elsewhere = login(&api, "ada");

        let renewed = change(PASSWORD).ok().clone();
        refresh(&api, text(&elsewhere, "refresh_token")).problem(401, "session_revoked");
        refresh(&api, text(&here, "refresh_token")).problem(401, "session_revoked");
        let renewed = refresh(&api, text(&renewed, "refresh_token")).ok().clone();
        api.post(
            "/api/v1/auth/token",
            &json!({"email": "ada@example.org", "password": PASSWORD}),
        )
        .problem(401, "bad_credentials");

        let (admin, _) = register_admin(&server, "root");
        let disable = format!("/api/v1/admin/users/{uid}/disable");
        me.post(&disable, &json!({})).problem(403, "forbidden");
        admin
            .post("/api/v1/admin/users/999999/disable", &json!({}))
            .problem(404, "not_found");
        admin.post(&disable, &json!({})).ok();
        refresh(&api, text(&renewed, "refresh_token")).problem(401, "session_revoked");
        let new_login = json!({"email": "ada@example.org", "password": "staple battery horse"});
        api.post("/api/v1/auth/token", &new_login)
            .problem(403, "account_disabled");
        admin
            .post(&format!("/api/v1/admin/users/{uid}/enable"), &json!({}))
            .ok();
        api.post("/api/v1/auth/token", &new_login).ok();
    }
}

/// The value of the refresh cookie a reply sets, and its attributes.
fn set_cookie(r: &Reply) -> String {
    r.headers
        .get_all("set-cookie")
        .iter()
        .map(|v| v.to_str().unwrap().to_string())
        .find(|c| c.starts_with("hexpost_refresh="))
        .unwrap_or_else(|| panic!("no refresh cookie: {:?}", r.headers))
}

fn cookie_value(set: &str) -> &str {
    set.split(';').next().unwrap()
}

#[test]
fn a_browser_keeps_its_refresh_token_in_a_strict_http_only_cookie() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        api.register("ada");
        let r = api.post(
            "/api/v1/auth/token",
            &json!({"email": "ada@example.org", "password": PASSWORD, "refresh_cookie": true}),
        );
        assert!(r.ok().get("refresh_token").is_none(), "{}", r.body);
        let set = set_cookie(&r);
        for attribute in [
            "HttpOnly",
            "SameSite=Strict",
            "Path=/api/v1/auth",
            "Max-Age=",
        ] {
            assert!(set.contains(attribute), "{backend:?}: {set}");
        }
        // Plain http here; an https PUBLIC_BASE_URL adds Secure.
        assert!(!set.contains("Secure"), "{set}");

        let cookie = cookie_value(&set).to_string();
        let refreshed = api.post_with("/api/v1/auth/refresh", &json!({}), &[("Cookie", &cookie)]);
        assert!(refreshed.ok()["access_token"].is_string());
        let next = cookie_value(&set_cookie(&refreshed)).to_string();
        assert_ne!(next, cookie);
        // A form post cannot send JSON: no body, no refresh.
        api.post_raw(
            "/api/v1/auth/refresh",
            "refresh_token=x",
            &[
                ("Cookie", &next),
                ("Content-Type", "application/x-www-form-urlencoded"),
            ],
        )
        .problem(415, "unsupported_media_type");

        // A reused cookie ends the session and is cleared.
        server.advance(31_000);
        let reused = api.post_with("/api/v1/auth/refresh", &json!({}), &[("Cookie", &cookie)]);
        reused.problem(401, "refresh_token_reused");
        assert!(
            set_cookie(&reused).contains("Max-Age=0"),
            "{:?}",
            reused.headers
        );

        let secure = TestServer::start_with(
            backend,
            &[("PUBLIC_BASE_URL", "https://hexpost.example.org")],
        );
        let api = secure.client();
        api.register("ada");
        let r = api.post(
            "/api/v1/auth/token",
            &json!({"email": "ada@example.org", "password": PASSWORD, "refresh_cookie": true}),
        );
        assert!(set_cookie(&r).contains("Secure"));
    }
}

fn redeem(api: &Api, code: &str, game: &str) -> Reply {
    api.post(
        "/api/v1/auth/mail-link",
        &json!({"code": code, "game_id": game}),
    )
}

#[test]
fn a_mail_link_signs_in_once_for_its_game_only() {
    for backend in BACKENDS {
        let server = TestServer::start_with(
            backend,
            &[
                ("MAIL_POLL_INTERVAL_MS", "50"),
                ("MAIL_SIGN_IN_HOURS", "48"),
            ],
        );
        let api = server.client();
        let (creator, _, game) = api.new_game("standard", json!({}));
        let me = creator.get("/api/v1/me").ok().clone();
        let email = text(&me, "email");
        // The creator is told that the game started, with a link to it.
        let code = common::mailed_sign_in_code(&server, &game, email);

        let (_, _, other_game) = api.new_game("standard", json!({}));
        redeem(&api, &code, &other_game).problem(401, "invalid_sign_in_link");
        let signed_in = redeem(&api, &code, &game).ok().clone();
        assert_eq!(signed_in["user"]["id"], me["id"], "{backend:?}");
        let session = holding(&api, &signed_in);
        session.get(&format!("/api/v1/games/{game}")).ok();
        refresh(&api, text(&signed_in, "refresh_token")).ok();
        redeem(&api, &code, &game).problem(401, "sign_in_link_used");
        redeem(&api, "Zm9yZ2Vk", &game).problem(401, "invalid_sign_in_link");

        // A link not used in time expires.
        let (late, _, late_game) = api.new_game("standard", json!({}));
        let late_email = late.get("/api/v1/me").ok()["email"]
            .as_str()
            .unwrap()
            .to_string();
        let late_code = common::mailed_sign_in_code(&server, &late_game, &late_email);
        server.advance(48 * 3_600_000 + 60_000);
        redeem(&api, &late_code, &late_game).problem(401, "sign_in_link_expired");
    }
}

/// A sign-in code mailed before the password changed, or before every
/// session was ended, no longer signs in: it is a way in like a session.
#[test]
fn a_password_change_or_ending_every_session_voids_mailed_sign_in_codes() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("MAIL_POLL_INTERVAL_MS", "50")]);
        let api = server.client();
        // A new game's creator, their game, and the code mailed to them.
        let mailed = || {
            let (creator, _, game) = api.new_game("standard", json!({}));
            let me = creator.get("/api/v1/me").ok().clone();
            let code = common::mailed_sign_in_code(&server, &game, text(&me, "email"));
            (creator, game, code)
        };
        let (creator, game, code) = mailed();
        creator
            .put(
                "/api/v1/account/password",
                &json!({"current_password": PASSWORD, "new_password": "staple battery horse"}),
            )
            .ok();
        redeem(&api, &code, &game).problem(401, "sign_in_link_used");

        let (creator, game, code) = mailed();
        creator.delete("/api/v1/account/sessions").ok();
        redeem(&api, &code, &game).problem(401, "sign_in_link_used");
    }
}

#[test]
fn no_refusal_tells_whether_an_account_exists() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        api.register("ada");
        let wrong_password = api.post(
            "/api/v1/auth/token",
            &json!({"email": "ada@example.org", "password": "not the password"}),
        );
        let no_account = api.post(
            "/api/v1/auth/token",
            &json!({"email": "nobody@example.org", "password": "not the password"}),
        );
        wrong_password.problem(401, "bad_credentials");
        no_account.problem(401, "bad_credentials");
        assert_eq!(wrong_password.body["detail"], no_account.body["detail"]);

        // A mail link for a game that exists and one that does not.
        let (_, _, game) = api.new_game("standard", json!({}));
        let real_game = redeem(&api, "Zm9yZ2Vk", &game);
        let no_game = redeem(&api, "Zm9yZ2Vk", "00000000-0000-0000-0000-000000000000");
        real_game.problem(401, "invalid_sign_in_link");
        no_game.problem(401, "invalid_sign_in_link");
        assert_eq!(
            real_game.body["detail"], no_game.body["detail"],
            "{backend:?}"
        );
    }
}

/// What is left on the server's database of a session, of sign-in codes
/// that expired before `expired_before`, and of an Idempotency-Key.
fn stored(server: &TestServer, session: i64, expired_before: i64, key: &str) -> [i64; 3] {
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    let session = sessions::table
        .filter(sessions::id.eq(session))
        .count()
        .get_result(&mut conn)
        .unwrap();
    let codes = sign_in_codes::table
        .filter(sign_in_codes::expires_at.lt(expired_before))
        .count()
        .get_result(&mut conn)
        .unwrap();
    let keys = idempotency_keys::table
        .filter(idempotency_keys::key.eq(key))
        .count()
        .get_result(&mut conn)
        .unwrap();
    [session, codes, keys]
}

/// How many mails were sent up to `sent_by`, and how many of them still
/// hold their stored context.
fn sent_mails(server: &TestServer, sent_by: i64) -> [i64; 2] {
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    let sent = outbox::table
        .filter(outbox::status.eq("sent"))
        .filter(outbox::sent_at.le(sent_by));
    let all = sent.count().get_result(&mut conn).unwrap();
    let with_context = sent
        .filter(outbox::context.ne(""))
        .count()
        .get_result(&mut conn)
        .unwrap();
    [all, with_context]
}

#[test]
fn what_ended_is_deleted_a_month_later() {
    for backend in BACKENDS {
        let server = TestServer::start_with(
            backend,
            &[
                ("DEADLINE_SWEEP_INTERVAL_MS", "50"),
                ("MAIL_POLL_INTERVAL_MS", "50"),
                ("SESSION_IDLE_DAYS", "90"),
                ("SESSION_LIFETIME_DAYS", "365"),
            ],
        );
        let api = server.client();
        let (a, b, game) = api.new_game("standard", json!({}));
        let email = a.get("/api/v1/me").ok()["email"]
            .as_str()
            .unwrap()
            .to_string();
        let code = common::mailed_sign_in_code(&server, &game, &email);
        let (p, _, view) = awaited([&a, &b], &game);
        let key = "retried-within-a-month";
        p.post_with(
            &format!("/api/v1/games/{game}/moves"),
            &json!({"expected_move_number": view["move_number"], "action": a_legal_move(&view)}),
            &[("Idempotency-Key", key)],
        )
        .ok();
        api.register("ada");
        let kept = login(&api, "ada");
        let ended = login(&api, "ada");
        holding(&api, &ended)
            .post("/api/v1/auth/logout", &json!({}))
            .ok();
        let ended_id = ended["session_id"].as_i64().unwrap();
        let kept_id = kept["session_id"].as_i64().unwrap();
        // The codes mailed so far expire within MAIL_SIGN_IN_HOURS (72).
        let codes_end = server.clock.now() + 72 * 3_600_000 + 60_000;
        assert_eq!(stored(&server, ended_id, codes_end, key)[2], 1);
        assert!(stored(&server, ended_id, codes_end, key)[1] >= 1);
        server.wait_outbox_drained();
        let mails_by = server.clock.now();
        let [mails, _] = sent_mails(&server, mails_by);
        assert!(mails >= 2, "{backend:?}: {mails} mails sent");
        assert_eq!(sent_mails(&server, mails_by), [mails, mails]);
        // Within the month everything is kept, through many sweeps.
        server.advance(29 * DAY_MS);
        std::thread::sleep(std::time::Duration::from_millis(500));
        let before = stored(&server, ended_id, codes_end, key);
        assert_eq!([before[0], before[2]], [1, 1], "{backend:?}: deleted early");
        assert!(before[1] >= 1, "{backend:?}: codes deleted early");
        assert_eq!(
            sent_mails(&server, mails_by),
            [mails, mails],
            "{backend:?}: mail contexts emptied early"
        );
        redeem(&api, &code, &game).problem(401, "sign_in_link_expired");
        refresh(&api, text(&ended, "refresh_token")).problem(401, "session_revoked");

        // A month after their end (the codes 72 hours after the game's
        // mails, the session at its logout, the key at its move): gone.
        // The mails sent then are kept, their contexts emptied.
        server.advance(5 * DAY_MS);
        let start = std::time::Instant::now();
        while stored(&server, ended_id, codes_end, key) != [0, 0, 0]
            || sent_mails(&server, mails_by) != [mails, 0]
        {
            assert!(
                start.elapsed() < std::time::Duration::from_secs(20),
                "{backend:?}: ended rows are kept: {:?}, mails {:?}",
                stored(&server, ended_id, codes_end, key),
                sent_mails(&server, mails_by)
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        refresh(&api, text(&ended, "refresh_token")).problem(401, "invalid_refresh_token");
        redeem(&api, &code, &game).problem(401, "invalid_sign_in_link");
        // A session in use is not touched.
        assert_eq!(stored(&server, kept_id, codes_end, key)[0], 1);
        refresh(&api, text(&kept, "refresh_token")).ok();
    }
}
