//! Games: lifecycle, moves and the move log.

use crate::api::caller::AuthUser;
use crate::api::etag;
use crate::api::json::Json;
use crate::api::limited::Mover;
use crate::api::problem::{IllegalMoveProblem, Problem, StaleMoveProblem};
use crate::app::{AppState, Db};
use crate::error::Error;
use crate::service::games::{self as svc, CreateGame, Created, GameDetail, GameSummary};
use crate::service::moves::{self, IdempotencyKey, LogEntry, MoveOutcome, MoveRequest};
use crate::service::{feed, timeouts};
use crate::store::games::ListFilter;
use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse, delete, get, post, web};
use serde::Deserialize;
use utoipa::{IntoParams, ToSchema};

/// Creates a game (and invites the opponent when `opponent_email` is given).
#[utoipa::path(tag = "games", security(("bearer" = [])), request_body = CreateGame, responses(
    (status = 201, body = Created),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 409, description = "`opponent_email` is your own address (`self_invitation`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Unknown variant, invalid options, time limit or seat; `opponent_email` not one plain address (`invalid_email`)", body = Problem, content_type = "application/problem+json"),
))]
#[post("/games")]
pub async fn create(
    state: web::Data<AppState>,
    user: AuthUser,
    body: Json<CreateGame>,
) -> Result<HttpResponse, Error> {
    let body = body.into_inner();
    let now = state.now();
    let created = state
        .db(move |conn| svc::create(conn, user.id, &body, now))
        .await?;
    Ok(HttpResponse::Created().json(created))
}

#[derive(Deserialize, IntoParams, Debug)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct ListQuery {
    /// Which games; default `all`.
    #[param(inline)]
    pub filter: Option<GameFilter>,
    /// 1-based page number; a page past the last is `400
    /// page_out_of_range` (page 1 of no games is an empty list).
    #[param(minimum = 1)]
    pub page: Option<i64>,
    /// 1 to 100; default 20.
    #[param(minimum = 1, maximum = 100)]
    pub per_page: Option<i64>,
}

#[derive(Deserialize, ToSchema, Debug, Clone, Copy)]
#[serde(rename_all = "snake_case")]
pub enum GameFilter {
    All,
    Active,
    Finished,
    AwaitingMe,
}

/// Lists my games, most recently changed first.
#[utoipa::path(tag = "games", security(("bearer" = [])), params(ListQuery), responses(
    (status = 200, body = Vec<GameSummary>),
    (status = 400, description = "Bad filter or paging (`invalid_query`), or a page past the last (`page_out_of_range`)", body = Problem, content_type = "application/problem+json"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
))]
#[get("/games")]
pub async fn list(
    state: web::Data<AppState>,
    user: AuthUser,
    q: web::Query<ListQuery>,
) -> Result<HttpResponse, Error> {
    let filter = match q.filter.unwrap_or(GameFilter::All) {
        GameFilter::All => ListFilter::All,
        GameFilter::Active => ListFilter::Active,
        GameFilter::Finished => ListFilter::Finished,
        GameFilter::AwaitingMe => ListFilter::AwaitingMe,
    };
    let page = q.page.unwrap_or(1);
    let per_page = q.per_page.unwrap_or(20);
    if page < 1 || !(1..=100).contains(&per_page) {
        return Err(Error::bad_request(
            "invalid_query",
            "page must be ≥ 1 and per_page 1 to 100",
        ));
    }
    let games = state
        .db(move |conn| svc::list(conn, user.id, filter, page, per_page))
        .await?;
    Ok(HttpResponse::Ok().json(crate::api::admin_mail::within_list(page, games)?))
}

/// One game as I may see it, with what I may do now. Send the `ETag` of an
/// earlier answer in `If-None-Match`: while the game is unchanged the
/// answer is `304 Not Modified` without a body.
#[utoipa::path(tag = "games", security(("bearer" = [])), params(
    ("game_id" = String, Path),
    ("If-None-Match" = Option<String>, Header, description = "The ETag of an earlier answer"),
), responses(
    (status = 200, body = GameDetail, headers(("ETag" = String, description = "Changes whenever anything in the answer does"))),
    (status = 304, description = "Not modified: the game is as in the answer with this ETag", headers(("ETag" = String))),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "Not your game", body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
))]
#[get("/games/{game_id}")]
pub async fn get_game(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    req: HttpRequest,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let detail = state
        .db(move |conn| svc::detail_for(conn, &id, user.id))
        .await?;
    let body = serde_json::to_vec(&detail).map_err(Error::internal)?;
    let tag = etag::of(&body);
    if etag::matches(&req, &tag) {
        return Ok(HttpResponse::NotModified()
            .insert_header((header::ETAG, tag))
            .finish());
    }
    Ok(HttpResponse::Ok()
        .insert_header((header::ETAG, tag))
        .content_type(mime::APPLICATION_JSON)
        .body(body))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"email": "grace@example.org"}))]
