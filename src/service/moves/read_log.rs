//! Reading the move log: redacted for a player, whole for admins.

use crate::error::Error;
use crate::store::DbConnection;
use crate::store::games::{self as db, MoveRow};
use hexpost_engine::{Event, Redact, Seat};
use serde::Serialize;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema, Debug)]
pub struct LogEntry {
    pub seq: i64,
    /// `seat:N` for a player's move, `server` for what the server did.
    pub actor: String,
    /// The seat that acted: the player's, or for an automated step the
    /// neutral or fictional seat (or the real seat whose automatic roll it
    /// made). None for the start row.
    pub seat: Option<u8>,
    /// A player's engine action, or a server entry: `start`, `resign`, or
    /// `automated_step` (a neutral or fictional seat's action, or an
    /// automatic roll, that the server resolved after the row before).
    #[schema(value_type = Object)]
    pub action: serde_json::Value,
    /// The signed move, verbatim, when the move was signed.
    pub jws: Option<String>,
    /// The events, redacted for the reader.
    #[schema(value_type = Vec<hexpost_engine::Event>)]
    pub events: Vec<serde_json::Value>,
    pub state_hash: String,
    pub prev_hash: String,
    pub hash: String,
    pub created_at: i64,
}

/// Log rows after `after`, with events redacted for `viewer` (None: the
/// full log, for admins).
pub fn log(
    conn: &mut DbConnection,
    game_id: &str,
    viewer: Option<Option<Seat>>,
    after: i64,
    limit: i64,
) -> Result<Vec<LogEntry>, Error> {
    let rows = db::moves(conn, game_id, after, limit)?;
    rows.into_iter().map(|r| entry(r, viewer)).collect()
}

fn entry(row: MoveRow, viewer: Option<Option<Seat>>) -> Result<LogEntry, Error> {
    let events: Vec<Event> = serde_json::from_str(&row.events).map_err(Error::internal)?;
    let events = events
        .iter()
        .map(|e| {
            let shown = match viewer {
                Some(v) => e.redacted_for(v),
                None => e.clone(),
            };
            serde_json::to_value(shown).unwrap_or_default()
        })
        .collect();
    Ok(LogEntry {
        seq: row.seq,
        actor: row.actor,
        seat: row.seat.map(|s| s as u8),
        action: serde_json::from_str(&row.action).unwrap_or_default(),
        jws: row.jws,
        events,
        state_hash: row.state_hash,
        prev_hash: row.prev_hash,
        hash: row.hash,
        created_at: row.created_at,
    })
}

/// Every row of a game, for verification and export.
pub fn all_rows(conn: &mut DbConnection, game_id: &str) -> Result<Vec<MoveRow>, Error> {
    let mut out = Vec::new();
    loop {
        let after = out.last().map(|r: &MoveRow| r.seq).unwrap_or(0);
        let batch = db::moves(conn, game_id, after, 1000)?;
        if batch.is_empty() {
            return Ok(out);
        }
        out.extend(batch);
    }
}
