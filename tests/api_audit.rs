//! The hash-chained move log under attack, on SQLite and PostgreSQL: an
//! admin's verification replays real games and passes, and finds each kind
//! of tampering done directly in the database at the row where it was done.
//! Players read their game's log redacted for them; the admin log is full,
//! and admin reads are themselves logged.

use crate::common::{self, Api, BACKENDS, TestServer, play_moves, register_admin};
use diesel::prelude::*;
use hexpost::store::games::MoveRow;
use hexpost::store::schema::{admin_log, games, moves};
use hexpost_engine::{Event, Redact, Seat};
use serde_json::{Value, json};

fn verify(root: &Api, id: &str) -> Value {
    root.get(&format!("/api/v1/admin/games/{id}/verify"))
        .ok()
        .clone()
}

/// Asserts verification fails first at row `seq` (0: the game row).
fn assert_diverges(root: &Api, id: &str, seq: i64, what: &str) {
    let report = verify(root, id);
    assert_eq!(report["ok"], false, "{what}: {report}");
    assert_eq!(report["divergence"]["seq"], seq, "{what}: {report}");
    assert!(report["divergence"]["problem"].is_string(), "{report}");
    assert_eq!(report["rows_checked"], (seq - 1).max(0), "{what}: {report}");
}

fn assert_verifies(root: &Api, id: &str, rows: i64) {
    let report = verify(root, id);
    assert_eq!(report["ok"], true, "{report}");
    assert!(report["divergence"].is_null());
    assert_eq!(report["rows_checked"], rows);
}

/// Writes every column of `row` except the key over the stored row `seq`.
fn overwrite(conn: &mut hexpost::store::DbConnection, id: &str, seq: i64, row: &MoveRow) {
    let n = diesel::update(
        moves::table
            .filter(moves::game_id.eq(id))
            .filter(moves::seq.eq(seq)),
    )
    .set((
        moves::actor.eq(&row.actor),
        moves::seat.eq(row.seat),
        moves::user_id.eq(row.user_id),
        moves::action.eq(&row.action),
        moves::jws.eq(&row.jws),
        moves::events.eq(&row.events),
        moves::state_hash.eq(&row.state_hash),
        moves::prev_hash.eq(&row.prev_hash),
        moves::hash.eq(&row.hash),
        moves::created_at.eq(row.created_at),
    ))
    .execute(conn)
    .unwrap();
    assert_eq!(n, 1);
}

/// A started game with `n` random moves played, and an admin.
fn played_game(server: &TestServer, n: usize, seed: u64) -> (Api, Api, String, Api, i64) {
    let api = server.client();
    let (a, b, id) = api.new_game("standard", json!({}));
    let made = play_moves([&a, &b], &id, seed, n);
    assert_eq!(made, n, "the game ended early");
    let (root, root_id) = register_admin(
        server,
        &format!("root{}", common::game(&a, &id)["created_by"]),
    );
    (a, b, id, root, root_id)
}

