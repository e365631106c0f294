//! The deadline sweeper: runs inside `hexpost serve` beside the mail
//! worker, finds the games whose reminder or deadline time has come, and
//! sweeps each in a transaction of its own (`service::timeouts`). Each
//! round also deletes the signed moves' jtis that have expired
//! (`store::used_jtis`), and once an hour of its clock the sign-in codes,
//! sessions and Idempotency-Key replies that ended a month ago, and the
//! stored contexts of mails sent a month ago (`store::retention`). Any number
//! of instances may sweep at once: each game's sweep locks its row and
//! re-reads its clocks, so every deadline is acted on once.

use crate::clock::Clock;
use crate::config::DeadlineConfig;
use crate::metrics::Metrics;
use crate::service::Now;
use crate::service::timeouts::{self, Swept};
use crate::store::DbPool;
use crate::workers::Shutdown;
use std::sync::Arc;
use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

/// Games looked at per query.
const BATCH: i64 = 100;
/// Batches per round at most, so one round cannot run unbounded when
/// games stay due (another instance holds them, or one keeps failing).
const MAX_BATCHES: usize = 20;
/// How often ended sign-in codes, sessions and Idempotency-Key replies
/// are looked for: they are kept a month, and finding them reads whole
/// tables.
const FORGET_EVERY_MS: i64 = 3_600_000;

pub struct Sweeper {
    pool: DbPool,
    clock: Clock,
    config: DeadlineConfig,
    shutdown: Shutdown,
    metrics: Option<Arc<Metrics>>,
    feed: Option<Arc<crate::service::feed::Feed>>,
    session_idle_ms: Option<i64>,
    /// When (on `clock`) ended rows are next looked for.
    next_forget_at: AtomicI64,
}

impl Sweeper {
    pub fn new(pool: DbPool, clock: Clock, config: DeadlineConfig) -> Sweeper {
        Sweeper {
            pool,
            clock,
            config,
            shutdown: Shutdown::never(),
            metrics: None,
            feed: None,
            session_idle_ms: None,
            next_forget_at: AtomicI64::new(i64::MIN),
        }
    }

    /// Sessions end this long after their last use (`SESSION_IDLE_DAYS`);
    /// without it only revoked and past-lifetime sessions are deleted.
    pub fn with_session_idle(mut self, idle: Duration) -> Sweeper {
        self.session_idle_ms = Some(idle.as_millis() as i64);
        self
    }

    /// Stops between games once `shutdown` is signalled.
    pub fn with_shutdown(mut self, shutdown: Shutdown) -> Sweeper {
        self.shutdown = shutdown;
        self
    }

    /// Announces the games it moved on (an automatic decision, a
    /// forfeit) to the live streams.
    pub fn with_feed(mut self, feed: Arc<crate::service::feed::Feed>) -> Sweeper {
        self.feed = Some(feed);
        self
    }

    pub fn with_metrics(mut self, metrics: Arc<Metrics>) -> Sweeper {
        self.metrics = Some(metrics);
        self
    }

    /// Sweeps one interval apart until shutdown.
    pub async fn run(self: Arc<Self>) {
        tracing::info!(
            interval_ms = self.config.sweep_interval_ms,
            "deadline sweeper started"
        );
        let interval = Duration::from_millis(self.config.sweep_interval_ms);
        while self.shutdown.sleep(interval).await {
            let sweeper = self.clone();
            match actix_web::rt::task::spawn_blocking(move || sweeper.round()).await {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => tracing::warn!(error = %e, "deadline sweeper: database unavailable"),
                Err(e) => tracing::error!(error = %e, "deadline sweeper round panicked"),
            }
        }
    }

    /// Sweeps every game due now, forgets the signed moves' jtis that have
    /// expired and, hourly, the rows that ended a month ago; returns what
    /// was done to games.
    pub fn round(&self) -> Result<Swept, String> {
        let mut conn = self.pool.get().map_err(|e| e.to_string())?;
        match crate::store::used_jtis::forget_expired(&mut conn, self.clock.now()) {
            Ok(0) => {}
            Ok(n) => tracing::debug!(jtis = n, "expired jtis forgotten"),
            Err(e) => tracing::warn!(error = %e, "forgetting expired jtis failed"),
        }
        self.forget_ended(&mut conn);
        let mut total = Swept::default();
        for _ in 0..MAX_BATCHES {
            let now = Now {
                at: self.clock.now(),
                reminder_percent: self.config.reminder_percent,
                turn_mail: self.config.turn_mail,
                invitations_per_day: 0,
            };
            let due = timeouts::due_games(&mut conn, now.at, BATCH).map_err(|e| e.to_string())?;
            let mut progress = false;
            for game in &due {
                if self.shutdown.requested() {
                    return Ok(self.report(total));
                }
                match timeouts::sweep_game(&mut conn, game, now) {
                    Ok(swept) => {
                        progress |= swept != Swept::default();
                        if swept != Swept::default() {
                            tracing::info!(%game, ?swept, "deadlines swept");
                        }
                        if (swept.automatic > 0 || swept.forfeits > 0)
                            && let Some(feed) = &self.feed
                        {
                            crate::service::feed::announce(&mut conn, feed, game);
                        }
                        total += swept;
                    }
                    Err(e) => tracing::error!(%game, error = %e, "sweeping a game failed"),
                }
            }
            if (due.len() as i64) < BATCH || !progress {
                break;
            }
        }
        Ok(self.report(total))
    }

    /// Deletes the rows that ended a month ago and empties the contexts of
    /// mails sent then, at most once an hour.
    fn forget_ended(&self, conn: &mut crate::store::DbConnection) {
        let now = self.clock.now();
        if now < self.next_forget_at.load(Ordering::Relaxed) {
            return;
        }
        self.next_forget_at
            .store(now + FORGET_EVERY_MS, Ordering::Relaxed);
        // Without an idle time only revoked and past-lifetime sessions end.
        let idle = self.session_idle_ms.unwrap_or(i64::MAX);
        match crate::store::retention::forget_ended(conn, now, idle) {
            Ok(forgotten) if forgotten.any() => tracing::info!(
                sign_in_codes = forgotten.sign_in_codes,
                sessions = forgotten.sessions,
                idempotency_keys = forgotten.idempotency_keys,
                mail_contexts = forgotten.mail_contexts,
                account_codes = forgotten.account_codes,
                "ended rows deleted, old mail contexts emptied"
            ),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "deleting ended rows failed"),
        }
    }

    fn report(&self, swept: Swept) -> Swept {
        if let Some(metrics) = &self.metrics {
            metrics.sweep_done([
                ("reminder", u64::from(swept.reminders)),
                ("automatic", u64::from(swept.automatic)),
                ("forfeit", u64::from(swept.forfeits)),
            ]);
        }
        swept
    }
}
