//! Admin operations over games, by API and by `hexpost admin`: listing,
//! export (no seed before the end), import into an empty database with
//! verification (the backup-and-restore path for one game), and purging
//! invitations nobody answered.

use crate::common::{self, Api, BACKENDS, TempDatabase, TestServer, game};
use diesel::prelude::*;
use hexpost::store::schema::{admin_log, games, invitations};
use serde_json::{Value, json};
use std::process::{Command, Output};

fn hexpost(database_url: &str, data_dir: &std::path::Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexpost"))
        .args(args)
        .env("DATABASE_URL", database_url)
        .env("HEXPOST_DATA_DIR", data_dir)
        .env("JWT_KEYS", "test:0123456789abcdef0123456789abcdef")
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

fn stdout_json(out: &Output) -> Value {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

fn admin_actions(server: &TestServer, action: &str) -> Vec<String> {
    let pool = server.db();
    admin_log::table
        .filter(admin_log::action.eq(action))
        .order(admin_log::id.asc())
        .select(admin_log::target)
        .load(&mut pool.get().unwrap())
        .unwrap()
}

/// An admin (registered first, so id 1) and a game of two players that
/// has seen some moves: (admin, creator, opponent, game id).
fn played_game(server: &TestServer) -> (Api, Api, Api, String) {
    let (admin, _) = common::register_admin(server, "root");
    let (a, b, id) = server.client().new_game("standard", json!({}));
    common::play_moves([&a, &b], &id, 11, 25);
    (admin, a, b, id)
}

#[test]
fn a_finished_game_exported_imports_into_an_empty_database_and_verifies() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (admin, a, _b, id) = played_game(&server);

        // While the game runs, its export hides the seed and the state
        // (they would reveal the deck and the dice to come) and cannot be
        // imported.
        let running = admin
            .get(&format!("/api/v1/admin/games/{id}/export"))
            .ok()
            .clone();
        assert_eq!(running["game"]["status"], "active");
        assert!(running["game"]["seed"].is_null() && running["game"]["state"].is_null());
        let stored_seed: String = games::table
            .find(&id)
            .select(games::seed)
            .first(&mut server.db().get().unwrap())
            .unwrap();
        assert!(!running.to_string().contains(&stored_seed), "{backend:?}");
        assert!(running["log"].as_array().unwrap().len() > 25);

        a.post(&format!("/api/v1/games/{id}/resign"), &json!({}))
            .ok();
        let out = server.data_dir.join("export.json");
        let cli = hexpost(
            &server.database_url,
            &server.data_dir,
            &["admin", "export", &id, "--out", out.to_str().unwrap()],
        );
        assert!(
            cli.status.success(),
            "{}",
            String::from_utf8_lossy(&cli.stderr)
        );
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
        assert_eq!(doc["format"], "hexpost.game.v1");
        assert_eq!(doc["game"]["seed"], stored_seed.as_str());
        assert!(doc["game"]["state"].is_string());
        let over_api = admin
            .get(&format!("/api/v1/admin/games/{id}/export"))
            .ok()
            .clone();
        assert_eq!(
            over_api["log"], doc["log"],
            "{backend:?}: the same document"
        );
        let move_number = game(&a, &id)["move_number"].as_i64().unwrap();
        assert_eq!(doc["log"].as_array().unwrap().len() as i64, move_number);
        assert_eq!(
            admin_actions(&server, "export"),
            [id.clone(), id.clone(), id.clone()]
        );

        // Restore into an empty database with the CLI, then verify there.
        let empty = TempDatabase::new(backend);
        let dir = server.data_dir.join("restore");
        let imported = stdout_json(&hexpost(
            &empty.url,
            &dir,
            &["admin", "import", out.to_str().unwrap()],
        ));
        assert_eq!(imported["game_id"], id.as_str());
        assert_eq!(imported["users_created"], 2);
        assert_eq!(imported["verification"]["ok"], true);
        let verified = stdout_json(&hexpost(&empty.url, &dir, &["admin", "verify", &id]));
        assert_eq!(verified["ok"], true, "{backend:?}: {verified}");
        assert_eq!(verified["rows_checked"], move_number);
        let listed = stdout_json(&hexpost(
            &empty.url,
            &dir,
            &["admin", "games", "list", "--status", "finished"],
        ));
        assert_eq!(listed["id"], id.as_str());
        assert_eq!(listed["move_number"], move_number);
        // Twice is refused, and changes nothing.
        let again = hexpost(
            &empty.url,
            &dir,
            &["admin", "import", out.to_str().unwrap()],
        );
        assert_eq!(again.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&again.stderr).contains("game_exists"));

        // Over the API, into a second server whose admin has the same id
        // and address as the first's.
        let target = TestServer::start(backend);
        let (admin2, admin2_id) = common::register_admin(&target, "root");
        assert_eq!(admin2_id, 1);
        // A tampered document does not verify and leaves nothing behind.
        let mut tampered = doc.clone();
        let at = tampered["log"][5]["created_at"].as_i64().unwrap();
        tampered["log"][5]["created_at"] = (at + 1).into();
        let refused = admin2.post("/api/v1/admin/games/import", &tampered);
        let problem = refused.problem(422, "verification_failed");
        assert_eq!(problem["verification"]["divergence"]["seq"], 6, "{problem}");
        assert_eq!(
            admin2.get("/api/v1/admin/games").ok(),
            &json!([]),
            "{backend:?}: nothing imported"
        );
        let unfinished = admin2.post("/api/v1/admin/games/import", &running);
        unfinished.problem(422, "not_importable");
        // Inconsistent documents are refused before anything is written.
        type Change = fn(&mut Value);
        let broken: [(&str, Change); 8] = [
            ("a player missing", |d| {
                d["users"].as_array_mut().unwrap().pop();
            }),
            ("user id 0", |d| d["users"][0]["id"] = 0.into()),
            ("a row twice", |d| {
                let row = d["log"][3].clone();
                d["log"].as_array_mut().unwrap().insert(3, row);
            }),
            ("another variant", |d| d["game"]["variant"] = "duel".into()),
            ("no winner", |d| d["game"]["winner_seat"] = Value::Null),
            ("one seat twice", |d| d["seats"][1]["seat"] = 0.into()),
            // PostgreSQL text cannot store these: refused before writing.
            ("a NUL in the game id", |d| {
                d["game"]["id"] = "g\u{0}1".into()
            }),
            ("a NUL in a log row", |d| {
                d["log"][2]["actor"] = "seat\u{0}".into();
            }),
        ];
        for (what, change) in broken {
            let mut bad = doc.clone();
            change(&mut bad);
            let r = admin2.post("/api/v1/admin/games/import", &bad);
            assert_eq!(r.status, 422, "{backend:?} {what}: {}", r.body);
            r.problem(422, "invalid_export");
        }
        admin2
            .post("/api/v1/admin/games/import", &json!({"format": 1}))
            .problem(422, "invalid_body");
        assert_eq!(
            admin2.get("/api/v1/admin/games").ok(),
            &json!([]),
            "{backend:?}: nothing imported"
        );

        let r = admin2.post("/api/v1/admin/games/import", &doc);
        assert_eq!(r.status, 201, "{}", r.body);
        assert_eq!(r.body["users_created"], 2);
        admin2
            .post("/api/v1/admin/games/import", &doc)
            .problem(409, "game_exists");
        let report = admin2
            .get(&format!("/api/v1/admin/games/{id}/verify"))
            .ok()
            .clone();
        assert_eq!(report["ok"], true);
        // The imported game is served with its revealed seed; its players
        // cannot log in (no password), and new accounts get fresh ids.
        let detail = admin2.get(&format!("/api/v1/admin/games/{id}/log?limit=1"));
        assert_eq!(detail.ok().as_array().unwrap().len(), 1);
        let player_email = doc["users"]
            .as_array()
            .unwrap()
            .iter()
            .find(|u| u["id"] != 1)
            .unwrap()["email"]
            .clone();
        target
            .client()
            .post(
                "/api/v1/auth/token",
                &json!({"email": player_email, "password": "correct horse battery"}),
            )
            .problem(401, "bad_credentials");
        let (_, newcomer) = target.client().register("newcomer");
        let taken: Vec<i64> = doc["users"]
            .as_array()
            .unwrap()
            .iter()
            .map(|u| u["id"].as_i64().unwrap())
            .collect();
        assert!(
            !taken.contains(&newcomer),
            "{backend:?}: {newcomer} {taken:?}"
        );
        assert_eq!(admin_actions(&target, "import"), std::slice::from_ref(&id));

        // A document whose player ids belong to other accounts here.
        let other = TestServer::start(backend);
        let (admin3, _) = common::register_admin(&other, "someone");
        other.client().register("squatter");
        admin3
            .post("/api/v1/admin/games/import", &doc)
            .problem(409, "user_conflict");
        // Not for players.
        a.post("/api/v1/admin/games/import", &doc)
            .problem(403, "forbidden");
        a.get(&format!("/api/v1/admin/games/{id}/export"))
            .problem(403, "forbidden");
        admin
            .get("/api/v1/admin/games/no-such-game/export")
            .problem(404, "not_found");
    }
}

