//! The ways a reply mail reaches the server: an SMTP or LMTP listener an
//! MTA relays to (`listener`), and polling an IMAP mailbox (`imap`). Both
//! hand the message's exact bytes to one [`MessageSink`]; what the message
//! means is the sink's business, never a transport's.

pub mod imap;
pub mod listener;
pub mod settings;

use std::future::Future;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;

use super::Via;
use crate::metrics::Metrics;
use crate::workers::Background;
use settings::InboundConfig;

/// Why the sink did not take a message.
#[derive(Debug, thiserror::Error)]
pub enum SinkError {
    /// Worth delivering again later (the database is down, say): the
    /// listener answers 451 so the MTA retries, the poller puts the message
    /// back in the mailbox.
    #[error("temporary: {0}")]
    Temporary(String),
    /// Never worth another try: the listener answers 554, the poller leaves
    /// the message where it took it to.
    #[error("refused: {0}")]
    Refused(String),
}

pub type SinkFuture = Pin<Box<dyn Future<Output = Result<(), SinkError>> + Send>>;

/// Where the transports hand each message they receive.
pub trait MessageSink: Send + Sync + 'static {
    fn deliver(&self, raw: Vec<u8>, via: Via) -> SinkFuture;
}

impl<F> MessageSink for F
where
    F: Fn(Vec<u8>, Via) -> SinkFuture + Send + Sync + 'static,
{
    fn deliver(&self, raw: Vec<u8>, via: Via) -> SinkFuture {
        self(raw, via)
    }
}

/// The metrics label of a delivery's outcome.
fn outcome_name(outcome: &Result<(), SinkError>) -> &'static str {
    match outcome {
        Ok(()) => "taken",
        Err(SinkError::Temporary(_)) => "deferred",
        Err(SinkError::Refused(_)) => "refused",
    }
}

/// Starts the configured transports as background workers of `serve`;
/// returns the listener's address when it runs. The listener's port is
/// bound here, so a port in use stops `serve` from starting; the IMAP
/// server is only reached later, so one that is down never does.
pub fn start(
    background: &mut Background,
    config: &InboundConfig,
    sink: Arc<dyn MessageSink>,
    metrics: Arc<Metrics>,
) -> std::io::Result<Option<SocketAddr>> {
    let mut bound = None;
    if let Some(addr) = config.listen {
        let socket = std::net::TcpListener::bind(addr)?;
        socket.set_nonblocking(true)?;
        bound = Some(socket.local_addr()?);
        let (settings, sink, metrics) = (config.listener.clone(), sink.clone(), metrics.clone());
        background.spawn("inbound listener", |shutdown| async move {
            match tokio::net::TcpListener::from_std(socket) {
                Ok(listener) => listener::serve(listener, settings, sink, metrics, shutdown).await,
                Err(e) => tracing::error!(error = %e, "inbound listener could not start"),
            }
        });
    }
    if let Some(imap) = config.imap.clone() {
        background.spawn("imap poller", |shutdown| {
            imap::poll(imap, sink, metrics, shutdown)
        });
    }
    Ok(bound)
}
