//! The inbound SMTP/LMTP listener, spoken to by real clients over TCP:
//! lettre (the SMTP client the server itself sends with) and Python's
//! smtplib for LMTP. The listener hands a recording sink what it takes.

use crate::common::inbound::{Answer, Recorder, reply};
use hexpost::inbound::Via;
use hexpost::inbound::transport::listener::{ListenerSettings, Protocol, serve};
use hexpost::workers::Shutdown;
use lettre::address::Envelope;
use lettre::{SmtpTransport, Transport};
use std::io::Read;
use std::net::SocketAddr;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

const DOMAIN: &str = "replies.example";

fn settings(protocol: Protocol) -> ListenerSettings {
    ListenerSettings {
        protocol,
        hostname: "mx.replies.example".into(),
        reply_domain: DOMAIN.into(),
        max_message_bytes: 4096,
        max_connections: 4,
        idle_timeout: Duration::from_secs(10),
    }
}

/// Starts a listener on a free port; it stops when the token is dropped
/// with the test's runtime.
async fn listen(
    settings: ListenerSettings,
    recorder: &Recorder,
) -> (SocketAddr, CancellationToken) {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let token = CancellationToken::new();
    tokio::spawn(serve(
        listener,
        settings,
        recorder.sink(),
        Default::default(),
        Shutdown::from(token.clone()),
    ));
    (addr, token)
}

/// Sends `raw` with lettre from a blocking thread, as a client would.
async fn send(
    addr: SocketAddr,
    to: &str,
    mut raw: Vec<u8>,
) -> Result<(), lettre::transport::smtp::Error> {
    let to = to.to_string();
    // lettre ends the data with CRLF.CRLF whatever the message's last
    // byte; the message's own final line end is that first CRLF.
    if raw.ends_with(b"\r\n") {
        raw.truncate(raw.len() - 2);
    }
    tokio::task::spawn_blocking(move || {
        let client = SmtpTransport::builder_dangerous("127.0.0.1")
            .port(addr.port())
            .timeout(Some(Duration::from_secs(10)))
            .build();
        let envelope = Envelope::new(
            Some("ann@players.example".parse().unwrap()),
            vec![to.parse().unwrap()],
        )
        .unwrap();
        client.send_raw(&envelope, &raw).map(|_| ())
    })
    .await
    .unwrap()
}

/// `raw` as the listener hands it on: a `Delivered-To` field for each
/// envelope recipient first.
fn delivered(recipients: &[&str], raw: Vec<u8>) -> Vec<u8> {
    let fields = recipients
        .iter()
        .map(|to| format!("Delivered-To: {to}\r\n"));
    [fields.collect::<String>().into_bytes(), raw].concat()
}

