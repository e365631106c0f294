//! Which mails a use case causes, written with the use case's own change
//! (so a mail exists exactly when its cause was committed). Each row holds
//! what its templates render, computed here from what the recipient may
//! see; the mail worker adds the links and sends it.

use super::chain::{NewRows, RecentEvents};
use super::deadlines::{Clocks, TurnMail};
use super::timeouts;
use crate::config::TurnMailPacing;
use crate::describe::Table;
use crate::error::Error;
use crate::mail::contexts::{self, Automatic, Ending, Turn};
use crate::mail::pictures::{BOARD, board};
use crate::mail::schedule::LocalTime;
use crate::store::games::{self as db, GameRow, MoveRow, status, timeout_policy};
use crate::store::outbox::{self, NewMail, kind};
use crate::store::{DbConnection, users};
use hexpost_engine::{Event, GameState, Seat};
use serde_json::Value;
use std::sync::Arc;

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
    contexts::about_game(&mut context, &mail.game.id, &mail.game.variant);
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

/// The invitation `invitation_id`, to the invited address (which may have
/// no account yet).
pub fn invitation(
    conn: &mut DbConnection,
    game: &GameRow,
    invitation_id: &str,
    email: &str,
    token: &str,
    at: i64,
) -> Result<(), Error> {
    let inviter = user(conn, game.created_by)?;
    let mut context =
        contexts::invitation(&inviter.display_name, token, game.time_limit_secs / 3600);
    // What its reply address names (`inbound::address`).
    context["invitation_id"] = invitation_id.into();
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

/// The answer to a reply to an invitation that did not start the game,
/// to the invited address: declined, or `failure` (code, detail) with the
/// invitation still open. Sent at once, like every answer.
pub fn invitation_answer(
    conn: &mut DbConnection,
    game: &GameRow,
    email: &str,
    failure: Option<(&str, &str)>,
    at: i64,
) -> Result<(), Error> {
    let inviter = user(conn, game.created_by)?;
    let context = contexts::invitation_answer(&inviter.display_name, failure);
    let mail = Mail {
        kind: kind::INVITATION_ANSWER,
        game,
        user: None,
        recipient: email,
        game_seq: None,
        context,
        latest: None,
    };
    let mut row = compose(mail, at);
    row.user_id = users::by_email(conn, email)?.map(|u| u.id);
    Ok(outbox::insert(conn, &row)?)
}

/// Tells the creator that `acceptor` accepted.
pub fn accepted(
    conn: &mut DbConnection,
    game: &GameRow,
    acceptor: i64,
    at: i64,
) -> Result<(), Error> {
    let opponent = user(conn, acceptor)?;
    let context = |player: &str| contexts::accepted(player, &opponent.display_name);
    to_creator(conn, game, kind::ACCEPTED, context, at)
}

/// Tells the creator that the invitation to `email` was declined.
pub fn declined(
    conn: &mut DbConnection,
    game: &GameRow,
    email: &str,
    at: i64,
) -> Result<(), Error> {
    let context = |player: &str| contexts::declined(player, email);
    to_creator(conn, game, kind::DECLINED, context, at)
}

/// A mail to the game's creator, unless they turned game mails off.
fn to_creator(
    conn: &mut DbConnection,
    game: &GameRow,
    kind: &'static str,
    context: impl FnOnce(&str) -> Value,
    at: i64,
) -> Result<(), Error> {
    let creator = user(conn, game.created_by)?;
    if !wants_game_mail(&creator) {
        return Ok(());
    }
    let context = context(&creator.display_name);
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
    pacing: TurnMailPacing,
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
    let table = Table::of_state(names_of(&people), state);
    if over {
        let events = [
            how_it_ended(conn, &game.id, people[0].id, rows)?,
            how_it_ended(conn, &game.id, people[1].id, rows)?,
        ];
        for mail in game_over(game, state, &people, &table, None, &events, at) {
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
                ..TurnMail::default()
            },
        };
        let Some(paced) = marks.pace(at, pacing) else {
            continue;
        };
        let turn = turn(game, state, seat, &table, recipient)?;
        let events = events_after(conn, &game.id, rows, marks.decided)?;
        let mut context = contexts::your_move(&turn, &events);
        context[BOARD] = board(state, seat, &table, &events);
        let mail = Mail {
            kind: kind::YOUR_MOVE,
            game,
            user: Some(recipient),
            recipient: &recipient.email,
            game_seq: Some(game.move_number),
            context,
            latest: None,
        };
        let mut queued = compose(mail, paced.not_before);
        queued.created_at = at;
        let due_at = queued.due_at;
        rows.queue(queued);
        clocks.seats[seat.index()].turn_mail = Some(marks.queued(game.move_number, due_at, paced));
        timeouts::store(game, &clocks);
    }
    Ok(())
}

