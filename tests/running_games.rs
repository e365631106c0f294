//! Games that were running when a release changed how the log is written:
//! `tests/fixtures/running/` holds games stopped in the middle, every
//! database row of them as the server of their day stored it (the game row
//! with its seed and state, its players, their accounts and every log row).
//!
//! A fixture is never recorded again; `record` writes one that is missing.

mod common;

use base64::Engine;
use common::{Backend, TestServer, game};
use hexpost::store::games::{GameRow, MoveRow};
use hexpost_engine::rulesets::{Bid, Step};
use hexpost_engine::{Action, Cards, GameState, LegalAction, Phase, Resource, Seat};
use jsonwebtoken::{Algorithm, EncodingKey, Header, encode};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use std::path::PathBuf;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/running")
}

#[derive(Serialize, Deserialize, Debug, Clone)]
struct StoredUser {
    id: i64,
    email: String,
    display_name: String,
    password_hash: String,
}

/// Every column of the game row as it was stored.
#[derive(Serialize, Deserialize, Debug, Clone)]
struct StoredGame {
    id: String,
    variant: String,
    config: String,
    status: String,
    created_by: i64,
    seed: String,
    seed_hash: String,
    state: Option<String>,
    move_number: i64,
    chain_head: String,
    awaiting: String,
    winner_seat: Option<i32>,
    time_limit_secs: i64,
    creator_seat: Option<i32>,
    created_at: i64,
    updated_at: i64,
    finished_at: Option<i64>,
    timeout_policy: String,
    max_auto_decisions: i32,
    vacation_days: i32,
    clocks: String,
    wake_at: Option<i64>,
    version: i64,
}

/// Every column of a log row as it was stored.
#[derive(Serialize, Deserialize, Debug, Clone)]
struct StoredMove {
    seq: i64,
    actor: String,
    seat: Option<i32>,
    user_id: Option<i64>,
    action: String,
    jws: Option<String>,
    events: String,
    state_hash: String,
    prev_hash: String,
    hash: String,
    created_at: i64,
}

#[derive(Serialize, Deserialize, Debug, Clone)]
struct RunningGame {
    /// How the game was left, for the reader of the fixture.
    note: String,
    /// The password of both accounts.
    password: String,
    users: Vec<StoredUser>,
    game: StoredGame,
    /// (seat, user id).
    players: Vec<(i32, i64)>,
    moves: Vec<StoredMove>,
}

impl From<GameRow> for StoredGame {
    fn from(g: GameRow) -> Self {
        StoredGame {
            id: g.id,
            variant: g.variant,
            config: g.config,
            status: g.status,
            created_by: g.created_by,
            seed: g.seed,
            seed_hash: g.seed_hash,
            state: g.state,
            move_number: g.move_number,
            chain_head: g.chain_head,
            awaiting: g.awaiting,
            winner_seat: g.winner_seat,
            time_limit_secs: g.time_limit_secs,
            creator_seat: g.creator_seat,
            created_at: g.created_at,
            updated_at: g.updated_at,
            finished_at: g.finished_at,
            timeout_policy: g.timeout_policy,
            max_auto_decisions: g.max_auto_decisions,
            vacation_days: g.vacation_days,
            clocks: g.clocks,
            wake_at: g.wake_at,
            version: g.version,
        }
    }
}

impl From<MoveRow> for StoredMove {
    fn from(m: MoveRow) -> Self {
        StoredMove {
            seq: m.seq,
            actor: m.actor,
            seat: m.seat,
            user_id: m.user_id,
            action: m.action,
            jws: m.jws,
            events: m.events,
            state_hash: m.state_hash,
            prev_hash: m.prev_hash,
            hash: m.hash,
            created_at: m.created_at,
        }
    }
}

const PASSWORD: &str = "correct horse battery";

fn dump(server: &TestServer, id: &str, note: &str) -> RunningGame {
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    let game = hexpost::store::games::get(&mut conn, id).unwrap().unwrap();
    let players = hexpost::store::games::players(&mut conn, id).unwrap();
    let users = players
        .iter()
        .map(|&(_, uid)| {
            let u = hexpost::store::users::by_id(&mut conn, uid)
                .unwrap()
                .unwrap();
            StoredUser {
                id: u.id,
                email: u.email,
                display_name: u.display_name,
                password_hash: u.password_hash,
            }
        })
        .collect();
    let moves = hexpost::store::games::moves(&mut conn, id, 0, 100_000)
        .unwrap()
        .into_iter()
        .map(StoredMove::from)
        .collect();
    RunningGame {
        note: note.into(),
        password: PASSWORD.into(),
        users,
        game: game.into(),
        players,
        moves,
    }
}

