//! The inbound SMTP/LMTP listener an MTA relays reply mail to.
//!
//! `mailin` speaks the protocol (a state machine with no I/O of its own);
//! this module owns the sockets: a bounded number of connections, a
//! timeout on every read, a bound on line and message size, and recipients
//! only at the reply domain, so the listener can never be used as a relay.
//! LMTP (RFC 2033) is SMTP with `LHLO` for `EHLO` and one reply per
//! recipient after the data; both are mapped onto the same session.
//!
//! The listener is the message's final delivery, so it adds a
//! `Delivered-To` field (RFC 9228) for each envelope recipient, as a
//! delivering MTA does: a reply whose reply address is only in the
//! envelope (Bcc, or an alias the MTA rewrote) is still found.

use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use mailin::{Action, Handler, Response, SessionBuilder};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::Semaphore;

use super::{MessageSink, SinkError, outcome_name};
use crate::inbound::Via;
use crate::metrics::Metrics;
use crate::workers::Shutdown;

/// The longest command or text line accepted (RFC 5321 allows 1000 with
/// the line ending; some clients exceed it in long headers).
const MAX_LINE: u64 = 4096;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Protocol {
    Smtp,
    Lmtp,
}

#[derive(Clone, Debug)]
pub struct ListenerSettings {
    pub protocol: Protocol,
    /// The host name in the greeting.
    pub hostname: String,
    /// The only domain recipients are accepted at.
    pub reply_domain: String,
    pub max_message_bytes: usize,
    pub max_connections: usize,
    /// How long the client may stay silent before the connection is
    /// dropped.
    pub idle_timeout: Duration,
}