/// The answer to a reply mail (`inbound`), to the player of `seated`:
/// `report` (what the reply applied, or why it stopped), the `events`
/// that followed as the mover saw them, where the game stands now and,
/// while it runs, the commands they may give. Sent at once: the player
/// has just written, quiet hours or not.
pub fn answer(
    conn: &mut DbConnection,
    seated: &super::games::Seated,
    events: &[Event],
    report: Value,
    at: i64,
) -> Result<(), Error> {
    let game = &seated.game;
    let seat = Seat(seated.seat);
    let state = super::engine_state(game)?;
    let people = users::pair(conn, seated.seat_users)?;
    let reader = &people[seat.index()];
    let table = Table::of_state(names_of(&people), &state);
    let turn = turn(game, &state, seat, &table, reader)?;
    let running = game.status == status::ACTIVE;
    let mut context = contexts::answer(&turn, events, running, report);
    context[BOARD] = board(&state, seat, &table, events);
    let mail = Mail {
        kind: kind::ANSWER,
        game,
        user: None,
        recipient: &reader.email,
        game_seq: Some(game.move_number),
        context,
        latest: None,
    };
    let mut row = compose(mail, at);
    row.user_id = Some(reader.id);
    Ok(outbox::insert(conn, &row)?)
}

/// The answer to a mail that was not read as a reply, to the account
/// that sent it: `report` says why. It names no game, whichever the
/// mail's address named.
pub fn refusal(
    conn: &mut DbConnection,
    reader: &users::User,
    code: &str,
    detail: &str,
    at: i64,
) -> Result<(), Error> {
    let context = contexts::refusal(&reader.display_name, code, detail);
    Ok(outbox::insert(
        conn,
        &NewMail {
            kind: kind::REFUSAL.into(),
            game_id: None,
            user_id: Some(reader.id),
            recipient: reader.email.clone(),
            context: context.to_string(),
            message_id: format!("{}.{}", kind::REFUSAL, uuid::Uuid::new_v4()),
            game_seq: None,
            due_at: at,
            created_at: at,
        },
    )?)
}

/// The mails of the account lifecycle that go to a person with an
/// account (`service::accounts`); each but `AddressChanged` carries a
/// code.
#[derive(Clone, Copy, Debug)]
pub enum AccountMail {
    /// To an address that has an account, when someone registers it: a
    /// password reset code, in case its owner forgot.
    AlreadyRegistered,
    PasswordReset,
    SignIn,
    /// To the new address of an address change.
    ConfirmNewAddress,
    /// To the new address of an address change, when it has an account of
    /// its own: nothing can move there (no code).
    AddressTaken,
    /// To the old address, once the change is confirmed (no code).
    AddressChanged,
}

impl AccountMail {
    fn kind(self) -> &'static str {
        match self {
            AccountMail::AlreadyRegistered => kind::ALREADY_REGISTERED,
            AccountMail::PasswordReset => kind::PASSWORD_RESET,
            AccountMail::SignIn => kind::SIGN_IN_CODE,
            AccountMail::ConfirmNewAddress => kind::CONFIRM_NEW_ADDRESS,
            AccountMail::AddressTaken => kind::ADDRESS_TAKEN,
            AccountMail::AddressChanged => kind::ADDRESS_CHANGED,
        }
    }
}

