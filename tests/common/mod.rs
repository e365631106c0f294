//! Test harness: a real hexpost server on a loopback port over a fresh
//! database (a temporary SQLite file, or a throw-away PostgreSQL database),
//! and a small blocking HTTP client.
#![allow(dead_code)]

pub mod dkim;
pub mod dns;
pub mod dovecot;
pub mod ed25519;
pub mod html;
pub mod inbound;
pub mod mailbox;
pub mod moves;
pub mod outage;
pub mod process;
pub mod smtp;
pub mod sse;
pub mod steer;

use diesel::{Connection, RunQueryDsl, pg::PgConnection};
use hexpost::app::AppState;
use hexpost::clock::Clock;
use hexpost::config;
use hexpost_engine::rng::GameRng;
use hexpost_engine::{Action, LegalAction};
use reqwest::blocking::{Client, Response};
use serde_json::{Value, json};
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};

pub mod player;
pub use player::choose;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    Sqlite,
    Postgres,
}

pub const BACKENDS: [Backend; 2] = [Backend::Sqlite, Backend::Postgres];

/// The PostgreSQL server tests create their databases on.
pub fn pg_admin_url() -> String {
    std::env::var("HEXPOST_TEST_PG_URL")
        .unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432/test".into())
}

fn pg_base(url: &str) -> &str {
    &url[..url.rfind('/').expect("url has a database")]
}

static COUNTER: AtomicU32 = AtomicU32::new(0);

pub struct TestServer {
    pub base: String,
    pub backend: Backend,
    pub database_url: String,
    /// The server's data directory (`HEXPOST_DATA_DIR`).
    pub data_dir: std::path::PathBuf,
    vars: Vec<(String, String)>,
    /// The server's clock: the system's plus `clock_offset` milliseconds.
    pub clock: Clock,
    pub clock_offset: Arc<AtomicI64>,
    handle: actix_web::dev::ServerHandle,
    thread: Option<std::thread::JoinHandle<()>>,
    cleanup: Option<String>,
    _dir: tempdir::Dir,
}

/// A running server: its address, handle and thread.
struct Running {
    base: String,
    handle: actix_web::dev::ServerHandle,
    thread: std::thread::JoinHandle<()>,
}

/// Starts a server (and its background workers) with the configuration
/// `vars`, reading time from `clock`.
fn launch(vars: &[(String, String)], clock: &Clock) -> Running {
    let cfg = config::from_lookup(|k| {
        vars.iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.clone())
    })
    .unwrap();
    let pool = hexpost::server::open_store(&cfg).expect("store opens and migrates");
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let base = format!("http://{}", listener.local_addr().unwrap());
    let state = actix_web::web::Data::new(AppState::new(cfg, pool).with_clock(clock.clone()));
    let (tx, rx) = std::sync::mpsc::channel();
    let thread = std::thread::spawn(move || {
        actix_web::rt::System::new().block_on(async move {
            let server = hexpost::server::build(state, listener).unwrap();
            tx.send(server.handle()).unwrap();
            server.await.unwrap();
        })
    });
    let handle = rx.recv().unwrap();
    Running {
        base,
        handle,
        thread,
    }
}

fn stop(handle: &actix_web::dev::ServerHandle, thread: Option<std::thread::JoinHandle<()>>) {
    let handle = handle.clone();
    let stopper =
        std::thread::spawn(move || actix_web::rt::System::new().block_on(handle.stop(false)));
    let _ = stopper.join();
    if let Some(t) = thread {
        let _ = t.join();
    }
}

mod tempdir {
    pub struct Dir(pub std::path::PathBuf);
    impl Drop for Dir {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.0);
        }
    }
}

impl TestServer {
    pub fn start(backend: Backend) -> TestServer {
        Self::start_with(backend, &[])
    }

    pub fn start_with(backend: Backend, extra: &[(&str, &str)]) -> TestServer {
        Self::start_through(backend, extra, str::to_string)
    }

