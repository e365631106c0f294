//! Clients generated from openapi/openapi.json by third-party generators
//! play complete games against a real `hexpost serve`: a Python client
//! (openapi-python-client) on SQLite and a TypeScript one (openapi-typescript
//! and openapi-fetch) on PostgreSQL, each choosing moves from the served
//! legal actions only. A spec a generator cannot use, or a response that
//! does not match its schema, fails the test. The example bot
//! (examples/bots) plays a game against a scripted opponent.
//!
//! The test command (scripts/test.sh) installs the generators and sets
//! HEXPOST_CLIENT_VENV and HEXPOST_TS_CLIENT_MODULES; the clients are
//! generated afresh on each run under target/generated-clients/.

use crate::common::process::ServeProcess;
use crate::common::{self, Backend, TempDatabase};
use hexpost_engine::LegalAction;
use hexpost_engine::rng::GameRng;
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn tool(var: &str) -> Option<PathBuf> {
    let Ok(path) = std::env::var(var) else {
        assert!(
            std::env::var("CI").is_err(),
            "{var} is not set in CI: run the suite with scripts/test.sh"
        );
        eprintln!("SKIPPED: {var} is not set; run ./scripts/test.sh to include it");
        return None;
    };
    Some(PathBuf::from(path))
}

fn run(what: &str, cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed ({}):\n{}{}",
        out.status,
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A fresh directory under target/generated-clients/.
fn fresh(name: &str) -> PathBuf {
    let dir = Path::new(ROOT).join("target/generated-clients").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn spec() -> PathBuf {
    Path::new(ROOT).join("openapi/openapi.json")
}

/// Generates the Python package `hexpost_client` into `dir`, failing on
/// any warning (a schema the generator had to leave out).
/// The generator runs with its default settings, as a client author
/// would run it (its post-generation hooks, ruff, from the same
/// virtualenv).
fn generate_python(venv: &Path, dir: &Path) {
    let path = std::env::join_paths(std::iter::once(venv.join("bin")).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .unwrap();
    run(
        "openapi-python-client",
        Command::new(venv.join("bin/openapi-python-client"))
            .env("PATH", path)
            .arg("generate")
            .arg("--path")
            .arg(spec())
            .arg("--output-path")
            .arg(dir.join("hexpost_client"))
            .args(["--meta", "none", "--fail-on-warning"]),
    );
}

fn python(venv: &Path, generated: &Path) -> Command {
    let mut cmd = Command::new(venv.join("bin/python"));
    let paths = [
        generated.to_path_buf(),
        Path::new(ROOT).join("examples/bots"),
        Path::new(ROOT).join("tests/clients/python"),
    ];
    cmd.env("PYTHONPATH", std::env::join_paths(paths).unwrap())
        .env("PYTHONDONTWRITEBYTECODE", "1");
    cmd
}

fn serve(backend: Backend) -> (ServeProcess, TempDatabase, PathBuf) {
    let db = TempDatabase::new(backend);
    let dir = std::env::temp_dir().join(format!(
        "hexpost-clients-{}-{}",
        std::process::id(),
        hexpost::store::now_ms()
    ));
    let server = ServeProcess::start(&dir, &[("DATABASE_URL", &db.url)]);
    (server, db, dir)
}

/// Runs a driver (play.py, play.ts) over one complete game of two
/// variants and the start of a game of every variant, and checks them.
fn plays_every_variant(what: &str, driver: &mut Command, mail: &Path) {
    let played = ["standard", "catan_for_two"];
    for variant in played {
        driver.args(["--variant", variant]);
    }
    driver
        .arg("--mail-dir")
        .arg(mail)
        .arg("--start-every-variant");
    let out = run(what, driver);
    let text = String::from_utf8_lossy(&out.stdout);
    eprint!("{what}: {text}");
    for variant in played {
        assert!(
            text.contains(&format!("{variant}: game ")),
            "{what}: no finished {variant} game:\n{text}"
        );
    }
    for variant in hexpost_engine::Variant::ALL {
        assert!(
            text.contains(&format!("started {}: game ", variant.id())),
            "{what}: no {} game started:\n{text}",
            variant.id()
        );
    }
}

#[test]
fn the_generated_python_client_plays_two_variants_on_sqlite() {
    let Some(venv) = tool("HEXPOST_CLIENT_VENV") else {
        return;
    };
    let generated = fresh("python");
    generate_python(&venv, &generated);
    let (server, _db, _dir) = serve(Backend::Sqlite);
    plays_every_variant(
        "the Python client",
        python(&venv, &generated)
            .arg(Path::new(ROOT).join("tests/clients/python/play.py"))
            .args(["--url", &server.base]),
        &server.mailbox,
    );
}

#[test]
fn the_generated_typescript_client_plays_two_variants_on_postgres() {
    let Some(modules) = tool("HEXPOST_TS_CLIENT_MODULES") else {
        return;
    };
    let generated = fresh("typescript");
    let bin = |name: &str| modules.join(".bin").join(name);
    run(
        "openapi-typescript",
        Command::new(bin("openapi-typescript"))
            .arg(spec())
            .args(["--default-non-nullable", "false", "--output"])
            .arg(generated.join("api.d.ts")),
    );
    // Type-checks the driver against the generated types and compiles it.
    let sources = Path::new(ROOT).join("tests/clients/typescript");
    run(
        "tsc",
        Command::new(bin("tsc"))
            .arg("-p")
            .arg(sources.join("tsconfig.json")),
    );
    // The compiled driver imports openapi-fetch and Ajv from beside it.
    std::os::unix::fs::symlink(&modules, generated.join("node_modules")).unwrap();
    let (server, _db, _dir) = serve(Backend::Postgres);
    plays_every_variant(
        "the TypeScript client",
        Command::new("node")
            .arg(generated.join("js/play.js"))
            .args(["--url", &server.base, "--spec"])
            .arg(spec()),
        &server.mailbox,
    );
}

/// The bot plays seat 1 from its account stream while this test plays
/// seat 0 with the suite's random player.
#[test]
fn the_example_bot_finishes_a_game_against_a_scripted_opponent() {
    let Some(venv) = tool("HEXPOST_CLIENT_VENV") else {
        return;
    };
    let generated = fresh("bot");
    generate_python(&venv, &generated);
    let (server, _db, _dir) = serve(Backend::Sqlite);
    let api = server.client();
    api.register("botty");
    let (me, _) = api.register("scripted");
    let created = me.post(
        "/api/v1/games",
        &json!({"variant": "standard", "options": {"vp_target": 6}, "creator_seat": 0,
                "opponent_email": "botty@example.org"}),
    );
    let created = created.ok();
    let id = created["game"]["id"].as_str().unwrap().to_string();
    let invitation = created["invite_token"].as_str().unwrap();
    let mut bot = python(&venv, &generated)
        .arg(Path::new(ROOT).join("examples/bots/bot.py"))
        .args(["--url", &server.base, "--user", "botty@example.org"])
        .args(["--accept", invitation, "--games", "1", "--seed", "7"])
        .env("HEXPOST_PASSWORD", "correct horse battery")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut rng = GameRng::from_seed(7);
    let start = Instant::now();
    let status = loop {
        let view = common::game(&me, &id);
        if view["status"] != "open" && view["status"] != "active" {
            break view["status"].clone();
        }
        if let Some(exit) = bot.try_wait().unwrap() {
            let out = bot.wait_with_output().unwrap();
            panic!(
                "the bot exited ({exit}):\n{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        assert!(
            start.elapsed() < Duration::from_secs(120),
            "the game did not end in 120 s"
        );
        if view["awaiting_you"] != true {
            std::thread::sleep(Duration::from_millis(20));
            continue;
        }
        let legal: Vec<LegalAction> =
            serde_json::from_value(view["legal_actions"].clone()).unwrap();
        let action = common::choose(&view["view"], &legal, &mut rng);
        let r = me.submit(
            &id,
            view["move_number"].as_i64().unwrap(),
            &serde_json::to_value(&action).unwrap(),
        );
        // The bot moves at the same time (both discard on a 7, or it answers
        // a trade offer): a stale move number is read again.
        let stale = r.status == 409 && r.body["code"] == "stale_move";
        assert!(
            r.status == 200 || stale || r.body["reason"]["code"] == "bank_shortage",
            "{}: {}",
            r.status,
            r.body
        );
    };
    // The bot exits once it has seen the game end on its stream.
    let start = Instant::now();
    while bot.try_wait().unwrap().is_none() && start.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = bot.kill();
    let out = bot.wait_with_output().unwrap();
    let log = String::from_utf8_lossy(&out.stderr);
    assert_eq!(status, "finished", "bot log:\n{log}");
    assert!(out.status.success(), "the bot failed:\n{log}");
    assert!(log.contains("accepted the invitation"), "bot log:\n{log}");
    assert!(
        log.contains(&format!("game {id} ended: finished")),
        "bot log:\n{log}"
    );
}