pub struct InviteRequest {
    #[schema(example = "grace@example.org", format = "email", max_length = 254)]
    pub email: String,
}

#[derive(serde::Serialize, ToSchema)]
#[schema(example = json!({"invite_token": "5014f9af3a684fdd64a775c1c4c532ee66b1b96cb56b1d02"}))]
pub struct InviteResponse {
    /// The invitation token (also e-mailed to the invitee).
    pub invite_token: String,
}

/// Invites an opponent by e-mail address.
#[utoipa::path(tag = "games", security(("bearer" = [])), params(("game_id" = String, Path)), request_body = InviteRequest, responses(
    (status = 201, body = InviteResponse),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
    (status = 409, description = "The game has started or ended (`game_not_open`), or the address is your own (`self_invitation`)", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "Not one plain e-mail address (`invalid_email`)", body = Problem, content_type = "application/problem+json"),
))]
#[post("/games/{game_id}/invitations")]
pub async fn invite(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    body: Json<InviteRequest>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let now = state.now();
    let token = state
        .db(move |conn| svc::invite(conn, user.id, &id, &body.email, now))
        .await?;
    Ok(HttpResponse::Created().json(InviteResponse {
        invite_token: token,
    }))
}

/// Cancels a game that has not started.
#[utoipa::path(tag = "games", security(("bearer" = [])), params(("game_id" = String, Path)), responses(
    (status = 200, body = GameSummary),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
    (status = 409, body = Problem, content_type = "application/problem+json"),
))]
#[post("/games/{game_id}/cancel")]
pub async fn cancel(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let now = state.now();
    let feed = state.feed.clone();
    let s = state
        .db(move |conn| {
            let s = svc::cancel(conn, user.id, &id, now)?;
            feed::announce(conn, &feed, &id);
            Ok(s)
        })
        .await?;
    Ok(HttpResponse::Ok().json(s))
}

/// Resigns: the opponent wins.
#[utoipa::path(tag = "games", security(("bearer" = [])), params(("game_id" = String, Path)), responses(
    (status = 200, body = GameDetail),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
    (status = 409, body = Problem, content_type = "application/problem+json"),
))]
#[post("/games/{game_id}/resign")]
pub async fn resign(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let now = state.now();
    // A finished game takes no more moves: its copy would only hold a
    // place in the cache until it was pushed out.
    let games = state.games.clone();
    let feed = state.feed.clone();
    let d = state
        .db(move |conn| {
            let d = svc::resign(conn, user.id, &id, now).inspect(|_| games.forget(&id))?;
            feed::announce(conn, &feed, &id);
            Ok(d)
        })
        .await?;
    Ok(HttpResponse::Ok().json(d))
}

