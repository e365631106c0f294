//! Writing the move log: every row a change adds, each chained to the one
//! before it and hashed by the committed scheme (`commitments`), written
//! with the game row that now points at the last of them and the mails the
//! change queues.

use super::audit::{self, ServerAction};
use super::commitments::{self, Contents, Salts};
use crate::error::Error;
use crate::store::DbConnection;
use crate::store::change::{self, Change};
use crate::store::games::{GameRow, IdempotencyRecord, MoveRow};
use crate::store::outbox::NewMail;
use crate::store::used_jtis::UsedJti;
use crate::store::users::{self, User};
use hexpost_engine::{Event, GameState, Seat};
use serde::Serialize;
use std::collections::VecDeque;
use std::sync::Arc;

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
    /// An engine action decided for `seat`: it may be a sealed answer.
    decision: bool,
}

impl Entry {
    /// A player's engine action.
    pub fn player(
        seat: u8,
        user: i64,
        action: &impl Serialize,
        jws: Option<String>,
    ) -> Result<Self, Error> {
        Ok(Entry {
            actor: format!("seat:{seat}"),
            seat: Some(seat),
            user: Some(user),
            action: serde_json::to_string(action).map_err(Error::internal)?,
            jws,
            decision: true,
        })
    }

    /// A player gave up.
    pub fn resign(seat: u8, user: i64) -> Result<Self, Error> {
        Ok(Entry {
            decision: false,
            ..Entry::player(seat, user, &ServerAction::Resign { seat }, None)?
        })
    }

    /// A decision the server took for `seat` because its time ran out: an
    /// engine action, replayed like the player's own.
    pub fn timeout(seat: u8, action: &impl Serialize) -> Result<Self, Error> {
        Ok(Entry {
            actor: "timeout".into(),
            seat: Some(seat),
            user: None,
            action: serde_json::to_string(action).map_err(Error::internal)?,
            jws: None,
            decision: true,
        })
    }

