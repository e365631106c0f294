//! Which mails a use case causes, written with the use case's own change
//! (so a mail exists exactly when its cause was committed). Each row holds
//! what its templates render, computed here from what the recipient may
//! see; the mail worker adds the links and sends it.

use super::chain::{NewRows, RecentEvents};
use super::deadlines::{Clocks, TurnMail};
use super::timeouts;
use crate::error::Error;
use crate::mail::describe::{self, Names};
use crate::mail::picture::{Changed, Scene};
use crate::mail::pictures::BOARD;
use crate::mail::schedule::LocalTime;
use crate::store::games::{self as db, GameRow, MoveRow, status, timeout_policy};
use crate::store::outbox::{self, NewMail, kind};
use crate::store::{DbConnection, users};
use hexpost_engine::{Event, GameState, Redact, Seat};
use serde_json::{Value, json};
use std::sync::Arc;

/// The most events one "your move" mail lists (the latest ones).
const MAX_EVENTS: usize = 60;

struct Mail<'a> {
    kind: &'static str,
    game: &'a GameRow,
    /// The recipient's account, when they have one: their quiet hours hold
    /// the mail back.
    user: Option<&'a users::User>,
    recipient: &'a str,
    game_seq: Option<i64>,
    context: Value,
    /// Past this time a mail is pointless: quiet hours never hold it
    /// beyond it (a reminder before its deadline).
    latest: Option<i64>,
}

/// The outbox row of `mail`.
fn compose(mail: Mail, at: i64) -> NewMail {
    let mut context = mail.context;
    context["game_id"] = mail.game.id.clone().into();
    context["variant"] = describe::words(&mail.game.variant).into();
    let due_at = match mail.user.map(|u| LocalTime::of(u).deliver_at(at)) {
        Some(later) if mail.latest.is_none_or(|l| later < l) => later,
        _ => at,
    };
    NewMail {
        kind: mail.kind.into(),
        game_id: Some(mail.game.id.clone()),
        user_id: mail.user.map(|u| u.id),
        recipient: mail.recipient.into(),
        context: context.to_string(),
        message_id: format!("{}.{}", mail.kind, uuid::Uuid::new_v4()),
        game_seq: mail.game_seq,
        due_at,
        created_at: at,
    }
}

/// Queues `mail` in the caller's transaction.
fn queue(conn: &mut DbConnection, mail: Mail, at: i64) -> Result<(), Error> {
    Ok(outbox::insert(conn, &compose(mail, at))?)
}

fn user(conn: &mut DbConnection, id: i64) -> Result<users::User, Error> {
    users::by_id(conn, id)?.ok_or_else(|| Error::internal(format!("user {id} is missing")))
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
) -> Result<(), Error> {
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
        user: invitee.as_ref(),
        recipient: email,
        game_seq: None,
        context,
        latest: None,
    };
    queue(conn, mail, at)
}

/// Tells the creator that `acceptor` accepted.
pub fn accepted(
    conn: &mut DbConnection,
    game: &GameRow,
    acceptor: i64,
    at: i64,
) -> Result<(), Error> {
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
) -> Result<(), Error> {
    to_creator(conn, game, kind::DECLINED, json!({"invitee": email}), at)
}

/// A mail to the game's creator, unless they turned game mails off.
fn to_creator(
    conn: &mut DbConnection,
    game: &GameRow,
    kind: &'static str,
    mut context: Value,
    at: i64,
) -> Result<(), Error> {
    let creator = user(conn, game.created_by)?;
    if !wants_game_mail(&creator) {
        return Ok(());
    }
    context["player"] = creator.display_name.clone().into();
    let mail = Mail {
        kind,
        game,
        user: Some(&creator),
        recipient: &creator.email,
        game_seq: None,
        context,
        latest: None,
    };
    queue(conn, mail, at)
}

