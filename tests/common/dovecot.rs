//! A real IMAP server for the inbound tests: Debian's Dovecot, started by
//! the test with a private configuration in a temporary directory, on a
//! free loopback port, with one passwd-file user. scripts/test.sh installs
//! dovecot-imapd.

use hexpost::inbound::transport::imap::{ImapSettings, connect};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

pub const USER: &str = "player";
pub const PASSWORD: &str = "correct horse";
/// Where the poller files what it took.
pub const PROCESSED: &str = "hexpost-processed";

const DOVECOT: &str = "/usr/sbin/dovecot";

/// Whether Dovecot is here; outside the test command the tests that need
/// it are skipped, in CI a missing one fails them.
pub fn available() -> bool {
    let found = Path::new(DOVECOT).exists();
    if !found {
        assert!(
            std::env::var("CI").is_err(),
            "Dovecot is not installed in CI: run the suite with scripts/test.sh"
        );
        eprintln!(
            "SKIPPED: dovecot-imapd not installed; run ./scripts/test.sh to include the IMAP tests"
        );
    }
    found
}

pub struct Dovecot {
    dir: PathBuf,
    pub port: u16,
    child: Option<Child>,
}

impl Dovecot {
    /// A server already accepting logins.
    pub fn running() -> Dovecot {
        Self::configured("")
    }

    /// A server that advertises no CONDSTORE, as some providers' servers
    /// do (Dovecot still accepts the extension's commands; what a client
    /// may rely on is what is advertised).
    pub fn without_condstore() -> Dovecot {
        Self::configured(
            "protocol imap {\n  imap_capability = IMAP4rev1 LITERAL+ SASL-IR ID ENABLE \
             IDLE UIDPLUS MOVE NAMESPACE CHILDREN UNSELECT\n}\n",
        )
    }

    /// A server with `extra` added to its configuration.
    fn configured(extra: &str) -> Dovecot {
        let dir = std::env::temp_dir().join(format!(
            "hexpost-dovecot-{}-{}",
            std::process::id(),
            uuid::Uuid::new_v4().simple()
        ));
        let mail = dir.join("mail");
        std::fs::create_dir_all(&mail).unwrap();
        // The mail processes run as nobody, which must reach and write the
        // mail directory.
        set_mode(&dir, 0o755);
        set_mode(&mail, 0o777);
        std::fs::write(dir.join("passwd"), format!("{USER}:{{PLAIN}}{PASSWORD}\n")).unwrap();
        let port = super::smtp::free_port();
        let d = dir.display();
        let name = dir.file_name().unwrap().to_string_lossy();
        let config = format!(
            "base_dir = {d}/run\nstate_dir = {d}/state\nlog_path = {d}/log\n\
             instance_name = {name}\nprotocols = imap\nlisten = 127.0.0.1\n\
             ssl = no\ndisable_plaintext_auth = no\nauth_mechanisms = plain\n\
             first_valid_uid = 1\nmail_location = maildir:{d}/mail/%u\n\
             passdb {{\n  driver = passwd-file\n  args = scheme=PLAIN {d}/passwd\n}}\n\
             userdb {{\n  driver = static\n  args = uid=nobody gid=nogroup home={d}/mail/%u\n}}\n\
             service imap-login {{\n  chroot =\n  inet_listener imap {{\n    port = {port}\n  }}\n\
             \x20 inet_listener imaps {{\n    port = 0\n  }}\n}}\n\
             service anvil {{\n  chroot =\n}}\n{extra}"
        );
        std::fs::write(dir.join("dovecot.conf"), config).unwrap();
        let mut server = Dovecot {
            dir,
            port,
            child: None,
        };
        server.start();
        server
    }

    /// `IMAP_URL` for this server.
    pub fn url(&self) -> url::Url {
        format!("imap://127.0.0.1:{}", self.port).parse().unwrap()
    }

    /// The poller's settings for the user's INBOX.
    pub fn settings(&self, poll_interval: Duration) -> ImapSettings {
        ImapSettings {
            url: self.url(),
            user: USER.into(),
            password: PASSWORD.into(),
            mailbox: "INBOX".into(),
            processed_mailbox: PROCESSED.into(),
            poll_interval,
            claim_timeout: hexpost::inbound::transport::imap::STALE_CLAIM,
        }
    }

    /// Puts `raw` into the INBOX with `flags`, as the provider's delivery
    /// would (IMAP APPEND).
    pub async fn append(&self, raw: &[u8], flags: Option<&str>) {
        let mut session = connect(&self.settings(Duration::from_secs(1)))
            .await
            .unwrap();
        session.append("INBOX", flags, None, raw).await.unwrap();
        session.logout().await.unwrap();
    }

    pub fn start(&mut self) {
        let child = Command::new(DOVECOT)
            .arg("-F")
            .arg("-c")
            .arg(self.dir.join("dovecot.conf"))
            .stdin(Stdio::null())
            .spawn()
            .expect("dovecot starts");
        self.child = Some(child);
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_err() {
            assert!(
                start.elapsed() < Duration::from_secs(20),
                "Dovecot did not listen: {}",
                std::fs::read_to_string(self.dir.join("log")).unwrap_or_default()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// Stops the server the way an operator would (SIGTERM), and waits.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = Command::new("kill").arg(child.id().to_string()).status();
            let _ = child.wait();
        }
        let start = Instant::now();
        while std::net::TcpStream::connect(("127.0.0.1", self.port)).is_ok()
            && start.elapsed() < Duration::from_secs(10)
        {
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

fn set_mode(path: &Path, mode: u32) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(mode)).unwrap();
}

impl Drop for Dovecot {
    fn drop(&mut self) {
        self.stop();
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}
