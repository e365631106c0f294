//! Admin endpoints for mails that failed every attempt (list them, put one
//! or all back in the queue), and the record of the mails received as
//! replies.

use crate::api::caller::AdminUser;
use crate::api::problem::Problem;
use crate::app::{AppState, Db};
use crate::error::Error;
use crate::service::notify;
use crate::store::inbound_mails::{self, InboundMailRow};
use crate::store::outbox::{self, MailRow};
use crate::store::{DbConnection, StoreResult};
use actix_web::{HttpResponse, get, post, web};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};

#[derive(Serialize, ToSchema, Debug)]
#[schema(example = json!({
    "id": 42, "kind": "your_move", "recipient": "grace@example.org",
    "game_id": "0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4", "attempts": 8,
    "last_error": "Connection error: Connection refused (os error 111)",
    "created_at": 1767229200000_i64
}))]
pub struct FailedMail {
    pub id: i64,
    /// `invitation`, `accepted`, `declined`, `your_move` or `game_over`.
    pub kind: String,
    pub recipient: String,
    pub game_id: Option<String>,
    pub attempts: i32,
    /// Why the last attempt failed.
    pub last_error: Option<String>,
    pub created_at: i64,
}

impl From<MailRow> for FailedMail {
    fn from(r: MailRow) -> Self {
        FailedMail {
            id: r.id,
            kind: r.kind,
            recipient: r.recipient,
            game_id: r.game_id,
            attempts: r.attempts,
            last_error: r.last_error,
            created_at: r.created_at,
        }
    }
}

#[derive(Serialize, ToSchema, Debug)]
#[schema(example = json!({"retried": 3}))]
pub struct Retried {
    /// How many failed mails are queued again.
    pub retried: usize,
}

#[derive(Deserialize, IntoParams, Debug)]
#[serde(deny_unknown_fields)]
#[into_params(parameter_in = Query)]
pub struct FailedQuery {
    /// 1-based page number; a page past the last is `400
    /// page_out_of_range`.
    #[param(minimum = 1)]
    pub page: Option<i64>,
    /// 1 to 100; default 50.
    #[param(minimum = 1, maximum = 100)]
    pub per_page: Option<i64>,
}

/// The page and page size of an admin list: pages from 1, 1 to 100 a
/// page, 50 unless asked.
pub fn paging(page: Option<i64>, per_page: Option<i64>) -> Result<(i64, i64), Error> {
    let page = page.unwrap_or(1);
    let per_page = per_page.unwrap_or(50);
    if page < 1 || !(1..=100).contains(&per_page) {
        return Err(Error::bad_request(
            "invalid_query",
            "page must be ≥ 1 and per_page 1 to 100",
        ));
    }
    Ok((page, per_page))
}

/// A page after the first that holds nothing lies past the end of its
/// list: refused, as other bad paging is, rather than answered empty (a
/// client walking the pages stops at the first short page; page 1 of an
/// empty list is an empty list).
pub fn within_list<T>(page: i64, rows: Vec<T>) -> Result<Vec<T>, Error> {
    if page > 1 && rows.is_empty() {
        return Err(Error::bad_request(
            "page_out_of_range",
            format!("page {page} is past the end of the list"),
        ));
    }
    Ok(rows)
}

/// Mails that failed every attempt, oldest first.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(FailedQuery), responses(
    (status = 200, body = Vec<FailedMail>),
    (status = 400, description = "Bad paging (`invalid_query`), or a page past the last (`page_out_of_range`)", body = Problem, content_type = "application/problem+json"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
))]
#[get("/admin/mail/failed")]
pub async fn failed(
    state: web::Data<AppState>,
    _admin: AdminUser,
    q: web::Query<FailedQuery>,
) -> Result<HttpResponse, Error> {
    page_of::<MailRow, FailedMail>(&state, &q, outbox::failed).await
}

/// The page `q` asks for of an admin list that `rows(conn, offset, limit)`
/// reads, each row answered as a `T`.
async fn page_of<R, T>(
    state: &web::Data<AppState>,
    q: &FailedQuery,
    rows: fn(&mut DbConnection, i64, i64) -> StoreResult<Vec<R>>,
) -> Result<HttpResponse, Error>
where
    R: Send + 'static,
    T: From<R> + Serialize,
{
    let (page, per_page) = paging(q.page, q.per_page)?;
    let offset = (page - 1).saturating_mul(per_page);
    let rows = state
        .db(move |conn| rows(conn, offset, per_page).map_err(Error::from))
        .await?;
    let rows = within_list(page, rows)?;
    Ok(HttpResponse::Ok().json(rows.into_iter().map(T::from).collect::<Vec<_>>()))
}

