//! E-mail, end to end: the server's outbox worker sends to a real SMTP
//! server on localhost (tests/smtp_sink.py), and the tests read what that
//! server received: recipients, subjects, threading headers and content;
//! delivery exactly once across SMTP outages and restarts; failed mails
//! retried by an admin; no hidden card in a mail to the other player.

use crate::common::smtp::{self, Received, SmtpSink};
use crate::common::{self, Api, BACKENDS, Backend, TempDatabase, TestServer, game};
use diesel::prelude::*;
use hexpost::describe::{self, Table};
use hexpost::mail::picture;
use hexpost::store::outbox::{self, NewMail};
use hexpost::store::schema::outbox as table;
use hexpost_engine::rng::GameRng;
use hexpost_engine::{Action, Event, GameView, LegalAction, Redact, Seat};
use serde_json::{Value, json};
use std::collections::{BTreeMap, BTreeSet};

const BASE: &str = "https://hexpost.example.org";

fn mail_server(backend: Backend, smtp_url: &str, extra: &[(&str, &str)]) -> TestServer {
    let mut vars = vec![
        ("SMTP_URL", smtp_url),
        ("MAIL_FROM", "hexpost <games@hexpost.example.org>"),
        ("PUBLIC_BASE_URL", BASE),
        ("MAIL_POLL_INTERVAL_MS", "50"),
        ("MAIL_BACKOFF_BASE_MS", "100"),
        ("MAIL_MAX_ATTEMPTS", "50"),
        ("SMTP_TIMEOUT_SECS", "5"),
    ];
    vars.extend_from_slice(extra);
    TestServer::start_with(backend, &vars)
}

/// A server sending to a running SMTP sink, with players ada and bob.
fn setup(py: &str, backend: Backend) -> (SmtpSink, TestServer, Api, Api) {
    let sink = SmtpSink::running(py);
    let server = mail_server(backend, &sink.url(), &[]);
    let api = server.client();
    let (ada, _) = api.register("ada");
    let (bob, _) = api.register("bob");
    // The tests count mails from here on.
    sink.wait_for(2);
    sink.forget_received();
    (sink, server, ada, bob)
}

/// Creates a game of `creator` inviting `email`: (game id, invite token).
fn invite(creator: &Api, email: &str) -> (String, String) {
    let created = creator.post(
        "/api/v1/games",
        &json!({"variant": "standard", "opponent_email": email}),
    );
    let body = created.ok();
    (
        body["game"]["id"].as_str().unwrap().to_string(),
        body["invite_token"].as_str().unwrap().to_string(),
    )
}

fn accept(api: &Api, token: &str) {
    api.post(&format!("/api/v1/invitations/{token}/accept"), &json!({}))
        .ok();
}

/// The move number a "your move" subject names.
fn announced_move(m: &Received) -> Option<i64> {
    let s = m.subject();
    if !s.starts_with("Your move") {
        return None;
    }
    let n = s.rsplit("move ").next()?.trim_end_matches(')');
    n.parse().ok()
}

fn turn_mails(mails: &[Received]) -> Vec<&Received> {
    mails
        .iter()
        .filter(|m| announced_move(m).is_some())
        .collect()
}

fn awaiting(players: [&Api; 2], id: &str) -> BTreeSet<usize> {
    (0..2)
        .filter(|&i| game(players[i], id)["awaiting_you"] == true)
        .collect()
}

/// Who decided at each point and who was awaited after it: the input of
/// the "your move" rule.
struct Turn {
    move_number: i64,
    mover: usize,
    /// False for the acceptance, which is not a decision in the log.
    decision: bool,
    awaited: BTreeSet<usize>,
}

/// Plays `moves` random moves, choosing with `policy`, recording each turn.
fn play(
    players: [&Api; 2],
    id: &str,
    moves: usize,
    mut policy: impl FnMut(&Value, &[LegalAction], &mut GameRng) -> Action,
    turns: &mut Vec<Turn>,
) {
    let mut rng = GameRng::from_seed(7);
    let mut made = 0;
    while made < moves {
        let views = [game(players[0], id), game(players[1], id)];
        if views[0]["status"] != "active" {
            return;
        }
        let who = (0..2).find(|&i| views[i]["awaiting_you"] == true).unwrap();
        let v = &views[who];
        let legal: Vec<LegalAction> = serde_json::from_value(v["legal_actions"].clone()).unwrap();
        let action = policy(&v["view"], &legal, &mut rng);
        let r = players[who].submit(
            id,
            v["move_number"].as_i64().unwrap(),
            &serde_json::to_value(&action).unwrap(),
        );
        if r.status == 422 && r.body["reason"]["code"] == "bank_shortage" {
            continue;
        }
        let move_number = r.ok()["move_number"].as_i64().unwrap();
        made += 1;
        turns.push(Turn {
            move_number,
            mover: who,
            decision: true,
            awaited: awaiting(players, id),
        });
    }
}

/// The (player, move number) pairs that get a "your move" mail: each
/// awaited player but the mover, unless an earlier mail of theirs is still
/// unanswered (no decision of theirs since, and awaited ever since).
fn expected_turn_mails(turns: &[Turn]) -> Vec<(usize, i64)> {
    let mut out = Vec::new();
    let mut unanswered = [false; 2];
    let mut before = BTreeSet::new();
    for t in turns {
        if t.decision {
            unanswered[t.mover] = false;
            // Awaited no more, without deciding: what the mail asked went
            // away.
            for &p in before.difference(&t.awaited) {
                if p != t.mover {
                    unanswered[p] = false;
                }
            }
        }
        before = t.awaited.clone();
        for &p in &t.awaited {
            if p != t.mover && !unanswered[p] {
                out.push((p, t.move_number));
                unanswered[p] = true;
            }
        }
    }
    out
}

fn assert_threaded(mails: &[Received], game_id: &str) {
    let root = format!("<game-{game_id}@hexpost.example.org>");
    let mut ids = BTreeSet::new();
    for m in mails {
        assert_eq!(m.header("in-reply-to"), Some(root.as_str()), "{m:?}");
        assert_eq!(m.header("references"), Some(root.as_str()), "{m:?}");
        assert_eq!(
            m.header("list-unsubscribe"),
            Some(format!("<{BASE}/settings>").as_str()),
            "the settings page of the web client"
        );
        assert!(
            m.text
                .contains(&format!("Notification settings: {BASE}/settings"))
        );
        let id = m.header("message-id").unwrap().to_string();
        assert!(id.ends_with("@hexpost.example.org>"), "{id}");
        assert!(ids.insert(id), "a Message-ID repeats");
        assert_eq!(m.mail_from, "games@hexpost.example.org");
    }
}

