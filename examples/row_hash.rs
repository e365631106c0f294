//! What hashing a log row costs under each scheme, for bench/row_hash.sh:
//! plays random games of a variant with the engine, records each decision
//! and automated step as the server's log row would hold it, then hashes
//! every row by one scheme (`plain`, `committed`, or `none` for the
//! baseline of playing and recording alone). Prints "ROWS" on its last
//! line; callgrind counts the instructions.
//!
//!   row_hash MODE VARIANT GAMES

mod common;

use hexpost::service::audit::{plain_row_hash, sha256_hex};
use hexpost::service::commitments::{self, Contents, Salts};
use hexpost::store::games::MoveRow;
use hexpost_engine::{Event, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, mode, variant, games] = &args[..] else {
        eprintln!("usage: row_hash plain|committed|none VARIANT GAMES");
        std::process::exit(2);
    };
    let variant = Variant::parse(variant).expect("a variant id");
    let games: u64 = games.parse().expect("a number of games");
    let salts = Salts::new(&[7; 32], "bench");
    let mut rows = 0u64;
    let mut digest = 0u8;
    for seed in 0..games {
        for (row, events) in recorded_game(variant, seed) {
            let hash = match mode.as_str() {
                "plain" => plain_row_hash(&row),
                "committed" => {
                    let built = Contents {
                        seq: row.seq,
                        prev_hash: &row.prev_hash,
                        bridge: false,
                        action: &row.action,
                        jws: None,
                        sealed: false,
                        events: &events,
                    }
                    .build(&salts);
                    commitments::row_hash(&row, &built.skeleton)
                }
                "none" => String::new(),
                other => panic!("unknown mode {other}"),
            };
            digest ^= hash.bytes().next().unwrap_or(0);
            rows += 1;
        }
    }
    eprintln!("{digest}");
    println!("{rows}");
}

/// A random game's rows (hash left empty) with their events.
fn recorded_game(variant: Variant, seed: u64) -> Vec<(MoveRow, Vec<Event>)> {
    let mut out = Vec::new();
    let mut prev = sha256_hex(b"genesis");
    common::play(variant, seed, |row| {
        let state_hash = sha256_hex(serde_json::to_string(row.state).unwrap().as_bytes());
        let r = MoveRow {
            game_id: "bench".into(),
            seq: out.len() as i64 + 1,
            actor: row.actor,
            seat: Some(row.seat.into()),
            user_id: Some(1),
            action: row.action,
            jws: None,
            events: serde_json::to_string(&row.events).unwrap(),
            state_hash: state_hash.clone(),
            prev_hash: std::mem::replace(&mut prev, state_hash),
            hash: String::new(),
            created_at: 1,
            sealed: false,
        };
        out.push((r, row.events));
    });
    out
}
