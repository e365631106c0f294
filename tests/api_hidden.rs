//! Hidden information over HTTP, on SQLite and PostgreSQL. Random games are
//! played through the API; after every move, everything served to each seat
//! (its game view and legal actions, the move response's events, its log)
//! is checked against the true state in the database:
//!
//! - structurally: the opponent appears only as counts, `you` is the
//!   viewer's own hand, no `dev_deck`, `rng`, `hand`, `bank` or `dice` keys
//!   anywhere, `dev_card_bought` and `stole` redacted for whoever may not
//!   see them, the seed hidden while the game runs;
//! - by indistinguishability: the database state is swapped for another one
//!   that differs only in what the seat may not know (the opponent's hand
//!   composition and development cards, the bank's composition, the deck,
//!   the dice deck, the RNG), and the seat's served game must not change;
//! - in the log, by what its hashes allow: every row's hash is recomputed
//!   from what the row shows its reader (a row hashes only its public
//!   skeleton, hidden parts through salted commitments), every commitment
//!   the reader is given a salt for opens to what they see, and a row whose
//!   hidden card is changed (its hash recomputed as the server would) reads
//!   the same but for that commitment and the hash.
//!
//! - in the mails: every mail a player receives about a game ("your move",
//!   reminder, timeout, digest, game over), both parts, and the board scene
//!   queued with it (everything its picture is drawn from, its alt text
//!   included) are the same in the other world, and with the hidden cards
//!   of the move's events changed; every few moves the pictures are drawn
//!   and compared too; the `text` of each log row is the mails' sentence
//!   for its event.
//!
//! A ck_for_two game adds progress cards (the opponent's only as a count,
//! drawn cards committed to in the log) and the kinds of cards in a hand
//! (only the resource and commodity counts are served).
//!
//! Two attacks complete it: trying every card kind against a published
//! hash, which found every card bought before the committed scheme, finds
//! none; and a sealed bid, signed, is read neither in the other bidder's
//! log nor in its signed move until the answers are revealed.

use crate::common::{
    self, Api, BACKENDS, Step, TestServer, check_served_row, choose, game, play_with_policy,
    register_admin,
};
use diesel::prelude::*;
use hexpost::describe::{self, Table};
use hexpost::mail::contexts::{self, Automatic, Ending, Turn};
use hexpost::mail::templates::Templates;
use hexpost::mail::{Links, pictures};
use hexpost::store::games::MoveRow;
use hexpost::store::schema::{games, moves};
use hexpost_engine::cards::{ProgressCard, ProgressCounts};
use hexpost_engine::dice::Dice;
use hexpost_engine::rng::GameRng;
use hexpost_engine::rulesets::VariantState;
use hexpost_engine::rulesets::ck_for_two::CkState;
use hexpost_engine::{Action, Event, GameState, LegalAction, Seat};
use hexpost_engine::{DevCard, DevCounts, Redact, Resource, Ruleset};
use serde_json::{Value, json};
use std::collections::BTreeSet;

/// Keys of the full state that no seat is ever served.
const SECRET_KEYS: [&str; 6] = ["dev_deck", "rng", "hand", "bank", "dice", "phases"];
/// The same for events, where `dice` is a public roll.
const EVENT_SECRET_KEYS: [&str; 5] = ["dev_deck", "rng", "hand", "bank", "phases"];

const PUBLIC_PLAYER_KEYS: [&str; 14] = [
    "seat",
    "kind",
    "resource_count",
    "dev_card_count",
    "knights_played",
    "played_dev",
    "roads_left",
    "settlements_left",
    "cities_left",
    "visible_vp",
    "road_length",
    "final_vp",
    // Knights given up for trade tokens (catan_for_two): public.
    "knights_discarded",
    // Only an automated seat's hand is public; always null for a player.
    "public_hand",
];

const OWN_HAND_KEYS: [&str; 4] = ["resources", "dev_cards", "new_dev_cards", "total_vp"];

fn keys(v: &Value) -> BTreeSet<&str> {
    v.as_object().unwrap().keys().map(String::as_str).collect()
}

/// Panics if a key named in `forbidden` occurs anywhere in `v`.
fn assert_no_keys(v: &Value, forbidden: &[&str], where_: &str) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                assert!(
                    !forbidden.contains(&k.as_str()),
                    "{where_}: key `{k}` served: {x}"
                );
                assert_no_keys(x, forbidden, where_);
            }
        }
        Value::Array(a) => a.iter().for_each(|x| assert_no_keys(x, forbidden, where_)),
        _ => {}
    }
}

struct Db(hexpost::store::DbPool);

impl Db {
    fn state_text(&self, id: &str) -> String {
        let mut conn = self.0.get().unwrap();
        hexpost::store::games::get(&mut conn, id)
            .unwrap()
            .unwrap()
            .state
            .unwrap()
    }

    fn state(&self, id: &str) -> GameState {
        serde_json::from_str(&self.state_text(id)).unwrap()
    }

    fn set_state(&self, id: &str, text: &str) {
        let mut conn = self.0.get().unwrap();
        let n = diesel::update(games::table.find(id))
            .set(games::state.eq(Some(text)))
            .execute(&mut conn)
            .unwrap();
        assert_eq!(n, 1);
    }

    /// The stored (unredacted) events of row `seq`.
    fn events(&self, id: &str, seq: i64) -> Vec<Event> {
        serde_json::from_str(&self.row(id, seq).events).unwrap()
    }

    fn row(&self, id: &str, seq: i64) -> MoveRow {
        let mut conn = self.0.get().unwrap();
        hexpost::store::games::moves(&mut conn, id, seq - 1, 1)
            .unwrap()
            .remove(0)
    }

    /// Stores `row`'s events and hash over row `seq`.
    fn set_row(&self, id: &str, row: &MoveRow) {
        let mut conn = self.0.get().unwrap();
        let n = diesel::update(
            moves::table
                .filter(moves::game_id.eq(id))
                .filter(moves::seq.eq(row.seq)),
        )
        .set((moves::events.eq(&row.events), moves::hash.eq(&row.hash)))
        .execute(&mut conn)
        .unwrap();
        assert_eq!(n, 1);
    }

