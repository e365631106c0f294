//! The hash-chained move log and its verification by replay.
//!
//! A player's decision and each automated step it triggers are separate
//! rows; verification replays them one at a time and also checks that no
//! automated step that was due is missing before a player's row or at the
//! end.
//!
//! Each row's hash chains to the one before it (`prev_hash`); the first
//! row chains to SHA-256 of `"hexpost-genesis:" + game_id + ":" +
//! seed_hash`. A state hash is SHA-256 of the stored engine state JSON,
//! which holds the game's secret seed (the generator's), so it cannot be
//! tried against candidates either. Rows are hashed by one of two schemes
//! (`commitments::Scheme`): games' rows from `games.committed_from` on by
//! the committed scheme (`commitments`), the rows earlier releases wrote by
//! the plain one (`plain_row_hash`).
//!
//! Verification also binds the players: each player's row names the user
//! in its seat by the start row, and `game_players` holds the start row's
//! seats.

use super::commitments::{self, Built, Salts, Scheme};
use crate::store::games::{GameRow, MoveRow};
use hexpost_engine::rng::GameRng;
use hexpost_engine::{Action, Event, GameConfig, GameState, Seat};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use utoipa::ToSchema;

pub fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

pub fn genesis(game_id: &str, seed_hash: &str) -> String {
    sha256_hex(format!("hexpost-genesis:{game_id}:{seed_hash}").as_bytes())
}

/// The plain scheme of earlier releases: SHA-256 over the JSON array
/// `[prev_hash, game_id, seq, actor, seat, action, jws, events, state_hash,
/// created_at]`, with `action` and `events` as the exact stored JSON text.
/// It covers hidden parts in clear, so players are not shown these hashes
/// while the game runs (`moves::log`).
pub fn plain_row_hash(row: &MoveRow) -> String {
    let canonical = serde_json::json!([
        row.prev_hash,
        row.game_id,
        row.seq,
        row.actor,
        row.seat,
        row.action,
        row.jws,
        row.events,
        row.state_hash,
        row.created_at
    ]);
    sha256_hex(canonical.to_string().as_bytes())
}

/// The hash `row` must have in `game`, by the row's scheme: what a writer
/// holding the seed computes. Err when its events do not parse.
pub fn row_hash(game: &GameRow, row: &MoveRow) -> Result<String, String> {
    let seed = decode_seed(&game.seed).ok_or("the stored seed is not 32 hex bytes")?;
    row_hash_with(game.committed_from, &Salts::new(&seed, &game.id), row)
}

fn row_hash_with(
    committed_from: Option<i64>,
    salts: &Salts,
    row: &MoveRow,
) -> Result<String, String> {
    Ok(match Scheme::from_first(committed_from, row.seq) {
        Scheme::Plain => plain_row_hash(row),
        Scheme::Committed => {
            let events: Vec<Event> = serde_json::from_str(&row.events)
                .map_err(|e| format!("the events do not parse: {e}"))?;
            let built = Built::of_row(row, &events, committed_from, salts);
            commitments::row_hash(row, &built.skeleton)
        }
    })
}

/// Server-level entries of the log that are not engine actions.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerAction {
    /// The game began: who sits where, and the roll-off that decided it.
    Start {
        seats: [i64; 2],
        roll_off: Vec<[u8; 4]>,
    },
    /// A player gave up; the other wins.
    Resign { seat: u8 },
    /// A player's time for a decision ran out and the game's timeout
    /// policy made them lose; the other wins.
    Forfeit { seat: u8 },
    /// One automated step the engine ran for `seat` after the row before:
    /// a neutral or fictional seat's action, or an automatic roll.
    AutomatedStep { seat: u8 },
}

/// Seats from the roll-off (or the creator's choice), reproducible from
/// the seed: each player rolls 2d6 from a stream derived from the seed
/// until the totals differ; the higher roll sits in seat 0.
pub fn roll_off(
    seed: &[u8; 32],
    creator: i64,
    opponent: i64,
    creator_seat: Option<u8>,
) -> ([i64; 2], Vec<[u8; 4]>) {
    if let Some(s) = creator_seat {
        return (
            if s == 0 {
                [creator, opponent]
            } else {
                [opponent, creator]
            },
            Vec::new(),
        );
    }
    let mut derived = [0u8; 32];
    derived.copy_from_slice(&Sha256::digest([seed.as_slice(), b"roll-off"].concat()));
    let mut rng = GameRng::from_seed_bytes(derived);
    let mut rolls = Vec::new();
    loop {
        let r = [rng.die(), rng.die(), rng.die(), rng.die()];
        rolls.push(r);
        let (a, b) = (r[0] + r[1], r[2] + r[3]);
        if a != b {
            return (
                if a > b {
                    [creator, opponent]
                } else {
                    [opponent, creator]
                },
                rolls,
            );
        }
    }
}

pub fn decode_seed(hex_seed: &str) -> Option<[u8; 32]> {
    hex::decode(hex_seed).ok()?.try_into().ok()
}

