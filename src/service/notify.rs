//! Which mails a use case causes, queued in the use case's own transaction
//! (so a mail exists exactly when its cause was committed). Each row holds
//! what its templates render, computed here from what the recipient may
//! see; the mail worker adds the links and sends it.

use crate::api::problem::ApiError;
use crate::mail::describe::{self, Names};
use crate::store::games::{self as db, GameRow, status};
use crate::store::outbox::{self, NewMail, kind};
use crate::store::{DbConnection, users};
use hexpost_engine::{Event, GameState, Seat};
use serde_json::{Value, json};

/// The most events one "your move" mail lists (the latest ones).
const MAX_EVENTS: usize = 60;

struct Mail<'a> {
    kind: &'static str,
    game: &'a GameRow,
    user: Option<i64>,
    recipient: &'a str,
    game_seq: Option<i64>,
    context: Value,
}

fn queue(conn: &mut DbConnection, mail: Mail, at: i64) -> Result<(), ApiError> {
    let mut context = mail.context;
    context["game_id"] = mail.game.id.clone().into();
    context["variant"] = describe::words(&mail.game.variant).into();
    outbox::insert(
        conn,
        &NewMail {
            kind: mail.kind.into(),
            game_id: Some(mail.game.id.clone()),
            user_id: mail.user,
            recipient: mail.recipient.into(),
            context: context.to_string(),
            message_id: format!("{}.{}", mail.kind, uuid::Uuid::new_v4()),
            game_seq: mail.game_seq,
            due_at: at,
            created_at: at,
        },
    )?;
    Ok(())
}

fn user(conn: &mut DbConnection, id: i64) -> Result<users::User, ApiError> {
    users::by_id(conn, id)?.ok_or_else(|| ApiError::internal(format!("user {id} is missing")))
}

/// Whether `u` gets mails about their games (all but `off`).
fn wants_game_mail(u: &users::User) -> bool {
    u.notify != users::notify::OFF
}

/// Whether `u` gets a mail for each move awaited from them.
fn wants_turn_mail(u: &users::User) -> bool {
    u.notify == users::notify::EVERY_MOVE
}

/// The invitation, to the invited address (which may have no account yet).
pub fn invitation(
    conn: &mut DbConnection,
    game: &GameRow,
    email: &str,
    token: &str,
    at: i64,
) -> Result<(), ApiError> {
    let inviter = user(conn, game.created_by)?;
    let context = json!({
        "inviter": inviter.display_name,
        "token": token,
        "time_limit_hours": game.time_limit_secs / 3600,
    });
    let invitee = users::by_email(conn, email)?;
    let mail = Mail {
        kind: kind::INVITATION,
        game,
        user: invitee.map(|u| u.id),
        recipient: email,
        game_seq: None,
        context,
    };
    queue(conn, mail, at)
}

/// Tells the creator that `acceptor` accepted.
pub fn accepted(
    conn: &mut DbConnection,
    game: &GameRow,
    acceptor: i64,
    at: i64,
) -> Result<(), ApiError> {
    let opponent = user(conn, acceptor)?;
    let context = json!({"opponent": opponent.display_name});
    to_creator(conn, game, kind::ACCEPTED, context, at)
}

/// Tells the creator that the invitation to `email` was declined.
pub fn declined(
    conn: &mut DbConnection,
    game: &GameRow,
    email: &str,
    at: i64,
) -> Result<(), ApiError> {
    to_creator(conn, game, kind::DECLINED, json!({"invitee": email}), at)
}

/// A mail to the game's creator, unless they turned game mails off.
fn to_creator(
    conn: &mut DbConnection,
    game: &GameRow,
    kind: &'static str,
    mut context: Value,
    at: i64,
) -> Result<(), ApiError> {
    let creator = user(conn, game.created_by)?;
    if !wants_game_mail(&creator) {
        return Ok(());
    }
    context["player"] = creator.display_name.clone().into();
    let mail = Mail {
        kind,
        game,
        user: Some(creator.id),
        recipient: &creator.email,
        game_seq: None,
        context,
    };
    queue(conn, mail, at)
}

