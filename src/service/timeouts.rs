//! Deadlines in use: keeping each game's clocks up to date as decisions
//! are logged, the sweep that sends reminders and applies the timeout
//! policy when a deadline passes, and vacations.
//!
//! On expiry the game's policy applies: `forfeit` makes the late player
//! lose; `auto` takes the engine's safe default decision for them
//! (`GameState::timeout_decision`) until nothing more is awaited from them
//! (a turn may need a roll and then its end), each logged as a row of its
//! own with actor `timeout`. A player for whom the server already decided
//! `max_auto_decisions` times in a row forfeits at the next expiry.

use super::audit::ServerAction;
use super::chain::{Entry, NewRows};
use super::deadlines::{Clocks, Due, VacationError};
use super::games::{self, finish_update};
use super::{Now, engine_state, notify};
use crate::error::Error;
use crate::store::DbConnection;
use crate::store::games::{self as db, GameRow, status, timeout_policy};
use hexpost_engine::{Event, GameState, Redact, Seat};

/// More engine actions than any one late decision needs; a guard, so a
/// decision the engine keeps asking for can never loop.
const MAX_ACTIONS_PER_TIMEOUT: usize = 32;

/// Which real seats a decision is awaited from.
pub fn awaited(state: &GameState) -> [bool; 2] {
    let mut out = [false, false];
    for s in state.awaiting().iter() {
        if let Some(slot) = out.get_mut(s.index()) {
            *slot = true;
        }
    }
    if state.winner.is_some() {
        out = [false, false];
    }
    out
}

pub fn clocks(game: &GameRow) -> Result<Clocks, Error> {
    Clocks::parse(&game.clocks, game.vacation_days)
        .map_err(|e| Error::internal(format!("game {} clocks: {e}", game.id)))
}

pub(super) fn store(game: &mut GameRow, clocks: &Clocks) {
    game.clocks = clocks.to_json();
    game.wake_at = if game.status == status::ACTIVE {
        clocks.wake_at()
    } else {
        None
    };
}

/// A player's own decision: their seat and the log row that records it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub seat: usize,
    pub seq: i64,
}

/// Restarts the clocks after a player's own decision or the start of a
/// game (None), once `game` holds its new status.
pub fn after_decision(
    game: &mut GameRow,
    was_awaited: [bool; 2],
    state: &GameState,
    decided: Option<Decision>,
    now: Now,
) -> Result<(), Error> {
    let mut c = clocks(game)?;
    if let Some(Decision { seat, seq }) = decided {
        c.decided_themselves(seat, seq);
    }
    let decided = decided.map(|d| d.seat);
    let now_awaited = if game.status == status::ACTIVE {
        awaited(state)
    } else {
        [false, false]
    };
    c.after_decision(was_awaited, now_awaited, decided, now.at, now.limits(game));
    store(game, &c);
    Ok(())
}

/// Games whose reminder or deadline time has come, earliest first.
pub fn due_games(conn: &mut DbConnection, now: i64, limit: i64) -> Result<Vec<String>, Error> {
    Ok(db::wake_due(conn, now, limit)?)
}

/// What one sweep of a game did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Swept {
    pub reminders: u32,
    pub automatic: u32,
    pub forfeits: u32,
}

impl std::ops::AddAssign for Swept {
    fn add_assign(&mut self, o: Swept) {
        self.reminders += o.reminders;
        self.automatic += o.automatic;
        self.forfeits += o.forfeits;
    }
}

/// Sends the reminders and applies the timeouts of `game_id` that are due
/// at `now`, in one transaction. Several sweepers may try the same game:
/// the row lock (skipped on PostgreSQL while another holds it) and the
/// re-read clocks make sure each deadline is acted on once.
pub fn sweep_game(conn: &mut DbConnection, game_id: &str, now: Now) -> Result<Swept, Error> {
    crate::store::write_tx(conn, |conn| {
        let Some(mut game) = db::lock_unless_busy(conn, game_id)? else {
            return Ok(Swept::default());
        };
        if game.status != status::ACTIVE {
            if game.wake_at.is_some() {
                game.wake_at = None;
                db::save(conn, &mut game)?;
            }
            return Ok(Swept::default());
        }
        let seats = db::players(conn, game_id)?;
        let seat_users = [seats[0].1, seats[1].1];
        let mut c = clocks(&game)?;
        let mut swept = Swept::default();
        for seat in 0..2 {
            match c.due(seat, now.at) {
                Due::Nothing => {}
                Due::Reminder => {
                    c.seats[seat].remind_at = None;
                    let state = engine_state(&game)?;
                    if notify::reminder(conn, &game, &state, &seat_users, seat, &c, now.at)? {
                        swept.reminders += 1;
                    }
                }
                Due::Expired => {
                    swept += expire(conn, &mut game, &mut c, &seat_users, seat, now)?;
                    // The expiry wrote the game row (and may have ended
                    // the game); nothing else is due in this sweep.
                    return Ok(swept);
                }
            }
        }
        store(&mut game, &c);
        db::save(conn, &mut game)?;
        Ok(swept)
    })
}

