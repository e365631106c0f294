//! The web client end to end: `web/e2e/play.mjs` drives two headless
//! Chromium sessions through a game of every variant against a real server
//! (see docs/web-client.md). The test command (scripts/test.sh) installs
//! Chromium and playwright-core and sets HEXPOST_E2E_NODE_MODULES.

mod common;

use common::{BACKENDS, TestServer};
use std::path::Path;
use std::process::Command;

#[test]
fn two_browsers_play_every_variant() {
    let Ok(modules) = std::env::var("HEXPOST_E2E_NODE_MODULES") else {
        assert!(
            std::env::var("CI").is_err(),
            "HEXPOST_E2E_NODE_MODULES is not set in CI: run the suite with scripts/test.sh"
        );
        eprintln!(
            "SKIPPED: the browser tests need ./scripts/test.sh (Chromium and playwright-core)"
        );
        return;
    };
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let script = root.join("web/e2e/play.mjs");
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
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let artifacts = root
            .join("target/e2e-artifacts")
            .join(format!("{backend:?}").to_lowercase());
        let out = Command::new("node")
            .arg(&script)
            .arg(&server.base)
            .arg(&artifacts)
            .output()
            .expect("node runs");
        let stdout = String::from_utf8_lossy(&out.stdout);
        let stderr = String::from_utf8_lossy(&out.stderr);
        println!("== {backend:?}\n{stdout}{stderr}");
        assert!(
            out.status.success(),
            "the browser test failed on {backend:?} (screenshots in {}):\n{stdout}{stderr}",
            artifacts.display()
        );
    }
}