#[derive(Serialize, ToSchema, Debug, PartialEq)]
pub struct VerifyReport {
    pub game_id: String,
    /// True when every row replays and every hash and link checks out.
    pub ok: bool,
    pub rows_checked: i64,
    pub chain_head: String,
    /// The first problem found, if any.
    pub divergence: Option<Divergence>,
}

#[derive(Serialize, ToSchema, Debug, PartialEq)]
pub struct Divergence {
    /// The row where it was found (0: the game row itself).
    pub seq: i64,
    pub problem: String,
}

/// Replays the game from its seed and logged actions and checks every
/// state hash, row hash (and with it every commitment, against the salts
/// the seed gives), chain link and row's maker, the players' seats
/// (`players`: the game's `(seat, user)` rows) and the game row's summary.
pub fn verify(game: &GameRow, players: &[(i32, i64)], rows: &[MoveRow]) -> VerifyReport {
    let result = check(game, players, rows);
    VerifyReport {
        game_id: game.id.clone(),
        ok: result.is_ok(),
        rows_checked: match &result {
            Ok(n) => *n,
            Err(d) => d.seq.max(1) - 1,
        },
        chain_head: game.chain_head.clone(),
        divergence: result.err(),
    }
}

/// Who may have made a row.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Maker {
    /// `server`, naming no user.
    Server,
    /// `seat:N`, naming the user the start row seats in N.
    Player,
    /// A player, or `timeout` (the server deciding for the seat), naming
    /// no user.
    PlayerOrTimeout,
}

fn made_by(row: &MoveRow, seats: Option<[i64; 2]>, maker: Maker) -> Result<(), String> {
    let by_server = match (maker, row.actor.as_str()) {
        (Maker::Server, "server") | (Maker::PlayerOrTimeout, "timeout") => true,
        (Maker::Server, actor) => {
            return Err(format!("the row's actor is {actor}, not the server"));
        }
        _ => false,
    };
    if by_server {
        return match row.user_id {
            None => Ok(()),
            Some(_) => Err("a row the server made names a user".into()),
        };
    }
    let seat = row.seat.ok_or("a player's row without a seat")?;
    if row.actor != format!("seat:{seat}") {
        return Err(format!("the row's actor {} is not seat {seat}", row.actor));
    }
    let sitting = seats.and_then(|s| s.get(seat as usize).copied());
    match row.user_id {
        None => Err("a player's row names no user".into()),
        Some(user) if Some(user) == sitting => Ok(()),
        Some(_) => Err("the move's user does not sit in its seat".into()),
    }
}