/// Queues one failed mail again, with a fresh set of attempts.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(("mail_id" = i64, Path)), responses(
    (status = 200, body = Retried),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
    (status = 404, description = "No failed mail with this id", body = Problem, content_type = "application/problem+json"),
))]
#[post("/admin/mail/{mail_id}/retry")]
pub async fn retry_one(
    state: web::Data<AppState>,
    admin: AdminUser,
    path: web::Path<i64>,
) -> Result<HttpResponse, Error> {
    let id = path.into_inner();
    let retried = state
        .db(move |conn| notify::retry_failed(conn, Some(admin.0.id), Some(id)))
        .await?;
    if retried == 0 {
        return Err(Error::not_found("failed mail"));
    }
    Ok(HttpResponse::Ok().json(Retried { retried }))
}

/// Queues every failed mail again.
#[utoipa::path(tag = "admin", security(("bearer" = [])), responses(
    (status = 200, body = Retried),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
))]
#[post("/admin/mail/retry")]
pub async fn retry_all(
    state: web::Data<AppState>,
    admin: AdminUser,
) -> Result<HttpResponse, Error> {
    let retried = state
        .db(move |conn| notify::retry_failed(conn, Some(admin.0.id), None))
        .await?;
    Ok(HttpResponse::Ok().json(Retried { retried }))
}

/// A mail the server received as a reply (`inbound`), and what came of it.
#[derive(Serialize, ToSchema, Debug)]
#[schema(example = json!({
    "id": 7, "received_at": 1767229200000_i64, "via": "smtp",
    "sender": "grace@example.org", "message_id": "CAF=x7@mail.example.org",
    "user_id": 2, "game_id": "0b9f4c1e-7d2a-4e15-9c3b-5a8e2f61d7c4",
    "move_number": 41, "outcome": "command_failed", "applied": 2,
    "moves_to": 44, "detail": "S14: illegal move: not a legal place (illegal_move)"
}))]
pub struct InboundMail {
    pub id: i64,
    /// Unix ms.
    pub received_at: i64,
    /// `smtp`, `lmtp`, `imap` or `stdin`.
    pub via: String,
    /// The From address, lowercased.
    pub sender: Option<String>,
    /// The Message-ID, or `sha256:` and the hash of a message without one.
    pub message_id: String,
    /// The account, game and move number the reply address named, once it
    /// verified.
    pub user_id: Option<i64>,
    pub game_id: Option<String>,
    pub move_number: Option<i64>,
    /// `applied`, `command_failed`, `stale_move`, `no_commands`,
    /// `game_not_active`, `game_not_found`; for a reply to an invitation
    /// `accepted`, `declined` (or `command_failed`); refused: `forged_token`,
    /// `expired_token`, `no_reply_address`, `wrong_sender`, `oversized`,
    /// `not_text`, `unreadable`, `replies_off`, and, never answered,
    /// `sender_not_authentic` (no DKIM or trusted MTA vouched for the
    /// sender); never answered: `ignored_auto_reply`, `ignored_bounce`,
    /// `ignored_list`; `received` while it is handled (or, two minutes
    /// on, cut off: the next delivery takes it over).
    pub outcome: String,
    /// Commands applied, in order.
    pub applied: i32,
    /// The game's move number after the last command applied: the log rows
    /// after `move_number` up to it are the moves this mail made.
    pub moves_to: Option<i64>,
    /// Why the mail or its failed command was refused.
    pub detail: Option<String>,
}

impl From<InboundMailRow> for InboundMail {
    fn from(r: InboundMailRow) -> Self {
        InboundMail {
            id: r.id,
            received_at: r.received_at,
            via: r.via,
            sender: r.sender,
            message_id: r.message_id,
            user_id: r.user_id,
            game_id: r.game_id,
            move_number: r.move_number,
            outcome: r.outcome,
            applied: r.applied,
            moves_to: r.moves_to,
            detail: r.detail,
        }
    }
}

/// The mails received as replies, newest first.
#[utoipa::path(tag = "admin", security(("bearer" = [])), params(FailedQuery), responses(
    (status = 200, body = Vec<InboundMail>),
    (status = 400, description = "Bad paging (`invalid_query`), or a page past the last (`page_out_of_range`)", body = Problem, content_type = "application/problem+json"),
    (status = 401, body = Problem, content_type = "application/problem+json"),
    (status = 403, body = Problem, content_type = "application/problem+json"),
))]
#[get("/admin/mail/inbound")]
pub async fn inbound(
    state: web::Data<AppState>,
    _admin: AdminUser,
    q: web::Query<FailedQuery>,
) -> Result<HttpResponse, Error> {
    page_of::<InboundMailRow, InboundMail>(&state, &q, inbound_mails::page).await
}
