//! The account lifecycle, on SQLite and PostgreSQL, each step as a person
//! takes it (the codes read from the mail the server wrote): registration
//! proven by the address, password reset, sign-in by mail, moving to
//! another address, deletion with nothing of the person left behind, and
//! the data export. Every refusal is checked to change nothing.

use crate::common::{self, Api, BACKENDS, TestServer, game, register_admin};
use diesel::prelude::*;
use serde_json::{Value, json};

const PASSWORD: &str = "correct horse battery";

fn sign_up(api: &Api, email: &str, name: &str) -> common::Reply {
    api.post(
        "/api/v1/accounts",
        &json!({"email": email, "display_name": name, "password": PASSWORD}),
    )
}

fn login(api: &Api, email: &str, password: &str) -> common::Reply {
    api.post(
        "/api/v1/auth/token",
        &json!({"email": email, "password": password}),
    )
}

fn confirm(api: &Api, email: &str, code: &str) -> common::Reply {
    api.post(
        "/api/v1/accounts/confirm",
        &json!({"email": email, "code": code}),
    )
}

/// How many mails the outbox holds to `to` of `kind`.
fn mails_to(server: &TestServer, to: &str, kind: &str) -> i64 {
    use hexpost::store::schema::outbox;
    let mut conn = server.db().get().unwrap();
    outbox::table
        .filter(outbox::recipient.eq(to))
        .filter(outbox::kind.eq(kind))
        .count()
        .get_result(&mut conn)
        .unwrap()
}

fn holding(api: &Api, body: &Value) -> Api {
    api.with_token(body["access_token"].as_str().unwrap())
}

#[test]
fn a_registration_exists_only_once_its_address_confirmed_it() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("MAIL_POLL_INTERVAL_MS", "50")]);
        let api = server.client();
        let email = "ada@example.org";

        let first = sign_up(&api, email, "Ada");
        assert_eq!(first.status, 202, "{backend:?}: {}", first.body);
        assert_eq!(first.body["status"], "code_sent");
        assert_eq!(first.body["code_valid_for_secs"], 3 * 24 * 3600);
        // Nothing exists yet: no sign-in, no password reset mail.
        login(&api, email, PASSWORD).problem(401, "bad_credentials");
        let code = api.mailed_code(email, "/confirm");
        confirm(&api, email, "00000-00000").problem(400, "invalid_code");
        confirm(&api, "other@example.org", &code).problem(400, "invalid_code");

        // Typed as people type it: lower case, no dash.
        let typed = code.replace('-', "").to_lowercase();
        let signed_in = confirm(&api, email, &typed);
        assert_eq!(signed_in.status, 201, "{backend:?}: {}", signed_in.body);
        assert_eq!(signed_in.body["user"]["display_name"], "Ada");
        holding(&api, signed_in.ok()).get("/api/v1/me").ok();
        login(&api, email, PASSWORD).ok();
        confirm(&api, email, &code).problem(400, "invalid_code");

        // The same address again: the same answer, and its owner is mailed
        // a password reset code instead of a second account.
        let again = sign_up(&api, email, "Mallory");
        assert_eq!(again.status, 202);
        assert_eq!(
            again.body, first.body,
            "{backend:?}: nothing tells them apart"
        );
        assert_eq!(mails_to(&server, email, "already_registered"), 1);
        let reset = api.mailed_code(email, "/reset");
        api.post(
            "/api/v1/auth/password-reset/confirm",
            &json!({"email": email, "code": reset, "new_password": "staple battery horse"}),
        )
        .ok();
        login(&api, email, "staple battery horse").ok();
    }
}