#[test]
fn verification_finds_each_kind_of_tampering() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (a, _b, id, root, _) = played_game(&server, 40, 11);
        let total = common::game(&a, &id)["move_number"].as_i64().unwrap();
        assert_eq!(total, 41);
        assert_verifies(&root, &id, total);

        let pool = server.db();
        let mut conn = pool.get().unwrap();
        let rows = hexpost::store::games::moves(&mut conn, &id, 0, 1000).unwrap();
        assert_eq!(rows.len() as i64, total);
        let game_row = hexpost::store::games::get(&mut conn, &id).unwrap().unwrap();
        let rehash = |row: &MoveRow| hexpost::service::audit::row_hash(&game_row, row).unwrap();
        // A row with a roll, away from both ends.
        let k = rows
            .iter()
            .find(|r| r.seq > 10 && r.seq < total - 1 && r.events.contains("\"dice_rolled\""))
            .expect("a roll in the middle of the game")
            .seq;
        let original = rows[k as usize - 1].clone();
        let next = rows[k as usize].clone();
        assert_eq!((original.seq, next.seq), (k, k + 1));

        // 1. The events text of one row changed (another total rolled).
        let at = original.events.find("\"total\":").unwrap() + "\"total\":".len();
        let digits: String = original.events[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let other_total = if digits == "7" { "8" } else { "7" };
        let mut forged = original.clone();
        forged.events = format!(
            "{}{}{}",
            &original.events[..at],
            other_total,
            &original.events[at + digits.len()..]
        );
        assert_ne!(forged.events, original.events);
        overwrite(&mut conn, &id, k, &forged);
        assert_diverges(&root, &id, k, "events changed");
        // ...with the row's own hash recomputed: the replay still tells.
        forged.hash = rehash(&forged);
        overwrite(&mut conn, &id, k, &forged);
        assert_diverges(&root, &id, k, "events changed, hash recomputed");
        // ...and the action changed instead, hash recomputed.
        let mut forged = original.clone();
        forged.action = json!({"type": "end_turn"}).to_string();
        assert_ne!(forged.action, original.action);
        forged.hash = rehash(&forged);
        overwrite(&mut conn, &id, k, &forged);
        assert_diverges(&root, &id, k, "action changed");
        overwrite(&mut conn, &id, k, &original);
        assert_verifies(&root, &id, total);

        // 2. A row deleted.
        let n = diesel::delete(
            moves::table
                .filter(moves::game_id.eq(&id))
                .filter(moves::seq.eq(k)),
        )
        .execute(&mut conn)
        .unwrap();
        assert_eq!(n, 1);
        assert_diverges(&root, &id, k, "row deleted");
        hexpost::store::games::insert_moves(&mut conn, std::slice::from_ref(&original)).unwrap();
        assert_verifies(&root, &id, total);
        // The last row deleted: only the game row can tell.
        let last = rows.last().unwrap().clone();
        diesel::delete(
            moves::table
                .filter(moves::game_id.eq(&id))
                .filter(moves::seq.eq(total)),
        )
        .execute(&mut conn)
        .unwrap();
        assert_diverges(&root, &id, 0, "last row deleted");
        hexpost::store::games::insert_moves(&mut conn, std::slice::from_ref(&last)).unwrap();
        assert_verifies(&root, &id, total);

        // 3. Two rows swapped.
        overwrite(&mut conn, &id, k, &next);
        overwrite(&mut conn, &id, k + 1, &original);
        assert_diverges(&root, &id, k, "rows swapped");
        overwrite(&mut conn, &id, k, &original);
        overwrite(&mut conn, &id, k + 1, &next);
        assert_verifies(&root, &id, total);

        // 4. The game row: its state, chain head, move number.
        let state = game_row.state.clone().unwrap();
        let at = state.find("\"turn\":").unwrap() + "\"turn\":".len();
        let turn: String = state[at..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect();
        let tampered = format!(
            "{}{}{}",
            &state[..at],
            turn.parse::<u32>().unwrap() + 1,
            &state[at + turn.len()..]
        );
        let set_state = |conn: &mut hexpost::store::DbConnection, s: &str| {
            diesel::update(games::table.find(&id))
                .set(games::state.eq(Some(s)))
                .execute(conn)
                .unwrap()
        };
        set_state(&mut conn, &tampered);
        assert_diverges(&root, &id, 0, "game state changed");
        set_state(&mut conn, &state);
        assert_verifies(&root, &id, total);
        diesel::update(games::table.find(&id))
            .set(games::chain_head.eq(&original.hash))
            .execute(&mut conn)
            .unwrap();
        assert_diverges(&root, &id, 0, "chain head changed");
        diesel::update(games::table.find(&id))
            .set(games::chain_head.eq(&game_row.chain_head))
            .execute(&mut conn)
            .unwrap();
        assert_verifies(&root, &id, total);
        // A changed seed no longer matches the published hash.
        diesel::update(games::table.find(&id))
            .set(games::seed.eq("00".repeat(32)))
            .execute(&mut conn)
            .unwrap();
        assert_diverges(&root, &id, 0, "seed changed");
        diesel::update(games::table.find(&id))
            .set(games::seed.eq(&game_row.seed))
            .execute(&mut conn)
            .unwrap();
        assert_verifies(&root, &id, total);

        // Each verification was recorded with its outcome.
        let recorded: Vec<String> = admin_log::table
            .filter(admin_log::action.eq("verify"))
            .filter(admin_log::target.eq(&id))
            .order(admin_log::id.asc())
            .select(admin_log::detail)
            .load(&mut conn)
            .unwrap();
        let expected: Vec<&str> = [
            "ok", "diverged", "diverged", "diverged", "ok", "diverged", "ok", "diverged", "ok",
            "diverged", "ok", "diverged", "ok", "diverged", "ok", "diverged", "ok",
        ]
        .to_vec();
        assert_eq!(recorded, expected, "{backend:?}");
    }
}