#[test]
fn invitation_acceptance_turns_and_game_over_are_mailed_in_one_thread() {
    let Some(py) = smtp::python() else { return };
    for backend in BACKENDS {
        let (sink, _server, ada, bob) = setup(&py, backend);
        let (id, token) = invite(&ada, "bob@example.org");

        let mails = sink.wait_for(1);
        assert_eq!(mails.len(), 1, "{backend:?}");
        let invitation = &mails[0];
        assert_eq!(invitation.rcpt_tos, ["bob@example.org"]);
        assert_eq!(
            invitation.subject(),
            "An invitation to a game of standard on hexpost"
        );
        let link = format!("{BASE}/invitations/{token}");
        assert!(invitation.text.contains(&link), "{}", invitation.text);
        // minijinja's HTML escaping writes `/` as `&#x2f;`.
        assert!(invitation.html.replace("&#x2f;", "/").contains(&link));

        accept(&bob, &token);
        let players = [&ada, &bob];
        let mut turns = vec![Turn {
            move_number: game(&ada, &id)["move_number"].as_i64().unwrap(),
            mover: 1,
            decision: false,
            awaited: awaiting(players, &id),
        }];
        play(players, &id, 30, common::choose, &mut turns);
        ada.post(&format!("/api/v1/games/{id}/resign"), &json!({}))
            .ok();
        let seed = game(&ada, &id)["seed"].as_str().unwrap().to_string();

        let expected = expected_turn_mails(&turns);
        assert!(expected.len() >= 5, "{backend:?}: a short game mails turns");
        let mails = sink.wait_for(1 + 1 + expected.len() + 2);
        assert_eq!(mails.len(), 4 + expected.len(), "{backend:?}");
        assert_threaded(&mails, &id);

        let accepted: Vec<_> = mails
            .iter()
            .filter(|m| m.subject() == "bob accepted your game of standard")
            .collect();
        assert_eq!(accepted.len(), 1);
        assert_eq!(accepted[0].rcpt_tos, ["ada@example.org"]);

        let emails = ["ada@example.org", "bob@example.org"];
        let mut got: Vec<(usize, i64)> = turn_mails(&mails)
            .iter()
            .map(|m| {
                let p = emails.iter().position(|e| *e == m.to()).unwrap();
                (p, announced_move(m).unwrap())
            })
            .collect();
        got.sort();
        let mut want = expected.clone();
        want.sort();
        assert_eq!(
            got, want,
            "{backend:?}: who got a turn mail, for which move"
        );
        for m in turn_mails(&mails) {
            for needle in [
                "What happened since your last decision:",
                "Your hand: ",
                "Your victory points: ",
                "You are asked to:",
            ] {
                assert!(m.text.contains(needle), "{needle} missing:\n{}", m.text);
            }
            assert!(m.text.contains(&format!("{BASE}/games/{id}")));
            assert!(m.html.contains("Your hand"));
        }
        // The first turn of a standard game is a set-up settlement.
        let first = turn_mails(&mails)[0];
        assert!(
            first.text.contains("- place a settlement for free"),
            "{}",
            first.text
        );

        let over: Vec<_> = mails
            .iter()
            .filter(|m| m.subject() == "Game over: ada resigned, bob won (standard)")
            .collect();
        let mut to: Vec<&str> = over.iter().map(|m| m.to()).collect();
        to.sort();
        assert_eq!(to, emails, "{backend:?}");
        for m in over {
            assert!(m.text.contains(&seed), "the seed is revealed");
        }
    }
}

/// The mails that ask for a decision or end a game show the board as of
/// their move: the scene queued with the mail, drawn as a PNG inline in
/// the HTML (multipart/related, by Content-ID); other mails carry none.
#[test]
fn turn_and_game_over_mails_show_the_board_of_their_move_inline() {
    let Some(py) = smtp::python() else { return };
    for backend in BACKENDS {
        let sink = SmtpSink::running(&py);
        let server = mail_server(backend, &sink.url(), &[]);
        let (a, b, id) = server.client().new_game("standard", json!({}));
        let (admin, _) = common::register_admin(&server, "root");
        common::play_moves([&a, &b], &id, 3, 40);
        a.post(&format!("/api/v1/games/{id}/resign"), &json!({}))
            .ok();
        let log = admin.full_log(&id, true);
        let pool = server.db();
        let mut conn = pool.get().unwrap();
        let rows: Vec<(String, String, Option<i64>, String)> = table::table
            .order(table::id.asc())
            .select((
                table::kind,
                table::message_id,
                table::game_seq,
                table::context,
            ))
            .load(&mut conn)
            .unwrap();
        let mails = sink.wait_for(rows.len());
        assert_eq!(mails.len(), rows.len(), "{backend:?}");
        let built_until = |at: i64| {
            let (mut buildings, mut roads) = (0, 0);
            for row in log.iter().filter(|r| r["seq"].as_i64().unwrap() <= at) {
                for e in row["events"].as_array().unwrap() {
                    match e["type"].as_str().unwrap() {
                        "settlement_built" => buildings += 1,
                        "road_built" => roads += 1,
                        _ => {}
                    }
                }
            }
            (buildings, roads)
        };
        let final_pieces = built_until(i64::MAX);
        let (mut pictured, mut earlier) = (BTreeMap::new(), 0);
        for m in &mails {
            let (kind, _, game_seq, context) = rows
                .iter()
                .find(|r| {
                    Some(format!("<{}@hexpost.example.org>", r.1).as_str())
                        == m.header("message-id")
                })
                .expect("a mail of the outbox");
            assert!(!m.text.contains("cid:"), "the plain text stands alone");
            if !matches!(kind.as_str(), "your_move" | "game_over") {
                assert!(
                    m.images.is_empty(),
                    "{backend:?}: a {kind} mail has no picture"
                );
                continue;
            }
            *pictured.entry(kind.clone()).or_insert(0) += 1;
            assert_eq!(m.images.len(), 1, "{backend:?}: {kind}");
            let image = &m.images[0];
            assert_eq!(image.content_type, "image/png");
            assert_eq!(image.disposition.as_deref(), Some("inline"));
            let cid = image.content_id.trim_matches(['<', '>']);
            assert!(m.html.contains(&format!("src=\"cid:{cid}\"")), "{}", m.html);
            let context: Value = serde_json::from_str(context).unwrap();
            let scene: picture::Scene = serde_json::from_value(context["board"].clone()).unwrap();
            let drawn = picture::render(&scene).unwrap();
            assert_eq!(
                drawn.png, image.data,
                "{backend:?}: the picture of the queued scene"
            );
            assert!(
                m.html
                    .contains(&format!("alt=\"{}\"", common::html::escaped(&drawn.alt))),
                "{}",
                m.html
            );
            assert!(image.data.len() < 40_000, "{} bytes", image.data.len());
            // The board of the mail's move, however late it was sent.
            let pieces = built_until(game_seq.unwrap());
            assert_eq!(
                (scene.buildings.len(), scene.roads.len()),
                pieces,
                "{backend:?}"
            );
            if pieces < final_pieces {
                earlier += 1;
            }
        }
        assert!(pictured["your_move"] >= 5, "{backend:?}: {pictured:?}");
        assert_eq!(pictured["game_over"], 2, "{backend:?}");
        assert!(earlier > 0, "{backend:?}: mails of earlier positions");
        // Mails sent together share one SMTP connection.
        let connections: BTreeSet<&str> = mails.iter().map(|m| m.peer.as_str()).collect();
        assert!(
            connections.len() < mails.len(),
            "{backend:?}: {} connections for {} mails",
            connections.len(),
            mails.len()
        );
    }
}