    /// `start_with`, the server reaching its database at `route(url)`
    /// (through an `outage::Forwarder`); `database_url` and `db()` stay
    /// direct.
    pub fn start_through(
        backend: Backend,
        extra: &[(&str, &str)],
        route: impl Fn(&str) -> String,
    ) -> TestServer {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let tag = format!(
            "{}_{}_{}",
            std::process::id(),
            n,
            hexpost::store::now_ms() % 1_000_000
        );
        let dir = std::env::temp_dir().join(format!("hexpost-test-{tag}"));
        std::fs::create_dir_all(&dir).unwrap();
        let (database_url, cleanup) = match backend {
            Backend::Sqlite => (format!("sqlite://{}/t.db", dir.display()), None),
            Backend::Postgres => {
                let admin = pg_admin_url();
                let mut conn = PgConnection::establish(&admin).unwrap_or_else(|e| {
                    panic!(
                        "PostgreSQL is required for these tests and is not reachable at {admin}: {e}. \
                         Start it (e.g. `pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start`) \
                         or point HEXPOST_TEST_PG_URL at a server."
                    )
                });
                let name = format!("hexpost_t_{tag}");
                diesel::sql_query(format!("CREATE DATABASE {name}"))
                    .execute(&mut conn)
                    .unwrap();
                (format!("{}/{name}", pg_base(&admin)), Some(name))
            }
        };
        let mut vars: Vec<(String, String)> = vec![
            ("DATABASE_URL".into(), route(&database_url)),
            ("HEXPOST_DATA_DIR".into(), dir.display().to_string()),
            (
                "JWT_KEYS".into(),
                "test:0123456789abcdef0123456789abcdef".into(),
            ),
            ("DATABASE_POOL_SIZE".into(), "8".into()),
            ("RATE_LIMIT_LOGIN_PER_MINUTE".into(), "0".into()),
            ("RATE_LIMIT_MOVES_PER_MINUTE".into(), "0".into()),
            // Games played in a burst would otherwise wait minutes for the
            // mails that follow a withdrawn offer; the pacing has tests of
            // its own with the defaults (mail::offers_made_and_withdrawn_…).
            ("TURN_MAIL_FOLLOW_UP_SECS".into(), "0".into()),
            ("TURN_MAIL_FOLLOW_UPS_PER_HOUR".into(), "0".into()),
            // Tests queue mails in bulk by inviting addresses nobody
            // registered; the bound is tested where it is set.
            ("INVITATIONS_PER_DAY".into(), "0".into()),
        ];
        for (k, v) in extra {
            vars.retain(|(key, _)| key != k);
            vars.push((k.to_string(), v.to_string()));
        }
        let (clock, clock_offset) = Clock::offset();
        let running = launch(&vars, &clock);
        TestServer {
            base: running.base,
            backend,
            database_url,
            data_dir: dir.clone(),
            vars,
            clock,
            clock_offset,
            handle: running.handle,
            thread: Some(running.thread),
            cleanup,
            _dir: tempdir::Dir(dir),
        }
    }

    /// Stops the server and starts a new one on the same database and data
    /// directory, with `extra` overriding the configuration.
    pub fn restart_with(&mut self, extra: &[(&str, &str)]) {
        stop(&self.handle, self.thread.take());
        for (k, v) in extra {
            self.vars.retain(|(key, _)| key != k);
            self.vars.push((k.to_string(), v.to_string()));
        }
        let running = launch(&self.vars, &self.clock);
        self.base = running.base;
        self.handle = running.handle;
        self.thread = Some(running.thread);
    }

    /// Moves the server's clock `ms` milliseconds ahead.
    pub fn advance(&self, ms: i64) {
        self.clock_offset.fetch_add(ms, Ordering::SeqCst);
    }

    pub fn client(&self) -> Api {
        Api {
            base: self.base.clone(),
            http: Client::builder()
                .timeout(std::time::Duration::from_secs(60))
                .build()
                .unwrap(),
            token: None,
            mailbox: Some(mailbox::of_server(&self.vars, &self.data_dir)),
        }
    }

