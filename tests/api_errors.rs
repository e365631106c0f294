//! Every error class over HTTP, on SQLite and PostgreSQL, returns its
//! documented RFC 9457 problem+json: bad bodies, media types and sizes,
//! unknown routes and games, bad queries and game options, illegal moves
//! (with the engine's reason, and nothing stored), lifecycle conflicts,
//! rate limits with `Retry-After`, CORS, and the health probes.

use crate::common::steer::{self, Steer};
use crate::common::{self, Api, BACKENDS, Reply, TestServer, game};
use hexpost_engine::cards::{Card, CardKind, Commodity, Track};
use hexpost_engine::error::CK_CODES;
use hexpost_engine::rng::GameRng;
use hexpost_engine::sim::{self, Policy};
use hexpost_engine::{Action, GameState, LegalAction, Seat};
use serde_json::{Value, json};

const JSON: (&str, &str) = ("content-type", "application/json");

/// The number of log rows `api` can read.
fn log_len(api: &Api, id: &str) -> usize {
    api.full_log(id, false).len()
}

/// (index of the awaited player in `players`, their view).
fn awaited(players: [&Api; 2], id: &str) -> (usize, Value) {
    let views = [game(players[0], id), game(players[1], id)];
    let who = (0..2)
        .find(|&i| views[i]["awaiting_you"] == true)
        .expect("someone is awaited");
    (who, views[who].clone())
}

fn legal(view: &Value) -> Vec<LegalAction> {
    serde_json::from_value(view["legal_actions"].clone()).unwrap()
}

/// Asserts an `illegal_move` refusal with the engine's `reason.code`, and
/// that the game did not move on.
fn assert_illegal(r: &Reply, code: &str, api: &Api, id: &str, move_number: i64, rows: usize) {
    let body = r.problem(422, "illegal_move");
    assert_eq!(body["reason"]["code"], code, "{body}");
    assert_eq!(body["move_number"], move_number, "{body}");
    let now = game(api, id);
    assert_eq!(now["move_number"], move_number, "a refused move was stored");
    assert_eq!(log_len(api, id), rows, "a refused move was logged");
}

