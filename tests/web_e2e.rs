//! The web client end to end: `web/e2e/play.mjs` drives two headless
//! Chromium sessions through a game of every variant against a real server
//! (see docs/web-client.md). The test command (scripts/test.sh) installs
//! Chromium and playwright-core and sets HEXPOST_E2E_NODE_MODULES.

use crate::common::smtp::{self, SmtpSink};
use crate::common::{self, BACKENDS, Backend, TestServer};
use base64::Engine;
use serde_json::json;
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Command, Stdio};

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

/// Runs web/e2e/play.mjs against a fresh server of each backend, for the
/// variants `variants[i]` names on `BACKENDS[i]`, and returns what it
/// printed on each. With `seeds` (hex, one for each of `BACKENDS`), each
/// game's seed is fixed once it is created, and as the policies' choices
/// are seeded, the games are the same every run.
fn play_in_browsers(variants: [&[&str]; 2], seeds: Option<[&str; 2]>) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("web/e2e/play.mjs");
    let mut printed = Vec::new();
    for (i, backend) in BACKENDS.into_iter().enumerate() {
        let (seed, variants) = (seeds.map(|s| s[i]), variants[i]);
        let server = TestServer::start(backend);
        let artifacts = root
            .join("target/e2e-artifacts")
            .join(format!("{backend:?}").to_lowercase());
        let started = std::time::Instant::now();
        let mut node = Command::new("node");
        node.arg(&script)
            .arg(&server.base)
            .arg(&artifacts)
            .args(variants)
            .env("E2E_MAIL_DIR", server.data_dir.join("mail"));
        if seed.is_some() {
            node.env("E2E_SEED_HANDSHAKE", "1");
        }
        let mut child = node
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("node runs");
        let stderr = child.stderr.take().unwrap();
        let stderr = std::thread::spawn(move || std::io::read_to_string(stderr).unwrap());
        let mut stdin = child.stdin.take().unwrap();
        let mut stdout = String::new();
        for line in BufReader::new(child.stdout.take().unwrap()).lines() {
            let line = line.unwrap();
            if let (Some(seed), true) = (seed, line.starts_with("seed handshake:")) {
                server.fix_seed(&the_open_game(&server), seed);
                writeln!(stdin, "seeded").unwrap();
            }
            stdout.push_str(&line);
            stdout.push('\n');
        }
        let status = child.wait().unwrap();
        let stderr = stderr.join().unwrap();
        println!(
            "== {backend:?} {variants:?} in {:.0} s\n{stdout}{stderr}",
            started.elapsed().as_secs_f64()
        );
        assert!(
            status.success(),
            "the browser test failed on {backend:?} (screenshots in {}):\n{stdout}{stderr}",
            artifacts.display()
        );
        printed.push(stdout);
    }
    printed
}

/// The id of the one game on `server` that waits for its invitation to be
/// accepted.
fn the_open_game(server: &TestServer) -> String {
    use diesel::prelude::*;
    use hexpost::store::{games::status, schema::games};
    let mut conn = server.db().get().unwrap();
    let open: Vec<String> = games::table
        .filter(games::status.eq(status::OPEN))
        .select(games::id)
        .load(&mut conn)
        .unwrap();
    assert_eq!(open.len(), 1, "open games: {open:?}");
    open.into_iter().next().unwrap()
}

/// Each variant's pages, every one on one backend: what the browser does
/// is the same on both, and whole games of every variant are played on
/// each through the API (`api_play`). Fixed seeds make the games, and so
/// the decisions the script waits for, the same every run.
#[test]
fn two_browsers_play_every_variant() {
    if browsers_installed() {
        play_in_browsers(
            [
                &["standard", "catan_for_two", "shadow"],
                &["duel", "neutral_trader"],
            ],
            Some(VARIANT_SEEDS),
        );
    }
}

const VARIANT_SEEDS: [&str; 2] = [
    "e2e0000000000000000000000000000000000000000000000000000000000001",
    "e2e0000000000000000000000000000000000000000000000000000000000002",
];

/// The Cities & Knights games below, one on each backend, from their
/// set-up; with the policies' seeded choices each is the same every run.
/// The first is won by seat 1 on turn 26 (about 35 s), the second by seat
/// 1 on turn 34 (about 40 s). HEXPOST_E2E_CK_SEED plays another game on
/// both.
const CK_SEEDS: [&str; 2] = [
    "c0de000000000000000000000000000000000000000000000000000000000002",
    "c0de000000000000000000000000000000000000000000000000000000000004",
];

