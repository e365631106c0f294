//! Every kind of mail, both parts, from scripted games (fixed seeds, fixed
//! names, ids and times), snapshotted so the wording is reviewed in the
//! diff (tests/snapshots/). The mails are built by the functions the
//! server's mail use cases call, rendered by its templates; nothing in
//! them depends on the clock or on random ids.
//!
//! Beyond the snapshots: a mail that asks for a decision says what and by
//! when before what happened, then the hand and scores; its plain text
//! stands on its own; its HTML is one column (no tables); and nothing the
//! reader may not know changes any of their mails (tests/api_hidden.rs
//! checks the same over HTTP for the base game).

use crate::common::html;

use hexpost::describe::{self, Table};
use hexpost::mail::contexts::{self, Automatic, Ending, Turn};
use hexpost::mail::picture::Changed;
use hexpost::mail::templates::Templates;
use hexpost::mail::{Links, pictures};
use hexpost_engine::cards::{Commodity, ProgressCard, ProgressCounts, Resource};
use hexpost_engine::rng::GameRng;
use hexpost_engine::rulesets::VariantState;
use hexpost_engine::{Event, GameConfig, GameState, Redact, Seat, Variant, sim};
use serde_json::Value;

const GAME_ID: &str = "g-0001";
const DEADLINE: &str = "Mon 2026-11-30 18:00 CET";

/// A game played by random players from a fixed seed, with its log.
struct Script {
    state: GameState,
    /// Each decision's events (with the automated steps after it), and
    /// whose decision it was.
    log: Vec<(Seat, Vec<Event>)>,
}

impl Script {
    fn new(variant: Variant, seed: u64) -> Script {
        let (state, opening) = GameState::new(&GameConfig::new(variant), seed).unwrap();
        Script {
            state,
            log: vec![(Seat(0), opening)],
        }
    }

    /// Plays until `done` holds (or the game ends), choosing with `rng`.
    fn play_until(&mut self, rng: &mut GameRng, done: impl Fn(&Script) -> bool) -> &mut Self {
        for _ in 0..100_000 {
            if done(self) || self.state.is_over() {
                return self;
            }
            let seat = self.state.awaiting()[0];
            let legal = self.state.legal_actions(seat);
            let action = sim::random_action(&self.state, seat, &legal, rng).unwrap();
            if let Ok(events) = self.state.apply(seat, &action) {
                self.log.push((seat, events));
            }
        }
        panic!("the script never got there");
    }

    /// The player awaited now.
    fn reader(&self) -> Seat {
        *self
            .state
            .awaiting()
            .iter()
            .find(|s| s.is_real())
            .expect("a player is awaited")
    }

    /// What a game-over mail lists: the events since `seat`'s last
    /// decision, or from it when it was the last.
    fn how_it_ended(&self, seat: Seat) -> Vec<Event> {
        let since = self.since_last_decision(seat);
        if !since.is_empty() {
            return since;
        }
        let last = self.log.iter().rposition(|(s, _)| *s == seat).unwrap_or(0);
        self.log[last..]
            .iter()
            .flat_map(|(_, e)| e.clone())
            .collect()
    }

    /// The events since `seat`'s last decision.
    fn since_last_decision(&self, seat: Seat) -> Vec<Event> {
        let last = self.log.iter().rposition(|(s, _)| *s == seat).unwrap_or(0);
        self.log[last + 1..]
            .iter()
            .flat_map(|(_, e)| e.clone())
            .collect()
    }

    /// Ada is the reader, Bob the other player.
    fn table(&self, reader: Seat) -> Table {
        let names = if reader == Seat(0) {
            ["Ada", "Bob"]
        } else {
            ["Bob", "Ada"]
        };
        Table::of_state(names.map(String::from), &self.state)
    }

    fn turn<'a>(&'a self, table: &'a Table) -> Turn<'a> {
        Turn {
            state: &self.state,
            seat: self.reader(),
            table,
            move_number: self.log.len() as i64,
            deadline: Some(DEADLINE.into()),
        }
    }
}

/// A standard game some turns in, the second player awaited after the first
/// one's turn.
fn standard() -> Script {
    let mut s = Script::new(Variant::Standard, 23);
    s.play_until(&mut GameRng::from_seed(5), |s| {
        s.state.turn >= 9 && s.log.last().is_some_and(|(seat, _)| *seat != s.reader())
    });
    s
}

