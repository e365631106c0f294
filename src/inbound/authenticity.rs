//! Whether a reply really comes from the domain in its `From:`.
//!
//! A reply address's token says which account a reply may come from, and
//! the `From:` says who claims to send it; neither stops a forger who knows
//! the address. DKIM does: a reply is taken as authentic when a DKIM
//! signature of the `From:` domain (relaxed alignment, as DMARC defines
//! it) verifies. The domain's DMARC record is evaluated as well and
//! reported. SPF is left to the MTA, the only party that sees the
//! connecting address.
//!
//! With `INBOUND_VERIFY=auto` an `Authentication-Results` header added by
//! our own MTA (its authserv-id is `INBOUND_TRUSTED_AUTHSERV_ID`) is
//! trusted instead of checking again; the MTA must remove any header with
//! that id arriving from outside, as RFC 8601 §5 asks of it.

use std::borrow::Borrow;
use std::collections::HashMap;
use std::hash::Hash;
use std::net::SocketAddr;
use std::sync::Mutex;
use std::time::Instant;

use super::header_block;
use mail_auth::common::parse::TxtRecordParser;
use mail_auth::common::verify::DomainKey;
use mail_auth::dmarc::Dmarc;
use mail_auth::dmarc::verify::DmarcParameters;
use mail_auth::hickory_resolver::config::{
    ConnectionConfig, NameServerConfig, ResolverConfig, ResolverOpts,
};
use mail_auth::{
    AuthenticatedMessage, DkimResult, DmarcResult, MessageAuthenticator, Parameters, ResolverCache,
    SpfOutput, Txt,
};
use mail_parser::{Message, MessageParser};

/// `INBOUND_VERIFY`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VerifyMode {
    /// Trust our MTA's `Authentication-Results` where present, else check.
    Auto,
    /// Always check here.
    On,
    /// Take the `From:` as it is (for an MTA that refuses unauthenticated
    /// mail itself and adds no header we could read).
    Off,
}

impl std::str::FromStr for VerifyMode {
    type Err = String;
    fn from_str(text: &str) -> Result<Self, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "auto" => Ok(VerifyMode::Auto),
            "on" => Ok(VerifyMode::On),
            "off" => Ok(VerifyMode::Off),
            other => Err(format!("`{other}` is not auto, on or off")),
        }
    }
}

/// The outcome of a check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The `From:` domain is vouched for: by a signature verified here, or
    /// by our MTA's header.
    Authentic { domain: String, by: Voucher },
    /// Checks are off.
    Unchecked,
    /// The sender could not be shown to be who the `From:` says; `reason`
    /// is for the admin's record.
    Doubtful { reason: String },
    /// No answer either way now (a name server did not answer): the
    /// message is worth delivering again later.
    Unavailable { reason: String },
}

