//! Clients that hold connections without finishing their requests, over
//! real sockets: a body that trickles or stalls after its headers is cut
//! off with `408 body_timeout` within `REQUEST_READ_TIMEOUT_SECS`, a head
//! that stalls likewise, and the server keeps serving everyone else
//! meanwhile; a request over its rate limit is refused before its body is
//! read; and past `HTTP_MAX_CONNECTIONS` new connections wait until one
//! closes.

use crate::common::{self, BACKENDS, Backend, TestServer};
use serde_json::json;
use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::{Duration, Instant};

/// A raw connection to `server`.
fn connect(server: &TestServer) -> TcpStream {
    let addr = server.base.trim_start_matches("http://");
    let stream = TcpStream::connect(addr).unwrap();
    stream.set_nodelay(true).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(20)))
        .unwrap();
    stream
}

/// The head of a JSON POST to `path` announcing a body of `length` bytes.
fn post_head(path: &str, length: usize, token: Option<&str>) -> String {
    let auth = token.map_or(String::new(), |t| format!("Authorization: Bearer {t}\r\n"));
    format!(
        "POST {path} HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n\
         Content-Length: {length}\r\n{auth}\r\n"
    )
}

/// Everything the server sends until it closes the connection, and how
/// long after `since` it closed it. Panics if it is still open after the
/// read timeout.
fn until_closed(mut stream: TcpStream, since: Instant) -> (String, Duration) {
    let mut out = Vec::new();
    let mut buf = [0u8; 4096];
    loop {
        match stream.read(&mut buf) {
            Ok(0) => return (String::from_utf8_lossy(&out).into_owned(), since.elapsed()),
            Ok(n) => out.extend_from_slice(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::ConnectionReset => {
                return (String::from_utf8_lossy(&out).into_owned(), since.elapsed());
            }
            Err(e) => panic!(
                "the server still held the connection after {:?} ({e}); it sent: {}",
                since.elapsed(),
                String::from_utf8_lossy(&out)
            ),
        }
    }
}

/// The status code of an HTTP/1.1 response text.
fn status_of(response: &str) -> &str {
    response.split(' ').nth(1).unwrap_or("none")
}

/// Sends `head` and the first bytes of its body on a new connection, then
/// (`trickle`) one more byte every 200 ms from a thread of its own, or
/// (otherwise) nothing more.
fn slow_body(server: &TestServer, head: String, trickle: bool) -> (TcpStream, Instant) {
    let mut stream = connect(server);
    stream.write_all(head.as_bytes()).unwrap();
    stream.write_all(b"{\"em").unwrap();
    let sent = Instant::now();
    if trickle {
        let mut writer = stream.try_clone().unwrap();
        std::thread::spawn(move || {
            while writer.write_all(b" ").is_ok() {
                std::thread::sleep(Duration::from_millis(200));
            }
        });
    }
    (stream, sent)
}

#[test]
fn bodies_that_trickle_or_stall_are_cut_off_while_others_are_served() {
    for backend in BACKENDS {
        let server = TestServer::start_with(backend, &[("REQUEST_READ_TIMEOUT_SECS", "1")]);
        let api = server.client();
        let (a, b, id) = api.new_game("standard", json!({}));
        let token = a.token.clone().unwrap();
        let moves = format!("/api/v1/games/{id}/moves");
        let mut slow = Vec::new();
        for i in 0..16 {
            let head = match i % 4 {
                0 | 1 => post_head("/api/v1/auth/token", 400, None),
                _ => post_head(&moves, 400, Some(&token)),
            };
            slow.push(slow_body(&server, head, i % 2 == 0));
        }
        // Meanwhile everyone else is served.
        let (carol, _) = api.register(&format!("carol{backend:?}").to_lowercase());
        assert_eq!(carol.get("/api/v1/me").status, 200);
        assert_eq!(common::game(&b, &id)["move_number"], 1);

        for (stream, sent) in slow {
            let (response, took) = until_closed(stream, sent);
            assert_eq!(status_of(&response), "408", "{response}");
            assert!(response.contains("\"code\":\"body_timeout\""), "{response}");
            // Configured: 1 s. Generous, for a loaded machine; without a
            // deadline the connection is held for ever.
            assert!(took < Duration::from_secs(8), "closed after {took:?}");
        }
        assert_eq!(common::game(&b, &id)["move_number"], 1, "{backend:?}");
    }
}

#[test]
fn a_head_that_stalls_is_cut_off() {
    let server = TestServer::start_with(Backend::Sqlite, &[("REQUEST_READ_TIMEOUT_SECS", "1")]);
    let mut stream = connect(&server);
    stream
        .write_all(b"POST /api/v1/auth/token HTTP/1.1\r\nHost: te")
        .unwrap();
    let (_, took) = until_closed(stream, Instant::now());
    // actix's own default would be 5 s.
    assert!(took < Duration::from_secs(4), "closed after {took:?}");
}

/// A request over its rate limit is answered before its body is read: the
/// client can neither make the server wait for it nor buffer it.
#[test]
fn a_request_over_its_limit_is_refused_before_its_body() {
    for backend in BACKENDS {
        let server = TestServer::start_with(
            backend,
            &[
                // Long enough that only the limit can answer in time.
                ("REQUEST_READ_TIMEOUT_SECS", "60"),
                ("RATE_LIMIT_LOGIN_PER_MINUTE", "4"),
                ("RATE_LIMIT_MOVES_PER_MINUTE", "1"),
            ],
        );
        let api = server.client();
        let (a, _, id) = api.new_game("standard", json!({}));
        // Registering the two players (each a sign-up and its
        // confirmation) used the login budget; one move
        // attempt uses the mover's.
        a.submit(&id, 0, &json!({"type": "roll_dice"}))
            .problem(409, "stale_move");
        let token = a.token.clone().unwrap();
        for head in [
            post_head("/api/v1/auth/token", 400, None),
            post_head("/api/v1/accounts", 400, None),
            post_head(&format!("/api/v1/games/{id}/moves"), 400, Some(&token)),
        ] {
            let (stream, sent) = slow_body(&server, head, false);
            let (response, took) = until_closed(stream, sent);
            assert_eq!(status_of(&response), "429", "{response}");
            assert!(took < Duration::from_secs(8), "answered after {took:?}");
        }
    }
}

/// The effective cap: actix counts per worker, one worker per core.
fn effective_cap(cap: usize) -> usize {
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get());
    cap.div_ceil(workers) * workers
}