/// After log rows were written for `game` (already saved with its new
/// status and move number): "your move" to each awaited player other than
/// `mover`, or "game over" to both players.
pub fn after_move(
    conn: &mut DbConnection,
    game: &GameRow,
    state: &GameState,
    seats: &[i64; 2],
    mover: Option<i64>,
    at: i64,
) -> Result<(), ApiError> {
    let over = game.status == status::FINISHED;
    let awaited: Vec<Seat> = state
        .awaiting()
        .iter()
        .copied()
        .filter(|s| s.is_real() && Some(seats[s.index()]) != mover)
        .collect();
    // Most moves leave the mover to act again: nothing to tell anyone, and
    // no query spent on finding that out.
    if !over && awaited.is_empty() {
        return Ok(());
    }
    let people = users::pair(conn, *seats)?;
    let names = Names([
        people[0].display_name.clone(),
        people[1].display_name.clone(),
    ]);
    if over {
        return game_over(conn, game, state, &people, &names, at);
    }
    for seat in awaited {
        let recipient = &people[seat.index()];
        if !wants_turn_mail(recipient) {
            continue;
        }
        let answered = db::last_decision(conn, &game.id, recipient.id)?;
        // An earlier "your move" is unanswered while no decision of theirs
        // is logged after the move it announced.
        if let Some(mailed) = outbox::last_turn_mail(conn, &game.id, recipient.id)?
            && answered.is_none_or(|seq| seq <= mailed)
        {
            continue;
        }
        let since = answered.unwrap_or(0);
        let context = your_move(conn, game, state, seat, since, &names)?;
        let mail = Mail {
            kind: kind::YOUR_MOVE,
            game,
            user: Some(recipient.id),
            recipient: &recipient.email,
            game_seq: Some(game.move_number),
            context,
        };
        queue(conn, mail, at)?;
    }
    Ok(())
}

/// What `seat` needs to decide: the events after log row `since` (its
/// player's last decision) and its hand, both as that seat may see them.
fn your_move(
    conn: &mut DbConnection,
    game: &GameRow,
    state: &GameState,
    seat: Seat,
    since: i64,
    names: &Names,
) -> Result<Value, ApiError> {
    let me = seat.index();
    let mut lines = Vec::new();
    let mut after = since;
    loop {
        let rows = db::moves(conn, &game.id, after, 500)?;
        let Some(last) = rows.last() else { break };
        after = last.seq;
        for row in &rows {
            let events: Vec<Event> =
                serde_json::from_str(&row.events).map_err(ApiError::internal)?;
            lines.extend(
                events
                    .iter()
                    .map(|e| describe::event(&e.redacted_for(Some(seat)), names)),
            );
        }
    }
    let omitted = lines.len().saturating_sub(MAX_EVENTS);
    let view = state.view(Some(seat));
    let own = view
        .you
        .as_ref()
        .ok_or_else(|| ApiError::internal("a seat's view has its hand"))?;
    Ok(json!({
        "player": names.0[me],
        "opponent": names.0[1 - me],
        "move_number": game.move_number,
        "events": lines.split_off(omitted),
        "events_omitted": omitted,
        "hand": describe::resources(&own.resources),
        "dev_cards": describe::dev_cards(&own.dev_cards),
        "new_dev_cards": describe::dev_cards(&own.new_dev_cards),
        "your_vp": own.total_vp,
        "scores": scores(&view, names, |p| p.visible_vp),
        "decisions": describe::decisions(&state.legal_actions(seat)),
    }))
}

/// `Ada 7 VP, Grace 5 VP` for the real seats.
fn scores(
    view: &hexpost_engine::GameView,
    names: &Names,
    vp: impl Fn(&hexpost_engine::view::PublicPlayer) -> u8,
) -> Vec<String> {
    view.players
        .iter()
        .filter(|p| p.seat.is_real())
        .map(|p| format!("{} {} VP", names.of(p.seat.0 as u64), vp(p)))
        .collect()
}

fn game_over(
    conn: &mut DbConnection,
    game: &GameRow,
    state: &GameState,
    people: &[users::User; 2],
    names: &Names,
    at: i64,
) -> Result<(), ApiError> {
    let result = match game.winner_seat.map(|w| w.clamp(0, 1) as usize) {
        Some(w) if state.winner.is_some() => format!("{} won", names.0[w]),
        // The engine has no winner when a player resigned.
        Some(w) => format!("{} resigned, {} won", names.0[1 - w], names.0[w]),
        None => "no winner".into(),
    };
    let view = state.view(None);
    let scores = scores(&view, names, |p| p.final_vp.unwrap_or(p.visible_vp));
    for person in people {
        if !wants_game_mail(person) {
            continue;
        }
        let context = json!({
            "player": person.display_name,
            "result": result,
            "scores": scores,
            "seed": game.seed,
            "seed_hash": game.seed_hash,
        });
        let mail = Mail {
            kind: kind::GAME_OVER,
            game,
            user: Some(person.id),
            recipient: &person.email,
            game_seq: Some(game.move_number),
            context,
        };
        queue(conn, mail, at)?;
    }
    Ok(())
}

/// Queues failed mails again (one, or all with `id` None), logged as the
/// admin's action. Returns how many.
pub fn retry_failed(
    conn: &mut DbConnection,
    admin: Option<i64>,
    id: Option<i64>,
) -> Result<usize, ApiError> {
    crate::store::write_tx(conn, |conn| {
        let n = outbox::retry_failed(conn, id, crate::store::now_ms())?;
        let target = id.map_or_else(|| "all".to_string(), |i| i.to_string());
        db::admin_log(conn, admin, "retry_mail", &target, &n.to_string())?;
        Ok(n)
    })
}
