//! `hexpost serve` as a real child process (the binary cargo built), for
//! what only a process shows: signals, exit codes, several instances.

use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

pub struct ServeProcess {
    pub base: String,
    pub pid: u32,
    /// Where the process's log goes (stderr).
    pub log: PathBuf,
    /// Where its mail can be read (`mailbox`).
    pub mailbox: PathBuf,
    child: Child,
}

impl ServeProcess {
    /// Starts `hexpost serve` on a free loopback port with `vars` and the
    /// test defaults (a shared token key, no rate limits), and waits until
    /// it answers `/readyz`.
    pub fn start(data_dir: &std::path::Path, vars: &[(&str, &str)]) -> ServeProcess {
        std::fs::create_dir_all(data_dir).unwrap();
        let port = super::smtp::free_port();
        let log = data_dir.join(format!("serve-{port}.log"));
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_hexpost"));
        cmd.arg("serve")
            .env("HEXPOST_BIND", format!("127.0.0.1:{port}"))
            .env("HEXPOST_DATA_DIR", data_dir)
            .env("JWT_KEYS", "test:0123456789abcdef0123456789abcdef")
            .env("RATE_LIMIT_LOGIN_PER_MINUTE", "0")
            .env("RATE_LIMIT_MOVES_PER_MINUTE", "0")
            .env("TURN_MAIL_FOLLOW_UP_SECS", "0")
            .env("TURN_MAIL_FOLLOW_UPS_PER_HOUR", "0")
            .env("INVITATIONS_PER_DAY", "0")
            .env("RUST_LOG", "info")
            .env_remove("SMTP_URL")
            .env_remove("DATABASE_URL")
            .stdout(Stdio::null())
            .stderr(std::fs::File::create(&log).unwrap());
        for (k, v) in vars {
            cmd.env(k, v);
        }
        let child = cmd.spawn().unwrap();
        let owned: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        let mut process = ServeProcess {
            base: format!("http://127.0.0.1:{port}"),
            pid: child.id(),
            log,
            mailbox: super::mailbox::of_server(&owned, data_dir),
            child,
        };
        process.wait_ready();
        process
    }

    fn wait_ready(&mut self) {
        let http = reqwest::blocking::Client::new();
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                panic!("hexpost serve exited with {status}:\n{}", self.log_text());
            }
            let ready = http
                .get(format!("{}/readyz", self.base))
                .send()
                .is_ok_and(|r| r.status().is_success());
            if ready {
                return;
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "hexpost serve did not get ready:\n{}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// A client of this process that reads its mail.
    pub fn client(&self) -> super::Api {
        super::Api {
            base: self.base.clone(),
            http: reqwest::blocking::Client::builder()
                .timeout(Duration::from_secs(60))
                .build()
                .unwrap(),
            token: None,
            mailbox: Some(self.mailbox.clone()),
        }
    }

    pub fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }

    /// Sends SIGTERM, as systemd and Kubernetes do to stop it.
    pub fn terminate(&self) {
        let status = Command::new("kill")
            .args(["-TERM", &self.pid.to_string()])
            .status()
            .unwrap();
        assert!(status.success(), "kill -TERM {}", self.pid);
    }

    /// Kills the process with SIGKILL, as a crash or the OOM killer would,
    /// and waits for it to be gone.
    pub fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Waits for the process to exit; panics after `limit`.
    pub fn wait_exit(&mut self, limit: Duration) -> ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(status) = self.child.try_wait().unwrap() {
                return status;
            }
            assert!(
                start.elapsed() < limit,
                "hexpost serve still runs {limit:?} after SIGTERM:\n{}",
                self.log_text()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
    }
}

impl Drop for ServeProcess {
    fn drop(&mut self) {
        if self.child.try_wait().ok().flatten().is_none() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