/// Accepts connections until `shutdown`; each runs as its own task.
pub async fn serve(
    listener: TcpListener,
    settings: ListenerSettings,
    sink: Arc<dyn MessageSink>,
    metrics: Arc<Metrics>,
    shutdown: Shutdown,
) {
    let slots = Arc::new(Semaphore::new(settings.max_connections));
    let settings = Arc::new(settings);
    loop {
        let (stream, peer) = tokio::select! {
            _ = shutdown.wait() => return,
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(e) => {
                    tracing::warn!(error = %e, "inbound listener: accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
        };
        let Ok(slot) = slots.clone().try_acquire_owned() else {
            tokio::spawn(turn_away(stream));
            continue;
        };
        let (settings, sink, shutdown) = (settings.clone(), sink.clone(), shutdown.clone());
        let metrics = metrics.clone();
        tokio::spawn(async move {
            let _slot = slot;
            tokio::select! {
                _ = shutdown.wait() => {}
                outcome = converse(stream, peer, &settings, sink.as_ref(), &metrics) => {
                    if let Err(e) = outcome {
                        tracing::debug!(%peer, error = %e, "inbound connection ended");
                    }
                }
            }
        });
    }
}

async fn turn_away(mut stream: TcpStream) {
    let _ = stream
        .write_all(b"421 Too many connections, try again later\r\n")
        .await;
}

/// One message in the making, shared between the session's handler (which
/// `mailin` calls) and the connection loop (which delivers it).
#[derive(Default)]
struct Transaction {
    /// The envelope recipients (`RCPT TO`), in order.
    recipients: Vec<String>,
    in_data: bool,
    data: Vec<u8>,
    too_big: bool,
    /// What the end of the data is answered with, set by the loop after it
    /// handed the message on.
    outcome: Option<Response>,
}

struct Envelope {
    shared: Arc<Mutex<Transaction>>,
    reply_domain: String,
    limit: usize,
    via: Via,
    metrics: Arc<Metrics>,
}

impl Envelope {
    fn transaction(&self) -> std::sync::MutexGuard<'_, Transaction> {
        self.shared
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl Handler for Envelope {
    fn mail(&mut self, _ip: IpAddr, _domain: &str, _from: &str) -> Response {
        *self.transaction() = Transaction::default();
        mailin::response::OK
    }

    fn rcpt(&mut self, to: &str) -> Response {
        let domain = to.rsplit_once('@').map(|(_, domain)| domain);
        if !domain.is_some_and(|d| d.eq_ignore_ascii_case(&self.reply_domain)) {
            self.metrics.inbound_message(self.via, "relay_denied");
            return Response::custom(550, "5.7.1 Relaying denied".into());
        }
        self.transaction().recipients.push(to.to_string());
        mailin::response::OK
    }

    fn data_start(&mut self, _domain: &str, _from: &str, _8bit: bool, _to: &[String]) -> Response {
        let mut transaction = self.transaction();
        transaction.in_data = true;
        transaction.data.clear();
        transaction.too_big = false;
        mailin::response::START_DATA
    }

    fn data(&mut self, buf: &[u8]) -> std::io::Result<()> {
        let limit = self.limit;
        let mut transaction = self.transaction();
        // Past the limit the rest is read and dropped, so the client hears
        // the 552 at the end of its data rather than a broken connection.
        if transaction.data.len() + buf.len() > limit {
            transaction.too_big = true;
            transaction.data = Vec::new();
        } else if !transaction.too_big {
            transaction.data.extend_from_slice(buf);
        }
        Ok(())
    }

    fn data_end(&mut self) -> Response {
        let mut transaction = self.transaction();
        transaction.in_data = false;
        transaction
            .outcome
            .take()
            .unwrap_or(mailin::response::INTERNAL_ERROR)
    }
}

async fn converse(
    stream: TcpStream,
    peer: SocketAddr,
    settings: &ListenerSettings,
    sink: &dyn MessageSink,
    metrics: &Arc<Metrics>,
) -> std::io::Result<()> {
    let shared = Arc::new(Mutex::new(Transaction::default()));
    let envelope = Envelope {
        shared: shared.clone(),
        reply_domain: settings.reply_domain.clone(),
        limit: settings.max_message_bytes,
        via: via_of(settings.protocol),
        metrics: metrics.clone(),
    };
    let mut session = SessionBuilder::new(settings.hostname.clone()).build(peer.ip(), envelope);
    let (reader, mut writer) = stream.into_split();
    let mut reader = BufReader::new(reader);
    send(&mut writer, &session.greeting(), 1).await?;
    let mut line = Vec::with_capacity(256);
    loop {
        line.clear();
        let mut limited = (&mut reader).take(MAX_LINE);
        let n = tokio::time::timeout(settings.idle_timeout, limited.read_until(b'\n', &mut line))
            .await
            .map_err(|_| std::io::Error::new(std::io::ErrorKind::TimedOut, "client idle"))??;
        if n == 0 {
            return Ok(());
        }
        if !line.ends_with(b"\n") {
            let too_long = Response::custom(500, "5.5.2 Line too long".into());
            send(&mut writer, &too_long, 1).await?;
            return Ok(());
        }
        let (in_data, recipients) = {
            let t = shared.lock().unwrap_or_else(|p| p.into_inner());
            (t.in_data, t.recipients.len())
        };
        if in_data && line == b".\r\n" {
            let outcome = finish(&shared, settings, sink, metrics).await;
            shared.lock().unwrap_or_else(|p| p.into_inner()).outcome = Some(outcome);
        } else if !in_data && settings.protocol == Protocol::Lmtp {
            lhlo_as_ehlo(&mut line);
        }
        let response = session.process(&line);
        // LMTP answers the end of the data once for each recipient.
        let times = if in_data && settings.protocol == Protocol::Lmtp {
            recipients.max(1)
        } else {
            1
        };
        send(&mut writer, &response, times).await?;
        if response.action == Action::Close {
            return Ok(());
        }
    }
}

/// Hands the finished message on and says how to answer its end.
async fn finish(
    shared: &Mutex<Transaction>,
    settings: &ListenerSettings,
    sink: &dyn MessageSink,
    metrics: &Metrics,
) -> Response {
    let (raw, too_big) = {
        let mut t = shared.lock().unwrap_or_else(|p| p.into_inner());
        let data = std::mem::take(&mut t.data);
        (delivered(&t.recipients, data), t.too_big)
    };
    let via = via_of(settings.protocol);
    if too_big {
        metrics.inbound_message(via, "too_large");
        return Response::custom(
            552,
            format!(
                "5.3.4 Message larger than {} bytes",
                settings.max_message_bytes
            ),
        );
    }
    let outcome = sink.deliver(raw, via).await;
    metrics.inbound_message(via, outcome_name(&outcome));
    match outcome {
        Ok(()) => Response::custom(250, "2.0.0 Accepted".into()),
        Err(SinkError::Temporary(why)) => {
            tracing::warn!(reason = %why, "inbound message deferred");
            Response::custom(451, "4.3.0 Try again later".into())
        }
        Err(SinkError::Refused(why)) => Response::custom(554, format!("5.6.0 {why}")),
    }
}

/// The message with a `Delivered-To` field for each recipient before its
/// own header (the protocol's parser takes no line break into an address;
/// one with any control character is left out all the same, so nothing a
/// client sends can add a field of its own).
fn delivered(recipients: &[String], data: Vec<u8>) -> Vec<u8> {
    let mut raw = Vec::with_capacity(data.len() + 64 * recipients.len());
    let plain = recipients
        .iter()
        .filter(|to| !to.bytes().any(|b| b.is_ascii_control()));
    for to in plain {
        raw.extend_from_slice(format!("Delivered-To: {to}\r\n").as_bytes());
    }
    raw.extend_from_slice(&data);
    raw
}

fn via_of(protocol: Protocol) -> Via {
    match protocol {
        Protocol::Smtp => Via::Smtp,
        Protocol::Lmtp => Via::Lmtp,
    }
}

fn lhlo_as_ehlo(line: &mut [u8]) {
    if line.len() >= 4 && line[..4].eq_ignore_ascii_case(b"LHLO") {
        line[..4].copy_from_slice(b"EHLO");
    }
}

async fn send(
    writer: &mut tokio::net::tcp::OwnedWriteHalf,
    response: &Response,
    times: usize,
) -> std::io::Result<()> {
    if response.action == Action::NoReply {
        return Ok(());
    }
    let mut bytes = Vec::new();
    for _ in 0..times {
        response.write_to(&mut bytes)?;
    }
    writer.write_all(&bytes).await
}