/// A Cities & Knights game past its first barbarian attack.
fn cities_and_knights() -> Script {
    let mut s = Script::new(Variant::CkForTwo, 23);
    s.play_until(&mut GameRng::from_seed(5), |s| {
        let attacked = s
            .log
            .iter()
            .any(|(_, e)| e.iter().any(|e| matches!(e, Event::BarbarianAttack { .. })));
        attacked && s.log.last().is_some_and(|(seat, _)| *seat != s.reader())
    });
    s
}

/// Subject, plain text and HTML of the mail of `kind`, and the board
/// pictures it carries (their Content-IDs and sizes; the pixels are
/// tests/board_picture.rs's).
fn mail(kind: &str, context: Value, variant: Option<&str>) -> String {
    rendered(kind, context, variant).0
}

/// The mail of `kind` as [`mail`] shows it, and its pictures' PNGs.
fn rendered(kind: &str, mut context: Value, variant: Option<&str>) -> (String, Vec<Vec<u8>>) {
    if let Some(variant) = variant {
        contexts::about_game(&mut context, GAME_ID, variant);
    }
    Links::new("https://hexpost.example.org").fill(&mut context);
    let images = pictures::attach(&mut context, "m-1", "hexpost.example.org");
    let r = Templates::new().unwrap().render(kind, &context).unwrap();
    assert!(
        !r.html.contains("<table"),
        "{kind}: a table is too wide for a phone"
    );
    assert!(
        r.html.contains("name=\"viewport\""),
        "{kind}: the HTML sizes itself to the screen"
    );
    let mut out = format!(
        "Subject: {}\n\n{}\n----- HTML -----\n{}",
        r.subject, r.text, r.html
    );
    for image in &images {
        let png = png::Decoder::new(std::io::Cursor::new(&image.png))
            .read_info()
            .expect("a PNG");
        let info = png.info();
        assert!(
            r.html
                .contains(&format!("src=\"cid:{}\"", image.content_id)),
            "{kind}: the HTML shows its picture"
        );
        out.push_str(&format!(
            "\n----- inline image {}: PNG {}x{} -----",
            image.content_id, info.width, info.height
        ));
    }
    (out, images.into_iter().map(|i| i.png).collect())
}

/// `context` with the board of `s` as its `reader` sees it, `events`
/// outlined: what `service::notify` queues with the mail.
fn with_board(context: Value, s: &Script, reader: Seat, events: &[Event]) -> Value {
    with_board_of(context, &s.state, &s.table(reader), reader, events)
}

fn with_board_of(
    mut context: Value,
    state: &GameState,
    table: &Table,
    reader: Seat,
    events: &[Event],
) -> Value {
    context[pictures::BOARD] = pictures::board(state, reader, table, events);
    context
}

/// The picture's alt text is the board in the game's words
/// (`describe::position`) as `reader` sees it, `events` outlined.
fn assert_alt_is_the_position(mail: &str, s: &Script, reader: Seat, events: &[Event]) {
    let view = s.state.view(Some(reader));
    let table = s.table(reader);
    let mut changed = Changed::default();
    for event in events {
        changed.note(&event.redacted_for(Some(reader)));
    }
    for places in [&mut changed.hexes, &mut changed.nodes, &mut changed.edges] {
        places.sort_unstable();
        places.dedup();
    }
    let outlined = describe::Outlined {
        hexes: &changed.hexes,
        nodes: &changed.nodes,
        edges: &changed.edges,
    };
    let alt = describe::position(&view, &table, outlined);
    assert!(alt.contains("The robber is on "), "{alt}");
    let escaped = html::escaped(&alt);
    assert!(
        mail.contains(&format!("alt=\"{escaped}\"")),
        "{escaped} in\n{mail}"
    );
}

/// The text part of a rendered mail.
fn text_of(mail: &str) -> &str {
    mail.split("----- HTML -----").next().unwrap()
}

/// A mail that asks for a decision says it, and by when, before what
/// happened, and the hand and scores after that.
fn assert_decision_first(mail: &str) {
    let text = text_of(mail);
    let at = |what: &str| {
        text.find(what)
            .unwrap_or_else(|| panic!("no `{what}` in\n{text}"))
    };
    assert!(at("You are asked to:") < at(DEADLINE));
    assert!(at(DEADLINE) < at("What happened since your last decision:"));
    assert!(at("What happened since your last decision:") < at("Your hand:"));
    assert!(at("Your hand:") < at("Scores on the table:"));
    assert!(at("Scores on the table:") < at("Make your move: https://"));
}

