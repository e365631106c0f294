//! Polling an IMAP mailbox for reply mail, for self-hosters whose mail
//! lives at a provider.
//!
//! Each message is claimed before it is handed on, so that several
//! instances can poll one mailbox and each message is taken once. Where
//! the server offers CONDSTORE (RFC 7162) the claim is a keyword,
//! `$HexpostTaken`, stored with `UNCHANGEDSINCE` the message's
//! mod-sequence as this poller read it: of several pollers storing it at
//! once the server lets exactly one through and answers the others
//! `MODIFIED`, because the first store changed the mod-sequence the
//! others name. Only the poller whose store went through hands the
//! message on and then moves it to the processed mailbox. A `\Seen` flag
//! could not do that (two pollers can both see it unset and both set it),
//! nor can `UID MOVE` alone: Dovecot 2.3 answers a second session's move of
//! a message another session has just moved with a `COPYUID` too. Without
//! CONDSTORE the poller falls back to that move as its claim (`COPYUID`,
//! RFC 4315), right for one poller; the pipeline's Message-ID record still
//! applies a message once if two take it, though the processed mailbox may
//! then hold two copies of it (both moves reported success).
//!
//! A message whose claim stays in the mailbox for `claim_timeout` (its
//! poller died between the claim and the move) is released the same
//! conditional way and taken again; the pipeline's record makes that safe.
//!
//! Where the server advertises IDLE the poller waits in it between rounds
//! and wakes on new mail; otherwise it polls every `poll_interval`. A lost
//! connection is reopened with a growing pause, and nothing here ever
//! blocks the rest of `serve`.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::{Duration, Instant};

use async_imap::imap_proto::rfc4315::UidSetMember;
use async_imap::imap_proto::{AttributeValue, RequestId, Response, ResponseCode, Status};
use async_imap::types::Flag;
use futures_util::TryStreamExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

use super::{MessageSink, SinkError, outcome_name};
use crate::inbound::Via;
use crate::metrics::Metrics;
use crate::workers::Shutdown;

#[derive(Clone, Debug)]
pub struct ImapSettings {
    /// `imaps://host[:993]` (TLS) or `imap://host[:143]` (plain, for a
    /// server on the same host).
    pub url: url::Url,
    pub user: String,
    pub password: String,
    pub mailbox: String,
    /// Where taken messages are moved; created when missing.
    pub processed_mailbox: String,
    pub poll_interval: Duration,
    /// How long a claimed message may stay in the mailbox before its claim
    /// is taken for one whose poller died: far longer than handing a
    /// message on takes (`STALE_CLAIM`).
    pub claim_timeout: Duration,
}

/// The longest pause between two attempts to reach the server.
const MAX_BACKOFF: Duration = Duration::from_secs(300);

/// The keyword that claims a message for one poller.
const TAKEN: &str = "$HexpostTaken";

/// The default `claim_timeout`.
pub const STALE_CLAIM: Duration = Duration::from_secs(600);

pub trait Stream: AsyncRead + AsyncWrite + Unpin + Send + std::fmt::Debug {}
impl<T: AsyncRead + AsyncWrite + Unpin + Send + std::fmt::Debug> Stream for T {}

type Session = async_imap::Session<Box<dyn Stream>>;