/// Plays random moves until the admin log holds a stolen card and a bought
/// development card; returns the full log.
fn play_until_secrets(a: &Api, b: &Api, id: &str, root: &Api) -> Option<Vec<Value>> {
    for chunk in 0..40 {
        let made = play_moves([a, b], id, 100 + chunk, 25);
        let log = root.full_log(id, true);
        let has = |t: &str| {
            log.iter()
                .flat_map(|r| r["events"].as_array().unwrap())
                .any(|e| e["type"] == t)
        };
        if has("stole") && has("dev_card_bought") {
            return Some(log);
        }
        if made < 25 {
            return None;
        }
    }
    None
}

#[test]
fn players_read_redacted_logs_and_admins_the_full_one() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (root, root_id) = register_admin(&server, "root");
        let (a, b, id, full) = (0..4)
            .find_map(|i| {
                let (a, b, id) = server.new_game_seeded("standard", json!({}), 4_000 + i);
                play_until_secrets(&a, &b, &id, &root).map(|full| (a, b, id, full))
            })
            .expect("a game with a theft and a development card");

        // The admin log is the stored log, every secret included.
        let pool = server.db();
        let mut conn = pool.get().unwrap();
        let stored = hexpost::store::games::moves(&mut conn, &id, 0, 10_000).unwrap();
        assert_eq!(stored.len(), full.len());
        let mut thefts = 0;
        let mut purchases = 0;
        for (row, entry) in stored.iter().zip(&full) {
            assert_eq!(entry["seq"], row.seq);
            let events: Value = serde_json::from_str(&row.events).unwrap();
            assert_eq!(entry["events"], events, "row {}", row.seq);
            for e in events.as_array().unwrap() {
                if e["type"] == "stole" {
                    thefts += 1;
                    assert!(e["resource"].is_string(), "{e}");
                }
                if e["type"] == "dev_card_bought" {
                    purchases += 1;
                    assert!(e["card"].is_string(), "{e}");
                }
            }
        }
        assert!(thefts > 0 && purchases > 0);

        // Each player's log: the same rows, events redacted for their seat.
        let mut saw_own_card = [false; 2];
        let mut saw_hidden_card = [false; 2];
        for p in [&a, &b] {
            let seat = common::game(p, &id)["your_seat"].as_u64().unwrap() as u8;
            let log = p.full_log(&id, false);
            assert_eq!(log.len(), full.len());
            for (mine, all) in log.iter().zip(&full) {
                for field in [
                    "seq",
                    "actor",
                    "seat",
                    "action",
                    "jws",
                    "state_hash",
                    "hash",
                ] {
                    assert_eq!(mine[field], all[field], "{field}");
                }
                let theirs = all["events"].as_array().unwrap();
                let shown = mine["events"].as_array().unwrap();
                assert_eq!(theirs.len(), shown.len());
                for (e, s) in theirs.iter().zip(shown) {
                    let event: Event = serde_json::from_value(e.clone()).unwrap();
                    let redacted =
                        serde_json::to_value(event.redacted_for(Some(Seat(seat)))).unwrap();
                    assert_eq!(s, &redacted, "seat {seat}");
                    match e["type"].as_str().unwrap() {
                        // Both players are thief or victim: both see it.
                        "stole" => assert_eq!(s["resource"], e["resource"], "{s}"),
                        "dev_card_bought" if e["seat"] == seat => {
                            assert_eq!(s["card"], e["card"]);
                            saw_own_card[seat as usize] = true;
                        }
                        "dev_card_bought" => {
                            assert!(s["card"].is_null(), "seat {seat} sees {s}");
                            saw_hidden_card[seat as usize] = true;
                        }
                        _ => assert_eq!(s, e),
                    }
                }
            }
        }
        let buyers: Vec<u64> = full
            .iter()
            .flat_map(|r| r["events"].as_array().unwrap().clone())
            .filter(|e| e["type"] == "dev_card_bought")
            .map(|e| e["seat"].as_u64().unwrap())
            .collect();
        for buyer in &buyers {
            assert!(saw_own_card[*buyer as usize]);
            assert!(saw_hidden_card[1 - *buyer as usize]);
        }

        // Admin reads are recorded, one entry per read; players' are not.
        let count = |conn: &mut hexpost::store::DbConnection| -> i64 {
            admin_log::table
                .filter(admin_log::action.eq("read_log"))
                .filter(admin_log::target.eq(&id))
                .filter(admin_log::admin_user_id.eq(root_id))
                .count()
                .get_result(conn)
                .unwrap()
        };
        let before = count(&mut conn);
        assert!(before > 0);
        root.get(&format!("/api/v1/admin/games/{id}/log?limit=3"))
            .ok();
        assert_eq!(count(&mut conn), before + 1, "{backend:?}");
        a.get(&format!("/api/v1/games/{id}/log")).ok();
        b.get(&format!("/api/v1/games/{id}/log")).ok();
        assert_eq!(count(&mut conn), before + 1);
        let total: i64 = admin_log::table
            .filter(admin_log::target.eq(&id))
            .count()
            .get_result(&mut conn)
            .unwrap();
        assert_eq!(total, before + 1, "only the admin's reads are logged");
        // Refused admin reads leave no entry.
        a.get(&format!("/api/v1/admin/games/{id}/log"))
            .problem(403, "forbidden");
        assert_eq!(count(&mut conn), before + 1);
    }
}

