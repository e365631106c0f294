//! The outbox worker: runs inside `hexpost serve`, claims due rows, renders
//! and sends them, and marks each sent, due again later (exponential
//! backoff), or failed after the last attempt. On shutdown it finishes
//! the row it is sending and hands the rest of its batch, and the batches
//! it has claimed to send next, back unsent.

use crate::clock::Clock;
use crate::config::{Config, MailConfig, SessionConfig};
use crate::inbound::address::ReplyAddresses;
use crate::mail::sender::{self, Envelope, Mailer};
use crate::mail::templates::Templates;
use crate::mail::{Links, pictures};
use crate::metrics::Metrics;
use crate::service::notify;
use crate::store::outbox::{self, MailRow, kind};
use crate::store::{DbConnection, DbPool, users};
use crate::workers::Shutdown;
use lettre::Message;
use std::sync::{Arc, mpsc};
use std::time::Duration;

/// Rows claimed at a time over SMTP. Each batch costs three commits (the
/// claim, the sign-in codes, the marks): 25 rather than 10 sent a quarter
/// more mails a second (docs/performance.md, "The board picture in
/// mails"). It stays small because its lease must cover every send
/// taking the whole SMTP timeout, and a dead worker's rows wait for it.
const SMTP_BATCH: i64 = 25;

/// Rows claimed at a time when mails are written as files. Writing one
/// takes well under a millisecond, so the lease allows each
/// `FILE_WRITE_MS` and a batch can be large: 200 rather than 25 sent 30 %
/// more mails a second, board pictures included, about as many as before
/// there were pictures (docs/performance.md, "The board picture in
/// mails").
const FILE_BATCH: i64 = 200;
const FILE_WRITE_MS: i64 = 1000;

/// A claimed batch: its rows, what each one's templates will render
/// (None: skipped, already marked so), and the lease they are held under.
struct Claimed {
    rows: Vec<MailRow>,
    contexts: Vec<Option<Result<Pending, String>>>,
    lease: i64,
}

/// A claimed mail's context and the sign-in code its link carries, if any.
struct Pending {
    context: Context,
    sign_in: Option<String>,
}

/// What a claimed mail's templates render: the context stored with its
/// row, read as JSON when the mail is composed (on the composing threads:
/// with its board's scene some 8 % of a mail's instructions, and the
/// claiming thread bounded the worker's rate), or a digest's, gathered at
/// the claim.
enum Context {
    Stored,
    Gathered(serde_json::Value),
}

/// A claimed batch with its messages composed (None: skipped).
struct Batch {
    rows: Vec<MailRow>,
    messages: Vec<Option<Result<Message, String>>>,
    lease: i64,
}

/// The ids of `rows` from the `from`th on that are still to be sent (those
/// `held` says are not skipped).
fn unsent_ids<T>(rows: &[MailRow], held: &[Option<T>], from: usize) -> Vec<i64> {
    rows[from..]
        .iter()
        .zip(&held[from..])
        .filter(|(_, m)| m.is_some())
        .map(|(r, _)| r.id)
        .collect()
}

pub struct Worker {
    pool: DbPool,
    mailer: Mailer,
    templates: Templates,
    links: Links,
    config: MailConfig,
    clock: Clock,
    shutdown: Shutdown,
    metrics: Option<Arc<Metrics>>,
    replies: Option<ReplyAddresses>,
    sessions: SessionConfig,
    /// Rung when a mail someone waits for is queued on this instance (an
    /// account's code): the worker looks at once instead of at its next
    /// round.
    wake: Arc<tokio::sync::Notify>,
}

impl Worker {
    pub fn new(config: &Config, pool: DbPool) -> Result<Worker, String> {
        Ok(Worker {
            pool,
            mailer: Mailer::new(config)?,
            templates: Templates::new()?,
            links: Links::new(&config.public_base_url),
            config: config.mail.clone(),
            clock: Clock::system(),
            shutdown: Shutdown::never(),
            metrics: None,
            replies: ReplyAddresses::of(config),
            sessions: config.sessions.clone(),
            wake: Default::default(),
        })
    }