#[test]
fn past_the_connection_cap_new_connections_wait_until_one_closes() {
    let server = TestServer::start_with(
        Backend::Sqlite,
        &[
            ("HTTP_MAX_CONNECTIONS", "4"),
            ("REQUEST_READ_TIMEOUT_SECS", "60"),
        ],
    );
    // Connections that have begun a request and hold it.
    let held: Vec<TcpStream> = (0..effective_cap(4))
        .map(|_| {
            let mut s = connect(&server);
            s.write_all(b"GET /healthz HTTP/1.1\r\n").unwrap();
            s
        })
        .collect();
    std::thread::sleep(Duration::from_millis(300));
    let probe = reqwest::blocking::Client::builder()
        .timeout(Duration::from_millis(1500))
        .pool_max_idle_per_host(0)
        .build()
        .unwrap();
    let healthz = format!("{}/healthz", server.base);
    let waited = probe.get(&healthz).send();
    assert!(
        waited.is_err(),
        "a connection past the cap was served: {:?}",
        waited.map(|r| r.status())
    );
    drop(held);
    let served = probe.get(&healthz).send().unwrap();
    assert_eq!(served.status().as_u16(), 200);
}

/// Without keep-alive (`HTTP_KEEP_ALIVE_SECS=0`) every connection serves
/// one request, so every request's head is timed. (actix times only the
/// first head on a connection; see docs/security.md.)
#[test]
fn without_keep_alive_a_connection_ends_with_its_response() {
    let server = TestServer::start_with(Backend::Sqlite, &[("HTTP_KEEP_ALIVE_SECS", "0")]);
    let mut stream = connect(&server);
    stream
        .write_all(b"GET /healthz HTTP/1.1\r\nHost: test\r\n\r\n")
        .unwrap();
    let (response, _) = until_closed(stream, Instant::now());
    assert_eq!(status_of(&response), "200", "{response}");
    assert!(
        response.to_ascii_lowercase().contains("connection: close"),
        "{response}"
    );
}