#[test]
fn bodies_media_types_routes_and_queries() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, _b, id) = api.new_game("standard", json!({}));
        let moves = format!("/api/v1/games/{id}/moves");

        // Malformed JSON: 400, on extractor-parsed and hand-parsed bodies.
        // (A body that names an unknown field before it breaks off is
        // refused for the field: the parser streams.)
        for body in [
            "{",
            "not json",
            "{,}",
            "{\"unterminated",
            "{'single': 1}",
            "",
        ] {
            api.post_raw("/api/v1/accounts", body, &[JSON])
                .problem(400, "malformed_json");
            a.post_raw(&moves, body, &[JSON])
                .problem(400, "malformed_json");
            a.post_raw("/api/v1/games", body, &[JSON])
                .problem(400, "malformed_json");
        }
        // Wrong types, missing fields, unknown fields: 422 invalid_body.
        for body in [
            json!({"email": 5, "display_name": "Ada", "password": "correct horse battery"}),
            json!({"email": "ada@example.org", "display_name": "Ada"}),
            json!({"email": "ada@example.org", "display_name": "Ada", "password": "correct horse battery", "admin": true}),
            json!([1, 2]),
            // The fields in order, as serde would read a struct from an
            // array: still not the object the spec asks for.
            json!(["array@example.org", "Ada", "correct horse battery"]),
        ] {
            api.post("/api/v1/accounts", &body)
                .problem(422, "invalid_body");
        }
        a.put("/api/v1/account/notifications", &json!(["digest"]))
            .problem(422, "invalid_body");
        for body in [
            json!({"expected_move_number": 1, "action": {"type": "roll_dice"}, "why": "because"}),
            json!({"expected_move_number": 1}),
            json!({"action": {"type": "roll_dice"}}),
            json!({}),
        ] {
            a.post(&moves, &body).problem(422, "invalid_body");
        }
        a.post("/api/v1/games", &json!({"variant": 7}))
            .problem(422, "invalid_body");
        a.post(
            "/api/v1/games",
            &json!({"variant": "standard", "colour": "red"}),
        )
        .problem(422, "invalid_body");
        // An action the engine does not know: 422 invalid_action.
        for action in [
            json!({"type": "fly"}),
            json!({"type": "build_road"}),
            json!({"type": "build_road", "edge": "north"}),
            json!("roll_dice"),
        ] {
            a.submit(&id, 1, &action).problem(422, "invalid_action");
        }
        // No content type on a JSON endpoint: 415.
        api.post_raw(
            "/api/v1/accounts",
            &json!({"email": "ada@example.org", "display_name": "Ada", "password": "correct horse battery"})
                .to_string(),
            &[],
        )
        .problem(415, "unsupported_media_type");
        a.post_raw(
            "/api/v1/games",
            &json!({"variant": "standard"}).to_string(),
            &[("content-type", "text/plain")],
        )
        .problem(415, "unsupported_media_type");
        // Nothing was created by those.
        api.post(
            "/api/v1/auth/token",
            &json!({"email": "ada@example.org", "password": "correct horse battery"}),
        )
        .problem(401, "bad_credentials");
        assert_eq!(a.get("/api/v1/games").ok().as_array().unwrap().len(), 1);

        // Unknown routes.
        for path in [
            "/api/v1/nope",
            "/nope",
            "/api/v2/games",
            "/api/v1/games/x/y/z",
        ] {
            api.get(path).problem(404, "not_found");
            a.get(path).problem(404, "not_found");
        }
        api.post("/api/v1/nope", &json!({}))
            .problem(404, "not_found");
        // Unknown games and invitations.
        let ghost = "00000000-0000-4000-8000-000000000000";
        a.get(&format!("/api/v1/games/{ghost}"))
            .problem(404, "not_found");
        a.get(&format!("/api/v1/games/{ghost}/log"))
            .problem(404, "not_found");
        a.submit(ghost, 1, &json!({"type": "roll_dice"}))
            .problem(404, "not_found");
        a.post(&format!("/api/v1/games/{ghost}/resign"), &json!({}))
            .problem(404, "not_found");
        a.post(&format!("/api/v1/games/{ghost}/cancel"), &json!({}))
            .problem(404, "not_found");
        a.post(
            &format!("/api/v1/games/{ghost}/invitations"),
            &json!({"email": "x@example.org"}),
        )
        .problem(404, "not_found");
        api.get("/api/v1/invitations/feedface")
            .problem(404, "not_found");
        a.post("/api/v1/invitations/feedface/accept", &json!({}))
            .problem(404, "not_found");
        api.post("/api/v1/invitations/feedface/decline", &json!({}))
            .problem(404, "not_found");
        a.delete("/api/v1/me/keys/999").problem(404, "not_found");
        let (root, _) = common::register_admin(&server, &format!("root{backend:?}").to_lowercase());
        root.get(&format!("/api/v1/admin/games/{ghost}/log"))
            .problem(404, "not_found");
        root.get(&format!("/api/v1/admin/games/{ghost}/verify"))
            .problem(404, "not_found");

        // Bad queries: 400 invalid_query.
        for q in [
            "filter=nope",
            "per_page=0",
            "per_page=101",
            "page=0",
            "page=-3",
            "per_page=ten",
            "colour=red",
        ] {
            a.get(&format!("/api/v1/games?{q}"))
                .problem(400, "invalid_query");
        }
        for q in ["limit=0", "limit=501", "after=-1", "after=x", "sort=desc"] {
            a.get(&format!("/api/v1/games/{id}/log?{q}"))
                .problem(400, "invalid_query");
        }
        // ...and their good neighbours work.
        for q in ["filter=all", "filter=awaiting_me", "per_page=100&page=1"] {
            a.get(&format!("/api/v1/games?{q}")).ok();
        }
        // A page past the last, however far, is refused, not answered
        // empty; so are an admin's log bounds out of range.
        for q in ["page=2", "per_page=100&page=2", "page=9223372036854775807"] {
            a.get(&format!("/api/v1/games?{q}"))
                .problem(400, "page_out_of_range");
        }
        for path in [
            "/api/v1/admin/games?page=1000",
            "/api/v1/admin/mail/failed?page=2",
            "/api/v1/admin/mail/inbound?page=2",
        ] {
            root.get(path).problem(400, "page_out_of_range");
        }
        root.get("/api/v1/admin/mail/failed").ok();
        for q in ["limit=0", "limit=501", "after=-1"] {
            root.get(&format!("/api/v1/admin/games/{id}/log?{q}"))
                .problem(400, "invalid_query");
        }
        assert_eq!(
            a.get(&format!("/api/v1/games/{id}/log?limit=1"))
                .ok()
                .as_array()
                .unwrap()
                .len(),
            1
        );

        // Unknown variants and bad options: 422.
        let create = |body: Value| a.post("/api/v1/games", &body);
        create(json!({"variant": "chess"})).problem(422, "unknown_variant");
        create(json!({"variant": "Standard"})).problem(422, "unknown_variant");
        for options in [
            json!({"vp_target": 2}),
            json!({"vp_target": 21}),
            json!({"vp_target": "ten"}),
            json!({"discard_limit": 4}),
            json!({"board": "hexagonal"}),
            json!({"castles": true}),
            json!([1]),
        ] {
            create(json!({"variant": "standard", "options": options}))
                .problem(422, "invalid_options");
        }
        let body = create(json!({"variant": "duel", "options": {"vp_target": 99}}))
            .problem(422, "invalid_options")
            .clone();
        assert_eq!(body["option"], "vp_target");
        create(json!({"variant": "standard", "time_limit_hours": 0}))
            .problem(422, "invalid_time_limit");
        create(json!({"variant": "standard", "creator_seat": 2})).problem(422, "invalid_seat");
        create(json!({"variant": "standard", "opponent_email": "nobody"}))
            .problem(422, "invalid_email");
        // None of the refused games exist.
        assert_eq!(a.get("/api/v1/games").ok().as_array().unwrap().len(), 1);
        // The good neighbours are accepted.
        for body in [
            json!({"variant": "duel", "options": {"vp_target": 3}}),
            json!({"variant": "standard", "options": {"vp_target": 20, "board": "random"}}),
        ] {
            assert_eq!(create(body).status, 201);
        }
    }
}