#[derive(Debug, thiserror::Error)]
pub enum ImapError {
    #[error("IMAP: {0}")]
    Protocol(#[from] async_imap::error::Error),
    #[error("connecting: {0}")]
    Io(#[from] std::io::Error),
    #[error("{0}")]
    Setup(String),
}

/// How long connecting and logging in may take.
const CONNECT_TIMEOUT: Duration = Duration::from_secs(30);

/// Polls until `shutdown`, reconnecting whenever the server goes away. A
/// round that has begun is finished first, so no message is left between
/// its claim and its delivery.
pub async fn poll(
    settings: ImapSettings,
    sink: Arc<dyn MessageSink>,
    metrics: Arc<Metrics>,
    shutdown: Shutdown,
) {
    let mut backoff = Duration::from_secs(1);
    let taker = Taker {
        settings: &settings,
        sink: sink.as_ref(),
        metrics: &metrics,
    };
    while !shutdown.requested() {
        if let Err(e) = run_session(&taker, &shutdown, &mut backoff).await {
            tracing::warn!(error = %e, retry_in = ?backoff, "IMAP poller: connection lost");
            if !shutdown.sleep(backoff).await {
                return;
            }
            backoff = (backoff * 2).min(MAX_BACKOFF);
        }
    }
}

/// What one round needs.
struct Taker<'a> {
    settings: &'a ImapSettings,
    sink: &'a dyn MessageSink,
    metrics: &'a Metrics,
}

async fn run_session(
    taker: &Taker<'_>,
    shutdown: &Shutdown,
    backoff: &mut Duration,
) -> Result<(), ImapError> {
    let settings = taker.settings;
    let mut session = tokio::select! {
        _ = shutdown.wait() => return Ok(()),
        connected = tokio::time::timeout(CONNECT_TIMEOUT, connect(settings)) => {
            connected.map_err(|_| ImapError::Setup("no answer from the server".into()))??
        }
    };
    let capabilities = session.capabilities().await?;
    let idle = capabilities.has_str("IDLE");
    ensure_mailbox(&mut session, &settings.processed_mailbox).await?;
    let mut claims = if capabilities.has_str("CONDSTORE") {
        let mailbox = session.select_condstore(&settings.mailbox).await?;
        let keywords = mailbox
            .permanent_flags
            .iter()
            .any(|flag| matches!(flag, Flag::MayCreate) || *flag == Flag::Custom(TAKEN.into()));
        // A mailbox without mod-sequences (NOMODSEQ) or keywords cannot
        // hold the claim.
        (mailbox.highest_modseq.is_some() && keywords).then(HashMap::new)
    } else {
        session.select(&settings.mailbox).await?;
        None
    };
    *backoff = Duration::from_secs(1);
    loop {
        let deferred = match &mut claims {
            Some(seen) => take_marked(&mut session, taker, seen).await?,
            None => take_moved(&mut session, taker).await?,
        };
        if shutdown.requested() {
            let _ = session.logout().await;
            return Ok(());
        }
        // After a deferral the put-back message would wake IDLE at once.
        if idle && !deferred {
            let mut handle = session.idle();
            handle.init().await?;
            let (wait, _interrupt) = handle.wait_with_timeout(settings.poll_interval);
            tokio::select! {
                _ = shutdown.wait() => return Ok(()),
                woke = wait => { woke?; }
            }
            session = handle.done().await?;
        } else if !shutdown.sleep(settings.poll_interval).await {
            let _ = session.logout().await;
            return Ok(());
        }
    }
}

/// Opens an authenticated session (TLS for `imaps://`).
pub async fn connect(settings: &ImapSettings) -> Result<Session, ImapError> {
    let url = &settings.url;
    let host = url
        .host_str()
        .ok_or_else(|| ImapError::Setup("IMAP_URL has no host".into()))?;
    let tls = match url.scheme() {
        "imaps" => true,
        "imap" => false,
        other => return Err(ImapError::Setup(format!("unknown scheme {other}"))),
    };
    let port = url.port().unwrap_or(if tls { 993 } else { 143 });
    let tcp = TcpStream::connect((host, port)).await?;
    let stream: Box<dyn Stream> = if tls {
        Box::new(tls_connect(host, tcp).await?)
    } else {
        Box::new(tcp)
    };
    let mut client = async_imap::Client::new(stream);
    client
        .read_response()
        .await?
        .ok_or_else(|| ImapError::Setup("server closed before its greeting".into()))?;
    client
        .login(&settings.user, &settings.password)
        .await
        .map_err(|(e, _)| ImapError::Protocol(e))
}

async fn tls_connect(
    host: &str,
    tcp: TcpStream,
) -> std::io::Result<tokio_rustls::client::TlsStream<TcpStream>> {
    let roots = tokio_rustls::rustls::RootCertStore {
        roots: webpki_roots::TLS_SERVER_ROOTS.to_vec(),
    };
    let config = tokio_rustls::rustls::ClientConfig::builder()
        .with_root_certificates(roots)
        .with_no_client_auth();
    let name = tokio_rustls::rustls::pki_types::ServerName::try_from(host.to_string())
        .map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidInput, e))?;
    tokio_rustls::TlsConnector::from(Arc::new(config))
        .connect(name, tcp)
        .await
}

async fn ensure_mailbox(session: &mut Session, name: &str) -> Result<(), ImapError> {
    let exists = session
        .list(None, Some(name))
        .await?
        .try_collect::<Vec<_>>()
        .await?
        .iter()
        .any(|mailbox| mailbox.name() == name);
    if !exists {
        // Another instance may create it at the same moment; a failure here
        // is only real if the mailbox is still missing, which the first
        // move then reports.
        let _ = session.create(name).await;
    }
    Ok(())
}

/// A message of the selected mailbox as one round sees it.
struct Listed {
    uid: u32,
    modseq: u64,
    taken: bool,
}

