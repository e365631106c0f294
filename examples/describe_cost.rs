//! What the log's sentences cost, for bench/describe_cost.sh: plays random
//! games of a variant with the engine, keeping each row's events and the
//! state's text after it, then does one thing per row (`MODE`):
//!
//! - `none`: nothing (the baseline: playing and recording);
//! - `json`: what a log read did before the sentences: each event redacted
//!   for each player and serialized;
//! - `text`: the sentences it adds: each event worded for each player;
//! - `state`: the game state parsed from its text, which a log read now
//!   does once per request (for the board its sentences name).
//!
//! Prints "ROWS EVENTS" on its last line; callgrind counts the instructions.
//!
//!   describe_cost MODE VARIANT GAMES

mod common;

use hexpost::describe::{self, Table};
use hexpost_engine::{Event, GameState, Redact, Seat, Variant};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let [_, mode, variant, games] = &args[..] else {
        eprintln!("usage: describe_cost none|json|text|state VARIANT GAMES");
        std::process::exit(2);
    };
    let variant = Variant::parse(variant).expect("a variant id");
    let games: u64 = games.parse().expect("a number of games");
    let (mut rows, mut events_seen, mut digest) = (0u64, 0u64, 0usize);
    for seed in 0..games {
        let (state, recorded) = recorded_game(variant, seed);
        let table = Table::of_state(["Ada".into(), "Grace".into()], &state);
        for (events, state_text) in &recorded {
            rows += 1;
            events_seen += events.len() as u64;
            for reader in [Seat(0), Seat(1)] {
                digest += match mode.as_str() {
                    "none" => 0,
                    "json" => events
                        .iter()
                        .map(|e| {
                            serde_json::to_string(&e.redacted_for(Some(reader)))
                                .unwrap()
                                .len()
                        })
                        .sum(),
                    "text" => events
                        .iter()
                        .map(|e| describe::event(e, Some(reader), &table).len())
                        .sum(),
                    "state" if reader == Seat(0) => {
                        serde_json::from_str::<GameState>(state_text).unwrap().turn as usize
                    }
                    "state" => 0,
                    other => panic!("unknown mode {other}"),
                };
            }
        }
    }
    eprintln!("{digest}");
    println!("{rows} {events_seen}");
}

/// A random game's final state, and each log row's events with the
/// state's text after it.
fn recorded_game(variant: Variant, seed: u64) -> (GameState, Vec<(Vec<Event>, String)>) {
    let mut out: Vec<(Vec<Event>, String)> = Vec::new();
    common::play(variant, seed, |row| {
        out.push((row.events, serde_json::to_string(row.state).unwrap()));
    });
    let last = out.last().expect("a game has rows");
    (serde_json::from_str(&last.1).unwrap(), out)
}