/// Applies the timeout policy to the late `seat` and writes the game.
fn expire(
    conn: &mut DbConnection,
    game: &mut GameRow,
    c: &mut Clocks,
    seat_users: &[i64; 2],
    seat: usize,
    now: Now,
) -> Result<Swept, Error> {
    let mut state = engine_state(game)?;
    let mut rows = NewRows::after(game, now.at);
    let out_of_chances = c.seats[seat].auto_in_a_row >= game.max_auto_decisions.max(0) as u32;
    if game.timeout_policy == timeout_policy::FORFEIT || out_of_chances {
        return forfeit(conn, game, c, &state, rows, seat_users, seat);
    }
    let was = awaited(&state);
    if !was[seat] {
        // A deadline left over with nothing awaited (clocks written by an
        // older version): drop it rather than decide anything.
        c.seats[seat].due_at = None;
        c.seats[seat].remind_at = None;
        store(game, c);
        db::save(conn, game)?;
        return Ok(Swept::default());
    }
    let mut taken: Vec<Event> = Vec::new();
    for _ in 0..MAX_ACTIONS_PER_TIMEOUT {
        if !awaited(&state)[seat] {
            break;
        }
        let Some(action) = state.timeout_decision(Seat(seat as u8)) else {
            // The engine always has a safe decision (a property test says
            // so); should it ever have none, the game must still end.
            tracing::error!(game = %game.id, seat, "no timeout decision; the player forfeits");
            return forfeit(conn, game, c, &state, rows, seat_users, seat);
        };
        let events = state
            .apply_decision(Seat(seat as u8), &action)
            .map_err(|e| Error::internal(format!("timeout decision refused: {e}")))?;
        rows.push(Entry::timeout(seat as u8, &action)?, &events, &state)?;
        taken.extend(
            events
                .iter()
                .map(|e| e.redacted_for(Some(Seat(seat as u8)))),
        );
        let automated = rows.automated_steps(&mut state)?;
        taken.extend(
            automated
                .iter()
                .map(|e| e.redacted_for(Some(Seat(seat as u8)))),
        );
    }
    finish_update(game, &state, seat_users, &rows);
    c.seats[seat].auto_in_a_row += 1;
    let now_awaited = if game.status == status::ACTIVE {
        awaited(&state)
    } else {
        [false, false]
    };
    c.after_decision(was, now_awaited, Some(seat), now.at, now.limits(game));
    store(game, c);
    notify::timed_out(conn, game, &state, seat_users, seat, &taken, &mut rows)?;
    notify::after_move(
        conn,
        game,
        &state,
        seat_users,
        None,
        &mut rows,
        now.turn_mail,
    )?;
    rows.write(conn, game)?;
    Ok(Swept {
        automatic: 1,
        ..Swept::default()
    })
}

fn forfeit(
    conn: &mut DbConnection,
    game: &mut GameRow,
    c: &mut Clocks,
    state: &GameState,
    mut rows: NewRows,
    seat_users: &[i64; 2],
    seat: usize,
) -> Result<Swept, Error> {
    let action = ServerAction::Forfeit { seat: seat as u8 };
    rows.push(Entry::server(Some(seat as u8), &action)?, &[], state)?;
    games::end_without_engine_winner(game, &rows, 1 - seat);
    c.stop();
    store(game, c);
    let at = rows.at();
    rows.write(conn, game)?;
    notify::forfeited(conn, game, state, seat_users, seat, at)?;
    Ok(Swept {
        forfeits: 1,
        ..Swept::default()
    })
}

/// Starts (`days` Some) or ends (None) the vacation of `user` in a game.
pub fn vacation(
    conn: &mut DbConnection,
    user: i64,
    game_id: &str,
    days: Option<i64>,
    now: Now,
) -> Result<games::GameDetail, Error> {
    crate::store::write_tx(conn, |conn| {
        let games::Seated { mut game, seat, .. } = games::lock_seated(conn, game_id, user)?;
        games::require_active(&game)?;
        let seat = usize::from(seat);
        let mut c = clocks(&game)?;
        match days {
            Some(days) => c.start_vacation(seat, days, now.at),
            None => c.end_vacation(seat, now.at).map(|_| ()),
        }
        .map_err(|e| match e {
            VacationError::NotOnVacation => Error::conflict("not_on_vacation", e.to_string()),
            VacationError::TooShort | VacationError::TooLong => {
                Error::unprocessable("invalid_vacation", e.to_string())
                    .with("vacation_left_ms", c.seats[seat].vacation_left_ms)
            }
        })?;
        store(&mut game, &c);
        game.updated_at = now.at;
        db::save(conn, &mut game)?;
        games::detail(conn, &game, user)
    })
}
