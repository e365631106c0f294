//! Submitting a move: load → check → play → consequences → commit, as
//! one change (docs/architecture.md, "Moves: read, check, write once").
//! The request's parsing is in `request`, reading the log in `read_log`.

mod read_log;
mod request;

pub use read_log::{LogEntry, all_rows, log, log_entry};
pub use request::{IdempotencyKey, MoveRequest, check_move_number};

use super::chain::{Entry, NewRows, RecentEvents};
use super::engine_state;
use super::feed::GameSignal;
use super::game_cache::{CachedGame, GameCache, Used};
use super::games::{self, Seated, finish_update};
use super::{Now, notify, timeouts};
use crate::describe::{self, Table};
use crate::error::Error;
use crate::store::DbConnection;
use crate::store::games::{self as db, GameRow, IdempotencyRecord, status};
use crate::store::users::User;
use hexpost_engine::{Event, GameState, LegalAction, Redact, Seat};
use request::{ParsedMove, parse_request};
use serde::{Deserialize, Serialize};
use std::sync::Arc;
use utoipa::ToSchema;

#[derive(Serialize, Deserialize, ToSchema, Debug)]
pub struct MoveOutcome {
    /// The game's move number after this move and the automated steps it
    /// triggered (each of them is a log row of its own).
    pub move_number: i64,
    /// What happened, as you may see it: your move's events, then those of
    /// every automated step that followed.
    pub events: Vec<Event>,
    /// Each event of `events` in a sentence, in the same order: the words
    /// of the log rows' `text` and the mails.
    #[schema(example = json!(["Ada rolled 6 and 3 (9).", "Ada received 1 grain and 1 lumber."]))]
    pub text: Vec<String>,
    /// Your view after the move.
    pub view: hexpost_engine::GameView,
    pub legal_actions: Vec<LegalAction>,
    /// Each entry of `legal_actions` as a phrase, at the same index (see
    /// `GameDetail`).
    pub legal_action_text: Vec<String>,
    pub status: String,
    pub chain_head: String,
}

/// What a move answers: a status and its JSON body, serialized once (with
/// an Idempotency-Key, a retry gets the same text back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveReply {
    pub status: u16,
    pub body: String,
    /// The streams' signal of the move, sent with its write; none for a
    /// retry answered from its stored reply (`feed::written`).
    pub signal: Option<GameSignal>,
}

/// How often a move is read and checked again when the game changed
/// between its read and its write. A concurrent move makes the next
/// attempt stale at once; a reminder or a vacation does not, and two of
/// them within one move's few milliseconds are unheard of.
const ATTEMPTS: usize = 3;

/// Applies one move with every automated step it triggers, its log rows,
/// the game row update and the mails it causes, written as one change.
///
/// Each attempt runs load → check → play → consequences → commit. The
/// game is loaded without a lock, and the change is committed only if the
/// game row is still the version loaded (see `store::change`). When
/// another change came first, the move is loaded and checked again: a
/// concurrent duplicate then finds itself stale, or, sent with the same
/// Idempotency-Key, gets the first one's reply.
///
/// When this instance wrote the game last, the first attempt loads that
/// copy instead of reading it (`game_cache`); if the copy turns out stale,
/// or the move is refused, it starts again from the database, which alone
/// decides a refusal.
pub fn submit(
    conn: &mut DbConnection,
    cache: &GameCache,
    user: i64,
    game_id: &str,
    req: MoveRequest,
    idempotency: Option<IdempotencyKey>,
    now: Now,
) -> Result<MoveReply, Error> {
    let key = idempotency.as_ref();
    match cache.get(game_id) {
        None => cache.count(Used::Miss),
        Some(copy) => {
            let from_copy = attempt(conn, Some(&copy), user, game_id, req.clone(), key, now);
            if let Ok(Some(done)) = from_copy {
                cache.count(Used::Hit);
                return Ok(done.keep_in(cache));
            }
            cache.count(Used::ReadAgain);
            cache.forget(game_id);
        }
    }
    for _ in 0..ATTEMPTS {
        if let Some(done) = attempt(conn, None, user, game_id, req.clone(), key, now)? {
            return Ok(done.keep_in(cache));
        }
    }
    Err(Error::conflict(
        "concurrent_update",
        "the game kept changing while this move was applied; send it again",
    ))
}

/// An attempt that answers the client: its reply, and the game as it
/// wrote it (none when the reply is a stored Idempotency-Key reply).
struct Done {
    reply: MoveReply,
    written: Option<CachedGame>,
}

impl Done {
    fn keep_in(self, cache: &GameCache) -> MoveReply {
        if let Some(game) = self.written {
            cache.keep(game);
        }
        self.reply
    }
}