async fn list(session: &mut Session) -> Result<Vec<Listed>, ImapError> {
    let mut uids: Vec<u32> = session.uid_search("ALL").await?.into_iter().collect();
    if uids.is_empty() {
        return Ok(Vec::new());
    }
    uids.sort_unstable();
    let set = uids
        .iter()
        .map(u32::to_string)
        .collect::<Vec<_>>()
        .join(",");
    let fetched: Vec<_> = session
        .uid_fetch(set, "(UID FLAGS MODSEQ)")
        .await?
        .try_collect()
        .await?;
    let mut listed: Vec<Listed> = fetched
        .iter()
        .filter_map(|m| {
            Some(Listed {
                uid: m.uid?,
                modseq: m.modseq?,
                taken: m.flags().any(|flag| flag == Flag::Custom(TAKEN.into())),
            })
        })
        .collect();
    listed.sort_by_key(|m| m.uid);
    Ok(listed)
}

/// One round with keyword claims: claims, hands on and files every message
/// of the selected mailbox no other poller holds; true when the sink
/// deferred one (its claim is withdrawn, so it waits for a later round).
/// `held` remembers since when each message claimed by another poller has
/// been seen, to release claims whose poller died.
async fn take_marked(
    session: &mut Session,
    taker: &Taker<'_>,
    held: &mut HashMap<u32, Instant>,
) -> Result<bool, ImapError> {
    let settings = taker.settings;
    let listed = list(session).await?;
    held.retain(|uid, _| listed.iter().any(|m| m.uid == *uid && m.taken));
    for message in listed {
        if message.taken {
            let since = *held.entry(message.uid).or_insert_with(Instant::now);
            if since.elapsed() >= settings.claim_timeout
                && conditional_store(session, message.uid, message.modseq, "-FLAGS").await?
            {
                tracing::warn!(
                    uid = message.uid,
                    "IMAP claim left by a stopped poller released"
                );
                held.remove(&message.uid);
            }
            continue;
        }
        if !conditional_store(session, message.uid, message.modseq, "+FLAGS").await? {
            continue;
        }
        let Some(raw) = fetch(session, message.uid).await? else {
            continue;
        };
        let uid = message.uid.to_string();
        match hand_on(taker, raw).await {
            Handed::Filed => {
                session.uid_mv(&uid, &settings.processed_mailbox).await?;
            }
            Handed::Deferred => {
                let unmark: Vec<_> = session
                    .uid_store(&uid, format!("-FLAGS.SILENT ({TAKEN})"))
                    .await?
                    .try_collect()
                    .await?;
                drop(unmark);
                return Ok(true);
            }
        }
    }
    Ok(false)
}

/// Stores or removes (`change`: `+FLAGS`, `-FLAGS`) the claim on `uid` on
/// condition that the message is unchanged since `modseq`; true when this
/// session's change is the one the server made. The server names a
/// message changed meanwhile in a `MODIFIED` code, which the protocol
/// library does not know, so it is found in the text of the reply.
async fn conditional_store(
    session: &mut Session,
    uid: u32,
    modseq: u64,
    change: &str,
) -> Result<bool, ImapError> {
    let tag = session
        .run_command(format!(
            "UID STORE {uid} (UNCHANGEDSINCE {modseq}) {change} ({TAKEN})"
        ))
        .await?;
    let mut changed = false;
    let ended = read_until_done(session, &tag, |response| {
        if let Response::Fetch(_, attributes) = response {
            let ours = attributes
                .iter()
                .any(|a| matches!(a, AttributeValue::Uid(u) if *u == uid));
            let modseq_changed = attributes
                .iter()
                .any(|a| matches!(a, AttributeValue::ModSeq(m) if *m > modseq));
            changed |= ours && modseq_changed;
        }
    })
    .await?;
    match ended {
        Ended::Ok(text) => Ok(changed && !text.to_ascii_uppercase().contains("[MODIFIED")),
        // The message is gone: another poller filed it.
        Ended::No(_) => Ok(false),
        Ended::Failed(text) => Err(ImapError::Setup(format!("UID STORE failed: {text}"))),
    }
}

/// How a command this module runs itself ended, with the server's text.
enum Ended {
    Ok(String),
    No(String),
    Failed(String),
}