/// Rewrites the log from row `k` on as a forger with database access would:
/// `rows` (renumbered from `k`) replace the stored tail, every hash and link
/// recomputed, and the game row pointed at the new head.
fn rewrite_tail(conn: &mut hexpost::store::DbConnection, id: &str, k: i64, rows: &[MoveRow]) {
    diesel::delete(
        moves::table
            .filter(moves::game_id.eq(id))
            .filter(moves::seq.ge(k)),
    )
    .execute(conn)
    .unwrap();
    let mut prev = hexpost::store::games::moves(conn, id, k - 2, 1)
        .unwrap()
        .pop()
        .unwrap()
        .hash;
    let game = hexpost::store::games::get(conn, id).unwrap().unwrap();
    let mut forged = Vec::new();
    for (i, row) in rows.iter().enumerate() {
        let mut row = row.clone();
        row.seq = k + i as i64;
        row.prev_hash = prev;
        row.hash = hexpost::service::audit::row_hash(&game, &row).unwrap();
        prev = row.hash.clone();
        forged.push(row);
    }
    hexpost::store::games::insert_moves(conn, &forged).unwrap();
    diesel::update(games::table.find(id))
        .set((
            games::move_number.eq(k - 1 + rows.len() as i64),
            games::chain_head.eq(prev),
        ))
        .execute(conn)
        .unwrap();
}

#[test]
fn automated_steps_are_rows_of_their_own() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let api = server.client();
        let (root, _) = register_admin(&server, "root");
        for (variant, seed) in [("shadow", 5), ("catan_for_two", 7)] {
            let (a, b, id) = api.new_game(variant, json!({}));
            let made = play_moves([&a, &b], &id, seed, 120);
            let total = common::game(&a, &id)["move_number"].as_i64().unwrap();
            assert_verifies(&root, &id, total);
            let log = root.full_log(&id, true);
            assert_eq!(log.len() as i64, total);
            let automated: Vec<&Value> = log
                .iter()
                .filter(|r| r["action"]["type"] == "automated_step")
                .collect();
            // Start row, one row per move made, one per automated step.
            assert_eq!(total, 1 + made as i64 + automated.len() as i64, "{variant}");
            assert!(automated.len() > 10, "{variant}: {} steps", automated.len());
            for row in &automated {
                assert_eq!(row["actor"], "server", "{row}");
                assert_eq!(row["seat"], row["action"]["seat"], "{row}");
                assert!(!row["events"].as_array().unwrap().is_empty(), "{row}");
            }
            if variant == "shadow" {
                // The fictional players (seats 2 and 3) act in rows of their own.
                assert!(automated.iter().any(|r| r["seat"].as_u64().unwrap() >= 2));
            }

            // A consistent forgery that leaves out one automated step is
            // caught where the step was due.
            let pool = server.db();
            let mut conn = pool.get().unwrap();
            let rows = hexpost::store::games::moves(&mut conn, &id, 0, 10_000).unwrap();
            // The last step of a run, so a player's row comes next.
            let k = rows
                .windows(2)
                .find(|w| {
                    w[0].seq > 20
                        && w[0].action.contains("\"automated_step\"")
                        && w[1].user_id.is_some()
                })
                .expect("an automated step after row 20")[0]
                .seq;
            let tail = &rows[k as usize - 1..];
            rewrite_tail(&mut conn, &id, k, &tail[1..]);
            assert_diverges(&root, &id, k, "automated step left out");
            let problem = verify(&root, &id)["divergence"]["problem"].clone();
            assert!(
                problem.as_str().unwrap().contains("automated step"),
                "{problem}"
            );
            // ...and one that invents a step where none was due.
            rewrite_tail(&mut conn, &id, k, tail);
            assert_verifies(&root, &id, total);
            let mut invented = tail[0].clone();
            invented.events = "[]".into();
            let first_player_row = tail
                .iter()
                .position(|r| r.user_id.is_some())
                .expect("a player's row after the step");
            let mut with_extra = tail[..first_player_row].to_vec();
            with_extra.push(invented);
            with_extra.extend_from_slice(&tail[first_player_row..]);
            rewrite_tail(&mut conn, &id, k, &with_extra);
            assert_diverges(
                &root,
                &id,
                k + first_player_row as i64,
                "automated step invented",
            );
            rewrite_tail(&mut conn, &id, k, tail);
            assert_verifies(&root, &id, total);
        }
    }
}