    /// Row `seq` with each development card bought and each progress card
    /// drawn in it that `reader` may not see replaced by another kind,
    /// hashed again as the server would hash it.
    fn with_other_cards(&self, id: &str, seq: i64, reader: Seat) -> MoveRow {
        let mut row = self.row(id, seq);
        let events: Vec<Event> = serde_json::from_str(&row.events).unwrap();
        let other: Vec<Event> = events
            .into_iter()
            .map(|e| match e {
                e if e.is_visible_to(Some(reader)) => e,
                Event::DevCardBought {
                    seat,
                    card: Some(c),
                } => Event::DevCardBought {
                    seat,
                    card: Some(rotate_card(c)),
                },
                Event::ProgressDrawn {
                    seat,
                    track,
                    card: Some(c),
                } => Event::ProgressDrawn {
                    seat,
                    track,
                    card: Some(other_progress_card(c)),
                },
                e => e,
            })
            .collect();
        row.events = serde_json::to_string(&other).unwrap();
        let mut conn = self.0.get().unwrap();
        let game = hexpost::store::games::get(&mut conn, id).unwrap().unwrap();
        row.hash = hexpost::service::audit::row_hash(&game, &row).unwrap();
        row
    }
}

/// A served row without what a changed hidden fact may change: its hash
/// and the commitments in its skeleton.
fn without_commitments(row: &Value) -> Value {
    let mut row = row.clone();
    row["hash"] = Value::Null;
    for part in row["public"]["events"].as_array_mut().unwrap() {
        if let Some(c) = part.get_mut("commit") {
            *c = Value::Null;
        }
    }
    row
}

fn rotate_devs(d: DevCounts) -> DevCounts {
    DevCounts::from_counts([
        d[DevCard::Monopoly],
        d[DevCard::Knight],
        d[DevCard::VictoryPoint],
        d[DevCard::RoadBuilding],
        d[DevCard::YearOfPlenty],
    ])
}

/// Another card of `c`'s deck.
fn other_progress_card(c: ProgressCard) -> ProgressCard {
    ProgressCard::ALL
        .into_iter()
        .find(|o| *o != c && o.track() == c.track())
        .unwrap()
}

fn rotate_card(c: DevCard) -> DevCard {
    match c {
        DevCard::Knight => DevCard::VictoryPoint,
        DevCard::VictoryPoint => DevCard::RoadBuilding,
        DevCard::RoadBuilding => DevCard::YearOfPlenty,
        DevCard::YearOfPlenty => DevCard::Monopoly,
        DevCard::Monopoly => DevCard::Knight,
    }
}

/// Another world that `viewer` cannot tell from `s`: the opponent's hand
/// composition (same size, the bank making up the difference when it can)
/// and development cards (same numbers), the deck, the dice deck and the
/// RNG all differ.
fn other_world(s: &GameState, viewer: Seat) -> GameState {
    let mut w = s.clone();
    let o = 1 - viewer.index();
    let old = w.players[o].hand;
    let mut new = old;
    for (i, r) in Resource::ALL.into_iter().enumerate() {
        new[r] = old[Resource::ALL[(i + 1) % 5]];
    }
    // An open offer from the opponent stays payable, as it must.
    let payable = match &w.offer {
        Some(offer) if offer.from.index() == o => new.contains(&offer.give),
        _ => true,
    };
    // A hand a Master Merchant shows its picker is not hidden from them.
    let shown = s.ruleset().opponent_hand_shown(s, viewer);
    if payable && !shown {
        w.players[o].hand = new;
        let mut bank = w.bank;
        let fits = Resource::ALL.into_iter().all(|r| {
            let v = bank[r] as i32 + old[r] as i32 - new[r] as i32;
            if (0..=255).contains(&v) {
                bank[r] = v as u8;
                true
            } else {
                false
            }
        });
        if fits {
            w.bank = bank;
        }
    }
    if let Some(dev) = w.dev.as_mut() {
        let theirs = dev.hand_mut(viewer.opponent());
        theirs.cards = rotate_devs(theirs.cards);
        theirs.new_cards = rotate_devs(theirs.new_cards);
        dev.deck.reverse();
        for c in &mut dev.deck {
            *c = rotate_card(*c);
        }
    }
    // Cities & Knights: the opponent's progress cards swapped with cards
    // of the decks, and the decks shuffled.
    w.ruleset()
        .perturb_hidden(&mut w, viewer, &mut GameRng::from_seed(s.turn as u64));
    if let Dice::Balanced { remaining } = &mut w.dice {
        remaining.reverse();
        for d in remaining.iter_mut() {
            *d = 35 - *d;
        }
    }
    w.rng = GameRng::from_seed(0x5eed ^ s.turn as u64);
    w
}

/// The players' display names of game `id`, by seat.
fn names(api: &Api, id: &str) -> [String; 2] {
    let mut names = [String::new(), String::new()];
    for p in game(api, id)["players"].as_array().unwrap() {
        names[p["seat"].as_u64().unwrap() as usize] = p["display_name"].as_str().unwrap().into();
    }
    names
}

/// `events` with every part hidden from `reader` changed: another
/// development card bought, another resource stolen.
fn hidden_changed(events: &[Event], reader: Seat) -> Vec<Event> {
    events
        .iter()
        .map(|e| match e {
            Event::DevCardBought {
                seat,
                card: Some(c),
            } if *seat != reader => Event::DevCardBought {
                seat: *seat,
                card: Some(rotate_card(*c)),
            },
            Event::Stole {
                thief,
                victim,
                resource: Some(r),
            } if *thief != reader && *victim != reader => Event::Stole {
                thief: *thief,
                victim: *victim,
                resource: Some(Resource::ALL[(r.index() + 1) % 5]),
            },
            e => e.clone(),
        })
        .collect()
}