    /// Looks for mail as soon as `wake` is rung, not only every
    /// `MAIL_POLL_INTERVAL_MS`.
    pub fn with_wake(mut self, wake: Arc<tokio::sync::Notify>) -> Worker {
        self.wake = wake;
        self
    }

    /// Stops between rows once `shutdown` is signalled.
    pub fn with_shutdown(mut self, shutdown: Shutdown) -> Worker {
        self.shutdown = shutdown;
        self
    }

    pub fn with_metrics(mut self, metrics: Arc<Metrics>) -> Worker {
        self.metrics = Some(metrics);
        self
    }

    pub fn with_clock(mut self, clock: Clock) -> Worker {
        self.clock = clock;
        self
    }

    /// Polls until shutdown, first one interval after the start; each round
    /// sends everything due.
    pub async fn run(self: Arc<Self>) {
        tracing::info!(
            backend = if self.mailer.is_smtp() {
                "smtp"
            } else {
                "files"
            },
            "mail worker started"
        );
        let interval = Duration::from_millis(self.config.poll_interval_ms);
        loop {
            let woken = self.wake.clone();
            let waited = tokio::select! {
                awake = self.shutdown.sleep(interval) => awake,
                () = woken.notified() => !self.shutdown.requested(),
            };
            if !waited {
                break;
            }
            let worker = self.clone();
            match actix_web::rt::task::spawn_blocking(move || worker.drain()).await {
                Ok(Ok(_)) => {}
                Ok(Err(e)) => tracing::warn!(error = %e, "mail worker: outbox unavailable"),
                Err(e) => tracing::error!(error = %e, "mail worker round panicked"),
            }
        }
    }

    /// How many rows a claim takes (`SMTP_BATCH`, `FILE_BATCH`).
    fn batch(&self) -> i64 {
        if self.mailer.is_smtp() {
            SMTP_BATCH
        } else {
            FILE_BATCH
        }
    }

    /// How long a claim holds its rows. Over SMTP the lease is short and
    /// renewed before each send (`deliver`), so a worker that dies holds
    /// its rows minutes, not the hours a batch of slow sends could take;
    /// `queued` batches wait for the one being sent. Writing files is fast
    /// and local: the lease covers the batches' writes, a second each.
    fn lease_ms(&self, queued: i64) -> i64 {
        if self.mailer.is_smtp() {
            queued * self.renewal_ms()
        } else {
            queued * self.batch() * self.longest_send_ms() * 2
        }
    }

    /// What each renewal of an SMTP lease grants: two of the longest sends.
    fn renewal_ms(&self) -> i64 {
        2 * self.longest_send_ms()
    }

    /// The longest one mail's send may take before it fails: what a lease
    /// allows each of its mails.
    fn longest_send_ms(&self) -> i64 {
        if self.mailer.is_smtp() {
            (self.config.smtp_timeout_secs as i64 + 5) * 1000
        } else {
            FILE_WRITE_MS
        }
    }

    /// Sends batches until nothing is due; returns how many were handled.
    pub fn drain(&self) -> Result<usize, String> {
        let drained = self.rounds();
        self.mailer.close();
        drained
    }

    /// Batches until one comes back short, in a pipeline of three
    /// threads: while this one sends a batch and marks it, another
    /// composes the next (pictures and templates, on a thread per core),
    /// and a third claims the one after and reads its contexts, so the
    /// outbox's commits and the sending overlap the composing
    /// (docs/performance.md, "The board picture in mails"). Mails still go
    /// out in the order claimed. With a pool of one connection (a
    /// migration's setting) the worker claims, composes and sends in turn.
    fn rounds(&self) -> Result<usize, String> {
        let mut conn = self.pool.get().map_err(|e| e.to_string())?;
        if self.pool.max_size() < 2 {
            let mut total = 0;
            loop {
                let claimed = self.claim(&mut conn, 1)?;
                let full = claimed.rows.len() == self.batch() as usize;
                total += self.deliver(&mut conn, self.compose_batch(claimed))?;
                if !full || self.shutdown.requested() {
                    return Ok(total);
                }
            }
        }
        let (to_compose, claimed) = mpsc::sync_channel::<Result<Claimed, String>>(1);
        let (to_send, composed) = mpsc::sync_channel(1);
        std::thread::scope(|scope| {
            scope.spawn(move || self.claim_batches(to_compose));
            scope.spawn(move || {
                for batch in claimed {
                    if to_send.send(batch.map(|b| self.compose_batch(b))).is_err() {
                        // The sending stopped on an error: the batch keeps
                        // its lease until it runs out, as after a crash.
                        return;
                    }
                }
            });
            let mut total = 0;
            // A batch handed over after a shutdown is released whole.
            for batch in composed {
                total += self.deliver(&mut conn, batch?)?;
            }
            Ok(total)
        })
    }

