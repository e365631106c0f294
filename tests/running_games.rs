//! Games that were running when the log's committed scheme was deployed
//! (docs/architecture.md, "The log's hash chain"), continued on both
//! backends. `tests/fixtures/running/` holds two games stopped in the
//! middle, every database row of them exactly as the server stored them
//! before that change (they were recorded by commit 5eb9812, the last to
//! write rows of the plain scheme only, whose hashes cover what a row
//! hides): a standard game in which both players hold development cards,
//! and a shadow game in an auction where seat 0 has bid with a signed move
//! and seat 1 has not answered. A fixture is never recorded again.
//!
//! Loaded into a fresh database, each game goes on through the API:
//!
//! - while it runs, a player is shown neither the hash of a plain row nor
//!   the link to one, nor the chain head while it is one; admins and
//!   verification see everything;
//! - the sealed bid, a plain row, is kept from the other bidder (its
//!   action and signed move) until the answers are revealed;
//! - the rows written from then on are of the committed scheme, the first
//!   committing to its link to the last plain row; each is checked from
//!   what a player is shown;
//! - once the game is over everything is shown, the whole chain verifies,
//!   and its export imports and verifies elsewhere.
//!
//! A third game, `ck_for_two`, was recorded later, all of its rows of the
//! committed scheme, stopped while both players hold progress cards: it
//! goes on under the rules it was created with, each player seeing their
//! own progress cards and only the count of the other's, and verifies.
//! It was recorded with
//! `cargo test --test server -- --ignored running_games::record_ck_for_two`.

use crate::common::{
    self, Api, BACKENDS, Backend, TestServer, check_served_row, game, register_admin,
};
use hexpost::store::games::{GameRow, MoveRow};
use serde::Deserialize;
use serde_json::{Value, json};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/running")
}

#[derive(Deserialize, Debug, Clone)]
struct StoredUser {
    id: i64,
    email: String,
    display_name: String,
    password_hash: String,
}

/// Every column of the game row as it was stored.
#[derive(Deserialize, Debug, Clone)]
struct StoredGame {
    id: String,
    variant: String,
    config: String,
    status: String,
    created_by: i64,
    seed: String,
    seed_hash: String,
    state: Option<String>,
    move_number: i64,
    chain_head: String,
    awaiting: String,
    winner_seat: Option<i32>,
    time_limit_secs: i64,
    creator_seat: Option<i32>,
    created_at: i64,
    updated_at: i64,
    finished_at: Option<i64>,
    timeout_policy: String,
    max_auto_decisions: i32,
    vacation_days: i32,
    clocks: String,
    // `wake_at` is left out: see `load`.
    version: i64,
    /// Absent from the games recorded before the committed scheme.
    #[serde(default)]
    committed_from: Option<i64>,
}

/// Every column of a log row as it was stored.
#[derive(Deserialize, Debug, Clone)]
struct StoredMove {
    seq: i64,
    actor: String,
    seat: Option<i32>,
    user_id: Option<i64>,
    action: String,
    jws: Option<String>,
    events: String,
    state_hash: String,
    prev_hash: String,
    hash: String,
    created_at: i64,
    /// Absent from the rows recorded before the committed scheme.
    #[serde(default)]
    sealed: bool,
}

#[derive(Deserialize, Debug, Clone)]
struct RunningGame {
    password: String,
    users: Vec<StoredUser>,
    game: StoredGame,
    /// (seat, user id).
    players: Vec<(i32, i64)>,
    moves: Vec<StoredMove>,
}

