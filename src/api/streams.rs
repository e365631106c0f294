//! Live event streams (Server-Sent Events): a game's log rows as they are
//! written, and an account's games as they start, end or begin to await
//! it. Signals (`service::feed`) only wake a stream; what it sends is read
//! from the database, redacted for its reader as the log endpoint does, so
//! a stream holds at most one batch of rows whatever its reader's pace:
//! the response is pulled by the connection, and signals that arrive
//! meanwhile merge into one read.

use crate::api::caller::AuthUser;
use crate::api::problem::Problem;
use crate::app::{AppState, Db};
use crate::error::Error;
use crate::service::feed::{AccountInbox, GameSignal, Slot};
use crate::service::games as svc;
use crate::service::moves::{self, LogEntry};
use crate::store::games::{self as db, ListFilter, status};
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, get, web};
use futures_util::future::{Either, select};
use hexpost_engine::Seat;
use serde::Serialize;
use std::collections::{HashMap, VecDeque};
use std::sync::Arc;
use tokio::sync::Notify;
use utoipa::ToSchema;

/// Log rows read per wake-up at most: what a stream holds in memory.
const BATCH: i64 = 50;

/// One event of a game's stream, as its SSE fields.
#[derive(Serialize, ToSchema)]
pub struct GameStreamEvent {
    /// `move`: one log row. `end`: the game is over (or was cancelled or
    /// declined); the stream closes after it.
    #[schema(example = "move")]
    pub event: String,
    /// For `move`: the row's `seq`, the game's move number once it was
    /// written. Send the last one seen as `Last-Event-ID` to resume.
    pub id: Option<i64>,
    pub data: GameStreamData,
}

/// An event's `data`, as JSON.
#[derive(Serialize, ToSchema)]
#[serde(untagged)]
pub enum GameStreamData {
    /// `move`: the log row, redacted for you as `GET …/log` shows it.
    Move(Box<LogEntry>),
    /// `end`: how the game ended.
    End(GameEnd),
}

/// The `data` of a game stream's `end` event.
#[derive(Serialize, ToSchema)]
#[schema(example = json!({"status": "finished"}))]
pub struct GameEnd {
    /// `finished`, `cancelled` or `declined`.
    pub status: String,
}

/// What an account's stream says about one of its games.
#[derive(Serialize, ToSchema, Clone, Debug, PartialEq, Eq)]
#[schema(example = json!({"type": "your_turn", "game_id": "0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4", "move_number": 21, "status": "active"}))]
pub struct AccountEvent {
    /// `game_started`, `your_turn` (the game began to await you) or
    /// `game_ended` (finished or cancelled); also the SSE
    /// `event` field. `resync`: signals were dropped for a slow reader,
    /// list your games again (`game_id` and `move_number` are then empty).
    #[serde(rename = "type")]
    #[schema(example = "your_turn")]
    pub kind: &'static str,
    pub game_id: String,
    pub move_number: i64,
    pub status: String,
}

fn last_event_id(req: &HttpRequest) -> Result<i64, Error> {
    let Some(v) = req.headers().get("last-event-id") else {
        return Ok(0);
    };
    v.to_str()
        .ok()
        .and_then(|s| s.trim().parse::<i64>().ok())
        .filter(|n| *n >= 0)
        .ok_or_else(|| {
            Error::bad_request(
                "invalid_last_event_id",
                "Last-Event-ID must be a move number: a whole number ≥ 0",
            )
        })
}

fn sse_response(
    body: impl futures_util::Stream<Item = Result<Bytes, std::convert::Infallible>> + 'static,
) -> HttpResponse {
    HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("cache-control", "no-store"))
        // Proxies that buffer responses (nginx) would hold the events back.
        .insert_header(("x-accel-buffering", "no"))
        .streaming(body)
}

const HEARTBEAT: &[u8] = b": heartbeat\n\n";

fn frame(event: &str, id: Option<i64>, data: &impl Serialize) -> Result<Bytes, Error> {
    let data = serde_json::to_string(data).map_err(Error::internal)?;
    let id = id.map(|n| format!("id: {n}\n")).unwrap_or_default();
    Ok(Bytes::from(format!("{id}event: {event}\ndata: {data}\n\n")))
}

/// What ended a stream's wait.
enum Wait {
    Woken,
    Heartbeat,
    /// The server is stopping: the stream ends, so that it does not hold
    /// the stop for the whole grace period; its client resumes elsewhere.
    Closing,
}

