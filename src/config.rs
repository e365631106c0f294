//! Typed configuration from environment variables, handed to the app as
//! data. Every variable has a default that runs out of the box; the README
//! and `.env.example` document each one.

use std::net::SocketAddr;
use std::path::PathBuf;

#[derive(Clone, Debug)]
pub struct Config {
    /// `postgres://…` or `sqlite://path`.
    pub database_url: String,
    pub database_pool_size: u32,
    /// How long a request waits for a pooled connection before it gets
    /// 503 (the database is down, or every connection busy).
    pub database_checkout_timeout: std::time::Duration,
    /// How many games an instance keeps as it last wrote them, so that the
    /// next move of one needs no read (`service::game_cache`); 0 = none.
    pub game_cache_size: usize,
    /// Invitations one account may send in a day to addresses that have
    /// no account (`INVITATIONS_PER_DAY`); 0 sets no bound.
    pub invitations_per_day: i64,
    pub bind: SocketAddr,
    /// Where links in mails and the API point to.
    pub public_base_url: String,
    /// Signing keys for access tokens, newest first: (key id, secret).
    /// The first signs; all verify, so a key can be rotated out gently.
    pub jwt_keys: Vec<(String, Vec<u8>)>,
    /// The `iss` of access tokens: issued with it, and required of them.
    pub jwt_issuer: String,
    pub jwt_audience: String,
    pub access_token_ttl_secs: u64,
    /// Origins allowed to call the API from a browser; empty = none.
    pub cors_origins: Vec<String>,
    pub body_limit_bytes: usize,
    /// How long a client may take to send a request's head, and then its
    /// body.
    pub request_read_timeout: std::time::Duration,
    /// Connections this instance holds open at most; past it, new ones
    /// wait in the kernel's queue until one closes.
    pub max_connections: usize,
    /// How long an idle connection is kept for the client's next request;
    /// None: every connection serves one request.
    pub keep_alive: Option<std::time::Duration>,
    pub login_rate_per_minute: u32,
    pub move_rate_per_minute: u32,
    pub log_json: bool,
    /// Directory for the SQLite file and other local state.
    pub data_dir: PathBuf,
    /// When set, `GET /metrics` needs it as a bearer token.
    pub metrics_token: Option<String>,
    pub mail: MailConfig,
    pub deadlines: DeadlineConfig,
    pub streams: StreamConfig,
    pub reply: ReplyConfig,
    pub sessions: SessionConfig,
    /// Reply mail coming in (`inbound::transport`).
    pub inbound: crate::inbound::transport::settings::InboundConfig,
}

/// Playing by replying to mails (`inbound`).
#[derive(Clone, Debug)]
pub struct ReplyConfig {
    /// The domain of the reply addresses (`move+<token>@REPLY_DOMAIN`),
    /// which the inbound listener takes recipients at; unset, mails carry
    /// no reply address and no transport may run.
    pub domain: Option<String>,
    /// How long a mail's reply address is accepted.
    pub token_ttl_secs: u64,
    /// Larger replies are refused unread.
    pub max_bytes: usize,
}

/// Sign-in sessions and mail sign-in links (`service::sessions`).
#[derive(Clone, Debug)]
pub struct SessionConfig {
    /// A session unused for this long ends (each refresh restarts it).
    pub idle: std::time::Duration,
    /// A session ends this long after its login, however often used.
    pub lifetime: std::time::Duration,
    /// How long the sign-in code of a game mail's link stays usable.
    pub mail_link: std::time::Duration,
}

/// The live event streams (`api::streams`).
#[derive(Clone, Debug)]
pub struct StreamConfig {
    /// A comment line this often keeps an idle stream open through
    /// proxies, and rechecks the log in case a signal was lost.
    pub heartbeat: std::time::Duration,
    /// Streams one account may hold open at once on this instance.
    pub per_user: usize,
    /// Streams this instance holds open at once, whoever holds them
    /// (`STREAMS_MAX`): below `HTTP_MAX_CONNECTIONS`, so that streams
    /// never take every connection from ordinary requests and health checks.
    pub max_total: usize,
}

/// The deadline sweeper's pace and when reminders go out.
#[derive(Clone, Debug)]
pub struct DeadlineConfig {
    pub sweep_interval_ms: u64,
    /// A reminder goes out when this percentage of a decision's time is
    /// left; 0 sends none.
    pub reminder_percent: u32,
    pub turn_mail: TurnMailPacing,
}