fn check(game: &GameRow, players: &[(i32, i64)], rows: &[MoveRow]) -> Result<i64, Divergence> {
    let fail = |seq: i64, problem: String| Divergence { seq, problem };
    let seed = decode_seed(&game.seed)
        .ok_or_else(|| fail(0, "the stored seed is not 32 hex bytes".into()))?;
    if sha256_hex(&seed) != game.seed_hash {
        return Err(fail(
            0,
            "the seed does not match the published seed hash".into(),
        ));
    }
    let config: GameConfig = serde_json::from_str(&game.config)
        .map_err(|e| fail(0, format!("the stored config does not parse: {e}")))?;
    if let Some(first) = game.committed_from
        && !(1..=rows.len() as i64 + 1).contains(&first)
    {
        return Err(fail(
            0,
            format!(
                "the game row says its committed rows start at {first}, the log has {}",
                rows.len()
            ),
        ));
    }
    let salts = Salts::new(&seed, &game.id);
    let mut prev = genesis(&game.id, &game.seed_hash);
    let mut state: Option<GameState> = None;
    let mut seats: Option<[i64; 2]> = None;
    for (i, row) in rows.iter().enumerate() {
        let expected_seq = i as i64 + 1;
        let seq = row.seq;
        if seq != expected_seq {
            return Err(fail(
                expected_seq,
                format!("row {expected_seq} is missing: found row {seq} in its place"),
            ));
        }
        if row.prev_hash != prev {
            return Err(fail(
                seq,
                "the chain link (prev_hash) does not match the previous row's hash".into(),
            ));
        }
        let scheme = Scheme::from_first(game.committed_from, seq);
        if row_hash_with(game.committed_from, &salts, row).map_err(|p| fail(seq, p))? != row.hash {
            return Err(fail(
                seq,
                "the row's hash does not match its contents".into(),
            ));
        }
        let mut sealed = false;
        let (events_json, maker) = if let Ok(server) =
            serde_json::from_str::<ServerAction>(&row.action)
        {
            match server {
                ServerAction::Start {
                    seats: s,
                    roll_off: rolls,
                } => {
                    if state.is_some() {
                        return Err(fail(seq, "a second start row".into()));
                    }
                    let creator_seat = game.creator_seat.map(|s| s as u8);
                    let (expect, expect_rolls) = roll_off(
                        &seed,
                        game.created_by,
                        other(s, game.created_by),
                        creator_seat,
                    );
                    if expect != s || expect_rolls != rolls {
                        return Err(fail(
                            seq,
                            "the seats do not follow from the seed's roll-off".into(),
                        ));
                    }
                    seats = Some(s);
                    let (st, events) = GameState::opening(&config, GameRng::from_seed_bytes(seed))
                        .map_err(|e| fail(seq, format!("config no longer valid: {e}")))?;
                    state = Some(st);
                    (
                        serde_json::to_string(&events).unwrap_or_default(),
                        Maker::Server,
                    )
                }
                ServerAction::Resign { seat } | ServerAction::Forfeit { seat } => {
                    if row.seat != Some(seat as i32) {
                        return Err(fail(seq, "the row names another seat".into()));
                    }
                    automation_settled(state.as_ref(), seq)?;
                    let maker = if matches!(server, ServerAction::Resign { .. }) {
                        Maker::Player
                    } else {
                        Maker::Server
                    };
                    (row.events.clone(), maker)
                }
                ServerAction::AutomatedStep { seat } => {
                    let st = state.as_mut().ok_or_else(|| {
                        fail(seq, "an automated step before the start row".into())
                    })?;
                    let mut events = Vec::new();
                    match st.automated_step(&mut events) {
                        Some(s) if s == Seat(seat) && row.seat == Some(seat as i32) => {}
                        Some(s) => {
                            return Err(fail(
                                seq,
                                format!("the automated step was for seat {}, not {seat}", s.0),
                            ));
                        }
                        None => {
                            return Err(fail(seq, "no automated step was due here".into()));
                        }
                    }
                    (
                        serde_json::to_string(&events).unwrap_or_default(),
                        Maker::Server,
                    )
                }
            }
        } else {
            automation_settled(state.as_ref(), seq)?;
            let st = state
                .as_mut()
                .ok_or_else(|| fail(seq, "a move before the start row".into()))?;
            let action: Action = serde_json::from_str(&row.action)
                .map_err(|e| fail(seq, format!("the action does not parse: {e}")))?;
            let seat = row
                .seat
                .ok_or_else(|| fail(seq, "a player move without a seat".into()))?;
            let events = st
                .apply_decision(Seat(seat as u8), &action)
                .map_err(|e| fail(seq, format!("the action does not replay: {e}")))?;
            sealed = st.sealed_answers().contains(&Seat(seat as u8));
            (
                serde_json::to_string(&events).unwrap_or_default(),
                Maker::PlayerOrTimeout,
            )
        };
        made_by(row, seats, maker).map_err(|p| fail(seq, p))?;
        if events_json != row.events {
            return Err(fail(
                seq,
                "the replayed events differ from the logged events".into(),
            ));
        }
        // Rows of the plain scheme were never marked.
        let marked = scheme == Scheme::Committed && sealed;
        if row.sealed != marked {
            return Err(fail(
                seq,
                format!(
                    "the row is {}marked sealed, but the replay {} its answer",
                    if row.sealed { "" } else { "not " },
                    if sealed { "seals" } else { "does not seal" }
                ),
            ));
        }
        let st = state.as_ref().ok_or_else(|| fail(seq, "no state".into()))?;
        let state_json = serde_json::to_string(st).unwrap_or_default();
        if sha256_hex(state_json.as_bytes()) != row.state_hash {
            return Err(fail(
                seq,
                "the replayed state's hash differs from the logged state hash".into(),
            ));
        }
        prev = row.hash.clone();
    }
    let last = rows.len() as i64;
    automation_settled(state.as_ref(), last + 1)?;
    if game.move_number != last {
        return Err(fail(
            0,
            format!(
                "the game row says {} moves, the log has {last}",
                game.move_number
            ),
        ));
    }
    if game.chain_head != prev && last > 0 {
        return Err(fail(
            0,
            "the game row's chain head is not the last row's hash".into(),
        ));
    }
    if let Some(s) = seats {
        let mut seated = players.to_vec();
        seated.sort_unstable();
        if seated != [(0, s[0]), (1, s[1])] {
            return Err(fail(
                0,
                "the players' seats (game_players) are not the start row's".into(),
            ));
        }
    }
    if let (Some(st), Some(stored)) = (&state, &game.state)
        && serde_json::to_string(st).ok().as_deref() != Some(stored.as_str())
    {
        return Err(fail(
            0,
            "the stored game state differs from the replayed state".into(),
        ));
    }
    Ok(last)
}

/// A player's row (or the end of the log) may only follow once every
/// automated step due has its own row before it.
fn automation_settled(state: Option<&GameState>, seq: i64) -> Result<(), Divergence> {
    let Some(st) = state else { return Ok(()) };
    let mut probe = st.clone();
    match probe.automated_step(&mut Vec::new()) {
        None => Ok(()),
        Some(seat) => Err(Divergence {
            seq,
            problem: format!(
                "an automated step for seat {} was due here but has no row",
                seat.0
            ),
        }),
    }
}

fn other(seats: [i64; 2], creator: i64) -> i64 {
    if seats[0] == creator {
        seats[1]
    } else {
        seats[0]
    }
}