fn code(error: &lettre::transport::smtp::Error) -> String {
    error
        .status()
        .map(|code| code.to_string())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_message_sent_over_smtp_reaches_the_sink_byte_for_byte_with_its_recipient() {
    let recorder = Recorder::new();
    let (addr, _stop) = listen(settings(Protocol::Smtp), &recorder).await;
    send(addr, "r-1@replies.example", reply(1)).await.unwrap();
    send(addr, "r-2@REPLIES.example", reply(2)).await.unwrap();
    assert_eq!(
        recorder.received(),
        vec![
            (delivered(&["r-1@replies.example"], reply(1)), Via::Smtp),
            (delivered(&["r-2@REPLIES.example"], reply(2)), Via::Smtp)
        ],
        "dot-stuffing undone, the envelope recipient added, nothing else added or lost"
    );
}

#[tokio::test]
async fn recipients_outside_the_reply_domain_are_refused_so_it_relays_nothing() {
    let recorder = Recorder::new();
    let (addr, _stop) = listen(settings(Protocol::Smtp), &recorder).await;
    for to in [
        "victim@elsewhere.example",
        "r-1@replies.example.evil.example",
    ] {
        let error = send(addr, to, reply(1)).await.unwrap_err();
        assert!(error.is_permanent(), "{error}");
        assert_eq!(code(&error), "550", "{error}");
    }
    assert!(recorder.received().is_empty());
}

#[tokio::test]
async fn a_message_over_the_size_limit_gets_552_and_the_next_one_gets_through() {
    let recorder = Recorder::new();
    let (addr, _stop) = listen(settings(Protocol::Smtp), &recorder).await;
    let mut big = reply(1);
    big.extend(b"W\r\n".repeat(2000));
    let error = send(addr, "r-1@replies.example", big).await.unwrap_err();
    assert!(error.is_permanent(), "{error}");
    assert_eq!(code(&error), "552", "{error}");
    assert!(recorder.received().is_empty());
    send(addr, "r-2@replies.example", reply(2)).await.unwrap();
    let second = delivered(&["r-2@replies.example"], reply(2));
    assert_eq!(recorder.received(), vec![(second, Via::Smtp)]);
}

#[tokio::test]
async fn a_sink_that_cannot_take_the_message_now_makes_the_client_retry_later() {
    let recorder = Recorder::new();
    recorder.answer_with(Answer::Later);
    let (addr, _stop) = listen(settings(Protocol::Smtp), &recorder).await;
    let error = send(addr, "r-1@replies.example", reply(1))
        .await
        .unwrap_err();
    assert!(error.is_transient(), "{error}");
    assert_eq!(code(&error), "451", "{error}");
}

#[tokio::test]
async fn lmtp_answers_the_data_once_for_each_recipient() {
    let recorder = Recorder::new();
    let (addr, _stop) = listen(settings(Protocol::Lmtp), &recorder).await;
    let python = std::env::var("HEXPOST_TEST_PYTHON").unwrap_or_else(|_| "python3".into());
    let script = r#"
import smtplib, sys
c = smtplib.LMTP("127.0.0.1", int(sys.argv[1]))
print(c.ehlo()[0])
c.mail("ann@players.example")
print(c.rcpt("r-1@replies.example")[0])
print(c.rcpt("r-2@replies.example")[0])
print(c.rcpt("someone@elsewhere.example")[0])
print(c.data(sys.stdin.buffer.read())[0])
print(c.getreply()[0])
print(c.quit()[0])
"#;
    let port = addr.port().to_string();
    let output = tokio::task::spawn_blocking(move || {
        let mut child = std::process::Command::new(python)
            .args(["-c", script, &port])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .expect("python runs");
        use std::io::Write;
        child.stdin.take().unwrap().write_all(&reply(1)).unwrap();
        child.wait_with_output().unwrap()
    })
    .await
    .unwrap();
    let codes = String::from_utf8(output.stdout).unwrap();
    assert_eq!(
        codes.split_whitespace().collect::<Vec<_>>(),
        ["250", "250", "250", "550", "250", "250", "221"],
        "LHLO, two recipients taken, one refused, one reply per taken recipient, QUIT"
    );
    let both = ["r-1@replies.example", "r-2@replies.example"];
    assert_eq!(
        recorder.received(),
        vec![(delivered(&both, reply(1)), Via::Lmtp)],
        "the taken recipients only"
    );
}

/// Reads what the server says first on a fresh connection.
async fn greeting(addr: SocketAddr) -> (std::net::TcpStream, String) {
    tokio::task::spawn_blocking(move || {
        let mut stream = std::net::TcpStream::connect(addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(10)))
            .unwrap();
        let mut buf = [0u8; 512];
        let n = stream.read(&mut buf).unwrap();
        let text = String::from_utf8_lossy(&buf[..n]).to_string();
        (stream, text)
    })
    .await
    .unwrap()
}