fn fixture(name: &str) -> RunningGame {
    let path = dir().join(format!("{name}.json"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap()
}

/// Writes the fixture's rows as the server that recorded them left them
/// (for a game from before the committed scheme, as the migration leaves
/// them: no committed row), and logs its players in: their clients by seat.
fn load(server: &TestServer, f: &RunningGame) -> [Api; 2] {
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    for u in &f.users {
        hexpost::store::users::insert_with_id(
            &mut conn,
            u.id,
            &u.email,
            &u.display_name,
            &u.password_hash,
        )
        .unwrap();
    }
    let g = f.game.clone();
    let row = GameRow {
        id: g.id,
        variant: g.variant,
        config: g.config,
        status: g.status,
        created_by: g.created_by,
        seed: g.seed,
        seed_hash: g.seed_hash,
        state: g.state,
        move_number: g.move_number,
        chain_head: g.chain_head,
        awaiting: g.awaiting,
        winner_seat: g.winner_seat,
        time_limit_secs: g.time_limit_secs,
        creator_seat: g.creator_seat,
        created_at: g.created_at,
        updated_at: g.updated_at,
        finished_at: g.finished_at,
        timeout_policy: g.timeout_policy,
        max_auto_decisions: g.max_auto_decisions,
        vacation_days: g.vacation_days,
        clocks: g.clocks,
        // The deadlines were set when the fixture was recorded and have
        // long passed: the sweeper is kept away until the next move sets
        // new ones.
        wake_at: None,
        version: g.version,
        committed_from: g.committed_from,
    };
    hexpost::store::games::insert_game(&mut conn, &row).unwrap();
    for &(seat, user) in &f.players {
        hexpost::store::games::add_player(&mut conn, &row.id, seat, user).unwrap();
    }
    let moves: Vec<MoveRow> = f
        .moves
        .iter()
        .map(|m| MoveRow {
            game_id: row.id.clone(),
            seq: m.seq,
            actor: m.actor.clone(),
            seat: m.seat,
            user_id: m.user_id,
            action: m.action.clone(),
            jws: m.jws.clone(),
            events: m.events.clone(),
            state_hash: m.state_hash.clone(),
            prev_hash: m.prev_hash.clone(),
            hash: m.hash.clone(),
            created_at: m.created_at,
            sealed: m.sealed,
        })
        .collect();
    hexpost::store::games::insert_moves(&mut conn, &moves).unwrap();
    [0, 1].map(|seat| {
        let (_, user) = f.players.iter().find(|(s, _)| *s == seat).unwrap();
        let email = &f.users.iter().find(|u| u.id == *user).unwrap().email;
        let api = server.client();
        let r = api.post(
            "/api/v1/auth/token",
            &json!({"email": email, "password": f.password}),
        );
        api.with_token(r.ok()["access_token"].as_str().unwrap())
    })
}

/// An admin on a fresh server whose id is none of the fixture's, which an
/// import keeps.
fn admin_after_ids_taken(server: &TestServer, f: &RunningGame) -> Api {
    let id = 1000;
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    let hash = &f.users[0].password_hash;
    hexpost::store::users::insert_with_id(&mut conn, id, "root@example.org", "root", hash).unwrap();
    assert_eq!(
        f.password, "correct horse battery",
        "promote_admin logs in with it"
    );
    common::promote_admin(server, &server.client(), id, "root@example.org")
}

fn verifies(root: &Api, id: &str) -> Value {
    let report = root
        .get(&format!("/api/v1/admin/games/{id}/verify"))
        .ok()
        .clone();
    assert_eq!(report["ok"], true, "{report}");
    report
}

/// While the game runs, a player's log shows plain rows without their
/// hashes and links (the first row's link, the public genesis, aside);
/// the admin's shows them as stored.
fn assert_plain_rows_withheld(p: &Api, root: &Api, id: &str, plain: i64) {
    let mine = p.full_log(id, false);
    let all = root.full_log(id, true);
    assert!(mine.len() as i64 >= plain);
    for (row, full) in mine.iter().zip(&all).take(plain as usize) {
        assert_eq!(row["scheme"], "plain", "{row}");
        assert!(row["hash"].is_null(), "a plain row's hash is shown: {row}");
        if row["seq"] == 1 {
            assert_eq!(row["prev_hash"], full["prev_hash"]);
        } else {
            assert!(row["prev_hash"].is_null(), "{row}");
        }
        assert!(
            row["public"].is_null() && row["salts"] == json!({}),
            "{row}"
        );
        assert!(full["hash"].is_string() && full["prev_hash"].is_string());
    }
    assert!(game(p, id)["chain_head"].is_null() || mine.len() as i64 > plain);
}

/// The first committed row links to the last plain one by a commitment,
/// which a player may open only once the game is over.
fn assert_bridge(p: &Api, id: &str, first: i64, over: bool) -> Value {
    let row = p
        .get(&format!(
            "/api/v1/games/{id}/log?after={}&limit=1",
            first - 1
        ))
        .ok()[0]
        .clone();
    assert_eq!(row["seq"], first);
    assert_eq!(row["scheme"], "committed", "{row}");
    assert!(row["public"]["prev"]["commit"].is_string(), "{row}");
    assert_eq!(row["prev_hash"].is_string(), over, "{row}");
    assert_eq!(row["salts"].get("prev").is_some(), over, "{row}");
    check_served_row(id, &row);
    row
}

/// Checks every committed row of a player's log from what it shows.
fn check_committed_rows(p: &Api, id: &str, first: i64) -> usize {
    let log = p.full_log(id, false);
    log.iter()
        .filter(|r| r["seq"].as_i64().unwrap() >= first)
        .map(|r| check_served_row(id, r))
        .sum()
}

#[test]
fn a_running_standard_game_goes_on_under_the_committed_scheme() {
    let f = fixture("standard");
    let plain = f.game.move_number;
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let [a, b] = load(&server, &f);
        let (root, _) = register_admin(&server, "root");
        let id = f.game.id.clone();
        verifies(&root, &id);
        for p in [&a, &b] {
            let detail = game(p, &id);
            assert_eq!(detail["status"], "active");
            assert!(detail["chain_head"].is_null(), "{}", detail["chain_head"]);
            assert_plain_rows_withheld(p, &root, &id, plain);
        }

        let made = common::play_moves([&a, &b], &id, 77, 30);
        assert_eq!(made, 30, "the game ended");
        let report = verifies(&root, &id);
        let total = game(&a, &id)["move_number"].as_i64().unwrap();
        assert_eq!(report["rows_checked"], total);
        let first = plain + 1;
        for p in [&a, &b] {
            assert_plain_rows_withheld(p, &root, &id, plain);
            let detail = game(p, &id);
            assert_eq!(detail["chain_head"], report["chain_head"], "{backend:?}");
            assert_bridge(p, &id, first, false);
            check_committed_rows(p, &id, first);
        }

        // Over: everything is shown and opens.
        a.post(&format!("/api/v1/games/{id}/resign"), &json!({}))
            .ok();
        let report = verifies(&root, &id);
        let all = root.full_log(&id, true);
        for p in [&a, &b] {
            let mine = p.full_log(&id, false);
            for (row, full) in mine.iter().zip(&all) {
                for field in ["hash", "prev_hash"] {
                    assert_eq!(row[field], full[field], "{field}: {row}");
                }
            }
            assert_eq!(game(p, &id)["chain_head"], report["chain_head"]);
            assert_bridge(p, &id, first, true);
            check_committed_rows(p, &id, first);
        }

        let doc = exported_imports_elsewhere(&root, &id, backend, &f);
        assert_eq!(doc["game"]["committed_from"], first);
    }
}

/// Exported, the game imports and verifies on a fresh server; returns
/// the export.
fn exported_imports_elsewhere(root: &Api, id: &str, backend: Backend, f: &RunningGame) -> Value {
    let doc = root
        .get(&format!("/api/v1/admin/games/{id}/export"))
        .ok()
        .clone();
    let elsewhere = TestServer::start(backend);
    let admin = admin_after_ids_taken(&elsewhere, f);
    let imported = admin.post("/api/v1/admin/games/import", &doc);
    assert_eq!(
        imported.ok()["verification"]["ok"],
        true,
        "{}",
        imported.body
    );
    doc
}

#[test]
fn a_sealed_bid_of_a_running_shadow_game_stays_sealed_until_revealed() {
    let f = fixture("shadow");
    let plain = f.game.move_number;
    let bid = f.moves.last().unwrap().clone();
    let jws = bid.jws.clone().expect("the bid was signed");
    let action: Value = serde_json::from_str(&bid.action).unwrap();
    assert_eq!(action["type"], "bid");
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let [bidder, other] = load(&server, &f);
        let (root, _) = register_admin(&server, "root");
        let id = f.game.id.clone();
        verifies(&root, &id);
        let row_of = |p: &Api, seq: i64| -> (Value, String) {
            let r = p.get(&format!("/api/v1/games/{id}/log?after={}&limit=1", seq - 1));
            let text = serde_json::to_string(&r.body).unwrap();
            (r.ok()[0].clone(), text)
        };

        // The other bidder sees that seat 0 answered, and nothing of how.
        let (row, text) = row_of(&other, plain);
        assert_eq!(row["action"], json!({"type": "sealed"}), "{row}");
        assert!(row["jws"].is_null(), "{row}");
        assert!(!text.contains(&jws) && !text.contains("\"bid\""), "{text}");
        let whole = serde_json::to_string(&other.full_log(&id, false)).unwrap();
        assert!(!whole.contains(&jws), "the signed bid is served");
        assert_eq!(
            game(&other, &id)["view"]["phase"]["bids"][0],
            "sealed",
            "{backend:?}"
        );
        // The bidder sees their own bid.
        let (own, _) = row_of(&bidder, plain);
        assert_eq!(own["action"], action, "{own}");
        assert_eq!(own["jws"], jws.as_str());

        // Seat 1 answers: both are revealed, and the rows go on committed.
        let n = game(&other, &id)["move_number"].as_i64().unwrap();
        other.submit(&id, n, &json!({"type": "pass_bid"})).ok();
        let (row, _) = row_of(&other, plain);
        assert_eq!(row["action"], action, "{row}");
        assert_eq!(row["jws"], jws.as_str());
        assert!(row["hash"].is_null(), "a plain row's hash while running");
        assert_bridge(&other, &id, plain + 1, false);
        check_committed_rows(&other, &id, plain + 1);
        verifies(&root, &id);
    }
}