#[test]
fn a_squatter_cannot_lock_the_owner_of_an_address_out() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("MAIL_POLL_INTERVAL_MS", "50")]);
        let api = server.client();
        let email = "alice@example.org";
        // Mallory registers Alice's address first; the code goes to Alice.
        assert_eq!(sign_up(&api, email, "Mallory").status, 202);
        let mallorys = api.mailed_code(email, "/confirm");
        // Guessing fails, and five wrong guesses end the address's codes.
        for _ in 0..5 {
            confirm(&api, email, "ZZZZZ-ZZZZZ").problem(400, "invalid_code");
        }
        confirm(&api, email, &mallorys).problem(400, "invalid_code");

        // Alice registers herself and confirms with her own mail's code.
        assert_eq!(sign_up(&api, email, "Alice").status, 202);
        let hers = api.mailed_code(email, "/confirm");
        assert_ne!(hers, mallorys);
        let account = confirm(&api, email, &hers);
        assert_eq!(account.status, 201, "{backend:?}: {}", account.body);
        assert_eq!(account.body["user"]["display_name"], "Alice");
        login(&api, email, PASSWORD).ok();
    }
}

#[test]
fn an_unconfirmed_registration_expires_and_is_forgotten() {
    for backend in BACKENDS {
        let server = TestServer::start_with(
            backend,
            &[
                ("MAIL_POLL_INTERVAL_MS", "50"),
                ("DEADLINE_SWEEP_INTERVAL_MS", "50"),
            ],
        );
        let api = server.client();
        let email = "late@example.org";
        assert_eq!(sign_up(&api, email, "Late").status, 202);
        let code = api.mailed_code(email, "/confirm");
        server.advance(3 * 24 * 3_600_000 + 60_000);
        confirm(&api, email, &code).problem(400, "invalid_code");
        // The sweeper forgets it, name and password hash with it.
        let start = std::time::Instant::now();
        loop {
            use hexpost::store::schema::account_codes;
            let left: i64 = account_codes::table
                .count()
                .get_result(&mut server.db().get().unwrap())
                .unwrap();
            if left == 0 {
                break;
            }
            assert!(
                start.elapsed().as_secs() < 30,
                "{backend:?}: {left} codes kept"
            );
            std::thread::sleep(std::time::Duration::from_millis(20));
        }
    }
}

#[test]
fn an_invitation_mailed_to_an_address_proves_it() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (host, _) = api.register("host");
        let created = host.post(
            "/api/v1/games",
            &json!({"variant": "standard", "opponent_email": "carol@example.org"}),
        );
        let token = created.ok()["invite_token"].as_str().unwrap().to_string();
        let register = |email: &str, token: &str| {
            api.post(
                "/api/v1/accounts",
                &json!({"email": email, "display_name": "Carol", "password": PASSWORD,
                        "invitation_token": token}),
            )
        };
        // Not the invited address, or not an invitation: a code as usual.
        assert_eq!(register("dave@example.org", &token).status, 202);
        assert_eq!(register("carol@example.org", "feedface").status, 202);
        let carol = register("carol@example.org", &token);
        assert_eq!(carol.status, 201, "{backend:?}: {}", carol.body);
        let carol = holding(&api, carol.ok());
        carol
            .post(&format!("/api/v1/invitations/{token}/accept"), &json!({}))
            .ok();
    }
}

#[test]
fn a_password_reset_by_mail_ends_every_session_and_works_once() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("MAIL_POLL_INTERVAL_MS", "50")]);
        let api = server.client();
        api.register("ada");
        let email = "ada@example.org";
        let session = login(&api, email, PASSWORD).ok().clone();
        let request = |to: &str| api.post("/api/v1/auth/password-reset", &json!({"email": to}));
        // An address without an account gets the same answer, and no mail.
        let unknown = request("nobody@example.org");
        let known = request(email);
        assert_eq!((unknown.status, known.status), (202, 202));
        assert_eq!(unknown.body["status"], known.body["status"]);
        assert_eq!(mails_to(&server, "nobody@example.org", "password_reset"), 0);
        let code = api.mailed_code(email, "/reset");
        let reset = |code: &str, password: &str| {
            api.post(
                "/api/v1/auth/password-reset/confirm",
                &json!({"email": email, "code": code, "new_password": password}),
            )
        };
        reset(&code, "short").problem(422, "invalid_password");
        reset("WRONG-WRONG", "staple battery horse").problem(400, "invalid_code");
        assert_eq!(reset(&code, "staple battery horse").status, 204);
        reset(&code, "another good one").problem(400, "invalid_code");
        login(&api, email, PASSWORD).problem(401, "bad_credentials");
        login(&api, email, "staple battery horse").ok();
        api.post(
            "/api/v1/auth/refresh",
            &json!({"refresh_token": session["refresh_token"]}),
        )
        .problem(401, "session_revoked");

        // At most three codes an hour to one address: the fourth request
        // is answered alike and mails nothing.
        for _ in 0..3 {
            assert_eq!(request(email).status, 202);
        }
        assert_eq!(mails_to(&server, email, "password_reset"), 3);
        // A code works an hour.
        let late = api.mailed_code(email, "/reset");
        server.advance(3_600_000 + 1000);
        reset(&late, "staple battery horse 2").problem(400, "invalid_code");
    }
}