/// Every mail the player of `seat` may get about the game in `state`,
/// both parts, with `events` as what happened since their last decision.
/// Each mail's subject, both parts and board scene, with its drawn
/// pictures when `draw` (drawing is the slow part).
fn mails(
    state: &GameState,
    seat: Seat,
    events: &[Event],
    names: &[String; 2],
    draw: bool,
) -> Vec<String> {
    let table = Table::of_state(names.clone(), state);
    let turn = Turn {
        state,
        seat,
        table: &table,
        move_number: 12,
        deadline: Some("Mon 2026-11-30 18:00 CET".into()),
    };
    let automatic = Automatic {
        in_a_row: 1,
        max: 3,
    };
    let ending = Ending {
        result: "Ada won",
        seed: "5eed",
        seed_hash: "5eedhash",
    };
    let contexts = [
        ("your_move", contexts::your_move(&turn, events)),
        ("reminder", contexts::reminder(&turn, 2, false)),
        (
            "timeout",
            contexts::timeout(&turn, events, automatic, false),
        ),
        (
            "digest",
            contexts::digest(
                &names[seat.index()],
                vec![contexts::digest_game(&turn, events, "g", "standard")],
            ),
        ),
        (
            "game_over",
            contexts::game_over(state, seat, &table, &ending, events),
        ),
    ];
    let templates = Templates::new().unwrap();
    contexts
        .into_iter()
        .map(|(kind, mut context)| {
            contexts::about_game(&mut context, "g", "standard");
            Links::new("https://hexpost.example.org").fill(&mut context);
            let board = pictures::board(state, seat, &table, events);
            let scene = board.to_string();
            let mut drawn = Vec::new();
            if draw {
                // A digest shows each game's picture with the game.
                let item = match kind {
                    "digest" => &mut context["games"][0],
                    _ => &mut context,
                };
                item[pictures::BOARD] = board;
                drawn = pictures::attach(&mut context, "m", "hexpost.example.org");
                assert_eq!(drawn.len(), 1, "{kind}: a picture");
            }
            let r = templates.render(kind, &context).unwrap();
            let pngs: Vec<&[u8]> = drawn.iter().map(|i| i.png.as_slice()).collect();
            format!("{}\n{}\n{}\n{scene}\n{pngs:?}", r.subject, r.text, r.html)
        })
        .collect()
}

/// A random player that buys development cards whenever it can, so that
/// hands hold secrets worth keeping; otherwise uniform over what is legal.
fn secretive(view: &Value, legal: &[LegalAction], rng: &mut GameRng) -> Action {
    if legal.contains(&LegalAction::BuyDevelopmentCard) && rng.below(4) != 0 {
        return Action::BuyDevelopmentCard;
    }
    choose(view, legal, rng)
}

struct Checker<'a> {
    db: Db,
    id: String,
    players: [&'a Api; 2],
    seats: [Seat; 2],
    /// Log rows each player has checked so far.
    seen: [i64; 2],
    moves: usize,
    worlds_checked: usize,
    /// HTTP checks where the opponent's hand composition really differed.
    hands_swapped: usize,
    /// Rows read again with the hidden card changed underneath.
    cards_changed: usize,
    /// The players' names, by seat.
    names: [String; 2],
    /// Mails rendered again with a hidden card of their events changed.
    mail_cards_changed: usize,
}