#[test]
fn invitation_accepted_and_declined() {
    let mut context = contexts::invitation("Ada", "invite-token", 48);
    // As sent with replies on: the mail says how to answer by reply.
    context["reply_address"] = "invite+token@replies.example.org".into();
    insta::assert_snapshot!(
        "invitation",
        mail("invitation", context.clone(), Some("standard"))
    );
    context["reply_address"] = serde_json::Value::Null;
    let without = mail("invitation", context, Some("standard"));
    assert!(!without.contains("ACCEPT"), "no replies, no reply commands");
    let context = contexts::accepted("Ada", "Bob");
    insta::assert_snapshot!("accepted", mail("accepted", context, Some("standard")));
    let context = contexts::declined("Ada", "bob@example.org");
    insta::assert_snapshot!("declined", mail("declined", context, Some("standard")));
}

/// The answers to a reply to an invitation that did not start the game.
#[test]
fn invitation_answers() {
    let context = contexts::invitation_answer("Ada", None);
    insta::assert_snapshot!(
        "invitation_declined_by_reply",
        mail("invitation_answer", context, Some("standard"))
    );
    let failure = (
        "unknown_command",
        "\"maybe\" does not answer an invitation; write ACCEPT or DECLINE",
    );
    let context = contexts::invitation_answer("Ada", Some(failure));
    insta::assert_snapshot!(
        "invitation_answer_not_taken",
        mail("invitation_answer", context, Some("standard"))
    );
}

#[test]
fn your_move() {
    let s = standard();
    let table = s.table(s.reader());
    let events = s.since_last_decision(s.reader());
    assert!(events.len() > 3, "{events:?}");
    let context = with_board(
        contexts::your_move(&s.turn(&table), &events),
        &s,
        s.reader(),
        &events,
    );
    let m = mail("your_move", context, Some("standard"));
    assert_decision_first(&m);
    assert_alt_is_the_position(&m, &s, s.reader(), &events);
    insta::assert_snapshot!("your_move_standard", m);

    let s = cities_and_knights();
    let table = s.table(s.reader());
    let events = s.since_last_decision(s.reader());
    let context = with_board(
        contexts::your_move(&s.turn(&table), &events),
        &s,
        s.reader(),
        &events,
    );
    let m = mail("your_move", context, Some("ck_for_two"));
    assert_decision_first(&m);
    assert_alt_is_the_position(&m, &s, s.reader(), &events);
    assert!(m.contains("The barbarian ship is on space "), "{m}");
    assert!(
        m.contains("The barbarians attack with strength"),
        "the game reached its first attack"
    );
    insta::assert_snapshot!("your_move_ck_for_two", m);
}

/// The answer to a reply: what it applied and what followed, then the
/// game and the commands the reader may give; a refusal names no game.
#[test]
fn answer_and_refusal() {
    let s = standard();
    let table = s.table(s.reader());
    let events = s.since_last_decision(s.reader());
    let report = serde_json::json!({"applied": ["R"], "failure": {
        "command": "S99", "code": "unknown_command", "detail": "`S99` is not a command"}});
    let context = with_board(
        contexts::answer(&s.turn(&table), &events, true, report),
        &s,
        s.reader(),
        &events,
    );
    let m = mail("answer", context, Some("standard"));
    assert_alt_is_the_position(&m, &s, s.reader(), &events);
    let text = text_of(&m);
    assert!(text.contains("Applied from your reply:\n- R\n"), "{text}");
    assert!(text.find("Not applied: \"S99\"") < text.find("You are asked to:"));
    insta::assert_snapshot!("answer", m);
    // An answer that leaves the reader nothing to decide (their turn
    // ended, the opponent is to move) has no empty "asked to" heading.
    let other = s.reader().opponent();
    let other_table = s.table(other);
    let waiting = Turn {
        seat: other,
        table: &other_table,
        deadline: None,
        ..s.turn(&other_table)
    };
    let report = serde_json::json!({"applied": ["E"]});
    let events = s.since_last_decision(other);
    let m = mail(
        "answer",
        contexts::answer(&waiting, &events, true, report),
        Some("standard"),
    );
    assert!(
        text_of(&m).contains("Nothing is yours to decide now"),
        "{m}"
    );
    assert!(!m.contains("You are asked to:"), "{m}");
    let report = serde_json::json!({"stale": true, "replied_to": 3});
    let m = mail(
        "answer",
        contexts::answer(&s.turn(&table), &[], false, report),
        Some("standard"),
    );
    assert!(text_of(&m).contains("your reply answered move 3"));
    assert!(
        !text_of(&m).contains("You are asked to:"),
        "a game over asks nothing"
    );
    let m = mail(
        "refusal",
        contexts::refusal("Ada", "expired_token", "the reply address has expired"),
        None,
    );
    assert!(!m.contains(GAME_ID));
    insta::assert_snapshot!("refusal", m);
}

