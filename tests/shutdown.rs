//! Graceful shutdown of a real `hexpost serve` process: SIGTERM lets the
//! request in flight finish, stops the mail worker between two mails, and
//! exits 0; nothing is left claimed, so the next instance sends the rest
//! at once.

use crate::common::process::ServeProcess;
use crate::common::smtp::{self, SmtpSink};
use crate::common::{BACKENDS, Backend, TempDatabase};
use diesel::prelude::*;
use hexpost::store::schema::outbox;
use serde_json::json;
use std::collections::BTreeSet;
use std::io::{Read, Write};
use std::time::Duration;

/// Generous: the server waits up to 30 s for requests in flight.
const EXIT_LIMIT: Duration = Duration::from_secs(60);

fn scratch(name: &str) -> std::path::PathBuf {
    std::env::temp_dir().join(format!(
        "hexpost-{name}-{}-{}",
        std::process::id(),
        hexpost::store::now_ms()
    ))
}

#[test]
fn sigterm_when_idle_exits_zero() {
    let dir = scratch("idle");
    let mut server = ServeProcess::start(&dir, &[]);
    server.terminate();
    let status = server.wait_exit(EXIT_LIMIT);
    assert!(status.success(), "{status}:\n{}", server.log_text());
    let log = server.log_text();
    assert!(log.contains("background worker stopped"), "{log}");
    assert!(log.contains("hexpost stopped"), "{log}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A brand-new SQLite file: the pool opens all its connections at once,
/// and none of them may fail on the file's switch to WAL.
#[test]
fn a_fresh_sqlite_file_starts_without_errors() {
    for round in 0..5 {
        let dir = scratch(&format!("fresh-{round}"));
        let mut server = ServeProcess::start(&dir, &[("DATABASE_POOL_SIZE", "16")]);
        server.terminate();
        let status = server.wait_exit(EXIT_LIMIT);
        let log = server.log_text();
        assert!(status.success(), "{status}:\n{log}");
        assert!(!log.contains("ERROR"), "round {round}:\n{log}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A newcomer's first look is the log: on a server without accounts it
/// says how to make one (by signing up, or with the admin command, which
/// it spells out), and once one exists it no longer does.
#[test]
fn a_fresh_data_directory_says_how_to_make_the_first_account() {
    let dir = scratch("welcome");
    let run = || {
        let mut server = ServeProcess::start(&dir, &[]);
        server.terminate();
        let status = server.wait_exit(EXIT_LIMIT);
        let log = server.log_text();
        assert!(status.success(), "{status}:\n{log}");
        log
    };
    let first = run();
    for hint in [
        "no account yet: sign up at",
        "/signup",
        "the mail with its code is a file under",
        "hexpost admin create-user --email",
        "then start a game at",
    ] {
        assert!(first.contains(hint), "{hint:?} not in:\n{first}");
    }
    let made = std::process::Command::new(env!("CARGO_BIN_EXE_hexpost"))
        .args(["admin", "create-user", "--email", "first@example.org"])
        .args(["--name", "First", "--password", "correct horse battery"])
        .env("HEXPOST_DATA_DIR", &dir)
        .env_remove("DATABASE_URL")
        .output()
        .unwrap();
    assert!(made.status.success(), "{made:?}");
    // The second start's log is a file of its own (serve-<port>.log).
    let second = run();
    assert!(!second.contains("no account yet"), "{second}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_request_in_flight_at_sigterm_completes() {
    for backend in BACKENDS {
        let db = TempDatabase::new(backend);
        let dir = scratch("inflight");
        let mut server = ServeProcess::start(&dir, &[("DATABASE_URL", &db.url)]);
        let body = json!({
            "email": "late@example.org", "display_name": "Late", "password": "correct horse battery"
        })
        .to_string();
        let (first, rest) = body.split_at(body.len() / 2);
        let address = server.base.trim_start_matches("http://").to_string();
        let mut conn = std::net::TcpStream::connect(&address).unwrap();
        write!(
            conn,
            "POST /api/v1/accounts HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{first}",
            body.len()
        )
        .unwrap();
        conn.flush().unwrap();
        // The server has the request's head and half its body when the
        // signal comes, and the rest only after it.
        std::thread::sleep(Duration::from_millis(300));
        server.terminate();
        std::thread::sleep(Duration::from_millis(500));
        conn.write_all(rest.as_bytes()).unwrap();
        let mut response = String::new();
        conn.read_to_string(&mut response).unwrap();
        assert!(
            response.starts_with("HTTP/1.1 202"),
            "{backend:?}: {response}\n{}",
            server.log_text()
        );
        let status = server.wait_exit(EXIT_LIMIT);
        assert!(status.success(), "{status}:\n{}", server.log_text());
        // No new connection is taken any more, and the registration (its
        // code, waiting for the address to confirm it) is stored.
        assert!(std::net::TcpStream::connect(&address).is_err());
        let pool = hexpost::store::connect(&db.url, 1).unwrap();
        let now = hexpost::store::now_ms();
        let waiting = hexpost::store::account_codes::live(
            &mut pool.get().unwrap(),
            hexpost::store::account_codes::purpose::REGISTER,
            "late@example.org",
            now,
        )
        .unwrap();
        assert_eq!(waiting.len(), 1, "{backend:?}");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// (status, claimed_until, message_id) of every outbox row.
fn outbox_rows(url: &str) -> Vec<(String, Option<i64>, String)> {
    let pool = hexpost::store::connect(url, 1).unwrap();
    outbox::table
        .order(outbox::id.asc())
        .select((outbox::status, outbox::claimed_until, outbox::message_id))
        .load(&mut pool.get().unwrap())
        .unwrap()
}

#[test]
fn sigterm_stops_the_mail_worker_between_mails_and_leaves_nothing_claimed() {
    let Some(py) = smtp::python() else { return };
    for backend in [Backend::Sqlite, Backend::Postgres] {
        // Three batches: while the first is sent, the worker has claimed
        // and composed the next (and may hold the third), and stopping
        // releases those too.
        const MAILS: usize = 60;
        // Two seconds a mail: draining all would take two minutes.
        let slow = SmtpSink::slow(&py, 2.0);
        let db = TempDatabase::new(backend);
        let dir = scratch("mail-stop");
        let url = slow.url();
        let vars = [
            ("DATABASE_URL", db.url.as_str()),
            ("SMTP_URL", url.as_str()),
            ("MAIL_POLL_INTERVAL_MS", "50"),
        ];
        let mut server = ServeProcess::start(&dir, &vars);
        {
            let (ada, _) = server.client().register("ada");
            for n in 0..MAILS {
                ada.post(
                    "/api/v1/games",
                    &json!({"variant": "standard", "opponent_email": format!("p{n}@example.org")}),
                )
                .ok();
            }
        }
        // A mail is being sent (the first arrived, the next is under way).
        slow.wait_for(1);
        server.terminate();
        let status = server.wait_exit(EXIT_LIMIT);
        assert!(status.success(), "{status}:\n{}", server.log_text());

        // The invitations, and ada's registration before them.
        let rows = outbox_rows(&db.url);
        let total = MAILS + 1;
        assert_eq!(rows.len(), total);
        assert!(
            rows.iter().all(|r| r.1.is_none()),
            "{backend:?}: a row is still claimed: {rows:?}"
        );
        let sent = rows.iter().filter(|r| r.0 == "sent").count();
        assert_eq!(
            sent,
            slow.messages().len(),
            "{backend:?}: every mail the SMTP server took is marked sent, and no other"
        );
        assert!(
            sent < MAILS,
            "{backend:?}: the worker drained everything instead of stopping"
        );

        // The next instance sends the rest at once: no lease holds them.
        let fast = SmtpSink::running(&py);
        let url = fast.url();
        let vars = [
            ("DATABASE_URL", db.url.as_str()),
            ("SMTP_URL", url.as_str()),
            ("MAIL_POLL_INTERVAL_MS", "50"),
        ];
        let _next = ServeProcess::start(&dir, &vars);
        let rest = fast.wait_for(total - sent);
        assert_eq!(rest.len(), total - sent, "{backend:?}");
        let ids: BTreeSet<String> = slow
            .messages()
            .iter()
            .chain(&rest)
            .map(|m| m.header("message-id").unwrap().to_string())
            .collect();
        assert_eq!(ids.len(), total, "{backend:?}: no mail twice, none lost");
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A worker killed with SIGKILL while sending over SMTP repeats at most
/// the mail it was sending, and holds its other rows only minutes: every
/// mail the SMTP server took but the mail in flight is marked sent, and
/// no claim outlives the kill by more than three lease renewals (3 × 70 s
/// with the 30 s SMTP timeout). It once held 75 rows for 88 minutes, 14
/// of them already delivered, and sent those again.
#[test]
fn a_worker_killed_while_sending_repeats_at_most_the_mail_in_flight() {
    let Some(py) = smtp::python() else { return };
    for backend in [Backend::Sqlite, Backend::Postgres] {
        const MAILS: usize = 60;
        let slow = SmtpSink::slow(&py, 0.5);
        let db = TempDatabase::new(backend);
        let dir = scratch("mail-kill");
        let url = slow.url();
        let vars = [
            ("DATABASE_URL", db.url.as_str()),
            ("SMTP_URL", url.as_str()),
            ("MAIL_POLL_INTERVAL_MS", "50"),
        ];
        let mut server = ServeProcess::start(&dir, &vars);
        {
            let (ada, _) = server.client().register("ada");
            for n in 0..MAILS {
                ada.post(
                    "/api/v1/games",
                    &json!({"variant": "standard", "opponent_email": format!("p{n}@example.org")}),
                )
                .ok();
            }
        }
        slow.wait_for(4);
        server.kill();
        let killed_at = hexpost::store::now_ms();

        let rows = outbox_rows(&db.url);
        let sent = rows.iter().filter(|r| r.0 == "sent").count();
        let delivered = slow.messages().len();
        assert!(
            delivered >= sent && delivered - sent <= 1,
            "{backend:?}: {delivered} delivered, {sent} marked sent: {rows:?}"
        );
        let held_until = rows.iter().filter_map(|r| r.1).max().unwrap_or(0);
        assert!(
            held_until - killed_at <= 3 * 70_000,
            "{backend:?}: rows held {} s after the kill",
            (held_until - killed_at) / 1000
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
}

/// A live event stream never ends by itself: at SIGTERM the server ends it
/// cleanly (its client resumes elsewhere) instead of letting it hold the
/// stop for the whole grace period and then cutting it.
#[test]
fn sigterm_ends_open_event_streams_cleanly() {
    use std::io::BufRead;
    let dir = scratch("streams");
    let mut server = ServeProcess::start(&dir, &[]);
    let (api, _) = server.client().register("listener");
    let response = api
        .http
        .get(format!("{}/api/v1/account/stream", server.base))
        .bearer_auth(api.token.as_deref().unwrap())
        .timeout(EXIT_LIMIT)
        .send()
        .unwrap();
    assert_eq!(response.status(), 200);
    let reader = std::thread::spawn(move || {
        // Every line up to the end of the body: an error is a cut stream.
        std::io::BufReader::new(response)
            .lines()
            .collect::<Result<Vec<String>, _>>()
    });
    server.terminate();
    let status = server.wait_exit(EXIT_LIMIT);
    assert!(status.success(), "{status}:\n{}", server.log_text());
    let read = reader.join().unwrap();
    assert!(read.is_ok(), "the stream was cut: {read:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