impl Checker<'_> {
    /// The checks of one seat's served game against the true state.
    fn check_view(&self, who: usize, state: &GameState, detail: &Value) {
        let seat = self.seats[who];
        let view = &detail["view"];
        assert_no_keys(detail, &SECRET_KEYS, "game detail");
        assert!(detail.get("state").is_none());
        // Every row of a game started now is of the committed scheme,
        // whose hashes may be shown.
        assert!(detail["chain_head"].is_string(), "{}", detail["chain_head"]);
        if detail["status"] == "active" {
            assert!(detail["seed"].is_null(), "the seed is served while playing");
        }
        assert_eq!(view["viewer"], seat.0);
        // The view is exactly the engine's view for this seat.
        assert_eq!(view, &serde_json::to_value(state.view(Some(seat))).unwrap());
        // `you` is the viewer's own hand.
        let you = &view["you"];
        assert_eq!(keys(you), OWN_HAND_KEYS.into_iter().collect());
        let me = &state.players[seat.index()];
        assert_eq!(you["resources"], serde_json::to_value(me.hand).unwrap());
        assert_eq!(
            you["dev_cards"],
            serde_json::to_value(state.dev_hand(seat).cards).unwrap()
        );
        assert_eq!(
            you["new_dev_cards"],
            serde_json::to_value(state.dev_hand(seat).new_cards).unwrap()
        );
        // Everyone else only as counts.
        let players = view["players"].as_array().unwrap();
        assert_eq!(players.iter().filter(|p| p["kind"] == "real").count(), 2);
        for (i, p) in players
            .iter()
            .enumerate()
            .filter(|(_, p)| p["kind"] == "real")
        {
            assert_eq!(keys(p), PUBLIC_PLAYER_KEYS.into_iter().collect(), "{p}");
            let truth = &state.players[i];
            assert_eq!(p["resource_count"], truth.hand.total());
            assert_eq!(p["dev_card_count"], state.dev_hand(truth.seat).count());
            assert!(
                p["public_hand"].is_null(),
                "a real player's hand is served: {p}"
            );
            if detail["status"] == "active" {
                assert!(p["final_vp"].is_null(), "{p}");
            }
        }
        if let VariantState::CkForTwo(ck) = &state.variant {
            Self::check_ck_view(seat, state, ck, &view["variant"]);
        }
        // The legal actions are the engine's, for this seat.
        assert_eq!(
            detail["legal_actions"],
            if detail["status"] == "active" {
                serde_json::to_value(state.legal_actions(seat)).unwrap()
            } else {
                json!([])
            }
        );
    }

    /// Cities & Knights: one's own progress cards, the opponent's only as a
    /// count, each player's resource and commodity counts but not their
    /// kinds, deck sizes but not their cards.
    fn check_ck_view(seat: Seat, state: &GameState, ck: &CkState, served: &Value) {
        for (i, p) in served["players"].as_array().unwrap().iter().enumerate() {
            let truth = &ck.players[i].progress;
            assert_eq!(p["progress"]["count"], truth.count, "{p}");
            if i == seat.index() {
                assert_eq!(
                    p["progress"]["cards"],
                    serde_json::to_value(truth.cards).unwrap()
                );
            } else {
                assert!(p["progress"]["cards"].is_null(), "{p}");
            }
            let hand = state.players[i].hand;
            assert_eq!(
                served["hand_counts"][i],
                json!({"resources": hand.resources().total(), "commodities": hand.commodities().total()})
            );
        }
        for (t, d) in served["decks"].as_array().unwrap().iter().enumerate() {
            assert!(d["cards"].is_null(), "{d}");
            assert_eq!(d["size"], ck.decks[t].size);
        }
    }

    /// An event as served to `seat`, given the stored one.
    fn check_event(seat: Seat, served: &Value, stored: &Event, where_: &str) {
        assert_no_keys(served, &EVENT_SECRET_KEYS, where_);
        assert_eq!(
            served,
            &serde_json::to_value(stored.redacted_for(Some(seat))).unwrap(),
            "{where_}"
        );
        match stored {
            Event::DevCardBought { seat: buyer, .. } if *buyer != seat => {
                assert!(served["card"].is_null(), "{where_}: {served}")
            }
            Event::Stole { thief, victim, .. } if *thief != seat && *victim != seat => {
                assert!(served["resource"].is_null(), "{where_}: {served}")
            }
            Event::ProgressDrawn { seat: drawer, .. } if *drawer != seat => {
                assert!(served["card"].is_null(), "{where_}: {served}")
            }
            _ => {}
        }
    }

    /// A log row as `seat` reads it: its hash follows from what it shows,
    /// it commits to exactly what the seat may not see, and changing a
    /// hidden card underneath changes nothing the seat reads but that
    /// commitment and the hash.
    fn check_log_row(&mut self, p: &Api, seat: Seat, row: &Value, stored: &[Event]) {
        assert_no_keys(row, &EVENT_SECRET_KEYS, "log row");
        assert!(row["jws"].is_null(), "an unsigned move: {row}");
        let hidden = stored
            .iter()
            .filter(|e| !e.is_visible_to(Some(seat)))
            .count();
        assert_eq!(check_served_row(&self.id, row), hidden, "{row}");
        // The row's sentences are the mails' words for its events.
        let table = Table::of_state(self.names.clone(), &self.db.state(&self.id));
        let sentences: Vec<String> = stored
            .iter()
            .map(|e| describe::event(e, Some(seat), &table))
            .collect();
        assert_eq!(row["text"], json!(sentences), "{row}");
        let seq = row["seq"].as_i64().unwrap();
        if hidden == 0
            || !stored
                .iter()
                .any(|e| matches!(e, Event::DevCardBought { .. } | Event::ProgressDrawn { .. }))
        {
            return;
        }
        let original = self.db.row(&self.id, seq);
        let changed = self.db.with_other_cards(&self.id, seq, seat);
        assert_ne!(changed.hash, original.hash);
        self.db.set_row(&self.id, &changed);
        let read = p
            .get(&format!(
                "/api/v1/games/{}/log?after={}&limit=1",
                self.id,
                seq - 1
            ))
            .ok()[0]
            .clone();
        self.db.set_row(&self.id, &original);
        assert_eq!(read["hash"].as_str(), Some(changed.hash.as_str()));
        assert_eq!(
            without_commitments(&read),
            without_commitments(row),
            "seat {seat:?} can tell the cards apart"
        );
        self.cards_changed += 1;
    }

    fn after_move(&mut self, step: &Step) {
        self.moves += 1;
        let truth_text = self.db.state_text(&self.id);
        let truth: GameState = serde_json::from_str(&truth_text).unwrap();
        let n = step.outcome["move_number"].as_i64().unwrap();

        // The move response, for the mover.
        let mover = self.seats[step.who];
        let out = &step.outcome;
        assert_no_keys(&out["view"], &SECRET_KEYS, "move response");
        assert_no_keys(out, &EVENT_SECRET_KEYS, "move response");
        assert_eq!(
            out["view"],
            serde_json::to_value(truth.view(Some(mover))).unwrap()
        );
        // The move's own row and the server's rows it set off (a
        // Cities & Knights roll's automated steps).
        let stored: Vec<Event> = (step.expected + 1..=n)
            .flat_map(|seq| self.db.events(&self.id, seq))
            .collect();
        let served = out["events"].as_array().unwrap();
        assert_eq!(served.len(), stored.len());
        for (s, e) in served.iter().zip(&stored) {
            Self::check_event(mover, s, e, "move response");
        }
        // Its sentences are the log rows' and the mails' words, and each
        // legal action is asked for in the mails' words.
        let table = Table::of_state(self.names.clone(), &truth);
        let sentences: Vec<String> = stored
            .iter()
            .map(|e| describe::event(e, Some(mover), &table))
            .collect();
        assert_eq!(out["text"], json!(sentences), "move response");
        let legal: Vec<LegalAction> = serde_json::from_value(out["legal_actions"].clone()).unwrap();
        let phrases: Vec<String> = legal
            .iter()
            .map(|l| describe::decision(l, &table))
            .collect();
        assert_eq!(out["legal_action_text"], json!(phrases), "move response");

        for who in 0..2 {
            let seat = self.seats[who];
            let p = self.players[who];
            // The game as served.
            let detail = game(p, &self.id);
            self.check_view(who, &truth, &detail);
            let mut new_events = Vec::new();
            // The new log rows, as served.
            let rows = p
                .get(&format!(
                    "/api/v1/games/{}/log?after={}",
                    self.id, self.seen[who]
                ))
                .ok()
                .as_array()
                .unwrap()
                .clone();
            for row in &rows {
                let seq = row["seq"].as_i64().unwrap();
                let stored = self.db.events(&self.id, seq);
                let served = row["events"].as_array().unwrap();
                assert_eq!(served.len(), stored.len());
                for (s, e) in served.iter().zip(&stored) {
                    Self::check_event(seat, s, e, "log");
                }
                self.check_log_row(p, seat, row, &stored);
                new_events.extend(stored);
                self.seen[who] = seq;
            }
            assert_eq!(self.seen[who], n, "the log is behind the game");

            // Another world, the same game for this seat: in the engine
            // after every move, over HTTP every few moves.
            if detail["status"] != "active" {
                continue;
            }
            let world = other_world(&truth, seat);
            let opp = 1 - seat.index();
            assert_eq!(
                world.players[opp].hand.total(),
                truth.players[opp].hand.total()
            );
            assert_eq!(
                truth.view(Some(seat)),
                world.view(Some(seat)),
                "seat {seat:?} can tell the worlds apart"
            );
            assert_eq!(truth.legal_actions(seat), world.legal_actions(seat));
            // The mails, in the other world and with the move's hidden
            // cards changed.
            let changed = hidden_changed(&new_events, seat);
            let draw = self.moves % 7 == who;
            assert_eq!(
                mails(&truth, seat, &new_events, &self.names, draw),
                mails(&world, seat, &changed, &self.names, draw),
                "seat {seat:?} can tell the worlds apart by mail"
            );
            if changed != new_events {
                self.mail_cards_changed += 1;
            }
            if self.moves % 7 == who {
                let changed = world != truth;
                assert!(changed);
                self.db
                    .set_state(&self.id, &serde_json::to_string(&world).unwrap());
                let there = game(p, &self.id);
                self.db.set_state(&self.id, &truth_text);
                assert_eq!(there, detail, "seat {seat:?} can tell the worlds apart");
                self.worlds_checked += 1;
                if world.players[opp].hand != truth.players[opp].hand {
                    self.hands_swapped += 1;
                }
            }
        }
    }
}