/// One load → check → play → consequences → commit of `submit`, from
/// `copy` when given, else from the database. None when the game changed
/// before the commit; from a copy, None also when the move is not written
/// for any other reason, so that the database decides it.
fn attempt(
    conn: &mut DbConnection,
    copy: Option<&CachedGame>,
    user: i64,
    game_id: &str,
    req: MoveRequest,
    idempotency: Option<&IdempotencyKey>,
    now: Now,
) -> Result<Option<Done>, Error> {
    let loaded = match copy {
        Some(copy) => match LoadedGame::copied(copy, user) {
            Some(loaded) => loaded,
            None => return Ok(None),
        },
        None => LoadedGame::read(conn, game_id, user)?,
    };
    let parsed = match check(conn, &loaded, user, game_id, req, idempotency, now)? {
        Checked::Playable(parsed) => parsed,
        Checked::Replay(reply) => {
            return Ok(Some(Done {
                reply,
                written: None,
            }));
        }
        Checked::ReadAgain => return Ok(None),
    };
    let mut played = play(loaded, parsed, user, now)?;
    consequences(conn, &mut played, user, now)?;
    commit(conn, played, user, idempotency, now)
}

/// Where a loaded game came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Source {
    /// This instance's copy (`game_cache`), which may be stale.
    Copy,
    Database,
}

/// The game a move starts from, read from the database or copied from
/// `game_cache`, with the mover's seat.
struct LoadedGame {
    source: Source,
    game: GameRow,
    /// The users in seat 0 and 1.
    seat_users: [i64; 2],
    /// The mover's seat.
    seat: u8,
    /// The copy's engine state. A game read from the database has its state
    /// parsed only once the move is known to apply to it (`play`).
    state: Option<GameState>,
    /// The events of the game's last log rows, as far as the copy knows
    /// them (none when read).
    recent: RecentEvents,
    /// The players' accounts, if the copy holds them.
    people: Option<Arc<[User; 2]>>,
}

impl LoadedGame {
    /// The copy, for `user`'s move; None when `user` has no seat in it
    /// (the database then decides).
    fn copied(copy: &CachedGame, user: i64) -> Option<LoadedGame> {
        let seat = copy.seat_users.iter().position(|u| *u == user)?;
        Some(LoadedGame {
            source: Source::Copy,
            game: copy.game.clone(),
            seat_users: copy.seat_users,
            seat: seat as u8,
            state: Some(copy.state.clone()),
            recent: copy.recent.clone(),
            people: copy.people.clone(),
        })
    }

    /// The game row with its seats, read without a lock and outside any
    /// transaction; `user` must play in it.
    fn read(conn: &mut DbConnection, game_id: &str, user: i64) -> Result<LoadedGame, Error> {
        let Seated {
            game,
            seat_users,
            seat,
        } = games::read_seated(conn, game_id, user)?;
        Ok(LoadedGame {
            source: Source::Database,
            game,
            seat_users,
            seat,
            state: None,
            recent: RecentEvents::default(),
            people: None,
        })
    }
}

/// What checking a request against the loaded game found.
enum Checked {
    /// The move may be played.
    Playable(ParsedMove),
    /// A retry of a move already written: the reply stored with its
    /// Idempotency-Key.
    Replay(MoveReply),
    /// The copy is not at the move number the client expects; the copy
    /// may be the stale one, so the database decides.
    ReadAgain,
}

/// Checks, in this order: a stored reply for the Idempotency-Key, the
/// request (and its signature), that the game is active, and the move
/// number the client expects.
fn check(
    conn: &mut DbConnection,
    loaded: &LoadedGame,
    user: i64,
    game_id: &str,
    req: MoveRequest,
    idempotency: Option<&IdempotencyKey>,
    now: Now,
) -> Result<Checked, Error> {
    if let Some(IdempotencyKey { key, request_hash }) = idempotency
        && let Some(rec) = db::idempotency_get(conn, user, key)?
    {
        if &rec.request_hash != request_hash {
            return Err(Error::unprocessable(
                "idempotency_key_reused",
                "this Idempotency-Key was used with a different request",
            ));
        }
        return Ok(Checked::Replay(MoveReply {
            status: rec.status as u16,
            body: rec.response,
            signal: None,
        }));
    }
    let parsed = parse_request(conn, user, game_id, req, now)?;
    let game = &loaded.game;
    games::require_active(game)?;
    if parsed.expected != game.move_number {
        if loaded.source == Source::Copy {
            // Not worth building the 409 here: the database decides.
            return Ok(Checked::ReadAgain);
        }
        let current = games::detail(conn, game, user)?;
        return Err(stale_move(parsed.expected, game.move_number, &current));
    }
    Ok(Checked::Playable(parsed))
}

/// A move played: the mover's decision and every automated step after it,
/// each recorded as a log row, not yet written.
struct Played {
    game: GameRow,
    seat_users: [i64; 2],
    seat: u8,
    /// The state after the last automated step.
    state: GameState,
    /// The decision's events, then those of every automated step.
    events: Vec<Event>,
    rows: NewRows,
    /// Which seats were awaited before the decision (their clocks).
    was_awaited: [bool; 2],
    /// The log row of the mover's own decision.
    decision: timeouts::Decision,
    /// A signed move's jti, written with the move.
    used_jti: Option<crate::store::used_jtis::UsedJti>,
}

