//! A reply's commands applied in order, each as a move through
//! `service::moves` (the API's use case), until one fails; then the answer
//! mail with what was applied, what followed and what comes next.

use super::token::ReplyClaims;
use crate::commands;
use crate::describe::Table;
use crate::error::Error;
use crate::service::feed::{self, Feed};
use crate::service::game_cache::GameCache;
use crate::service::games::{self, Seated};
use crate::service::moves::{self, MoveOutcome, MoveRequest};
use crate::service::{Now, engine_state, notify};
use crate::store::games::status;
use crate::store::{DbConnection, users};
use hexpost_engine::{Event, Seat};
use serde_json::{Value, json};

pub struct Reply<'a> {
    pub claims: &'a ReplyClaims,
    /// The reply's own lines (`reading::own_lines`).
    pub lines: &'a [String],
    pub games: &'a GameCache,
    pub feed: &'a Feed,
    pub now: Now,
    /// Whether a reply that plays nothing is answered
    /// (`Inbox::may_answer_failure`); one that plays something always is.
    pub answer_failure: bool,
}

/// What playing a reply did.
pub struct Played {
    pub outcome: &'static str,
    pub applied: usize,
    /// The game's move number after the last command applied.
    pub moves_to: Option<i64>,
    pub detail: Option<String>,
    pub answered: bool,
}

/// A command that was not applied, and why, in the API's terms.
struct Failure {
    command: String,
    code: &'static str,
    detail: String,
}

pub fn play(conn: &mut DbConnection, reply: Reply) -> Result<Played, Error> {
    let claims = reply.claims;
    let seated = match games::read_seated(conn, &claims.game_id, claims.user_id) {
        Ok(seated) => seated,
        // The token was made for this player's game: it is gone.
        Err(e) if e.status.is_client_error() => {
            return Ok(Played {
                outcome: "game_not_found",
                applied: 0,
                moves_to: None,
                detail: Some(e.detail),
                answered: false,
            });
        }
        Err(e) => return Err(e),
    };
    let stopped = |outcome: &'static str, detail: String, report: Value| Stop {
        outcome,
        detail,
        report,
    };
    let stop = if seated.game.status != status::ACTIVE {
        Some(stopped(
            "game_not_active",
            "the game is over".into(),
            json!({"note": "The game is over: nothing was applied."}),
        ))
    } else if seated.game.move_number != claims.move_number {
        let detail = format!(
            "the reply answers move {}, the game is at move {}",
            claims.move_number, seated.game.move_number
        );
        Some(stopped(
            "stale_move",
            detail,
            json!({"stale": true, "replied_to": claims.move_number}),
        ))
    } else if reply.lines.is_empty() {
        Some(stopped(
            "no_commands",
            "the reply has no commands above the quoted mail".into(),
            json!({"note": "Your reply had no commands above the quoted mail: nothing was applied."}),
        ))
    } else {
        None
    };
    if let Some(Stop {
        outcome,
        detail,
        report,
    }) = stop
    {
        if reply.answer_failure {
            notify::answer(conn, &seated, &[], report, reply.now.at)?;
        }
        return Ok(Played {
            outcome,
            applied: 0,
            moves_to: None,
            detail: Some(detail),
            answered: reply.answer_failure,
        });
    }
    let done = commands_in_order(conn, &reply, &seated)?;
    let seated = games::read_seated(conn, &claims.game_id, claims.user_id)?;
    let report = json!({
        "applied": done.commands,
        "failure": done.failure.as_ref().map(|f| json!({
            "command": f.command, "code": f.code, "detail": f.detail,
        })),
    });
    let answered = reply.answer_failure || !done.commands.is_empty();
    if answered {
        notify::answer(conn, &seated, &done.events, report, reply.now.at)?;
    }
    Ok(Played {
        outcome: if done.failure.is_some() {
            "command_failed"
        } else {
            "applied"
        },
        applied: done.commands.len(),
        moves_to: done.moves_to,
        detail: done
            .failure
            .map(|f| format!("{}: {} ({})", f.command, f.detail, f.code)),
        answered,
    })
}

struct Stop {
    outcome: &'static str,
    detail: String,
    report: Value,
}

/// What the commands of a reply did before they ended or one failed.
#[derive(Default)]
struct Applied {
    commands: Vec<String>,
    /// The events of their moves, as the player saw them.
    events: Vec<Event>,
    failure: Option<Failure>,
    /// The game's move number after the last one applied.
    moves_to: Option<i64>,
}

/// Applies the reply's lines one by one until one fails.
fn commands_in_order(
    conn: &mut DbConnection,
    reply: &Reply,
    seated: &Seated,
) -> Result<Applied, Error> {
    let game_id = &reply.claims.game_id;
    let state = engine_state(&seated.game)?;
    let mut legal = state.legal_actions(Seat(seated.seat));
    // Players are named in a reply as the mails name them: by display name.
    let people = users::pair(conn, seated.seat_users)?;
    let names = people.map(|p| p.display_name);
    let table = Table::of_state(names, &state);
    let mut expected = seated.game.move_number;
    let mut done = Applied::default();
    for line in reply.lines {
        let failed = |code, detail| Failure {
            command: line.clone(),
            code,
            detail,
        };
        let action = match commands::parse_for(line, &legal, &table) {
            Ok(action) => action,
            Err(e) => {
                done.failure = Some(failed(e.code, e.detail));
                break;
            }
        };
        let request = MoveRequest {
            expected_move_number: Some(expected),
            action: Some(serde_json::to_value(&action).map_err(Error::internal)?),
            jws: None,
        };
        let user = reply.claims.user_id;
        let outcome: MoveOutcome =
            match moves::submit(conn, reply.games, user, game_id, request, None, reply.now) {
                Ok(moved) => {
                    if let Some(signal) = &moved.signal {
                        feed::written(conn, reply.feed, signal);
                    }
                    serde_json::from_str(&moved.body).map_err(Error::internal)?
                }
                Err(e) if e.status.is_client_error() => {
                    done.failure = Some(failed(e.code, e.detail));
                    break;
                }
                Err(e) => return Err(e),
            };
        done.commands.push(commands::encode(&action));
        done.events.extend(outcome.events);
        expected = outcome.move_number;
        done.moves_to = Some(expected);
        legal = outcome.legal_actions;
    }
    Ok(done)
}
