//! Reading the move log: redacted for a player, whole for admins.
//!
//! A player is shown of each row what their seat may see, and what they
//! need to check its hash without learning more (docs/architecture.md,
//! "The log's hash chain"): a row of the committed scheme with its public
//! skeleton and the salts of the committed parts they may see; a row of the
//! plain scheme of earlier releases without its hash (nor the next row's
//! link to it) while the game runs, since that hash covers what the row
//! hides. A sealed answer's action and signed move are shown to the other
//! seat only once revealed.

use crate::describe::{self, Table};
use crate::error::Error;
use crate::service::audit::decode_seed;
use crate::service::commitments::{self, Built, Part, Salts, Scheme, Skeleton};
use crate::service::engine_state;
use crate::store::games::{self as db, GameRow, MoveRow, status};
use crate::store::{DbConnection, users};
use hexpost_engine::{Event, Redact, Seat};
use serde::Serialize;
use std::collections::BTreeMap;
use utoipa::ToSchema;

#[derive(Serialize, ToSchema, Debug)]
pub struct LogEntry {
    pub seq: i64,
    /// `seat:N` for a player's move, `server` for what the server did,
    /// `timeout` for a decision the server took for a late player.
    pub actor: String,
    /// The seat that acted: the player's, or for an automated step the
    /// neutral or fictional seat (or the real seat whose automatic roll it
    /// made). None for the start row.
    pub seat: Option<u8>,
    /// The user whose move the row is (null for the server's rows).
    #[schema(required = true)]
    pub user_id: Option<i64>,
    /// A player's engine action, or a server entry: `start`, `resign`,
    /// `forfeit`, or `automated_step` (a neutral or fictional seat's
    /// action, or an automatic roll, that the server resolved after the row
    /// before). `{"type": "sealed"}` while the row is the other seat's
    /// sealed answer (a first bid), until the answers are revealed.
    #[schema(value_type = Object)]
    pub action: serde_json::Value,
    /// The signed move, verbatim, when the move was signed; null while it
    /// is the other seat's sealed answer.
    pub jws: Option<String>,
    /// The events, redacted for the reader.
    #[schema(value_type = Vec<hexpost_engine::Event>)]
    pub events: Vec<serde_json::Value>,
    /// Each event of `events` in a sentence, in the same order: the words
    /// the mails use, saying no more than `events` shows (automated seats
    /// by colour, places by id and the hexes around them).
    pub text: Vec<String>,
    pub state_hash: String,
    /// The previous row's hash. Null while the game runs when that row is
    /// of the plain scheme (see `hash`).
    #[schema(required = true)]
    pub prev_hash: Option<String>,
    /// The row's hash. Null while the game runs for a row of the plain
    /// scheme, which earlier releases wrote: it covers what the row hides.
    #[schema(required = true)]
    pub hash: Option<String>,
    pub created_at: i64,
    /// How `hash` is computed: `committed` (over `public`) or `plain`.
    pub scheme: Scheme,
    /// The committed scheme's public skeleton, which `hash` covers (null
    /// for rows of the plain scheme).
    #[schema(required = true)]
    pub public: Option<Skeleton>,
    /// The salts (hex) of the committed parts you may see, by part:
    /// `event:N` (N from 0), `action`, `jws`, `prev`. With one, check a
    /// part: SHA-256(salt ‖ canonical JSON of what you see) is its `commit`.
    pub salts: BTreeMap<String, String>,
}

/// Log rows of `game` after `after`, as `viewer` may see them (None: the
/// full log, for admins). `game` decides which rows are sealed answers
/// now, so a player's caller reads it in the same snapshot as this reads
/// the rows (`store::read_snapshot`): a row written after an older game
/// row was read would otherwise be shown unsealed.
pub fn log(
    conn: &mut DbConnection,
    game: &GameRow,
    viewer: Option<Option<Seat>>,
    after: i64,
    limit: i64,
) -> Result<Vec<LogEntry>, Error> {
    let rows = db::moves(conn, &game.id, after, limit)?;
    if rows.is_empty() {
        return Ok(Vec::new());
    }
    let sealed_now = sealed_now(conn, game, viewer, &rows)?;
    let table = table(conn, game)?;
    let reading = Reading::new(game, viewer, sealed_now, &table)?;
    rows.into_iter().map(|r| reading.entry(r)).collect()
}

/// `row` of `game` as `viewer` may see it, when no sealed answer is open.
pub fn log_entry(
    game: &GameRow,
    viewer: Option<Option<Seat>>,
    row: MoveRow,
    table: &Table,
) -> Result<LogEntry, Error> {
    Reading::new(game, viewer, Vec::new(), table)?.entry(row)
}