/// With the log rows of `rows`, for `game` as it will be saved (with its
/// new status and move number): "your move" to each awaited player other
/// than `mover`, or "game over" to both players, queued with the rows.
pub fn after_move(
    conn: &mut DbConnection,
    game: &mut GameRow,
    state: &GameState,
    seats: &[i64; 2],
    mover: Option<i64>,
    rows: &mut NewRows,
) -> Result<(), Error> {
    let at = rows.at();
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
    let people = rows.people(conn, *seats)?;
    let names = names_of(&people);
    if over {
        for mail in game_over(game, state, &people, &names, None, at) {
            rows.queue(mail);
        }
        return Ok(());
    }
    for seat in awaited {
        let recipient = &people[seat.index()];
        if recipient.notify == users::notify::DIGEST {
            rows.queue(digest_mail(recipient, at));
            continue;
        }
        if !wants_turn_mail(recipient) {
            continue;
        }
        let mut clocks = timeouts::clocks(game)?;
        let marks = match clocks.seats[seat.index()].turn_mail {
            Some(marks) => marks,
            None => TurnMail {
                decided: db::last_decision(conn, &game.id, recipient.id)?
                    .into_iter()
                    .chain(
                        rows.rows()
                            .iter()
                            .filter(|r| r.user_id == Some(recipient.id))
                            .map(|r| r.seq),
                    )
                    .max()
                    .unwrap_or(0),
                mailed: outbox::last_turn_mail(conn, &game.id, recipient.id)?.unwrap_or(0),
            },
        };
        if marks.unanswered() {
            continue;
        }
        let stored = stored_events_after(conn, &game.id, rows, marks.decided)?;
        let since = Since {
            seq: marks.decided,
            stored,
            unwritten: rows.rows(),
        };
        let context = your_move(game, state, seat, since, &names, recipient)?;
        let mail = Mail {
            kind: kind::YOUR_MOVE,
            game,
            user: Some(recipient),
            recipient: &recipient.email,
            game_seq: Some(game.move_number),
            context,
            latest: None,
        };
        rows.queue(compose(mail, at));
        clocks.seats[seat.index()].turn_mail = Some(TurnMail {
            mailed: game.move_number,
            ..marks
        });
        timeouts::store(game, &clocks);
    }
    Ok(())
}

/// The board places `events` changed, to outline in a picture.
fn changed(events: &[Event]) -> Changed {
    let mut changed = Changed::default();
    for event in events {
        changed.note(event);
    }
    changed
}

fn names_of(people: &[users::User; 2]) -> Names {
    Names([
        people[0].display_name.clone(),
        people[1].display_name.clone(),
    ])
}

/// A reminder to the player of `seat` that their deadline approaches;
/// false when they turned game mails off.
pub fn reminder(
    conn: &mut DbConnection,
    game: &GameRow,
    state: &GameState,
    seats: &[i64; 2],
    seat: usize,
    clocks: &Clocks,
    at: i64,
) -> Result<bool, Error> {
    let people = users::pair(conn, *seats)?;
    let person = &people[seat];
    let Some(due) = clocks.seats[seat].due_at else {
        return Ok(false);
    };
    if !wants_game_mail(person) {
        return Ok(false);
    }
    let view = state.view(Some(Seat(seat as u8)));
    let board = Scene::of(&view, &names_of(&people).0, Changed::default());
    let context = json!({
        "player": person.display_name,
        "opponent": people[1 - seat].display_name,
        "move_number": game.move_number,
        "deadline": LocalTime::of(person).format(due),
        "hours_left": ((due - at).max(0) + 3_599_999) / 3_600_000,
        "decisions": describe::decisions(&state.legal_actions(Seat(seat as u8))),
        BOARD: board,
        "forfeit": game.timeout_policy == timeout_policy::FORFEIT
            || clocks.seats[seat].auto_in_a_row >= game.max_auto_decisions.max(0) as u32,
    });
    let mail = Mail {
        kind: kind::REMINDER,
        game,
        user: Some(person),
        recipient: &person.email,
        game_seq: Some(game.move_number),
        context,
        latest: Some(due),
    };
    queue(conn, mail, at)?;
    Ok(true)
}

/// Tells the player of `seat` what the server decided for them when their
/// time ran out (`taken`: the events, as they may see them).
pub fn timed_out(
    conn: &mut DbConnection,
    game: &GameRow,
    state: &GameState,
    seats: &[i64; 2],
    seat: usize,
    taken: &[Event],
    rows: &mut NewRows,
) -> Result<(), Error> {
    let at = rows.at();
    let people = users::pair(conn, *seats)?;
    let person = &people[seat];
    if !wants_game_mail(person) {
        return Ok(());
    }
    let names = names_of(&people);
    let clocks = timeouts::clocks(game)?;
    let over = game.status == status::FINISHED;
    let context = json!({
        "player": person.display_name,
        "opponent": people[1 - seat].display_name,
        "move_number": game.move_number,
        "taken": taken.iter().map(|e| describe::event(e, &names)).collect::<Vec<_>>(),
        BOARD: Scene::of(&state.view(Some(Seat(seat as u8))), &names.0, changed(taken)),
        "automatic_in_a_row": clocks.seats[seat].auto_in_a_row,
        "max_auto_decisions": game.max_auto_decisions,
        "your_turn_again": !over && timeouts::awaited(state)[seat],
        "deadline": deadline(game, seat, person)?,
        "over": over,
    });
    let mail = Mail {
        kind: kind::TIMEOUT,
        game,
        user: Some(person),
        recipient: &person.email,
        game_seq: Some(game.move_number),
        context,
        latest: None,
    };
    rows.queue(compose(mail, at));
    Ok(())
}

