//! One game as a JSON document, and back: the game row, its players, and
//! every log row exactly as stored, so the hashes still verify wherever
//! the document is imported.
//!
//! The seed and the engine state (which holds the deck and the dice to
//! come) are exported only once the game is finished, when the seed is
//! public anyway; a document without them cannot be replayed, so only
//! finished games can be imported. Players are named by their user ids,
//! which the log's start row carries inside its hashed text: an import
//! keeps each id, reusing the account with that id and e-mail or creating
//! it, and refuses a document whose ids belong to other accounts here.

use super::audit::{self, VerifyReport};
use super::moves;
use crate::error::Error;
use crate::store::games::{self as db, GameRow, MoveRow, status};
use crate::store::{DbConnection, now_ms, users, write_tx};
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use utoipa::ToSchema;

pub const FORMAT: &str = "hexpost.game.v1";

/// The password hash of an imported account: no password matches it.
pub const UNUSABLE_PASSWORD: &str = "!imported";

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "format": "hexpost.game.v1",
    "exported_at": 1767312000000_i64,
    "game": {
        "id": "0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4", "variant": "standard",
        "config": "{\"variant\":\"standard\",\"options\":{}}", "status": "finished",
        "created_by": 1, "seed": null,
        "seed_hash": "9f2c0d0e3b1c4e5f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f",
        "state": null, "move_number": 1,
        "chain_head": "5a1f0e7c6b5d4a3928170f6e5d4c3b2a190807f6e5d4c3b2a1908070605040302",
        "winner_seat": null, "time_limit_secs": 259200, "creator_seat": null,
        "created_at": 1767225600000_i64, "updated_at": 1767225660000_i64, "finished_at": null,
        "committed_from": 1
    },
    "users": [
        {"id": 1, "email": "ada@example.org", "display_name": "Ada"},
        {"id": 2, "email": "grace@example.org", "display_name": "Grace"}
    ],
    "seats": [{"seat": 0, "user_id": 2}, {"seat": 1, "user_id": 1}],
    "log": [{
        "seq": 1, "actor": "server", "seat": null, "user_id": null,
        "action": "{\"type\":\"start\",\"seats\":[2,1],\"roll_off\":[[5,4,2,3]]}",
        "jws": null, "events": "[]",
        "state_hash": "0d1c2b3a49586776859a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6e7f80912",
        "prev_hash": "7e6d5c4b3a29181706f5e4d3c2b1a0918273645546372819a0b1c2d3e4f50617",
        "hash": "5a1f0e7c6b5d4a3928170f6e5d4c3b2a190807f6e5d4c3b2a1908070605040302",
        "created_at": 1767225660000_i64, "sealed": false
    }]
}))]
pub struct GameExport {
    /// `hexpost.game.v1`.
    pub format: String,
    pub exported_at: i64,
    pub game: ExportedGame,
    /// The creator and the players.
    pub users: Vec<ExportedUser>,
    pub seats: Vec<ExportedSeat>,
    /// Every log row as stored; `action` and `events` are the stored JSON
    /// text, which the row hashes cover.
    pub log: Vec<ExportedMove>,
}

/// The game row. `seed` and `state` are null unless the game is finished.
#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "id": "0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4", "variant": "standard",
    "config": "{\"variant\":\"standard\",\"options\":{}}", "status": "active",
    "created_by": 1, "seed": null,
    "seed_hash": "9f2c0d0e3b1c4e5f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c3d2e1f0a9b8c7d6e5f",
    "state": null, "move_number": 1,
    "chain_head": "5a1f0e7c6b5d4a3928170f6e5d4c3b2a190807f6e5d4c3b2a1908070605040302",
    "winner_seat": null, "time_limit_secs": 259200, "creator_seat": null,
    "created_at": 1767225600000_i64, "updated_at": 1767225660000_i64, "finished_at": null,
    "committed_from": 1
}))]
pub struct ExportedGame {
    pub id: String,
    pub variant: String,
    /// The stored configuration (JSON text).
    pub config: String,
    pub status: String,
    pub created_by: i64,
    pub seed: Option<String>,
    pub seed_hash: String,
    /// The engine state after the last row (JSON text).
    pub state: Option<String>,
    pub move_number: i64,
    pub chain_head: String,
    pub winner_seat: Option<i32>,
    pub time_limit_secs: i64,
    pub creator_seat: Option<i32>,
    pub created_at: i64,
    pub updated_at: i64,
    pub finished_at: Option<i64>,
    /// `auto` or `forfeit`; documents from before timeouts existed have
    /// none and read as `auto`.
    #[serde(default = "default_policy")]
    pub timeout_policy: String,
    #[serde(default = "default_max_auto")]
    pub max_auto_decisions: i32,
    #[serde(default = "default_vacation_days")]
    pub vacation_days: i32,
    /// The first log row of the committed scheme; rows before it are of
    /// the plain scheme of earlier releases. Documents from before the
    /// committed scheme have none: every row is plain.
    #[serde(default)]
    pub committed_from: Option<i64>,
}

