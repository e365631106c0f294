//! Two `hexpost serve` processes on one PostgreSQL database, as in the
//! Kubernetes deployment: games are played through both alternately, and
//! the same move sent to both at once is applied once. Every move is in
//! the log once (it verifies by replay), and every mail is sent once.

use crate::common::process::ServeProcess;
use crate::common::smtp::{self, SmtpSink};
use crate::common::{self, Api, Backend, TempDatabase};
use diesel::prelude::*;
use hexpost::store::schema::{moves, outbox};
use hexpost_engine::LegalAction;
use hexpost_engine::rng::GameRng;
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::time::{Duration, Instant};

fn client(instance: &ServeProcess, token: Option<String>) -> Api {
    Api {
        token,
        ..instance.client()
    }
}

/// One player as seen through each instance.
struct Player {
    via: [Api; 2],
}

impl Player {
    fn register(instances: &[ServeProcess; 2], name: &str) -> Player {
        let (api, _) = client(&instances[0], None).register(name);
        Player {
            via: [api.clone(), client(&instances[1], api.token.clone())],
        }
    }
}

/// Plays `moves` random moves, move k through instance k mod 2 (reading
/// and submitting there); returns the number of moves applied.
fn play_alternating(players: [&Player; 2], id: &str, seed: u64, moves: usize) -> usize {
    let mut rng = GameRng::from_seed(seed);
    let mut made = 0;
    while made < moves {
        let i = made % 2;
        let views = [
            common::game(&players[0].via[i], id),
            common::game(&players[1].via[i], id),
        ];
        if views[0]["status"] != "active" {
            break;
        }
        let who = (0..2).find(|&p| views[p]["awaiting_you"] == true).unwrap();
        let v = &views[who];
        let legal: Vec<LegalAction> = serde_json::from_value(v["legal_actions"].clone()).unwrap();
        let action = common::choose(&v["view"], &legal, &mut rng);
        let expected = v["move_number"].as_i64().unwrap();
        let r = players[who].via[i].submit(id, expected, &serde_json::to_value(&action).unwrap());
        if r.status == 422 && r.body["reason"]["code"] == "bank_shortage" {
            continue;
        }
        r.ok();
        made += 1;
    }
    made
}

/// Player decisions in the game's log (rows a user made).
fn decisions(url: &str, game_id: &str) -> i64 {
    let pool = hexpost::store::connect(url, 1).unwrap();
    moves::table
        .filter(moves::game_id.eq(game_id))
        .filter(moves::user_id.is_not_null())
        .count()
        .get_result(&mut pool.get().unwrap())
        .unwrap()
}

