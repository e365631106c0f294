//! `hexpost admin …` against a real database.

use crate::common::{self, TestServer};
use std::process::Command;

fn hexpost(database_url: &str, data_dir: &std::path::Path, args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_hexpost"))
        .args(args)
        .env("DATABASE_URL", database_url)
        .env("HEXPOST_DATA_DIR", data_dir)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

#[test]
fn create_user_and_verify_a_game() {
    for backend in common::BACKENDS {
        let server = TestServer::start(backend);
        let dir = std::env::temp_dir().join(format!(
            "hexpost-admin-cli-{}-{backend:?}",
            std::process::id()
        ));
        let url = &server.database_url;
        let out = hexpost(
            url,
            &dir,
            &[
                "admin",
                "create-user",
                "--email",
                "Root@Example.org",
                "--name",
                "Root",
                "--password",
                "root password",
                "--admin",
            ],
        );
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let created: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(created["email"], "root@example.org");
        assert_eq!(created["is_admin"], true);

        // The new admin can log in over the API and has admin rights.
        let api = server.client();
        let r = api.post(
            "/api/v1/auth/token",
            &serde_json::json!({"email": "root@example.org", "password": "root password"}),
        );
        let token = r.ok()["access_token"].as_str().unwrap().to_string();
        assert_eq!(
            api.with_token(&token).get("/api/v1/me").ok()["is_admin"],
            true
        );

        let again = hexpost(
            url,
            &dir,
            &[
                "admin",
                "create-user",
                "--email",
                "root@example.org",
                "--name",
                "R",
                "--password",
                "root password",
            ],
        );
        assert_eq!(again.status.code(), Some(1));
        assert!(String::from_utf8_lossy(&again.stderr).contains("already registered"));

        let (_, _, id) = api.new_game("standard", serde_json::json!({}));
        let ok = hexpost(url, &dir, &["admin", "verify", &id]);
        assert!(
            ok.status.success(),
            "{}",
            String::from_utf8_lossy(&ok.stderr)
        );
        let report: serde_json::Value = serde_json::from_slice(&ok.stdout).unwrap();
        assert_eq!(report["ok"], true);
        assert_eq!(report["rows_checked"], 1);

        let missing = hexpost(url, &dir, &["admin", "verify", "no-such-game"]);
        assert_eq!(missing.status.code(), Some(1));
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// `hexpost admin delete-user` deletes an account on its owner's request,
/// by address or id, as the owner would; the admin log says so.
#[test]
fn delete_user_by_address_or_id() {
    for backend in common::BACKENDS {
        let server = TestServer::start(backend);
        let dir = std::env::temp_dir().join(format!(
            "hexpost-admin-cli-delete-{}-{backend:?}",
            std::process::id()
        ));
        let api = server.client();
        let (_, first) = api.register("first");
        let (_, second) = api.register("second");
        let url = &server.database_url;
        let by_address = hexpost(
            url,
            &dir,
            &["admin", "delete-user", "--email", "First@Example.org"],
        );
        assert!(
            by_address.status.success(),
            "{}",
            String::from_utf8_lossy(&by_address.stderr)
        );
        let said: serde_json::Value = serde_json::from_slice(&by_address.stdout).unwrap();
        assert_eq!(said["deleted"], first);
        let by_id = hexpost(
            url,
            &dir,
            &["admin", "delete-user", "--id", &second.to_string()],
        );
        assert!(
            by_id.status.success(),
            "{}",
            String::from_utf8_lossy(&by_id.stderr)
        );
        let again = hexpost(
            url,
            &dir,
            &["admin", "delete-user", "--id", &second.to_string()],
        );
        assert!(
            !again.status.success(),
            "a deleted account is not found again"
        );
        for email in ["first@example.org", "second@example.org"] {
            api.post(
                "/api/v1/auth/token",
                &serde_json::json!({"email": email, "password": "correct horse battery"}),
            )
            .problem(401, "bad_credentials");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}
