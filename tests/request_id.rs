//! Every response carries an `X-Request-Id`, and the server's log line for
//! the request carries the same id.

use crate::common::{self, Backend, TestServer};
use std::process::{Command, Stdio};

fn id_of(r: &common::Reply) -> String {
    r.headers
        .get("x-request-id")
        .unwrap_or_else(|| panic!("no x-request-id on {} {}", r.status, r.body))
        .to_str()
        .unwrap()
        .to_string()
}

#[test]
fn every_response_has_a_request_id() {
    let server = TestServer::start(Backend::Sqlite);
    let api = server.client();
    let ok = api.get("/healthz");
    let missing = api.get("/api/v1/nowhere");
    missing.problem(404, "not_found");
    let unauthorised = api.get("/api/v1/games");
    unauthorised.problem(401, "unauthorized");
    let bad_json = api.post_raw(
        "/api/v1/accounts",
        "{not json",
        &[("content-type", "application/json")],
    );
    assert_eq!(bad_json.status, 400);
    let ids: Vec<String> = [&ok, &missing, &unauthorised, &bad_json]
        .iter()
        .map(|r| id_of(r))
        .collect();
    for id in &ids {
        assert!(uuid::Uuid::parse_str(id).is_ok(), "{id}");
    }
    let mut distinct = ids.clone();
    distinct.sort();
    distinct.dedup();
    assert_eq!(distinct.len(), ids.len(), "ids repeat: {ids:?}");

    // A proxy's plain id is kept; anything else is replaced.
    let kept = api.request("GET", "/healthz", &[("x-request-id", "edge-7f3a.42")]);
    assert_eq!(id_of(&kept), "edge-7f3a.42");
    for odd in ["has space", "quote\"", &"x".repeat(129)] {
        let replaced = api.request("GET", "/healthz", &[("x-request-id", odd)]);
        let id = id_of(&replaced);
        assert!(uuid::Uuid::parse_str(&id).is_ok(), "{odd:?} gave {id}");
    }
}

#[test]
fn the_log_line_of_a_request_names_its_id() {
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let dir = std::env::temp_dir().join(format!("hexpost-reqid-{}", std::process::id()));
    let mut child = Command::new(env!("CARGO_BIN_EXE_hexpost"))
        .arg("serve")
        .env("HEXPOST_DATA_DIR", &dir)
        .env("HEXPOST_BIND", format!("127.0.0.1:{port}"))
        .env("LOG_FORMAT", "json")
        .env("RUST_LOG", "info")
        .env_remove("DATABASE_URL")
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let http = reqwest::blocking::Client::new();
    let url = format!("http://127.0.0.1:{port}/healthz");
    let start = std::time::Instant::now();
    let answered = loop {
        match http
            .get(&url)
            .header("x-request-id", "trace-me-1f2e")
            .send()
        {
            Ok(r) => break r,
            Err(_) if start.elapsed().as_secs() < 60 => {
                std::thread::sleep(std::time::Duration::from_millis(100))
            }
            Err(e) => {
                let _ = child.kill();
                panic!("server did not answer: {e}");
            }
        }
    };
    assert_eq!(answered.headers()["x-request-id"], "trace-me-1f2e");
    // The access log is written once the response is done: read the
    // server's log until its line comes.
    let stderr = child.stderr.take().unwrap();
    let (tx, lines) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufRead::lines(std::io::BufReader::new(stderr)) {
            let Ok(line) = line else { return };
            if tx.send(line).is_err() {
                return;
            }
        }
    });
    let mut seen = Vec::new();
    let line = loop {
        match lines.recv_timeout(std::time::Duration::from_secs(30)) {
            Ok(line) if line.contains("GET /healthz") => break line,
            Ok(line) => seen.push(line),
            Err(_) => {
                let _ = child.kill();
                panic!("no access log line in:\n{}", seen.join("\n"));
            }
        }
    };
    let _ = child.kill();
    let _ = child.wait();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(line.contains("trace-me-1f2e"), "{line}");
    assert!(
        serde_json::from_str::<serde_json::Value>(&line).is_ok(),
        "not JSON: {line}"
    );
}