/// Game over after the player of `seat` ran out of time.
pub fn forfeited(
    conn: &mut DbConnection,
    game: &GameRow,
    state: &GameState,
    seats: &[i64; 2],
    seat: usize,
    at: i64,
) -> Result<(), Error> {
    let people = users::pair(conn, *seats)?;
    let names = names_of(&people);
    let result = format!(
        "{} ran out of time, {} won",
        names.0[seat],
        names.0[1 - seat]
    );
    for mail in game_over(game, state, &people, &names, Some(result), at) {
        outbox::insert(conn, &mail)?;
    }
    Ok(())
}

/// Makes sure a digest goes to `person` at their next digest hour (one a
/// day: a second call for the same day finds it queued).
pub fn schedule_digest(
    conn: &mut DbConnection,
    person: &users::User,
    at: i64,
) -> Result<(), Error> {
    outbox::insert_once(conn, &digest_mail(person, at))?;
    Ok(())
}

/// The digest that goes to `person` at their next digest hour: one a day,
/// as its Message-ID names the day, and the outbox keeps the first queued.
fn digest_mail(person: &users::User, at: i64) -> NewMail {
    let (when, date) = LocalTime::of(person).next_digest(at);
    NewMail {
        kind: kind::DIGEST.into(),
        game_id: None,
        user_id: Some(person.id),
        recipient: person.email.clone(),
        // Filled in when it is sent: the games waiting then.
        context: "{}".into(),
        message_id: format!("digest.{}.{date}", person.id),
        game_seq: None,
        due_at: when,
        created_at: at,
    }
}

/// The most events of one game a digest lists (the latest ones).
const DIGEST_EVENTS: usize = 15;

/// A digest's content as of `at`: every game that waits for the person,
/// each as their "your move" mail would describe it. None when nothing
/// waits for them (or they turned mails off): the digest is not sent.
pub fn digest(conn: &mut DbConnection, user_id: i64) -> Result<Option<Value>, Error> {
    let Some(person) = users::by_id(conn, user_id)? else {
        return Ok(None);
    };
    if !wants_game_mail(&person) {
        return Ok(None);
    }
    let waiting = db::list_for_user(conn, user_id, db::ListFilter::AwaitingMe, 0, 50)?;
    let mut games = Vec::new();
    for game in waiting {
        let seats = db::players(conn, &game.id)?;
        let Some(&(seat, _)) = seats.iter().find(|(_, u)| *u == user_id) else {
            continue;
        };
        let people = users::pair(conn, [seats[0].1, seats[1].1])?;
        let state = super::engine_state(&game)?;
        let seq = db::last_decision(conn, &game.id, user_id)?.unwrap_or(0);
        // Nothing is added to the log: the stored rows are all there is.
        let mut nothing_new = NewRows::after(&game, 0);
        let since = Since {
            seq,
            stored: stored_events_after(conn, &game.id, &mut nothing_new, seq)?,
            unwritten: &[],
        };
        let mut item = your_move(
            &game,
            &state,
            Seat(seat as u8),
            since,
            &names_of(&people),
            &person,
        )?;
        if let Some(events) = item["events"].as_array_mut() {
            let cut = events.len().saturating_sub(DIGEST_EVENTS);
            events.drain(..cut);
            let omitted = item["events_omitted"].as_u64().unwrap_or(0) + cut as u64;
            item["events_omitted"] = omitted.into();
        }
        item["game_id"] = game.id.clone().into();
        item["variant"] = describe::words(&game.variant).into();
        games.push(item);
    }
    if games.is_empty() {
        return Ok(None);
    }
    Ok(Some(json!({"player": person.display_name, "games": games})))
}

/// The log rows after a player's last decision: those stored, then the
/// ones the change being written adds.
struct Since<'a> {
    /// The player's last decision (0 for none).
    seq: i64,
    /// The events of the stored rows after it.
    stored: Vec<Arc<str>>,
    unwritten: &'a [MoveRow],
}

/// The events of the stored rows after `seq`: known already when the move
/// started from the game's copy, else read, and then known to the copy
/// this change leaves.
fn stored_events_after(
    conn: &mut DbConnection,
    game_id: &str,
    rows: &mut NewRows,
    seq: i64,
) -> Result<Vec<Arc<str>>, Error> {
    let until = rows.stored_until();
    if let Some(events) = rows.earlier().between(seq, until) {
        return Ok(events);
    }
    let (mut read, mut events) = (RecentEvents::default(), Vec::new());
    let mut after = seq;
    // Up to the last stored row: a short batch is the last one, and no
    // query is spent on finding the end.
    while after < until {
        let batch = db::moves(conn, game_id, after, 500)?;
        let Some(last) = batch.last() else { break };
        after = last.seq;
        for row in batch.into_iter().take_while(|r| r.seq <= until) {
            let row_events = Arc::<str>::from(row.events);
            read.push(row.seq, row_events.clone());
            events.push(row_events);
        }
    }
    rows.learn_earlier(read);
    Ok(events)
}

