//! Writing one change of a game (`store::change`), on SQLite and
//! PostgreSQL: all of it or nothing, and only on the game row version it
//! was computed from.

use crate::common::{BACKENDS, Backend, TempDatabase};
use diesel::prelude::*;
use hexpost::store::change::{self, Change};
use hexpost::store::games::{self, GameRow, IdempotencyRecord, MoveRow, status};
use hexpost::store::outbox::NewMail;
use hexpost::store::schema::{idempotency_keys, moves, outbox, used_jtis};
use hexpost::store::used_jtis::UsedJti;
use hexpost::store::{Conn, users};

const GAME: &str = "g-1";

fn database(backend: Backend) -> (TempDatabase, Conn, i64) {
    let db = TempDatabase::new(backend);
    let pool = hexpost::store::connect(&db.url, 2).unwrap();
    let mut conn = pool.get().unwrap();
    hexpost::store::migrate(&mut conn).unwrap();
    let ada = users::insert(&mut conn, "ada@example.org", "Ada", "x", false)
        .unwrap()
        .unwrap()
        .id;
    games::insert_game(&mut conn, &game_row(ada)).unwrap();
    (db, conn, ada)
}

fn game_row(creator: i64) -> GameRow {
    GameRow {
        id: GAME.into(),
        variant: "standard".into(),
        config: "{}".into(),
        status: status::ACTIVE.into(),
        created_by: creator,
        seed: "00".into(),
        seed_hash: "h".into(),
        state: Some("{}".into()),
        move_number: 0,
        chain_head: "head-0".into(),
        awaiting: String::new(),
        winner_seat: None,
        time_limit_secs: 3600,
        creator_seat: None,
        created_at: 1,
        updated_at: 1,
        finished_at: None,
        timeout_policy: "auto".into(),
        max_auto_decisions: 3,
        vacation_days: 7,
        clocks: String::new(),
        wake_at: None,
        version: 0,
        committed_from: None,
    }
}

fn log_row(seq: i64, user: i64) -> MoveRow {
    MoveRow {
        game_id: GAME.into(),
        seq,
        actor: "seat:0".into(),
        seat: Some(0),
        user_id: Some(user),
        action: format!("{{\"n\":{seq}}}"),
        jws: None,
        events: "[]".into(),
        state_hash: format!("state-{seq}"),
        prev_hash: format!("head-{}", seq - 1),
        hash: format!("head-{seq}"),
        created_at: 10 * seq,
        sealed: seq % 2 == 0,
    }
}

fn mail(message_id: &str, user: i64) -> NewMail {
    NewMail {
        kind: "digest".into(),
        game_id: Some(GAME.into()),
        user_id: Some(user),
        recipient: "ada@example.org".into(),
        context: "{}".into(),
        message_id: message_id.into(),
        game_seq: Some(1),
        due_at: 5,
        created_at: 5,
    }
}

fn key(user: i64, key: &str) -> IdempotencyRecord {
    IdempotencyRecord {
        user_id: user,
        key: key.into(),
        request_hash: "hash".into(),
        status: 200,
        response: "{}".into(),
        created_at: 5,
    }
}

/// The game as read, moved on to `seq` in memory.
fn moved_to(game: &GameRow, seq: i64) -> GameRow {
    GameRow {
        move_number: seq,
        chain_head: format!("head-{seq}"),
        state: Some(format!("{{\"seq\":{seq}}}")),
        updated_at: 10 * seq,
        committed_from: Some(1),
        ..game.clone()
    }
}

/// Log rows, mails and idempotency records stored.
fn counts(conn: &mut Conn) -> (i64, i64, i64) {
    (
        moves::table.count().get_result(conn).unwrap(),
        outbox::table.count().get_result(conn).unwrap(),
        idempotency_keys::table.count().get_result(conn).unwrap(),
    )
}

fn stored(conn: &mut Conn) -> GameRow {
    games::get(conn, GAME).unwrap().unwrap()
}

#[test]
fn a_change_is_written_whole_and_raises_the_version() {
    for backend in BACKENDS {
        let (_db, mut conn, ada) = database(backend);
        let read = stored(&mut conn);
        let mut game = moved_to(&read, 2);
        let rows = [log_row(1, ada), log_row(2, ada)];
        let mails = [mail("m-1", ada), mail("m-2", ada)];
        let record = key(ada, "k-1");
        let written = change::write_alone(
            &mut conn,
            Change {
                game: &mut game,
                moves: &rows,
                mails: &mails,
                idempotency: Some(&record),
                used_jti: None,
                people: None,
                signal: None,
            },
        )
        .unwrap();
        assert!(written, "{backend:?}");
        assert_eq!(game.version, read.version + 1, "{backend:?}");
        let after = stored(&mut conn);
        assert_eq!(after.version, game.version, "{backend:?}");
        assert_eq!(after.move_number, 2, "{backend:?}");
        assert_eq!(after.chain_head, "head-2", "{backend:?}");
        assert_eq!(after.state.as_deref(), Some("{\"seq\":2}"), "{backend:?}");
        assert_eq!(after.updated_at, 20, "{backend:?}");
        assert_eq!(after.committed_from, Some(1), "{backend:?}");
        assert_eq!(
            games::moves(&mut conn, GAME, 0, 10).unwrap(),
            rows.to_vec(),
            "{backend:?}"
        );
        assert_eq!(counts(&mut conn), (2, 2, 1), "{backend:?}");
        let stored_key = games::idempotency_get(&mut conn, ada, "k-1")
            .unwrap()
            .unwrap();
        assert_eq!(stored_key.response, record.response, "{backend:?}");
    }
}