fn default_policy() -> String {
    crate::store::games::timeout_policy::AUTO.into()
}

fn default_max_auto() -> i32 {
    super::games::DEFAULT_MAX_AUTO_DECISIONS as i32
}

fn default_vacation_days() -> i32 {
    super::games::DEFAULT_VACATION_DAYS as i32
}

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"id": 1, "email": "ada@example.org", "display_name": "Ada"}))]
pub struct ExportedUser {
    pub id: i64,
    pub email: String,
    pub display_name: String,
}

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"seat": 0, "user_id": 2}))]
pub struct ExportedSeat {
    pub seat: i32,
    pub user_id: i64,
}

#[derive(Serialize, Deserialize, ToSchema, Debug, Clone)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({
    "seq": 1, "actor": "server", "seat": null, "user_id": null,
    "action": "{\"type\":\"start\",\"seats\":[2,1],\"roll_off\":[[5,4,2,3]]}",
    "jws": null, "events": "[]",
    "state_hash": "0d1c2b3a49586776859a4b3c2d1e0f1a2b3c4d5e6f708192a3b4c5d6e7f80912",
    "prev_hash": "7e6d5c4b3a29181706f5e4d3c2b1a0918273645546372819a0b1c2d3e4f50617",
    "hash": "5a1f0e7c6b5d4a3928170f6e5d4c3b2a190807f6e5d4c3b2a1908070605040302",
    "created_at": 1767225660000_i64, "sealed": false
}))]
pub struct ExportedMove {
    pub seq: i64,
    pub actor: String,
    pub seat: Option<i32>,
    pub user_id: Option<i64>,
    /// The stored JSON text of the action.
    pub action: String,
    pub jws: Option<String>,
    /// The stored JSON text of the events, unredacted.
    pub events: String,
    pub state_hash: String,
    pub prev_hash: String,
    pub hash: String,
    pub created_at: i64,
    /// The row's action and signed move were a sealed answer when written
    /// (rows of the committed scheme only; absent: false).
    #[serde(default)]
    pub sealed: bool,
}

#[derive(Serialize, ToSchema, Debug)]
#[schema(example = json!({
    "game_id": "0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4", "users_created": 2, "users_reused": 0,
    "verification": {
        "game_id": "0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4", "ok": true, "rows_checked": 412,
        "chain_head": "5a1f0e7c6b5d4a3928170f6e5d4c3b2a190807f6e5d4c3b2a1908070605040302",
        "divergence": null
    }
}))]
pub struct Imported {
    pub game_id: String,
    pub users_created: usize,
    pub users_reused: usize,
    /// The replay of the imported game, which succeeded.
    pub verification: VerifyReport,
}

/// The document for one game. Called by admins only; the admin log
/// records it.
pub fn export(
    conn: &mut DbConnection,
    admin: Option<i64>,
    game_id: &str,
) -> Result<GameExport, Error> {
    let game = db::get(conn, game_id)?.ok_or_else(|| Error::not_found("game"))?;
    let seats = db::players(conn, game_id)?;
    let log = moves::all_rows(conn, game_id)?;
    let mut ids: BTreeSet<i64> = seats.iter().map(|&(_, u)| u).collect();
    ids.insert(game.created_by);
    ids.extend(log.iter().filter_map(|r| r.user_id));
    let mut users_out = Vec::new();
    for id in ids {
        let user = users::by_id(conn, id)?
            .ok_or_else(|| Error::internal(format!("user {id} of game {game_id} is missing")))?;
        users_out.push(ExportedUser {
            id,
            email: user.email,
            display_name: user.display_name,
        });
    }
    let finished = game.status == status::FINISHED;
    db::admin_log(conn, admin, "export", game_id, &game.status)?;
    Ok(GameExport {
        format: FORMAT.into(),
        exported_at: now_ms(),
        users: users_out,
        seats: seats
            .into_iter()
            .map(|(seat, user_id)| ExportedSeat { seat, user_id })
            .collect(),
        log: log.into_iter().map(ExportedMove::from).collect(),
        game: ExportedGame {
            seed: finished.then(|| game.seed.clone()),
            state: if finished { game.state.clone() } else { None },
            id: game.id,
            variant: game.variant,
            config: game.config,
            status: game.status,
            created_by: game.created_by,
            seed_hash: game.seed_hash,
            move_number: game.move_number,
            chain_head: game.chain_head,
            winner_seat: game.winner_seat,
            time_limit_secs: game.time_limit_secs,
            creator_seat: game.creator_seat,
            created_at: game.created_at,
            updated_at: game.updated_at,
            finished_at: game.finished_at,
            timeout_policy: game.timeout_policy,
            max_auto_decisions: game.max_auto_decisions,
            vacation_days: game.vacation_days,
            committed_from: game.committed_from,
        },
    })
}

