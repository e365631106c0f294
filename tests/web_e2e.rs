//! The web client end to end: `web/e2e/play.mjs` drives two headless
//! Chromium sessions through a game of every variant against a real server
//! (see docs/web-client.md). The test command (scripts/test.sh) installs
//! Chromium and playwright-core and sets HEXPOST_E2E_NODE_MODULES.

use crate::common::smtp::{self, SmtpSink};
use crate::common::{self, BACKENDS, Backend, TestServer};
use base64::Engine;
use serde_json::json;
use std::path::Path;
use std::process::Command;

/// Whether Chromium and playwright-core are there (never false in CI).
fn browsers_installed() -> bool {
    let Ok(modules) = std::env::var("HEXPOST_E2E_NODE_MODULES") else {
        assert!(
            std::env::var("CI").is_err(),
            "HEXPOST_E2E_NODE_MODULES is not set in CI: run the suite with scripts/test.sh"
        );
        eprintln!(
            "SKIPPED: the browser tests need ./scripts/test.sh (Chromium and playwright-core)"
        );
        return false;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // ES modules resolve packages beside the script, so that is where npm
    // must have installed them.
    assert_eq!(
        Path::new(&modules).canonicalize().ok(),
        root.join("web/e2e/node_modules").canonicalize().ok(),
        "HEXPOST_E2E_NODE_MODULES must be web/e2e/node_modules"
    );
    assert!(
        Path::new(&modules).join("playwright-core").is_dir(),
        "no playwright-core under {modules}: run `npm ci` in web/e2e"
    );
    true
}

/// Runs web/e2e/play.mjs against a fresh server of each backend, for
/// `variants` (none: the script's own list).
fn play_in_browsers(variants: &[&str]) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("web/e2e/play.mjs");
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let artifacts = root
            .join("target/e2e-artifacts")
            .join(format!("{backend:?}").to_lowercase());
        let started = std::time::Instant::now();
        let out = Command::new("node")
            .arg(&script)
            .arg(&server.base)
            .arg(&artifacts)
            .args(variants)
            .output()
            .expect("node runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        println!(
            "== {backend:?} {variants:?} in {:.0} s\n{stdout}{stderr}",
            started.elapsed().as_secs_f64()
        );
        assert!(
            out.status.success(),
            "the browser test failed on {backend:?} (screenshots in {}):\n{stdout}{stderr}",
            artifacts.display()
        );
    }
}

#[test]
fn two_browsers_play_every_variant() {
    if browsers_installed() {
        play_in_browsers(&[]);
    }
}

/// A whole game of Cities & Knights for two, to its winner, every decision
/// clicked on one of the two pages (web/e2e/ck_game.mjs).
#[test]
fn two_browsers_play_a_whole_ck_for_two_game() {
    if browsers_installed() {
        play_in_browsers(&["ck_for_two"]);
    }
}

/// Sessions in the browser (web/e2e/sessions.mjs): a reload after the
/// access token expired keeps the player signed in, revoking a session
/// signs that browser out, and a mail's sign-in link works once.
#[test]
fn browsers_stay_signed_in_are_signed_out_when_revoked_and_follow_mail_links() {
    if !browsers_installed() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let ttl = "3";
    let server = TestServer::start_with(
        Backend::Postgres,
        &[
            ("ACCESS_TOKEN_TTL_SECS", ttl),
            ("MAIL_POLL_INTERVAL_MS", "50"),
        ],
    );
    let api = server.client();
    let (creator, _, game) = api.new_game("standard", json!({}));
    let me = creator.get("/api/v1/me").ok().clone();
    let email = me["email"].as_str().unwrap();
    let code = common::mailed_sign_in_code(&server, &game, email);
    let out = Command::new("node")
        .arg(root.join("web/e2e/sessions.mjs"))
        .arg(&server.base)
        .arg(root.join("target/e2e-artifacts"))
        .arg(email)
        .arg("correct horse battery")
        .arg(format!("/games/{game}#sign-in={code}"))
        .arg(ttl)
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}{stderr}");
    assert!(
        out.status.success(),
        "sessions in Chromium:\n{stdout}{stderr}"
    );
}

/// A "your move" mail as a phone shows it: its HTML, the board picture in
/// place of its cid: URL, opened in Chromium at a phone's width
/// (web/e2e/mail.mjs); the screenshot is kept with the other artifacts.
#[test]
fn a_turn_mail_with_its_board_reads_on_a_phone() {
    let Some(py) = smtp::python() else { return };
    if !browsers_installed() {
        return;
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let sink = SmtpSink::running(&py);
    let server = TestServer::start_with(
        Backend::Sqlite,
        &[
            ("SMTP_URL", sink.url().as_str()),
            ("PUBLIC_BASE_URL", "https://hexpost.example.org"),
            ("MAIL_POLL_INTERVAL_MS", "50"),
        ],
    );
    let (a, b, id) = server.client().new_game("catan_for_two", json!({}));
    common::play_moves([&a, &b], &id, 5, 60);
    let mut turn = None;
    for _ in 0..100 {
        turn = sink
            .messages()
            .into_iter()
            .rfind(|m| m.subject().starts_with("Your move"));
        if turn.is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let mail = turn.expect("a turn mail");
    assert_eq!(mail.images.len(), 1);
    let image = &mail.images[0];
    let data = base64::engine::general_purpose::STANDARD.encode(&image.data);
    let cid = image.content_id.trim_matches(['<', '>']);
    let html = mail.html.replace(
        &format!("cid:{cid}"),
        &format!("data:{};base64,{data}", image.content_type),
    );
    assert_ne!(
        html, mail.html,
        "the HTML shows the picture by its Content-ID"
    );
    let artifacts = root.join("target/e2e-artifacts");
    std::fs::create_dir_all(&artifacts).unwrap();
    let page = artifacts.join("mail-your-move.html");
    std::fs::write(&page, html).unwrap();
    let out = Command::new("node")
        .arg(root.join("web/e2e/mail.mjs"))
        .arg(&page)
        .arg(artifacts.join("mail-your-move-phone.png"))
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}{stderr}");
    assert!(
        out.status.success(),
        "the mail in Chromium:\n{stdout}{stderr}"
    );
}