/// A NUL or another control character in a path id, a display name or a
/// login address is bad input, refused before it reaches the database
/// (PostgreSQL answered 500 to a NUL), on both backends alike.
#[test]
fn control_characters_are_refused_at_the_edge() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, _b, id) = api.new_game("standard", json!({}));
        let (root, _) = common::register_admin(&server, &format!("root{backend:?}").to_lowercase());
        for bad in ["%00", "a%00b", "%0A", "%1b", "%7F", "%C2%85", "%FF"] {
            let game = format!("/api/v1/games/{id}{bad}");
            for path in [game.clone(), format!("{game}/log")] {
                a.get(&path).problem(404, "invalid_path");
            }
            a.submit(&format!("{id}{bad}"), 1, &json!({"type": "roll_dice"}))
                .problem(404, "invalid_path");
            a.post(&format!("{game}/resign"), &json!({}))
                .problem(404, "invalid_path");
            api.get(&format!("/api/v1/invitations/{bad}"))
                .problem(404, "invalid_path");
            a.post(&format!("/api/v1/invitations/{bad}/accept"), &json!({}))
                .problem(404, "invalid_path");
            root.get(&format!("/api/v1/admin/games/{bad}/verify"))
                .problem(404, "invalid_path");
        }
        for name in [
            "Ada\u{0}",
            "A\u{0}da",
            "Ada\u{7}x",
            "Ada\u{1b}[31m",
            "Ada\u{85}x",
        ] {
            api.post(
                "/api/v1/accounts",
                &json!({"email": "ada@example.org", "display_name": name, "password": "correct horse battery"}),
            )
            .problem(422, "invalid_display_name");
        }
        for email in ["ada\u{0}@example.org", "ada@example.org\u{0}", "\u{0}"] {
            api.post(
                "/api/v1/auth/token",
                &json!({"email": email, "password": "correct horse battery"}),
            )
            .problem(422, "invalid_email");
        }
        // Nothing was created, and the game is as it was.
        api.post(
            "/api/v1/auth/token",
            &json!({"email": "ada@example.org", "password": "correct horse battery"}),
        )
        .problem(401, "bad_credentials");
        assert_eq!(game(&a, &id)["move_number"], 1);
    }
}

/// An invitation goes to one plain address, and not to the creator's own:
/// they could never accept it, and the game would wait for ever.
#[test]
fn invitations_go_to_one_plain_address_not_your_own() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (ada, _) = server.client().register("ada");
        let invitations = || {
            use diesel::{QueryDsl, RunQueryDsl};
            let pool = server.db();
            let mut conn = pool.get().unwrap();
            hexpost::store::schema::invitations::table
                .count()
                .get_result::<i64>(&mut conn)
                .unwrap()
        };
        let bad = [
            "x<attacker@evil.example>",
            "Grace <grace@example.org>",
            "a@x.org,b@y.org",
        ];
        for email in bad {
            ada.post(
                "/api/v1/games",
                &json!({"variant": "standard", "opponent_email": email}),
            )
            .problem(422, "invalid_email");
        }
        for email in ["ada@example.org", " ADA@example.org"] {
            ada.post(
                "/api/v1/games",
                &json!({"variant": "standard", "opponent_email": email}),
            )
            .problem(409, "self_invitation");
        }
        // None of those games exists.
        assert_eq!(ada.get("/api/v1/games").ok(), &json!([]));

        let open = ada.post("/api/v1/games", &json!({"variant": "standard"}));
        let id = open.ok()["game"]["id"].as_str().unwrap().to_string();
        let invite = |email: &str| {
            ada.post(
                &format!("/api/v1/games/{id}/invitations"),
                &json!({"email": email}),
            )
        };
        for email in bad {
            invite(email).problem(422, "invalid_email");
        }
        invite("Ada@Example.org").problem(409, "self_invitation");
        assert_eq!(
            invitations(),
            0,
            "{backend:?}: a refused invitation was stored"
        );
        invite("grace@example.org").ok();
        assert_eq!(invitations(), 1);
    }
}

#[test]
fn body_limit_is_413() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("BODY_LIMIT_BYTES", "1024")]);
        let api = server.client();
        let (a, _b, id) = api.new_game("standard", json!({}));
        let padding = "x".repeat(2000);
        let big = json!({"email": "ada@example.org", "display_name": padding, "password": "correct horse battery"});
        api.post("/api/v1/accounts", &big)
            .problem(413, "payload_too_large");
        a.post(
            "/api/v1/games",
            &json!({"variant": "standard", "opponent_email": format!("{padding}@example.org")}),
        )
        .problem(413, "payload_too_large");
        let before = game(&a, &id)["move_number"].clone();
        a.post(
            &format!("/api/v1/games/{id}/moves"),
            &json!({"expected_move_number": 1, "action": {"type": "roll_dice"}, "pad": padding}),
        )
        .problem(413, "payload_too_large");
        assert_eq!(game(&a, &id)["move_number"], before);
        // Just under the limit is read (and refused for what it says).
        let fits = json!({"email": "ada", "display_name": "x".repeat(900), "password": "p"});
        assert!(fits.to_string().len() < 1024);
        api.post("/api/v1/accounts", &fits)
            .problem(422, "invalid_email");
    }
}