#[test]
fn nothing_hidden_is_served_to_the_other_seat() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (root, _) = register_admin(&server, "root");
        let mut total_moves = 0;
        let mut hidden_cards_seen = 0;
        let mut progress_cards_drawn = 0;
        let mut finished = 0;
        let mut hands_swapped = 0;
        let mut cards_changed = 0;
        let mut mail_cards_changed = 0;
        // (variant, options, move cap): random play is long-winded, so two
        // games stop early and one is played to its end; more games follow
        // (rarely) until a development card was bought, and one bought while
        // the game went on, so a mail to the other player could show it.
        let games = [
            ("standard", json!({"vp_target": 5}), 150),
            ("duel", json!({"vp_target": 3}), 5000),
            // Progress cards and the kinds of cards in hand (RULES.md
            // §6.16): a game stopped once cards were drawn and traded.
            ("ck_for_two", json!({}), 600),
            (
                "standard",
                json!({"vp_target": 5, "balanced_dice": true}),
                150,
            ),
        ];
        let mut g = 0;
        // Each game's seed is fixed, as are the players' choices; should a
        // change of the rules make a ck_for_two game of 600 random moves
        // draw no progress card, another follows.
        while g < games.len()
            || ((hidden_cards_seen == 0 || mail_cards_changed == 0 || progress_cards_drawn == 0)
                && g < games.len() + 4)
        {
            let extra = if progress_cards_drawn == 0 {
                ("ck_for_two", json!({}), 600)
            } else {
                ("standard", json!({}), 150)
            };
            let (variant, options, cap) = games.get(g).cloned().unwrap_or(extra);
            g += 1;
            let (a, b, id) = server.new_game_seeded(variant, options, 7_000 + g as u64);
            let seats = [a.clone(), b.clone()]
                .map(|p| Seat(game(&p, &id)["your_seat"].as_u64().unwrap() as u8));
            let mut checker = Checker {
                db: Db(server.db()),
                id: id.clone(),
                players: [&a, &b],
                seats,
                seen: [0, 0],
                moves: 0,
                worlds_checked: 0,
                hands_swapped: 0,
                cards_changed: 0,
                names: names(&a, &id),
                mail_cards_changed: 0,
            };
            // The start row and the opening view.
            for who in 0..2 {
                let state = checker.db.state(&id);
                checker.check_view(who, &state, &game(checker.players[who], &id));
            }
            let made = play_with_policy([&a, &b], &id, 1000 + g as u64, cap, secretive, |step| {
                checker.after_move(step)
            });
            assert_eq!(made, checker.moves);
            assert!(
                checker.worlds_checked > made / 7,
                "{}",
                checker.worlds_checked
            );
            total_moves += made;
            hands_swapped += checker.hands_swapped;
            cards_changed += checker.cards_changed;
            mail_cards_changed += checker.mail_cards_changed;
            // Once over, the seed and the final scores are public.
            let end = game(&a, &id);
            if end["status"] == "finished" {
                finished += 1;
                assert!(end["seed"].is_string(), "{}", end["seed"]);
                for p in end["view"]["players"].as_array().unwrap() {
                    assert!(p["final_vp"].is_u64(), "{p}");
                }
            }
            // The worlds were put back: the log still verifies.
            let report = root.get(&format!("/api/v1/admin/games/{id}/verify"));
            assert_eq!(report.ok()["ok"], true, "{}", report.body);
            let full = root.full_log(&id, true);
            hidden_cards_seen += full
                .iter()
                .flat_map(|r| r["events"].as_array().unwrap())
                .filter(|e| e["type"] == "dev_card_bought")
                .count();
            progress_cards_drawn += full
                .iter()
                .flat_map(|r| r["events"].as_array().unwrap())
                .filter(|e| e["type"] == "progress_drawn")
                .count();
        }
        assert!(total_moves > 60, "{backend:?}: only {total_moves} moves");
        assert!(finished > 0, "{backend:?}: no game ended");
        assert!(
            hands_swapped > 10,
            "{backend:?}: {hands_swapped} hands swapped"
        );
        // The redaction of bought cards was exercised, and its commitment.
        assert!(hidden_cards_seen > 0, "{backend:?}: no card was bought");
        assert!(cards_changed > 0, "{backend:?}: no hidden card was changed");
        assert!(
            mail_cards_changed > 0,
            "{backend:?}: no mail was rendered with a hidden card changed"
        );
        assert!(
            progress_cards_drawn > 0,
            "{backend:?}: no progress card was drawn"
        );
    }
}