/// How "your move" mails that follow a withdrawn question are paced
/// (`service::deadlines::TurnMail::pace`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TurnMailPacing {
    /// `TURN_MAIL_FOLLOW_UP_SECS`: such a mail goes out no sooner than
    /// this after the one before it.
    pub follow_up_ms: i64,
    /// `TURN_MAIL_FOLLOW_UPS_PER_HOUR`: such mails of one game to one
    /// player in an hour at most; 0 sets no bound.
    pub follow_ups_per_hour: i64,
}

impl Default for TurnMailPacing {
    fn default() -> Self {
        TurnMailPacing {
            follow_up_ms: 600_000,
            follow_ups_per_hour: 4,
        }
    }
}

/// Sending mail, and the outbox worker's pace.
#[derive(Clone, Debug)]
pub struct MailConfig {
    /// `smtps://…`, `smtp://…?tls=starttls` or plain `smtp://…`; None
    /// writes each message as an .eml file under `data_dir/mail`.
    pub smtp_url: Option<String>,
    pub from: lettre::message::Mailbox,
    /// Refuse to serve without SMTP (a production guard against mails
    /// silently piling up as files).
    pub required: bool,
    pub smtp_timeout_secs: u64,
    pub poll_interval_ms: u64,
    /// The first retry waits this long; each further one twice as long.
    pub backoff_base_ms: u64,
    /// Attempts before a mail is marked failed for an admin to retry.
    pub max_attempts: u32,
}

#[derive(Debug, thiserror::Error)]
#[error("configuration: {var}: {reason}")]
pub struct ConfigError {
    pub var: &'static str,
    pub reason: String,
}