#[test]
fn illegal_moves_carry_the_engine_reason_and_store_nothing() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let players = [&a, &b];
        let (who, view) = awaited(players, &id);
        let other = players[1 - who];
        let me = players[who];
        let n = view["move_number"].as_i64().unwrap();
        assert_eq!(n, 1);
        let rows = log_len(me, &id);
        assert_eq!(rows, 1);
        let my_seat = view["your_seat"].as_u64().unwrap();

        // Set-up wants a settlement first: a road is the wrong phase.
        let r = me.submit(&id, n, &json!({"type": "build_road", "edge": 0}));
        assert_illegal(&r, "wrong_phase", me, &id, n, rows);
        // The player who is not awaited.
        let r = other.submit(&id, n, &json!({"type": "build_settlement", "node": 0}));
        assert_illegal(&r, "not_your_decision", me, &id, n, rows);
        assert_eq!(r.body["reason"]["awaiting"], json!([my_seat]));
        // Nodes and edges that do not exist.
        let r = me.submit(&id, n, &json!({"type": "build_settlement", "node": 200}));
        assert_illegal(&r, "invalid_node", me, &id, n, rows);

        // A settlement, then a road that does not touch it.
        let node = match &legal(&view)[..] {
            [LegalAction::BuildSettlement { nodes, .. }] => nodes.iter().next().unwrap(),
            other => panic!("set-up offers {other:?}"),
        };
        me.submit(&id, n, &json!({"type": "build_settlement", "node": node}))
            .ok();
        let n = n + 1;
        let rows = rows + 1;
        let far = hexpost_engine::topology_view()
            .edges
            .iter()
            .find(|e| !e.nodes.contains(&node))
            .unwrap()
            .id;
        let r = me.submit(&id, n, &json!({"type": "build_road", "edge": far}));
        assert_illegal(&r, "setup_road_must_touch_settlement", me, &id, n, rows);
        // A second settlement now is the wrong phase, too.
        let r = me.submit(&id, n, &json!({"type": "build_settlement", "node": node}));
        assert_illegal(&r, "wrong_phase", me, &id, n, rows);

        // Finish the set-up with the first legal choice each time.
        let (who, view) = first_choices_until(players, &id, |l| l.contains(&LegalAction::RollDice));
        assert!(
            legal(&view).contains(&LegalAction::RollDice),
            "{}",
            view["legal_actions"]
        );
        let me = players[who];
        let other = players[1 - who];
        let n = view["move_number"].as_i64().unwrap();
        let rows = log_len(me, &id);
        // Building or ending the turn before the roll.
        let edge = hexpost_engine::topology_view().edges[0].id;
        for action in [
            json!({"type": "build_road", "edge": edge}),
            json!({"type": "end_turn"}),
            json!({"type": "buy_development_card"}),
        ] {
            let r = me.submit(&id, n, &action);
            assert_illegal(&r, "wrong_phase", me, &id, n, rows);
        }
        let r = other.submit(&id, n, &json!({"type": "roll_dice"}));
        assert_illegal(&r, "not_your_decision", me, &id, n, rows);
        // The roll itself is accepted afterwards: the refusals left no trace.
        let out = me.submit(&id, n, &json!({"type": "roll_dice"}));
        assert_eq!(out.ok()["move_number"], n + 1);
        assert_eq!(log_len(me, &id), rows + 1);
        let (root, _) = common::register_admin(&server, &format!("root{backend:?}").to_lowercase());
        let report = root.get(&format!("/api/v1/admin/games/{id}/verify"));
        assert_eq!(report.ok()["ok"], true, "{}", report.body);
    }
}

/// Plays the first legal choice for whoever is awaited until `stop` holds
/// of the awaited player's view; (their index, that view).
fn first_choices_until(
    players: [&Api; 2],
    id: &str,
    stop: impl Fn(&[LegalAction]) -> bool,
) -> (usize, Value) {
    for _ in 0..40 {
        let (who, view) = awaited(players, id);
        let legal = legal(&view);
        if stop(&legal) {
            return (who, view);
        }
        let action = match &legal[..] {
            [LegalAction::BuildSettlement { nodes, .. }, ..] => Action::BuildSettlement {
                node: nodes.iter().next().unwrap(),
            },
            [LegalAction::BuildCity { nodes }, ..] => Action::BuildCity {
                node: nodes.iter().next().unwrap(),
            },
            [LegalAction::BuildRoad { edges, .. }, ..] => Action::BuildRoad {
                edge: edges.iter().next().unwrap(),
            },
            other => panic!("set-up offers {other:?}"),
        };
        players[who]
            .submit(
                id,
                view["move_number"].as_i64().unwrap(),
                &serde_json::to_value(action).unwrap(),
            )
            .ok();
    }
    panic!("never reached the wanted point");
}

/// A player who never builds a city (but the setup's) nor raises a
/// knight: the first attack takes each player's only city.
fn defenceless(
    s: &GameState,
    seat: Seat,
    legal: &[LegalAction],
    rng: &mut GameRng,
) -> Option<Action> {
    let only: Vec<LegalAction> = legal
        .iter()
        .filter(|l| {
            !matches!(
                l,
                LegalAction::BuildCity { .. }
                    | LegalAction::RecruitKnight { .. }
                    | LegalAction::ActivateKnight { .. }
                    | LegalAction::PlayProgress { .. }
            )
        })
        .cloned()
        .collect();
    // In the setup a city is all there is to place.
    let legal = if only.is_empty() { legal } else { &only };
    sim::random_action_with(s, seat, legal, rng, Policy::default())
}

/// The commodity the bank holds least of.
fn scarcest(s: &GameState) -> Card {
    let commodities = Commodity::ALL.map(Card::from);
    *commodities.iter().min_by_key(|&&c| s.bank[c]).unwrap()
}