#[test]
fn declines_and_the_notification_setting() {
    let Some(py) = smtp::python() else { return };
    for backend in BACKENDS {
        let (sink, server, ada, bob) = setup(&py, backend);
        let settings = "/api/v1/account/notifications";
        assert_eq!(bob.get(settings).ok()["notify"], "every_move");
        assert_eq!(
            bob.put(settings, &json!({"notify": "off"})).ok()["notify"],
            "off"
        );
        assert_eq!(bob.get(settings).ok()["notify"], "off");
        bob.put(settings, &json!({"notify": "sometimes"}))
            .problem(422, "invalid_body");
        // Fields left out keep their value: an empty change changes nothing.
        let unchanged = bob.put(settings, &json!({})).ok().clone();
        assert_eq!(unchanged["notify"], "off");
        assert_eq!(unchanged, bob.get(settings).ok().clone());
        server.client().get(settings).problem(401, "unauthorized");

        // An invitation to an address without an account, declined.
        let (declined_game, token) = invite(&ada, "carol@example.org");
        server
            .client()
            .post(&format!("/api/v1/invitations/{token}/decline"), &json!({}))
            .ok();
        let mails = sink.wait_for(2);
        assert_eq!(mails[0].rcpt_tos, ["carol@example.org"]);
        assert_eq!(mails[1].rcpt_tos, ["ada@example.org"]);
        assert_eq!(
            mails[1].subject(),
            "Your invitation to carol@example.org was declined"
        );
        assert_threaded(&mails, &declined_game);

        // Bob turned mails off: the invitation goes to his address, but no
        // game mail follows.
        let (id, token) = invite(&ada, "bob@example.org");
        accept(&bob, &token);
        let mut turns = Vec::new();
        play([&ada, &bob], &id, 12, common::choose, &mut turns);
        let mails = sink.wait_for(4);
        let to_bob: Vec<&str> = mails
            .iter()
            .filter(|m| m.to() == "bob@example.org")
            .map(|m| m.subject())
            .collect();
        assert_eq!(
            to_bob,
            ["An invitation to a game of standard on hexpost"],
            "{backend:?}"
        );
        assert!(
            !turn_mails(&mails).is_empty(),
            "{backend:?}: ada still gets hers"
        );
    }
}

fn outbox_rows(server: &TestServer) -> Vec<(String, i32, String)> {
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    table::table
        .order(table::id.asc())
        .select((table::message_id, table::attempts, table::status))
        .load(&mut conn)
        .unwrap()
}

/// Starts a game with an invitation and an acceptance: three mails
/// (invitation, acceptance, and the creator's first turn if it is theirs).
fn start_game(server: &TestServer) -> String {
    let (ada, _) = server.account("ada");
    let (bob, _) = server.account("bob");
    let (id, token) = invite(&ada, "bob@example.org");
    accept(&bob, &token);
    id
}

fn assert_each_delivered_once(server: &TestServer, sink: &SmtpSink) {
    let rows = outbox_rows(server);
    assert!(rows.len() >= 2);
    let mails = sink.wait_for(rows.len());
    assert_eq!(mails.len(), rows.len(), "no mail twice");
    let ids: BTreeSet<String> = mails
        .iter()
        .map(|m| m.header("message-id").unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), rows.len(), "no Message-ID twice");
    // The worker marks each row sent right after the SMTP server accepted it.
    let start = std::time::Instant::now();
    while outbox_rows(server).iter().any(|r| r.2 != "sent") {
        assert!(start.elapsed().as_secs() < 10, "{:?}", outbox_rows(server));
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Once sent, the invitation token is no longer stored in clear.
    let pool = server.db();
    let contexts: Vec<String> = table::table
        .select(table::context)
        .load(&mut pool.get().unwrap())
        .unwrap();
    assert!(
        contexts.iter().all(|c| !c.contains("\"token\"")),
        "{contexts:?}"
    );
}