/// The 422 for an action the engine refused (`api::problem::IllegalMoveProblem`).
pub fn illegal_move(reason: &hexpost_engine::ActionError, move_number: i64) -> Error {
    Error::unprocessable("illegal_move", format!("illegal move: {reason}"))
        .with("reason", reason)
        .with("move_number", move_number)
}

/// The 409 for a move sent for another move number than the game's
/// (`api::problem::StaleMoveProblem`).
pub fn stale_move(expected: i64, move_number: i64, current: &games::GameDetail) -> Error {
    Error::conflict(
        "stale_move",
        format!("expected move number {expected}, the game is at {move_number}"),
    )
    .with("current_move_number", move_number)
    .with("game", current)
}

/// Applies the decision (refused as `illegal_move` by the engine) and
/// every automated step it triggers, one log row each.
fn play(loaded: LoadedGame, parsed: ParsedMove, user: i64, now: Now) -> Result<Played, Error> {
    let LoadedGame {
        game,
        seat_users,
        seat,
        state,
        recent,
        people,
        ..
    } = loaded;
    let mut state = match state {
        Some(state) => state,
        None => engine_state(&game)?,
    };
    let was_awaited = timeouts::awaited(&state);
    let mut events = state
        .apply_decision(Seat(seat), &parsed.action)
        .map_err(|e| illegal_move(&e, game.move_number))?;
    let mut rows = NewRows::after_known(&game, now.at, recent, people);
    let used_jti = parsed.used_jti;
    let entry = Entry::player(seat, user, &parsed.action, parsed.jws)?;
    rows.push(entry, &events, &state)?;
    let decision = timeouts::Decision {
        seat: seat as usize,
        seq: rows.seq(),
    };
    events.extend(rows.automated_steps(&mut state)?);
    Ok(Played {
        game,
        seat_users,
        seat,
        state,
        events,
        rows,
        was_awaited,
        decision,
        used_jti,
    })
}

/// What the move changes besides the log: the game row (move number,
/// chain head, status), the clocks, and the mails it causes.
fn consequences(
    conn: &mut DbConnection,
    played: &mut Played,
    user: i64,
    now: Now,
) -> Result<(), Error> {
    let Played {
        game,
        seat_users,
        state,
        rows,
        was_awaited,
        decision,
        ..
    } = played;
    finish_update(game, state, seat_users, rows);
    timeouts::after_decision(game, *was_awaited, state, Some(*decision), now)?;
    notify::after_move(
        conn,
        game,
        state,
        seat_users,
        Some(user),
        rows,
        now.turn_mail,
    )
}

/// Writes the move as one change if the game row is still the version
/// loaded (None, and nothing written, if not), with the reply stored
/// under its Idempotency-Key.
fn commit(
    conn: &mut DbConnection,
    mut played: Played,
    user: i64,
    idempotency: Option<&IdempotencyKey>,
    now: Now,
) -> Result<Option<Done>, Error> {
    let people = played.rows.people(conn, played.seat_users)?;
    let names = people.each_ref().map(|p| p.display_name.clone());
    let table = Table::of_state(names, &played.state);
    let mut reply = MoveReply {
        status: 200,
        body: serde_json::to_string(&outcome(&played, &table)).map_err(Error::internal)?,
        signal: None,
    };
    let record = idempotency.map(|k| IdempotencyRecord {
        user_id: user,
        key: k.key.clone(),
        request_hash: k.request_hash.clone(),
        status: i32::from(reply.status),
        response: reply.body.clone(),
        created_at: now.at,
    });
    let Played {
        mut game,
        seat_users,
        state,
        rows,
        used_jti,
        ..
    } = played;
    let (recent, people) = (rows.recent_after(), rows.people_known());
    let signal = GameSignal::of(&game, seat_users.to_vec());
    let payload = serde_json::to_string(&signal).map_err(Error::internal)?;
    let written = rows.write_alone(
        conn,
        &mut game,
        record.as_ref(),
        used_jti.as_ref(),
        Some(&payload),
    )?;
    reply.signal = Some(signal);
    Ok(written.then(|| Done {
        reply,
        written: Some(CachedGame {
            game,
            state,
            seat_users,
            recent,
            people,
        }),
    }))
}

/// The move as the mover sees it.
fn outcome(played: &Played, table: &Table) -> MoveOutcome {
    let Played {
        game,
        seat,
        state,
        events,
        ..
    } = played;
    let viewer = Some(Seat(*seat));
    let events: Vec<Event> = events.iter().map(|e| e.redacted_for(viewer)).collect();
    let legal_actions = if game.status == status::ACTIVE {
        state.legal_actions(Seat(*seat))
    } else {
        Vec::new()
    };
    MoveOutcome {
        move_number: game.move_number,
        text: events
            .iter()
            .map(|e| describe::event_unredacted(e, table))
            .collect(),
        events,
        view: state.view(viewer),
        legal_action_text: games::legal_action_text(&legal_actions, table),
        legal_actions,
        status: game.status.clone(),
        chain_head: game.chain_head.clone(),
    }
}