/// A player who gathers the commodity the bank holds least of: builds
/// cities and walls (a wall raises the discard limit), trades the bank for
/// that commodity, never spends it and discards it last.
fn hoarder(s: &GameState, seat: Seat, legal: &[LegalAction], rng: &mut GameRng) -> Option<Action> {
    let wanted = scarcest(s);
    let hand = s.player(seat).hand;
    let builds: Vec<LegalAction> = legal
        .iter()
        .filter(|l| {
            matches!(
                l,
                LegalAction::BuildCity { .. } | LegalAction::BuildWall { .. }
            )
        })
        .cloned()
        .collect();
    if !builds.is_empty() {
        return sim::random_action_with(s, seat, &builds, rng, Policy::default());
    }
    for l in legal {
        match l {
            LegalAction::BankTrade { options } if s.bank[wanted] > 0 => {
                if let Some(o) = options.iter().find(|o| o.give != wanted) {
                    return Some(Action::BankTrade {
                        give: o.give,
                        receive: wanted,
                        ratio: None,
                    });
                }
            }
            LegalAction::Discard { count } => {
                let mut cards = hexpost_engine::Cards::default();
                let order = Card::ALL.iter().filter(|&&c| c != wanted).chain([&wanted]);
                let mut left = *count;
                for &c in order {
                    let n = hand[c].min(left);
                    cards[c] += n;
                    left -= n;
                }
                return Some(Action::Discard { cards });
            }
            _ => {}
        }
    }
    let rest: Vec<LegalAction> = legal
        .iter()
        .filter(|l| {
            !matches!(
                l,
                LegalAction::BuyImprovement { .. }
                    | LegalAction::BankTrade { .. }
                    | LegalAction::PlayProgress { .. }
            )
        })
        .cloned()
        .collect();
    sim::random_action_with(s, seat, &rest, rng, Policy::default())
}

/// Actions to try in a position.
type Probes = fn(&GameState, Seat) -> Vec<Action>;

/// Each commodity asked of the bank for cards `seat` holds two of.
fn commodity_asked(s: &GameState, seat: Seat) -> Vec<Action> {
    let hand = s.player(seat).hand;
    Card::ALL
        .iter()
        .copied()
        .filter(|&give| hand[give] >= 2)
        .flat_map(|give| {
            Commodity::ALL.map(|c| Action::BankTrade {
                give,
                receive: c.into(),
                ratio: None,
            })
        })
        .collect()
}

/// Cities & Knights refusals: each its own `reason.code` and a detail that
/// says why, and nothing stored; every code only Cities & Knights gives is
/// reached. The positions random play reaches only by luck (no city left,
/// five progress cards held) are reached by steering the game
/// (`common::steer`): moves searched with the engine from the stored state,
/// then made over the API.
#[test]
fn ck_for_two_refusals_carry_their_reason() {
    let spec: Value =
        serde_json::from_str(include_str!("../openapi/openapi.json")).expect("the spec parses");
    let documented = spec["components"]["schemas"]["ActionError"].to_string();
    for code in CK_CODES {
        assert!(
            documented.contains(&format!("\"{code}\"")),
            "{code} is not an ActionError code"
        );
    }
    for backend in BACKENDS {
        let reached = std::cell::RefCell::new(std::collections::BTreeSet::new());
        let server = TestServer::start(backend);
        let api = server.client();
        let (a, b, id) = api.new_game("ck_for_two", json!({}));
        let players = [&a, &b];
        let (who, view) = first_choices_until(players, &id, |l| l.contains(&LegalAction::RollDice));
        let refuse_in = |players: [&Api; 2],
                         id: &str,
                         who: usize,
                         view: &Value,
                         action: Value,
                         code: &str,
                         why: &str| {
            let me = players[who];
            let n = view["move_number"].as_i64().unwrap();
            let r = me.submit(id, n, &action);
            assert_illegal(&r, code, me, id, n, log_len(me, id));
            let detail = r.body["detail"].as_str().unwrap();
            assert!(detail.contains(why), "{action}: {detail}");
            reached.borrow_mut().insert(code.to_string());
        };
        let refuse = |who: usize, view: &Value, action: Value, code: &str, why: &str| {
            refuse_in(players, &id, who, view, action, code, why)
        };
        refuse(
            who,
            &view,
            json!({"type": "play_progress", "play": {"card": "alchemist", "yellow": 1, "red": 2}}),
            "progress_card_not_held",
            "you hold no",
        );
        refuse(
            who,
            &view,
            json!({"type": "play_progress", "play": {"card": "spy"}}),
            "progress_card_refused",
            "progress cards are played after the rolls",
        );
        for action in [
            json!({"type": "lose_city", "node": 0}),
            json!({"type": "aqueduct_pick", "resource": "ore"}),
            json!({"type": "activate_knight", "node": 0}),
        ] {
            refuse(who, &view, action, "wrong_phase", "not allowed now");
        }
        // After the roll, and whatever it asked for, in someone's main phase:
        // nobody has a knight yet.
        players[who]
            .submit(
                &id,
                view["move_number"].as_i64().unwrap(),
                &json!({"type": "roll_dice"}),
            )
            .ok();
        let mut rng = hexpost_engine::rng::GameRng::from_seed(3);
        let (who, view) = loop {
            let (who, view) = awaited(players, &id);
            let legal = legal(&view);
            if legal.contains(&LegalAction::EndTurn) {
                break (who, view);
            }
            let action = common::choose(&view["view"], &legal, &mut rng);
            players[who]
                .submit(
                    &id,
                    view["move_number"].as_i64().unwrap(),
                    &serde_json::to_value(action).unwrap(),
                )
                .ok();
        };
        let mine: Vec<u64> = view["view"]["buildings"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|b| b["owner"] == view["your_seat"] && b["kind"] == "city")
            .map(|b| b["node"].as_u64().unwrap())
            .collect();
        refuse(
            who,
            &view,
            json!({"type": "activate_knight", "node": mine[0]}),
            "knight_refused",
            "knight action refused",
        );
        refuse(
            who,
            &view,
            json!({"type": "build_wall", "node": (0..).find(|n| !mine.contains(n)).unwrap()}),
            "wall_refused",
            "a wall goes under one of your cities",
        );
        refuse(
            who,
            &view,
            json!({"type": "promote_knight", "node": mine[0]}),
            "knight_refused",
            "knight action refused",
        );
        refuse(
            who,
            &view,
            json!({"type": "lose_city", "node": mine[0]}),
            "wrong_phase",
            "not allowed now",
        );
        // No attack yet on the first turns: the ship needs seven moves.
        assert_eq!(view["view"]["variant"]["attacks"], 0);
        refuse(
            who,
            &view,
            json!({"type": "chase_robber", "knight": mine[0], "hex": 0, "victim": null}),
            "robber_locked",
            "until the barbarians have attacked once",
        );
        refuse(
            who,
            &view,
            json!({"type": "discard_progress", "card": "spy"}),
            "invalid_choice",
            "only above the limit of 4",
        );

        // The positions below are steered to one after the other in this
        // game. On about one board in a few hundred a position is out of
        // reach of every continuation searched (the game is won first, or
        // a player never gets back to a city): that position is then
        // steered to in a fresh game, from its setup.
        let mut steer = Steer::new(&server, players, &id);
        let mut steered = |policy: steer::Policy, code: &str, probes: Probes, why: &str| {
            let goal = |s: &GameState| steer::refused_with(s, code, probes);
            if let Some((seat, probe)) = steer.try_reach(steer::TRIES, policy, 6_000, goal) {
                let who = steer.who(seat);
                refuse(who, &game(players[who], &id), json!(probe), code, why);
                return;
            }
            let (a, b, fresh) = api.new_game("ck_for_two", json!({}));
            let mut other = Steer::new(&server, [&a, &b], &fresh);
            let (seat, probe) = other.reach(policy, 6_000, goal);
            let who = other.who(seat);
            let players = [&a, &b];
            let view = game(players[who], &fresh);
            refuse_in(players, &fresh, who, &view, json!(probe), code, why);
        };
        // Five progress cards at the end of one's own turn.
        steered(
            steer::collector,
            "progress_limit",
            |_, _| vec![Action::EndTurn],
            "discard down to 4 before ending your turn",
        );
        // The bank out of a commodity, asked for it.
        steered(
            hoarder,
            "commodity_shortage",
            commodity_asked,
            "the bank has no",
        );
        // An attack with no knight out takes a city of each player's, down
        // to the last; improvements then wait for a city.
        steered(
            defenceless,
            "improvement_refused",
            |_, _| {
                vec![Action::BuyImprovement {
                    track: Track::Science,
                    crane: false,
                }]
            },
            "it needs a city of yours on the board",
        );
        let reached = reached.borrow();
        for code in CK_CODES {
            assert!(reached.contains(code), "{backend:?}: {code} not reached");
        }
    }
}