/// What the pages do in the games of `CK_SEEDS`, besides set-up, rolls,
/// roads, cities and ending turns, as web/e2e/ck_game.mjs names it.
const CK_DECISIONS: [&[&str]; 2] = [
    &[
        "build_wall",
        "Improve politics to level 1",
        "Improve science to level 1",
        "recruit_knight",
        "activate_knight",
        "promote_knight",
        "Play Road building",
        "play diplomat",
        "place_neutral_knight",
        "promote_neutral_knight",
        "move_robber",
        "discard",
        "bank_trade",
    ],
    &[
        "build_wall",
        "Improve trade to level 1",
        "play merchant",
        "play smith",
        "smith_promote",
        "play inventor",
        "place_neutral_knight",
        "move_robber",
        "bank_trade",
    ],
];

/// A whole game of Cities & Knights for two, to its winner, every decision
/// clicked on one of the two pages (web/e2e/ck_game.mjs). The games are
/// the same every run (`CK_SEEDS`), so their length is too, and they make
/// the decisions `CK_DECISIONS` lists: a change to the engine or to the
/// policies that plays them differently fails here, and new seeds whose
/// games make as many kinds of decision are then chosen.
#[test]
fn two_browsers_play_a_whole_ck_for_two_game() {
    if !browsers_installed() {
        return;
    }
    if let Ok(seed) = std::env::var("HEXPOST_E2E_CK_SEED") {
        play_in_browsers([&["ck_for_two"]; 2], Some([&seed, &seed]));
        return;
    }
    let printed = play_in_browsers([&["ck_for_two"]; 2], Some(CK_SEEDS));
    for ((out, expected), seed) in printed.iter().zip(CK_DECISIONS).zip(CK_SEEDS) {
        let made = decisions_made(out);
        let missing: Vec<&&str> = expected.iter().filter(|d| !made.contains(**d)).collect();
        assert!(
            missing.is_empty(),
            "the game of seed {seed} no longer makes {missing:?}: {made:?}"
        );
    }
}

/// The kinds of decision ck_game.mjs says the pages made ("decisions made
/// on the pages: build_road 5, play diplomat 1, ...").
fn decisions_made(printed: &str) -> std::collections::BTreeSet<String> {
    let (_, list) = printed
        .split_once("decisions made on the pages: ")
        .expect("the game's summary");
    let list = list.lines().next().unwrap_or_default();
    list.split(", ")
        .map(|made| {
            made.rsplit_once(' ')
                .map_or(made, |(name, _)| name)
                .to_string()
        })
        .collect()
}

/// Sessions in the browser (web/e2e/sessions.mjs): a reload after the
/// access token expired keeps the player signed in, revoking a session
/// signs that browser out, and a mail's sign-in link works once.
#[test]
fn browsers_stay_signed_in_are_signed_out_when_revoked_and_follow_mail_links() {
    if !browsers_installed() {
        return;
    }
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
    let link = format!("/games/{game}#sign-in={code}");
    let args = [email, "correct horse battery", link.as_str(), ttl];
    run_script("sessions.mjs", &server, &args, "sessions in Chromium");
}

/// Runs web/e2e/`script` against `server` (its base URL, the artifacts'
/// folder, then `args`; its mail folder in E2E_MAIL_DIR) and fails with
/// what it printed unless it succeeds.
fn run_script(script: &str, server: &TestServer, args: &[&str], what: &str) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("node")
        .arg(root.join("web/e2e").join(script))
        .arg(&server.base)
        .arg(root.join("target/e2e-artifacts"))
        .args(args)
        .env("E2E_MAIL_DIR", server.data_dir.join("mail"))
        .output()
        .expect("node runs");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    println!("{stdout}{stderr}");
    assert!(out.status.success(), "{what}:\n{stdout}{stderr}");
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
    let url = sink.url();
    let mut settings = vec![
        ("SMTP_URL", url.as_str()),
        ("PUBLIC_BASE_URL", "https://hexpost.example.org"),
        ("MAIL_POLL_INTERVAL_MS", "50"),
    ];
    settings.extend(smtp::QUICK_RETRIES);
    let server = TestServer::start_with(Backend::Sqlite, &settings);
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

/// The account pages in the browser (web/e2e/account.mjs): sign-up
/// confirmed by the mail's link, a password reset and a sign-in by mail,
/// a new address confirmed, the data downloaded, the account deleted;
/// screenshots of each page are kept with the other artifacts.
#[test]
fn the_account_pages_take_a_person_from_sign_up_to_deletion() {
    if !browsers_installed() {
        return;
    }
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let what = format!("{backend:?}: the account pages in Chromium");
        run_script("account.mjs", &server, &[], &what);
    }
}
