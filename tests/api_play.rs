//! Complete games over HTTP, on SQLite and on PostgreSQL: two clients that
//! know only what the API serves (their view and legal-action list) play
//! from registration to victory; the log verifies and the seed is revealed.

mod common;

use common::{Api, BACKENDS, TestServer};
use hexpost_engine::rng::GameRng;
use hexpost_engine::{Action, LegalAction, Resource, ResourceCounts};
use serde_json::{Value, json};

/// A client-side random player: picks uniformly among the served legal
/// actions, filling templates from its own hand as shown in its view.
pub fn choose(legal: &[LegalAction], hand: ResourceCounts, rng: &mut GameRng) -> Action {
    let mut options: Vec<Action> = Vec::new();
    for l in legal {
        match l {
            LegalAction::RollDice => options.push(Action::RollDice),
            LegalAction::EndTurn => options.push(Action::EndTurn),
            LegalAction::BuildRoad { edges, .. } => {
                options.extend(edges.iter().map(|edge| Action::BuildRoad { edge }))
            }
            LegalAction::BuildSettlement { nodes, .. } => {
                options.extend(nodes.iter().map(|node| Action::BuildSettlement { node }))
            }
            LegalAction::BuildCity { nodes } => {
                options.extend(nodes.iter().map(|node| Action::BuildCity { node }))
            }
            LegalAction::BuyDevelopmentCard => options.push(Action::BuyDevelopmentCard),
            LegalAction::PlayKnight { targets } | LegalAction::MoveRobber { targets } => {
                for t in targets {
                    let victims: Vec<Option<_>> = if t.victims.is_empty() {
                        vec![None]
                    } else {
                        t.victims.iter().map(|v| Some(*v)).collect()
                    };
                    for victim in victims {
                        options.push(if matches!(l, LegalAction::PlayKnight { .. }) {
                            Action::PlayKnight { hex: t.hex, victim }
                        } else {
                            Action::MoveRobber { hex: t.hex, victim }
                        });
                    }
                }
            }
            LegalAction::PlayRoadBuilding => options.push(Action::PlayRoadBuilding),
            LegalAction::PlayYearOfPlenty { count } => options.push(Action::PlayYearOfPlenty {
                resources: (0..*count)
                    .map(|i| Resource::ALL[(rng.below(5) as usize + i as usize) % 5])
                    .collect(),
            }),
            LegalAction::PlayMonopoly => options.push(Action::PlayMonopoly {
                resource: Resource::ALL[rng.below(5) as usize],
            }),
            LegalAction::Discard { count } => {
                let mut left = hand;
                let mut cards = ResourceCounts::ZERO;
                for _ in 0..*count {
                    let r = left.nth_card(rng.below(left.total())).unwrap();
                    left[r] -= 1;
                    cards[r] += 1;
                }
                options.push(Action::Discard { cards });
            }
            LegalAction::MaritimeTrade { options: m } => {
                for o in m {
                    options.extend(o.receive.iter().map(|receive| Action::MaritimeTrade {
                        give: o.give,
                        receive,
                        ratio: Some(o.ratio),
                    }));
                }
            }
            LegalAction::OfferTrade => {
                let give = hand.nth_card(rng.below(hand.total())).unwrap();
                let receive = Resource::ALL
                    .into_iter()
                    .find(|r| *r != give && rng.below(2) == 0)
                    .unwrap_or(if give == Resource::Ore {
                        Resource::Grain
                    } else {
                        Resource::Ore
                    });
                options.push(Action::OfferTrade {
                    give: ResourceCounts::single(give, 1),
                    receive: ResourceCounts::single(receive, 1),
                });
            }
            LegalAction::AcceptTrade => options.push(Action::AcceptTrade),
            LegalAction::DeclineTrade => options.push(Action::DeclineTrade),
            LegalAction::WithdrawTrade => options.push(Action::WithdrawTrade),
        }
    }
    options.swap_remove(rng.below(options.len() as u32) as usize)
}

fn game(api: &Api, id: &str) -> Value {
    api.get(&format!("/api/v1/games/{id}")).ok().clone()
}

/// Plays until the game ends; returns the number of moves made.
pub fn play_out(players: [&Api; 2], id: &str, seed: u64) -> usize {
    let mut rng = GameRng::from_seed(seed);
    let mut moves = 0;
    loop {
        let views = [game(players[0], id), game(players[1], id)];
        if views[0]["status"] != "active" {
            return moves;
        }
        let Some(who) = (0..2).find(|&i| views[i]["awaiting_you"] == true) else {
            panic!("nobody is awaited: {}", views[0]);
        };
        let v = &views[who];
        let legal: Vec<LegalAction> = serde_json::from_value(v["legal_actions"].clone()).unwrap();
        assert!(!legal.is_empty(), "awaited without legal actions");
        let hand: ResourceCounts =
            serde_json::from_value(v["view"]["you"]["resources"].clone()).unwrap();
        let action = choose(&legal, hand, &mut rng);
        let r = players[who].post(
            &format!("/api/v1/games/{id}/moves"),
            &json!({"expected_move_number": v["move_number"], "action": action}),
        );
        if r.status == 422 && r.body["reason"]["code"] == "bank_shortage" {
            continue;
        }
        let out = r.ok();
        assert_eq!(out["move_number"], v["move_number"].as_i64().unwrap() + 1);
        moves += 1;
        assert!(moves < 20_000, "game does not end");
    }
}

fn promote_admin(server: &TestServer, api: &Api, user_id: i64, email: &str) -> Api {
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    hexpost::store::users::set_admin(&mut conn, user_id, true).unwrap();
    let r = api.post(
        "/api/v1/auth/token",
        &json!({"email": email, "password": "correct horse battery"}),
    );
    api.with_token(r.ok()["access_token"].as_str().unwrap())
}

#[test]
fn complete_games_to_victory_on_both_backends() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({"vp_target": 5}));
        let start = game(&a, &id);
        assert_eq!(start["status"], "active");
        assert!(start["seed"].is_null(), "seed hidden while playing");
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