#[test]
fn two_instances_on_one_postgres_lose_and_double_no_move_and_no_mail() {
    let Some(py) = smtp::python() else { return };
    let sink = SmtpSink::running(&py);
    let db = TempDatabase::new(Backend::Postgres);
    let smtp_url = sink.url();
    let mut vars = vec![
        ("DATABASE_URL", db.url.as_str()),
        ("SMTP_URL", smtp_url.as_str()),
        ("MAIL_POLL_INTERVAL_MS", "50"),
        ("PUBLIC_BASE_URL", "https://hexpost.example.org"),
    ];
    vars.extend(smtp::QUICK_RETRIES);
    let root = std::env::temp_dir().join(format!(
        "hexpost-multi-{}-{}",
        std::process::id(),
        hexpost::store::now_ms()
    ));
    // Both start at once and migrate under the advisory lock.
    let (a, b) = std::thread::scope(|s| {
        let a = s.spawn(|| ServeProcess::start(&root.join("a"), &vars));
        let b = s.spawn(|| ServeProcess::start(&root.join("b"), &vars));
        (a.join().unwrap(), b.join().unwrap())
    });
    let instances = [a, b];

    let players: Vec<Player> = ["ada", "bob", "cyd", "dee"]
        .iter()
        .map(|n| Player::register(&instances, n))
        .collect();
    // Two games, each created on one instance and accepted on the other.
    let mut games = Vec::new();
    for (k, pair) in players.chunks(2).enumerate() {
        let created = pair[0].via[k % 2]
            .post(
                "/api/v1/games",
                &json!({"variant": "standard", "opponent_email": format!("{}@example.org", ["bob", "dee"][k])}),
            )
            .ok()
            .clone();
        let id = created["game"]["id"].as_str().unwrap().to_string();
        let token = created["invite_token"].as_str().unwrap();
        pair[1].via[1 - k % 2]
            .post(&format!("/api/v1/invitations/{token}/accept"), &json!({}))
            .ok();
        games.push(id);
    }

    // Both games at once, each move through the other instance than the last.
    let made: Vec<usize> = std::thread::scope(|s| {
        let runs: Vec<_> = games
            .iter()
            .enumerate()
            .map(|(k, id)| {
                let pair = [&players[2 * k], &players[2 * k + 1]];
                s.spawn(move || play_alternating(pair, id, 40 + k as u64, 40))
            })
            .collect();
        runs.into_iter().map(|r| r.join().unwrap()).collect()
    });

    // The same move to both instances at once: one applies it, the other
    // finds the game moved on.
    let id = &games[0];
    let pair = [&players[0], &players[1]];
    let views: Vec<Value> = pair.iter().map(|p| common::game(&p.via[0], id)).collect();
    let who = (0..2).find(|&p| views[p]["awaiting_you"] == true).unwrap();
    let legal: Vec<LegalAction> =
        serde_json::from_value(views[who]["legal_actions"].clone()).unwrap();
    let action = common::choose(&views[who]["view"], &legal, &mut GameRng::from_seed(99));
    let body = json!({
        "expected_move_number": views[who]["move_number"],
        "action": serde_json::to_value(&action).unwrap()
    });
    let mut statuses: Vec<u16> = std::thread::scope(|s| {
        let sends: Vec<_> = (0..2)
            .map(|i| {
                let api = &pair[who].via[i];
                let body = &body;
                s.spawn(move || api.post(&format!("/api/v1/games/{id}/moves"), body).status)
            })
            .collect();
        sends.into_iter().map(|t| t.join().unwrap()).collect()
    });
    statuses.sort();
    let raced_ok = statuses == [200, 409];
    // A move the engine refuses for want of bank cards is refused by both.
    assert!(raced_ok || statuses == [422, 422], "{statuses:?}");

    // Each game ends by resignation, through the second instance.
    for (k, id) in games.iter().enumerate() {
        players[2 * k].via[1]
            .post(&format!("/api/v1/games/{id}/resign"), &json!({}))
            .ok();
    }

    let (admin, admin_id) = client(&instances[0], None).register("root");
    {
        let pool = hexpost::store::connect(&db.url, 1).unwrap();
        hexpost::store::users::set_admin(&mut pool.get().unwrap(), admin_id, true).unwrap();
    }
    let token = admin
        .post(
            "/api/v1/auth/token",
            &json!({"email": "root@example.org", "password": "correct horse battery"}),
        )
        .ok()["access_token"]
        .as_str()
        .unwrap()
        .to_string();
    let admin = client(&instances[1], Some(token));
    for (k, id) in games.iter().enumerate() {
        let report = admin
            .get(&format!("/api/v1/admin/games/{id}/verify"))
            .ok()
            .clone();
        assert_eq!(report["ok"], true, "{report}");
        let raced = usize::from(k == 0 && raced_ok);
        // Every applied move and the resignation, each once.
        assert_eq!(
            decisions(&db.url, id),
            (made[k] + raced + 1) as i64,
            "game {k}"
        );
        assert!(made[k] >= 20, "game {k} ended early: {}", made[k]);
    }

    // Every queued mail is sent exactly once, whichever worker took it.
    let pool = hexpost::store::connect(&db.url, 1).unwrap();
    let start = Instant::now();
    let rows: Vec<(String, String)> = loop {
        let rows: Vec<(String, String)> = outbox::table
            .select((outbox::status, outbox::message_id))
            .load(&mut pool.get().unwrap())
            .unwrap();
        if rows.iter().all(|r| r.0 == "sent") {
            break rows;
        }
        assert!(start.elapsed() < Duration::from_secs(60), "{rows:?}");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(rows.len() >= 8, "{rows:?}");
    let mails = sink.wait_for(rows.len());
    assert_eq!(mails.len(), rows.len(), "no mail twice");
    let sent: BTreeSet<String> = mails
        .iter()
        .map(|m| m.header("message-id").unwrap().to_string())
        .collect();
    let queued: BTreeSet<String> = rows
        .iter()
        .map(|r| format!("<{}@hexpost.example.org>", r.1))
        .collect();
    assert_eq!(sent, queued);
    drop(instances);
    let _ = std::fs::remove_dir_all(&root);
}