impl From<MoveRow> for ExportedMove {
    fn from(r: MoveRow) -> Self {
        ExportedMove {
            seq: r.seq,
            actor: r.actor,
            seat: r.seat,
            user_id: r.user_id,
            action: r.action,
            jws: r.jws,
            events: r.events,
            state_hash: r.state_hash,
            prev_hash: r.prev_hash,
            hash: r.hash,
            created_at: r.created_at,
            sealed: r.sealed,
        }
    }
}

fn invalid(detail: impl Into<String>) -> Error {
    Error::unprocessable("invalid_export", detail)
}

/// Imports a finished game in one transaction, which it commits only if
/// the imported game replays and every hash verifies.
pub fn import(
    conn: &mut DbConnection,
    admin: Option<i64>,
    doc: GameExport,
) -> Result<Imported, Error> {
    refuse_nul(&doc)?;
    let (game, rows) = check_document(doc.game, &doc.log)?;
    let people = check_people(&game, &doc.users, &doc.seats, &rows)?;
    write_tx(conn, |conn| {
        if db::exists(conn, &game.id)? {
            return Err(Error::conflict(
                "game_exists",
                format!("a game {} exists already", game.id),
            ));
        }
        let (created, reused) = resolve_users(conn, &people)?;
        db::insert_game(conn, &game)?;
        for seat in &doc.seats {
            db::add_player(conn, &game.id, seat.seat, seat.user_id)?;
        }
        db::insert_moves(conn, &rows)?;
        let players: Vec<(i32, i64)> = doc.seats.iter().map(|s| (s.seat, s.user_id)).collect();
        let report = audit::verify(&game, &players, &rows);
        if !report.ok {
            return Err(Error::unprocessable(
                "verification_failed",
                "the document does not verify: nothing was imported",
            )
            .with("verification", &report));
        }
        db::admin_log(
            conn,
            admin,
            "import",
            &game.id,
            &format!("rows={}", rows.len()),
        )?;
        Ok(Imported {
            game_id: game.id.clone(),
            users_created: created,
            users_reused: reused,
            verification: report,
        })
    })
}

/// PostgreSQL text cannot hold a NUL character (SQLite can), so a
/// document with one anywhere would fail on one backend only, mid-write.
fn refuse_nul(doc: &GameExport) -> Result<(), Error> {
    fn nul_at(v: &serde_json::Value) -> Option<String> {
        use serde_json::Value;
        match v {
            Value::String(s) => s.contains('\0').then(String::new),
            Value::Array(items) => (items.iter().enumerate())
                .find_map(|(i, item)| nul_at(item).map(|at| format!("[{i}]{at}"))),
            Value::Object(fields) => {
                (fields.iter()).find_map(|(k, item)| nul_at(item).map(|at| format!(".{k}{at}")))
            }
            _ => None,
        }
    }
    let value = serde_json::to_value(doc).map_err(|e| invalid(e.to_string()))?;
    if let Some(at) = nul_at(&value) {
        return Err(invalid(format!(
            "{} holds a NUL character, which no text in a game may",
            at.trim_start_matches('.')
        )));
    }
    Ok(())
}