#[test]
fn reminder() {
    let s = standard();
    let table = s.table(s.reader());
    let events = s.since_last_decision(s.reader());
    let context = with_board(
        contexts::reminder(&s.turn(&table), 3, false),
        &s,
        s.reader(),
        &events,
    );
    let m = mail("reminder", context, Some("standard"));
    assert_alt_is_the_position(&m, &s, s.reader(), &events);
    insta::assert_snapshot!("reminder", m);
    let context = contexts::reminder(&s.turn(&table), 1, true);
    let m = mail("reminder", context, Some("standard"));
    assert!(text_of(&m).contains("If the time runs out, you lose the game."));
}

/// The server decides for the awaited player, and the mail says what it
/// decided and what is awaited now.
#[test]
fn timeout() {
    let mut s = standard();
    let seat = s.reader();
    let action = s.state.timeout_decision(seat).unwrap();
    let taken = s.state.apply(seat, &action).unwrap();
    s.log.push((seat, taken.clone()));
    let table = s.table(seat);
    let turn = Turn {
        seat,
        ..s.turn(&table)
    };
    let automatic = Automatic {
        in_a_row: 1,
        max: 3,
    };
    // With its board, as `service::notify::timed_out` queues it: the mail
    // asks for a decision.
    let context = with_board(
        contexts::timeout(&turn, &taken, automatic, false),
        &s,
        seat,
        &taken,
    );
    let m = mail("timeout", context, Some("standard"));
    // Awaited again, the reader gets the codes a reply may use, as in a
    // "your move" mail.
    assert!(
        text_of(&m).contains("- [E] end your turn\n"),
        "{}",
        text_of(&m)
    );
    insta::assert_snapshot!("timeout", m);
}

/// A digest lists each waiting game as its "your move" mail would.
#[test]
fn digest() {
    let a = standard();
    let b = cities_and_knights();
    let (ta, tb) = (a.table(a.reader()), b.table(b.reader()));
    let (ea, eb) = (
        a.since_last_decision(a.reader()),
        b.since_last_decision(b.reader()),
    );
    let games = vec![
        with_board(
            contexts::digest_game(&a.turn(&ta), &ea, "g-0001", "standard"),
            &a,
            a.reader(),
            &ea,
        ),
        with_board(
            contexts::digest_game(&b.turn(&tb), &eb, "g-0002", "ck_for_two"),
            &b,
            b.reader(),
            &eb,
        ),
    ];
    let m = mail("digest", contexts::digest("Ada", games), None);
    assert_alt_is_the_position(&m, &a, a.reader(), &ea);
    assert_alt_is_the_position(&m, &b, b.reader(), &eb);
    let text = text_of(&m);
    assert!(text.contains("/games/g-0001") && text.contains("/games/g-0002"));
    insta::assert_snapshot!("digest", m);
}

/// A game of `variant` played to its end, and its game-over mail to
/// `reader`.
struct Ended {
    table: Table,
    result: String,
    events: Vec<Event>,
    mail: String,
}

fn ended(variant: Variant, variant_id: &str, reader: Seat) -> Ended {
    let mut s = Script::new(variant, 23);
    s.play_until(&mut GameRng::from_seed(5), |_| false);
    let winner = s.state.winner.expect("the game was won");
    let table = s.table(reader);
    let result = format!("{} won", table.seat(winner));
    let ending = Ending {
        result: &result,
        seed: "5eed",
        seed_hash: "5eedhash",
    };
    let events = s.how_it_ended(reader);
    assert!(!events.is_empty());
    let context = with_board(
        contexts::game_over(&s.state, reader, &table, &ending, &events),
        &s,
        reader,
        &events,
    );
    let mail = mail("game_over", context, Some(variant_id));
    assert_alt_is_the_position(&mail, &s, reader, &events);
    assert!(mail.contains(&format!("alt=\"{result}.")), "{mail}");
    Ended {
        table,
        result,
        events,
        mail,
    }
}

#[test]
fn game_over() {
    let e = ended(Variant::Standard, "standard", Seat(0));
    let text = text_of(&e.mail);
    assert!(text.contains(&format!("is over: {}.", e.result)));
    let last = describe::event(e.events.last().unwrap(), Some(Seat(0)), &e.table);
    assert!(text.contains(&last), "the final events are listed: {last}");
    insta::assert_snapshot!("game_over", e.mail);
}

