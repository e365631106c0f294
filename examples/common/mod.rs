//! Random games recorded row by row as the server's log holds them: one
//! row per player decision, then one per automated step after it. Shared
//! by the examples that measure what the server does per row, each of
//! which reads only the fields it needs.
#![allow(dead_code)]

use hexpost_engine::rng::GameRng;
use hexpost_engine::sim::{Policy, random_action_with};
use hexpost_engine::{Event, GameConfig, GameState, Variant};

/// Enough for any random game; one that runs longer is cut there.
const MAX_ACTIONS: usize = 5_000;

/// One log row of a recorded game.
pub struct Row<'a> {
    /// `seat:N` for a decision, `server` for an automated step.
    pub actor: String,
    pub seat: u8,
    /// The action's JSON.
    pub action: String,
    pub events: Vec<Event>,
    /// The state after the row.
    pub state: &'a GameState,
}

/// Plays a random game of `variant` from `seed`, handing each row to `row`
/// as it is made.
pub fn play(variant: Variant, seed: u64, mut row: impl FnMut(Row<'_>)) {
    let (mut state, _) =
        GameState::with_rng(&GameConfig::new(variant), GameRng::from_seed(seed)).unwrap();
    let mut choices = GameRng::from_seed(seed ^ 0x5eed);
    for _ in 0..MAX_ACTIONS {
        let Some(&seat) = state.awaiting().first() else {
            break;
        };
        let legal = state.legal_actions(seat);
        let Some(action) =
            random_action_with(&state, seat, &legal, &mut choices, Policy::default())
        else {
            break;
        };
        let Ok(events) = state.apply_decision(seat, &action) else {
            continue;
        };
        row(Row {
            actor: format!("seat:{}", seat.0),
            seat: seat.0,
            action: serde_json::to_string(&action).unwrap(),
            events,
            state: &state,
        });
        let mut step = Vec::new();
        while let Some(s) = state.automated_step(&mut step) {
            row(Row {
                actor: "server".into(),
                seat: s.0,
                action: format!(r#"{{"type":"automated_step","seat":{}}}"#, s.0),
                events: std::mem::take(&mut step),
                state: &state,
            });
        }
    }
}