/// The game row and log rows the document describes, if it is a finished
/// game with its seed.
fn check_document(g: ExportedGame, log: &[ExportedMove]) -> Result<(GameRow, Vec<MoveRow>), Error> {
    if g.status != status::FINISHED {
        return Err(Error::unprocessable(
            "not_importable",
            format!(
                "only finished games can be imported; this one is {}",
                g.status
            ),
        ));
    }
    let seed = g
        .seed
        .ok_or_else(|| invalid("a finished game's document carries its seed"))?;
    if !matches!(g.winner_seat, Some(0 | 1)) {
        return Err(invalid("a finished game has a winner seat, 0 or 1"));
    }
    let config: hexpost_engine::GameConfig = serde_json::from_str(&g.config)
        .map_err(|e| invalid(format!("the configuration does not parse: {e}")))?;
    if config.variant.id() != g.variant {
        return Err(invalid(format!(
            "the game says variant {}, its configuration {}",
            g.variant,
            config.variant.id()
        )));
    }
    if g.state.is_none() {
        return Err(invalid("a finished game's document carries its state"));
    }
    if g.id.is_empty() || g.id.len() > 64 {
        return Err(invalid("the game id must have 1 to 64 characters"));
    }
    // Checked before anything is written: a repeated row would otherwise
    // meet the primary key instead of the verification.
    if let Some((i, m)) = log.iter().enumerate().find(|(i, m)| m.seq != *i as i64 + 1) {
        return Err(invalid(format!(
            "log row {} has seq {}: rows are numbered 1, 2, … in order",
            i + 1,
            m.seq
        )));
    }
    let rows = log
        .iter()
        .map(|m| MoveRow {
            game_id: g.id.clone(),
            seq: m.seq,
            actor: m.actor.clone(),
            seat: m.seat,
            user_id: m.user_id,
            action: m.action.clone(),
            jws: m.jws.clone(),
            events: m.events.clone(),
            state_hash: m.state_hash.clone(),
            prev_hash: m.prev_hash.clone(),
            hash: m.hash.clone(),
            created_at: m.created_at,
            sealed: m.sealed,
        })
        .collect();
    let game = GameRow {
        id: g.id,
        variant: g.variant,
        config: g.config,
        status: g.status,
        created_by: g.created_by,
        seed,
        seed_hash: g.seed_hash,
        state: g.state,
        move_number: g.move_number,
        chain_head: g.chain_head,
        awaiting: String::new(),
        winner_seat: g.winner_seat,
        time_limit_secs: g.time_limit_secs,
        creator_seat: g.creator_seat,
        created_at: g.created_at,
        updated_at: g.updated_at,
        finished_at: g.finished_at,
        timeout_policy: g.timeout_policy,
        max_auto_decisions: g.max_auto_decisions,
        vacation_days: g.vacation_days,
        // Only finished games are imported: no deadline runs.
        clocks: String::new(),
        wake_at: None,
        version: 0,
        committed_from: g.committed_from,
    };
    Ok((game, rows))
}

/// The accounts the game names, each with a valid address, every id used
/// by the game listed once.
fn check_people(
    game: &GameRow,
    people: &[ExportedUser],
    seats: &[ExportedSeat],
    rows: &[MoveRow],
) -> Result<Vec<ExportedUser>, Error> {
    let mut out: Vec<ExportedUser> = Vec::new();
    for p in people {
        if p.id < 1 {
            return Err(invalid(format!(
                "user id {} is not a positive number",
                p.id
            )));
        }
        let email = super::email::normalize(&p.email)?;
        if out.iter().any(|o| o.id == p.id || o.email == email) {
            return Err(invalid(format!("user {} is listed twice", p.id)));
        }
        // Looser than registration's rule: names made by `admin
        // create-user` come through as well.
        let name = p.display_name.trim();
        if name.is_empty() || name.chars().count() > 128 || name.contains(char::is_control) {
            return Err(invalid(format!(
                "user {}: the display name must be 1 to 128 characters on one line",
                p.id
            )));
        }
        out.push(ExportedUser {
            id: p.id,
            email,
            display_name: name.to_string(),
        });
    }
    let seat_numbers: BTreeSet<i32> = seats.iter().map(|s| s.seat).collect();
    let seated: BTreeSet<i64> = seats.iter().map(|s| s.user_id).collect();
    if seats.len() != 2 || seat_numbers != BTreeSet::from([0, 1]) || seated.len() != 2 {
        return Err(invalid(
            "a game has seats 0 and 1, each once, held by two users",
        ));
    }
    let named = std::iter::once(game.created_by)
        .chain(seats.iter().map(|s| s.user_id))
        .chain(rows.iter().filter_map(|r| r.user_id));
    for id in named {
        if !out.iter().any(|u| u.id == id) {
            return Err(invalid(format!("user {id} is named but not listed")));
        }
    }
    Ok(out)
}

/// Reuses the account with each id and e-mail, or creates it under that id
/// with an unusable password. Returns (created, reused).
fn resolve_users(
    conn: &mut DbConnection,
    people: &[ExportedUser],
) -> Result<(usize, usize), Error> {
    let (mut created, mut reused) = (0, 0);
    for p in people {
        let by_id = users::by_id(conn, p.id)?;
        let by_email = users::by_email(conn, &p.email)?;
        match (by_id, by_email) {
            (Some(a), Some(b)) if a.id == b.id => reused += 1,
            (None, None) => {
                users::insert_with_id(conn, p.id, &p.email, &p.display_name, UNUSABLE_PASSWORD)?;
                created += 1;
            }
            _ => {
                return Err(Error::conflict(
                    "user_conflict",
                    format!(
                        "user {} <{}>: here that id or address belongs to another account; \
                         the game's log names its players by id, so it can only be imported \
                         where they have the same ids",
                        p.id, p.email
                    ),
                ));
            }
        }
    }
    Ok((created, reused))
}