/// Submits one move. Retries are safe with an `Idempotency-Key` header: the
/// same key and body return the original response; the same key with
/// another body is refused (422).
#[utoipa::path(tag = "games", security(("bearer" = [])), params(
    ("game_id" = String, Path),
    ("Idempotency-Key" = Option<String>, Header, description = "1 to 200 visible ASCII characters; makes retries safe", pattern = r"^[!-~]{1,200}$"),
), request_body = MoveRequest, responses(
    (status = 200, body = MoveOutcome),
    (status = 400, description = "Malformed JSON (`malformed_json`); an `expected_move_number` (or a signed move's `move_number`) that is not a whole number ≥ 0 (`invalid_move_number`); a bad `Idempotency-Key` (`invalid_idempotency_key`)", body = Problem, content_type = "application/problem+json"),
    (status = 401, description = "Missing/invalid token, or a JWS not signed by your keys", body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "Not your game", body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
    (status = 409, description = "`stale_move` (with `current_move_number` and the current `game`), `game_not_active`, `concurrent_update` (the game kept changing while the move was applied; send it again), or `jti_reused` (you signed a move with this `jti` before)", body = StaleMoveProblem, content_type = "application/problem+json"),
    (status = 422, description = "`illegal_move` (the engine's `reason`, whose `code` is one of `ActionError`'s), `invalid_action`, `idempotency_key_reused`; for a signed move `invalid_jws` (a bad `jti`) or `jws_expired` (`iat` more than a day off)", body = IllegalMoveProblem, content_type = "application/problem+json"),
    (status = 429, body = Problem, content_type = "application/problem+json"),
))]
#[post("/games/{game_id}/moves")]
pub async fn submit_move(
    state: web::Data<AppState>,
    Mover(user): Mover,
    path: web::Path<String>,
    req: HttpRequest,
    body: Json<serde_json::Value>,
) -> Result<HttpResponse, Error> {
    let body = body.into_inner();
    moves::check_move_number(&body)?;
    let parsed = MoveRequest::deserialize(&body)
        .map_err(|e| Error::unprocessable("invalid_body", e.to_string()))?;
    let id = path.into_inner();
    let idem = match req.headers().get("idempotency-key") {
        None => None,
        Some(v) => {
            let key = v
                .to_str()
                .ok()
                .filter(|k| {
                    !k.is_empty() && k.len() <= 200 && k.bytes().all(|b| b.is_ascii_graphic())
                })
                .ok_or_else(|| {
                    Error::bad_request(
                        "invalid_idempotency_key",
                        "Idempotency-Key must be 1 to 200 visible characters",
                    )
                })?;
            Some(IdempotencyKey::for_move(key.to_string(), &id, &body))
        }
    };
    let now = state.now();
    let games = state.games.clone();
    let feed = state.feed.clone();
    let reply = state
        .db(move |conn| {
            let reply = moves::submit(conn, &games, user.id, &id, parsed, idem, now)?;
            if let Some(signal) = &reply.signal {
                feed::written(conn, &feed, signal);
            }
            Ok(reply)
        })
        .await?;
    Ok(
        HttpResponse::build(
            actix_web::http::StatusCode::from_u16(reply.status).unwrap_or_default(),
        )
        .content_type(actix_web::http::header::ContentType::json())
        .body(reply.body),
    )
}

#[derive(Deserialize, IntoParams, Debug)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct LogQuery {
    /// Rows after this sequence number (default 0: from the start).
    #[param(minimum = 0)]
    pub after: Option<i64>,
    /// 1 to 500; default 100.
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<i64>,
}

pub fn log_bounds(q: &LogQuery) -> Result<(i64, i64), Error> {
    let after = q.after.unwrap_or(0);
    let limit = q.limit.unwrap_or(100);
    if after < 0 || !(1..=500).contains(&limit) {
        return Err(Error::bad_request(
            "invalid_query",
            "after must be ≥ 0 and limit 1 to 500",
        ));
    }
    Ok((after, limit))
}

/// The game's move log, with events redacted for me.
#[utoipa::path(tag = "games", security(("bearer" = [])), params(("game_id" = String, Path), LogQuery), responses(
    (status = 200, body = Vec<LogEntry>),
    (status = 400, body = Problem, content_type = "application/problem+json"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
))]
#[get("/games/{game_id}/log")]
pub async fn log(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    q: web::Query<LogQuery>,
) -> Result<HttpResponse, Error> {
    let (after, limit) = log_bounds(&q)?;
    let id = path.into_inner();
    let rows = state
        .db(move |conn| {
            // The game row decides which rows are still sealed: it must be
            // the state those rows were written under, not an older one.
            crate::store::read_snapshot(conn, |conn| {
                let (game, seat) = svc::load_with_seat(conn, &id, user.id)?;
                moves::log(conn, &game, Some(seat), after, limit)
            })
        })
        .await?;
    Ok(HttpResponse::Ok().json(rows))
}