/// Every database row of a running ck_for_two game, stopped at the first
/// moment after `MIN_MOVES` moves when both players hold progress cards.
#[test]
#[ignore = "writes a fixture; run only to add a new one"]
fn record_ck_for_two() {
    const MIN_MOVES: usize = 300;
    let path = dir().join("ck_for_two.json");
    assert!(!path.exists(), "a fixture is never recorded again");
    let server = TestServer::start(Backend::Sqlite);
    let (a, b, id) = server.client().new_game("ck_for_two", json!({}));
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    let mut made = 0;
    loop {
        made += common::play_moves([&a, &b], &id, 200 + made as u64, 10);
        let row = hexpost::store::games::get(&mut conn, &id).unwrap().unwrap();
        assert_eq!(row.status, "active", "the game ended before it was stopped");
        let state: hexpost_engine::GameState =
            serde_json::from_str(row.state.as_deref().unwrap()).unwrap();
        let hexpost_engine::rulesets::VariantState::CkForTwo(c) = &state.variant else {
            unreachable!()
        };
        let holding = [0, 1].map(|i| c.players[i].progress.count > 0);
        if made >= MIN_MOVES && holding == [true, true] && state.awaiting().len() == 1 {
            break;
        }
    }
    let g = hexpost::store::games::get(&mut conn, &id).unwrap().unwrap();
    let players = hexpost::store::games::players(&mut conn, &id).unwrap();
    let users: Vec<Value> = players
        .iter()
        .map(|&(_, user)| {
            let u = hexpost::store::users::by_id(&mut conn, user)
                .unwrap()
                .unwrap();
            json!({"id": u.id, "email": u.email, "display_name": u.display_name,
                   "password_hash": u.password_hash})
        })
        .collect();
    let moves: Vec<Value> = hexpost::store::games::moves(&mut conn, &id, 0, i64::MAX)
        .unwrap()
        .into_iter()
        .map(|m| {
            json!({"seq": m.seq, "actor": m.actor, "seat": m.seat, "user_id": m.user_id,
                   "action": m.action, "jws": m.jws, "events": m.events,
                   "state_hash": m.state_hash, "prev_hash": m.prev_hash, "hash": m.hash,
                   "created_at": m.created_at, "sealed": m.sealed})
        })
        .collect();
    let doc = json!({
        "note": "ck_for_two, both players holding progress cards, the game running",
        "password": "correct horse battery",
        "users": users,
        "game": {
            "id": g.id, "variant": g.variant, "config": g.config, "status": g.status,
            "created_by": g.created_by, "seed": g.seed, "seed_hash": g.seed_hash,
            "state": g.state, "move_number": g.move_number, "chain_head": g.chain_head,
            "awaiting": g.awaiting, "winner_seat": g.winner_seat,
            "time_limit_secs": g.time_limit_secs, "creator_seat": g.creator_seat,
            "created_at": g.created_at, "updated_at": g.updated_at,
            "finished_at": g.finished_at, "timeout_policy": g.timeout_policy,
            "max_auto_decisions": g.max_auto_decisions, "vacation_days": g.vacation_days,
            "clocks": g.clocks, "wake_at": g.wake_at, "version": g.version,
            "committed_from": g.committed_from,
        },
        "players": players,
        "moves": moves,
    });
    let mut text = serde_json::to_string_pretty(&doc).unwrap();
    text.push('\n');
    std::fs::write(path, text).unwrap();
}