fn state(server: &TestServer, id: &str) -> GameState {
    let pool = server.db();
    let mut conn = pool.get().unwrap();
    let row = hexpost::store::games::get(&mut conn, id).unwrap().unwrap();
    serde_json::from_str(&row.state.unwrap()).unwrap()
}

/// Buys a development card whenever it can, so that hands hold secrets.
fn buyer(view: &Value, legal: &[LegalAction], rng: &mut hexpost_engine::rng::GameRng) -> Action {
    if legal.contains(&LegalAction::BuyDevelopmentCard) {
        return Action::BuyDevelopmentCard;
    }
    common::choose(view, legal, rng)
}

/// An Ed25519 signing key as PKCS#8 DER, and its public key for the API.
fn ed25519(seed: [u8; 32]) -> (Vec<u8>, String) {
    let public = ed25519_dalek::SigningKey::from_bytes(&seed)
        .verifying_key()
        .to_bytes();
    let mut der = vec![
        0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04,
        0x20,
    ];
    der.extend_from_slice(&seed);
    (
        der,
        base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(public),
    )
}

fn write(name: &str, game: &RunningGame) {
    let path = dir().join(format!("{name}.json"));
    assert!(!path.exists(), "{name}: a fixture is never recorded again");
    let mut text = serde_json::to_string_pretty(game).unwrap();
    text.push('\n');
    std::fs::write(path, text).unwrap();
}

#[test]
#[ignore = "writes fixtures; run only to add a missing one"]
fn record() {
    std::fs::create_dir_all(dir()).unwrap();
    let server = TestServer::start(Backend::Sqlite);
    let api = server.client();

    // A standard game in which both players have bought development cards.
    let (a, b, id) = api.new_game("standard", json!({}));
    let mut bought = [false; 2];
    let mut moves = 0;
    while moves < 120 || !(bought[0] && bought[1]) {
        assert!(moves < 2000, "nobody bought a card");
        moves += common::play_with_policy([&a, &b], &id, 500 + moves as u64, 1, buyer, |_| {});
        let s = state(&server, &id);
        for (i, seen) in bought.iter_mut().enumerate() {
            *seen |= s.dev_hand(Seat(i as u8)).count() > 0;
        }
        assert_eq!(game(&a, &id)["status"], "active", "the game ended");
    }
    write(
        "standard",
        &dump(
            &server,
            &id,
            "standard, both players holding development cards, the game running",
        ),
    );

    // A shadow game left in an auction where one bidder has answered with
    // a signed bid and the other has not.
    let (a, b, id) = api.new_game("shadow", json!({}));
    let players = [&a, &b];
    let mut n = 0u64;
    let auction = loop {
        assert!(n < 3000, "no auction with both bidders asked");
        if let Phase::Variant(Step::Auction(au)) = state(&server, &id).phase()
            && au.bids == [Bid::Waiting, Bid::Waiting]
        {
            break au.clone();
        }
        common::play_moves(players, &id, 900 + n, 1);
        n += 1;
    };
    let bidder = Seat(0);
    let who = players
        .iter()
        .position(|p| game(p, &id)["your_seat"] == bidder.0)
        .unwrap();
    let s = state(&server, &id);
    let hand = s.player(bidder).hand;
    let kind = Resource::ALL
        .into_iter()
        .find(|r| hand[*r] > 0)
        .expect("an asked bidder holds cards");
    let action = serde_json::to_value(Action::Bid {
        cards: Cards::single(kind, 1),
    })
    .unwrap();
    let (der, public) = ed25519([7; 32]);
    players[who]
        .post("/api/v1/me/keys", &json!({"public_key": public}))
        .ok();
    let move_number = game(players[who], &id)["move_number"].as_i64().unwrap();
    let claims = json!({
        "game_id": id,
        "move_number": move_number,
        "action": action,
        "iat": jsonwebtoken::get_current_timestamp(),
        "jti": format!("bid-{move_number}"),
    });
    let jws = encode(
        &Header::new(Algorithm::EdDSA),
        &claims,
        &EncodingKey::from_ed_der(&der),
    )
    .unwrap();
    players[who]
        .post(&format!("/api/v1/games/{id}/moves"), &json!({"jws": jws}))
        .ok();
    match state(&server, &id).phase() {
        Phase::Variant(Step::Auction(after)) => {
            assert_eq!(after.resource, auction.resource);
            assert!(after.sealed(), "{after:?}");
            assert!(matches!(after.bids[0], Bid::Cards(_)), "{after:?}");
        }
        other => panic!("the auction closed: {other:?}"),
    }
    write(
        "shadow",
        &dump(
            &server,
            &id,
            "shadow, in an auction: seat 0 has bid one card with a signed move, seat 1 has not answered",
        ),
    );
}