#[test]
fn admins_list_games_by_state() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (admin, a, _b, id) = played_game(&server);
        a.post(
            "/api/v1/games",
            &json!({"variant": "duel", "opponent_email": "nobody@example.org"}),
        )
        .ok();
        let all = admin.get("/api/v1/admin/games").ok().clone();
        let all = all.as_array().unwrap();
        assert_eq!(all.len(), 2, "{backend:?}");
        // Newest first.
        assert_eq!(all[0]["status"], "open");
        assert_eq!(all[1]["id"], id.as_str());
        let active = admin.get("/api/v1/admin/games?status=active").ok().clone();
        assert_eq!(active.as_array().unwrap().len(), 1);
        assert_eq!(active[0]["players"].as_array().unwrap().len(), 2);
        let page2 = admin
            .get("/api/v1/admin/games?per_page=1&page=2")
            .ok()
            .clone();
        assert_eq!(page2[0]["id"], id.as_str());
        admin
            .get("/api/v1/admin/games?status=paused")
            .problem(400, "invalid_query");
        admin
            .get("/api/v1/admin/games?per_page=0")
            .problem(400, "invalid_query");
        a.get("/api/v1/admin/games").problem(403, "forbidden");
        let cli = hexpost(
            &server.database_url,
            &server.data_dir,
            &["admin", "games", "list", "--status", "paused"],
        );
        assert_eq!(cli.status.code(), Some(1));
    }
}