/// Changes the stored `user_id` of row `seq`.
fn set_user(conn: &mut hexpost::store::DbConnection, id: &str, seq: i64, user: Option<i64>) {
    let n = diesel::update(
        moves::table
            .filter(moves::game_id.eq(id))
            .filter(moves::seq.eq(seq)),
    )
    .set(moves::user_id.eq(user))
    .execute(conn)
    .unwrap();
    assert_eq!(n, 1);
}

/// Who sits where and who made each move, tampered with in the database,
/// fails verification: the start row fixes the seats, and every player's
/// row must name the user in its seat.
fn assert_players_bound(server: &TestServer, root: &Api, id: &str) {
    let rows_checked = verify(root, id)["rows_checked"].as_i64().unwrap();
    assert_verifies(root, id, rows_checked);
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    let players = hexpost::store::games::players(&mut conn, id).unwrap();
    let [(0, first), (1, second)] = players[..] else {
        panic!("{players:?}");
    };

    // The seats swapped: each would read the other's hand.
    hexpost::store::games::set_seats(&mut conn, id, &[(0, second), (1, first)]).unwrap();
    assert_diverges(root, id, 0, "seats swapped");
    hexpost::store::games::set_seats(&mut conn, id, &players).unwrap();
    assert_verifies(root, id, rows_checked);

    // A player's move that names no user, or the other player.
    let rows = hexpost::store::games::moves(&mut conn, id, 0, 10_000).unwrap();
    let mv = rows
        .iter()
        .find(|r| r.seq > 5 && r.actor.starts_with("seat:"))
        .expect("a player's move");
    let other = if mv.user_id == Some(first) {
        second
    } else {
        first
    };
    for forged in [None, Some(other)] {
        set_user(&mut conn, id, mv.seq, forged);
        assert_diverges(root, id, mv.seq, "the move's user changed");
    }
    // A row the server made that names a user.
    let by_server = rows.iter().find(|r| r.actor == "server").unwrap();
    set_user(&mut conn, id, by_server.seq, Some(first));
    assert_diverges(root, id, by_server.seq, "a server row names a user");
    set_user(&mut conn, id, by_server.seq, None);
    set_user(&mut conn, id, mv.seq, mv.user_id);
    assert_verifies(root, id, rows_checked);
}

#[test]
fn seats_and_acting_users_are_bound_to_the_chain() {
    for backend in BACKENDS {
        // A game of the committed scheme, whose row hashes cover the user.
        let server = TestServer::start(backend);
        let (_a, _b, id, root, _) = played_game(&server, 30, 5);
        assert_players_bound(&server, &root, &id);
        // A game stored before it, whose row hashes do not: its start row
        // and the binding of each move to its seat still tell.
        let server = TestServer::start(backend);
        let (root, _) = register_admin(&server, "root");
        let path = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/archives/standard.json"
        );
        let doc: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
        root.post("/api/v1/admin/games/import", &doc).ok();
        assert_players_bound(&server, &root, doc["game"]["id"].as_str().unwrap());
    }
}
