//! Admins create accounts over the API (what `hexpost admin create-user`
//! does), on SQLite and PostgreSQL: the new account logs in, an admin's
//! reaches the admin endpoints, the admin log names who made it, and
//! nothing is created by a refused request.

use crate::common::{BACKENDS, TestServer, register_admin};
use diesel::prelude::*;
use hexpost::store::schema::admin_log;
use serde_json::json;

#[test]
fn admins_create_accounts_and_admins() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (root, root_id) = register_admin(&server, "root");
        let (ada, _) = api.register("ada");

        let made = root.post(
            "/api/v1/admin/users",
            &json!({"email": "Grace@Example.org", "display_name": "Grace",
                    "password": "correct horse battery", "admin": true}),
        );
        assert_eq!(made.status, 201, "{backend:?}: {}", made.body);
        assert_eq!(made.body["email"], "grace@example.org");
        assert_eq!(made.body["is_admin"], true);
        let plain = root.post(
            "/api/v1/admin/users",
            &json!({"email": "hopper@example.org", "display_name": "Hopper",
                    "password": "correct horse battery"}),
        );
        assert_eq!(plain.status, 201);
        assert_eq!(plain.body["is_admin"], false);

        // The accounts work: Grace reaches admin endpoints, Hopper does not.
        let login = |email: &str| {
            let r = api.post(
                "/api/v1/auth/token",
                &json!({"email": email, "password": "correct horse battery"}),
            );
            api.with_token(r.ok()["access_token"].as_str().unwrap())
        };
        login("grace@example.org").get("/api/v1/admin/games").ok();
        login("hopper@example.org")
            .get("/api/v1/admin/games")
            .problem(403, "forbidden");

        // Refused: not an admin, a taken address, the registration rules.
        let body = json!({"email": "x@example.org", "display_name": "X", "password": "correct horse battery"});
        ada.post("/api/v1/admin/users", &body)
            .problem(403, "forbidden");
        api.post("/api/v1/admin/users", &body)
            .problem(401, "unauthorized");
        root.post(
            "/api/v1/admin/users",
            &json!({"email": "grace@example.org", "display_name": "G", "password": "correct horse battery"}),
        )
        .problem(409, "email_taken");
        for (bad, code) in [
            (
                json!({"email": "nope", "display_name": "X", "password": "correct horse battery"}),
                "invalid_email",
            ),
            (
                json!({"email": "y@example.org", "display_name": " X", "password": "correct horse battery"}),
                "invalid_display_name",
            ),
            (
                json!({"email": "y@example.org", "display_name": "X", "password": "short"}),
                "invalid_password",
            ),
            (
                json!({"email": "y@example.org", "display_name": "X", "password": "correct horse battery", "root": true}),
                "invalid_body",
            ),
        ] {
            root.post("/api/v1/admin/users", &bad).problem(422, code);
        }
        api.post(
            "/api/v1/auth/token",
            &json!({"email": "y@example.org", "password": "correct horse battery"}),
        )
        .problem(401, "bad_credentials");

        let pool = server.db();
        let mut conn = pool.get().unwrap();
        let logged: Vec<(Option<i64>, String)> = admin_log::table
            .filter(admin_log::action.eq("create_user"))
            .order(admin_log::id.asc())
            .select((admin_log::admin_user_id, admin_log::detail))
            .load(&mut conn)
            .unwrap();
        assert_eq!(
            logged,
            [
                (Some(root_id), "admin=true".to_string()),
                (Some(root_id), "admin=false".to_string())
            ],
            "{backend:?}"
        );
    }
}
