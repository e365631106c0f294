//! The PostgreSQL side of the live streams: one connection per instance
//! that LISTENs on the signal channel and publishes every signal to this
//! instance's streams, whichever instance committed the change. A lost
//! connection is opened again; streams recheck the log at each heartbeat,
//! so signals missed meanwhile only arrive late.

use crate::service::feed::{CHANNEL, Feed, GameSignal};
use crate::workers::Shutdown;
use diesel::pg::PgConnection;
use diesel::{Connection, RunQueryDsl};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How often the connection is read for signals: libpq offers no wake-up
/// on this connection's socket, and a read that finds nothing is one
/// system call.
const POLL: Duration = Duration::from_millis(50);
/// A query this often notices a connection the network lost silently.
const PING: Duration = Duration::from_secs(30);
const RECONNECT: Duration = Duration::from_secs(1);

pub async fn run(database_url: String, feed: Arc<Feed>, shutdown: Shutdown) {
    while !shutdown.requested() {
        let url = database_url.clone();
        let connected = actix_web::rt::task::spawn_blocking(move || connect(&url)).await;
        let mut conn = match connected {
            Ok(Ok(conn)) => conn,
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "stream signals: cannot listen; retrying");
                if !shutdown.sleep(RECONNECT).await {
                    return;
                }
                continue;
            }
            Err(e) => {
                tracing::error!(error = %e, "stream signals: connecting panicked");
                return;
            }
        };
        tracing::info!(channel = CHANNEL, "stream signals: listening");
        let mut pinged = Instant::now();
        while shutdown.sleep(POLL).await {
            let checked = if pinged.elapsed() > PING {
                pinged = Instant::now();
                diesel::sql_query("SELECT 1").execute(&mut conn).map(drop)
            } else {
                Ok(())
            };
            if let Err(e) = checked.and_then(|()| drain(&mut conn, &feed)) {
                tracing::warn!(error = %e, "stream signals: connection lost; listening again");
                break;
            }
        }
    }
}

fn connect(url: &str) -> diesel::QueryResult<PgConnection> {
    let mut conn = PgConnection::establish(url)
        .map_err(|e| diesel::result::Error::QueryBuilderError(Box::new(e)))?;
    diesel::sql_query(format!("LISTEN {CHANNEL}")).execute(&mut conn)?;
    Ok(conn)
}

fn drain(conn: &mut PgConnection, feed: &Feed) -> diesel::QueryResult<()> {
    for notification in conn.notifications_iter() {
        let notification = notification?;
        match serde_json::from_str::<GameSignal>(&notification.payload) {
            Ok(signal) => feed.publish(&signal),
            Err(e) => tracing::warn!(error = %e, "stream signals: unreadable payload"),
        }
    }
    Ok(())
}