/// A mail of the account lifecycle to `to` (the account's address, or
/// the new one of a change), with `code` when it carries one. Sent at
/// once: the person waits for it.
pub fn account_mail(
    conn: &mut DbConnection,
    mail: AccountMail,
    account: &users::User,
    to: &str,
    code: &str,
    at: i64,
) -> Result<(), Error> {
    let context = contexts::account(&account.display_name, to, code);
    queue_account_mail(conn, mail.kind(), Some(account.id), to, context, at)
}

/// The code that confirms a registration, to the address registered,
/// which has no account yet.
pub fn registration_mail(
    conn: &mut DbConnection,
    name: &str,
    to: &str,
    code: &str,
    at: i64,
) -> Result<(), Error> {
    let context = contexts::account(name, to, code);
    queue_account_mail(conn, kind::CONFIRM_REGISTRATION, None, to, context, at)
}

fn queue_account_mail(
    conn: &mut DbConnection,
    mail_kind: &str,
    user_id: Option<i64>,
    to: &str,
    context: Value,
    at: i64,
) -> Result<(), Error> {
    Ok(outbox::insert(
        conn,
        &NewMail {
            kind: mail_kind.into(),
            game_id: None,
            user_id,
            recipient: to.into(),
            context: context.to_string(),
            message_id: format!("{mail_kind}.{}", uuid::Uuid::new_v4()),
            game_seq: None,
            due_at: at,
            created_at: at,
        },
    )?)
}

fn names_of(people: &[users::User; 2]) -> [String; 2] {
    [
        people[0].display_name.clone(),
        people[1].display_name.clone(),
    ]
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
    let table = Table::of_state(names_of(&people), state);
    let turn = Turn {
        state,
        seat: Seat(seat as u8),
        table: &table,
        move_number: game.move_number,
        deadline: Some(LocalTime::of(person).format(due)),
    };
    let forfeit = game.timeout_policy == timeout_policy::FORFEIT
        || clocks.seats[seat].auto_in_a_row >= game.max_auto_decisions.max(0) as u32;
    let mut context =
        contexts::reminder(&turn, ((due - at).max(0) + 3_599_999) / 3_600_000, forfeit);
    // Nothing is added to the log: the stored rows are all there is.
    let mut nothing_new = NewRows::after(game, 0);
    let events = since_last_decision(conn, &game.id, person.id, &mut nothing_new)?;
    context[BOARD] = board(state, Seat(seat as u8), &table, &events);
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
    let table = Table::of_state(names_of(&people), state);
    let clocks = timeouts::clocks(game)?;
    let turn = turn(game, state, Seat(seat as u8), &table, person)?;
    let automatic = Automatic {
        in_a_row: clocks.seats[seat].auto_in_a_row,
        max: game.max_auto_decisions,
    };
    let mut context = contexts::timeout(&turn, taken, automatic, game.status == status::FINISHED);
    context[BOARD] = board(state, Seat(seat as u8), &table, taken);
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
    let table = Table::of_state(names_of(&people), state);
    let names = table.names();
    let result = format!("{} ran out of time, {} won", names[seat], names[1 - seat]);
    let mut nothing_new = NewRows::after(game, 0);
    let events = [
        how_it_ended(conn, &game.id, people[0].id, &mut nothing_new)?,
        how_it_ended(conn, &game.id, people[1].id, &mut nothing_new)?,
    ];
    for mail in game_over(game, state, &people, &table, Some(result), &events, at) {
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
        // Nothing is added to the log: the stored rows are all there is.
        let mut nothing_new = NewRows::after(&game, 0);
        let events = since_last_decision(conn, &game.id, user_id, &mut nothing_new)?;
        let table = Table::of_state(names_of(&people), &state);
        let turn = turn(&game, &state, Seat(seat as u8), &table, &person)?;
        let mut digest_game = contexts::digest_game(&turn, &events, &game.id, &game.variant);
        digest_game[BOARD] = board(&state, Seat(seat as u8), &table, &events);
        games.push(digest_game);
    }
    if games.is_empty() {
        return Ok(None);
    }
    Ok(Some(contexts::digest(&person.display_name, games)))
}

/// The events since `user`'s last decision, stored or among `rows`.
fn since_last_decision(
    conn: &mut DbConnection,
    game_id: &str,
    user: i64,
    rows: &mut NewRows,
) -> Result<Vec<Event>, Error> {
    let decided = last_decision(conn, game_id, user, rows)?;
    events_after(conn, game_id, rows, decided)
}