    /// An account made as an admin makes one (`hexpost admin create-user`,
    /// its address vouched for), signed in: for tests about what mail
    /// does once players exist, which registration mail would disturb
    /// (an SMTP server that is down, a worker held back).
    pub fn account(&self, name: &str) -> (Api, i64) {
        let email = format!("{name}@example.org");
        let hash = hexpost::auth::password::hash("correct horse battery").unwrap();
        let user = hexpost::service::housekeeping::create_user(
            &mut self.db().get().unwrap(),
            None,
            &email,
            name,
            &hash,
            false,
        )
        .unwrap();
        let api = self.client();
        let r = api.post(
            "/api/v1/auth/token",
            &json!({"email": email, "password": "correct horse battery"}),
        );
        (
            api.with_token(r.ok()["access_token"].as_str().unwrap()),
            user.id,
        )
    }

    /// `GET /metrics`, as the OpenMetrics text.
    pub fn metrics(&self) -> String {
        let r = self
            .client()
            .http
            .get(format!("{}/metrics", self.base))
            .send()
            .unwrap();
        assert_eq!(r.status().as_u16(), 200);
        let content_type = r.headers()["content-type"].to_str().unwrap().to_string();
        assert!(
            content_type.starts_with("application/openmetrics-text"),
            "{content_type}"
        );
        r.text().unwrap()
    }

    /// A direct connection to the server's database (for tampering tests).
    pub fn db(&self) -> hexpost::store::DbPool {
        hexpost::store::connect(&self.database_url, 2).unwrap()
    }

    /// Waits until the mail worker has sent everything queued (so that
    /// what an SMTP sink holds is all the server has to say).
    pub fn wait_outbox_drained(&self) {
        use diesel::prelude::*;
        use hexpost::store::{outbox::status, schema::outbox};
        let start = std::time::Instant::now();
        let mut conn = self.db().get().unwrap();
        loop {
            let pending: i64 = outbox::table
                .filter(outbox::status.eq(status::PENDING))
                .count()
                .get_result(&mut conn)
                .unwrap();
            if pending == 0 {
                return;
            }
            assert!(
                start.elapsed() < std::time::Duration::from_secs(60),
                "the outbox never drains"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
    }

    /// A game between two new accounts, its dice fixed by `seed`: for
    /// tests whose assertions depend on what the dice bring.
    pub fn new_game_seeded(&self, variant: &str, options: Value, seed: u64) -> (Api, Api, String) {
        self.client().new_game_then(variant, options, |id| {
            self.fix_seed(id, &format!("{seed:064x}"))
        })
    }

    /// Gives the open game `game_id` the seed `seed` (hex), and the hash
    /// and chain start that follow from it, before its invitation is
    /// accepted and anything is drawn from it: a test's game is then the
    /// same every run.
    pub fn fix_seed(&self, game_id: &str, seed: &str) {
        use diesel::prelude::*;
        use hexpost::service::audit;
        use hexpost::store::{games::status, schema::games};
        let seed_hash = audit::sha256_hex(&hex::decode(seed).unwrap());
        let chain_head = audit::genesis(game_id, &seed_hash);
        let mut conn = self.db().get().unwrap();
        let n = diesel::update(
            games::table
                .find(game_id)
                .filter(games::status.eq(status::OPEN)),
        )
        .set((
            games::seed.eq(seed),
            games::seed_hash.eq(&seed_hash),
            games::chain_head.eq(&chain_head),
        ))
        .execute(&mut conn)
        .unwrap();
        assert_eq!(n, 1, "no open game {game_id}");
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        stop(&self.handle, self.thread.take());
        if let Some(name) = &self.cleanup
            && let Ok(mut conn) = PgConnection::establish(&pg_admin_url())
        {
            let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .execute(&mut conn);
        }
    }
}

#[derive(Clone)]
pub struct Api {
    pub base: String,
    pub http: Client,
    pub token: Option<String>,
    /// Where the server's mail can be read (`mailbox`): the helpers that
    /// register and sign in read their codes there, as a person would.
    pub mailbox: Option<std::path::PathBuf>,
}

pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub body: Value,
    pub headers: reqwest::header::HeaderMap,
}

impl Reply {
    fn from(r: Response) -> Reply {
        let status = r.status().as_u16();
        let headers = r.headers().clone();
        let content_type = headers
            .get("content-type")
            .and_then(|v| v.to_str().ok())
            .unwrap_or("")
            .to_string();
        let text = r.text().unwrap_or_default();
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        Reply {
            status,
            content_type,
            body,
            headers,
        }
    }