#[test]
fn a_change_from_an_older_version_writes_nothing() {
    for backend in BACKENDS {
        let (_db, mut conn, ada) = database(backend);
        let read = stored(&mut conn);
        // Another writer (a reminder, a vacation) changes the row after the
        // move read it, without a move of its own.
        let mut other = read.clone();
        other.clocks = "changed by another writer".into();
        assert!(games::save(&mut conn, &mut other).unwrap(), "{backend:?}");
        let mut game = moved_to(&read, 1);
        let written = change::write_alone(
            &mut conn,
            Change {
                game: &mut game,
                moves: &[log_row(1, ada)],
                mails: &[mail("m-1", ada)],
                idempotency: Some(&key(ada, "k-1")),
                used_jti: Some(&jti(ada, "j-1")),
                people: None,
                signal: None,
            },
        )
        .unwrap();
        assert!(!written, "{backend:?}");
        assert_eq!(jtis(&mut conn), 0, "{backend:?}");
        assert_eq!(game.version, read.version, "{backend:?}");
        let after = stored(&mut conn);
        assert_eq!(after.clocks, "changed by another writer", "{backend:?}");
        assert_eq!(after.move_number, 0, "{backend:?}");
        assert_eq!(after.version, read.version + 1, "{backend:?}");
        assert_eq!(counts(&mut conn), (0, 0, 0), "{backend:?}");
    }
}

#[test]
fn a_stored_idempotency_key_makes_the_change_a_conflict() {
    for backend in BACKENDS {
        let (_db, mut conn, ada) = database(backend);
        let mut first = moved_to(&stored(&mut conn), 1);
        let written = change::write_alone(
            &mut conn,
            Change {
                game: &mut first,
                moves: &[log_row(1, ada)],
                mails: &[],
                idempotency: Some(&key(ada, "k-1")),
                used_jti: None,
                people: None,
                signal: None,
            },
        )
        .unwrap();
        assert!(written, "{backend:?}");
        // The same key again (a retry of the same request that raced the
        // first one, or the key reused for another game): nothing is
        // written, and the caller reads again and finds the key.
        let mut second = moved_to(&stored(&mut conn), 2);
        let written = change::write_alone(
            &mut conn,
            Change {
                game: &mut second,
                moves: &[log_row(2, ada)],
                mails: &[],
                idempotency: Some(&key(ada, "k-1")),
                used_jti: None,
                people: None,
                signal: None,
            },
        )
        .unwrap();
        assert!(!written, "{backend:?}");
        assert_eq!(stored(&mut conn).move_number, 1, "{backend:?}");
        assert_eq!(counts(&mut conn), (1, 0, 1), "{backend:?}");
    }
}

fn jti(user: i64, jti: &str) -> UsedJti {
    UsedJti {
        user_id: user,
        jti: jti.into(),
        expires_at: 1_000,
    }
}

fn jtis(conn: &mut Conn) -> i64 {
    used_jtis::table.count().get_result(conn).unwrap()
}

/// A signed move's jti is written with its move; the same jti again (a
/// replay that raced the first) makes the change a conflict, so that the
/// caller reads again and refuses it.
#[test]
fn a_used_jti_is_written_with_its_change_and_only_once() {
    for backend in BACKENDS {
        let (_db, mut conn, ada) = database(backend);
        for (seq, written) in [(1, true), (2, false)] {
            let mut game = moved_to(&stored(&mut conn), seq);
            let done = change::write_alone(
                &mut conn,
                Change {
                    game: &mut game,
                    moves: &[log_row(seq, ada)],
                    mails: &[],
                    idempotency: None,
                    used_jti: Some(&jti(ada, "j-1")),
                    people: None,
                    signal: None,
                },
            )
            .unwrap();
            assert_eq!(done, written, "{backend:?} move {seq}");
        }
        assert_eq!(stored(&mut conn).move_number, 1, "{backend:?}");
        assert_eq!(jtis(&mut conn), 1, "{backend:?}");
    }
}

#[test]
fn a_mail_whose_message_id_is_queued_is_not_queued_twice() {
    for backend in BACKENDS {
        let (_db, mut conn, ada) = database(backend);
        for seq in 1..=2 {
            let mut game = moved_to(&stored(&mut conn), seq);
            let written = change::write_alone(
                &mut conn,
                Change {
                    game: &mut game,
                    moves: &[log_row(seq, ada)],
                    // A digest names its day: the second move's is the same.
                    mails: &[mail("digest.1.2026-11-24", ada)],
                    idempotency: None,
                    used_jti: None,
                    people: None,
                    signal: None,
                },
            )
            .unwrap();
            assert!(written, "{backend:?} move {seq}");
        }
        assert_eq!(counts(&mut conn), (2, 1, 0), "{backend:?}");
    }
}

