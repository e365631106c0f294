//! Reading the mail a server sent, as its recipient would: the `.eml`
//! files a server without `SMTP_URL` writes under its data directory, or
//! the messages an SMTP sink (tests/smtp_sink.py) received.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Where each running SMTP sink writes what it receives, by port: a test
/// server sending to `smtp://127.0.0.1:PORT` reads its mail there.
static SINKS: Mutex<BTreeMap<u16, PathBuf>> = Mutex::new(BTreeMap::new());

/// The mails whose code was read already: a person reads each mail once,
/// and the next code asked for is a new mail's.
static READ: Mutex<std::collections::BTreeSet<PathBuf>> =
    Mutex::new(std::collections::BTreeSet::new());

pub fn register_sink(port: u16, dir: &Path) {
    SINKS.lock().unwrap().insert(port, dir.to_path_buf());
}

/// The mailbox of a server started with `vars`: its SMTP sink's, or its
/// data directory's `mail/`.
pub fn of_server(vars: &[(String, String)], data_dir: &Path) -> PathBuf {
    let sink = vars
        .iter()
        .find(|(k, _)| k == "SMTP_URL")
        .and_then(|(_, url)| {
            url.rsplit(':')
                .next()?
                .trim_end_matches('/')
                .parse::<u16>()
                .ok()
        })
        .and_then(|port| SINKS.lock().unwrap().get(&port).cloned());
    let data_dir = vars
        .iter()
        .find(|(k, _)| k == "HEXPOST_DATA_DIR")
        .map_or(data_dir.to_path_buf(), |(_, d)| PathBuf::from(d));
    sink.unwrap_or_else(|| data_dir.join("mail"))
}

/// Every message in `dir` not read yet as raw text with quoted-printable
/// soft breaks and `=3D` undone, with its file and when it was written.
fn messages(dir: &Path) -> Vec<(std::time::SystemTime, PathBuf, String)> {
    let read = READ.lock().unwrap().clone();
    let files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|d| d.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    files
        .into_iter()
        .filter(|file| !read.contains(file))
        .filter_map(|file| {
            let text = std::fs::read_to_string(&file).ok()?;
            let raw = match file.extension().and_then(|e| e.to_str()) {
                // The sink's record: the raw message (for its header) and
                // its decoded text part.
                Some("json") => {
                    let record: serde_json::Value = serde_json::from_str(&text).ok()?;
                    format!(
                        "{}\n{}",
                        record["data"].as_str()?,
                        record["text"].as_str().unwrap_or_default()
                    )
                }
                Some("eml") => text,
                _ => return None,
            };
            let written = std::fs::metadata(&file).ok()?.modified().ok()?;
            let raw = raw
                .replace("=\r\n", "")
                .replace("=\n", "")
                .replace("=3D", "=");
            Some((written, file, raw))
        })
        .collect()
}

/// The code of the newest mail in `dir` to `to` whose link opens `page`
/// (`/confirm`, `/reset`, `/sign-in`, `/account/email`) that was not read
/// before; waits for it.
pub fn code(dir: &Path, to: &str, page: &str) -> String {
    // Addresses are stored, and mailed, in lower case.
    let to = to.trim().to_lowercase();
    let link = format!("{page}#email=");
    let start = Instant::now();
    loop {
        let found = messages(dir)
            .into_iter()
            .filter(|(_, _, raw)| raw.contains(&format!("To: {to}")))
            .filter_map(|(at, file, raw)| {
                let from = raw.find(&link)?;
                let rest = &raw[from..];
                let code = rest.split("&code=").nth(1)?;
                let code: String = code
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '%')
                    .collect();
                Some((at, file, code.replace("%2D", "-")))
            })
            .max_by_key(|(at, _, _)| *at);
        if let Some((_, file, code)) = found {
            READ.lock().unwrap().insert(file);
            return code;
        }
        assert!(
            start.elapsed() < Duration::from_secs(30),
            "no mail to {to} with a link to {page} under {}",
            dir.display()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}