/// The progress-card events of a player's log: the cards the other player
/// drew are never shown.
fn assert_opponents_draws_hidden(p: &Api, id: &str, seat: i64) {
    for row in p.full_log(id, false) {
        for e in row["events"].as_array().unwrap() {
            if e["type"] == "progress_drawn" && e["seat"] != seat {
                assert!(e["card"].is_null(), "{e}");
            }
        }
    }
}

#[test]
fn a_running_ck_for_two_game_goes_on_with_its_progress_cards_hidden() {
    use hexpost_engine::rulesets::VariantState;
    let f = fixture("ck_for_two");
    assert_eq!(f.game.committed_from, Some(1));
    let stored: hexpost_engine::GameState =
        serde_json::from_str(f.game.state.as_deref().unwrap()).unwrap();
    let VariantState::CkForTwo(truth) = &stored.variant else {
        panic!("a ck_for_two state")
    };
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let players = load(&server, &f);
        let (root, _) = register_admin(&server, "root");
        let id = f.game.id.clone();
        verifies(&root, &id);
        for (seat, p) in players.iter().enumerate() {
            let detail = game(p, &id);
            assert_eq!(detail["status"], "active");
            assert_eq!(detail["chain_head"], f.game.chain_head.as_str());
            let view: hexpost_engine::GameView =
                serde_json::from_value(detail["view"].clone()).unwrap();
            let VariantState::CkForTwo(seen) = &view.variant else {
                panic!("a ck_for_two view")
            };
            let (mine, theirs) = (&seen.players[seat], &seen.players[1 - seat]);
            assert_eq!(mine.progress, truth.players[seat].progress, "{backend:?}");
            assert!(mine.progress.count > 0);
            assert_eq!(theirs.progress.cards, None, "{backend:?}");
            assert_eq!(
                theirs.progress.count,
                truth.players[1 - seat].progress.count
            );
            assert_opponents_draws_hidden(p, &id, seat as i64);
        }

        let made = common::play_moves([&players[0], &players[1]], &id, 78, 40);
        assert_eq!(made, 40, "the game ended");
        let report = verifies(&root, &id);
        let total = game(&players[0], &id)["move_number"].as_i64().unwrap();
        assert_eq!(report["rows_checked"], total);
        for (seat, p) in players.iter().enumerate() {
            assert_eq!(game(p, &id)["chain_head"], report["chain_head"]);
            // Every row checks from what the player is shown, and the
            // other player's hidden parts stay closed to them.
            assert!(check_committed_rows(p, &id, 1) > 0, "{backend:?}");
            assert_opponents_draws_hidden(p, &id, seat as i64);
        }

        players[0]
            .post(&format!("/api/v1/games/{id}/resign"), &json!({}))
            .ok();
        verifies(&root, &id);
        exported_imports_elsewhere(&root, &id, backend, &f);
    }
}