    /// Claims batches and reads their contexts for `rounds`, until one is
    /// short, the worker stops, or the batches are no longer taken (then
    /// the one in hand is released).
    fn claim_batches(&self, next: mpsc::SyncSender<Result<Claimed, String>>) {
        let mut conn = match self.pool.get() {
            Ok(conn) => conn,
            Err(e) => {
                let _ = next.send(Err(e.to_string()));
                return;
            }
        };
        while !self.shutdown.requested() {
            // This batch waits for the one being sent and the one being
            // composed.
            let claimed = self.claim(&mut conn, 3);
            let last = !matches!(&claimed, Ok(b) if b.rows.len() == self.batch() as usize);
            if let Err(mpsc::SendError(Ok(batch))) = next.send(claimed) {
                let ids = unsent_ids(&batch.rows, &batch.contexts, 0);
                if let Err(e) = outbox::release(&mut conn, &ids, batch.lease) {
                    tracing::warn!(error = %e, "mail worker: batch not released");
                }
                return;
            }
            if last {
                return;
            }
        }
    }

    /// Claims one batch and reads what each mail will render (a digest's
    /// gathered now; a row with nothing to send marked skipped), with its
    /// sign-in code.
    ///
    /// `queued` batches, this one included, may be sent before it is done
    /// (`lease_ms`): a live worker keeps its rows, and a dead one's are
    /// free again soon after.
    fn claim(&self, conn: &mut DbConnection, queued: i64) -> Result<Claimed, String> {
        let now = self.clock.now();
        let lease = now + self.lease_ms(queued);
        let rows = outbox::claim(conn, now, lease, self.batch()).map_err(|e| e.to_string())?;
        let mut contexts = Vec::with_capacity(rows.len());
        for row in &rows {
            contexts.push(match self.context(conn, row) {
                Ok(Some(context)) => Some(Ok(Pending {
                    context,
                    sign_in: None,
                })),
                Ok(None) => {
                    outbox::mark_skipped(conn, row.id, lease).map_err(|e| e.to_string())?;
                    tracing::info!(mail = row.id, kind = %row.kind, "nothing to send");
                    None
                }
                Err(e) => Some(Err(e)),
            });
        }
        self.with_sign_in(conn, &rows, &mut contexts);
        Ok(Claimed {
            rows,
            contexts,
            lease,
        })
    }

    /// The messages of a claimed batch, in its order, composed (board
    /// pictures drawn, templates rendered) on a thread per core.
    fn compose_batch(&self, claimed: Claimed) -> Batch {
        let Claimed {
            rows,
            contexts,
            lease,
        } = claimed;
        let items: Vec<_> = rows.iter().zip(contexts).collect();
        let messages = in_parallel(items, |(row, pending)| {
            pending.map(|pending| {
                let pending = pending?;
                let mut context = match pending.context {
                    Context::Stored => serde_json::from_str(&row.context)
                        .map_err(|e| format!("mail context: {e}"))?,
                    Context::Gathered(context) => context,
                };
                if let (Some(code), Some(fields)) = (pending.sign_in, context.as_object_mut()) {
                    fields.insert("sign_in".into(), code.into());
                }
                self.compose(row, context)
            })
        });
        Batch {
            rows,
            messages,
            lease,
        }
    }