impl Verdict {
    /// Whether a reply with this verdict may change a game.
    pub fn accepts(&self) -> bool {
        matches!(self, Verdict::Authentic { .. } | Verdict::Unchecked)
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Voucher {
    /// A DKIM signature of the domain, with the DMARC result beside it.
    Dkim { dmarc: String },
    /// Our MTA's `Authentication-Results`.
    TrustedHeader,
}

/// The check, with its DNS resolver; made once and shared.
pub struct Authenticity {
    mode: VerifyMode,
    trusted_authserv_id: Option<String>,
    /// Why there is none, when the resolver could not be made: every check
    /// that needs it is then `Unavailable`, so no reply is lost or let in.
    authenticator: Result<MessageAuthenticator, String>,
    records: KnownRecords,
}

impl Authenticity {
    /// Looks keys and policies up with the system's resolver.
    pub fn new(mode: VerifyMode, trusted_authserv_id: Option<String>) -> Result<Self, String> {
        Self::with_name_servers(mode, trusted_authserv_id, &[])
    }

    /// Looks keys and policies up at `name_servers` (UDP, then TCP), or
    /// with the system's resolver when there are none.
    pub fn with_name_servers(
        mode: VerifyMode,
        trusted_authserv_id: Option<String>,
        name_servers: &[SocketAddr],
    ) -> Result<Self, String> {
        let authenticator = if name_servers.is_empty() {
            MessageAuthenticator::new_system_conf()
        } else {
            MessageAuthenticator::new(
                ResolverConfig::from_name_servers(
                    name_servers.iter().map(|addr| name_server(*addr)).collect(),
                ),
                ResolverOpts::default(),
            )
        };
        Ok(Authenticity {
            mode,
            trusted_authserv_id,
            authenticator: Ok(authenticator.map_err(|e| e.to_string())?),
            records: KnownRecords::default(),
        })
    }

    /// The check `serve` and `mail receive` run with their settings; a
    /// resolver that cannot be made is logged, and defers every reply
    /// that needs it rather than stopping the server.
    pub fn from_settings(
        mode: VerifyMode,
        trusted_authserv_id: Option<String>,
        name_servers: &[SocketAddr],
    ) -> Self {
        Self::with_name_servers(mode, trusted_authserv_id.clone(), name_servers).unwrap_or_else(
            |reason| {
                tracing::error!(%reason, "no DNS resolver for the sender check of replies");
                Authenticity {
                    mode,
                    trusted_authserv_id,
                    authenticator: Err(reason),
                    records: KnownRecords::default(),
                }
            },
        )
    }

    /// Knows only `records` (name, TXT text) and asks no name server: for
    /// tests, and for a deployment that pins its players' keys.
    pub fn with_records<'a>(
        mode: VerifyMode,
        trusted_authserv_id: Option<String>,
        records: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, String> {
        let no_servers = ResolverConfig::from_name_servers(Vec::new());
        let authenticator = MessageAuthenticator::new(no_servers, ResolverOpts::default())
            .map_err(|e| e.to_string())?;
        let known = KnownRecords::default();
        for (name, text) in records {
            known.add(name, text)?;
        }
        Ok(Authenticity {
            mode,
            trusted_authserv_id,
            authenticator: Ok(authenticator),
            records: known,
        })
    }

    pub fn mode(&self) -> VerifyMode {
        self.mode
    }

    /// Checks a whole message `raw`: its header's shape
    /// (`header_block`), then its sender.
    pub async fn check(&self, raw: &[u8]) -> Verdict {
        if let Err(header_block::Malformed(reason)) = header_block::check(raw) {
            return Verdict::Doubtful { reason };
        }
        match MessageParser::default().parse(raw) {
            Some(message) => self.check_parsed(&message, raw).await,
            None => doubtful("the message's header could not be read"),
        }
    }

    /// Checks the sender of `message`, the one parse of `raw` (or of its
    /// header, which is a prefix of `raw`) that every later step reads
    /// too, so the signature is verified over the very `From:` the reply
    /// is taken from. `raw`'s header must have passed `header_block`.
    pub async fn check_parsed(&self, message: &Message<'_>, raw: &[u8]) -> Verdict {
        if self.mode == VerifyMode::Off {
            return Verdict::Unchecked;
        }
        let message = AuthenticatedMessage::from_parsed(message, raw, true);
        let Some(domain) = from_domain(&message) else {
            return doubtful("the message has no single From: address");
        };
        if self.mode == VerifyMode::Auto
            && let Some(id) = &self.trusted_authserv_id
            && let Some(verdict) = trusted_header(&message, id, &domain)
        {
            return verdict;
        }
        let authenticator = match &self.authenticator {
            Ok(authenticator) => authenticator,
            Err(reason) => {
                return Verdict::Unavailable {
                    reason: reason.clone(),
                };
            }
        };
        let dkim = authenticator
            .verify_dkim(Parameters::new(&message).with_txt_cache(&self.records))
            .await;
        let aligned = dkim.iter().any(|output| {
            output.result() == &DkimResult::Pass
                && output.signature().is_some_and(|s| aligned(&s.d, &domain))
        });
        let spf = SpfOutput::new(domain.clone());
        let dmarc = authenticator
            .verify_dmarc(
                Parameters::new(DmarcParameters {
                    message: &message,
                    dkim_output: &dkim,
                    dkim2_output: None,
                    rfc5321_mail_from_domain: &domain,
                    spf_output: &spf,
                })
                .with_txt_cache(&self.records),
            )
            .await;
        let dmarc = match dmarc.dkim_result() {
            DmarcResult::Pass => "pass".to_string(),
            DmarcResult::None => "none".to_string(),
            other => format!("{other:?}").to_lowercase(),
        };
        let unanswered = dkim
            .iter()
            .any(|output| matches!(output.result(), DkimResult::TempError(_)));
        if aligned {
            Verdict::Authentic {
                domain,
                by: Voucher::Dkim { dmarc },
            }
        } else if unanswered {
            Verdict::Unavailable {
                reason: format!("the DKIM key of {domain} could not be looked up now"),
            }
        } else {
            doubtful(&format!("no valid DKIM signature of {domain}"))
        }
    }
}

/// A name server at `addr`, asked over UDP and, for long answers, TCP.
fn name_server(addr: SocketAddr) -> NameServerConfig {
    let connections = [ConnectionConfig::udp(), ConnectionConfig::tcp()]
        .into_iter()
        .map(|mut connection| {
            connection.port = addr.port();
            connection
        })
        .collect();
    NameServerConfig::new(addr.ip(), true, connections)
}

fn doubtful(reason: &str) -> Verdict {
    Verdict::Doubtful {
        reason: reason.to_string(),
    }
}

fn from_domain(message: &AuthenticatedMessage<'_>) -> Option<String> {
    match message.from.as_slice() {
        [one] => one
            .rsplit_once('@')
            .map(|(_, domain)| domain.trim_end_matches('.').to_ascii_lowercase()),
        _ => None,
    }
}

/// Relaxed alignment: the signing domain is the `From:` domain or one of
/// its parents (a subdomain signing for its parent does not count).
fn aligned(signing: &str, from: &str) -> bool {
    let signing = signing.trim_end_matches('.').to_ascii_lowercase();
    signing == from || (signing.contains('.') && from.ends_with(&format!(".{signing}")))
}

/// Reads the topmost `Authentication-Results` with our MTA's id: DMARC
/// pass, or a DKIM pass of an aligned domain, vouches for the sender;
/// anything else is doubtful. None when our MTA added no such header.
fn trusted_header(message: &AuthenticatedMessage<'_>, id: &str, from: &str) -> Option<Verdict> {
    let text = message
        .headers
        .iter()
        .filter(|(name, _)| name.eq_ignore_ascii_case(b"Authentication-Results"))
        .map(|(_, value)| String::from_utf8_lossy(value).replace(['\r', '\n'], " "))
        .find(|value| {
            value
                .split(';')
                .next()
                .and_then(|first| first.split_whitespace().next())
                .is_some_and(|authserv| authserv.eq_ignore_ascii_case(id))
        })?;
    let results: Vec<Vec<&str>> = text
        .split(';')
        .skip(1)
        .map(|result| result.split_whitespace().collect())
        .collect();
    let passes = |method: &str| {
        let pass = format!("{method}=pass");
        results
            .iter()
            .filter(|words| words.first().is_some_and(|w| w.eq_ignore_ascii_case(&pass)))
            .cloned()
            .collect::<Vec<_>>()
    };
    let dmarc = passes("dmarc")
        .iter()
        .any(|words| property(words, "header.from").is_none_or(|d| d == from));
    let dkim = passes("dkim").iter().any(|words| {
        property(words, "header.d")
            .or_else(|| {
                property(words, "header.i").map(|i| i.rsplit('@').next().unwrap_or(&i).to_string())
            })
            .is_some_and(|d| aligned(&d, from))
    });
    Some(if dmarc || dkim {
        Verdict::Authentic {
            domain: from.to_string(),
            by: Voucher::TrustedHeader,
        }
    } else {
        doubtful(&format!("{id} did not find the sender authentic"))
    })
}

fn property(words: &[&str], name: &str) -> Option<String> {
    words.iter().find_map(|word| {
        let (key, value) = word.split_once('=')?;
        key.eq_ignore_ascii_case(name).then(|| {
            value
                .trim_matches('"')
                .trim_end_matches('.')
                .to_ascii_lowercase()
        })
    })
}

/// TXT records known in advance, by fully qualified name; consulted
/// before any name server, and never written to (a record looked up
/// live is not kept, so a rotated key takes effect at once).
#[derive(Default)]
struct KnownRecords(Mutex<HashMap<Box<str>, Txt>>);

impl KnownRecords {
    fn add(&self, name: &str, text: &str) -> Result<(), String> {
        let fqdn = format!("{}.", name.trim_end_matches('.')).to_ascii_lowercase();
        let record: Txt = if fqdn.starts_with("_dmarc.") {
            Dmarc::parse(text.as_bytes())
                .map_err(|e| format!("{name}: {e}"))?
                .into()
        } else {
            DomainKey::parse(text.as_bytes())
                .map_err(|e| format!("{name}: {e}"))?
                .into()
        };
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .insert(fqdn.into_boxed_str(), record);
        Ok(())
    }
}

impl ResolverCache<Box<str>, Txt> for KnownRecords {
    fn get<Q>(&self, name: &Q) -> Option<Txt>
    where
        Box<str>: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        self.0
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(name)
            .cloned()
    }

    fn remove<Q>(&self, _: &Q) -> Option<Txt>
    where
        Box<str>: Borrow<Q>,
        Q: Hash + Eq + ?Sized,
    {
        None
    }

    fn insert(&self, _: Box<str>, _: Txt, _: Instant) {}
}