    pub fn server(seat: Option<u8>, action: &ServerAction) -> Result<Self, Error> {
        Ok(Entry {
            actor: "server".into(),
            seat,
            user: None,
            action: serde_json::to_string(action).map_err(Error::internal)?,
            jws: None,
            decision: false,
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
    /// The salts of the game's commitments (None: the stored seed is
    /// broken, and no row can be written).
    salts: Option<Salts>,
    /// The game's first committed row: these rows' first when the game has
    /// none yet.
    committed_from: i64,
    rows: Vec<MoveRow>,
    /// The state after the last row, as stored in the game row.
    state_json: Option<String>,
    mails: Vec<NewMail>,
    /// The stored rows just before these, as far as this instance knows
    /// them.
    earlier: RecentEvents,
    /// The players' accounts: from the game's copy, or as read for this
    /// change's mails.
    people: Option<Arc<[User; 2]>>,
    /// The accounts came from the copy: the write checks they are current.
    people_from_copy: bool,
}

impl NewRows {
    pub fn after(game: &GameRow, at: i64) -> Self {
        NewRows {
            game_id: game.id.clone(),
            at,
            head: game.chain_head.clone(),
            seq: game.move_number,
            salts: audit::decode_seed(&game.seed).map(|seed| Salts::new(&seed, &game.id)),
            committed_from: game.committed_from.unwrap_or(game.move_number + 1),
            rows: Vec::new(),
            state_json: None,
            mails: Vec::new(),
            earlier: RecentEvents::default(),
            people: None,
            people_from_copy: false,
        }
    }

    /// The same, knowing the events of the game's last stored rows and,
    /// if known, its players' accounts: from the game's copy in
    /// `game_cache`, which the write checks against the database.
    pub fn after_known(
        game: &GameRow,
        at: i64,
        earlier: RecentEvents,
        people: Option<Arc<[User; 2]>>,
    ) -> Self {
        debug_assert!(earlier.last_seq().is_none_or(|s| s == game.move_number));
        NewRows {
            earlier,
            people_from_copy: people.is_some(),
            people,
            ..NewRows::after(game, at)
        }
    }

    /// The players' accounts (`seats`: their ids by seat), as known or
    /// else read.
    pub fn people(
        &mut self,
        conn: &mut DbConnection,
        seats: [i64; 2],
    ) -> Result<Arc<[User; 2]>, Error> {
        if let Some(people) = &self.people {
            return Ok(people.clone());
        }
        let people = Arc::new(users::pair(conn, seats)?);
        self.people = Some(people.clone());
        Ok(people)
    }

    /// The players' accounts, if this change knows them.
    pub fn people_known(&self) -> Option<Arc<[User; 2]>> {
        self.people.clone()
    }

    /// The events of the stored rows just before these, as far as known.
    pub fn earlier(&self) -> &RecentEvents {
        &self.earlier
    }

    /// Keeps the events of stored rows read from the database, when they
    /// run up to the last stored row (they then hold what was known, and
    /// more).
    pub fn learn_earlier(&mut self, read: RecentEvents) {
        if read.last_seq() == Some(self.stored_until()) {
            self.earlier = read;
        }
    }

    /// The sequence number of the last stored row, the one before these.
    pub fn stored_until(&self) -> i64 {
        self.seq - self.rows.len() as i64
    }

    /// The events of the game's last rows once these are written.
    pub fn recent_after(&self) -> RecentEvents {
        let mut recent = self.earlier.clone();
        for row in &self.rows {
            recent.push(row.seq, Arc::from(row.events.as_str()));
        }
        recent
    }

    /// The sequence number of the last row (the game's move number once
    /// written).
    pub fn seq(&self) -> i64 {
        self.seq
    }

    /// Points `game` at the last row: its move number, chain head and,
    /// once it has a committed row, where they start.
    pub fn point(&self, game: &mut GameRow) {
        game.move_number = self.seq;
        game.chain_head = self.head.clone();
        if !self.rows.is_empty() {
            game.committed_from = Some(self.committed_from);
        }
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
    /// A decision that leaves its seat's answer sealed
    /// (`GameState::sealed_answers`) is marked so: its action and signed
    /// move are committed to and shown to the other seat only once revealed.
    pub fn push(&mut self, entry: Entry, events: &[Event], state: &GameState) -> Result<(), Error> {
        let salts = self
            .salts
            .as_ref()
            .ok_or_else(|| Error::internal(format!("game {}: bad stored seed", self.game_id)))?;
        let state_json = serde_json::to_string(state).map_err(Error::internal)?;
        let sealed = entry.decision
            && entry
                .seat
                .is_some_and(|s| state.sealed_answers().contains(&Seat(s)));
        self.seq += 1;
        let mut row = MoveRow {
            game_id: self.game_id.clone(),
            seq: self.seq,
            actor: entry.actor,
            seat: entry.seat.map(i32::from),
            user_id: entry.user,
            action: entry.action,
            jws: entry.jws,
            events: serde_json::to_string(events).map_err(Error::internal)?,
            state_hash: audit::sha256_hex(state_json.as_bytes()),
            prev_hash: std::mem::take(&mut self.head),
            hash: String::new(),
            created_at: self.at,
            sealed,
        };
        let built = Contents {
            seq: row.seq,
            prev_hash: &row.prev_hash,
            bridge: commitments::bridges(Some(self.committed_from), row.seq),
            action: &row.action,
            jws: row.jws.as_deref(),
            sealed,
            events,
        }
        .build(salts);
        row.hash = commitments::row_hash(&row, &built.skeleton);
        self.head = row.hash.clone();
        self.rows.push(row);
        self.state_json = Some(state_json);
        Ok(())
    }

    /// Runs every automated step now due, one row each, so the log shows
    /// (and verification checks) the state after every neutral or
    /// fictional action. Returns their events in order.
    pub fn automated_steps(&mut self, state: &mut GameState) -> Result<Vec<Event>, Error> {
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
    pub fn write(self, conn: &mut DbConnection, game: &mut GameRow) -> Result<(), Error> {
        if !self.write_change(conn, game, None, None, None, change::write)? {
            // The lock rules this out; the version check is a second line
            // of defence.
            return Err(Error::conflict(
                "concurrent_update",
                "the game changed meanwhile; retry",
            ));
        }
        Ok(())
    }

    /// Writes the change without a transaction or lock around it (a move,
    /// with its Idempotency-Key reply and, signed, its jti, and the signal
    /// the streams get of it): `false`, and nothing written, when the game
    /// row is no longer the version `game` was read at.
    pub fn write_alone(
        self,
        conn: &mut DbConnection,
        game: &mut GameRow,
        idempotency: Option<&IdempotencyRecord>,
        used_jti: Option<&UsedJti>,
        signal: Option<&str>,
    ) -> Result<bool, Error> {
        self.write_change(
            conn,
            game,
            idempotency,
            used_jti,
            signal,
            change::write_alone,
        )
    }

    fn write_change(
        self,
        conn: &mut DbConnection,
        game: &mut GameRow,
        idempotency: Option<&IdempotencyRecord>,
        used_jti: Option<&UsedJti>,
        signal: Option<&str>,
        how: fn(&mut DbConnection, Change) -> crate::store::StoreResult<bool>,
    ) -> Result<bool, Error> {
        debug_assert_eq!(game.move_number, self.seq);
        debug_assert!(self.rows.is_empty() || game.committed_from == Some(self.committed_from));
        let change = Change {
            game,
            moves: &self.rows,
            mails: &self.mails,
            idempotency,
            used_jti,
            people: self.people.as_deref().filter(|_| self.people_from_copy),
            signal,
        };
        Ok(how(conn, change)?)
    }
}

/// The events of a game's last log rows, oldest first and without a gap.
/// A "your move" mail describes the rows since its reader's last decision:
/// nearly always the other player's turn, which is among these, so the
/// game's copy in `game_cache` keeps them and the mail needs no read.
#[derive(Clone, Debug, Default)]
pub struct RecentEvents {
    /// (sequence number, events as stored).
    rows: VecDeque<(i64, Arc<str>)>,
}

impl RecentEvents {
    /// Rows kept: a turn with its trades, builds and automated steps.
    pub const KEPT: usize = 64;

    /// Appends row `seq`; a gap before it drops what came before.
    pub fn push(&mut self, seq: i64, events: Arc<str>) {
        if self.rows.back().is_some_and(|(last, _)| last + 1 != seq) {
            self.rows.clear();
        }
        self.rows.push_back((seq, events));
        if self.rows.len() > Self::KEPT {
            self.rows.pop_front();
        }
    }

    pub fn last_seq(&self) -> Option<i64> {
        self.rows.back().map(|(seq, _)| *seq)
    }

    /// The events of every row after `seq` up to `last`, or None when not
    /// all of them are here.
    pub fn between(&self, seq: i64, last: i64) -> Option<Vec<Arc<str>>> {
        if seq >= last {
            return Some(Vec::new());
        }
        let (first, _) = self.rows.front()?;
        if *first > seq + 1 || self.last_seq() != Some(last) {
            return None;
        }
        Some(
            self.rows
                .iter()
                .filter(|(s, _)| *s > seq)
                .map(|(_, events)| events.clone())
                .collect(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::RecentEvents;
    use std::sync::Arc;

    fn rows(seqs: impl IntoIterator<Item = i64>) -> RecentEvents {
        let mut recent = RecentEvents::default();
        for seq in seqs {
            recent.push(seq, Arc::from(seq.to_string()));
        }
        recent
    }

    fn texts(events: Option<Vec<Arc<str>>>) -> Option<Vec<String>> {
        events.map(|v| v.iter().map(|e| e.to_string()).collect())
    }

    #[test]
    fn only_a_range_held_whole_up_to_its_end_is_answered() {
        let recent = rows(5..=9);
        assert_eq!(
            texts(recent.between(6, 9)),
            Some(vec!["7".into(), "8".into(), "9".into()])
        );
        assert_eq!(texts(recent.between(4, 9)).map(|v| v.len()), Some(5));
        assert_eq!(recent.between(3, 9), None, "row 4 is not held");
        assert_eq!(recent.between(6, 10), None, "row 10 is not held");
        assert_eq!(texts(recent.between(9, 9)), Some(vec![]));
        assert_eq!(RecentEvents::default().between(0, 3), None);
        assert_eq!(texts(RecentEvents::default().between(3, 3)), Some(vec![]));
    }

    #[test]
    fn a_gap_drops_the_rows_before_it_and_only_the_last_rows_are_kept() {
        let mut recent = rows(1..=3);
        recent.push(5, Arc::from("5"));
        assert_eq!(recent.between(3, 5), None);
        assert_eq!(texts(recent.between(4, 5)), Some(vec!["5".into()]));
        let long = rows(1..=(RecentEvents::KEPT as i64 + 10));
        let last = RecentEvents::KEPT as i64 + 10;
        assert_eq!(
            texts(long.between(10, last)).map(|v| v.len()),
            Some(RecentEvents::KEPT),
            "rows 11 to {last} are the last {} rows",
            RecentEvents::KEPT
        );
        assert_eq!(long.between(9, last), None, "row 10 was let go");
    }
}