#[test]
fn lifecycle_conflicts() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (ada, _) = api.register("ada");
        let (bob, _) = api.register("bob");
        let (cat, _) = api.register("cat");

        // An open game (the opponent not yet in).
        let created = ada.post(
            "/api/v1/games",
            &json!({"variant": "standard", "opponent_email": "bob@example.org"}),
        );
        assert_eq!(created.status, 201);
        let id = created.body["game"]["id"].as_str().unwrap().to_string();
        let token1 = created.body["invite_token"].as_str().unwrap().to_string();
        let token2 = ada
            .post(
                &format!("/api/v1/games/{id}/invitations"),
                &json!({"email": "cat@example.org"}),
            )
            .ok()["invite_token"]
            .as_str()
            .unwrap()
            .to_string();
        // Only the creator invites and cancels; nobody resigns an open game.
        bob.post(
            &format!("/api/v1/games/{id}/invitations"),
            &json!({"email": "dan@example.org"}),
        )
        .problem(403, "forbidden");
        bob.post(&format!("/api/v1/games/{id}/cancel"), &json!({}))
            .problem(403, "forbidden");
        // Accepting your own invitation.
        ada.post(&format!("/api/v1/invitations/{token1}/accept"), &json!({}))
            .problem(409, "own_game");
        assert_eq!(game(&ada, &id)["status"], "open");
        // The invitation is still good: bob accepts; the game starts.
        let info = api.get(&format!("/api/v1/invitations/{token1}"));
        assert_eq!(info.ok()["id"], id.as_str());
        let started = bob.post(&format!("/api/v1/invitations/{token1}/accept"), &json!({}));
        assert_eq!(started.ok()["status"], "active");
        // Reusing it: 409 invitation_used, whoever tries and however.
        cat.post(&format!("/api/v1/invitations/{token1}/accept"), &json!({}))
            .problem(409, "invitation_used");
        bob.post(&format!("/api/v1/invitations/{token1}/accept"), &json!({}))
            .problem(409, "invitation_used");
        api.get(&format!("/api/v1/invitations/{token1}"))
            .problem(409, "invitation_used");
        api.post(&format!("/api/v1/invitations/{token1}/decline"), &json!({}))
            .problem(409, "invitation_used");
        // The second, still pending invitation is to a game that started.
        cat.post(&format!("/api/v1/invitations/{token2}/accept"), &json!({}))
            .problem(409, "game_not_open");
        let now = game(&ada, &id);
        assert_eq!(now["players"].as_array().unwrap().len(), 2);
        assert!(
            now["players"]
                .as_array()
                .unwrap()
                .iter()
                .all(|p| p["display_name"] != "cat")
        );
        cat.get(&format!("/api/v1/games/{id}"))
            .problem(403, "forbidden");
        // An active game is neither cancelled nor re-invited to.
        ada.post(&format!("/api/v1/games/{id}/cancel"), &json!({}))
            .problem(409, "game_not_open");
        ada.post(
            &format!("/api/v1/games/{id}/invitations"),
            &json!({"email": "dan@example.org"}),
        )
        .problem(409, "game_not_open");
        // Resigning ends it; then nothing more happens.
        let resigned = bob.post(&format!("/api/v1/games/{id}/resign"), &json!({}));
        let body = resigned.ok();
        assert_eq!(body["status"], "finished");
        let n = body["move_number"].as_i64().unwrap();
        for p in [&ada, &bob] {
            p.post(&format!("/api/v1/games/{id}/resign"), &json!({}))
                .problem(409, "game_not_active");
            p.submit(&id, n, &json!({"type": "roll_dice"}))
                .problem(409, "game_not_active");
        }
        ada.post(&format!("/api/v1/games/{id}/cancel"), &json!({}))
            .problem(409, "game_not_open");
        let end = game(&ada, &id);
        assert_eq!(end["move_number"], n);
        assert_eq!(end["status"], "finished");

        // A cancelled game: no second cancel, no invitations, no accepting.
        let created = ada.post(
            "/api/v1/games",
            &json!({"variant": "duel", "opponent_email": "cat@example.org"}),
        );
        let id2 = created.body["game"]["id"].as_str().unwrap().to_string();
        let token3 = created.body["invite_token"].as_str().unwrap().to_string();
        assert_eq!(
            ada.post(&format!("/api/v1/games/{id2}/cancel"), &json!({}))
                .ok()["status"],
            "cancelled"
        );
        ada.post(&format!("/api/v1/games/{id2}/cancel"), &json!({}))
            .problem(409, "game_not_open");
        ada.post(
            &format!("/api/v1/games/{id2}/invitations"),
            &json!({"email": "dan@example.org"}),
        )
        .problem(409, "game_not_open");
        cat.post(&format!("/api/v1/invitations/{token3}/accept"), &json!({}))
            .problem(409, "game_not_open");
        ada.post(&format!("/api/v1/games/{id2}/resign"), &json!({}))
            .problem(403, "forbidden");

        // A declined invitation cannot be accepted afterwards.
        let created = ada.post(
            "/api/v1/games",
            &json!({"variant": "duel", "opponent_email": "cat@example.org"}),
        );
        let id3 = created.body["game"]["id"].as_str().unwrap().to_string();
        let token4 = created.body["invite_token"].as_str().unwrap().to_string();
        let r = api.post(&format!("/api/v1/invitations/{token4}/decline"), &json!({}));
        assert_eq!(r.status, 204, "{}", r.body);
        cat.post(&format!("/api/v1/invitations/{token4}/accept"), &json!({}))
            .problem(409, "invitation_used");
        assert_eq!(game(&ada, &id3)["status"], "declined");
    }
}

