//! A real SMTP server for the mail tests: tests/smtp_sink.py (aiosmtpd)
//! in a child process, writing each message it accepts as a JSON file.
//! scripts/test.sh installs aiosmtpd and sets HEXPOST_TEST_PYTHON.

use serde_json::Value;
use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

/// How long a test waits for a mail before it fails. Generous: the mail
/// worker of a debug build draws a board picture per mail, and CI's two
/// cores run several servers at once; a mail that never comes fails the
/// test all the same.
pub const MAIL_WAIT: Duration = Duration::from_secs(90);

/// Settings for a server that sends to a sink: a send that fails on a
/// loaded machine is tried again well within `MAIL_WAIT` (the defaults, a
/// 30 s timeout and then a minute's wait, add up to all of it).
pub const QUICK_RETRIES: [(&str, &str); 2] =
    [("SMTP_TIMEOUT_SECS", "10"), ("MAIL_BACKOFF_BASE_MS", "200")];

/// The Python that has aiosmtpd, or None outside the test command (never
/// None in CI, where a missing one fails the test).
pub fn python() -> Option<String> {
    let candidates = [
        std::env::var("HEXPOST_TEST_PYTHON").ok(),
        Some(concat!(env!("CARGO_MANIFEST_DIR"), "/target/test-venv/bin/python").to_string()),
    ];
    let found = candidates.into_iter().flatten().find(|py| {
        Command::new(py)
            .args(["-c", "import aiosmtpd"])
            .output()
            .is_ok_and(|o| o.status.success())
    });
    if found.is_none() {
        assert!(
            std::env::var("CI").is_err(),
            "aiosmtpd is not installed in CI: run the suite with scripts/test.sh"
        );
        eprintln!(
            "SKIPPED: aiosmtpd not installed; run ./scripts/test.sh to include the mail tests"
        );
    }
    found
}

/// A port nothing listens on (yet).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// One message as the SMTP server received it.
#[derive(Debug, Clone)]
pub struct Received {
    pub mail_from: String,
    pub rcpt_tos: Vec<String>,
    /// The client's address and port: mails on one connection share it.
    pub peer: String,
    /// Header name (lower case) → value, unfolded.
    pub headers: Vec<(String, String)>,
    pub text: String,
    pub html: String,
    /// The parts with a Content-ID, in the message's order.
    pub images: Vec<InlineImage>,
}

/// A part of a message that its HTML shows by Content-ID.
#[derive(Debug, Clone)]
pub struct InlineImage {
    /// As in the header, with its angle brackets.
    pub content_id: String,
    pub content_type: String,
    pub disposition: Option<String>,
    pub data: Vec<u8>,
}

impl Received {
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }

    pub fn subject(&self) -> &str {
        self.header("subject").unwrap_or("")
    }

    pub fn to(&self) -> &str {
        &self.rcpt_tos[0]
    }
}

pub struct SmtpSink {
    pub port: u16,
    python: String,
    dir: PathBuf,
    /// Seconds the sink waits before accepting each message.
    delay_secs: f64,
    child: Option<Child>,
}

impl SmtpSink {
    /// A sink on a free port, not yet listening.
    pub fn new(python: &str) -> SmtpSink {
        let port = free_port();
        let dir = std::env::temp_dir().join(format!(
            "hexpost-smtp-{}-{port}-{}",
            std::process::id(),
            hexpost::store::now_ms()
        ));
        super::mailbox::register_sink(port, &dir);
        SmtpSink {
            port,
            python: python.to_string(),
            dir,
            delay_secs: 0.0,
            child: None,
        }
    }

    /// A sink already listening that takes `delay_secs` to accept each
    /// message.
    pub fn slow(python: &str, delay_secs: f64) -> SmtpSink {
        let mut sink = SmtpSink::new(python);
        sink.delay_secs = delay_secs;
        sink.start();
        sink
    }

    /// A sink already listening.
    pub fn running(python: &str) -> SmtpSink {
        let mut sink = SmtpSink::new(python);
        sink.start();
        sink
    }

    /// `SMTP_URL` for servers that send to this sink.
    pub fn url(&self) -> String {
        format!("smtp://127.0.0.1:{}", self.port)
    }

    pub fn start(&mut self) {
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/smtp_sink.py");
        let mut child = Command::new(&self.python)
            .args([
                script,
                &self.port.to_string(),
                &self.dir.display().to_string(),
                &self.delay_secs.to_string(),
            ])
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("the SMTP sink starts");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready", "the SMTP sink did not start");
        self.child = Some(child);
    }

    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// Forgets every message received so far (a test that counts mails
    /// from here on: its players' registration mails came before).
    pub fn forget_received(&self) {
        for entry in std::fs::read_dir(&self.dir).into_iter().flatten().flatten() {
            if entry.path().extension().is_some_and(|e| e == "json") {
                std::fs::remove_file(entry.path()).unwrap();
            }
        }
    }

    /// Every message received so far, in order.
    pub fn messages(&self) -> Vec<Received> {
        let mut files: Vec<PathBuf> = std::fs::read_dir(&self.dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        files.retain(|p| p.extension().is_some_and(|e| e == "json"));
        files.sort();
        files
            .iter()
            .map(|p| parse(&std::fs::read_to_string(p).unwrap()))
            .collect()
    }

    /// Waits until at least `n` messages arrived (panics after
    /// `MAIL_WAIT`), then a little longer, so that extra ones would show,
    /// and returns all.
    pub fn wait_for(&self, n: usize) -> Vec<Received> {
        let start = Instant::now();
        while self.messages().len() < n {
            assert!(
                start.elapsed() < MAIL_WAIT,
                "expected {n} messages, got {}: {:#?}",
                self.messages().len(),
                self.messages()
                    .iter()
                    .map(|m| (m.to().to_string(), m.subject().to_string()))
                    .collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(400));
        self.messages()
    }
}

impl Drop for SmtpSink {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

/// The raw message's headers and its decoded text and HTML parts.
fn parse(record: &str) -> Received {
    let v: Value = serde_json::from_str(record).unwrap();
    let raw = v["data"].as_str().unwrap().replace("\r\n", "\n");
    let (head, _) = raw.split_once("\n\n").unwrap_or((&raw, ""));
    let mut headers: Vec<(String, String)> = Vec::new();
    for line in head.lines() {
        if line.starts_with([' ', '\t']) {
            if let Some(last) = headers.last_mut() {
                last.1.push(' ');
                last.1.push_str(line.trim());
            }
        } else if let Some((k, val)) = line.split_once(':') {
            headers.push((k.trim().to_lowercase(), val.trim().to_string()));
        }
    }
    Received {
        mail_from: v["mail_from"].as_str().unwrap().to_string(),
        rcpt_tos: v["rcpt_tos"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().to_string())
            .collect(),
        headers,
        peer: v["peer"].as_str().unwrap_or("").to_string(),
        text: v["text"].as_str().unwrap_or("").to_string(),
        html: v["html"].as_str().unwrap_or("").to_string(),
        images: v["images"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|image| {
                use base64::Engine;
                InlineImage {
                    content_id: image["content_id"].as_str().unwrap_or("").to_string(),
                    content_type: image["content_type"].as_str().unwrap_or("").to_string(),
                    disposition: image["disposition"].as_str().map(str::to_string),
                    data: base64::engine::general_purpose::STANDARD
                        .decode(image["data"].as_str().unwrap_or(""))
                        .expect("the sink writes base64"),
                }
            })
            .collect(),
    }
}