/// Reads the responses to the command tagged `tag`, handing each (the
/// tagged one too) to `seen`, up to the tagged one.
async fn read_until_done(
    session: &mut Session,
    tag: &RequestId,
    mut seen: impl FnMut(&Response<'_>),
) -> Result<Ended, ImapError> {
    loop {
        let response = session
            .read_response()
            .await?
            .ok_or(async_imap::error::Error::ConnectionLost)?;
        let parsed = response.parsed();
        seen(parsed);
        if let Response::Done {
            tag: done,
            status,
            outcome,
        } = parsed
            && done == tag
        {
            let text = outcome
                .information
                .as_deref()
                .unwrap_or("no reason given")
                .to_string();
            return Ok(match status {
                Status::Ok => Ended::Ok(text),
                Status::No => Ended::No(text),
                _ => Ended::Failed(text),
            });
        }
    }
}

/// What became of a message handed on.
enum Handed {
    /// Taken or refused for good: it goes to the processed mailbox.
    Filed,
    /// The sink cannot take it now: it stays for a later round.
    Deferred,
}

async fn hand_on(taker: &Taker<'_>, raw: Vec<u8>) -> Handed {
    let outcome = taker.sink.deliver(raw, Via::Imap).await;
    taker
        .metrics
        .inbound_message(Via::Imap, outcome_name(&outcome));
    match outcome {
        Ok(()) => Handed::Filed,
        Err(SinkError::Temporary(why)) => {
            tracing::warn!(reason = %why, "IMAP message deferred: put back");
            Handed::Deferred
        }
        Err(SinkError::Refused(why)) => {
            tracing::info!(reason = %why, "IMAP message refused");
            Handed::Filed
        }
    }
}

/// One round without CONDSTORE: each message is claimed by moving it to
/// the processed mailbox, and handed on when the server's `COPYUID` names
/// this session's move; true when the sink deferred one (it is moved back
/// for a later round).
async fn take_moved(session: &mut Session, taker: &Taker<'_>) -> Result<bool, ImapError> {
    let settings = taker.settings;
    let uids = session.uid_search("ALL").await?;
    let mut uids: Vec<u32> = uids.into_iter().collect();
    uids.sort_unstable();
    for uid in uids {
        let Some(raw) = fetch(session, uid).await? else {
            continue;
        };
        let Some(claimed) = claim(session, uid, &settings.processed_mailbox).await? else {
            continue;
        };
        if let Handed::Deferred = hand_on(taker, raw).await {
            session.select(&settings.processed_mailbox).await?;
            let back = claim(session, claimed, &settings.mailbox).await;
            session.select(&settings.mailbox).await?;
            back?;
            return Ok(true);
        }
    }
    Ok(false)
}

async fn fetch(session: &mut Session, uid: u32) -> Result<Option<Vec<u8>>, ImapError> {
    let messages: Vec<_> = session
        .uid_fetch(uid.to_string(), "BODY.PEEK[]")
        .await?
        .try_collect()
        .await?;
    Ok(messages
        .iter()
        .find(|m| m.uid == Some(uid))
        .and_then(|m| m.body())
        .map(<[u8]>::to_vec))
}

/// Moves the message into `to`; its UID there when this session's move is
/// the one that took it (the server reports the move with COPYUID).
async fn claim(session: &mut Session, uid: u32, to: &str) -> Result<Option<u32>, ImapError> {
    let tag = session
        .run_command(format!("UID MOVE {uid} \"{}\"", quoted(to)))
        .await?;
    let mut moved = None;
    let ended = read_until_done(session, &tag, |response| {
        if let Response::Data {
            status: Status::Ok,
            outcome,
        }
        | Response::Done {
            status: Status::Ok,
            outcome,
            ..
        } = response
            && let Some(ResponseCode::CopyUid(_, from_set, to_set)) = &outcome.code
        {
            moved = moved.or(moved_to(from_set, to_set, uid));
        }
    })
    .await?;
    match ended {
        Ended::Ok(_) => Ok(moved),
        Ended::No(text) | Ended::Failed(text) => {
            Err(ImapError::Setup(format!("UID MOVE to {to} failed: {text}")))
        }
    }
}

/// Where COPYUID says `uid` went; we move one message at a time, so the
/// sets hold one UID each.
fn moved_to(from: &[UidSetMember], to: &[UidSetMember], uid: u32) -> Option<u32> {
    let one = |set: &[UidSetMember]| match set {
        [UidSetMember::Uid(one)] => Some(*one),
        [UidSetMember::UidRange(range)] if range.start() == range.end() => Some(*range.start()),
        _ => None,
    };
    (one(from)? == uid).then(|| one(to)).flatten()
}

fn quoted(name: &str) -> String {
    name.replace('\\', "\\\\").replace('"', "\\\"")
}

/// What a mailbox holds now, by UID, for tests and the admin's checks.
pub async fn contents(
    session: &mut Session,
    mailbox: &str,
) -> Result<BTreeMap<u32, Vec<u8>>, ImapError> {
    session.select(mailbox).await?;
    let messages: Vec<_> = session
        .uid_fetch("1:*", "BODY.PEEK[]")
        .await?
        .try_collect()
        .await?;
    Ok(messages
        .iter()
        .filter_map(|m| Some((m.uid?, m.body()?.to_vec())))
        .collect())
}