async fn wait(wake: &Notify, state: &AppState) -> Wait {
    let closing = std::pin::pin!(state.feed.closing().cancelled());
    let sleep = std::pin::pin!(actix_web::rt::time::sleep(state.config.streams.heartbeat));
    let notified = std::pin::pin!(wake.notified());
    match select(closing, select(notified, sleep)).await {
        Either::Left(_) => Wait::Closing,
        Either::Right((Either::Left(_), _)) => Wait::Woken,
        Either::Right((Either::Right(_), _)) => Wait::Heartbeat,
    }
}

/// A game's log rows as they are written, redacted for you. Answers
/// `text/event-stream`: each row is an event `move` whose `id` is its
/// `seq` (the game's move number after it) and whose `data` is the
/// `LogEntry` the log endpoint shows; a comment line every
/// `STREAM_HEARTBEAT_SECS`; an event `end` when the game is over, and the
/// stream closes. Reconnect with `Last-Event-ID` (the last `id` seen) to
/// resume without gaps or repeats; without it the stream starts at the
/// first row. Authenticate with the `Authorization` header as everywhere
/// (docs/clients.md says how from a browser).
#[utoipa::path(tag = "games", security(("bearer" = [])), params(
    ("game_id" = String, Path),
    ("Last-Event-ID" = Option<i64>, Header, description = "Resume after this move number", minimum = 0),
), responses(
    (status = 200, description = "The event stream; the schema gives each event's SSE fields, `data` as JSON", content_type = "text/event-stream", body = GameStreamEvent),
    (status = 400, description = "`Last-Event-ID` is not a whole number ≥ 0 (`invalid_last_event_id`)", body = Problem, content_type = "application/problem+json"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "Not your game", body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "You hold `STREAMS_PER_USER` streams on this server already (`too_many_streams`)", body = Problem, content_type = "application/problem+json"),
))]
#[get("/games/{game_id}/stream")]
pub async fn game_stream(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, Error> {
    let after = last_event_id(&req)?;
    let id = path.into_inner();
    let game = id.clone();
    let seat = state
        .db(move |conn| Ok(svc::load_with_seat(conn, &game, user.id)?.1))
        .await?;
    let mut slot = state.feed.open(user.id)?;
    let wake = slot.watch_game(&id);
    let stream = GameStream {
        state: state.clone(),
        slot,
        wake,
        game: id,
        seat,
        after,
        pending: VecDeque::new(),
        ended: false,
    };
    Ok(sse_response(futures_util::stream::unfold(
        stream,
        GameStream::next,
    )))
}

struct GameStream {
    state: web::Data<AppState>,
    /// Held for the stream's life: its place under the cap, its wake-ups.
    #[allow(dead_code)]
    slot: Slot,
    wake: Arc<Notify>,
    game: String,
    seat: Option<Seat>,
    /// The last row sent.
    after: i64,
    pending: VecDeque<Bytes>,
    ended: bool,
}

impl GameStream {
    async fn next(mut self) -> Option<(Result<Bytes, std::convert::Infallible>, GameStream)> {
        loop {
            if let Some(frame) = self.pending.pop_front() {
                return Some((Ok(frame), self));
            }
            if self.ended {
                return None;
            }
            match self.read().await {
                Ok(true) => continue,
                Ok(false) => {}
                // The client reconnects with its Last-Event-ID.
                Err(_) => return None,
            }
            match wait(&self.wake, &self.state).await {
                Wait::Woken => {}
                Wait::Heartbeat => return Some((Ok(Bytes::from_static(HEARTBEAT)), self)),
                Wait::Closing => return None,
            }
        }
    }

    /// Reads the rows after the last one sent; true when there is
    /// something to send.
    async fn read(&mut self) -> Result<bool, Error> {
        let (game, after, seat) = (self.game.clone(), self.after, self.seat);
        let (rows, status) = self
            .state
            .db(move |conn| {
                // One snapshot: the game row decides which rows are sealed.
                crate::store::read_snapshot(conn, |conn| {
                    let game = db::with_seats(conn, &game, false)?
                        .ok_or_else(|| Error::not_found("game"))?
                        .0;
                    let rows = moves::log(conn, &game, Some(seat), after, BATCH)?;
                    Ok((rows, game.status))
                })
            })
            .await?;
        for row in &rows {
            self.pending.push_back(frame("move", Some(row.seq), row)?);
            self.after = row.seq;
        }
        if rows.is_empty() && ![status::OPEN, status::ACTIVE].contains(&status.as_str()) {
            self.pending
                .push_back(frame("end", None, &GameEnd { status })?);
            self.ended = true;
        }
        Ok(!self.pending.is_empty())
    }
}

/// Your games as they start, end or begin to await you, as events
/// (`AccountEvent`) named by their `type`, with a comment line every
/// `STREAM_HEARTBEAT_SECS`. Nothing is replayed on reconnecting: list your
/// games (`GET /api/v1/games?filter=awaiting_me`) when you connect, then
/// follow the stream.
#[utoipa::path(tag = "accounts", security(("bearer" = [])), responses(
    (status = 200, description = "The event stream; each event's `data` is an `AccountEvent`", content_type = "text/event-stream", body = AccountEvent),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 429, description = "You hold `STREAMS_PER_USER` streams on this server already (`too_many_streams`)", body = Problem, content_type = "application/problem+json"),
))]
#[get("/account/stream")]
pub async fn account_stream(
    state: web::Data<AppState>,
    user: AuthUser,
) -> Result<HttpResponse, Error> {
    let mut slot = state.feed.open(user.id)?;
    let inbox = slot.watch_account();
    let mut stream = AccountStream {
        state: state.clone(),
        slot,
        inbox,
        user: user.id,
        known: HashMap::new(),
        pending: VecDeque::new(),
    };
    stream.load().await?;
    Ok(sse_response(futures_util::stream::unfold(
        stream,
        AccountStream::next,
    )))
}