/// Reads variables through a lookup function so tests need not touch the
/// process environment.
pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
    let data_dir = PathBuf::from(get("HEXPOST_DATA_DIR").unwrap_or_else(|| "data".into()));
    let database_url = get("DATABASE_URL")
        .unwrap_or_else(|| format!("sqlite://{}/hexpost.db", data_dir.display()));
    if !(database_url.starts_with("postgres://")
        || database_url.starts_with("postgresql://")
        || database_url.starts_with("sqlite://"))
    {
        return Err(ConfigError {
            var: "DATABASE_URL",
            reason: "must start with postgres://, postgresql:// or sqlite://".into(),
        });
    }
    let num = |var: &'static str, default: u64| -> Result<u64, ConfigError> {
        match get(var) {
            None => Ok(default),
            Some(v) => v.trim().parse().map_err(|_| ConfigError {
                var,
                reason: format!("`{v}` is not a whole number"),
            }),
        }
    };
    let bind = bind_from_lookup(&get)?;
    let mail = mail_config(&get, &num)?;
    let reply_domain = get("REPLY_DOMAIN")
        .map(|d| d.trim().trim_start_matches('@').to_ascii_lowercase())
        .filter(|d| !d.is_empty());
    let inbound =
        crate::inbound::transport::settings::from_lookup(&get, &num, reply_domain.as_deref())?;
    let reminder_percent = num("DEADLINE_REMINDER_PERCENT", 25)?;
    if reminder_percent > 99 {
        return Err(ConfigError {
            var: "DEADLINE_REMINDER_PERCENT",
            reason: "must be 0 (no reminders) to 99".into(),
        });
    }
    let deadlines = DeadlineConfig {
        sweep_interval_ms: num("DEADLINE_SWEEP_INTERVAL_MS", 30_000)?.max(10),
        reminder_percent: reminder_percent as u32,
        turn_mail: TurnMailPacing {
            follow_up_ms: num("TURN_MAIL_FOLLOW_UP_SECS", 600)?.saturating_mul(1000) as i64,
            follow_ups_per_hour: num("TURN_MAIL_FOLLOW_UPS_PER_HOUR", 4)? as i64,
        },
    };
    let max_connections = num("HTTP_MAX_CONNECTIONS", 4096)?.max(2) as usize;
    let streams_max = num("STREAMS_MAX", (max_connections / 2) as u64)? as usize;
    if streams_max == 0 || streams_max >= max_connections {
        return Err(ConfigError {
            var: "STREAMS_MAX",
            reason: format!(
                "must be 1 to {} (below HTTP_MAX_CONNECTIONS, so that streams leave connections for requests)",
                max_connections - 1
            ),
        });
    }
    let jwt_keys = match get("JWT_KEYS") {
        Some(text) => parse_keys(&text)?,
        None => vec![("local".to_string(), local_secret(&data_dir)?)],
    };
    Ok(Config {
        database_pool_size: num("DATABASE_POOL_SIZE", 10)? as u32,
        database_checkout_timeout: std::time::Duration::from_millis(
            num("DATABASE_CHECKOUT_TIMEOUT_MS", 2000)?.max(1),
        ),
        public_base_url: get("PUBLIC_BASE_URL")
            .unwrap_or_else(|| format!("http://{bind}"))
            .trim_end_matches('/')
            .to_string(),
        jwt_issuer: get("JWT_ISSUER").unwrap_or_else(|| "hexpost".into()),
        jwt_audience: get("JWT_AUDIENCE").unwrap_or_else(|| "hexpost".into()),
        access_token_ttl_secs: num("ACCESS_TOKEN_TTL_SECS", 3600)?,
        cors_origins: get("CORS_ALLOWED_ORIGINS")
            .map(|v| {
                v.split(',')
                    .map(|s| s.trim().to_string())
                    .filter(|s| !s.is_empty())
                    .collect()
            })
            .unwrap_or_default(),
        body_limit_bytes: num("BODY_LIMIT_BYTES", 64 * 1024)? as usize,
        request_read_timeout: std::time::Duration::from_secs(
            num("REQUEST_READ_TIMEOUT_SECS", 10)?.max(1),
        ),
        max_connections,
        keep_alive: Some(num("HTTP_KEEP_ALIVE_SECS", 5)?)
            .filter(|secs| *secs > 0)
            .map(std::time::Duration::from_secs),
        login_rate_per_minute: num("RATE_LIMIT_LOGIN_PER_MINUTE", 10)? as u32,
        move_rate_per_minute: num("RATE_LIMIT_MOVES_PER_MINUTE", 120)? as u32,
        game_cache_size: num("GAME_CACHE_SIZE", 1000)? as usize,
        invitations_per_day: num("INVITATIONS_PER_DAY", 10)? as i64,
        streams: StreamConfig {
            heartbeat: std::time::Duration::from_secs(num("STREAM_HEARTBEAT_SECS", 20)?.max(1)),
            per_user: num("STREAMS_PER_USER", 8)? as usize,
            max_total: streams_max,
        },
        reply: ReplyConfig {
            domain: reply_domain,
            token_ttl_secs: num("REPLY_TOKEN_TTL_SECS", 30 * 24 * 3600)?.max(60),
            max_bytes: num("REPLY_MAX_BYTES", 256 * 1024)?.max(1024) as usize,
        },
        sessions: SessionConfig {
            idle: days(num("SESSION_IDLE_DAYS", 30)?.max(1)),
            lifetime: days(num("SESSION_LIFETIME_DAYS", 90)?.max(1)),
            mail_link: std::time::Duration::from_secs(3600 * num("MAIL_SIGN_IN_HOURS", 72)?),
        },
        log_json: get("LOG_FORMAT").is_some_and(|v| v.eq_ignore_ascii_case("json")),
        metrics_token: get("METRICS_TOKEN"),
        database_url,
        bind,
        jwt_keys,
        data_dir,
        mail,
        inbound,
        deadlines,
    })
}