    /// Asserts a problem+json error with this status and code.
    pub fn problem(&self, status: u16, code: &str) -> &Value {
        assert_eq!(
            self.status, status,
            "expected {status} {code}, got {} {}",
            self.status, self.body
        );
        assert_eq!(
            self.content_type, "application/problem+json",
            "{}",
            self.body
        );
        assert_eq!(self.body["code"], code, "{}", self.body);
        assert_eq!(self.body["status"], status);
        assert_eq!(self.body["type"], format!("/problems/{code}"));
        assert!(self.body["title"].is_string() && self.body["detail"].is_string());
        &self.body
    }

    pub fn ok(&self) -> &Value {
        assert!(
            (200..300).contains(&self.status),
            "expected success, got {} {}",
            self.status,
            self.body
        );
        &self.body
    }
}

impl Api {
    pub fn with_token(&self, token: &str) -> Api {
        Api {
            token: Some(token.to_string()),
            ..self.clone()
        }
    }

    fn req(&self, method: reqwest::Method, path: &str) -> reqwest::blocking::RequestBuilder {
        let mut r = self.http.request(method, format!("{}{}", self.base, path));
        if let Some(t) = &self.token {
            r = r.bearer_auth(t);
        }
        r
    }

    pub fn get(&self, path: &str) -> Reply {
        Reply::from(self.req(reqwest::Method::GET, path).send().unwrap())
    }

    pub fn post(&self, path: &str, body: &Value) -> Reply {
        Reply::from(
            self.req(reqwest::Method::POST, path)
                .json(body)
                .send()
                .unwrap(),
        )
    }

    pub fn put(&self, path: &str, body: &Value) -> Reply {
        Reply::from(
            self.req(reqwest::Method::PUT, path)
                .json(body)
                .send()
                .unwrap(),
        )
    }

    pub fn post_raw(&self, path: &str, body: &str, headers: &[(&str, &str)]) -> Reply {
        let mut r = self.req(reqwest::Method::POST, path).body(body.to_string());
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        Reply::from(r.send().unwrap())
    }

    /// A JSON POST with extra headers (e.g. `Idempotency-Key`).
    pub fn post_with(&self, path: &str, body: &Value, headers: &[(&str, &str)]) -> Reply {
        let mut r = self.req(reqwest::Method::POST, path).json(body);
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        Reply::from(r.send().unwrap())
    }

    /// Any method, with extra headers and no body (e.g. a CORS preflight).
    pub fn request(&self, method: &str, path: &str, headers: &[(&str, &str)]) -> Reply {
        let method = reqwest::Method::from_bytes(method.as_bytes()).unwrap();
        let mut r = self.req(method, path);
        for (k, v) in headers {
            r = r.header(*k, *v);
        }
        Reply::from(r.send().unwrap())
    }

    /// Submits `action` with `expected_move_number`.
    pub fn submit(&self, id: &str, expected: i64, action: &Value) -> Reply {
        self.post(
            &format!("/api/v1/games/{id}/moves"),
            &json!({"expected_move_number": expected, "action": action}),
        )
    }

    /// The whole log as this client may read it (`admin`: the full log).
    pub fn full_log(&self, id: &str, admin: bool) -> Vec<Value> {
        let mut out: Vec<Value> = Vec::new();
        loop {
            let after = out.last().map(|r| r["seq"].as_i64().unwrap()).unwrap_or(0);
            let path = if admin {
                format!("/api/v1/admin/games/{id}/log?after={after}&limit=500")
            } else {
                format!("/api/v1/games/{id}/log?after={after}&limit=500")
            };
            let batch = self.get(&path).ok().as_array().unwrap().clone();
            if batch.is_empty() {
                return out;
            }
            out.extend(batch);
        }
    }

    pub fn delete(&self, path: &str) -> Reply {
        Reply::from(self.req(reqwest::Method::DELETE, path).send().unwrap())
    }