#[test]
fn a_mailed_sign_in_code_signs_in_once() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("MAIL_POLL_INTERVAL_MS", "50")]);
        let api = server.client();
        api.register("ada");
        let email = "ada@example.org";
        let asked = api.post("/api/v1/auth/sign-in-code", &json!({"email": email}));
        assert_eq!(asked.status, 202);
        let code = api.mailed_code(email, "/sign-in");
        let redeem = |code: &str| {
            api.post(
                "/api/v1/auth/sign-in-code/redeem",
                &json!({"email": email, "code": code}),
            )
        };
        let signed_in = redeem(&code).ok().clone();
        assert_eq!(signed_in["user"]["email"], email);
        holding(&api, &signed_in).get("/api/v1/me").ok();
        redeem(&code).problem(400, "invalid_code");
        // A code is bound to its purpose: a sign-in code resets nothing.
        api.post("/api/v1/auth/sign-in-code", &json!({"email": email}));
        let code = api.mailed_code(email, "/sign-in");
        api.post(
            "/api/v1/auth/password-reset/confirm",
            &json!({"email": email, "code": code, "new_password": "staple battery horse"}),
        )
        .problem(400, "invalid_code");
    }
}

#[test]
fn an_account_moves_to_a_new_address_once_the_new_address_confirms() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("MAIL_POLL_INTERVAL_MS", "50")]);
        let api = server.client();
        let (ada, _) = api.register("ada");
        api.register("grace");
        let change = |new: &str, password: Option<&str>| {
            ada.put(
                "/api/v1/account/email",
                &json!({"new_email": new, "password": password}),
            )
        };
        change("ada@example.net", Some("not it")).problem(403, "wrong_password");
        change("ada@example.org", Some(PASSWORD)).problem(422, "same_email");
        // Within ten minutes of signing in the password may be left out.
        assert_eq!(change("ada@example.net", None).status, 202);
        server.advance(11 * 60_000);
        change("ada@example.net", None).problem(403, "password_required");

        let code = api.mailed_code("ada@example.net", "/account/email");
        let confirm_new = |email: &str, code: &str| {
            api.post(
                "/api/v1/account/email/confirm",
                &json!({"email": email, "code": code}),
            )
        };
        confirm_new("ada@example.org", &code).problem(400, "invalid_code");
        let moved = confirm_new("ada@example.net", &code).ok().clone();
        assert_eq!(moved["email"], "ada@example.net");
        assert_eq!(mails_to(&server, "ada@example.org", "address_changed"), 1);
        login(&api, "ada@example.net", PASSWORD).ok();
        login(&api, "ada@example.org", PASSWORD).problem(401, "bad_credentials");

        // An address with an account of its own is told, and nothing moves.
        let ada = holding(&api, login(&api, "ada@example.net", PASSWORD).ok());
        assert_eq!(
            ada.put(
                "/api/v1/account/email",
                &json!({"new_email": "grace@example.org", "password": PASSWORD}),
            )
            .status,
            202
        );
        assert_eq!(mails_to(&server, "grace@example.org", "address_taken"), 1);
        assert_eq!(ada.get("/api/v1/me").ok()["email"], "ada@example.net");
    }
}