/// What a game-over mail tells `user`: the events since their last
/// decision, or when that decision ended the game, its events and what
/// followed.
fn how_it_ended(
    conn: &mut DbConnection,
    game_id: &str,
    user: i64,
    rows: &mut NewRows,
) -> Result<Vec<Event>, Error> {
    let decided = last_decision(conn, game_id, user, rows)?;
    let since = events_after(conn, game_id, rows, decided)?;
    if since.is_empty() && decided > 0 {
        return events_after(conn, game_id, rows, decided - 1);
    }
    Ok(since)
}

/// The log row of `user`'s last decision, stored or among `rows` (0 for
/// none).
fn last_decision(
    conn: &mut DbConnection,
    game_id: &str,
    user: i64,
    rows: &NewRows,
) -> Result<i64, Error> {
    Ok(db::last_decision(conn, game_id, user)?
        .into_iter()
        .chain(
            rows.rows()
                .iter()
                .filter(|r| r.user_id == Some(user))
                .map(|r| r.seq),
        )
        .max()
        .unwrap_or(0))
}

/// The events of the log rows after `seq`: those stored, then `rows`.
fn events_after(
    conn: &mut DbConnection,
    game_id: &str,
    rows: &mut NewRows,
    seq: i64,
) -> Result<Vec<Event>, Error> {
    let stored = stored_events_after(conn, game_id, rows, seq)?;
    events_since(Since {
        seq,
        stored,
        unwritten: rows.rows(),
    })
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

/// The events of the rows `since` holds.
fn events_since(since: Since) -> Result<Vec<Event>, Error> {
    let mut events: Vec<Event> = Vec::new();
    let mut read_row = |row_events: &str| -> Result<(), Error> {
        let row: Vec<Event> = serde_json::from_str(row_events).map_err(Error::internal)?;
        events.extend(row);
        Ok(())
    };
    for row_events in &since.stored {
        read_row(row_events)?;
    }
    for row in since.unwritten.iter().filter(|r| r.seq > since.seq) {
        read_row(&row.events)?;
    }
    Ok(events)
}

/// Where `game` stands for `reader`, the player of `seat`.
fn turn<'a>(
    game: &GameRow,
    state: &'a GameState,
    seat: Seat,
    table: &'a Table,
    reader: &users::User,
) -> Result<Turn<'a>, Error> {
    Ok(Turn {
        state,
        seat,
        table,
        move_number: game.move_number,
        deadline: deadline(game, seat.index(), reader)?,
    })
}

/// When the decision awaited from `seat` times out, in `reader`'s time.
fn deadline(game: &GameRow, seat: usize, reader: &users::User) -> Result<Option<String>, Error> {
    let clocks = timeouts::clocks(game)?;
    Ok(clocks.seats[seat]
        .due_at
        .map(|t| LocalTime::of(reader).format(t)))
}

/// Game over, to both players, each told the `events` since their last
/// decision; `result` says how it ended when the engine alone cannot tell
/// (a forfeit).
fn game_over(
    game: &GameRow,
    state: &GameState,
    people: &[users::User; 2],
    table: &Table,
    result: Option<String>,
    events: &[Vec<Event>; 2],
    at: i64,
) -> Vec<NewMail> {
    let names = table.names();
    let result = result.unwrap_or_else(|| match game.winner_seat.map(|w| w.clamp(0, 1) as usize) {
        Some(w) if state.winner.is_some() => format!("{} won", names[w]),
        // The engine has no winner when a player resigned.
        Some(w) => format!("{} resigned, {} won", names[1 - w], names[w]),
        None => "no winner".into(),
    });
    let ending = Ending {
        result: &result,
        seed: &game.seed,
        seed_hash: &game.seed_hash,
    };
    let mut mails = Vec::new();
    for (i, person) in people.iter().enumerate() {
        if !wants_game_mail(person) {
            continue;
        }
        let reader = Seat(i as u8);
        let mut context = contexts::game_over(state, reader, table, &ending, &events[i]);
        context[BOARD] = board(state, reader, table, &events[i]);
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