/// The attack that read every opponent purchase off the log: for a row
/// that shows `{"type": "dev_card_bought", "card": null}`, fill in each
/// card kind and hash the row as it would have been hashed. It finds the
/// card in the hash the plain scheme gave the row (kept by the server,
/// never shown), and nothing in the published hash: neither hashing the
/// candidate in clear, nor committing to it with any salt the reader holds.
#[test]
fn trying_every_card_against_a_published_hash_finds_nothing() {
    use hexpost::service::audit::plain_row_hash;
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let db = Db(server.db());
        let (a, b, id) = server.client().new_game("standard", json!({}));
        let (mut attacked, mut found_in_plain) = (0, 0);
        for chunk in 0..60 {
            if attacked >= 6 {
                break;
            }
            let made = play_with_policy([&a, &b], &id, 300 + chunk, 40, secretive, |_| {});
            for reader in [&a, &b] {
                let log = reader.full_log(&id, false);
                // Every salt the reader was given, anywhere in the log.
                let salts: Vec<String> = log
                    .iter()
                    .flat_map(|r| r["salts"].as_object().unwrap().values())
                    .map(|s| s.as_str().unwrap().to_string())
                    .chain([hex::encode([0u8; 32])])
                    .collect();
                for row in &log {
                    let served: Vec<Event> = serde_json::from_value(row["events"].clone()).unwrap();
                    let Some(at) = served
                        .iter()
                        .position(|e| matches!(e, Event::DevCardBought { card: None, .. }))
                    else {
                        continue;
                    };
                    let seq = row["seq"].as_i64().unwrap();
                    let stored = db.row(&id, seq);
                    let published = row["hash"].as_str().unwrap();
                    assert_eq!(published, stored.hash);
                    // The row as the attacker rebuilds it around a guess.
                    let action: Action = serde_json::from_value(row["action"].clone()).unwrap();
                    let guess = |card: DevCard| {
                        let mut events = served.clone();
                        if let Event::DevCardBought { seat, .. } = events[at] {
                            events[at] = Event::DevCardBought {
                                seat,
                                card: Some(card),
                            };
                        }
                        MoveRow {
                            game_id: id.clone(),
                            seq,
                            actor: row["actor"].as_str().unwrap().into(),
                            seat: row["seat"].as_i64().map(|s| s as i32),
                            user_id: row["user_id"].as_i64(),
                            action: serde_json::to_string(&action).unwrap(),
                            jws: None,
                            events: serde_json::to_string(&events).unwrap(),
                            state_hash: row["state_hash"].as_str().unwrap().into(),
                            prev_hash: row["prev_hash"].as_str().unwrap().into(),
                            hash: String::new(),
                            created_at: row["created_at"].as_i64().unwrap(),
                            sealed: false,
                        }
                    };
                    let cards = [
                        DevCard::Knight,
                        DevCard::VictoryPoint,
                        DevCard::RoadBuilding,
                        DevCard::YearOfPlenty,
                        DevCard::Monopoly,
                    ];
                    // What the plain scheme would have published: the
                    // attack finds the card there.
                    let plain = plain_row_hash(&stored);
                    let hits: Vec<DevCard> = cards
                        .into_iter()
                        .filter(|c| plain_row_hash(&guess(*c)) == plain)
                        .collect();
                    let truth: Vec<Event> = serde_json::from_str(&stored.events).unwrap();
                    let Event::DevCardBought {
                        card: Some(card), ..
                    } = truth[at]
                    else {
                        panic!("{truth:?}");
                    };
                    assert_eq!(hits, vec![card], "the attack works on plain hashes");
                    found_in_plain += 1;
                    // Against the published hash it finds nothing.
                    for c in cards {
                        let candidate = guess(c);
                        assert_ne!(plain_row_hash(&candidate), published);
                        let mut clear = row.clone();
                        clear["public"]["events"][at] =
                            serde_json::to_value(candidate_event(&candidate, at)).unwrap();
                        assert_ne!(common::served_hash(&id, &clear), published);
                        for salt in &salts {
                            let mut committed = row.clone();
                            committed["public"]["events"][at]["commit"] = json!(common::opened(
                                salt,
                                &serde_json::to_value(candidate_event(&candidate, at)).unwrap()
                            ));
                            assert_ne!(
                                common::served_hash(&id, &committed),
                                published,
                                "{backend:?}: card {c:?} found with a salt the reader holds"
                            );
                        }
                    }
                    attacked += 1;
                }
            }
            if made < 40 {
                break;
            }
        }
        assert!(attacked >= 2, "{backend:?}: only {attacked} hidden cards");
        assert_eq!(found_in_plain, attacked);
    }
}

fn candidate_event(row: &MoveRow, at: usize) -> Event {
    let events: Vec<Event> = serde_json::from_str(&row.events).unwrap();
    events[at].clone()
}

/// A shadow game played until an auction asks both players for a first
/// bid: (bidder in seat 0, the other bidder, game id).
fn open_auction(server: &TestServer) -> (Api, Api, String) {
    let db = Db(server.db());
    for attempt in 0..10 {
        let (a, b, id) = server.client().new_game("shadow", json!({}));
        if to_open_auction(&db, [&a, &b], &id, 50 * attempt) {
            return if game(&a, &id)["your_seat"] == 0 {
                (a, b, id)
            } else {
                (b, a, id)
            };
        }
    }
    panic!("no auction asked both players");
}

/// Plays random moves (seeds from `seed` on) until an auction asks both
/// players for a first bid; false when the game ended first.
fn to_open_auction(db: &Db, players: [&Api; 2], id: &str, seed: u64) -> bool {
    for n in 0..3000u64 {
        if let hexpost_engine::Phase::Variant(hexpost_engine::rulesets::Step::Auction(au)) =
            db.state(id).phase()
            && au.bids
                == [
                    hexpost_engine::rulesets::Bid::Waiting,
                    hexpost_engine::rulesets::Bid::Waiting,
                ]
        {
            return true;
        }
        if common::play_moves(players, id, seed + n, 1) == 0 {
            return false;
        }
    }
    false
}