#[tokio::test]
async fn connections_past_the_limit_are_turned_away_with_421() {
    let recorder = Recorder::new();
    let mut one = settings(Protocol::Smtp);
    one.max_connections = 1;
    let (addr, _stop) = listen(one, &recorder).await;
    let (held, first) = greeting(addr).await;
    assert!(first.starts_with("220 "), "{first}");
    let (_, second) = greeting(addr).await;
    assert!(second.starts_with("421 "), "{second}");
    drop(held);
    // The slot is free again once the first client has gone.
    let start = std::time::Instant::now();
    loop {
        let (_, again) = greeting(addr).await;
        if again.starts_with("220 ") {
            break;
        }
        assert!(start.elapsed() < Duration::from_secs(10), "{again}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_silent_client_is_disconnected_after_the_timeout() {
    let recorder = Recorder::new();
    let mut quick = settings(Protocol::Smtp);
    quick.idle_timeout = Duration::from_millis(300);
    let (addr, _stop) = listen(quick, &recorder).await;
    let (mut stream, first) = greeting(addr).await;
    assert!(first.starts_with("220 "), "{first}");
    let rest = tokio::task::spawn_blocking(move || {
        let mut rest = Vec::new();
        stream.read_to_end(&mut rest).map(|_| rest)
    })
    .await
    .unwrap();
    assert!(
        rest.is_ok_and(|bytes| bytes.is_empty()),
        "the server closes the connection without a word"
    );
}

/// The configuration as `serve` reads it, from these variables alone.
fn config(vars: &[(&str, &str)]) -> Result<hexpost::config::Config, hexpost::config::ConfigError> {
    let mut all: std::collections::HashMap<String, String> = vars
        .iter()
        .map(|(k, v)| (k.to_string(), v.to_string()))
        .collect();
    all.insert(
        "JWT_KEYS".into(),
        "k:a-test-key-that-is-long-enough-to-use".into(),
    );
    hexpost::config::from_lookup(|k| all.get(k).cloned())
}

#[test]
fn the_transports_are_off_unless_configured_and_bad_settings_name_their_variable() {
    let plain = config(&[("MAIL_FROM", "hexpost <games@Example.org>")]).unwrap();
    assert!(plain.inbound.listen.is_none() && plain.inbound.imap.is_none());
    assert_eq!(
        plain.reply.domain, None,
        "no reply addresses unless asked for"
    );
    // One setting: the reply addresses' domain is the listener's.
    let one = config(&[("REPLY_DOMAIN", " @Replies.Example ")]).unwrap();
    assert_eq!(one.reply.domain.as_deref(), Some("replies.example"));
    assert_eq!(one.inbound.listener.reply_domain, "replies.example");
    assert_eq!(one.inbound.listener.hostname, "replies.example");
    let on = config(&[
        ("INBOUND_LISTEN", "127.0.0.1:2525"),
        ("INBOUND_PROTOCOL", "lmtp"),
        ("REPLY_DOMAIN", "replies.example"),
        ("IMAP_URL", "imaps://imap.example"),
        ("IMAP_USER", "replies"),
        ("IMAP_PASSWORD", "secret"),
    ])
    .unwrap();
    assert_eq!(on.inbound.listen, Some("127.0.0.1:2525".parse().unwrap()));
    assert_eq!(on.inbound.listener.protocol, Protocol::Lmtp);
    let imap = on.inbound.imap.unwrap();
    assert_eq!(
        (imap.mailbox.as_str(), imap.password.as_str()),
        ("INBOX", "secret")
    );
    let refused = |vars: &[(&str, &str)]| {
        let mut vars = vars.to_vec();
        if !vars.iter().any(|(k, _)| *k == "REPLY_DOMAIN") {
            vars.push(("REPLY_DOMAIN", "replies.example"));
        }
        config(&vars).unwrap_err().var
    };
    assert_eq!(
        config(&[("INBOUND_LISTEN", "127.0.0.1:2525")])
            .unwrap_err()
            .var,
        "REPLY_DOMAIN",
        "a listener without reply addresses would refuse everything"
    );
    assert_eq!(
        config(&[
            ("IMAP_URL", "imaps://imap.example"),
            ("IMAP_USER", "replies"),
            ("IMAP_PASSWORD", "secret"),
        ])
        .unwrap_err()
        .var,
        "REPLY_DOMAIN"
    );
    assert_eq!(refused(&[("INBOUND_LISTEN", "port 25")]), "INBOUND_LISTEN");
    assert_eq!(
        refused(&[("INBOUND_PROTOCOL", "esmtp")]),
        "INBOUND_PROTOCOL"
    );
    assert_eq!(refused(&[("INBOUND_VERIFY", "maybe")]), "INBOUND_VERIFY");
    assert_eq!(refused(&[("IMAP_URL", "https://imap.example")]), "IMAP_URL");
    assert_eq!(
        refused(&[("IMAP_URL", "imaps://imap.example")]),
        "IMAP_USER"
    );
    let both = [
        ("IMAP_URL", "imaps://imap.example"),
        ("IMAP_USER", "replies"),
        ("IMAP_PASSWORD", "secret"),
        ("IMAP_PASSWORD_FILE", "/nonexistent"),
    ];
    assert_eq!(refused(&both), "IMAP_PASSWORD");
    assert_eq!(refused(&both[..2]), "IMAP_PASSWORD");
    assert_eq!(
        refused(&[
            both[0],
            both[1],
            ("IMAP_PASSWORD_FILE", "/nonexistent/imap")
        ]),
        "IMAP_PASSWORD_FILE"
    );
}