/// The `Retry-After` header of a reply, in seconds.
fn retry_after(r: &Reply) -> u64 {
    r.headers
        .get("retry-after")
        .expect("Retry-After")
        .to_str()
        .unwrap()
        .parse()
        .unwrap()
}

#[test]
fn login_rate_limit_answers_429_with_retry_after() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("RATE_LIMIT_LOGIN_PER_MINUTE", "2")]);
        // The account is made in the database: registering counts as an attempt.
        {
            let pool = server.db();
            let mut conn = pool.get().unwrap();
            let hash = hexpost::auth::password::hash("correct horse battery").unwrap();
            hexpost::store::users::insert(&mut conn, "ada@example.org", "Ada", &hash, false)
                .unwrap()
                .unwrap();
        }
        let api = server.client();
        let login = |password: &str| {
            api.post(
                "/api/v1/auth/token",
                &json!({"email": "ada@example.org", "password": password}),
            )
        };
        login("correct horse battery").ok();
        login("wrong horse battery").problem(401, "bad_credentials");
        for password in ["correct horse battery", "wrong horse battery"] {
            let r = login(password);
            let body = r.problem(429, "rate_limited");
            let retry = retry_after(&r);
            assert!((1..=60).contains(&retry), "Retry-After {retry}");
            assert_eq!(body["retry_after_seconds"], retry);
        }
        // Registration shares the login budget.
        api.post(
            "/api/v1/accounts",
            &json!({"email": "bob@example.org", "display_name": "Bob", "password": "correct horse battery"}),
        )
        .problem(429, "rate_limited");
    }
}

/// A client that waits as long as `Retry-After` says is let through: the
/// wait is rounded up, never down.
#[test]
fn waiting_the_advertised_retry_after_is_enough() {
    for backend in BACKENDS {
        // One attempt every 3 s, 20 at once.
        let server = TestServer::start_with(backend, &[("RATE_LIMIT_LOGIN_PER_MINUTE", "20")]);
        let api = server.client();
        // Registrations refused for their address count without hashing.
        let attempt = || {
            api.post(
                "/api/v1/accounts",
                &json!({"email": "not an address", "display_name": "Ada", "password": "correct horse battery"}),
            )
        };
        for _ in 0..20 {
            attempt().problem(422, "invalid_email");
        }
        let limited = attempt();
        limited.problem(429, "rate_limited");
        let wait = retry_after(&limited);
        assert!((1..=3).contains(&wait), "Retry-After {wait}");
        std::thread::sleep(std::time::Duration::from_secs(wait));
        attempt().problem(422, "invalid_email");
    }
}