/// A signed move: the compact JWS of its claims with an Ed25519 key the
/// player registers first.
fn signed(p: &Api, id: &str, key_seed: [u8; 32], action: &Value) -> String {
    let key = common::ed25519::Ed25519::from_seed(key_seed);
    let user = p.get("/api/v1/me").ok()["id"].as_i64().unwrap();
    key.register(p, user).ok();
    let n = game(p, id)["move_number"].as_i64().unwrap();
    key.sign(&common::ed25519::move_claims(id, n, action))
}

#[test]
fn a_sealed_bid_is_kept_from_the_other_bidder_in_the_log_and_its_signature() {
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (root, _) = register_admin(&server, "root");
        let db = Db(server.db());
        let (bidder, other, id) = open_auction(&server);
        let hand = db.state(&id).player(Seat(0)).hand;
        let kind = Resource::ALL.into_iter().find(|r| hand[*r] > 0).unwrap();
        let action = serde_json::to_value(Action::Bid {
            cards: hexpost_engine::Cards::single(kind, 1),
        })
        .unwrap();
        let jws = signed(&bidder, &id, [42; 32], &action);
        bidder
            .post(&format!("/api/v1/games/{id}/moves"), &json!({"jws": jws}))
            .ok();
        let seq = game(&bidder, &id)["move_number"].as_i64().unwrap();
        let row_of = |p: &Api| -> (Value, String) {
            let r = p.get(&format!("/api/v1/games/{id}/log?after={}&limit=1", seq - 1));
            let text = serde_json::to_string(&r.body).unwrap();
            (r.ok()[0].clone(), text)
        };
        assert!(db.row(&id, seq).sealed, "the bid's row is marked sealed");

        // The other bidder: that seat 0 answered, and no more.
        let (row, text) = row_of(&other);
        assert_eq!(row["action"], json!({"type": "sealed"}), "{row}");
        assert!(row["jws"].is_null(), "{row}");
        assert!(!text.contains(&jws), "{text}");
        assert!(!text.contains("\"bid\""), "{text}");
        let payload = jws.split('.').nth(1).unwrap();
        let whole = serde_json::to_string(&other.full_log(&id, false)).unwrap();
        assert!(!whole.contains(payload), "the signed bid is served");
        assert!(row["public"]["action"]["commit"].is_string(), "{row}");
        assert!(row["public"]["jws"]["commit"].is_string(), "{row}");
        assert_eq!(check_served_row(&id, &row), 2, "{row}");
        assert_eq!(game(&other, &id)["view"]["phase"]["bids"][0], "sealed");
        // The bidder reads their own bid, and can open it.
        let (own, _) = row_of(&bidder);
        assert_eq!(own["action"], action);
        assert_eq!(own["jws"], jws.as_str());
        assert_eq!(check_served_row(&id, &own), 0, "{own}");

        // The other answers: both are revealed, to both.
        let n = game(&other, &id)["move_number"].as_i64().unwrap();
        other.submit(&id, n, &json!({"type": "pass_bid"})).ok();
        let (row, _) = row_of(&other);
        assert_eq!(row["action"], action);
        assert_eq!(row["jws"], jws.as_str());
        assert_eq!(check_served_row(&id, &row), 0, "{row}");
        let answer = db.row(&id, n + 1);
        assert!(!answer.sealed, "the last answer reveals: {answer:?}");
        let report = root.get(&format!("/api/v1/admin/games/{id}/verify"));
        assert_eq!(report.ok()["ok"], true, "{}", report.body);
    }
}

fn progress_cards(view: &Value, seat: Seat) -> &Value {
    &view["view"]["variant"]["players"][seat.index()]["progress"]
}

/// The Spy (RULES.md §6.13): its player is shown the opponent's progress
/// cards and takes one. The thief's view holds it, the victim's no longer
/// does; the hand shown is in the thief's log only, and the thief's own
/// cards never reach the victim, in the view or the log.
#[test]
fn a_spy_takes_a_progress_card_that_only_the_two_players_learn() {
    use hexpost_engine::rulesets::ck_for_two::wire::{ProgressOption, ProgressPlay};
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let (a, b, id) = server.client().new_game("ck_for_two", json!({}));
        let players = [&a, &b];
        let mut steer = common::steer::Steer::new(&server, players, &id);
        let spy = LegalAction::PlayProgress {
            play: Box::new(ProgressOption::Spy),
        };
        let thief = steer.reach(common::steer::collector, 8_000, |s| {
            s.awaiting()
                .iter()
                .copied()
                .find(|&seat| s.legal_actions(seat).contains(&spy))
        });
        let victim = thief.opponent();
        let (thief_api, victim_api) = (steer.player(thief), steer.player(victim));
        let before = [game(thief_api, &id), game(victim_api, &id)];
        let shown = progress_cards(&before[1], victim)["cards"].clone();
        let thief_count = progress_cards(&before[0], thief)["count"].as_u64().unwrap();
        assert!(progress_cards(&before[1], thief)["cards"].is_null());

        let played = steer.play(
            thief,
            &Action::PlayProgress {
                play: ProgressPlay::Spy,
            },
        );
        let shown_event = played["events"]
            .as_array()
            .unwrap()
            .iter()
            .find(|e| e["type"] == "progress_hand_shown")
            .unwrap_or_else(|| panic!("{played}"))
            .clone();
        assert_eq!(shown_event["cards"], shown, "{backend:?}");
        let counts: ProgressCounts = serde_json::from_value(shown).unwrap();
        let taken = *ProgressCard::ALL.iter().find(|&&c| counts[c] > 0).unwrap();
        let out = steer.play(thief, &Action::SpyTake { card: Some(taken) });
        assert!(
            out["events"]
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["type"] == "progress_taken" && e["card"] == json!(taken))
        );

        let key = json!(taken).as_str().unwrap().to_string();
        let after = [game(thief_api, &id), game(victim_api, &id)];
        // The Spy is played, the card taken: one card for the other.
        let own = progress_cards(&after[0], thief);
        assert_eq!(own["count"], thief_count, "{backend:?}: {own}");
        assert!(own["cards"][&key].as_u64().unwrap() >= 1, "{own}");
        let lost = progress_cards(&after[1], victim);
        let was = counts[taken];
        assert_eq!(
            lost["cards"][&key].as_u64().unwrap_or(0),
            u64::from(was) - 1,
            "{backend:?}: {lost}"
        );
        // Only counts of the other's hand in either view.
        assert!(progress_cards(&after[1], thief)["cards"].is_null());
        assert_eq!(progress_cards(&after[1], thief)["count"], thief_count);
        assert!(progress_cards(&after[0], victim)["cards"].is_null());

        // The victim's log: the Spy played and the card taken (the two
        // players learn it), the hand shown only as shown, never with the
        // cards, and no card the thief drew.
        let log = victim_api.full_log(&id, false);
        let events: Vec<&Value> = log
            .iter()
            .flat_map(|row| row["events"].as_array().unwrap())
            .collect();
        let shown_rows: Vec<&&Value> = events
            .iter()
            .filter(|e| e["type"] == "progress_hand_shown")
            .collect();
        assert_eq!(shown_rows.len(), 1, "{backend:?}");
        assert!(shown_rows[0]["cards"].is_null(), "{}", shown_rows[0]);
        assert!(events.iter().any(|e| {
            e["type"] == "progress_played" && e["card"] == "spy" && e["seat"] == thief.0
        }));
        assert!(events.iter().any(|e| e["type"] == "progress_taken"
            && e["card"] == json!(taken)
            && e["from"] == victim.0));
        for e in &events {
            if e["type"] == "progress_drawn" && e["seat"] == thief.0 {
                assert!(e["card"].is_null(), "{backend:?}: {e}");
            }
        }
        // The thief's log shows the hand it was shown.
        let thief_log = thief_api.full_log(&id, false);
        assert!(
            thief_log
                .iter()
                .flat_map(|row| row["events"].as_array().unwrap())
                .any(|e| e["type"] == "progress_hand_shown" && e["cards"] == shown_event["cards"])
        );
    }
}