fn mail_config(
    get: &impl Fn(&str) -> Option<String>,
    num: &impl Fn(&'static str, u64) -> Result<u64, ConfigError>,
) -> Result<MailConfig, ConfigError> {
    let smtp_url = get("SMTP_URL");
    if let Some(url) = &smtp_url {
        crate::mail::smtp::SmtpServer::from_url(url, 1).map_err(|reason| ConfigError {
            var: "SMTP_URL",
            reason,
        })?;
    }
    let from_text = get("MAIL_FROM").unwrap_or_else(|| "hexpost <hexpost@localhost>".into());
    let from = from_text.parse().map_err(|e| ConfigError {
        var: "MAIL_FROM",
        reason: format!("`{from_text}` is not a mail address: {e}"),
    })?;
    let required = match get("MAIL_REQUIRED").as_deref().map(str::trim) {
        None | Some("false") | Some("0") => false,
        Some("true") | Some("1") => true,
        Some(other) => {
            return Err(ConfigError {
                var: "MAIL_REQUIRED",
                reason: format!("`{other}` is not true or false"),
            });
        }
    };
    let max_attempts = num("MAIL_MAX_ATTEMPTS", 8)?;
    if max_attempts == 0 {
        return Err(ConfigError {
            var: "MAIL_MAX_ATTEMPTS",
            reason: "at least one attempt is needed".into(),
        });
    }
    Ok(MailConfig {
        smtp_url,
        from,
        required,
        smtp_timeout_secs: num("SMTP_TIMEOUT_SECS", 30)?.max(1),
        poll_interval_ms: num("MAIL_POLL_INTERVAL_MS", 5000)?.max(10),
        backoff_base_ms: num("MAIL_BACKOFF_BASE_MS", 60_000)?,
        max_attempts: max_attempts.min(u32::MAX as u64) as u32,
    })
}

/// A variable of the process environment; set but empty counts as unset.
pub fn env_var(name: &str) -> Option<String> {
    std::env::var(name).ok().filter(|v| !v.is_empty())
}

/// `HEXPOST_BIND` alone, for `hexpost healthcheck`: a full load could
/// create the data directory and a token key, which a probe must not do.
pub fn bind_from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<SocketAddr, ConfigError> {
    let text = get("HEXPOST_BIND").unwrap_or_else(|| "127.0.0.1:8080".into());
    text.parse().map_err(|_| ConfigError {
        var: "HEXPOST_BIND",
        reason: format!("`{text}` is not an address:port"),
    })
}

impl Config {
    pub fn from_env() -> Result<Config, ConfigError> {
        from_lookup(env_var)
    }

    pub fn is_postgres(&self) -> bool {
        !self.database_url.starts_with("sqlite://")
    }
}

/// `kid:secret,kid:secret` with secrets of at least 32 bytes.
fn days(n: u64) -> std::time::Duration {
    std::time::Duration::from_secs(n * 86_400)
}

fn parse_keys(text: &str) -> Result<Vec<(String, Vec<u8>)>, ConfigError> {
    let mut keys = Vec::new();
    for part in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
        let Some((kid, secret)) = part.split_once(':') else {
            return Err(ConfigError {
                var: "JWT_KEYS",
                reason: "expected kid:secret[,kid:secret…]".into(),
            });
        };
        if secret.len() < 32 {
            return Err(ConfigError {
                var: "JWT_KEYS",
                reason: format!("the secret of key `{kid}` is shorter than 32 bytes"),
            });
        }
        keys.push((kid.to_string(), secret.as_bytes().to_vec()));
    }
    if keys.is_empty() {
        return Err(ConfigError {
            var: "JWT_KEYS",
            reason: "no key given".into(),
        });
    }
    Ok(keys)
}