/// What `seat` needs to decide: the events after its player's last
/// decision and its hand, both as that seat may see them.
fn your_move(
    game: &GameRow,
    state: &GameState,
    seat: Seat,
    since: Since,
    names: &Names,
    reader: &users::User,
) -> Result<Value, Error> {
    let me = seat.index();
    let mut lines = Vec::new();
    let mut changed = Changed::default();
    let mut describe_row = |row_events: &str| -> Result<(), Error> {
        let events: Vec<Event> = serde_json::from_str(row_events).map_err(Error::internal)?;
        for event in &events {
            let seen = event.redacted_for(Some(seat));
            changed.note(&seen);
            lines.push(describe::event(&seen, names));
        }
        Ok(())
    };
    for row_events in &since.stored {
        describe_row(row_events)?;
    }
    for row in since.unwritten.iter().filter(|r| r.seq > since.seq) {
        describe_row(&row.events)?;
    }
    let omitted = lines.len().saturating_sub(MAX_EVENTS);
    let view = state.view(Some(seat));
    let own = view
        .you
        .as_ref()
        .ok_or_else(|| Error::internal("a seat's view has its hand"))?;
    Ok(json!({
        "player": names.0[me],
        "opponent": names.0[1 - me],
        "move_number": game.move_number,
        BOARD: Scene::of(&view, &names.0, changed),
        "events": lines.split_off(omitted),
        "events_omitted": omitted,
        "hand": describe::resources(&own.resources),
        "dev_cards": describe::dev_cards(&own.dev_cards),
        "new_dev_cards": describe::dev_cards(&own.new_dev_cards),
        "your_vp": own.total_vp,
        "scores": scores(&view, names, |p| p.visible_vp),
        "decisions": describe::decisions(&state.legal_actions(seat)),
        "deadline": deadline(game, seat.index(), reader)?,
    }))
}

/// When the decision awaited from `seat` times out, in `reader`'s time.
fn deadline(game: &GameRow, seat: usize, reader: &users::User) -> Result<Option<String>, Error> {
    let clocks = timeouts::clocks(game)?;
    Ok(clocks.seats[seat]
        .due_at
        .map(|t| LocalTime::of(reader).format(t)))
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

/// Game over, to both players; `result` says how it ended when the engine
/// alone cannot tell (a forfeit).
fn game_over(
    game: &GameRow,
    state: &GameState,
    people: &[users::User; 2],
    names: &Names,
    result: Option<String>,
    at: i64,
) -> Vec<NewMail> {
    let result = result.unwrap_or_else(|| match game.winner_seat.map(|w| w.clamp(0, 1) as usize) {
        Some(w) if state.winner.is_some() => format!("{} won", names.0[w]),
        // The engine has no winner when a player resigned.
        Some(w) => format!("{} resigned, {} won", names.0[1 - w], names.0[w]),
        None => "no winner".into(),
    });
    let view = state.view(None);
    let scores = scores(&view, names, |p| p.final_vp.unwrap_or(p.visible_vp));
    let mut mails = Vec::new();
    for (seat, person) in people.iter().enumerate() {
        if !wants_game_mail(person) {
            continue;
        }
        let board = Scene::of(
            &state.view(Some(Seat(seat as u8))),
            &names.0,
            Changed::default(),
        );
        let context = json!({
            "player": person.display_name,
            BOARD: board,
            "result": result,
            "scores": scores,
            "seed": game.seed,
            "seed_hash": game.seed_hash,
        });
        let mail = Mail {
            kind: kind::GAME_OVER,
            game,
            user: Some(person),
            recipient: &person.email,
            game_seq: Some(game.move_number),
            context,
            latest: None,
        };
        mails.push(compose(mail, at));
    }
    mails
}

/// Queues failed mails again (one, or all with `id` None), logged as the
/// admin's action. Returns how many.
pub fn retry_failed(
    conn: &mut DbConnection,
    admin: Option<i64>,
    id: Option<i64>,
) -> Result<usize, Error> {
    crate::store::write_tx(conn, |conn| {
        let n = outbox::retry_failed(conn, id, crate::store::now_ms())?;
        let target = id.map_or_else(|| "all".to_string(), |i| i.to_string());
        db::admin_log(conn, admin, "retry_mail", &target, &n.to_string())?;
        Ok(n)
    })
}
