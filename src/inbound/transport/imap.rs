//! Polling an IMAP mailbox for reply mail, for self-hosters whose mail
//! lives at a provider.
//!
//! Each message is claimed before it is handed on: `UID MOVE` into the
//! processed mailbox, and only the poller whose move the server confirms
//! with a `COPYUID` (UIDPLUS, RFC 4315) hands it to the sink. Every other
//! poller's move of the same UID finds nothing, so several instances can
//! poll one mailbox and each message is taken once. A `\Seen` flag could
//! not do that: two pollers can both see it unset and both set it. The
//! processed mailbox doubles as the record of what came in.
//!
//! Where the server advertises IDLE the poller waits in it between rounds
//! and wakes on new mail; otherwise it polls every `poll_interval`. A lost
//! connection is reopened with a growing pause, and nothing here ever
//! blocks the rest of `serve`.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

use async_imap::imap_proto::rfc4315::UidSetMember;
use async_imap::imap_proto::{Outcome, Response, ResponseCode, Status};
use futures_util::TryStreamExt;
use tokio::io::{AsyncRead, AsyncWrite};
use tokio::net::TcpStream;

use super::{MessageSink, SinkError, outcome_name};
use crate::background::Shutdown;
use crate::inbound::Via;
use crate::metrics::Metrics;

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
}

/// The longest pause between two attempts to reach the server.
const MAX_BACKOFF: Duration = Duration::from_secs(300);

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
    let idle = session.capabilities().await?.has_str("IDLE");
    ensure_mailbox(&mut session, &settings.processed_mailbox).await?;
    session.select(&settings.mailbox).await?;
    *backoff = Duration::from_secs(1);
    loop {
        let deferred = take_new(&mut session, taker).await?;
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

/// Claims and hands on every message in the selected mailbox; true when
/// the sink deferred one (it is back in the mailbox for a later round).
async fn take_new(session: &mut Session, taker: &Taker<'_>) -> Result<bool, ImapError> {
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
        let outcome = taker.sink.deliver(raw, Via::Imap).await;
        taker
            .metrics
            .inbound_message(Via::Imap, outcome_name(&outcome));
        match outcome {
            Ok(()) => {}
            Err(SinkError::Temporary(why)) => {
                tracing::warn!(reason = %why, "IMAP message deferred: put back");
                session.select(&settings.processed_mailbox).await?;
                let back = claim(session, claimed, &settings.mailbox).await;
                session.select(&settings.mailbox).await?;
                back?;
                return Ok(true);
            }
            Err(SinkError::Refused(why)) => {
                tracing::info!(reason = %why, "IMAP message refused");
            }
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
    loop {
        let response = session
            .read_response()
            .await?
            .ok_or(async_imap::error::Error::ConnectionLost)?;
        match response.parsed() {
            Response::Data {
                status: Status::Ok,
                outcome:
                    Outcome {
                        code: Some(ResponseCode::CopyUid(_, from, to)),
                        ..
                    },
            } => moved = moved.or(moved_to(from, to, uid)),
            Response::Done {
                tag: done,
                status,
                outcome: Outcome { code, information },
            } if *done == tag => {
                if let Some(ResponseCode::CopyUid(_, from, to)) = code {
                    moved = moved.or(moved_to(from, to, uid));
                }
                if *status != Status::Ok {
                    return Err(ImapError::Setup(format!(
                        "UID MOVE to {to} failed: {}",
                        information.as_deref().unwrap_or("no reason given")
                    )));
                }
                return Ok(moved);
            }
            _ => {}
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