/// The game-over mail of Cities & Knights: its picture has the barbarian
/// track, and its alt text tells the knights and the ship.
#[test]
fn game_over_ck_for_two() {
    let e = ended(Variant::CkForTwo, "ck_for_two", Seat(1));
    assert!(
        e.mail.contains("The barbarian ship is on space "),
        "{}",
        e.mail
    );
    assert!(e.mail.contains("PNG 477x484"), "the track below the board");
    insta::assert_snapshot!("game_over_ck_for_two", e.mail);
}

/// `events` with what `reader` may not see of them changed: the progress
/// card drawn, the card stolen.
fn hidden_changed(events: &[Event], reader: Seat) -> Vec<Event> {
    events
        .iter()
        .map(|e| match e {
            Event::ProgressDrawn {
                seat,
                track,
                card: Some(card),
            } if *seat != reader => Event::ProgressDrawn {
                seat: *seat,
                track: *track,
                card: Some(if *card == ProgressCard::Spy {
                    ProgressCard::Bishop
                } else {
                    ProgressCard::Spy
                }),
            },
            Event::StoleCommodity {
                thief,
                victim,
                commodity: Some(_),
            } if e.redacted_for(Some(reader)) != *e => Event::StoleCommodity {
                thief: *thief,
                victim: *victim,
                commodity: Some(Commodity::Coin),
            },
            e => e.clone(),
        })
        .collect()
}

/// Nothing the reader may not know shows in their mails: a Cities &
/// Knights game with the opponent's progress cards and resources, the
/// decks, the generator and the events' hidden cards changed mails the
/// same, every kind of it.
#[test]
fn a_mail_shows_nothing_hidden_from_its_reader() {
    let mut s = cities_and_knights();
    s.play_until(&mut GameRng::from_seed(6), |s| {
        let VariantState::CkForTwo(ck) = &s.state.variant else {
            return false;
        };
        let Some(&reader) = s.state.awaiting().first() else {
            return false;
        };
        let theirs = &ck.players[reader.opponent().index()].progress;
        let hides = |e: &Event| e.redacted_for(Some(reader)) != *e;
        theirs.count > 0
            && s.log.last().is_some_and(|(seat, _)| *seat != reader)
            && s.since_last_decision(reader).iter().any(hides)
    });
    let reader = s.reader();
    let opponent = reader.opponent().index();
    let mut other = s.state.clone();
    if let VariantState::CkForTwo(ck) = &mut other.variant {
        let theirs = &mut ck.players[opponent].progress;
        assert!(theirs.count > 0, "the opponent holds progress cards");
        theirs.cards = Some(ProgressCounts::single(ProgressCard::Spy, theirs.count));
        for deck in &mut ck.decks {
            if let Some(cards) = &mut deck.cards {
                cards.reverse();
            }
        }
    }
    let hand = other.players[opponent].hand;
    for (i, r) in Resource::ALL.into_iter().enumerate() {
        other.players[opponent].hand[r] = hand[Resource::ALL[(i + 1) % 5]];
    }
    other.rng = GameRng::from_seed(99);
    assert_ne!(other, s.state);
    let events = s.since_last_decision(reader);
    let changed = hidden_changed(&events, reader);
    assert_ne!(changed, events, "the events hide something from the reader");

    // Every mail with its board picture, as `service::notify` queues them.
    let every_mail = |state: &GameState, events: &[Event]| -> Vec<(String, Vec<Vec<u8>>)> {
        let table = s.table(reader);
        let turn = Turn {
            state,
            ..s.turn(&table)
        };
        let automatic = || Automatic {
            in_a_row: 1,
            max: 3,
        };
        let board = |context| with_board_of(context, state, &table, reader, events);
        let digest_game = board(contexts::digest_game(&turn, events, GAME_ID, "ck_for_two"));
        let answer = contexts::answer(&turn, events, true, serde_json::json!({"applied": ["E"]}));
        let mails = vec![
            rendered(
                "your_move",
                board(contexts::your_move(&turn, events)),
                Some("ck_for_two"),
            ),
            rendered(
                "reminder",
                board(contexts::reminder(&turn, 2, true)),
                Some("ck_for_two"),
            ),
            rendered(
                "timeout",
                board(contexts::timeout(&turn, events, automatic(), false)),
                Some("ck_for_two"),
            ),
            rendered("answer", board(answer), Some("ck_for_two")),
            rendered("digest", contexts::digest("Ada", vec![digest_game]), None),
        ];
        for (m, pictures) in &mails {
            assert_eq!(pictures.len(), 1, "a picture in\n{m}");
        }
        mails
    };
    assert_eq!(every_mail(&s.state, &events), every_mail(&other, &changed));
}