/// Every row of every table as text, to search for what must be gone.
fn every_row(server: &TestServer) -> Vec<(String, String)> {
    use diesel::sql_types::Text;
    #[derive(QueryableByName)]
    struct Line {
        #[diesel(sql_type = Text)]
        line: String,
    }
    let mut conn = server.db().get().unwrap();
    let pg = server.database_url.starts_with("postgres");
    let tables: Vec<Line> = if pg {
        diesel::sql_query(
            "SELECT table_name AS line FROM information_schema.tables \
             WHERE table_schema = 'public' AND table_type = 'BASE TABLE'",
        )
        .load(&mut conn)
        .unwrap()
    } else {
        diesel::sql_query(
            "SELECT name AS line FROM sqlite_master WHERE type = 'table' \
             AND name NOT LIKE 'sqlite_%'",
        )
        .load(&mut conn)
        .unwrap()
    };
    let mut rows = Vec::new();
    for Line { line: table } in tables {
        let query = if pg {
            format!("SELECT row_to_json(t)::text AS line FROM \"{table}\" t")
        } else {
            #[derive(QueryableByName)]
            struct Column {
                #[diesel(sql_type = Text)]
                name: String,
            }
            let columns: Vec<Column> =
                diesel::sql_query(format!("SELECT name FROM pragma_table_info('{table}')"))
                    .load(&mut conn)
                    .unwrap();
            let joined = columns
                .iter()
                .map(|c| format!("coalesce(quote(\"{}\"), '')", c.name))
                .collect::<Vec<_>>()
                .join(" || ',' || ");
            format!("SELECT {joined} AS line FROM \"{table}\"")
        };
        let lines: Vec<Line> = diesel::sql_query(query).load(&mut conn).unwrap();
        rows.extend(lines.into_iter().map(|l| (table.clone(), l.line)));
    }
    rows
}

#[test]
fn a_deleted_account_leaves_nothing_of_the_person_and_its_games_still_verify() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("MAIL_POLL_INTERVAL_MS", "50")]);
        let api = server.client();
        let (root, _) = register_admin(&server, "root");
        let name = "Zyxwv Quokka";
        let email = "zyxwv.quokka@example.org";
        assert_eq!(sign_up(&api, email, name).status, 202);
        let me = holding(&api, &api.confirm(email));
        let (other, _) = api.register("other");
        // A finished game, a running one, an open one, and an invitation
        // to the person's address.
        let play = |creator: &Api, opponent: &Api, to: &str| {
            let created = creator.post(
                "/api/v1/games",
                &json!({"variant": "standard", "opponent_email": to}),
            );
            let body = created.ok().clone();
            let id = body["game"]["id"].as_str().unwrap().to_string();
            let token = body["invite_token"].as_str().unwrap().to_string();
            opponent
                .post(&format!("/api/v1/invitations/{token}/accept"), &json!({}))
                .ok();
            id
        };
        let finished = play(&me, &other, "other@example.org");
        common::play_moves([&me, &other], &finished, 7, 40);
        me.post(&format!("/api/v1/games/{finished}/resign"), &json!({}))
            .ok();
        let running = play(&other, &me, email);
        common::play_moves([&me, &other], &running, 8, 30);
        me.post(
            "/api/v1/games",
            &json!({"variant": "duel", "opponent_email": "nobody@example.org"}),
        )
        .ok();
        other
            .post(
                "/api/v1/games",
                &json!({"variant": "standard", "opponent_email": email}),
            )
            .ok();
        // A code waiting: the person in one more table.
        api.post("/api/v1/auth/sign-in-code", &json!({"email": email}));
        api.mailed_code(email, "/sign-in");
        server.wait_outbox_drained();

        me.post(
            "/api/v1/account/delete",
            &json!({"password": "wrong password"}),
        )
        .problem(403, "wrong_password");
        let deleted = me
            .post("/api/v1/account/delete", &json!({"password": PASSWORD}))
            .ok()
            .clone();
        assert_eq!(
            deleted["resigned"],
            json!([running]),
            "{backend:?}: {deleted}"
        );
        assert_eq!(deleted["cancelled"].as_array().unwrap().len(), 1);
        assert_eq!(deleted["declined"].as_array().unwrap().len(), 1);
        server.wait_outbox_drained();

        let lower = name.to_lowercase();
        let left: Vec<_> = every_row(&server)
            .into_iter()
            .filter(|(_, row)| {
                let row = row.to_lowercase();
                row.contains(email) || row.contains(&lower) || row.contains("zyxwv")
            })
            .collect();
        assert!(
            left.is_empty(),
            "{backend:?}: the person is still in {left:#?}"
        );

        for id in [&finished, &running] {
            let report = root.get(&format!("/api/v1/admin/games/{id}/verify"));
            assert_eq!(report.ok()["ok"], true, "{backend:?}: {}", report.body);
            let seen = game(&other, id);
            let names: Vec<&str> = seen["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["display_name"].as_str().unwrap())
                .collect();
            assert!(
                names.contains(&"a deleted player"),
                "{backend:?}: {names:?}"
            );
            assert_eq!(seen["status"], "finished");
        }
        login(&api, email, PASSWORD).problem(401, "bad_credentials");
        // The access token still in hand starts nothing.
        me.post(
            "/api/v1/games",
            &json!({"variant": "standard", "opponent_email": "x@example.org"}),
        )
        .problem(401, "unauthorized");
        // The address is free for a new account.
        assert_eq!(sign_up(&api, email, name).status, 202);
        assert_eq!(api.confirm(email)["user"]["display_name"], name);
    }
}

