//! The transports' settings from the environment (`INBOUND_*`, `IMAP_*`);
//! both transports are off unless configured, and both need
//! `REPLY_DOMAIN`, the domain of the reply addresses the mails carry.

use std::net::SocketAddr;
use std::time::Duration;

use super::imap::ImapSettings;
use super::listener::{ListenerSettings, Protocol};
use crate::config::ConfigError;
use crate::inbound::authenticity::VerifyMode;

#[derive(Clone, Debug)]
pub struct InboundConfig {
    /// `INBOUND_LISTEN`: the SMTP/LMTP listener's address, when it runs.
    pub listen: Option<SocketAddr>,
    pub listener: ListenerSettings,
    /// `IMAP_URL`: the mailbox polled, when one is.
    pub imap: Option<ImapSettings>,
    pub verify: VerifyMode,
    pub trusted_authserv_id: Option<String>,
    /// `INBOUND_DNS_SERVERS`: where the sender check looks DKIM keys and
    /// DMARC policies up; empty, the system's resolver.
    pub dns_servers: Vec<SocketAddr>,
}

/// `reply_domain` is `REPLY_DOMAIN` as `config` read it: the one domain
/// of the reply addresses, which the listener takes recipients at.
pub fn from_lookup(
    get: &impl Fn(&str) -> Option<String>,
    num: &impl Fn(&'static str, u64) -> Result<u64, ConfigError>,
    reply_domain: Option<&str>,
) -> Result<InboundConfig, ConfigError> {
    let listen = get("INBOUND_LISTEN")
        .map(|text| {
            text.parse().map_err(|_| ConfigError {
                var: "INBOUND_LISTEN",
                reason: format!("`{text}` is not an address:port"),
            })
        })
        .transpose()?;
    let protocol = match get("INBOUND_PROTOCOL").as_deref().map(str::trim) {
        None | Some("smtp") => Protocol::Smtp,
        Some("lmtp") => Protocol::Lmtp,
        Some(other) => {
            return Err(ConfigError {
                var: "INBOUND_PROTOCOL",
                reason: format!("`{other}` is not smtp or lmtp"),
            });
        }
    };
    let imap = imap_settings(get, num)?;
    // Without reply addresses every reply would be refused: a transport
    // then only hides a mistake.
    if reply_domain.is_none() && (listen.is_some() || imap.is_some()) {
        return Err(ConfigError {
            var: "REPLY_DOMAIN",
            reason: "INBOUND_LISTEN and IMAP_URL need it: replies are taken only at reply addresses, which mails carry only with REPLY_DOMAIN set".into(),
        });
    }
    let reply_domain = reply_domain.unwrap_or_default().to_string();
    let listener = ListenerSettings {
        protocol,
        hostname: get("INBOUND_HOSTNAME")
            .unwrap_or_else(|| reply_domain.clone())
            .trim()
            .to_string(),
        reply_domain,
        max_message_bytes: num("INBOUND_MAX_MESSAGE_BYTES", 256 * 1024)?.max(1024) as usize,
        max_connections: num("INBOUND_MAX_CONNECTIONS", 64)?.max(1) as usize,
        idle_timeout: Duration::from_secs(num("INBOUND_TIMEOUT_SECS", 60)?.max(1)),
    };
    let verify = match get("INBOUND_VERIFY") {
        None => VerifyMode::Auto,
        Some(text) => text.parse().map_err(|reason| ConfigError {
            var: "INBOUND_VERIFY",
            reason,
        })?,
    };
    let dns_servers = get("INBOUND_DNS_SERVERS")
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(|text| {
            text.parse()
                .or_else(|_| text.parse().map(|ip| SocketAddr::new(ip, 53)))
                .map_err(|_| ConfigError {
                    var: "INBOUND_DNS_SERVERS",
                    reason: format!("`{text}` is not an address or address:port"),
                })
        })
        .collect::<Result<_, _>>()?;
    Ok(InboundConfig {
        imap,
        dns_servers,
        trusted_authserv_id: get("INBOUND_TRUSTED_AUTHSERV_ID"),
        listen,
        listener,
        verify,
    })
}

fn imap_settings(
    get: &impl Fn(&str) -> Option<String>,
    num: &impl Fn(&'static str, u64) -> Result<u64, ConfigError>,
) -> Result<Option<ImapSettings>, ConfigError> {
    let Some(text) = get("IMAP_URL") else {
        return Ok(None);
    };
    let url = url::Url::parse(&text)
        .ok()
        .filter(|url| matches!(url.scheme(), "imap" | "imaps") && url.host_str().is_some())
        .ok_or_else(|| ConfigError {
            var: "IMAP_URL",
            reason: format!("`{text}` is not imaps://host[:port] or imap://host[:port]"),
        })?;
    let user = get("IMAP_USER").ok_or_else(|| ConfigError {
        var: "IMAP_USER",
        reason: "needed with IMAP_URL".into(),
    })?;
    let password = match (get("IMAP_PASSWORD"), get("IMAP_PASSWORD_FILE")) {
        (Some(password), None) => password,
        (None, Some(path)) => std::fs::read_to_string(&path)
            .map(|text| text.trim_end_matches(['\r', '\n']).to_string())
            .map_err(|e| ConfigError {
                var: "IMAP_PASSWORD_FILE",
                reason: format!("{path}: {e}"),
            })?,
        (Some(_), Some(_)) => {
            return Err(ConfigError {
                var: "IMAP_PASSWORD",
                reason: "set IMAP_PASSWORD or IMAP_PASSWORD_FILE, not both".into(),
            });
        }
        (None, None) => {
            return Err(ConfigError {
                var: "IMAP_PASSWORD",
                reason: "needed with IMAP_URL (or IMAP_PASSWORD_FILE)".into(),
            });
        }
    };
    Ok(Some(ImapSettings {
        url,
        user,
        password,
        mailbox: get("IMAP_MAILBOX").unwrap_or_else(|| "INBOX".into()),
        processed_mailbox: get("IMAP_PROCESSED_MAILBOX")
            .unwrap_or_else(|| "hexpost-processed".into()),
        poll_interval: Duration::from_secs(num("IMAP_POLL_SECS", 60)?.max(1)),
        claim_timeout: super::imap::STALE_CLAIM,
    }))
}
