//! Workers that run beside the HTTP server inside `hexpost serve`: the
//! mail outbox (`outbox`), the deadline sweeper (`sweeper`) and, on
//! PostgreSQL, the listener that carries stream signals between instances
//! (`feed_listener`); the reply-mail listener and poller live with the rest
//! of reply mail (`crate::inbound::transport`). All of them watch the one
//! signal that stops them ([`Shutdown`]) between units of work (rows) and
//! while they sleep, so stopping never cuts a unit in half; `serve` waits
//! for every worker to return before the process exits.

pub mod feed_listener;
pub mod outbox;
pub mod sweeper;

use std::future::Future;
use std::time::Duration;
use tokio_util::sync::CancellationToken;

/// What a worker holds: asks whether to stop, and sleeps unless told to.
#[derive(Clone, Debug, Default)]
pub struct Shutdown(CancellationToken);

impl Shutdown {
    /// A signal nobody triggers, for workers driven by hand (tests, CLI).
    pub fn never() -> Shutdown {
        Shutdown::default()
    }

    /// Resolves once shutdown is asked for.
    pub async fn wait(&self) {
        self.0.cancelled().await
    }

    pub fn requested(&self) -> bool {
        self.0.is_cancelled()
    }

    /// Sleeps for `period`; `false` when shutdown was asked for meanwhile
    /// (the sleep ends at once then).
    pub async fn sleep(&self, period: Duration) -> bool {
        self.0
            .run_until_cancelled(actix_web::rt::time::sleep(period))
            .await
            .is_some()
    }
}

/// A signal driven from outside, for workers started by hand (tests).
impl From<CancellationToken> for Shutdown {
    fn from(token: CancellationToken) -> Shutdown {
        Shutdown(token)
    }
}

/// The running workers of one server.
#[derive(Default)]
pub struct Background {
    signal: Shutdown,
    tasks: Vec<(&'static str, actix_web::rt::task::JoinHandle<()>)>,
}

impl Background {
    pub fn new() -> Background {
        Background::default()
    }

    /// Starts a worker on the current actix system; `work` gets the signal
    /// it must watch.
    pub fn spawn<F>(&mut self, name: &'static str, work: impl FnOnce(Shutdown) -> F)
    where
        F: Future<Output = ()> + 'static,
    {
        let task = actix_web::rt::spawn(work(self.signal.clone()));
        self.tasks.push((name, task));
    }

    /// Signals every worker and waits until each has returned.
    pub async fn stop(self) {
        self.signal.0.cancel();
        for (name, task) in self.tasks {
            if let Err(e) = task.await {
                tracing::error!(worker = name, error = %e, "background worker ended abnormally");
            } else {
                tracing::info!(worker = name, "background worker stopped");
            }
        }
    }
}