#[test]
fn an_smtp_outage_delays_mails_and_loses_none() {
    let Some(py) = smtp::python() else { return };
    for backend in BACKENDS {
        let mut sink = SmtpSink::new(&py);
        let server = mail_server(backend, &sink.url(), &[]);
        start_game(&server);
        // Nothing listens yet: attempts fail and are retried.
        let start = std::time::Instant::now();
        while !outbox_rows(&server).iter().all(|r| r.1 >= 2) {
            assert!(start.elapsed().as_secs() < 20, "{:?}", outbox_rows(&server));
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
        assert!(outbox_rows(&server).iter().all(|r| r.2 == "pending"));
        sink.start();
        assert_each_delivered_once(&server, &sink);
    }
}

#[test]
fn mails_queued_before_a_restart_are_sent_after_it() {
    let Some(py) = smtp::python() else { return };
    for backend in BACKENDS {
        let sink = SmtpSink::running(&py);
        // This instance's worker would first look at the outbox in an hour.
        let mut server = mail_server(
            backend,
            &sink.url(),
            &[("MAIL_POLL_INTERVAL_MS", "3600000")],
        );
        start_game(&server);
        std::thread::sleep(std::time::Duration::from_millis(500));
        assert!(sink.messages().is_empty());
        assert!(outbox_rows(&server).iter().all(|r| r.2 == "pending"));
        server.restart_with(&[("MAIL_POLL_INTERVAL_MS", "50")]);
        assert_each_delivered_once(&server, &sink);
    }
}

fn hexpost_cli(server: &TestServer, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_hexpost"))
        .args(args)
        .env("DATABASE_URL", &server.database_url)
        .env("HEXPOST_DATA_DIR", &server.data_dir)
        .env("RUST_LOG", "warn")
        .output()
        .unwrap()
}

#[test]
fn failed_mails_are_shown_to_admins_and_retried() {
    let Some(py) = smtp::python() else { return };
    for backend in BACKENDS {
        let mut sink = SmtpSink::new(&py);
        let server = mail_server(backend, &sink.url(), &[("MAIL_MAX_ATTEMPTS", "2")]);
        let game_id = start_game(&server);
        // Made as an admin makes accounts: no SMTP server listens yet.
        let (root, root_id) = server.account("root");
        let admin = common::promote_admin(&server, &root, root_id, "root@example.org");
        let start = std::time::Instant::now();
        let failed = loop {
            let failed = admin.get("/api/v1/admin/mail/failed").ok().clone();
            if failed.as_array().unwrap().len() == outbox_rows(&server).len() {
                break failed;
            }
            assert!(start.elapsed().as_secs() < 20, "{failed}");
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        let failed = failed.as_array().unwrap();
        assert!(failed.len() >= 2);
        assert_eq!(failed[0]["kind"], "invitation");
        assert_eq!(failed[0]["recipient"], "bob@example.org");
        assert_eq!(failed[0]["game_id"], game_id.as_str());
        assert_eq!(failed[0]["attempts"], 2);
        assert!(
            failed[0]["last_error"]
                .as_str()
                .is_some_and(|e| !e.is_empty())
        );

        let (player, _) = server.account("player");
        player
            .get("/api/v1/admin/mail/failed")
            .problem(403, "forbidden");
        admin
            .get("/api/v1/admin/mail/failed?per_page=0")
            .problem(400, "invalid_query");
        admin
            .post("/api/v1/admin/mail/999999/retry", &json!({}))
            .problem(404, "not_found");
        admin
            .post("/api/v1/admin/mail/nope/retry", &json!({}))
            .problem(404, "invalid_path");

        let out = hexpost_cli(&server, &["admin", "mail", "failed"]);
        assert!(out.status.success(), "{out:?}");
        let listed: Vec<Value> = String::from_utf8(out.stdout)
            .unwrap()
            .lines()
            .map(|l| serde_json::from_str(l).unwrap())
            .collect();
        assert_eq!(listed, *failed);

        sink.start();
        let first = failed[0]["id"].as_i64().unwrap();
        let r = admin.post(&format!("/api/v1/admin/mail/{first}/retry"), &json!({}));
        assert_eq!(r.ok()["retried"], 1);
        let mails = sink.wait_for(1);
        assert_eq!(mails.len(), 1, "only the retried mail");
        assert_eq!(mails[0].rcpt_tos, ["bob@example.org"]);

        // The rest from the command line.
        let out = hexpost_cli(&server, &["admin", "mail", "retry", "--all"]);
        assert!(out.status.success(), "{out:?}");
        let printed: Value = serde_json::from_slice(&out.stdout).unwrap();
        assert_eq!(printed["retried"], failed.len() - 1);
        assert_each_delivered_once(&server, &sink);
        assert_eq!(admin.get("/api/v1/admin/mail/failed").ok(), &json!([]));
        let out = hexpost_cli(&server, &["admin", "mail", "retry", &first.to_string()]);
        assert!(!out.status.success(), "a sent mail is not failed");
    }
}

/// Buys a development card whenever it may, so hidden cards appear early.
fn buyer(view: &Value, legal: &[LegalAction], rng: &mut GameRng) -> Action {
    if legal.contains(&LegalAction::BuyDevelopmentCard) {
        Action::BuyDevelopmentCard
    } else {
        common::choose(view, legal, rng)
    }
}

#[test]
fn no_mail_shows_a_player_the_other_players_hidden_cards() {
    let Some(py) = smtp::python() else { return };
    for backend in BACKENDS {
        let (sink, server, ada, bob) = setup(&py, backend);
        let (id, token) = invite(&ada, "bob@example.org");
        accept(&bob, &token);
        let (admin, _) = common::register_admin(&server, "root");
        let mut by_seat = [String::new(), String::new()];
        let mut seats: BTreeMap<String, Seat> = BTreeMap::new();
        for p in game(&ada, &id)["players"].as_array().unwrap() {
            let name = p["display_name"].as_str().unwrap().to_string();
            let seat = p["seat"].as_u64().unwrap() as u8;
            seats.insert(format!("{name}@example.org"), Seat(seat));
            by_seat[seat as usize] = name;
        }
        let names = table_of(&ada, &id, by_seat);
        let mut turns = Vec::new();
        let mut checked_hidden = 0;
        for _round in 0..20 {
            play([&ada, &bob], &id, 40, buyer, &mut turns);
            let events = all_events(&admin, &id);
            let mails = sink.wait_for(1);
            checked_hidden = turn_mails(&mails)
                .iter()
                .map(|m| hidden_shown(m, seats[m.to()], &events, &names, backend))
                .sum();
            if checked_hidden > 0 || game(&ada, &id)["status"] != "active" {
                break;
            }
        }
        assert!(
            checked_hidden > 0,
            "{backend:?}: no mail reported a card hidden from its reader"
        );

        // A digest describes the same games: Bob takes one, due in an hour
        // of his (UTC) time, once a decision of his is awaited again.
        if game(&ada, &id)["status"] != "active" {
            continue;
        }
        let hour = (server.clock.now() / 3_600_000 + 1) % 24;
        bob.put(
            "/api/v1/account/notifications",
            &json!({"notify": "digest", "time_zone": "UTC", "digest_hour": hour}),
        )
        .ok();
        let bob_seat = seats["bob@example.org"];
        let mut guard = 0;
        while game(&bob, &id)["awaiting_you"] == true || game(&ada, &id)["awaiting_you"] != true {
            play([&ada, &bob], &id, 1, buyer, &mut turns);
            guard += 1;
            assert!(guard < 200, "ada never got to move");
        }
        while game(&bob, &id)["awaiting_you"] != true && game(&ada, &id)["status"] == "active" {
            play([&ada, &bob], &id, 1, buyer, &mut turns);
        }
        if game(&ada, &id)["status"] != "active" {
            continue;
        }
        server.advance(2 * 3_600_000);
        let start = std::time::Instant::now();
        let digest = loop {
            let found = sink
                .messages()
                .into_iter()
                .find(|m| m.to() == "bob@example.org" && m.subject().contains("for your move"));
            if let Some(m) = found {
                break m;
            }
            assert!(
                start.elapsed().as_secs() < 30,
                "{backend:?}: no digest for bob"
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        hidden_shown(&digest, bob_seat, &all_events(&admin, &id), &names, backend);
    }
}

/// What the sentences about game `id` name: its players (`names`, by
/// seat) and its board, as `api` is shown them.
fn table_of(api: &Api, id: &str, names: [String; 2]) -> Table {
    let view: GameView = serde_json::from_value(game(api, id)["view"].clone()).unwrap();
    Table::of_view(names, &view)
}

/// Every event of the game, unredacted (the admin's log).
fn all_events(admin: &Api, id: &str) -> Vec<Event> {
    admin
        .full_log(id, true)
        .iter()
        .flat_map(|row| row["events"].as_array().unwrap().clone())
        .map(|e| serde_json::from_value(e).unwrap())
        .collect()
}

/// Asserts that `m` describes none of `events` as only others may see
/// them; returns how many it describes as its reader (`seat`) sees them.
fn hidden_shown(
    m: &Received,
    seat: Seat,
    events: &[Event],
    names: &Table,
    backend: Backend,
) -> usize {
    let mut shown_redacted = 0;
    for e in events {
        let shown = e.redacted_for(Some(seat));
        if &shown == e {
            continue;
        }
        let secret = describe::event_unredacted(e, names);
        assert!(
            !m.text.contains(&secret) && !m.html.contains(&secret),
            "{backend:?}: a mail to {} shows `{secret}`",
            m.to()
        );
        if m.text.contains(&describe::event(e, Some(seat), names)) {
            shown_redacted += 1;
        }
    }
    shown_redacted
}

/// A "your move" mail lists the events of the log rows after its reader's
/// last decision, as they may see them: whether the move that queued it
/// started from the instance's copy of the game, which keeps the events of
/// the last rows, or read the game and its log (no copies kept).
#[test]
fn a_turn_mail_lists_the_events_since_its_readers_last_decision() {
    for backend in BACKENDS {
        for copies in ["1000", "0"] {
            let server = TestServer::start_with(backend, &[("GAME_CACHE_SIZE", copies)]);
            let (a, b, id) = server.client().new_game("standard", json!({}));
            let (admin, _) = common::register_admin(&server, "root");
            let mut by_seat = [String::new(), String::new()];
            let mut seats: BTreeMap<String, u8> = BTreeMap::new();
            for p in game(&a, &id)["players"].as_array().unwrap() {
                let name = p["display_name"].as_str().unwrap().to_string();
                let seat = p["seat"].as_u64().unwrap() as u8;
                seats.insert(format!("{name}@example.org"), seat);
                by_seat[seat as usize] = name;
            }
            let names = table_of(&a, &id, by_seat);
            common::play_moves([&a, &b], &id, 3, 300);
            let log = admin.full_log(&id, true);
            let pool = server.db();
            let mut conn = pool.get().unwrap();
            let mails: Vec<(String, Option<i64>, String)> = table::table
                .filter(table::game_id.eq(&id))
                .filter(table::kind.eq(outbox::kind::YOUR_MOVE))
                .order(table::id.asc())
                .select((table::recipient, table::game_seq, table::context))
                .load(&mut conn)
                .unwrap();
            assert!(mails.len() >= 20, "{backend:?}: {} turn mails", mails.len());
            for (recipient, game_seq, context) in mails {
                let seat = seats[&recipient];
                let at = game_seq.unwrap();
                let seq = |row: &Value| row["seq"].as_i64().unwrap();
                let decided = log
                    .iter()
                    .filter(|r| seq(r) <= at && r["actor"] == format!("seat:{seat}"))
                    .map(seq)
                    .max()
                    .unwrap_or(0);
                let mut lines: Vec<String> = log
                    .iter()
                    .filter(|r| seq(r) > decided && seq(r) <= at)
                    .flat_map(|r| r["events"].as_array().unwrap().clone())
                    .map(|e| {
                        let e: Event = serde_json::from_value(e).unwrap();
                        describe::event(&e, Some(Seat(seat)), &names)
                    })
                    .collect();
                let omitted = lines.len().saturating_sub(60);
                let lines = lines.split_off(omitted);
                let context: Value = serde_json::from_str(&context).unwrap();
                let what =
                    format!("{backend:?}, {copies} copies: the mail to seat {seat} at move {at}");
                assert_eq!(context["events"], json!(lines), "{what}");
                assert_eq!(context["events_omitted"], omitted, "{what}");
            }
        }
    }
}

/// A game's copy keeps its players' accounts for the next "your move"
/// mail. A player who turns mail off after the copy was made gets no mail
/// when the turn passes to them, and one who turns it back on gets one:
/// the move that used the old accounts is not written, and is computed
/// again from the database.
#[test]
fn a_turn_mail_follows_settings_changed_after_the_game_was_copied() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (a, b, id) = server.client().new_game("standard", json!({}));
        let players = [&a, &b];
        // Bob, players[1], the invited player.
        let bob_player = game(&b, &id)["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["display_name"].as_str().unwrap().starts_with("bob"))
            .unwrap()
            .clone();
        let bob_id = bob_player["user_id"].as_i64().unwrap();
        // The move numbers of bob's "your move" mails.
        let mails_to_bob = || -> Vec<i64> {
            let pool = server.db();
            let mut conn = pool.get().unwrap();
            table::table
                .filter(table::game_id.eq(&id))
                .filter(table::kind.eq(outbox::kind::YOUR_MOVE))
                .filter(table::user_id.eq(bob_id))
                .select(table::game_seq)
                .load::<Option<i64>>(&mut conn)
                .unwrap()
                .into_iter()
                .flatten()
                .collect()
        };
        // Plays single random moves until players[who] is awaited after a
        // move that did not await them: the turn passed to them.
        let mut seed = 0;
        let mut play_until_passed_to = |who: usize| -> i64 {
            for _ in 0..400 {
                let before = awaiting(players, &id);
                seed += 1;
                common::play_moves(players, &id, seed, 1);
                let after = awaiting(players, &id);
                if !before.contains(&who) && after.contains(&who) {
                    return game(&a, &id)["move_number"].as_i64().unwrap();
                }
            }
            panic!("{backend:?}: the turn never passed to player {who}");
        };
        // Once both have had a turn mail, the copy holds both accounts.
        play_until_passed_to(0);
        play_until_passed_to(1);
        let mailed_before = mails_to_bob().len();
        assert!(mailed_before > 0, "{backend:?}");

        b.put("/api/v1/account/notifications", &json!({"notify": "off"}))
            .ok();
        let passed = play_until_passed_to(1);
        assert_eq!(
            mails_to_bob().len(),
            mailed_before,
            "{backend:?}: a mail to bob, who turned them off, at move {passed}"
        );

        b.put(
            "/api/v1/account/notifications",
            &json!({"notify": "every_move"}),
        )
        .ok();
        let passed = play_until_passed_to(1);
        assert!(
            mails_to_bob().contains(&passed),
            "{backend:?}: no mail to bob, who turned them on again, at move {passed}"
        );
    }
}

#[test]
fn without_smtp_mails_are_files_and_mail_required_refuses_to_serve() {
    for backend in [Backend::Sqlite] {
        let server = TestServer::start_with(backend, &[("MAIL_POLL_INTERVAL_MS", "50")]);
        let api = server.client();
        let (ada, _) = api.register("ada");
        invite(&ada, "bob@example.org");
        let dir = server.data_dir.join("mail");
        let start = std::time::Instant::now();
        // The invitation's file (the registration's came before it).
        let eml = loop {
            let files: Vec<_> = std::fs::read_dir(&dir)
                .map(|d| d.flatten().map(|e| e.path()).collect())
                .unwrap_or_default();
            if let Some(eml) = files
                .into_iter()
                .filter(|p| p.extension().is_some_and(|e| e == "eml"))
                .map(|p| std::fs::read_to_string(p).unwrap())
                .find(|eml| eml.contains("To: bob@example.org"))
            {
                break eml;
            }
            assert!(
                start.elapsed().as_secs() < 20,
                "no .eml to bob under {}",
                dir.display()
            );
            std::thread::sleep(std::time::Duration::from_millis(50));
        };
        assert!(
            eml.contains("Subject: An invitation to a game of standard on hexpost"),
            "{eml}"
        );
    }
    let dir = std::env::temp_dir().join(format!("hexpost-mail-required-{}", std::process::id()));
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_hexpost"))
        .arg("serve")
        .env("HEXPOST_DATA_DIR", &dir)
        .env("HEXPOST_BIND", "127.0.0.1:0")
        .env("MAIL_REQUIRED", "true")
        .env_remove("SMTP_URL")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let start = std::time::Instant::now();
    let status = loop {
        if let Some(status) = child.try_wait().unwrap() {
            break status;
        }
        if start.elapsed().as_secs() > 30 {
            let _ = child.kill();
            panic!("serve started without SMTP although MAIL_REQUIRED=true");
        }
        std::thread::sleep(std::time::Duration::from_millis(50));
    };
    let mut stderr = String::new();
    std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut stderr).unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!status.success());
    assert!(stderr.contains("SMTP_URL"), "{stderr}");
}

/// A migrated outbox of its own, on `backend`.
fn outbox_db(backend: Backend) -> (TempDatabase, hexpost::store::Conn) {
    let db = TempDatabase::new(backend);
    let pool = hexpost::store::connect(&db.url, 2).unwrap();
    let mut conn = pool.get().unwrap();
    hexpost::store::migrate(&mut conn).unwrap();
    (db, conn)
}

/// A mail of `kind` to bob, number `n`, created at `now`, due at `due_at`.
fn queued(kind: &str, n: i64, now: i64, due_at: i64) -> NewMail {
    NewMail {
        kind: kind.into(),
        game_id: None,
        user_id: None,
        recipient: "bob@example.org".into(),
        context: "{}".into(),
        message_id: format!("{kind}.{n}"),
        game_seq: None,
        due_at,
        created_at: now,
    }
}

#[test]
fn a_batch_is_marked_sent_only_while_its_lease_holds() {
    for backend in BACKENDS {
        let (_db, mut conn) = outbox_db(backend);
        let now = 1_000_000;
        for n in 0..2 {
            outbox::insert(&mut conn, &queued("your_move", n, now, now)).unwrap();
        }
        let first = outbox::claim(&mut conn, now, now + 1000, 10).unwrap();
        let ids: Vec<i64> = first.iter().map(|r| r.id).collect();
        assert_eq!(ids.len(), 2, "{backend:?}");
        // The first worker's lease ran out and a second worker took both.
        let second = outbox::claim(&mut conn, now + 2000, now + 3000, 10).unwrap();
        assert_eq!(second.iter().map(|r| r.id).collect::<Vec<_>>(), ids);
        assert_eq!(
            outbox::mark_all_sent(&mut conn, &ids, now + 1000, now + 2100).unwrap(),
            0
        );
        assert_eq!(
            outbox::mark_all_sent(&mut conn, &ids, now + 3000, now + 2100).unwrap(),
            2
        );
        for id in ids {
            let row = outbox::get(&mut conn, id).unwrap().unwrap();
            assert_eq!(
                (row.status.as_str(), row.attempts, row.sent_at),
                ("sent", 1, Some(now + 2100)),
                "{backend:?}"
            );
        }
    }
}

#[test]
fn a_claim_is_a_lease_that_runs_out() {
    for backend in BACKENDS {
        let (_db, mut conn) = outbox_db(backend);
        let now = 1_000_000;
        let mail = |n: i64| queued("invitation", n, now, now + n);
        outbox::insert(&mut conn, &mail(0)).unwrap();
        // Not due yet.
        outbox::insert(&mut conn, &mail(10_000)).unwrap();
        let claimed = outbox::claim(&mut conn, now, now + 1000, 10).unwrap();
        assert_eq!(claimed.len(), 1, "{backend:?}");
        let id = claimed[0].id;
        // Held by the lease, then free again once it ran out.
        assert!(
            outbox::claim(&mut conn, now + 500, now + 1500, 10)
                .unwrap()
                .is_empty()
        );
        let again = outbox::claim(&mut conn, now + 2000, now + 3000, 10).unwrap();
        assert_eq!(again.iter().map(|r| r.id).collect::<Vec<_>>(), [id]);
        // The first worker lost its lease: its mark does nothing.
        assert!(!outbox::mark_sent(&mut conn, id, now + 1000, now + 2100, "{}").unwrap());
        assert!(outbox::mark_sent(&mut conn, id, now + 3000, now + 2100, "{}").unwrap());
        let row = outbox::get(&mut conn, id).unwrap().unwrap();
        assert_eq!((row.status.as_str(), row.attempts), ("sent", 1));
        assert!(
            outbox::claim(&mut conn, now + 5000, now + 6000, 10)
                .unwrap()
                .is_empty()
        );
        // Attempts run out: failed, then queued again by a retry.
        let late = outbox::claim(&mut conn, now + 10_000, now + 11_000, 10).unwrap();
        let late_id = late[0].id;
        outbox::mark_attempt_failed(&mut conn, late_id, now + 11_000, "refused", None).unwrap();
        assert_eq!(outbox::failed(&mut conn, 0, 10).unwrap().len(), 1);
        assert_eq!(
            outbox::retry_failed(&mut conn, None, now + 12_000).unwrap(),
            1
        );
        let retried = outbox::claim(&mut conn, now + 12_000, now + 13_000, 10).unwrap();
        assert_eq!((retried[0].id, retried[0].attempts), (late_id, 0));
    }
}

/// An outbox of `mails` invitations due now, each to its own recipient
/// (`player<n>@example.org`, queued in that order), and a worker's config
/// sending to `smtp_url`, or with None writing files under the database's
/// directory.
fn invitation_backlog(
    backend: Backend,
    pool_size: u32,
    mails: usize,
    smtp_url: Option<&str>,
) -> (
    TempDatabase,
    hexpost::store::DbPool,
    hexpost::config::Config,
) {
    let db = TempDatabase::new(backend);
    let pool = hexpost::store::connect(&db.url, pool_size).unwrap();
    let mut conn = pool.get().unwrap();
    hexpost::store::migrate(&mut conn).unwrap();
    let now = hexpost::store::now_ms();
    for n in 0..mails {
        let context =
            json!({"inviter": "ada", "variant": "duel", "token": "t", "time_limit_hours": 72});
        let mail = NewMail {
            kind: "invitation".into(),
            game_id: None,
            user_id: None,
            recipient: format!("player{n}@example.org"),
            context: context.to_string(),
            message_id: format!("invitation.{n}"),
            game_seq: None,
            due_at: now,
            created_at: now,
        };
        outbox::insert(&mut conn, &mail).unwrap();
    }
    let data_dir = db.dir().to_str().unwrap().to_string();
    let delivery = match smtp_url {
        Some(url) => ("SMTP_URL", url),
        None => ("HEXPOST_DATA_DIR", data_dir.as_str()),
    };
    let vars = [
        ("DATABASE_URL", db.url.as_str()),
        delivery,
        ("PUBLIC_BASE_URL", BASE),
        ("JWT_KEYS", "test:0123456789abcdef0123456789abcdef"),
    ];
    let config = hexpost::config::from_lookup(|k| {
        vars.iter()
            .find(|(key, _)| *key == k)
            .map(|(_, v)| v.to_string())
    })
    .unwrap();
    (db, pool, config)
}

#[test]
fn two_workers_on_one_outbox_send_each_mail_once() {
    let Some(py) = smtp::python() else { return };
    for backend in BACKENDS {
        let sink = SmtpSink::running(&py);
        // More than a batch each.
        const MAILS: usize = 80;
        let (_db, pool, config) = invitation_backlog(backend, 4, MAILS, Some(&sink.url()));
        let workers: Vec<_> = (0..2)
            .map(|_| {
                let worker = hexpost::workers::outbox::Worker::new(&config, pool.clone()).unwrap();
                std::thread::spawn(move || worker.drain().unwrap())
            })
            .collect();
        let handled: usize = workers.into_iter().map(|w| w.join().unwrap()).sum();
        assert_eq!(
            handled, MAILS,
            "{backend:?}: each row claimed by one worker"
        );
        let mails = sink.wait_for(MAILS);
        assert_eq!(mails.len(), MAILS, "{backend:?}");
        let recipients: BTreeSet<&str> = mails.iter().map(|m| m.to()).collect();
        assert_eq!(recipients.len(), MAILS);
    }
}

/// Written as files, a claim takes far more rows than over SMTP: a backlog
/// of two such batches and part of a third is written once, a file a mail,
/// and marked sent batch after batch in the order queued, whether the
/// worker runs as a pipeline or, with a pool of one connection, in turn.
#[test]
fn a_backlog_written_as_files_goes_out_once_in_the_order_queued() {
    for backend in BACKENDS {
        for pool_size in [4, 1] {
            const MAILS: usize = 450;
            let (db, pool, config) = invitation_backlog(backend, pool_size, MAILS, None);
            let worker = hexpost::workers::outbox::Worker::new(&config, pool.clone()).unwrap();
            assert_eq!(worker.drain().unwrap(), MAILS, "{backend:?}, {pool_size}");
            let files: BTreeSet<String> = std::fs::read_dir(db.dir().join("mail"))
                .unwrap()
                .map(|entry| entry.unwrap().file_name().into_string().unwrap())
                .collect();
            let expected: BTreeSet<String> =
                (0..MAILS).map(|n| format!("invitation.{n}.eml")).collect();
            assert_eq!(files, expected, "{backend:?}, pool of {pool_size}");
            let rows: Vec<(String, Option<i64>, Option<i64>)> = table::table
                .order(table::id.asc())
                .select((table::status, table::claimed_until, table::sent_at))
                .load(&mut pool.get().unwrap())
                .unwrap();
            assert!(
                rows.iter().all(|(status, claimed, sent)| status == "sent"
                    && claimed.is_none()
                    && sent.is_some()),
                "{backend:?}, {pool_size}: {rows:?}"
            );
            let sent_at: Vec<i64> = rows.iter().filter_map(|r| r.2).collect();
            assert!(
                sent_at.windows(2).all(|w| w[0] <= w[1]),
                "{backend:?}, {pool_size}: marked out of the queue's order: {sent_at:?}"
            );
            assert_eq!(worker.drain().unwrap(), 0);
        }
    }
}

/// One worker claims and composes the next batch while it sends the last:
/// a backlog of several batches still goes out once, whole, in the order
/// queued; with a pool of one connection it claims and sends in turn.
#[test]
fn a_backlog_is_sent_once_in_the_order_queued() {
    let Some(py) = smtp::python() else { return };
    for backend in BACKENDS {
        for pool_size in [4, 1] {
            let sink = SmtpSink::running(&py);
            // Three batches, the last one short.
            const MAILS: usize = 60;
            let (_db, pool, config) =
                invitation_backlog(backend, pool_size, MAILS, Some(&sink.url()));
            let worker = hexpost::workers::outbox::Worker::new(&config, pool.clone()).unwrap();
            assert_eq!(worker.drain().unwrap(), MAILS, "{backend:?}, {pool_size}");
            let mails = sink.wait_for(MAILS);
            let recipients: Vec<&str> = mails.iter().map(|m| m.to()).collect();
            let queued: Vec<String> = (0..MAILS)
                .map(|n| format!("player{n}@example.org"))
                .collect();
            assert_eq!(recipients, queued, "{backend:?}, pool of {pool_size}");
            let rows: Vec<(String, Option<i64>)> = table::table
                .select((table::status, table::claimed_until))
                .load(&mut pool.get().unwrap())
                .unwrap();
            assert!(
                rows.iter().all(|(status, _)| status == "sent"),
                "{backend:?}, {pool_size}: {rows:?}"
            );
            // Nothing more is due: a drain finds nothing, sends nothing.
            assert_eq!(worker.drain().unwrap(), 0);
            assert_eq!(sink.messages().len(), MAILS);
        }
    }
}

/// The "your move" rows queued to `user` in `game_id` from row `after`
/// on: (status, move announced, due).
fn turn_rows(server: &TestServer, game_id: &str, user: i64, after: i64) -> Vec<(String, i64, i64)> {
    use hexpost::store::outbox::kind;
    let mut conn = server.db().get().unwrap();
    table::table
        .filter(table::kind.eq(kind::YOUR_MOVE))
        .filter(table::game_id.eq(game_id))
        .filter(table::user_id.eq(user))
        .filter(table::id.gt(after))
        .order(table::id.asc())
        .select((table::status, table::game_seq, table::due_at))
        .load::<(String, Option<i64>, i64)>(&mut conn)
        .unwrap()
        .into_iter()
        .map(|(s, seq, due)| (s, seq.unwrap_or(0), due))
        .collect()
}

fn last_outbox_id(server: &TestServer) -> i64 {
    let mut conn = server.db().get().unwrap();
    table::table
        .select(diesel::dsl::max(table::id))
        .first::<Option<i64>>(&mut conn)
        .unwrap()
        .unwrap_or(0)
}

/// Waits until the worker has handled every row that is due by the
/// server's clock; shows the rows it saw when it gives up.
fn wait_due_handled(server: &TestServer) {
    use hexpost::store::outbox::status;
    let start = std::time::Instant::now();
    let mut conn = server.db().get().unwrap();
    loop {
        let now = hexpost::store::now_ms()
            + server
                .clock_offset
                .load(std::sync::atomic::Ordering::SeqCst);
        let due: Vec<(i64, String, i64)> = table::table
            .filter(table::status.eq(status::PENDING))
            .filter(table::due_at.le(now))
            .select((table::id, table::kind, table::due_at))
            .load(&mut conn)
            .unwrap();
        if due.is_empty() {
            return;
        }
        assert!(
            start.elapsed() < std::time::Duration::from_secs(60),
            "the worker never took the due rows {due:?}"
        );
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
}

/// Fifty-five trade offers made and withdrawn in a burst (which once
/// mailed the other player 56 times in a second) reach them as one mail
/// now and one that replaces all the rest ten minutes on, with the
/// default pacing, on both databases. The mails are written as files.
#[test]
fn offers_made_and_withdrawn_in_a_burst_reach_the_other_player_as_two_mails() {
    use hexpost::store::outbox::status;
    for backend in BACKENDS {
        let server = TestServer::start_with(
            backend,
            &[
                ("MAIL_POLL_INTERVAL_MS", "50"),
                ("TURN_MAIL_FOLLOW_UP_SECS", "600"),
                ("TURN_MAIL_FOLLOW_UPS_PER_HOUR", "4"),
            ],
        );
        let (a, b, id) = server.client().new_game("standard", json!({}));
        let players = [&a, &b];
        // Random moves (fixed seeds) until the mover may offer a trade
        // and holds two kinds of card.
        let mut seed = 0;
        let (mover, hand) = loop {
            let views = players.map(|p| common::game(p, &id));
            let who = (0..2).find(|&i| views[i]["awaiting_you"] == true).unwrap();
            let legal: Vec<LegalAction> =
                serde_json::from_value(views[who]["legal_actions"].clone()).unwrap();
            let hand: Vec<(String, u64)> = views[who]["view"]["you"]["resources"]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(_, n)| n.as_u64() > Some(0))
                .map(|(k, n)| (k.clone(), n.as_u64().unwrap()))
                .collect();
            if legal.contains(&LegalAction::OfferTrade) && !hand.is_empty() {
                break (who, hand);
            }
            assert_eq!(
                common::play_moves(players, &id, seed, 1),
                1,
                "the game ended"
            );
            seed += 1;
        };
        let other = 1 - mover;
        let other_id = players[other].get("/api/v1/me").ok()["id"]
            .as_i64()
            .unwrap();
        let give = &hand[0].0;
        let want = ["brick", "lumber", "wool", "grain", "ore"]
            .into_iter()
            .find(|k| k != give)
            .unwrap();
        let offer =
            json!({"type": "offer_trade", "give": {give.as_str(): 1}, "receive": {want: 1}});
        let before = last_outbox_id(&server);
        for _ in 0..55 {
            let n = common::game(players[mover], &id)["move_number"]
                .as_i64()
                .unwrap();
            players[mover].submit(&id, n, &offer).ok();
            players[mover]
                .submit(&id, n + 1, &json!({"type": "withdraw_trade"}))
                .ok();
        }
        let last_offer = common::game(players[mover], &id)["move_number"]
            .as_i64()
            .unwrap()
            - 1;
        wait_due_handled(&server);
        let rows = turn_rows(&server, &id, other_id, before);
        let sent = rows.iter().filter(|r| r.0 == status::SENT).count();
        let waiting: BTreeSet<i64> = rows
            .iter()
            .filter(|r| r.0 == status::PENDING)
            .map(|r| r.2)
            .collect();
        assert!(
            sent <= 1 && waiting.len() == 1,
            "{backend:?}: at most one mail now, the rest waiting for one time: {rows:?}"
        );

        server.advance(600_000);
        wait_due_handled(&server);
        let rows = turn_rows(&server, &id, other_id, before);
        let sent: Vec<_> = rows.iter().filter(|r| r.0 == status::SENT).collect();
        assert!(
            (1..=2).contains(&sent.len()) && sent.last().unwrap().1 == last_offer,
            "{backend:?}: two mails at most, the last telling of the last offer: {rows:?}"
        );
        assert!(
            rows.iter()
                .all(|r| r.0 == status::SENT || r.0 == status::SKIPPED),
            "{backend:?}: {rows:?}"
        );
    }
}

/// The subjects of the mails written as files under `server`'s data
/// directory to `to`.
fn subjects_to(server: &TestServer, to: &str) -> Vec<String> {
    std::fs::read_dir(server.data_dir.join("mail"))
        .map(|d| d.flatten().map(|e| e.path()).collect::<Vec<_>>())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|file| std::fs::read_to_string(file).ok())
        .filter(|eml| eml.contains(&format!("To: {to}")))
        .filter_map(|eml| {
            eml.lines()
                .find_map(|l| l.strip_prefix("Subject: "))
                .map(str::to_string)
        })
        .collect()
}

