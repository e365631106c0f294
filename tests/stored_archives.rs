//! Games that earlier versions of the server stored still import and
//! verify on both backends: their states, events, log rows and chain were
//! written by the code of their day, and verification replays them.
//!
//! `tests/fixtures/archives/` holds one finished game per variant, as
//! `GET /api/v1/admin/games/{id}/export` returned it when it was recorded
//! (several hundred random moves, then a resignation; ck_for_two's more,
//! for its progress cards and barbarian attacks to come up). A fixture is never
//! recorded again; a new one is added with
//! `cargo test --test server -- --ignored stored_archives::record`.

use crate::common::{self, BACKENDS, Backend, TestServer};
use serde_json::{Value, json};
use std::path::PathBuf;

/// Each variant with the seed of its random players and the moves they
/// played before the resignation: enough for development cards, robbers,
/// trades and every variant's automated steps.
const VARIANTS: [(&str, u64, usize); 6] = [
    ("standard", 101, 400),
    ("duel", 102, 400),
    ("catan_for_two", 103, 400),
    ("neutral_trader", 104, 400),
    ("shadow", 105, 400),
    ("ck_for_two", 106, 1500),
];

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/archives")
}

#[test]
#[ignore = "writes fixtures; run only to add a new one"]
fn record() {
    std::fs::create_dir_all(dir()).unwrap();
    let server = TestServer::start(Backend::Sqlite);
    let (admin, _) = common::register_admin(&server, "root");
    for (variant, seed, moves) in VARIANTS {
        let path = dir().join(format!("{variant}.json"));
        if path.exists() {
            // A fixture is never recorded again.
            continue;
        }
        let (a, b, id) = server.client().new_game(variant, json!({}));
        common::play_moves([&a, &b], &id, seed, moves);
        a.post(&format!("/api/v1/games/{id}/resign"), &json!({}))
            .ok();
        let export = admin
            .get(&format!("/api/v1/admin/games/{id}/export"))
            .ok()
            .clone();
        let mut text = serde_json::to_string_pretty(&export).unwrap();
        text.push('\n');
        std::fs::write(path, text).unwrap();
    }
}

fn archives() -> Vec<(&'static str, Value)> {
    VARIANTS
        .iter()
        .map(|(variant, ..)| {
            let path = dir().join(format!("{variant}.json"));
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            (*variant, serde_json::from_str(&text).unwrap())
        })
        .collect()
}

#[test]
fn games_stored_by_earlier_versions_import_and_verify_on_both_backends() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (admin, _) = common::register_admin(&server, "root");
        for (variant, doc) in archives() {
            let id = doc["game"]["id"].as_str().unwrap();
            let imported = admin.post("/api/v1/admin/games/import", &doc);
            let body = imported.ok();
            assert_eq!(
                body["verification"]["ok"], true,
                "{backend:?} {variant}: {body}"
            );
            let rows = doc["log"].as_array().unwrap().len() as i64;
            assert_eq!(body["verification"]["rows_checked"], rows);
            let again = admin
                .get(&format!("/api/v1/admin/games/{id}/verify"))
                .ok()
                .clone();
            assert_eq!(again["ok"], true, "{backend:?} {variant}: {again}");
            assert_eq!(again["chain_head"], doc["game"]["chain_head"]);
        }
    }
}
