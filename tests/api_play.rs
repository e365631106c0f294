//! Complete games over HTTP, on SQLite and on PostgreSQL: two clients that
//! know only what the API serves (their view and legal-action list) play
//! from registration to victory; the log verifies and the seed is revealed.

use crate::common::{self, BACKENDS, TestServer, game, play_out, promote_admin};
use serde_json::json;

#[test]
fn complete_games_to_victory_on_both_backends() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({"vp_target": 5}));
        let start = game(&a, &id);
        assert_eq!(start["status"], "active");
        assert!(start["seed"].is_null(), "seed hidden while playing");
        // A new game plays by the current revision of the rules, for all
        // its life.
        let revision = hexpost_engine::Revision::CURRENT;
        assert_eq!(start["config"]["revision"], revision);
        assert_eq!(start["view"]["rules"]["revision"], revision);
        let seed_hash = start["seed_hash"].as_str().unwrap().to_string();
        let moves = play_out([&a, &b], &id, 7);
        assert!(moves > 20, "{backend:?}: only {moves} moves");
        let end = game(&a, &id);
        assert_eq!(end["status"], "finished");
        let winner = end["winner_seat"].as_u64().unwrap();
        assert_eq!(end["view"]["winner"], winner);
        let seed = hex::decode(end["seed"].as_str().unwrap()).unwrap();
        assert_eq!(hexpost::service::audit::sha256_hex(&seed), seed_hash);
        assert_eq!(end["move_number"].as_i64().unwrap(), moves as i64 + 1);
        // Moves after the end are refused.
        let r = a.post(
            &format!("/api/v1/games/{id}/moves"),
            &json!({"expected_move_number": end["move_number"], "action": {"type": "end_turn"}}),
        );
        r.problem(409, "game_not_active");
        // An admin replays it from the seed.
        let (admin, admin_id) = api.register(&format!("root{backend:?}").to_lowercase());
        let admin = promote_admin(
            &server,
            &admin,
            admin_id,
            &format!("root{backend:?}@example.org").to_lowercase(),
        );
        let report = admin.get(&format!("/api/v1/admin/games/{id}/verify"));
        let report = report.ok();
        assert_eq!(report["ok"], true, "{backend:?}: {report}");
        assert_eq!(report["rows_checked"].as_i64().unwrap(), moves as i64 + 1);
        // The game lists as finished for both players.
        for p in [&a, &b] {
            let list = p.get("/api/v1/games?filter=finished").ok().clone();
            assert_eq!(list.as_array().unwrap().len(), 1);
            assert_eq!(list[0]["id"], id.as_str());
        }
    }
}

/// Each helper variant plays to the end over HTTP: automated seats act
/// inside the submitted moves, decisions awaited from the player who is not
/// active reach them, and the log verifies by replay.
#[test]
fn variant_games_to_victory_and_verified() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (admin, admin_id) = api.register(&format!("vroot{backend:?}").to_lowercase());
        let admin = promote_admin(
            &server,
            &admin,
            admin_id,
            &format!("vroot{backend:?}@example.org").to_lowercase(),
        );
        for (variant, options, seed) in [
            ("catan_for_two", json!({"vp_target": 5}), 11),
            ("neutral_trader", json!({"vp_target": 5}), 12),
            ("shadow", json!({"vp_target": 5, "edition": "1998"}), 13),
            (
                "shadow",
                json!({"vp_target": 5, "removal_reroll": "agree"}),
                14,
            ),
        ] {
            let (a, b, id) = api.new_game(variant, options.clone());
            let moves = play_out([&a, &b], &id, seed);
            let end = game(&a, &id);
            assert_eq!(end["status"], "finished", "{backend:?} {variant} {options}");
            assert!(moves > 10, "{backend:?} {variant}: {moves} moves");
            let report = admin.get(&format!("/api/v1/admin/games/{id}/verify"));
            assert_eq!(
                report.ok()["ok"],
                true,
                "{backend:?} {variant}: {}",
                report.body
            );
        }
    }
}

/// Each list filter returns exactly the games it names: the creator sees
/// a game nobody has joined yet, the invitee does not until they join, and
/// "awaiting me" follows whose decision the game waits for.
#[test]
fn game_lists_follow_their_filters() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, started) = api.new_game("standard", json!({}));
        let open = a
            .post(
                "/api/v1/games",
                &json!({"variant": "duel", "opponent_email": "nobody@example.org"}),
            )
            .ok()["game"]["id"]
            .as_str()
            .unwrap()
            .to_string();
        let ids = |p: &common::Api, filter: &str| -> Vec<String> {
            let list = p
                .get(&format!("/api/v1/games?filter={filter}"))
                .ok()
                .clone();
            let mut ids: Vec<String> = list
                .as_array()
                .unwrap()
                .iter()
                .map(|g| g["id"].as_str().unwrap().to_string())
                .collect();
            ids.sort();
            ids
        };
        let mut both = vec![started.clone(), open.clone()];
        both.sort();
        assert_eq!(ids(&a, "active"), both, "{backend:?}");
        assert_eq!(ids(&a, "all"), both, "{backend:?}");
        assert_eq!(ids(&b, "active"), vec![started.clone()], "{backend:?}");
        assert!(ids(&a, "finished").is_empty() && ids(&b, "finished").is_empty());
        let awaited = if game(&a, &started)["awaiting_you"] == true {
            (&a, &b)
        } else {
            (&b, &a)
        };
        assert_eq!(ids(awaited.0, "awaiting_me"), vec![started.clone()]);
        assert!(ids(awaited.1, "awaiting_me").is_empty(), "{backend:?}");
        a.post(&format!("/api/v1/games/{open}/cancel"), &json!({}))
            .ok();
        assert_eq!(ids(&a, "finished"), vec![open.clone()], "{backend:?}");
        assert_eq!(ids(&a, "active"), vec![started.clone()], "{backend:?}");
    }
}