/// Auctions the race below is run in, per backend.
const RACED_AUCTIONS: usize = 8;
/// Readers of the log racing each first bid.
const LOG_READERS: usize = 3;

/// A first bid stays sealed from the other bidder however their reads
/// interleave with its write: three threads of theirs read the log while
/// it is written, and their stream sends the bid's row before they
/// answer. (The log's reader once read the game row, which says what is
/// sealed, before the rows, so a bid written in between was served in
/// clear with its salt: 21 auctions in 40 on PostgreSQL.)
#[test]
fn a_first_bid_stays_sealed_from_the_other_bidder_reading_while_it_is_written() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, Mutex};
    for backend in BACKENDS {
        let server = TestServer::start(backend);
        let db = Db(server.db());
        let (bidder, other, id) = open_auction(&server);
        let at = game(&other, &id)["move_number"].as_i64().unwrap();
        let stream = crate::common::sse::game_stream(&other, &id, Some(at));
        for round in 0..RACED_AUCTIONS {
            let at = game(&other, &id)["move_number"].as_i64().unwrap();
            let bid_seq = at + 1;
            let leaks = Arc::new(Mutex::new(Vec::<String>::new()));
            let bid_written = Arc::new(AtomicBool::new(false));
            let reads_after = Arc::new(AtomicUsize::new(0));
            let readers: Vec<_> = (0..LOG_READERS)
                .map(|_| {
                    let (reader, id) = (other.clone(), id.clone());
                    let (leaks, bid_written, reads_after) =
                        (leaks.clone(), bid_written.clone(), reads_after.clone());
                    std::thread::spawn(move || {
                        loop {
                            let written = bid_written.load(Ordering::SeqCst);
                            let log = reader.get(&format!("/api/v1/games/{id}/log?after={at}"));
                            for row in log.ok().as_array().unwrap() {
                                if row["seq"] == bid_seq
                                    && (row["action"] != json!({"type": "sealed"})
                                        || !row["jws"].is_null()
                                        || row["salts"].get("action").is_some())
                                {
                                    leaks.lock().unwrap().push(row.to_string());
                                }
                            }
                            if written && reads_after.fetch_add(1, Ordering::SeqCst) >= LOG_READERS
                            {
                                return;
                            }
                        }
                    })
                })
                .collect();
            let seat = Seat(game(&bidder, &id)["your_seat"].as_u64().unwrap() as u8);
            let hand = db.state(&id).player(seat).hand;
            let action = match Resource::ALL.into_iter().find(|r| hand[*r] > 0) {
                Some(kind) => serde_json::to_value(Action::Bid {
                    cards: hexpost_engine::Cards::single(kind, 1),
                })
                .unwrap(),
                None => json!({"type": "pass_bid"}),
            };
            bidder.submit(&id, at, &action).ok();
            bid_written.store(true, Ordering::SeqCst);
            for reader in readers {
                reader.join().unwrap();
            }
            let leaks = leaks.lock().unwrap();
            assert!(
                leaks.is_empty(),
                "{backend:?}, auction {round}: the bid was read unsealed: {leaks:?}"
            );
            let sent = loop {
                let event = stream.next();
                if event.id == Some(bid_seq) {
                    break event.data;
                }
            };
            assert_eq!(
                sent["action"],
                json!({"type": "sealed"}),
                "{backend:?}, auction {round}: the stream sent the bid unsealed"
            );
            assert!(sent["jws"].is_null(), "{sent}");
            let n = game(&other, &id)["move_number"].as_i64().unwrap();
            other.submit(&id, n, &json!({"type": "pass_bid"})).ok();
            let seed = 1000 * (round as u64 + 1);
            if !to_open_auction(&db, [&bidder, &other], &id, seed) {
                assert!(
                    round > 0,
                    "{backend:?}: the game ended before a second auction"
                );
                break;
            }
        }
    }
}