/// An account cannot have the server mail addresses nobody proved in
/// bulk: past `INVITATIONS_PER_DAY` (10) invitations in a day to
/// addresses without an account it gets `429 invitation_limit` with
/// `Retry-After`, nothing is queued, and players with an account can
/// still be invited; a day later it may invite again. The display name,
/// which the inviter chooses, stays out of the invitation's subject and
/// is quoted in its text. (One new account once mailed 100 strangers in
/// 8 seconds, with subject words of its choosing.)
#[test]
fn invitations_to_addresses_without_an_account_are_bounded_and_quote_the_inviter() {
    for backend in BACKENDS {
        let server = TestServer::start_with(
            backend,
            &[
                ("MAIL_POLL_INTERVAL_MS", "50"),
                ("INVITATIONS_PER_DAY", "10"),
            ],
        );
        let api = server.client();
        let registered = api.post(
            "/api/v1/accounts",
            &json!({"email": "spam@example.org", "display_name": "Win at evil.example/x", "password": "correct horse battery"}),
        );
        assert_eq!(registered.status, 202, "{}", registered.body);
        let confirmed = api.confirm("spam@example.org");
        let spammer = api.with_token(confirmed["access_token"].as_str().unwrap());
        let create = |to: &str| {
            spammer.post(
                "/api/v1/games",
                &json!({"variant": "standard", "opponent_email": to}),
            )
        };
        for n in 0..10 {
            create(&format!("stranger{n}@example.net")).ok();
        }
        let queued = outbox_rows(&server).len();
        let refused = create("stranger10@example.net");
        let problem = refused.problem(429, "invitation_limit");
        assert!(
            problem["retry_after_seconds"].as_u64().unwrap() > 86_000,
            "{problem}"
        );
        assert_eq!(
            outbox_rows(&server).len(),
            queued,
            "{backend:?}: nothing queued"
        );
        let (_, _) = api.register("friend");
        create("friend@example.org").ok();
        server.advance(24 * 3_600_000 + 1000);
        create("stranger10@example.net").ok();

        server.wait_outbox_drained();
        let subjects = subjects_to(&server, "stranger0@example.net");
        assert_eq!(
            subjects,
            ["An invitation to a game of standard on hexpost"],
            "{backend:?}"
        );
        let text = std::fs::read_dir(server.data_dir.join("mail"))
            .unwrap()
            .flatten()
            .map(|e| std::fs::read_to_string(e.path()).unwrap())
            .find(|eml| eml.contains("To: stranger0@example.net"))
            .unwrap()
            .replace("=\r\n", "")
            .replace("=\n", "");
        assert!(
            text.contains("who calls themselves =E2=80=9CWin at evil.example/x=E2=80=9D")
                || text.contains("who calls themselves “Win at evil.example/x”"),
            "{backend:?}: the name is quoted: {text}"
        );
    }
}