#[test]
fn move_rate_limit_is_per_user() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("RATE_LIMIT_MOVES_PER_MINUTE", "2")]);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let (who, view) = awaited([&a, &b], &id);
        let (me, other) = if who == 0 { (&a, &b) } else { (&b, &a) };
        let n = view["move_number"].as_i64().unwrap();
        let node = match &legal(&view)[..] {
            [LegalAction::BuildSettlement { nodes, .. }] => nodes.iter().next().unwrap(),
            other => panic!("{other:?}"),
        };
        // Two attempts (refused or not) use the budget up...
        me.submit(&id, n, &json!({"type": "end_turn"}))
            .problem(422, "illegal_move");
        me.submit(&id, n, &json!({"type": "end_turn"}))
            .problem(422, "illegal_move");
        // ...so a good move is refused before it is looked at.
        let r = me.submit(&id, n, &json!({"type": "build_settlement", "node": node}));
        r.problem(429, "rate_limited");
        let retry = retry_after(&r);
        assert!(retry >= 1, "Retry-After {retry}");
        assert_eq!(game(me, &id)["move_number"], n, "a refused move was stored");
        // The opponent has a budget of their own.
        other
            .submit(&id, n, &json!({"type": "roll_dice"}))
            .problem(422, "illegal_move");
    }
}

#[test]
fn cors_allows_only_the_configured_origin() {
    for backend in BACKENDS {
        let server =
            TestServer::start_with(backend, &[("CORS_ALLOWED_ORIGINS", "https://play.example")]);
        let api = server.client();
        let preflight = |origin: &str| {
            api.request(
                "OPTIONS",
                "/api/v1/games",
                &[
                    ("Origin", origin),
                    ("Access-Control-Request-Method", "POST"),
                    (
                        "Access-Control-Request-Headers",
                        "authorization,content-type",
                    ),
                ],
            )
        };
        let header =
            |r: &Reply, name: &str| r.headers.get(name).map(|v| v.to_str().unwrap().to_string());
        let ok = preflight("https://play.example");
        assert!((200..300).contains(&ok.status), "{} {}", ok.status, ok.body);
        assert_eq!(
            header(&ok, "access-control-allow-origin").as_deref(),
            Some("https://play.example")
        );
        let methods = header(&ok, "access-control-allow-methods").unwrap();
        assert!(methods.contains("POST"), "{methods}");
        let headers = header(&ok, "access-control-allow-headers")
            .unwrap()
            .to_lowercase();
        assert!(
            headers.contains("authorization") && headers.contains("content-type"),
            "{headers}"
        );
        for origin in [
            "https://evil.example",
            "http://play.example",
            "https://play.example.evil",
        ] {
            let no = preflight(origin);
            assert!(
                !(200..300).contains(&no.status),
                "{origin}: {} {}",
                no.status,
                no.body
            );
            assert_eq!(header(&no, "access-control-allow-origin"), None, "{origin}");
        }
        // Actual requests: the allowed origin is echoed, others are not.
        let r = api.request("GET", "/healthz", &[("Origin", "https://play.example")]);
        assert_eq!(r.status, 200);
        assert_eq!(
            header(&r, "access-control-allow-origin").as_deref(),
            Some("https://play.example")
        );
        let r = api.request("GET", "/healthz", &[("Origin", "https://evil.example")]);
        assert_eq!(header(&r, "access-control-allow-origin"), None);
    }
    // With no origins configured, browsers are refused.
    let server = TestServer::start(common::Backend::Sqlite);
    let r = server.client().request(
        "OPTIONS",
        "/api/v1/games",
        &[
            ("Origin", "https://play.example"),
            ("Access-Control-Request-Method", "POST"),
        ],
    );
    assert!(!(200..300).contains(&r.status), "{}", r.status);
    assert!(r.headers.get("access-control-allow-origin").is_none());
}

#[test]
fn health_probes() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        for path in ["/healthz", "/readyz"] {
            let r = api.get(path);
            assert_eq!(r.status, 200, "{path}");
            assert_eq!(r.body, json!({"status": "ok"}));
        }
    }
}

/// Cut-off JSON is a syntax error even when the part that arrived already
/// names a field the endpoint does not know.
#[test]
fn truncated_json_is_400_whatever_it_names_first() {
    let server = TestServer::start(common::Backend::Sqlite);
    let api = server.client();
    let (a, _b, id) = api.new_game("standard", serde_json::json!({}));
    let ct = [("content-type", "application/json")];
    api.post_raw("/api/v1/accounts", r#"{"nope": 1, "email": "#, &ct)
        .problem(400, "malformed_json");
    a.post_raw(&format!("/api/v1/games/{id}/moves"), r#"{"email": "#, &ct)
        .problem(400, "malformed_json");
    a.post_raw(&format!("/api/v1/games/{id}/moves"), r#"{"email": 1}"#, &ct)
        .problem(422, "invalid_body");
    a.post_raw(
        &format!("/api/v1/games/{id}/moves"),
        r#"{"expected_move_number": 1, "action": {"type": "roll_dice"}}"#,
        &[],
    )
    .problem(415, "unsupported_media_type");
}