/// What an invitation is for (no account needed).
#[utoipa::path(tag = "invitations", params(("token" = String, Path)), responses(
    (status = 200, body = GameSummary),
    (status = 404, body = Problem, content_type = "application/problem+json"),
    (status = 409, description = "Already used", body = Problem, content_type = "application/problem+json"),
))]
#[get("/invitations/{token}")]
pub async fn invitation(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Error> {
    let token = path.into_inner();
    let s = state
        .db(move |conn| svc::invitation_info(conn, &token))
        .await?;
    Ok(HttpResponse::Ok().json(s))
}

/// Accepts an invitation: the game starts.
#[utoipa::path(tag = "invitations", security(("bearer" = [])), params(("token" = String, Path)), responses(
    (status = 200, body = GameDetail),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
    (status = 409, body = Problem, content_type = "application/problem+json"),
))]
#[post("/invitations/{token}/accept")]
pub async fn accept(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
) -> Result<HttpResponse, Error> {
    let token = path.into_inner();
    let now = state.now();
    let feed = state.feed.clone();
    let d = state
        .db(move |conn| {
            let d = svc::accept(conn, user.id, &token, now)?;
            feed::announce(conn, &feed, &d.summary.id);
            Ok(d)
        })
        .await?;
    Ok(HttpResponse::Ok().json(d))
}

/// Declines an invitation (the token is the credential).
#[utoipa::path(tag = "invitations", params(("token" = String, Path)), responses(
    (status = 204),
    (status = 404, body = Problem, content_type = "application/problem+json"),
    (status = 409, body = Problem, content_type = "application/problem+json"),
))]
#[post("/invitations/{token}/decline")]
pub async fn decline(
    state: web::Data<AppState>,
    path: web::Path<String>,
) -> Result<HttpResponse, Error> {
    let token = path.into_inner();
    let now = state.now();
    state
        .db(move |conn| svc::decline(conn, &token, now))
        .await?;
    Ok(HttpResponse::NoContent().finish())
}

/// The board's fixed geometry: ids and coordinates of hexes, nodes, edges, harbors.
#[utoipa::path(tag = "games", responses((status = 200, body = hexpost_engine::view::TopologyView)))]
#[get("/topology")]
pub async fn topology() -> HttpResponse {
    HttpResponse::Ok().json(hexpost_engine::topology_view())
}

#[derive(Deserialize, ToSchema, Debug)]
#[serde(deny_unknown_fields)]
#[schema(example = json!({"days": 3}))]
pub struct VacationRequest {
    /// Whole days, from 1 to what you have left in this game. Taken while
    /// on vacation, they lengthen it.
    #[serde(default, deserialize_with = "crate::service::whole_numbers::optional")]
    #[schema(value_type = u32, required = true, minimum = 1, maximum = 60)]
    pub days: Option<u32>,
}

/// Starts a vacation in this game: your clock stops for that many days (a
/// running deadline moves back by as much; one that starts during it runs
/// from its end). The other player sees it in `clocks`.
#[utoipa::path(tag = "games", security(("bearer" = [])), params(("game_id" = String, Path)), request_body = VacationRequest, responses(
    (status = 200, body = GameDetail),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "Not your game", body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
    (status = 409, description = "`game_not_active`", body = Problem, content_type = "application/problem+json"),
    (status = 422, description = "`invalid_vacation`: fewer than 1 day, or more than you have left (`vacation_left_ms`)", body = Problem, content_type = "application/problem+json"),
))]
#[post("/games/{game_id}/vacation")]
pub async fn start_vacation(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
    body: Json<VacationRequest>,
) -> Result<HttpResponse, Error> {
    let days = body
        .days
        .ok_or_else(|| Error::unprocessable("invalid_body", "missing field `days`"))?;
    let id = path.into_inner();
    let now = state.now();
    let d = state
        .db(move |conn| timeouts::vacation(conn, user.id, &id, Some(i64::from(days)), now))
        .await?;
    Ok(HttpResponse::Ok().json(d))
}

/// Ends your vacation in this game early; the days not taken go back to
/// your allowance and come off your deadline.
#[utoipa::path(tag = "games", security(("bearer" = [])), params(("game_id" = String, Path)), responses(
    (status = 200, body = GameDetail),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, description = "Not your game", body = Problem, content_type = "application/problem+json"),
    (status = 404, body = Problem, content_type = "application/problem+json"),
    (status = 409, description = "`game_not_active` or `not_on_vacation`", body = Problem, content_type = "application/problem+json"),
))]
#[delete("/games/{game_id}/vacation")]
pub async fn end_vacation(
    state: web::Data<AppState>,
    user: AuthUser,
    path: web::Path<String>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let now = state.now();
    let d = state
        .db(move |conn| timeouts::vacation(conn, user.id, &id, None, now))
        .await?;
    Ok(HttpResponse::Ok().json(d))
}