    /// Sends a claimed batch's mails in order and marks them; on shutdown,
    /// the rows not yet sent are released for the next worker. Returns how
    /// many rows were handled.
    ///
    /// Over SMTP each mail is marked sent as soon as the server took it,
    /// and before each send the lease of the rest of the batch is renewed
    /// (`renewal_ms`); a row whose lease was lost meanwhile is not sent.
    /// So a worker that dies repeats at most the mail in flight, and its
    /// rows are free again within minutes. Files are written far faster
    /// than a commit: their rows are marked together at the end of the
    /// batch (one statement instead of one commit per mail), and a crash
    /// between a write and that statement writes the batch's files again
    /// once the lease runs out, with the same Message-IDs.
    fn deliver(&self, conn: &mut DbConnection, batch: Batch) -> Result<usize, String> {
        let Batch {
            rows,
            messages,
            lease,
        } = &batch;
        let mut lease = *lease;
        let smtp = self.mailer.is_smtp();
        let mut sent = Vec::with_capacity(rows.len());
        let mut handled = rows.len();
        for (done, (row, message)) in rows.iter().zip(messages).enumerate() {
            if self.shutdown.requested() {
                let rest = unsent_ids(rows, messages, done);
                outbox::release(conn, &rest, lease).map_err(|e| e.to_string())?;
                tracing::info!(released = rest.len(), "mail worker stopping");
                handled = done;
                break;
            }
            // None: skipped, nothing to send.
            let Some(message) = message else { continue };
            if smtp {
                let renewed = self.clock.now() + self.renewal_ms();
                let this =
                    outbox::renew(conn, &[row.id], lease, renewed).map_err(|e| e.to_string())?;
                let rest = unsent_ids(rows, messages, done + 1);
                outbox::renew(conn, &rest, lease, renewed).map_err(|e| e.to_string())?;
                lease = renewed;
                if this == 0 {
                    // Another worker may be sending it now.
                    lost_lease(1);
                    continue;
                }
            }
            let result = match message {
                Ok(message) => self.send(row, message),
                Err(e) => Err(e.clone()),
            };
            if let Some(metrics) = &self.metrics {
                metrics.mail_attempt(result.is_ok());
            }
            let at = self.clock.now();
            if result.is_ok()
                && row.kind == kind::DIGEST
                && let Some(user) = row.user_id
            {
                // Tomorrow's digest, in case the games still wait then; it
                // is skipped if none does.
                self.next_digest(conn, user, at);
            }
            let kept = match &result {
                Ok(()) => match without_secrets(row) {
                    Some(context) => outbox::mark_sent(conn, row.id, lease, at, &context),
                    None if smtp => outbox::mark_all_sent(conn, &[row.id], lease, at).map(|n| n == 1),
                    None => {
                        sent.push(row.id);
                        continue;
                    }
                },
                Err(error) => {
                    let retry_at = self.retry_at(row.attempts, at);
                    match retry_at {
                        Some(_) => tracing::warn!(mail = row.id, %error, "mail not sent; will retry"),
                        None => tracing::error!(mail = row.id, %error, "mail failed; an admin can retry it"),
                    }
                    outbox::mark_attempt_failed(conn, row.id, lease, error, retry_at)
                }
            }
            .map_err(|e| e.to_string())?;
            if !kept {
                lost_lease(1);
            }
        }
        let marked = outbox::mark_all_sent(conn, &sent, lease, self.clock.now())
            .map_err(|e| e.to_string())?;
        if marked < sent.len() {
            lost_lease(sent.len() - marked);
        }
        Ok(handled)
    }

    /// When the row is due again after one more failed attempt, or None
    /// when that was its last.
    fn retry_at(&self, attempts_before: i32, now: i64) -> Option<i64> {
        let attempts = attempts_before.max(0) as u32 + 1;
        if attempts >= self.config.max_attempts {
            return None;
        }
        let factor = 1u64 << (attempts - 1).min(30);
        let delay = self.config.backoff_base_ms.saturating_mul(factor);
        Some(now.saturating_add(delay.min(i64::MAX as u64) as i64))
    }

