//! What the server writes to disk is for its own user alone: the SQLite
//! database with its write-ahead files, and the mails written as files
//! (an invitation holds the token that joins its game), in directories
//! only that user can enter, whatever the umask it was started with. (The
//! generated token key is checked in `config`'s unit tests.)

use crate::common::{Backend, TestServer};
use serde_json::json;
use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The permission bits of `path`, in octal as `ls` and `chmod` write them.
fn mode(path: &Path) -> String {
    let meta = std::fs::metadata(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    format!("{:o}", meta.permissions().mode() & 0o777)
}

/// The first `.eml` file under `dir`, waiting for the mail worker.
fn first_mail(dir: &Path) -> PathBuf {
    let start = Instant::now();
    loop {
        let found = std::fs::read_dir(dir).ok().and_then(|entries| {
            entries
                .filter_map(Result::ok)
                .map(|e| e.path())
                .find(|p| p.extension().is_some_and(|x| x == "eml"))
        });
        if let Some(path) = found {
            return path;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no mail was written under {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn the_database_and_mail_files_are_private() {
    let root = std::env::temp_dir().join(format!("hexpost-modes-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&root);
    // Neither directory exists: the server makes both.
    let data = root.join("data");
    let url = format!("sqlite://{}/hexpost.db", data.display());
    let server = TestServer::start_with(
        Backend::Sqlite,
        &[
            ("DATABASE_URL", &url),
            ("HEXPOST_DATA_DIR", &data.display().to_string()),
            ("MAIL_POLL_INTERVAL_MS", "50"),
        ],
    );
    let (ada, _) = server.client().register("ada");
    ada.post(
        "/api/v1/games",
        &json!({"variant": "standard", "opponent_email": "grace@example.org"}),
    )
    .ok();
    let mail = first_mail(&data.join("mail"));

    assert_eq!(mode(&data), "700", "the data directory");
    for file in ["hexpost.db", "hexpost.db-wal", "hexpost.db-shm"] {
        assert_eq!(mode(&data.join(file)), "600", "{file}");
    }
    assert_eq!(mode(&data.join("mail")), "700", "the mail directory");
    assert_eq!(mode(&mail), "600", "{}", mail.display());
    drop(server);
    let _ = std::fs::remove_dir_all(&root);
}