    /// Registers a user as a person does: signs up, reads the code mailed
    /// to `NAME@example.org` and confirms it. Returns a client holding the
    /// new session's token, and the user's id.
    pub fn register(&self, name: &str) -> (Api, i64) {
        let email = format!("{name}@example.org");
        let r = self.post(
            "/api/v1/accounts",
            &json!({"email": email, "display_name": name, "password": "correct horse battery"}),
        );
        assert_eq!(r.status, 202, "registering {email}: {}", r.body);
        let body = self.confirm(&email);
        let token = body["access_token"].as_str().unwrap().to_string();
        (
            self.with_token(&token),
            body["user"]["id"].as_i64().unwrap(),
        )
    }

    /// Confirms the registration of `email` with the code mailed to it:
    /// the new session (a `TokenResponse`).
    pub fn confirm(&self, email: &str) -> Value {
        let code = self.mailed_code(email, "/confirm");
        self.post(
            "/api/v1/accounts/confirm",
            &json!({"email": email, "code": code}),
        )
        .ok()
        .clone()
    }

    /// The code of the newest mail to `to` whose link opens `page`.
    pub fn mailed_code(&self, to: &str, page: &str) -> String {
        let dir = self
            .mailbox
            .as_ref()
            .expect("a client that knows where the server's mail goes");
        mailbox::code(dir, to, page)
    }

    /// Two players in a started game of `variant`: (creator, opponent, game id).
    pub fn new_game(&self, variant: &str, options: Value) -> (Api, Api, String) {
        self.new_game_then(variant, options, |_| {})
    }

    /// `new_game`, with `before_accept(game_id)` run while the game waits
    /// for its invitation to be accepted.
    pub fn new_game_then(
        &self,
        variant: &str,
        options: Value,
        before_accept: impl FnOnce(&str),
    ) -> (Api, Api, String) {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let (a, _) = self.register(&format!("alice{n}"));
        let (b, _) = self.register(&format!("bob{n}"));
        let created = a.post(
            "/api/v1/games",
            &json!({"variant": variant, "options": options, "opponent_email": format!("bob{n}@example.org")}),
        );
        let body = created.ok().clone();
        let id = body["game"]["id"].as_str().unwrap().to_string();
        let token = body["invite_token"].as_str().unwrap();
        before_accept(&id);
        b.post(&format!("/api/v1/invitations/{token}/accept"), &json!({}))
            .ok();
        (a, b, id)
    }
}

/// A fresh, empty database on `backend` (no server), dropped afterwards.
pub struct TempDatabase {
    pub url: String,
    cleanup: Option<String>,
    dir: tempdir::Dir,
}

impl TempDatabase {
    /// A directory of its own, removed with it (on SQLite, the database
    /// file's).
    pub fn dir(&self) -> &std::path::Path {
        &self.dir.0
    }

