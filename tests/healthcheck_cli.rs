//! `hexpost healthcheck` against a running server, a server that answers
//! 503, and an address where nothing listens.

use crate::common::{self, TestServer};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::{Command, Output};

fn healthcheck(bind: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_hexpost"))
        .arg("healthcheck")
        .env("HEXPOST_BIND", bind)
        .output()
        .unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_ready_server_passes() {
    for backend in common::BACKENDS {
        let server = TestServer::start(backend);
        let addr = server.base.strip_prefix("http://").unwrap();
        let out = healthcheck(addr);
        assert!(out.status.success(), "{backend:?}: {}", stderr(&out));

        // A server bound to every address is checked over loopback.
        let port = addr.rsplit(':').next().unwrap();
        let out = healthcheck(&format!("0.0.0.0:{port}"));
        assert!(out.status.success(), "{backend:?}: {}", stderr(&out));
    }
}

#[test]
fn a_server_that_is_not_ready_fails() {
    // Answers what /readyz answers when the database does not.
    let listener = TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = listener.local_addr().unwrap();
    let peer = std::thread::spawn(move || {
        let (mut conn, _) = listener.accept().unwrap();
        let mut request = Vec::new();
        let mut buf = [0u8; 512];
        while !request.ends_with(b"\r\n\r\n") {
            let n = conn.read(&mut buf).unwrap();
            assert!(n > 0, "the request ended early");
            request.extend_from_slice(&buf[..n]);
        }
        conn.write_all(
            b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/problem+json\r\ncontent-length: 2\r\n\r\n{}",
        )
        .unwrap();
        String::from_utf8(request).unwrap()
    });
    let out = healthcheck(&addr.to_string());
    let request = peer.join().unwrap();
    assert!(request.starts_with("GET /readyz HTTP/1.1\r\n"), "{request}");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("503"), "{}", stderr(&out));
}

#[test]
fn no_server_fails() {
    // A port that was free a moment ago: nothing listens there now.
    let addr = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let out = healthcheck(&addr.to_string());
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("connect"), "{}", stderr(&out));

    // A malformed address is a failed check too, not a usage error.
    let out = healthcheck("nowhere");
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert!(stderr(&out).contains("HEXPOST_BIND"), "{}", stderr(&out));
}