    /// What the mail's templates render: stored with the row (read when
    /// it is composed), or for a digest gathered now (None: nothing
    /// waits, nothing to send).
    fn context(&self, conn: &mut DbConnection, row: &MailRow) -> Result<Option<Context>, String> {
        if row.kind == kind::DIGEST {
            let user = row.user_id.ok_or("a digest without a recipient account")?;
            return notify::digest(conn, user)
                .map(|digest| digest.map(Context::Gathered))
                .map_err(|e| e.to_string());
        }
        Ok(Some(Context::Stored))
    }

    /// Mails that ask their reader to act in a game link to it with a
    /// single-use sign-in code (`service::sessions`), made as they are
    /// sent so that its lifetime starts when the mail goes out: one for
    /// each such mail of `contexts`, all written in one transaction (a
    /// stored context that cannot be read gets one too: it is read only
    /// when composed). When they cannot be written, those mails fail this
    /// attempt.
    fn with_sign_in(
        &self,
        conn: &mut DbConnection,
        rows: &[MailRow],
        contexts: &mut [Option<Result<Pending, String>>],
    ) {
        let asks_to_act = [
            kind::YOUR_MOVE,
            kind::REMINDER,
            kind::ACCEPTED,
            kind::TIMEOUT,
        ];
        if self.sessions.mail_link.is_zero() {
            return;
        }
        let mut wanted = Vec::new();
        for (i, (row, context)) in rows.iter().zip(contexts.iter()).enumerate() {
            if let Some(Ok(_)) = context
                && let (Some(user), Some(game)) = (row.user_id, row.game_id.as_deref())
                && asks_to_act.contains(&row.kind.as_str())
            {
                wanted.push((i, user, game.to_string()));
            }
        }
        let targets: Vec<(i64, &str)> = wanted.iter().map(|(_, u, g)| (*u, g.as_str())).collect();
        if targets.is_empty() {
            return;
        }
        let codes = crate::service::sessions::sign_in_codes(
            conn,
            &self.sessions,
            &targets,
            self.clock.now(),
        );
        for (n, &(i, ..)) in wanted.iter().enumerate() {
            let Some(result) = &mut contexts[i] else {
                continue;
            };
            match (&codes, result) {
                (Ok(codes), Ok(pending)) => pending.sign_in = Some(codes[n].clone()),
                (Ok(_), Err(_)) => {}
                (Err(e), result) => *result = Err(e.detail.clone()),
            }
        }
    }

    fn next_digest(&self, conn: &mut DbConnection, user: i64, at: i64) {
        let scheduled = users::by_id(conn, user)
            .map_err(|e| e.to_string())
            .and_then(|person| match person {
                Some(p) => notify::schedule_digest(conn, &p, at).map_err(|e| e.to_string()),
                None => Ok(()),
            });
        if let Err(error) = scheduled {
            tracing::warn!(user, %error, "next digest not scheduled");
        }
    }

    fn compose(&self, row: &MailRow, mut context: serde_json::Value) -> Result<Message, String> {
        let settings_url = self.links.settings_url();
        self.links.fill(&mut context);
        let reply_to = self
            .replies
            .as_ref()
            .and_then(|replies| replies.for_mail(row, &context, self.clock.now()));
        context["reply_address"] = reply_to.clone().into();
        if self.replies.is_none() {
            // Without reply addresses the codes would invite replies that
            // nobody reads: the mail lists the decisions in words only.
            strip_commands(&mut context);
        }
        let images = pictures::attach(&mut context, &row.message_id, &self.links.host);
        let rendered = self.templates.render(&row.kind, &context)?;
        sender::compose(
            Envelope {
                from: &self.config.from,
                to: &row.recipient,
                subject: &rendered.subject,
                message_id: self.links.message_id(&row.message_id),
                thread: row.game_id.as_deref().map(|g| self.links.thread_root(g)),
                settings_url: &settings_url,
                reply_to: reply_to.as_deref(),
                auto_reply: matches!(
                    row.kind.as_str(),
                    kind::ANSWER | kind::REFUSAL | kind::INVITATION_ANSWER
                ),
            },
            rendered.text,
            rendered.html,
            images,
        )
    }