/// The most games whose state an account stream starts from.
const KNOWN_GAMES: i64 = 500;

struct AccountStream {
    state: web::Data<AppState>,
    #[allow(dead_code)]
    slot: Slot,
    inbox: Arc<AccountInbox>,
    user: i64,
    /// Each open or active game: its status and whether it awaits the user.
    known: HashMap<String, (String, bool)>,
    pending: VecDeque<Bytes>,
}

impl AccountStream {
    /// Where the user's games stand, to tell what a signal changes.
    async fn load(&mut self) -> Result<(), Error> {
        let user = self.user;
        let games = self
            .state
            .db(move |conn| {
                Ok(db::list_for_user(
                    conn,
                    user,
                    ListFilter::Active,
                    0,
                    KNOWN_GAMES,
                )?)
            })
            .await?;
        let mark = format!(",{user},");
        self.known = games
            .into_iter()
            .map(|g| {
                let awaited = g.awaiting.contains(&mark);
                (g.id, (g.status, awaited))
            })
            .collect();
        Ok(())
    }

    async fn next(mut self) -> Option<(Result<Bytes, std::convert::Infallible>, AccountStream)> {
        loop {
            if let Some(frame) = self.pending.pop_front() {
                return Some((Ok(frame), self));
            }
            let (signals, overflowed) = self.inbox.take();
            if overflowed {
                if self.load().await.is_err() {
                    return None;
                }
                let resync = AccountEvent {
                    kind: "resync",
                    game_id: String::new(),
                    move_number: 0,
                    status: String::new(),
                };
                self.push(&resync);
            }
            for signal in &signals {
                for event in self.events(signal) {
                    self.push(&event);
                }
            }
            if !self.pending.is_empty() {
                continue;
            }
            let inbox = self.inbox.clone();
            match wait(inbox.wake(), &self.state).await {
                Wait::Woken => {}
                Wait::Heartbeat => return Some((Ok(Bytes::from_static(HEARTBEAT)), self)),
                Wait::Closing => return None,
            }
        }
    }

    fn push(&mut self, event: &AccountEvent) {
        if let Ok(frame) = frame(event.kind, None, event) {
            self.pending.push_back(frame);
        }
    }

    /// What `signal` changes for the user, remembering it.
    fn events(&mut self, signal: &GameSignal) -> Vec<AccountEvent> {
        let awaited = signal.awaiting.contains(&self.user);
        let before = self
            .known
            .insert(signal.game.clone(), (signal.status.clone(), awaited));
        let (was_status, was_awaited) = match &before {
            Some((s, a)) => (Some(s.as_str()), *a),
            None => (None, false),
        };
        let event = |kind| AccountEvent {
            kind,
            game_id: signal.game.clone(),
            move_number: signal.move_number,
            status: signal.status.clone(),
        };
        let mut out = Vec::new();
        let active = signal.status == status::ACTIVE;
        if active && was_status != Some(status::ACTIVE) {
            out.push(event("game_started"));
        }
        if active && awaited && !was_awaited {
            out.push(event("your_turn"));
        }
        if !active && signal.status != status::OPEN && was_status != Some(signal.status.as_str()) {
            out.push(event("game_ended"));
        }
        out
    }
}