/// Moves the game's creation and its invitations `days` into the past.
fn age(server: &TestServer, game_id: &str, days: i64) {
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    let then = hexpost::store::now_ms() - days * 86_400_000;
    diesel::update(games::table.find(game_id))
        .set((games::created_at.eq(then), games::updated_at.eq(then)))
        .execute(&mut conn)
        .unwrap();
    diesel::update(invitations::table.filter(invitations::game_id.eq(game_id)))
        .set(invitations::created_at.eq(then))
        .execute(&mut conn)
        .unwrap();
}

fn create_invited(creator: &Api, email: &str) -> (String, String) {
    let body = creator
        .post(
            "/api/v1/games",
            &json!({"variant": "standard", "opponent_email": email}),
        )
        .ok()
        .clone();
    (
        body["game"]["id"].as_str().unwrap().to_string(),
        body["invite_token"].as_str().unwrap().to_string(),
    )
}

#[test]
fn purging_expires_old_invitations_and_cancels_the_games_they_leave_waiting() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (admin, _) = common::register_admin(&server, "root");
        let (ada, _) = server.client().register("ada");
        let (old, old_token) = create_invited(&ada, "gone@example.org");
        let (fresh, fresh_token) = create_invited(&ada, "soon@example.org");
        // Old, but re-invited lately: stays open, only the old invitation goes.
        let (reinvited, stale_token) = create_invited(&ada, "first@example.org");
        age(&server, &old, 40);
        age(&server, &reinvited, 40);
        let again = ada
            .post(
                &format!("/api/v1/games/{reinvited}/invitations"),
                &json!({"email": "second@example.org"}),
            )
            .ok()
            .clone();
        let again_token = again["invite_token"].as_str().unwrap().to_string();

        let purged = admin
            .post(
                "/api/v1/admin/invitations/purge",
                &json!({"older_than_days": 30}),
            )
            .ok()
            .clone();
        assert_eq!(
            purged,
            json!({"invitations_expired": 2, "games_cancelled": [old]}),
            "{backend:?}"
        );
        assert_eq!(game(&ada, &old)["status"], "cancelled");
        assert_eq!(game(&ada, &fresh)["status"], "open");
        assert_eq!(game(&ada, &reinvited)["status"], "open");
        let (bob, _) = server.client().register("bob");
        for token in [&old_token, &stale_token] {
            bob.post(&format!("/api/v1/invitations/{token}/accept"), &json!({}))
                .problem(409, "invitation_used");
        }
        bob.post(
            &format!("/api/v1/invitations/{fresh_token}/accept"),
            &json!({}),
        )
        .ok();
        bob.post(
            &format!("/api/v1/invitations/{again_token}/accept"),
            &json!({}),
        )
        .ok();
        let mut logged = admin_actions(&server, "purge_invitations");
        logged.sort();
        assert_eq!(logged, [String::new(), old.clone()]);

        // Nothing left to purge; the CLI runs the same.
        let cli = stdout_json(&hexpost(
            &server.database_url,
            &server.data_dir,
            &["admin", "purge-invitations", "--older-than-days", "30"],
        ));
        assert_eq!(
            cli,
            json!({"invitations_expired": 0, "games_cancelled": []})
        );

        for bad in [
            json!({"older_than_days": 0}),
            json!({"older_than_days": null}),
        ] {
            admin
                .post("/api/v1/admin/invitations/purge", &bad)
                .problem(422, "invalid_age");
        }
        admin
            .post(
                "/api/v1/admin/invitations/purge",
                &json!({"older_than_days": 1.5}),
            )
            .problem(422, "invalid_body");
        ada.post(
            "/api/v1/admin/invitations/purge",
            &json!({"older_than_days": 30}),
        )
        .problem(403, "forbidden");
    }
}