    fn send(&self, row: &MailRow, message: &Message) -> Result<(), String> {
        self.mailer.send(message, &row.message_id)?;
        tracing::info!(mail = row.id, kind = %row.kind, "mail sent");
        Ok(())
    }
}

/// `f` of each of `items`, in their order, computed on a thread per core
/// (this one included), each taking the next item when it is done with
/// its last: one mail can cost ten times another (its game's layer drawn
/// the first time), and fixed shares would leave a thread waiting.
fn in_parallel<T: Send, R: Send>(items: Vec<T>, f: impl Fn(T) -> R + Sync) -> Vec<R> {
    use std::sync::Mutex;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let threads = std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(items.len());
    if threads <= 1 {
        return items.into_iter().map(f).collect();
    }
    let slots: Vec<Mutex<(Option<T>, Option<R>)>> = items
        .into_iter()
        .map(|item| Mutex::new((Some(item), None)))
        .collect();
    let next = AtomicUsize::new(0);
    let work = || {
        while let Some(slot) = slots.get(next.fetch_add(1, Ordering::Relaxed)) {
            let item = slot.lock().unwrap_or_else(|e| e.into_inner()).0.take();
            if let Some(item) = item {
                let result = f(item);
                slot.lock().unwrap_or_else(|e| e.into_inner()).1 = Some(result);
            }
        }
    };
    std::thread::scope(|scope| {
        let others: Vec<_> = (1..threads).map(|_| scope.spawn(work)).collect();
        work();
        for other in others {
            if let Err(panic) = other.join() {
                std::panic::resume_unwind(panic);
            }
        }
    });
    slots
        .into_iter()
        .filter_map(|slot| slot.into_inner().unwrap_or_else(|e| e.into_inner()).1)
        .collect()
}

/// Our lease ran out during the sends, and another worker may have taken
/// the rows: their Message-IDs tell duplicates.
fn lost_lease(rows: usize) {
    tracing::warn!(rows, "mail worker lost its lease on rows it sent");
}

/// A sent mail's context without its secret: an invitation's token, an
/// account mail's code. The database keeps only their hashes (in
/// `invitations`, `account_codes`), and a sent mail no longer needs them.
/// None when the stored context may stay as it is.
fn without_secrets(row: &MailRow) -> Option<String> {
    let secrets: &[&str] = if row.kind == kind::INVITATION {
        &["token"]
    } else if kind::WITH_CODE.contains(&row.kind.as_str()) {
        &["code", "link_query"]
    } else {
        return None;
    };
    let mut context = serde_json::from_str::<serde_json::Value>(&row.context).ok()?;
    let fields = context.as_object_mut()?;
    for secret in secrets {
        fields.remove(*secret)?;
    }
    Some(context.to_string())
}

/// Removes every command menu (`commands`) from a mail's context.
fn strip_commands(context: &mut serde_json::Value) {
    match context {
        serde_json::Value::Object(fields) => {
            fields.remove("commands");
            fields.values_mut().for_each(strip_commands);
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(strip_commands),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::in_parallel;
    use std::time::Duration;

    /// Results come back in the items' order whatever their cost, and each
    /// item is taken once.
    #[test]
    fn in_parallel_keeps_the_order_of_uneven_work() {
        for n in [0, 1, 2, 3, 10, 33] {
            let items: Vec<u64> = (0..n).collect();
            let out = in_parallel(items, |i| {
                // The first items cost the most, so a thread that took
                // fixed shares would finish long after the other.
                if i < 2 {
                    std::thread::sleep(Duration::from_millis(20));
                }
                i * 10
            });
            assert_eq!(out, (0..n).map(|i| i * 10).collect::<Vec<_>>());
        }
    }

    #[test]
    #[should_panic(expected = "item 3")]
    fn a_panic_in_one_item_reaches_the_caller() {
        in_parallel((0..8).collect(), |i: u32| {
            if i == 3 {
                panic!("item 3");
            }
            i
        });
    }
}