    pub fn new(backend: Backend) -> TempDatabase {
        let n = COUNTER.fetch_add(1, Ordering::SeqCst);
        let tag = format!(
            "{}_{}_{}",
            std::process::id(),
            n,
            hexpost::store::now_ms() % 1_000_000
        );
        let dir = std::env::temp_dir().join(format!("hexpost-db-{tag}"));
        std::fs::create_dir_all(&dir).unwrap();
        let (url, cleanup) = match backend {
            Backend::Sqlite => (format!("sqlite://{}/t.db", dir.display()), None),
            Backend::Postgres => {
                let admin = pg_admin_url();
                let mut conn = PgConnection::establish(&admin)
                    .unwrap_or_else(|e| panic!("PostgreSQL is not reachable at {admin}: {e}"));
                let name = format!("hexpost_m_{tag}");
                diesel::sql_query(format!("CREATE DATABASE {name}"))
                    .execute(&mut conn)
                    .unwrap();
                (format!("{}/{name}", pg_base(&admin)), Some(name))
            }
        };
        TempDatabase {
            url,
            cleanup,
            dir: tempdir::Dir(dir),
        }
    }
}

impl Drop for TempDatabase {
    fn drop(&mut self) {
        if let Some(name) = &self.cleanup
            && let Ok(mut conn) = PgConnection::establish(&pg_admin_url())
        {
            let _ = diesel::sql_query(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .execute(&mut conn);
        }
    }
}

/// The game as `api` may see it.
pub fn game(api: &Api, id: &str) -> Value {
    api.get(&format!("/api/v1/games/{id}")).ok().clone()
}

/// One random move chosen from what the awaited player is served.
pub struct Step {
    /// The seat index (into `players`) that moved.
    pub who: usize,
    pub expected: i64,
    pub action: Action,
    /// The move's 200 response.
    pub outcome: Value,
}

/// Plays random moves until the game ends or `max_moves` were made,
/// calling `each` after every applied move; returns the number made.
pub fn play_with(
    players: [&Api; 2],
    id: &str,
    seed: u64,
    max_moves: usize,
    each: impl FnMut(&Step),
) -> usize {
    play_with_policy(players, id, seed, max_moves, choose, each)
}

/// `play_with`, choosing each move with `policy` (e.g. one that favours
/// some actions) instead of uniformly.
pub fn play_with_policy(
    players: [&Api; 2],
    id: &str,
    seed: u64,
    max_moves: usize,
    mut policy: impl FnMut(&Value, &[LegalAction], &mut GameRng) -> Action,
    mut each: impl FnMut(&Step),
) -> usize {
    let mut rng = GameRng::from_seed(seed);
    let mut moves = 0;
    while moves < max_moves {
        let views = [game(players[0], id), game(players[1], id)];
        if views[0]["status"] != "active" {
            return moves;
        }
        let Some(who) = (0..2).find(|&i| views[i]["awaiting_you"] == true) else {
            panic!("nobody is awaited: {}", views[0]);
        };
        let v = &views[who];
        let legal: Vec<LegalAction> = serde_json::from_value(v["legal_actions"].clone()).unwrap();
        assert!(!legal.is_empty(), "awaited without legal actions");
        let action = policy(&v["view"], &legal, &mut rng);
        let expected = v["move_number"].as_i64().unwrap();
        let r = players[who].submit(id, expected, &serde_json::to_value(&action).unwrap());
        if r.status == 422 && r.body["reason"]["code"] == "bank_shortage" {
            continue;
        }
        let out = r.ok();
        // One row for the move, one per automated step after it.
        assert!(
            out["move_number"].as_i64().unwrap() > expected,
            "move number did not advance: {out}"
        );
        moves += 1;
        each(&Step {
            who,
            expected,
            action,
            outcome: out.clone(),
        });
        assert!(moves < 20_000, "game does not end");
    }
    moves
}

/// Plays until the game ends or `max_moves` were made; returns the number made.
pub fn play_moves(players: [&Api; 2], id: &str, seed: u64, max_moves: usize) -> usize {
    play_with(players, id, seed, max_moves, |_| {})
}

/// Plays until the game ends; returns the number of moves made.
pub fn play_out(players: [&Api; 2], id: &str, seed: u64) -> usize {
    play_moves(players, id, seed, usize::MAX)
}

/// Makes the user an admin and returns a client with a fresh (admin) token.
pub fn promote_admin(server: &TestServer, api: &Api, user_id: i64, email: &str) -> Api {
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    hexpost::store::users::set_admin(&mut conn, user_id, true).unwrap();
    let r = api.post(
        "/api/v1/auth/token",
        &json!({"email": email, "password": "correct horse battery"}),
    );
    api.with_token(r.ok()["access_token"].as_str().unwrap())
}

/// Registers `name` and makes them an admin: (client, user id).
pub fn register_admin(server: &TestServer, name: &str) -> (Api, i64) {
    let api = server.client();
    let (user, id) = api.register(name);
    (
        promote_admin(server, &user, id, &format!("{name}@example.org")),
        id,
    )
}

/// Waits for the mail files of `server` (no SMTP_URL: mails are files) to hold a link with a sign-in
/// code to `game`, sent to `to`; returns the code.
pub fn mailed_sign_in_code(server: &TestServer, game: &str, to: &str) -> String {
    let dir = server.data_dir.join("mail");
    let start = std::time::Instant::now();
    loop {
        let files: Vec<_> = std::fs::read_dir(&dir)
            .map(|d| d.flatten().map(|e| e.path()).collect())
            .unwrap_or_default();
        for file in files {
            let eml = std::fs::read_to_string(&file).unwrap_or_default();
            // Quoted-printable soft breaks and `=` may split the link.
            let eml = eml
                .replace("=\r\n", "")
                .replace("=\n", "")
                .replace("=3D", "=");
            if !eml.contains(&format!("To: {to}")) {
                continue;
            }
            let link = format!("/games/{game}#sign-in=");
            if let Some(at) = eml.find(&link) {
                return eml[at + link.len()..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-' || *c == '_')
                    .collect();
            }
        }
        assert!(
            start.elapsed().as_secs() < 30,
            "no sign-in link to {game} for {to} under {}",
            dir.display()
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
}

/// The value of the sample `name` whose labels include every one of
/// `labels`, if the metrics text has it.
pub fn metric_sample(text: &str, name: &str, labels: &[(&str, &str)]) -> Option<f64> {
    text.lines().find_map(|line| {
        let (series, value) = line.rsplit_once(' ')?;
        let (metric, rest) = match series.split_once('{') {
            Some((m, rest)) => (m, rest),
            None => (series, ""),
        };
        let wanted = labels
            .iter()
            .all(|(k, v)| rest.contains(&format!("{k}=\"{v}\"")));
        (metric == name && wanted).then(|| value.parse().ok())?
    })
}

/// A log row's committed-scheme hash, computed from what the row serves
/// a reader as a client would (docs/architecture.md, "The log's hash
/// chain"): SHA-256 of the canonical JSON array of its plain fields and
/// its public skeleton.
pub fn served_hash(game_id: &str, row: &Value) -> String {
    use sha2::Digest;
    let p = &row["public"];
    let canonical = json!([
        "hexpost-row-v1",
        game_id,
        row["seq"],
        p["prev"],
        row["actor"],
        row["seat"],
        row["user_id"],
        p["action"],
        p["jws"],
        p["events"],
        row["state_hash"],
        row["created_at"]
    ]);
    hex::encode(sha2::Sha256::digest(canonical.to_string().as_bytes()))
}

/// SHA-256(salt ‖ canonical JSON of `part`), the commitment a salt opens.
pub fn opened(salt_hex: &str, part: &Value) -> String {
    use sha2::Digest;
    let mut h = sha2::Sha256::new();
    h.update(hex::decode(salt_hex).expect("a salt is hex"));
    h.update(part.to_string().as_bytes());
    hex::encode(h.finalize())
}

/// Checks a served row of the committed scheme as its reader can: its
/// hash from what it shows, every part its salts open against its
/// commitment, and every part in clear against what it shows. Returns how
/// many commitments the reader could not open.
pub fn check_served_row(game_id: &str, row: &Value) -> usize {
    assert_eq!(row["scheme"], "committed", "{row}");
    let public = &row["public"];
    assert_eq!(
        row["hash"].as_str(),
        Some(served_hash(game_id, row).as_str()),
        "the hash does not follow from what is served: {row}"
    );
    let salts = row["salts"].as_object().expect("salts");
    let mut closed = 0;
    let mut part = |label: String, committed: &Value, shown: &Value| {
        match (committed.get("commit"), salts.get(&label)) {
            (Some(c), Some(salt)) => assert_eq!(
                c.as_str(),
                Some(opened(salt.as_str().unwrap(), shown).as_str()),
                "{label} does not open: {row}"
            ),
            (Some(_), None) => {
                // What a reader may not open, they see as a spectator does.
                if label.starts_with("event:") {
                    assert_eq!(&committed["hidden"], shown, "{label}: {row}");
                }
                closed += 1;
            }
            (None, salt) => {
                assert!(salt.is_none(), "a salt for {label}, which is in clear");
                assert_eq!(committed, shown, "{label}: {row}");
            }
        }
    };
    part("prev".into(), &public["prev"], &row["prev_hash"]);
    part("action".into(), &public["action"], &row["action"]);
    part("jws".into(), &public["jws"], &row["jws"]);
    let events = row["events"].as_array().unwrap();
    let committed = public["events"].as_array().unwrap();
    assert_eq!(events.len(), committed.len(), "{row}");
    for (i, (c, e)) in committed.iter().zip(events).enumerate() {
        part(format!("event:{i}"), c, e);
    }
    closed
}