#[test]
fn an_admin_deletes_an_account_on_request() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (root, _) = register_admin(&server, "root");
        let (user, id) = api.register("leaving");
        user.post("/api/v1/admin/users/1/delete", &json!({}))
            .problem(403, "forbidden");
        root.post(&format!("/api/v1/admin/users/{id}/delete"), &json!({}))
            .ok();
        root.post(&format!("/api/v1/admin/users/{id}/delete"), &json!({}))
            .problem(404, "not_found");
        login(&api, "leaving@example.org", PASSWORD).problem(401, "bad_credentials");
    }
}

#[test]
fn the_export_holds_the_account_its_games_moves_and_mails() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("MAIL_POLL_INTERVAL_MS", "50")]);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        common::play_moves([&a, &b], &id, 3, 12);
        server.wait_outbox_drained();
        let export = a.get("/api/v1/account/export");
        assert!(
            export.headers["content-disposition"]
                .to_str()
                .unwrap()
                .starts_with("attachment"),
            "{backend:?}"
        );
        let doc = export.ok();
        let me = a.get("/api/v1/me").ok().clone();
        assert_eq!(doc["format"], "hexpost-account-export");
        assert_eq!(doc["account"]["email"], me["email"]);
        assert_eq!(doc["games"][0]["id"], id.as_str());
        let own = doc["games"][0]["your_moves"].as_array().unwrap();
        let log = a.full_log(&id, false);
        let mine = log.iter().filter(|r| r["user_id"] == me["id"]).count();
        assert_eq!(own.len(), mine, "{backend:?}: every own move, no other");
        assert!(!doc["sessions"].as_array().unwrap().is_empty());
        let kinds: Vec<&str> = doc["mails"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["kind"].as_str().unwrap())
            .collect();
        assert!(kinds.contains(&"confirm_registration"), "{kinds:?}");
        // A sent mail's code is not kept, in the export or anywhere.
        for mail in doc["mails"].as_array().unwrap() {
            if mail["kind"] == "confirm_registration" {
                assert!(mail["context"].get("code").is_none(), "{backend:?}: {mail}");
                assert!(
                    mail["context"].get("link_query").is_none(),
                    "{backend:?}: {mail}"
                );
            }
        }
        b.get("/api/v1/account/export").ok();
    }
}