#[test]
fn a_change_inside_a_transaction_is_undone_with_it() {
    for backend in BACKENDS {
        let (_db, mut conn, ada) = database(backend);
        let read = stored(&mut conn);
        let failed: Result<(), hexpost::store::StoreError> =
            hexpost::store::write_tx(&mut conn, |conn| {
                let mut game = moved_to(&read, 1);
                let change = Change {
                    game: &mut game,
                    moves: &[log_row(1, ada)],
                    mails: &[mail("m-1", ada)],
                    idempotency: None,
                    used_jti: None,
                    people: None,
                    signal: None,
                };
                assert!(change::write(conn, change)?, "{backend:?}");
                Err(hexpost::store::StoreError::Corrupt(
                    "later step failed".into(),
                ))
            });
        assert!(failed.is_err(), "{backend:?}");
        assert_eq!(stored(&mut conn).version, read.version, "{backend:?}");
        assert_eq!(counts(&mut conn), (0, 0, 0), "{backend:?}");
    }
}

#[test]
fn a_change_made_with_accounts_that_changed_since_writes_nothing() {
    for backend in BACKENDS {
        let (_db, mut conn, ada) = database(backend);
        let bob = users::insert(&mut conn, "bob@example.org", "Bob", "x", false)
            .unwrap()
            .unwrap()
            .id;
        let people = users::pair(&mut conn, [ada, bob]).unwrap();
        // Bob turns mails off after a copy of his account was kept.
        let off = users::MailSettings {
            notify: users::notify::OFF.into(),
            ..people[1].mail_settings()
        };
        users::set_mail_settings(&mut conn, bob, &off).unwrap();
        let read = stored(&mut conn);
        let mut game = moved_to(&read, 1);
        let written = change::write_alone(
            &mut conn,
            Change {
                game: &mut game,
                moves: &[log_row(1, ada)],
                mails: &[mail("m-1", bob)],
                idempotency: None,
                used_jti: None,
                people: Some(&people),
                signal: None,
            },
        )
        .unwrap();
        assert!(!written, "{backend:?}");
        assert_eq!(stored(&mut conn).version, read.version, "{backend:?}");
        assert_eq!(counts(&mut conn), (0, 0, 0), "{backend:?}");

        // The accounts as they are now: written.
        let current = users::pair(&mut conn, [ada, bob]).unwrap();
        assert_eq!(current[1].version, people[1].version + 1, "{backend:?}");
        let written = change::write_alone(
            &mut conn,
            Change {
                game: &mut game,
                moves: &[log_row(1, ada)],
                mails: &[],
                idempotency: None,
                used_jti: None,
                people: Some(&current),
                signal: None,
            },
        )
        .unwrap();
        assert!(written, "{backend:?}");
        assert_eq!(counts(&mut conn), (1, 0, 0), "{backend:?}");

        // Every change of an account raises its version.
        users::set_admin(&mut conn, ada, true).unwrap();
        let after = users::pair(&mut conn, [ada, bob]).unwrap();
        assert_eq!(after[0].version, current[0].version + 1, "{backend:?}");
    }
}

/// On PostgreSQL a change carries its signal for the other instances'
/// streams (`LISTEN hexpost_games`) in its own statement: sent when the
/// change is written, never for a change that writes nothing.
#[test]
fn a_change_sends_its_signal_only_when_written() {
    use diesel::pg::PgConnection;
    let (db, mut conn, ada) = database(Backend::Postgres);
    let mut listener = PgConnection::establish(&db.url).unwrap();
    diesel::sql_query(format!("LISTEN {}", change::SIGNAL_CHANNEL))
        .execute(&mut listener)
        .unwrap();
    let read = stored(&mut conn);
    let mut other = read.clone();
    other.clocks = "changed by another writer".into();
    assert!(games::save(&mut conn, &mut other).unwrap());
    let mut write = |from: &GameRow, signal: &str| {
        let mut game = moved_to(from, 1);
        change::write_alone(
            &mut conn,
            Change {
                game: &mut game,
                moves: &[log_row(1, ada)],
                mails: &[],
                idempotency: None,
                used_jti: None,
                people: None,
                signal: Some(signal),
            },
        )
        .unwrap()
    };
    assert!(!write(&read, "from the older version"));
    assert!(write(&other, "written"));
    // Notifications arrive in commit order: one from the refused change
    // would come first.
    let mut heard = Vec::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while heard.is_empty() && std::time::Instant::now() < deadline {
        diesel::sql_query("SELECT 1")
            .execute(&mut listener)
            .unwrap();
        for n in listener.notifications_iter() {
            heard.push(n.unwrap().payload);
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert_eq!(heard, ["written"]);
}
