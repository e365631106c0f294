//! Writing the move log: every row a change adds, each chained to the one
//! before it, written with the game row that now points at the last of them
//! and the mails the change queues.

use super::audit::{self, ServerAction};
use crate::api::problem::ApiError;
use crate::store::DbConnection;
use crate::store::change::{self, Change};
use crate::store::games::{GameRow, IdempotencyRecord, MoveRow};
use crate::store::outbox::NewMail;
use hexpost_engine::{Event, GameState};
use serde::Serialize;

/// Who made a log row's entry, and what it was (besides its events and the
/// state it led to).
pub struct Entry {
    /// `seat:N` for a player's decision, `server` for what the server did.
    pub actor: String,
    pub seat: Option<u8>,
    pub user: Option<i64>,
    /// The stored JSON of the engine action or server entry.
    pub action: String,
    pub jws: Option<String>,
}

impl Entry {
    pub fn player(
        seat: u8,
        user: i64,
        action: &impl Serialize,
        jws: Option<String>,
    ) -> Result<Self, ApiError> {
        Ok(Entry {
            actor: format!("seat:{seat}"),
            seat: Some(seat),
            user: Some(user),
            action: serde_json::to_string(action).map_err(ApiError::internal)?,
            jws,
        })
    }

    /// A decision the server took for `seat` because its time ran out: an
    /// engine action, replayed like the player's own.
    pub fn timeout(seat: u8, action: &impl Serialize) -> Result<Self, ApiError> {
        Ok(Entry {
            actor: "timeout".into(),
            seat: Some(seat),
            user: None,
            action: serde_json::to_string(action).map_err(ApiError::internal)?,
            jws: None,
        })
    }

    pub fn server(seat: Option<u8>, action: &ServerAction) -> Result<Self, ApiError> {
        Ok(Entry {
            actor: "server".into(),
            seat,
            user: None,
            action: serde_json::to_string(action).map_err(ApiError::internal)?,
            jws: None,
        })
    }
}

/// The rows one change appends after a game's current chain head, all
/// stamped with the change's time, and the mails it queues.
pub struct NewRows {
    game_id: String,
    at: i64,
    head: String,
    seq: i64,
    rows: Vec<MoveRow>,
    /// The state after the last row, as stored in the game row.
    state_json: Option<String>,
    mails: Vec<NewMail>,
}

impl NewRows {
    pub fn after(game: &GameRow, at: i64) -> Self {
        NewRows {
            game_id: game.id.clone(),
            at,
            head: game.chain_head.clone(),
            seq: game.move_number,
            rows: Vec::new(),
            state_json: None,
            mails: Vec::new(),
        }
    }

    /// The sequence number of the last row (the game's move number once
    /// written).
    pub fn seq(&self) -> i64 {
        self.seq
    }

    pub fn head(&self) -> &str {
        &self.head
    }

    /// When the rows were written (milliseconds since the epoch).
    pub fn at(&self) -> i64 {
        self.at
    }

    /// The rows so far, in order. They are not in the database until the
    /// change is written: whoever describes them reads them here.
    pub fn rows(&self) -> &[MoveRow] {
        &self.rows
    }

    /// Queues `mail` with the change: it exists exactly when the change was
    /// written.
    pub fn queue(&mut self, mail: NewMail) {
        self.mails.push(mail);
    }

    /// The engine state after the last row, serialized once for both its
    /// hash and the game row.
    pub fn state_json(&self) -> Option<&str> {
        self.state_json.as_deref()
    }

    /// Adds a row recording `entry`, its events and the state it led to.
    pub fn push(
        &mut self,
        entry: Entry,
        events: &[Event],
        state: &GameState,
    ) -> Result<(), ApiError> {
        let state_json = serde_json::to_string(state).map_err(ApiError::internal)?;
        self.seq += 1;
        let mut row = MoveRow {
            game_id: self.game_id.clone(),
            seq: self.seq,
            actor: entry.actor,
            seat: entry.seat.map(i32::from),
            user_id: entry.user,
            action: entry.action,
            jws: entry.jws,
            events: serde_json::to_string(events).map_err(ApiError::internal)?,
            state_hash: audit::sha256_hex(state_json.as_bytes()),
            prev_hash: std::mem::take(&mut self.head),
            hash: String::new(),
            created_at: self.at,
        };
        row.hash = audit::row_hash(&row);
        self.head = row.hash.clone();
        self.rows.push(row);
        self.state_json = Some(state_json);
        Ok(())
    }

    /// Runs every automated step now due, one row each, so the log shows
    /// (and verification checks) the state after every neutral or
    /// fictional action. Returns their events in order.
    pub fn automated_steps(&mut self, state: &mut GameState) -> Result<Vec<Event>, ApiError> {
        let mut all = Vec::new();
        let mut step = Vec::new();
        while let Some(seat) = state.automated_step(&mut step) {
            let entry = Entry::server(Some(seat.0), &ServerAction::AutomatedStep { seat: seat.0 })?;
            self.push(entry, &step, state)?;
            all.append(&mut step);
        }
        Ok(all)
    }

    /// Writes the rows, their mails and `game`, which must already carry
    /// the new move number and chain head (and, in its clocks, the mails
    /// queued), inside the caller's transaction that holds the game row's
    /// lock.
    pub fn write(self, conn: &mut DbConnection, game: &mut GameRow) -> Result<(), ApiError> {
        if !self.write_change(conn, game, None, change::write)? {
            // The lock rules this out; the version check is a second line
            // of defence.
            return Err(ApiError::conflict(
                "concurrent_update",
                "the game changed meanwhile; retry",
            ));
        }
        Ok(())
    }

    /// Writes the change without a transaction or lock around it (a move):
    /// `false`, and nothing written, when the game row is no longer the
    /// version `game` was read at.
    pub fn write_alone(
        self,
        conn: &mut DbConnection,
        game: &mut GameRow,
        idempotency: Option<&IdempotencyRecord>,
    ) -> Result<bool, ApiError> {
        self.write_change(conn, game, idempotency, change::write_alone)
    }

    fn write_change(
        self,
        conn: &mut DbConnection,
        game: &mut GameRow,
        idempotency: Option<&IdempotencyRecord>,
        how: fn(&mut DbConnection, Change) -> crate::store::StoreResult<bool>,
    ) -> Result<bool, ApiError> {
        debug_assert_eq!(game.move_number, self.seq);
        let change = Change {
            game,
            moves: &self.rows,
            mails: &self.mails,
            idempotency,
        };
        Ok(how(conn, change)?)
    }
}