/// What the sentences of `game`'s log name: its players and its board.
fn table(conn: &mut DbConnection, game: &GameRow) -> Result<Table, Error> {
    let seats = db::players(conn, &game.id)?;
    let (Some(first), Some(second)) = (seats.first(), seats.get(1)) else {
        return Err(Error::internal(format!(
            "game {}: players missing",
            game.id
        )));
    };
    let people = users::pair(conn, [first.1, second.1])?;
    let names = people.map(|p| p.display_name);
    Ok(Table::of_state(names, &engine_state(game)?))
}

/// Those of `rows` whose action is a sealed answer now, which a player
/// sees only if it is theirs. Only a decision can be one: a plain row, or
/// one marked when written. The state says whose answer is sealed now, and
/// the engine guarantees that it is that seat's last decision.
fn sealed_now(
    conn: &mut DbConnection,
    game: &GameRow,
    viewer: Option<Option<Seat>>,
    rows: &[MoveRow],
) -> Result<Vec<i64>, Error> {
    let may_be_sealed =
        |r: &MoveRow| r.sealed || (Scheme::of(game, r.seq) == Scheme::Plain && r.actor != "server");
    let mut sealed = Vec::new();
    if game.status == status::ACTIVE && viewer.is_some() && rows.iter().any(may_be_sealed) {
        for seat in engine_state(game)?.sealed_answers().iter() {
            if let Some(seq) = db::last_decision_of_seat(conn, &game.id, seat.0.into())? {
                sealed.push(seq);
            }
        }
    }
    Ok(sealed)
}

/// What reading a game's rows for one viewer depends on.
struct Reading<'a> {
    viewer: Option<Option<Seat>>,
    committed_from: Option<i64>,
    salts: Salts,
    /// The game runs: hashes of plain rows are withheld from players.
    running: bool,
    /// The rows whose action is a sealed answer now.
    sealed_now: Vec<i64>,
    table: &'a Table,
}

impl<'a> Reading<'a> {
    fn new(
        game: &GameRow,
        viewer: Option<Option<Seat>>,
        sealed_now: Vec<i64>,
        table: &'a Table,
    ) -> Result<Reading<'a>, Error> {
        let seed = decode_seed(&game.seed)
            .ok_or_else(|| Error::internal(format!("game {}: bad stored seed", game.id)))?;
        Ok(Reading {
            viewer,
            committed_from: game.committed_from,
            salts: Salts::new(&seed, &game.id),
            running: game.status == status::ACTIVE,
            sealed_now,
            table,
        })
    }

    fn entry(&self, row: MoveRow) -> Result<LogEntry, Error> {
        let events: Vec<Event> = serde_json::from_str(&row.events).map_err(Error::internal)?;
        let scheme = Scheme::from_first(self.committed_from, row.seq);
        let player = self.viewer.is_some();
        // What the viewer may see of each part.
        let sees_event = |e: &Event| match self.viewer {
            Some(v) => e.is_visible_to(v),
            None => true,
        };
        let sees_action = !(player
            && self.sealed_now.contains(&row.seq)
            && self.viewer != Some(row.seat.map(|s| Seat(s as u8))));
        let sees_prev = !(player
            && self.running
            && match scheme {
                Scheme::Plain => row.seq > 1,
                Scheme::Committed => commitments::bridges(self.committed_from, row.seq),
            });
        let sees_hash = !(player && self.running && scheme == Scheme::Plain);

        let (public, salts) = match scheme {
            Scheme::Plain => (None, BTreeMap::new()),
            Scheme::Committed => {
                let Built {
                    skeleton,
                    committed,
                } = Built::of_row(&row, &events, self.committed_from, &self.salts);
                let salts = committed
                    .into_iter()
                    .filter(|part| match part {
                        Part::Prev => sees_prev,
                        Part::Action | Part::Jws => sees_action,
                        Part::Event(i) => events.get(*i).is_some_and(sees_event),
                    })
                    .map(|part| (part.label(), hex::encode(self.salts.salt(row.seq, part))))
                    .collect();
                (Some(skeleton), salts)
            }
        };
        let shown: Vec<Event> = events
            .iter()
            .map(|e| match self.viewer {
                Some(v) => e.redacted_for(v),
                None => e.clone(),
            })
            .collect();
        let text = shown
            .iter()
            .map(|e| describe::event_unredacted(e, self.table))
            .collect();
        let shown = shown
            .iter()
            .map(|e| serde_json::to_value(e).unwrap_or_default())
            .collect();
        Ok(LogEntry {
            seq: row.seq,
            actor: row.actor,
            seat: row.seat.map(|s| s as u8),
            user_id: row.user_id,
            action: if sees_action {
                serde_json::from_str(&row.action).unwrap_or_default()
            } else {
                serde_json::json!({"type": "sealed"})
            },
            jws: row.jws.filter(|_| sees_action),
            events: shown,
            text,
            state_hash: row.state_hash,
            prev_hash: sees_prev.then_some(row.prev_hash),
            hash: sees_hash.then_some(row.hash),
            created_at: row.created_at,
            scheme,
            public,
            salts,
        })
    }
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