/// With no keys configured, a random secret is created once under the data
/// directory, so tokens survive restarts of a single local instance.
/// Several instances must share `JWT_KEYS` instead.
fn local_secret(data_dir: &std::path::Path) -> Result<Vec<u8>, ConfigError> {
    use rand::RngExt;
    let path = data_dir.join("jwt-secret");
    let err = |reason: String| ConfigError {
        var: "JWT_KEYS",
        reason,
    };
    let stored = |text: String| {
        let key = text.trim();
        if key.len() < 32 {
            return Err(err(format!(
                "{} holds no usable key; delete it to make a new one, or set JWT_KEYS",
                path.display()
            )));
        }
        Ok(key.as_bytes().to_vec())
    };
    if let Ok(text) = std::fs::read_to_string(&path) {
        crate::private_files::narrow(&path)
            .map_err(|e| err(format!("cannot make {} private: {e}", path.display())))?;
        return stored(text);
    }
    crate::private_files::create_dir(data_dir)
        .map_err(|e| err(format!("cannot create {}: {e}", data_dir.display())))?;
    let bytes: [u8; 32] = rand::rng().random();
    let secret = hex::encode(bytes);
    // Written aside and then linked into place, so that a process starting
    // at the same moment never reads a half-written key, and the first
    // process to publish its key is the one every other process uses.
    let tmp = data_dir.join(format!("jwt-secret.{}.tmp", &secret[..16]));
    crate::private_files::write(&tmp, secret.as_bytes())
        .map_err(|e| err(format!("cannot write {}: {e}", tmp.display())))?;
    let published = std::fs::hard_link(&tmp, &path).or_else(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => Ok(()),
        // A file system without hard links: replace atomically instead.
        _ => std::fs::rename(&tmp, &path),
    });
    let _ = std::fs::remove_file(&tmp);
    published.map_err(|e| err(format!("cannot write {}: {e}", path.display())))?;
    stored(
        std::fs::read_to_string(&path)
            .map_err(|e| err(format!("cannot read {}: {e}", path.display())))?,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn cfg(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        let dir = std::env::temp_dir().join(format!("hexpost-cfg-{}", std::process::id()));
        let mut m: HashMap<String, String> = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        m.entry("HEXPOST_DATA_DIR".into())
            .or_insert(dir.display().to_string());
        from_lookup(|k| m.get(k).cloned())
    }

    #[test]
    fn defaults_run_out_of_the_box() {
        let c = cfg(&[]).unwrap();
        assert!(c.database_url.starts_with("sqlite://") && c.database_url.ends_with("/hexpost.db"));
        assert_eq!(c.bind.to_string(), "127.0.0.1:8080");
        assert_eq!(c.public_base_url, "http://127.0.0.1:8080");
        assert_eq!(c.jwt_keys.len(), 1);
        assert!(c.mail.smtp_url.is_none() && !c.mail.required);
        assert_eq!(c.deadlines.reminder_percent, 25);
        assert_eq!(c.deadlines.sweep_interval_ms, 30_000);
        // The generated secret is stable across loads.
        assert_eq!(cfg(&[]).unwrap().jwt_keys, c.jwt_keys);
    }

    #[test]
    fn bad_values_name_the_variable() {
        assert_eq!(
            cfg(&[("DATABASE_URL", "mysql://x")]).unwrap_err().var,
            "DATABASE_URL"
        );
        assert_eq!(
            cfg(&[("HEXPOST_BIND", "nowhere")]).unwrap_err().var,
            "HEXPOST_BIND"
        );
        assert_eq!(cfg(&[("JWT_KEYS", "k:short")]).unwrap_err().var, "JWT_KEYS");
        assert_eq!(
            cfg(&[("BODY_LIMIT_BYTES", "lots")]).unwrap_err().var,
            "BODY_LIMIT_BYTES"
        );
        for (var, value) in [
            ("SMTP_URL", "http://mail.example.org"),
            ("SMTP_URL", "smtp://mail.example.org?tls=sometimes"),
            ("MAIL_FROM", "not an address"),
            ("MAIL_REQUIRED", "maybe"),
            ("DEADLINE_REMINDER_PERCENT", "100"),
            ("DEADLINE_SWEEP_INTERVAL_MS", "soon"),
            ("MAIL_MAX_ATTEMPTS", "0"),
            ("MAIL_POLL_INTERVAL_MS", "soon"),
        ] {
            assert_eq!(cfg(&[(var, value)]).unwrap_err().var, var, "{value}");
        }
        for url in [
            "smtps://user:secret@mail.example.org",
            "smtp://mail.example.org:587?tls=starttls",
            "smtp://127.0.0.1:2525",
        ] {
            assert_eq!(
                cfg(&[("SMTP_URL", url)]).unwrap().mail.smtp_url.as_deref(),
                Some(url)
            );
        }
        let c = cfg(&[(
            "JWT_KEYS",
            "new:0123456789abcdef0123456789abcdef,old:fedcba9876543210fedcba9876543210",
        )])
        .unwrap();
        assert_eq!(c.jwt_keys[0].0, "new");
        assert_eq!(c.jwt_keys.len(), 2);
    }

    #[test]
    fn processes_starting_together_share_one_generated_key() {
        let dir = std::env::temp_dir().join(format!("hexpost-key-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let keys: Vec<Vec<u8>> = std::thread::scope(|s| {
            let starts: Vec<_> = (0..8).map(|_| s.spawn(|| local_secret(&dir))).collect();
            starts
                .into_iter()
                .map(|t| t.join().unwrap().unwrap())
                .collect()
        });
        assert!(keys.iter().all(|k| k == &keys[0] && k.len() == 64));
        // Only the server's user may read the key: it mints admin tokens.
        use std::os::unix::fs::PermissionsExt;
        let mode = |p: &std::path::Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir), 0o700);
        assert_eq!(mode(&dir.join("jwt-secret")), 0o600);
        // One an older release left readable is narrowed when it is read.
        let loose = std::fs::Permissions::from_mode(0o644);
        std::fs::set_permissions(dir.join("jwt-secret"), loose).unwrap();
        assert_eq!(local_secret(&dir).unwrap(), keys[0]);
        assert_eq!(mode(&dir.join("jwt-secret")), 0o600);
        std::fs::write(dir.join("jwt-secret"), "").unwrap();
        assert_eq!(local_secret(&dir).unwrap_err().var, "JWT_KEYS");
        let _ = std::fs::remove_dir_all(&dir);
    }
}
